//! One-off events on a named list (reference §8): the March 2024 compression and Sonas's "fresh
//! start" for unrated players' partial results.

use crate::named::named_enum;

use super::rounding::round_ratio;

/// "For players with a standard rating lower than 2000 points, an increase will be applied following
/// the formula (0.40) x (2000 – Rating)", rounded to the nearest integer (Sonas 1B: 398.8 → 399).
#[derive(Clone, Debug, PartialEq)]
pub struct Compression {
    pub below: i32,
    /// The factor in hundredths (40 = 0.40).
    pub factor: i32,
    pub timing: EventTiming,
}

named_enum! {
    /// When a one-off event happens relative to its list's own calculations.
    pub enum EventTiming {
        /// Sonas's design, the default: "applied after the other calculations are already performed on
        /// the rating list for that month", so a newcomer's first rating on that list is compressed too (1C).
        AfterCalculation = "after-calculation",
        /// The alternative of reference §13.2: the previous list is adjusted before the period's games
        /// are rated, so those games use compressed ratings.
        BeforeCalculation = "before-calculation",
    }
}

impl Compression {
    /// The rating after the compression. The order of ratings is kept (ties may appear: 1998 and 1999
    /// both become 1999).
    pub fn apply(&self, rating: i32) -> i32 {
        if rating >= self.below {
            return rating;
        }
        rating + round_ratio(i64::from(self.factor) * i64::from(self.below - rating), 100) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fide_2024() -> Compression {
        Compression {
            below: 2000,
            factor: 40,
            timing: EventTiming::AfterCalculation,
        }
    }

    /// Reference §11.4.
    #[test]
    fn compression_table() {
        let c = fide_2024();
        let cases = [
            (1200, 1520),
            (1003, 1402),
            (1900, 1940),
            (2350, 2350),
            (1000, 1400),
            (1500, 1700),
            (1600, 1760),
            (1700, 1820),
            (1950, 1970),
            (1495, 1697),
            (1505, 1703),
            (1998, 1999),
            (1999, 1999),
            (2000, 2000),
        ];
        for (before, after) in cases {
            assert_eq!(c.apply(before), after, "R = {before}");
        }
    }

    #[test]
    fn compression_keeps_the_order_and_lands_in_1400_2000() {
        let c = fide_2024();
        let mut last = i32::MIN;
        for r in 1000..2600 {
            let after = c.apply(r);
            assert!(after >= last, "order kept at {r}");
            if r < 2000 {
                assert!((1400..2000).contains(&after), "{r} → {after}");
            }
            last = after;
        }
    }
}
