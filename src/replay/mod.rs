//! The monthly engine: places games on lists, then for each list freezes the previous one,
//! computes every player's period in parallel and applies the outcomes, one-off events and the
//! list-level rules (floor, first ratings, K, inactivity).

mod holistic;
mod newcomers;
mod period;
mod periodic;
mod periods;
mod schedule;
mod state;

use crate::model::{Day, Games, Month, PlayerIds, PlayerInfo, StartList};
use crate::rules::period::is_inactive;
use crate::rules::{DelistedGames, EventTiming, Regulations};
use crate::scenario::{EventKind, Scenario};
use crate::systems::fide::{Outcome, PeriodRules, SideResult};
use crate::systems::SystemConfig;

pub use periods::{PeriodSource, KEPT_LISTS};
pub use schedule::SkippedGames;

use period::{Frozen, PlayerIndex};
use periods::{Period, Periods};
use state::State;

/// Everything a replay reads, with player ids interned.
pub struct Inputs {
    pub games: Games,
    pub players: PlayerIds,
    pub info: PlayerInfo,
    pub start_list: StartList,
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{file}, {row_word} {row}, column {column}: {value} is outside the scenario's calendar: games are rated on the lists after {start} and up to {end} (widen [calendar] in the scenario or drop these games)")]
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

/// The lists of a run, one row per (list, player) on the list.
#[derive(Debug, Default)]
pub struct ListRows {
    /// `rows[starts[t]..starts[t + 1]]` are list t's rows; list 0 is the starting list, as given.
    pub starts: Vec<usize>,
    pub player: Vec<u32>,
    pub rating: Vec<i32>,
    pub k: Vec<u8>,
    /// Rated games this period.
    pub games: Vec<u32>,
    /// Games counted towards the K rule's 30.
    pub total_games: Vec<u32>,
    pub inactive: Vec<bool>,
    /// First rating (or first appearance of a seeded player) on this list.
    pub new: Vec<bool>,
    /// The change from the player's rating on the previous list; `None` when not on it.
    pub change: Vec<Option<i32>>,
    /// Unrounded ratings, for systems that rate in real numbers (empty for FIDE's).
    pub exact: Vec<f64>,
    /// Rating deviations, for systems that have them (empty otherwise).
    pub deviation: Vec<f64>,
    /// Whether the system fills `exact` and `deviation`: the same for every list of a run, empty
    /// lists included, so that every list has the same columns.
    pub with_exact: bool,
    pub with_deviation: bool,
}

/// The games of a run that were rated for a player or counted towards a first rating.
#[derive(Debug, Default)]
pub struct RatedGames {
    /// Index into the input games.
    pub game: Vec<u32>,
    /// The list the game was rated on.
    pub list: Vec<u32>,
    pub event_start: Vec<Day>,
    pub white: Vec<SideResult>,
    pub black: Vec<SideResult>,
    /// Each side's unrounded expected score, for systems that compute in real numbers (empty for
    /// FIDE's, whose PD is in hundredths).
    pub expected: Vec<(f64, f64)>,
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
impl ListSummary {
    /// A list's counts before anything is counted.
    fn empty(month: Month) -> ListSummary {
        ListSummary {
            month,
            players: 0,
            new: 0,
            delisted: 0,
            games: 0,
            games_not_counted: 0,
        }
    }
}

pub struct Run {
    /// Index 0 is the starting list; then the lists computed.
    pub lists: Vec<Month>,
    pub summaries: Vec<ListSummary>,
    pub skipped: SkippedGames,
}

/// One list as it is published, with the games rated on it.
pub struct Published<'a> {
    /// Every list of the run, the starting list first.
    pub lists: &'a [Month],
    /// The list's index in `Run::lists` (0 is the starting list).
    pub t: usize,
    /// The list's rows alone (`starts` is `[0, rows]`).
    pub rows: &'a ListRows,
    /// The games rated on it; `game` indexes `input`.
    pub games: &'a RatedGames,
    pub input: &'a Games,
}

impl Published<'_> {
    pub fn month(&self) -> Month {
        self.lists[self.t]
    }
}

/// Where a replay hands each list as soon as it is published, so that no run keeps every list in
/// memory: the run's writer streams them to its files, `Collect` keeps them.
pub trait Sink {
    fn publish(&mut self, list: Published<'_>) -> Result<(), ReplayError>;
}

/// A sink that keeps every list and rated game in memory (tests, small runs, library users).
#[derive(Debug, Default)]
pub struct Collect {
    pub rows: ListRows,
    pub games: RatedGames,
}

impl Sink for Collect {
    fn publish(&mut self, list: Published<'_>) -> Result<(), ReplayError> {
        self.rows.append(list.rows);
        self.games.append(list.games);
        Ok(())
    }
}

/// Replays a scenario over its inputs with the scenario's rating system, handing each list to
/// `sink` as it is published. `progress(done, total)` is called after each list.
pub fn run(
    scenario: &Scenario,
    inputs: &Inputs,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    let mut periods = Periods::whole(scenario, &inputs.games)?;
    run_periods(scenario, inputs, &mut periods, sink, progress)
}

/// Like `run`, but the games are read from `source` list by list, so that memory holds the players
/// and one list's games; `inputs.games` is not read. The lists and games handed to `sink` are the
/// same as `run` gives over the same games held whole.
pub fn run_streamed(
    scenario: &Scenario,
    inputs: &Inputs,
    source: &mut dyn PeriodSource,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    let mut periods = Periods::streamed(scenario, source)?;
    run_periods(scenario, inputs, &mut periods, sink, progress)
}

fn run_periods(
    scenario: &Scenario,
    inputs: &Inputs,
    periods: &mut Periods<'_>,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    match &scenario.system_config {
        SystemConfig::Fide => run_fide(scenario, inputs, periods, sink, progress),
        SystemConfig::Elo(c) => periodic::run(c, inputs, periods, sink, progress),
        SystemConfig::Glicko(c) => periodic::run(c, inputs, periods, sink, progress),
        SystemConfig::Glicko2(c) => periodic::run(c, inputs, periods, sink, progress),
        SystemConfig::UscfClassic(c) => periodic::run(c, inputs, periods, sink, progress),
        SystemConfig::Berkin(c) => periodic::run(c, inputs, periods, sink, progress),
        SystemConfig::Gcr(c) => holistic::run(c, inputs, periods, sink, progress),
    }
}

impl ListRows {
    /// Empties the rows for the next list, keeping the buffers.
    fn clear(&mut self) {
        self.starts.clear();
        self.player.clear();
        self.rating.clear();
        self.k.clear();
        self.games.clear();
        self.total_games.clear();
        self.inactive.clear();
        self.new.clear();
        self.change.clear();
        self.exact.clear();
        self.deviation.clear();
    }

    /// Appends one list's rows as the next list.
    fn append(&mut self, list: &ListRows) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.player.extend_from_slice(&list.player);
        self.rating.extend_from_slice(&list.rating);
        self.k.extend_from_slice(&list.k);
        self.games.extend_from_slice(&list.games);
        self.total_games.extend_from_slice(&list.total_games);
        self.inactive.extend_from_slice(&list.inactive);
        self.new.extend_from_slice(&list.new);
        self.change.extend_from_slice(&list.change);
        self.exact.extend_from_slice(&list.exact);
        self.deviation.extend_from_slice(&list.deviation);
        self.with_exact = list.with_exact;
        self.with_deviation = list.with_deviation;
        self.starts.push(self.player.len());
    }

    /// The rows of one list, in player order.
    pub fn len(&self) -> usize {
        self.player.len()
    }

    pub fn is_empty(&self) -> bool {
        self.player.is_empty()
    }
}

/// FIDE's regulations, era by era.
fn run_fide(
    scenario: &Scenario,
    inputs: &Inputs,
    periods: &mut Periods<'_>,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    let lists = &periods.lists().to_vec();
    let timeline = &scenario.timeline;
    let n = inputs.players.len();
    let start_rules = timeline.at_month(lists[0]);
    let mut state = State::from_start_list(
        n,
        &inputs.start_list,
        inputs.info.birth_year.clone(),
        lists[0],
        start_rules,
        scenario.bootstrap,
    );

    // Older lists are kept only for tournaments that started under them and are rated later.
    let mut views: Vec<Option<state::ListView>> = vec![None; lists.len()];
    let mut spare = Vec::new();
    if periods.keeps(0, 0) {
        views[0] = Some(state.view(None));
    }

    let mut run = Run {
        lists: lists.clone(),
        summaries: Vec::new(),
        skipped: SkippedGames::default(),
    };
    // This list's rows and games, reused from list to list.
    let mut rows = ListRows::default();
    let mut games = RatedGames::default();
    let mut publisher = Publisher::new(state.players());
    let mut start = ListSummary::empty(lists[0]);
    publisher.publish(&mut rows, &mut start, &mut state, start_rules, lists[0], 0);
    sink.publish(Published {
        lists: &run.lists,
        t: 0,
        rows: &rows,
        games: &games,
        input: &Games::default(),
    })?;
    let mut index = PlayerIndex::new(n);
    let mut results = Vec::new();
    let mut outcomes = Vec::new();
    for t in 1..lists.len() {
        let month = lists[t];
        let list_rules = timeline.at_month(lists[t - 1]);
        apply_events(scenario, month, true, &mut state, &mut publisher);

        let period = periods.get(t)?;
        index.build(period.schedule, period.range.clone());
        let frozen = Frozen {
            state: &state,
            views: &views,
            previous: t as u32 - 1,
            schedule: period.schedule,
        };
        let rules = PeriodRules {
            timeline,
            list: list_rules,
        };
        period::compute(&frozen, &rules, &index, month, &mut results, &mut outcomes);

        let mut summary = ListSummary::empty(month);
        games.clear();
        games.record(&mut summary, &index, &results, &period, t);
        for (&player, outcome) in index.players.iter().zip(&outcomes) {
            apply_outcome(
                &mut state,
                &mut publisher,
                &mut summary,
                player as usize,
                *outcome,
                month,
                list_rules,
            );
        }
        apply_events(scenario, month, false, &mut state, &mut publisher);
        publisher.publish(
            &mut rows,
            &mut summary,
            &mut state,
            timeline.at_month(month),
            month,
            t,
        );
        sink.publish(Published {
            lists: &run.lists,
            t,
            rows: &rows,
            games: &games,
            input: period.input,
        })?;
        for (s, view) in views.iter_mut().enumerate().take(t) {
            if !periods.keeps(s, t) {
                spare.extend(view.take());
            }
        }
        if periods.keeps(t, t) {
            views[t] = Some(state.view(spare.pop()));
        }
        run.summaries.push(summary);
        progress(t, lists.len() - 1);
    }
    run.skipped = periods.skipped();
    Ok(run)
}

/// Applies one player's period outcome (reference §4–§6).
fn apply_outcome(
    state: &mut State,
    publisher: &mut Publisher,
    summary: &mut ListSummary,
    p: usize,
    outcome: Outcome,
    month: Month,
    rules: &Regulations,
) {
    match outcome {
        Outcome::Rated { change, games } if games > 0 => {
            publisher.played(p, games);
            state.shown[p] = true;
            state.last_rated_game[p] = Some(month);
            state.history[p].total_games += games;
            let rating = state.rating[p] + change;
            if rating < rules.floor {
                // Reference §5: "shown as unrated on the next list … treated in the same manner as
                // any other unrated player".
                state.rated[p] = false;
                if rules.delisted_games == DelistedGames::Reset {
                    state.history[p].total_games = 0;
                }
                summary.delisted += 1;
            } else {
                state.rating[p] = rating;
            }
        }
        Outcome::Rated { .. } => {}
        Outcome::Unrated { counted } => {
            let pool = &mut state.pool[p];
            if let Some(rating) = newcomers::add_and_qualify(pool, month, counted, rules) {
                state.history[p].total_games += newcomers::pooled_games(pool);
                pool.clear();
                state.rated[p] = true;
                state.rating[p] = rating;
                state.shown[p] = true;
                state.last_rated_game[p] = Some(month);
                publisher.rated_first(p, counted.games);
            }
        }
    }
}

/// One-off events on `month`, before or after its calculations (reference §8).
fn apply_events(
    scenario: &Scenario,
    month: Month,
    before: bool,
    state: &mut State,
    publisher: &mut Publisher,
) {
    for event in scenario.events.iter().filter(|e| e.list == month) {
        match &event.kind {
            EventKind::Compression(c) if (c.timing == EventTiming::BeforeCalculation) == before => {
                for p in 0..state.players() {
                    if state.rated[p] && state.shown[p] {
                        state.rating[p] = c.apply(state.rating[p]);
                    }
                }
                publisher.recompute_all();
            }
            EventKind::FreshStart if !before => state.pool.iter_mut().for_each(Vec::clear),
            _ => {}
        }
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

    pub fn len(&self) -> usize {
        self.game.len()
    }

    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }

    /// Appends the period's games that counted for someone, in schedule order.
    fn record(
        &mut self,
        summary: &mut ListSummary,
        index: &PlayerIndex,
        results: &[SideResult],
        period: &Period<'_>,
        t: usize,
    ) {
        let (schedule, range) = (period.schedule, period.range.clone());
        let first = self.game.len();
        self.white
            .resize(first + range.len(), SideResult::default());
        self.black
            .resize(first + range.len(), SideResult::default());
        for (side, result) in index.sides.iter().zip(results) {
            let at = first + side.pos as usize - range.start;
            if side.white {
                self.white[at] = *result;
            } else {
                self.black[at] = *result;
            }
        }
        let mut kept = first;
        for (i, pos) in range.enumerate() {
            let (white, black) = (self.white[first + i], self.black[first + i]);
            if !(white.counted || black.counted) {
                summary.games_not_counted += 1;
                continue;
            }
            summary.games += 1;
            self.white[kept] = white;
            self.black[kept] = black;
            self.game.push(schedule.order[pos]);
            self.list.push(t as u32);
            self.event_start.push(schedule.event_start[pos]);
            kept += 1;
        }
        self.white.truncate(kept);
        self.black.truncate(kept);
    }
}

/// Publishes lists: K, inactivity and the change since the previous list, for every rated player
/// shown (reference §3.2, §7).
struct Publisher {
    /// Each player's last published list and rating, for the `change` column.
    last_list: Vec<u32>,
    last_rating: Vec<i32>,
    /// Rated games this period, and first ratings this period.
    period_games: Vec<u32>,
    first: Vec<bool>,
    /// Players whose rating or history changed this period: their K is recomputed.
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    /// Recompute every K (a new year for the junior rule, other K rules, a one-off event).
    all: bool,
    last_year: i32,
    last_rules: Option<crate::rules::KRule>,
    /// The players on the list being published (scratch).
    listed: Vec<u32>,
}

impl Publisher {
    fn new(n: usize) -> Publisher {
        let (last_list, last_rating) = (vec![u32::MAX; n], vec![0; n]);
        Publisher {
            last_list,
            last_rating,
            period_games: vec![0; n],
            first: vec![false; n],
            touched: Vec::new(),
            is_touched: vec![false; n],
            all: true,
            last_year: i32::MIN,
            last_rules: None,
            listed: Vec::new(),
        }
    }

    fn touch(&mut self, p: usize) {
        if !self.is_touched[p] {
            self.is_touched[p] = true;
            self.touched.push(p as u32);
        }
    }

    fn played(&mut self, p: usize, games: u32) {
        self.period_games[p] = games;
        self.touch(p);
    }

    /// A first rating; `games` are the period's games behind it.
    fn rated_first(&mut self, p: usize, games: u32) {
        self.first[p] = true;
        self.period_games[p] = games;
        self.touch(p);
    }

    fn recompute_all(&mut self) {
        self.all = true;
    }

    fn publish(
        &mut self,
        rows: &mut ListRows,
        summary: &mut ListSummary,
        state: &mut State,
        rules: &Regulations,
        month: Month,
        t: usize,
    ) {
        rows.clear();
        rows.starts.push(0);
        // The starting list (t = 0) is published as given: its K and ratings are the input's.
        let starting = t == 0;
        let all = self.all
            || self.last_year != month.year()
            || self.last_rules.as_ref() != Some(&rules.k);
        let recompute = |state: &mut State, p: usize| {
            let history = &mut state.history[p];
            history.publish(state.rating[p], &rules.k);
            state.k[p] = rules
                .k
                .k_for_list(history, state.birth_year[p], month.year());
        };
        if starting {
        } else if all {
            for p in 0..state.players() {
                if state.rated[p] {
                    recompute(state, p);
                }
            }
        } else {
            for &p in &self.touched {
                if state.rated[p as usize] {
                    recompute(state, p as usize);
                }
            }
        }
        // Column by column over the listed players: each loop is one tight gather.
        self.listed.clear();
        self.listed.extend(
            (0..state.players() as u32)
                .filter(|&p| state.rated[p as usize] && state.shown[p as usize]),
        );
        let listed = &self.listed;
        let at = |p: &u32| *p as usize;
        rows.player.extend_from_slice(listed);
        rows.rating
            .extend(listed.iter().map(|p| state.rating[at(p)]));
        rows.k.extend(listed.iter().map(|p| state.k[at(p)]));
        rows.games
            .extend(listed.iter().map(|p| self.period_games[at(p)]));
        rows.total_games
            .extend(listed.iter().map(|p| state.history[at(p)].total_games));
        let inactive_after = rules.inactive_after_months;
        rows.inactive.extend(listed.iter().map(|p| {
            state.last_rated_game[at(p)].is_none_or(|last| is_inactive(month, last, inactive_after))
        }));
        rows.new.extend(
            listed
                .iter()
                .map(|p| !starting && (self.last_list[at(p)] == u32::MAX || self.first[at(p)])),
        );
        let previous = (t as u32).checked_sub(1);
        rows.change.extend(listed.iter().map(|p| {
            (Some(self.last_list[at(p)]) == previous)
                .then(|| state.rating[at(p)] - self.last_rating[at(p)])
        }));
        for &p in listed {
            self.last_list[p as usize] = t as u32;
            self.last_rating[p as usize] = state.rating[p as usize];
        }
        summary.new = rows.new.iter().filter(|&&new| new).count();
        let listed = listed.len();
        summary.players = listed;
        rows.starts.push(rows.player.len());
        for &p in &self.touched {
            self.period_games[p as usize] = 0;
            self.first[p as usize] = false;
            self.is_touched[p as usize] = false;
        }
        self.touched.clear();
        if !starting {
            self.all = false;
            self.last_year = month.year();
            self.last_rules = Some(rules.k.clone());
        }
    }
}

#[cfg(test)]
mod tests;
