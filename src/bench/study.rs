//! A regulation study run from nothing, and where its time went: the worlds' generation, the
//! replays and the measures.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::engine::engine_alone;
use super::process::own_usage;
use super::BenchError;
use crate::numbers::{counted, thousands};
use crate::replay::Inputs;
use crate::simulate::{Needs, Replica};
use crate::sweep::{self, Input, Overrides, Study, Summaries};

/// A study's run, its files written.
pub struct StudyTimes {
    pub name: String,
    pub file: PathBuf,
    pub candidates: usize,
    pub seeds: usize,
    /// The worlds the study names.
    pub worlds: usize,
    pub rows: usize,
    /// The rows replayed, not taken from the baseline's replay.
    pub replays: usize,
    /// The rows taken from the baseline's replay.
    pub reused: usize,
    /// The replays that carried on from the baseline's snapshot.
    pub carried_on: usize,
    pub threads: usize,
    /// The whole run, from the study read to its files written.
    pub seconds: f64,
    /// The worlds generated, one per world and seed.
    pub generated: usize,
    pub generate_seconds: f64,
    pub games: u64,
    /// The replays' seconds, on all threads, the measures aside.
    pub replay_seconds: f64,
    pub measure_seconds: f64,
    /// One whole replay of the baseline on the first world and seed, alone, measured after the
    /// study: the unit of its naive cost (every row a whole replay).
    pub whole_replay_seconds: f64,
    /// The process's peak resident memory and CPU time when the study's files were written.
    pub peak_kb: i64,
    pub cpu_seconds: f64,
}

/// Runs the study in `file` into `dir` with the command line's `overrides` and its summary and
/// files written, on `threads` threads (what the caller set the pools to).
pub fn time_study(
    file: &Path,
    overrides: &Overrides,
    dir: &Path,
    threads: usize,
) -> Result<StudyTimes, BenchError> {
    let study = Study::load(file, overrides)?;
    // The journal of an interrupted run in `dir` would stop this one (the sweep asks for
    // --resume): the study runs from nothing.
    let _ = std::fs::remove_file(dir.join("results.partial.jsonl"));
    let started = Instant::now();
    let options = sweep::Options {
        out: dir.to_path_buf(),
        shard: None,
        resume: false,
        whole_replays: false,
    };
    let outcome = sweep::run(&study, &options, &sweep::Quiet)?;
    let summary = Summaries::new(&study, &outcome.candidates, &outcome.rows);
    sweep::write_study(dir, &summary, &outcome.rows)?;
    let seconds = started.elapsed().as_secs_f64();
    // Before the naive cost's replay, so that its figures are the study's alone.
    let usage = own_usage();
    let whole_replay_seconds = whole_baseline_replay(&study)?;
    Ok(StudyTimes {
        name: study.name.clone(),
        file: file.to_path_buf(),
        candidates: outcome.candidates.len(),
        seeds: study.input.seeds().len(),
        worlds: study.input.worlds().len(),
        rows: outcome.rows.len(),
        replays: outcome.rows.len() - outcome.reused,
        reused: outcome.reused,
        carried_on: outcome.carried_on,
        threads,
        seconds,
        generated: outcome.worlds.len(),
        generate_seconds: outcome.worlds.iter().map(|w| w.seconds).sum(),
        games: outcome.worlds.iter().map(|w| w.games).sum(),
        replay_seconds: outcome
            .rows
            .iter()
            .map(|r| r.seconds - r.measure_seconds)
            .sum(),
        measure_seconds: outcome.rows.iter().map(|r| r.measure_seconds).sum(),
        whole_replay_seconds,
        peak_kb: usage.peak_kb,
        cpu_seconds: usage.cpu_seconds,
    })
}

/// Seconds of one whole replay of the study's baseline, from its first list to its last, its lists
/// going nowhere, on the study's first world and seed (generated again) or its games.
fn whole_baseline_replay(study: &Study) -> Result<f64, BenchError> {
    let scenario = sweep::baseline_scenario(study)?;
    let inputs = first_inputs(study)?;
    let started = Instant::now();
    engine_alone(&scenario, &inputs)?;
    Ok(started.elapsed().as_secs_f64())
}

/// The inputs of a study's first (world, seed), or its games.
fn first_inputs(study: &Study) -> Result<Inputs, BenchError> {
    match &study.input {
        Input::World { worlds, scale, .. } => {
            let seed = study.input.seeds()[0];
            let settings = worlds[0].settings.clone().sized(*scale, seed)?;
            let needs = Needs::of(&study.measures);
            Ok(Replica::generate(&settings, seed, &needs)?.inputs)
        }
        Input::Games {
            files,
            skip_invalid,
        } => Ok(crate::ingest::read_inputs(files, *skip_invalid)?.0),
    }
}

impl fmt::Display for StudyTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let worlds = match self.worlds {
            n if n > 1 => format!(" × {n} worlds"),
            _ => String::new(),
        };
        let replays = self.replays.max(1) as f64;
        writeln!(
            f,
            "Study {} ({}): {} × {}{worlds} = {} ({}, {} of them carried on from the baseline's replay; {} from the baseline's replay) on {} in {:.1} s, files written",
            self.name,
            self.file.display(),
            counted(self.candidates as u64, "candidate"),
            counted(self.seeds as u64, "seed"),
            counted(self.rows as u64, "row"),
            counted(self.replays as u64, "replay"),
            thousands(self.carried_on as u64),
            self.reused,
            counted(self.threads as u64, "thread"),
            self.seconds
        )?;
        writeln!(
            f,
            "  process   peak memory {:.2} GB, CPU {:.1} s ({:.2} cores on average), the study alone",
            self.peak_kb as f64 / 1e6,
            self.cpu_seconds,
            self.cpu_seconds / self.seconds.max(f64::MIN_POSITIVE)
        )?;
        let naive = self.rows as f64 * self.whole_replay_seconds;
        writeln!(
            f,
            "  naive     {:.1} s: {} × {:.2} s, one whole replay of the baseline alone (measured after the study); the study took {:.2} × that",
            naive,
            counted(self.rows as u64, "row"),
            self.whole_replay_seconds,
            self.seconds / naive.max(f64::MIN_POSITIVE)
        )?;
        writeln!(
            f,
            "  generate  {:.1} s for {} ({} games; {:.2} s a world), each but the first beside the previous one's replays",
            self.generate_seconds,
            counted(self.generated as u64, "world"),
            thousands(self.games),
            self.generate_seconds / self.generated.max(1) as f64
        )?;
        writeln!(
            f,
            "  replay    {:.1} s of replays ({:.3} s a replay), up to {} at a time",
            self.replay_seconds,
            self.replay_seconds / replays,
            self.threads
        )?;
        writeln!(
            f,
            "  measures  {:.1} s ({:.3} s a replay: {:.1} % of a replay)",
            self.measure_seconds,
            self.measure_seconds / replays,
            100.0 * self.measure_seconds
                / (self.replay_seconds + self.measure_seconds).max(f64::MIN_POSITIVE)
        )?;
        write!(
            f,
            "  other     {:.1} s of wall time besides (resolving the candidates, waiting for each baseline, the summary, the files)",
            (self.seconds
                - (self.generate_seconds + self.replay_seconds + self.measure_seconds)
                    / self.threads as f64)
                .max(0.0)
        )
    }
}
