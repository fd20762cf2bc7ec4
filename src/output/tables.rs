//! The run's tables as Parquet (and CSV lists), with polars.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::model::{Day, Description, Games, IdMap, PlayerIds, PlayerInfo, EVENT_NONE};
use crate::replay::{ListRows, PeriodOutcome, PeriodRecords, RatedGames};

use super::OutputError;

pub fn table_error(path: &Path) -> impl Fn(PolarsError) -> OutputError + '_ {
    move |e| OutputError::Table {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Player ids keep their type: numbers as Int64, text as String.
fn id_column(name: &str, ids: &PlayerIds, players: impl Iterator<Item = u32>) -> Column {
    match ids {
        PlayerIds::Numbers(v) => {
            Int64Chunked::from_iter_values(name.into(), players.map(|p| v[p as usize] as i64))
                .into_series()
                .into()
        }
        PlayerIds::Text(v) => {
            StringChunked::from_iter_values(name.into(), players.map(|p| v[p as usize].as_str()))
                .into_series()
                .into()
        }
    }
}

pub fn write_parquet(path: &Path, df: &mut DataFrame) -> Result<(), OutputError> {
    let file = File::create(path).map_err(|source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    ParquetWriter::new(file)
        .with_compression(ParquetCompression::Zstd(None))
        .finish(df)
        .map_err(table_error(path))?;
    Ok(())
}

pub(super) fn int_column(name: &str, values: impl Iterator<Item = i32>) -> Column {
    Int32Chunked::from_iter_values(name.into(), values)
        .into_series()
        .into()
}

/// An Int32 column with empty cells, built from its values and a validity mask in one pass rather
/// than through polars' builder, a call per row: these columns are most of a list's games frame,
/// built on the replay's thread (docs/performance.md).
fn optional_int_column(name: &str, values: impl Iterator<Item = Option<i32>>) -> Column {
    let mut numbers = Vec::with_capacity(values.size_hint().0);
    let mut present = Vec::with_capacity(values.size_hint().0);
    for v in values {
        numbers.push(v.unwrap_or(0));
        present.push(v.is_some());
    }
    let validity = present.contains(&false).then(|| {
        BooleanChunked::from_slice(PlSmallStr::EMPTY, &present)
            .downcast_as_array()
            .values()
            .clone()
    });
    Int32Chunked::from_vec_validity(name.into(), numbers, validity)
        .into_series()
        .into()
}

fn bool_column(name: &str, values: impl Iterator<Item = bool>) -> Column {
    BooleanChunked::from_iter_values(name.into(), values)
        .into_series()
        .into()
}

/// A text column of few distinct values (months, statuses) as a polars Enum: Parquet stores it as
/// a dictionary of strings, built from the codes without hashing millions of strings.
pub(super) fn enum_column(
    name: &str,
    categories: &[&str],
    codes: impl Iterator<Item = usize>,
) -> PolarsResult<Column> {
    let dtype =
        DataType::from_frozen_categories(FrozenCategories::new(categories.iter().copied())?);
    let series = match dtype.cat_physical()? {
        CategoricalPhysical::U8 => CategoricalChunked::<Categorical8Type>::from_cats_and_dtype(
            UInt8Chunked::from_iter_values(name.into(), codes.map(|c| c as u8)),
            dtype,
        )
        .into_series(),
        CategoricalPhysical::U16 => CategoricalChunked::<Categorical16Type>::from_cats_and_dtype(
            UInt16Chunked::from_iter_values(name.into(), codes.map(|c| c as u16)),
            dtype,
        )
        .into_series(),
        CategoricalPhysical::U32 => CategoricalChunked::<Categorical32Type>::from_cats_and_dtype(
            UInt32Chunked::from_iter_values(name.into(), codes.map(|c| c as u32)),
            dtype,
        )
        .into_series(),
    };
    Ok(series.into())
}

/// A Parquet file written one row group per `write`, created at the first one.
pub(super) struct Batched {
    pub(super) path: PathBuf,
    writer: Option<BatchedWriter<File>>,
}

impl Batched {
    pub(super) fn new(path: PathBuf) -> Batched {
        Batched { path, writer: None }
    }

    pub(super) fn write(&mut self, df: &DataFrame) -> Result<(), OutputError> {
        let error = table_error(&self.path);
        if self.writer.is_none() {
            let file = File::create(&self.path).map_err(|source| OutputError::Io {
                path: self.path.clone(),
                source,
            })?;
            // zstd's fastest level: the tables are written while the replay runs, and its
            // default level (3) cost more time than it saved space (docs/performance.md).
            let fastest = polars::polars_utils::compression::ZstdLevel::try_new(1).ok();
            let writer = ParquetWriter::new(file)
                .with_compression(ParquetCompression::Zstd(fastest))
                .batched(df.schema())
                .map_err(&error)?;
            self.writer = Some(writer);
        }
        match &mut self.writer {
            Some(w) => w.write_batch(df).map_err(error),
            None => Ok(()),
        }
    }

    pub(super) fn finish(self) -> Result<(), OutputError> {
        match self.writer {
            Some(w) => w.finish().map(|_| ()).map_err(table_error(&self.path)),
            None => Ok(()),
        }
    }
}

/// Days as a Parquet date column (`Day` counts days from 1970-01-01, as Parquet's dates do).
pub(super) fn date_column(name: &str, days: impl Iterator<Item = Option<Day>>) -> Column {
    Int32Chunked::from_iter_options(name.into(), days.map(|d| d.map(Day::index)))
        .into_date()
        .into_series()
        .into()
}

/// The `event` column's type: a Categorical of polars' global categories. The run's writer holds
/// it for the whole run, which keeps the mapping of names to categories alive between lists.
pub(super) fn event_dtype() -> DataType {
    DataType::from_categories(Categories::global())
}

/// The events of a list's games as a Categorical of `dtype` ([`event_dtype`]): each distinct event
/// of the list is put in the mapping once and the rows are written through its category, so that
/// the writer neither builds nor hashes a string per row (it keeps, per row group, the categories
/// used); [`EVENT_NONE`] is null.
fn event_column(
    name: &str,
    dtype: &DataType,
    names: &[String],
    events: impl Iterator<Item = u32>,
) -> PolarsResult<Column> {
    let DataType::Categorical(_, mapping) = dtype else {
        polars_bail!(ComputeError: "the event column's type is not a Categorical")
    };
    let mut categories: IdMap<u32, u32> = IdMap::default();
    let mut codes = Vec::new();
    for e in events {
        codes.push(match e {
            EVENT_NONE => None,
            e => Some(match categories.get(&e) {
                Some(&c) => c,
                None => {
                    let c = mapping.insert_cat(&names[e as usize])?;
                    categories.insert(e, c);
                    c
                }
            }),
        });
    }
    let codes = UInt32Chunked::from_iter_options(name.into(), codes.into_iter());
    Ok(
        CategoricalChunked::<Categorical32Type>::from_cats_and_dtype(codes, dtype.clone())
            .into_series()
            .into(),
    )
}

/// The `status` column's values: a list's `inactive` flag as an index.
pub const STATUS: [&str; 2] = ["active", "inactive"];

/// One list's rows (its changes) as a frame; `months` are the run's lists, the categories of
/// `month`.
pub(super) fn list_frame(
    players: &PlayerIds,
    rows: &ListRows,
    months: &[&str],
    t: usize,
) -> PolarsResult<DataFrame> {
    let mut columns = vec![
        enum_column("month", months, std::iter::repeat_n(t, rows.len()))?,
        id_column("id", players, rows.player.iter().copied()),
        // Empty where the player left the list on this one.
        optional_int_column(
            "rating",
            rows.rating
                .iter()
                .zip(&rows.listed)
                .map(|(&r, &listed)| listed.then_some(r)),
        ),
        int_column("k", rows.k.iter().map(|&k| i32::from(k))),
        int_column("games", rows.games.iter().map(|&g| g as i32)),
        int_column("total_games", rows.total_games.iter().map(|&g| g as i32)),
        enum_column(
            "status",
            &STATUS,
            rows.inactive.iter().map(|&i| usize::from(i)),
        )?,
        bool_column("new", rows.new.iter().copied()),
        optional_int_column("change", rows.change.iter().copied()),
    ];
    // Systems that rate in real numbers also give the unrounded rating, and their deviation.
    for (name, values, kept) in [
        ("rating_exact", &rows.exact, rows.with_exact),
        ("rd", &rows.deviation, rows.with_deviation),
    ] {
        if kept {
            columns.push(
                Float64Chunked::from_iter_values(name.into(), values.iter().copied())
                    .into_series()
                    .into(),
            );
        }
    }
    DataFrame::new(rows.len(), columns)
}

/// What each player's period on list `t` computed, as a frame (`periods.parquet`).
pub(super) fn periods_frame(
    players: &PlayerIds,
    r: &PeriodRecords,
    months: &[&str],
    t: usize,
) -> PolarsResult<DataFrame> {
    let columns = vec![
        enum_column("month", months, std::iter::repeat_n(t, r.len()))?,
        id_column("id", players, r.player.iter().copied()),
        enum_column(
            "outcome",
            PeriodOutcome::NAMES,
            // Variants are declared in the order of their names.
            r.outcome.iter().map(|&o| o as usize),
        )?,
        int_column("games", r.games.iter().map(|&g| g as i32)),
        optional_int_column("change", r.change.iter().copied()),
        optional_int_column("rating", r.rating.iter().copied()),
        StringChunked::from_iter_options(
            "pooled_from".into(),
            r.pooled_from.iter().map(|m| m.map(|m| m.to_string())),
        )
        .into_series()
        .into(),
        optional_int_column(
            "pooled_games",
            r.pooled.iter().map(|p| p.map(|p| p.games as i32)),
        ),
        Float64Chunked::from_iter_options(
            "pooled_points".into(),
            r.pooled
                .iter()
                .map(|p| p.map(|p| f64::from(p.half_points) / 2.0)),
        )
        .into_series()
        .into(),
        // A sum of ratings: past i32 after half a million games.
        Int64Chunked::from_iter_options(
            "pooled_opponents".into(),
            r.pooled.iter().map(|p| p.map(|p| p.opponents)),
        )
        .into_series()
        .into(),
    ];
    DataFrame::new(r.len(), columns)
}

/// One list's rated games as a frame; `g.game` indexes `input`; `event_dtype` is the run's
/// [`event_dtype`].
pub(super) fn games_frame(
    players: &PlayerIds,
    input: &Games,
    g: &RatedGames,
    months: &[&str],
    event_dtype: &DataType,
) -> PolarsResult<DataFrame> {
    let index = |i: usize| g.game[i] as usize;
    let rows = 0..g.len();
    let mut columns = vec![
        enum_column("period", months, g.list.iter().map(|&t| t as usize))?,
        event_column(
            "event",
            event_dtype,
            &input.event_names,
            rows.clone().map(|i| input.event[index(i)]),
        )?,
        date_column("event_start", g.event_start.iter().copied().map(Some)),
        id_column(
            "white",
            players,
            rows.clone().map(|i| input.white[index(i)]),
        ),
        id_column(
            "black",
            players,
            rows.clone().map(|i| input.black[index(i)]),
        ),
        Float64Chunked::from_iter_values(
            "score".into(),
            rows.clone().map(|i| f64::from(input.score[index(i)]) / 2.0),
        )
        .into_series()
        .into(),
    ];
    for (side, results) in [("white", &g.white), ("black", &g.black)] {
        columns.push(optional_int_column(
            &format!("{side}_rating"),
            results.iter().map(|r| r.rating),
        ));
        columns.push(optional_int_column(
            &format!("{side}_k"),
            results.iter().map(|r| r.k.map(i32::from)),
        ));
        // FIDE's PD and K × (score − PD) are exact in hundredths: written as the integers the
        // engine computed, not as floats that only approximate them.
        columns.push(optional_int_column(
            &format!("{side}_expected_hundredths"),
            results.iter().map(|r| r.pd.map(i32::from)),
        ));
        columns.push(optional_int_column(
            &format!("{side}_change_hundredths"),
            results.iter().map(|r| r.change),
        ));
        columns.push(bool_column(
            &format!("{side}_capped"),
            results.iter().map(|r| r.capped),
        ));
        columns.push(optional_int_column(
            &format!("{side}_counted_against"),
            results.iter().map(|r| r.counted_against),
        ));
    }
    // Systems that compute in real numbers also give each side's unrounded expected score, as
    // lists.parquet gives their unrounded ratings.
    if !g.expected.is_empty() {
        let white = g.expected.iter().map(|e| e.0);
        let black = g.expected.iter().map(|e| e.1);
        for (name, values) in [
            (
                "white_expected_exact",
                Float64Chunked::from_iter_values("".into(), white),
            ),
            (
                "black_expected_exact",
                Float64Chunked::from_iter_values("".into(), black),
            ),
        ] {
            columns.push(values.with_name(name.into()).into_series().into());
        }
    }
    DataFrame::new(g.len(), columns)
}

/// `lists/YYYY-MM.csv`: one list in FIDE's column order.
pub(super) fn write_csv_list(
    path: &Path,
    players: &PlayerIds,
    info: &PlayerInfo,
    rows: &ListRows,
) -> Result<(), OutputError> {
    let io = |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut w = BufWriter::new(File::create(path).map_err(io)?);
    writeln!(
        w,
        "id,name,federation,sex,title,rating,games,k,birth_year,flag,total_games,new,change"
    )
    .map_err(io)?;
    for r in 0..rows.len() {
        let p = rows.player[r] as usize;
        let described = info.description[p].as_deref();
        let text = |field: fn(&Description) -> &Option<String>| {
            described
                .and_then(|d| field(d).as_deref())
                .map(csv_field)
                .unwrap_or_default()
        };
        writeln!(
            w,
            "{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_field(&players.label(p as u32)),
            text(|d| &d.name),
            text(|d| &d.federation),
            text(|d| &d.sex),
            text(|d| &d.title),
            rows.rating[r],
            rows.games[r],
            rows.k[r],
            info.birth_year[p]
                .map(|y| y.to_string())
                .unwrap_or_default(),
            if rows.inactive[r] { "i" } else { "" },
            rows.total_games[r],
            rows.new[r],
            rows.change[r].map(|c| c.to_string()).unwrap_or_default(),
        )
        .map_err(io)?;
    }
    w.flush().map_err(io)
}

/// A CSV field, quoted when it must be.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Canonical games (the README's columns, "Your own data": date or period, event, event_start, event_type when the
/// source gave one, white, black, score, white_rating, black_rating) as Parquet, or CSV when the name ends in `.csv`; written under a
/// temporary name and renamed when complete.
pub fn write_canonical_games(
    path: &Path,
    games: &Games,
    players: &PlayerIds,
) -> Result<(), OutputError> {
    let n = games.len();
    let period: Vec<Option<String>> = games
        .period
        .iter()
        .map(|m| m.map(|m| m.to_string()))
        .collect();
    let date: Vec<Option<String>> = games
        .date
        .iter()
        .map(|d| d.map(|d| d.to_string()))
        .collect();
    let event: Vec<Option<String>> = games
        .event
        .iter()
        .map(|&e| Some(games.event_names[e as usize].clone()).filter(|e| !e.is_empty()))
        .collect();
    let event_start: Vec<Option<String>> = games
        .event_start
        .iter()
        .map(|d| d.map(|d| d.to_string()))
        .collect();
    let score: Vec<f64> = games.score.iter().map(|&s| f64::from(s) / 2.0).collect();
    let ratings = games.has_recorded_ratings();
    let mut named: Vec<(&str, Vec<Option<String>>)> = Vec::new();
    if period.iter().any(Option::is_some) {
        named.push(("period", period));
    }
    if date.iter().any(Option::is_some) {
        named.push(("date", date));
    }
    named.push(("event", event));
    named.push(("event_start", event_start));
    if !games.event_type.is_empty() {
        let event_type = (0..n)
            .map(|i| Some(games.event_type(i).name().to_string()))
            .collect();
        named.push(("event_type", event_type));
    }
    let staged = staged_name(path);
    let csv = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    let result = if csv {
        write_games_csv(&staged, games, players, &named, &score, ratings)
    } else {
        let mut columns: Vec<Column> = named
            .iter()
            .map(|(name, values)| {
                StringChunked::from_iter_options(
                    (*name).into(),
                    values.iter().map(|v| v.as_deref()),
                )
                .into_series()
                .into()
            })
            .collect();
        columns.push(id_column("white", players, games.white.iter().copied()));
        columns.push(id_column("black", players, games.black.iter().copied()));
        columns.push(
            Float64Chunked::from_iter_values("score".into(), score.iter().copied())
                .into_series()
                .into(),
        );
        if ratings {
            columns.push(optional_int_column(
                "white_rating",
                games.white_rating.iter().copied(),
            ));
            columns.push(optional_int_column(
                "black_rating",
                games.black_rating.iter().copied(),
            ));
        }
        DataFrame::new(n, columns)
            .map_err(table_error(path))
            .and_then(|mut df| write_parquet(&staged, &mut df))
    };
    commit_staged(&staged, path, result)
}

/// One list whole as Parquet, with `lists.parquet`'s columns; complete under `path` or not at all.
pub fn write_list_parquet(
    path: &Path,
    players: &PlayerIds,
    rows: &ListRows,
    (months, t): (&[&str], usize),
) -> Result<(), OutputError> {
    let staged = staged_name(path);
    let result = list_frame(players, rows, months, t)
        .map_err(table_error(path))
        .and_then(|mut df| write_parquet(&staged, &mut df));
    commit_staged(&staged, path, result)
}

/// Puts a file written under its staged name in place, or removes it when writing failed.
fn commit_staged(
    staged: &Path,
    path: &Path,
    written: Result<(), OutputError>,
) -> Result<(), OutputError> {
    written
        .and_then(|()| {
            std::fs::rename(staged, path).map_err(|source| OutputError::Io {
                path: path.to_path_buf(),
                source,
            })
        })
        .inspect_err(|_| {
            let _ = std::fs::remove_file(staged);
        })
}

fn staged_name(path: &Path) -> std::path::PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

fn write_games_csv(
    path: &Path,
    games: &Games,
    players: &PlayerIds,
    named: &[(&str, Vec<Option<String>>)],
    score: &[f64],
    ratings: bool,
) -> Result<(), OutputError> {
    let io = |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut out = BufWriter::new(File::create(path).map_err(io)?);
    let mut header: Vec<&str> = named.iter().map(|(n, _)| *n).collect();
    header.extend(["white", "black", "score"]);
    if ratings {
        header.extend(["white_rating", "black_rating"]);
    }
    writeln!(out, "{}", header.join(",")).map_err(io)?;
    let rating = |r: Option<i32>| r.map_or(String::new(), |r| r.to_string());
    for i in 0..games.len() {
        let mut fields: Vec<String> = named
            .iter()
            .map(|(_, v)| csv_field(v[i].as_deref().unwrap_or("")))
            .collect();
        fields.push(csv_field(&players.label(games.white[i])));
        fields.push(csv_field(&players.label(games.black[i])));
        fields.push(score[i].to_string());
        if ratings {
            fields.push(rating(games.white_rating[i]));
            fields.push(rating(games.black_rating[i]));
        }
        writeln!(out, "{}", fields.join(",")).map_err(io)?;
    }
    out.flush().map_err(io)
}
