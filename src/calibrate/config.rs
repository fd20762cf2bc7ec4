//! A calibration file (TOML): the world to start from, the scenario to replay it under, the
//! published figures to fit (measures, `simulate::measure`), the parameters to move with their
//! bounds, and the budget. Checked like scenarios, worlds and studies: every problem at once, each
//! with its key path; the command line's overrides go through the same checks.
//!
//! ```toml
//! world = "fide-2001-2025.toml"            # a world file (relative to this file) or a built-in world
//! scenario = "../scenarios/fide-historical.toml"
//! scale = 0.1                               # each evaluation's world, against FIDE's size
//! seeds = [1, 2]                            # its seeds: the same for every evaluation
//! budget = 300                              # evaluations in all
//!
//! [[target]]
//! published = "../data/published/sonas-crosstables.csv"
//! table = "2008-2012"
//!
//! [[parameter]]
//! key = "arrivals.junior_offset"
//! min = 300
//! max = 900
//! ```

use std::path::{Path, PathBuf};

use toml::Table;

use crate::generate::world::params::{self, Param};
use crate::generate::world::{Settings, WorldError};
use crate::keys::{at, problem_list, read_file, FileError, Problem, Reader};
use crate::numbers::counted;
use crate::scenario::{Scenario, ScenarioError};
use crate::simulate::cmaes::SearchSettings;
use crate::simulate::measure::{target_kind, target_kinds, Measure};
use crate::simulate::world_input::{WorldInput, WorldKeys};
use crate::simulate::LoadedWorld;

use super::evaluate::{Objective, Target};

/// A calibration, read and checked.
pub struct Calibration {
    pub file: PathBuf,
    /// The world file's text (edited into the fitted world) and where it came from.
    pub world_text: String,
    pub world_source: String,
    pub world: Settings,
    pub scenario: Scenario,
    pub scale: f64,
    pub seeds: Vec<u64>,
    pub budget: usize,
    /// Candidates a generation, evaluated in parallel.
    pub population: usize,
    /// The optimiser's own seed.
    pub seed: u64,
    /// The first step, as a share of each parameter's range.
    pub step: f64,
    pub objective: Objective,
    pub targets: Vec<Target>,
    pub parameters: Vec<Bounded>,
    pub out: Option<PathBuf>,
}

/// A parameter calibration may move, within its bounds.
#[derive(Clone, Copy, Debug)]
pub struct Bounded {
    pub param: &'static Param,
    pub min: f64,
    pub max: f64,
}

/// What the command line sets instead of the file; checked as the file's values are.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub world: Option<String>,
    pub scale: Option<f64>,
    pub seeds: Option<Vec<u64>>,
    pub budget: Option<usize>,
    /// Only the starting world is evaluated (`--evaluate`): nothing is searched, so neither a
    /// parameter nor a budget for a search is needed.
    pub evaluate: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{count} problem{s} in the calibration file{flags}:\n{list}", count = .0.len(), s = if .0.len() == 1 { "" } else { "s" }, flags = if .0.iter().any(|p| p.path.starts_with("--")) { " and the flags given in place of its values" } else { "" }, list = problem_list(.0))]
    Invalid(Vec<Problem>),
    #[error(transparent)]
    World(#[from] WorldError),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
}

const KEYS: &[&str] = &[
    "world",
    "scenario",
    "scale",
    "seeds",
    "budget",
    "population",
    "seed",
    "step",
    "share_weight",
    "out",
    "target",
    "parameter",
];

impl Calibration {
    pub fn load(path: &Path, overrides: &Overrides) -> Result<Calibration, ConfigError> {
        let (_, table) = read_file(path, "calibration file")?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let mut r = Reader::new(path);
        r.unknown(&table, "", KEYS);
        let scenario_path = r.text(&table, "", "scenario");
        r.require(&table, "", "world", "a world file or a built-in world");
        r.require(&table, "", "scenario", "the path of a scenario");
        let flags = (
            overrides.world.as_deref(),
            overrides.scale,
            overrides.seeds.as_deref(),
        );
        let world_keys = WorldKeys::read(&mut r, (&table, ""), false, flags);
        let budget = r.whole(&table, "", "budget", (1, 1_000_000)).unwrap_or(200) as usize;
        let budget = r
            .overridden("--budget", overrides.budget.map(|b| b as f64), (1.0, 1e6))
            .map_or(budget, |b| b as usize);
        let seed = r.whole(&table, "", "seed", (0, u64::MAX >> 1)).unwrap_or(1);
        let share_weight = r
            .number(&table, "", "share_weight", (0.0, 1e6))
            .unwrap_or(Objective::default().share_weight);
        let out = r.text(&table, "", "out").map(PathBuf::from);
        let targets = read_targets(&mut r, &table, dir);
        let parameters = read_parameters(&mut r, &table);
        let SearchSettings { population, step } =
            SearchSettings::read(&mut r, &table, "", parameters.len());
        if !overrides.evaluate {
            let budget_key = given_as(overrides.budget.is_some(), "budget");
            check_search(&mut r, parameters.len(), (&budget_key, budget), population);
        }
        if !r.problems.is_empty() {
            return Err(ConfigError::Invalid(r.problems));
        }
        let WorldInput {
            worlds,
            scale,
            seeds,
        } = world_keys.load(&mut r, dir, &[1]);
        let Some(LoadedWorld {
            text: world_text,
            source: world_source,
            settings: world,
        }) = worlds.into_iter().next()
        else {
            return Err(ConfigError::Invalid(r.problems));
        };
        let world = world
            .sized(scale, seeds[0])
            .expect("the world is checked at its scale as it is loaded");
        for b in &parameters {
            let value = b.param.get(&world).number();
            if !(b.min <= value && value <= b.max) {
                r.problem(
                    b.param.key,
                    format!("the world's value {value} is outside the bounds {} to {}; widen them or start from another world", b.min, b.max),
                );
            }
        }
        if !r.problems.is_empty() {
            return Err(ConfigError::Invalid(r.problems));
        }
        let scenario = Scenario::load(&dir.join(scenario_path.unwrap_or_default()))?;
        Ok(Calibration {
            file: path.to_path_buf(),
            world_text,
            world_source,
            world,
            scenario,
            scale,
            seeds,
            budget,
            population,
            seed,
            step,
            objective: Objective { share_weight },
            targets,
            parameters,
            out,
        })
    }
}

/// Where a value came from, for a problem with it: the file's key, or the flag given instead.
fn given_as(flag: bool, key: &str) -> String {
    if flag {
        format!("--{key}")
    } else {
        key.to_string()
    }
}

/// A search moves at least one parameter, and its budget pays for at least one generation after
/// the starting world's evaluation; else it would "calibrate" nothing and write the start as fitted.
fn check_search(
    r: &mut Reader,
    parameters: usize,
    (budget_key, budget): (&str, usize),
    population: usize,
) {
    if parameters == 0 && !r.has_problem_at("parameter") {
        r.problem(
            "parameter",
            "missing: expected at least one [[parameter]] (key, min, max) to calibrate; to measure the starting world only, give --evaluate",
        );
    }
    if budget <= population {
        r.problem(
            budget_key,
            format!(
                "{} leave{} none for the search: the starting world takes one and each generation {} (`population`), so the budget must be at least {}; to measure the starting world only, give --evaluate",
                counted(budget as u64, "evaluation"),
                if budget == 1 { "s" } else { "" },
                population,
                population + 1
            ),
        );
    }
}

/// The `[[target]]` tables: published figures as measures, each with its weight.
fn read_targets(r: &mut Reader, table: &Table, dir: &Path) -> Vec<Target> {
    let tables = r.tables(table, "target");
    if tables.is_empty() && !r.has_problem_at("target") {
        r.problem(
            "target",
            "missing: expected at least one [[target]] with `published` and `table`, `list`, `counts`, `gaps`, `played` or `activity`",
        );
    }
    let mut targets = Vec::new();
    for (path, t) in &tables {
        let weight = r.number(t, path, "weight", (0.0, 1e6)).unwrap_or(1.0);
        let Some(measure) = Measure::read(r, t, path, dir, Some(target_kind(t)), &["weight"])
        else {
            continue;
        };
        let kinds = target_kinds();
        if !kinds.contains(&measure.kind.name()) {
            r.problem(
                &at(path, "kind"),
                format!(
                    "a calibration fits published figures: {}; `{}` belongs in a study (elosim sweep)",
                    kinds.join(", "),
                    measure.kind.name()
                ),
            );
            continue;
        }
        targets.push(Target { measure, weight });
    }
    targets
}

/// The `[[parameter]]` tables: world keys with their bounds.
fn read_parameters(r: &mut Reader, table: &Table) -> Vec<Bounded> {
    let mut parameters: Vec<Bounded> = Vec::new();
    for (path, p) in r.tables(table, "parameter") {
        r.unknown(&p, &path, &["key", "min", "max"]);
        r.require(
            &p,
            &path,
            "key",
            "a world key such as \"arrivals.junior_offset\"",
        );
        let Some(key) = r.text(&p, &path, "key") else {
            continue;
        };
        let Some(param) = params::find(&key).filter(|p| p.is_real()) else {
            r.problem(&at(&path, "key"), format!("{key:?} is not a number of the world file; calibration moves numbers such as \"arrivals.junior_offset\""));
            continue;
        };
        if parameters.iter().any(|b| b.param.key == param.key) {
            r.problem(&at(&path, "key"), format!("{key:?} is calibrated twice"));
            continue;
        }
        let range = (param.min, param.max);
        let expected = format!("{} ({})", param.range_text(), param.unit);
        r.require(&p, &path, "min", &expected);
        r.require(&p, &path, "max", &expected);
        let min = r.number(&p, &path, "min", range);
        let max = r.number(&p, &path, "max", range);
        match (min, max) {
            (Some(min), Some(max)) if min < max => parameters.push(Bounded { param, min, max }),
            (Some(min), Some(max)) => {
                r.problem(&at(&path, "max"), format!("{max} is not above min {min}"))
            }
            _ => {}
        }
    }
    parameters
}
