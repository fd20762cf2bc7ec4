use std::path::PathBuf;

use super::set_threads;
use crate::calibrate::{self, Calibration, Evaluation};
use crate::report::crosstable::Distance;

/// Fit a world's parameters to published crosstables of real games, by simulation.
///
/// CONFIG names the world to start from, the scenario to replay it under, the published tables
/// (data/published/sonas-crosstables.csv) and the parameters to move with their bounds; see
/// worlds/fide-2008-2023.calibrate.toml and docs/generate.md. Each evaluation generates the world
/// at the file's scale with its fixed seeds, replays it in memory and measures its distance to the
/// tables.
#[derive(clap::Args)]
pub struct Args {
    /// The calibration file (TOML)
    config: PathBuf,
    /// Only evaluate the starting world and print its distance to each table
    #[arg(long)]
    evaluate: bool,
    /// Use this world instead of the file's (a world file or a built-in world)
    #[arg(long, value_name = "FILE")]
    world: Option<String>,
    /// Each evaluation's world against FIDE's size, instead of the file's
    #[arg(long, value_name = "SCALE")]
    scale: Option<f64>,
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    set_threads(args.threads)?;
    let mut calibration = Calibration::load(&args.config)?;
    if let Some(world) = &args.world {
        calibration.world =
            crate::generate::world::load(world)?.sized(calibration.scale, calibration.seeds[0])?;
    }
    if let Some(scale) = args.scale {
        calibration.scale = scale;
        calibration.world = calibration
            .world
            .clone()
            .sized(scale, calibration.seeds[0])?;
    }
    let c = &calibration;
    let evaluation = calibrate::evaluate(&c.world, &c.seeds, &c.scenario, &c.targets, c.objective)?;
    println!(
        "{} at scale {} with seeds {:?}: objective {:.3} ({} games, {:.1} s)",
        c.world.name,
        c.scale,
        c.seeds,
        evaluation.objective,
        crate::report::thousands(evaluation.games),
        evaluation.seconds
    );
    print_figures(&evaluation);
    Ok(())
}

/// Each target's distance figures, one line each.
fn print_figures(evaluation: &Evaluation) {
    for d in &evaluation.distances {
        println!("  {}", figures_line(d));
    }
}

fn figures_line(d: &Distance) -> String {
    let (agree, compared) = d.signs();
    let (covered, numbered) = d.coverage();
    let worst = d
        .worst_share()
        .map(|w| format!("worst row ×{:.2}", w.factor()))
        .unwrap_or_default();
    format!(
        "{}: RMSE {} over {compared} cells · signs {agree}/{compared} · coverage {covered}/{numbered} · {worst} · cells {:.2} · shares {:.3}",
        d.table,
        d.rmse().map_or("–".into(), |r| format!("{r:.2}")),
        calibrate::cell_error(d).sqrt(),
        calibrate::share_error(d),
    )
}
