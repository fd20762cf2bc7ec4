//! Test support: every test (of the library, and of the command line, whose tests include this
//! file) writes under one scratch directory per test process, and the directories of earlier
//! processes that have ended are removed, so that test runs do not pile up files in the system's
//! temporary directory.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The directory `name` under this process's scratch directory, created if need be (tests that
/// share a name share the directory).
pub fn scratch(name: &str) -> PathBuf {
    let dir = root().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const PREFIX: &str = "elosim-tests-";

fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        remove_ended(PREFIX);
        std::env::temp_dir().join(format!("{PREFIX}{}", std::process::id()))
    })
}

/// Removes the scratch directories named `PREFIX<pid>` of processes that no longer run (where
/// `/proc` tells; elsewhere nothing is removed).
fn remove_ended(prefix: &str) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix(prefix) else {
            continue;
        };
        if pid.parse::<u32>().is_ok() && !proc.join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
