//! Where the reports are: a games path told to be tournament reports (a report file, whatever its
//! extension, or a directory of them), and the report files of a directory.

use std::path::{Path, PathBuf};

use super::super::compressed::{plain_name, read_start, HEAD_BYTES};
use super::super::error::IngestError;
use super::super::text::decode;

/// The extensions of report files in a directory.
const REPORT_EXTENSIONS: [&str; 3] = ["trf", "txt", "tab"];

fn has_report_extension(path: &Path) -> bool {
    report_extension(path).is_some_and(|e| REPORT_EXTENSIONS.contains(&e.as_str()))
}

/// A report file's extension, lower case, under any compression's (`r1.trf.gz` → `trf`).
fn report_extension(path: &Path) -> Option<String> {
    let plain = plain_name(path);
    Some(
        Path::new(&plain)
            .extension()?
            .to_string_lossy()
            .into_owned(),
    )
}

/// Whether a games path is a TRF: a `.trf` file, any other file but CSV, Parquet and PGN whose
/// first record is a TRF record, or a directory holding report files (and no `period=` partition).
pub fn is_trf(path: &Path) -> bool {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            return false;
        };
        let names: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        let partitioned = names.iter().any(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("period="))
        });
        return !partitioned && names.iter().any(|p| p.is_file() && has_report_extension(p));
    }
    // Other extensions are told by the first record: pairing programs name their reports freely
    // (bbpPairings' `.input`).
    match report_extension(path).as_deref() {
        Some("trf") => true,
        Some("csv" | "parquet" | "pgn") => false,
        _ => starts_like_a_report(path),
    }
}

/// Whether the file's first line that is not blank is a TRF record (`012 …`, `001 …`), read
/// through the decompressing reader (a report may come gzipped or zipped).
fn starts_like_a_report(path: &Path) -> bool {
    let Ok(bytes) = read_start(path, HEAD_BYTES) else {
        return false;
    };
    let head = decode(bytes);
    head.lines()
        .map(|l| l.trim_end())
        .find(|l| !l.is_empty())
        .is_some_and(|l| {
            let code = l.as_bytes();
            code.len() >= 4 && code[..3].iter().all(u8::is_ascii_digit) && code[3] == b' '
        })
}

/// The report files of a directory, in name order; other entries are not reports and are left.
pub(super) fn report_files(dir: &Path) -> Result<Vec<PathBuf>, IngestError> {
    let unreadable = |e: std::io::Error| IngestError::File {
        file: dir.display().to_string(),
        problem: format!("cannot be read ({e})"),
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        if path.is_file() && has_report_extension(&path) {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(IngestError::File {
            file: dir.display().to_string(),
            problem: "no report: expected tournament report files (*.trf, *.txt, *.tab)".into(),
        });
    }
    Ok(files)
}
