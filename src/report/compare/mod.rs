//! Two rating lists compared player by player: a run's list of some month (`RUN@2023-12`), or a
//! list file (canonical, or FIDE's TXT in any layout). Differences are B − A.
//!
//! `Comparison::of` joins two lists read by `list.rs` (`joined.rs`), computes the statistics over
//! the players on both and per band of B's rating (`stats.rs`), and tells why the others are on
//! one list only (`absence.rs`, which looks for them in a run's games with `game_ids.rs`);
//! `render.rs` and `pictures.rs` write and draw it. `reported.rs` (a run against the ratings
//! tournament reports carry) builds on them; `runs.rs` (two runs list by list) stands apart. The
//! files use each other one way only.

use std::collections::BTreeMap;

use super::run_files::ReportError;

mod absence;
mod game_ids;
mod joined;
mod list;
mod pictures;
mod render;
mod reported;
mod runs;
mod stats;

pub use absence::Absence;
pub use list::{List, ListSource};
pub use render::ComparisonJson;
pub use reported::AgainstReports;
pub use runs::{explain, MonthDiff, OverTime};
pub use stats::{Stats, BAND, WITHIN};

/// The comparison of two lists.
#[derive(Debug)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    pub overall: Stats,
    /// Per 100-point band of B's rating.
    pub bands: Vec<(i32, Stats)>,
    pub only_a: BTreeMap<Absence, usize>,
    pub only_b: BTreeMap<Absence, usize>,
    /// The largest |B − A|: (id, A, B).
    pub largest: Vec<(String, i32, i32)>,
    /// (rating A, rating B) of the players on both, for pictures.
    pub pairs: Vec<(i32, i32)>,
}

impl Comparison {
    /// B against A: the players on both, per band of B's rating, those on one list only, and the
    /// `largest` differences.
    pub fn of(a: &List, b: &List, largest: usize) -> Result<Comparison, ReportError> {
        let rows = joined::rows_on_both(a, b)?;
        let pairs = joined::pairs(a, b, &rows);
        let on_a = joined::marked(a.ids.len(), rows.iter().map(|r| r.0));
        let on_b = joined::marked(b.ids.len(), rows.iter().map(|r| r.1));
        let largest = joined::largest(a, b, rows, largest);
        // Each reads the other run's periods or games: side by side.
        let (only_a, only_b) = rayon::join(
            || absence::absences_by_reason(a, b, &on_a),
            || absence::absences_by_reason(b, a, &on_b),
        );
        let (only_a, only_b) = (only_a?, only_b?);
        Ok(Comparison {
            a: a.label.clone(),
            b: b.label.clone(),
            overall: Stats::of(&pairs),
            bands: stats::per_band(&pairs),
            only_a,
            only_b,
            largest,
            pairs,
        })
    }
}

#[cfg(test)]
mod tests;
