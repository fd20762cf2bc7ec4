use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{count, set_threads};
use crate::bench::{
    self, children_peak_kb, engine_alone, engine_alone_streamed, ChildReplay, Pieces, ReportTable,
    Times, WorkDir,
};
use crate::generate::kaggle_like::Shape;
use crate::generate::world;
use crate::ingest;
use crate::numbers::counted;
use crate::output::WorldWriter;
use crate::pipeline::{self, ReplayRequest};

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
    /// Runs of each measurement
    #[arg(long, default_value_t = 5)]
    runs: usize,
    #[arg(long, default_value = "scenarios/kaggle2010.toml")]
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
    /// engine's games per second and the whole replay's peak memory
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
    /// replays and the measures
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
        return time_sweep(&args, study, threads);
    }
    if let Some(scale) = args.world {
        return time_world(scale, args.seed, args.runs, threads);
    }
    if let Some(scale) = args.replay_world {
        return time_world_replay(&args, scale, threads);
    }
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
        scenario: args.scenario.clone(),
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

/// Times the generation of a world, files included.
fn time_world(scale: f64, seed: u64, runs: usize, threads: usize) -> anyhow::Result<()> {
    let settings = world::preset("fide-2001-2025")?.sized(scale, seed)?;
    let dir = WorkDir::new(None, "bench-world");
    let mut seconds = Times::default();
    let mut games = 0;
    for _ in 0..runs {
        let world = seconds.time(|| -> anyhow::Result<_> {
            let mut writer = WorldWriter::new(&dir.path, &settings, false, false)?;
            let world = world::generate(&settings, &mut writer, &|_, _| {})?;
            writer.finish(&world)?;
            Ok(world)
        })?;
        games = world.games;
    }
    dir.done()?;
    let (best, median) = (seconds.best(), seconds.median());
    println!(
        "Generated the fide-2001-2025 world at scale {scale} ({} games, {threads} threads, files written): best {best:.2} s, median {median:.2} s → {} games/s",
        count(games as usize),
        count((games as f64 / best) as usize)
    );
    Ok(())
}

/// Times the replay of a generated world: reading, the engine alone, and the whole replay in a
/// process of its own, whose peak memory is the figure that matters.
fn time_world_replay(args: &Args, scale: f64, threads: usize) -> anyhow::Result<()> {
    let work = WorkDir::new(args.keep.clone(), "bench-replay");
    let base = work.path.clone();
    let layout = if args.partitioned {
        "partitioned"
    } else {
        "file"
    };
    let world_dir = base.join(format!("world-{scale}-{}-{layout}", args.seed));
    let settings = world::preset("fide-2001-2025")?.sized(scale, args.seed)?;
    // The first list after the world's starting list.
    let history = crate::scenario::Scenario::load(Path::new("scenarios/fide-historical.toml"))?;
    let from = history.starting_from(settings.start)?.run.from;
    if !world_dir.join("summary.json").is_file() {
        let t = Instant::now();
        let mut writer = WorldWriter::new(&world_dir, &settings, args.partitioned, false)?;
        let world = world::generate(&settings, &mut writer, &|_, _| {})?;
        writer.finish(&world)?;
        println!(
            "Generated the world at scale {scale} in {:.1} s: {}",
            t.elapsed().as_secs_f64(),
            world_dir.display()
        );
    }
    let games_path = world_dir.join(if args.partitioned {
        "games"
    } else {
        "games.parquet"
    });
    let at = |name: &str| world_dir.join(name).display().to_string();
    let replay_args = [
        "replay".to_string(),
        "scenarios/fide-historical.toml".into(),
        "--games".into(),
        games_path.display().to_string(),
        "--start-list".into(),
        at("start-list.parquet"),
        "--players".into(),
        at("players.parquet"),
        "--from".into(),
        from.to_string(),
        "--out".into(),
        base.join("run").display().to_string(),
        "--threads".into(),
        threads.to_string(),
        "--quiet".into(),
    ];
    let request = ReplayRequest {
        scenario: "scenarios/fide-historical.toml".into(),
        games: Some(games_path.clone()),
        start_list: Some(world_dir.join("start-list.parquet")),
        players: Some(world_dir.join("players.parquet")),
        from: Some(from),
        threads,
        ..ReplayRequest::default()
    };
    let (scenario, files) = pipeline::prepare(&request)?;
    let elosim = std::env::current_exe()?;
    let (mut read, mut engine, mut whole) = (Times::default(), Times::default(), Times::default());
    let mut scheduling = Vec::new();
    let mut games = 0;
    let mut peak_kb = 0;
    // Per whole replay: (lists, games) seconds its writing threads were busy.
    let mut writers = Vec::new();
    for _ in 0..args.runs {
        let run = if args.partitioned {
            let (inputs, report, mut source) =
                read.time(|| ingest::read_streamed(&files, false, &|_, _, _| {}))?;
            games = report.games_read;
            engine.time(|| engine_alone_streamed(&scenario, &inputs, &mut source))?
        } else {
            let (inputs, report) = read.time(|| ingest::read_inputs(&files, false))?;
            games = report.games_read;
            let run = engine.time(|| engine_alone(&scenario, &inputs))?;
            scheduling.push(run.scheduling_seconds);
            run
        };
        drop(run);
        let child = ChildReplay::run(&elosim, &replay_args, &base.join("run"))?;
        whole.push(child.seconds);
        peak_kb = peak_kb.max(children_peak_kb());
        writers.push((
            child.timing("intern_seconds"),
            child.timing("write_lists_seconds"),
            child.timing("write_games_seconds"),
        ));
    }
    let g = games as f64;
    let line = |name: &str, seconds: &Times| {
        let (best, median) = (seconds.best(), seconds.median());
        println!(
            "{name}: best {best:.2} s, median {median:.2} s → {} games/s",
            count((g / best) as usize)
        );
    };
    println!(
        "The world at scale {scale} ({} games, {layout}), fide-historical.toml from {from}, {threads} threads, {}:",
        count(games),
        counted(args.runs as u64, "run")
    );
    if args.partitioned {
        line(
            "  read (the first pass: players, starting list, every row checked)",
            &read,
        );
        line(
            "  engine alone (each list's games read as it is reached)",
            &engine,
        );
    } else {
        line("  read (parse and intern)", &read);
        line("  engine alone (inputs in memory)", &engine);
        println!(
            "    of which placing the games on lists (best run's) {:.2} s",
            scheduling[engine.best_run()]
        );
    }
    line(
        "  whole replay, a process of its own (every output written)",
        &whole,
    );
    let best = whole.best_run();
    println!(
        "    of which interning the ids {:.2} s; its tables' writing threads, alongside the replay: lists.parquet {:.2} s, games.parquet {:.2} s busy",
        writers[best].0, writers[best].1, writers[best].2
    );
    println!(
        "  whole replay's peak memory: {:.2} GB",
        peak_kb as f64 / 1e6
    );
    Ok(work.done()?)
}

/// A study run from nothing, and where its time went.
fn time_sweep(args: &Args, file: &Path, threads: usize) -> anyhow::Result<()> {
    let overrides = crate::sweep::Overrides {
        scale: args.scale,
        seeds: args.seeds.clone(),
        ..Default::default()
    };
    let study = crate::sweep::Study::load(file, &overrides)?;
    let work = WorkDir::new(args.keep.clone(), "bench-sweep");
    let dir = work.path.clone();
    let _ = std::fs::remove_file(dir.join("results.partial.jsonl"));
    let started = Instant::now();
    let outcome = crate::sweep::run(
        &study,
        &crate::sweep::Options {
            out: dir.clone(),
            shard: None,
            resume: false,
        },
        &crate::sweep::Quiet,
    )?;
    let summary = crate::sweep::Summaries::new(&study, &outcome.candidates, &outcome.rows);
    crate::sweep::write_study(&dir, &summary, &outcome.rows)?;
    let wall = started.elapsed().as_secs_f64();
    let generate: f64 = outcome.worlds.iter().map(|w| w.seconds).sum();
    let games: u64 = outcome.worlds.iter().map(|w| w.games).sum();
    let replays = outcome.rows.len() - outcome.reused;
    let replay: f64 = outcome
        .rows
        .iter()
        .map(|r| r.seconds - r.measure_seconds)
        .sum();
    let measures: f64 = outcome.rows.iter().map(|r| r.measure_seconds).sum();
    let worlds = match study.input.worlds().len() {
        n if n > 1 => format!(" × {n} worlds"),
        _ => String::new(),
    };
    println!(
        "Study {} ({}): {} × {}{worlds} = {} ({}, {} from the baseline's replay) on {} threads in {:.1} s, files written",
        study.name,
        file.display(),
        counted(outcome.candidates.len() as u64, "candidate"),
        counted(study.input.seeds().len() as u64, "seed"),
        counted(outcome.rows.len() as u64, "row"),
        counted(replays as u64, "replay"),
        outcome.reused,
        threads,
        wall
    );
    println!(
        "  generate  {:.1} s for {} worlds ({} games; {:.2} s a world), one at a time",
        generate,
        outcome.worlds.len(),
        count(games as usize),
        generate / outcome.worlds.len().max(1) as f64
    );
    println!(
        "  replay    {:.1} s of replays ({:.3} s a replay), {} at a time",
        replay,
        replay / replays.max(1) as f64,
        threads
    );
    println!(
        "  measures  {:.1} s ({:.3} s a replay: {:.1} % of a replay)",
        measures,
        measures / replays.max(1) as f64,
        100.0 * measures / (replay + measures).max(f64::MIN_POSITIVE)
    );
    println!(
        "  other     {:.1} s (resolving the candidates, the summary, the files)",
        (wall - generate - (replay + measures) / threads as f64).max(0.0)
    );
    Ok(work.done()?)
}
