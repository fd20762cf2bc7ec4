//! The candidates of a study: the baseline (candidate 0, the base scenario as it stands), the
//! reference scenarios, then the design's points. A grid is every combination of the parameters'
//! values; a space-filling design draws `points` points of a seeded, scrambled Sobol sequence or a
//! seeded Latin hypercube over the parameters' ranges (a list of values is drawn from evenly); each
//! value is rounded to its key's grain and a point that repeats an earlier one is dropped. An
//! optimising design adds its points generation by generation (`run`).

use toml::Value;

use crate::generate::SplitMix64;
use crate::keys::describe;
use crate::scenario::{Scenario, Setting};

use super::study::{Design, Study};

/// One candidate: a scenario to evaluate on every seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub id: u32,
    pub kind: Kind,
    /// One per study parameter: the value this candidate sets (a point), the base scenario's own
    /// (the baseline), or none (a reference scenario, which is another scenario altogether).
    pub values: Vec<Option<Value>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Baseline,
    /// A reference scenario, by name.
    Reference(String),
    /// A point of the design.
    Point,
}

impl Candidate {
    /// For people and the results' `label` column.
    pub fn label(&self) -> String {
        match &self.kind {
            Kind::Baseline => "baseline".into(),
            Kind::Reference(name) => format!("reference {name}"),
            Kind::Point => "point".into(),
        }
    }

    /// Its values as `key = value` text, for people.
    pub fn values_text(&self, study: &Study) -> String {
        study
            .parameters
            .iter()
            .zip(&self.values)
            .filter_map(|(p, v)| Some(format!("{} = {}", p.path, value_text(v.as_ref()?))))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The scenario it replays, as resolved from the study.
    pub fn scenario(&self, study: &Study) -> Result<Scenario, Vec<crate::keys::Problem>> {
        match &self.kind {
            Kind::Baseline => Ok(study.base.base().clone()),
            Kind::Reference(name) => Ok(study
                .references
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, s)| s.clone())
                .unwrap_or_else(|| study.base.base().clone())),
            Kind::Point => study.base.with(&self.settings(study), &study.file),
        }
    }

    fn settings(&self, study: &Study) -> Vec<Setting> {
        study
            .parameters
            .iter()
            .zip(&self.values)
            .filter_map(|(p, v)| {
                Some(Setting {
                    path: p.path.clone(),
                    value: v.clone()?,
                })
            })
            .collect()
    }
}

/// A value as results and people show it: numbers as written, text without quotes.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Float(f) => format!("{f}"),
        other => describe(other),
    }
}

/// The baseline and the reference scenarios: the rows every study has.
pub fn fixed(study: &Study) -> Vec<Candidate> {
    let mut out = vec![Candidate {
        id: 0,
        kind: Kind::Baseline,
        values: study
            .parameters
            .iter()
            .map(|p| study.base.value(&p.path))
            .collect(),
    }];
    for (name, _) in &study.references {
        out.push(Candidate {
            id: out.len() as u32,
            kind: Kind::Reference(name.clone()),
            values: vec![None; study.parameters.len()],
        });
    }
    out
}

/// Every candidate a grid or space-filling design evaluates, the fixed ones first; an optimising
/// design's fixed ones alone. Also how many drawn points repeated an earlier one.
pub fn candidates(study: &Study) -> (Vec<Candidate>, usize) {
    let mut out = fixed(study);
    let points = match &study.design {
        Design::Grid => grid(study),
        Design::Sobol { points, seed } => (0..*points as u32)
            .map(|i| {
                study
                    .parameters
                    .iter()
                    .enumerate()
                    .map(|(d, p)| {
                        p.at_fraction(f64::from(sobol_burley::sample(i, d as u32, *seed as u32)))
                    })
                    .collect()
            })
            .collect(),
        Design::Latin { points, seed } => latin(study, *points, *seed),
        Design::Optimise { .. } => Vec::new(),
    };
    let drawn = points.len();
    let mut kept = 0;
    for values in points {
        if add_point(&mut out, values) {
            kept += 1;
        }
    }
    (out, drawn - kept)
}

/// Adds a point unless an earlier point has the same values; whether it was added.
pub fn add_point(candidates: &mut Vec<Candidate>, values: Vec<Value>) -> bool {
    let values: Vec<Option<Value>> = values.into_iter().map(Some).collect();
    let repeated = candidates
        .iter()
        .any(|c| c.kind == Kind::Point && c.values == values);
    if !repeated {
        candidates.push(Candidate {
            id: candidates.len() as u32,
            kind: Kind::Point,
            values,
        });
    }
    !repeated
}

/// Every combination, the first parameter varying slowest.
fn grid(study: &Study) -> Vec<Vec<Value>> {
    let mut points: Vec<Vec<Value>> = vec![Vec::new()];
    for p in &study.parameters {
        let values = p.grid();
        points = points
            .into_iter()
            .flat_map(|point| {
                values.iter().map(move |v| {
                    let mut next = point.clone();
                    next.push(v.clone());
                    next
                })
            })
            .collect();
    }
    points
}

/// A Latin hypercube: each parameter's range cut into `n` strata, each stratum drawn once, the
/// strata shuffled independently per parameter (one random stream per parameter).
fn latin(study: &Study, n: usize, seed: u64) -> Vec<Vec<Value>> {
    let columns: Vec<Vec<Value>> = study
        .parameters
        .iter()
        .enumerate()
        .map(|(d, p)| {
            let mut rng =
                SplitMix64::new(seed ^ (0x9e37_79b9_7f4a_7c15u64.wrapping_mul(d as u64 + 1)));
            let mut strata: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                strata.swap(i, rng.below(i as u64 + 1) as usize);
            }
            strata
                .into_iter()
                .map(|s| p.at_fraction((s as f64 + rng.unit()) / n as f64))
                .collect()
        })
        .collect();
    (0..n)
        .map(|i| columns.iter().map(|c| c[i].clone()).collect())
        .collect()
}
