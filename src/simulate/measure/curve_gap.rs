//! The curve gap: how far the expectation curve of a window's games (seeds/001, first picture) is
//! from FIDE's table. Games are binned by the favourite's rating advantage (`width` points a bin,
//! up to `max`); in each bin, the favourites' mean score minus their expected score (FIDE's table
//! with the 400-point rule), in percentage points. `rms` is the games-weighted root mean square
//! over the bins with at least `min-games` games; `favourites` the favourites' mean excess over
//! every game binned. Games between equally rated players have no favourite and are left out.

use std::path::Path;

use toml::Table;

use crate::keys::Reader;
use crate::model::Month;
use crate::report::crosstable::Expectation;
use crate::report::curve::Point;

use super::{read, Figure, Goal, Kind, ListView, Needs};

#[derive(Clone, Debug)]
pub struct CurveGap {
    pub from: Month,
    pub to: Month,
    pub width: i32,
    /// Advantages from 1 up to (not including) this.
    pub max: i32,
    pub min_games: u64,
}

impl CurveGap {
    fn bins(&self) -> usize {
        ((self.max + self.width - 1) / self.width) as usize
    }

    /// The games-weighted RMS over the bins with enough games, and the favourites' mean excess.
    fn gaps(&self, points: &[Point]) -> (Option<f64>, Option<f64>) {
        let (mut squares, mut weights) = (0.0, 0u64);
        let (mut excess, mut games) = (0.0, 0u64);
        for p in points.iter().filter(|p| p.games > 0) {
            let d = (p.score() - p.expected()) * 100.0;
            excess += d * p.games as f64;
            games += p.games;
            if p.games >= self.min_games.max(1) {
                squares += p.games as f64 * d * d;
                weights += p.games;
            }
        }
        (
            (weights > 0).then(|| (squares / weights as f64).sqrt()),
            (games > 0).then(|| excess / games as f64),
        )
    }
}

impl Kind for CurveGap {
    type Observed = Vec<Point>;

    const NAME: &'static str = "curve-gap";
    const KEYS: &'static [&'static str] = &["from", "to", "width", "max", "min-games"];
    const MEANING: &'static str =
        "the favourites' score minus expectation by bins of rating advantage: RMS over the bins";

    fn read(r: &mut Reader, t: &Table, path: &str, _dir: &Path) -> Option<Self> {
        let window = read::window(r, t, path);
        let width = r.whole(t, path, "width", (1, 1000)).unwrap_or(25) as i32;
        let max = r.whole(t, path, "max", (1, 4000)).unwrap_or(400) as i32;
        let min_games = r
            .whole(t, path, "min-games", (1, u64::MAX >> 1))
            .unwrap_or(100);
        let (from, to) = window?;
        Some(CurveGap {
            from,
            to,
            width,
            max,
            min_games,
        })
    }

    fn default_name(&self) -> String {
        "curve_gap".into()
    }

    fn needs(&self, needs: &mut Needs) {
        needs.windows.push((self.from, self.to));
    }

    fn empty(&self) -> Vec<Point> {
        vec![Point::default(); self.bins()]
    }

    fn observe(&self, list: &ListView<'_>, points: &mut Vec<Point>) {
        if list.month < self.from || list.month > self.to {
            return;
        }
        for (white, black, score) in list.rated_pairs() {
            let diff = white - black;
            let advantage = diff.abs();
            if advantage == 0 || advantage >= self.max {
                continue;
            }
            let half_points = if diff > 0 { score } else { 2 - score };
            let p = &mut points[(advantage / self.width) as usize];
            p.games += 1;
            p.advantage += advantage as u64;
            p.half_points += u64::from(half_points);
            p.expected += i128::from(Expectation::Fide.nanos(advantage));
        }
    }

    fn add(into: &mut Vec<Point>, other: &Vec<Point>) {
        for (a, b) in into.iter_mut().zip(other) {
            a.games += b.games;
            a.advantage += b.advantage;
            a.half_points += b.half_points;
            a.expected += b.expected;
        }
    }

    fn figures(&self, points: &Vec<Point>, _size: f64) -> Vec<Figure> {
        let (rms, favourites) = self.gaps(points);
        let games: u64 = points.iter().map(|p| p.games).sum();
        vec![
            Figure::new("rms", rms, Goal::Lower, "points"),
            Figure::new("favourites", favourites, Goal::Zero, "points"),
            Figure::new("games", Some(games as f64), Goal::Shown, "games"),
        ]
    }

    fn line(&self, points: &Vec<Point>, _size: f64) -> String {
        let (rms, favourites) = self.gaps(points);
        format!(
            "curve gap {}..{}: RMS {} · favourites {}",
            self.from,
            self.to,
            rms.map_or("–".into(), |v| format!("{v:.2}")),
            favourites.map_or("–".into(), |v| format!("{v:+.2}")),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::measure::testing::{figure, Lists};

    #[test]
    fn favourites_by_bin_by_hand() {
        let month = Month::new(2022, 6).unwrap();
        let m = CurveGap {
            from: month,
            to: month,
            width: 100,
            max: 400,
            min_games: 2,
        };
        // Bin 0–99: two games at D 50 (PD 0.57), the favourite (once Black) wins both. Bin 200–299:
        // one game at D 250 (PD 0.81) drawn: too few games for the RMS, counted in the mean.
        let lists = Lists {
            games: vec![
                (0, 1, 2, Some(2050), Some(2000), None),
                (1, 0, 0, Some(2000), Some(2050), None),
                (0, 1, 1, Some(2250), Some(2000), None),
                (0, 1, 1, Some(2000), Some(2000), None),
            ],
            ..Lists::default()
        };
        let points = lists.observed(&m, month);
        let figures = m.figures(&points, 1.0);
        let value = |name: &str| figure(&figures, name);
        assert!((value("rms").unwrap() - 43.0).abs() < 1e-9, "{figures:?}");
        let mean = (2.0 * 43.0 + (50.0 - 81.0)) / 3.0;
        assert!((value("favourites").unwrap() - mean).abs() < 1e-9);
        assert_eq!(value("games"), Some(3.0));
    }
}
