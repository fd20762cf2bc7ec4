//! What stops a study, as types a caller can act on: the study or its inputs refused, a resumed
//! journal of another run, shards that do not make one study, a verification that cannot be.
//! Each message says what to do.

use std::path::PathBuf;

use crate::ingest::IngestError;
use crate::keys::{problem_list, Problem};
use crate::output::OutputError;
use crate::simulate::SimulateError;

use super::journal::JournalError;
use super::study::StudyError;

#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error(transparent)]
    Study(#[from] StudyError),
    #[error("{count} candidate{s} cannot be resolved:\n{list}", count = .0.len(), s = if .0.len() == 1 { "" } else { "s" }, list = problem_list(.0))]
    Candidates(Vec<Problem>),
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error(transparent)]
    Simulate(#[from] SimulateError),
    #[error("reading the study's games")]
    Ingest(#[from] IngestError),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("an optimise design chooses each generation from the last: it cannot be cut into shards; shard a grid, sobol or latin design")]
    OptimiseInShards,
    #[error("--shard {index}/{count}: the study has {triples} (world, candidate, seed) triples to share, fewer than {count} shards, so some shards would evaluate nothing; cut it into {triples} shards at most")]
    MoreShardsThanTriples {
        index: u32,
        count: u32,
        triples: usize,
    },
    #[error(transparent)]
    Verify(#[from] VerifyError),
    #[error(transparent)]
    Resume(#[from] ResumeError),
    #[error(transparent)]
    Merge(#[from] MergeError),
}

/// A study that `--verify` cannot verify.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("--verify replays a generated world on other seeds; the user's games are one history with no other seeds to verify on")]
    OneHistory,
    #[error("{}: {at}: seed {seed} is one the search used (its seeds: {searched:?}); verification needs seeds it did not see", file.display())]
    SeedSearched {
        file: PathBuf,
        /// Where the verification's seeds were given.
        at: String,
        seed: u64,
        searched: Vec<u64>,
    },
}

/// A journal in the output directory that this run cannot go on with.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error("{} holds an unfinished sweep ({rows} rows of {run}): add --resume to go on with it, or remove the file to start again", path.display())]
    Unfinished {
        path: PathBuf,
        rows: usize,
        run: String,
    },
    #[error("--resume: {} is the journal of {run}; its {} differ from this run's (run without --resume into another --out)", path.display(), differences.join(", "))]
    OtherRun {
        path: PathBuf,
        run: String,
        differences: Vec<String>,
    },
    #[error("the journal's candidate {candidate} is {label} with other values than the study's: start again without --resume")]
    OtherCandidate { candidate: u32, label: String },
    #[error("a row of candidate {candidate} is of the world {world:?}, which is none of the study's ({}): start again without --resume", worlds.join(", "))]
    OtherWorld {
        candidate: u32,
        world: String,
        worlds: Vec<String>,
    },
}

/// Shards that do not join into one study (`--merge`); `row` names a row as "candidate 3 on seed
/// 2 of WORLD".
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("--merge needs the shards' directories")]
    NoShards,
    #[error("{} holds an unfinished shard ({}): finish it with the same command and --resume, then merge", dir.display(), partial.display())]
    Unfinished { dir: PathBuf, partial: PathBuf },
    #[error("{} was written by elosim {version}, this is {}: merge shards with the version that ran them", path.display(), env!("CARGO_PKG_VERSION"))]
    OtherVersion { path: PathBuf, version: String },
    #[error("{} is a shard of another study ({study:?}, {file}), or of this one with other files, scale or seeds: every shard must run the same study file with the same inputs", path.display())]
    OtherStudy {
        path: PathBuf,
        study: String,
        file: String,
    },
    #[error("{} is shard {index} of {count}, the others of {others}: merge the shards of one cutting", path.display())]
    OtherCutting {
        path: PathBuf,
        index: u32,
        count: u32,
        others: u32,
    },
    #[error("{} and {} are both shard {index} of {count}", first.display(), second.display())]
    SameShard {
        first: PathBuf,
        second: PathBuf,
        index: u32,
        count: u32,
    },
    #[error("{}: {row} is not of the study's worlds ({})", path.display(), worlds.join(", "))]
    OtherWorld {
        path: PathBuf,
        row: String,
        worlds: Vec<String>,
    },
    #[error("{}, line {line}: the journal is cut short in the middle of its last line (a copy cut off, or a disk that filled): run that shard again with --resume to finish it", path.display())]
    CutShort { path: PathBuf, line: usize },
    #[error("{row} is in {} and in {}", first.display(), second.display())]
    RowTwice {
        row: String,
        first: PathBuf,
        second: PathBuf,
    },
    #[error("{} of the {count} shards {} missing: number {}; give --merge every shard's directory", missing.len(), if missing.len() == 1 { "is" } else { "are" }, first_few(&missing.iter().map(u32::to_string).collect::<Vec<_>>()))]
    MissingShards { missing: Vec<u32>, count: u32 },
    #[error("{}: candidate {candidate} is {found} there and {wanted} in the study", path.display())]
    OtherCandidate {
        path: PathBuf,
        candidate: u32,
        found: String,
        wanted: String,
    },
    #[error("{} missing (a shard did not finish?): {}", count_is(rows.len(), "row"), first_few(rows))]
    MissingRows { rows: Vec<String> },
    #[error("{}: {row} is not a candidate of the study (it has {candidates})", path.display())]
    UnknownCandidate {
        path: PathBuf,
        row: String,
        candidates: usize,
    },
    #[error("{}: {row}: the study's seeds are {seeds:?}", path.display())]
    OtherSeed {
        path: PathBuf,
        row: String,
        seeds: Vec<u64>,
    },
}

/// "1 row is", "3 rows are".
fn count_is(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun} is")
    } else {
        format!("{} {noun}s are", crate::numbers::thousands(n as u64))
    }
}

/// The first five of a list, and how many more.
fn first_few(items: &[String]) -> String {
    let shown = items.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    match items.len() {
        0..=5 => shown,
        n => format!("{shown} and {} more", n - 5),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Missing shards and rows are counted, with the first five shown, not listed by the thousand.
    #[test]
    fn what_is_missing_is_counted_with_the_first_few_shown() {
        let shards = MergeError::MissingShards {
            missing: (2..=1000).collect(),
            count: 1000,
        };
        assert_eq!(
            shards.to_string(),
            "999 of the 1000 shards are missing: number 2, 3, 4, 5, 6 and 994 more; give --merge every shard's directory"
        );
        let one = MergeError::MissingShards {
            missing: vec![2],
            count: 2,
        };
        assert!(one
            .to_string()
            .starts_with("1 of the 2 shards is missing: number 2;"));
        let rows = MergeError::MissingRows {
            rows: vec!["candidate 1, seed 2".into()],
        };
        assert_eq!(
            rows.to_string(),
            "1 row is missing (a shard did not finish?): candidate 1, seed 2"
        );
    }
}
