use std::path::PathBuf;

use super::{save_plot, write_output};
use crate::generate::world::gap::Against;
use crate::report::compare::{explain, AgainstReports, Comparison, List, ListSource, OverTime};
use crate::report::crosstable::Format;
use crate::report::truth::{drift_picture, BandBy, Drift, Truth};

/// Compare two rating lists, two runs over time, or runs with a generated world's truth.
///
/// A and B are each a run's list (RUN@YYYY-MM, or RUN for its last list) or a list file (canonical
/// CSV/Parquet with id and rating, or a FIDE list file in any layout). Players are joined by id;
/// differences are B − A: overall and per 100-point band of B, the mean and median difference,
/// RMSE, MAE, the shares within 0/±5/±10/±25 points and Spearman's rank correlation; players on one
/// list only, with the reason a run knows (never qualified, delisted below the floor, inactive);
/// the largest differences. With two runs, --over-time gives the monthly series and --explain ID
/// the first list where a player's ratings differ. With --truth, each run's January lists are
/// compared with a generated world's truth: the active players (a game in the window of 18 lists
/// before the list) with their equilibrium rating, the ratings a converged system on FIDE's curve
/// reaches from their games (or with their true strength: --against strength), the inactive ones
/// with their true strength; as `elosim sweep`'s truth-gap measure does (docs/sweep.md).
///
/// `compare RUN REPORTS` (tournament reports, TRF: a report or a directory of them) sets the run
/// against the ratings the reports carry, each player's on FIDE's list in force at the event: per
/// month a report falls on, A is the reports' ratings and B the run's list in force (its last list
/// not after the event's start), for the players the reports cover; then every (player, month)
/// together, ids written ID@YYYY-MM.
#[derive(clap::Args)]
pub struct Args {
    /// A and B, or a run and tournament reports (or, with --truth, one or more runs)
    #[arg(required = true)]
    sources: Vec<String>,
    /// A generated world's directory (or its truth.parquet): compare each run's January lists with
    /// the world's truth
    #[arg(long, value_name = "DIR")]
    truth: Option<PathBuf>,
    /// With --truth: set the active players against their equilibrium rating (the truth a rating
    /// system can reach, the world's equilibrium.parquet) or their true strength
    #[arg(long, value_enum, default_value_t = Against::Equilibrium)]
    against: Against,
    /// With --truth: band players by their truth or by published rating
    #[arg(long, value_enum, default_value_t = BandBy::Truth)]
    by: BandBy,
    /// With --truth: band width in rating points
    #[arg(long, default_value_t = 200)]
    width: i32,
    /// With --truth: bands with fewer players in a year are not drawn
    #[arg(long, default_value_t = 50)]
    min_players: u64,
    /// Two runs: the mean difference and RMSE on every month both have a list
    #[arg(long)]
    over_time: bool,
    /// Two runs: the first list where this player's ratings differ
    #[arg(long, value_name = "ID")]
    explain: Option<String>,
    /// How many of the largest differences to list
    #[arg(long, default_value_t = 10)]
    largest: usize,
    /// Output: text, md, csv or json
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the table to this file instead of the terminal
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Draw (.svg or .png): rating A against rating B; the series with --over-time; the deflation
    /// chart with --truth
    #[arg(long, value_name = "FILE", value_parser = super::picture_file)]
    plot: Option<PathBuf>,
    /// Draw the two lists' rating distributions (.svg or .png)
    #[arg(long, value_name = "FILE", value_parser = super::picture_file)]
    plot_distribution: Option<PathBuf>,
    /// Leave out list rows that cannot be read, and later entries of an id listed twice, counting them
    #[arg(long)]
    skip_invalid: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let format = args.format;
    if let Some(truth) = &args.truth {
        return with_truth(&args, truth, format);
    }
    let [a, b] = args.sources.as_slice() else {
        anyhow::bail!(
            "compare takes two lists A and B (RUN@YYYY-MM, RUN or a list file), or runs with --truth; got {}",
            args.sources.len()
        );
    };
    if crate::ingest::is_trf(std::path::Path::new(b)) {
        return against_reports(&args, a, b);
    }
    let (a, b) = (
        ListSource::parse(a).map_err(anyhow::Error::msg)?,
        ListSource::parse(b).map_err(anyhow::Error::msg)?,
    );
    if args.over_time || args.explain.is_some() {
        let (ListSource::Run(dir_a, _), ListSource::Run(dir_b, _)) = (&a, &b) else {
            anyhow::bail!("--over-time and --explain compare two run directories");
        };
        if let Some(id) = &args.explain {
            print!("{}", explain(dir_a, dir_b, id)?);
            return Ok(());
        }
        let series = OverTime::of(dir_a, dir_b)?;
        write_output(args.out.as_deref(), &series.render(format))?;
        if let Some(plot) = &args.plot {
            save_plot(&series.picture(), plot)?;
        }
        return Ok(());
    }
    let (a, b) = load_both(&a, &b, args.skip_invalid)?;
    for warning in warnings(&a, &b) {
        eprintln!("warning: {warning}");
    }
    let comparison = Comparison::of(&a, &b, args.largest)?;
    write_output(args.out.as_deref(), &comparison.render(format))?;
    if let Some(plot) = &args.plot {
        save_plot(&comparison.density_picture(), plot)?;
    }
    if let Some(plot) = &args.plot_distribution {
        save_plot(&comparison.distribution_picture(), plot)?;
    }
    Ok(())
}

/// A run's lists against the ratings tournament reports carry, month by month and together.
fn against_reports(args: &Args, run: &str, reports: &str) -> anyhow::Result<()> {
    let (run, reports) = (std::path::Path::new(run), std::path::Path::new(reports));
    let against = AgainstReports::of(run, reports, args.skip_invalid, args.largest)?;
    write_output(args.out.as_deref(), &against.render(args.format))?;
    Ok(())
}

/// Lists that may not be meant to be compared: months far apart, or different kinds of rating.
fn warnings(a: &List, b: &List) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(ma), Some(mb)) = (a.month, b.month) {
        if mb.since(ma).abs() > 12 {
            out.push(format!(
                "{} is of {ma} and {} of {mb}, more than a year apart",
                a.label, b.label
            ));
        }
    }
    let kind = |l: &List| {
        let name = l.label.to_ascii_lowercase();
        ["rapid", "blitz"]
            .into_iter()
            .find(|k| name.contains(k))
            .unwrap_or("standard")
    };
    if kind(a) != kind(b) {
        out.push(format!(
            "{} looks like a {} list and {} like a {} list",
            a.label,
            kind(a),
            b.label,
            kind(b)
        ));
    }
    out
}

fn with_truth(args: &Args, truth: &std::path::Path, format: Format) -> anyhow::Result<()> {
    if args.width <= 0 {
        anyhow::bail!("--width must be at least 1, got {}", args.width);
    }
    let by = args.by;
    let truth = Truth::read(truth, args.against)?;
    let drifts = args
        .sources
        .iter()
        .map(|run| {
            Drift::measure(
                std::path::Path::new(run),
                &truth,
                args.width,
                by,
                args.against,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let text = match format {
        Format::Json => {
            crate::output::pretty_json(&drifts.iter().map(Drift::json).collect::<Vec<_>>())
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
        save_plot(&drift_picture(&drifts, args.min_players), plot)?;
    }
    Ok(())
}

/// Both lists: two runs' side by side (a run's lists are read on one thread), anything else in
/// turn, so that what a file's reading says comes in the order of the arguments.
fn load_both(a: &ListSource, b: &ListSource, skip_invalid: bool) -> anyhow::Result<(List, List)> {
    if matches!((a, b), (ListSource::Run(..), ListSource::Run(..))) {
        let (a, b) = rayon::join(
            || List::load(a, skip_invalid),
            || List::load(b, skip_invalid),
        );
        return Ok((a?, b?));
    }
    Ok((List::load(a, skip_invalid)?, List::load(b, skip_invalid)?))
}
