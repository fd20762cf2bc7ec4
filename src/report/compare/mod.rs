//! Two rating lists compared player by player: a run's list of some month (`RUN@2023-12`), or a
//! list file (canonical, or FIDE's TXT in any layout). Differences are B − A.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::plot::{categorical, Density, LineChart, Picture, Series, XAxis};

use super::crosstable::Format;
use super::run_files::ReportError;
use super::TextTable;
use crate::numbers::{round_to, thousands};
use crate::output::pretty_json;

mod absence;
mod game_ids;
mod joined;
mod list;
mod reported;
mod runs;
mod stats;

pub use absence::Absence;
pub use list::{List, ListSource};
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

/// A comparison as `--format json` writes it: the figures over every player on both lists, then
/// per band of B's rating.
#[derive(Serialize)]
pub struct ComparisonJson<'a> {
    a: &'a str,
    b: &'a str,
    both: usize,
    only_a: usize,
    only_b: usize,
    #[serde(flatten)]
    figures: Figures,
    only_a_reasons: BTreeMap<&'static str, usize>,
    only_b_reasons: BTreeMap<&'static str, usize>,
    bands: Vec<BandJson>,
    largest: Vec<LargestJson<'a>>,
}

#[derive(Serialize)]
struct BandJson {
    band: i32,
    both: usize,
    #[serde(flatten)]
    figures: Figures,
}

/// The statistics of one set of players, rounded as written.
#[derive(Serialize)]
struct Figures {
    mean_diff: f64,
    median_diff: f64,
    rmse: f64,
    mae: f64,
    within_0: f64,
    within_5: f64,
    within_10: f64,
    within_25: f64,
    /// `null` when it is undefined (every rating the same).
    spearman: Option<f64>,
}

impl Figures {
    fn of(s: &Stats) -> Figures {
        Figures {
            mean_diff: round_to(s.mean_diff, 3),
            median_diff: s.median_diff,
            rmse: round_to(s.rmse, 3),
            mae: round_to(s.mae, 3),
            within_0: round_to(s.within[0], 4),
            within_5: round_to(s.within[1], 4),
            within_10: round_to(s.within[2], 4),
            within_25: round_to(s.within[3], 4),
            spearman: (!s.spearman.is_nan()).then(|| round_to(s.spearman, 5)),
        }
    }
}

#[derive(Serialize)]
struct LargestJson<'a> {
    id: &'a str,
    a: i32,
    b: i32,
    diff: i32,
}

fn reasons(counts: &BTreeMap<Absence, usize>) -> BTreeMap<&'static str, usize> {
    counts.iter().map(|(k, v)| (k.name(), *v)).collect()
}

impl Comparison {
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Json => pretty_json(&self.json()),
            Format::Csv => {
                let mut out = String::from(
                    "band,both,mean_diff,median_diff,rmse,mae,within_0,within_5,within_10,within_25,spearman\n",
                );
                let row = |band: &str, s: &Stats| {
                    format!(
                        "{band},{},{:.3},{},{:.3},{:.3},{:.4},{:.4},{:.4},{:.4},{:.5}\n",
                        s.both,
                        s.mean_diff,
                        s.median_diff,
                        s.rmse,
                        s.mae,
                        s.within[0],
                        s.within[1],
                        s.within[2],
                        s.within[3],
                        s.spearman
                    )
                };
                out.push_str(&row("all", &self.overall));
                for (band, s) in &self.bands {
                    out.push_str(&row(&band.to_string(), s));
                }
                out
            }
            Format::Text | Format::Md => self.text(),
        }
    }

    pub fn json(&self) -> ComparisonJson<'_> {
        ComparisonJson {
            a: &self.a,
            b: &self.b,
            both: self.overall.both,
            only_a: self.only_a.values().sum(),
            only_b: self.only_b.values().sum(),
            figures: Figures::of(&self.overall),
            only_a_reasons: reasons(&self.only_a),
            only_b_reasons: reasons(&self.only_b),
            bands: self
                .bands
                .iter()
                .map(|(band, s)| BandJson {
                    band: *band,
                    both: s.both,
                    figures: Figures::of(s),
                })
                .collect(),
            largest: self
                .largest
                .iter()
                .map(|(id, a, b)| LargestJson {
                    id,
                    a: *a,
                    b: *b,
                    diff: b - a,
                })
                .collect(),
        }
    }

    fn text(&self) -> String {
        let mut table = TextTable::default();
        table.push(
            [
                "band of B",
                "both",
                "mean",
                "median",
                "RMSE",
                "MAE",
                "=0",
                "±5",
                "±10",
                "±25",
                "Spearman",
            ]
            .map(String::from)
            .to_vec(),
        );
        let row = |band: String, s: &Stats| {
            let pct = |x: f64| format!("{:.1}%", x * 100.0);
            vec![
                band,
                thousands(s.both as u64),
                format!("{:+.1}", s.mean_diff),
                format!("{:+.1}", s.median_diff),
                format!("{:.1}", s.rmse),
                format!("{:.1}", s.mae),
                pct(s.within[0]),
                pct(s.within[1]),
                pct(s.within[2]),
                pct(s.within[3]),
                if s.spearman.is_nan() {
                    "-".into()
                } else {
                    format!("{:.4}", s.spearman)
                },
            ]
        };
        table.push(row("all".into(), &self.overall));
        for (band, s) in &self.bands {
            table.push(row(format!("{band}-{}", band + BAND - 1), s));
        }
        let reasons = |counts: &BTreeMap<Absence, usize>| {
            let total: usize = counts.values().sum();
            let parts: Vec<String> = counts
                .iter()
                .map(|(k, v)| format!("{} {}", thousands(*v as u64), k.name()))
                .collect();
            if parts.is_empty() {
                "none".to_string()
            } else {
                format!("{} ({})", thousands(total as u64), parts.join(", "))
            }
        };
        let mut out = format!(
            "A = {}, B = {}: differences B − A in rating points\n\n{}\nOnly on A: {}\nOnly on B: {}\n",
            self.a,
            self.b,
            table.render(&[0]),
            reasons(&self.only_a),
            reasons(&self.only_b)
        );
        if !self.largest.is_empty() {
            out.push_str("\nLargest differences:\n");
            let mut t = TextTable::default();
            t.push(["id", "A", "B", "B − A"].map(String::from).to_vec());
            for (id, a, b) in &self.largest {
                t.push(vec![
                    id.clone(),
                    a.to_string(),
                    b.to_string(),
                    format!("{:+}", b - a),
                ]);
            }
            out.push_str(&t.render(&[0]));
        }
        out
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
