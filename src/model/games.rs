use crate::named::named_enum;

use super::{Day, HalfPoints, Month, PlayerId};

/// `event` value of a game reported without an event: all of a player's games in one period then
/// count as one event.
pub const EVENT_NONE: u32 = 0;

named_enum! {
    /// How a tournament is paired, where the regulations rate them differently (reference §6.5:
    /// until 2014 round robins rated games against unrated players).
    pub enum EventType {
        Swiss = "swiss",
        RoundRobin = "round-robin",
    }
}

/// Reported games, one entry per game in each column.
///
/// A row gives its rating period, its date, or both; when only the date is known the period is the
/// first list after it in the scenario's calendar (resolved by the replay).
#[derive(Clone, Debug)]
pub struct Games {
    pub period: Vec<Option<Month>>,
    /// Each game's date; empty when the source has none (a world's games, a table without dates),
    /// which saves a column as long as the games.
    pub date: Vec<Option<Day>>,
    /// Index into `event_names`; [`EVENT_NONE`] when the file has no event.
    pub event: Vec<u32>,
    pub event_start: Vec<Option<Day>>,
    /// Each game's event type; empty when the source does not say, and then every event is a Swiss.
    pub event_type: Vec<EventType>,
    pub white: Vec<PlayerId>,
    pub black: Vec<PlayerId>,
    /// White's score.
    pub score: Vec<HalfPoints>,
    /// Ratings recorded in the source (for reports on actual ratings); empty when the source has none.
    pub white_rating: Vec<Option<i32>>,
    pub black_rating: Vec<Option<i32>>,
    /// Line (CSV) or row (Parquet) of each game in its source file, for messages.
    pub source_row: Vec<u32>,
    /// "line" or "row": what `source_row` counts.
    pub row_word: &'static str,
    /// `event_names[0]` is the empty name of [`EVENT_NONE`].
    pub event_names: Vec<String>,
    /// The file the games came from, for messages.
    pub source: String,
    /// A file whose months are numbered from 1 (Kaggle's `Month #`, the 2011 contest's `MonthID`):
    /// that column and the calendar month of month 1, so that messages name what the file says.
    pub numbered_months: Option<(&'static str, Month)>,
}

impl Default for Games {
    fn default() -> Games {
        Games {
            period: Vec::new(),
            date: Vec::new(),
            event: Vec::new(),
            event_start: Vec::new(),
            event_type: Vec::new(),
            white: Vec::new(),
            black: Vec::new(),
            score: Vec::new(),
            white_rating: Vec::new(),
            black_rating: Vec::new(),
            source_row: Vec::new(),
            row_word: "line",
            event_names: Vec::new(),
            source: String::new(),
            numbered_months: None,
        }
    }
}

impl Games {
    pub fn len(&self) -> usize {
        self.white.len()
    }

    pub fn is_empty(&self) -> bool {
        self.white.is_empty()
    }

    /// The date of game `i`, when the source gives one.
    pub fn date(&self, i: usize) -> Option<Day> {
        self.date.get(i).copied().flatten()
    }

    /// The month whose list game `i` is rated on or after: its period, or the month after its
    /// date.
    pub fn rating_month(&self, i: usize) -> Option<Month> {
        self.period[i].or_else(|| self.date(i).map(|d| d.month().plus(1)))
    }

    /// The event type of game `i`: a Swiss when the source does not say.
    pub fn event_type(&self, i: usize) -> EventType {
        self.event_type.get(i).copied().unwrap_or(EventType::Swiss)
    }

    pub fn has_recorded_ratings(&self) -> bool {
        !self.white_rating.is_empty()
    }

    /// The column that places game `i` in time and its value as the file gives it: its period (or
    /// its month number, in a file of numbered months), else its date.
    pub fn when(&self, i: usize) -> (&'static str, String) {
        match (self.period[i], self.date(i), self.numbered_months) {
            (Some(month), _, Some((column, month_1))) => (
                column,
                format!(
                    "month {} ({month}, month 1 being {month_1}: data.month-1 in the scenario)",
                    month.since(month_1) + 1
                ),
            ),
            (Some(month), _, None) => ("period", month.to_string()),
            (None, date, _) => ("date", date.map(|d| d.to_string()).unwrap_or_default()),
        }
    }

    /// The games `rows`, in that order, with the same event names and source.
    pub fn select(&self, rows: &[usize]) -> Games {
        fn pick<T: Copy>(column: &[T], rows: &[usize]) -> Vec<T> {
            if column.is_empty() {
                return Vec::new();
            }
            rows.iter().map(|&i| column[i]).collect()
        }
        Games {
            period: pick(&self.period, rows),
            date: pick(&self.date, rows),
            event: pick(&self.event, rows),
            event_start: pick(&self.event_start, rows),
            event_type: pick(&self.event_type, rows),
            white: pick(&self.white, rows),
            black: pick(&self.black, rows),
            score: pick(&self.score, rows),
            white_rating: pick(&self.white_rating, rows),
            black_rating: pick(&self.black_rating, rows),
            source_row: pick(&self.source_row, rows),
            row_word: self.row_word,
            event_names: self.event_names.clone(),
            source: self.source.clone(),
            numbered_months: self.numbered_months,
        }
    }
}
