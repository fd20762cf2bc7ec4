use std::path::PathBuf;
use std::time::Instant;

use super::progress::Bar;
use super::{count, kept_line, set_threads};
use crate::generate::world;
use crate::numbers::counted;
use crate::output::WorldWriter;
use crate::pipeline::Progress;

/// Generate a synthetic FIDE-like world whose players' true strengths are known.
///
/// Writes, in the canonical formats: games.parquet (period, event, event_start, event_type, white,
/// black, score), players.parquet (id, birth_year, sex, federation, first_month), start-list.parquet (the
/// established pool on the first list, rated at about their true strength), truth.parquet (id,
/// month, strength), equilibrium.parquet (month, id, rating, games: for each January list after
/// the first, every player with a game in the 18 lists up to it and the rating a converged system on FIDE's curve
/// gives them from those games, the truth a rating system can reach) and summary.json. The same seed and scale give byte-identical files, whatever
/// the number of threads; world.toml holds every parameter of the world. Replay it with:
///   elosim replay scenarios/fide-historical.toml --games DIR/games.parquet
///     --start-list DIR/start-list.parquet --players DIR/players.parquet --from 2001-04
#[derive(clap::Args)]
pub struct Args {
    /// The world: a world file (TOML, see worlds/fide-2001-2025.toml and docs/generate.md), or a
    /// built-in world by name, each FIDE's standard pool from January 2001 to December 2025:
    /// fide-2001-2025 (calibrated to Sonas's crosstables of real games; its players play about
    /// twice FIDE's games), fide-2001-2025-activity (fitted to FIDE's activity first: its players
    /// play FIDE's games, Sonas's 2021-2023 cells further off), fide-2001-2025-form (half the
    /// upsets and twice the form in each event, refitted to Sonas's crosstables)
    #[arg(long, value_name = "FILE", default_value = "fide-2001-2025")]
    world: String,
    /// Size against FIDE's, above 0 and at most 100 (1.0: 37,000 players on the January 2001 list
    /// and about 54 million games to December 2025; 0.02 for a quick demo; 100: about 5 billion),
    /// and large enough for a player (0.0000011 for the built-in world)
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    scale: f64,
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Output directory [default: output/world-<preset>-<scale>]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Write the games as a dataset partitioned by rating period (games/period=YYYY-MM/*.parquet),
    /// which a replay reads list by list in bounded memory, instead of one games.parquet
    #[arg(long)]
    partitioned: bool,
    /// Leave out equilibrium.parquet, the reachable truth of every January list (the ratings a
    /// converged system on FIDE's curve reaches from each window's games: `compare --truth` sets
    /// the active players against it). Solving it takes longer than generating a large world
    #[arg(long)]
    no_equilibrium: bool,
    /// Worker threads, 1 to 256 (or the cores if more) [default: all cores]; outputs are identical
    /// whatever the number
    #[arg(long, value_name = "N", value_parser = super::thread_count)]
    threads: Option<usize>,
    /// No progress bar and no summary
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let settings = world::load(&args.world)?.sized(args.scale, args.seed)?;
    set_threads(args.threads)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("output/world-{}-{}", settings.name, args.scale)));
    let started = Instant::now();
    let mut writer = WorldWriter::new(&out, &settings, args.partitioned, !args.no_equilibrium)?;
    let bar = Bar::new(args.quiet);
    bar.stage("generating");
    let world = world::generate(&settings, &mut writer, &|done, total| {
        bar.steps(done, total, "months")
    })?;
    if world.games == 0 {
        // Nothing to replay; the staged directory is removed, and nothing is written.
        anyhow::bail!(
            "{} at scale {} made no game: its {} never met in an event; give a larger --scale",
            settings.name,
            settings.scale,
            counted(world.players.len() as u64, "player")
        );
    }
    bar.stage("writing players and the starting list");
    let placed = writer.finish(&world)?;
    bar.finish();
    if !args.quiet {
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "Generated {} (scale {}, seed {}): {}, {} ({} on the starting list) in {:.1} s → {} games/s",
            settings.name,
            settings.scale,
            settings.seed,
            counted(world.games, "game"),
            counted(world.players.len() as u64, "player"),
            count(world.start_list.len()),
            seconds,
            count((world.games as f64 / seconds) as usize)
        );
        println!(
            "  files    {}/: {}, truth.parquet, {}players.parquet, start-list.parquet, world.toml, summary.json",
            placed.dir.display(),
            if args.partitioned {
                "games/period=YYYY-MM/"
            } else {
                "games.parquet"
            },
            if args.no_equilibrium {
                ""
            } else {
                "equilibrium.parquet, "
            }
        );
        print!("{}", kept_line(&placed.kept));
    }
    Ok(())
}
