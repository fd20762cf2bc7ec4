//! Reading a run directory's tables back with polars.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::scenario::{Scenario, ScenarioError};

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{}: not an elosim run directory (no {missing}); write one with `elosim replay --out DIR`", dir.display())]
    NotARun { dir: PathBuf, missing: &'static str },
    #[error("cannot read {}: {message}", path.display())]
    Table { path: PathBuf, message: String },
    #[error("{}: unreadable, not the JSON summary a replay writes ({reason}); replay the run again to write it", path.display())]
    BadSummary { path: PathBuf, reason: String },
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error("{0}")]
    NotFound(String),
    #[error("{}: the games carry no ratings (no WhiteElo/BlackElo tags, or no white_rating/black_rating columns); give a run directory, or a file that records the players' ratings", path.display())]
    NoRatings { path: PathBuf },
    #[error(transparent)]
    Ingest(#[from] crate::ingest::IngestError),
}

/// A run's `summary.json`: `None` where there is none, an error where it cannot be read as JSON
/// (so that a damaged summary is not taken for a missing one, nor read as an old layout).
fn read_summary(path: &Path) -> Result<Option<serde_json::Value>, ReportError> {
    let bad = |reason: String| ReportError::BadSummary {
        path: path.to_path_buf(),
        reason,
    };
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(bad(e.to_string())),
    };
    serde_json::from_slice(&text)
        .map(Some)
        .map_err(|e| bad(e.to_string()))
}

/// A run directory's files.
pub struct RunFiles {
    pub dir: PathBuf,
    pub scenario: Scenario,
    /// `summary.json`, which runs of early versions lack.
    pub summary: Option<serde_json::Value>,
}

impl RunFiles {
    pub fn open(dir: &Path) -> Result<RunFiles, ReportError> {
        for missing in ["scenario.resolved.toml", "lists.parquet", "games.parquet"] {
            if !dir.join(missing).is_file() {
                return Err(ReportError::NotARun {
                    dir: dir.to_path_buf(),
                    missing,
                });
            }
        }
        let scenario = Scenario::load(&dir.join("scenario.resolved.toml"))?;
        Ok(RunFiles {
            dir: dir.to_path_buf(),
            scenario,
            summary: read_summary(&dir.join("summary.json"))?,
        })
    }

    pub fn read(&self, name: &str) -> Result<DataFrame, ReportError> {
        self.read_some(name, None)
    }

    /// Only the named columns of one of the run's tables.
    pub fn read_columns(&self, name: &str, columns: &[&str]) -> Result<DataFrame, ReportError> {
        self.read_some(name, Some(columns.iter().map(|c| c.to_string()).collect()))
    }

    /// Only the named columns of the rows `offset..offset + len` of one of the run's tables.
    pub fn read_rows(
        &self,
        name: &str,
        columns: &[&str],
        (offset, len): (usize, usize),
    ) -> Result<DataFrame, ReportError> {
        self.read_parquet(
            name,
            Some(columns.iter().map(|c| c.to_string()).collect()),
            Some((offset, len)),
        )
    }

    /// Every column of the first `rows` rows of one of the run's tables.
    pub fn read_first(&self, name: &str, rows: usize) -> Result<DataFrame, ReportError> {
        self.read_parquet(name, None, Some((0, rows)))
    }

    /// The named columns of one of the run's tables, row group by row group: `visit` sees each
    /// group's rows, so that memory holds one group and not the table.
    pub fn visit_row_groups(
        &self,
        name: &str,
        columns: &[&str],
        mut visit: impl FnMut(&DataFrame) -> PolarsResult<()>,
    ) -> Result<(), ReportError> {
        let error = self.table_error(name);
        let groups: Vec<usize> = self
            .reader(name)?
            .get_metadata()
            .map_err(&error)?
            .row_groups
            .iter()
            .map(|group| group.num_rows())
            .collect();
        let mut offset = 0;
        for rows in groups {
            visit(&self.read_rows(name, columns, (offset, rows))?).map_err(&error)?;
            offset += rows;
        }
        Ok(())
    }

    /// Whether the run has the table `name` (runs of older versions lack some).
    pub fn has(&self, name: &str) -> bool {
        self.dir.join(name).is_file()
    }

    /// Whether `lists.parquet` holds each list's changes after the starting list (`summary.json`'s
    /// `lists_layout`); runs written before it hold every list whole.
    pub fn lists_hold_changes(&self) -> bool {
        self.summary.as_ref().is_some_and(|summary| {
            summary.get("lists_layout").and_then(|v| v.as_str())
                == Some(crate::output::LISTS_LAYOUT)
        })
    }

    /// The names of the columns one of the run's tables holds, from its footer (no row is read).
    pub fn column_names(&self, name: &str) -> Result<Vec<String>, ReportError> {
        let schema = self
            .reader(name)?
            .schema()
            .map_err(self.table_error(name))?;
        Ok(schema.iter_names().map(|n| n.to_string()).collect())
    }

    fn read_some(
        &self,
        name: &str,
        columns: Option<Vec<String>>,
    ) -> Result<DataFrame, ReportError> {
        self.read_parquet(name, columns, None)
    }

    fn read_parquet(
        &self,
        name: &str,
        columns: Option<Vec<String>>,
        slice: Option<(usize, usize)>,
    ) -> Result<DataFrame, ReportError> {
        self.reader(name)?
            .with_columns(columns)
            .with_slice(slice)
            .finish()
            .map_err(self.table_error(name))
    }

    /// A reader of one of the run's tables.
    fn reader(&self, name: &str) -> Result<ParquetReader<std::fs::File>, ReportError> {
        let file = std::fs::File::open(self.dir.join(name))
            .map_err(|e| self.table_error(name)(e.into()))?;
        Ok(ParquetReader::new(file))
    }

    /// A problem with one of the run's tables, naming the file.
    fn table_error(&self, name: &str) -> impl Fn(PolarsError) -> ReportError {
        let path = self.dir.join(name);
        move |e| ReportError::Table {
            path: path.clone(),
            message: e.to_string(),
        }
    }
}

/// A column of player ids as numbers: FIDE-like ids as they are, text ids through `interner`
/// (negative keys, so that they never meet a number), shared when two tables are joined.
pub fn id_keys(
    df: &DataFrame,
    name: &str,
    interner: &mut std::collections::HashMap<String, i64>,
) -> PolarsResult<Vec<i64>> {
    let column = df.column(name)?;
    if column.dtype() == &DataType::Int64 {
        return Ok(column
            .i64()?
            .iter()
            .map(|v| v.unwrap_or(i64::MIN))
            .collect());
    }
    let text = column.cast(&DataType::String)?;
    Ok(text
        .str()?
        .iter()
        .map(|v| {
            let next = -(interner.len() as i64) - 1;
            *interner.entry(v.unwrap_or("").to_string()).or_insert(next)
        })
        .collect())
}

/// A column as text (ids may be numbers or text).
pub fn text_column(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<String>>> {
    let column = df.column(name)?.cast(&DataType::String)?;
    Ok(column
        .str()?
        .iter()
        .map(|v| v.map(str::to_string))
        .collect())
}

pub fn int_column(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<i32>>> {
    Ok(df.column(name)?.i32()?.iter().collect())
}

pub fn long_column(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<i64>>> {
    Ok(df.column(name)?.i64()?.iter().collect())
}

pub fn float_column(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<f64>>> {
    Ok(df.column(name)?.f64()?.iter().collect())
}

pub fn bool_column(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<bool>>> {
    Ok(df.column(name)?.bool()?.iter().collect())
}

/// One side's quantity of `games.parquet` in hundredths, `{quantity}_hundredths` (FIDE's PD as
/// `white_expected`, its K × (score − PD) as `white_change`); runs written before those columns
/// hold the same hundredths divided by 100 as floats under `{quantity}`, read back exactly.
pub fn hundredths_column(df: &DataFrame, quantity: &str) -> PolarsResult<Vec<Option<i32>>> {
    match df.column(&format!("{quantity}_hundredths")) {
        Ok(column) => Ok(column.i32()?.iter().collect()),
        Err(_) => Ok(df
            .column(quantity)?
            .f64()?
            .iter()
            .map(|v| v.map(|v| (v * 100.0).round() as i32))
            .collect()),
    }
}

/// The columns of `games.parquet` that give one side's expected score, of those `names` holds:
/// the unrounded score of a system that computes in real numbers, the hundredths, and the float
/// of runs written before the hundredths.
pub fn expected_score_columns(names: &[String], side: &str) -> Vec<String> {
    ["_expected_exact", "_expected_hundredths", "_expected"]
        .map(|suffix| format!("{side}{suffix}"))
        .into_iter()
        .filter(|c| names.contains(c))
        .collect()
}

/// One side's expected score in each game of `df` (read with [`expected_score_columns`]): the
/// unrounded one where the run recorded it, else the hundredths over 100; `None` where the side
/// had none.
pub fn expected_score_column(df: &DataFrame, side: &str) -> PolarsResult<Vec<Option<f64>>> {
    let Ok(hundredths) = df.column(&format!("{side}_expected_hundredths")) else {
        // A run written before the hundredths: its floats are the expected scores as they were
        // (unrounded for the systems that compute in real numbers).
        return Ok(df
            .column(&format!("{side}_expected"))?
            .f64()?
            .iter()
            .collect());
    };
    let hundredths = hundredths
        .i32()?
        .iter()
        .map(|h| h.map(|h| f64::from(h) / 100.0));
    match df.column(&format!("{side}_expected_exact")) {
        Ok(exact) => Ok(exact
            .f64()?
            .iter()
            .zip(hundredths)
            .map(|(e, h)| e.or(h))
            .collect()),
        Err(_) => Ok(hundredths.collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of several row groups is visited whole, in order, one group at a time.
    #[test]
    fn a_table_is_visited_row_group_by_row_group() {
        let dir = crate::testing::scratch("row-groups");
        let mut df =
            df!("white" => (0..10i64).collect::<Vec<_>>(), "black" => vec![1i64; 10]).unwrap();
        ParquetWriter::new(std::fs::File::create(dir.join("games.parquet")).unwrap())
            .with_row_group_size(Some(3))
            .finish(&mut df)
            .unwrap();
        let run = RunFiles {
            dir,
            scenario: Scenario::load(Path::new("scenarios/fide-historical.toml")).unwrap(),
            summary: None,
        };
        let (mut seen, mut groups) = (Vec::new(), Vec::new());
        run.visit_row_groups("games.parquet", &["white"], |group| {
            groups.push(group.height());
            seen.extend(group.column("white")?.i64()?.into_no_null_iter());
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        // Polars' writer folds a short last group into the one before.
        assert_eq!(groups, [3, 3, 4]);
    }
}
