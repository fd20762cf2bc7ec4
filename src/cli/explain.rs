use std::path::PathBuf;

use super::month;
use crate::model::Month;

/// Show one player's calculation for one list, game by game, as FIDE prints it.
///
/// Reads a run directory written by `elosim replay`: opponent, opponent's rating (* where the
/// 350/400-point rule applied), D, PD, score, K and change for each game, then the period's total,
/// its rounding and the new rating. For a first rating, the pooled games and the formula.
#[derive(clap::Args)]
pub struct Args {
    /// A run directory (output/<scenario>)
    run: PathBuf,
    /// The player's id
    #[arg(long)]
    player: String,
    /// The list whose calculation to show: one of the run's lists (the starting list, read rather
    /// than computed, shows the player's rating on it)
    #[arg(long, value_name = "YYYY-MM", value_parser = month)]
    period: Month,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    print!(
        "{}",
        crate::report::explain::explain(&args.run, &args.player, args.period)?
    );
    Ok(())
}
