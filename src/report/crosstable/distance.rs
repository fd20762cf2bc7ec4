//! How far a run's crosstable is from a published one: cell by cell, and row by row in the share
//! and the number of games. `crosstable --against` prints it; `calibrate` minimises it.

use super::published::PublishedTable;
use super::Crosstable;

/// The games a run's cell or row needs before it is judged, and the run's size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// Cells in the RMSE and the sign agreement need this many games in the run.
    pub compared: u64,
    /// A published numbered cell is covered when the run has this many games in it.
    pub covered: u64,
    /// Rows whose published share of the games is at least this (0–1) are held to the share
    /// factor; smaller rows are shown but not judged.
    pub share_floor: f64,
    /// The run's size against FIDE's (a world generated at `--scale`, times its seeds): a row's
    /// games are divided by it before they are set against the published row's.
    pub size: f64,
}

impl Thresholds {
    /// FIDE's size: 500 games to compare a cell, 100 to cover it, rows of at least 1 % judged.
    pub const FIDE: Thresholds = Thresholds {
        compared: 500,
        covered: 100,
        share_floor: 0.01,
        size: 1.0,
    };

    /// The game counts for a run of `scale` times FIDE's size (at least one game).
    pub fn scaled(self, scale: f64) -> Thresholds {
        let games = |n: u64| ((n as f64 * scale).round() as u64).max(1);
        Thresholds {
            compared: games(self.compared),
            covered: games(self.covered),
            share_floor: self.share_floor,
            size: self.size * scale,
        }
    }
}

/// One cell off the diagonal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellDistance {
    /// The published table's group indices (0 is its lowest group).
    pub row: usize,
    pub col: usize,
    /// Percentage points; `None` where the source prints `=0%`.
    pub published: Option<f64>,
    /// Percentage points; `None` where the run has no game.
    pub run: Option<f64>,
    pub games: u64,
}

impl CellDistance {
    /// The run's value minus the published one, when both exist.
    pub fn difference(&self) -> Option<f64> {
        Some(self.run? - self.published?)
    }

    /// Whether the two agree in sign: both within ±1 point, or on the same side of zero.
    pub fn signs_agree(&self) -> Option<bool> {
        let (p, r) = (self.published?, self.run?);
        Some((p.abs() <= 1.0 && r.abs() <= 1.0) || (p > 0.0 && r > 0.0) || (p < 0.0 && r < 0.0))
    }
}

/// One row group's games: its share of all games (0–1), and their number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowShare {
    pub row: usize,
    pub published: f64,
    pub run: f64,
    /// The published row's games (Sonas's row totals).
    pub published_games: u64,
    /// The run's games in the row divided by the run's size: games at FIDE's size.
    pub run_games: f64,
}

impl RowShare {
    /// How many times too large (above 1) or too small (below 1) a share of the games the run's
    /// row has.
    pub fn ratio(&self) -> f64 {
        self.run / self.published
    }

    /// The ratio as a factor of at least 1 either way (∞ for an empty row).
    pub fn factor(&self) -> f64 {
        factor(self.ratio())
    }

    /// How many times too many (above 1) or too few (below 1) games the run's row has, at FIDE's
    /// size.
    pub fn games_ratio(&self) -> f64 {
        self.run_games / self.published_games.max(1) as f64
    }

    /// The games ratio as a factor of at least 1 either way.
    pub fn games_factor(&self) -> f64 {
        factor(self.games_ratio())
    }
}

/// A ratio as a factor of at least 1 either way (∞ for 0).
fn factor(ratio: f64) -> f64 {
    if ratio >= 1.0 {
        ratio
    } else {
        1.0 / ratio
    }
}

/// A run's crosstable against a published one.
#[derive(Clone, Debug, PartialEq)]
pub struct Distance {
    pub table: String,
    pub thresholds: Thresholds,
    pub cells: Vec<CellDistance>,
    pub rows: Vec<RowShare>,
}

impl Distance {
    /// `run` must be built with the published table's grouping (`published.grouping`).
    pub fn between(
        run: &Crosstable,
        published: &PublishedTable,
        thresholds: Thresholds,
    ) -> Distance {
        let n = published.labels.len();
        let mut cells = Vec::new();
        for r in 0..n {
            for c in (0..n).filter(|&c| c != r) {
                let sums = run.cell(published.group_index(r), published.group_index(c));
                cells.push(CellDistance {
                    row: r,
                    col: c,
                    published: published.cells[r][c],
                    run: (sums.games > 0).then(|| sums.diff()),
                    games: sums.games,
                });
            }
        }
        let run_games: Vec<u64> = (0..n)
            .map(|r| run.row_total(published.group_index(r)).games)
            .collect();
        let (run_all, published_all) = (
            run_games.iter().sum::<u64>().max(1) as f64,
            published.row_games.iter().sum::<u64>().max(1) as f64,
        );
        let rows = (0..n)
            .map(|r| RowShare {
                row: r,
                published: published.row_games[r] as f64 / published_all,
                run: run_games[r] as f64 / run_all,
                published_games: published.row_games[r],
                run_games: run_games[r] as f64 / thresholds.size,
            })
            .collect();
        Distance {
            table: published.name.clone(),
            thresholds,
            cells,
            rows,
        }
    }

    /// The cells judged: numbered in the source, with enough games in the run.
    pub fn compared(&self) -> impl Iterator<Item = &CellDistance> {
        self.cells
            .iter()
            .filter(|c| c.published.is_some() && c.games >= self.thresholds.compared.max(1))
    }

    /// Root mean square of run minus published over the compared cells, in percentage points.
    pub fn rmse(&self) -> Option<f64> {
        let squares: Vec<f64> = self
            .compared()
            .filter_map(|c| c.difference())
            .map(|d| d * d)
            .collect();
        (!squares.is_empty()).then(|| (squares.iter().sum::<f64>() / squares.len() as f64).sqrt())
    }

    /// Compared cells whose signs agree, and all compared cells.
    pub fn signs(&self) -> (usize, usize) {
        let agree: Vec<bool> = self.compared().filter_map(|c| c.signs_agree()).collect();
        (agree.iter().filter(|&&a| a).count(), agree.len())
    }

    /// Published numbered cells with enough run games to be covered, and all numbered cells.
    pub fn coverage(&self) -> (usize, usize) {
        let numbered = self.cells.iter().filter(|c| c.published.is_some());
        let covered = numbered
            .clone()
            .filter(|c| c.games >= self.thresholds.covered.max(1))
            .count();
        (covered, numbered.count())
    }

    /// Rows held to the share factor (published share at least the floor).
    pub fn judged_rows(&self) -> impl Iterator<Item = &RowShare> {
        self.rows
            .iter()
            .filter(|r| r.published >= self.thresholds.share_floor)
    }

    /// The judged row furthest from its published share.
    pub fn worst_share(&self) -> Option<&RowShare> {
        self.judged_rows()
            .max_by(|a, b| a.factor().total_cmp(&b.factor()))
    }

    /// The run's games in all rows against the published table's, at FIDE's size.
    pub fn games_ratio(&self) -> f64 {
        let run: f64 = self.rows.iter().map(|r| r.run_games).sum();
        let published: u64 = self.rows.iter().map(|r| r.published_games).sum();
        run / published.max(1) as f64
    }

    /// The judged row furthest from its published number of games.
    pub fn worst_games(&self) -> Option<&RowShare> {
        self.judged_rows()
            .max_by(|a, b| a.games_factor().total_cmp(&b.games_factor()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::published::PublishedTable;
    use super::super::{Below, Crosstable, Expectation, Grouping, Selection};
    use super::*;
    use crate::model::Month;
    use crate::report::game_source::GamesWithRatings;

    /// A 3×3 published table (groups 1000-99, 1100-99, 1200+) and a run whose cells are computed
    /// by hand below.
    fn fixture() -> (PublishedTable, Crosstable) {
        let grouping = Grouping {
            width: 100,
            lowest: 1000,
            top: 1200,
            below: Below::Drop,
        };
        let published = PublishedTable {
            name: "fixture".into(),
            file: "fixture.csv".into(),
            labels: vec!["1000-99".into(), "1100-99".into(), "1200+".into()],
            grouping,
            cells: vec![
                vec![None, Some(4.0), Some(2.0)],
                vec![Some(-4.0), None, None],
                vec![Some(-2.0), Some(1.0), None],
            ],
            row_total: vec![Some(3.0), Some(-4.0), Some(-1.0)],
            row_games: vec![600, 300, 500],
        };
        let month = Month::new(2020, 1).unwrap();
        let mut games = GamesWithRatings::default();
        let mut add = |white: i32, black: i32, score: u8, n: usize| {
            for _ in 0..n {
                games.month.push(month);
                games.white_rating.push(white);
                games.black_rating.push(black);
                games.score.push(score);
            }
        };
        // 1000 against 1100: D = −100, FIDE's PD .36; 10 games, 5 wins for the 1000s → .5 − .36
        // = +14 points for 1000-99, −14 for 1100-99.
        add(1000, 1100, 2, 5);
        add(1000, 1100, 0, 5);
        // 1000 against 1250: D = −250, PD .19; 4 games, 1 draw → .125 − .19 = −6.5 points.
        add(1000, 1250, 1, 1);
        add(1000, 1250, 0, 3);
        // 1100 against 1200: D = −100, PD .36; 2 draws → +14 for 1100-99, −14 for 1200+.
        add(1100, 1200, 1, 2);
        let run = Crosstable::build(&games, grouping, Expectation::Fide, 1, Selection::all());
        (published, run)
    }

    #[test]
    fn the_distance_of_a_hand_computed_table() {
        let (published, run) = fixture();
        let thresholds = Thresholds {
            compared: 4,
            covered: 2,
            share_floor: 0.25,
            size: 1.0,
        };
        let d = Distance::between(&run, &published, thresholds);
        assert_eq!(d.cells.len(), 6);
        let cell = |r, c| *d.cells.iter().find(|x| x.row == r && x.col == c).unwrap();
        assert!((cell(0, 1).run.unwrap() - 14.0).abs() < 1e-9);
        assert!((cell(0, 2).run.unwrap() + 6.5).abs() < 1e-9);
        assert!((cell(1, 2).run.unwrap() - 14.0).abs() < 1e-9);
        assert_eq!(cell(1, 2).published, None);
        // Compared (numbered, at least 4 games): (0,1) 10 games, (1,0) 10, (0,2) 4, (2,0) 4;
        // (2,1) has 2 games. Differences 14−4, −14+4, −6.5−2, 6.5+2.
        assert_eq!(d.compared().count(), 4);
        let rmse = ((100.0 + 100.0 + 72.25 + 72.25) / 4.0f64).sqrt();
        assert!((d.rmse().unwrap() - rmse).abs() < 1e-9);
        // Signs: (0,1) +14/+4 agree, (1,0) agree, (0,2) −6.5/+2 disagree, (2,0) disagree.
        assert_eq!(d.signs(), (2, 4));
        // Numbered cells: 5; covered (≥ 2 games): all but none — (2,1) has 2 games.
        assert_eq!(d.coverage(), (5, 5));
        // Row games: 1000-99 14, 1100-99 12, 1200+ 6 (of 32); published 600/300/500 of 1,400.
        let share = |r: usize| d.rows[r];
        assert!((share(0).run - 14.0 / 32.0).abs() < 1e-12);
        assert!((share(1).published - 300.0 / 1400.0).abs() < 1e-12);
        let worst = d.worst_share().unwrap();
        assert_eq!(worst.row, 2);
        assert!((worst.factor() - (500.0 / 1400.0) / (6.0 / 32.0)).abs() < 1e-12);
        // The run at FIDE's size: 32 of 1,400 games; row 1000-99 has 14 of 600, the worst judged row
        // 1200+ 6 of 500.
        assert!((d.games_ratio() - 32.0 / 1400.0).abs() < 1e-12);
        assert_eq!(d.worst_games().unwrap().row, 2);
        assert!((share(0).games_ratio() - 14.0 / 600.0).abs() < 1e-12);
        // A run of a hundredth of FIDE's size has a hundred times the games at FIDE's size.
        let small = Distance::between(&run, &published, thresholds.scaled(0.01));
        assert!((small.games_ratio() - 3200.0 / 1400.0).abs() < 1e-9);
        assert!((small.rows[1].run_games - 1200.0).abs() < 1e-9);
    }

    #[test]
    fn thresholds_scale_with_the_run() {
        let t = Thresholds::FIDE.scaled(0.1);
        assert_eq!((t.compared, t.covered), (50, 10));
        assert!((t.size - 0.1).abs() < 1e-12);
        assert_eq!(Thresholds::FIDE.scaled(0.0001).covered, 1);
    }
}
