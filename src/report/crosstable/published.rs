//! Summary crosstables published from real games (`data/published/`): Sonas's two tables of FIDE
//! games, cell by cell, to set a run's table against (`crosstable --against`, `calibrate`).
//!
//! The file has one row per cell: `table,row,col,diff_pp,row_total_pp,row_games`, the groups
//! written as printed (`1200-99`, `2500+`); `diff_pp` is empty where the source prints `=0%` (too
//! few games) and on the diagonal. Each table must be a complete square of contiguous groups of
//! one width, the last group open-ended or not.

use std::collections::BTreeMap;
use std::path::Path;

use crate::ingest::{IngestError, Table};
use crate::model::Month;

use super::{Below, Grouping};

const COLUMNS: &str = "table, row, col, diff_pp, row_total_pp, row_games";

/// One published crosstable.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedTable {
    pub name: String,
    /// The file it was read from, for titles and messages.
    pub file: String,
    /// The groups as printed, lowest first.
    pub labels: Vec<String>,
    /// The grouping that reproduces the labels (the crosstable's group `i + 1` is `labels[i]`).
    pub grouping: Grouping,
    /// `cells[row][col]`: the row group's score minus expected, in percentage points; `None`
    /// where the source prints `=0%` and on the diagonal.
    pub cells: Vec<Vec<Option<f64>>>,
    /// The row group against all others, in percentage points.
    pub row_total: Vec<Option<f64>>,
    /// Games of each row group (each game counts once for each side's group).
    pub row_games: Vec<u64>,
}

impl PublishedTable {
    /// The months the table covers when its name is a span of years (`2008-2012`).
    pub fn window(&self) -> Option<(Month, Month)> {
        let (first, last) = self.name.split_once('-')?;
        let year = |s: &str| {
            s.trim()
                .parse::<i32>()
                .ok()
                .filter(|y| (1000..=9999).contains(y))
        };
        let (first, last) = (year(first)?, year(last)?);
        (first <= last).then_some(())?;
        Some((Month::new(first, 1)?, Month::new(last, 12)?))
    }

    /// The crosstable's index of the table's group `i`.
    pub fn group_index(&self, i: usize) -> usize {
        i + 1
    }

    /// Numbered cells (off the diagonal, not `=0%`).
    pub fn numbered(&self) -> usize {
        self.cells.iter().flatten().filter(|c| c.is_some()).count()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PublishedError {
    #[error(transparent)]
    Ingest(#[from] IngestError),
    #[error("{file}: table {table}: {problem}")]
    Table {
        file: String,
        table: String,
        problem: String,
    },
    #[error("{file} has no table {name:?}; its tables: {names}")]
    NoSuchTable {
        file: String,
        name: String,
        names: String,
    },
    #[error("{file} has {count} tables ({names}); choose one with --table NAME")]
    WhichTable {
        file: String,
        count: usize,
        names: String,
    },
}

/// A group label: `1200-99` or `1200-1299` (its bounds), or `2500+` (open-ended).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    Closed { low: i32, width: i32 },
    Open { low: i32 },
}

impl Label {
    fn parse(text: &str) -> Option<Label> {
        let text = text.trim();
        if let Some(low) = text.strip_suffix('+') {
            return Some(Label::Open {
                low: low.parse().ok()?,
            });
        }
        let (low, high) = text.split_once('-')?;
        let low: i32 = low.parse().ok()?;
        let high_digits: i32 = high.parse().ok()?;
        // "1200-99" abbreviates the upper bound to its last digits, as Sonas prints them.
        let high = if high.len() < low.to_string().len() {
            let unit = 10i32.pow(high.len() as u32);
            low - low % unit + high_digits
        } else {
            high_digits
        };
        (high >= low).then_some(Label::Closed {
            low,
            width: high - low + 1,
        })
    }

    fn low(self) -> i32 {
        match self {
            Label::Closed { low, .. } | Label::Open { low } => low,
        }
    }
}

/// One row of the file, as read.
struct CellRow {
    line: u32,
    row: String,
    col: String,
    diff: Option<f64>,
    row_total: Option<f64>,
    row_games: u64,
}

/// Reads every table of a published file, in the order they first appear.
pub fn read_published(path: &Path) -> Result<Vec<PublishedTable>, PublishedError> {
    let table = Table::open(path, COLUMNS)?;
    let columns = [
        table.require(&["table"])?,
        table.require(&["row"])?,
        table.require(&["col", "column"])?,
        table.require(&["diff_pp", "diff"])?,
        table.require(&["row_total_pp", "row_total"])?,
        table.require(&["row_games"])?,
    ];
    let mut order: Vec<String> = Vec::new();
    let mut rows: BTreeMap<String, Vec<CellRow>> = BTreeMap::new();
    table.for_each_row(&mut |line, cells| {
        let cells = cells?;
        let text = |i: usize| cells[columns[i]].trim();
        let err = |column: &str, problem: String| table.row_error(line, column, problem);
        let points = |i: usize, column: &str| -> Result<Option<f64>, IngestError> {
            let s = text(i);
            if s.is_empty() {
                return Ok(None);
            }
            s.trim_end_matches('%')
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && v.abs() <= 100.0)
                .map(Some)
                .ok_or_else(|| {
                    err(
                        column,
                        format!("expected percentage points from -100 to 100, or empty, got {s:?}"),
                    )
                })
        };
        for (i, column) in [(1, "row"), (2, "col")] {
            if Label::parse(text(i)).is_none() {
                return Err(err(
                    column,
                    format!(
                        "expected a rating group such as 1200-99, 1200-1299 or 2500+, got {:?}",
                        text(i)
                    ),
                ));
            }
        }
        let games = text(5);
        let row_games = games.parse::<u64>().map_err(|_| {
            err(
                "row_games",
                format!("expected a whole number of games, got {games:?}"),
            )
        })?;
        let name = text(0).to_string();
        if name.is_empty() {
            return Err(err("table", "empty: expected the table's name".into()));
        }
        if !order.contains(&name) {
            order.push(name.clone());
        }
        rows.entry(name).or_default().push(CellRow {
            line,
            row: text(1).to_string(),
            col: text(2).to_string(),
            diff: points(3, "diff_pp")?,
            row_total: points(4, "row_total_pp")?,
            row_games,
        });
        Ok(())
    })?;
    if order.is_empty() {
        return Err(table.nothing_read("cells", "cell", COLUMNS).into());
    }
    order
        .into_iter()
        .map(|name| {
            let cells = rows.remove(&name).unwrap_or_default();
            assemble(table.file(), name, cells)
        })
        .collect()
}

/// Picks the table named `name`, or the only one.
pub fn choose(
    tables: Vec<PublishedTable>,
    name: Option<&str>,
    file: &str,
) -> Result<PublishedTable, PublishedError> {
    let names = tables
        .iter()
        .map(|t| t.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    match name {
        Some(name) => {
            tables
                .into_iter()
                .find(|t| t.name == name)
                .ok_or_else(|| PublishedError::NoSuchTable {
                    file: file.to_string(),
                    name: name.to_string(),
                    names,
                })
        }
        None if tables.len() == 1 => Ok(tables.into_iter().next().expect("one table")),
        None => Err(PublishedError::WhichTable {
            file: file.to_string(),
            count: tables.len(),
            names,
        }),
    }
}

/// One table's cells as a square of contiguous groups.
fn assemble(
    file: &str,
    name: String,
    cells: Vec<CellRow>,
) -> Result<PublishedTable, PublishedError> {
    let problem = |problem: String| PublishedError::Table {
        file: file.to_string(),
        table: name.clone(),
        problem,
    };
    let mut labels: Vec<(Label, String)> = Vec::new();
    for c in &cells {
        for text in [&c.row, &c.col] {
            let label = Label::parse(text).expect("checked when read");
            if !labels.iter().any(|(l, _)| *l == label) {
                labels.push((label, text.clone()));
            }
        }
    }
    labels.sort_by_key(|(l, _)| l.low());
    let n = labels.len();
    let width = match labels[0].0 {
        Label::Closed { width, .. } => width,
        Label::Open { .. } => {
            return Err(problem(
                "expected closed groups below an open-ended top group".into(),
            ))
        }
    };
    for (i, (label, text)) in labels.iter().enumerate() {
        let expected_low = labels[0].0.low() + i as i32 * width;
        let fits = match *label {
            Label::Closed { low, width: w } => low == expected_low && w == width,
            Label::Open { low } => low == expected_low && i == n - 1,
        };
        if !fits {
            return Err(problem(format!(
                "group {text} does not continue the groups of {width} points from {}; expected contiguous groups of one width, only the last open-ended (2500+)",
                labels[0].1
            )));
        }
    }
    let top = labels[0].0.low() + (n as i32 - 1) * width;
    let open_top = matches!(labels[n - 1].0, Label::Open { .. });
    let grouping = Grouping {
        width,
        lowest: labels[0].0.low(),
        // A closed last group still needs a top: ratings from its upper bound up are left over as
        // the crosstable's top group, outside the published groups.
        top: if open_top { top } else { top + width },
        below: Below::Drop,
    };
    let index = |text: &str| {
        let label = Label::parse(text).expect("checked when read");
        labels
            .iter()
            .position(|(l, _)| *l == label)
            .expect("collected above")
    };
    let mut grid: Vec<Vec<Option<Option<f64>>>> = vec![vec![None; n]; n];
    let mut totals: Vec<Option<(Option<f64>, u64, u32)>> = vec![None; n];
    for c in &cells {
        let (r, k) = (index(&c.row), index(&c.col));
        if grid[r][k].is_some() {
            return Err(problem(format!(
                "line {}: the cell {} against {} is given twice",
                c.line, c.row, c.col
            )));
        }
        if r == k && c.diff.is_some() {
            return Err(problem(format!(
                "line {}: the diagonal cell {} against itself has a value; expected it empty",
                c.line, c.row
            )));
        }
        grid[r][k] = Some(c.diff);
        match totals[r] {
            None => totals[r] = Some((c.row_total, c.row_games, c.line)),
            Some((total, games, first)) if total != c.row_total || games != c.row_games => {
                return Err(problem(format!(
                    "line {}: row {} has a different row_total_pp or row_games than on line {first}; expected the same on every cell of a row",
                    c.line, c.row
                )))
            }
            Some(_) => {}
        }
    }
    for (r, row) in grid.iter().enumerate() {
        if let Some(k) = row.iter().position(Option::is_none) {
            return Err(problem(format!(
                "no cell {} against {}; expected every pair of groups, each once",
                labels[r].1, labels[k].1
            )));
        }
    }
    Ok(PublishedTable {
        file: file.to_string(),
        labels: labels.into_iter().map(|(_, text)| text).collect(),
        grouping,
        cells: grid
            .into_iter()
            .map(|row| row.into_iter().map(Option::flatten).collect())
            .collect(),
        row_total: totals.iter().map(|t| t.and_then(|t| t.0)).collect(),
        row_games: totals.iter().map(|t| t.map_or(0, |t| t.1)).collect(),
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let dir = crate::testing::scratch("published");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn labels_as_sonas_prints_them() {
        assert_eq!(
            Label::parse("1200-99"),
            Some(Label::Closed {
                low: 1200,
                width: 100
            })
        );
        assert_eq!(
            Label::parse("1000-1099"),
            Some(Label::Closed {
                low: 1000,
                width: 100
            })
        );
        assert_eq!(
            Label::parse("1950-99"),
            Some(Label::Closed {
                low: 1950,
                width: 50
            })
        );
        assert_eq!(Label::parse("2500+"), Some(Label::Open { low: 2500 }));
        assert_eq!(Label::parse("abc"), None);
        assert_eq!(Label::parse("1300-1200"), None);
    }

    #[test]
    fn the_shipped_tables_are_sonas_two() {
        let tables = read_published(Path::new("data/published/sonas-crosstables.csv")).unwrap();
        let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["2008-2012", "2021-2023"]);
        let old = &tables[0];
        assert_eq!(old.labels.len(), 14);
        assert_eq!(
            (old.grouping.lowest, old.grouping.top, old.grouping.width),
            (1200, 2500, 100)
        );
        // Sonas's first example: 1200-99 against 1300-99, +1 %; the row: +4.5 % in 6,865 games.
        assert_eq!(old.cells[0][1], Some(1.0));
        assert_eq!(old.row_total[0], Some(4.5));
        assert_eq!(old.row_games[0], 6865);
        assert_eq!(old.cells[0][0], None);
        assert_eq!(old.cells[0][10], None, "=0%");
        let new = &tables[1];
        assert_eq!((new.grouping.lowest, new.labels.len()), (1000, 16));
        assert_eq!(new.cells[15][12], Some(-3.0), "2500+ against 2200-99");
        let m = |y, m| Month::new(y, m).unwrap();
        assert_eq!(old.window(), Some((m(2008, 1), m(2012, 12))));
        assert_eq!(new.numbered(), 230);
        assert_eq!(old.numbered(), 166);
    }

    #[test]
    fn bad_files_name_the_line_and_column() {
        let header = "table,row,col,diff_pp,row_total_pp,row_games\n";
        let cases = [
            ("score.csv", format!("{header}t,1200-99,1300-99,x,1,10\n"), "line 2, column diff_pp"),
            ("group.csv", format!("{header}t,12xx,1300-99,1,1,10\n"), "line 2, column row"),
            ("games.csv", format!("{header}t,1200-99,1300-99,1,1,-5\n"), "line 2, column row_games"),
            (
                "missing.csv",
                format!("{header}t,1200-99,1200-99,,1,10\nt,1200-99,1300-99,1,1,10\nt,1300-99,1300-99,,1,10\n"),
                "no cell 1300-99 against 1200-99",
            ),
            (
                "twice.csv",
                format!("{header}t,1200-99,1200-99,,1,10\nt,1200-99,1200-99,,1,10\n"),
                "given twice",
            ),
            (
                "gap.csv",
                format!("{header}t,1200-99,1200-99,,1,10\nt,1200-99,1400-99,1,1,10\nt,1400-99,1200-99,1,1,10\nt,1400-99,1400-99,,1,10\n"),
                "does not continue",
            ),
            ("empty.csv", header.to_string(), "no cells"),
            ("columns.csv", "table,row,col\n".to_string(), "missing column `diff_pp"),
        ];
        for (name, text, expected) in cases {
            let e = read_published(&write(name, &text)).unwrap_err().to_string();
            assert!(e.contains(expected), "{name}: {e}");
            assert!(e.contains(name), "{name}: {e}");
        }
    }

    #[test]
    fn a_table_is_chosen_by_name_or_alone() {
        let tables = read_published(Path::new("data/published/sonas-crosstables.csv")).unwrap();
        let e = choose(tables.clone(), None, "f").unwrap_err().to_string();
        assert!(e.contains("2008-2012, 2021-2023"), "{e}");
        let e = choose(tables.clone(), Some("2017"), "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no table \"2017\""), "{e}");
        assert_eq!(
            choose(tables, Some("2021-2023"), "f").unwrap().name,
            "2021-2023"
        );
    }
}
