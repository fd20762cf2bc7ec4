//! A report's dates: each as written (`2023-09-24`, `24/09/2010`, `May 29, 2020`, two-digit
//! `23/09/24`…), and the start (042), the end (052) and the round dates (132) together, read in the
//! one order of two-digit dates that keeps them in order.

use crate::model::Day;

/// A date as a report writes it: a day, or three numbers of two digits whose order the report's
/// other dates must tell (`23/09/24` is 2023-09-24 or 2024-09-23).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum DateText {
    Day(Day),
    Ambiguous([u32; 3]),
}

/// The orders in which real reports write two-digit dates: YY/MM/DD (TRF16's 132 line),
/// DD/MM/YY (the Belgian round reports) and, where neither fits, YY.DD.MM (the Irish Bunratty
/// reports).
const ORDERS: [(&str, [usize; 3]); 3] = [
    ("YY/MM/DD", [0, 1, 2]),
    ("DD/MM/YY", [2, 1, 0]),
    ("YY/DD/MM", [0, 2, 1]),
];

/// Two-digit years: 1950 to 2049.
fn full_year(yy: u32) -> i32 {
    if yy < 50 {
        2000 + yy as i32
    } else {
        1900 + yy as i32
    }
}

/// Reads a date in the forms real reports use: `2023-09-24`, `2015/09/27`, `24/09/2010`,
/// `28. 07. 2005`, `May 29, 2020`, and two-digit `23/09/24`; `None` when blank.
pub(super) fn parse_date(text: &str) -> Result<Option<DateText>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let expected = || {
        format!("expected a date (YYYY/MM/DD, YYYY-MM-DD, DD.MM.YYYY, YY/MM/DD or \"May 29, 2020\"), got {text:?}")
    };
    let impossible = || format!("an impossible date: {text:?}");
    if text.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return named_month(text)
            .map(|d| Some(DateText::Day(d)))
            .ok_or_else(expected);
    }
    let parts: Vec<&str> = text
        .split(['/', '-', '.', ' '])
        .filter(|p| !p.is_empty())
        .collect();
    let numbers: Vec<u32> = parts.iter().filter_map(|p| p.parse().ok()).collect();
    if parts.len() != 3 || numbers.len() != 3 || parts.iter().any(|p| p.len() > 4) {
        return Err(expected());
    }
    let day = |y: u32, m: u32, d: u32| {
        Day::from_ymd(y as i32, m, d)
            .map(|d| Some(DateText::Day(d)))
            .ok_or_else(impossible)
    };
    match (parts[0].len(), parts[2].len()) {
        (4, 1..=2) => day(numbers[0], numbers[1], numbers[2]),
        (1..=2, 4) => day(numbers[2], numbers[1], numbers[0]),
        (1..=2, 1..=2) if parts[1].len() <= 2 => {
            let readable = ORDERS.iter().any(|(_, order)| {
                read_in_order([numbers[0], numbers[1], numbers[2]], *order).is_some()
            });
            if readable {
                Ok(Some(DateText::Ambiguous([
                    numbers[0], numbers[1], numbers[2],
                ])))
            } else {
                Err(impossible())
            }
        }
        _ => Err(expected()),
    }
}

/// `numbers` read as year, month and day at the positions `order` gives.
fn read_in_order(numbers: [u32; 3], order: [usize; 3]) -> Option<Day> {
    let [y, m, d] = order.map(|i| numbers[i]);
    Day::from_ymd(full_year(y), m, d)
}

/// `May 29, 2020` or `29 May 2020` (English month names, whole or cut to three letters).
fn named_month(text: &str) -> Option<Day> {
    let words: Vec<&str> = text.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let [month, day, year] = words.as_slice() else {
        return None;
    };
    let month = month.to_ascii_lowercase();
    let m = super::super::fide_list::MONTHS
        .iter()
        // By bytes: a word whose third byte falls inside a character names no English month.
        .position(|n| month.get(..3).is_some_and(|m| n.starts_with(m)))?;
    Day::from_ymd(year.parse().ok()?, m as u32 + 1, day.parse().ok()?)
}

/// A report's dates, once read in one order.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Dates {
    pub(super) start: Option<Day>,
    pub(super) end: Option<Day>,
    pub(super) rounds: Vec<Option<Day>>,
}

impl Dates {
    /// What is wrong with these dates, if anything: an end before the start, a round outside
    /// them, rounds out of order.
    fn disorder(&self) -> Option<String> {
        if let (Some(s), Some(e)) = (self.start, self.end) {
            if e < s {
                return Some(format!("the end ({e}, 052) is before the start ({s}, 042)"));
            }
        }
        let rounds: Vec<Day> = self.rounds.iter().flatten().copied().collect();
        if let Some(w) = rounds.windows(2).find(|w| w[1] < w[0]) {
            return Some(format!(
                "the round dates (132) go back from {} to {}",
                w[0], w[1]
            ));
        }
        let outside =
            |d: &&Day| self.start.is_some_and(|s| **d < s) || self.end.is_some_and(|e| **d > e);
        rounds
            .iter()
            .find(outside)
            .map(|d| format!("the round date {d} (132) is outside the event's dates (042, 052)"))
    }
}

/// A report's dates as written, each with its line.
#[derive(Default)]
pub(super) struct WrittenDates {
    /// 042.
    pub(super) start: Option<(u32, DateText)>,
    /// 052.
    pub(super) end: Option<(u32, DateText)>,
    /// 132, round by round.
    pub(super) rounds: Vec<Option<(u32, DateText)>>,
}

impl WrittenDates {
    /// The dates in the one order of two-digit dates that keeps them in order (the rounds between
    /// the start and the end, in sequence); refused, with the line to name, when no order, or more
    /// than one, does.
    pub(super) fn read(&self) -> Result<Dates, (u32, String)> {
        let all = || {
            [self.start, self.end]
                .into_iter()
                .chain(self.rounds.iter().copied())
                .flatten()
        };
        let in_order = |order: [usize; 3]| -> Option<Dates> {
            let day = |d: Option<(u32, DateText)>| -> Option<Option<Day>> {
                match d {
                    None => Some(None),
                    Some((_, DateText::Day(day))) => Some(Some(day)),
                    Some((_, DateText::Ambiguous(n))) => read_in_order(n, order).map(Some),
                }
            };
            Some(Dates {
                start: day(self.start)?,
                end: day(self.end)?,
                rounds: self.rounds.iter().map(|&d| day(d)).collect::<Option<_>>()?,
            })
        };
        let Some((line, DateText::Ambiguous(n))) =
            all().find(|(_, d)| matches!(d, DateText::Ambiguous(_)))
        else {
            let dates = in_order(ORDERS[0].1).expect("no two-digit date to read");
            return match dates.disorder() {
                Some(problem) => Err((self.first_line(), problem)),
                None => Ok(dates),
            };
        };
        // YY/DD/MM only where neither of the usual orders fits.
        let mut readings: Vec<(&str, Dates)> = Vec::new();
        for tier in [&ORDERS[..2], &ORDERS[2..]] {
            for &(name, order) in tier {
                if let Some(dates) = in_order(order).filter(|d| d.disorder().is_none()) {
                    if readings.iter().all(|(_, d)| *d != dates) {
                        readings.push((name, dates));
                    }
                }
            }
            if !readings.is_empty() {
                break;
            }
        }
        let text = format!("{:02}/{:02}/{:02}", n[0], n[1], n[2]);
        match readings.len() {
            1 => Ok(readings.remove(0).1),
            0 => Err((
                line,
                format!("{text} and the report's other dates cannot be read in one order ({}) that keeps the rounds between the start and the end, in sequence", ORDERS.map(|o| o.0).join(", ")),
            )),
            _ => {
                let ways: Vec<String> = ORDERS
                    .iter()
                    .filter(|(name, _)| readings.iter().any(|(r, _)| r == name))
                    .filter_map(|(name, order)| Some(format!("{} ({name})", read_in_order(n, *order)?)))
                    .collect();
                Err((
                    line,
                    format!("an ambiguous date: {text} reads as {}, and the report's other dates do not tell which; write it YYYY/MM/DD", ways.join(" or ")),
                ))
            }
        }
    }

    /// The first line with a date, for a problem of the dates together.
    fn first_line(&self) -> u32 {
        [self.start, self.end]
            .into_iter()
            .chain(self.rounds.iter().copied())
            .flatten()
            .map(|(line, _)| line)
            .next()
            .unwrap_or(1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::records::Report;
    use super::super::tests::{day, head, player, refused, report, two_rounds_of_a_and_b};
    use super::*;
    use crate::ingest::text::decode;
    use crate::ingest::Skips;

    #[test]
    fn every_date_form_of_the_real_reports_is_read() {
        let one = |t: &str| parse_date(t).unwrap().unwrap();
        assert_eq!(one("2023-09-24"), DateText::Day(day(2023, 9, 24)));
        assert_eq!(one("2015/09/27"), DateText::Day(day(2015, 9, 27)));
        assert_eq!(one("24/09/2010"), DateText::Day(day(2010, 9, 24)));
        assert_eq!(one("28. 07. 2005"), DateText::Day(day(2005, 7, 28)));
        assert_eq!(one("May 29, 2020"), DateText::Day(day(2020, 5, 29)));
        assert_eq!(one("Jun 26, 2020"), DateText::Day(day(2020, 6, 26)));
        assert_eq!(one("23/09/24"), DateText::Ambiguous([23, 9, 24]));
        assert_eq!(parse_date("  ").unwrap(), None);
        assert!(parse_date("2023-02-30")
            .unwrap_err()
            .contains("an impossible date"));
        assert!(parse_date("31/31/31")
            .unwrap_err()
            .contains("an impossible date"));
        assert!(parse_date("soon")
            .unwrap_err()
            .starts_with("expected a date"));
    }

    /// Found by the `trf` fuzz target: a month name whose third byte falls inside a character
    /// (Latin-1 `ð`, two bytes once decoded) was cut there, and the reader panicked.
    #[test]
    fn a_month_name_of_other_letters_is_refused() {
        let text = decode(b"042 Ma\xf0 29, 2020\n".to_vec());
        let e = Report::parse("t.trf", &text, &mut Skips::new(false))
            .err()
            .unwrap();
        assert_eq!(e.to_string(), "t.trf, line 1, column 5– (date): expected a date (YYYY/MM/DD, YYYY-MM-DD, DD.MM.YYYY, YY/MM/DD or \"May 29, 2020\"), got \"Ma\u{f0} 29, 2020\" (--skip-invalid leaves out such rows and counts them)");
    }

    #[test]
    fn two_digit_dates_are_read_in_the_order_the_other_dates_allow() {
        // The Belgian round reports: an ISO start, the round written DD/MM/YY.
        let mut lines = head("2023-09-24", "2023-09-24", &["24/09/23"]);
        lines.push(player(1, "A", "2000", "11", &[(2, 'w', '1')]));
        lines.push(player(2, "B", "2000", "12", &[(1, 'b', '0')]));
        let (raw, _) = report(&lines).unwrap();
        assert_eq!(raw.games.date, [Some(day(2023, 9, 24))]);
        // The season file: every date YY/MM/DD, which alone keeps the end after the start.
        let mut lines = head("23/09/24", "24/04/21", &["23/09/24", "24/04/21"]);
        lines.extend(two_rounds_of_a_and_b());
        let (raw, _) = report(&lines).unwrap();
        assert_eq!(
            raw.games.date,
            [Some(day(2023, 9, 24)), Some(day(2024, 4, 21))]
        );
        // One day, written YY/MM/DD or DD/MM/YY alike: refused, naming the line.
        let mut lines = head("23/09/24", "23/09/24", &[]);
        lines.push(player(1, "A", "2000", "11", &[(2, 'w', '1')]));
        lines.push(player(2, "B", "2000", "12", &[(1, 'b', '0')]));
        let e = refused(&lines);
        assert!(e.starts_with("t.trf, line 2, column 5– (date): an ambiguous date: 23/09/24 reads as 2023-09-24 (YY/MM/DD) or 2024-09-23 (DD/MM/YY)"), "{e}");
    }
}
