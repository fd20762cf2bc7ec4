//! Month-partitioned games datasets, hive style: `DIR/period=YYYY-MM/*.parquet` (or `*.csv`), each
//! partition holding the games of one rating period. A replay reads them period by period, so that
//! memory holds the players and one list's games, whatever the size of the history.
//!
//! Reading takes two passes. The first reads every partition once, keeping only the distinct
//! player ids and each period's number of games, so that players are interned exactly as when the
//! games are read whole (sorted ids: the same dense ids, hence the same outputs). The second, during
//! the replay, reads the partitions of each list as the engine reaches it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::model::{Games, IdMap, Month, PlayerId, PlayerIds, EVENT_NONE};

use super::error::IngestError;
use super::games;
use super::ids::RawIds;
use super::raw::{sort_event_names, RawGames};
use super::table::Skips;
use super::text::sha256;

/// The partition directories of a dataset, in period order.
#[derive(Clone)]
pub struct Dataset {
    pub dir: PathBuf,
    pub partitions: Vec<Partition>,
}

#[derive(Clone)]
pub struct Partition {
    pub period: Month,
    /// Its table files, in name order.
    pub files: Vec<PathBuf>,
    /// Games in it, counted by the first pass.
    pub games: usize,
}

/// A games path that is a directory is a partitioned dataset, unless it holds tournament reports.
pub fn is_dataset(path: &Path) -> bool {
    path.is_dir() && !super::trf::is_trf(path)
}

/// Names a data tool leaves beside its tables (`_SUCCESS`, `.crc` files, hidden files).
fn is_bookkeeping(name: &str) -> bool {
    name.starts_with('.') || name.starts_with('_') || name.ends_with(".crc")
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> IngestError + '_ {
    move |e| IngestError::File {
        file: path.display().to_string(),
        problem: format!("cannot be read ({e})"),
    }
}

/// Refuses an entry that cannot be looked at, as what it is: a symbolic link that loops or leads
/// nowhere is not a misnamed partition.
fn followable(path: &Path) -> Result<(), IngestError> {
    let Err(e) = std::fs::metadata(path) else {
        return Ok(());
    };
    let link = path
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink());
    let problem = if link {
        format!("a symbolic link that cannot be followed: it loops, or leads nowhere ({e})")
    } else {
        format!("cannot be read ({e})")
    };
    Err(IngestError::File {
        file: path.display().to_string(),
        problem,
    })
}

/// The entries of a directory, sorted by name, without bookkeeping files.
fn entries(dir: &Path) -> Result<Vec<(String, PathBuf)>, IngestError> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_error(dir))? {
        let entry = entry.map_err(io_error(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !is_bookkeeping(&name) {
            followable(&entry.path())?;
            found.push((name, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}

impl Dataset {
    /// Finds the partitions of `dir`; anything but `period=YYYY-MM` directories of `.parquet` or
    /// `.csv` files is an error naming it.
    pub fn open(dir: &Path) -> Result<Dataset, IngestError> {
        let mut partitions = Vec::new();
        for (name, path) in entries(dir)? {
            let period = name
                .strip_prefix("period=")
                .and_then(Month::parse)
                .filter(|_| path.is_dir())
                .ok_or_else(|| IngestError::File {
                    file: path.display().to_string(),
                    problem: "expected a partition directory named period=YYYY-MM: a games directory is a dataset partitioned by rating period, as DIR/period=2019-03/games.parquet".into(),
                })?;
            let mut files = Vec::new();
            for (name, file) in entries(&path)? {
                let table = [".parquet", ".csv", ".csv.gz", ".csv.zst"]
                    .iter()
                    .any(|ext| name.to_ascii_lowercase().ends_with(ext));
                if !table || !file.is_file() {
                    return Err(IngestError::File {
                        file: file.display().to_string(),
                        problem: "expected a .parquet or .csv table of the partition's games (.csv.gz, .csv.zst compressed)"
                            .into(),
                    });
                }
                files.push(file);
            }
            partitions.push(Partition {
                period,
                files,
                games: 0,
            });
        }
        if partitions.is_empty() {
            let empty = std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_none());
            let problem = if empty {
                "an empty directory: expected tournament reports (.trf, .txt, .tab files) or a dataset partitioned by rating period (directories named period=YYYY-MM)"
            } else {
                "no partition: expected directories named period=YYYY-MM holding the games of each rating period"
            };
            return Err(IngestError::File {
                file: dir.display().to_string(),
                problem: problem.into(),
            });
        }
        Ok(Dataset {
            dir: dir.to_path_buf(),
            partitions,
        })
    }

    /// The first pass: every partition's games counted, the distinct player ids gathered and one
    /// checksum over the files' own, in path order.
    /// `progress(done, total)` counts partitions.
    pub fn scan(
        &mut self,
        skips: &mut Skips,
        progress: &dyn Fn(usize, usize),
    ) -> Result<(RawIds, String), IngestError> {
        let mut ids = DistinctIds::default();
        let mut checksums = String::new();
        let total = self.partitions.len();
        for (done, partition) in self.partitions.iter_mut().enumerate() {
            progress(done, total);
            for file in &partition.files {
                let raw = games::read_partition(file, partition.period, skips)?;
                partition.games += raw.len();
                ids.add(&raw.white);
                ids.add(&raw.black);
                checksums += &format!("{} {}\n", raw.sha256, file.display());
            }
        }
        Ok((ids.into_raw(), sha256(checksums.as_bytes())))
    }
}

/// Distinct ids gathered file by file: memory holds the players, not the games.
#[derive(Default)]
pub(super) struct DistinctIds {
    numbers: Vec<u64>,
    text: Option<Vec<String>>,
    /// How many ids there were when repeats were last removed.
    settled: usize,
}

impl DistinctIds {
    /// Adds ids, removing repeats whenever the ids added since the last time outnumber the
    /// distinct ones (and a million): a month of a hundred million games among ten million players
    /// holds about twenty million ids at most, not two hundred million.
    pub(super) fn add(&mut self, ids: &RawIds) {
        self.extend(ids);
        let len = self.text.as_ref().map_or(self.numbers.len(), Vec::len);
        if len > 2 * self.settled + (1 << 20) {
            self.settle();
        }
    }

    fn extend(&mut self, ids: &RawIds) {
        match (ids, &mut self.text) {
            (RawIds::Numbers(v), None) => self.numbers.extend_from_slice(v),
            (RawIds::Numbers(v), Some(text)) => text.extend(v.iter().map(u64::to_string)),
            (RawIds::Text(v), text) => {
                let text = text.get_or_insert_with(|| {
                    std::mem::take(&mut self.numbers)
                        .iter()
                        .map(u64::to_string)
                        .collect()
                });
                text.extend(v.iter().cloned());
            }
        }
    }

    /// Sorts and removes repeats, so that what is kept is the distinct ids so far.
    fn settle(&mut self) {
        self.settled = match &mut self.text {
            None => {
                self.numbers.sort_unstable();
                self.numbers.dedup();
                self.numbers.len()
            }
            Some(text) => {
                text.sort_unstable();
                text.dedup();
                text.len()
            }
        };
    }

    pub(super) fn into_raw(mut self) -> RawIds {
        self.settle();
        match self.text {
            None => RawIds::Numbers(self.numbers),
            Some(text) => RawIds::Text(text),
        }
    }
}

/// Whether sorted distinct ids span at most twice their count (and a thousand), so that a table
/// over their span costs at most twice a table of them.
fn spans_little(ids: &[u64]) -> bool {
    match (ids.first(), ids.last()) {
        (Some(&first), Some(&last)) => last - first < 2 * ids.len() as u64 + 1024,
        _ => false,
    }
}

/// Original id → dense player id, for the games read during the replay.
#[derive(Clone)]
pub(super) enum IdLookup {
    /// Numbers that span at most twice their count: the dense id at `id - first` (`NO_PLAYER`
    /// where no player has that id), one read instead of a hash and its probes; a month read in
    /// pieces looks up every id three times.
    Span {
        first: u64,
        dense: Vec<PlayerId>,
    },
    Numbers(IdMap<u64, PlayerId>),
    Text(HashMap<String, PlayerId>),
}

/// No player in a `Span` slot.
const NO_PLAYER: PlayerId = PlayerId::MAX;

impl IdLookup {
    pub(super) fn new(players: &PlayerIds) -> IdLookup {
        match players {
            PlayerIds::Numbers(v) if spans_little(v) => {
                let first = v.first().copied().unwrap_or(0);
                let mut dense = vec![NO_PLAYER; v.last().map_or(0, |&l| (l - first) as usize + 1)];
                for (i, &id) in v.iter().enumerate() {
                    dense[(id - first) as usize] = i as PlayerId;
                }
                IdLookup::Span { first, dense }
            }
            PlayerIds::Numbers(v) => IdLookup::Numbers(
                v.iter()
                    .enumerate()
                    .map(|(i, &id)| (id, i as PlayerId))
                    .collect(),
            ),
            PlayerIds::Text(v) => IdLookup::Text(
                v.iter()
                    .enumerate()
                    .map(|(i, id)| (id.clone(), i as PlayerId))
                    .collect(),
            ),
        }
    }

    /// The dense id of each id; `Err` holds an id the first pass did not see.
    fn dense(&self, ids: &RawIds) -> Result<Vec<PlayerId>, String> {
        match (self, ids) {
            (IdLookup::Span { first, dense }, RawIds::Numbers(v)) => v
                .iter()
                .map(|&id| {
                    id.checked_sub(*first)
                        .and_then(|at| dense.get(at as usize))
                        .copied()
                        .filter(|&p| p != NO_PLAYER)
                        .ok_or_else(|| id.to_string())
                })
                .collect(),
            (IdLookup::Numbers(map), RawIds::Numbers(v)) => v
                .iter()
                .map(|id| map.get(id).copied().ok_or_else(|| id.to_string()))
                .collect(),
            (IdLookup::Text(map), RawIds::Text(v)) => v
                .iter()
                .map(|id| map.get(id.as_str()).copied().ok_or_else(|| id.clone()))
                .collect(),
            (IdLookup::Text(map), RawIds::Numbers(v)) => v
                .iter()
                .map(|id| {
                    let id = id.to_string();
                    map.get(id.as_str()).copied().ok_or(id)
                })
                .collect(),
            // The first pass made every id a number: a text id is new.
            (IdLookup::Numbers(_) | IdLookup::Span { .. }, RawIds::Text(v)) => {
                Err(v.first().cloned().unwrap_or_default())
            }
        }
    }

    /// Games read in the second pass, their players interned. Every id was seen by the first
    /// pass, which read the same files, unless a file changed in between.
    pub(super) fn intern(&self, raw: RawGames) -> Result<Games, IngestError> {
        let changed = |id: String| {
            IngestError::File {
            file: raw.games.source.clone(),
            problem: format!("changed while the replay was reading it: player {id} was not in it when it was first read; replay again once it is complete"),
        }
        };
        let white = self.dense(&raw.white).map_err(changed)?;
        let black = self.dense(&raw.black).map_err(changed)?;
        let mut games = raw.games;
        games.white = white;
        games.black = black;
        Ok(games)
    }
}

/// The dataset as the replay's source of games, period by period.
#[derive(Clone)]
pub struct DatasetSource {
    dataset: Dataset,
    periods: Vec<(Month, usize)>,
    lookup: IdLookup,
    /// The second pass skips the rows the first one counted; these counts are not reported again.
    skips: Skips,
}

impl DatasetSource {
    pub(super) fn new(dataset: Dataset, lookup: IdLookup, skip_invalid: bool) -> DatasetSource {
        DatasetSource {
            periods: dataset
                .partitions
                .iter()
                .map(|p| (p.period, p.games))
                .collect(),
            lookup,
            dataset,
            skips: Skips::new(skip_invalid),
        }
    }

    pub(super) fn periods(&self) -> &[(Month, usize)] {
        &self.periods
    }

    /// The files holding the games of `periods`, with each one's period, in the order read.
    pub(super) fn files_of<'a>(
        &'a self,
        periods: &'a [Month],
    ) -> impl Iterator<Item = (Month, &'a Path)> + 'a {
        self.dataset
            .partitions
            .iter()
            .filter(|p| periods.contains(&p.period))
            .flat_map(|p| p.files.iter().map(|f| (p.period, f.as_path())))
    }

    /// One file of the games of `periods`: the pieces of a list rated piece by piece.
    pub(super) fn read_piece(
        &mut self,
        periods: &[Month],
        piece: usize,
    ) -> Result<Games, IngestError> {
        let (period, file) = self
            .files_of(periods)
            .nth(piece)
            .map(|(period, file)| (period, file.to_path_buf()))
            .ok_or_else(|| IngestError::File {
                file: self.dataset.dir.display().to_string(),
                problem: format!("has no piece {piece} of {}", periods_label(periods)),
            })?;
        let raw = games::read_partition(&file, period, &mut self.skips)?;
        self.lookup.intern(raw)
    }

    pub(super) fn read_periods(&mut self, periods: &[Month]) -> Result<Games, IngestError> {
        let mut parts = Vec::new();
        let mut files = Vec::new();
        for partition in &self.dataset.partitions {
            if periods.contains(&partition.period) {
                for file in &partition.files {
                    let raw = games::read_partition(file, partition.period, &mut self.skips)?;
                    parts.push(self.lookup.intern(raw)?);
                    files.push(file.display().to_string());
                }
            }
        }
        let source = match files.as_slice() {
            [one] => one.clone(),
            _ => format!(
                "{} ({})",
                self.dataset.dir.display(),
                periods_label(periods)
            ),
        };
        Ok(concat(parts, source))
    }
}

fn periods_label(periods: &[Month]) -> String {
    let names: Vec<String> = periods.iter().map(|p| format!("period={p}")).collect();
    names.join(", ")
}

/// One `Games` of several files' games; events are renumbered in sorted order of their names, as
/// when the games are read from one file, so that the canonical order is the same.
pub(super) fn concat(parts: Vec<Games>, source: String) -> Games {
    if parts.len() == 1 {
        let mut games = parts.into_iter().next().unwrap_or_default();
        games.source = source;
        return games;
    }
    let mut out = Games {
        source,
        row_word: parts.first().map_or("row", |g| g.row_word),
        numbered_months: parts.first().and_then(|g| g.numbered_months),
        ..Games::default()
    };
    let mut events: HashMap<String, u32> = HashMap::new();
    let with_ratings = parts
        .iter()
        .all(|g| !g.white_rating.is_empty() || g.is_empty());
    let with_event_types = parts.iter().any(|g| !g.event_type.is_empty());
    let with_dates = parts.iter().any(|g| !g.date.is_empty());
    for g in parts {
        out.period.extend_from_slice(&g.period);
        if with_dates {
            out.date.extend((0..g.len()).map(|i| g.date(i)));
        }
        out.event_start.extend_from_slice(&g.event_start);
        if with_event_types {
            out.event_type.extend((0..g.len()).map(|i| g.event_type(i)));
        }
        out.white.extend_from_slice(&g.white);
        out.black.extend_from_slice(&g.black);
        out.score.extend_from_slice(&g.score);
        out.source_row.extend_from_slice(&g.source_row);
        if with_ratings {
            out.white_rating.extend_from_slice(&g.white_rating);
            out.black_rating.extend_from_slice(&g.black_rating);
        }
        out.event.extend(g.event.iter().map(|&e| {
            if e == EVENT_NONE {
                return EVENT_NONE;
            }
            let next = events.len() as u32 + 1;
            *events
                .entry(g.event_names[e as usize].clone())
                .or_insert(next)
        }));
    }
    sort_event_names(&mut out, events);
    out
}

#[cfg(test)]
mod tests {
    use super::super::raw::Extras;
    use super::*;
    use crate::scenario::GameFormat;

    fn raw(white: RawIds, black: RawIds) -> RawGames {
        RawGames {
            games: Games {
                source: "g.csv".into(),
                ..Games::default()
            },
            white,
            black,
            sha256: String::new(),
            extras: Extras::Table(GameFormat::Canonical),
        }
    }

    #[test]
    fn ids_the_first_pass_did_not_see_are_an_error_not_a_panic() {
        // Ids spanning little are looked up in a table over their span, others hashed.
        for (ids, unseen) in [
            (vec![3, 7], [2, 5, 8]),
            (vec![3, 7, 1 << 40], [2, 5, (1 << 40) + 1]),
        ] {
            let lookup = IdLookup::new(&PlayerIds::Numbers(ids));
            assert_eq!(matches!(lookup, IdLookup::Span { .. }), unseen[2] == 8);
            let games = lookup
                .intern(raw(RawIds::Numbers(vec![7]), RawIds::Numbers(vec![3])))
                .unwrap();
            assert_eq!((games.white, games.black), (vec![1], vec![0]));
            let unseen = unseen.map(|id| (RawIds::Numbers(vec![id]), RawIds::Numbers(vec![3])));
            let text = (RawIds::Text(vec!["x".into()]), RawIds::Numbers(vec![3]));
            for (white, black) in unseen.into_iter().chain([text]) {
                let e = lookup.intern(raw(white, black)).unwrap_err().to_string();
                assert!(
                    e.starts_with("g.csv: changed while the replay was reading it"),
                    "{e}"
                );
            }
        }
        let text = IdLookup::new(&PlayerIds::Text(vec!["3".into(), "a".into()]));
        let games = text
            .intern(raw(
                RawIds::Numbers(vec![3]),
                RawIds::Text(vec!["a".into()]),
            ))
            .unwrap();
        assert_eq!((games.white, games.black), (vec![0], vec![1]));
    }
}
