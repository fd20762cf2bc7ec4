//! Rounding of rating changes (reference §3.5): "The Rating Change for a Rating Period is rounded
//! to the nearest whole number. 0.5 is rounded away from zero." (2024 §8.3.4).

use crate::named::named_enum;

named_enum! {
    /// Whether a period's change is rounded once or tournament by tournament (reference §3.5, §13.1:
    /// once per period fits 13 of the 14 discriminating published cases; per tournament is kept for
    /// validation against FIDE's pages).
    pub enum Rounding {
        PerPeriod = "per-period",
        PerTournament = "per-tournament",
    }
}

/// Rounds a value given in hundredths to a whole number, 0.5 away from zero.
pub fn round_hundredths(hundredths: i64) -> i64 {
    let whole = (hundredths.abs() + 50) / 100;
    if hundredths < 0 {
        -whole
    } else {
        whole
    }
}

/// Rounds `numerator / denominator` (denominator > 0) to the nearest whole number, .5 away from
/// zero: used for initial ratings ("Ru is rounded to the nearest whole number") and the compression.
pub fn round_ratio(numerator: i64, denominator: i64) -> i64 {
    debug_assert!(denominator > 0);
    let whole = (2 * numerator.abs() + denominator) / (2 * denominator);
    if numerator < 0 {
        -whole
    } else {
        whole
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference §11.2 (5) and F-P01 (−2.50 → −3).
    #[test]
    fn half_rounds_away_from_zero() {
        assert_eq!(round_hundredths(-250), -3);
        assert_eq!(round_hundredths(250), 3);
        assert_eq!(round_hundredths(540), 5);
        assert_eq!(round_hundredths(-249), -2);
        assert_eq!(round_hundredths(9248), 92); // F-P05: 92.48 → +92
        assert_eq!(round_hundredths(0), 0);
        assert_eq!(round_hundredths(-50), -1);
        assert_eq!(round_hundredths(49), 0);
    }

    #[test]
    fn ratios_round_to_nearest_half_away_from_zero() {
        assert_eq!(round_ratio(3988, 10), 399); // Sonas 1B: 398.8
        assert_eq!(round_ratio(5, 2), 3);
        assert_eq!(round_ratio(-5, 2), -3);
        assert_eq!(round_ratio(7, 3), 2);
        assert_eq!(round_ratio(-7, 3), -2);
    }
}
