//! The vocabulary every games reader shares (CSV layouts, PGN, Parquet, datasets): games as read,
//! before their players are interned, and what the readers count and check alike.

use std::collections::HashMap;

use crate::model::{Day, Description, EventType, Games, Month, EVENT_NONE};
use crate::scenario::GameFormat;

use super::ids::RawIds;

/// Games as read: everything but the interned players.
pub struct RawGames {
    pub games: Games,
    pub white: RawIds,
    pub black: RawIds,
    pub sha256: String,
    pub extras: Extras,
}

/// The format the games were read in, with what its reader found besides them: one value, so
/// that what one format finds cannot come with another.
pub enum Extras {
    /// A table (CSV, Parquet), in the layout its columns follow.
    Table(GameFormat),
    /// What a PGN source counted besides its games.
    Pgn(PgnCounts),
    Trf {
        /// What the reports counted besides their games.
        counts: TrfCounts,
        /// The players as the reports describe them (id, details), the first report's
        /// description first.
        reported: Vec<(String, Reported)>,
    },
}

impl Extras {
    /// The format read: a table's layout, PGN or TRF.
    pub fn format(&self) -> GameFormat {
        match self {
            Extras::Table(layout) => *layout,
            Extras::Pgn(_) => GameFormat::Pgn,
            Extras::Trf { .. } => GameFormat::Trf,
        }
    }

    /// The players as tournament reports describe them; `None` from other formats.
    pub fn reported(&self) -> Option<&[(String, Reported)]> {
        match self {
            Extras::Trf { reported, .. } => Some(reported),
            Extras::Table(_) | Extras::Pgn(_) => None,
        }
    }

    /// The players as tournament reports describe them, taken; none from other formats.
    pub fn into_reported(self) -> Vec<(String, Reported)> {
        match self {
            Extras::Trf { reported, .. } => reported,
            Extras::Table(_) | Extras::Pgn(_) => Vec::new(),
        }
    }
}

/// A player as a tournament report describes them (its `001` line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reported {
    pub description: Description,
    pub birth_year: Option<i16>,
    /// The rating the report carries (columns 49–52): the player's on the list in force at the
    /// event; `None` for blank or 0, unrated.
    pub rating: Option<i32>,
    /// The day that list was in force: the event's start (its first round's date without one).
    pub as_of: Option<Day>,
    /// The `001` line, for messages.
    pub line: u32,
}

impl RawGames {
    /// No games yet, from a file read line by line (PGN, tournament reports), with what its
    /// format will count.
    pub fn of_lines(source: String, extras: Extras) -> RawGames {
        RawGames {
            games: Games {
                source,
                row_word: "line",
                event_names: vec![String::new()],
                ..Games::default()
            },
            white: RawIds::default(),
            black: RawIds::default(),
            sha256: String::new(),
            extras,
        }
    }

    /// Games read (`games.len()` counts interned players, which raw games have not yet).
    pub fn len(&self) -> usize {
        self.games.score.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.score.is_empty()
    }
}

/// What reading a PGN file counted besides the games it kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PgnCounts {
    /// Games in the file (every tag section).
    pub games: usize,
    /// Games with the result `*` (unfinished or unknown), left out.
    pub unfinished: usize,
    /// Games kept without both WhiteElo and BlackElo (reports on ratings cannot place them).
    pub without_ratings: usize,
    /// Tag lines that are not `[Name "value"]`, ignored.
    pub malformed_tags: usize,
    /// `{` comments still open when the next game's `[Event` tag began.
    pub unterminated_comments: usize,
    /// Games known only by their year, placed in its January (reports only, see [`Dates`]).
    pub dated_by_year: usize,
}

/// What reading the reports counted besides the games, for the run's summary. Unrated results
/// are counted per player and round, as the reports write them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrfCounts {
    pub reports: usize,
    /// `001` lines read.
    pub players: usize,
    /// Of them, players without a FIDE id, given one from their report (name and starting rank).
    pub without_fide_id: usize,
    /// Pairings played (`1`, `=`, `0`): the games.
    pub games: usize,
    /// `+` and `-`.
    pub forfeits: usize,
    /// `W`, `D`, `L`: games that lasted less than one move.
    pub unplayed: usize,
    /// `H`, `F`, `U`.
    pub half_point_byes: usize,
    pub full_point_byes: usize,
    pub pairing_byes: usize,
    /// `Z` or a blank block: rounds a player was known to be absent from.
    pub absences: usize,
    /// Team lines, extension lines, other TRF26 records and comments.
    pub lines_skipped: usize,
}

/// "2019-04 in the partition period=2019-03 …": a game filed under the wrong period.
pub fn partition_mismatch(own: Month, partition: Month) -> String {
    format!("{own}, in the partition period={partition}: a partition holds the games of its own period only")
}

/// What is wrong with a player id holding a control character (a NUL byte, say), which would
/// otherwise be taken as an id of its own and print as a raw byte; `None` for a clean id.
pub fn control_character(id: &str) -> Option<String> {
    let c = id.chars().find(|c| c.is_control())?;
    Some(format!(
        "a control character (U+{:04X}) in a player id; got {id:?}",
        u32::from(c)
    ))
}

/// Renumbers events in sorted order of their names, so that event ids do not depend on row order.
pub fn sort_event_names(games: &mut Games, events: HashMap<String, u32>) {
    let mut names: Vec<(String, u32)> = events.into_iter().collect();
    names.sort_unstable();
    let mut new_id = vec![EVENT_NONE; names.len() + 1];
    for (rank, (_, old)) in names.iter().enumerate() {
        new_id[*old as usize] = rank as u32 + 1;
    }
    for e in &mut games.event {
        *e = new_id[*e as usize];
    }
    games.event_names = std::iter::once(String::new())
        .chain(names.into_iter().map(|(n, _)| n))
        .collect();
}

/// An `event_type` cell: `swiss` or `round-robin`; empty is a Swiss (the column's default).
pub fn parse_event_type(s: &str) -> Result<EventType, String> {
    if s.is_empty() {
        return Ok(EventType::Swiss);
    }
    EventType::parse(s).ok_or_else(|| {
        format!(
            "expected one of {} (or empty for a Swiss), got {s:?}",
            EventType::NAMES.join(", ")
        )
    })
}
