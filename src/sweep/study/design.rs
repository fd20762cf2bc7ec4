//! A study's `[design]`: how the candidates are chosen (a grid, a Sobol sequence, a Latin
//! hypercube, or CMA-ES minimising figures), checked against the parameters it draws from.

use toml::{Table, Value};

use crate::keys::{at, describe, Reader};
use crate::simulate::cmaes::SearchSettings;
use crate::simulate::measure::Measure;

use super::figures::{figure_numbers, judged_columns, unknown_figure};
use super::parameter::{Parameter, Values};

/// How the candidates are chosen.
#[derive(Clone, Debug, PartialEq)]
pub enum Design {
    /// Every combination of the parameters' values.
    Grid,
    /// `points` points of a seeded, scrambled Sobol sequence over the parameters' ranges.
    Sobol { points: usize, seed: u64 },
    /// `points` points of a seeded Latin hypercube.
    Latin { points: usize, seed: u64 },
    /// CMA-ES minimising a weighted sum of figures (their distance from the ideal, averaged over
    /// the seeds) within the ranges, `budget` candidates in all.
    Optimise {
        budget: usize,
        population: usize,
        seed: u64,
        step: f64,
        minimise: Vec<(String, f64)>,
    },
}

impl Design {
    /// "a grid", "an optimise", for "… of an optimise design".
    pub fn with_article(&self) -> String {
        let name = self.name();
        let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {name}")
    }

    pub fn name(&self) -> &'static str {
        match self {
            Design::Grid => "grid",
            Design::Sobol { .. } => "sobol",
            Design::Latin { .. } => "latin",
            Design::Optimise { .. } => "optimise",
        }
    }
}

const DESIGN_KEYS: &[&str] = &[
    "kind",
    "points",
    "seed",
    "budget",
    "population",
    "step",
    "minimise",
];
const DESIGN_KINDS: &[&str] = &["grid", "sobol", "latin", "optimise"];

pub(super) fn read_design(
    r: &mut Reader,
    table: &Table,
    parameters: &[Parameter],
    measures: &[Measure],
) -> Option<Design> {
    let t = r.table(table, "", "design", DESIGN_KEYS);
    let path = "design";
    let kind = r.text(&t, path, "kind").unwrap_or_else(|| "grid".into());
    let seed = r
        .whole(&t, path, "seed", (0, u64::from(u32::MAX)))
        .unwrap_or(1);
    let points = r.whole(&t, path, "points", (1, 65_536)).map(|n| n as usize);
    let allowed: &[&str] = match kind.as_str() {
        "grid" => &["kind"],
        "sobol" | "latin" => &["kind", "points", "seed"],
        "optimise" => &["kind", "budget", "population", "seed", "step", "minimise"],
        _ => {
            r.problem(
                &at(path, "kind"),
                format!(
                    "expected one of: {}, got {kind:?}{}",
                    DESIGN_KINDS.join(", "),
                    crate::keys::did_you_mean(&kind, DESIGN_KINDS)
                ),
            );
            return None;
        }
    };
    for key in t.keys().filter(|k| !allowed.contains(&k.as_str())) {
        r.problem(
            &at(path, key),
            format!("does not belong to a {kind} design"),
        );
    }
    for p in parameters {
        let ranged = matches!(
            p.values,
            Values::Range {
                steps: None,
                step: None,
                ..
            }
        );
        if kind == "grid" && ranged {
            r.problem(
                &p.at,
                "a grid needs the values it steps through: give `steps` or `step` with the range, or `values`",
            );
        }
    }
    let design = match kind.as_str() {
        "grid" => Design::Grid,
        "sobol" | "latin" => {
            let Some(points) = points else {
                r.require(&t, path, "points", "how many candidates the design draws");
                return None;
            };
            if kind == "sobol" {
                Design::Sobol { points, seed }
            } else {
                Design::Latin { points, seed }
            }
        }
        _ => {
            let budget = r.whole(&t, path, "budget", (2, 100_000)).unwrap_or(60) as usize;
            let SearchSettings { population, step } =
                SearchSettings::read(r, &t, path, parameters.len());
            if budget < population {
                r.problem(
                    &at(path, "budget"),
                    format!("{budget} is less than a generation of {population} candidates (`population`): the optimiser would evaluate nothing"),
                );
            }
            let minimise = read_minimise(r, &t, measures)?;
            Design::Optimise {
                budget,
                population,
                seed,
                step,
                minimise,
            }
        }
    };
    Some(design)
}

/// What an optimise design minimises: one figure, or figures with weights.
fn read_minimise(r: &mut Reader, t: &Table, measures: &[Measure]) -> Option<Vec<(String, f64)>> {
    let path = "design.minimise";
    let judged = judged_columns(measures);
    let check = |r: &mut Reader, name: &str, at: &str| -> bool {
        let known = judged.iter().any(|c| c == name);
        if !known {
            r.problem(at, unknown_figure(name, &judged));
        }
        known
    };
    match t.get("minimise") {
        None => {
            r.problem(path, format!("missing: an optimise design minimises a figure, such as \"{}\", or a table of figures and weights", judged.first().map_or("truth_gap.active.rms", String::as_str)));
            None
        }
        Some(Value::String(name)) => check(r, name, path).then(|| vec![(name.clone(), 1.0)]),
        Some(Value::Table(weights)) if !weights.is_empty() => {
            figure_numbers(r, path, weights, &judged, |w| w > 0.0, "a weight above 0")
        }
        Some(other) => {
            r.problem(
                path,
                format!(
                    "expected a figure's name or a table of figures and weights, got {}",
                    describe(other)
                ),
            );
            None
        }
    }
}
