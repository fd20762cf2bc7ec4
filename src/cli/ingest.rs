use std::path::PathBuf;

use anyhow::Context;

use super::count;
use crate::ingest::{read_inputs, Dates, InputFiles};
use crate::scenario::GameFormat;

/// Convert a games file (PGN, plain or .gz; Kaggle; contest; canonical) into canonical games.
///
/// Writes design.md's columns: date (or period), event, event_start, white, black, score and, when
/// the source records them, event_type (a PGN's EventType tag) and white_rating and black_rating. Players are WhiteFideId/BlackFideId
/// where a PGN game gives them, else the names. Unfinished games (*) are left out and counted;
/// games without ratings are kept (a replay rates them) and counted.
#[derive(clap::Args)]
pub struct Args {
    /// The games file to convert
    source: PathBuf,
    /// The canonical file to write: .parquet, or .csv
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Leave out games that cannot be read (missing players, result or month), counting them
    #[arg(long)]
    skip_invalid: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let files = InputFiles {
        games: args.source.clone(),
        format: GameFormat::Auto,
        month_1: None,
        start_list: None,
        players: None,
        pgn_dates: Dates::NeedMonth,
    };
    let (inputs, report) = read_inputs(&files, args.skip_invalid)
        .with_context(|| format!("reading {}", args.source.display()))?;
    if inputs.games.is_empty() {
        anyhow::bail!("{}: no games to write", args.source.display());
    }
    crate::output::write_canonical_games(&args.out, &inputs.games, &inputs.players)?;
    eprintln!(
        "{}: {} games ({}), {} players → {}",
        args.source.display(),
        count(report.games_read),
        report.format.name(),
        count(report.players),
        args.out.display()
    );
    if let Some(pgn) = report.pgn {
        eprintln!("  {}", pgn.describe());
    }
    for (reason, (n, first)) in &report.skipped {
        eprintln!(
            "  {} invalid games left out: {reason} (first at {first})",
            count(*n)
        );
    }
    Ok(())
}
