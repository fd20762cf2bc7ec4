//! The report tables on a run just written, each from reading the run's Parquet to the finished
//! table.

use std::fmt;
use std::path::Path;

use super::{BenchError, Times};
use crate::numbers::thousands;
use crate::report::crosstable::{Below, Crosstable, Expectation, Grouping, Selection};
use crate::report::curve::{series, Bins, Era};
use crate::report::game_source::read_games_with_ratings;
use crate::report::histogram::{run_lists, Histogram, Months};
use crate::report::ReportError;

/// A report table timed on a run.
#[derive(Clone, Copy, Debug)]
pub enum ReportTable {
    Crosstable,
    Curve,
    Histogram,
}

impl ReportTable {
    pub const ALL: [ReportTable; 3] = [
        ReportTable::Crosstable,
        ReportTable::Curve,
        ReportTable::Histogram,
    ];

    /// What the table is, and what it reads.
    fn name(self) -> &'static str {
        match self {
            ReportTable::Crosstable => "Crosstable (read games.parquet, tabulate)",
            ReportTable::Curve => "Expectation curve (read games.parquet, 3 eras)",
            ReportTable::Histogram => "Histogram (read lists.parquet, every January)",
        }
    }

    /// Reads the run and builds the table: the rows it counted.
    fn build(self, run: &Path) -> Result<u64, ReportError> {
        match self {
            ReportTable::Crosstable => crosstable_games(run),
            ReportTable::Curve => curve_games(run),
            ReportTable::Histogram => histogram_players(run),
        }
    }
}

/// Sonas's crosstable of every game, 100-point groups from 1000 to 2500: the games it used.
fn crosstable_games(run: &Path) -> Result<u64, ReportError> {
    let grouping = Grouping {
        width: 100,
        lowest: 1000,
        top: 2500,
        below: Below::Drop,
    };
    let games = read_games_with_ratings(run, false, false)?;
    let table = Crosstable::build(&games, grouping, Expectation::Fide, 100, Selection::all());
    Ok(table.counts.used)
}

/// The expectation curve of each third of the run, in 25-point bins to 800: the games binned.
fn curve_games(run: &Path) -> Result<u64, ReportError> {
    let bins = Bins {
        width: 25,
        min: 0,
        max: 800,
    };
    let games = read_games_with_ratings(run, false, false)?;
    let binned = Era::thirds(&games)
        .iter()
        .map(|era| {
            series(&games, era.to_string(), Some(*era), bins, Expectation::Fide)
                .points
                .iter()
                .map(|p| p.games)
                .sum::<u64>()
        })
        .sum();
    Ok(binned)
}

/// The histogram of every January list in 25-point bins: the players counted.
fn histogram_players(run: &Path) -> Result<u64, ReportError> {
    let lists = run_lists(run, &Months::Januaries)?;
    let histogram = Histogram::build(&lists, 25);
    Ok(histogram.lists.iter().map(|l| l.2).sum())
}

/// A report table's runs and the rows it read.
pub struct ReportTimes {
    pub table: ReportTable,
    pub times: Times,
    pub rows: u64,
}

/// Times `runs` readings of `run` into `table`.
pub fn time_report(table: ReportTable, run: &Path, runs: usize) -> Result<ReportTimes, BenchError> {
    let mut times = Times::default();
    let mut rows = 0;
    for _ in 0..runs {
        rows = times.time(|| table.build(run))?;
    }
    Ok(ReportTimes { table, times, rows })
}

impl fmt::Display for ReportTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({} rows read)",
            self.table.name(),
            self.times.best_and_median(3),
            thousands(self.rows)
        )
    }
}
