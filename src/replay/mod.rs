//! The monthly engine: places games on lists, then for each list freezes the previous one,
//! computes every player's period in parallel and applies the outcomes, one-off events and the
//! list-level rules (floor, first ratings, K, inactivity).

mod newcomers;
mod period;
mod schedule;
mod state;

use crate::model::{Day, Games, Month, PlayerIds, PlayerInfo, StartList};
use crate::rules::period::is_inactive;
use crate::rules::DelistedGames;
use crate::scenario::{EventKind, Scenario};
use crate::systems::fide::{Outcome, PeriodRules, SideResult};

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
    #[error("{file}, row {row}, column {column}: {value} is outside the scenario's calendar: games are rated on the lists after {start} and up to {end} (widen [calendar] in the scenario or drop these games)")]
    OutsideCalendar {
        file: String,
        row: u32,
        column: &'static str,
        value: String,
        start: Month,
        end: Month,
    },
    #[error("{file}, row {row}, column {column}: the tournament starts on {start}, not before the list it is rated on ({list}); expected a start before {list}-01")]
    StartsAfterList {
        file: String,
        row: u32,
        column: &'static str,
        start: Day,
        list: Month,
    },
}

/// The lists of a run, one row per (list, player) on the list.
#[derive(Debug, Default)]
pub struct ListRows {
    /// `rows[starts[t]..starts[t + 1]]` are list t's rows (list 0, the starting list, has none).
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

/// Replays a scenario over its inputs. `progress(done, total)` is called after each list.
pub fn run(
    scenario: &Scenario,
    inputs: &Inputs,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    let games = &inputs.games;
    let schedule = schedule::schedule(scenario, games)?;
    let lists = &schedule.lists;
    let timeline = &scenario.timeline;
    let n = inputs.players.len();
    let mut state = State::from_start_list(
        n,
        &inputs.start_list,
        inputs.info.birth_year.clone(),
        lists[0],
        timeline.at_month(lists[0]),
        scenario.bootstrap,
    );

    // Older lists are kept only for tournaments that started under them and are rated later.
    let mut last_use = vec![0usize; lists.len()];
    for (t, range) in schedule.periods.iter().enumerate() {
        for pos in range.clone() {
            let s = schedule.in_force[pos] as usize;
            if s + 1 < t {
                last_use[s] = last_use[s].max(t);
            }
        }
    }
    let mut views: Vec<Option<state::ListView>> = vec![None; lists.len()];
    if last_use[0] > 0 {
        views[0] = Some(state.view());
    }

    let mut index = PlayerIndex::new(n);
    let mut results = Vec::new();
    let mut run = Run {
        lists: lists.clone(),
        rows: ListRows::default(),
        games: RatedGames::default(),
        summaries: Vec::new(),
        skipped: schedule.skipped,
    };
    run.rows.starts.extend([0, 0]);
    let mut listed = Listed {
        list: vec![u32::MAX; n],
        rating: vec![0; n],
    };
    for (p, shown) in state.shown.iter().enumerate() {
        if *shown {
            listed.list[p] = 0;
            listed.rating[p] = state.rating[p];
        }
    }
    let mut period_games = vec![0u32; n];
    let mut is_new = vec![false; n];

    for t in 1..lists.len() {
        let month = lists[t];
        let list_rules = timeline.at_month(lists[t - 1]);
        apply_events(scenario, month, true, &mut state);

        let range = schedule.periods[t].clone();
        index.build(games, &schedule, range.clone());
        let frozen = Frozen {
            state: &state,
            views: &views,
            previous: t as u32 - 1,
            games,
            schedule: &schedule,
        };
        let rules = PeriodRules {
            timeline,
            list: list_rules,
        };
        let outcomes = period::compute(&frozen, &rules, &index, month, &mut results);

        let mut summary = ListSummary {
            month,
            players: 0,
            new: 0,
            delisted: 0,
            games: 0,
            games_not_counted: 0,
        };
        record_games(
            &mut run.games,
            &mut summary,
            &index,
            &results,
            &schedule,
            t,
            range,
        );
        for (&player, outcome) in index.players.iter().zip(&outcomes) {
            let p = player as usize;
            match *outcome {
                Outcome::Rated { change, games } if games > 0 => {
                    period_games[p] = games;
                    state.shown[p] = true;
                    state.last_rated_game[p] = Some(month);
                    state.history[p].total_games += games;
                    let rating = state.rating[p] + change;
                    if rating < list_rules.floor {
                        // Reference §5: "shown as unrated on the next list … treated in the same
                        // manner as any other unrated player".
                        state.rated[p] = false;
                        if list_rules.delisted_games == DelistedGames::Reset {
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
                    if let Some(rating) =
                        newcomers::add_and_qualify(pool, month, counted, list_rules)
                    {
                        state.history[p].total_games += newcomers::pooled_games(pool);
                        pool.clear();
                        state.rated[p] = true;
                        state.rating[p] = rating;
                        state.shown[p] = true;
                        state.last_rated_game[p] = Some(month);
                        period_games[p] = 0;
                        is_new[p] = true;
                    }
                }
            }
        }
        apply_events(scenario, month, false, &mut state);
        publish(
            &mut run.rows,
            &mut summary,
            &mut state,
            &mut listed,
            &period_games,
            &is_new,
            timeline.at_month(month),
            month,
            t,
        );
        for &player in &index.players {
            period_games[player as usize] = 0;
            is_new[player as usize] = false;
        }
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

/// Each player's last published list and rating, for the `change` column.
struct Listed {
    list: Vec<u32>,
    rating: Vec<i32>,
}

/// One-off events on `month`, before or after its calculations (reference §8).
fn apply_events(scenario: &Scenario, month: Month, before: bool, state: &mut State) {
    for event in scenario.events.iter().filter(|e| e.list == month) {
        match &event.kind {
            EventKind::Compression(c)
                if (c.timing == crate::rules::EventTiming::BeforeCalculation) == before =>
            {
                for p in 0..state.players() {
                    if state.rated[p] && state.shown[p] {
                        state.rating[p] = c.apply(state.rating[p]);
                    }
                }
            }
            EventKind::FreshStart if !before => state.pool.iter_mut().for_each(Vec::clear),
            _ => {}
        }
    }
}

fn record_games(
    out: &mut RatedGames,
    summary: &mut ListSummary,
    index: &PlayerIndex,
    results: &[SideResult],
    schedule: &schedule::Schedule,
    t: usize,
    range: std::ops::Range<usize>,
) {
    let base = range.start;
    let mut sides = vec![[SideResult::default(); 2]; range.len()];
    for (side, result) in index.sides.iter().zip(results) {
        sides[side.pos as usize - base][usize::from(!side.white)] = *result;
    }
    for (i, [white, black]) in sides.into_iter().enumerate() {
        if !(white.counted || black.counted) {
            summary.games_not_counted += 1;
            continue;
        }
        summary.games += 1;
        out.game.push(schedule.order[base + i]);
        out.list.push(t as u32);
        out.event_start.push(schedule.event_start[base + i]);
        out.white.push(white);
        out.black.push(black);
    }
}

/// Publishes list t: every rated player shown, with the K of the rules in force from this list on
/// and the inactivity flag (reference §3.2, §7).
#[allow(clippy::too_many_arguments)]
fn publish(
    rows: &mut ListRows,
    summary: &mut ListSummary,
    state: &mut State,
    listed: &mut Listed,
    period_games: &[u32],
    is_new: &[bool],
    rules: &crate::rules::Regulations,
    month: Month,
    t: usize,
) {
    for p in 0..state.players() {
        if !(state.rated[p] && state.shown[p]) {
            continue;
        }
        let rating = state.rating[p];
        let history = &mut state.history[p];
        history.publish(rating, &rules.k);
        let k = rules
            .k
            .k_for_list(history, state.birth_year[p], month.year());
        state.k[p] = k;
        rows.player.push(p as u32);
        rows.rating.push(rating);
        rows.k.push(k);
        rows.games.push(period_games[p]);
        rows.total_games.push(history.total_games);
        rows.inactive.push(
            state.last_rated_game[p]
                .is_none_or(|last| is_inactive(month, last, rules.inactive_after_months)),
        );
        let first = listed.list[p] == u32::MAX || is_new[p];
        rows.new.push(first);
        rows.change
            .push((listed.list[p] == t as u32 - 1).then(|| rating - listed.rating[p]));
        listed.list[p] = t as u32;
        listed.rating[p] = rating;
        summary.new += usize::from(first);
    }
    summary.players = rows.player.len() - rows.starts[t];
    rows.starts.push(rows.player.len());
}

#[cfg(test)]
mod tests;
