//! Lists rated file by file: the generated games as a dataset partitioned by period, each period in
//! several files, replayed with `--piece-games 0` in a process of its own, whose peak memory is
//! bounded by the players and one file.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::process::{children_peak_kb, ChildReplay};
use super::{BenchError, Times};
use crate::generate::kaggle_like::{self, Shape};
use crate::numbers::{counted, thousands};
use crate::scenario::Scenario;

/// The games of `shape` in `pieces` files a period, replayed under `scenario`.
pub struct Pieces<'a> {
    pub scenario: &'a Path,
    pub shape: &'a Shape,
    pub pieces: usize,
    /// Where the dataset (`games/`) and the run (`run/`) are written.
    pub dir: &'a Path,
    pub threads: usize,
}

impl Pieces<'_> {
    fn games_dir(&self) -> PathBuf {
        self.dir.join("games")
    }

    fn out(&self) -> PathBuf {
        self.dir.join("run")
    }

    /// Writes the dataset, its first period the scenario's first list, unless a run before left it
    /// in the directory: a large one takes minutes to write.
    pub fn generate_once(&self) -> Result<Option<GeneratedPieces>, BenchError> {
        let from = Scenario::load(self.scenario)?.run.from;
        let games_dir = self.games_dir();
        if games_dir.is_dir() {
            return Ok(None);
        }
        let started = Instant::now();
        kaggle_like::write_pieces(&games_dir, self.shape, from, self.pieces)?;
        Ok(Some(GeneratedPieces {
            games: self.shape.games,
            players: self.shape.players,
            months: self.shape.months,
            pieces: self.pieces,
            seconds: started.elapsed().as_secs_f64(),
            dir: games_dir,
        }))
    }

    /// Times `runs` whole replays of the dataset by the program at `elosim`, every list rated file
    /// by file.
    pub fn time(&self, elosim: &Path, runs: usize) -> Result<PiecesTimes, BenchError> {
        let out = self.out();
        let args = [
            "replay".to_string(),
            self.scenario.display().to_string(),
            "--games".into(),
            self.games_dir().display().to_string(),
            "--piece-games".into(),
            "0".into(),
            "--out".into(),
            out.display().to_string(),
            "--threads".into(),
            self.threads.to_string(),
            "--quiet".into(),
        ];
        let mut times = Times::default();
        let mut read = Vec::new();
        let mut peak_kb = 0;
        for _ in 0..runs {
            let child = ChildReplay::run(elosim, &args, &out)?;
            times.push(child.seconds);
            peak_kb = peak_kb.max(children_peak_kb());
            read.push(child.timing("read_seconds"));
        }
        Ok(PiecesTimes {
            games: self.shape.games,
            players: self.shape.players,
            pieces: self.pieces,
            threads: self.threads,
            runs,
            times,
            read,
            peak_kb,
        })
    }
}

/// The dataset written.
pub struct GeneratedPieces {
    pub games: usize,
    pub players: usize,
    pub months: u32,
    pub pieces: usize,
    pub seconds: f64,
    pub dir: PathBuf,
}

impl fmt::Display for GeneratedPieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Generated {} games of {} players over {} in {} files a period in {:.1} s ({})",
            thousands(self.games as u64),
            thousands(self.players as u64),
            counted(u64::from(self.months), "month"),
            self.pieces,
            self.seconds,
            self.dir.display()
        )
    }
}

/// The whole replays of the dataset.
pub struct PiecesTimes {
    pub games: usize,
    pub players: usize,
    pub pieces: usize,
    pub threads: usize,
    pub runs: usize,
    pub times: Times,
    /// Each run's first pass over the files.
    pub read: Vec<f64>,
    /// The largest of the runs' peak resident memory, in kB.
    pub peak_kb: i64,
}

impl fmt::Display for PiecesTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Whole replay, every list rated file by file ({} games, {} players, {} files a period, {}, {}): {}",
            thousands(self.games as u64),
            thousands(self.players as u64),
            self.pieces,
            counted(self.threads as u64, "thread"),
            counted(self.runs as u64, "run"),
            self.times.games_per_second(1, self.games)
        )?;
        write!(
            f,
            "  of which the first pass over the files (players, every row checked) {:.1} s; peak memory {:.2} GB",
            self.read[self.times.best_run()],
            self.peak_kb as f64 / 1e6
        )
    }
}
