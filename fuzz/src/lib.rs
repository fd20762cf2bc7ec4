//! What the fuzz targets share: the readers take paths, so each input is written to a file of this
//! process's own and read back through the real code path.

use std::path::PathBuf;

/// Writes `data` to a scratch file named `name` (its extension picks the reader) and returns it.
pub fn scratch_file(name: &str, data: &[u8]) -> PathBuf {
    let base = if std::path::Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    let path = base.join(format!("elosim-fuzz-{}-{name}", std::process::id()));
    std::fs::write(&path, data).expect("the scratch directory is writable");
    path
}
