//! The search: the starting world first, then generations of candidates from the evolution
//! strategy, each generation evaluated in parallel, until the budget is spent. Every evaluation is
//! kept; the best one (the start included) is the fit, so a calibration never ends worse than it
//! began.

use rayon::prelude::*;

use crate::generate::world::params::Value;
use crate::generate::world::Settings;
use crate::simulate::cmaes::Cmaes;
use crate::simulate::SimulateError;

use super::config::Calibration;
use super::evaluate::{evaluate, Evaluation};

/// One evaluated point.
#[derive(Clone, Debug)]
pub struct Record {
    /// 0 for the start, then the strategy's generations from 1.
    pub generation: u32,
    /// The calibrated parameters' values, in the calibration's order.
    pub values: Vec<f64>,
    pub evaluation: Evaluation,
}

/// What a calibration found.
pub struct Fit {
    /// Every evaluation, the start first.
    pub records: Vec<Record>,
    /// The index of the best record.
    pub best: usize,
}

impl Fit {
    pub fn start(&self) -> &Record {
        &self.records[0]
    }

    pub fn best(&self) -> &Record {
        &self.records[self.best]
    }
}

/// A value rounded to four significant digits: what the fitted world file writes, so that the
/// file reproduces exactly the world that was evaluated.
pub fn significant(value: f64) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let digits = 3 - value.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits);
    (value * scale).round() / scale
}

impl Calibration {
    /// The starting world with the calibrated parameters set to `values`.
    pub fn world_at(&self, values: &[f64]) -> Settings {
        let mut world = self.world.clone();
        for (b, &v) in self.parameters.iter().zip(values) {
            b.param.set(&mut world, Value::Real(v));
        }
        world
    }

    /// The starting values of the calibrated parameters.
    pub fn start_values(&self) -> Vec<f64> {
        self.parameters
            .iter()
            .map(|b| b.param.get(&self.world).number())
            .collect()
    }

    fn evaluate_at(&self, values: &[f64]) -> Result<Evaluation, SimulateError> {
        evaluate(
            &self.world_at(values),
            &self.seeds,
            &self.scenario,
            &self.targets,
            self.objective,
        )
    }

    /// Runs the search; `progress(done, budget, best objective)` after each generation.
    pub fn run(&self, progress: &dyn Fn(usize, usize, f64)) -> Result<Fit, SimulateError> {
        let start = self.start_values();
        let first = self.evaluate_at(&start)?;
        let mut fit = Fit {
            records: vec![Record {
                generation: 0,
                values: start.clone(),
                evaluation: first,
            }],
            best: 0,
        };
        progress(1, self.budget, fit.best().evaluation.objective);
        if self.parameters.is_empty() {
            return Ok(fit);
        }
        let unit: Vec<f64> = self
            .parameters
            .iter()
            .zip(&start)
            .map(|(b, v)| (v - b.min) / (b.max - b.min))
            .collect();
        let mut strategy = Cmaes::new(unit, self.step, self.population, self.seed);
        strategy.minimise(self.budget, fit.records.len(), |generation, candidates| {
            let values: Vec<Vec<f64>> = candidates
                .iter()
                .map(|x| {
                    self.parameters
                        .iter()
                        .zip(x)
                        .map(|(b, u)| significant(b.min + u * (b.max - b.min)))
                        .collect()
                })
                .collect();
            let evaluations = values
                .par_iter()
                .map(|v| self.evaluate_at(v))
                .collect::<Result<Vec<_>, _>>()?;
            let objectives: Vec<f64> = evaluations.iter().map(|e| e.objective).collect();
            for (values, evaluation) in values.into_iter().zip(evaluations) {
                if evaluation.objective < fit.best().evaluation.objective {
                    fit.best = fit.records.len();
                }
                fit.records.push(Record {
                    generation,
                    values,
                    evaluation,
                });
            }
            progress(
                fit.records.len(),
                self.budget,
                fit.best().evaluation.objective,
            );
            Ok::<_, SimulateError>(objectives)
        })?;
        Ok(fit)
    }
}

#[cfg(test)]
mod tests {
    use super::significant;

    #[test]
    fn values_keep_four_significant_digits() {
        assert_eq!(significant(1234.5678), 1235.0);
        assert_eq!(significant(0.012345678), 0.01235);
        assert_eq!(significant(-87.654321), -87.65);
        assert_eq!(significant(0.0), 0.0);
    }
}

#[cfg(test)]
mod calibration_tests {
    use std::path::{Path, PathBuf};

    use crate::calibrate::{Calibration, Overrides};
    use crate::simulate::measure::MeasureKind;
    use crate::simulate::Observed;

    fn repo(path: &str) -> String {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(path)
            .display()
            .to_string()
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A world of 30 months from January 2001 at a hundredth of FIDE's size, fitted to the real
    /// April 2003 list by two parameters.
    fn tiny(dir: &Path, budget: usize) -> PathBuf {
        write(
            dir,
            "tiny.toml",
            &format!(
                "name = \"tiny\"\nextends = {:?}\n[world]\nmonths = 30\n",
                repo("worlds/fide-2001-2025.toml")
            ),
        );
        write(
            dir,
            "calibration.toml",
            &format!(
                "world = \"tiny.toml\"\nscenario = {:?}\nscale = 0.01\nseeds = [3]\nbudget = {budget}\npopulation = 4\nseed = 5\n\n[[target]]\nlist = {:?}\nlowest = 1800\ntop = 2500\ngames = true\n\n[[parameter]]\nkey = \"latent.players\"\nmin = 10000\nmax = 150000\n\n[[parameter]]\nkey = \"pool.age_mean\"\nmin = 30\nmax = 45\n",
                repo("scenarios/fide-historical.toml"),
                repo("data/fide-lists/APR03FRL.TXT")
            ),
        )
    }

    #[test]
    fn a_tiny_calibration_is_repeatable_and_never_worse_than_its_start() {
        let dir = crate::testing::scratch("calibrate");
        let c = Calibration::load(&tiny(&dir, 9), &Overrides::default()).unwrap();
        let a = c.run(&|_, _, _| {}).unwrap();
        // The start, then two generations of four.
        assert_eq!(a.records.len(), 9);
        let start = &a.start().evaluation;
        let (MeasureKind::Counts(counts), Observed::Counts(found)) =
            (&c.targets[0].measure.kind, &start.observed[0])
        else {
            panic!("a list target");
        };
        let list = counts.distance(found, start.size);
        assert_eq!(list.name, "list 2003-04");
        assert_eq!(list.counts.len(), 8);
        // The list's games column against the run's games per player, band by band.
        assert_eq!(list.games_within(10.0), (8, 8));
        assert!(list.games.iter().all(|g| g.is_some_and(|g| g > 0.0)));
        assert!(a.best().evaluation.objective <= a.start().evaluation.objective);
        assert!(a
            .records
            .iter()
            .all(|r| r.evaluation.objective >= a.best().evaluation.objective));
        assert!(a.records.iter().any(|r| r.values != a.start().values));
        for r in &a.records {
            assert!(
                (10_000.0..=150_000.0).contains(&r.values[0]),
                "{:?}",
                r.values
            );
            assert!((30.0..=45.0).contains(&r.values[1]), "{:?}", r.values);
        }
        let b = c.run(&|_, _, _| {}).unwrap();
        let key = |f: &crate::calibrate::Fit| -> Vec<(Vec<f64>, f64)> {
            f.records
                .iter()
                .map(|r| (r.values.clone(), r.evaluation.objective))
                .collect()
        };
        assert_eq!(key(&a), key(&b));
        assert_eq!(a.best, b.best);
    }

    /// The shipped file loads: its paths resolve from its folder, and the shipped world's values
    /// lie within its bounds (a refit starts where the shipped world stands).
    #[test]
    fn the_shipped_calibration_file_loads() {
        let c = Calibration::load(
            Path::new(&repo("worlds/fide-2001-2025.calibrate.toml")),
            &Overrides::default(),
        )
        .unwrap();
        assert_eq!(c.parameters.len(), 10);
        let kinds: Vec<&str> = c.targets.iter().map(|t| t.measure.kind.name()).collect();
        assert_eq!(
            kinds,
            [
                "table",
                "table",
                "counts",
                "counts",
                "played",
                "list-activity",
                "counts",
                "gaps"
            ]
        );
        // The starting list is measured against FIDE's January 2001 list, as January 2008's.
        let names: Vec<&str> = c.targets.iter().map(|t| t.measure.name.as_str()).collect();
        assert!(names.contains(&"list 2001-01"), "{names:?}");
        assert!(names.contains(&"list 2008-01"), "{names:?}");
        assert_eq!(c.start_values().len(), 10);
    }

    /// The form world's file loads and starts from that built-in world: the shipped file's targets,
    /// those the built-in world was never fitted to at weight 0, and the upsets held.
    #[test]
    fn the_form_calibration_file_loads() {
        let load =
            |file: &str| Calibration::load(Path::new(&repo(file)), &Overrides::default()).unwrap();
        let form = load("worlds/fide-2001-2025-form.calibrate.toml");
        let shipped = load("worlds/fide-2001-2025.calibrate.toml");
        assert_eq!(form.world.name, "fide-2001-2025-form");
        assert!((form.world.upset_share - shipped.world.upset_share / 2.0).abs() < 1e-3);
        let keys: Vec<&str> = form.parameters.iter().map(|b| b.param.key).collect();
        assert_eq!(keys.len(), 11);
        assert!(keys.contains(&"games.form_sd"), "{keys:?}");
        assert!(!keys.contains(&"games.upset_share"), "{keys:?}");
        let targets = |c: &Calibration| -> Vec<(String, f64)> {
            c.targets
                .iter()
                .map(|t| (t.measure.name.clone(), t.weight))
                .collect()
        };
        let unfitted = ["played", "activity 2025-02", "list 2001-01"];
        let expected: Vec<(String, f64)> = targets(&shipped)
            .into_iter()
            .map(|(name, weight)| {
                let weight = if unfitted.contains(&name.as_str()) {
                    0.0
                } else {
                    weight
                };
                (name, weight)
            })
            .collect();
        assert_eq!(targets(&form), expected);
        assert_eq!(
            expected.iter().filter(|(_, w)| *w == 0.0).count(),
            unfitted.len()
        );
    }

    #[test]
    fn bad_calibration_files_name_every_problem_at_its_key_path() {
        let dir = crate::testing::scratch("calibrate-bad");
        let path = write(
            &dir,
            "bad.toml",
            &format!(
                "world = \"fide-2001-2025\"\nscenario = {:?}\nscale = 20\nseeds = [1, -2]\nbudgte = 5\n\n[[target]]\npublished = {:?}\ntable = \"2008-2012\"\ncolour = \"red\"\ngames = 1\n\n[[parameter]]\nkey = \"arrivals.entry_maen\"\nmin = 1\nmax = 2\n\n[[parameter]]\nkey = \"games.form_sd\"\nmin = 100\nmax = 50\n\n[[parameter]]\nkey = \"world.months\"\nmin = 1\nmax = 2\n",
                repo("scenarios/fide-historical.toml"),
                repo("data/published/sonas-crosstables.csv")
            ),
        );
        let e = Calibration::load(&path, &Overrides::default())
            .err()
            .unwrap()
            .to_string();
        for expected in [
            "scale: expected a number from 0.0001 to 10, got 20",
            "seeds[2]: expected a whole number, got -2",
            "budgte: unknown key (did you mean `budget`?)",
            "target[1].colour: unknown key",
            "target[1].games: expected true or false, got 1",
            "parameter[1].key: \"arrivals.entry_maen\" is not a number of the world file",
            "parameter[2].max: 50 is not above min 100",
            "parameter[3].key: \"world.months\" is not a number of the world file",
        ] {
            assert!(e.contains(expected), "{expected}\n{e}");
        }
        assert!(e.contains("bad.toml"), "{e}");
        let outside = write(
            &dir,
            "outside.toml",
            &format!(
                "world = \"fide-2001-2025\"\nscenario = {:?}\n\n[[target]]\npublished = {:?}\ntable = \"2021-2023\"\n\n[[parameter]]\nkey = \"games.form_sd\"\nmin = 400\nmax = 500\n",
                repo("scenarios/fide-historical.toml"),
                repo("data/published/sonas-crosstables.csv")
            ),
        );
        let e = Calibration::load(&outside, &Overrides::default())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("games.form_sd: the world's value"), "{e}");
        assert!(e.contains("is outside the bounds 400 to 500"), "{e}");
    }
}
