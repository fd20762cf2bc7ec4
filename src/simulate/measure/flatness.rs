//! Crosstable flatness: how far the summary crosstable of a window's games (Sonas's, seeds/001) is
//! from flat. A flat table is what ratings that predict well give: every rating group scores what
//! its ratings expect against every other. Two figures:
//!
//! - `rms`: the games-weighted root mean square of the cells, each cell the row group's score minus
//!   its expected score in percentage points per game (FIDE's table with the 400-point rule), over
//!   the cells off the diagonal with at least `min-games` games: √(Σ nᵢ dᵢ² / Σ nᵢ);
//! - `underdogs`: the lower-rated player's mean score minus expectation over every game of the
//!   window between differently rated players, in percentage points: Sonas's deflation signal is
//!   underdogs outscoring their ratings.

use std::path::Path;

use toml::Table;

use crate::keys::Reader;
use crate::model::Month;
use crate::report::crosstable::{Below, Crosstable, Expectation, Grouping, Selection};

use super::{read, Figure, Goal, Kind, ListView, Needs};

/// Billionths of a point per point, as the crosstable keeps expected scores.
const NANO: i128 = 1_000_000_000;

#[derive(Clone, Debug)]
pub struct Flatness {
    pub from: Month,
    pub to: Month,
    pub grouping: Grouping,
    /// Cells with fewer games are left out of the RMS.
    pub min_games: u64,
}

#[derive(Clone, Debug)]
pub struct FlatnessSums {
    pub table: Crosstable,
    /// Games between differently rated players, and the underdogs' Σ (score − expected) in
    /// billionths of a point.
    pub underdog_games: u64,
    pub underdog_excess: i128,
}

impl Flatness {
    /// The games-weighted RMS of the cells with enough games, and how many cells.
    fn rms(&self, table: &Crosstable) -> (Option<f64>, usize) {
        let (mut squares, mut games, mut cells) = (0.0, 0u64, 0);
        for cell in table.off_diagonal() {
            if cell.games >= self.min_games.max(1) {
                let d = cell.diff();
                squares += cell.games as f64 * d * d;
                games += cell.games;
                cells += 1;
            }
        }
        ((games > 0).then(|| (squares / games as f64).sqrt()), cells)
    }
}

fn underdogs(sums: &FlatnessSums) -> Option<f64> {
    (sums.underdog_games > 0)
        .then(|| sums.underdog_excess as f64 / NANO as f64 / sums.underdog_games as f64 * 100.0)
}

impl Kind for Flatness {
    type Observed = FlatnessSums;

    const NAME: &'static str = "flatness";
    const KEYS: &'static [&'static str] = &["from", "to", "lowest", "top", "width", "min-games"];
    const MEANING: &'static str =
        "the summary crosstable's games-weighted RMS and the underdogs' mean excess in a window";

    fn read(r: &mut Reader, t: &Table, path: &str, _dir: &Path) -> Option<Self> {
        let window = read::window(r, t, path);
        let bands = read::bands(r, t, path, (1000, 2500, 100));
        let min_games = r
            .whole(t, path, "min-games", (1, u64::MAX >> 1))
            .unwrap_or(100);
        let ((from, to), bands) = (window?, bands?);
        Some(Flatness {
            from,
            to,
            grouping: Grouping {
                width: bands.width,
                lowest: bands.lowest,
                top: bands.top,
                below: Below::Drop,
            },
            min_games,
        })
    }

    fn default_name(&self) -> String {
        "flatness".into()
    }

    fn needs(&self, needs: &mut Needs) {
        needs.windows.push((self.from, self.to));
    }

    fn empty(&self) -> FlatnessSums {
        let selection = Selection::between(self.from, self.to);
        FlatnessSums {
            table: Crosstable::new(self.grouping, Expectation::Fide, self.min_games, selection),
            underdog_games: 0,
            underdog_excess: 0,
        }
    }

    fn observe(&self, list: &ListView<'_>, sums: &mut FlatnessSums) {
        if list.month < self.from || list.month > self.to {
            return;
        }
        for (white, black, score) in list.rated_pairs() {
            sums.table.add(white, black, score);
            let (advantage, underdog_half_points) = match white - black {
                0 => continue,
                d if d > 0 => (d, 2 - score),
                d => (-d, score),
            };
            let expected = i128::from(Expectation::Fide.nanos(-advantage));
            sums.underdog_games += 1;
            sums.underdog_excess += i128::from(underdog_half_points) * NANO / 2 - expected;
        }
    }

    fn add(into: &mut FlatnessSums, other: &FlatnessSums) {
        into.table.merge(&other.table);
        into.underdog_games += other.underdog_games;
        into.underdog_excess += other.underdog_excess;
    }

    fn figures(&self, sums: &FlatnessSums, _size: f64) -> Vec<Figure> {
        let (rms, cells) = self.rms(&sums.table);
        vec![
            Figure::new("rms", rms, Goal::Lower, "points"),
            Figure::new("underdogs", underdogs(sums), Goal::Zero, "points"),
            Figure::new(
                "games",
                Some(sums.table.counts.used as f64),
                Goal::Shown,
                "games",
            ),
            Figure::new("cells", Some(cells as f64), Goal::Shown, "cells"),
        ]
    }

    fn line(&self, sums: &FlatnessSums, _size: f64) -> String {
        let (rms, cells) = self.rms(&sums.table);
        format!(
            "flatness {}..{}: RMS {} over {cells} cells · underdogs {} · {} games",
            self.from,
            self.to,
            rms.map_or("–".into(), |v| format!("{v:.2}")),
            underdogs(sums).map_or("–".into(), |v| format!("{v:+.2}")),
            crate::numbers::thousands(sums.table.counts.used)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::measure::testing::{figure, Lists};

    #[test]
    fn a_table_of_two_groups_by_hand() {
        let month = Month::new(2018, 1).unwrap();
        let m = Flatness {
            from: month,
            to: month,
            grouping: Grouping {
                width: 100,
                lowest: 1500,
                top: 1600,
                below: Below::Drop,
            },
            min_games: 1,
        };
        // 1650 against 1550 (D 100: FIDE's PD 0.64): the favourite draws and loses; one game
        // between equals (no underdog); one game with a player below 1500 (left out of the table).
        let lists = Lists {
            games: vec![
                (0, 1, 1, Some(1650), Some(1550), None),
                (0, 1, 0, Some(1650), Some(1550), None),
                (0, 2, 2, Some(1650), Some(1650), None),
                (0, 3, 2, Some(1650), Some(1400), None),
            ],
            ..Lists::default()
        };
        let sums = lists.observed(&m, month);
        let figures = m.figures(&sums, 1.0);
        let value = |name: &str| figure(&figures, name);
        // The 1600+ row scored 0.5 of 2 expecting 1.28: −39 points a game; the 1500s +39; each
        // cell has 2 games, so the RMS is 39.
        assert!((value("rms").unwrap() - 39.0).abs() < 1e-9, "{figures:?}");
        assert_eq!(value("cells"), Some(2.0));
        assert_eq!(value("games"), Some(3.0));
        // Underdogs: the 1550 scored 0.5 and 1 expecting 0.36 each; the 1400 scored 0 expecting
        // 0.19 (D 250: PD 0.81).
        let underdog = ((0.5 - 0.36) + (1.0 - 0.36) + (0.0 - 0.19)) / 3.0 * 100.0;
        assert!(
            (value("underdogs").unwrap() - underdog).abs() < 1e-9,
            "{figures:?}"
        );
    }
}
