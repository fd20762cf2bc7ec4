//! Sonas's summary crosstable (seeds/001, "summary crosstable"): players grouped by rating,
//! each cell the row group's actual minus expected score against the column group.
//!
//! A cell's expected score is the sum of each game's own expectation (never the expectation of the
//! groups' average difference). Sums are kept in integers (half points; billionths of a point), so
//! the table does not depend on the order of the games.

use crate::model::{HalfPoints, Month};
use crate::named::named_enum;
use crate::rules::expected::{fide_pd, logistic};

use super::game_source::GamesWithRatings;

named_enum! {
    /// How a game's expected score is computed.
    pub enum Expectation {
        /// FIDE's table 8.1.2 with the 400-point rule (reference §2, §3.2).
        Fide = "fide",
        /// The logistic curve 1/(1 + 10^(−D/400)), uncapped.
        Logistic = "logistic",
    }
}

named_enum! {
    /// What happens to games with a player rated below the lowest group.
    pub enum Below {
        /// Left out (and counted).
        Drop = "drop",
        /// Kept, all in one group under the lowest.
        Group = "group",
    }
}

/// Billionths of a point per unit of expected score.
const NANO: i64 = 1_000_000_000;

impl Expectation {
    /// The expected score in billionths of a point of a player rated `diff` above the opponent.
    pub fn nanos(self, diff: i32) -> i64 {
        match self {
            Expectation::Fide => i64::from(fide_pd(diff.clamp(-400, 400))) * (NANO / 100),
            Expectation::Logistic => (logistic(f64::from(diff)) * NANO as f64).round() as i64,
        }
    }

    /// The expected score as a fraction (for curves).
    pub fn fraction(self, diff: i32) -> f64 {
        self.nanos(diff) as f64 / NANO as f64
    }
}

/// How players are grouped by rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grouping {
    /// Group size in rating points.
    pub width: i32,
    /// The lowest group's lower bound.
    pub lowest: i32,
    /// Every rating from here up is one group ("2500+").
    pub top: i32,
    pub below: Below,
}

impl Grouping {
    pub fn validate(&self) -> Result<(), String> {
        if self.width <= 0 {
            return Err(format!("--width must be at least 1, got {}", self.width));
        }
        if self.top <= self.lowest || (self.top - self.lowest) % self.width != 0 {
            return Err(format!(
                "--top {} must lie above --lowest {} by a whole number of --width {}",
                self.top, self.lowest, self.width
            ));
        }
        Ok(())
    }

    pub fn groups(&self) -> usize {
        ((self.top - self.lowest) / self.width) as usize + 2
    }

    /// Index of a rating's group: 0 is "below the lowest", the last is the top group.
    fn group_of(&self, rating: i32) -> usize {
        if rating < self.lowest {
            0
        } else if rating >= self.top {
            self.groups() - 1
        } else {
            ((rating - self.lowest) / self.width) as usize + 1
        }
    }

    /// The group's name for data (its lower bound, `<1000` for the group below).
    fn key(&self, index: usize) -> String {
        match index {
            0 => format!("<{}", self.lowest),
            i => (self.lowest + (i as i32 - 1) * self.width).to_string(),
        }
    }

    /// The group's name for people, as Sonas writes them: `1200-99`, `2500+`, `<1000`.
    fn label(&self, index: usize) -> String {
        let low = self.lowest + (index as i32 - 1) * self.width;
        match index {
            0 => format!("<{}", self.lowest),
            i if i == self.groups() - 1 => format!("{}+", self.top),
            _ if self.width == 100 => format!("{}-{:02}", low, (low + 99) % 100),
            _ => format!("{}-{}", low, low + self.width - 1),
        }
    }
}

/// Which games count.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    pub from: Option<Month>,
    pub to: Option<Month>,
    /// Only games in which both players had at least this many earlier rated games.
    pub established: Option<u32>,
}

impl Selection {
    pub fn all() -> Selection {
        Selection {
            from: None,
            to: None,
            established: None,
        }
    }

    /// Every game of the months `from` to `to`.
    pub fn between(from: Month, to: Month) -> Selection {
        Selection {
            from: Some(from),
            to: Some(to),
            established: None,
        }
    }

    pub fn contains(&self, month: Month) -> bool {
        self.from.is_none_or(|f| month >= f) && self.to.is_none_or(|t| month <= t)
    }
}

/// A cell's sums, from the row group's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sums {
    pub games: u64,
    /// The row group's score in half points.
    pub half_points: u64,
    /// The row group's expected score in billionths of a point.
    pub expected: i128,
    /// Σ (score − expected)² in billionths squared, for the interval.
    pub deviation_squares: i128,
}

impl Sums {
    fn add(&mut self, half_points: u8, expected: i64) {
        let deviation = i128::from(half_points) * i128::from(NANO / 2) - i128::from(expected);
        self.games += 1;
        self.half_points += u64::from(half_points);
        self.expected += i128::from(expected);
        self.deviation_squares += deviation * deviation;
    }

    pub fn merge(&mut self, other: &Sums) {
        self.games += other.games;
        self.half_points += other.half_points;
        self.expected += other.expected;
        self.deviation_squares += other.deviation_squares;
    }

    /// Mean score per game, 0–1.
    pub fn score(&self) -> f64 {
        self.half_points as f64 / 2.0 / self.games as f64
    }

    /// Mean expected score per game, 0–1.
    pub fn expected(&self) -> f64 {
        self.expected as f64 / NANO as f64 / self.games as f64
    }

    /// Score minus expected, in percentage points.
    pub fn diff(&self) -> f64 {
        let total = i128::from(self.half_points) * i128::from(NANO / 2) - self.expected;
        total as f64 / NANO as f64 / self.games as f64 * 100.0
    }

    /// Half the width of the 95% interval of `diff`, in percentage points (normal approximation
    /// from the per-game deviations' sample variance).
    pub fn margin(&self) -> f64 {
        if self.games < 2 {
            return f64::NAN;
        }
        let n = self.games as f64;
        let mean = self.diff() / 100.0;
        let mean_square = self.deviation_squares as f64 / (NANO as f64 * NANO as f64) / n;
        let variance = (mean_square - mean * mean).max(0.0) * n / (n - 1.0);
        1.96 * (variance / n).sqrt() * 100.0
    }
}

/// The crosstable of a set of games.
#[derive(Clone, Debug)]
pub struct Crosstable {
    pub grouping: Grouping,
    pub expectation: Expectation,
    pub min_games: u64,
    pub selection: Selection,
    /// Group indices shown (rows and columns), lowest first.
    pub shown: Vec<usize>,
    /// `cells[r][c]` over all group indices.
    cells: Vec<Vec<Sums>>,
    pub counts: Counts,
}

/// What happened to the source's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub used: u64,
    pub outside_window: u64,
    pub below_lowest: u64,
    pub not_established: u64,
    pub without_ratings: u64,
}

impl Crosstable {
    pub fn build(
        games: &GamesWithRatings,
        grouping: Grouping,
        expectation: Expectation,
        min_games: u64,
        selection: Selection,
    ) -> Crosstable {
        let mut table = Crosstable::new(grouping, expectation, min_games, selection);
        table.counts.without_ratings = games.without_ratings as u64;
        for i in 0..games.len() {
            if !selection.contains(games.month[i]) {
                table.counts.outside_window += 1;
                continue;
            }
            if let (Some(minimum), Some((white, black))) =
                (selection.established, &games.prior_games)
            {
                if white[i] < minimum || black[i] < minimum {
                    table.counts.not_established += 1;
                    continue;
                }
            }
            table.add(games.white_rating[i], games.black_rating[i], games.score[i]);
        }
        table.finish();
        table
    }

    /// A table without games, to which games are added one by one (`add`) or other tables of the
    /// same grouping (`merge`); `finish` then finds the groups shown.
    pub fn new(
        grouping: Grouping,
        expectation: Expectation,
        min_games: u64,
        selection: Selection,
    ) -> Crosstable {
        let n = grouping.groups();
        Crosstable {
            grouping,
            expectation,
            min_games,
            selection,
            shown: Vec::new(),
            cells: vec![vec![Sums::default(); n]; n],
            counts: Counts::default(),
        }
    }

    /// One game: the players' ratings and White's score in half points. Its window and any other
    /// selection are the caller's.
    pub fn add(&mut self, white: i32, black: i32, score: HalfPoints) {
        let grouping = self.grouping;
        if grouping.below == Below::Drop && (white < grouping.lowest || black < grouping.lowest) {
            self.counts.below_lowest += 1;
            return;
        }
        let (gw, gb) = (grouping.group_of(white), grouping.group_of(black));
        let expected = self.expectation.nanos(white - black);
        self.cells[gw][gb].add(score, expected);
        self.cells[gb][gw].add(2 - score, NANO - expected);
        self.counts.used += 1;
    }

    /// Adds another table's games (the same grouping and expectation).
    pub fn merge(&mut self, other: &Crosstable) {
        for (row, other_row) in self.cells.iter_mut().zip(&other.cells) {
            for (cell, other_cell) in row.iter_mut().zip(other_row) {
                cell.merge(other_cell);
            }
        }
        let (c, o) = (&mut self.counts, &other.counts);
        c.used += o.used;
        c.outside_window += o.outside_window;
        c.below_lowest += o.below_lowest;
        c.not_established += o.not_established;
        c.without_ratings += o.without_ratings;
    }

    /// The groups shown: from the lowest to the highest that has games.
    pub fn finish(&mut self) {
        let n = self.cells.len();
        let has_games = |g: usize| self.cells[g].iter().any(|c| c.games > 0);
        let first = (0..n).find(|&g| has_games(g));
        let last = (0..n).rev().find(|&g| has_games(g));
        self.shown = match (first, last) {
            (Some(a), Some(b)) => (a..=b).collect(),
            _ => Vec::new(),
        };
    }

    /// Every cell off the diagonal among the groups from `lowest` up (the one below it aside),
    /// each direction once: what the measures of flatness sum over.
    pub fn off_diagonal(&self) -> impl Iterator<Item = &Sums> + '_ {
        let n = self.cells.len();
        (1..n).flat_map(move |r| {
            (1..n)
                .filter(move |&c| c != r)
                .map(move |c| &self.cells[r][c])
        })
    }

    pub fn cell(&self, row: usize, col: usize) -> &Sums {
        &self.cells[row][col]
    }

    /// The row group against every other group (Sonas's row label).
    pub fn row_total(&self, row: usize) -> Sums {
        let mut total = Sums::default();
        for (col, cell) in self.cells[row].iter().enumerate() {
            if col != row {
                total.merge(cell);
            }
        }
        total
    }

    pub fn key(&self, group: usize) -> String {
        self.grouping.key(group)
    }

    pub fn label(&self, group: usize) -> String {
        self.grouping.label(group)
    }

    /// Whether a cell has too few games to show its difference.
    pub fn too_few(&self, cell: &Sums) -> bool {
        cell.games == 0 || cell.games < self.min_games
    }

    /// The cell as Sonas prints it: `×` on the diagonal, `=0%` with too few games, else the
    /// signed difference in whole percentage points (`-0%` for a small underperformance).
    pub fn cell_text(&self, row: usize, col: usize) -> String {
        let cell = self.cell(row, col);
        if row == col {
            "×".to_string()
        } else if self.too_few(cell) {
            "=0%".to_string()
        } else {
            signed_percent(cell.diff(), 0)
        }
    }

    /// Sonas's row label: "+4.5% in 6,865 games".
    pub fn row_text(&self, row: usize) -> String {
        let total = self.row_total(row);
        if total.games == 0 {
            return "no games".to_string();
        }
        format!(
            "{} in {} games",
            signed_percent(total.diff(), 1),
            crate::numbers::thousands(total.games)
        )
    }
}

/// A difference in percentage points with its sign always shown, rounded half away from zero;
/// exactly zero has no sign (`0%`), so that "no difference" reads apart from a small one (`+0%`).
pub fn signed_percent(points: f64, decimals: usize) -> String {
    format!("{}%", crate::numbers::signed(points, decimals))
}

mod against;
mod distance;
mod format;
mod published;

pub use against::Against;
pub use distance::{CellDistance, Distance, RowShare, Thresholds};
pub use format::{difference_text, CrosstableJson, Difference, Format};
pub use published::{choose, read_published, PublishedError, PublishedTable};

#[cfg(test)]
mod tests;
