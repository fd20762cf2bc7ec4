//! Tables of text cells from CSV or Parquet, found columns, and counted skips of invalid rows.

use std::collections::BTreeMap;
use std::path::Path;

#[cfg(feature = "full")]
use polars::prelude::*;

use super::error::IngestError;
use super::raw::control_character;
#[cfg(feature = "full")]
use super::text::{read_bytes, repeated_column, sha256};
use super::text::{Csv, RowFn};
use crate::model::Month;

/// Rows of text cells, whatever the file format.
pub enum Table {
    Csv(Csv),
    #[cfg(feature = "full")]
    Parquet(ParquetTable),
}

#[cfg(feature = "full")]
pub struct ParquetTable {
    file: String,
    sha256: String,
    header: Vec<String>,
    /// Which columns hold floats: their whole values read as integers ("101", not "101.0").
    floats: Vec<bool>,
    /// Every column as text, kept in Arrow's string arrays: rows are read as borrowed cells, with
    /// no string made per cell (a 14-million-game file would otherwise need 84 million of them).
    columns: Vec<StringChunked>,
}

impl Table {
    /// Opens a CSV (any extension but `.parquet`) or Parquet file. `expected` describes the
    /// columns for messages about empty files.
    pub fn open(path: &Path, expected: &str) -> Result<Table, IngestError> {
        if is_parquet(path) {
            read_parquet(path)
        } else {
            Csv::open(path, expected).map(Table::Csv)
        }
    }

    pub fn file(&self) -> &str {
        match self {
            Table::Csv(c) => &c.file,
            #[cfg(feature = "full")]
            Table::Parquet(p) => &p.file,
        }
    }

    /// The SHA-256 of the file's bytes.
    pub fn sha256(&self) -> &str {
        match self {
            Table::Csv(c) => &c.sha256,
            #[cfg(feature = "full")]
            Table::Parquet(p) => &p.sha256,
        }
    }

    pub fn header(&self) -> &[String] {
        match self {
            Table::Csv(c) => &c.header,
            #[cfg(feature = "full")]
            Table::Parquet(p) => &p.header,
        }
    }

    /// What a row's number counts: lines of a CSV file, rows of a Parquet file.
    pub fn row_word(&self) -> &'static str {
        match self {
            Table::Csv(_) => "line",
            #[cfg(feature = "full")]
            Table::Parquet(_) => "row",
        }
    }

    /// The error of a file that held no row of what it should: `what` the plural ("cells"), `row`
    /// what one row is ("cell"), `columns` the columns expected.
    pub fn nothing_read(&self, what: &str, row: &str, columns: &str) -> IngestError {
        IngestError::File {
            file: self.file().to_string(),
            problem: format!("no {what}: expected one row per {row} with the columns {columns}"),
        }
    }

    /// "line 12" in a CSV file, "row 12" in a Parquet file.
    pub fn place(&self, line: u32) -> String {
        format!("{} {line}", self.row_word())
    }

    pub fn for_each_row(&self, f: &mut RowFn<'_>) -> Result<(), IngestError> {
        match self {
            Table::Csv(c) => c.for_each_row(f),
            #[cfg(feature = "full")]
            Table::Parquet(p) => {
                let rows = p.columns.first().map_or(0, |c| c.len());
                let mut columns: Vec<_> = p.columns.iter().map(|c| c.iter()).collect();
                let mut cells: Vec<&str> = Vec::with_capacity(columns.len());
                for row in 0..rows {
                    cells.clear();
                    cells.extend(columns.iter_mut().map(|c| c.next().flatten().unwrap_or("")));
                    f(row as u32 + 1, Ok(&cells))?;
                }
                Ok(())
            }
        }
    }

    /// The index of the first column named like one of `names` (case and surrounding spaces ignored).
    pub fn find(&self, names: &[&str]) -> Option<usize> {
        let header = self.header();
        names
            .iter()
            .find_map(|n| header.iter().position(|h| h.trim().eq_ignore_ascii_case(n)))
    }

    /// Like `find`, but a missing column is an error that lists the header and suggests a near name.
    pub fn require(&self, names: &[&str]) -> Result<usize, IngestError> {
        self.find(names).ok_or_else(|| {
            let header = self.header();
            let near = header
                .iter()
                .find(|h| crate::keys::near(h, names).is_some());
            IngestError::MissingColumn {
                file: self.file().to_string(),
                column: names.join("` or `"),
                found: super::error::header_names(header),
                hint: near
                    .map(|h| format!(" (is `{h}` a misspelling?)"))
                    .unwrap_or_default(),
            }
        })
    }

    /// Cell `index` of a row as a player id (`column` names it in messages): not empty, free of
    /// control characters, and a whole number where the column holds floats.
    pub fn player_id<'a>(
        &self,
        line: u32,
        (index, column): (usize, &str),
        cells: &[&'a str],
    ) -> Result<&'a str, IngestError> {
        let id = cells[index].trim();
        if id.is_empty() {
            return Err(self.row_error(line, column, "empty: expected a player id".into()));
        }
        if let Some(problem) = control_character(id) {
            return Err(self.row_error(line, column, problem));
        }
        if self.holds_floats(index) && !id.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
            return Err(self.row_error(
                line,
                column,
                format!("expected a whole number as the player id, at most 2^53 (the column holds floats, whose whole values up to 2^53 = 9007199254740992 are read as integers exactly); got {id:?}"),
            ));
        }
        Ok(id)
    }

    /// Whether column `index` holds floats: only a Parquet table's can (a build without Parquet
    /// reads none).
    #[cfg_attr(not(feature = "full"), expect(unused_variables))]
    fn holds_floats(&self, index: usize) -> bool {
        match self {
            Table::Csv(_) => false,
            #[cfg(feature = "full")]
            Table::Parquet(p) => p.floats[index],
        }
    }

    pub fn row_error(&self, line: u32, column: &str, problem: String) -> IngestError {
        IngestError::Row {
            file: self.file().to_string(),
            place: self.place(line),
            column: column.to_string(),
            problem,
        }
    }

    /// A cell that must be a month `YYYY-MM`, or the row's error naming its column.
    pub fn month_cell(&self, line: u32, column: &str, text: &str) -> Result<Month, IngestError> {
        Month::parse(text).ok_or_else(|| {
            self.row_error(
                line,
                column,
                format!("expected a month YYYY-MM, got {text:?}"),
            )
        })
    }
}

pub fn is_parquet(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
}

/// Without the `full` feature the library reads no Parquet.
#[cfg(not(feature = "full"))]
fn read_parquet(path: &Path) -> Result<Table, IngestError> {
    Err(IngestError::File {
        file: path.display().to_string(),
        problem: "this build of elosim reads no Parquet (it was built without the `full` feature)"
            .to_string(),
    })
}

#[cfg(feature = "full")]
fn read_parquet(path: &Path) -> Result<Table, IngestError> {
    let file = path.display().to_string();
    let problem = |e: PolarsError| IngestError::File {
        file: file.clone(),
        problem: format!("not a readable Parquet file: {e}"),
    };
    let bytes = read_bytes(path)?;
    let sha256 = sha256(&bytes);
    let df = ParquetReader::new(std::io::Cursor::new(bytes))
        .finish()
        .map_err(problem)?;
    let header: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    if let Some(problem) = repeated_column(&header) {
        return Err(IngestError::File { file, problem });
    }
    let mut columns = Vec::with_capacity(header.len());
    let mut floats = Vec::with_capacity(header.len());
    for name in &header {
        let column = df.column(name).map_err(problem)?;
        let unreadable = |e: PolarsError| IngestError::File {
            file: file.clone(),
            problem: format!(
                "column `{name}` of type {} cannot be read as text: {e}",
                column.dtype()
            ),
        };
        floats.push(column.dtype().is_float());
        let text = if column.dtype().is_float() {
            floats_as_text(column).map_err(unreadable)?
        } else {
            let text = column.cast(&DataType::String).map_err(unreadable)?;
            text.str().map_err(problem)?.clone()
        };
        columns.push(text);
    }
    Ok(Table::Parquet(ParquetTable {
        file,
        sha256,
        header,
        floats,
        columns,
    }))
}

/// A float column as text, whole values as integers: ids and ratings stored as floats (as a
/// dataframe library writes a column with a missing value) read as the numbers they are, "101"
/// and not "101.0", which would match no other file's "101".
#[cfg(feature = "full")]
fn floats_as_text(column: &Column) -> PolarsResult<StringChunked> {
    /// Floats are whole numbers exactly up to 2^53.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    let values = column.cast(&DataType::Float64)?;
    let text = values.f64()?.iter().map(|v| {
        v.map(|v| {
            if v.fract() == 0.0 && v.abs() <= EXACT {
                format!("{}", v as i64)
            } else if v.fract() == 0.0 {
                // Beyond 2^53 a float's digits are not the number written (1e30 would read as
                // 1000000000000000019884624838656): kept as the float it is, which no id is.
                format!("{v:e}")
            } else {
                v.to_string()
            }
        })
    });
    Ok(StringChunked::from_iter_options(
        column.name().clone(),
        text,
    ))
}

/// Invalid rows: an error, or with `--skip-invalid` a count per reason.
#[derive(Clone, Debug, Default)]
pub struct Skips {
    pub skip_invalid: bool,
    /// Reason → (rows skipped, the first such row's place).
    pub counts: BTreeMap<String, (usize, String)>,
}

impl Skips {
    pub fn new(skip_invalid: bool) -> Skips {
        Skips {
            skip_invalid,
            counts: BTreeMap::new(),
        }
    }

    /// Adds the rows `other` skipped, read after this one's (a reason's first row stays this
    /// one's when both skipped for it).
    pub fn absorb(&mut self, other: Skips) {
        for (reason, (rows, place)) in other.counts {
            self.counts.entry(reason).or_insert((0, place)).0 += rows;
        }
    }

    /// Passes a row's value through, or skips the row (`None`) when allowed.
    pub fn check<T>(&mut self, result: Result<T, IngestError>) -> Result<Option<T>, IngestError> {
        match result {
            Ok(v) => Ok(Some(v)),
            Err(e) if self.skip_invalid && e.is_row_level() => {
                let place = match &e {
                    IngestError::Row { file, place, .. } => format!("{file}, {place}"),
                    IngestError::Record { file, line, .. } => format!("{file}, line {line}"),
                    _ => String::new(),
                };
                self.counts.entry(e.reason()).or_insert((0, place)).0 += 1;
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    pub fn total(&self) -> usize {
        self.counts.values().map(|(n, _)| n).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(file: &str, row: u32, problem: &str) -> Result<(), IngestError> {
        Err(IngestError::Row {
            file: file.into(),
            place: format!("row {row}"),
            column: "rating".into(),
            problem: problem.into(),
        })
    }

    /// Rows skipped in files read side by side count as if read in turn: the first file's first
    /// row of a reason stays the one named.
    #[test]
    fn skips_of_files_read_side_by_side_add_up() {
        let (mut games, mut list) = (Skips::new(true), Skips::new(true));
        games
            .check(bad("games.csv", 4, "expected a rating"))
            .unwrap();
        list.check(bad("start.csv", 2, "expected a rating"))
            .unwrap();
        list.check(bad("start.csv", 3, "expected a rating"))
            .unwrap();
        list.check(bad("start.csv", 5, "expected a K")).unwrap();
        games.absorb(list);
        assert_eq!(games.total(), 4);
        let counts: Vec<_> = games.counts.values().cloned().collect();
        assert_eq!(
            counts,
            [
                (1, "start.csv, row 5".to_string()),
                (3, "games.csv, row 4".to_string())
            ]
        );
    }
}
