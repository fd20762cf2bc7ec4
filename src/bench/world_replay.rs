//! The replay of a generated world under FIDE's history: reading, the engine alone, and the whole
//! replay in a process of its own, whose peak memory is the figure that matters.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::engine::{engine_alone, engine_alone_streamed};
use super::process::{children_peak_kb, ChildReplay};
use super::{BenchError, Times, WORLD};
use crate::generate::world::{self, Settings};
use crate::ingest::{self, InputFiles};
use crate::model::Month;
use crate::numbers::{counted, thousands};
use crate::output::WorldWriter;
use crate::pipeline::{self, ReplayRequest};
use crate::scenario::Scenario;

const HISTORY: &str = "scenarios/fide-historical.toml";

/// How the world's games are written, as its directory and the figures name it.
fn layout(partitioned: bool) -> &'static str {
    if partitioned {
        "partitioned"
    } else {
        "file"
    }
}

/// The built-in world at a scale and seed, its games in one file or partitioned by period, kept in
/// a directory of its own under `base` (with the whole replay's run beside it).
pub struct WorldReplay {
    pub scale: f64,
    pub partitioned: bool,
    pub threads: usize,
    settings: Settings,
    /// The first list after the world's starting list.
    from: Month,
    world_dir: PathBuf,
    base: PathBuf,
}

impl WorldReplay {
    pub fn new(
        scale: f64,
        seed: u64,
        partitioned: bool,
        threads: usize,
        base: &Path,
    ) -> Result<WorldReplay, BenchError> {
        let settings = world::preset(WORLD)?.sized(scale, seed)?;
        let from = Scenario::load(Path::new(HISTORY))?
            .starting_from(settings.start)?
            .run
            .from;
        Ok(WorldReplay {
            scale,
            partitioned,
            threads,
            settings,
            from,
            world_dir: base.join(format!("world-{scale}-{seed}-{}", layout(partitioned))),
            base: base.to_path_buf(),
        })
    }

    fn games(&self) -> PathBuf {
        self.world_dir.join(if self.partitioned {
            "games"
        } else {
            "games.parquet"
        })
    }

    fn out(&self) -> PathBuf {
        self.base.join("run")
    }

    /// Generates the world, unless a run before left it complete in its directory: a large one
    /// takes minutes.
    pub fn generate_once(&self) -> Result<Option<GeneratedWorld>, BenchError> {
        if self.world_dir.join("summary.json").is_file() {
            return Ok(None);
        }
        let started = Instant::now();
        let mut writer =
            WorldWriter::new(&self.world_dir, &self.settings, self.partitioned, false)?;
        let world = world::generate(&self.settings, &mut writer, &|_, _| {})?;
        writer.finish(&world)?;
        Ok(Some(GeneratedWorld {
            scale: self.scale,
            seconds: started.elapsed().as_secs_f64(),
            dir: self.world_dir.clone(),
        }))
    }

    /// The replay of the world: its games, starting list and players from the first list after
    /// the starting list.
    fn request(&self) -> ReplayRequest {
        ReplayRequest {
            scenario: Some(HISTORY.into()),
            games: Some(self.games()),
            start_list: Some(self.world_dir.join("start-list.parquet")),
            players: Some(self.world_dir.join("players.parquet")),
            from: Some(self.from),
            threads: self.threads,
            ..ReplayRequest::default()
        }
    }

    /// The same replay as `elosim replay`'s arguments, writing every output.
    fn replay_args(&self) -> Vec<String> {
        let at = |name: &str| self.world_dir.join(name).display().to_string();
        vec![
            "replay".to_string(),
            HISTORY.into(),
            "--games".into(),
            self.games().display().to_string(),
            "--start-list".into(),
            at("start-list.parquet"),
            "--players".into(),
            at("players.parquet"),
            "--from".into(),
            self.from.to_string(),
            "--out".into(),
            self.out().display().to_string(),
            "--threads".into(),
            self.threads.to_string(),
            "--quiet".into(),
        ]
    }

    /// Times `runs` rounds of the reading, the engine alone and the whole replay by the program
    /// at `elosim`, in turn.
    pub fn time(&self, elosim: &Path, runs: usize) -> Result<WorldReplayTimes, BenchError> {
        let (scenario, files) = pipeline::prepare(&self.request())?;
        let replay_args = self.replay_args();
        let mut times = WorldReplayTimes {
            scale: self.scale,
            partitioned: self.partitioned,
            from: self.from,
            threads: self.threads,
            runs,
            games: 0,
            read: Times::default(),
            engine: Times::default(),
            scheduling: Vec::new(),
            whole: Times::default(),
            cpu: Vec::new(),
            writers: Vec::new(),
            peak_kb: 0,
        };
        for _ in 0..runs {
            self.read_and_replay(&scenario, &files, &mut times)?;
            let child = ChildReplay::run(elosim, &replay_args, &self.out())?;
            times.whole.push(child.seconds);
            times.cpu.push(child.cpu_seconds);
            times.peak_kb = times.peak_kb.max(children_peak_kb());
            times.writers.push(Busy {
                intern: child.timing("intern_seconds"),
                lists: child.timing("write_lists_seconds"),
                games: child.timing("write_games_seconds"),
            });
        }
        Ok(times)
    }

    /// One run's reading and engine alone, added to `times`; the inputs are let go before the
    /// whole replay starts.
    fn read_and_replay(
        &self,
        scenario: &Scenario,
        files: &InputFiles,
        times: &mut WorldReplayTimes,
    ) -> Result<(), BenchError> {
        let run = if self.partitioned {
            let (inputs, report, mut source) = times
                .read
                .time(|| ingest::read_streamed(files, false, &|_, _, _| {}))?;
            times.games = report.games_read;
            times
                .engine
                .time(|| engine_alone_streamed(scenario, &inputs, &mut source))?
        } else {
            let (inputs, report) = times.read.time(|| ingest::read_inputs(files, false))?;
            times.games = report.games_read;
            times.engine.time(|| engine_alone(scenario, &inputs))?
        };
        times.scheduling.push(run.scheduling_seconds);
        Ok(())
    }
}

/// The world written.
pub struct GeneratedWorld {
    pub scale: f64,
    pub seconds: f64,
    pub dir: PathBuf,
}

impl fmt::Display for GeneratedWorld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Generated the world at scale {} in {:.1} s: {}",
            self.scale,
            self.seconds,
            self.dir.display()
        )
    }
}

/// Seconds the whole replay's tables' writing threads were busy, alongside the replay, and its
/// interning of the ids.
#[derive(Clone, Copy, Debug)]
pub struct Busy {
    pub intern: f64,
    pub lists: f64,
    pub games: f64,
}

/// The world's replays.
pub struct WorldReplayTimes {
    pub scale: f64,
    pub partitioned: bool,
    pub from: Month,
    pub threads: usize,
    pub runs: usize,
    /// The games read.
    pub games: usize,
    pub read: Times,
    pub engine: Times,
    /// Each run's seconds placing the games on lists (0 when read list by list).
    pub scheduling: Vec<f64>,
    pub whole: Times,
    /// Each whole replay's CPU time, every thread's.
    pub cpu: Vec<f64>,
    /// Each whole replay's busy threads.
    pub writers: Vec<Busy>,
    /// The largest of the whole replays' peak resident memory, in kB.
    pub peak_kb: i64,
}

impl WorldReplayTimes {
    /// A measurement's line.
    fn line(&self, f: &mut fmt::Formatter<'_>, name: &str, times: &Times) -> fmt::Result {
        writeln!(f, "{name}: {}", times.games_per_second(2, self.games))
    }
}

impl fmt::Display for WorldReplayTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "The world at scale {} ({} games, {}), fide-historical.toml from {}, {}, {}:",
            self.scale,
            thousands(self.games as u64),
            layout(self.partitioned),
            self.from,
            counted(self.threads as u64, "thread"),
            counted(self.runs as u64, "run")
        )?;
        if self.partitioned {
            self.line(
                f,
                "  read (the first pass: players, starting list, every row checked)",
                &self.read,
            )?;
            self.line(
                f,
                "  engine alone (each list's games read as it is reached)",
                &self.engine,
            )?;
        } else {
            self.line(f, "  read (parse and intern)", &self.read)?;
            self.line(f, "  engine alone (inputs in memory)", &self.engine)?;
            writeln!(
                f,
                "    of which placing the games on lists (best run's) {:.2} s",
                self.scheduling[self.engine.best_run()]
            )?;
        }
        self.line(
            f,
            "  whole replay, a process of its own (every output written)",
            &self.whole,
        )?;
        let best = self.whole.best_run();
        let busy = self.writers[best];
        writeln!(
            f,
            "    of which interning the ids {:.2} s; its tables' writing threads, alongside the replay: lists.parquet {:.2} s, games.parquet {:.2} s busy",
            busy.intern, busy.lists, busy.games
        )?;
        // How full the cores were: a replay that keeps them busy shortens only with less work.
        writeln!(
            f,
            "    its CPU time (best run's) {:.1} s, {:.2} cores busy on average",
            self.cpu[best],
            self.cpu[best] / self.whole.best()
        )?;
        write!(
            f,
            "  whole replay's peak memory: {:.2} GB",
            self.peak_kb as f64 / 1e6
        )
    }
}
