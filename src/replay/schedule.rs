//! Places every game on the list it is rated on, finds the list in force at its tournament's start
//! and the regulations of that date, and orders the games canonically (so that no output depends on
//! the order of input rows).

use std::sync::Arc;

use rayon::prelude::*;

use crate::model::{Day, EventType, Games, HalfPoints, Month, PlayerId, EVENT_NONE};
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

/// The games of a run, in canonical order, with what the engine needs to know about each. Its
/// placement is shared (a clone costs its lists, not its games): replays of the same games on the
/// same lists place them alike, whatever their rules (`Placement`).
#[derive(Clone)]
pub struct Schedule {
    /// Index 0 is the starting list; 1..=N are the lists the run computes.
    pub lists: Vec<Month>,
    /// Indices into the input games, in canonical order: by list, tournament start, event, then
    /// the game's own start, players and score.
    pub order: Arc<Vec<u32>>,
    /// Per position in `order`: the tournament's start.
    pub event_start: Arc<Vec<Day>>,
    /// Per position in `order`: the game's own start, kept only for a piece of a list rated in
    /// pieces (empty otherwise), whose games' places in the list's order it gives.
    pub own_start: Arc<Vec<Day>>,
    /// For each list index, its games as a range of `order` (empty for the starting list).
    pub periods: Vec<std::ops::Range<usize>>,
    /// Per list: the last list whose games started under it, for the lists kept for tournaments
    /// rated after the next list (0 when none).
    pub last_use: Vec<usize>,
    pub skipped: SkippedGames,
    /// The slots of one list at a time (`fill_slots`), from position `slots_from` of `order`: the
    /// run holds 8 bytes a game for its whole length, not a slot's 20.
    slots: Vec<GameSlot>,
    slots_from: usize,
}

/// What the placement of a scenario's games depends on: its calendar, its window and the months
/// its lists fall in (not its rules, which the slots read list by list).
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    calendar: (Month, Month),
    run: crate::scenario::RunWindow,
    lists: Vec<Month>,
}

impl Placement {
    pub fn of(scenario: &Scenario) -> Placement {
        let (start, end) = (scenario.calendar.start, scenario.calendar.end);
        Placement {
            calendar: (start, end),
            run: scenario.run,
            lists: scenario.timeline.lists_between(start, end),
        }
    }
}

impl Schedule {
    /// Fills the slots of list `t`'s games, in parallel, into the buffer of the list being rated.
    pub fn fill_slots(&mut self, scenario: &Scenario, games: &Games, t: usize) {
        let range = self.periods[t].clone();
        let (lists, order, starts) = (&self.lists, &self.order, &self.event_start);
        self.slots.clear();
        self.slots
            .par_extend(range.clone().into_par_iter().map_init(
                || StartRules::new(scenario, lists),
                |rules, pos| {
                    let i = order[pos] as usize;
                    // Reference §1: the list in force and the rules of the tournament's start, for
                    // all its games (an event's games share their earliest start).
                    let (in_force, era) = rules.at(starts[pos]);
                    GameSlot {
                        white: games.white[i],
                        black: games.black[i],
                        event: games.event[i],
                        in_force,
                        era,
                        score: games.score[i],
                        round_robin: games.event_type(i) == EventType::RoundRobin,
                    }
                },
            ));
        self.slots_from = range.start;
    }

    /// The slot of the game at `pos` of `order`, on the list whose slots are filled.
    pub fn slot(&self, pos: usize) -> &GameSlot {
        &self.slots[pos - self.slots_from]
    }

    /// The slots of the list filled last, in canonical order.
    pub fn list_slots(&self) -> &[GameSlot] {
        &self.slots
    }
}

/// The list in force at a tournament's start and the era of its rules: they depend only on the
/// start's month, which consecutive games nearly always share, so they are looked up again only
/// when a start leaves the month last looked up.
struct StartRules<'a> {
    scenario: &'a Scenario,
    lists: &'a [Month],
    known: Option<(Day, Day, u32, u16)>,
}

impl<'a> StartRules<'a> {
    fn new(scenario: &'a Scenario, lists: &'a [Month]) -> StartRules<'a> {
        StartRules {
            scenario,
            lists,
            known: None,
        }
    }

    fn at(&mut self, start: Day) -> (u32, u16) {
        match self.known {
            Some((from, to, in_force, era)) if from <= start && start < to => (in_force, era),
            _ => {
                let month = start.month();
                let in_force = self
                    .lists
                    .partition_point(|&l| l <= month)
                    .saturating_sub(1) as u32;
                let era = self.scenario.timeline.era_index(month) as u16;
                self.known = Some((month.first_day(), month.plus(1).first_day(), in_force, era));
                (in_force, era)
            }
        }
    }
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
        let list_from = (start.index()..=end.index())
            .map(|m| lists.iter().copied().find(|l| l.index() >= m))
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
        .filter(|&i| calendar.rated_on(games.period[i], games.date(i)).is_none())
        .collect()
}

/// Schedules every game of an input held whole: the run's lists follow from the last game's.
pub fn schedule(scenario: &Scenario, games: &Games) -> Result<Schedule, ReplayError> {
    let calendar = Calendar::new(scenario);
    let mut rated_on = Vec::with_capacity(games.len());
    for i in 0..games.len() {
        rated_on.push(
            calendar
                .rated_on(games.period[i], games.date(i))
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

    drop(rated_on);
    place(scenario, games, lists, list_of, skipped, None)
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
        .filter_map(|i| Some((games.event[i], games.date(i)?, i)))
        .collect();
    dated.sort_unstable();
    for event in dated.chunk_by(|a, b| a.0 == b.0) {
        for tournament in event.chunk_by(|a, b| b.1.since(a.1) <= TOURNAMENT_GAP_DAYS) {
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
/// `known_starts`, for a piece of a list rated in pieces, gives by event code the earliest start of
/// each event's games over the whole list, which the piece's games share.
pub fn schedule_list(
    scenario: &Scenario,
    lists: &[Month],
    t: usize,
    games: &Games,
    known_starts: Option<&[Day]>,
) -> Result<Schedule, ReplayError> {
    let list_of = vec![t as u32; games.len()];
    place(
        scenario,
        games,
        lists.to_vec(),
        list_of,
        SkippedGames::default(),
        known_starts,
    )
}

/// The list in force at a tournament's start on `start`, and the era of its rules.
pub fn in_force_at(scenario: &Scenario, lists: &[Month], start: Day) -> (u32, u16) {
    StartRules::new(scenario, lists).at(start)
}

/// Orders the games placed on lists (`list_of`, 0 for games not replayed) and finds each one's
/// tournament start and canonical place, and the lists kept for late-rated tournaments
/// (`last_use`). A counting sort groups the games by list; then each list is placed on its own,
/// the lists in parallel, in buffers reused across the lists a job places, with no game hashed. A
/// problem is reported for the first game in input order that has one.
fn place(
    scenario: &Scenario,
    games: &Games,
    lists: Vec<Month>,
    list_of: Vec<u32>,
    skipped: SkippedGames,
    known_starts: Option<&[Day]>,
) -> Result<Schedule, ReplayError> {
    let (grouped, periods) = group_by_list(&list_of, lists.len());
    drop(list_of);
    let mut order = vec![0u32; grouped.len()];
    let mut event_start = vec![Day::from_index(0); grouped.len()];
    let mut own_start = vec![
        Day::from_index(0);
        if known_starts.is_some() {
            grouped.len()
        } else {
            0
        }
    ];
    let places = Placing {
        scenario,
        games,
        lists: &lists,
        first_days: lists.iter().map(|m| m.first_day()).collect(),
        // The first day after each list's month, once per list: a game's date is compared with it
        // as a number, not turned into a month game by game.
        after_list: lists.iter().map(|m| m.plus(1).first_day()).collect(),
        known_starts,
    };
    let mut work = Vec::with_capacity(lists.len());
    let (mut order_left, mut starts_left) = (&mut order[..], &mut event_start[..]);
    let mut own_left = &mut own_start[..];
    for (t, range) in periods.iter().enumerate().skip(1) {
        let (o, o_rest) = std::mem::take(&mut order_left).split_at_mut(range.len());
        let (e, e_rest) = std::mem::take(&mut starts_left).split_at_mut(range.len());
        // Own starts are kept for every game, or (not a piece) for none.
        let own = range.len().min(own_left.len());
        let (w, w_rest) = std::mem::take(&mut own_left).split_at_mut(own);
        (order_left, starts_left, own_left) = (o_rest, e_rest, w_rest);
        work.push((
            t,
            &grouped[range.clone()],
            ListStretch {
                order: o,
                event_start: e,
                own_start: w,
            },
        ));
    }
    let placed: Vec<Result<Vec<u32>, RowProblem>> = work
        .into_par_iter()
        .map_init(
            || Scratch::new(games.event_names.len()),
            |scratch, (t, ids, place)| places.place_list(scratch, t, ids, place),
        )
        .collect();
    let mut last_use = vec![0usize; lists.len()];
    let mut first_problem: Option<RowProblem> = None;
    for (t, placed) in placed.into_iter().enumerate().map(|(at, p)| (at + 1, p)) {
        match placed {
            Ok(older) => older.iter().for_each(|&s| last_use[s as usize] = t),
            Err(problem)
                if first_problem
                    .as_ref()
                    .is_none_or(|(row, _)| problem.0 < *row) =>
            {
                first_problem = Some(problem)
            }
            Err(_) => {}
        }
    }
    if let Some((_, problem)) = first_problem {
        return Err(problem);
    }
    Ok(Schedule {
        lists,
        order: Arc::new(order),
        event_start: Arc::new(event_start),
        own_start: Arc::new(own_start),
        periods,
        last_use,
        skipped,
        slots: Vec::new(),
        slots_from: 0,
    })
}

/// The replayed games' indices grouped by list (a stable counting sort: each list's games in input
/// order), and each list's range of them; list 0's games are not replayed.
fn group_by_list(list_of: &[u32], lists: usize) -> (Vec<u32>, Vec<std::ops::Range<usize>>) {
    let mut counts = vec![0usize; lists];
    for &t in list_of {
        counts[t as usize] += 1;
    }
    let mut periods = vec![0..0; lists];
    let mut at = 0;
    for t in 1..lists {
        periods[t] = at..at + counts[t];
        at += counts[t];
    }
    let mut fill: Vec<usize> = periods.iter().map(|range| range.start).collect();
    let mut grouped = vec![0u32; at];
    for (i, &t) in list_of.iter().enumerate().filter(|(_, &t)| t > 0) {
        grouped[fill[t as usize]] = i as u32;
        fill[t as usize] += 1;
    }
    (grouped, periods)
}

/// What placing any list reads.
struct Placing<'a> {
    scenario: &'a Scenario,
    games: &'a Games,
    lists: &'a [Month],
    first_days: Vec<Day>,
    after_list: Vec<Day>,
    /// By event code, the earliest start of the event's games on the list, when the games placed
    /// are one piece of it.
    known_starts: Option<&'a [Day]>,
}

/// One list's stretch of the schedule, filled by `place_list`.
struct ListStretch<'a> {
    order: &'a mut [u32],
    event_start: &'a mut [Day],
    /// Empty unless the games' own starts are kept.
    own_start: &'a mut [Day],
}

/// The buffers for placing lists, reused across the lists a parallel job places.
struct Scratch {
    /// Per event code: its games' group on the list being placed.
    groups: Vec<Option<Group>>,
    /// The events with a group, to clear them for the next list.
    touched: Vec<u32>,
    /// Per game of the list, in input order: (event-group start, own start).
    starts: Vec<(Day, Day)>,
    keys: Vec<(u64, u64, u32)>,
}

impl Scratch {
    fn new(events: usize) -> Scratch {
        Scratch {
            groups: vec![None; events],
            touched: Vec::new(),
            starts: Vec::new(),
            keys: Vec::new(),
        }
    }
}

/// A problem with game `.0` (its index in the input).
type RowProblem = (u32, ReplayError);

impl Placing<'_> {
    /// Places the games `ids` of list `t`: their starts and their canonical order. Returns the
    /// lists older than the previous one that its tournaments started under.
    fn place_list(
        &self,
        scratch: &mut Scratch,
        t: usize,
        ids: &[u32],
        place: ListStretch<'_>,
    ) -> Result<Vec<u32>, RowProblem> {
        let found = self.tournament_starts(scratch, t, ids);
        for &event in &scratch.touched {
            scratch.groups[event as usize] = None;
        }
        scratch.touched.clear();
        found?;
        self.canonical_order(scratch, ids, place.order);
        Ok(self.order_and_starts(&scratch.starts, t, ids, place))
    }

    /// Each game's tournament start and the start of its event group (the earliest start of the
    /// event's games on that list), into `scratch.starts`. Without `event_start` a game starts on
    /// its `date`, and without either on the first day of its rating period, the month of the
    /// previous list (reference §1: "the list published 1.1 is used for events commencing
    /// 1.1–31.3"). An event's games must share their type, and a round robin needs its event name.
    fn tournament_starts(
        &self,
        scratch: &mut Scratch,
        t: usize,
        ids: &[u32],
    ) -> Result<(), RowProblem> {
        let games = self.games;
        scratch.starts.clear();
        for &id in ids {
            let i = id as usize;
            let problem = |problem: ReplayError| (id, problem);
            if let Some(date) = games.date(i).filter(|&d| d >= self.after_list[t]) {
                return Err(problem(ReplayError::PlayedAfterList {
                    file: games.source.clone(),
                    row_word: games.row_word,
                    row: games.source_row[i],
                    date,
                    list: self.lists[t],
                }));
            }
            let start = games.event_start[i]
                .or(games.date(i))
                .unwrap_or(self.first_days[t - 1]);
            if start >= self.first_days[t] {
                return Err(problem(ReplayError::StartsAfterList {
                    file: games.source.clone(),
                    row_word: games.row_word,
                    row: games.source_row[i],
                    column: if games.event_start[i].is_some() {
                        "event_start"
                    } else {
                        "date"
                    },
                    start,
                    list: self.lists[t],
                }));
            }
            scratch.starts.push((start, start));
            let event = games.event[i];
            let event_type = games.event_type(i);
            if event == EVENT_NONE {
                if event_type == EventType::RoundRobin {
                    return Err(problem(self.event_type_problem(i, "a round robin without an event name: give its games their event (or make them swiss)".into())));
                }
                continue;
            }
            let group = scratch.groups[event as usize].get_or_insert_with(|| {
                scratch.touched.push(event);
                Group {
                    start: self
                        .known_starts
                        .map_or(start, |known| known[event as usize]),
                    event_type,
                    first: id,
                }
            });
            group.start = group.start.min(start);
            // An event's games rated on one list share one type.
            if group.event_type != event_type {
                let text = format!(
                    "{} in event {:?}, whose game on {} {} is {}: an event's games share one type",
                    event_type.name(),
                    games.event_names[event as usize],
                    games.row_word,
                    games.source_row[group.first as usize],
                    group.event_type.name()
                );
                return Err(problem(self.event_type_problem(i, text)));
            }
        }
        for (&id, starts) in ids.iter().zip(&mut scratch.starts) {
            let i = id as usize;
            if games.event[i] == EVENT_NONE {
                continue;
            }
            let Some(group) = scratch.groups[games.event[i] as usize].as_ref() else {
                continue;
            };
            // A game without its own start date takes its event's.
            let own = if games.event_start[i].is_none() && games.date(i).is_none() {
                group.start
            } else {
                starts.1
            };
            *starts = (group.start, own);
        }
        Ok(())
    }

    fn event_type_problem(&self, i: usize, problem: String) -> ReplayError {
        ReplayError::EventType {
            file: self.games.source.clone(),
            row_word: self.games.row_word,
            row: self.games.source_row[i],
            problem,
        }
    }

    /// The list's games sorted by event-group start, event, the game's own start, players and
    /// score: a total order on what a game is, so that input row order changes nothing. `order`
    /// receives each game's place in `ids` (which is in input order, so that places break ties as
    /// input indices would).
    fn canonical_order(&self, scratch: &mut Scratch, ids: &[u32], order: &mut [u32]) {
        let games = self.games;
        let first_day = self.scenario.calendar.start.first_day();
        let key = |(&id, &(group, own)): (&u32, &(Day, Day))| {
            let i = id as usize;
            (
                group.since(first_day),
                games.event[i],
                own.since(group),
                games.white[i],
                games.black[i],
                games.score[i],
            )
        };
        let games_of_list = || ids.iter().zip(&scratch.starts).enumerate();
        // The 128-bit key as two 64-bit halves: 24 bytes an element to sort instead of 32 (a
        // u128 aligns to 16), in the same order.
        let mut keys = std::mem::take(&mut scratch.keys);
        keys.clear();
        let packed = games_of_list().try_for_each(|(at, game)| {
            let k = packed_key(key(game))?;
            keys.push(((k >> 64) as u64, k as u64, at as u32));
            Some(())
        });
        if packed.is_some() {
            // Keys are distinct (they end in the game's place in the list, which is in input
            // order): any sort gives the same order. A
            // list already in order (a world as `elosim generate` writes it) is only checked.
            if !keys.is_sorted() {
                keys.par_sort_unstable();
            }
            for (at, &(_, _, i)) in order.iter_mut().zip(&keys) {
                *at = i;
            }
        } else {
            let mut wide: Vec<_> = games_of_list()
                .map(|(at, game)| (key(game), at as u32))
                .collect();
            wide.par_sort_unstable();
            for (at, &(_, i)) in order.iter_mut().zip(&wide) {
                *at = i;
            }
        }
        scratch.keys = keys;
    }

    /// Each game of the list as an index into the input, in its canonical order, with its
    /// event group's start; returns the lists older than the previous one (`t - 1`) that its
    /// tournaments started under, each once.
    fn order_and_starts(
        &self,
        starts: &[(Day, Day)],
        t: usize,
        ids: &[u32],
        place: ListStretch<'_>,
    ) -> Vec<u32> {
        let mut rules = StartRules::new(self.scenario, self.lists);
        let mut older = Vec::new();
        for (pos, (order, event_start)) in place.order.iter_mut().zip(place.event_start).enumerate()
        {
            // `order` holds the game's place in `ids` until now.
            let at = *order as usize;
            *order = ids[at];
            *event_start = starts[at].0;
            if let Some(own) = place.own_start.get_mut(pos) {
                *own = starts[at].1;
            }
            let (in_force, _) = rules.at(*event_start);
            // An event's games share their start: repeats come in runs.
            if (in_force as usize) + 1 < t && older.last() != Some(&in_force) {
                older.push(in_force);
            }
        }
        older.sort_unstable();
        older.dedup();
        older
    }
}

/// What the games of one event rated on one list share: the earliest start, and the type of the
/// first game (with its index, for messages).
#[derive(Clone, Copy)]
struct Group {
    start: Day,
    event_type: EventType,
    first: u32,
}

/// Packs a list's sort key into 128 bits when every part fits: event-group start 20 bits (days),
/// event 24, the game's start after it 14, players 28 each, score 2.
fn packed_key(
    (group, event, own, white, black, score): (i32, u32, i32, u32, u32, u8),
) -> Option<u128> {
    let fits = (0..1 << 20).contains(&group)
        && event < 1 << 24
        && (0..1 << 14).contains(&own)
        && white < 1 << 28
        && black < 1 << 28;
    fits.then(|| {
        ((group as u128) << 96)
            | (u128::from(event) << 72)
            | ((own as u128) << 58)
            | (u128::from(white) << 30)
            | (u128::from(black) << 2)
            | u128::from(score)
    })
}
