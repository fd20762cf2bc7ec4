//! Calendar months and days, the engine's only notion of time.

use std::cmp::Ordering;
use std::fmt;
use std::num::NonZeroI32;

use chrono::{Datelike, NaiveDate};

/// 1970-01-01 in chrono's days from the common era: `Day` counts from it, as Parquet's dates do.
const EPOCH: i32 = 719_163;

/// A calendar month, counted as `year * 12 + (month - 1)` (its `index`) so that months order and
/// subtract as integers.
///
/// It is held with its sign bit flipped in a `NonZeroI32`, so that an `Option<Month>` takes four
/// bytes, not eight: a world's games carry an optional period each, and at FIDE's size that is
/// 0.4 GB. The one index it cannot hold, `i32::MIN`, is 179 million years before any list.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Month(NonZeroI32);

/// The value `index` is held as in a `NonZeroI32`: zero only for `i32::MIN`, which no calendar
/// month reaches (chrono's dates end 262,000 years from the common era).
const fn flipped(index: i32) -> NonZeroI32 {
    match NonZeroI32::new(index ^ i32::MIN) {
        Some(held) => held,
        None => panic!("i32::MIN is no calendar month or day"),
    }
}

/// Order and debug output by the index, not by the value held (whose sign bit is flipped).
macro_rules! by_index {
    ($t:ident) => {
        impl Ord for $t {
            fn cmp(&self, other: &$t) -> Ordering {
                self.index().cmp(&other.index())
            }
        }

        impl PartialOrd for $t {
            fn partial_cmp(&self, other: &$t) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($t), self.index())
            }
        }
    };
}

impl Month {
    /// The month `index` months after January of the year 0.
    pub const fn from_index(index: i32) -> Month {
        Month(flipped(index))
    }

    /// Months since January of the year 0.
    pub const fn index(self) -> i32 {
        self.0.get() ^ i32::MIN
    }

    pub fn new(year: i32, month: u32) -> Option<Month> {
        (1..=12)
            .contains(&month)
            .then(|| Month::from_index(year * 12 + month as i32 - 1))
    }

    pub fn year(self) -> i32 {
        self.index().div_euclid(12)
    }

    /// 1 = January.
    pub fn month(self) -> u32 {
        self.index().rem_euclid(12) as u32 + 1
    }

    pub fn plus(self, months: i32) -> Month {
        Month::from_index(self.index() + months)
    }

    /// Months from `earlier` to `self`.
    pub fn since(self, earlier: Month) -> i32 {
        self.index() - earlier.index()
    }

    /// The first day of this month.
    pub fn first_day(self) -> Day {
        Day::from_ymd(self.year(), self.month(), 1).expect("the first of a month is a valid date")
    }

    /// Parses `YYYY-MM` (the only accepted form: scenarios and game files quote it).
    pub fn parse(text: &str) -> Option<Month> {
        let text = text.trim();
        let (y, m) = text.split_once('-')?;
        if y.len() != 4 || m.len() != 2 || !y.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        Month::new(y.parse().ok()?, m.parse().ok()?)
    }
}

impl Default for Month {
    /// January of the year 0 (index 0).
    fn default() -> Month {
        Month::from_index(0)
    }
}

by_index!(Month);

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year(), self.month())
    }
}

/// A calendar day, counted as days since 1970-01-01 (proleptic Gregorian; its `index`) so that
/// days compare as integers, and held as [`Month`] is, so that an `Option<Day>` takes four bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Day(NonZeroI32);

impl Day {
    /// The day `index` days after 1970-01-01.
    pub const fn from_index(index: i32) -> Day {
        Day(flipped(index))
    }

    /// Days since 1970-01-01, as Parquet's dates count them.
    pub const fn index(self) -> i32 {
        self.0.get() ^ i32::MIN
    }

    pub fn plus(self, days: i32) -> Day {
        Day::from_index(self.index() + days)
    }

    /// Days from `earlier` to `self`.
    pub fn since(self, earlier: Day) -> i32 {
        self.index() - earlier.index()
    }

    pub fn from_ymd(year: i32, month: u32, day: u32) -> Option<Day> {
        NaiveDate::from_ymd_opt(year, month, day)
            .map(|date| Day::from_index(date.num_days_from_ce() - EPOCH))
    }

    pub fn ymd(self) -> (i32, u32, u32) {
        let date = NaiveDate::from_num_days_from_ce_opt(self.index() + EPOCH)
            .expect("a day read from a date is within chrono's range");
        (date.year(), date.month(), date.day())
    }

    pub fn month(self) -> Month {
        let (y, m, _) = self.ymd();
        Month::new(y, m).expect("ymd yields a valid month")
    }

    /// Parses `YYYY-MM-DD`; PGN's `YYYY.MM.DD` is accepted too.
    pub fn parse(text: &str) -> Option<Day> {
        let text = text.trim();
        let bytes = text.as_bytes();
        if bytes.len() != 10 || bytes[4] != bytes[7] || !(bytes[4] == b'-' || bytes[4] == b'.') {
            return None;
        }
        let digits = |r: std::ops::Range<usize>| -> Option<u32> {
            let s = &text[r];
            s.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| s.parse().ok())?
        };
        Day::from_ymd(digits(0..4)? as i32, digits(5..7)?, digits(8..10)?)
    }
}

by_index!(Day);

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_parse_print_and_count() {
        let m = Month::parse("2024-03").unwrap();
        assert_eq!((m.year(), m.month()), (2024, 3));
        assert_eq!(m.to_string(), "2024-03");
        assert_eq!(m.plus(10).to_string(), "2025-01");
        assert_eq!(Month::parse("2025-01").unwrap().since(m), 10);
        for bad in [
            "2024-13", "2024-00", "24-03", "2024/03", "2024-3", "", "abcd-ef",
        ] {
            assert_eq!(Month::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn months_and_days_order_by_their_index_and_their_options_take_four_bytes() {
        let indexes = [i32::MIN + 1, -24_000, -1, 0, 1, 24_291, i32::MAX];
        for (a, b) in indexes.iter().zip(&indexes[1..]) {
            assert!(Month::from_index(*a) < Month::from_index(*b), "{a} < {b}");
            assert!(Day::from_index(*a) < Day::from_index(*b), "{a} < {b}");
            assert_eq!(Month::from_index(*a).index(), *a);
            assert_eq!(Day::from_index(*b).index(), *b);
        }
        assert_eq!(Month::default().to_string(), "0000-01");
        assert_eq!(
            Day::parse("2024-03-01")
                .unwrap()
                .since(Day::parse("2024-02-01").unwrap()),
            29
        );
        assert_eq!(std::mem::size_of::<Option<Month>>(), 4);
        assert_eq!(std::mem::size_of::<Option<Day>>(), 4);
    }

    #[test]
    fn days_round_trip_through_the_civil_calendar() {
        assert_eq!(Day::from_ymd(1970, 1, 1), Some(Day::from_index(0)));
        assert_eq!(
            Day::parse("2000-03-01").unwrap().index() - Day::parse("2000-02-28").unwrap().index(),
            2
        );
        assert_eq!(
            Day::parse("1900-03-01").unwrap().index() - Day::parse("1900-02-28").unwrap().index(),
            1
        );
        for d in (-800_000..800_000).step_by(997) {
            let (y, m, dd) = Day::from_index(d).ymd();
            assert_eq!(Day::from_ymd(y, m, dd), Some(Day::from_index(d)));
        }
        assert_eq!(Day::parse("2025.10.31").unwrap().to_string(), "2025-10-31");
        for bad in [
            "2023-02-29",
            "2024-04-31",
            "2024-1-01",
            "2024-01-01x",
            "2024-01.01",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
        assert_eq!(
            Day::parse("2024-02-29").unwrap().month().to_string(),
            "2024-02"
        );
    }
}
