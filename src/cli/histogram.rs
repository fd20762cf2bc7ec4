use std::path::{Path, PathBuf};

use super::{month, save_plot, write_output};
use crate::model::Month;
use crate::report::crosstable::Format;
use crate::report::histogram::{list_files, run_lists, Histogram, Months};

/// Rating histograms: players per rating bin on chosen lists, one curve per list.
///
/// SOURCES is one run directory (its lists.parquet) or one or more rating list files: FIDE's TXT
/// lists in any of their layouts, or canonical lists (id, rating) named YYYY-MM.csv. Curves go from
/// blue (earliest) to red (latest). --pair draws two of a run's lists as bars, e.g. the months
/// before and after a compression.
#[derive(clap::Args)]
pub struct Args {
    /// A run directory, or rating list files
    #[arg(required = true)]
    sources: Vec<PathBuf>,
    /// The run's lists to show (YYYY-MM, comma-separated); default: every January list
    #[arg(long, value_delimiter = ',', value_parser = month)]
    months: Vec<Month>,
    /// Every January list of the run (the default)
    #[arg(long, conflicts_with_all = ["months", "pair"])]
    januaries: bool,
    /// Two of the run's lists drawn as bars side by side: before,after, the earlier first
    #[arg(long, value_delimiter = ',', value_parser = month, num_args = 1, conflicts_with = "months")]
    pair: Vec<Month>,
    /// Bin width in rating points
    #[arg(long, default_value_t = 25)]
    width: i32,
    /// Output: text, md, csv or json
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the table to this file instead of the terminal
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Draw the histogram (.svg or .png)
    #[arg(long, value_name = "FILE", value_parser = super::picture_file)]
    plot: Option<PathBuf>,
    /// A title instead of the default
    #[arg(long)]
    title: Option<String>,
    /// Leave out list rows that cannot be read, counting them
    #[arg(long)]
    skip_invalid: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.width <= 0 {
        anyhow::bail!("--width must be at least 1, got {}", args.width);
    }
    check_pair(&args.pair)?;
    let run_dir = args.sources.len() == 1 && args.sources[0].is_dir();
    let lists = if run_dir {
        let months = match (&args.pair, &args.months) {
            (pair, _) if !pair.is_empty() => Months::Chosen(pair.clone()),
            (_, months) if !months.is_empty() => Months::Chosen(months.clone()),
            _ => Months::Januaries,
        };
        run_lists(&args.sources[0], &months)?
    } else {
        for (flag, given) in [("--months", &args.months), ("--pair", &args.pair)] {
            if !given.is_empty() {
                anyhow::bail!(
                    "{flag} chooses among a run's lists; with list files, give the files you want"
                );
            }
        }
        let paths: Vec<&Path> = args.sources.iter().map(PathBuf::as_path).collect();
        list_files(&paths, args.skip_invalid)?
    };
    if lists.is_empty() {
        anyhow::bail!(
            "{}: no lists to draw (a run without January lists needs --months)",
            args.sources[0].display()
        );
    }
    let histogram = Histogram::build(&lists, args.width);
    let title = args.title.clone().unwrap_or_else(|| {
        let label = if run_dir {
            args.sources[0]
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        } else {
            "rating lists".to_string()
        };
        format!("{label}: players per {}-point rating bin", args.width)
    });
    let format = args.format;
    write_output(args.out.as_deref(), &histogram.render(format, &title))?;
    if let Some(plot) = &args.plot {
        let picture = if args.pair.is_empty() {
            histogram.picture(&title)
        } else {
            histogram.bars(&title)
        };
        save_plot(&picture, plot)?;
    }
    Ok(())
}

/// `--pair` draws a list before and a list after (a compression, a new rule): two months, the
/// earlier first.
fn check_pair(pair: &[Month]) -> anyhow::Result<()> {
    match pair {
        [] => Ok(()),
        [before, after] if before == after => anyhow::bail!(
            "--pair {before},{after}: the same list twice; give two lists to set side by side, the one before and the one after"
        ),
        [before, after] if before > after => anyhow::bail!(
            "--pair {before},{after}: the list before comes first; give --pair {after},{before}"
        ),
        [_, _] => Ok(()),
        _ => anyhow::bail!(
            "--pair takes two months (before,after), got {}",
            pair.len()
        ),
    }
}
