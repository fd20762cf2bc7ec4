//! A run's crosstable beside a published one (`crosstable --against`): the two tables, their
//! difference cell by cell, and the distance figures, as text, Markdown, CSV, JSON or heatmaps.

use serde::Serialize;

use crate::numbers::{round_to, thousands};
use crate::output::pretty_json;
use crate::plot::{HeatCell, Heatmap, Picture};
use crate::report::TextTable;

use super::format::{Window, LEGEND};
use super::{signed_percent, Crosstable, Distance, Format, PublishedTable};

/// The run's table set against a published one.
pub struct Against<'a> {
    pub published: &'a PublishedTable,
    pub run: &'a Crosstable,
    pub distance: &'a Distance,
    /// What the run is (its scenario's name).
    pub label: String,
}

/// A run's table set against a published one, as `--format json` writes it.
#[derive(Serialize)]
pub struct AgainstJson<'a> {
    run: &'a str,
    window: Window,
    published: Source<'a>,
    thresholds: ThresholdsJson,
    rmse: Option<f64>,
    compared_cells: usize,
    signs_agree: usize,
    covered_cells: usize,
    numbered_cells: usize,
    worst_share: Option<WorstShare<'a>>,
    /// The run's games at FIDE's size against the published table's, in all rows.
    games_ratio: f64,
    worst_games: Option<WorstShare<'a>>,
    cells: Vec<CellJson<'a>>,
    rows: Vec<RowJson<'a>>,
    games_used: u64,
}

#[derive(Serialize)]
struct Source<'a> {
    file: &'a str,
    table: &'a str,
}

#[derive(Serialize)]
struct ThresholdsJson {
    compared_games: u64,
    covered_games: u64,
    share_floor: f64,
    size: f64,
}

#[derive(Serialize)]
struct WorstShare<'a> {
    group: &'a str,
    factor: f64,
    ratio: f64,
}

#[derive(Serialize)]
struct CellJson<'a> {
    row_group: &'a str,
    col_group: &'a str,
    published: Option<f64>,
    run: Option<f64>,
    difference: Option<f64>,
    games: u64,
}

#[derive(Serialize)]
struct RowJson<'a> {
    group: &'a str,
    published_share: f64,
    run_share: f64,
    ratio: f64,
    published_games: u64,
    /// The run's games in the row divided by its size.
    run_games: f64,
    games_ratio: f64,
    judged: bool,
}

impl Against<'_> {
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Md => self.markdown(),
            Format::Csv => self.csv(),
            Format::Json => pretty_json(&self.json()),
        }
    }

    fn n(&self) -> usize {
        self.published.labels.len()
    }

    fn group(&self, i: usize) -> &str {
        &self.published.labels[i]
    }

    /// The published row label, as Sonas prints it: "+4.5% in 6,865 games".
    fn published_row_text(&self, r: usize) -> String {
        match self.published.row_total[r] {
            Some(total) => format!(
                "{} in {} games",
                signed_percent(total, 1),
                thousands(self.published.row_games[r])
            ),
            None => format!("in {} games", thousands(self.published.row_games[r])),
        }
    }

    fn published_cell_text(&self, r: usize, c: usize) -> String {
        match (r == c, self.published.cells[r][c]) {
            (true, _) => "×".into(),
            (false, None) => "=0%".into(),
            (false, Some(v)) => signed_percent(v, 0),
        }
    }

    fn run_cell_text(&self, r: usize, c: usize) -> String {
        let sums = self
            .run
            .cell(self.published.group_index(r), self.published.group_index(c));
        match r == c {
            true => "×".into(),
            false if sums.games < self.distance.thresholds.covered.max(1) => "=0%".into(),
            false => signed_percent(sums.diff(), 0),
        }
    }

    /// The difference of a compared cell (run minus published), else `·`.
    fn difference(&self, r: usize, c: usize) -> Option<f64> {
        self.distance
            .compared()
            .find(|x| x.row == r && x.col == c)
            .and_then(|x| x.difference())
    }

    fn difference_text(&self, r: usize, c: usize) -> String {
        if r == c {
            return "×".into();
        }
        self.difference(r, c)
            .map_or("·".into(), |d| signed_percent(d, 0))
    }

    fn run_row_text(&self, r: usize) -> String {
        self.run.row_text(self.published.group_index(r))
    }

    /// One table in Sonas's layout: row label, group, then a cell per group.
    fn grid(
        &self,
        corner: &str,
        row_label: &dyn Fn(usize) -> String,
        cell: &dyn Fn(usize, usize) -> String,
    ) -> String {
        let mut table = TextTable::default();
        let mut first = vec![String::new(), "opponent".to_string()];
        let mut second = vec![corner.to_string(), "player".to_string()];
        for c in 0..self.n() {
            first.push("vs.".into());
            second.push(self.group(c).to_string());
        }
        table.push(first);
        table.push(second);
        for r in 0..self.n() {
            let mut line = vec![row_label(r), self.group(r).to_string()];
            line.extend((0..self.n()).map(|c| cell(r, c)));
            table.push(line);
        }
        table.render(&[1])
    }

    fn window(&self) -> String {
        self.run.window_text()
    }

    /// The distance figures, one line each.
    pub fn figures(&self) -> Vec<(String, String)> {
        let d = self.distance;
        let t = d.thresholds;
        let percent = |a: usize, b: usize| {
            if b == 0 {
                "–".to_string()
            } else {
                format!("{:.0} %", 100.0 * a as f64 / b as f64)
            }
        };
        let (agree, compared) = d.signs();
        let (covered, numbered) = d.coverage();
        let mut figures = vec![
            (
                "RMSE".to_string(),
                match d.rmse() {
                    Some(r) => format!(
                        "{r:.2} percentage points per cell, over {compared} numbered cells with at least {} games in the run",
                        thousands(t.compared)
                    ),
                    None => format!("no numbered cell has {} games in the run", thousands(t.compared)),
                },
            ),
            (
                "signs agree".to_string(),
                format!("in {agree} of {compared} cells ({}): both within ±1 point, or on the same side", percent(agree, compared)),
            ),
            (
                "coverage".to_string(),
                format!(
                    "{covered} of the {numbered} published numbered cells have at least {} games in the run ({})",
                    thousands(t.covered),
                    percent(covered, numbered)
                ),
            ),
        ];
        if let Some(worst) = d.worst_share() {
            figures.push((
                "row shares".to_string(),
                format!(
                    "worst {}: ×{:.2} too {} (run {:.2} %, published {:.2} % of the games); rows with at least {:.0} % of the published games judged",
                    self.group(worst.row),
                    worst.factor(),
                    if worst.ratio() >= 1.0 { "many" } else { "few" },
                    100.0 * worst.run,
                    100.0 * worst.published,
                    100.0 * t.share_floor
                ),
            ));
        }
        if let Some(worst) = d.worst_games() {
            figures.push((
                "row games".to_string(),
                format!(
                    "×{:.2} the published games in all{}; worst {}: ×{:.2} ({} against {}); rows judged as above",
                    d.games_ratio(),
                    size_text(t.size).map_or(String::new(), |s| format!(" ({s})")),
                    self.group(worst.row),
                    worst.games_ratio(),
                    thousands(worst.run_games.round() as u64),
                    thousands(worst.published_games)
                ),
            ));
        }
        figures
    }

    fn share_table(&self) -> TextTable {
        let mut table = TextTable::default();
        table.push(vec![
            "group".into(),
            "published".into(),
            "run".into(),
            "run / published".into(),
            "published games".into(),
            "run games".into(),
            "run / published".into(),
        ]);
        for s in &self.distance.rows {
            table.push(vec![
                self.group(s.row).to_string(),
                format!("{:.2} %", 100.0 * s.published),
                format!("{:.2} %", 100.0 * s.run),
                format!("{:.2}", s.ratio()),
                thousands(s.published_games),
                thousands(s.run_games.round() as u64),
                format!("{:.2}", s.games_ratio()),
            ]);
        }
        table
    }

    fn heading(&self) -> String {
        format!(
            "{}, {} against the published table {} ({})",
            self.label,
            self.window(),
            self.published.name,
            self.published.file
        )
    }

    fn text(&self) -> String {
        let published = self.grid(
            &format!("published {}", self.published.name),
            &|r| self.published_row_text(r),
            &|r, c| self.published_cell_text(r, c),
        );
        let run = self.grid(&self.window(), &|r| self.run_row_text(r), &|r, c| {
            self.run_cell_text(r, c)
        });
        let difference = self.grid("run − published", &|_| String::new(), &|r, c| {
            self.difference_text(r, c)
        });
        let t = self.distance.thresholds;
        let mut out = format!(
            "{}\n\nPublished:\n\n{published}\nRun ({}; =0%: fewer than {} games):\n\n{run}\nDifference, run minus published, in percentage points (·: the cell is =0% in the source or has fewer than {} games in the run):\n\n{difference}\nDistance:\n",
            self.heading(),
            self.label,
            thousands(t.covered.max(1)),
            thousands(t.compared.max(1)),
        );
        let mut figures = TextTable::default();
        for (name, value) in self.figures() {
            figures.push(vec![format!("  {name}"), value]);
        }
        out.push_str(&figures.render(&[0, 1]));
        let scaled = size_text(t.size).map_or(String::new(), |s| format!("; {s}"));
        out.push_str(&format!("\nEach row group's share of all games and its number of games (each game counts for both players' groups{scaled}):\n\n"));
        out.push_str(&self.share_table().render(&[0]));
        out.push_str(&format!(
            "\nThe source rounds every cell to a whole point, so a cell is only known to ±0.5.\nGames used from the run: {}.\n",
            thousands(self.run.counts.used)
        ));
        out
    }

    fn markdown_grid(
        &self,
        corner: &str,
        row_label: &dyn Fn(usize) -> String,
        cell: &dyn Fn(usize, usize) -> String,
    ) -> String {
        let mut out = format!("| {corner} | player |");
        for c in 0..self.n() {
            out.push_str(&format!(" vs. {} |", self.group(c)));
        }
        out.push_str("\n|---:|---|");
        out.push_str(&"---:|".repeat(self.n()));
        out.push('\n');
        for r in 0..self.n() {
            out.push_str(&format!("| {} | {} |", row_label(r), self.group(r)));
            for c in 0..self.n() {
                out.push_str(&format!(" {} |", cell(r, c)));
            }
            out.push('\n');
        }
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!("**{}**\n\nPublished:\n\n", self.heading());
        out.push_str(&self.markdown_grid(
            &self.published.name,
            &|r| self.published_row_text(r),
            &|r, c| self.published_cell_text(r, c),
        ));
        out.push_str("\nRun:\n\n");
        out.push_str(
            &self.markdown_grid(&self.window(), &|r| self.run_row_text(r), &|r, c| {
                self.run_cell_text(r, c)
            }),
        );
        out.push_str("\nRun minus published:\n\n");
        out.push_str(
            &self.markdown_grid("", &|_| String::new(), &|r, c| self.difference_text(r, c)),
        );
        out.push_str("\n| figure | value |\n|---|---|\n");
        for (name, value) in self.figures() {
            out.push_str(&format!("| {name} | {value} |\n"));
        }
        out.push_str(
            "\n| group | published share | run share | run / published | published games | run games | run / published |\n|---|---:|---:|---:|---:|---:|---:|\n",
        );
        for s in &self.distance.rows {
            out.push_str(&format!(
                "| {} | {:.2} % | {:.2} % | {:.2} | {} | {} | {:.2} |\n",
                self.group(s.row),
                100.0 * s.published,
                100.0 * s.run,
                s.ratio(),
                thousands(s.published_games),
                thousands(s.run_games.round() as u64),
                s.games_ratio()
            ));
        }
        out
    }

    /// One row per cell (`kind` cell) and two per row group: `kind` share, in percent of all
    /// games, and `kind` games, the run's divided by its size.
    fn csv(&self) -> String {
        let mut out =
            String::from("kind,row_group,col_group,published,run,difference,games,compared\n");
        let number = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.4}"));
        let compared: Vec<(usize, usize)> =
            self.distance.compared().map(|c| (c.row, c.col)).collect();
        for c in &self.distance.cells {
            out.push_str(&format!(
                "cell,{},{},{},{},{},{},{}\n",
                self.group(c.row),
                self.group(c.col),
                number(c.published),
                number(c.run),
                number(c.difference()),
                c.games,
                compared.contains(&(c.row, c.col))
            ));
        }
        for s in &self.distance.rows {
            out.push_str(&format!(
                "share,{},all,{:.4},{:.4},{:.4},{},{}\n",
                self.group(s.row),
                100.0 * s.published,
                100.0 * s.run,
                100.0 * (s.run - s.published),
                self.run.row_total(self.published.group_index(s.row)).games,
                s.published >= self.distance.thresholds.share_floor
            ));
        }
        for s in &self.distance.rows {
            out.push_str(&format!(
                "games,{},all,{},{:.1},{:.1},{},{}\n",
                self.group(s.row),
                s.published_games,
                s.run_games,
                s.run_games - s.published_games as f64,
                self.run.row_total(self.published.group_index(s.row)).games,
                s.published >= self.distance.thresholds.share_floor
            ));
        }
        out
    }

    pub fn json(&self) -> AgainstJson<'_> {
        let d = self.distance;
        let (signs_agree, compared_cells) = d.signs();
        let (covered_cells, numbered_cells) = d.coverage();
        let round = |v: f64| round_to(v, 4);
        AgainstJson {
            run: &self.label,
            window: Window::of(&self.run.selection),
            published: Source {
                file: &self.published.file,
                table: &self.published.name,
            },
            thresholds: ThresholdsJson {
                compared_games: d.thresholds.compared,
                covered_games: d.thresholds.covered,
                share_floor: d.thresholds.share_floor,
                size: d.thresholds.size,
            },
            rmse: d.rmse().map(round),
            compared_cells,
            signs_agree,
            covered_cells,
            numbered_cells,
            worst_share: d.worst_share().map(|s| WorstShare {
                group: self.group(s.row),
                factor: round(s.factor()),
                ratio: round(s.ratio()),
            }),
            games_ratio: round(d.games_ratio()),
            worst_games: d.worst_games().map(|s| WorstShare {
                group: self.group(s.row),
                factor: round(s.games_factor()),
                ratio: round(s.games_ratio()),
            }),
            cells: d
                .cells
                .iter()
                .map(|c| CellJson {
                    row_group: self.group(c.row),
                    col_group: self.group(c.col),
                    published: c.published,
                    run: c.run.map(round),
                    difference: c.difference().map(round),
                    games: c.games,
                })
                .collect(),
            rows: d
                .rows
                .iter()
                .map(|s| RowJson {
                    group: self.group(s.row),
                    published_share: round(s.published),
                    run_share: round(s.run),
                    ratio: round(s.ratio()),
                    published_games: s.published_games,
                    run_games: round_to(s.run_games, 1),
                    games_ratio: round(s.games_ratio()),
                    judged: s.published >= d.thresholds.share_floor,
                })
                .collect(),
            games_used: self.run.counts.used,
        }
    }

    fn heatmap(
        &self,
        (title, subtitle, legend): (String, String, &str),
        row_label: &dyn Fn(usize) -> String,
        cell: &dyn Fn(usize, usize) -> (String, Option<f64>),
    ) -> Heatmap {
        Heatmap {
            title,
            subtitle,
            corner: self.window(),
            columns: self.published.labels.clone(),
            column_prefix: "vs.".into(),
            rows: (0..self.n())
                .map(|r| (row_label(r), self.group(r).to_string()))
                .collect(),
            cells: (0..self.n())
                .map(|r| {
                    (0..self.n())
                        .map(|c| {
                            let (text, value) = cell(r, c);
                            HeatCell { text, value }
                        })
                        .collect()
                })
                .collect(),
            full_at: 15.0,
            legend: legend.to_string(),
        }
    }

    /// Three heatmaps side by side: the published table, the run's and their difference.
    pub fn picture(&self) -> Picture {
        let published = self.heatmap(
            (
                format!("published: {}", self.published.name),
                format!("{}; =0%: too few games", self.published.file),
                LEGEND,
            ),
            &|r| self.published_row_text(r),
            &|r, c| {
                let value = self.published.cells[r][c].filter(|_| r != c);
                (self.published_cell_text(r, c), value)
            },
        );
        let covered = format!(
            "score minus expected (FIDE's table, 400-point rule); =0%: fewer than {} games",
            thousands(self.distance.thresholds.covered.max(1))
        );
        let run = self.heatmap(
            (
                format!("{}: {}", self.label, self.window()),
                covered,
                LEGEND,
            ),
            &|r| self.run_row_text(r),
            &|r, c| {
                let text = self.run_cell_text(r, c);
                let sums = self
                    .run
                    .cell(self.published.group_index(r), self.published.group_index(c));
                let value = (text != "=0%" && r != c).then(|| sums.diff());
                (text, value)
            },
        );
        let rmse = self
            .distance
            .rmse()
            .map_or("–".into(), |r| format!("{r:.2}"));
        let not_compared = format!(
            "·: not compared (=0% in the source, or fewer than {} games in the run)",
            thousands(self.distance.thresholds.compared.max(1))
        );
        let difference = self.heatmap(
            (
                format!("run minus published: RMSE {rmse} points"),
                not_compared,
                "red: the run's row group does worse than the real one · blue: better (percentage points)",
            ),
            &|_| String::new(),
            &|r, c| (self.difference_text(r, c), self.difference(r, c)),
        );
        Picture::Panels(vec![published, run, difference])
    }
}

/// "the run's divided by S, its size against FIDE's" for a run of size S other than 1.
fn size_text(size: f64) -> Option<String> {
    (size != 1.0).then(|| format!("the run's divided by {size}, its size against FIDE's"))
}
