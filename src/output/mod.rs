//! Writing a run's directory (design.md "data contracts"): `scenario.resolved.toml`,
//! `lists.parquet`, `games.parquet`, `summary.json` and, on request, `lists/YYYY-MM.csv`.

mod atomic;
mod summary;
mod tables;
mod world;

use std::path::{Path, PathBuf};

use crate::ingest::IngestReport;
use crate::replay::{Inputs, Run};
use crate::scenario::Scenario;

pub use atomic::write_file;
pub use summary::Timing;
pub use tables::write_canonical_games;
pub use world::WorldWriter;

#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot write {}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: {message}", path.display())]
    Table { path: PathBuf, message: String },
    #[error("refusing to replace {}: {reason}", dir.display())]
    Refused { dir: PathBuf, reason: String },
}

pub struct WriteOptions {
    /// Also write one CSV list per month.
    pub csv: bool,
}

/// Writes every file of a run into `dir` (replacing an earlier run there), returning the directory.
pub fn write_run(
    dir: &Path,
    scenario: &Scenario,
    inputs: &Inputs,
    run: &Run,
    report: &IngestReport,
    options: &WriteOptions,
    timing: &Timing,
) -> Result<PathBuf, OutputError> {
    let staged = atomic::StagedDir::new(dir)?;
    let at = |name: &str| staged.path.join(name);
    write_text(&at("scenario.resolved.toml"), &scenario.resolved_toml())?;
    let (lists, games) = rayon::join(
        || tables::write_lists(&at("lists.parquet"), inputs, run),
        || tables::write_games(&at("games.parquet"), inputs, run),
    );
    lists?;
    games?;
    if options.csv {
        tables::write_csv_lists(&at("lists"), inputs, run)?;
    }
    write_text(
        &at("summary.json"),
        &summary::summary_json(scenario, run, report, timing),
    )?;
    staged.commit()
}

fn write_text(path: &Path, text: &str) -> Result<(), OutputError> {
    std::fs::write(path, text).map_err(|source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    })
}
