use std::path::{Path, PathBuf};

use anyhow::Context;

use super::{first_month, last_month, save_plot, write_output};
use crate::model::Month;
use crate::numbers::{counted, thousands};
use crate::report::crosstable::{
    choose, difference_text, read_published, Against, Below, Crosstable, CrosstableJson,
    Difference, Distance, Expectation, Format, Grouping, Selection, Thresholds,
};
use crate::report::game_source::{read_games_with_ratings, GamesWithRatings};

/// Sonas's summary crosstable: rating group against rating group, actual minus expected score.
///
/// SOURCE is a run directory (the ratings the run used), a PGN file (WhiteElo/BlackElo; .pgn or
/// .pgn.gz), tournament reports (TRF, a report or a directory of them: the ratings the reports
/// carry) or a games file (CSV or Parquet) with white_rating and black_rating columns. Each cell
/// is the row group's mean score minus its expected score, in percentage points, summed game by
/// game; the row label is the row group against all other groups ("+4.5% in 6,865 games"). Blue
/// (+): the row group outperformed; red (−): underperformed.
#[derive(clap::Args)]
pub struct Args {
    /// Run directory, PGN file, tournament reports (TRF) or games file with recorded ratings
    source: PathBuf,
    /// First month of games (YYYY-MM, or YYYY for January)
    #[arg(long, value_name = "MONTH", value_parser = first_month)]
    from: Option<Month>,
    /// Last month of games (YYYY-MM, or YYYY for December)
    #[arg(long, value_name = "MONTH", value_parser = last_month)]
    to: Option<Month>,
    /// Group size in rating points
    #[arg(long, default_value_t = 100)]
    width: i32,
    /// Lower bound of the lowest group
    #[arg(long, default_value_t = 1000)]
    lowest: i32,
    /// Ratings from here up form one group (Sonas: 2500+)
    #[arg(long, default_value_t = 2500)]
    top: i32,
    /// Games with a player below --lowest: drop them, or keep them as one group
    #[arg(long, value_enum, default_value_t = Below::Drop)]
    below: Below,
    /// Cells with fewer games print "=0%" (and are flagged in CSV/JSON)
    #[arg(long, default_value_t = 100)]
    min_games: u64,
    /// Expected score: FIDE's table with the 400-point rule, or the logistic curve
    #[arg(long, value_enum, default_value_t = Expectation::Fide)]
    expected: Expectation,
    /// Only games in which both players had at least N earlier rated games (leaves out new and
    /// provisional players; counted from the source, plus a run's starting list)
    #[arg(long, value_name = "N")]
    established: Option<u32>,
    /// Output: text (Sonas's layout), md, csv (one row per cell) or json
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the table to this file instead of the terminal
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Draw the table as a heatmap (.svg or .png); with --vs the second table goes beside it with -vs added to the name (table.png: table-vs.png)
    #[arg(long, value_name = "FILE", value_parser = super::picture_file)]
    plot: Option<PathBuf>,
    /// A second crosstable to set beside the first: another source, or the same with --vs-from/--vs-to;
    /// their difference is the second minus the first (B − A, as compare subtracts)
    #[arg(long, value_name = "SOURCE")]
    vs: Option<PathBuf>,
    /// The second table's first month (default: --from)
    #[arg(long, value_name = "MONTH", value_parser = first_month)]
    vs_from: Option<Month>,
    /// The second table's last month (default: --to)
    #[arg(long, value_name = "MONTH", value_parser = last_month)]
    vs_to: Option<Month>,
    /// Set the table against a published crosstable of real games (data/published/sonas-crosstables.csv):
    /// the groups and the window (from a table named by its years) are the published table's;
    /// prints both tables, their difference cell by cell and the distance figures (RMSE, sign
    /// agreement, coverage, each row's share of the games); --plot draws the three side by side
    #[arg(long, value_name = "FILE", conflicts_with = "vs")]
    against: Option<PathBuf>,
    /// With --against: the published table, when the file holds several (2008-2012, 2021-2023)
    #[arg(long, value_name = "NAME", requires = "against")]
    table: Option<String>,
    /// With --against: the run's size against FIDE's (a world generated with `--scale S`). Each
    /// row's games are divided by it before they are set against the published row's, and the
    /// two thresholds below default to 500 × S and 100 × S games
    #[arg(long, value_name = "S", requires = "against", default_value_t = 1.0, value_parser = positive_scale, allow_negative_numbers = true)]
    scale: f64,
    /// With --against: cells with at least N games in the run count towards the RMSE and the sign
    /// agreement [default: 500 × --scale]
    #[arg(long, value_name = "N")]
    compared_games: Option<u64>,
    /// With --against: a published cell is covered when the run has at least N games in it
    /// [default: 100 × --scale]
    #[arg(long, value_name = "N")]
    covered_games: Option<u64>,
    /// A title instead of the source's name and window
    #[arg(long)]
    title: Option<String>,
    /// Skip games a PGN or games file cannot give (missing players, results or dates), counting them
    #[arg(long)]
    skip_invalid: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    super::window_in_order(args.from, args.to)?;
    super::window_in_order(args.vs_from.or(args.from), args.vs_to.or(args.to))?;
    if let Some(file) = &args.against {
        return run_against(&args, file);
    }
    let grouping = Grouping {
        width: args.width,
        lowest: args.lowest,
        top: args.top,
        below: args.below,
    };
    grouping.validate().map_err(anyhow::Error::msg)?;
    let expectation = args.expected;
    let format = args.format;
    let table = |source: &Path, from, to| -> anyhow::Result<(Crosstable, String)> {
        let games = load(source, &args)?;
        let selection = Selection {
            from,
            to,
            established: args.established,
        };
        let table = Crosstable::build(&games, grouping, expectation, args.min_games, selection);
        if table.counts.used == 0 {
            anyhow::bail!(
                "{}: no games to tabulate ({}: {} outside it, {} below --lowest {}, {} without ratings); widen --from/--to or lower --lowest",
                source.display(),
                table.window_text(),
                counted(table.counts.outside_window, "game"),
                thousands(table.counts.below_lowest),
                grouping.lowest,
                thousands(table.counts.without_ratings)
            );
        }
        let title = args.title.clone().unwrap_or_else(|| {
            format!(
                "{}: summary crosstable, {}",
                games.label,
                table.window_text()
            )
        });
        Ok((table, title))
    };
    let (first, first_title) = table(&args.source, args.from, args.to)?;
    let second = match &args.vs {
        Some(other) => Some(table(
            other,
            args.vs_from.or(args.from),
            args.vs_to.or(args.to),
        )?),
        None => None,
    };
    let mut text = first.render(format, &first_title);
    if let Some((second, second_title)) = &second {
        text = match format {
            Format::Json => crate::output::pretty_json(&Both {
                first: first.json(&first_title),
                second: second.json(second_title),
            }),
            Format::Csv => {
                let tagged = |t: &Crosstable, tag: &str| {
                    t.render(Format::Csv, "")
                        .lines()
                        .enumerate()
                        .map(|(i, l)| {
                            if i == 0 {
                                format!("table,{l}\n")
                            } else {
                                format!("{tag},{l}\n")
                            }
                        })
                        .collect::<String>()
                };
                let second_rows: String = tagged(second, "second")
                    .lines()
                    .skip(1)
                    .map(|l| format!("{l}\n"))
                    .collect();
                tagged(&first, "first") + &second_rows
            }
            Format::Text | Format::Md => format!(
                "{text}\n{}\n{}",
                second.render(format, second_title),
                difference_text(
                    &Difference {
                        first: &first,
                        second,
                    },
                    "Difference: the second table minus the first (B − A)"
                )
            ),
        };
    }
    write_output(args.out.as_deref(), &text)?;
    if let Some(plot) = &args.plot {
        save_plot(&first.picture(&first_title), plot)?;
        if let Some((second, second_title)) = &second {
            save_plot(&second.picture(second_title), &vs_path(plot))?;
        }
    }
    Ok(())
}

/// The run's table beside a published one.
fn run_against(args: &Args, file: &Path) -> anyhow::Result<()> {
    let format = args.format;
    if args.expected != Expectation::Fide {
        anyhow::bail!("--against compares with tables made with FIDE's expected scores; leave --expected at fide");
    }
    let tables = read_published(file)?;
    let published = choose(tables, args.table.as_deref(), &file.display().to_string())?;
    let window = published.window();
    let (from, to) = (
        args.from.or(window.map(|w| w.0)),
        args.to.or(window.map(|w| w.1)),
    );
    if from.is_none() || to.is_none() {
        anyhow::bail!(
            "the published table {:?} is not named by its years (such as 2008-2012); give its window with --from and --to",
            published.name
        );
    }
    let games = load(&args.source, args)?;
    let selection = Selection {
        from,
        to,
        established: args.established,
    };
    let thresholds = against_thresholds(args);
    let run = Crosstable::build(
        &games,
        published.grouping,
        Expectation::Fide,
        thresholds.covered,
        selection,
    );
    if run.counts.used == 0 {
        anyhow::bail!(
            "{}: no games to tabulate ({}, groups from {}: {} outside the window, {} below {})",
            args.source.display(),
            run.window_text(),
            published.labels[0],
            counted(run.counts.outside_window, "game"),
            thousands(run.counts.below_lowest),
            published.grouping.lowest
        );
    }
    let distance = Distance::between(&run, &published, thresholds);
    let against = Against {
        published: &published,
        run: &run,
        distance: &distance,
        label: args.title.clone().unwrap_or_else(|| games.label.clone()),
    };
    write_output(args.out.as_deref(), &against.render(format))?;
    if let Some(plot) = &args.plot {
        save_plot(&against.picture(), plot)?;
    }
    Ok(())
}

/// FIDE's thresholds scaled to the run's size, unless given.
fn against_thresholds(args: &Args) -> Thresholds {
    let scaled = Thresholds::FIDE.scaled(args.scale);
    Thresholds {
        compared: args.compared_games.unwrap_or(scaled.compared),
        covered: args.covered_games.unwrap_or(scaled.covered),
        ..scaled
    }
}

/// A run's size against FIDE's: a finite number above 0.
fn positive_scale(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!(
            "expected a number above 0 (0.1 for a world generated with --scale 0.1), got {text:?}"
        )),
    }
}

fn load(source: &Path, args: &Args) -> anyhow::Result<GamesWithRatings> {
    let games = read_games_with_ratings(source, args.established.is_some(), args.skip_invalid)
        .with_context(|| format!("reading games from {}", source.display()))?;
    for note in games.source_notes() {
        eprintln!("{note}");
    }
    Ok(games)
}

/// `table.svg` → `table-vs.svg`.
fn vs_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{stem}-vs.{extension}"))
}

/// Two tables side by side, as `--vs … --format json` writes them.
#[derive(serde::Serialize)]
struct Both<'a> {
    first: CrosstableJson<'a>,
    second: CrosstableJson<'a>,
}
