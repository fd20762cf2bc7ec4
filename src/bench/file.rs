//! A generated file in the Kaggle 2010 layout: writing it, and the engine alone and the whole
//! replay on it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::engine::engine_alone;
use super::{BenchError, Times};
use crate::generate::kaggle_like::{self, Shape};
use crate::ingest;
use crate::numbers::{counted, thousands};
use crate::pipeline::{self, Quiet, ReplayRequest, StageTimes};

/// A games file written: what it holds, in how long, and its size.
pub struct GeneratedFile {
    pub games: usize,
    pub players: usize,
    pub months: u32,
    pub seconds: f64,
    pub path: PathBuf,
    pub bytes: u64,
}

/// Writes the games of `shape` to `path`.
pub fn generate_file(path: &Path, shape: &Shape) -> Result<GeneratedFile, BenchError> {
    let started = Instant::now();
    kaggle_like::write(path, shape)?;
    Ok(GeneratedFile {
        games: shape.games,
        players: shape.players,
        months: shape.months,
        seconds: started.elapsed().as_secs_f64(),
        path: path.to_path_buf(),
        bytes: std::fs::metadata(path)?.len(),
    })
}

impl fmt::Display for GeneratedFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Generated {} games of {} players over {} months in {:.2} s ({}, {:.1} MB)",
            thousands(self.games as u64),
            thousands(self.players as u64),
            self.months,
            self.seconds,
            self.path.display(),
            self.bytes as f64 / 1e6
        )
    }
}

/// The engine alone on the request's inputs, read once before the runs.
pub struct EngineTimes {
    /// The games the file was generated with.
    pub games: usize,
    /// The lists rated (the starting list aside).
    pub lists: usize,
    pub threads: usize,
    pub times: Times,
    /// Each run's seconds placing the games on lists.
    pub scheduling: Vec<f64>,
}

/// Times `runs` replays of the request's inputs by the engine alone.
pub fn time_engine(
    request: &ReplayRequest,
    games: usize,
    runs: usize,
) -> Result<EngineTimes, BenchError> {
    let (scenario, files) = pipeline::prepare(request)?;
    let (inputs, _) = ingest::read_inputs(&files, false)?;
    let mut times = Times::default();
    let mut scheduling = Vec::new();
    let mut lists = 0;
    for _ in 0..runs {
        let run = times.time(|| engine_alone(&scenario, &inputs))?;
        scheduling.push(run.scheduling_seconds);
        lists = run.lists.len() - 1;
    }
    Ok(EngineTimes {
        games,
        lists,
        threads: request.threads,
        times,
        scheduling,
    })
}

impl fmt::Display for EngineTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Engine alone ({} lists, {}): {}",
            self.lists,
            counted(self.threads as u64, "thread"),
            self.times.games_per_second(3, self.games)
        )?;
        write!(
            f,
            "  best run's placing of the games on lists: {:.3} s",
            self.scheduling[self.times.best_run()]
        )
    }
}

/// The whole replay of the request: parse, replay, every output written.
pub struct WholeReplayTimes {
    /// The games the file was generated with.
    pub games: usize,
    pub times: Times,
    /// Each run's stages.
    pub stages: Vec<StageTimes>,
}

/// Times `runs` whole replays of the request.
pub fn time_whole_replay(
    request: &ReplayRequest,
    games: usize,
    runs: usize,
) -> Result<WholeReplayTimes, BenchError> {
    let mut times = Times::default();
    let mut stages = Vec::new();
    for _ in 0..runs {
        let outcome = times.time(|| pipeline::replay(request, &Quiet))?;
        stages.push(outcome.times);
    }
    Ok(WholeReplayTimes {
        games,
        times,
        stages,
    })
}

impl fmt::Display for WholeReplayTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Whole replay (parse → every output written): {}",
            self.times.games_per_second(3, self.games)
        )?;
        let stages = self.stages[self.times.best_run()];
        write!(
            f,
            "  best run's stages: read {:.3} s · replay {:.3} s · write {:.3} s",
            stages.read, stages.replay, stages.write
        )
    }
}
