//! Scenarios: TOML files of dated regulation revisions and one-off events, resolved into a
//! validated, typed [`Scenario`].
//!
//! `raw` reads one file and checks every key; `resolve` follows `extends`, folds the revisions
//! into eras and validates the whole; `timeline` answers which rules are in force when.

mod describe;
mod error;
pub mod fields;
mod key_path;
mod raw;
mod resolve;
mod resolved;

use std::path::{Path, PathBuf};

pub use crate::rules::Timeline;
pub use error::{Problem, ScenarioError};
pub use key_path::{KeyPath, ScenarioFiles, Setting};

/// The starting list written `reported` (`--start-list reported`, `data.start-list = "reported"`):
/// the ratings the games' own tournament reports carry, not a file.
pub const REPORTED: &str = "reported";

/// A starting list as a file writes it: `reported` as it is, anything else a path from `dir`.
pub fn start_list_in(dir: &Path, written: &str) -> PathBuf {
    if written == REPORTED {
        PathBuf::from(REPORTED)
    } else {
        dir.join(written)
    }
}

use crate::model::Month;
use crate::named::named_enum;
use crate::rules::{
    CapScope, Compression, DelistedGames, DiffCap, EventGate, GateApplies, InitialFormula,
    InitialRule, JuniorUntil, KRule, ListCadence, Regulations, RoundRobinUnrated, Rounding,
};
use crate::systems::{SystemConfig, SystemKind};

/// A resolved scenario: everything a replay needs besides its input files.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    /// The file it was read from.
    pub file: PathBuf,
    /// The rating system and its settings (FIDE's rules are the timeline).
    pub system: SystemConfig,
    pub calendar: Calendar,
    /// The lists the replay computes: the first and the last.
    pub run: RunWindow,
    pub data: DataSources,
    pub bootstrap: Bootstrap,
    pub timeline: Timeline,
    /// What the revisions that opened each era say of it (era order), for `elosim check` and the
    /// run's outputs.
    pub era_notes: Vec<EraNotes>,
    /// One-off events, in list order.
    pub events: Vec<ScenarioEvent>,
}

/// What a scenario says of one era besides its rules.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EraNotes {
    /// The `note`s of the revisions that opened it.
    pub notes: Vec<String>,
    /// Why the era only approximates FIDE's practice (`approximate` on its revision), if it does.
    pub approximate: Option<String>,
}

/// An era a run covers that only approximates FIDE's practice.
#[derive(Clone, Debug, PartialEq)]
pub struct Approximation {
    pub from: Month,
    /// The era's last month; `None` when it is the last era.
    pub to: Option<Month>,
    pub why: String,
}

impl Scenario {
    /// The approximate eras whose months meet `first..=last` (a run's months: tournaments
    /// starting in them are rated under those eras' rules).
    pub fn approximations(&self, first: Month, last: Month) -> Vec<Approximation> {
        let eras = self.timeline.eras();
        eras.iter()
            .zip(&self.era_notes)
            .enumerate()
            .filter_map(|(i, ((from, _), notes))| {
                let to = eras.get(i + 1).map(|(next, _)| next.plus(-1));
                let meets = *from <= last && to.is_none_or(|to| to >= first);
                let why = notes.approximate.clone()?;
                meets.then_some(Approximation {
                    from: *from,
                    to,
                    why,
                })
            })
            .collect()
    }
}

/// The months a scenario covers. Games outside are an error; games inside but outside the run window
/// are skipped and counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calendar {
    pub start: Month,
    pub end: Month,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunWindow {
    /// The first list computed; the starting list is the list in force before it.
    pub from: Month,
    /// The last list computed; by default the list of the last game (so that a run does not end in
    /// years of lists without games).
    pub to: Option<Month>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataSources {
    pub games: Option<PathBuf>,
    pub format: GameFormat,
    /// For the contest layouts: the calendar month of `Month #` 1.
    pub month_1: Option<Month>,
    pub start_list: Option<PathBuf>,
    pub players: Option<PathBuf>,
}

named_enum! {
    /// The layout of a games file; `Auto` recognises it by its header.
    pub enum GameFormat {
        Auto = "auto",
        /// The canonical columns (README, "Your own data"): period/date, event, event_start, white, black, score, ratings.
        Canonical = "canonical",
        /// `"Month #","White Player #","Black Player #","Score"` (Kaggle 2010).
        Kaggle2010 = "kaggle2010",
        /// `TEID,MonthID,WhitePlayer,BlackPlayer,WhiteScore,Leaderboard` (Deloitte/FIDE 2011).
        Contest2011 = "contest2011",
        /// PGN tag sections (`.pgn`, `.pgn.gz`): Event, Date, EventDate, White, Black, Result, ratings.
        Pgn = "pgn",
        /// Tournament Report Files (`.trf`, or `.txt`/`.tab` reports, or a directory of them): the 001 lines' round blocks.
        Trf = "trf",
    }
}

/// What happens to a player who plays but is on no starting list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bootstrap {
    pub unknown_players: UnknownPlayers,
    pub seed_rating: i32,
}

named_enum! {
    pub enum UnknownPlayers {
        /// Unrated: they qualify through the initial-rating rules, as FIDE's newcomers do.
        Newcomer = "newcomer",
        /// Rated at `seed_rating` from their first game, new for K (no games counted): for data without
        /// any starting list, where nobody could otherwise be rated.
        Seed = "seed",
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioEvent {
    pub list: Month,
    pub kind: EventKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    Compression(Compression),
    /// Sonas's point 5: "all partial unrated performances in the past … will be ignored and
    /// discarded", after the list's calculations.
    FreshStart,
}

impl Scenario {
    /// Reads, resolves and validates a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        resolve::load(path)
    }

    /// Reads, resolves and validates a scenario's text that no file holds (a compiled-in one).
    pub fn from_text(text: &str, name: &Path) -> Result<Scenario, ScenarioError> {
        resolve::from_text(text, name)
    }

    /// `system` with its default settings over `games` alone, rating the lists of `months` (first,
    /// last), named `<name>-<system>`: a user's games replayed with `--system` and no scenario.
    pub fn plain(
        system: SystemKind,
        name: &str,
        games: &Path,
        months: (Month, Month),
    ) -> Result<Scenario, ScenarioError> {
        resolve::plain(system, name, games, months)
    }

    /// The first month in which a replay under `other` can differ from one under this scenario
    /// over the same inputs: the first month their rules or one-off events differ; the calendar's
    /// start when anything else a replay reads differs (the system, the calendar, the window, the
    /// treatment of unknown players); `None` when nothing does. A replay's lists before that month
    /// are the same under both (a list rates tournaments that started before it, under the rules
    /// of their start, and applies the list-level rules and events of months before it).
    pub fn first_difference(&self, other: &Scenario) -> Option<Month> {
        let same_frame = self.system == other.system
            && self.calendar == other.calendar
            && self.run == other.run
            && self.bootstrap == other.bootstrap;
        if !same_frame {
            return Some(self.calendar.start.min(other.calendar.start));
        }
        let events = (0..self.events.len().max(other.events.len())).find_map(|i| {
            let (a, b) = (self.events.get(i), other.events.get(i));
            (a != b).then(|| a.into_iter().chain(b).map(|e| e.list).min())?
        });
        [self.timeline.first_difference(&other.timeline), events]
            .into_iter()
            .flatten()
            .min()
    }

    /// Narrows the run to `from..=to` (command-line overrides), within the calendar.
    pub fn set_window(
        &mut self,
        from: Option<Month>,
        to: Option<Month>,
    ) -> Result<(), ScenarioError> {
        let window = RunWindow {
            from: from.unwrap_or(self.run.from),
            to: to.or(self.run.to),
        };
        let problems = resolve::check_window(&self.file, self.calendar, window, "--from/--to");
        if !problems.is_empty() {
            return Err(ScenarioError::Invalid(problems));
        }
        self.run = window;
        Ok(())
    }

    /// The scenario run from a starting list of `month` (a generated world's first month): its
    /// first list computed is the first list after it, to the scenario's end.
    pub fn starting_from(&self, month: Month) -> Result<Scenario, ScenarioError> {
        let from = self
            .timeline
            .lists_between(month.plus(1), self.calendar.end)
            .first()
            .copied()
            .ok_or_else(|| {
                ScenarioError::Invalid(vec![Problem {
                    file: self.file.clone(),
                    path: "calendar".into(),
                    message: format!(
                        "no list after {month}, the starting list's month: the scenario's calendar ends {}",
                        self.calendar.end
                    ),
                }])
            })?;
        let mut scenario = self.clone();
        scenario.set_window(Some(from), None)?;
        Ok(scenario)
    }

    /// The lists the run computes, in order: to `run.to`, else to the list of the last game
    /// (`last_period`), else to the calendar's end.
    pub fn run_lists(&self, last_period: Option<Month>) -> Vec<Month> {
        let to = self
            .run
            .to
            .or(last_period)
            .unwrap_or(self.calendar.end)
            .min(self.calendar.end);
        self.timeline.lists_between(self.run.from, to)
    }

    /// The list in force before the first list computed: the starting list's month.
    pub fn start_list_month(&self) -> Month {
        (self.calendar.start.index()..self.run.from.index())
            .rev()
            .map(Month::from_index)
            .find(|&m| self.timeline.has_list_in(m))
            .unwrap_or(self.calendar.start)
    }

    /// The text of `scenario.resolved.toml`: every rule of every era, events, data and window, from
    /// which the run can be repeated alone.
    pub fn resolved_toml(&self) -> String {
        resolved::write(self, resolved::Files::Named)
    }

    /// The rules alone: `resolved_toml` without the paths of its files, the same wherever the
    /// scenario was read from (what a study's fingerprint counts).
    pub fn rules_toml(&self) -> String {
        resolved::write(self, resolved::Files::Left)
    }

    /// The rules era by era, for people (`elosim check`).
    pub fn describe(&self) -> String {
        describe::describe(self)
    }
}

/// Today's FIDE standard regulations (2024 text as amended 1 Oct 2025, reference §9's last column):
/// the values a scenario's first revision starts from, so a scenario states only what differs.
pub fn base_regulations() -> Regulations {
    Regulations {
        lists: ListCadence::Monthly,
        floor: 1400,
        k: KRule {
            new: 40,
            new_until_games: 30,
            standard: 20,
            high: 10,
            high_from: 2400,
            high_needs_games: false,
            junior: 40,
            junior_max_age: 18,
            junior_below: 2300,
            junior_until: JuniorUntil::YearEnd,
            period_cap: 700,
        },
        diff_cap: DiffCap {
            points: 400,
            scope: CapScope::EveryGame,
            exempt_from: 2650,
        },
        rounding: Rounding::PerPeriod,
        initial: InitialRule {
            min_games: 5,
            window_months: 26,
            formula: InitialFormula::Performance,
            per_half_point: 2000,
            dummy_games: 2,
            dummy_rating: 1800,
            max: 2200,
            gate: EventGate {
                applies: GateApplies::UntilFirstCounted,
                min_rated_opponents: 1,
                min_half_points: 1,
            },
        },
        round_robin: RoundRobinUnrated::NotRated,
        inactive_after_months: 12,
        delisted_games: DelistedGames::Reset,
    }
}

#[cfg(test)]
mod tests;
