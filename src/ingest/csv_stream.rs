//! A large games CSV sorted by period, read period by period (`replay --stream`): memory holds one
//! block of the file and one list's games, not the file. Like a partitioned dataset, it takes two
//! passes: the first checks every row and the order, counts each period's games and finds the
//! players; the second reads the blocks again as the engine reaches their lists.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::model::{Games, Month};
use crate::scenario::GameFormat;

use super::dataset::{concat, DistinctIds, IdLookup};
use super::error::IngestError;
use super::games::{self, CANONICAL};
use super::ids::RawIds;
use super::table::{Skips, Table};
use super::text::CsvBlocks;

/// What the first pass found.
pub struct CsvScan {
    pub periods: Vec<(Month, usize)>,
    pub ids: RawIds,
    pub format: GameFormat,
    pub sha256: String,
}

fn blocks(path: &Path) -> Result<CsvBlocks, IngestError> {
    CsvBlocks::open(path, CANONICAL)
}

/// The first pass over the file; `progress(done, total)` counts bytes.
pub fn scan(
    path: &Path,
    format: GameFormat,
    month_1: Option<Month>,
    skips: &mut Skips,
    progress: &dyn Fn(usize, usize),
) -> Result<CsvScan, IngestError> {
    let size = std::fs::metadata(path).map_or(0, |m| m.len() as usize);
    let mut blocks = blocks(path)?;
    let mut periods: BTreeMap<Month, usize> = BTreeMap::new();
    let mut ids = DistinctIds::default();
    let mut last: Option<(Month, u32)> = None;
    let mut found_format = format;
    while let Some(block) = blocks.next_block()? {
        progress(blocks.bytes_read(), size);
        let raw = games::read_table(&Table::Csv(block), format, month_1, None, skips)?;
        found_format = raw.extras.format();
        for i in 0..raw.len() {
            let Some(month) = raw.games.rating_month(i) else {
                continue;
            };
            let line = raw.games.source_row[i];
            if let Some((before, before_line)) = last.filter(|(m, _)| month < *m) {
                return Err(IngestError::Line {
                    file: path.display().to_string(),
                    line,
                    problem: format!("a game of {month} after one of {before} (line {before_line}): reading a games file period by period (--stream) needs it sorted by period; sort it, or replay it without --stream"),
                });
            }
            last = Some((month, line));
            *periods.entry(month).or_default() += 1;
        }
        ids.add(&raw.white);
        ids.add(&raw.black);
    }
    Ok(CsvScan {
        periods: periods.into_iter().collect(),
        ids: ids.into_raw(),
        format: found_format,
        sha256: blocks.sha256(),
    })
}

/// The second pass: the file's blocks as the replay's source of games, period by period.
pub struct CsvSource {
    path: PathBuf,
    format: GameFormat,
    month_1: Option<Month>,
    periods: Vec<(Month, usize)>,
    lookup: IdLookup,
    skips: Skips,
    blocks: Option<CsvBlocks>,
    /// Games read past the periods asked for, kept for the next call.
    pending: Option<Games>,
}

impl Clone for CsvSource {
    /// A fresh reader of the same file, from its start.
    fn clone(&self) -> CsvSource {
        CsvSource {
            path: self.path.clone(),
            format: self.format,
            month_1: self.month_1,
            periods: self.periods.clone(),
            lookup: self.lookup.clone(),
            skips: Skips::new(self.skips.skip_invalid),
            blocks: None,
            pending: None,
        }
    }
}

impl CsvSource {
    pub(super) fn new(
        path: &Path,
        scan: &CsvScan,
        month_1: Option<Month>,
        lookup: IdLookup,
        skip_invalid: bool,
    ) -> CsvSource {
        CsvSource {
            path: path.to_path_buf(),
            format: scan.format,
            month_1,
            periods: scan.periods.clone(),
            lookup,
            skips: Skips::new(skip_invalid),
            blocks: None,
            pending: None,
        }
    }

    pub(super) fn periods(&self) -> &[(Month, usize)] {
        &self.periods
    }

    /// The games of `periods` (asked for in increasing order, as the replay does).
    pub(super) fn read_periods(&mut self, periods: &[Month]) -> Result<Games, IngestError> {
        let Some(&last) = periods.last() else {
            return Ok(Games::default());
        };
        let mut parts = Vec::new();
        loop {
            let games = match self.pending.take() {
                Some(games) => games,
                None => match self.next_block()? {
                    Some(games) => games,
                    None => break,
                },
            };
            let rows = |keep: &dyn Fn(Month) -> bool| -> Vec<usize> {
                (0..games.len())
                    .filter(|&i| games.rating_month(i).is_some_and(keep))
                    .collect()
            };
            let mine = rows(&|m| periods.contains(&m));
            let later = rows(&|m| m > last);
            parts.push(games.select(&mine));
            if !later.is_empty() {
                self.pending = Some(games.select(&later));
                break;
            }
        }
        Ok(concat(parts, self.path.display().to_string()))
    }

    fn next_block(&mut self) -> Result<Option<Games>, IngestError> {
        if self.blocks.is_none() {
            self.blocks = Some(blocks(&self.path)?);
        }
        let Some(blocks) = self.blocks.as_mut() else {
            return Ok(None);
        };
        let Some(block) = blocks.next_block()? else {
            return Ok(None);
        };
        let raw = games::read_table(
            &Table::Csv(block),
            self.format,
            self.month_1,
            None,
            &mut self.skips,
        )?;
        self.lookup.intern(raw).map(Some)
    }
}
