//! Where a replay takes each list's games from: an input held whole and scheduled at once, or a
//! source read list by list (a month-partitioned dataset too large to hold), scheduled per list.
//! Either way the engine sees one list's games at a time, in the same canonical order.

use std::collections::HashMap;
use std::ops::Range;
use std::time::Instant;

use crate::model::{Day, Games, Month, PeriodSource, EVENT_NONE};
use crate::scenario::Scenario;

use super::schedule::{self, Schedule, SkippedGames};
use super::{Pass, ReplayError, Step};

/// Lists a replay read list by list keeps for tournaments that started under a list older than the
/// previous one: it cannot know in advance which older lists a later period will need.
pub const KEPT_LISTS: usize = 12;

/// The largest list `elosim replay` rates whole when its source gives it in pieces: a list of ten
/// million games held whole took 3.5 GB (docs/performance.md).
pub const PIECE_GAMES: usize = 10_000_000;

/// One list's games: `schedule.order[range]`, which indexes `input`, with their slots filled
/// (`Schedule::list_slots`).
pub struct Period<'a> {
    pub schedule: &'a Schedule,
    pub range: Range<usize>,
    pub input: &'a Games,
    /// The next list's games in the same schedule and input, when the games are held whole: an
    /// engine may index them while it publishes this list.
    pub next: Option<Range<usize>>,
}

#[expect(
    clippy::large_enum_variant,
    reason = "one per replay, never moved in a loop: boxing would only add an indirection"
)]
pub enum Periods<'a> {
    Whole {
        scenario: &'a Scenario,
        schedule: Schedule,
        input: &'a Games,
        scheduling_seconds: f64,
    },
    Streamed(Streamed<'a>),
}

/// A source read list by list, and the list (or piece) being computed.
pub struct Streamed<'a> {
    scenario: &'a Scenario,
    lists: Vec<Month>,
    /// Per list: the rating periods rated on it.
    periods_of: Vec<Vec<Month>>,
    source: &'a mut dyn PeriodSource,
    /// Per list: its games, as the source counted them.
    games_of: Vec<usize>,
    /// A list of more games than this is rated in pieces, where the source can read them so.
    piece_games: usize,
    skipped: SkippedGames,
    /// The list being computed, or the piece of it: its games and their schedule.
    current: Option<(Games, Schedule)>,
}

impl<'a> Periods<'a> {
    /// Every game at once, placed as `schedule` places them: a schedule of the same games under a
    /// scenario of the same `Placement`.
    pub fn scheduled(scenario: &'a Scenario, input: &'a Games, schedule: Schedule) -> Periods<'a> {
        Periods::Whole {
            scenario,
            schedule,
            input,
            scheduling_seconds: 0.0,
        }
    }

    /// The games, when they are held whole: every list's games index them.
    pub fn held_input(&self) -> Option<&'a Games> {
        match self {
            Periods::Whole { input, .. } => Some(input),
            Periods::Streamed(_) => None,
        }
    }

    /// The schedule of every game, when they are held whole.
    pub fn schedule(&self) -> Option<&Schedule> {
        match self {
            Periods::Whole { schedule, .. } => Some(schedule),
            Periods::Streamed(_) => None,
        }
    }

    /// Every game at once.
    pub fn whole(scenario: &'a Scenario, input: &'a Games) -> Result<Periods<'a>, ReplayError> {
        let started = Instant::now();
        let schedule = schedule::schedule(scenario, input)?;
        Ok(Periods::Whole {
            scenario,
            schedule,
            input,
            scheduling_seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// List by list from `source`; its periods must all lie in the scenario's calendar. A list of
    /// more than `piece_games` games is rated in pieces where the source and the rating system can.
    pub fn streamed(
        scenario: &'a Scenario,
        source: &'a mut dyn PeriodSource,
        piece_games: usize,
    ) -> Result<Periods<'a>, ReplayError> {
        let periods: Vec<Month> = source.periods().iter().map(|&(m, _)| m).collect();
        let (rated_on, lists) = schedule::lists_for_periods(scenario, &periods);
        let mut periods_of = vec![Vec::new(); lists.len()];
        let mut games_of = vec![0; lists.len()];
        let mut skipped = SkippedGames::default();
        for (&(period, games), list) in source.periods().iter().zip(rated_on) {
            let list = list.ok_or(ReplayError::PeriodOutsideCalendar {
                period,
                start: scenario.calendar.start,
                end: scenario.calendar.end,
            })?;
            match lists.binary_search(&list) {
                Ok(t) if t > 0 => {
                    periods_of[t].push(period);
                    games_of[t] += games;
                }
                _ if list > lists[lists.len() - 1] => skipped.after_run += games,
                _ => skipped.before_run += games,
            }
        }
        Ok(Periods::Streamed(Streamed {
            scenario,
            lists,
            periods_of,
            source,
            games_of,
            piece_games,
            skipped,
            current: None,
        }))
    }

    pub fn lists(&self) -> &[Month] {
        match self {
            Periods::Whole { schedule, .. } => &schedule.lists,
            Periods::Streamed(s) => &s.lists,
        }
    }

    /// Games not replayed, so far (a streamed replay counts moved games as it reads them).
    pub fn skipped(&self) -> SkippedGames {
        match self {
            Periods::Whole { schedule, .. } => schedule.skipped,
            Periods::Streamed(s) => s.skipped,
        }
    }

    /// Seconds spent placing every game on its list before the first list (0 when read list by
    /// list).
    pub fn scheduling_seconds(&self) -> f64 {
        match self {
            Periods::Whole {
                scheduling_seconds, ..
            } => *scheduling_seconds,
            Periods::Streamed(_) => 0.0,
        }
    }

    /// The games of list `t`; a streamed replay reads them now, dropping the previous list's.
    pub fn get(&mut self, t: usize) -> Result<Period<'_>, ReplayError> {
        match self {
            Periods::Whole {
                scenario,
                schedule,
                input,
                ..
            } => {
                schedule.fill_slots(scenario, input, t);
                Ok(Period {
                    range: schedule.periods[t].clone(),
                    next: schedule.periods.get(t + 1).cloned(),
                    schedule,
                    input,
                })
            }
            Periods::Streamed(s) => {
                s.current = None;
                let games = s
                    .source
                    .read(&s.periods_of[t])
                    .map_err(ReplayError::Input)?;
                s.skipped.moved_to_next_list += moved(&s.lists, t, &games);
                Ok(s.place(t, games, None)?)
            }
        }
    }

    /// List `t`'s pieces, when it is rated in pieces: `None` to rate it whole, as when it is held
    /// whole, is not more than the pieces' size, or comes in one piece.
    pub fn pieces<'p>(
        &'p mut self,
        t: usize,
        progress: &'p (dyn Fn(Step) + Sync),
    ) -> Option<ListPieces<'p, 'a>> {
        match self {
            Periods::Whole { .. } => None,
            Periods::Streamed(s) => {
                let count = (s.games_of[t] > s.piece_games)
                    .then(|| s.source.pieces(&s.periods_of[t]))
                    .flatten()
                    .filter(|&n| n > 1)?;
                Some(ListPieces {
                    streamed: s,
                    t,
                    count,
                    progress,
                })
            }
        }
    }

    /// Whether list `s` must be kept, once list `t` is published, for tournaments that started
    /// under it and are rated on a later list.
    pub fn keeps(&self, s: usize, t: usize) -> bool {
        match self {
            // Older lists are kept only for tournaments that started under them and are rated later.
            Periods::Whole { schedule, .. } => schedule.last_use[s] > t,
            Periods::Streamed(_) => s + KEPT_LISTS > t,
        }
    }
}

/// Games whose period is not list `t`'s own, rated on it.
fn moved(lists: &[Month], t: usize, games: &Games) -> usize {
    games
        .period
        .iter()
        .filter(|p| p.is_some_and(|p| p != lists[t]))
        .count()
}

/// The pieces of one list rated in pieces.
pub struct ListPieces<'p, 'a> {
    streamed: &'p mut Streamed<'a>,
    pub t: usize,
    pub count: usize,
    progress: &'p (dyn Fn(Step) + Sync),
}

impl ListPieces<'_, '_> {
    /// Tells the progress that `pass` begins piece `i`.
    fn begin(&self, pass: Pass, i: usize) {
        (self.progress)(Step::Piece {
            list: self.streamed.lists[self.t],
            pass,
            piece: i,
            pieces: self.count,
        });
    }

    /// Every list of the run.
    pub fn lists(&self) -> &[Month] {
        &self.streamed.lists
    }

    /// Piece `i`, placed as read: its own event codes, each event starting when its games in
    /// the piece start.
    pub fn as_read(&mut self, i: usize) -> Result<Period<'_>, ReplayError> {
        self.begin(Pass::Events, i);
        let games = self.streamed.read_piece(self.t, i)?;
        self.streamed.place(self.t, games, None)
    }

    /// Piece `i` for `pass`, its events numbered as the list's `events` and starting when the
    /// list's games of them start: `None` when it names an event `events` lacks. Its games moved
    /// to the next list are counted on the pass that records them (once for each piece).
    pub fn read(
        &mut self,
        i: usize,
        events: &ListEvents,
        pass: Pass,
    ) -> Result<Option<Period<'_>>, ReplayError> {
        self.begin(pass, i);
        let count_moved = pass == Pass::Record;
        let (t, streamed) = (self.t, &mut *self.streamed);
        let mut games = streamed.read_piece(t, i)?;
        if !events.renumber(&mut games) {
            return Ok(None);
        }
        if count_moved {
            streamed.skipped.moved_to_next_list += moved(&streamed.lists, t, &games);
        }
        streamed.place(t, games, Some(events.starts())).map(Some)
    }
}

impl Streamed<'_> {
    fn read_piece(&mut self, t: usize, i: usize) -> Result<Games, ReplayError> {
        self.current = None;
        self.source
            .read_piece(&self.periods_of[t], i)
            .map_err(ReplayError::Input)
    }

    /// Places games read list by list on list `t`, keeping them as the current list or piece.
    fn place(
        &mut self,
        t: usize,
        games: Games,
        known_starts: Option<&[Day]>,
    ) -> Result<Period<'_>, ReplayError> {
        let (scenario, lists) = (self.scenario, &self.lists);
        let mut schedule = schedule::schedule_list(scenario, lists, t, &games, known_starts)?;
        schedule.fill_slots(scenario, &games, t);
        check_kept(&schedule, &games, t)?;
        let (games, schedule) = self.current.insert((games, schedule));
        Ok(Period {
            range: 0..schedule.order.len(),
            schedule,
            input: games,
            next: None,
        })
    }
}

/// A list's events over all its pieces: their codes, in the order of their names, and their
/// earliest starts.
pub struct ListEvents {
    codes: HashMap<String, u32>,
    /// By code; code 0 is `EVENT_NONE`'s empty name.
    names: Vec<String>,
    starts: Vec<Day>,
}

impl ListEvents {
    /// The events of `starts` (by name, each with its earliest start), coded in the order of
    /// their names after `EVENT_NONE`, as a list's events are when it is read whole.
    pub fn new(starts: HashMap<String, Day>) -> ListEvents {
        let mut names: Vec<String> = starts.keys().cloned().collect();
        names.sort_unstable();
        names.insert(0, String::new());
        let codes = names
            .iter()
            .enumerate()
            .skip(1)
            .map(|(code, name)| (name.clone(), code as u32))
            .collect();
        // `EVENT_NONE` has no start of its own (its games each start on theirs): a placeholder.
        let starts = names
            .iter()
            .map(|name| starts.get(name).copied().unwrap_or(Day::from_index(0)))
            .collect();
        ListEvents {
            codes,
            names,
            starts,
        }
    }

    /// The events' names, by code.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Each event's earliest start, by code.
    pub fn starts(&self) -> &[Day] {
        &self.starts
    }

    /// Numbers a piece's events as the list's; `false`, leaving them as read, when a game of the
    /// piece has an event the list's events lack.
    pub fn renumber(&self, games: &mut Games) -> bool {
        let code: Vec<Option<u32>> = games
            .event_names
            .iter()
            .enumerate()
            .map(|(at, name)| match at {
                0 => Some(EVENT_NONE),
                _ => self.codes.get(name).copied(),
            })
            .collect();
        let Some(events) = games.event.iter().map(|&e| code[e as usize]).collect() else {
            return false;
        };
        games.event = events;
        games.event_names.clone_from(&self.names);
        true
    }
}

/// In a streamed replay, a tournament may not have started under a list no longer kept.
fn check_kept(schedule: &Schedule, games: &Games, t: usize) -> Result<(), ReplayError> {
    let oldest_kept = (t - 1).saturating_sub(KEPT_LISTS - 1);
    let Some(pos) = schedule
        .list_slots()
        .iter()
        .position(|slot| (slot.in_force as usize) < oldest_kept)
    else {
        return Ok(());
    };
    let g = schedule.order[pos] as usize;
    Err(ReplayError::StartedBeforeKeptLists {
        file: games.source.clone(),
        row_word: games.row_word,
        row: games.source_row[g],
        start: schedule.event_start[pos],
        list: schedule.lists[t],
        kept: KEPT_LISTS,
    })
}
