//! The truth gap (a world only): on one January list, each player's published rating minus their
//! true strength that month. Overall, its root mean square (how far a rating is from the truth,
//! either way: the measure's headline) and its mean (the list's deflation or inflation); by band of true strength, each band's
//! mean; and the slope of published rating on true strength across the list, which is 1 when
//! ratings are as far apart as strengths and above 1 when they are "spread apart far more than they
//! should be" (Sonas, seeds/001).
//!
//! With `common`, only the players also on the baseline's list count: a candidate with a higher
//! floor or other first ratings lists other players, and the gap over its own list then mixes the
//! regulations' effect on ratings with their effect on who is listed.
//!
//! The bands group players by true strength, not by rating. Grouped by rating, a band holds the
//! players whose ratings erred upwards into it as well as those truly there, so every band's mean
//! gap would lean towards the band's side of the pool (regression to the mean of the strengths);
//! grouped by strength, a band holds the same players under every regulation compared on a seed,
//! and its mean is the error of their ratings. Rating on strength is the regression for the slope
//! for the same reason: strength is known without error, so noise in the ratings does not bend the
//! slope, while spread does.

use std::path::Path;

use toml::Table;

use crate::keys::Reader;
use crate::model::Month;

use super::{read, Bands, Figure, Goal, Kind, ListView, Needs};

#[derive(Clone, Debug)]
pub struct TruthGap {
    pub list: Month,
    pub bands: Bands,
    /// Only the players active on the list (a game in the last period FIDE counts).
    pub active: bool,
    /// Only the players the baseline's list also has: candidates whose floors or first ratings
    /// list other players are then judged on the players they share.
    pub common: bool,
}

/// The sums of rating minus strength over the list, centred on 2000 points so that the squares
/// keep their precision.
#[derive(Clone, Debug, Default)]
pub struct GapSums {
    pub players: u64,
    /// Σ (rating − strength) and its square.
    pub gap: f64,
    pub gap_squares: f64,
    /// Σ s, Σ s², Σ r, Σ r·s with s = strength − 2000, r = rating − 2000.
    pub strength: f64,
    pub strength_squares: f64,
    pub rating: f64,
    pub products: f64,
    /// Per band of true strength: players and Σ (rating − strength).
    pub bands: Vec<(u64, f64)>,
}

const CENTRE: f64 = 2000.0;

impl GapSums {
    fn mean(&self) -> Option<f64> {
        (self.players > 0).then(|| self.gap / self.players as f64)
    }

    fn rms(&self) -> Option<f64> {
        (self.players > 0).then(|| (self.gap_squares / self.players as f64).sqrt())
    }

    /// The least-squares slope of rating on strength.
    fn slope(&self) -> Option<f64> {
        let n = self.players as f64;
        if self.players < 2 {
            return None;
        }
        let covariance = self.products - self.strength * self.rating / n;
        let variance = self.strength_squares - self.strength * self.strength / n;
        (variance > 0.0).then(|| covariance / variance)
    }
}

impl Kind for TruthGap {
    type Observed = GapSums;

    const NAME: &'static str = "truth-gap";
    const KEYS: &'static [&'static str] = &["list", "lowest", "top", "width", "active", "common"];
    const MEANING: &'static str =
        "published rating minus true strength on a January list: mean, RMS, slope, by band";
    const NEEDS_TRUTH: bool = true;

    fn read(r: &mut Reader, t: &Table, path: &str, _dir: &Path) -> Option<Self> {
        let list = read::list(r, t, path, true);
        let bands = read::bands(r, t, path, (1000, 2700, 100));
        let active = r.boolean(t, path, "active").unwrap_or(false);
        let common = r.boolean(t, path, "common").unwrap_or(false);
        Some(TruthGap {
            list: list?,
            bands: bands?,
            active,
            common,
        })
    }

    fn default_name(&self) -> String {
        "truth_gap".into()
    }

    fn needs(&self, needs: &mut Needs) {
        needs.lists.push(self.list);
        needs.truth.push(self.list);
        if self.common {
            needs.baseline.push(self.list);
        }
    }

    fn empty(&self) -> GapSums {
        GapSums {
            bands: vec![(0, 0.0); self.bands.count()],
            ..GapSums::default()
        }
    }

    fn observe(&self, list: &ListView<'_>, sums: &mut GapSums) {
        if list.month != self.list {
            return;
        }
        let (Some(whole), Some(truth)) = (list.whole, list.truth) else {
            return;
        };
        for i in 0..whole.player.len() {
            let player = whole.player[i] as usize;
            let strength = f64::from(truth[player]);
            let shared = !self.common
                || list
                    .baseline
                    .is_some_and(|b| b.get(player).copied().flatten().is_some());
            if strength.is_nan() || (self.active && whole.inactive[i]) || !shared {
                continue;
            }
            let rating = f64::from(whole.rating[i]);
            let gap = rating - strength;
            let (s, r) = (strength - CENTRE, rating - CENTRE);
            sums.players += 1;
            sums.gap += gap;
            sums.gap_squares += gap * gap;
            sums.strength += s;
            sums.strength_squares += s * s;
            sums.rating += r;
            sums.products += r * s;
            if let Some(band) = self.bands.of(strength) {
                sums.bands[band].0 += 1;
                sums.bands[band].1 += gap;
            }
        }
    }

    fn add(into: &mut GapSums, other: &GapSums) {
        into.players += other.players;
        into.gap += other.gap;
        into.gap_squares += other.gap_squares;
        into.strength += other.strength;
        into.strength_squares += other.strength_squares;
        into.rating += other.rating;
        into.products += other.products;
        for (a, b) in into.bands.iter_mut().zip(&other.bands) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }

    fn figures(&self, sums: &GapSums, _size: f64) -> Vec<Figure> {
        let mut figures = vec![
            Figure::new("rms", sums.rms(), Goal::Lower, "points"),
            Figure::new("mean", sums.mean(), Goal::Zero, "points"),
            Figure::new("slope", sums.slope(), Goal::One, ""),
            Figure::new("players", Some(sums.players as f64), Goal::Shown, "players"),
        ];
        for (band, &(n, gap)) in sums.bands.iter().enumerate() {
            figures.push(Figure::new(
                format!("band.{}", self.bands.low(band)),
                (n > 0).then(|| gap / n as f64),
                Goal::Zero,
                "points",
            ));
        }
        figures
    }

    fn line(&self, sums: &GapSums, _size: f64) -> String {
        let number = |v: Option<f64>, decimals: usize| {
            v.map_or("–".into(), |v| format!("{v:+.decimals$}"))
        };
        format!(
            "truth gap on {}: mean {} · RMS {} · slope {} over {} players",
            self.list,
            number(sums.mean(), 1),
            sums.rms().map_or("–".into(), |v| format!("{v:.1}")),
            sums.slope().map_or("–".into(), |v| format!("{v:.3}")),
            crate::numbers::thousands(sums.players)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::measure::testing::{figure, Lists};

    #[test]
    fn the_slope_of_ratings_spread_apart_twice_is_two() {
        let month = Month::new(2023, 1).unwrap();
        let m = TruthGap {
            list: month,
            bands: Bands {
                lowest: 1000,
                top: 2000,
                width: 500,
            },
            active: false,
            common: false,
        };
        // Strengths 1200, 1800, 2400; ratings 1800 ± twice the distance from it; a fourth player
        // not in the world that month.
        let lists = Lists {
            ratings: vec![Some(600), Some(1800), Some(3000), Some(1500)],
            truth: Some(vec![1200.0, 1800.0, 2400.0, f32::NAN]),
            ..Lists::default()
        };
        let sums = lists.observed(&m, month);
        let figures = m.figures(&sums, 1.0);
        let value = |name: &str| figure(&figures, name);
        assert!((value("slope").unwrap() - 2.0).abs() < 1e-12);
        // Gaps −600, 0, +600: mean 0, RMS √((360000 + 0 + 360000) / 3).
        assert!(value("mean").unwrap().abs() < 1e-9);
        assert!((value("rms").unwrap() - 240_000f64.sqrt()).abs() < 1e-9);
        assert_eq!(value("players"), Some(3.0));
        assert_eq!(value("band.1000"), Some(-600.0));
        assert_eq!(value("band.1500"), Some(0.0));
        assert_eq!(value("band.2000"), Some(600.0));
        // Another month's list is not this measure's.
        assert_eq!(lists.observed(&m, month.plus(1)).players, 0);
        // With `common`, only the players the baseline also lists: here the first two.
        let shared = TruthGap { common: true, ..m };
        let lists = Lists {
            baseline: Some(vec![Some(1500), Some(1700), None, None]),
            ..lists
        };
        let sums = lists.observed(&shared, month);
        assert_eq!(sums.players, 2);
        assert_eq!(sums.gap, -600.0);
    }
}
