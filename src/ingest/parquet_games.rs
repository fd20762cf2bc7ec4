//! Canonical games from Parquet read column by column in their own types: ids as integers, the
//! period through its dictionary, the score as a number. The text path (every cell cast to a
//! string, then parsed) gives the same games; this one is for the files elosim writes itself
//! (`elosim generate`, a run's `games.parquet`), which hold millions of rows. Files with other
//! column types go the text way.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use polars::prelude::*;

use crate::model::{Day, EventType, Games, HalfPoints, Month, EVENT_NONE};
use crate::scenario::GameFormat;

use super::error::IngestError;
use super::ids::RawIds;
use super::raw::{parse_event_type, partition_mismatch, sort_event_names, Extras, RawGames};
use super::table::Skips;
use super::text::{read_bytes, sha256};
use crate::model::{FirstSeen, IdMap};

/// The typed columns of one slice of a canonical games file, when every one has a type this reader
/// knows.
struct Columns {
    /// Each row's month; `None` when a file of a partitioned dataset leaves its period out.
    period: Option<Vec<Month>>,
    event: Option<Column>,
    event_start: Option<Column>,
    event_type: Option<Column>,
    white: Numbers<Int64Type>,
    black: Numbers<Int64Type>,
    score: Numbers<Float64Type>,
    /// White's and Black's recorded ratings.
    ratings: Option<(Numbers<Int64Type>, Numbers<Int64Type>)>,
}

/// Reads `path` if its columns are the canonical ones in types this reader knows; `None` sends the
/// file to the text path (a date column, text ids, a score written as text, …). A file of a
/// month-partitioned dataset (`partition`) may leave its period out.
pub fn read(
    path: &Path,
    partition: Option<Month>,
    skips: &mut Skips,
) -> Result<Option<RawGames>, IngestError> {
    read_in_slices(path, partition, skips, SLICE_ROWS)
}

/// Rows per slice read.
const SLICE_ROWS: usize = 1 << 20;

/// `read`, `slice_rows` rows at a time, so that polars' frame holds one slice and not the whole
/// file.
fn read_in_slices(
    path: &Path,
    partition: Option<Month>,
    skips: &mut Skips,
    slice_rows: usize,
) -> Result<Option<RawGames>, IngestError> {
    let file = path.display().to_string();
    let bytes = read_bytes(path)?;
    let checksum = sha256(&bytes);
    let Ok(rows) = ParquetReader::new(std::io::Cursor::new(&bytes[..])).num_rows() else {
        return Ok(None);
    };
    let mut out = RawGames {
        games: Games {
            source: file.clone(),
            row_word: "row",
            event_names: vec![String::new()],
            ..Games::default()
        },
        white: RawIds::Numbers(Vec::with_capacity(rows)),
        black: RawIds::Numbers(Vec::with_capacity(rows)),
        sha256: checksum,
        extras: Extras::Table(GameFormat::Canonical),
    };
    reserve(&mut out.games, rows);
    let mut events = EventNumbers::default();
    for offset in (0..rows.max(1)).step_by(slice_rows) {
        let Ok(df) = ParquetReader::new(std::io::Cursor::new(&bytes[..]))
            .with_slice(Some((offset, slice_rows)))
            .finish()
        else {
            return Ok(None);
        };
        let Some(columns) = typed_columns(&df, partition.is_some()) else {
            return Ok(None);
        };
        let slice = Slice {
            events: events.rows(columns.event.as_ref()),
            starts: Starts::read(columns.event_start.as_ref(), &file)?,
            types: Cells::read(columns.event_type.as_ref(), &file, parse_event_type)?,
            columns,
            offset,
            rows: df.height(),
        };
        slice.add_to(&mut out, partition, skips)?;
    }
    sort_event_names(&mut out.games, events.names());
    Ok(Some(out))
}

/// Room for `rows` games in every column a file of this reader fills but the recorded ratings
/// (which it may not have), so that the columns grow once.
fn reserve(g: &mut Games, rows: usize) {
    g.period.reserve_exact(rows);
    g.event.reserve_exact(rows);
    g.event_start.reserve_exact(rows);
    g.score.reserve_exact(rows);
    g.source_row.reserve_exact(rows);
}

/// A number column of one slice as one array: its values, and which rows hold one. Checks run on
/// the whole array at once, and nothing is made per row.
struct Numbers<T: PolarsNumericType>(ChunkedArray<T>);

impl<T: PolarsNumericType> Numbers<T> {
    /// `column` as numbers of `T` in one array; `None` when it cannot be cast.
    fn of(column: &Column) -> Option<Self> {
        let cast = column.cast(&T::get_static_dtype()).ok()?;
        let numbers = cast.as_materialized_series().unpack::<T>().ok()?;
        Some(Numbers(numbers.rechunk().into_owned()))
    }

    fn array(&self) -> Option<&T::Array> {
        self.0.downcast_iter().next()
    }

    /// Every row's value (whatever is stored under a null).
    fn values(&self) -> &[T::Native] {
        self.array().map_or(&[], |a| a.values().as_slice())
    }

    /// Row `i`'s value; `None` for a null.
    fn get(&self, i: usize) -> Option<T::Native> {
        self.0.get(i)
    }

    /// The values of `rows`, `None` for a null.
    fn options(&self, rows: Range<usize>) -> impl Iterator<Item = Option<T::Native>> + '_ {
        let validity = self.array().and_then(|a| a.validity());
        let valid = validity.filter(|_| self.0.null_count() > 0);
        self.values()[rows.clone()]
            .iter()
            .zip(rows)
            .map(move |(&v, i)| valid.is_none_or(|valid| valid.get_bit(i)).then_some(v))
    }

    /// Whether a value (not a null) passes `test`.
    fn any(&self, test: impl Fn(T::Native) -> bool) -> bool {
        self.options(0..self.values().len())
            .any(|v| v.is_some_and(&test))
    }

    /// Marks in `bad` the rows whose value `is_bad` refuses, and the nulls when `nulls_bad`.
    fn mark(&self, bad: &mut [bool], nulls_bad: bool, is_bad: impl Fn(T::Native) -> bool) {
        bad.iter_mut()
            .zip(self.options(0..self.values().len()))
            .for_each(|(b, v)| *b |= v.map_or(nulls_bad, &is_bad));
    }
}

/// A recorded rating as the row checks see it.
fn rating(r: i64) -> i32 {
    r.clamp(-1, 100_000) as i32
}

/// One slice of the file's rows, its columns read.
struct Slice {
    columns: Columns,
    /// Each row's event number; empty without an event column.
    events: Vec<u32>,
    starts: Starts,
    types: Cells<EventType>,
    /// Rows before it in the file.
    offset: usize,
    rows: usize,
}

impl Slice {
    /// Checks the rows column by column, then adds each run of good rows to `out` at once; a bad
    /// row is an error, or a counted skip.
    fn add_to(
        &self,
        out: &mut RawGames,
        partition: Option<Month>,
        skips: &mut Skips,
    ) -> Result<(), IngestError> {
        let bad = self.bad_rows(partition);
        let mut from = 0;
        while from < self.rows {
            let to = bad[from..]
                .iter()
                .position(|&b| b)
                .map_or(self.rows, |n| from + n);
            self.append(out, from..to, partition);
            if to == self.rows {
                break;
            }
            match self.problem(to, partition, &out.games.source) {
                Some(e) => {
                    skips.check::<()>(Err(e))?;
                }
                None => self.append(out, to..to + 1, partition),
            }
            from = to + 1;
        }
        Ok(())
    }

    /// The rows that fail a check, found column by column.
    fn bad_rows(&self, partition: Option<Month>) -> Vec<bool> {
        let c = &self.columns;
        let mut bad = vec![false; self.rows];
        match (&c.period, partition) {
            (Some(own), Some(partition)) => bad
                .iter_mut()
                .zip(own)
                .for_each(|(b, &m)| *b |= m != partition),
            (None, None) => bad.fill(true),
            _ => {}
        }
        c.white.mark(&mut bad, true, |_| false);
        c.black.mark(&mut bad, true, |_| false);
        bad.iter_mut()
            .zip(c.white.values().iter().zip(c.black.values()))
            .for_each(|(b, (w, k))| *b |= w == k);
        c.score.mark(&mut bad, true, |s| !is_score(s));
        if let Some((w, b)) = &c.ratings {
            let out_of_range = |r: i64| !(0..=4000).contains(&rating(r));
            w.mark(&mut bad, false, out_of_range);
            b.mark(&mut bad, false, out_of_range);
        }
        self.starts.mark(&mut bad);
        self.types.mark(&mut bad);
        bad
    }

    /// What is wrong with row `i`, checked in the order a row's columns are read; `None` for a good
    /// row.
    fn problem(&self, i: usize, partition: Option<Month>, file: &str) -> Option<IngestError> {
        let c = &self.columns;
        let row = self.offset + i + 1;
        let problem = |column: &str, problem: String| {
            Some(IngestError::Row {
                file: file.to_string(),
                place: format!("row {row}"),
                column: column.into(),
                problem,
            })
        };
        let period = c.period.as_ref().map(|p| p[i]);
        if let Some((own, partition)) = period.zip(partition).filter(|(o, p)| o != p) {
            return problem("period", partition_mismatch(own, partition));
        }
        if period.or(partition).is_none() {
            return problem(
                "period",
                "empty: every game needs its period (YYYY-MM) or its date (YYYY-MM-DD)".into(),
            );
        }
        let (Some(w), Some(b)) = (c.white.get(i), c.black.get(i)) else {
            let column = if c.white.get(i).is_none() {
                "white"
            } else {
                "black"
            };
            return problem(column, "empty: expected a player id".into());
        };
        if w == b {
            return problem("black", format!("player {w} cannot play himself"));
        }
        let score = c.score.get(i);
        if !score.is_some_and(is_score) {
            return problem(
                "score",
                format!(
                    "expected White's score, one of 1, 0.5, 0, 1-0, 0-1, 1/2-1/2 or ½-½; got {:?}",
                    score.map_or(String::new(), |s| s.to_string())
                ),
            );
        }
        if let Some((w, b)) = &c.ratings {
            let bad = [(w.get(i), "white_rating"), (b.get(i), "black_rating")]
                .into_iter()
                .find_map(|(r, column)| {
                    r.map(rating)
                        .filter(|r| !(0..=4000).contains(r))
                        .map(|r| (r, column))
                });
            if let Some((r, column)) = bad {
                return problem(
                    column,
                    format!("expected a rating from 0 to 4000 or nothing, got \"{r}\""),
                );
            }
        }
        if let Some(Err(expected)) = self.starts.get(i) {
            return problem("event_start", expected.to_string());
        }
        if let Some(Err(expected)) = self.types.get(i) {
            return problem("event_type", expected.clone());
        }
        None
    }

    /// Adds the good rows `rows` to `out`, column by column.
    fn append(&self, out: &mut RawGames, rows: Range<usize>, partition: Option<Month>) {
        let c = &self.columns;
        let g = &mut out.games;
        let n = rows.len();
        match &c.period {
            Some(own) => g.period.extend(own[rows.clone()].iter().map(|&m| Some(m))),
            None => g.period.extend(std::iter::repeat_n(partition, n)),
        }
        match self.events.get(rows.clone()) {
            Some(events) => g.event.extend_from_slice(events),
            None => g.event.extend(std::iter::repeat_n(EVENT_NONE, n)),
        }
        self.starts.extend(rows.clone(), &mut g.event_start);
        self.types.extend(rows.clone(), &mut g.event_type);
        let score = &c.score.values()[rows.clone()];
        g.score
            .extend(score.iter().map(|&s| (s * 2.0) as HalfPoints));
        if let Some((w, b)) = &c.ratings {
            g.white_rating
                .extend(w.options(rows.clone()).map(|r| r.map(rating)));
            g.black_rating
                .extend(b.options(rows.clone()).map(|r| r.map(rating)));
        }
        let first = (self.offset + rows.start + 1) as u32;
        g.source_row.extend(first..first + n as u32);
        if let (RawIds::Numbers(white), RawIds::Numbers(black)) = (&mut out.white, &mut out.black) {
            white.extend(c.white.values()[rows.clone()].iter().map(|&id| id as u64));
            black.extend(c.black.values()[rows].iter().map(|&id| id as u64));
        }
    }
}

/// White's score as a number: 1, 0.5 or 0.
fn is_score(s: f64) -> bool {
    s == 0.0 || s == 0.5 || s == 1.0
}

/// The canonical columns, if each has a type read here: period as Enum or text, ids as integers,
/// score as a number, ratings as integers; no date column (dates go the text way).
fn typed_columns(df: &DataFrame, partitioned: bool) -> Option<Columns> {
    let get = |name: &str| df.column(name).ok();
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    // A date column, or a name given twice (which the text path refuses), go the text way.
    if get("date").is_some() || super::text::repeated_column(&names).is_some() {
        return None;
    }
    let ints = |name: &str| -> Option<Numbers<Int64Type>> {
        get(name)
            .filter(|c| c.dtype().is_integer())
            .and_then(Numbers::of)
    };
    let period = match get("period") {
        Some(c) if matches!(c.dtype(), DataType::Enum(..) | DataType::String) => {
            Some(month_column(df, "period").ok()?)
        }
        None if partitioned => None,
        _ => return None,
    };
    let score = get("score")
        .filter(|c| matches!(c.dtype(), DataType::Float64 | DataType::Float32))
        .and_then(Numbers::of)?;
    let ratings = match (get("white_rating"), get("black_rating")) {
        (Some(_), Some(_)) => Some((ints("white_rating")?, ints("black_rating")?)),
        (None, None) => None,
        _ => return None,
    };
    let (white, black) = (ints("white")?, ints("black")?);
    // Negative numbers are not plain ids: the text path reads them as text.
    if white.any(|id| id < 0) || black.any(|id| id < 0) {
        return None;
    }
    Some(Columns {
        period,
        event: get("event").cloned(),
        event_start: get("event_start").cloned(),
        event_type: get("event_type").cloned(),
        white,
        black,
        score,
        ratings,
    })
}

/// Events numbered 1, 2, … in order of first appearance through the whole file ([`EVENT_NONE`]
/// without one); numbered events (as the generator writes them) told apart by number, and each
/// distinct value made into a name once.
#[derive(Default)]
struct EventNumbers(FirstSeen<i64>);

impl EventNumbers {
    /// Each row's event number.
    fn rows(&mut self, column: Option<&Column>) -> Vec<u32> {
        if let Some(numbers) = column
            .filter(|c| c.dtype().is_integer())
            .and_then(Numbers::<Int64Type>::of)
        {
            // An event's games are nearly always consecutive: the last number is looked up once.
            let mut last = None;
            return (0..numbers.values().len())
                .map(|i| match (numbers.get(i), last) {
                    (None, _) => EVENT_NONE,
                    (Some(v), Some((seen, n))) if v == seen => n,
                    (Some(v), _) => {
                        let n = self.0.number(v) + 1;
                        last = Some((v, n));
                        n
                    }
                })
                .collect();
        }
        let Some(text) = column.and_then(|c| c.cast(&DataType::String).ok()) else {
            return Vec::new();
        };
        let Ok(text) = text.str() else {
            return Vec::new();
        };
        text.iter()
            .map(|v| match v.map(str::trim).filter(|v| !v.is_empty()) {
                Some(v) => self.0.text(v) + 1,
                None => EVENT_NONE,
            })
            .collect()
    }

    /// Each distinct event's name and number.
    fn names(self) -> HashMap<String, u32> {
        self.0.into_names().map(|(name, i)| (name, i + 1)).collect()
    }
}

/// A column's cells parsed by `parse` (which says what is wrong with a text it cannot read), each
/// distinct text once: a row holds the index of its value, 4 bytes whatever the value's type.
struct Cells<T> {
    codes: Vec<u32>,
    values: Vec<Result<T, String>>,
}

impl<T> Cells<T> {
    /// Row `i`'s value; `None` when the file has no such column.
    fn get(&self, i: usize) -> Option<&Result<T, String>> {
        self.codes.get(i).map(|&c| &self.values[c as usize])
    }

    /// An Enum column (as elosim writes it) through its categories and codes, other columns as text
    /// (trimmed; a null is an empty text); no column gives no cells.
    fn read(
        column: Option<&Column>,
        file: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Cells<T>, IngestError> {
        let mut cells = Cells {
            codes: Vec::new(),
            values: Vec::new(),
        };
        let Some(column) = column else {
            return Ok(cells);
        };
        let bad = |e: PolarsError| IngestError::File {
            file: file.to_string(),
            problem: format!("column {} cannot be read as text: {e}", column.name()),
        };
        if let Some((categories, codes)) = enum_codes(column).map_err(bad)? {
            cells.values = categories.iter().map(|c| parse(c.trim())).collect();
            let null = cells.values.len() as u32;
            cells.values.push(parse(""));
            cells.codes = codes.into_iter().map(|c| c.unwrap_or(null)).collect();
            return Ok(cells);
        }
        let text = column.cast(&DataType::String).map_err(bad)?;
        let mut seen: IdMap<&str, u32> = IdMap::default();
        for v in text.str().map_err(bad)?.iter() {
            let v = v.map_or("", str::trim);
            let code = *seen.entry(v).or_insert_with(|| {
                cells.values.push(parse(v));
                cells.values.len() as u32 - 1
            });
            cells.codes.push(code);
        }
        Ok(cells)
    }
}

impl<T: Copy> Cells<T> {
    /// Marks in `bad` the rows whose value could not be read.
    fn mark(&self, bad: &mut [bool]) {
        let refused: Vec<bool> = self.values.iter().map(Result::is_err).collect();
        if refused.contains(&true) {
            bad.iter_mut()
                .zip(&self.codes)
                .for_each(|(b, &c)| *b |= refused[c as usize]);
        }
    }

    /// Adds the values of the good rows `rows` to `out`; nothing when the file has no such column.
    fn extend(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let codes = self.codes.get(rows).unwrap_or_default();
        out.extend(
            codes
                .iter()
                .filter_map(|&c| self.values[c as usize].as_ref().ok()),
        );
    }
}

/// The events' starts: a Parquet date column (as elosim writes it) through its days, with no text
/// in between; other columns as [`Cells::read`] reads them; none without the column.
enum Starts {
    Days(Numbers<Int32Type>),
    Text(Cells<Option<Day>>),
}

impl Starts {
    fn read(column: Option<&Column>, file: &str) -> Result<Self, IngestError> {
        let days = column.and_then(|c| c.as_materialized_series().date().ok());
        Ok(match days {
            Some(days) => Starts::Days(Numbers(days.physical().rechunk().into_owned())),
            None => Starts::Text(Cells::read(column, file, event_start)?),
        })
    }

    /// Row `i`'s start, or what is wrong with it; `None` when the file has no such column.
    fn get(&self, i: usize) -> Option<Result<Option<Day>, &str>> {
        match self {
            Starts::Days(days) => Some(Ok(days.get(i).map(Day::from_index))),
            Starts::Text(cells) => cells
                .get(i)
                .map(|c| c.as_ref().copied().map_err(String::as_str)),
        }
    }

    fn mark(&self, bad: &mut [bool]) {
        if let Starts::Text(cells) = self {
            cells.mark(bad);
        }
    }

    /// Adds the starts of the good rows `rows` to `out` (none without the column).
    fn extend(&self, rows: Range<usize>, out: &mut Vec<Option<Day>>) {
        match self {
            Starts::Days(days) => out.extend(days.options(rows).map(|d| d.map(Day::from_index))),
            Starts::Text(cells) if cells.codes.is_empty() => {
                out.extend(std::iter::repeat_n(None, rows.len()));
            }
            Starts::Text(cells) => cells.extend(rows, out),
        }
    }
}

/// An Enum column's categories, and each row's code into them (`None` for a null).
pub type EnumCodes<'a> = (Vec<&'a str>, Vec<Option<u32>>);

/// An Enum column's categories and codes; `None` for other columns.
pub fn enum_codes(column: &Column) -> PolarsResult<Option<EnumCodes<'_>>> {
    let DataType::Enum(categories, _) = column.dtype() else {
        return Ok(None);
    };
    let names = categories.categories().values_iter().collect();
    let codes = match column.dtype().cat_physical()? {
        CategoricalPhysical::U8 => column
            .cat8()?
            .phys
            .iter()
            .map(|c| c.map(u32::from))
            .collect(),
        CategoricalPhysical::U16 => column
            .cat16()?
            .phys
            .iter()
            .map(|c| c.map(u32::from))
            .collect(),
        CategoricalPhysical::U32 => column.cat32()?.phys.iter().collect(),
    };
    Ok(Some((names, codes)))
}

/// A tournament start date; empty is none.
fn event_start(text: &str) -> Result<Option<Day>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    Day::parse(text)
        .map(Some)
        .ok_or_else(|| format!("expected a date YYYY-MM-DD, got {text:?}"))
}

/// A month column as its months (an Enum's categories, all of them, in their order; else the
/// distinct months, sorted) and each row's index into them.
pub fn month_codes(df: &DataFrame, name: &str) -> PolarsResult<(Vec<Month>, Vec<u32>)> {
    if let Some(codes) = enum_months(df.column(name)?, name)? {
        return Ok(codes);
    }
    let rows = month_column(df, name)?;
    let mut months = rows.clone();
    months.sort_unstable();
    months.dedup();
    let codes = rows
        .iter()
        .map(|m| months.partition_point(|x| x < m) as u32)
        .collect();
    Ok((months, codes))
}

fn bad_month(name: &str, value: &str) -> PolarsError {
    polars_err!(ComputeError: "column {name}: expected a month YYYY-MM, got {value:?}")
}

/// An Enum column of months as its categories and each row's index into them; `None` when the
/// column is not an Enum.
fn enum_months(column: &Column, name: &str) -> PolarsResult<Option<(Vec<Month>, Vec<u32>)>> {
    let Some((categories, codes)) = enum_codes(column)? else {
        return Ok(None);
    };
    let months = categories
        .iter()
        .map(|v| Month::parse(v).ok_or_else(|| bad_month(name, v)))
        .collect::<PolarsResult<Vec<Month>>>()?;
    let codes = codes
        .into_iter()
        .map(|c| {
            c.filter(|&c| (c as usize) < months.len())
                .ok_or_else(|| bad_month(name, ""))
        })
        .collect::<PolarsResult<Vec<u32>>>()?;
    Ok(Some((months, codes)))
}

/// A month column (an Enum, as elosim writes it, or text `YYYY-MM`) as months. An Enum is read
/// through its codes, so each distinct month is parsed once and no strings are made per row.
pub fn month_column(df: &DataFrame, name: &str) -> PolarsResult<Vec<Month>> {
    let column = df.column(name)?;
    if let Some((months, codes)) = enum_months(column, name)? {
        return Ok(codes.iter().map(|&c| months[c as usize]).collect());
    }
    let text = column.cast(&DataType::String)?;
    let mut parsed: HashMap<&str, Month> = HashMap::new();
    text.str()?
        .iter()
        .map(|v| {
            let v = v.unwrap_or("");
            if let Some(&m) = parsed.get(v) {
                return Ok(m);
            }
            let m = Month::parse(v).ok_or_else(|| bad_month(name, v))?;
            parsed.insert(v, m);
            Ok(m)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, mut df: DataFrame) -> std::path::PathBuf {
        let path = crate::testing::scratch("typed").join(format!("{name}.parquet"));
        ParquetWriter::new(std::fs::File::create(&path).unwrap())
            .finish(&mut df)
            .unwrap();
        path
    }

    fn games(score: &[f64], event_start: &[&str]) -> DataFrame {
        let n = score.len();
        df!(
            "period" => vec!["2019-03"; n],
            "event" => (0..n as i64).map(|i| i % 2).collect::<Vec<_>>(),
            "event_start" => event_start.to_vec(),
            "white" => (0..n as i64).map(|i| 100 + i).collect::<Vec<_>>(),
            "black" => (0..n as i64).map(|i| 200 + i).collect::<Vec<_>>(),
            "score" => score.to_vec(),
        )
        .unwrap()
    }

    #[test]
    fn typed_columns_are_read_directly() {
        let path = write(
            "good",
            games(&[1.0, 0.5, 0.0], &["2019-02-01", "", "2019-02-10"]),
        );
        let raw = read(&path, None, &mut Skips::new(false))
            .unwrap()
            .expect("the typed path");
        let g = &raw.games;
        assert_eq!(g.score, vec![2, 1, 0]);
        assert_eq!(g.period, vec![Month::parse("2019-03"); 3]);
        assert_eq!(g.event_start[1], None);
        assert_eq!(g.event_start[2], Day::parse("2019-02-10"));
        assert_eq!(g.event_names, vec!["".to_string(), "0".into(), "1".into()]);
        assert_eq!(g.event, vec![1, 2, 1]);
        assert!(matches!(&raw.white, RawIds::Numbers(v) if v == &vec![100, 101, 102]));
    }

    /// Starts as a Parquet date (as a run and a world write them) and events as a Categorical
    /// give the same games as their text.
    #[test]
    fn dates_and_categorical_events_read_as_their_text() {
        let starts = ["2019-02-01", "", "2019-02-10"];
        let text = games(&[1.0, 0.5, 0.0], &starts);
        let mut typed = text.clone();
        let days = starts.iter().map(|s| Day::parse(s).map(Day::index));
        let days = Int32Chunked::from_iter_options("event_start".into(), days).into_date();
        typed.with_column(days.into_column()).unwrap();
        let events = text
            .column("event")
            .unwrap()
            .cast(&DataType::String)
            .unwrap();
        let events = events
            .cast(&DataType::from_categories(Categories::global()))
            .unwrap();
        typed.with_column(events).unwrap();
        assert_eq!(
            typed.column("event_start").unwrap().dtype(),
            &DataType::Date
        );
        let read = |name, df| {
            read(&write(name, df), None, &mut Skips::new(false))
                .unwrap()
                .expect("the typed path")
                .games
        };
        let (a, b) = (read("as-text", text), read("as-types", typed));
        assert_eq!(b.event_start[1], None);
        assert_eq!(b.event_start[2], Day::parse("2019-02-10"));
        assert_eq!(
            (&a.event_start, &a.event, &a.event_names),
            (&b.event_start, &b.event, &b.event_names)
        );
    }

    /// Read two rows at a time, a file gives the same games (events numbered through the whole
    /// file), and a bad row is named by its place in the file.
    #[test]
    fn slices_read_as_the_whole_file() {
        let starts = ["2019-02-01", "", "2019-02-10", "2019-02-11", "2019-02-12"];
        let mut df = games(&[1.0, 0.5, 0.0, 1.0, 0.5], &starts);
        df.with_column(Column::new("event".into(), [5i64, 7, 9, 5, 11]))
            .unwrap();
        let path = write("slices", df);
        let whole = read(&path, None, &mut Skips::new(false)).unwrap().unwrap();
        let sliced = read_in_slices(&path, None, &mut Skips::new(false), 2)
            .unwrap()
            .unwrap();
        let (a, b) = (&whole.games, &sliced.games);
        assert_eq!(
            (
                &a.score,
                &a.event,
                &a.event_names,
                &a.event_start,
                &a.source_row
            ),
            (
                &b.score,
                &b.event,
                &b.event_names,
                &b.event_start,
                &b.source_row
            )
        );
        assert_eq!(
            (&b.source_row, &b.event),
            (&vec![1, 2, 3, 4, 5], &vec![2, 3, 4, 2, 1])
        );
        assert_eq!(whole.white.as_text(), sliced.white.as_text());
        let path = write("slices-bad", games(&[1.0, 0.5, 0.0, 1.0, 0.7], &starts));
        let Err(e) = read_in_slices(&path, None, &mut Skips::new(false), 2) else {
            panic!("a bad score was read");
        };
        assert!(e.to_string().contains("row 5, column score"), "{e}");
    }

    #[test]
    fn bad_rows_are_errors_or_counted_skips() {
        let path = write(
            "bad",
            games(&[1.0, 0.7, 0.0], &["2019-02-01", "2019-02-01", "02/10"]),
        );
        let Err(e) = read(&path, None, &mut Skips::new(false)) else {
            panic!("a bad score was read");
        };
        let e = e.to_string();
        assert!(
            e.contains("row 2, column score: expected White's score"),
            "{e}"
        );
        let mut skips = Skips::new(true);
        let raw = read(&path, None, &mut skips).unwrap().unwrap();
        assert_eq!(raw.games.score, vec![2]);
        assert_eq!(skips.total(), 2);
        assert!(skips
            .counts
            .keys()
            .any(|k| k.starts_with("event_start: expected a date")));
    }

    /// Nulls are found through the columns' validity, and each bad row is named by its first
    /// problem, in the order of the row's columns, whatever rows around it hold.
    #[test]
    fn nulls_and_ranges_are_checked_column_by_column() {
        let mut df = games(&[1.0, 0.5, 0.0, 1.0, 0.5, 0.0], &[""; 6]);
        let white = [
            Some(100i64),
            None,
            Some(102),
            Some(103),
            Some(104),
            Some(105),
        ];
        let black = [
            Some(200i64),
            Some(201),
            Some(202),
            Some(203),
            Some(104),
            None,
        ];
        let white_rating = [
            Some(2400i64),
            Some(4001),
            None,
            Some(-3),
            Some(1500),
            Some(1600),
        ];
        let black_rating = [
            None,
            Some(2000),
            Some(1800),
            Some(1900),
            Some(1500),
            Some(1600),
        ];
        for (name, values) in [
            ("white", white),
            ("black", black),
            ("white_rating", white_rating),
            ("black_rating", black_rating),
        ] {
            df.with_column(Column::new(name.into(), values)).unwrap();
        }
        let path = write("nulls", df);
        let Err(e) = read(&path, None, &mut Skips::new(false)) else {
            panic!("a null id was read");
        };
        assert!(
            e.to_string()
                .contains("row 2, column white: empty: expected a player id"),
            "{e}"
        );
        let mut skips = Skips::new(true);
        let raw = read(&path, None, &mut skips).unwrap().unwrap();
        let g = &raw.games;
        assert_eq!(g.source_row, vec![1, 3]);
        assert_eq!(g.white_rating, vec![Some(2400), None]);
        assert_eq!(g.black_rating, vec![None, Some(1800)]);
        assert_eq!(g.score, vec![2, 0]);
        assert!(matches!(&raw.white, RawIds::Numbers(v) if v == &vec![100, 102]));
        let mut reasons: Vec<&str> = skips.counts.keys().map(String::as_str).collect();
        reasons.sort_unstable();
        assert_eq!(
            reasons,
            [
                "black: empty: expected a player id",
                "black: player 104 cannot play himself",
                "white: empty: expected a player id",
                "white_rating: expected a rating from 0 to 4000 or nothing",
            ],
        );
        assert_eq!(skips.total(), 4);
    }

    #[test]
    fn event_types_are_read_and_checked() {
        let mut df = games(&[1.0, 0.5, 0.0], &["", "", ""]);
        df.with_column(Column::new("event_type".into(), ["round-robin", "", "rr"]))
            .unwrap();
        let path = write("event-types", df);
        let Err(e) = read(&path, None, &mut Skips::new(false)) else {
            panic!("an unknown event type was read");
        };
        assert!(
            e.to_string()
                .contains("row 3, column event_type: expected one of swiss, round-robin"),
            "{e}"
        );
        let raw = read(&path, None, &mut Skips::new(true)).unwrap().unwrap();
        assert_eq!(
            raw.games.event_type,
            vec![
                crate::model::EventType::RoundRobin,
                crate::model::EventType::Swiss
            ]
        );
    }

    #[test]
    fn other_types_go_the_text_way() {
        let mut df = games(&[1.0], &["2019-02-01"]);
        df.replace("white", Column::new("white".into(), ["a1"]))
            .unwrap();
        let path = write("text-ids", df);
        assert!(read(&path, None, &mut Skips::new(false)).unwrap().is_none());
    }
}
