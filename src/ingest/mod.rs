//! Input files → the engine's columnar inputs, with player ids interned once. Every reader names
//! the file, the line or row, the column and what was expected when it cannot read something;
//! with `skip_invalid` row-level problems become counted skips.

mod error;
pub mod fide_list;
mod games;
mod ids;
mod lists;
mod table;
mod text;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::model::{Month, PlayerInfo, StartEntry, StartList};
use crate::replay::Inputs;
use crate::scenario::GameFormat;

pub use error::IngestError;
pub use fide_list::{FideEntry, FideLayout, FideList};
pub use table::Skips;

/// The files of one replay.
#[derive(Clone, Debug)]
pub struct InputFiles {
    pub games: PathBuf,
    pub format: GameFormat,
    pub month_1: Option<Month>,
    pub start_list: Option<PathBuf>,
    pub players: Option<PathBuf>,
}

/// What reading found, for the run's summary.
#[derive(Debug)]
pub struct IngestReport {
    pub format: GameFormat,
    pub games_read: usize,
    pub players: usize,
    /// Invalid rows skipped with `--skip-invalid`: reason → (count, first place).
    pub skipped: BTreeMap<String, (usize, String)>,
    pub start_list: Option<String>,
    pub start_list_players: usize,
    /// Players-file entries for players who neither play nor are on the starting list.
    pub players_file_unused: usize,
    /// SHA-256 of every input file.
    pub checksums: Vec<(PathBuf, String)>,
}

pub fn read_inputs(
    files: &InputFiles,
    skip_invalid: bool,
) -> Result<(Inputs, IngestReport), IngestError> {
    let mut skips = Skips::new(skip_invalid);
    let raw = games::read(&files.games, files.format, files.month_1, &mut skips)?;
    let start = files
        .start_list
        .as_deref()
        .map(|p| lists::read_start_list(p, &mut skips))
        .transpose()?;
    let players_file = files
        .players
        .as_deref()
        .map(|p| lists::read_players(p, &mut skips))
        .transpose()?;

    let empty = ids::RawIds::default();
    let start_ids = start.as_ref().map_or(&empty, |s| &s.ids);
    let (players, mut dense) = ids::intern(&[&raw.white, &raw.black, start_ids]);
    let start_dense = dense.pop().unwrap_or_default();
    let black = dense.pop().unwrap_or_default();
    let white = dense.pop().unwrap_or_default();
    let mut games = raw.games;
    games.white = white;
    games.black = black;

    let mut info = PlayerInfo::with_players(players.len());
    let mut start_list = StartList::default();
    if let Some(list) = &start {
        check_duplicates(list, &start_dense)?;
        start_list.source = list.file.clone();
        for (entry, &player) in list.entries.iter().zip(&start_dense) {
            let p = player as usize;
            info.birth_year[p] = entry.birth_year;
            info.name[p] = entry.name.clone();
            info.federation[p] = entry.federation.clone();
            info.sex[p] = entry.sex.clone();
            info.title[p] = entry.title.clone();
            start_list.entries.push(StartEntry {
                player,
                rating: entry.rating,
                k: entry.k,
                total_games: entry.total_games,
                ever_2400: entry.ever_2400,
                ever_2300: entry.ever_2300,
                inactive: entry.inactive,
            });
        }
    }
    let mut players_file_unused = 0;
    if let Some(list) = &players_file {
        let text: Vec<String> = match &list.ids {
            ids::RawIds::Numbers(v) => v.iter().map(u64::to_string).collect(),
            ids::RawIds::Text(v) => v.clone(),
        };
        for (entry, id) in list.entries.iter().zip(&text) {
            let Some(p) = players.find(id) else {
                players_file_unused += 1;
                continue;
            };
            let p = p as usize;
            let keep = |new: &Option<String>, old: &mut Option<String>| {
                if new.is_some() {
                    *old = new.clone();
                }
            };
            info.birth_year[p] = entry.birth_year.or(info.birth_year[p]);
            keep(&entry.name, &mut info.name[p]);
            keep(&entry.federation, &mut info.federation[p]);
            keep(&entry.sex, &mut info.sex[p]);
            keep(&entry.title, &mut info.title[p]);
        }
    }

    let mut checksums = Vec::new();
    for path in [
        Some(&files.games),
        files.start_list.as_ref(),
        files.players.as_ref(),
    ]
    .into_iter()
    .flatten()
    {
        checksums.push((path.clone(), sha256(path)?));
    }
    let report = IngestReport {
        format: raw.format,
        games_read: games.len(),
        players: players.len(),
        skipped: skips.counts,
        start_list: start.as_ref().map(|s| format!("{} ({})", s.file, s.kind)),
        start_list_players: start_list.entries.len(),
        players_file_unused,
        checksums,
    };
    Ok((
        Inputs {
            games,
            players,
            info,
            start_list,
        },
        report,
    ))
}

fn check_duplicates(list: &lists::RawList, dense: &[u32]) -> Result<(), IngestError> {
    let mut order: Vec<usize> = (0..dense.len()).collect();
    order.sort_by_key(|&i| (dense[i], i));
    for w in order.windows(2) {
        if dense[w[0]] == dense[w[1]] {
            let (a, b) = (&list.entries[w[0]], &list.entries[w[1]]);
            return Err(IngestError::Line {
                file: list.file.clone(),
                line: b.line,
                problem: format!(
                    "the player of line {} appears again: a starting list holds each player once",
                    a.line
                ),
            });
        }
    }
    Ok(())
}

pub fn sha256(path: &Path) -> Result<String, IngestError> {
    let bytes = text::read_bytes(path)?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}
