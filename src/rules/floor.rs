//! The rating floor (reference §5): the lowest rating a list shows. "Players whose ratings drop below
//! 1400 are shown as unrated on the next list. Thereafter they are treated in the same manner as any
//! other unrated player" (2024 §7.2.1); a first rating must reach it too ("The rating must be at
//! least 1400", §7.1.4).

use crate::named::named_enum;

/// Whether a rating may appear on a list with this floor.
pub fn is_listed(rating: i32, floor: i32) -> bool {
    rating >= floor
}

named_enum! {
    /// What a delisted player keeps towards the K rule's 30 games. Reference §13.8: FIDE's software has
    /// been reported to reset the count for such players; "treated in the same manner as any other
    /// unrated player" reads the same way.
    pub enum DelistedGames {
        Reset = "reset",
        Keep = "keep",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference §11.2 (4): Sonas 2E and its 2014-era analogue.
    #[test]
    fn established_players_below_the_floor_are_delisted() {
        let change = 40 * (50 - 250) / 100; // 0.5/7 where 2.5 was expected, K 40 (hundredths)
        assert_eq!(change, -80);
        assert!(!is_listed(1430 + change, 1400));
        assert!(!is_listed(1010 - 20, 1000));
        assert!(is_listed(1000, 1000));
    }
}
