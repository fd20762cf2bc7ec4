use std::path::PathBuf;

use super::{first_month, last_month, save_plot, write_output};
use crate::model::Month;
use crate::numbers::counted;
use crate::report::crosstable::{Format, Selection};
use crate::report::score::{calibration_picture, render, Score, ScoredGames};

/// How well runs' ratings predicted the games of a window, several runs side by side.
///
/// Each game is scored with the expected score the run used for it (games.parquet), from the lists
/// in force when it was played, never later ones: binomial deviance (100 = a coin flip; lower is
/// better), log loss (mean of −[s·ln p + (1 − s)·ln(1 − p)], p clipped to [0.001, 0.999]), the 2010
/// Kaggle contest's RMSE (per player and month, predicted against actual total score) and a
/// calibration table.
#[derive(clap::Args)]
pub struct Args {
    /// Run directories
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// First rating period scored (YYYY-MM, or YYYY for January)
    #[arg(long, value_name = "MONTH", value_parser = first_month)]
    from: Option<Month>,
    /// Last rating period scored (YYYY-MM, or YYYY for December)
    #[arg(long, value_name = "MONTH", value_parser = last_month)]
    to: Option<Month>,
    /// Output: text, md, csv or json
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the table to this file instead of the terminal
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Draw the calibration (.svg or .png)
    #[arg(long, value_name = "FILE", value_parser = super::picture_file)]
    plot: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    super::window_in_order(args.from, args.to)?;
    let window = Selection {
        from: args.from,
        to: args.to,
        established: None,
    };
    let mut scores = Vec::new();
    for dir in &args.runs {
        let games = ScoredGames::read(dir)?;
        if games.expected.iter().all(Option::is_none) {
            let held = if games.month.is_empty() {
                "the run rated no game and counted none towards a first rating".to_string()
            } else {
                format!(
                    "its {} only counted towards first ratings",
                    counted(games.month.len() as u64, "game")
                )
            };
            anyhow::bail!(
                "{}: nothing to score, {held}: no player was ever rated when playing (under FIDE's rules players on no starting list need rated opponents to earn a first rating; give a starting list, or seed them with [bootstrap] unknown-players = \"seed\")",
                dir.display()
            );
        }
        let score = Score::of(&games, &window);
        if score.games == 0 {
            anyhow::bail!(
                "{}: no scored game in the window (rating periods {} to {}); check --from/--to",
                dir.display(),
                args.from.map_or("the first".into(), |m| m.to_string()),
                args.to.map_or("the last".into(), |m| m.to_string())
            );
        }
        scores.push(score);
    }
    let described = match (args.from, args.to) {
        (Some(f), Some(t)) => format!("{f} to {t}"),
        (Some(f), None) => format!("{f} on"),
        (None, Some(t)) => format!("up to {t}"),
        (None, None) => "every rating period".to_string(),
    };
    let format = args.format;
    write_output(args.out.as_deref(), &render(&scores, format, &described))?;
    if let Some(plot) = &args.plot {
        save_plot(&calibration_picture(&scores), plot)?;
    }
    Ok(())
}
