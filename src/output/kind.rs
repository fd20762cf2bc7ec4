//! The kinds of directory elosim writes, told apart by the files each holds, so that no command
//! writes over another's outputs, and a command replacing its own earlier outputs replaces only
//! the files it writes.

use std::path::{Path, PathBuf};

use super::OutputError;

/// What an output directory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// `elosim replay`.
    Run,
    /// `elosim generate`.
    World,
    /// `elosim calibrate`.
    Calibration,
    /// `elosim sweep`.
    Study,
}

const KINDS: [OutputKind; 4] = [
    OutputKind::Run,
    OutputKind::World,
    OutputKind::Calibration,
    OutputKind::Study,
];

impl OutputKind {
    /// How messages name a directory of this kind.
    pub fn describe(self) -> &'static str {
        match self {
            OutputKind::Run => "a replay's run",
            OutputKind::World => "a generated world",
            OutputKind::Calibration => "a calibration",
            OutputKind::Study => "a sweep study",
        }
    }

    /// The kind in one word ("an elosim run directory").
    fn noun(self) -> &'static str {
        match self {
            OutputKind::Run => "run",
            OutputKind::World => "world",
            OutputKind::Calibration => "calibration",
            OutputKind::Study => "study",
        }
    }

    /// The command that writes this kind, as messages name it.
    fn writer(self) -> &'static str {
        match self {
            OutputKind::Run => "a replay",
            OutputKind::World => "`elosim generate`",
            OutputKind::Calibration => "a calibration",
            OutputKind::Study => "a sweep study",
        }
    }

    /// The files only this kind writes: one of them identifies a directory as this kind's.
    fn markers(self) -> &'static [&'static str] {
        match self {
            OutputKind::Run => &["lists.parquet"],
            OutputKind::World => &["truth.parquet"],
            OutputKind::Calibration => &["evaluations.parquet"],
            OutputKind::Study => &["results.jsonl", "results.partial.jsonl", "results.parquet"],
        }
    }

    /// Every file and directory this kind writes at the top of its directory: replacing an
    /// earlier output of the kind replaces these and keeps the rest (a report written there).
    fn own(self) -> &'static [&'static str] {
        match self {
            OutputKind::Run => &[
                "scenario.resolved.toml",
                "lists.parquet",
                "games.parquet",
                "periods.parquet",
                "summary.json",
                "lists",
            ],
            OutputKind::World => &[
                "games.parquet",
                "games",
                "truth.parquet",
                "players.parquet",
                "start-list.parquet",
                "world.toml",
                "summary.json",
            ],
            OutputKind::Calibration => &["world.toml", "evaluations.parquet", "summary.json"],
            // A study writes its files one by one into its directory, never replacing it whole.
            OutputKind::Study => &[],
        }
    }

    /// The first of this kind's marker files that `dir` holds.
    fn marker_in(self, dir: &Path) -> Option<&'static str> {
        self.markers()
            .iter()
            .copied()
            .find(|m| dir.join(m).exists())
    }

    /// The kind of an existing directory, from the files it holds; `None` for any other.
    pub fn of(dir: &Path) -> Option<OutputKind> {
        KINDS.into_iter().find(|kind| kind.marker_in(dir).is_some())
    }

    /// Whether `name`, at the top of a directory of this kind, is one of the kind's own files.
    pub fn owns(self, name: &str) -> bool {
        self.own().contains(&name)
    }
}

/// Refuses `dir` as the output directory of `kind`: the working directory or one of its parents
/// (which cannot be replaced while in use), a directory another command wrote (named by its kind
/// and the file that tells it), or one that holds anything but an output of `kind` (a user's
/// files, the repository's data).
pub fn check_destination(dir: &Path, kind: OutputKind) -> Result<(), OutputError> {
    let refuse = |reason: String| {
        Err(OutputError::Refused {
            dir: dir.to_path_buf(),
            reason,
        })
    };
    if holds_working_directory(dir) {
        return refuse(
            "it is the current directory or a parent of it, which cannot be replaced while in use; choose another --out".into(),
        );
    }
    if dir.file_name().is_none() {
        return refuse(
            "give the directory by its name, not as `..` or a root; choose another --out".into(),
        );
    }
    if !dir.exists() {
        return Ok(());
    }
    if !dir.is_dir() {
        return refuse("it is a file, not a directory; choose another --out".into());
    }
    match OutputKind::of(dir) {
        Some(found) if found == kind => Ok(()),
        Some(found) => refuse(format!(
            "it holds {} ({}), which {} would overwrite; choose another --out",
            found.describe(),
            found.marker_in(dir).unwrap_or_default(),
            kind.writer()
        )),
        None if !is_empty(dir) => refuse(format!(
            "it exists and is not an elosim {} directory, nor empty (it holds none of {}); choose another --out",
            kind.noun(),
            all_markers().join(", ")
        )),
        None => Ok(()),
    }
}

fn all_markers() -> Vec<&'static str> {
    KINDS.iter().flat_map(|k| k.markers()).copied().collect()
}

fn is_empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_none())
}

/// Whether the working directory is `dir` or lies inside it.
fn holds_working_directory(dir: &Path) -> bool {
    let (Ok(dir), Ok(current)) = (dir.canonicalize(), std::env::current_dir()) else {
        return false;
    };
    current.canonicalize().unwrap_or(current).starts_with(dir)
}

/// `path` made absolute with every `..` and link of its existing part resolved, so that two
/// spellings of one place compare equal even before the place exists.
pub fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut existing = absolute.as_path();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            return rest.iter().rev().fold(real, |p, c| match c.to_str() {
                Some("..") => p.parent().map_or(p.clone(), Path::to_path_buf),
                Some(".") => p,
                _ => p.join(c),
            });
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return absolute,
        }
    }
}
