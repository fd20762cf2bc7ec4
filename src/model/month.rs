//! Calendar months and days, the engine's only notion of time.

use std::fmt;

use chrono::{Datelike, NaiveDate};

/// 1970-01-01 in chrono's days from the common era: `Day` counts from it, as Parquet's dates do.
const EPOCH: i32 = 719_163;

/// A calendar month, stored as `year * 12 + (month - 1)` so that months order and subtract as integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month(pub i32);

impl Month {
    pub fn new(year: i32, month: u32) -> Option<Month> {
        (1..=12)
            .contains(&month)
            .then(|| Month(year * 12 + month as i32 - 1))
    }

    pub fn year(self) -> i32 {
        self.0.div_euclid(12)
    }

    /// 1 = January.
    pub fn month(self) -> u32 {
        self.0.rem_euclid(12) as u32 + 1
    }

    pub fn plus(self, months: i32) -> Month {
        Month(self.0 + months)
    }

    /// Months from `earlier` to `self`.
    pub fn since(self, earlier: Month) -> i32 {
        self.0 - earlier.0
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

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year(), self.month())
    }
}

/// A calendar day, as days since 1970-01-01 (proleptic Gregorian), so that days compare as integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub i32);

impl Day {
    pub fn from_ymd(year: i32, month: u32, day: u32) -> Option<Day> {
        NaiveDate::from_ymd_opt(year, month, day).map(|date| Day(date.num_days_from_ce() - EPOCH))
    }

    pub fn ymd(self) -> (i32, u32, u32) {
        let date = NaiveDate::from_num_days_from_ce_opt(self.0 + EPOCH)
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
    fn days_round_trip_through_the_civil_calendar() {
        assert_eq!(Day::from_ymd(1970, 1, 1), Some(Day(0)));
        assert_eq!(
            Day::parse("2000-03-01").unwrap().0 - Day::parse("2000-02-28").unwrap().0,
            2
        );
        assert_eq!(
            Day::parse("1900-03-01").unwrap().0 - Day::parse("1900-02-28").unwrap().0,
            1
        );
        for d in (-800_000..800_000).step_by(997) {
            let (y, m, dd) = Day(d).ymd();
            assert_eq!(Day::from_ymd(y, m, dd), Some(Day(d)));
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
