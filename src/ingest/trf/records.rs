//! A report's lines: the players' `001` lines read by their columns (details, rating, round
//! blocks), the tournament lines elosim uses (012 name, 042 start, 052 end, 092 type, 132 round
//! dates, the rounds declared), the records skipped, and every other line refused.

use std::collections::HashMap;
use std::path::Path;

use crate::model::Description;

use super::super::error::IngestError;
use super::super::raw::{Reported, TrfCounts};
use super::super::table::Skips;
use super::dates::{parse_date, DateText, Dates, WrittenDates};

/// Colours as a report writes them: `w`/`b`, or the French `B`/`N` (blanc, noir) of some Belgian
/// reports, told apart by whether the report writes `N` at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Colour {
    White,
    Black,
    /// `N` or `n`: noir.
    Noir,
    /// `B`: blanc where the report writes `N` for Black, else Black.
    UpperB,
    None,
}

/// One round block of a `001` line.
#[derive(Clone, Copy, Debug)]
pub(super) struct Block {
    pub(super) opponent: u16,
    pub(super) colour: Colour,
    pub(super) result: char,
}

/// One `001` line.
#[derive(Debug)]
pub(super) struct Player {
    pub(super) line: u32,
    pub(super) rank: u16,
    pub(super) id: String,
    pub(super) rating: Option<i32>,
    pub(super) details: Reported,
    pub(super) rounds: Vec<Option<Block>>,
}

/// One report, as read.
pub(super) struct Report {
    pub(super) file: String,
    pub(super) event: String,
    written: WrittenDates,
    pub(super) round_robin: bool,
    /// From `XXR` or TRF26's 142 line.
    declared_rounds: Option<usize>,
    pub(super) players: Vec<Player>,
    pub(super) counts: TrfCounts,
}

/// The text of columns `from..=to` (numbered from 1, as the specification does), trimmed.
fn columns(line: &[char], from: usize, to: usize) -> String {
    line.iter()
        .skip(from - 1)
        .take(to + 1 - from)
        .collect::<String>()
        .trim()
        .to_string()
}

/// Name (15–47), federation (54–56), sex (10: `m`, or `w`/`f` for women, as FIDE's lists write
/// `M`/`F`), title (11–13) and the year of the birth date (70–79: `YYYY/MM/DD`, `YYYY-MM-DD`, the
/// month and day may be `00`); a birth date without its year is refused.
fn details(line: &[char]) -> Result<Reported, String> {
    let some = |text: String| (!text.is_empty()).then_some(text);
    let sex = match columns(line, 10, 10).to_ascii_lowercase().as_str() {
        "m" => Some("M".to_string()),
        "w" | "f" => Some("F".to_string()),
        _ => None,
    };
    let birth = columns(line, 70, 79);
    let year = birth.get(..4).and_then(|y| y.parse::<i16>().ok());
    if year.is_none() && birth.contains(|c: char| c.is_ascii_digit()) {
        return Err(format!("expected YYYY/MM/DD (or blank), got {birth:?}"));
    }
    Ok(Reported {
        description: Description {
            name: some(columns(line, 15, 47)),
            federation: some(columns(line, 54, 56)),
            sex,
            title: some(columns(line, 11, 13)),
        },
        birth_year: year,
        ..Reported::default()
    })
}

/// The round blocks begin at column 92, ten columns each (TRF16, "Round results").
pub(super) const FIRST_ROUND_COLUMN: usize = 92;
pub(super) const ROUND_WIDTH: usize = 10;

/// A `132` line holding one date in its value and nothing from column 92: the variant some
/// programs write for TRF26 files, one line per round in order (`132 2026/03/01`), where the
/// specification puts every round's date on one line from column 92.
fn one_round_date(line: &[char]) -> Option<DateText> {
    if line.len() >= FIRST_ROUND_COLUMN {
        return None;
    }
    parse_date(&columns(line, 5, FIRST_ROUND_COLUMN - 1))
        .ok()
        .flatten()
}

impl Report {
    pub(super) fn parse(file: &str, text: &str, skips: &mut Skips) -> Result<Report, IngestError> {
        let mut report = Report {
            file: file.to_string(),
            event: Path::new(file)
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
            written: WrittenDates::default(),
            round_robin: false,
            declared_rounds: None,
            players: Vec::new(),
            counts: TrfCounts {
                reports: 1,
                ..TrfCounts::default()
            },
        };
        // CR, LF and CRLF ends alike.
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        for (i, line) in text.split('\n').enumerate() {
            let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let chars: Vec<char> = line.trim_end().chars().collect();
            if chars.is_empty() {
                continue;
            }
            skips.check(report.line(number, &chars))?;
        }
        let mut ranks: HashMap<u16, u32> = HashMap::new();
        let mut ids: HashMap<&str, u32> = HashMap::new();
        for p in &report.players {
            // A player of two lines would be paired with themselves across them.
            if let Some(first) = ids.insert(&p.id, p.line) {
                return Err(IngestError::Line {
                    file: report.file.clone(),
                    line: p.line,
                    problem: format!("columns 58–68 (FIDE id): FIDE id {} again (first on line {first}); each player has one line in a report, or their games would be rated against themselves", p.id),
                });
            }
            if let Some(first) = ranks.insert(p.rank, p.line) {
                // The whole report's problem, not a row's: with two players of one rank, none of
                // the games naming that rank can be told apart, so no row can be skipped alone.
                return Err(IngestError::Line {
                    file: report.file.clone(),
                    line: p.line,
                    problem: format!("column 5–8 (starting rank): starting rank {} again (first on line {first}); each player has a rank of their own, or the report cannot say who played whom", p.rank),
                });
            }
        }
        report.rounds_beyond_declared(skips)?;
        Ok(report)
    }

    /// Refuses a round block beyond the rounds the report declares (`XXR`, or TRF26's 142 line,
    /// wherever the line stands), or with `--skip-invalid` leaves it out.
    fn rounds_beyond_declared(&mut self, skips: &mut Skips) -> Result<(), IngestError> {
        let Some(declared) = self.declared_rounds else {
            return Ok(());
        };
        for p in &mut self.players {
            for (round, block) in p.rounds.iter_mut().enumerate().skip(declared) {
                if block.is_none() {
                    continue;
                }
                let from = FIRST_ROUND_COLUMN + ROUND_WIDTH * round;
                let beyond = IngestError::Row {
                    file: self.file.clone(),
                    place: format!("line {}, round {}", p.line, round + 1),
                    column: format!("{from}–{} (round)", from + 7),
                    problem: format!("a round beyond the rounds the report declares (XXR or 142); got round {} of {declared}", round + 1),
                };
                skips.check::<()>(Err(beyond))?;
                *block = None;
            }
        }
        Ok(())
    }

    /// The dates in the one order of two-digit dates that keeps them in order, or the problem
    /// with the line that shows it.
    pub(super) fn dates(&self) -> Result<Dates, IngestError> {
        self.written
            .read()
            .map_err(|(line, problem)| self.error(line, "5– (date)", problem))
    }

    fn error(&self, line: u32, column: &str, problem: String) -> IngestError {
        IngestError::Row {
            file: self.file.clone(),
            place: format!("line {line}"),
            column: column.to_string(),
            problem,
        }
    }

    /// Reads one line that is not blank.
    fn line(&mut self, number: u32, line: &[char]) -> Result<(), IngestError> {
        let code: String = line.iter().take(3).collect();
        let separated = line.get(3).is_none_or(|c| *c == ' ');
        let value = || columns(line, 5, line.len().max(5));
        match code.as_str() {
            "001" if separated => {
                let player = self.player(number, line)?;
                self.players.push(player);
            }
            "012" if separated => {
                if !value().is_empty() {
                    self.event = value();
                }
            }
            "042" | "052" if separated => {
                let date = parse_date(&value())
                    .map_err(|p| self.error(number, "5– (date)", p))?
                    .map(|d| (number, d));
                if code == "042" {
                    self.written.start = date;
                } else {
                    self.written.end = date;
                }
            }
            "092" if separated => {
                let kind = value().to_ascii_lowercase().replace(['-', ' '], "");
                self.round_robin = kind.contains("roundrobin");
            }
            "132" if separated => match one_round_date(line) {
                Some(date) => self.written.rounds.push(Some((number, date))),
                None => self.written.rounds = self.dates_of_rounds(number, line)?,
            },
            "142" if separated => self.declared_rounds = self.rounds_declared(number, &value())?,
            "XXR" if separated => self.declared_rounds = self.rounds_declared(number, &value())?,
            _ if separated && code.len() == 3 && code.bytes().all(|b| b.is_ascii_digit()) && code.ends_with('2') => {
                // A tournament line elosim does not use (city, arbiters, time control…).
            }
            _ if code.starts_with("###") || is_other_record(&code, separated) => {
                self.counts.lines_skipped += 1;
            }
            _ => {
                return Err(self.error(
                    number,
                    "1–3",
                    format!("expected a TRF record: 001 (a player), a tournament line (012 … 362), a team line (013, 310), a TRF26 record, an extension (XX…) or a ### comment; got {code:?}"),
                ))
            }
        }
        Ok(())
    }

    fn rounds_declared(&self, number: u32, text: &str) -> Result<Option<usize>, IngestError> {
        text.parse::<usize>().map(Some).map_err(|_| {
            self.error(
                number,
                "5– (rounds)",
                format!("expected the number of rounds, got {text:?}"),
            )
        })
    }

    /// The 132 line: each round's date in its round's columns (92–99 for round 1, and so on).
    fn dates_of_rounds(
        &self,
        number: u32,
        line: &[char],
    ) -> Result<Vec<Option<(u32, DateText)>>, IngestError> {
        let mut dates = Vec::new();
        let mut from = FIRST_ROUND_COLUMN;
        while from <= line.len() {
            let to = from + 7;
            let date = parse_date(&columns(line, from, to)).map_err(|p| {
                self.error(
                    number,
                    &format!("{from}–{to} (round {})", dates.len() + 1),
                    p,
                )
            })?;
            dates.push(date.map(|d| (number, d)));
            from += ROUND_WIDTH;
        }
        let before = columns(line, 5, FIRST_ROUND_COLUMN - 1);
        if !before.is_empty() {
            return Err(self.error(
                number,
                "5–91",
                format!("expected round dates from column 92, ten columns a round; got {before:?} before them"),
            ));
        }
        Ok(dates)
    }

    /// A `001` line (TRF16 "Player Section").
    fn player(&mut self, number: u32, line: &[char]) -> Result<Player, IngestError> {
        let err = |column: &str, problem: String| self.error(number, column, problem);
        if line.len() < 84 {
            return Err(err(
                "1–84",
                format!("a player line cut short: it ends at column {}, and a 001 line holds its fields up to the points in columns 81–84", line.len()),
            ));
        }
        let rank = columns(line, 5, 8);
        let rank: u16 = rank
            .parse()
            .ok()
            .filter(|r| (1..=9999).contains(r))
            .ok_or_else(|| {
                err(
                    "5–8 (starting rank)",
                    format!("expected a starting rank from 1 to 9999, got {rank:?}"),
                )
            })?;
        let rating = columns(line, 49, 52);
        let rating = match rating.parse::<i32>() {
            _ if rating.is_empty() => None,
            Ok(0) => None,
            Ok(r) if (1..=4000).contains(&r) => Some(r),
            _ => {
                return Err(err(
                    "49–52 (rating)",
                    format!("expected the player's FIDE rating (a number, or blank or 0 for none), got {rating:?}"),
                ))
            }
        };
        let fide_id = columns(line, 58, 68);
        if !fide_id.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(
                "58–68 (FIDE id)",
                format!("expected a FIDE id (digits), or blanks for a player without one; got {fide_id:?}"),
            ));
        }
        let details = details(line).map_err(|p| err("70–79 (birth date)", p))?;
        let id = match fide_id.trim_start_matches('0') {
            "" => {
                self.counts.without_fide_id += 1;
                format!("{} #{rank} ({})", columns(line, 15, 47), self.event)
            }
            id => id.to_string(),
        };
        let mut rounds = Vec::new();
        let mut from = FIRST_ROUND_COLUMN;
        while from <= line.len() {
            rounds.push(self.block(number, line, from, rounds.len() + 1)?);
            from += ROUND_WIDTH;
        }
        self.counts.players += 1;
        Ok(Player {
            line: number,
            rank,
            id,
            rating,
            details,
            rounds,
        })
    }

    /// The round block at column `from`: opponent (4 columns), colour (column 5), result
    /// (column 7); `None` for a blank block.
    fn block(
        &self,
        number: u32,
        line: &[char],
        from: usize,
        round: usize,
    ) -> Result<Option<Block>, IngestError> {
        let err = |at: usize, to: usize, what: &str, problem: String| IngestError::Row {
            file: self.file.clone(),
            place: format!("line {number}, round {round}"),
            column: format!("{at}–{to} ({what})"),
            problem,
        };
        let at = |c: usize| line.get(c - 1).copied().unwrap_or(' ');
        if columns(line, from, from + 7).is_empty() {
            return Ok(None);
        }
        let opponent = columns(line, from, from + 3);
        let opponent: u16 = if opponent.is_empty() {
            0
        } else {
            opponent.parse().map_err(|_| {
                err(
                    from,
                    from + 3,
                    "opponent",
                    format!(
                        "expected the opponent's starting rank, or 0000 for none; got {opponent:?}"
                    ),
                )
            })?
        };
        // A line may end at its last mark (trailing blanks cut): only a block naming an opponent
        // needs its result.
        if opponent != 0 && line.len() < from + 7 {
            return Err(err(
                from,
                from + 7,
                "round block",
                format!("a round block cut short: the line ends at column {}, before the result in column {}", line.len(), from + 7),
            ));
        }
        let colour = match at(from + 5) {
            'w' | 'W' => Colour::White,
            'b' => Colour::Black,
            'n' | 'N' => Colour::Noir,
            'B' => Colour::UpperB,
            '-' | ' ' => Colour::None,
            other => {
                return Err(err(
                    from + 5,
                    from + 5,
                    "colour",
                    format!("expected w, b (or B, N), - or blank; got {other:?}"),
                ))
            }
        };
        let result = at(from + 7).to_ascii_uppercase();
        if !"10=+-WDLHFUZ ".contains(result) {
            return Err(err(
                from + 7,
                from + 7,
                "result",
                format!("expected a result code (1, =, 0, +, -, W, D, L, H, F, U, Z or blank); got {:?}", at(from + 7)),
            ));
        }
        Ok(Some(Block {
            opponent,
            colour,
            result,
        }))
    }
}

/// Records that are read past: team lines (013, TRF26's 310), TRF26's other records (240–330,
/// 801, 802), extension lines (`XXR`'s kin) and TRF26's national rating records (three capital
/// letters).
fn is_other_record(code: &str, separated: bool) -> bool {
    let known = [
        "013", "240", "250", "260", "299", "300", "310", "320", "330", "801", "802",
    ];
    let letters = code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase());
    separated && (known.contains(&code) || letters)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{day, head, report, two_rounds_of_a_and_b};
    use super::*;

    /// The TRF26 variant some programs write, one `132` line per round, dates the rounds as the
    /// specification's one line does.
    #[test]
    fn one_round_date_per_line_dates_the_rounds_in_order() {
        let mut lines = head("2026/03/01", "2026/03/02", &[]);
        lines[3] = "132 2026/03/01".into();
        lines.push("132 2026/03/02".into());
        lines.extend(two_rounds_of_a_and_b());
        let (raw, _) = report(&lines).unwrap();
        assert_eq!(
            raw.games.date,
            [Some(day(2026, 3, 1)), Some(day(2026, 3, 2))]
        );
    }

    #[test]
    fn a_player_line_describes_the_player() {
        let line = format!(
            "001 {:>4} w{:<3} {:<33} {:>4} {:<3} {:>11} {:<10}  4.0",
            1, "WGM", "Mu\u{f1}oz, Ana", 2301, "ESP", 2212072, "1981/00/00"
        );
        let line: Vec<char> = line.chars().collect();
        let expected = Reported {
            description: Description {
                name: Some("Mu\u{f1}oz, Ana".into()),
                federation: Some("ESP".into()),
                sex: Some("F".into()),
                title: Some("WGM".into()),
            },
            birth_year: Some(1981),
            ..Reported::default()
        };
        assert_eq!(details(&line), Ok(expected));
        let mut blank = line.clone();
        blank.splice(69..79, "    .  .  ".chars());
        assert_eq!(details(&blank).unwrap().birth_year, None);
        blank.splice(69..79, "81/02/03  ".chars());
        assert_eq!(
            details(&blank),
            Err("expected YYYY/MM/DD (or blank), got \"81/02/03\"".into())
        );
    }
}
