//! Disruption: how far one month's list moves from the baseline's on the same games (the same
//! seed's world), player by player: what a federation weighs before any reform. Over the players on
//! both lists, the mean absolute difference of their ratings (`mean_abs`) and the share that moved
//! more than `moved` points (`moved_share`); over the baseline's `top` highest rated players, their
//! mean absolute difference (`top_mean_abs`); and the players on one list only (`left`: on the
//! baseline's only, `joined`: on this one only). The baseline against itself is 0 throughout.

use std::path::Path;

use toml::Table;

use crate::keys::Reader;
use crate::model::Month;

use super::{read, Figure, Goal, Kind, ListView, Needs};

#[derive(Clone, Debug)]
pub struct Disruption {
    pub list: Month,
    /// The baseline's highest rated players judged apart.
    pub top: usize,
    /// Points beyond which a player counts as moved.
    pub moved: i32,
}

#[derive(Clone, Debug, Default)]
pub struct MoveSums {
    pub players: u64,
    pub abs: u64,
    pub moved: u64,
    pub top: u64,
    pub top_abs: u64,
    pub left: u64,
    pub joined: u64,
}

impl Kind for Disruption {
    type Observed = MoveSums;

    const NAME: &'static str = "disruption";
    const KEYS: &'static [&'static str] = &["list", "top", "moved"];
    const MEANING: &'static str =
        "how far a month's list moves from the baseline's: mean |difference|, top players, share moved";

    fn read(r: &mut Reader, t: &Table, path: &str, _dir: &Path) -> Option<Self> {
        let list = read::list(r, t, path, false);
        let top = r.whole(t, path, "top", (1, 1_000_000)).unwrap_or(100) as usize;
        let moved = r.whole(t, path, "moved", (0, 4000)).unwrap_or(50) as i32;
        Some(Disruption {
            list: list?,
            top,
            moved,
        })
    }

    fn default_name(&self) -> String {
        "disruption".into()
    }

    fn needs(&self, needs: &mut Needs) {
        needs.lists.push(self.list);
        needs.baseline.push(self.list);
    }

    fn empty(&self) -> MoveSums {
        MoveSums::default()
    }

    fn observe(&self, list: &ListView<'_>, sums: &mut MoveSums) {
        if list.month != self.list {
            return;
        }
        let (Some(whole), Some(baseline)) = (list.whole, list.baseline) else {
            return;
        };
        let mut own: Vec<Option<i32>> = vec![None; baseline.len()];
        for (&p, &r) in whole.player.iter().zip(&whole.rating) {
            match own.get_mut(p as usize) {
                Some(slot) => *slot = Some(r),
                // A player the baseline never listed.
                None => sums.joined += 1,
            }
        }
        for (b, o) in baseline.iter().zip(&own) {
            match (b, o) {
                (Some(b), Some(o)) => {
                    let d = u64::from(b.abs_diff(*o));
                    sums.players += 1;
                    sums.abs += d;
                    sums.moved += u64::from(d > self.moved as u64);
                }
                (Some(_), None) => sums.left += 1,
                (None, Some(_)) => sums.joined += 1,
                (None, None) => {}
            }
        }
        let mut ranked: Vec<(i32, usize)> = baseline
            .iter()
            .enumerate()
            .filter_map(|(p, r)| Some((-(*r)?, p)))
            .collect();
        ranked.sort_unstable();
        for &(negated, p) in ranked.iter().take(self.top) {
            if let Some(o) = own[p] {
                sums.top += 1;
                sums.top_abs += u64::from((-negated).abs_diff(o));
            }
        }
    }

    fn add(into: &mut MoveSums, other: &MoveSums) {
        into.players += other.players;
        into.abs += other.abs;
        into.moved += other.moved;
        into.top += other.top;
        into.top_abs += other.top_abs;
        into.left += other.left;
        into.joined += other.joined;
    }

    fn figures(&self, sums: &MoveSums, _size: f64) -> Vec<Figure> {
        let mean = |sum: u64, n: u64| (n > 0).then(|| sum as f64 / n as f64);
        vec![
            Figure::new(
                "mean_abs",
                mean(sums.abs, sums.players),
                Goal::Lower,
                "points",
            ),
            Figure::new(
                "top_mean_abs",
                mean(sums.top_abs, sums.top),
                Goal::Lower,
                "points",
            ),
            Figure::new(
                "moved_share",
                mean(sums.moved, sums.players),
                Goal::Lower,
                "share",
            ),
            Figure::new("left", Some(sums.left as f64), Goal::Shown, "players"),
            Figure::new("joined", Some(sums.joined as f64), Goal::Shown, "players"),
        ]
    }

    fn line(&self, sums: &MoveSums, size: f64) -> String {
        let f = self.figures(sums, size);
        let v = |i: usize| f[i].value.map_or("–".into(), |v| format!("{v:.1}"));
        format!(
            "disruption on {}: mean |Δ| {} · top {} {} · moved > {}: {} · left {} · joined {}",
            self.list,
            v(0),
            self.top,
            v(1),
            self.moved,
            f[2].value
                .map_or("–".into(), |v| format!("{:.1} %", v * 100.0)),
            sums.left,
            sums.joined
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::measure::testing::Lists;

    #[test]
    fn moves_against_the_baseline_by_hand() {
        let month = Month::new(2023, 1).unwrap();
        let m = Disruption {
            list: month,
            top: 2,
            moved: 50,
        };
        // Baseline: 2500, 2400, 2300, 1500 and player 4 unlisted. Here: 2450 (−50), 2480 (+80),
        // 2300, off the list, and player 4 on it.
        let lists = Lists {
            ratings: vec![Some(2450), Some(2480), Some(2300), None, Some(1400)],
            baseline: Some(vec![Some(2500), Some(2400), Some(2300), Some(1500), None]),
            ..Lists::default()
        };
        let sums = lists.observed(&m, month);
        let f = m.figures(&sums, 1.0);
        assert_eq!(f[0].value, Some(130.0 / 3.0));
        assert_eq!(f[1].value, Some(65.0));
        assert_eq!(f[2].value, Some(1.0 / 3.0));
        assert_eq!((sums.left, sums.joined), (1, 1));
    }
}
