//! A study's `[summary]`: the figure candidates are ranked by, the two or three figures of the
//! Pareto front, and the thresholds a verdict of better or worse needs.

use toml::{Table, Value};

use crate::keys::{describe, Reader};
use crate::simulate::measure::{Goal, Measure};

use super::figures::{figure_numbers, judged_columns, unknown_figure};

/// What `[summary]` says.
pub(super) struct SummaryKeys {
    /// The figure candidates are ranked by.
    pub rank: String,
    /// The two or three figures of the Pareto front.
    pub pareto: Vec<String>,
    /// The gain a verdict needs, by figure.
    pub thresholds: Vec<(String, f64)>,
}

pub(super) fn read_summary(r: &mut Reader, table: &Table, measures: &[Measure]) -> SummaryKeys {
    let t = r.table(table, "", "summary", &["rank", "pareto", "threshold"]);
    let judged = judged_columns(measures);
    let rank = match r.text(&t, "summary", "rank") {
        Some(name) if judged.contains(&name) => name,
        Some(name) => {
            r.problem("summary.rank", unknown_figure(&name, &judged));
            name
        }
        None => judged.first().cloned().unwrap_or_default(),
    };
    let pareto = match t.get("pareto") {
        None => {
            // The rank's figure and the first judged figure of each other measure, three at most.
            let others = measures
                .iter()
                .filter(|m| !rank.starts_with(&format!("{}.", m.name)))
                .filter_map(|m| {
                    m.columns(&m.kind.empty(), 1.0)
                        .into_iter()
                        .find(|f| f.goal != Goal::Shown)
                        .map(|f| f.name)
                });
            std::iter::once(rank.clone())
                .chain(others)
                .take(3)
                .collect()
        }
        Some(Value::Array(items)) if (2..=3).contains(&items.len()) => {
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let at = format!("summary.pareto[{}]", i + 1);
                match item.as_str() {
                    Some(name) if judged.iter().any(|j| j == name) => out.push(name.to_string()),
                    Some(name) => r.problem(&at, unknown_figure(name, &judged)),
                    None => r.problem(
                        &at,
                        format!("expected a figure's name, got {}", describe(item)),
                    ),
                }
            }
            out
        }
        Some(Value::Array(items)) => {
            r.problem(
                "summary.pareto",
                format!(
                    "expected two or three figures' names (a front needs two figures to trade against each other), got {}",
                    crate::numbers::counted(items.len() as u64, "name")
                ),
            );
            Vec::new()
        }
        Some(other) => {
            r.problem(
                "summary.pareto",
                format!(
                    "expected two or three figures' names, got {}",
                    describe(other)
                ),
            );
            Vec::new()
        }
    };
    let thresholds = match t.get("threshold") {
        None => Vec::new(),
        Some(Value::Table(figures)) => figure_numbers(
            r,
            "summary.threshold",
            figures,
            &judged,
            |t| t >= 0.0,
            "a threshold of 0 or more (a gain in distance from the figure's ideal, in its unit)",
        )
        .unwrap_or_default(),
        Some(other) => {
            r.problem(
                "summary.threshold",
                format!(
                    "expected a table of figures and their thresholds, such as {{ \"truth_gap.active.rms\" = 1.0 }}, got {}",
                    describe(other)
                ),
            );
            Vec::new()
        }
    };
    SummaryKeys {
        rank,
        pareto,
        thresholds,
    }
}
