//! A comparison drawn: rating A against rating B, and the two lists' rating distributions.

use std::collections::BTreeMap;

use crate::plot::{categorical, Density, LineChart, Picture, Series, XAxis};

use super::Comparison;

/// The width of a picture's bins, in rating points.
const BIN: i32 = 25;

impl Comparison {
    /// Rating A against rating B as a density of 25-point squares.
    pub fn density_picture(&self) -> Picture {
        let mut cells: BTreeMap<(i32, i32), u64> = BTreeMap::new();
        for &(a, b) in &self.pairs {
            *cells.entry((bin_of(a), bin_of(b))).or_default() += 1;
        }
        Picture::Density(Density {
            title: format!("{} against {}", self.b, self.a),
            x_label: format!("rating on {} (rating points)", self.a),
            y_label: format!("rating on {} (rating points)", self.b),
            bin: BIN,
            cells: cells.into_iter().map(|((x, y), n)| (x, y, n)).collect(),
        })
    }

    /// The two lists' rating distributions (players on both), 25-point bins.
    pub fn distribution_picture(&self) -> Picture {
        let a = per_bin(self.pairs.iter().map(|p| p.0));
        let b = per_bin(self.pairs.iter().map(|p| p.1));
        let top = a.values().chain(b.values()).copied().max().unwrap_or(1) as f64;
        let low = a.keys().chain(b.keys()).copied().min().unwrap_or(0);
        let high = a.keys().chain(b.keys()).copied().max().unwrap_or(0) + BIN;
        Picture::Lines(LineChart {
            x_axis: XAxis::Numbers,
            title: format!("Rating distributions: {} and {}", self.a, self.b),
            x_label: "rating (rating points)".to_string(),
            y_label: format!("players per {BIN}-point bin"),
            x_range: (f64::from(low), f64::from(high)),
            y_range: (0.0, top * 1.08),
            series: vec![
                Series {
                    name: format!("A: {}", self.a),
                    colour: categorical(0),
                    points: bin_centres(&a),
                    dashed: false,
                    markers: false,
                },
                Series {
                    name: format!("B: {}", self.b),
                    colour: categorical(1),
                    points: bin_centres(&b),
                    dashed: false,
                    markers: false,
                },
            ],
            legend_lower_right: false,
            bands: Vec::new(),
        })
    }
}

/// The lowest rating of the bin that holds `rating`.
fn bin_of(rating: i32) -> i32 {
    rating.div_euclid(BIN) * BIN
}

/// How many of `ratings` fall in each bin, by the bin's lowest rating.
fn per_bin(ratings: impl Iterator<Item = i32>) -> BTreeMap<i32, u64> {
    let mut bins: BTreeMap<i32, u64> = BTreeMap::new();
    for rating in ratings {
        *bins.entry(bin_of(rating)).or_default() += 1;
    }
    bins
}

/// Each bin's count at its centre.
fn bin_centres(bins: &BTreeMap<i32, u64>) -> Vec<(f64, f64)> {
    bins.iter()
        .map(|(&k, &n)| (f64::from(k) + f64::from(BIN) / 2.0, n as f64))
        .collect()
}
