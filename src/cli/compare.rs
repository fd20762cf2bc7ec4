use std::path::PathBuf;

use super::write_output;
use crate::report::crosstable::Format;
use crate::report::truth::{drift_picture, BandBy, Drift, Truth};

/// Compare runs with the true strengths of a generated world (`elosim generate`).
///
/// For each run and each January list: the mean published rating minus the player's true strength
/// that month, over all players and per band of true strength (--width points). Negative means
/// deflation. --plot draws the deflation chart: one line per band over the years, the whole list in
/// black, a second run dashed.
#[derive(clap::Args)]
pub struct Args {
    /// Run directories (replays of the generated world)
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// The world's truth.parquet
    #[arg(long, value_name = "FILE", required = true)]
    truth: PathBuf,
    /// Band width in rating points of true strength
    #[arg(long, default_value_t = 200)]
    width: i32,
    /// Band players by their true strength, or by their published rating (as crosstables do)
    #[arg(long, default_value = "strength", value_parser = BandBy::NAMES.to_vec())]
    by: String,
    /// Bands with fewer players in a year are not drawn
    #[arg(long, default_value_t = 50)]
    min_players: u64,
    /// Output: text, md, csv or json
    #[arg(long, default_value = "text", value_parser = Format::NAMES.to_vec())]
    format: String,
    /// Write the table to this file instead of the terminal
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Draw the deflation chart (.svg or .png)
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.width <= 0 {
        anyhow::bail!("--width must be at least 1, got {}", args.width);
    }
    let format = Format::parse(&args.format).unwrap_or(Format::Text);
    let by = BandBy::parse(&args.by).unwrap_or(BandBy::Strength);
    let truth = Truth::read(&args.truth)?;
    let drifts = args
        .runs
        .iter()
        .map(|run| Drift::measure(run, &truth, args.width, by))
        .collect::<Result<Vec<_>, _>>()?;
    let text = match format {
        Format::Json => {
            let all: Vec<serde_json::Value> = drifts.iter().map(Drift::json).collect();
            format!("{}\n", serde_json::to_string_pretty(&all)?)
        }
        Format::Csv => {
            let mut out = String::new();
            for (i, d) in drifts.iter().enumerate() {
                let csv = d.render(Format::Csv);
                out.extend(
                    csv.lines()
                        .skip(usize::from(i > 0))
                        .map(|l| format!("{l}\n")),
                );
            }
            out
        }
        Format::Text | Format::Md => drifts
            .iter()
            .map(|d| d.render(format))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    write_output(args.out.as_deref(), &text)?;
    if let Some(plot) = &args.plot {
        drift_picture(&drifts, args.min_players).save(plot)?;
    }
    Ok(())
}
