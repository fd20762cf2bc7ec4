//! A study file (TOML): the scenario to vary, the parameters (key paths into it with their values
//! or ranges), the input (generated worlds with their scale and seeds, or the user's own games), the
//! measures, the design, and what the summary ranks by. Read like scenarios and world files: every
//! key checked, every problem at once with its key path, before any replay runs; the command line's
//! overrides go through the same checks.
//!
//! ```toml
//! scenario = "../sonas-2017.toml"
//! references = ["../fide-historical.toml"]
//!
//! [input]
//! worlds = ["fide-2001-2025", "fide-2001-2025-activity", "fide-2001-2025-form"]
//! scale = 0.1
//! seeds = [1, 2, 3, 4, 5, 6, 7, 8]
//!
//! [[parameter]]
//! key = "event[compression 2017-01].factor"
//! min = 0.0
//! max = 0.6
//! steps = 7
//!
//! [[measure]]
//! kind = "truth-gap"
//! list = "2023-01"
//! ```

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use toml::{Table, Value};

use crate::ingest::InputFiles;
use crate::keys::{at, describe, problem_list, read_file, Domain, FileError, Problem, Reader};
use crate::model::Month;
use crate::scenario::{GameFormat, Scenario, ScenarioError, ScenarioFiles};
use crate::simulate::cmaes::SearchSettings;
use crate::simulate::measure::{check_names, Goal, Measure, MeasureKind, Needs};
use crate::simulate::world_input::{WorldInput, WorldKeys, WORLD_KEYS};
use crate::simulate::{read_seeds, LoadedWorld, SCALE};

use super::parameter::read_parameters;
pub use super::parameter::{Parameter, Values};

/// A study, read and checked.
pub struct Study {
    pub file: PathBuf,
    pub name: String,
    pub description: String,
    /// The base scenario (the baseline) as read, to be resolved with each candidate's values.
    pub base: ScenarioFiles,
    /// Other scenarios evaluated as rows of their own, by name.
    pub references: Vec<(String, Scenario)>,
    pub input: Input,
    pub parameters: Vec<Parameter>,
    pub measures: Vec<Measure>,
    pub design: Design,
    /// The figure candidates are ranked by (`measure.figure`).
    pub rank: String,
    /// The two or three figures of the Pareto front.
    pub pareto: Vec<String>,
    /// The gain in distance from the ideal a verdict of better or worse needs, by figure (0 for
    /// a figure not named): a practical threshold, so that a sure but negligible difference says
    /// so.
    pub thresholds: Vec<(String, f64)>,
    pub verify: Verify,
    pub out: Option<PathBuf>,
    /// SHA-256 of everything the results depend on: the study's text, the scenarios resolved,
    /// every world as resolved, the input files, the scale and seeds in force, and elosim's version. Shards
    /// and journals of another study are refused by it.
    pub fingerprint: String,
}

/// What the candidates are replayed on.
pub enum Input {
    /// Generated worlds (one or more, each known by its name), each on the same seeds at the same
    /// scale: each (world, seed)'s world generated once and shared by every candidate.
    World {
        worlds: Vec<LoadedWorld>,
        scale: f64,
        seeds: Vec<u64>,
    },
    /// The user's own games (one history: no seeds, no truth).
    Games {
        files: InputFiles,
        skip_invalid: bool,
    },
}

impl Input {
    /// The seeds replayed: a world's, or a single 0 for one history of real games.
    pub fn seeds(&self) -> Vec<u64> {
        match self {
            Input::World { seeds, .. } => seeds.clone(),
            Input::Games { .. } => vec![0],
        }
    }

    pub fn is_world(&self) -> bool {
        matches!(self, Input::World { .. })
    }

    /// The generated worlds, in the study's order (none for the user's games).
    pub fn worlds(&self) -> &[LoadedWorld] {
        match self {
            Input::World { worlds, .. } => worlds,
            Input::Games { .. } => &[],
        }
    }

    /// What the rows' `world` holds, in the study's order: each world's name, or one empty name
    /// for one history of real games (which is no world).
    pub fn world_names(&self) -> Vec<String> {
        match self {
            Input::World { worlds, .. } => worlds.iter().map(|w| w.settings.name.clone()).collect(),
            Input::Games { .. } => vec![String::new()],
        }
    }
}

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
    pub fn name(&self) -> &'static str {
        match self {
            Design::Grid => "grid",
            Design::Sobol { .. } => "sobol",
            Design::Latin { .. } => "latin",
            Design::Optimise { .. } => "optimise",
        }
    }
}

/// The best candidates replayed again, larger and on seeds the search did not use.
#[derive(Clone, Debug, PartialEq)]
pub struct Verify {
    pub top: usize,
    pub scale: f64,
    pub seeds: Vec<u64>,
    /// Where the seeds were given, for a refusal to name: `--verify-seeds` or `verify.seeds`.
    pub seeds_from: String,
}

/// What the command line sets instead of the file; checked as the file's values are.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub scale: Option<f64>,
    pub seeds: Option<Vec<u64>>,
    /// `[verify] scale` and `seeds` instead of the file's.
    pub verify_scale: Option<f64>,
    pub verify_seeds: Option<Vec<u64>>,
}

#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{count} problem{s} in the study:\n{list}", count = .0.len(), s = if .0.len() == 1 { "" } else { "s" }, list = problem_list(.0))]
    Invalid(Vec<Problem>),
}

const KEYS: &[&str] = &[
    "name",
    "description",
    "scenario",
    "references",
    "out",
    "input",
    "design",
    "parameter",
    "measure",
    "summary",
    "verify",
];
const INPUT_KEYS: &[&str] = &[
    "world",
    "worlds",
    "scale",
    "seeds",
    "games",
    "format",
    "month-1",
    "start-list",
    "players",
    "skip-invalid",
];
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

/// Candidates a grid may have before it is refused as a mistake.
const MAX_CANDIDATES: usize = 100_000;

impl Study {
    pub fn load(path: &Path, overrides: &Overrides) -> Result<Study, StudyError> {
        let (text, table) = read_file(path, "study file")?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let mut r = Reader::new(path);
        r.unknown(&table, "", KEYS);
        let name = r.directory_name(&table, "", "name").unwrap_or_else(|| {
            path.file_stem()
                .map_or("study".into(), |s| s.to_string_lossy().into_owned())
        });
        let description = r.text(&table, "", "description").unwrap_or_default();
        let out = r.text(&table, "", "out").map(|o| dir.join(o));
        r.require(
            &table,
            "",
            "scenario",
            "the scenario to vary, such as \"../sonas-2017.toml\"",
        );
        let base = r
            .text(&table, "", "scenario")
            .and_then(|s| scenario_files(&mut r, &dir.join(s), "scenario"));
        let references = read_references(&mut r, &table, dir);
        let input = read_input(&mut r, &table, dir, overrides, base.as_ref());
        let parameters = base
            .as_ref()
            .map(|b| read_parameters(&mut r, &table, b))
            .unwrap_or_default();
        let measures = read_measures(&mut r, &table, dir, input.as_ref(), base.as_ref());
        let design = read_design(&mut r, &table, &parameters, &measures);
        let (rank, pareto, thresholds) = read_summary(&mut r, &table, &measures);
        let verify = read_verify(&mut r, &table, input.as_ref(), overrides);
        if let (Some(Design::Grid), true) =
            (&design, parameters.iter().all(|p| p.count().is_some()))
        {
            let candidates: usize = parameters
                .iter()
                .filter_map(Parameter::count)
                .fold(1usize, |a, n| a.saturating_mul(n));
            if candidates > MAX_CANDIDATES {
                r.problem(
                    "design",
                    format!("the grid has {candidates} candidates; at most {MAX_CANDIDATES}: use fewer steps or a sobol design"),
                );
            }
        }
        if !r.problems.is_empty() {
            return Err(StudyError::Invalid(r.problems));
        }
        let (Some(base), Some(input), Some(design)) = (base, input, design) else {
            return Err(StudyError::Invalid(r.problems));
        };
        let fingerprint = fingerprint(text.as_bytes(), &base, &references, &input, &measures);
        Ok(Study {
            file: path.to_path_buf(),
            name,
            description,
            base,
            references,
            input,
            parameters,
            measures,
            design,
            rank,
            pareto,
            thresholds,
            verify,
            out,
            fingerprint,
        })
    }

    /// Each parameter's domain, in order: what types the values of its journal's rows.
    pub fn domains(&self) -> Vec<Domain> {
        self.parameters.iter().map(|p| p.domain).collect()
    }

    /// Every figure's column, in the measures' order, with its goal.
    pub fn columns(&self) -> Vec<(String, Goal, &'static str)> {
        columns(&self.measures)
    }

    /// The threshold of a figure's verdicts (0 unless `[summary] threshold` names it).
    pub fn threshold(&self, figure: &str) -> f64 {
        self.thresholds
            .iter()
            .find(|(name, _)| name == figure)
            .map_or(0.0, |(_, t)| *t)
    }

    /// For each column, the column of its paired difference's standard error within one replay
    /// and the factor to apply to it, where the measure gives one.
    pub fn paired_errors(&self) -> Vec<Option<(usize, f64)>> {
        let figures: Vec<_> = self
            .measures
            .iter()
            .flat_map(|m| m.columns(&m.kind.empty(), 1.0))
            .collect();
        figures
            .iter()
            .map(|f| {
                let (name, factor) = f.paired_se.as_ref()?;
                Some((figures.iter().position(|g| g.name == *name)?, *factor))
            })
            .collect()
    }
}

/// Every figure's column of these measures, with its goal and unit.
pub fn columns(measures: &[Measure]) -> Vec<(String, Goal, &'static str)> {
    measures
        .iter()
        .flat_map(|m| m.columns(&m.kind.empty(), 1.0))
        .map(|f| (f.name, f.goal, f.unit))
        .collect()
}

/// Reads a scenario with the files it extends, its problems noted at `path`.
fn scenario_files(r: &mut Reader, file: &Path, path: &str) -> Option<ScenarioFiles> {
    match ScenarioFiles::read(file) {
        Ok(files) => Some(files),
        Err(ScenarioError::Invalid(problems)) => {
            for p in problems {
                r.problem(path, p.to_string());
            }
            None
        }
        Err(e) => {
            r.problem(path, e.to_string());
            None
        }
    }
}

fn read_references(r: &mut Reader, table: &Table, dir: &Path) -> Vec<(String, Scenario)> {
    let Some(value) = table.get("references") else {
        return Vec::new();
    };
    let Value::Array(items) = value else {
        r.problem(
            "references",
            format!("expected a list of scenario files, got {}", describe(value)),
        );
        return Vec::new();
    };
    let mut out: Vec<(String, Scenario)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = format!("references[{}]", i + 1);
        let Some(file) = item.as_str() else {
            r.problem(
                &path,
                format!("expected a scenario file, got {}", describe(item)),
            );
            continue;
        };
        if let Some(files) = scenario_files(r, &dir.join(file), &path) {
            let scenario = files.base().clone();
            if out.iter().any(|(n, _)| *n == scenario.name) {
                r.problem(
                    &path,
                    format!("a reference named {:?} is already listed", scenario.name),
                );
                continue;
            }
            out.push((scenario.name.clone(), scenario));
        }
    }
    out
}

fn read_input(
    r: &mut Reader,
    table: &Table,
    dir: &Path,
    overrides: &Overrides,
    base: Option<&ScenarioFiles>,
) -> Option<Input> {
    let t = r.table(table, "", "input", INPUT_KEYS);
    let path = "input";
    let flags = (None, overrides.scale, overrides.seeds.as_deref());
    let keys = WorldKeys::read(r, (&t, path), true, flags);
    let games = r.text(&t, path, "games");
    if keys.names_a_world() {
        for key in INPUT_KEYS.iter().filter(|k| !WORLD_KEYS.contains(k)) {
            if t.contains_key(*key) {
                r.problem(
                    &at(path, key),
                    "belongs to the user's own games, not to a world: give `world` or `games`",
                );
            }
        }
        let WorldInput {
            worlds,
            scale,
            seeds,
        } = keys.load(r, dir, &[1, 2, 3, 4]);
        if worlds.is_empty() {
            return None;
        }
        return Some(Input::World {
            worlds,
            scale,
            seeds,
        });
    }
    for key in keys.given_without_a_world() {
        r.problem(
            key,
            "belongs to a generated world: one history of real games has no scale or seeds",
        );
    }
    let data = base.map(|b| b.base().data.clone());
    let format = r
        .text(&t, path, "format")
        .and_then(|f| match GameFormat::parse(&f) {
            Some(f) => Some(f),
            None => {
                r.problem(
                    &at(path, "format"),
                    format!(
                        "expected one of: {}, got {f:?}",
                        GameFormat::NAMES.join(", ")
                    ),
                );
                None
            }
        });
    let month_1 = r.month(&t, path, "month-1");
    let start_list = r.text(&t, path, "start-list").map(|f| dir.join(f));
    let players = r.text(&t, path, "players").map(|f| dir.join(f));
    let skip_invalid = r.boolean(&t, path, "skip-invalid").unwrap_or(false);
    let files = match (games, data) {
        (Some(games), data) => InputFiles {
            games: dir.join(games),
            format: format.unwrap_or(GameFormat::Auto),
            month_1: month_1.or(data.as_ref().and_then(|d| d.month_1)),
            start_list,
            players,
            pgn_dates: crate::ingest::Dates::NeedMonth,
        },
        (None, Some(data)) if data.games.is_some() => InputFiles {
            games: data.games.clone().unwrap_or_default(),
            format: format.unwrap_or(data.format),
            month_1: month_1.or(data.month_1),
            start_list: start_list.or(data.start_list),
            players: players.or(data.players),
            pgn_dates: crate::ingest::Dates::NeedMonth,
        },
        _ => {
            r.problem(
                path,
                "missing: expected `world` (a generated world: built-in or a world file) or `games` (your own games); the scenario names no games either",
            );
            return None;
        }
    };
    if !files.games.exists() {
        r.problem(
            &at(path, "games"),
            format!("{} does not exist", files.games.display()),
        );
        return None;
    }
    Some(Input::Games {
        files,
        skip_invalid,
    })
}

fn read_measures(
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

fn read_design(
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
    if parameters.is_empty() && !r.has_problem_at("parameter") {
        r.problem(
            "parameter",
            "missing: the design is empty; expected at least one [[parameter]] to vary",
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

/// A table of figures and numbers (`{ "truth_gap.active.rms" = 1 }`): each number one that `valid`
/// accepts (else the problem says `expected`), each figure one the measures judge, every problem at
/// `path.figure`; `None` where any is refused.
fn figure_numbers(
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
fn judged_columns(measures: &[Measure]) -> Vec<String> {
    columns(measures)
        .into_iter()
        .filter(|(_, goal, _)| *goal != Goal::Shown)
        .map(|(name, _, _)| name)
        .collect()
}

fn unknown_figure(name: &str, judged: &[String]) -> String {
    let known: Vec<&str> = judged.iter().map(String::as_str).collect();
    if known.is_empty() {
        return format!("{name:?} is not a figure of the measures, which judge none as they stand (their problems are listed)");
    }
    format!(
        "{name:?} is not a figure the measures judge; the nearest: {}",
        crate::keys::nearest(name, &known, 3).join(", ")
    )
}

/// The rank figure, the Pareto figures and the thresholds of the verdicts.
type SummaryKeys = (String, Vec<String>, Vec<(String, f64)>);

fn read_summary(r: &mut Reader, table: &Table, measures: &[Measure]) -> SummaryKeys {
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
    (rank, pareto, thresholds)
}

fn read_verify(
    r: &mut Reader,
    table: &Table,
    input: Option<&Input>,
    overrides: &Overrides,
) -> Verify {
    let t = r.table(table, "", "verify", &["top", "scale", "seeds"]);
    let top = r.whole(&t, "verify", "top", (1, 1000)).unwrap_or(3) as usize;
    let scale = r.number(&t, "verify", "scale", SCALE);
    let scale = r
        .overridden("--verify-scale", overrides.verify_scale, SCALE)
        .or(scale)
        .unwrap_or(1.0);
    let study_seeds = input.map(Input::seeds).unwrap_or_default();
    let given = overrides.verify_seeds.as_deref();
    let (seeds, seeds_from) =
        read_seeds(r, &t, "verify", "--verify-seeds", given).unwrap_or_else(|| {
            // As many seeds as the search used (two at least), numbered after its largest.
            let next = study_seeds.iter().max().map_or(1, |m| m + 1);
            let seeds = (next..next + study_seeds.len().max(2) as u64).collect();
            (seeds, at("verify", "seeds"))
        });
    Verify {
        top,
        scale,
        seeds,
        seeds_from,
    }
}

/// SHA-256 of what a study's results depend on.
/// Every file's content counts, never its path as typed, so that a shard run from another folder
/// is the same study.
fn fingerprint(
    text: &[u8],
    base: &ScenarioFiles,
    references: &[(String, Scenario)],
    input: &Input,
    measures: &[Measure],
) -> String {
    let mut hash = Sha256::new();
    hash.update(env!("CARGO_PKG_VERSION"));
    hash.update(text);
    for m in measures {
        // The published figures a measure read, not the path it read them from.
        let mut kind = m.kind.clone();
        match &mut kind {
            MeasureKind::Table(t) => t.published.file.clear(),
            MeasureKind::Counts(c) => c.target.file.clear(),
            MeasureKind::Gaps(g) => g.target.file.clear(),
            _ => {}
        }
        hash.update(format!("{} {kind:?}", m.name));
    }
    hash.update(base.base().rules_toml());
    for (_, scenario) in references {
        hash.update(scenario.rules_toml());
    }
    match input {
        Input::World {
            worlds,
            scale,
            seeds,
        } => {
            // Each world as its files (and those it extends) resolve it, in the study's order.
            for world in worlds {
                hash.update(format!("{:?}", world.settings));
            }
            hash.update(format!("{scale:?} {seeds:?}"));
        }
        Input::Games {
            files,
            skip_invalid,
        } => {
            for file in [
                Some(&files.games),
                files.start_list.as_ref(),
                files.players.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                if let Ok(bytes) = std::fs::read(file) {
                    hash.update(bytes);
                }
            }
            hash.update(format!("{skip_invalid}"));
        }
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
