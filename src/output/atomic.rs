//! Run directories appear complete or not at all: everything is written into a hidden temporary
//! directory beside the destination, which replaces the destination only when every file is done.

use std::path::{Path, PathBuf};

use super::kind::{check_destination, OutputKind};
use super::OutputError;

/// A directory being written; `commit` puts it in place, dropping it uncommitted removes it.
pub struct StagedDir {
    pub path: PathBuf,
    target: PathBuf,
    kind: OutputKind,
    committed: bool,
}

/// A committed directory, and what it kept of the one it replaced.
pub struct Placed {
    pub dir: PathBuf,
    /// The names of the files and directories the replaced output held that are not its kind's
    /// own (a report written into a run, notes): kept in place.
    pub kept: Vec<String>,
}

impl StagedDir {
    /// Stages an output of `kind` for `target`, which must be empty, absent or an earlier output
    /// of the same kind.
    pub fn new(target: &Path, kind: OutputKind) -> Result<StagedDir, OutputError> {
        check_destination(target, kind)?;
        let parent = target
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent).map_err(|source| OutputError::Io {
            path: parent.to_path_buf(),
            source,
        })?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "run".into());
        remove_abandoned(parent, &name);
        let path = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        if path.exists() {
            std::fs::remove_dir_all(&path).map_err(|source| OutputError::Io {
                path: path.clone(),
                source,
            })?;
        }
        std::fs::create_dir_all(&path).map_err(|source| OutputError::Io {
            path: path.clone(),
            source,
        })?;
        Ok(StagedDir {
            path,
            target: target.to_path_buf(),
            kind,
            committed: false,
        })
    }

    /// Replaces the destination by the finished directory. On Linux an existing destination is
    /// swapped with the finished directory in one step (`renameat2` with `RENAME_EXCHANGE`), so that
    /// a crash at any moment leaves either the old run or the new one under the final name; elsewhere
    /// (or where the file system cannot swap) the old run is moved aside first. What the old
    /// directory held besides its kind's own files is linked into the new one first, so that it
    /// stays under the final name throughout.
    pub fn commit(mut self) -> Result<Placed, OutputError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| OutputError::Io { path, source }
        };
        let kept = self.keep_foreign()?;
        let placed = Placed {
            dir: self.target.clone(),
            kept,
        };
        if self.target.exists() && exchange(&self.path, &self.target).is_ok() {
            // The old run now sits at the temporary name.
            self.committed = true;
            std::fs::remove_dir_all(&self.path).map_err(io(&self.path))?;
            return Ok(placed);
        }
        let old = self.path.with_file_name(format!(
            "{}.old",
            self.path.file_name().unwrap_or_default().to_string_lossy()
        ));
        if self.target.exists() {
            std::fs::rename(&self.target, &old).map_err(io(&self.target))?;
        }
        std::fs::rename(&self.path, &self.target).map_err(io(&self.target))?;
        self.committed = true;
        if old.exists() {
            std::fs::remove_dir_all(&old).map_err(io(&old))?;
        }
        Ok(placed)
    }

    /// Links into the staged directory what the destination holds that its kind does not write;
    /// their names.
    fn keep_foreign(&self) -> Result<Vec<String>, OutputError> {
        let Ok(entries) = std::fs::read_dir(&self.target) else {
            return Ok(Vec::new());
        };
        let mut kept = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if self.kind.owns(&name) || is_temporary(&name) {
                continue;
            }
            link_tree(&entry.path(), &self.path.join(&name))?;
            kept.push(name);
        }
        kept.sort();
        Ok(kept)
    }
}

/// A file or directory this module writes while it works (`.NAME.tmp-PID`).
fn is_temporary(name: &str) -> bool {
    name.starts_with('.') && name.contains(".tmp-")
}

/// Recreates `from` at `to` with hard links (copies where the file system has none), so that the
/// same files appear under both names without copying their bytes.
fn link_tree(from: &Path, to: &Path) -> Result<(), OutputError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| OutputError::Io { path, source }
    };
    if from.is_dir() && !from.is_symlink() {
        std::fs::create_dir_all(to).map_err(io(to))?;
        for entry in std::fs::read_dir(from).map_err(io(from))? {
            let entry = entry.map_err(io(from))?;
            link_tree(&entry.path(), &to.join(entry.file_name()))?;
        }
        return Ok(());
    }
    std::fs::hard_link(from, to)
        .or_else(|_| std::fs::copy(from, to).map(drop))
        .map_err(io(to))
}

/// Removes the temporary directories that killed runs left beside `name` (`.name.tmp-PID` of a
/// process that no longer exists). Only where running processes can be checked (Linux's /proc).
fn remove_abandoned(parent: &Path, name: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = file_name.strip_prefix(&prefix) else {
            continue;
        };
        let pid = pid.trim_end_matches(".old");
        if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Swaps two directories atomically (Linux's `renameat2(RENAME_EXCHANGE)`).
#[cfg(target_os = "linux")]
#[allow(
    unsafe_code,
    reason = "std has no atomic exchange of two directories; one libc call"
)]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))
    };
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both paths are valid NUL-terminated strings that outlive the call; AT_FDCWD makes
    // them relative to the working directory, as std::fs does.
    let result = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if result == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "no atomic exchange",
    ))
}

impl Drop for StagedDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// Writes one file under a temporary name beside it and renames it when complete, so that the
/// final name never holds a half-written file.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let io = |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    };
    if path.is_dir() {
        return Err(OutputError::Refused {
            dir: path.to_path_buf(),
            reason: "it is a directory; give a file name".into(),
        });
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&temporary, bytes).map_err(io)?;
    std::fs::rename(&temporary, path).map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        io(e)
    })
}
