//! Writing a generated world (`elosim generate`): `games.parquet` one row group per period once no
//! later month can add to it, `truth.parquet` one per month, as the world is generated; then
//! `players.parquet`, `start-list.parquet`, `equilibrium.parquet` (the reachable truth of every
//! January list) and `summary.json`, all in a staged directory that replaces the destination only
//! when complete.

use std::path::Path;

use polars::prelude::*;

use crate::generate::world::equilibrium::{Equilibrium, Windows};
use crate::generate::world::{MonthBatch, Settings, Sex, World, WorldSink};
use crate::model::{Day, EventType, Month};

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
    /// Games whose period later months may still add to, held until it is complete.
    held: Vec<GameRow>,
    /// The month of the last batch written.
    last: Month,
    /// Games written as a dataset partitioned by period (`games/period=YYYY-MM/`) instead.
    partitioned: bool,
    truth: Batched,
    /// The windows of every January list after the first, for `equilibrium.parquet`.
    windows: Windows,
    /// Games per calendar year, for the summary.
    pub games_by_year: std::collections::BTreeMap<i32, u64>,
}

impl WorldWriter {
    /// A world's directory, its games `partitioned` or in one file, with the equilibrium ratings
    /// of every January list after the first (`equilibrium`) or none.
    pub fn new(
        dir: &Path,
        settings: &Settings,
        partitioned: bool,
        equilibrium: bool,
    ) -> Result<WorldWriter, OutputError> {
        let (first, months) = (settings.start, settings.months);
        let staged = StagedDir::new(dir, OutputKind::World)?;
        let januaries: Vec<Month> = (1..months as i32)
            .map(|t| first.plus(t))
            .filter(|m| m.month() == 1 && equilibrium)
            .collect();
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
            held: Vec::new(),
            last: first,
            partitioned,
            truth,
            windows: Windows::new(settings, &januaries),
            games_by_year: Default::default(),
        })
    }

    fn month_index(&self, month: Month) -> usize {
        month
            .since(self.first)
            .clamp(0, self.months.len() as i32 - 1) as usize
    }

    /// Games as a frame; with `period`, their period column.
    fn games_frame(&self, games: &[GameRow], period: bool) -> PolarsResult<DataFrame> {
        let months: Vec<&str> = self.months.iter().map(String::as_str).collect();
        let mut columns = Vec::new();
        if period {
            columns.push(enum_column(
                "period",
                &months,
                games.iter().map(|g| self.month_index(g.period)),
            )?);
        }
        let ints = |name: &str, value: fn(&GameRow) -> i64| {
            Int64Chunked::from_iter_values(name.into(), games.iter().map(value))
                .into_series()
                .into()
        };
        columns.extend([
            ints("event", |g| g.event as i64),
            date_column("event_start", games.iter().map(|g| Some(g.start))),
            enum_column(
                "event_type",
                EventType::NAMES,
                games.iter().map(|g| g.event_type as usize),
            )?,
            ints("white", |g| i64::from(g.white)),
            ints("black", |g| i64::from(g.black)),
            Float64Chunked::from_iter_values(
                "score".into(),
                games.iter().map(|g| f64::from(g.score) / 2.0),
            )
            .into_series()
            .into(),
        ]);
        DataFrame::new(games.len(), columns)
    }

    /// Games as `games/period=P/part-MONTH.parquet`, one file per period; hive style, the period
    /// is the directory's name, not a column.
    fn write_partitions(&self, month: Month, games: &[GameRow]) -> Result<(), OutputError> {
        for period in games.chunk_by(|a, b| a.period == b.period) {
            let dir = self
                .staged
                .path
                .join(format!("games/period={}", period[0].period));
            std::fs::create_dir_all(&dir).map_err(|source| OutputError::Io {
                path: dir.clone(),
                source,
            })?;
            let path = dir.join(format!("part-{month}.parquet"));
            let mut df = self
                .games_frame(period, false)
                .map_err(table_error(&path))?;
            write_parquet(&path, &mut df)?;
        }
        Ok(())
    }

    /// Writes the held games of the periods up to `through`, period by period in the order a
    /// replay sorts a list's games in (`GameRow::replay_order`).
    fn write_games(&mut self, through: Month) -> Result<(), OutputError> {
        let (mut ready, held): (Vec<GameRow>, Vec<GameRow>) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|g| g.period <= through);
        self.held = held;
        // Each key computed once: comparing computed keys, `event_text_order`'s 128-bit products
        // among them, was a fifth of `generate`'s instructions.
        ready.sort_by_cached_key(GameRow::replay_order);
        if self.partitioned {
            self.write_partitions(self.last, &ready)
        } else {
            let games = self
                .games_frame(&ready, true)
                .map_err(table_error(&self.games.path))?;
            self.games.write(&games)
        }
    }

    fn write_month(&mut self, b: &MonthBatch) -> Result<(), OutputError> {
        let n = b.white.len();
        self.held.extend((0..n).map(|i| GameRow::of(b, i)));
        self.last = b.month;
        // A game is rated on the first list after its event ends, and an event ends at most a
        // month after it starts: no later month adds to the periods up to the next one.
        self.write_games(b.month.plus(1))?;
        *self.games_by_year.entry(b.month.year()).or_default() += n as u64;
        let months: Vec<&str> = self.months.iter().map(String::as_str).collect();
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
    pub fn finish(mut self, world: &World) -> Result<Placed, OutputError> {
        self.last = self.last.plus(1);
        if let Some(last) = self.held.iter().map(|g| g.period).max() {
            self.write_games(last)?;
        }
        let wanted = self.windows.wanted();
        let solved = std::mem::replace(&mut self.windows, Windows::new(&world.settings, &[]))
            .finish(world.players.len());
        let summary = self.summary(world, &solved);
        self.games.finish()?;
        self.truth.finish()?;
        let at = |name: &str| self.staged.path.join(name);
        if wanted {
            write_equilibrium(
                &at("equilibrium.parquet"),
                world,
                &self.months,
                self.first,
                &solved,
            )?;
        }
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

/// A game as the world writes it.
#[derive(Clone, Copy)]
struct GameRow {
    period: Month,
    event: u64,
    start: Day,
    event_type: EventType,
    white: u32,
    black: u32,
    score: u8,
}

impl GameRow {
    fn of(b: &MonthBatch, i: usize) -> GameRow {
        GameRow {
            period: b.period[i],
            event: b.event[i],
            start: b.event_start[i],
            event_type: b.event_type[i],
            white: b.white[i],
            black: b.black[i],
            score: b.score[i],
        }
    }

    /// The order in which a replay sorts a list's games (`replay/schedule.rs`, by list, event
    /// start, event, players and score), for a world's games period by period: events are
    /// numbered in the order of their names (`event_text_order`), players in the order of their
    /// ids. A world written so spares the replay its sort when its lists are monthly; any order
    /// gives the same replay.
    fn replay_order(&self) -> (Month, Day, (u128, u32), u32, u32, u8) {
        (
            self.period,
            self.start,
            event_text_order(self.event),
            self.white,
            self.black,
            self.score,
        )
    }
}

/// Orders event numbers as their decimal texts ("10" before "9"): the digits left-aligned, a
/// text before the longer ones it begins.
fn event_text_order(event: u64) -> (u128, u32) {
    let digits = event.checked_ilog10().unwrap_or(0) + 1;
    (u128::from(event) * 10u128.pow(20 - digits), digits)
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
    /// Each January's equilibrium, as solved.
    equilibrium: Vec<Solved>,
}

/// How one January's equilibrium was solved: its players with a game in the window, the groups
/// of players who met, and Newton's steps.
#[derive(serde::Serialize)]
struct Solved {
    month: String,
    players: usize,
    groups: usize,
    outside_largest: usize,
    steps: u32,
    last_move: f64,
}

#[derive(serde::Serialize)]
struct YearCounts {
    year: i32,
    games: u64,
    new_players: u64,
}

impl WorldWriter {
    /// What was generated, year by year (no timing, so that equal seeds give equal files).
    fn summary(&self, world: &World, solved: &[(Month, Equilibrium)]) -> String {
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
            equilibrium: solved
                .iter()
                .map(|(m, e)| Solved {
                    month: m.to_string(),
                    players: e.players(),
                    groups: e.groups,
                    outside_largest: e.outside_largest,
                    steps: e.steps,
                    last_move: crate::numbers::round_to(e.last_move, 6),
                })
                .collect(),
        })
    }
}

impl WorldSink for WorldWriter {
    type Error = OutputError;

    fn month(&mut self, batch: &MonthBatch) -> Result<(), OutputError> {
        self.windows.month(batch)?;
        self.write_month(batch)
    }
}

/// `equilibrium.parquet`: for each January list after the first, every player with a game in its
/// window (`generate::world::equilibrium`): `month`, `id`, `rating` (the equilibrium rating, as
/// the studies compute it: unrounded), `games` (theirs in the window).
fn write_equilibrium(
    path: &Path,
    world: &World,
    months: &[String],
    first: Month,
    solved: &[(Month, Equilibrium)],
) -> Result<(), OutputError> {
    let (mut month, mut id, mut rating, mut games) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (m, e) in solved {
        for (p, (&r, &n)) in e.rating.iter().zip(&e.games).enumerate() {
            if n > 0 {
                month.push(m.since(first).clamp(0, months.len() as i32 - 1) as usize);
                id.push(world.settings.first_id + p as u32);
                rating.push(r);
                games.push(n);
            }
        }
    }
    let names: Vec<&str> = months.iter().map(String::as_str).collect();
    let mut frame = DataFrame::new(
        id.len(),
        vec![
            enum_column("month", &names, month.into_iter()).map_err(table_error(path))?,
            id_column("id", &id),
            Float32Chunked::from_vec("rating".into(), rating)
                .into_series()
                .into(),
            UInt32Chunked::from_vec("games".into(), games)
                .into_series()
                .into(),
        ],
    )
    .map_err(table_error(path))?;
    write_parquet(path, &mut frame)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Event numbers order as their texts do, which is how the readers number events.
    #[test]
    fn event_numbers_order_as_their_texts() {
        let mut numbers = vec![9, 10, 1, 100, 11, 2, 0, 19, 1_000_000, u64::MAX, 99_999];
        let mut texts: Vec<String> = numbers.iter().map(u64::to_string).collect();
        texts.sort_unstable();
        numbers.sort_unstable_by_key(|&n| event_text_order(n));
        let ordered: Vec<String> = numbers.iter().map(u64::to_string).collect();
        assert_eq!(ordered, texts);
    }
}
