//! Places every game on the list it is rated on, finds the list in force at its tournament's start
//! and the regulations of that date, and orders the games canonically (so that no output depends on
//! the order of input rows).

use rayon::iter::ParallelIterator;
use rayon::slice::ParallelSliceMut;

use crate::model::{Day, EventType, Games, HalfPoints, IdMap, Month, PlayerId, EVENT_NONE};
use crate::scenario::Scenario;

use super::ReplayError;

/// What the engine reads of one game, in schedule order and in one place.
#[derive(Clone, Copy, Debug)]
pub struct GameSlot {
    pub white: PlayerId,
    pub black: PlayerId,
    pub event: u32,
    /// The list in force at the tournament's start.
    pub in_force: u32,
    /// The era of the tournament's start.
    pub era: u16,
    /// White's score.
    pub score: HalfPoints,
    /// A round robin (reference §6.5: until 2014 its games against unrated players were rated).
    pub round_robin: bool,
}

/// The games of a run, in canonical order, with what the engine needs to know about each.
pub struct Schedule {
    /// Index 0 is the starting list; 1..=N are the lists the run computes.
    pub lists: Vec<Month>,
    /// Indices into the input games, in canonical order: by list, tournament start, event, then
    /// the game's own start, players and score.
    pub order: Vec<u32>,
    /// Per position in `order`.
    pub slots: Vec<GameSlot>,
    /// Per position in `order`: the tournament's start.
    pub event_start: Vec<Day>,
    /// For each list index, its games as a range of `order` (empty for the starting list).
    pub periods: Vec<std::ops::Range<usize>>,
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

/// Month-indexed answers over the scenario's calendar, so that no game needs a search.
struct Calendar {
    first: Month,
    /// Per calendar month: the first list at or after it (`None` past the last list).
    list_from: Vec<Option<Month>>,
}

impl Calendar {
    fn new(scenario: &Scenario) -> Calendar {
        let (start, end) = (scenario.calendar.start, scenario.calendar.end);
        let lists = scenario.timeline.lists_between(start, end);
        let list_from = (start.0..=end.0)
            .map(|m| lists.iter().copied().find(|l| l.0 >= m))
            .collect();
        Calendar {
            first: lists.first().copied().unwrap_or(start),
            list_from,
        }
    }

    /// The list a game is rated on: the first list at or after its `period`, or the first list
    /// after the month of its `date`; `None` outside the calendar (including the first list, which
    /// is not computed).
    fn rated_on(&self, period: Option<Month>, date: Option<Day>) -> Option<Month> {
        let month = match (period, date) {
            (Some(p), _) => p,
            (None, Some(d)) => d.month().plus(1),
            (None, None) => return None,
        };
        if month <= self.first {
            return None;
        }
        let offset = usize::try_from(month.since(self.first)).ok()?;
        self.list_from.get(offset).copied().flatten()
    }
}

/// The games the scenario's calendar places on no list, which `schedule` refuses.
pub fn outside_calendar(scenario: &Scenario, games: &Games) -> Vec<usize> {
    let calendar = Calendar::new(scenario);
    (0..games.len())
        .filter(|&i| calendar.rated_on(games.period[i], games.date[i]).is_none())
        .collect()
}

/// Schedules every game of an input held whole: the run's lists follow from the last game's.
pub fn schedule(scenario: &Scenario, games: &Games) -> Result<Schedule, ReplayError> {
    let calendar = Calendar::new(scenario);
    let mut rated_on = Vec::with_capacity(games.len());
    for i in 0..games.len() {
        rated_on.push(
            calendar
                .rated_on(games.period[i], games.date[i])
                .ok_or_else(|| {
                    let (column, value) = games.when(i);
                    ReplayError::OutsideCalendar {
                        file: games.source.clone(),
                        row_word: games.row_word,
                        row: games.source_row[i],
                        column,
                        value,
                        start: scenario.calendar.start,
                        end: scenario.calendar.end,
                    }
                })?,
        );
    }
    rate_events_on_one_list(games, &mut rated_on);
    let mut lists = vec![scenario.start_list_month()];
    lists.extend(scenario.run_lists(rated_on.iter().max().copied()));
    let run_from = lists.get(1).copied().unwrap_or(scenario.run.from);
    let run_to = *lists.last().expect("the starting list");
    // Per calendar month from the starting list: its index among the run's lists.
    let index_of = |month: Month| -> usize { lists.partition_point(|&l| l < month) };

    let mut skipped = SkippedGames::default();
    let mut list_of = vec![0u32; games.len()];
    for (i, &month) in rated_on.iter().enumerate() {
        if games.period[i].is_some_and(|p| p != month) {
            skipped.moved_to_next_list += 1;
        }
        if month < run_from {
            skipped.before_run += 1;
        } else if month > run_to {
            skipped.after_run += 1;
        } else {
            list_of[i] = index_of(month) as u32;
        }
    }

    place(scenario, games, lists, &list_of, skipped)
}

/// Consecutive games of one event further apart than this are taken as separate tournaments (a
/// club's weekly event reusing its name, say).
const TOURNAMENT_GAP_DAYS: i32 = 30;

/// A tournament whose games are placed by their dates alone (no `period`) is rated on one list:
/// the list after its last game, as FIDE rates a tournament once it has ended; its games still use
/// the list in force at its start (reference §1). A tournament is an event's dated games, split
/// where consecutive games are more than `TOURNAMENT_GAP_DAYS` apart.
fn rate_events_on_one_list(games: &Games, rated_on: &mut [Month]) {
    let mut dated: Vec<(u32, Day, usize)> = (0..games.len())
        .filter(|&i| games.period[i].is_none() && games.event[i] != EVENT_NONE)
        .filter_map(|i| Some((games.event[i], games.date[i]?, i)))
        .collect();
    dated.sort_unstable();
    for event in dated.chunk_by(|a, b| a.0 == b.0) {
        for tournament in event.chunk_by(|a, b| b.1 .0 - a.1 .0 <= TOURNAMENT_GAP_DAYS) {
            let last = tournament.iter().map(|&(_, _, i)| rated_on[i]).max();
            for &(_, _, i) in tournament {
                rated_on[i] = last.unwrap_or(rated_on[i]);
            }
        }
    }
}

/// For a source read list by list, from its rating periods alone: the list each period is rated
/// on (`None` outside the scenario's calendar), and the run's lists, up to the last period's list
/// (or the scenario's end of run).
pub fn lists_for_periods(
    scenario: &Scenario,
    periods: &[Month],
) -> (Vec<Option<Month>>, Vec<Month>) {
    let calendar = Calendar::new(scenario);
    let rated_on: Vec<Option<Month>> = periods
        .iter()
        .map(|&p| calendar.rated_on(Some(p), None))
        .collect();
    let mut lists = vec![scenario.start_list_month()];
    lists.extend(scenario.run_lists(rated_on.iter().flatten().max().copied()));
    (rated_on, lists)
}

/// Schedules the games of one list, `lists[t]`, read on their own: every game is rated on it.
pub fn schedule_list(
    scenario: &Scenario,
    lists: &[Month],
    t: usize,
    games: &Games,
) -> Result<Schedule, ReplayError> {
    let list_of = vec![t as u32; games.len()];
    let mut skipped = SkippedGames::default();
    if let Some(list) = lists.get(t) {
        skipped.moved_to_next_list = games
            .period
            .iter()
            .filter(|p| p.is_some_and(|p| p != *list))
            .count();
    }
    place(scenario, games, lists.to_vec(), &list_of, skipped)
}

/// Orders the games placed on lists (`list_of`, 0 for games not replayed) and finds each one's
/// tournament start, list in force and era.
fn place(
    scenario: &Scenario,
    games: &Games,
    lists: Vec<Month>,
    list_of: &[u32],
    skipped: SkippedGames,
) -> Result<Schedule, ReplayError> {
    let first_days: Vec<Day> = lists.iter().map(|m| m.first_day()).collect();
    let starts = tournament_starts(games, list_of, &first_days, &lists)?;
    let order = canonical_order(scenario, games, list_of, &starts);

    // The list in force and the era depend only on the start's month, which consecutive games
    // nearly always share: search again only when it changes.
    let mut known: Option<(Month, u32, u16)> = None;
    let mut slots = Vec::with_capacity(order.len());
    let mut event_start = Vec::with_capacity(order.len());
    let mut periods = vec![0..0; lists.len()];
    for (pos, &g) in order.iter().enumerate() {
        let g = g as usize;
        let t = list_of[g] as usize;
        if periods[t].is_empty() {
            periods[t] = pos..pos;
        }
        periods[t].end = pos + 1;
        // Reference §1: the list in force and the rules of the tournament's start, for all its
        // games (an event's games share their earliest start).
        let start = starts[g].0;
        let (in_force, era) = match known {
            Some((month, in_force, era)) if month == start.month() => (in_force, era),
            _ => {
                let month = start.month();
                let in_force = lists.partition_point(|&l| l <= month).saturating_sub(1) as u32;
                let era = scenario.timeline.era_index(month) as u16;
                known = Some((month, in_force, era));
                (in_force, era)
            }
        };
        slots.push(GameSlot {
            white: games.white[g],
            black: games.black[g],
            event: games.event[g],
            in_force,
            era,
            score: games.score[g],
            round_robin: games.event_type(g) == EventType::RoundRobin,
        });
        event_start.push(start);
    }
    Ok(Schedule {
        lists,
        order,
        slots,
        event_start,
        periods,
        skipped,
    })
}

/// Each game's tournament start and the start of its event group (the earliest start of the
/// event's games on that list). Without `event_start` a game starts on its `date`, and without
/// either on the first day of its rating period, the month of the previous list (reference §1:
/// "the list published 1.1 is used for events commencing 1.1–31.3"). An event's games must share
/// their type, and a round robin needs its event name.
fn tournament_starts(
    games: &Games,
    list_of: &[u32],
    first_days: &[Day],
    lists: &[Month],
) -> Result<Vec<(Day, Day)>, ReplayError> {
    let mut own = vec![Day(0); games.len()];
    let mut groups: IdMap<(u32, u32), Group> = IdMap::default();
    // The first day after each list's month, once per list: a game's date is compared with it as
    // a number, not turned into a month game by game.
    let after_list: Vec<Day> = lists.iter().map(|m| m.plus(1).first_day()).collect();
    for i in (0..games.len()).filter(|&i| list_of[i] > 0) {
        let t = list_of[i] as usize;
        if let Some(date) = games.date[i].filter(|&d| d >= after_list[t]) {
            return Err(ReplayError::PlayedAfterList {
                file: games.source.clone(),
                row_word: games.row_word,
                row: games.source_row[i],
                date,
                list: lists[t],
            });
        }
        let start = games.event_start[i]
            .or(games.date[i])
            .unwrap_or(first_days[t - 1]);
        if start >= first_days[t] {
            return Err(ReplayError::StartsAfterList {
                file: games.source.clone(),
                row_word: games.row_word,
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
        let event_type = games.event_type(i);
        let problem = if games.event[i] == EVENT_NONE {
            (event_type == EventType::RoundRobin).then(|| {
                "a round robin without an event name: give its games their event (or make them swiss)"
                    .to_string()
            })
        } else {
            let group = groups.entry((list_of[i], games.event[i])).or_insert(Group {
                start,
                event_type,
                first: i,
            });
            group.start = group.start.min(start);
            // An event's games rated on one list share one type.
            (group.event_type != event_type).then(|| {
                format!(
                    "{} in event {:?}, whose game on {} {} is {}: an event's games share one type",
                    event_type.name(),
                    games.event_names[games.event[i] as usize],
                    games.row_word,
                    games.source_row[group.first],
                    group.event_type.name()
                )
            })
        };
        if let Some(problem) = problem {
            return Err(ReplayError::EventType {
                file: games.source.clone(),
                row_word: games.row_word,
                row: games.source_row[i],
                problem,
            });
        }
    }
    Ok((0..games.len())
        .map(|i| {
            if games.event[i] == EVENT_NONE || list_of[i] == 0 {
                return (own[i], own[i]);
            }
            let group = groups[&(list_of[i], games.event[i])].start;
            // A game without its own start date takes its event's.
            let own = if games.event_start[i].is_none() && games.date[i].is_none() {
                group
            } else {
                own[i]
            };
            (group, own)
        })
        .collect())
}

/// What the games of one event rated on one list share: the earliest start, and the type of the
/// first game (with its row, for messages).
struct Group {
    start: Day,
    event_type: EventType,
    first: usize,
}

/// The replayed games sorted by list, event-group start, event, the game's own start, players and
/// score: a total order on what a game is, so that input row order changes nothing.
fn canonical_order(
    scenario: &Scenario,
    games: &Games,
    list_of: &[u32],
    starts: &[(Day, Day)],
) -> Vec<u32> {
    let first_day = scenario.calendar.start.first_day().0;
    let key = |i: usize| {
        let (group, own) = starts[i];
        (
            list_of[i],
            group.0 - first_day,
            games.event[i],
            own.0 - group.0,
            games.white[i],
            games.black[i],
            games.score[i],
        )
    };
    let replayed = (0..games.len()).filter(|&i| list_of[i] > 0);
    // The 128-bit key as two 64-bit halves: 24 bytes an element to sort instead of 32 (a u128
    // aligns to 16), in the same order.
    let packed: Option<Vec<(u64, u64, u32)>> = replayed
        .clone()
        .map(|i| packed_key(key(i)).map(|k| ((k >> 64) as u64, k as u64, i as u32)))
        .collect();
    match packed {
        Some(mut keyed) => {
            sort_packed(&mut keyed);
            keyed.into_iter().map(|(_, _, i)| i).collect()
        }
        None => {
            let mut wide: Vec<_> = replayed.map(|i| (key(i), i as u32)).collect();
            wide.par_sort_unstable();
            wide.into_iter().map(|(_, i)| i).collect()
        }
    }
}

/// Sorts the packed keys. Keys are distinct (they end in the game's index): any sort gives the
/// same order. When the games come list by list (a world as `elosim generate` writes it, or one
/// list read on its own), each list's keys are sorted on their own, and a list already in order
/// (the world's, when its lists are monthly) is only checked.
fn sort_packed(keyed: &mut [(u64, u64, u32)]) {
    // The list is the key's top 12 bits.
    let list = |k: &(u64, u64, u32)| k.0 >> 52;
    if keyed.is_sorted_by_key(list) {
        keyed
            .par_chunk_by_mut(|a, b| list(a) == list(b))
            .filter(|games| !games.is_sorted())
            .for_each(|games| games.par_sort_unstable());
    } else {
        keyed.par_sort_unstable();
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys grouped by list, some lists in order and some not, and keys in no order at all, sort
    /// as a plain sort does.
    #[test]
    fn packed_keys_sort_as_a_plain_sort_whatever_their_order() {
        let key = |list: u64, rest: u64, i: u32| (list << 52 | rest, rest * 7 % 5, i);
        // Lists 0 and 1 in order, lists 2 and 3 backwards.
        let mut by_list: Vec<(u64, u64, u32)> = (0..40u32)
            .map(|i| {
                let rest = if i < 20 { i } else { 40 - i };
                key(u64::from(i / 10), u64::from(rest), i)
            })
            .collect();
        let mut expected = by_list.clone();
        expected.sort_unstable();
        assert_ne!(by_list, expected);
        sort_packed(&mut by_list);
        assert_eq!(by_list, expected);
        let mut mixed: Vec<(u64, u64, u32)> = expected.iter().rev().copied().collect();
        sort_packed(&mut mixed);
        assert_eq!(mixed, expected);
    }
}
