use std::path::PathBuf;

use anyhow::Context;

use crate::ingest::{read_inputs, Dates, InputFiles};
use crate::numbers::counted;
use crate::scenario::GameFormat;

/// Convert a games file (PGN, tournament reports, Kaggle, contest or canonical CSV; plain, .gz, .zst or a .zip of one file) into canonical games.
///
/// Writes the canonical games columns (README, "Your own data"): date (or period), event, event_start, white, black, score and, when
/// the source records them, event_type (a PGN's EventType tag) and white_rating and black_rating. Players are WhiteFideId/BlackFideId
/// where a PGN game gives them, else the names. Unfinished games (*) are left out and counted;
/// games without ratings are kept (a replay rates them) and counted.
#[derive(clap::Args)]
pub struct Args {
    /// The games file to convert
    source: PathBuf,
    /// The canonical file to write: .parquet or .csv (other extensions are refused)
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Leave out games that cannot be read (missing players, result or month), counting them
    #[arg(long)]
    skip_invalid: bool,
}

/// The extensions `--out` may have: the formats `write_canonical_games` writes.
const OUT_FORMATS: [&str; 2] = ["parquet", "csv"];

pub fn run(args: Args) -> anyhow::Result<()> {
    let known = args
        .out
        .extension()
        .and_then(|e| e.to_str())
        .filter(|e| OUT_FORMATS.iter().any(|f| f.eq_ignore_ascii_case(e)));
    if known.is_none() {
        anyhow::bail!(
            "--out {}: ingest writes canonical games as .parquet or .csv; give the file one of these extensions",
            args.out.display()
        );
    }
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
        "{}: {} ({}), {} → {}",
        args.source.display(),
        counted(report.games_read as u64, "game"),
        report.format.name(),
        counted(report.players as u64, "player"),
        args.out.display()
    );
    if let Some(pgn) = report.pgn {
        eprintln!("  {}", pgn.describe());
    }
    if let Some(trf) = report.trf {
        eprintln!("  {}", trf.describe());
    }
    for (reason, (n, first)) in &report.skipped {
        eprintln!(
            "  {} left out: {reason} (first at {first})",
            counted(*n as u64, "invalid game")
        );
    }
    Ok(())
}
