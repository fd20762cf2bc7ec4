//! Where a replay takes each list's games from: an input held whole and scheduled at once, or a
//! source read list by list (a month-partitioned dataset too large to hold), scheduled per list.
//! Either way the engine sees one list's games at a time, in the same canonical order.

use std::ops::Range;
use std::time::Instant;

use crate::model::{Games, Month, PeriodSource};
use crate::scenario::Scenario;

use super::schedule::{self, Schedule, SkippedGames};
use super::ReplayError;

/// Lists a replay read list by list keeps for tournaments that started under a list older than the
/// previous one: it cannot know in advance which older lists a later period will need.
pub const KEPT_LISTS: usize = 12;

/// One list's games: `schedule.order[range]`, which indexes `input`, with their slots filled
/// (`Schedule::list_slots`).
pub struct Period<'a> {
    pub schedule: &'a Schedule,
    pub range: Range<usize>,
    pub input: &'a Games,
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
    Streamed {
        scenario: &'a Scenario,
        lists: Vec<Month>,
        /// Per list: the rating periods rated on it.
        periods_of: Vec<Vec<Month>>,
        source: &'a mut dyn PeriodSource,
        skipped: SkippedGames,
        /// The list being computed: its games and their schedule.
        current: Option<(Games, Schedule)>,
    },
}

impl<'a> Periods<'a> {
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

    /// List by list from `source`; its periods must all lie in the scenario's calendar.
    pub fn streamed(
        scenario: &'a Scenario,
        source: &'a mut dyn PeriodSource,
    ) -> Result<Periods<'a>, ReplayError> {
        let periods: Vec<Month> = source.periods().iter().map(|&(m, _)| m).collect();
        let (rated_on, lists) = schedule::lists_for_periods(scenario, &periods);
        let mut periods_of = vec![Vec::new(); lists.len()];
        let mut skipped = SkippedGames::default();
        for (&(period, games), list) in source.periods().iter().zip(rated_on) {
            let list = list.ok_or(ReplayError::PeriodOutsideCalendar {
                period,
                start: scenario.calendar.start,
                end: scenario.calendar.end,
            })?;
            match lists.binary_search(&list) {
                Ok(t) if t > 0 => periods_of[t].push(period),
                _ if list > lists[lists.len() - 1] => skipped.after_run += games,
                _ => skipped.before_run += games,
            }
        }
        Ok(Periods::Streamed {
            scenario,
            lists,
            periods_of,
            source,
            skipped,
            current: None,
        })
    }

    pub fn lists(&self) -> &[Month] {
        match self {
            Periods::Whole { schedule, .. } => &schedule.lists,
            Periods::Streamed { lists, .. } => lists,
        }
    }

    /// Games not replayed, so far (a streamed replay counts moved games as it reads them).
    pub fn skipped(&self) -> SkippedGames {
        match self {
            Periods::Whole { schedule, .. } => schedule.skipped,
            Periods::Streamed { skipped, .. } => *skipped,
        }
    }

    /// Seconds spent placing every game on its list before the first list (0 when read list by
    /// list).
    pub fn scheduling_seconds(&self) -> f64 {
        match self {
            Periods::Whole {
                scheduling_seconds, ..
            } => *scheduling_seconds,
            Periods::Streamed { .. } => 0.0,
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
                    schedule,
                    input,
                })
            }
            Periods::Streamed {
                scenario,
                lists,
                periods_of,
                source,
                skipped,
                current,
            } => {
                *current = None;
                let games = source.read(&periods_of[t]).map_err(ReplayError::Input)?;
                let mut schedule = schedule::schedule_list(scenario, lists, t, &games)?;
                schedule.fill_slots(scenario, &games, t);
                check_kept(&schedule, &games, t)?;
                skipped.moved_to_next_list += schedule.skipped.moved_to_next_list;
                let (games, schedule) = current.insert((games, schedule));
                Ok(Period {
                    range: 0..schedule.order.len(),
                    schedule,
                    input: games,
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
            Periods::Streamed { .. } => s + KEPT_LISTS > t,
        }
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
