//! The pool's shape: players per rating band on one list, at FIDE's size (a world's counts divided
//! by its size). On a world's January list, the same players are also counted by their true
//! strength, and `error` is the mean over the bands of ln((listed + ½) / (true + ½))², both at
//! FIDE's size: 0 when the list has as many players in each band as are truly that strong (Sonas
//! judged his scenarios by the pool's shape).

use std::path::Path;

use toml::Table;

use crate::keys::Reader;
use crate::model::Month;

use super::{read, Bands, Figure, Goal, Kind, ListView, Needs};

#[derive(Clone, Debug)]
pub struct PoolShape {
    pub list: Month,
    pub bands: Bands,
}

#[derive(Clone, Debug, Default)]
pub struct BandCounts {
    pub listed: Vec<u64>,
    /// The same players by true strength, where `truth_known`.
    pub truth: Vec<u64>,
    pub truth_known: bool,
}

impl PoolShape {
    /// The mean squared log ratio of the bands, the counts at FIDE's size (so that the half a player
    /// added to each does not weigh more in a smaller world).
    fn error(&self, counts: &BandCounts, size: f64) -> Option<f64> {
        if !counts.truth_known {
            return None;
        }
        let logs: f64 = counts
            .listed
            .iter()
            .zip(&counts.truth)
            .map(|(&l, &t)| {
                ((l as f64 / size + 0.5) / (t as f64 / size + 0.5))
                    .ln()
                    .powi(2)
            })
            .sum();
        Some(logs / counts.listed.len() as f64)
    }
}

impl Kind for PoolShape {
    type Observed = BandCounts;

    const NAME: &'static str = "pool-shape";
    const KEYS: &'static [&'static str] = &["list", "lowest", "top", "width"];
    const MEANING: &'static str =
        "players per rating band on a list (against their true strengths' bands on a world)";

    fn read(r: &mut Reader, t: &Table, path: &str, _dir: &Path) -> Option<Self> {
        let list = read::list(r, t, path, false);
        let bands = read::bands(r, t, path, (1000, 2700, 100));
        Some(PoolShape {
            list: list?,
            bands: bands?,
        })
    }

    fn default_name(&self) -> String {
        "pool_shape".into()
    }

    fn needs(&self, needs: &mut Needs) {
        needs.lists.push(self.list);
        if self.list.month() == 1 {
            needs.truth.push(self.list);
        }
    }

    fn empty(&self) -> BandCounts {
        BandCounts {
            listed: vec![0; self.bands.count()],
            truth: vec![0; self.bands.count()],
            truth_known: false,
        }
    }

    fn observe(&self, list: &ListView<'_>, counts: &mut BandCounts) {
        if list.month != self.list {
            return;
        }
        let Some(whole) = list.whole else { return };
        counts.truth_known |= list.truth.is_some();
        for (&p, &r) in whole.player.iter().zip(&whole.rating) {
            if let Some(band) = self.bands.of(f64::from(r)) {
                counts.listed[band] += 1;
            }
            if let Some(truth) = list.truth {
                if let Some(band) = self.bands.of(f64::from(truth[p as usize])) {
                    counts.truth[band] += 1;
                }
            }
        }
    }

    fn add(into: &mut BandCounts, other: &BandCounts) {
        for (a, b) in into.listed.iter_mut().zip(&other.listed) {
            *a += b;
        }
        for (a, b) in into.truth.iter_mut().zip(&other.truth) {
            *a += b;
        }
        into.truth_known |= other.truth_known;
    }

    fn figures(&self, counts: &BandCounts, size: f64) -> Vec<Figure> {
        let scaled = |n: u64| Some(n as f64 / size);
        let mut figures = vec![
            Figure::new("error", self.error(counts, size), Goal::Lower, ""),
            Figure::new(
                "players",
                scaled(counts.listed.iter().sum()),
                Goal::Shown,
                "players",
            ),
        ];
        for (band, &n) in counts.listed.iter().enumerate() {
            let low = self.bands.low(band);
            figures.push(Figure::new(
                format!("band.{low}"),
                scaled(n),
                Goal::Shown,
                "players",
            ));
        }
        // The same columns with or without the truth: empty without it.
        for (band, &n) in counts.truth.iter().enumerate() {
            let low = self.bands.low(band);
            let value = if counts.truth_known { scaled(n) } else { None };
            figures.push(Figure::new(
                format!("truth.{low}"),
                value,
                Goal::Shown,
                "players",
            ));
        }
        figures
    }

    fn line(&self, counts: &BandCounts, size: f64) -> String {
        let total: u64 = counts.listed.iter().sum();
        format!(
            "pool shape on {}: {} players from {}{}",
            self.list,
            crate::numbers::thousands((total as f64 / size).round() as u64),
            self.bands.lowest,
            self.error(counts, size).map_or(String::new(), |e| format!(
                " · error against the truth {e:.4}"
            ))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::measure::testing::Lists;

    #[test]
    fn bands_of_the_list_and_of_the_truth() {
        let month = Month::new(2023, 1).unwrap();
        let m = PoolShape {
            list: month,
            bands: Bands {
                lowest: 1000,
                top: 1200,
                width: 100,
            },
        };
        let lists = Lists {
            ratings: vec![Some(1050), Some(1150), Some(1250), Some(900)],
            truth: Some(vec![1050.0, 1050.0, 1350.0, 1150.0]),
            ..Lists::default()
        };
        let counts = lists.observed(&m, month);
        assert_eq!(counts.listed, [1, 1, 1]);
        assert_eq!(counts.truth, [2, 1, 1]);
        // At half FIDE's size the counts double: 2, 2, 2 listed against 4, 2, 2 truly.
        let error = (2.5f64 / 4.5).ln().powi(2) / 3.0;
        let f = m.figures(&counts, 0.5);
        assert!((f[0].value.unwrap() - error).abs() < 1e-12);
        // At half FIDE's size, three players stand for six.
        assert_eq!(f[1].value, Some(6.0));
    }
}
