//! Places every game on the list it is rated on, finds the list in force at its tournament's start
//! and the regulations of that date, and orders the games canonically (so that no output depends on
//! the order of input rows).

use crate::model::{Day, Games, Month, EVENT_NONE};
use crate::scenario::Scenario;

use super::ReplayError;

/// The games of a run, in canonical order, with what the engine needs to know about each.
pub struct Schedule {
    /// Index 0 is the starting list; 1..=N are the lists the run computes.
    pub lists: Vec<Month>,
    /// Indices into the input games, in canonical order: by list, tournament start, event, then
    /// the game's own start, players and score.
    pub order: Vec<u32>,
    /// For each list index, its games as a range of `order` (empty for the starting list).
    pub periods: Vec<std::ops::Range<usize>>,
    /// Per position in `order`: the list in force at the tournament's start.
    pub in_force: Vec<u32>,
    /// Per position in `order`: the era of the tournament's start.
    pub era: Vec<u16>,
    /// Per position in `order`: the tournament's start.
    pub event_start: Vec<Day>,
    pub skipped: SkippedGames,
}

/// Games inside the scenario's calendar but outside the run's window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkippedGames {
    pub before_run: usize,
    pub after_run: usize,
    /// Games whose `period` is not a list month, rated on the next list.
    pub moved_to_next_list: usize,
}

pub fn schedule(scenario: &Scenario, games: &Games) -> Result<Schedule, ReplayError> {
    let timeline = &scenario.timeline;
    let calendar_lists = timeline.lists_between(scenario.calendar.start, scenario.calendar.end);
    let last_period = last_list_with_games(&calendar_lists, games);
    let run_lists = scenario.run_lists(last_period);
    let mut lists = vec![scenario.start_list_month()];
    lists.extend(run_lists);
    let run_from = lists.get(1).copied().unwrap_or(scenario.run.from);
    let run_to = *lists.last().expect("the starting list");

    // The list each game is rated on, or why it is not replayed.
    let mut skipped = SkippedGames::default();
    let mut list_of = vec![0u32; games.len()];
    for i in 0..games.len() {
        let month = rated_on(&calendar_lists, games.period[i], games.date[i]).ok_or_else(|| {
            ReplayError::OutsideCalendar {
                file: games.source.clone(),
                row: games.source_row[i],
                column: if games.period[i].is_some() {
                    "period"
                } else {
                    "date"
                },
                value: games.period[i]
                    .map(|m| m.to_string())
                    .or_else(|| games.date[i].map(|d| d.to_string()))
                    .unwrap_or_default(),
                start: scenario.calendar.start,
                end: scenario.calendar.end,
            }
        })?;
        if games.period[i].is_some_and(|p| p != month) {
            skipped.moved_to_next_list += 1;
        }
        if month < run_from {
            skipped.before_run += 1;
        } else if month > run_to {
            skipped.after_run += 1;
        } else {
            list_of[i] = lists.partition_point(|&l| l < month) as u32;
        }
    }

    let starts = tournament_starts(games, &list_of, &lists)?;
    let first_day = scenario.calendar.start.first_day().0;
    let mut keyed: Vec<(u128, u32)> = Vec::with_capacity(games.len());
    let mut wide: Vec<(u32, i32, u32, i32, u32, u32, u8, u32)> = Vec::new();
    let fits = games.event_names.len() < 1 << 24 && games.white.len() < u32::MAX as usize;
    for i in (0..games.len()).filter(|&i| list_of[i] > 0) {
        let (group, own) = starts[i];
        let parts = (
            list_of[i],
            group.0 - first_day,
            games.event[i],
            own.0 - group.0,
            games.white[i],
            games.black[i],
            games.score[i],
        );
        match packed_key(parts).filter(|_| fits) {
            Some(key) => keyed.push((key, i as u32)),
            None => wide.push((
                parts.0, parts.1, parts.2, parts.3, parts.4, parts.5, parts.6, i as u32,
            )),
        }
    }
    let order: Vec<u32> = if wide.is_empty() {
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, i)| i).collect()
    } else {
        wide.extend(keyed.iter().map(|&(_, i)| {
            let i = i as usize;
            let (group, own) = starts[i];
            (
                list_of[i],
                group.0 - first_day,
                games.event[i],
                own.0 - group.0,
                games.white[i],
                games.black[i],
                games.score[i],
                i as u32,
            )
        }));
        wide.sort_unstable();
        wide.into_iter().map(|t| t.7).collect()
    };

    let mut periods = vec![0..0; lists.len()];
    let mut in_force = Vec::with_capacity(order.len());
    let mut era = Vec::with_capacity(order.len());
    let mut event_start = Vec::with_capacity(order.len());
    let mut begin = 0;
    for (pos, &g) in order.iter().enumerate() {
        let g = g as usize;
        let t = list_of[g] as usize;
        if pos > 0 && list_of[order[pos - 1] as usize] as usize != t {
            begin = pos;
        }
        periods[t] = begin..pos + 1;
        let start = starts[g].1;
        in_force.push(
            lists
                .partition_point(|&l| l <= start.month())
                .saturating_sub(1) as u32,
        );
        era.push(timeline.era_index(start.month()) as u16);
        event_start.push(start);
    }
    Ok(Schedule {
        lists,
        order,
        periods,
        in_force,
        era,
        event_start,
        skipped,
    })
}

/// The first list a game is rated on: the first list at or after its `period`, or the first list
/// after the month of its `date`; `None` outside the calendar.
fn rated_on(calendar_lists: &[Month], period: Option<Month>, date: Option<Day>) -> Option<Month> {
    let at = match (period, date) {
        (Some(p), _) => calendar_lists.partition_point(|&l| l < p),
        (None, Some(d)) => calendar_lists.partition_point(|&l| l <= d.month()),
        (None, None) => return None,
    };
    if period.is_some_and(|p| p <= calendar_lists.first().copied().unwrap_or(p)) {
        return None; // rated on or before the scenario's first list, which is not computed
    }
    if date.is_some_and(|d| d.month() < calendar_lists.first().copied().unwrap_or(d.month())) {
        return None;
    }
    calendar_lists.get(at).copied()
}

fn last_list_with_games(calendar_lists: &[Month], games: &Games) -> Option<Month> {
    (0..games.len())
        .filter_map(|i| rated_on(calendar_lists, games.period[i], games.date[i]))
        .max()
}

/// Each game's tournament start and the start of its event group (the earliest start of the
/// event's games on that list). Without `event_start` a game starts on its `date`, and without
/// either on the first day of its rating period (the month of the previous list: reference §1,
/// "the list published 1.1 is used for events commencing 1.1–31.3").
fn tournament_starts(
    games: &Games,
    list_of: &[u32],
    lists: &[Month],
) -> Result<Vec<(Day, Day)>, ReplayError> {
    let mut own = vec![Day(0); games.len()];
    let mut group_start: std::collections::HashMap<(u32, u32), Day> =
        std::collections::HashMap::new();
    for i in (0..games.len()).filter(|&i| list_of[i] > 0) {
        let t = list_of[i] as usize;
        let start = games.event_start[i]
            .or(games.date[i])
            .unwrap_or_else(|| lists[t - 1].first_day());
        if start >= lists[t].first_day() {
            return Err(ReplayError::StartsAfterList {
                file: games.source.clone(),
                row: games.source_row[i],
                column: if games.event_start[i].is_some() {
                    "event_start"
                } else {
                    "date"
                },
                start,
                list: lists[t],
            });
        }
        own[i] = start;
        if games.event[i] != EVENT_NONE {
            let entry = group_start
                .entry((list_of[i], games.event[i]))
                .or_insert(start);
            *entry = (*entry).min(start);
        }
    }
    Ok((0..games.len())
        .map(|i| {
            let group = group_start
                .get(&(list_of[i], games.event[i]))
                .copied()
                .unwrap_or(own[i]);
            // A game without its own start date takes its event's.
            let own = if games.event_start[i].is_none() && games.date[i].is_none() {
                group
            } else {
                own[i]
            };
            (group.min(own), own)
        })
        .collect())
}

/// Packs the sort key into 128 bits when every part fits: list 12 bits, event-group start 20 (days),
/// event 24, the game's start after it 14, players 28 each, score 2.
fn packed_key(
    (list, group, event, own, white, black, score): (u32, i32, u32, i32, u32, u32, u8),
) -> Option<u128> {
    let fits = list < 1 << 12
        && (0..1 << 20).contains(&group)
        && event < 1 << 24
        && (0..1 << 14).contains(&own)
        && white < 1 << 28
        && black < 1 << 28;
    fits.then(|| {
        (u128::from(list) << 116)
            | ((group as u128) << 96)
            | (u128::from(event) << 72)
            | ((own as u128) << 58)
            | (u128::from(white) << 30)
            | (u128::from(black) << 2)
            | u128::from(score)
    })
}
