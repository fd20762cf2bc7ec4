//! The monthly engine: places games on lists, then for each list freezes the previous one,
//! computes every player's period in parallel and applies the outcomes, one-off events and the
//! list-level rules (floor, first ratings, K, inactivity).

mod holistic;
mod newcomers;
mod period;
mod periodic;
mod schedule;
mod state;

use crate::model::{Day, Games, Month, PlayerIds, PlayerInfo, StartList};
use crate::rules::period::is_inactive;
use crate::rules::{DelistedGames, EventTiming, Regulations};
use crate::scenario::{EventKind, Scenario};
use crate::systems::fide::{Outcome, PeriodRules, SideResult};
use crate::systems::SystemConfig;

pub use schedule::SkippedGames;

use period::{Frozen, PlayerIndex};
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

pub struct Run {
    /// Index 0 is the starting list; then the lists computed.
    pub lists: Vec<Month>,
    pub rows: ListRows,
    pub games: RatedGames,
    pub summaries: Vec<ListSummary>,
    pub skipped: SkippedGames,
}

/// Replays a scenario over its inputs with the scenario's rating system. `progress(done, total)`
/// is called after each list.
pub fn run(
    scenario: &Scenario,
    inputs: &Inputs,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    match &scenario.system_config {
        SystemConfig::Fide => run_fide(scenario, inputs, progress),
        SystemConfig::Elo(c) => periodic::run(c, scenario, inputs, progress),
        SystemConfig::Glicko(c) => periodic::run(c, scenario, inputs, progress),
        SystemConfig::Glicko2(c) => periodic::run(c, scenario, inputs, progress),
        SystemConfig::UscfClassic(c) => periodic::run(c, scenario, inputs, progress),
        SystemConfig::Berkin(c) => periodic::run(c, scenario, inputs, progress),
        SystemConfig::Gcr(c) => holistic::run(c, scenario, inputs, progress),
    }
}

/// FIDE's regulations, era by era.
fn run_fide(
    scenario: &Scenario,
    inputs: &Inputs,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    let schedule = schedule::schedule(scenario, &inputs.games)?;
    let lists = &schedule.lists;
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
    let mut last_use = vec![0usize; lists.len()];
    for (t, range) in schedule.periods.iter().enumerate() {
        for slot in &schedule.slots[range.clone()] {
            let s = slot.in_force as usize;
            if s + 1 < t {
                last_use[s] = last_use[s].max(t);
            }
        }
    }
    let mut views: Vec<Option<state::ListView>> = vec![None; lists.len()];
    if last_use[0] > 0 {
        views[0] = Some(state.view());
    }

    let mut run = Run {
        lists: lists.clone(),
        rows: ListRows::default(),
        games: RatedGames::with_capacity(schedule.order.len()),
        summaries: Vec::new(),
        skipped: schedule.skipped,
    };
    let mut publisher = Publisher::new(state.players());
    let mut start = ListSummary {
        month: lists[0],
        players: 0,
        new: 0,
        delisted: 0,
        games: 0,
        games_not_counted: 0,
    };
    publisher.publish(
        &mut run.rows,
        &mut start,
        &mut state,
        start_rules,
        lists[0],
        0,
    );
    let mut index = PlayerIndex::new(n);
    let mut results = Vec::new();
    let mut outcomes = Vec::new();
    for t in 1..lists.len() {
        let month = lists[t];
        let list_rules = timeline.at_month(lists[t - 1]);
        apply_events(scenario, month, true, &mut state, &mut publisher);

        let range = schedule.periods[t].clone();
        index.build(&schedule, range.clone());
        let frozen = Frozen {
            state: &state,
            views: &views,
            previous: t as u32 - 1,
            schedule: &schedule,
        };
        let rules = PeriodRules {
            timeline,
            list: list_rules,
        };
        period::compute(&frozen, &rules, &index, month, &mut results, &mut outcomes);

        let mut summary = ListSummary {
            month,
            players: 0,
            new: 0,
            delisted: 0,
            games: 0,
            games_not_counted: 0,
        };
        run.games
            .record(&mut summary, &index, &results, &schedule, t);
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
            &mut run.rows,
            &mut summary,
            &mut state,
            timeline.at_month(month),
            month,
            t,
        );
        if last_use[t] > t {
            views[t] = Some(state.view());
        }
        for s in 0..t {
            if last_use[s] <= t {
                views[s] = None;
            }
        }
        run.summaries.push(summary);
        progress(t, lists.len() - 1);
    }
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
    fn with_capacity(games: usize) -> RatedGames {
        RatedGames {
            game: Vec::with_capacity(games),
            list: Vec::with_capacity(games),
            event_start: Vec::with_capacity(games),
            white: Vec::with_capacity(games),
            black: Vec::with_capacity(games),
            expected: Vec::new(),
        }
    }

    /// Appends the period's games that counted for someone, in schedule order.
    fn record(
        &mut self,
        summary: &mut ListSummary,
        index: &PlayerIndex,
        results: &[SideResult],
        schedule: &schedule::Schedule,
        t: usize,
    ) {
        let range = schedule.periods[t].clone();
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
        if rows.starts.is_empty() {
            rows.starts.push(0);
        }
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
        let first_row = rows.new.len();
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
        summary.new = rows.new[first_row..].iter().filter(|&&new| new).count();
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
