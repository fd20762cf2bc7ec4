//! A run's `lists.parquet` read back as its lists. The table holds the starting list whole, then
//! each list's changed rows (a row with an empty rating: the player left the list); a player's
//! row stays in force until their next one (README, "What you get"). Every report that reads
//! lists goes through here, so that each sees whole lists. Runs written before this layout held
//! every list whole (`summary.json` says which), and read the same.

use polars::prelude::*;

use crate::ingest::{enum_codes, intern, month_codes, RawIds};
use crate::model::{Month, PlayerIds};
use crate::output::tables::STATUS;
use crate::replay::{CurrentList, ListRows};

use super::run_files::{ReportError, RunFiles};

/// What of the lists to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Columns {
    /// Ids, ratings and status (the other columns left at zero): what most reports need.
    Ratings,
    /// Every column.
    All,
}

/// A run's lists, up to the last one read.
pub struct RunLists {
    /// Every list of the run, the starting list first (also those after the last one read).
    pub months: Vec<Month>,
    /// The players' ids; `rows.player` indexes them, in sorted order of the ids.
    pub ids: PlayerIds,
    /// The rows read: list t's are `rows.starts[t]..rows.starts[t + 1]`.
    pub rows: ListRows,
    /// The run holds every list whole (written before lists held changes).
    whole_lists: bool,
}

impl RunLists {
    /// Reads the lists up to `through` (every list when `None`; at least the starting list); a
    /// month the run has no list for is an error naming the run's lists.
    pub fn read(
        run: &RunFiles,
        through: Option<Month>,
        columns: Columns,
    ) -> Result<RunLists, ReportError> {
        let path = run.dir.join(NAME);
        let table = |e: PolarsError| ReportError::Table {
            path: path.clone(),
            message: e.to_string(),
        };
        let (months, codes) = list_codes(run)?;
        let last = match through {
            Some(month) => months
                .iter()
                .position(|&m| m == month)
                .ok_or_else(|| no_list(run, &months, month))?,
            None => months.len().saturating_sub(1),
        };
        let read = codes.partition_point(|&c| c as usize <= last);
        let df = match columns {
            Columns::All => run.read_first(NAME, read)?,
            Columns::Ratings => run.read_rows(NAME, &["id", "rating", "status"], (0, read))?,
        };
        let mut rows = list_rows(&df, columns).map_err(table)?;
        let (ids, mut dense) = intern(&[&raw_ids(&df).map_err(table)?]);
        rows.player = dense.pop().unwrap_or_default();
        rows.starts = (0..=last + 1)
            .map(|t| codes[..read].partition_point(|&c| (c as usize) < t))
            .collect();
        Ok(RunLists {
            months,
            ids,
            rows,
            whole_lists: !run.lists_hold_changes(),
        })
    }

    /// The lists read.
    pub fn len(&self) -> usize {
        self.rows.starts.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Goes through the lists read in order, handing `visit` each list's index and the list in
    /// force (whose `changed` are the players of that list's rows); returns the last list.
    pub fn walk<E>(
        &self,
        mut visit: impl FnMut(usize, &CurrentList) -> Result<(), E>,
    ) -> Result<CurrentList, E> {
        let mut current = CurrentList::new(self.ids.len());
        for t in 0..self.len() {
            let range = self.rows.starts[t]..self.rows.starts[t + 1];
            if self.whole_lists {
                current.apply_whole(t, &self.rows, range);
            } else {
                current.apply(t, &self.rows, range);
            }
            visit(t, &current)?;
        }
        Ok(current)
    }

    /// The last list read, in force.
    pub fn last(&self) -> CurrentList {
        match self.walk(|_, _| Ok::<(), std::convert::Infallible>(())) {
            Ok(current) => current,
        }
    }
}

const NAME: &str = "lists.parquet";

/// Every list of the run, the starting list first.
pub fn list_months(run: &RunFiles) -> Result<Vec<Month>, ReportError> {
    Ok(list_codes(run)?.0)
}

/// Every list of the run, and each row's index into them.
fn list_codes(run: &RunFiles) -> Result<(Vec<Month>, Vec<u32>), ReportError> {
    let table = |message: String| ReportError::Table {
        path: run.dir.join(NAME),
        message,
    };
    let (months, codes) = month_codes(&run.read_columns(NAME, &["month"])?, "month")
        .map_err(|e| table(e.to_string()))?;
    if !codes.is_sorted() {
        return Err(table(
            "the lists are not in month order, as a run writes them".into(),
        ));
    }
    if months.is_empty() {
        return Err(ReportError::NotFound(format!(
            "{}: the run has no lists",
            run.dir.display()
        )));
    }
    Ok((months, codes))
}

/// The error for a month the run has no list for: before its starting list, after its last
/// list, or between two of its lists, each named.
pub fn no_list(run: &RunFiles, months: &[Month], month: Month) -> ReportError {
    let (Some(&first), Some(&last)) = (months.first(), months.last()) else {
        return ReportError::NotFound(format!(
            "{}: the run has no list for {month}; it has no lists",
            run.dir.display()
        ));
    };
    let place = if month < first {
        format!("{month} is before the starting list {first}: the run starts later")
    } else if month > last {
        format!("{month} is after the last list: nothing was computed after {last}")
    } else {
        let after = months.partition_point(|&m| m < month);
        format!(
            "the lists either side of {month} are {} and {}",
            months[after - 1],
            months[after]
        )
    };
    ReportError::NotFound(format!(
        "{}: the run has no list for {month}; its lists run from {first} to {last}, and {place}",
        run.dir.display()
    ))
}

/// The `id` column as ids to intern: numbers, or text.
fn raw_ids(df: &DataFrame) -> PolarsResult<RawIds> {
    let column = df.column("id")?;
    if column.dtype() == &DataType::Int64 {
        return Ok(RawIds::Numbers(
            values(column.i64()?, 0)
                .into_iter()
                .map(|v| v as u64)
                .collect(),
        ));
    }
    let text = column.cast(&DataType::String)?;
    Ok(RawIds::Text(
        text.str()?
            .iter()
            .map(|v| v.unwrap_or("").to_string())
            .collect(),
    ))
}

/// A numeric column's values, a null as `null`, taken array by array: millions of rows, so not
/// through polars' row iterator.
fn values<T: PolarsNumericType>(column: &ChunkedArray<T>, null: T::Native) -> Vec<T::Native> {
    let mut out = Vec::with_capacity(column.len());
    for array in column.downcast_iter() {
        match array.validity() {
            None => out.extend_from_slice(array.values()),
            Some(valid) => {
                out.extend(array.values().iter().zip(valid.iter()).map(|(&v, valid)| {
                    if valid {
                        v
                    } else {
                        null
                    }
                }))
            }
        }
    }
    out
}

/// Whether each row is inactive: `status` through its Enum's codes as a run writes it (else its
/// text).
fn inactive(df: &DataFrame) -> PolarsResult<Vec<bool>> {
    let status = df.column("status")?;
    if let Some((categories, codes)) = enum_codes(status)? {
        let inactive = categories.iter().position(|&c| c == STATUS[1]);
        return Ok(codes
            .iter()
            .map(|&c| c.is_some_and(|c| Some(c as usize) == inactive))
            .collect());
    }
    let text = status.cast(&DataType::String)?;
    Ok(text.str()?.iter().map(|s| s == Some(STATUS[1])).collect())
}

/// The table's rows as a run's lists (players still to be numbered); with `Columns::Ratings`, the
/// columns not read are zero.
fn list_rows(df: &DataFrame, columns: Columns) -> PolarsResult<ListRows> {
    let n = df.height();
    let counts = |name: &str| -> PolarsResult<Vec<i32>> {
        match columns {
            Columns::Ratings => Ok(vec![0; n]),
            Columns::All => Ok(values(df.column(name)?.i32()?, 0)),
        }
    };
    let floats = |name: &str| -> PolarsResult<Option<Vec<f64>>> {
        match df.column(name) {
            Ok(c) => Ok(Some(values(c.f64()?, f64::NAN))),
            Err(_) => Ok(None),
        }
    };
    let rating = df.column("rating")?.i32()?;
    let exact = floats("rating_exact")?;
    let deviation = floats("rd")?;
    let (new, change) = match columns {
        Columns::All => (
            df.column("new")?
                .bool()?
                .iter()
                .map(|n| n.unwrap_or(false))
                .collect(),
            df.column("change")?.i32()?.iter().collect(),
        ),
        Columns::Ratings => (vec![false; n], vec![Some(0); n]),
    };
    Ok(ListRows {
        starts: Vec::new(),
        player: Vec::new(),
        listed: rating.iter().map(|r| r.is_some()).collect(),
        rating: values(rating, 0),
        k: counts("k")?
            .into_iter()
            .map(|k| k.clamp(0, 255) as u8)
            .collect(),
        games: counts("games")?
            .into_iter()
            .map(|g| g.max(0) as u32)
            .collect(),
        total_games: counts("total_games")?
            .into_iter()
            .map(|g| g.max(0) as u32)
            .collect(),
        inactive: inactive(df)?,
        new,
        change,
        with_exact: exact.is_some(),
        with_deviation: deviation.is_some(),
        exact: exact.unwrap_or_default(),
        deviation: deviation.unwrap_or_default(),
    })
}
