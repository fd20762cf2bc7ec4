//! Two rating lists compared player by player: a run's list of some month (`RUN@2023-12`), or a
//! list file (canonical, or FIDE's TXT in any layout). Differences are B − A.

use std::collections::BTreeMap;

use crate::plot::{categorical, Density, LineChart, Picture, Series, XAxis};

use super::run_files::ReportError;

mod absence;
mod game_ids;
mod joined;
mod list;
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
        // Each reads the other run's games: side by side.
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

impl Comparison {
    /// Rating A against rating B as a density of 25-point squares.
    pub fn density_picture(&self) -> Picture {
        let bin = 25;
        let mut cells: BTreeMap<(i32, i32), u64> = BTreeMap::new();
        for &(a, b) in &self.pairs {
            *cells
                .entry((a.div_euclid(bin) * bin, b.div_euclid(bin) * bin))
                .or_default() += 1;
        }
        Picture::Density(Density {
            title: format!("{} against {}", self.b, self.a),
            x_label: format!("rating on {} (rating points)", self.a),
            y_label: format!("rating on {} (rating points)", self.b),
            bin,
            cells: cells.into_iter().map(|((x, y), n)| (x, y, n)).collect(),
        })
    }

    /// The two lists' rating distributions (players on both), 25-point bins.
    pub fn distribution_picture(&self) -> Picture {
        let bin = 25;
        let count = |rating: &dyn Fn(&(i32, i32)) -> i32| {
            let mut bins: BTreeMap<i32, u64> = BTreeMap::new();
            for p in &self.pairs {
                *bins.entry(rating(p).div_euclid(bin) * bin).or_default() += 1;
            }
            bins
        };
        let (a, b) = (count(&|p| p.0), count(&|p| p.1));
        let top = a.values().chain(b.values()).copied().max().unwrap_or(1) as f64;
        let low = a.keys().chain(b.keys()).copied().min().unwrap_or(0);
        let high = a.keys().chain(b.keys()).copied().max().unwrap_or(0) + bin;
        let points = |bins: &BTreeMap<i32, u64>| {
            bins.iter()
                .map(|(&k, &n)| (f64::from(k) + f64::from(bin) / 2.0, n as f64))
                .collect()
        };
        Picture::Lines(LineChart {
            x_axis: XAxis::Numbers,
            title: format!("Rating distributions: {} and {}", self.a, self.b),
            x_label: "rating (rating points)".to_string(),
            y_label: format!("players per {bin}-point bin"),
            x_range: (f64::from(low), f64::from(high)),
            y_range: (0.0, top * 1.08),
            series: vec![
                Series {
                    name: format!("A: {}", self.a),
                    colour: categorical(0),
                    points: points(&a),
                    dashed: false,
                    markers: false,
                },
                Series {
                    name: format!("B: {}", self.b),
                    colour: categorical(1),
                    points: points(&b),
                    dashed: false,
                    markers: false,
                },
            ],
            legend_lower_right: false,
            bands: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests;
