//! A study's `[[measure]]`s: each read as calibration reads it, refused where it needs a truth
//! the input has not, and the months it reads checked against the scenario's lists and each
//! world's months.

use std::path::Path;

use toml::Table;

use crate::keys::{at, Reader};
use crate::model::Month;
use crate::scenario::{Scenario, ScenarioFiles};
use crate::simulate::measure::{check_names, Measure, Needs};

use super::input::Input;

pub(super) fn read_measures(
    r: &mut Reader,
    table: &Table,
    dir: &Path,
    input: Option<&Input>,
    base: Option<&ScenarioFiles>,
) -> Vec<Measure> {
    let tables = r.tables(table, "measure");
    if tables.is_empty() && !r.has_problem_at("measure") {
        r.problem(
            "measure",
            "missing: expected at least one [[measure]] with its `kind`, such as kind = \"truth-gap\"",
        );
    }
    let mut read: Vec<(String, Measure)> = Vec::new();
    for (path, t) in &tables {
        let Some(measure) = Measure::read(r, t, path, dir, None, &[]) else {
            continue;
        };
        if measure.kind.needs_truth() && input.is_some_and(|i| !i.is_world()) {
            r.problem(
                &at(path, "kind"),
                format!(
                    "{} needs the players' true strengths, which only a generated world has: give [input] world, or measure your own games by what needs no truth (flatness, curve-gap, predictive, disruption, pool-shape)",
                    measure.kind.name()
                ),
            );
            continue;
        }
        read.push((path.clone(), measure));
    }
    check_names(r, &read);
    if let (Some(base), Some(input)) = (base, input) {
        for (path, measure) in &read {
            check_months(r, path, measure, base.base(), input);
        }
    }
    read.into_iter().map(|(_, m)| m).collect()
}

/// The lists a measure reads must be lists of the scenario, and, on a world, months each world
/// has; the windows whose games it reads must meet each world's months.
fn check_months(r: &mut Reader, path: &str, measure: &Measure, base: &Scenario, input: &Input) {
    let needs = Needs::of(std::slice::from_ref(measure));
    let worlds = input.worlds();
    // Each world's first and last months; worlds of the same months are judged once.
    let mut spans: Vec<(String, Month, Month)> = Vec::new();
    for w in worlds {
        let (first, last) = (
            w.settings.start,
            w.settings.start.plus(w.settings.months as i32 - 1),
        );
        if !spans.iter().any(|&(_, f, l)| (f, l) == (first, last)) {
            let name = if worlds.len() == 1 {
                "the world".to_string()
            } else {
                format!("the world {:?}", w.settings.name)
            };
            spans.push((name, first, last));
        }
    }
    for (world, first, last) in &spans {
        for &(from, to) in &needs.windows {
            if to <= *first || from > *last {
                r.problem(
                    &at(path, "from"),
                    format!("the window {from} to {to} has no list of {world}, whose lists run after {first} and up to {last}"),
                );
            }
        }
    }
    let mut months: Vec<Month> = needs.lists.iter().chain(&needs.baseline).copied().collect();
    months.sort();
    months.dedup();
    for m in months {
        if !base.timeline.has_list_in(m) {
            r.problem(
                &at(path, "list"),
                format!(
                    "{m} has no list in the scenario: lists are {} then",
                    base.timeline.at_month(m).lists.describe()
                ),
            );
        }
        for (world, first, last) in &spans {
            if m <= *first || m > *last {
                r.problem(
                    &at(path, "list"),
                    format!(
                        "{m} is outside {world}, whose lists run after {first} and up to {last}"
                    ),
                );
            }
        }
    }
}
