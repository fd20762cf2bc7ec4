//! The figures a study names (`[design] minimise`, `[summary]`): each must be one its measures
//! judge, and a misspelt one gets the nearest names.

use toml::{Table, Value};

use crate::keys::{describe, Reader};
use crate::simulate::measure::{Goal, Measure};

use super::columns;

/// A table of figures and numbers (`{ "truth_gap.active.rms" = 1 }`): each number one that `valid`
/// accepts (else the problem says `expected`), each figure one the measures judge, every problem at
/// `path.figure`; `None` where any is refused.
pub(super) fn figure_numbers(
    r: &mut Reader,
    path: &str,
    figures: &Table,
    judged: &[String],
    valid: fn(f64) -> bool,
    expected: &str,
) -> Option<Vec<(String, f64)>> {
    let mut out = Vec::new();
    for (name, value) in figures {
        let at = format!("{path}.{name}");
        let number = match value {
            Value::Integer(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        };
        if !number.is_some_and(|x| x.is_finite() && valid(x)) {
            r.problem(&at, format!("expected {expected}, got {}", describe(value)));
            continue;
        }
        if !judged.iter().any(|c| c == name) {
            r.problem(&at, unknown_figure(name, judged));
            continue;
        }
        out.extend(number.map(|x| (name.clone(), x)));
    }
    (out.len() == figures.len()).then_some(out)
}

/// The figures that are judged (have a goal), by column.
pub(super) fn judged_columns(measures: &[Measure]) -> Vec<String> {
    columns(measures)
        .into_iter()
        .filter(|(_, goal, _)| *goal != Goal::Shown)
        .map(|(name, _, _)| name)
        .collect()
}

pub(super) fn unknown_figure(name: &str, judged: &[String]) -> String {
    let known: Vec<&str> = judged.iter().map(String::as_str).collect();
    if known.is_empty() {
        return format!("{name:?} is not a figure of the measures, which judge none as they stand (their problems are listed)");
    }
    format!(
        "{name:?} is not a figure the measures judge; the nearest: {}",
        crate::keys::nearest(name, &known, 3).join(", ")
    )
}
