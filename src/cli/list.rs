use std::path::PathBuf;

use super::{confirm, month, write_described};
use crate::model::Month;
use crate::report::crosstable::Format;
use crate::report::list::WholeList;

/// One list of a run, whole: every player on the list in force that month.
///
/// A run's lists.parquet holds the starting list whole, then only each list's changes (who played,
/// changed K or status, entered or left), so that a list costs what changed on it. This prints or
/// writes the whole list of a month, with lists.parquet's columns: every player's row in force,
/// those without a row of their own that month with no games and a change of 0.
#[derive(clap::Args)]
pub struct Args {
    /// The run directory (`elosim replay --out DIR`)
    run: PathBuf,
    /// The list's month, YYYY-MM; default: the run's last list
    #[arg(long, value_parser = month)]
    month: Option<Month>,
    /// Only the N highest rated, in rating order (equal ratings in id order)
    #[arg(long, value_name = "N")]
    top: Option<usize>,
    /// Output: text, md, csv or json
    #[arg(long, value_enum, default_value_t = Format::Text, conflicts_with = "csv")]
    format: Format,
    /// CSV, the same as --format csv
    #[arg(long)]
    csv: bool,
    /// Write the list to this file instead of the terminal
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write the list as Parquet to this file, with lists.parquet's columns
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "format", "csv"])]
    parquet: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut list = WholeList::read(&args.run, args.month)?;
    if let Some(n) = args.top {
        list.top(n);
    }
    let what = format!(
        "the {} list of {}, {} players",
        list.month,
        list.run,
        super::count(list.rows.len())
    );
    if let Some(path) = &args.parquet {
        list.write_parquet(path)?;
        confirm(path, &what);
        return Ok(());
    }
    let format = if args.csv { Format::Csv } else { args.format };
    write_described(args.out.as_deref(), &list.render(format), &what)
}
