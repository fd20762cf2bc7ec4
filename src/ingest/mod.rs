//! Input files → the engine's columnar inputs, with player ids interned once. Every reader names
//! the file, the line or row, the column and what was expected when it cannot read something;
//! with `skip_invalid` row-level problems become counted skips.

mod compressed;
mod csv_stream;
mod dataset;
mod error;
pub mod fide_list;
mod fide_xml;
mod games;
mod ids;
mod lists;
#[cfg(feature = "full")]
mod parquet_games;
mod pgn;
mod raw;
mod table;
mod text;
mod trf;
mod zip;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::model::{
    Description, Games, Inputs, Month, PeriodSource, PlayerIds, PlayerInfo, StartEntry, StartList,
};
use crate::scenario::GameFormat;
use dataset::Dataset;
use raw::Extras;

pub use compressed::plain_name;
pub use csv_stream::CsvSource;
pub use dataset::{is_dataset, DatasetSource};
pub use error::IngestError;
pub use fide_list::{FideEntry, FideLayout, FideList};
pub use ids::{intern, Numbering, RawIds};
pub use lists::{read_list_ratings, ListRatings};
#[cfg(feature = "full")]
pub use parquet_games::{enum_codes, month_codes, month_column};
pub use pgn::{is_pgn, Dates};
pub use raw::{PgnCounts, RawGames, Reported, TrfCounts};
pub use table::{Skips, Table};
pub use trf::is_trf;

/// The players tournament reports describe (a report or a directory of them), each report's
/// players with the rating it carries and the day that rating was in force.
pub fn read_reported(
    path: &Path,
    skip_invalid: bool,
) -> Result<Vec<(String, Reported)>, IngestError> {
    let mut skips = Skips::new(skip_invalid);
    Ok(trf::read(path, &mut skips)?.extras.into_reported())
}

/// What reading a games file a block at a time found besides its games.
pub struct BlocksRead {
    /// What a PGN file counted besides its games.
    pub pgn: Option<PgnCounts>,
    /// Invalid rows skipped with `--skip-invalid`: reason → (count, first place).
    pub skipped: BTreeMap<String, (usize, String)>,
}

/// Reads a games file (PGN, CSV, Parquet or tournament reports) a block at a time, its players not
/// interned, for the commands that keep a few figures of each game: memory holds one block of a
/// PGN or CSV file, not the file.
pub fn read_game_blocks(
    path: &Path,
    pgn_dates: Dates,
    skip_invalid: bool,
    each: &mut dyn FnMut(RawGames),
) -> Result<BlocksRead, IngestError> {
    let mut skips = Skips::new(skip_invalid);
    let pgn = games::read_blocks(path, GameFormat::Auto, None, pgn_dates, &mut skips, each)?;
    Ok(BlocksRead {
        pgn,
        skipped: skips.counts,
    })
}

/// The files of one replay.
#[derive(Clone, Debug)]
pub struct InputFiles {
    pub games: PathBuf,
    pub format: GameFormat,
    pub month_1: Option<Month>,
    pub start_list: Option<PathBuf>,
    pub players: Option<PathBuf>,
    /// Whether a PGN game dated by its year only is kept (reports) or invalid (replays).
    pub pgn_dates: Dates,
}

/// What reading found, for the run's summary.
#[derive(Clone, Debug)]
pub struct IngestReport {
    pub format: GameFormat,
    pub games_read: usize,
    /// What a PGN source counted besides its games.
    pub pgn: Option<PgnCounts>,
    /// What tournament reports counted besides their games.
    pub trf: Option<TrfCounts>,
    pub players: usize,
    /// Invalid rows skipped with `--skip-invalid`: reason → (count, first place).
    pub skipped: BTreeMap<String, (usize, String)>,
    pub start_list: Option<String>,
    pub start_list_players: usize,
    /// Players-file entries for players who neither play nor are on the starting list.
    pub players_file_unused: usize,
    /// SHA-256 of every input file.
    pub checksums: Vec<(PathBuf, String)>,
    /// Seconds spent interning the player ids (part of reading).
    pub intern_seconds: f64,
}

pub fn read_inputs(
    files: &InputFiles,
    skip_invalid: bool,
) -> Result<(Inputs, IngestReport), IngestError> {
    let mut skips = Skips::new(skip_invalid);
    let read_games = |skips: &mut Skips| {
        games::read(
            &files.games,
            files.format,
            files.month_1,
            files.pgn_dates,
            skips,
        )
    };
    let (raw, people) = if files.start_list.as_deref().is_some_and(lists::is_reported) {
        // The starting list is the reports' own ratings: read from the games.
        let raw = read_games(&mut skips)?;
        let people = People::read(files, raw.extras.reported(), &mut skips)?;
        (raw, people)
    } else {
        // The games and the players' files are independent: read side by side, the games' problem
        // first as when read in turn. The games are read on this thread, not one of rayon's: the
        // engine then reads columns glibc placed in the main heap, which replays a million games
        // 1.6 times faster than the same columns from a thread's heap.
        let mut people_skips = Skips::new(skip_invalid);
        let (raw, people) = std::thread::scope(|scope| {
            let people = scope.spawn(|| People::read(files, None, &mut people_skips));
            let raw = read_games(&mut skips);
            // A panic there is one here, as when read in turn.
            let people = people
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (raw, people)
        });
        let (raw, people) = (raw?, people?);
        skips.absorb(people_skips);
        (raw, people)
    };
    let interning = std::time::Instant::now();
    let (players, mut dense) = ids::intern(&[&raw.white, &raw.black, people.start_ids()]);
    let intern_seconds = interning.elapsed().as_secs_f64();
    let start_dense = dense.pop().unwrap_or_default();
    let black = dense.pop().unwrap_or_default();
    let white = dense.pop().unwrap_or_default();
    let mut games = raw.games;
    games.white = white;
    games.black = black;
    let read = ReadGames {
        extras: raw.extras,
        games: games.len(),
        sha256: raw.sha256,
        intern_seconds,
    };
    people.assemble(files, games, players, &start_dense, read, skips)
}

/// Games read period by period: a month-partitioned dataset, or a large CSV sorted by period.
#[derive(Clone)]
pub enum GameStream {
    Dataset(DatasetSource),
    Csv(Box<CsvSource>),
}

impl PeriodSource for GameStream {
    fn periods(&self) -> &[(Month, usize)] {
        match self {
            GameStream::Dataset(d) => d.periods(),
            GameStream::Csv(c) => c.periods(),
        }
    }

    fn read(
        &mut self,
        periods: &[Month],
    ) -> Result<Games, Box<dyn std::error::Error + Send + Sync>> {
        Ok(match self {
            GameStream::Dataset(d) => d.read_periods(periods)?,
            GameStream::Csv(c) => c.read_periods(periods)?,
        })
    }

    /// A dataset's files are its pieces; a CSV read period by period is read whole.
    fn pieces(&self, periods: &[Month]) -> Option<usize> {
        match self {
            GameStream::Dataset(d) => Some(d.files_of(periods).count()),
            GameStream::Csv(_) => None,
        }
    }

    fn read_piece(
        &mut self,
        periods: &[Month],
        piece: usize,
    ) -> Result<Games, Box<dyn std::error::Error + Send + Sync>> {
        match self {
            GameStream::Dataset(d) => Ok(d.read_piece(periods, piece)?),
            GameStream::Csv(_) => {
                Err("a CSV read period by period is read a list at a time, not in pieces".into())
            }
        }
    }
}

/// Inputs for a replay that reads its games period by period: `files.games` is a month-partitioned
/// dataset (a directory) or a CSV file sorted by period. The inputs hold the players and the
/// starting list but no games, which the stream gives list by list. The first pass over the games
/// finds the players and checks every row, so that the report is complete before the replay starts.
pub fn read_streamed(
    files: &InputFiles,
    skip_invalid: bool,
    progress: &dyn Fn(usize, usize, &str),
) -> Result<(Inputs, IngestReport, GameStream), IngestError> {
    let mut skips = Skips::new(skip_invalid);
    let (ids, mut read, stream) = if is_dataset(&files.games) {
        let mut dataset = Dataset::open(&files.games)?;
        let (ids, sha256) = dataset.scan(&mut skips, &|done, total| {
            progress(done, total, "partitions")
        })?;
        let read = ReadGames {
            extras: Extras::Table(GameFormat::Canonical),
            games: dataset.partitions.iter().map(|p| p.games).sum(),
            sha256,
            intern_seconds: 0.0,
        };
        (ids, read, Stream::Dataset(dataset))
    } else {
        if table::is_parquet(&files.games) || pgn::is_pgn(&files.games) || trf::is_trf(&files.games)
        {
            return Err(IngestError::File {
                file: files.games.display().to_string(),
                problem: "only CSV files and month-partitioned datasets (directories of period=YYYY-MM/ tables) are read period by period; replay this file whole (without --stream)".into(),
            });
        }
        let mut scan = csv_stream::scan(
            &files.games,
            files.format,
            files.month_1,
            &mut skips,
            &|done, total| progress(done >> 20, total >> 20, "MB"),
        )?;
        let read = ReadGames {
            extras: Extras::Table(scan.format),
            games: scan.periods.iter().map(|p| p.1).sum(),
            sha256: scan.sha256.clone(),
            intern_seconds: 0.0,
        };
        (std::mem::take(&mut scan.ids), read, Stream::Csv(scan))
    };
    let people = People::read(files, read.extras.reported(), &mut skips)?;
    let interning = std::time::Instant::now();
    let (players, mut dense) = ids::intern(&[&ids, people.start_ids()]);
    read.intern_seconds = interning.elapsed().as_secs_f64();
    let start_dense = dense.pop().unwrap_or_default();
    let (inputs, report) =
        people.assemble(files, Games::default(), players, &start_dense, read, skips)?;
    let lookup = dataset::IdLookup::new(&inputs.players);
    let stream = match stream {
        Stream::Dataset(dataset) => {
            GameStream::Dataset(DatasetSource::new(dataset, lookup, skip_invalid))
        }
        Stream::Csv(scan) => GameStream::Csv(Box::new(CsvSource::new(
            &files.games,
            &scan,
            files.month_1,
            lookup,
            skip_invalid,
        ))),
    };
    Ok((inputs, report, stream))
}

/// What the first pass over a stream found.
enum Stream {
    Dataset(Dataset),
    Csv(csv_stream::CsvScan),
}

/// What reading the games found, for the report.
struct ReadGames {
    extras: Extras,
    games: usize,
    sha256: String,
    intern_seconds: f64,
}

/// The starting list and the players file, as read.
struct People {
    start: Option<lists::RawList>,
    players_file: Option<lists::RawList>,
    no_ids: ids::RawIds,
}

impl People {
    /// `reported`: the players as the games' reports describe them, for `--start-list reported`
    /// (`None`: the games are not reports).
    fn read(
        files: &InputFiles,
        reported: Option<&[(String, raw::Reported)]>,
        skips: &mut Skips,
    ) -> Result<People, IngestError> {
        let start = match files.start_list.as_deref() {
            Some(p) if lists::is_reported(p) => Some(lists::reported_start(
                &files.games.display().to_string(),
                reported,
            )?),
            Some(p) => Some(lists::read_start_list(p, skips)?),
            None => None,
        };
        let players_file = files
            .players
            .as_deref()
            .map(|p| lists::read_players(p, skips))
            .transpose()?;
        Ok(People {
            start,
            players_file,
            no_ids: ids::RawIds::default(),
        })
    }

    fn start_ids(&self) -> &ids::RawIds {
        self.start.as_ref().map_or(&self.no_ids, |s| &s.ids)
    }

    /// The inputs and the report, once the players are interned (`start_dense`: the starting
    /// list's entries as dense ids).
    fn assemble(
        self,
        files: &InputFiles,
        games: Games,
        players: PlayerIds,
        start_dense: &[u32],
        read: ReadGames,
        mut skips: Skips,
    ) -> Result<(Inputs, IngestReport), IngestError> {
        let (start, players_file) = (self.start, self.players_file);
        let mut info = PlayerInfo::with_players(players.len());
        let mut start_list = StartList::default();
        if let Some(list) = &start {
            let keep = first_occurrences(list, start_dense, &mut skips)?;
            start_list.source = list.file.clone();
            start_list.month = list.stated_month;
            for ((entry, &player), _) in list
                .entries
                .iter()
                .zip(start_dense)
                .zip(&keep)
                .filter(|(_, &k)| k)
            {
                let p = player as usize;
                info.birth_year[p] = entry.birth_year;
                info.description[p].clone_from(&entry.description);
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
        // A report's description fills what the starting list leaves open; a players file, read
        // last, has the last word.
        for (id, reported) in read.extras.reported().unwrap_or_default() {
            let Some(p) = players.find(id) else {
                continue;
            };
            let p = p as usize;
            info.birth_year[p] = info.birth_year[p].or(reported.birth_year);
            describe(&mut info.description[p], &reported.description, true);
        }
        let mut players_file_unused = 0;
        if let Some(list) = &players_file {
            let text = list.ids.as_text();
            let lines: Vec<u32> = list.entries.iter().map(|e| e.line).collect();
            let keep = lists::first_entries(
                &list.file,
                (list.row_word, &lines),
                &text,
                "a players file holds each player once",
                &mut skips,
            )?;
            let kept = list.entries.iter().zip(&text).zip(keep);
            for ((entry, id), _) in kept.filter(|(_, k)| *k) {
                let Some(p) = players.find(id) else {
                    players_file_unused += 1;
                    continue;
                };
                let p = p as usize;
                info.birth_year[p] = entry.birth_year.or(info.birth_year[p]);
                if let Some(given) = &entry.description {
                    describe(&mut info.description[p], given, false);
                }
            }
        }

        let mut checksums = vec![(files.games.clone(), read.sha256)];
        for (path, list) in [(&files.start_list, &start), (&files.players, &players_file)] {
            // The reports' own ratings are the games file's, whose checksum is already there.
            if let (Some(path), Some(list)) =
                (path.as_ref().filter(|p| !lists::is_reported(p)), list)
            {
                checksums.push((path.clone(), list.sha256.clone()));
            }
        }
        let (pgn, trf) = match read.extras {
            Extras::Table(_) => (None, None),
            Extras::Pgn(counts) => (Some(counts), None),
            Extras::Trf { counts, .. } => (None, Some(counts)),
        };
        let report = IngestReport {
            format: read.extras.format(),
            games_read: read.games,
            pgn,
            trf,
            players: players.len(),
            skipped: skips.counts,
            start_list: start.as_ref().map(|s| format!("{} ({})", s.file, s.kind)),
            start_list_players: start_list.entries.len(),
            players_file_unused,
            checksums,
            intern_seconds: read.intern_seconds,
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
}

/// The fields `given` gives, into a player's description: only where it leaves them open
/// (`keep_own`), or all of them.
fn describe(own: &mut Option<Box<Description>>, given: &Description, keep_own: bool) {
    if *given != Description::default() {
        own.get_or_insert_default().take_from(given, keep_own);
    }
}

/// Which entries of a starting list to keep: a player listed twice (FIDE's own lists hold a few
/// ids twice, sometimes for two different people) is an error, or with `--skip-invalid` the first
/// entry is kept and the others counted.
fn first_occurrences(
    list: &lists::RawList,
    dense: &[u32],
    skips: &mut Skips,
) -> Result<Vec<bool>, IngestError> {
    let mut keep = vec![true; dense.len()];
    let mut order: Vec<usize> = (0..dense.len()).collect();
    order.sort_by_key(|&i| (dense[i], i));
    let mut first = 0;
    for (k, &i) in order.iter().enumerate() {
        if k == 0 || dense[i] != dense[order[k - 1]] {
            first = i;
            continue;
        }
        let duplicate = IngestError::Row {
            file: list.file.clone(),
            place: format!("{word} {} (first listed on {word} {})", list.entries[i].line, list.entries[first].line, word = list.row_word),
            column: "id".into(),
            problem: "a player listed twice; a starting list holds each player once (the first entry is kept)".into(),
        };
        skips.check::<()>(Err(duplicate))?;
        keep[i] = false;
    }
    Ok(keep)
}

#[cfg(test)]
mod garbage_tests;
