//! Two runs compared over time: every month both have a list, and one player's first divergence.

use std::collections::BTreeMap;
use std::path::Path;

use crate::model::{FirstSeen, Month, PlayerIds};
use crate::plot::{categorical, LineChart, Picture, Series, XAxis};

use super::super::crosstable::Format;
use super::super::run_files::{ReportError, RunFiles};
use super::super::run_lists::{Columns, RunLists};
use super::super::TextTable;
use crate::numbers::round_to;
use crate::output::pretty_json;

/// A run's lists as their changes: per list, each changed player's key and rating on it (`None`
/// once they left).
struct RunChanges {
    name: String,
    months: Vec<Month>,
    /// List t's changes are `starts[t]..starts[t + 1]`.
    starts: Vec<usize>,
    keys: Vec<u32>,
    ratings: Vec<Option<i32>>,
}

impl RunChanges {
    fn of(&self, t: usize) -> impl Iterator<Item = (usize, Option<i32>)> + '_ {
        let range = self.starts[t]..self.starts[t + 1];
        self.keys[range.clone()]
            .iter()
            .zip(&self.ratings[range])
            .map(|(&k, &r)| (k as usize, r))
    }
}

/// Players of both runs numbered alike: by id (numbers and text kept apart).
#[derive(Default)]
struct Keys(FirstSeen<u64>);

impl Keys {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn key(&mut self, ids: &PlayerIds, p: u32) -> u32 {
        match ids {
            PlayerIds::Numbers(v) => self.0.number(v[p as usize]),
            PlayerIds::Text(v) => self.0.text(&v[p as usize]),
        }
    }

    fn find(&self, id: &str) -> Option<u32> {
        let number = id.parse::<u64>().ok().and_then(|n| self.0.find_number(&n));
        number.or_else(|| self.0.find_text(id))
    }
}

fn read_changes(dir: &Path, keys: &mut Keys) -> Result<RunChanges, ReportError> {
    let run = RunFiles::open(dir)?;
    let lists = RunLists::read(&run, None, Columns::Ratings)?;
    let key: Vec<u32> = (0..lists.ids.len() as u32)
        .map(|p| keys.key(&lists.ids, p))
        .collect();
    let mut changes = RunChanges {
        name: run.scenario.name.clone(),
        months: lists.months[..lists.len()].to_vec(),
        starts: vec![0],
        keys: Vec::new(),
        ratings: Vec::new(),
    };
    lists.walk(|_, current| -> Result<(), ReportError> {
        for &p in current.changed() {
            changes.keys.push(key[p as usize]);
            changes.ratings.push(current.rating(p));
        }
        changes.starts.push(changes.keys.len());
        Ok(())
    })?;
    Ok(changes)
}

/// One month of two runs: players on both lists, Σ(B − A) and Σ(B − A)².
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MonthDiff {
    pub month: Month,
    pub both: u64,
    pub sum: i64,
    pub squares: i64,
}

impl MonthDiff {
    /// Adds (`sign` 1) or takes away (−1) one player's pair of ratings, when on both lists.
    fn count(&mut self, a: Option<i32>, b: Option<i32>, sign: i64) {
        if let (Some(a), Some(b)) = (a, b) {
            let d = i64::from(b - a);
            self.both = self.both.wrapping_add_signed(sign);
            self.sum += sign * d;
            self.squares += sign * d * d;
        }
    }

    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.both.max(1) as f64
    }
    pub fn rmse(&self) -> f64 {
        (self.squares as f64 / self.both.max(1) as f64).sqrt()
    }
}

/// The monthly series of B − A over every month both runs have a list.
pub struct OverTime {
    pub a: String,
    pub b: String,
    pub months: Vec<MonthDiff>,
}

/// The monthly series as `--format json` writes it.
#[derive(serde::Serialize)]
struct OverTimeJson<'a> {
    a: &'a str,
    b: &'a str,
    months: Vec<MonthJson>,
}

#[derive(serde::Serialize)]
struct MonthJson {
    month: String,
    both: u64,
    mean_diff: f64,
    rmse: f64,
}

impl OverTime {
    /// Each month both runs have a list: the players on both and their differences, kept up to
    /// date by each list's changes (the cost of the changes, not of the lists).
    pub fn of(dir_a: &Path, dir_b: &Path) -> Result<OverTime, ReportError> {
        let mut keys = Keys::default();
        let a = read_changes(dir_a, &mut keys)?;
        let b = read_changes(dir_b, &mut keys)?;
        let mut ratings = [vec![None; keys.len()], vec![None; keys.len()]];
        let mut now = MonthDiff::default();
        let mut months = Vec::new();
        let (mut ta, mut tb) = (0, 0);
        while ta < a.months.len() || tb < b.months.len() {
            let month = match (a.months.get(ta), b.months.get(tb)) {
                (Some(&ma), Some(&mb)) => ma.min(mb),
                (Some(&m), None) | (None, Some(&m)) => m,
                (None, None) => break,
            };
            let mut on_both = true;
            for (side, run, t) in [(0, &a, &mut ta), (1, &b, &mut tb)] {
                if run.months.get(*t) != Some(&month) {
                    on_both = false;
                    continue;
                }
                for (k, rating) in run.of(*t) {
                    now.count(ratings[0][k], ratings[1][k], -1);
                    ratings[side][k] = rating;
                    now.count(ratings[0][k], ratings[1][k], 1);
                }
                *t += 1;
            }
            if on_both && now.both > 0 {
                months.push(MonthDiff { month, ..now });
            }
        }
        if months.is_empty() {
            return Err(ReportError::NotFound(format!(
                "{} and {} share no player on any month: are they runs of the same games?",
                dir_a.display(),
                dir_b.display()
            )));
        }
        Ok(OverTime {
            a: a.name,
            b: b.name,
            months,
        })
    }

    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Csv => {
                let mut out = String::from("month,both,mean_diff,rmse\n");
                for m in &self.months {
                    out.push_str(&format!(
                        "{},{},{:.3},{:.3}\n",
                        m.month,
                        m.both,
                        m.mean(),
                        m.rmse()
                    ));
                }
                out
            }
            Format::Json => pretty_json(&OverTimeJson {
                a: &self.a,
                b: &self.b,
                months: self
                    .months
                    .iter()
                    .map(|m| MonthJson {
                        month: m.month.to_string(),
                        both: m.both,
                        mean_diff: round_to(m.mean(), 3),
                        rmse: round_to(m.rmse(), 3),
                    })
                    .collect(),
            }),
            Format::Text | Format::Md => {
                let mut table = TextTable::default();
                table.push(
                    ["list", "both", "mean B − A", "RMSE"]
                        .map(String::from)
                        .to_vec(),
                );
                for m in &self.months {
                    table.push(vec![
                        m.month.to_string(),
                        crate::numbers::thousands(m.both),
                        format!("{:+.1}", m.mean()),
                        format!("{:.1}", m.rmse()),
                    ]);
                }
                format!(
                    "A = {}, B = {}: every month both runs have a list\n\n{}",
                    self.a,
                    self.b,
                    table.render(&[0])
                )
            }
        }
    }

    pub fn picture(&self) -> Picture {
        let x = |m: Month| f64::from(m.year()) + f64::from(m.month() - 1) / 12.0;
        let mean: Vec<(f64, f64)> = self.months.iter().map(|m| (x(m.month), m.mean())).collect();
        let rmse: Vec<(f64, f64)> = self.months.iter().map(|m| (x(m.month), m.rmse())).collect();
        let low = mean.iter().map(|p| p.1).fold(0.0, f64::min);
        let high = rmse.iter().chain(&mean).map(|p| p.1).fold(1.0, f64::max);
        let first = mean.first().map_or(0.0, |p| p.0);
        let last = mean.last().map_or(1.0, |p| p.0).max(first + 1.0 / 12.0);
        Picture::Lines(LineChart {
            x_axis: XAxis::Numbers,
            title: format!("{} − {}, list by list", self.b, self.a),
            x_label: "list (year)".to_string(),
            y_label: "rating points".to_string(),
            x_range: (first, last),
            y_range: (low * 1.1 - 1.0, high * 1.1 + 1.0),
            series: vec![
                Series {
                    name: "mean difference B − A".to_string(),
                    colour: categorical(0),
                    points: mean,
                    dashed: false,
                    markers: false,
                },
                Series {
                    name: "RMSE".to_string(),
                    colour: categorical(1),
                    points: rmse,
                    dashed: false,
                    markers: false,
                },
            ],
            legend_lower_right: false,
            bands: Vec::new(),
        })
    }
}

/// One player in two runs: the first list where their ratings differ, with the lists around it.
pub fn explain(dir_a: &Path, dir_b: &Path, id: &str) -> Result<String, ReportError> {
    let mut keys = Keys::default();
    let a = read_changes(dir_a, &mut keys)?;
    let b = read_changes(dir_b, &mut keys)?;
    let Some(key) = keys.find(id) else {
        return Err(ReportError::NotFound(format!(
            "player {id} is on no list of either run"
        )));
    };
    let key = key as usize;
    // The player's rating on each list of a run that has them.
    let history = |run: &RunChanges| -> BTreeMap<Month, i32> {
        let mut rating = None;
        let mut out = BTreeMap::new();
        for (t, &month) in run.months.iter().enumerate() {
            if let Some((_, r)) = run.of(t).find(|&(k, _)| k == key) {
                rating = r;
            }
            if let Some(r) = rating {
                out.insert(month, r);
            }
        }
        out
    };
    let (ha, hb) = (history(&a), history(&b));
    if ha.is_empty() && hb.is_empty() {
        return Err(ReportError::NotFound(format!(
            "player {id} is on no list of either run"
        )));
    }
    let mut months: Vec<Month> = ha.keys().chain(hb.keys()).copied().collect();
    months.sort_unstable();
    months.dedup();
    let show =
        |m: &Month, h: &BTreeMap<Month, i32>| h.get(m).map_or("-".to_string(), i32::to_string);
    let Some(first) = months.iter().position(|m| ha.get(m) != hb.get(m)) else {
        return Ok(format!(
            "Player {id} has the same rating on every list of {} and {} ({} lists).\n",
            a.name,
            b.name,
            months.len()
        ));
    };
    let mut table = TextTable::default();
    table.push(vec!["list".into(), a.name.clone(), b.name.clone()]);
    for m in &months[first.saturating_sub(2)..(first + 3).min(months.len())] {
        table.push(vec![m.to_string(), show(m, &ha), show(m, &hb)]);
    }
    let month = months[first];
    Ok(format!(
        "Player {id}: the runs first differ on the {month} list.\n\n{}\nSee each calculation:\n  elosim explain {} --player {id} --period {month}\n  elosim explain {} --player {id} --period {month}\n",
        table.render(&[0]),
        dir_a.display(),
        dir_b.display()
    ))
}
