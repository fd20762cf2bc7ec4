use std::path::PathBuf;

use crate::report::crosstable::{Below, Grouping};
use crate::report::curve::Era;
use crate::report::html::{html_report, ReportOptions};

/// One self-contained HTML report of a run: scenario, crosstables, curve, histograms, monthly summary.
///
/// The file needs no network, scripts or fonts: open it in any browser. With --vs a second run (B)
/// is set beside the first (A): crosstables one above the other with their difference B − A, as
/// compare subtracts; both runs' curves and histograms. Given a
/// finished study's directory (elosim sweep), writes the study's report: ranking, Pareto front,
/// pictures, verification.
#[derive(clap::Args)]
pub struct Args {
    /// A run directory (output/<scenario>), or a study's (output/<study>)
    run: PathBuf,
    /// A second run directory to compare with
    #[arg(long, value_name = "RUN_DIR")]
    vs: Option<PathBuf>,
    /// The HTML file to write [default: RUN/report.html]
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Crosstable windows and curve eras: YYYY-YYYY, YYYY or YYYY-MM..YYYY-MM, comma-separated;
    /// default: the run's years in up to three parts
    #[arg(long)]
    windows: Option<String>,
    /// Crosstable group size in rating points
    #[arg(long, default_value_t = 100)]
    width: i32,
    /// Lower bound of the lowest crosstable group (games with a player below it are left out)
    #[arg(long, default_value_t = 1000)]
    lowest: i32,
    /// Ratings from here up form one group
    #[arg(long, default_value_t = 2500)]
    top: i32,
    /// Crosstable cells with fewer games print "=0%"
    #[arg(long, default_value_t = 100)]
    min_games: u64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if crate::output::OutputKind::of(&args.run) == Some(crate::output::OutputKind::Study) {
        if args.vs.is_some() {
            anyhow::bail!(
                "--vs sets a run beside a run; {} is a study",
                args.run.display()
            );
        }
        let path = super::sweep::report(&args.run, args.out.as_deref())?;
        eprintln!("wrote {}", path.display());
        return Ok(());
    }
    let grouping = Grouping {
        width: args.width,
        lowest: args.lowest,
        top: args.top,
        below: Below::Drop,
    };
    grouping.validate().map_err(anyhow::Error::msg)?;
    let windows = match &args.windows {
        Some(text) => Era::parse_list(text, "--windows").map_err(anyhow::Error::msg)?,
        None => Vec::new(),
    };
    let options = ReportOptions {
        windows,
        grouping,
        min_games: args.min_games,
    };
    let html = html_report(&args.run, args.vs.as_deref(), &options)?;
    let out = args.out.unwrap_or_else(|| args.run.join("report.html"));
    crate::output::write_file(&out, html.as_bytes())?;
    eprintln!("wrote {}", out.display());
    Ok(())
}
