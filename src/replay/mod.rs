//! The replay: places games on lists, then runs one loop over the lists (`driver`) with the
//! engine of the scenario's rating system: FIDE's regulations (`fide`), a period-based system
//! (`periodic`) or a holistic one (`holistic`). Every list and its games go to a [`Sink`] as soon
//! as they are published.

mod driver;
mod fide;
mod holistic;
mod list_games;
mod lists;
mod periodic;
mod schedule;

use crate::model::{Day, Games, Month, SideRecord};
use crate::named::named_enum;
use crate::rules::PooledResults;
use crate::scenario::Scenario;
use crate::systems::{gcr::GcrConfig, PeriodicSystem, SystemConfig, Visit};

pub use crate::model::{Inputs, PeriodSource};
pub use list_games::{KEPT_LISTS, PIECE_GAMES};
pub use lists::{CurrentList, ListRows};
pub use schedule::{outside_calendar, SkippedGames};

pub use driver::Snapshot;
pub use fide::SharedIndices;

use driver::Engine;
use fide::newcomers::Pooled;
use fide::FideEngine;
use holistic::HolisticEngine;
use list_games::Periods;
use periodic::PeriodicEngine;
use schedule::Placement;

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{file}, {row_word} {row}, column {column}: {value} is outside the scenario's calendar: games are rated on the lists after {start} and up to {end} (widen [calendar] in the scenario, or drop these games: --skip-invalid leaves them out and counts them)")]
    OutsideCalendar {
        file: String,
        row_word: &'static str,
        row: u32,
        column: &'static str,
        value: String,
        start: Month,
        end: Month,
    },
    #[error("{file}, {row_word} {row}, column {column}: the tournament starts on {start}, not before the list it is rated on ({list}); expected a start before {list}-01")]
    StartsAfterList {
        file: String,
        row_word: &'static str,
        row: u32,
        column: &'static str,
        start: Day,
        list: Month,
    },
    #[error("{file}, {row_word} {row}, column date: the game was played on {date}, after the list it is rated on ({list}); expected a date up to the end of {list} (is its period wrong?)")]
    PlayedAfterList {
        file: String,
        row_word: &'static str,
        row: u32,
        date: Day,
        list: Month,
    },
    #[error("{file}, {row_word} {row}, column event_type: {problem}")]
    EventType {
        file: String,
        row_word: &'static str,
        row: u32,
        problem: String,
    },
    /// The sink the lists were handed to failed (writing a run's files, say).
    #[error(transparent)]
    Sink(Box<dyn std::error::Error + Send + Sync>),
    /// A source read list by list failed to read a period.
    #[error(transparent)]
    Input(Box<dyn std::error::Error + Send + Sync>),
    #[error("the games of period {period} are outside the scenario's calendar: games are rated on the lists after {start} and up to {end} (widen [calendar] in the scenario or leave this period out)")]
    PeriodOutsideCalendar {
        period: Month,
        start: Month,
        end: Month,
    },
    #[error("{file}, {row_word} {row}: the tournament started on {start}, more than {kept} lists before the list it is rated on ({list}); a replay read period by period keeps only the last {kept} lists (replay the games from one file, which keeps every list needed)")]
    StartedBeforeKeptLists {
        file: String,
        row_word: &'static str,
        row: u32,
        start: Day,
        list: Month,
        kept: usize,
    },
}

/// The games of a run that were rated for a player or counted towards a first rating.
#[derive(Debug, Default)]
pub struct RatedGames {
    /// Index into the input games.
    pub game: Vec<u32>,
    /// The list the game was rated on.
    pub list: Vec<u32>,
    pub event_start: Vec<Day>,
    pub white: Vec<SideRecord>,
    pub black: Vec<SideRecord>,
    /// Each side's unrounded expected score, for systems that compute in real numbers (empty for
    /// FIDE's, whose PD is in hundredths).
    pub expected: Vec<(f64, f64)>,
}

named_enum! {
    /// What a player's rating period did.
    pub enum PeriodOutcome {
        /// A rated player's games changed the rating.
        Rated = "rated",
        /// A rated player's new rating fell below the floor: off the list (reference §5).
        Delisted = "delisted",
        /// An unrated player's pooled results gave a first rating (reference §6).
        FirstRating = "first-rating",
        /// An unrated player's results were pooled, not yet enough for a first rating.
        Pooled = "pooled",
    }
}

/// Each player's rating period as the engine computed it (FIDE's regulations; other systems record
/// none): what `explain` prints, so that it can never disagree with the lists. One row per player
/// whose period counted for something, in the order the period met them.
#[derive(Debug, Default)]
pub struct PeriodRecords {
    /// The list the period is rated on.
    pub list: Vec<u32>,
    pub player: Vec<u32>,
    pub outcome: Vec<PeriodOutcome>,
    /// Games rated this period, or results counted towards a first rating.
    pub games: Vec<u32>,
    /// The rounded change the period's games gave (rated and delisted players).
    pub change: Vec<Option<i32>>,
    /// The rating the period computed, before any one-off event on the list: the previous rating
    /// plus the change, or the first rating (Ru) from the pool, also when it is below the floor.
    pub rating: Vec<Option<i32>>,
    /// An unrated player's pool after the period: the earliest list its results come from, and
    /// its games, half points and sum of opponents' ratings.
    pub pooled_from: Vec<Option<Month>>,
    pub pooled: Vec<Option<PooledResults>>,
}

/// Counts for one list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListSummary {
    pub month: Month,
    pub players: usize,
    pub new: usize,
    /// Rated players who fell below the floor and left the list.
    pub delisted: usize,
    /// Games rated for a player or counted towards a first rating.
    pub games: usize,
    /// Games that counted for nobody (both players unrated, or disregarded results).
    pub games_not_counted: usize,
}

/// What a replay returns; the lists and games themselves went to its `Sink` as they were made.
pub struct Run {
    /// Index 0 is the starting list; then the lists computed.
    pub lists: Vec<Month>,
    pub summaries: Vec<ListSummary>,
    pub skipped: SkippedGames,
    /// Seconds spent placing the games on lists before the first list (an input held whole; a
    /// source read list by list places each list's games as it reads them, and gives 0).
    pub scheduling_seconds: f64,
}

/// One list as it is published, with the games rated on it.
pub struct Published<'a> {
    /// Every list of the run, the starting list first.
    pub lists: &'a [Month],
    /// The list's index in `Run::lists` (0 is the starting list).
    pub t: usize,
    /// The list's rows alone (`starts` is `[0, rows]`).
    pub rows: &'a ListRows,
    /// Every player's row in force once the list is applied: the whole list, for a sink that
    /// needs it whole (kept by the run loop, so that no sink keeps its own).
    pub current: &'a CurrentList,
    /// The games rated on it; `game` indexes `input`.
    pub games: &'a RatedGames,
    /// What each player's period computed (empty for the starting list).
    pub periods: &'a PeriodRecords,
    pub input: &'a Games,
}

impl Published<'_> {
    pub fn month(&self) -> Month {
        self.lists[self.t]
    }
}

/// A piece of a list's games, handed over before the list (`Published`) when the list is rated in
/// pieces (a source read list by list whose lists are too large to hold).
pub struct PublishedGames<'a> {
    /// The piece's games (each with the list it is rated on); `game` indexes `input`, the piece.
    pub games: &'a RatedGames,
    pub input: &'a Games,
}

/// Where a replay hands each list as soon as it is published, so that no run keeps every list in
/// memory: the run's writer streams them to its files, `Collect` keeps them. The lists come one
/// after the other, in order, but not always from the thread that started the replay: the run
/// loop hands one over while the engine rates the next (`driver.rs`).
pub trait Sink: Send {
    fn publish(&mut self, list: Published<'_>) -> Result<(), ReplayError>;

    /// Whether the sink takes a list's games in pieces (`publish_games`); a list is rated in
    /// pieces only for one that does, and whole for one that needs its games at once.
    fn takes_pieces(&self) -> bool {
        false
    }

    /// A piece of a list's games, when the list is rated in pieces: every piece comes before the
    /// list, which is then published without games. Asked only of a sink that `takes_pieces`.
    fn publish_games(&mut self, _games: PublishedGames<'_>) -> Result<(), ReplayError> {
        Err(ReplayError::Sink(
            "this sink takes each list's games whole, not in pieces".into(),
        ))
    }

    /// A snapshot of the replay before a list, asked for with [`run_span`]'s `snapshots`; a sink
    /// that keeps it keeps its own state of that moment beside it.
    fn keep(&mut self, _snapshot: Snapshot) {}

    /// A replay asked to carry on from a snapshot could not ([`run_span`]) and starts from its
    /// first list instead: a sink set to the snapshot's moment forgets it.
    fn restart(&mut self) {}
}

/// A sink that keeps every list's changes and rated game in memory (tests, small runs, library
/// users); `whole_lists` gives the lists whole.
#[derive(Debug, Default)]
pub struct Collect {
    pub rows: ListRows,
    pub games: RatedGames,
    pub periods: PeriodRecords,
}

impl Collect {
    /// Every list whole (the rows in force on it, not only its changes), one block per list as
    /// `rows.starts` gives them.
    pub fn whole_lists(&self) -> ListRows {
        let mut current = CurrentList::default();
        let (mut whole, mut list) = (ListRows::default(), ListRows::default());
        for (t, range) in self.rows.starts.windows(2).enumerate() {
            current.apply(t, &self.rows, range[0]..range[1]);
            current.whole(&mut list);
            whole.append(&list);
        }
        whole
    }
}

impl Sink for Collect {
    fn publish(&mut self, list: Published<'_>) -> Result<(), ReplayError> {
        self.rows.append(list.rows);
        self.games.append(list.games);
        self.periods.append(list.periods);
        Ok(())
    }

    fn takes_pieces(&self) -> bool {
        true
    }

    /// Keeps a piece's games; their `game` indexes the piece, which is not kept.
    fn publish_games(&mut self, piece: PublishedGames<'_>) -> Result<(), ReplayError> {
        self.games.append(piece.games);
        Ok(())
    }
}

/// How far a replay has come, handed to its progress function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `done` of `total` lists rated (the starting list not counted), after each list.
    Lists { done: usize, total: usize },
    /// The list of `list`, rated in pieces (`run_streamed`), begins `pass` over piece `piece`
    /// (from 0) of its `pieces`.
    Piece {
        list: Month,
        pass: Pass,
        piece: usize,
        pieces: usize,
    },
}

/// A pass over the pieces of a list rated in pieces (`fide/pieces.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Finding the list's events and round robins, when a piece names events.
    Events,
    /// Summing each player's games.
    Sum,
    /// Recording the games, the players' outcomes known.
    Record,
}

impl std::fmt::Display for Pass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Pass::Events => "finding the events in",
            Pass::Sum => "summing",
            Pass::Record => "recording",
        })
    }
}

/// Replays a scenario over its inputs with the scenario's rating system, handing each list to
/// `sink` as it is published and each step to `progress`.
pub fn run(
    scenario: &Scenario,
    inputs: &Inputs,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(Step) + Sync),
) -> Result<Run, ReplayError> {
    let mut periods = Periods::whole(scenario, &inputs.games)?;
    run_periods(scenario, inputs, &mut periods, WHOLE, sink, progress)
}

/// A run from its start to its end, keeping nothing for others.
const WHOLE: driver::Span<'static> = driver::Span {
    last: None,
    snapshots: &[],
    placement: None,
    from: None,
};

/// Like `run`, over part of the run (a study's replays, which read only some lists and share
/// what they have in common):
/// - it stops after the last list in or before `last`: the lists it publishes are the first lists
///   `run` publishes, byte for byte (a list depends on none after it);
/// - before the first list in or after each of `snapshots`, it hands the sink a [`Snapshot`]
///   ([`Sink::keep`]; FIDE's regulations only);
/// - with `from`, it carries on from that snapshot of a replay of the same inputs, under rules
///   that were the same before its `next` list: the lists it publishes are those `run` would
///   publish from there, byte for byte. Over the snapshot's placement of the games, it reads each
///   list's index from `from`'s [`SharedIndices`], built by whichever of the replays sharing them
///   rates the list first (`Snapshot::shared_indices`). Where it cannot (the scenario's lists are
///   not the snapshot's run's, or its system is not FIDE's), the sink is told so
///   ([`Sink::restart`]) and the replay runs from the start over the games as this call placed
///   them (the snapshot's placement where the two agree): they are not placed a second time.
///
/// Returns the run and whether it carried on from `from`.
pub fn run_span(
    scenario: &Scenario,
    inputs: &Inputs,
    last: Option<Month>,
    snapshots: &[Month],
    from: Option<(&Snapshot, &SharedIndices)>,
    sink: &mut dyn Sink,
) -> Result<(Run, bool), ReplayError> {
    let placement = Placement::of(scenario);
    let scheduled = from.and_then(|(f, _)| f.schedule_for(&placement));
    let mut periods = match scheduled {
        Some(schedule) => Periods::scheduled(scenario, &inputs.games, schedule.clone()),
        None => Periods::whole(scenario, &inputs.games)?,
    };
    // A list's index depends only on the placement: shared where it is the snapshot's.
    let shared = from.filter(|_| scheduled.is_some()).map(|(_, s)| s);
    let from = from.map(|(f, _)| f);
    let fide = matches!(scenario.system, SystemConfig::Fide);
    let resumable = from.filter(|f| fide && periods.lists() == f.lists());
    let span = driver::Span {
        last,
        snapshots,
        placement: Some(&placement),
        from: resumable,
    };
    let Some(from) = resumable else {
        if from.is_some() {
            sink.restart();
        }
        return run_periods(scenario, inputs, &mut periods, span, sink, &|_| {})
            .map(|r| (r, false));
    };
    let mut engine = FideEngine::resumed(scenario, inputs, from.lists(), (from.engine(), shared));
    let players = inputs.players.len();
    driver::drive(&mut engine, players, &mut periods, span, sink, &|_| {}).map(|r| (r, true))
}

/// Like `run`, but the games are read from `source` list by list, so that memory holds the players
/// and one list's games; `inputs.games` is not read. A list of more than `piece_games` games that
/// the source gives in pieces is rated piece by piece under FIDE's regulations (`pieces.rs`), so
/// that memory holds the players and one piece. The lists and games handed to `sink` are the same
/// as `run` gives over the same games held whole.
pub fn run_streamed(
    scenario: &Scenario,
    inputs: &Inputs,
    source: &mut dyn PeriodSource,
    piece_games: usize,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(Step) + Sync),
) -> Result<Run, ReplayError> {
    let mut periods = Periods::streamed(scenario, source, piece_games)?;
    run_periods(scenario, inputs, &mut periods, WHOLE, sink, progress)
}

fn run_periods(
    scenario: &Scenario,
    inputs: &Inputs,
    periods: &mut Periods<'_>,
    span: driver::Span<'_>,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(Step) + Sync),
) -> Result<Run, ReplayError> {
    let lists = periods.lists().to_vec();
    let mut engine = scenario.system.visit(EngineOf {
        scenario,
        inputs,
        lists: &lists,
    });
    driver::drive(
        engine.as_mut(),
        inputs.players.len(),
        periods,
        span,
        sink,
        progress,
    )
}

/// The engine of a scenario's rating system.
struct EngineOf<'a> {
    scenario: &'a Scenario,
    inputs: &'a Inputs,
    lists: &'a [Month],
}

impl<'a> Visit for EngineOf<'a> {
    type Output = Box<dyn Engine + 'a>;

    fn fide(self) -> Self::Output {
        Box::new(FideEngine::new(self.scenario, self.inputs, self.lists))
    }

    fn periodic<S: PeriodicSystem + 'static>(self, system: S) -> Self::Output {
        Box::new(PeriodicEngine::new(system, self.inputs))
    }

    fn holistic(self, config: GcrConfig) -> Self::Output {
        Box::new(HolisticEngine::new(config, self.inputs))
    }
}

impl RatedGames {
    /// Empties the games for the next list, keeping the buffers.
    fn clear(&mut self) {
        self.game.clear();
        self.list.clear();
        self.event_start.clear();
        self.white.clear();
        self.black.clear();
        self.expected.clear();
    }

    fn append(&mut self, other: &RatedGames) {
        self.game.extend_from_slice(&other.game);
        self.list.extend_from_slice(&other.list);
        self.event_start.extend_from_slice(&other.event_start);
        self.white.extend_from_slice(&other.white);
        self.black.extend_from_slice(&other.black);
        self.expected.extend_from_slice(&other.expected);
    }

    /// One game of a system that computes in real numbers, with each side's expected score.
    fn push_predicted(
        &mut self,
        (game, list, event_start): (u32, usize, Day),
        (white, black): (SideRecord, SideRecord),
        expected: (f64, f64),
    ) {
        self.game.push(game);
        self.list.push(list as u32);
        self.event_start.push(event_start);
        self.white.push(white);
        self.black.push(black);
        self.expected.push(expected);
    }

    pub fn len(&self) -> usize {
        self.game.len()
    }

    /// White's expected score in game `i` as the calculation used it: a real-number system's own,
    /// or FIDE's PD in hundredths (from Black's side when only Black's game counted); `None` when
    /// neither side had one (both players unrated).
    pub fn white_expected(&self, i: usize) -> Option<f64> {
        let pd = |p: u8| f64::from(p) / 100.0;
        self.expected
            .get(i)
            .map(|e| e.0)
            .or(self.white[i].pd.map(pd))
            .or(self.black[i].pd.map(|p| 1.0 - pd(p)))
    }

    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }
}

impl PeriodRecords {
    /// Empties the records for the next list, keeping the buffers.
    fn clear(&mut self) {
        self.list.clear();
        self.player.clear();
        self.outcome.clear();
        self.games.clear();
        self.change.clear();
        self.rating.clear();
        self.pooled_from.clear();
        self.pooled.clear();
    }

    fn append(&mut self, other: &PeriodRecords) {
        self.list.extend_from_slice(&other.list);
        self.player.extend_from_slice(&other.player);
        self.outcome.extend_from_slice(&other.outcome);
        self.games.extend_from_slice(&other.games);
        self.change.extend_from_slice(&other.change);
        self.rating.extend_from_slice(&other.rating);
        self.pooled_from.extend_from_slice(&other.pooled_from);
        self.pooled.extend_from_slice(&other.pooled);
    }

    /// A rated player's period on list `t`: its rounded change and the rating it gives.
    #[inline(always)]
    fn rated(
        &mut self,
        at: (usize, usize),
        outcome: PeriodOutcome,
        games: u32,
        change: (i32, i32),
    ) {
        let (change, rating) = (Some(change.0), Some(change.1));
        self.push(at, outcome, games, (change, rating), None);
    }

    /// An unrated player's period on list `t`: the pool after it.
    #[inline(always)]
    fn pooled(&mut self, at: (usize, usize), outcome: PeriodOutcome, games: u32, pool: &Pooled) {
        let pooled = (pool.from, pool.total);
        self.push(at, outcome, games, (None, pool.rating), Some(pooled));
    }

    /// One period: `at` is (list, player). Inlined with its two callers: called, its tuple of
    /// options was stored in halves and read whole, a failed store forward on every record.
    #[inline(always)]
    fn push(
        &mut self,
        (t, player): (usize, usize),
        outcome: PeriodOutcome,
        games: u32,
        (change, rating): (Option<i32>, Option<i32>),
        pooled: Option<(Option<Month>, PooledResults)>,
    ) {
        self.list.push(t as u32);
        self.player.push(player as u32);
        self.outcome.push(outcome);
        self.games.push(games);
        self.change.push(change);
        self.rating.push(rating);
        self.pooled_from.push(pooled.and_then(|p| p.0));
        self.pooled.push(pooled.map(|p| p.1));
    }

    pub fn len(&self) -> usize {
        self.player.len()
    }

    pub fn is_empty(&self) -> bool {
        self.player.is_empty()
    }
}

#[cfg(test)]
mod tests;
