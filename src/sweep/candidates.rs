//! The candidates of a study: the baseline (candidate 0, the base scenario as it stands), the
//! reference scenarios, then the design's points. A grid is every combination of the parameters'
//! values; a space-filling design draws `points` points of a seeded, scrambled Sobol sequence or a
//! seeded Latin hypercube over the parameters' ranges (a list of values is drawn from evenly); each
//! value is rounded to its key's grain and a point that repeats an earlier one is dropped. An
//! optimising design adds its points generation by generation (`run`).

use crate::generate::SplitMix64;
use crate::keys::KeyValue;
use crate::scenario::{Scenario, Setting};

use super::study::Parameter;
use super::study::{Design, Study};

/// One candidate: a scenario to evaluate on every seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub id: u32,
    pub kind: Kind,
    /// One per study parameter: the value this candidate sets (a point), the base scenario's own
    /// (the baseline), or none (a reference scenario, which is another scenario altogether).
    pub values: Vec<Option<KeyValue>>,
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
            .filter_map(|(p, v)| Some(format!("{} = {}", p.path, v.as_ref()?)))
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
                    value: v.as_ref()?.toml(),
                })
            })
            .collect()
    }
}

/// The baseline's id: every study's candidate 0, the base scenario as it stands.
pub const BASELINE: u32 = 0;

/// The points that set the base scenario's own values (a grid through them): the baseline itself,
/// replayed as its rows, which take no place of their own in a ranking or a front.
pub fn same_as_baseline(candidates: &[Candidate]) -> Vec<u32> {
    let Some(baseline) = candidates.iter().find(|c| c.id == BASELINE) else {
        return Vec::new();
    };
    candidates
        .iter()
        .filter(|c| c.kind == Kind::Point && c.values == baseline.values)
        .map(|c| c.id)
        .collect()
}

/// The candidates a ranking orders: all but the points that are the baseline itself.
pub fn ranked_ids(candidates: &[Candidate]) -> Vec<u32> {
    let again = same_as_baseline(candidates);
    candidates
        .iter()
        .map(|c| c.id)
        .filter(|c| !again.contains(c))
        .collect()
}

/// The baseline and the reference scenarios: the rows every study has.
pub fn fixed(study: &Study) -> Vec<Candidate> {
    let mut out = vec![Candidate {
        id: BASELINE,
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
pub fn all(study: &Study) -> (Vec<Candidate>, usize) {
    let mut out = fixed(study);
    let parameters = &study.parameters;
    let points = match &study.design {
        Design::Grid => grid(parameters),
        Design::Sobol { points, seed } => sobol(parameters, *points, *seed),
        Design::Latin { points, seed } => latin(parameters, *points, *seed),
        Design::Optimise { .. } => Vec::new(),
    };
    let drawn = points.len();
    let mut seen = std::collections::HashSet::new();
    for values in points {
        if seen.insert(format!("{values:?}")) {
            out.push(Candidate {
                id: out.len() as u32,
                kind: Kind::Point,
                values: values.into_iter().map(Some).collect(),
            });
        }
    }
    let kept = seen.len();
    (out, drawn - kept)
}

/// Adds a point unless an earlier point has the same values (the optimiser's points, a few at a
/// time); whether it was added.
pub fn add_point(candidates: &mut Vec<Candidate>, values: Vec<KeyValue>) -> bool {
    let values: Vec<Option<KeyValue>> = values.into_iter().map(Some).collect();
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
fn grid(parameters: &[Parameter]) -> Vec<Vec<KeyValue>> {
    let mut points: Vec<Vec<KeyValue>> = vec![Vec::new()];
    for p in parameters {
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

/// The first `n` points of the scrambled Sobol sequence of `seed` (Burley's Owen scrambling, one
/// dimension per parameter).
fn sobol(parameters: &[Parameter], n: usize, seed: u64) -> Vec<Vec<KeyValue>> {
    (0..n as u32)
        .map(|i| {
            parameters
                .iter()
                .enumerate()
                .map(|(d, p)| {
                    p.at_fraction(f64::from(sobol_burley::sample(i, d as u32, seed as u32)))
                })
                .collect()
        })
        .collect()
}

/// A Latin hypercube: each parameter's range cut into `n` strata, each stratum drawn once, the
/// strata shuffled independently per parameter (one random stream per parameter).
fn latin(parameters: &[Parameter], n: usize, seed: u64) -> Vec<Vec<KeyValue>> {
    let columns: Vec<Vec<KeyValue>> = parameters
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::Domain;
    use crate::scenario::KeyPath;
    use crate::sweep::study::Values;

    fn parameter(key: &str, domain: Domain, values: Values) -> Parameter {
        Parameter {
            path: KeyPath::parse(key).unwrap(),
            domain,
            values,
            at: "parameter[1]".into(),
        }
    }

    fn factor() -> Parameter {
        let grain = Domain::Number {
            min: 0.0,
            max: 1.0,
            above: false,
            grain: Some(0.01),
        };
        let range = Values::Range {
            min: 0.0,
            max: 0.6,
            steps: Some(7),
            step: None,
            log: false,
        };
        parameter("event[compression 2017-01].factor", grain, range)
    }

    /// 1000 to 1650 by 200: 1000, 1200, 1400, 1600.
    fn stepped_floor() -> Parameter {
        parameter(
            "revision[2017-01].floor",
            Domain::whole(0, 4000),
            Values::Range {
                min: 1000.0,
                max: 1650.0,
                steps: None,
                step: Some(200.0),
                log: false,
            },
        )
    }

    fn floor() -> Parameter {
        let list = Values::List(vec![KeyValue::Whole(1400), KeyValue::Whole(1600)]);
        parameter("revision[2017-01].floor", Domain::whole(0, 4000), list)
    }

    #[test]
    fn a_grid_steps_through_every_combination_rounded_to_the_grain() {
        let f = factor();
        let values: Vec<f64> = f.grid().iter().map(|v| v.number().unwrap()).collect();
        assert_eq!(values, [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
        let points = grid(&[floor(), f]);
        assert_eq!(points.len(), 14);
        assert_eq!(points[0], [KeyValue::Whole(1400), KeyValue::Number(0.0)]);
        assert_eq!(points[7], [KeyValue::Whole(1600), KeyValue::Number(0.0)]);
        // A log range of whole numbers, and a linear one by its step.
        let log = parameter(
            "revision[2017-01].k.standard",
            Domain::whole(0, 255),
            Values::Range {
                min: 10.0,
                max: 40.0,
                steps: Some(3),
                step: None,
                log: true,
            },
        );
        assert_eq!(
            log.grid(),
            [
                KeyValue::Whole(10),
                KeyValue::Whole(20),
                KeyValue::Whole(40)
            ]
        );
        let stepped = stepped_floor();
        let floors = [1000, 1200, 1400, 1600].map(KeyValue::Whole);
        assert_eq!(stepped.grid(), floors);
    }

    #[test]
    fn space_filling_designs_are_seeded_and_stay_in_their_ranges() {
        let parameters = [factor(), floor()];
        for points in [sobol(&parameters, 16, 3), latin(&parameters, 16, 3)] {
            assert_eq!(points.len(), 16);
            for p in &points {
                let x = p[0].number().unwrap();
                assert!(
                    (0.0..=0.6).contains(&x) && (x * 100.0 - (x * 100.0).round()).abs() < 1e-9,
                    "{x}"
                );
                assert!(matches!(
                    p[1],
                    KeyValue::Whole(1400) | KeyValue::Whole(1600)
                ));
            }
        }
        assert_eq!(sobol(&parameters, 8, 3), sobol(&parameters, 8, 3));
        assert_ne!(sobol(&parameters, 8, 3), sobol(&parameters, 8, 4));
        // A Latin hypercube puts one point in each of the 10 strata of a range.
        let wide = parameter(
            "event[compression 2017-01].below",
            Domain::Number {
                min: 0.0,
                max: 1000.0,
                above: false,
                grain: None,
            },
            Values::Range {
                min: 0.0,
                max: 1000.0,
                steps: None,
                step: None,
                log: false,
            },
        );
        let mut strata: Vec<usize> = latin(&[wide], 10, 7)
            .iter()
            .map(|p| (p[0].number().unwrap() / 100.0) as usize)
            .collect();
        strata.sort_unstable();
        assert_eq!(strata, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn the_values_searched_have_their_extremes() {
        assert_eq!(factor().extremes(), Some((0.0, 0.6)));
        assert_eq!(floor().extremes(), Some((1400.0, 1600.0)));
        // A range by its step ends at the last value it reaches, not at its max.
        let stepped = stepped_floor();
        assert_eq!(stepped.extremes(), Some((1000.0, 1600.0)));
        // A list's numbers in any order; one number searches no range.
        let list = |values: Vec<KeyValue>| {
            parameter(
                "revision[2017-01].initial.dummy-games",
                Domain::whole(0, 255),
                Values::List(values),
            )
            .extremes()
        };
        let (two, zero, four) = (KeyValue::Whole(2), KeyValue::Whole(0), KeyValue::Whole(4));
        assert_eq!(
            list(vec![two.clone(), zero, four.clone()]),
            Some((0.0, 4.0))
        );
        assert_eq!(list(vec![two]), None);
        // Months are in order too, counted as the calendar counts them.
        let month = |text| KeyValue::Month(crate::model::Month::parse(text).unwrap());
        let moved = parameter(
            "event[compression 2017-01].list",
            Domain::Month,
            Values::List(vec![month("2018-01"), month("2016-07"), month("2017-01")]),
        );
        let (first, last) = moved.extremes().unwrap();
        assert_eq!(last - first, 18.0);
        assert_eq!(
            first,
            f64::from(crate::model::Month::parse("2016-07").unwrap().index())
        );
    }
}
