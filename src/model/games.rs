use super::{Day, HalfPoints, Month, PlayerId};

/// `event` value of a game reported without an event: all of a player's games in one period then
/// count as one event.
pub const EVENT_NONE: u32 = 0;

/// Reported games, one entry per game in each column.
///
/// A row gives its rating period, its date, or both; when only the date is known the period is the
/// first list after it in the scenario's calendar (resolved by the replay).
#[derive(Clone, Debug, Default)]
pub struct Games {
    pub period: Vec<Option<Month>>,
    pub date: Vec<Option<Day>>,
    /// Index into `event_names`; [`EVENT_NONE`] when the file has no event.
    pub event: Vec<u32>,
    pub event_start: Vec<Option<Day>>,
    pub white: Vec<PlayerId>,
    pub black: Vec<PlayerId>,
    /// White's score.
    pub score: Vec<HalfPoints>,
    /// Ratings recorded in the source (for reports on actual ratings); empty when the source has none.
    pub white_rating: Vec<Option<i32>>,
    pub black_rating: Vec<Option<i32>>,
    /// Line or row of each game in its source file, for messages.
    pub source_row: Vec<u32>,
    /// `event_names[0]` is the empty name of [`EVENT_NONE`].
    pub event_names: Vec<String>,
    /// The file the games came from, for messages.
    pub source: String,
}

impl Games {
    pub fn len(&self) -> usize {
        self.white.len()
    }

    pub fn is_empty(&self) -> bool {
        self.white.is_empty()
    }

    pub fn has_recorded_ratings(&self) -> bool {
        !self.white_rating.is_empty()
    }
}
