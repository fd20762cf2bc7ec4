//! The command line: one file per subcommand, each its arguments and one call into the library.

mod bench;
mod calibrate;
mod check;
mod compare;
mod crosstable;
mod curve;
mod explain;
mod generate;
mod histogram;
mod ingest;
mod list;
mod progress;
mod replay;
mod report;
mod score;
mod sweep;

use anyhow::Context;
use std::path::{Path, PathBuf};

use clap::builder::PossibleValue;
use clap::{Parser, Subcommand, ValueEnum};

use crate::generate::world::gap::Against;
use crate::model::Month;
use crate::plot::Picture;
use crate::report::crosstable::{Below, Expectation, Format};
use crate::report::truth::BandBy;
use crate::systems::SystemKind;

/// The library's named choices as command-line values: their names are the values, and each
/// argument states its default once, as a choice (`default_value_t = Format::Text`).
macro_rules! value_enums {
    ($($name:ty),+) => {
        $(impl ValueEnum for $name {
            fn value_variants<'a>() -> &'a [Self] {
                <$name>::ALL
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(PossibleValue::new(self.name()))
            }
        })+
    };
}

value_enums!(Format, Expectation, Below, BandBy, SystemKind, Against);

#[derive(Parser)]
#[command(
    name = "elosim",
    version,
    about = "Replays reported chess games month by month under a chosen set of rating regulations",
    long_about = "Replays reported chess games month by month under a chosen set of rating regulations \
(FIDE's, era by era, or a what-if of your own in a TOML scenario) and writes the monthly rating lists \
they produce.\n\nStart with `elosim replay`: it replays the Kaggle 2010 games under FIDE's historical \
regulations into output/kaggle2010/. Then `elosim crosstable output/kaggle2010` prints Sonas's \
summary crosstable of the run, and `elosim report output/kaggle2010` writes an HTML report of it."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Replay(replay::Args),
    Check(check::Args),
    Crosstable(crosstable::Args),
    Curve(curve::Args),
    Histogram(histogram::Args),
    List(list::Args),
    Compare(compare::Args),
    Score(score::Args),
    Explain(explain::Args),
    Report(report::Args),
    Generate(generate::Args),
    Calibrate(calibrate::Args),
    Sweep(sweep::Args),
    Ingest(ingest::Args),
    Bench(bench::Args),
}

pub fn run() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Replay(args) => replay::run(args),
        Command::Check(args) => check::run(args),
        Command::Crosstable(args) => crosstable::run(args),
        Command::Curve(args) => curve::run(args),
        Command::Histogram(args) => histogram::run(args),
        Command::List(args) => list::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Score(args) => score::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Report(args) => report::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Sweep(args) => sweep::run(args),
        Command::Ingest(args) => ingest::run(args),
        Command::Bench(args) => bench::run(args),
    }
}

/// Parses `YYYY-MM` arguments.
fn month(text: &str) -> Result<Month, String> {
    Month::parse(text).ok_or_else(|| format!("expected a month YYYY-MM, got {text:?}"))
}

/// A window's first month: `YYYY-MM`, or `YYYY` for its January.
fn first_month(text: &str) -> Result<Month, String> {
    year_or_month(text, 1)
}

/// A window's last month: `YYYY-MM`, or `YYYY` for its December.
fn last_month(text: &str) -> Result<Month, String> {
    year_or_month(text, 12)
}

fn year_or_month(text: &str, month_of_year: u32) -> Result<Month, String> {
    Month::parse(text)
        .or_else(|| text.parse().ok().and_then(|y| Month::new(y, month_of_year)))
        .ok_or_else(|| format!("expected a month YYYY-MM or a year YYYY, got {text:?}"))
}

/// Parses a `--plot FILE`: refused at once when it could not be written (its extension names no
/// picture format, its directory does not exist), so that a command fails before it computes or
/// writes anything.
fn picture_file(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    Picture::check_path(&path).map_err(|e| e.to_string())?;
    Ok(path)
}

/// Prints a report, or writes it to `out` (complete or not at all) and says so.
fn write_output(out: Option<&Path>, text: &str) -> anyhow::Result<()> {
    write_described(out, text, "")
}

/// As `write_output`, the confirmation saying what the file holds.
fn write_described(out: Option<&Path>, text: &str, what: &str) -> anyhow::Result<()> {
    match out {
        Some(path) => {
            crate::output::write_file(path, text.as_bytes())?;
            confirm(path, what);
        }
        None => print!("{text}"),
    }
    Ok(())
}

/// The most `--threads` any command takes: more threads than cores only add switching (2,000
/// threads took 9.4 s to replay 12 games), so the limit is the machine's cores or 256 if more.
const MAX_THREADS: usize = 256;

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Parses `--threads`, the same for every command that has it: from 1 to the limit.
fn thread_count(text: &str) -> Result<usize, String> {
    let limit = MAX_THREADS.max(cores());
    match text.parse::<usize>() {
        Ok(n) if (1..=limit).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a number of worker threads from 1 to {} (this machine has {}; more threads than cores only slow the work down), got {text:?}",
            count(limit),
            crate::numbers::counted(cores() as u64, "core")
        )),
    }
}

/// Says that a file was written, as every command does for each file it writes: "wrote PATH" or
/// "wrote PATH: WHAT", on standard error (standard output may be the report itself).
fn confirm(path: &Path, what: &str) {
    if what.is_empty() {
        eprintln!("wrote {}", path.display());
    } else {
        eprintln!("wrote {}: {what}", path.display());
    }
}

/// Draws a picture to `path` and says so.
fn save_plot(picture: &Picture, path: &Path) -> anyhow::Result<()> {
    picture.save(path)?;
    confirm(path, "");
    Ok(())
}

/// Uses `threads` worker threads for the replay (rayon) and the file work (polars).
fn set_threads(threads: Option<usize>) -> anyhow::Result<usize> {
    let threads = threads.unwrap_or_else(cores);
    // polars reads this once, when it first starts its pool: nothing has touched polars yet here.
    std::env::set_var("POLARS_MAX_THREADS", threads.to_string());
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .with_context(|| format!("cannot start {} worker threads (--threads)", count(threads)))?;
    Ok(threads)
}

/// Thousands separated by commas, for people.
fn count(n: usize) -> String {
    crate::numbers::thousands(n as u64)
}

/// A window's first month must not come after its last: nothing could fall between them, and
/// calling the result an empty window would hide the slip.
fn window_in_order(from: Option<Month>, to: Option<Month>) -> anyhow::Result<()> {
    match (from, to) {
        (Some(from), Some(to)) if from > to => anyhow::bail!(
            "--from {from} is after --to {to}: no month lies between them; did you mean --from {to} --to {from}?"
        ),
        _ => Ok(()),
    }
}

/// The line that says what a replaced output directory kept: the files the command does not
/// write (a report, notes) stay, and still describe the output replaced.
fn kept_line(kept: &[String]) -> String {
    if kept.is_empty() {
        return String::new();
    }
    format!(
        "  kept     {} (not written by this command: from before, left as they were)\n",
        kept.join(", ")
    )
}
