//! A crosstable as text (Sonas's layout), Markdown, CSV (one row per cell) and JSON.

use serde::Serialize;

use crate::named::named_enum;
use crate::plot::{HeatCell, Heatmap, Picture};

use super::{signed_percent, Below, Counts, Crosstable, Expectation, Selection, Sums};
use crate::numbers::round_to;
use crate::numbers::thousands;
use crate::output::pretty_json;
use crate::report::TextTable;

named_enum! {
    /// How a table is written.
    pub enum Format {
        /// Aligned text for the terminal.
        Text = "text",
        /// A Markdown table.
        Md = "md",
        Csv = "csv",
        Json = "json",
    }
}

impl Crosstable {
    pub fn render(&self, format: Format, title: &str) -> String {
        match format {
            Format::Text => self.text(title),
            Format::Md => self.markdown(title),
            Format::Csv => self.csv(),
            Format::Json => pretty_json(&self.json(title)),
        }
    }

    /// The months the table covers, as given.
    pub fn window_text(&self) -> String {
        match (self.selection.from, self.selection.to) {
            (Some(f), Some(t)) => format!("{f} to {t}"),
            (Some(f), None) => format!("from {f} on"),
            (None, Some(t)) => format!("up to {t}"),
            (None, None) => "all months".to_string(),
        }
    }

    fn expectation_text(&self) -> &'static str {
        match self.expectation {
            Expectation::Fide => "FIDE's table with the 400-point rule",
            Expectation::Logistic => "the logistic curve",
        }
    }

    /// What the cells mean and what happened to the games, one sentence per line.
    pub fn notes(&self) -> Vec<String> {
        let c = &self.counts;
        let mut notes = vec![
            format!(
                "Each cell: the row group's score minus its expected score ({}), in percentage points per game; blue (+) the row group outperformed, red (-) underperformed.",
                self.expectation_text()
            ),
            format!(
                "=0%: fewer than {} games; ×: a group against itself.",
                self.min_games.max(1)
            ),
            format!("Games used: {}.", thousands(c.used)),
        ];
        let mut left_out = Vec::new();
        if c.outside_window > 0 {
            left_out.push(format!(
                "{} outside {}",
                thousands(c.outside_window),
                self.window_text()
            ));
        }
        if c.below_lowest > 0 {
            left_out.push(format!(
                "{} with a player rated below {} (dropped; --below group keeps them as one group)",
                thousands(c.below_lowest),
                self.grouping.lowest
            ));
        }
        if c.not_established > 0 {
            left_out.push(format!(
                "{} with a player who had fewer than {} earlier rated games",
                thousands(c.not_established),
                self.selection.established.unwrap_or(0)
            ));
        }
        if c.without_ratings > 0 {
            left_out.push(format!(
                "{} without both players' ratings",
                thousands(c.without_ratings)
            ));
        }
        if !left_out.is_empty() {
            notes.push(format!("Left out: {}.", left_out.join("; ")));
        }
        if self.grouping.below == Below::Group {
            notes.push(format!(
                "Players rated below {} form the group <{}.",
                self.grouping.lowest, self.grouping.lowest
            ));
        }
        notes
    }

    fn text(&self, title: &str) -> String {
        let mut table = TextTable::default();
        let mut first = vec![String::new(), "opponent".to_string()];
        let mut second = vec![self.window_text(), "player".to_string()];
        for &col in &self.shown {
            first.push("vs.".to_string());
            second.push(self.label(col));
        }
        table.push(first);
        table.push(second);
        for &row in &self.shown {
            let mut line = vec![self.row_text(row), self.label(row)];
            line.extend(self.shown.iter().map(|&col| self.cell_text(row, col)));
            table.push(line);
        }
        let mut out = format!("{title}\n\n{}\n", table.render(&[1]));
        for note in self.notes() {
            out.push_str(&note);
            out.push('\n');
        }
        out
    }

    fn markdown(&self, title: &str) -> String {
        let mut out = format!("**{title}**\n\n| {} | player |", self.window_text());
        for &col in &self.shown {
            out.push_str(&format!(" vs. {} |", self.label(col)));
        }
        out.push_str("\n|---:|---|");
        out.push_str(&"---:|".repeat(self.shown.len()));
        out.push('\n');
        for &row in &self.shown {
            out.push_str(&format!("| {} | {} |", self.row_text(row), self.label(row)));
            for &col in &self.shown {
                out.push_str(&format!(" {} |", self.cell_text(row, col)));
            }
            out.push('\n');
        }
        out.push('\n');
        for note in self.notes() {
            out.push_str(&note);
            out.push_str("  \n");
        }
        out
    }

    /// The cells with games (not the diagonal), then each row group against all others.
    fn data_rows(&self) -> Vec<(String, String, Sums, bool)> {
        let mut rows = Vec::new();
        for &row in &self.shown {
            for &col in &self.shown {
                let cell = self.cell(row, col);
                if row != col && cell.games > 0 {
                    rows.push((self.key(row), self.key(col), *cell, self.too_few(cell)));
                }
            }
        }
        for &row in &self.shown {
            let total = self.row_total(row);
            if total.games > 0 {
                rows.push((
                    self.key(row),
                    "all".to_string(),
                    total,
                    self.too_few(&total),
                ));
            }
        }
        rows
    }

    fn csv(&self) -> String {
        let mut out = String::from(
            "row_group,col_group,games,score,expected,diff,ci_low,ci_high,few_games\n",
        );
        for (row, col, s, few) in self.data_rows() {
            let (low, high) = interval(&s);
            out.push_str(&format!(
                "{row},{col},{},{:.6},{:.6},{:.4},{low},{high},{few}\n",
                s.games,
                s.score(),
                s.expected(),
                s.diff(),
            ));
        }
        out
    }

    pub fn json<'a>(&'a self, title: &'a str) -> CrosstableJson<'a> {
        let cells = self
            .data_rows()
            .into_iter()
            .map(|(row_group, col_group, s, few_games)| {
                let (low, high) = interval(&s);
                CellJson {
                    row_group,
                    col_group,
                    games: s.games,
                    score: round_to(s.score(), 6),
                    expected: round_to(s.expected(), 6),
                    diff: round_to(s.diff(), 4),
                    ci_low: low.parse().ok(),
                    ci_high: high.parse().ok(),
                    few_games,
                }
            })
            .collect();
        let groups = self
            .shown
            .iter()
            .map(|&g| GroupJson {
                group: self.key(g),
                label: self.label(g),
                row_label: self.row_text(g),
            })
            .collect();
        CrosstableJson {
            title,
            window: Window::of(&self.selection),
            expected: self.expectation.name(),
            width: self.grouping.width,
            lowest: self.grouping.lowest,
            top: self.grouping.top,
            below: self.grouping.below.name(),
            min_games: self.min_games,
            established: self.selection.established,
            counts: &self.counts,
            groups,
            cells,
        }
    }
}

/// The 95% interval of a cell's difference, as text with two decimals (empty under two games).
fn interval(s: &Sums) -> (String, String) {
    let margin = s.margin();
    if margin.is_nan() {
        return (String::new(), String::new());
    }
    (
        format!("{:.2}", s.diff() - margin),
        format!("{:.2}", s.diff() + margin),
    )
}

/// A crosstable as `--format json` writes it.
#[derive(Serialize)]
pub struct CrosstableJson<'a> {
    title: &'a str,
    window: Window,
    expected: &'static str,
    width: i32,
    lowest: i32,
    top: i32,
    below: &'static str,
    min_games: u64,
    established: Option<u32>,
    counts: &'a Counts,
    groups: Vec<GroupJson>,
    cells: Vec<CellJson>,
}

/// The months of games a table covers (`null`: from the first, or to the last).
#[derive(Serialize)]
pub struct Window {
    from: Option<String>,
    to: Option<String>,
}

impl Window {
    pub fn of(selection: &Selection) -> Window {
        Window {
            from: selection.from.map(|m| m.to_string()),
            to: selection.to.map(|m| m.to_string()),
        }
    }
}

#[derive(Serialize)]
struct GroupJson {
    group: String,
    label: String,
    row_label: String,
}

#[derive(Serialize)]
struct CellJson {
    row_group: String,
    col_group: String,
    games: u64,
    score: f64,
    expected: f64,
    diff: f64,
    ci_low: Option<f64>,
    ci_high: Option<f64>,
    few_games: bool,
}

/// Two crosstables' cells subtracted, the second's minus the first's (B − A, the way `compare`
/// subtracts lists): positive where the second set of ratings has the row group outperform more.
pub struct Difference<'t> {
    pub first: &'t Crosstable,
    pub second: &'t Crosstable,
}

impl Difference<'_> {
    /// The groups both tables show.
    pub fn groups(&self) -> Vec<usize> {
        self.first
            .shown
            .iter()
            .copied()
            .filter(|g| self.second.shown.contains(g))
            .collect()
    }

    /// A cell's difference in percentage points: `None` on the diagonal and where either table
    /// has too few games.
    pub fn value(&self, row: usize, col: usize) -> Option<f64> {
        let (a, b) = (self.first.cell(row, col), self.second.cell(row, col));
        (row != col && !self.first.too_few(a) && !self.second.too_few(b))
            .then(|| b.diff() - a.diff())
    }

    /// A cell as Sonas prints one: `×` on the diagonal, `=0%` with too few games.
    pub fn text(&self, row: usize, col: usize) -> String {
        match self.value(row, col) {
            Some(points) => signed_percent(points, 0),
            None if row == col => "×".to_string(),
            None => "=0%".to_string(),
        }
    }

    /// The row group's difference against all others, to one decimal.
    fn row_text(&self, row: usize) -> String {
        let (a, b) = (self.first.row_total(row), self.second.row_total(row));
        if a.games > 0 && b.games > 0 {
            format!("{} in total", signed_percent(b.diff() - a.diff(), 1))
        } else {
            "no games".to_string()
        }
    }
}

/// The difference of two crosstables (the second minus the first) in Sonas's layout.
pub fn difference_text(difference: &Difference, title: &str) -> String {
    let shown = difference.groups();
    let label = |g| difference.first.label(g);
    let mut table = TextTable::default();
    let mut first = vec![String::new(), "opponent".to_string()];
    let mut second = vec![String::new(), "player".to_string()];
    for &col in &shown {
        first.push("vs.".to_string());
        second.push(label(col));
    }
    table.push(first);
    table.push(second);
    for &row in &shown {
        let mut line = vec![difference.row_text(row), label(row)];
        line.extend(shown.iter().map(|&col| difference.text(row, col)));
        table.push(line);
    }
    format!(
        "{title}\n\n{}\nEach cell: the second table's difference minus the first's (B − A, as `compare` subtracts), in percentage points.\n",
        table.render(&[1])
    )
}

/// The heatmap legend of a crosstable's cells.
pub(super) const LEGEND: &str =
    "red: row group underperformed · blue: outperformed (percentage points)";

impl Crosstable {
    /// The table as a heatmap in Sonas's colours (full colour at 15 percentage points).
    pub fn picture(&self, title: &str) -> Picture {
        let cells = self
            .shown
            .iter()
            .map(|&row| {
                self.shown
                    .iter()
                    .map(|&col| {
                        let cell = self.cell(row, col);
                        let value = (row != col && !self.too_few(cell)).then(|| cell.diff());
                        HeatCell {
                            text: self.cell_text(row, col),
                            value,
                        }
                    })
                    .collect()
            })
            .collect();
        Picture::Heatmap(Heatmap {
            title: title.to_string(),
            subtitle: format!(
                "row group's score minus expected ({}), percentage points per game; =0%: fewer than {} games",
                self.expectation_text(),
                self.min_games.max(1)
            ),
            corner: self.window_text(),
            columns: self.shown.iter().map(|&g| self.label(g)).collect(),
            column_prefix: "vs.".into(),
            rows: self
                .shown
                .iter()
                .map(|&g| (self.row_text(g), self.label(g)))
                .collect(),
            cells,
            full_at: 15.0,
            legend: LEGEND.to_string(),
        })
    }
}
