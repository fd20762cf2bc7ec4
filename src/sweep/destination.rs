//! Where a study may write: a new or empty directory, or its own earlier output. Never another
//! command's directory, a directory of someone's files, or another study's results (a finished
//! study of another file would have its journal replaced by this one's).

use std::path::{Path, PathBuf};

use crate::output::{check_destination, OutputError, OutputKind};

use super::error::SweepError;
use super::journal;
use super::study::Study;
use super::verify;

/// A shard's directory under the study's, where `--shard I/N` writes without `--out`.
pub fn shard_dir(base: &Path, (index, count): (u32, u32)) -> PathBuf {
    base.join(format!("shard-{index}-of-{count}"))
}

/// Refuses `dir` as the output directory of `study` unless it is new, empty, holds this study's
/// own journals (a run to resume, replace, shard or verify), or holds nothing but this study's
/// shards (where `--merge` writes by default).
pub fn check_out(dir: &Path, study: &Study) -> Result<(), SweepError> {
    if holds_only_its_shards(dir, study)? {
        return Ok(());
    }
    check_destination(dir, OutputKind::Study)?;
    refuse_other_study(dir, study)
}

/// The journals in `dir` must be this study's.
fn refuse_other_study(dir: &Path, study: &Study) -> Result<(), SweepError> {
    for path in journals(dir) {
        let (header, _) = journal::header(&path)?;
        if header.study != study.name {
            return Err(OutputError::Refused {
                dir: dir.to_path_buf(),
                reason: format!(
                    "it holds the results of the study {:?} ({}), which the study {:?} would overwrite; choose another --out",
                    header.study, header.file, study.name
                ),
            }
            .into());
        }
    }
    Ok(())
}

/// The journals a study's directory may hold: the search's (finished or not) and the
/// verification's.
fn journals(dir: &Path) -> Vec<PathBuf> {
    let finished = dir.join(journal::FILE);
    [
        journal::partial(&finished),
        finished,
        dir.join(verify::JOURNAL),
    ]
    .into_iter()
    .filter(|p| p.exists())
    .collect()
}

/// Whether `dir` holds shards' directories (named as `shard_dir` names them) and nothing else,
/// each with this study's journal.
fn holds_only_its_shards(dir: &Path, study: &Study) -> Result<bool, SweepError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(false);
    };
    let mut shards = 0;
    for entry in entries.flatten() {
        let (path, name) = (entry.path(), entry.file_name());
        let named = name.to_str().is_some_and(is_shard_name);
        if !(named && path.is_dir() && !journals(&path).is_empty()) {
            return Ok(false);
        }
        refuse_other_study(&path, study)?;
        shards += 1;
    }
    Ok(shards > 0)
}

/// Whether a directory's name is a shard's, as `shard_dir` names them.
fn is_shard_name(name: &str) -> bool {
    name.strip_prefix("shard-")
        .and_then(|rest| rest.split_once("-of-"))
        .is_some_and(|(index, count)| index.parse::<u32>().is_ok() && count.parse::<u32>().is_ok())
}
