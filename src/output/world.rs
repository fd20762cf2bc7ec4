//! Writing a generated world (`elosim generate`): `games.parquet` and `truth.parquet` one row group
//! per month as the world is generated, then `players.parquet`, `start-list.parquet` and
//! `summary.json`, all in a staged directory that replaces the destination only when complete.

use std::path::Path;

use polars::prelude::*;

use crate::generate::world::{MonthBatch, Sex, World, WorldSink};
use crate::model::{EventType, Month};

use super::atomic::StagedDir;
use super::tables::{date_column, enum_column, int_column, table_error, write_parquet, Batched};
use super::{pretty_json, OutputError, OutputKind, Placed};

/// The open directory of a world being generated.
pub struct WorldWriter {
    staged: StagedDir,
    /// Every month a table may name (the world's months and the lists after them), for the
    /// dictionary-encoded month columns.
    months: Vec<String>,
    first: Month,
    games: Batched,
    /// Games written as a dataset partitioned by period (`games/period=YYYY-MM/`) instead.
    partitioned: bool,
    truth: Batched,
    /// Games per calendar year, for the summary.
    pub games_by_year: std::collections::BTreeMap<i32, u64>,
}

impl WorldWriter {
    pub fn new(
        dir: &Path,
        first: Month,
        months: u32,
        partitioned: bool,
    ) -> Result<WorldWriter, OutputError> {
        let staged = StagedDir::new(dir, OutputKind::World)?;
        // Events end at most a month after they start, and are rated on the next list.
        let months = (0..months as i32 + 2)
            .map(|t| first.plus(t).to_string())
            .collect();
        let games = Batched::new(staged.path.join("games.parquet"));
        let truth = Batched::new(staged.path.join("truth.parquet"));
        Ok(WorldWriter {
            staged,
            months,
            first,
            games,
            partitioned,
            truth,
            games_by_year: Default::default(),
        })
    }

    fn month_index(&self, month: Month) -> usize {
        month
            .since(self.first)
            .clamp(0, self.months.len() as i32 - 1) as usize
    }

    /// The games `rows` of a month as a frame; with `period`, their period column.
    fn games_frame(&self, b: &MonthBatch, rows: &[usize], period: bool) -> PolarsResult<DataFrame> {
        let months: Vec<&str> = self.months.iter().map(String::as_str).collect();
        let mut columns = Vec::new();
        if period {
            columns.push(enum_column(
                "period",
                &months,
                rows.iter().map(|&i| self.month_index(b.period[i])),
            )?);
        }
        let ids = |name: &str, v: &[u32]| {
            Int64Chunked::from_iter_values(name.into(), rows.iter().map(|&i| i64::from(v[i])))
                .into_series()
                .into()
        };
        columns.extend([
            Int64Chunked::from_iter_values("event".into(), rows.iter().map(|&i| b.event[i] as i64))
                .into_series()
                .into(),
            date_column("event_start", rows.iter().map(|&i| Some(b.event_start[i]))),
            enum_column(
                "event_type",
                EventType::NAMES,
                rows.iter().map(|&i| b.event_type[i] as usize),
            )?,
            ids("white", &b.white),
            ids("black", &b.black),
            Float64Chunked::from_iter_values(
                "score".into(),
                rows.iter().map(|&i| f64::from(b.score[i]) / 2.0),
            )
            .into_series()
            .into(),
        ]);
        DataFrame::new(rows.len(), columns)
    }

    /// A month's games as `games/period=P/part-MONTH.parquet`, one file per period they are rated
    /// in; hive style, the period is the directory's name, not a column.
    fn write_partitions(&self, b: &MonthBatch) -> Result<(), OutputError> {
        let mut by_period: std::collections::BTreeMap<Month, Vec<usize>> = Default::default();
        for (i, &p) in b.period.iter().enumerate() {
            by_period.entry(p).or_default().push(i);
        }
        for (period, rows) in by_period {
            let dir = self.staged.path.join(format!("games/period={period}"));
            std::fs::create_dir_all(&dir).map_err(|source| OutputError::Io {
                path: dir.clone(),
                source,
            })?;
            let path = dir.join(format!("part-{}.parquet", b.month));
            let mut df = self
                .games_frame(b, &rows, false)
                .map_err(table_error(&path))?;
            write_parquet(&path, &mut df)?;
        }
        Ok(())
    }

    fn write_month(&mut self, b: &MonthBatch) -> Result<(), OutputError> {
        let months: Vec<&str> = self.months.iter().map(String::as_str).collect();
        let n = b.white.len();
        if self.partitioned {
            self.write_partitions(b)?;
        } else {
            let all: Vec<usize> = (0..n).collect();
            let games = self
                .games_frame(b, &all, true)
                .map_err(table_error(&self.games.path))?;
            self.games.write(&games)?;
        }
        *self.games_by_year.entry(b.month.year()).or_default() += n as u64;
        let truth = DataFrame::new(
            b.truth_id.len(),
            vec![
                id_column("id", &b.truth_id),
                enum_column(
                    "month",
                    &months,
                    std::iter::repeat_n(self.month_index(b.month), b.truth_id.len()),
                )
                .map_err(table_error(&self.truth.path))?,
                Float32Chunked::from_iter_values(
                    "strength".into(),
                    b.truth_strength.iter().map(|&s| (s * 10.0).round() / 10.0),
                )
                .into_series()
                .into(),
            ],
        )
        .map_err(table_error(&self.truth.path))?;
        self.truth.write(&truth)
    }

    /// Writes the players, the starting list and the summary, and puts the directory in place.
    pub fn finish(self, world: &World) -> Result<Placed, OutputError> {
        let summary = self.summary(world);
        self.games.finish()?;
        self.truth.finish()?;
        let at = |name: &str| self.staged.path.join(name);
        write_players(&at("players.parquet"), world)?;
        write_start_list(&at("start-list.parquet"), world)?;
        for (name, text) in [
            ("summary.json", summary),
            (
                "world.toml",
                crate::generate::world::file::dump(&world.settings),
            ),
        ] {
            std::fs::write(at(name), text.as_bytes()).map_err(|source| OutputError::Io {
                path: at(name),
                source,
            })?;
        }
        self.staged.commit()
    }
}

/// A world's `summary.json`.
#[derive(serde::Serialize)]
struct WorldSummary<'a> {
    elosim: &'static str,
    world: &'a str,
    scale: f64,
    seed: u64,
    first_month: String,
    last_month: String,
    players: usize,
    start_list: usize,
    games: u64,
    years: Vec<YearCounts>,
}

#[derive(serde::Serialize)]
struct YearCounts {
    year: i32,
    games: u64,
    new_players: u64,
}

impl WorldWriter {
    /// What was generated, year by year (no timing, so that equal seeds give equal files).
    fn summary(&self, world: &World) -> String {
        let s = &world.settings;
        let mut newcomers: std::collections::BTreeMap<i32, u64> = Default::default();
        for p in world.players.iter().skip(world.start_list.len()) {
            *newcomers
                .entry(s.start.plus(p.first_month as i32).year())
                .or_default() += 1;
        }
        pretty_json(&WorldSummary {
            elosim: env!("CARGO_PKG_VERSION"),
            world: &s.name,
            scale: s.scale,
            seed: s.seed,
            first_month: s.start.to_string(),
            last_month: s.start.plus(s.months as i32 - 1).to_string(),
            players: world.players.len(),
            start_list: world.start_list.len(),
            games: world.games,
            years: self
                .games_by_year
                .iter()
                .map(|(&year, &games)| YearCounts {
                    year,
                    games,
                    new_players: newcomers.get(&year).copied().unwrap_or(0),
                })
                .collect(),
        })
    }
}

impl WorldSink for WorldWriter {
    fn month(&mut self, batch: &MonthBatch) -> Result<(), String> {
        self.write_month(batch).map_err(|e| e.to_string())
    }
}

fn id_column(name: &str, ids: &[u32]) -> Column {
    Int64Chunked::from_iter_values(name.into(), ids.iter().map(|&i| i64::from(i)))
        .into_series()
        .into()
}

/// `players.parquet`: id, birth_year, sex, federation (the region), first_month.
fn write_players(path: &Path, world: &World) -> Result<(), OutputError> {
    let p = &world.players;
    let regions: Vec<String> = (1..=world.settings.regions)
        .map(|r| format!("R{r:02}"))
        .collect();
    let regions: Vec<&str> = regions.iter().map(String::as_str).collect();
    let months: Vec<String> = (0..world.settings.months)
        .map(|t| world.settings.start.plus(t as i32).to_string())
        .collect();
    let months: Vec<&str> = months.iter().map(String::as_str).collect();
    let columns = vec![
        id_column("id", &p.iter().map(|p| p.id).collect::<Vec<_>>()),
        int_column("birth_year", p.iter().map(|p| p.born.floor() as i32)),
        enum_column(
            "sex",
            &["M", "F"],
            p.iter().map(|p| usize::from(p.sex == Sex::Female)),
        )
        .map_err(table_error(path))?,
        enum_column(
            "federation",
            &regions,
            p.iter().map(|p| usize::from(p.region)),
        )
        .map_err(table_error(path))?,
        enum_column(
            "first_month",
            &months,
            p.iter().map(|p| p.first_month as usize),
        )
        .map_err(table_error(path))?,
    ];
    let mut df = DataFrame::new(p.len(), columns).map_err(table_error(path))?;
    write_parquet(path, &mut df)
}

/// `start-list.parquet`: id, rating, k, total_games, ever_2400, and the list's month (the world's
/// first month: the list in force then), so that a replay from another month is told.
fn write_start_list(path: &Path, world: &World) -> Result<(), OutputError> {
    let s = &world.start_list;
    let month = world.settings.start.to_string();
    let columns = vec![
        StringChunked::from_iter_values("month".into(), s.iter().map(|_| month.as_str()))
            .into_series()
            .into(),
        id_column("id", &s.iter().map(|r| r.id).collect::<Vec<_>>()),
        int_column("rating", s.iter().map(|r| r.rating)),
        int_column("k", s.iter().map(|r| i32::from(r.k))),
        int_column("total_games", s.iter().map(|r| r.total_games as i32)),
        BooleanChunked::from_iter_values("ever_2400".into(), s.iter().map(|r| r.ever_2400))
            .into_series()
            .into(),
    ];
    let mut df = DataFrame::new(s.len(), columns).map_err(table_error(path))?;
    write_parquet(path, &mut df)
}
