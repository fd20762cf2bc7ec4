//! Writing a run's directory (the README's table of a run's files): `scenario.resolved.toml`,
//! `lists.parquet`, `games.parquet`, `summary.json` and, on request, `lists/YYYY-MM.csv`.

pub mod atomic;
mod kind;
mod run_writer;
mod summary;
pub mod tables;
mod world;

use std::path::{Path, PathBuf};

use crate::generate::world::equilibrium::NotConverged;

pub use atomic::{write_file, Placed};
pub use kind::{check_destination, resolved, OutputKind};
pub use run_writer::{RunWriter, Written};
pub use summary::{run_approximations, Timing, LISTS_LAYOUT};
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
    #[error(transparent)]
    Equilibrium(#[from] NotConverged),
}

pub struct WriteOptions {
    /// Also write one CSV list per month.
    pub csv: bool,
}

/// A value as pretty JSON with a final newline, as every JSON file and `--format json` is written.
pub fn pretty_json(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("derived JSON always serializes");
    text.push('\n');
    text
}

pub fn write_text(path: &Path, text: &str) -> Result<(), OutputError> {
    std::fs::write(path, text).map_err(|source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    })
}
