//! A calibration file (TOML): the world to start from, the scenario to replay it under, the
//! published tables to fit, the parameters to move with their bounds, and the budget. Checked like
//! scenarios and worlds: every problem at once, each with its key path.
//!
//! ```toml
//! world = "fide-2001-2023.toml"            # a world file (relative to this file) or a built-in world
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

use toml::{Table, Value};

use crate::generate::world::params::{self, Param};
use crate::generate::world::{self, Settings, WorldError};
use crate::ingest::{read_list_ratings, IngestError, Skips};
use crate::keys::{problem_list, read_table, Problem, ReadError};
use crate::model::Month;
use crate::report::crosstable::{choose, read_published, PublishedError};
use crate::scenario::{Scenario, ScenarioError};

use super::counts::{read_counts, CountTarget};
use super::evaluate::Objective;
use super::gaps::read_gaps;
use super::target::Target;

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

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read calibration file {}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not valid TOML: {message}", path.display())]
    Syntax { path: PathBuf, message: String },
    #[error("{count} problem{s} in the calibration file:\n{list}", count = .0.len(), s = if .0.len() == 1 { "" } else { "s" }, list = problem_list(.0))]
    Invalid(Vec<Problem>),
    #[error(transparent)]
    World(#[from] WorldError),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Published(#[from] PublishedError),
    #[error(transparent)]
    List(#[from] IngestError),
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

/// The problems found so far; a value is read, checked, or noted as a problem.
struct Reader {
    file: PathBuf,
    problems: Vec<Problem>,
}

impl Reader {
    fn problem(&mut self, path: &str, message: impl Into<String>) {
        self.problems.push(Problem {
            file: self.file.clone(),
            path: path.to_string(),
            message: message.into(),
        });
    }

    fn text(&mut self, table: &Table, key: &str, path: &str) -> Option<String> {
        match table.get(key)? {
            Value::String(s) => Some(s.clone()),
            other => {
                self.problem(path, format!("expected text, got {other}"));
                None
            }
        }
    }

    fn number(&mut self, table: &Table, key: &str, path: &str, range: (f64, f64)) -> Option<f64> {
        let value = match table.get(key)? {
            Value::Integer(i) => *i as f64,
            Value::Float(f) => *f,
            other => {
                self.problem(path, format!("expected a number, got {other}"));
                return None;
            }
        };
        if !(range.0 <= value && value <= range.1) {
            self.problem(
                path,
                format!(
                    "expected a number from {} to {}, got {value}",
                    range.0, range.1
                ),
            );
            return None;
        }
        Some(value)
    }

    fn boolean(&mut self, table: &Table, key: &str, path: &str) -> Option<bool> {
        match table.get(key)? {
            Value::Boolean(b) => Some(*b),
            other => {
                self.problem(path, format!("expected true or false, got {other}"));
                None
            }
        }
    }

    fn whole(&mut self, table: &Table, key: &str, path: &str, range: (u64, u64)) -> Option<u64> {
        match table.get(key)? {
            Value::Integer(i) if *i >= range.0 as i64 && *i <= range.1 as i64 => Some(*i as u64),
            other => {
                self.problem(
                    path,
                    format!(
                        "expected a whole number from {} to {}, got {other}",
                        range.0, range.1
                    ),
                );
                None
            }
        }
    }

    fn month(&mut self, table: &Table, key: &str, path: &str) -> Option<Month> {
        let text = self.text(table, key, path)?;
        let month = Month::parse(&text);
        if month.is_none() {
            self.problem(path, format!("expected a month YYYY-MM, got {text:?}"));
        }
        month
    }

    fn unknown(&mut self, table: &Table, known: &[&str], prefix: &str) {
        for key in table.keys().filter(|k| !known.contains(&k.as_str())) {
            self.problem(
                &format!("{prefix}{key}"),
                format!("unknown key; expected one of: {}", known.join(", ")),
            );
        }
    }
}

impl Calibration {
    pub fn load(path: &Path) -> Result<Calibration, ConfigError> {
        let table = read_table(path).map_err(|e| match e {
            ReadError::Io(source) => ConfigError::Read {
                path: path.to_path_buf(),
                source,
            },
            ReadError::Syntax(message) => ConfigError::Syntax {
                path: path.to_path_buf(),
                message,
            },
        })?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let relative = |p: &str| dir.join(p);
        let mut r = Reader {
            file: path.to_path_buf(),
            problems: Vec::new(),
        };
        r.unknown(&table, KEYS, "");
        let world_name = r.text(&table, "world", "world");
        let scenario_path = r.text(&table, "scenario", "scenario");
        for (key, present) in [
            ("world", world_name.is_some()),
            ("scenario", scenario_path.is_some()),
        ] {
            if !present && !table.contains_key(key) {
                r.problem(key, "missing: expected a path");
            }
        }
        let scale = r
            .number(&table, "scale", "scale", (1e-4, 10.0))
            .unwrap_or(0.1);
        let seeds = match table.get("seeds") {
            None => vec![1],
            Some(Value::Array(items)) if !items.is_empty() => items
                .iter()
                .enumerate()
                .filter_map(|(i, v)| match v {
                    Value::Integer(s) if *s >= 0 => Some(*s as u64),
                    other => {
                        r.problem(
                            &format!("seeds[{i}]"),
                            format!("expected a whole number, got {other}"),
                        );
                        None
                    }
                })
                .collect(),
            Some(other) => {
                r.problem(
                    "seeds",
                    format!("expected a list of whole numbers, such as [1, 2], got {other}"),
                );
                vec![1]
            }
        };
        let budget = r
            .whole(&table, "budget", "budget", (1, 1_000_000))
            .unwrap_or(200) as usize;
        let seed = r
            .whole(&table, "seed", "seed", (0, u64::MAX >> 1))
            .unwrap_or(1);
        let step = r
            .number(&table, "step", "step", (1e-4, 1.0))
            .unwrap_or(0.25);
        let share_weight = r
            .number(&table, "share_weight", "share_weight", (0.0, 1e6))
            .unwrap_or(Objective::default().share_weight);
        let out = r.text(&table, "out", "out").map(PathBuf::from);

        let mut targets = Vec::new();
        let target_tables = array_of_tables(&table, "target", &mut r);
        if target_tables.is_empty() && !r.problems.iter().any(|p| p.path == "target") {
            r.problem(
                "target",
                "missing: expected at least one [[target]] with `published` and `table`, `list`, `counts` or `gaps`",
            );
        }
        let mut pending = Vec::new();
        for (i, t) in target_tables.iter().enumerate() {
            let path = |k: &str| format!("target[{i}].{k}");
            let weight = r
                .number(t, "weight", &path("weight"), (0.0, 1e6))
                .unwrap_or(1.0);
            if t.contains_key("gaps") {
                r.unknown(t, &["gaps", "weight"], &format!("target[{i}]."));
                if let Some(gaps) = r.text(t, "gaps", &path("gaps")) {
                    pending.push(Pending::Gaps {
                        file: relative(&gaps),
                        weight,
                    });
                }
                continue;
            }
            if t.contains_key("counts") {
                r.unknown(t, &["counts", "weight"], &format!("target[{i}]."));
                if let Some(counts) = r.text(t, "counts", &path("counts")) {
                    pending.push(Pending::Counts {
                        file: relative(&counts),
                        weight,
                    });
                }
                continue;
            }
            if t.contains_key("list") {
                r.unknown(
                    t,
                    &["list", "month", "lowest", "top", "games", "weight"],
                    &format!("target[{i}]."),
                );
                let list = r.text(t, "list", &path("list"));
                let month = r.month(t, "month", &path("month"));
                let lowest = r.number(t, "lowest", &path("lowest"), (0.0, 4000.0));
                let top = r.number(t, "top", &path("top"), (0.0, 4000.0));
                let games = r.boolean(t, "games", &path("games")).unwrap_or(false);
                let (lowest, top) = (
                    lowest.unwrap_or(1000.0) as i32,
                    top.unwrap_or(2700.0) as i32,
                );
                if lowest % 100 != 0 || top % 100 != 0 || top < lowest {
                    r.problem(
                        &path("top"),
                        format!("expected bands of 100 from `lowest` {lowest} to `top` {top}, both multiples of 100"),
                    );
                }
                if let Some(list) = list {
                    pending.push(Pending::List {
                        i,
                        file: relative(&list),
                        month,
                        lowest,
                        top,
                        games,
                        weight,
                    });
                }
                continue;
            }
            r.unknown(
                t,
                &["published", "table", "from", "to", "games", "weight"],
                &format!("target[{i}]."),
            );
            let published = r.text(t, "published", &path("published"));
            if published.is_none() && !t.contains_key("published") {
                r.problem(
                    &path("published"),
                    "missing: expected the published tables' file (or `list` for a rating list)",
                );
            }
            let name = r.text(t, "table", &path("table"));
            let from = r.month(t, "from", &path("from"));
            let to = r.month(t, "to", &path("to"));
            let games = r.boolean(t, "games", &path("games")).unwrap_or(false);
            if let Some(published) = published {
                pending.push(Pending::Table {
                    i,
                    file: relative(&published),
                    name,
                    from,
                    to,
                    games,
                    weight,
                });
            }
        }
        let mut parameters: Vec<Bounded> = Vec::new();
        for (i, p) in array_of_tables(&table, "parameter", &mut r)
            .iter()
            .enumerate()
        {
            let path = |k: &str| format!("parameter[{i}].{k}");
            r.unknown(p, &["key", "min", "max"], &format!("parameter[{i}]."));
            let Some(key) = r.text(p, "key", &path("key")) else {
                if !p.contains_key("key") {
                    r.problem(
                        &path("key"),
                        "missing: expected a world key such as \"arrivals.junior_offset\"",
                    );
                }
                continue;
            };
            let Some(param) = params::find(&key).filter(|p| p.is_real()) else {
                r.problem(&path("key"), format!("{key:?} is not a number of the world file; calibration moves numbers such as \"arrivals.junior_offset\""));
                continue;
            };
            if parameters.iter().any(|b| b.param.key == param.key) {
                r.problem(&path("key"), format!("{key:?} is calibrated twice"));
                continue;
            }
            let range = (param.min, param.max);
            let min = r.number(p, "min", &path("min"), range);
            let max = r.number(p, "max", &path("max"), range);
            match (min, max) {
                (Some(min), Some(max)) if min < max => parameters.push(Bounded { param, min, max }),
                (Some(min), Some(max)) => {
                    r.problem(&path("max"), format!("{max} is not above min {min}"))
                }
                _ => {
                    for k in ["min", "max"] {
                        if !p.contains_key(k) {
                            r.problem(
                                &path(k),
                                format!(
                                    "missing: expected {} ({})",
                                    param.range_text(),
                                    param.unit
                                ),
                            );
                        }
                    }
                }
            }
        }
        if !r.problems.is_empty() {
            return Err(ConfigError::Invalid(r.problems));
        }
        let world_name = world_name.unwrap_or_default();
        let world_path = relative(&world_name);
        let (world_text, world_source, world) = if world_path.is_file() {
            let text = std::fs::read_to_string(&world_path).map_err(|source| WorldError::Read {
                path: world_path.clone(),
                source,
            })?;
            let settings = world::load(&world_path.display().to_string())?;
            (text, world_path.display().to_string(), settings)
        } else {
            let settings = world::preset(&world_name)?;
            let text = world::file::PRESETS
                .iter()
                .find(|(n, _)| *n == world_name)
                .map(|(_, t)| t.to_string())
                .unwrap_or_default();
            (text, format!("built-in world {world_name}"), settings)
        };
        let world = match world.sized(scale, seeds[0]) {
            Ok(world) => world,
            Err(e) => {
                r.problem("scale", e.to_string());
                return Err(ConfigError::Invalid(r.problems));
            }
        };
        for b in &parameters {
            let value = b.param.get(&world).number();
            if !(b.min <= value && value <= b.max) {
                r.problem(
                    b.param.key,
                    format!("the world's value {value} is outside the bounds {} to {}; widen them or start from another world", b.min, b.max),
                );
            }
        }
        let scenario = Scenario::load(&relative(&scenario_path.unwrap_or_default()))?;
        for target in pending {
            match target {
                Pending::Table {
                    i,
                    file,
                    name,
                    from,
                    to,
                    games,
                    weight,
                } => {
                    let tables = read_published(&file)?;
                    let published = choose(tables, name.as_deref(), &file.display().to_string())?;
                    let window = published.window();
                    match (from.or(window.map(|w| w.0)), to.or(window.map(|w| w.1))) {
                        (Some(from), Some(to)) if from <= to => targets.push(Target::Table {
                            published,
                            from,
                            to,
                            games,
                            weight,
                        }),
                        (Some(_), Some(_)) => {
                            r.problem(&format!("target[{i}].to"), "is before `from`")
                        }
                        _ => r.problem(
                            &format!("target[{i}]"),
                            format!(
                                "the table {:?} is not named by its years; give `from` and `to`",
                                published.name
                            ),
                        ),
                    }
                }
                Pending::Gaps { file, weight } => targets.push(Target::Gaps {
                    gaps: read_gaps(&file)?,
                    weight,
                }),
                Pending::Counts { file, weight } => targets.push(Target::Counts {
                    counts: read_counts(&file)?,
                    weight,
                }),
                Pending::List {
                    i,
                    file,
                    month,
                    lowest,
                    top,
                    games,
                    weight,
                } => {
                    // Real lists hold corrupt rows and ids listed twice (data/README.md): those
                    // are left out, as `--skip-invalid` does.
                    let mut skips = Skips::new(true);
                    let mut list = read_list_ratings(&file, &mut skips)?;
                    list.keep_first_entries(&mut skips)?;
                    match month.or(list.month) {
                        Some(month) => targets.push(Target::Counts {
                            counts: CountTarget::from_list(
                                file.display().to_string(),
                                month,
                                &list.ratings,
                                games.then_some(list.period_games.as_slice()),
                                lowest,
                                top,
                            ),
                            weight,
                        }),
                        None => r.problem(
                            &format!("target[{i}].month"),
                            "missing: the list file does not say its month; give `month`",
                        ),
                    }
                }
            }
        }
        if !r.problems.is_empty() {
            return Err(ConfigError::Invalid(r.problems));
        }
        let population = r
            .whole(&table, "population", "population", (2, 1000))
            .unwrap_or(4 + (3.0 * (parameters.len().max(1) as f64).ln()).floor() as u64)
            as usize;
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

/// A target read from the file, its data still to load.
enum Pending {
    Table {
        i: usize,
        file: PathBuf,
        name: Option<String>,
        from: Option<Month>,
        to: Option<Month>,
        /// Also each row's number of games.
        games: bool,
        weight: f64,
    },
    Counts {
        file: PathBuf,
        weight: f64,
    },
    Gaps {
        file: PathBuf,
        weight: f64,
    },
    List {
        i: usize,
        file: PathBuf,
        month: Option<Month>,
        lowest: i32,
        top: i32,
        /// Also each band's games per player, from the list's games column.
        games: bool,
        weight: f64,
    },
}

/// `[[key]]` tables; anything else under the key is a problem.
fn array_of_tables(table: &Table, key: &str, r: &mut Reader) -> Vec<Table> {
    match table.get(key) {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, v)| match v {
                Value::Table(t) => Some(t.clone()),
                _ => {
                    r.problem(
                        &format!("{key}[{i}]"),
                        format!("expected a [[{key}]] table"),
                    );
                    None
                }
            })
            .collect(),
        Some(_) => {
            r.problem(key, format!("expected [[{key}]] tables"));
            Vec::new()
        }
    }
}
