//! A run's directory written while the replay goes: each list and its games become frames as they
//! are published, gathered into row groups of about a million rows, and encoded and compressed by a
//! thread per table. No run keeps every list in memory, and the writing overlaps the replay.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

use polars::prelude::*;

use crate::ingest::IngestReport;
use crate::model::{Games, PlayerIds, PlayerInfo};
use crate::replay::{ListRows, Published, PublishedGames, RatedGames, ReplayError, Run, Sink};
use crate::scenario::Scenario;

use super::atomic::StagedDir;
use super::tables::{self, table_error, Batched};
use super::{summary, write_text, OutputError, OutputKind, Timing, WriteOptions};

/// Rows per row group: consecutive lists (or their games) are gathered and cut into groups of this
/// many rows, so that the files are written in pieces without tiny groups, and a large list does
/// not make one large group.
const ROWS_PER_GROUP: usize = 1 << 20;

/// Row groups waiting for a table's thread; few, so that memory stays bounded when compression is
/// slower than the replay.
const QUEUED_GROUPS: usize = 2;

/// What was written, for the run's summary on the terminal.
pub struct Written {
    pub dir: PathBuf,
    /// What the run replaced held besides a run's files, kept (`Placed::kept`).
    pub kept: Vec<String>,
    pub list_rows: usize,
    pub game_rows: usize,
    pub period_rows: usize,
    /// Seconds each table's thread was busy (encoding and compressing), alongside the replay.
    pub lists_seconds: f64,
    pub games_seconds: f64,
}

/// The sink that writes a run's directory; `finish` completes it, and dropping it unfinished
/// leaves no trace.
pub struct RunWriter<'a> {
    /// Declared before `staged`, so that their threads are joined before the staged directory is
    /// removed.
    lists: TableStream,
    games: TableStream,
    periods: TableStream,
    staged: StagedDir,
    players: &'a PlayerIds,
    info: &'a PlayerInfo,
    /// With `--csv`: room for each list whole.
    csv: Option<ListRows>,
    /// The run's list months, the categories of the month columns; set at the starting list.
    months: Vec<String>,
    /// The type of `games.parquet`'s `event` column, held for the run (`tables::event_dtype`).
    event_dtype: DataType,
}

/// One Parquet table: frames gathered up to a row group, then handed through a short queue to a
/// thread that encodes and writes them.
struct TableStream {
    path: PathBuf,
    frames: Vec<DataFrame>,
    rows: usize,
    written: usize,
    queue: Option<SyncSender<DataFrame>>,
    /// Returns the seconds the thread was busy.
    thread: Option<JoinHandle<Result<f64, OutputError>>>,
    busy: f64,
}

impl TableStream {
    fn start(path: PathBuf) -> Result<TableStream, OutputError> {
        let (queue, groups) = sync_channel::<DataFrame>(QUEUED_GROUPS);
        let mut file = Batched::new(path.clone());
        let thread = std::thread::Builder::new()
            .name("table-writer".into())
            .spawn(move || {
                let mut busy = std::time::Duration::ZERO;
                for group in groups {
                    let started = std::time::Instant::now();
                    file.write(&group)?;
                    busy += started.elapsed();
                }
                let started = std::time::Instant::now();
                file.finish()?;
                Ok((busy + started.elapsed()).as_secs_f64())
            })
            .map_err(|source| OutputError::Io {
                path: path.clone(),
                source,
            })?;
        Ok(TableStream {
            path,
            frames: Vec::new(),
            rows: 0,
            written: 0,
            queue: Some(queue),
            thread: Some(thread),
            busy: 0.0,
        })
    }

    fn add(&mut self, frame: DataFrame) -> Result<(), OutputError> {
        self.rows += frame.height();
        self.frames.push(frame);
        while self.rows >= ROWS_PER_GROUP {
            self.send_group(ROWS_PER_GROUP)?;
        }
        Ok(())
    }

    /// The first `rows` rows gathered as one single-chunk row group, to the thread; the rest stay
    /// gathered. Every group but the last holds `ROWS_PER_GROUP` rows, however the rows came (a
    /// list whole or in pieces), so that the same rows make the same file.
    fn send_group(&mut self, rows: usize) -> Result<(), OutputError> {
        let mut frames = std::mem::take(&mut self.frames).into_iter();
        let Some(mut gathered) = frames.next() else {
            return Ok(());
        };
        for frame in frames {
            gathered
                .vstack_mut(&frame)
                .map_err(table_error(&self.path))?;
        }
        let rest = gathered.slice(rows as i64, self.rows - rows);
        let mut group = gathered.slice(0, rows);
        if rest.height() > 0 {
            self.frames.push(rest);
        }
        group.rechunk_mut();
        self.written += rows;
        self.rows -= rows;
        match self.queue.as_ref().map(|q| q.send(group)) {
            Some(Ok(())) => Ok(()),
            // The thread stopped: its own error says why.
            _ => self.join(),
        }
    }

    /// Sends what is gathered, closes the queue and waits for the file to be complete.
    fn finish(&mut self) -> Result<(), OutputError> {
        self.send_group(self.rows)?;
        self.join()
    }

    fn join(&mut self) -> Result<(), OutputError> {
        self.queue = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => {
                self.busy = result?;
                Ok(())
            }
            Some(Err(_)) => Err(OutputError::Table {
                path: self.path.clone(),
                message: "the thread writing this table stopped unexpectedly".into(),
            }),
            None => Ok(()),
        }
    }
}

impl Drop for TableStream {
    fn drop(&mut self) {
        let _ = self.join();
    }
}

impl<'a> RunWriter<'a> {
    /// Starts a run in a staged directory beside `dir`; nothing appears under `dir` until `finish`.
    pub fn create(
        dir: &Path,
        players: &'a PlayerIds,
        info: &'a PlayerInfo,
        options: &WriteOptions,
    ) -> Result<RunWriter<'a>, OutputError> {
        let staged = StagedDir::new(dir, OutputKind::Run)?;
        if options.csv {
            let lists = staged.path.join("lists");
            std::fs::create_dir_all(&lists).map_err(|source| OutputError::Io {
                path: lists,
                source,
            })?;
        }
        Ok(RunWriter {
            lists: TableStream::start(staged.path.join("lists.parquet"))?,
            games: TableStream::start(staged.path.join("games.parquet"))?,
            periods: TableStream::start(staged.path.join("periods.parquet"))?,
            staged,
            players,
            info,
            csv: options.csv.then(ListRows::default),
            months: Vec::new(),
            event_dtype: tables::event_dtype(),
        })
    }

    fn write_list(&mut self, list: &Published<'_>) -> Result<(), OutputError> {
        if list.t == 0 {
            self.months = list.lists.iter().map(|m| m.to_string()).collect();
        }
        self.write_games(list.input, list.games)?;
        let months: Vec<&str> = self.months.iter().map(String::as_str).collect();
        let rows = tables::list_frame(self.players, list.rows, &months, list.t)
            .map_err(table_error(&self.lists.path))?;
        self.lists.add(rows)?;
        if !list.periods.is_empty() || list.t == 0 {
            // The starting list's empty frame gives the table its columns in any run.
            let periods = tables::periods_frame(self.players, list.periods, &months, list.t)
                .map_err(table_error(&self.periods.path))?;
            self.periods.add(periods)?;
        }
        if let Some(whole) = &mut self.csv {
            list.current.whole(whole);
            let path = self.staged.path.join(format!("lists/{}.csv", list.month()));
            tables::write_csv_list(&path, self.players, self.info, whole)?;
        }
        Ok(())
    }

    /// Adds games rated on a list (`input` the games they index) to `games.parquet`.
    fn write_games(&mut self, input: &Games, games: &RatedGames) -> Result<(), OutputError> {
        if games.is_empty() {
            return Ok(());
        }
        let months: Vec<&str> = self.months.iter().map(String::as_str).collect();
        let frame = tables::games_frame(self.players, input, games, &months, &self.event_dtype)
            .map_err(table_error(&self.games.path))?;
        self.games.add(frame)
    }

    /// Writes the last row groups, `scenario.resolved.toml` and `summary.json`, and puts the run in
    /// place of any earlier one under its name.
    pub fn finish(
        mut self,
        scenario: &Scenario,
        run: &Run,
        report: &IngestReport,
        timing: &mut Timing,
    ) -> Result<Written, OutputError> {
        if self.games.written + self.games.rows == 0 {
            // A run that rated no game still has its (empty) games table, with its columns.
            let months: Vec<&str> = self.months.iter().map(String::as_str).collect();
            let empty = tables::games_frame(
                self.players,
                &Games::default(),
                &RatedGames::default(),
                &months,
                &self.event_dtype,
            )
            .map_err(table_error(&self.games.path))?;
            self.games.add(empty)?;
        }
        self.lists.finish()?;
        self.games.finish()?;
        self.periods.finish()?;
        timing.lists_seconds = self.lists.busy;
        timing.games_seconds = self.games.busy;
        let at = |name: &str| self.staged.path.join(name);
        write_text(&at("scenario.resolved.toml"), &scenario.resolved_toml())?;
        write_text(
            &at("summary.json"),
            &summary::summary_json(scenario, run, report, timing),
        )?;
        let (list_rows, game_rows) = (self.lists.written, self.games.written);
        let period_rows = self.periods.written;
        let placed = self.staged.commit()?;
        Ok(Written {
            dir: placed.dir,
            kept: placed.kept,
            list_rows,
            game_rows,
            period_rows,
            lists_seconds: timing.lists_seconds,
            games_seconds: timing.games_seconds,
        })
    }
}

impl Sink for RunWriter<'_> {
    fn publish(&mut self, list: Published<'_>) -> Result<(), ReplayError> {
        self.write_list(&list)
            .map_err(|e| ReplayError::Sink(Box::new(e)))
    }

    fn takes_pieces(&self) -> bool {
        true
    }

    fn publish_games(&mut self, piece: PublishedGames<'_>) -> Result<(), ReplayError> {
        self.write_games(piece.input, piece.games)
            .map_err(|e| ReplayError::Sink(Box::new(e)))
    }
}
