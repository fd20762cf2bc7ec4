use std::path::{Path, PathBuf};

use anyhow::Context;

use super::set_threads;
use crate::bench::{self, Pieces, ReportTable, WorkDir, WorldReplay};
use crate::generate::kaggle_like::Shape;
use crate::pipeline::ReplayRequest;
use crate::scenario::Scenario;
use crate::sweep::Overrides;

/// The scenario the generated file is replayed under.
const DEFAULT_SCENARIO: &str = "scenarios/kaggle2010.toml";

/// Time the engine and the whole replay on a generated games file, and print games per second.
///
/// Generates a file in the Kaggle 2010 layout (by default 1,000,000 games, 50,000 players, 120
/// monthly periods), replays it with the scenario (by default scenarios/kaggle2010.toml) and prints
/// the best and median of several runs: the engine alone (inputs already read), the whole replay
/// (parse, replay, every output written), and the crosstable, curve and histogram of the run.
// The "Instead:" modes are one group that takes one of them. A flag that refines one mode names
// the other modes as conflicts besides requiring its own: clap waives a requirement whose argument
// conflicts with one given, and the group makes every mode conflict with the others.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("instead").multiple(false)))]
pub struct Args {
    #[arg(long, default_value_t = 1_000_000)]
    games: usize,
    #[arg(long, default_value_t = 50_000)]
    players: usize,
    #[arg(long, default_value_t = 120)]
    months: u32,
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Runs of each measurement, 1 to 1000
    #[arg(long, default_value_t = 5, value_parser = run_count)]
    runs: usize,
    #[arg(long, default_value = DEFAULT_SCENARIO)]
    scenario: PathBuf,
    /// Keep the generated file and the run here instead of a temporary directory
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Worker threads, 1 to 256 (or the cores if more) [default: all cores]; outputs are identical
    /// whatever the number
    #[arg(long, value_name = "N", value_parser = super::thread_count)]
    threads: Option<usize>,
    /// Instead: time `elosim generate` of the fide-2001-2025 world at this scale (1.0: about 42.7
    /// million games), written to a temporary directory
    #[arg(long, value_name = "SCALE", group = "instead")]
    world: Option<f64>,
    /// Instead: replay the fide-2001-2025 world at this scale (generated once into --keep DIR, or a
    /// temporary directory) under scenarios/fide-historical.toml, and print each stage's time, the
    /// engine's games per second and the whole replay's peak memory and CPU time
    #[arg(long, value_name = "SCALE", group = "instead")]
    replay_world: Option<f64>,
    /// With --replay-world: the world's games as a dataset partitioned by period, replayed list by
    /// list
    #[arg(long, requires = "replay_world", conflicts_with_all = ["world", "idle", "pieces", "sweep"])]
    partitioned: bool,
    /// Instead: time the whole replay of the generated file with a starting list of its players,
    /// then with N more players on it who never play, and print what they cost (a list costs what
    /// changed on it, so they should cost little more than reading them)
    #[arg(long, value_name = "N", group = "instead")]
    idle: Option<usize>,
    /// Instead: write the generated games as a dataset partitioned by period, each period in N
    /// files, and time `elosim replay` of it with every list rated file by file (--piece-games 0),
    /// in a process of its own: its time and peak memory (`--months 1 --games 100000000 --players
    /// 10000000` is a month of Lichess's size)
    #[arg(long, value_name = "N", group = "instead")]
    pieces: Option<usize>,
    /// Instead: run this study (elosim sweep) into a temporary directory (or --keep DIR), with
    /// --scale and --seeds if given, and print where its time went: the worlds' generation, the
    /// replays and the measures; and its naive cost, its rows times one whole replay of the
    /// baseline alone (measured after it), with the study's time as a share of that
    #[arg(long, value_name = "STUDY", group = "instead")]
    sweep: Option<PathBuf>,
    /// With --sweep: the worlds' scale instead of the study's
    #[arg(long, value_name = "SCALE", requires = "sweep", conflicts_with_all = NOT_SWEEP)]
    scale: Option<f64>,
    /// With --sweep: the worlds' seeds instead of the study's (comma-separated)
    #[arg(long, value_name = "N,N", value_delimiter = ',', requires = "sweep", conflicts_with_all = NOT_SWEEP)]
    seeds: Option<Vec<u64>>,
}

/// The modes other than --sweep, which its refinements conflict with.
const NOT_SWEEP: [&str; 4] = ["world", "replay_world", "idle", "pieces"];

pub fn run(args: Args) -> anyhow::Result<()> {
    let threads = set_threads(args.threads)?;
    if let Some(study) = &args.sweep {
        let dir = WorkDir::new(args.keep.clone(), "bench-sweep");
        let overrides = Overrides {
            scale: args.scale,
            seeds: args.seeds.clone(),
            ..Default::default()
        };
        println!(
            "{}",
            bench::time_study(study, &overrides, &dir.path, threads)?
        );
        return Ok(dir.done()?);
    }
    if let Some(scale) = args.world {
        println!(
            "{}",
            bench::time_world(scale, args.seed, args.runs, threads)?
        );
        return Ok(());
    }
    if let Some(scale) = args.replay_world {
        let dir = WorkDir::new(args.keep.clone(), "bench-replay");
        let world = WorldReplay::new(scale, args.seed, args.partitioned, threads, &dir.path)?;
        if let Some(generated) = world.generate_once()? {
            println!("{generated}");
        }
        println!("{}", world.time(&std::env::current_exe()?, args.runs)?);
        return Ok(dir.done()?);
    }
    // The scenario is read before a file is generated, so that a wrong path fails at once.
    Scenario::load(&args.scenario).with_context(|| {
        format!(
            "elosim bench replays the generated file under --scenario (default {DEFAULT_SCENARIO}, \
             relative to the folder it runs in: run it from the repository's folder or name one)"
        )
    })?;
    let dir = WorkDir::new(args.keep.clone(), "bench");
    std::fs::create_dir_all(&dir.path)?;
    let shape = Shape {
        games: args.games,
        players: args.players,
        months: args.months,
        seed: args.seed,
    };
    if let Some(pieces) = args.pieces {
        let pieces = Pieces {
            scenario: &args.scenario,
            shape: &shape,
            pieces,
            dir: &dir.path,
            threads,
        };
        if let Some(generated) = pieces.generate_once()? {
            println!("{generated}");
        }
        println!("{}", pieces.time(&std::env::current_exe()?, args.runs)?);
    } else {
        time_file(&args, &shape, &dir.path, threads)?;
    }
    Ok(dir.done()?)
}

/// The generated file's benchmarks: the engine alone, the whole replay and the report tables of
/// its run, or with --idle what idle players cost.
fn time_file(args: &Args, shape: &Shape, dir: &Path, threads: usize) -> anyhow::Result<()> {
    let file = dir.join("games.csv");
    println!("{}", bench::generate_file(&file, shape)?);
    let run = dir.join("run");
    let request = ReplayRequest {
        scenario: Some(args.scenario.clone()),
        games: Some(file),
        out: Some(run.clone()),
        threads,
        ..ReplayRequest::default()
    };
    if let Some(idle) = args.idle {
        println!(
            "{}",
            bench::time_idle(&request, args.players, idle, args.runs, dir)?
        );
        return Ok(());
    }
    println!("{}", bench::time_engine(&request, args.games, args.runs)?);
    println!(
        "{}",
        bench::time_whole_replay(&request, args.games, args.runs)?
    );
    for table in ReportTable::ALL {
        println!("{}", bench::time_report(table, &run, args.runs)?);
    }
    Ok(())
}

/// How many runs a measurement takes: at least one, whose time is its best and median.
fn run_count(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=1000).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected how many runs each measurement takes, a whole number from 1 to 1000, got {text:?}"
        )),
    }
}
