//! Plain data shared by every part of elosim: months, players, scores and the columnar game table.
//! No I/O here; readers in `ingest` fill these types and the engine in `replay` consumes them.

mod games;
mod id_map;
mod inputs;
mod month;
mod players;
mod record;

pub use games::{EventType, Games, EVENT_NONE};
pub use id_map::{FirstSeen, IdMap};
pub use inputs::{Inputs, PeriodSource};
pub use month::{Day, Month};
pub use players::{Description, PlayerIds, PlayerInfo, StartEntry, StartList};
pub use record::SideRecord;

/// A dense player index, assigned once when the inputs are read (see [`PlayerIds`]).
pub type PlayerId = u32;

/// A score in half points: 0 (loss), 1 (draw) or 2 (win). Halves keep every sum exact.
pub type HalfPoints = u8;

/// Parses a game score as written in the formats elosim reads: `1`, `0.5`, `0`, `1-0`, `0-1`,
/// `1/2-1/2`, `½-½`, `=`; returns White's score in half points.
pub fn parse_score(text: &str) -> Option<HalfPoints> {
    match text.trim() {
        "1" | "1.0" | "1.00" | "1-0" => Some(2),
        "0" | "0.0" | "0.00" | "0-1" => Some(0),
        "0.5" | ".5" | "0.50" | "1/2-1/2" | "½-½" | "½" | "1/2" | "=" | "0.5-0.5" => Some(1),
        _ => None,
    }
}

/// Parses a rating cell: a whole number from 0 to 4000, or nothing (empty). The error says what
/// was expected, for a reader's message.
pub fn parse_rating(text: &str) -> Result<Option<i32>, String> {
    let s = text.trim();
    if s.is_empty() {
        return Ok(None);
    }
    s.parse::<i32>()
        .ok()
        .filter(|r| (0..=4000).contains(r))
        .map(Some)
        .ok_or_else(|| format!("expected a rating from 0 to 4000 or nothing, got {s:?}"))
}

#[cfg(test)]
mod tests {
    use super::{parse_rating, parse_score};

    #[test]
    fn ratings_are_whole_numbers_up_to_4000_or_nothing() {
        assert_eq!(parse_rating(" 2100 "), Ok(Some(2100)));
        assert_eq!(parse_rating(""), Ok(None));
        for bad in ["-1", "4001", "2100.5", "x"] {
            assert!(
                parse_rating(bad).unwrap_err().contains("0 to 4000"),
                "{bad}"
            );
        }
    }

    #[test]
    fn scores_in_every_accepted_spelling() {
        for (text, half) in [
            ("1", 2),
            ("0.5", 1),
            ("0", 0),
            ("1-0", 2),
            ("0-1", 0),
            ("1/2-1/2", 1),
            ("½-½", 1),
            (" 1 ", 2),
        ] {
            assert_eq!(parse_score(text), Some(half), "{text}");
        }
        for bad in ["-1", "2", "0.25", "", "*", "1-1", "win"] {
            assert_eq!(parse_score(bad), None, "{bad}");
        }
    }
}
