//! Where a benchmark writes its files.

use std::path::PathBuf;

/// The directory the user keeps (`--keep DIR`), or a temporary one the benchmark removes when done.
pub struct WorkDir {
    pub path: PathBuf,
    kept: bool,
}

impl WorkDir {
    /// `kept`, or `elosim-NAME-PID` in the temporary directory: the process id keeps benchmarks
    /// run side by side apart.
    pub fn new(kept: Option<PathBuf>, name: &str) -> WorkDir {
        match kept {
            Some(path) => WorkDir { path, kept: true },
            None => WorkDir {
                path: std::env::temp_dir().join(format!("elosim-{name}-{}", std::process::id())),
                kept: false,
            },
        }
    }

    /// Removes the directory unless it is kept.
    pub fn done(self) -> std::io::Result<()> {
        if self.kept {
            Ok(())
        } else {
            std::fs::remove_dir_all(&self.path)
        }
    }
}
