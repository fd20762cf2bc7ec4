use std::path::PathBuf;

use anyhow::Context;

use super::{save_plot, write_output};
use crate::report::crosstable::{Expectation, Format};
use crate::report::curve::{series, Bins, Curve, Era};
use crate::report::game_source::read_games_with_ratings;

/// The expectation curve: the rating favourite's mean score against its rating advantage.
///
/// One series per era (--eras 2008-2012,2013-2016,…) or per source (several SOURCEs), drawn
/// against the theoretical curve in black (FIDE's table; the 400-point rule dashed). Each SOURCE is
/// a run directory, a PGN file, tournament reports (TRF, a report or a directory of them) or a
/// games file with white_rating and black_rating. For Sonas's
/// close-up of the 400-point rule use --min 350 --max 900.
#[derive(clap::Args)]
pub struct Args {
    /// Run directories, PGN files, tournament reports (TRF) or games files with recorded ratings
    #[arg(required = true)]
    sources: Vec<PathBuf>,
    /// Eras, one series each: YYYY-YYYY, YYYY or YYYY-MM..YYYY-MM, comma-separated, not overlapping
    #[arg(long)]
    eras: Option<String>,
    /// Bin width in rating points
    #[arg(long, default_value_t = 25)]
    width: i32,
    /// Smallest advantage shown
    #[arg(long, default_value_t = 0)]
    min: i32,
    /// Largest advantage shown
    #[arg(long, default_value_t = 800)]
    max: i32,
    /// Bins with fewer games are not drawn (and are flagged in the table)
    #[arg(long, default_value_t = 50)]
    min_games: u64,
    /// Theoretical curve and expected scores: FIDE's table, or the logistic curve
    #[arg(long, value_enum, default_value_t = Expectation::Fide)]
    expected: Expectation,
    /// Output: text, md, csv or json
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the table to this file instead of the terminal
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Draw the curve (.svg or .png)
    #[arg(long, value_name = "FILE", value_parser = super::picture_file)]
    plot: Option<PathBuf>,
    /// A title instead of the default
    #[arg(long)]
    title: Option<String>,
    /// Skip games a PGN or games file cannot give (missing players, results or dates), counting them
    #[arg(long)]
    skip_invalid: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let bins = Bins {
        width: args.width,
        min: args.min,
        max: args.max,
    };
    bins.validate().map_err(anyhow::Error::msg)?;
    let eras = match &args.eras {
        Some(text) => Era::parse_list(text, "--eras").map_err(anyhow::Error::msg)?,
        None => Vec::new(),
    };
    let expectation = args.expected;
    let format = args.format;
    let mut all = Vec::new();
    let mut labels = Vec::new();
    for source in &args.sources {
        let games = read_games_with_ratings(source, false, args.skip_invalid)
            .with_context(|| format!("reading games from {}", source.display()))?;
        for note in games.source_notes() {
            eprintln!("{note}");
        }
        labels.push(games.label.clone());
        let several = args.sources.len() > 1;
        if eras.is_empty() {
            all.push(series(&games, games.label.clone(), None, bins, expectation));
        }
        for era in &eras {
            let name = if several {
                format!("{} {era}", games.label)
            } else {
                era.to_string()
            };
            all.push(series(&games, name, Some(*era), bins, expectation));
        }
    }
    for s in &all {
        if s.points.iter().all(|p| p.games == 0) {
            anyhow::bail!(
                "{}: no games with a rating advantage from {} to {}; check --eras, --min and --max",
                s.name,
                args.min,
                args.max
            );
        }
    }
    let curve = Curve {
        bins,
        expectation,
        min_games: args.min_games,
        series: all,
        dated: !eras.is_empty(),
        sources: args.sources.len(),
    };
    let title = args
        .title
        .clone()
        .unwrap_or_else(|| format!("{}: expectation curve", labels.join(" vs ")));
    write_output(args.out.as_deref(), &curve.render(format, &title))?;
    if let Some(plot) = &args.plot {
        save_plot(&curve.picture(&title), plot)?;
    }
    Ok(())
}
