use std::path::PathBuf;
use std::time::Instant;

use super::progress::Bar;
use super::{kept_line, set_threads};
use crate::calibrate::{self, Calibration, Overrides};
use crate::numbers::{counted, thousands};
use crate::output::{check_destination, OutputKind};
use crate::report::TextTable;
use crate::simulate::{MeasureKind, Observed};

/// Fit a world's parameters to published crosstables of real games, by simulation.
///
/// CONFIG (TOML) names the world to start from, the scenario to replay it under, the targets (the
/// published tables of data/published/sonas-crosstables.csv, real rating lists, FIDE's players who
/// played per list in data/fide-activity/ and how much each band played), the parameters to
/// move with their bounds, the scale, seeds and budget; see worlds/fide-2001-2025.calibrate.toml
/// and docs/generate.md. Each evaluation generates the world at the file's scale with its fixed
/// seeds (common random numbers), replays it in memory and measures its distance to the targets;
/// an evolution strategy (CMA-ES) moves the parameters, a generation's candidates in parallel.
/// Writes DIR/world.toml (the starting world file with the fitted values), DIR/evaluations.parquet
/// (every evaluation) and DIR/summary.json.
#[derive(clap::Args)]
pub struct Args {
    /// The calibration file (TOML)
    config: PathBuf,
    /// Only evaluate the starting world and print its distance to each target
    #[arg(long)]
    evaluate: bool,
    /// Start from this world instead of the file's (a world file or a built-in world)
    #[arg(long, value_name = "FILE")]
    world: Option<String>,
    /// Each evaluation's world against FIDE's size, instead of the file's
    #[arg(long, value_name = "SCALE", allow_negative_numbers = true)]
    scale: Option<f64>,
    /// The worlds' seeds instead of the file's (comma-separated)
    #[arg(long, value_name = "N,N", value_delimiter = ',')]
    seeds: Option<Vec<u64>>,
    /// Evaluations in all, instead of the file's: the start's and at least one generation's
    #[arg(long, value_name = "N")]
    budget: Option<usize>,
    /// With --evaluate: draw the world's players who played per list against FIDE's (the file's
    /// `played` target) to this file (.png or .svg)
    #[arg(long, value_name = "FILE", requires = "evaluate")]
    plot: Option<PathBuf>,
    /// Output directory [default: the file's `out`, or output/calibration-<world>]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Worker threads, 1 to 256 (or the cores if more) [default: all cores]; outputs are identical
    /// whatever the number
    #[arg(long, value_name = "N", value_parser = super::thread_count)]
    threads: Option<usize>,
    /// No progress bar
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    set_threads(args.threads)?;
    let overrides = Overrides {
        world: args.world.clone(),
        scale: args.scale,
        seeds: args.seeds.clone(),
        budget: args.budget,
        evaluate: args.evaluate,
    };
    let c = Calibration::load(&args.config, &overrides)?;
    let started = Instant::now();
    if args.evaluate {
        // Refused before the evaluation's minutes, not after them.
        let played = c
            .targets
            .iter()
            .position(|t| matches!(t.measure.kind, MeasureKind::Played(_)));
        if let (Some(plot), None) = (&args.plot, played) {
            anyhow::bail!(
                "--plot {} draws the players who played per list of a `played` target, and {} has none; add one (see worlds/fide-2001-2025.calibrate.toml)",
                plot.display(),
                args.config.display()
            );
        }
        let evaluation =
            calibrate::evaluate(&c.world, &c.seeds, &c.scenario, &c.targets, c.objective)?;
        println!(
            "{} at scale {} with seeds {:?}: objective {:.3} ({} games, {:.1} s)",
            c.world.name,
            c.scale,
            c.seeds,
            evaluation.objective,
            thousands(evaluation.games),
            evaluation.seconds
        );
        for line in evaluation.lines(&c.targets) {
            println!("  {line}");
        }
        if let (Some(path), Some(i)) = (&args.plot, played) {
            if let (MeasureKind::Played(target), Observed::Played(found)) =
                (&c.targets[i].measure.kind, &evaluation.observed[i])
            {
                target
                    .picture(found, evaluation.size, &c.world.name)
                    .save(path)?;
                println!("  plot     {}", path.display());
            }
        }
        return Ok(());
    }
    let dir = args
        .out
        .clone()
        .or(c.out.clone())
        .unwrap_or_else(|| PathBuf::from(format!("output/calibration-{}", c.world.name)));
    // Refused before the search, not after its minutes.
    check_destination(&dir, OutputKind::Calibration)?;
    let bar = Bar::new(args.quiet);
    let fit = c.run(&|done, budget, best| {
        bar.steps(done, budget, "evaluations");
        bar.message(&format!("best {best:.3}"));
    })?;
    bar.finish();
    let placed = crate::calibrate::write_calibration(&dir, &c, &fit)?;
    let (start, best) = (fit.start(), fit.best());
    println!(
        "Calibrated {} ({}): objective {:.3} → {:.3} in {} (scale {}, seeds {:?}, {} a generation) in {:.0} s",
        c.world.name,
        args.config.display(),
        start.evaluation.objective,
        best.evaluation.objective,
        counted(fit.records.len() as u64, "evaluation"),
        c.scale,
        c.seeds,
        c.population,
        started.elapsed().as_secs_f64()
    );
    let mut table = TextTable::default();
    table.push(vec![
        "parameter".into(),
        "start".into(),
        "fitted".into(),
        "bounds".into(),
        "unit".into(),
    ]);
    for (k, b) in c.parameters.iter().enumerate() {
        table.push(vec![
            b.param.key.to_string(),
            format!("{}", start.values[k]),
            format!("{}", best.values[k]),
            format!("{} – {}", b.min, b.max),
            b.param.unit.to_string(),
        ]);
    }
    print!("{}", table.render(&[0, 3, 4]));
    println!("start:");
    for line in start.evaluation.lines(&c.targets) {
        println!("  {line}");
    }
    println!("fitted:");
    for line in best.evaluation.lines(&c.targets) {
        println!("  {line}");
    }
    println!(
        "  files    {}/: world.toml (the fitted world), evaluations.parquet ({}), summary.json",
        placed.dir.display(),
        counted(fit.records.len() as u64, "row")
    );
    print!("{}", kept_line(&placed.kept));
    Ok(())
}
