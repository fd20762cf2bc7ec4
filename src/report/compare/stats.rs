//! Statistics of the differences B − A over a set of players: over all of them, and per band of
//! B's rating.

use std::collections::BTreeMap;

/// Statistics of B − A over the players on both lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub both: usize,
    pub mean_diff: f64,
    pub median_diff: f64,
    pub rmse: f64,
    pub mae: f64,
    /// Shares with |B − A| of at most 0, 5, 10 and 25 points.
    pub within: [f64; 4],
    pub spearman: f64,
}

pub const WITHIN: [i32; 4] = [0, 5, 10, 25];

impl Stats {
    /// From (rating A, rating B) pairs; sums are exact in integers.
    pub fn of(pairs: &[(i32, i32)]) -> Stats {
        let n = pairs.len();
        if n == 0 {
            return Stats::default();
        }
        let mut diffs: Vec<i64> = pairs
            .iter()
            .map(|&(a, b)| i64::from(b) - i64::from(a))
            .collect();
        let sum: i64 = diffs.iter().sum();
        let squares: i128 = diffs.iter().map(|&d| i128::from(d * d)).sum();
        let absolute: i64 = diffs.iter().map(|d| d.abs()).sum();
        let mut within = [0.0; 4];
        for (w, limit) in within.iter_mut().zip(WITHIN) {
            *w = diffs.iter().filter(|d| d.abs() <= i64::from(limit)).count() as f64 / n as f64;
        }
        diffs.sort_unstable();
        let median = if n % 2 == 1 {
            diffs[n / 2] as f64
        } else {
            (diffs[n / 2 - 1] + diffs[n / 2]) as f64 / 2.0
        };
        Stats {
            both: n,
            mean_diff: sum as f64 / n as f64,
            median_diff: median,
            rmse: (squares as f64 / n as f64).sqrt(),
            mae: absolute as f64 / n as f64,
            within,
            spearman: spearman(pairs),
        }
    }
}

/// Ranks with ties sharing their average rank.
fn ranks(values: &[i32]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by_key(|&i| values[i]);
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end + 1 < order.len() && values[order[end + 1]] == values[order[start]] {
            end += 1;
        }
        let rank = (start + end) as f64 / 2.0 + 1.0;
        for &i in &order[start..=end] {
            ranks[i] = rank;
        }
        start = end + 1;
    }
    ranks
}

/// Spearman's rank correlation: Pearson's correlation of the ranks (ties averaged).
fn spearman(pairs: &[(i32, i32)]) -> f64 {
    let a = ranks(&pairs.iter().map(|p| p.0).collect::<Vec<_>>());
    let b = ranks(&pairs.iter().map(|p| p.1).collect::<Vec<_>>());
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(&b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa == 0.0 || sbb == 0.0 {
        return f64::NAN;
    }
    sab / (saa * sbb).sqrt()
}

/// The width of a band of B's rating, in rating points.
pub const BAND: i32 = 100;

/// The statistics of each band of B's rating that holds a pair, lowest band first, keyed by the
/// band's lowest rating.
pub(super) fn per_band(pairs: &[(i32, i32)]) -> Vec<(i32, Stats)> {
    let mut by_band: BTreeMap<i32, Vec<(i32, i32)>> = BTreeMap::new();
    for &(ra, rb) in pairs {
        by_band
            .entry(rb.div_euclid(BAND) * BAND)
            .or_default()
            .push((ra, rb));
    }
    by_band
        .into_iter()
        .map(|(k, v)| (k, Stats::of(&v)))
        .collect()
}
