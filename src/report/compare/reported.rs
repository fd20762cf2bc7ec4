//! A run's lists set against the ratings tournament reports carry: a report gives each player's
//! rating on the list in force at its event (TRF16, `001` columns 49–52), FIDE's actual rating,
//! against which the run's list of that month is the simulated one.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::Serialize;

use crate::ingest::{read_reported, Reported};
use crate::model::Month;
use crate::numbers::thousands;
use crate::output::pretty_json;

use super::super::crosstable::Format;
use super::super::run_files::{ReportError, RunFiles};
use super::super::run_lists::list_months;
use super::absence::Absence;
use super::list::{file_name, load_run_list, List};
use super::render::ComparisonJson;
use super::Comparison;

/// Per list month, the reports' players: every id they cover (rated or not), and the rated ones'
/// ratings, each player's earliest report of the month first.
#[derive(Default)]
struct Covered {
    ids: HashSet<String>,
    rated: Vec<(String, i32)>,
}

/// The comparisons of each month a report falls on, then of every (player, month) together.
pub struct AgainstReports {
    pub months: Vec<Comparison>,
    pub overall: Comparison,
    /// Reports' players left out: their event's list is before the run's first or after its last.
    pub outside: usize,
}

impl AgainstReports {
    /// `run`'s list in force at each report's event (the last list of the run not after the
    /// event's month) against the ratings the reports carry: A the reports, B the run.
    pub fn of(
        run: &Path,
        reports: &Path,
        skip_invalid: bool,
        largest: usize,
    ) -> Result<AgainstReports, ReportError> {
        let files = RunFiles::open(run)?;
        let months = list_months(&files)?;
        let reported = read_reported(reports, skip_invalid)?;
        let (by_month, outside) = by_list_month(&reported, &months);
        if by_month.is_empty() {
            return Err(ReportError::NotFound(format!(
                "{}: no report falls on the lists of {} ({} to {})",
                reports.display(),
                run.display(),
                months[0],
                months[months.len() - 1]
            )));
        }
        let label = file_name(reports);
        let mut comparisons = Vec::new();
        let (mut all_a, mut all_b) = (empty(&label, None), empty(&label, None));
        for (month, covered) in &by_month {
            let actual = reported_list(&label, *month, covered);
            let simulated = covered_only(load_run_list(run, Some(*month))?, &covered.ids);
            comparisons.push(Comparison::of(&actual, &simulated, largest)?);
            // Together, each player once per month: `id@YYYY-MM`.
            append(&mut all_a, &actual, *month);
            append(&mut all_b, &simulated, *month);
        }
        all_b.label = format!("{} (each month's list)", files.scenario.name);
        all_a.label = format!("{label} (every month)");
        let mut overall = Comparison::of(&all_a, &all_b, largest)?;
        // A (player, month) on one list only is that month's, and so is its reason: the pooled
        // lists have no run to look reasons up in.
        overall.only_a = summed(comparisons.iter().map(|c| &c.only_a));
        overall.only_b = summed(comparisons.iter().map(|c| &c.only_b));
        Ok(AgainstReports {
            months: comparisons,
            overall,
            outside,
        })
    }
}

/// Counts by reason, added up.
fn summed<'a>(
    counts: impl Iterator<Item = &'a BTreeMap<Absence, usize>>,
) -> BTreeMap<Absence, usize> {
    let mut total = BTreeMap::new();
    for (reason, n) in counts.flatten() {
        *total.entry(*reason).or_insert(0) += n;
    }
    total
}

/// The reports' players by the run's list in force at their event, and how many fall outside the
/// run's lists.
fn by_list_month(
    reported: &[(String, Reported)],
    months: &[Month],
) -> (BTreeMap<Month, Covered>, usize) {
    let mut order: Vec<usize> = (0..reported.len()).collect();
    order.sort_by_key(|&i| (reported[i].1.as_of, i));
    let mut by_month: BTreeMap<Month, Covered> = BTreeMap::new();
    let mut outside = 0;
    for i in order {
        let (id, player) = &reported[i];
        let Some(month) = player.as_of.and_then(|d| in_force(months, d.month())) else {
            outside += 1;
            continue;
        };
        let covered = by_month.entry(month).or_default();
        if !covered.ids.insert(id.clone()) {
            continue;
        }
        if let Some(rating) = player.rating {
            covered.rated.push((id.clone(), rating));
        }
    }
    (by_month, outside)
}

/// The list in force in `month`: the run's last list not after it, if the run reaches it.
fn in_force(months: &[Month], month: Month) -> Option<Month> {
    let last = *months.last()?;
    months
        .iter()
        .rev()
        .find(|&&m| m <= month)
        .copied()
        .filter(|_| month <= last)
}

fn reported_list(label: &str, month: Month, covered: &Covered) -> List {
    let mut list = empty(&format!("{label}@{month}"), Some(month));
    for (id, rating) in &covered.rated {
        list.ids.push(id.clone());
        list.ratings.push(*rating);
        list.inactive.push(false);
    }
    list
}

/// The run's list cut to the players the reports cover: the others are not for them to check.
fn covered_only(mut list: List, ids: &HashSet<String>) -> List {
    let keep: Vec<bool> = list.ids.iter().map(|id| ids.contains(id)).collect();
    let mut k = keep.iter();
    list.ids.retain(|_| *k.next().unwrap_or(&false));
    let mut k = keep.iter();
    list.ratings.retain(|_| *k.next().unwrap_or(&false));
    let mut k = keep.iter();
    list.inactive.retain(|_| *k.next().unwrap_or(&false));
    list
}

fn empty(label: &str, month: Option<Month>) -> List {
    List {
        label: label.to_string(),
        month,
        ids: Vec::new(),
        ratings: Vec::new(),
        inactive: Vec::new(),
        run: None,
        left: Vec::new(),
    }
}

fn append(all: &mut List, list: &List, month: Month) {
    all.ids
        .extend(list.ids.iter().map(|id| format!("{id}@{month}")));
    all.ratings.extend(&list.ratings);
    all.inactive.extend(&list.inactive);
}

/// The comparisons as `--format json` writes them.
#[derive(Serialize)]
struct AgainstReportsJson<'a> {
    months: Vec<ComparisonJson<'a>>,
    overall: ComparisonJson<'a>,
    outside: usize,
}

impl AgainstReports {
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Json => pretty_json(&AgainstReportsJson {
                months: self.months.iter().map(Comparison::json).collect(),
                overall: self.overall.json(),
                outside: self.outside,
            }),
            // One table: each month's rows, then every month's together (`all`).
            Format::Csv => {
                let named = self.months.iter().map(|c| (c.a.as_str(), c));
                let mut out = String::new();
                for (i, (month, c)) in named.chain([("all", &self.overall)]).enumerate() {
                    let month = month.rsplit_once('@').map_or(month, |(_, m)| m);
                    for (j, line) in c.render(Format::Csv).lines().enumerate() {
                        match j {
                            0 if i == 0 => out.push_str(&format!("month,{line}\n")),
                            0 => {}
                            _ => out.push_str(&format!("{month},{line}\n")),
                        }
                    }
                }
                out
            }
            Format::Text | Format::Md => {
                let mut parts: Vec<String> = self.months.iter().map(|c| c.render(format)).collect();
                parts.push(format!(
                    "Every month together:\n{}",
                    self.overall.render(format)
                ));
                if self.outside > 0 {
                    parts.push(format!(
                        "Left out: {} of the reports' players, whose event falls before the run's first list or after its last.\n",
                        thousands(self.outside as u64)
                    ));
                }
                parts.join("\n")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lists in force: the last not after the month, none before the first or after the last
    /// (quarterly lists, as FIDE's of 2009–2012).
    #[test]
    fn the_list_in_force_at_an_event() {
        let m = |y, mo| Month::new(y, mo).unwrap();
        let months = [m(2012, 1), m(2012, 4), m(2012, 7)];
        assert_eq!(in_force(&months, m(2012, 5)), Some(m(2012, 4)));
        assert_eq!(in_force(&months, m(2012, 4)), Some(m(2012, 4)));
        assert_eq!(in_force(&months, m(2011, 12)), None);
        assert_eq!(in_force(&months, m(2012, 8)), None);
    }
}
