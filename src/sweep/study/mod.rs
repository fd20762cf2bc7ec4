//! A study file (TOML): the scenario to vary, the parameters (key paths into it with their values
//! or ranges), the input (generated worlds with their scale and seeds, or the user's own games), the
//! measures, the design, and what the summary ranks by. Read like scenarios and world files: every
//! key checked, every problem at once with its key path, before any replay runs; the command line's
//! overrides go through the same checks. Each of the file's tables is read in a file of its own
//! (`input`, `parameter`, `measures`, `design`, `summary`, `verify`; the figures the design and
//! the summary name are checked by `figures`); this one reads the top level and joins them.
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

use crate::keys::{describe, problem_list, read_file, Domain, FileError, Problem, Reader};
use crate::scenario::{Scenario, ScenarioError, ScenarioFiles};
use crate::simulate::measure::{Goal, Measure, MeasureKind};

mod design;
mod figures;
mod input;
mod measures;
mod parameter;
mod summary;
mod verify;

pub use design::Design;
pub use input::Input;
pub use parameter::{Parameter, Values};
pub use verify::Verify;

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
        let input = input::read_input(&mut r, &table, dir, overrides, base.as_ref());
        let parameters = base
            .as_ref()
            .map(|b| parameter::read_parameters(&mut r, &table, b))
            .unwrap_or_default();
        let measures = measures::read_measures(&mut r, &table, dir, input.as_ref(), base.as_ref());
        let design = design::read_design(&mut r, &table, &parameters, &measures);
        let summary::SummaryKeys {
            rank,
            pareto,
            thresholds,
        } = summary::read_summary(&mut r, &table, &measures);
        let verify = verify::read_verify(&mut r, &table, input.as_ref(), overrides);
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

#[cfg(test)]
mod tests;
