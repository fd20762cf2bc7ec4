//! Tournament Report Files, as federations send them to FIDE (TRF16, FIDE Handbook C.04 Annex 2;
//! TRF26 from September 2025), one file or a directory of them: the players from the `001` lines
//! read by their columns, the games from their round blocks (each pairing once, both players'
//! lines agreeing), the event from the tournament lines (012 name, 042 start, 052 end, 092 type,
//! 132 round dates). Team lines, TRF26's other records, pairing programs' extensions (`XXR`,
//! `XXC`…) and `###` comments are skipped; anything else is refused with its line and columns.

mod dates;
mod files;

use std::collections::HashMap;
use std::path::Path;

use crate::model::{EventType, Games, HalfPoints};
use crate::scenario::GameFormat;

use super::compressed::read_text;
use super::error::IngestError;
use super::ids::RawIds;
use super::raw::{sort_event_names, RawGames, Reported, TrfCounts};
use super::table::Skips;
use super::text::{decode, sha256};
use dates::{parse_date, DateText, Dates, WrittenDates};

pub use files::is_trf;

impl TrfCounts {
    /// One line for people: what the reports held besides the games.
    pub fn describe(&self) -> String {
        let n = |v: usize| crate::numbers::thousands(v as u64);
        format!(
            "{} · {} ({} without a FIDE id) · {} played · not rated: {} forfeits, {} of less than one move, byes {} half-point, {} full-point, {} pairing-allocated, {} absences · {} team, extension and comment lines skipped",
            crate::numbers::counted(self.reports as u64, "report"),
            crate::numbers::counted(self.players as u64, "player line"),
            n(self.without_fide_id),
            crate::numbers::counted(self.games as u64, "game"),
            n(self.forfeits),
            n(self.unplayed),
            n(self.half_point_byes),
            n(self.full_point_byes),
            n(self.pairing_byes),
            n(self.absences),
            n(self.lines_skipped),
        )
    }

    fn add(&mut self, other: &TrfCounts) {
        self.reports += other.reports;
        self.players += other.players;
        self.without_fide_id += other.without_fide_id;
        self.games += other.games;
        self.forfeits += other.forfeits;
        self.unplayed += other.unplayed;
        self.half_point_byes += other.half_point_byes;
        self.full_point_byes += other.full_point_byes;
        self.pairing_byes += other.pairing_byes;
        self.absences += other.absences;
        self.lines_skipped += other.lines_skipped;
    }
}

/// Reads a report, or every report of a directory (`*.trf`, `*.txt`, `*.tab`, in name order;
/// players across reports are joined by their FIDE id).
pub fn read(path: &Path, skips: &mut Skips) -> Result<(RawGames, TrfCounts), IngestError> {
    let files = if path.is_dir() {
        files::report_files(path)?
    } else {
        vec![path.to_path_buf()]
    };
    let mut out = no_games(path.display().to_string());
    let mut events: HashMap<String, u32> = HashMap::new();
    let mut counts = TrfCounts::default();
    let mut checksums = String::new();
    for file in &files {
        let (bytes, stored) = read_text(file)?;
        let name = file.display().to_string();
        // By the file's name, so that the checksum does not depend on where the directory is.
        let short = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        checksums += &format!("{stored} {short}\n");
        let report = Report::parse(&name, &decode(bytes), skips)?;
        counts.add(&report.push_games(&mut out, &mut events, skips)?);
        let dates = report.dates()?;
        let as_of = dates
            .start
            .or(dates.rounds.iter().flatten().next().copied());
        out.reported.extend(report.players.into_iter().map(|p| {
            let details = Reported {
                rating: p.rating,
                as_of,
                line: p.line,
                ..p.details
            };
            (p.id, details)
        }));
    }
    out.sha256 = match files.as_slice() {
        [_] => checksums[..64].to_string(),
        _ => sha256(checksums.as_bytes()),
    };
    sort_event_names(&mut out.games, events);
    Ok((out, counts))
}

fn no_games(source: String) -> RawGames {
    RawGames {
        games: Games {
            source,
            row_word: "line",
            event_names: vec![String::new()],
            ..Games::default()
        },
        white: RawIds::default(),
        black: RawIds::default(),
        format: GameFormat::Trf,
        sha256: String::new(),
        pgn: None,
        trf: None,
        reported: Vec::new(),
    }
}

/// Colours as a report writes them: `w`/`b`, or the French `B`/`N` (blanc, noir) of some Belgian
/// reports, told apart by whether the report writes `N` at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
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
struct Block {
    opponent: u16,
    colour: Colour,
    result: char,
}

/// One `001` line.
#[derive(Debug)]
struct Player {
    line: u32,
    rank: u16,
    id: String,
    rating: Option<i32>,
    details: Reported,
    rounds: Vec<Option<Block>>,
}

/// One report, as read.
struct Report {
    file: String,
    event: String,
    written: WrittenDates,
    round_robin: bool,
    /// From `XXR` or TRF26's 142 line.
    declared_rounds: Option<usize>,
    players: Vec<Player>,
    counts: TrfCounts,
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
        name: some(columns(line, 15, 47)),
        federation: some(columns(line, 54, 56)),
        sex,
        title: some(columns(line, 11, 13)),
        birth_year: year,
        ..Reported::default()
    })
}

/// The round blocks begin at column 92, ten columns each (TRF16, "Round results").
const FIRST_ROUND_COLUMN: usize = 92;

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
const ROUND_WIDTH: usize = 10;

impl Report {
    fn parse(file: &str, text: &str, skips: &mut Skips) -> Result<Report, IngestError> {
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
        for p in &report.players {
            if let Some(first) = ranks.insert(p.rank, p.line) {
                return Err(report.error(
                    p.line,
                    "5–8 (starting rank)",
                    format!("starting rank {} again (first on line {first}); each player has a rank of their own", p.rank),
                ));
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
    fn dates(&self) -> Result<Dates, IngestError> {
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

/// A pairing of a report: the two players, white first, with White's score.
struct Pairing<'a> {
    white: &'a Player,
    black: &'a Player,
    score: HalfPoints,
}

/// More than 30 days from start to end: FIDE rates such an event round by round, each round in
/// the period it is played, with the ratings in force when it was played (Title Regulations
/// 1.1.4; reference §1 and §4b: from 2022 such events report interim results).
const LONG_EVENT_DAYS: i32 = 30;

impl Report {
    fn ranks(&self) -> HashMap<u16, &Player> {
        self.players.iter().map(|p| (p.rank, p)).collect()
    }

    /// Whether `B` means White (blanc): where the report writes `N` (noir) for Black.
    fn writes_noir(&self) -> bool {
        self.players
            .iter()
            .flat_map(|p| p.rounds.iter().flatten())
            .any(|b| b.colour == Colour::Noir)
    }

    /// Every round block counted by kind, and the games pushed onto `out`, each pairing once.
    fn push_games(
        &self,
        out: &mut RawGames,
        events: &mut HashMap<String, u32>,
        skips: &mut Skips,
    ) -> Result<TrfCounts, IngestError> {
        let dates = self.dates()?;
        let ranks = self.ranks();
        let noir = self.writes_noir();
        // The rounds held so far: a report sent after round 1 of 11 counts no absence from the
        // rounds still to come.
        let rounds = self
            .players
            .iter()
            .filter_map(|p| p.rounds.iter().rposition(Option::is_some))
            .max()
            .map_or(0, |last| last + 1);
        let long = matches!((dates.start, dates.end), (Some(s), Some(e)) if e.0 - s.0 > LONG_EVENT_DAYS)
            && dates.rounds.iter().any(Option::is_some);
        let mut counts = self.counts;
        for player in &self.players {
            for round in 0..rounds {
                let block = player.rounds.get(round).copied().flatten();
                let result = block.map_or('Z', |b| b.result);
                match result {
                    'Z' | ' ' => counts.absences += 1,
                    '+' | '-' => counts.forfeits += 1,
                    'W' | 'D' | 'L' => counts.unplayed += 1,
                    'H' => counts.half_point_byes += 1,
                    'F' => counts.full_point_byes += 1,
                    'U' => counts.pairing_byes += 1,
                    _ => {
                        let pairing = self.pairing(player, round, &ranks, noir);
                        let Some(Some(pairing)) = skips.check(pairing)? else {
                            continue;
                        };
                        let date = dates.rounds.get(round).copied().flatten();
                        let Some(day) = date.or(dates.end).or(dates.start) else {
                            return Err(IngestError::File {
                                file: self.file.clone(),
                                problem: "no date: expected the event's dates (042, 052) or its round dates (132)".into(),
                            });
                        };
                        let (event, start) = match date {
                            Some(d) if long => (format!("{}, round {}", self.event, round + 1), d),
                            _ => (self.event.clone(), dates.start.unwrap_or(day)),
                        };
                        let next = events.len() as u32 + 1;
                        let event = *events.entry(event).or_insert(next);
                        let g = &mut out.games;
                        g.period.push(None);
                        g.date.push(Some(day));
                        g.event.push(event);
                        g.event_start.push(Some(start));
                        g.event_type.push(if self.round_robin {
                            EventType::RoundRobin
                        } else {
                            EventType::Swiss
                        });
                        g.score.push(pairing.score);
                        g.white_rating.push(pairing.white.rating);
                        g.black_rating.push(pairing.black.rating);
                        g.source_row.push(player.line);
                        out.white.push(&pairing.white.id);
                        out.black.push(&pairing.black.id);
                        counts.games += 1;
                    }
                }
            }
        }
        Ok(counts)
    }

    /// The game of `player`'s block in `round` (a played result), checked against the opponent's
    /// line: `None` when the game is the opponent's to give (the lower starting rank gives it).
    fn pairing<'a>(
        &self,
        player: &'a Player,
        round: usize,
        ranks: &HashMap<u16, &'a Player>,
        noir: bool,
    ) -> Result<Option<Pairing<'a>>, IngestError> {
        let block = player.rounds[round].expect("a played round has its block");
        let from = FIRST_ROUND_COLUMN + ROUND_WIDTH * round;
        let err = |at: usize, to: usize, what: &str, problem: String| IngestError::Row {
            file: self.file.clone(),
            place: format!("line {}, round {}", player.line, round + 1),
            column: format!("{at}–{to} ({what})"),
            problem,
        };
        let opponent = ranks
            .get(&block.opponent)
            .filter(|o| o.rank != player.rank)
            .ok_or_else(|| {
                err(from, from + 3, "opponent", format!("a game played against a starting rank that no other 001 line holds; got opponent {} with result {}", block.opponent, block.result))
            })?;
        let colour = |b: &Block| match (b.colour, noir) {
            (Colour::White, _) | (Colour::UpperB, true) => Some(true),
            (Colour::Black | Colour::Noir, _) | (Colour::UpperB, false) => Some(false),
            (Colour::None, _) => None,
        };
        let white = colour(&block).ok_or_else(|| {
            err(
                from + 5,
                from + 5,
                "colour",
                format!(
                    "a game played needs its colour, w or b; got none with result {}",
                    block.result
                ),
            )
        })?;
        let complement = match block.result {
            '1' => '0',
            '0' => '1',
            _ => '=',
        };
        let theirs = opponent.rounds.get(round).copied().flatten();
        let agrees = theirs.is_some_and(|t| {
            t.opponent == player.rank && colour(&t) == Some(!white) && t.result == complement
        });
        if !agrees {
            let checked_there =
                theirs.is_some_and(|t| t.opponent == player.rank && "10=".contains(t.result));
            if checked_there && player.rank > opponent.rank {
                // Told once, from the line of the lower starting rank.
                return Ok(None);
            }
            let says = theirs.map_or_else(
                || "a blank block".to_string(),
                |t| {
                    format!(
                        "opponent {}, colour {}, result {}",
                        t.opponent,
                        colour_name(colour(&t)),
                        t.result
                    )
                },
            );
            return Err(err(
                from,
                from + 7,
                "round block",
                format!(
                    "a pairing the opponent's line contradicts: both lines name each other, with opposite colours and complementary results; got opponent {} {}{} {}, and on their line {}: {says}",
                    opponent.rank,
                    colour_name(Some(white)),
                    block.result,
                    if white { "(White)" } else { "(Black)" },
                    opponent.line,
                ),
            ));
        }
        if player.rank > opponent.rank {
            return Ok(None);
        }
        let score = match block.result {
            '1' => 2,
            '0' => 0,
            _ => 1,
        };
        let (white, black, score) = if white {
            (player, *opponent, score)
        } else {
            (*opponent, player, 2 - score)
        };
        Ok(Some(Pairing {
            white,
            black,
            score,
        }))
    }
}

fn colour_name(white: Option<bool>) -> &'static str {
    match white {
        Some(true) => "w",
        Some(false) => "b",
        None => "-",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Day;

    /// A `001` line with its rounds, each `(opponent, colour, result)`.
    pub(super) fn player(
        rank: u16,
        name: &str,
        rating: &str,
        id: &str,
        rounds: &[(u16, char, char)],
    ) -> String {
        let mut line =
            format!("001 {rank:>4} m    {name:<33} {rating:>4} BEL {id:>11} 1990/01/01  0.0     ");
        assert_eq!(line.chars().count(), 89);
        for &(opponent, colour, result) in rounds {
            line += &format!("  {opponent:>4} {colour} {result}");
        }
        line
    }

    pub(super) fn refused(lines: &[String]) -> String {
        match report(lines) {
            Ok(_) => panic!("read"),
            Err(e) => e,
        }
    }

    pub(super) fn report(lines: &[String]) -> Result<(RawGames, TrfCounts), String> {
        let mut skips = Skips::new(false);
        let text = lines.join("\n");
        let report = Report::parse("t.trf", &text, &mut skips).map_err(|e| e.to_string())?;
        let mut out = no_games("t.trf".into());
        let mut events = HashMap::new();
        let counts = report
            .push_games(&mut out, &mut events, &mut skips)
            .map_err(|e| e.to_string())?;
        sort_event_names(&mut out.games, events);
        Ok((out, counts))
    }

    pub(super) fn day(y: i32, m: u32, d: u32) -> Day {
        Day::from_ymd(y, m, d).unwrap()
    }

    pub(super) fn head(start: &str, end: &str, rounds: &[&str]) -> Vec<String> {
        let mut dates = format!("132{}", " ".repeat(88));
        for r in rounds {
            dates += &format!("{r:<8}  ");
        }
        vec![
            "012 Open".to_string(),
            format!("042 {start}"),
            format!("052 {end}"),
            dates.trim_end().to_string(),
        ]
    }

    /// A beats B in round 1 with White; they draw round 2, colours reversed.
    pub(super) fn two_rounds_of_a_and_b() -> [String; 2] {
        [
            player(1, "A", "2000", "11", &[(2, 'w', '1'), (2, 'b', '=')]),
            player(2, "B", "2000", "12", &[(1, 'b', '0'), (1, 'w', '=')]),
        ]
    }

    pub(super) fn three_players() -> Vec<String> {
        vec![
            player(
                1,
                "Alpha, A",
                "2100",
                "1001",
                &[(2, 'w', '1'), (3, 'b', '=')],
            ),
            player(2, "Beta, B", "   0", "", &[(1, 'b', '0'), (0, '-', 'U')]),
            player(
                3,
                "Gamma, C",
                "1900",
                "1003",
                &[(0, ' ', 'H'), (1, 'w', '=')],
            ),
        ]
    }

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
    fn each_pairing_is_one_game_and_the_rest_is_counted_by_kind() {
        let mut lines = head("2024-01-06", "2024-01-07", &["24/01/06", "24/01/07"]);
        lines.push("XXR 2".into());
        lines.push("013 Team                             1    2".into());
        lines.push("### a comment".into());
        lines.extend(three_players());
        let (raw, counts) = report(&lines).unwrap();
        let g = &raw.games;
        assert_eq!(raw.white.as_text(), ["1001", "1003"]);
        assert_eq!(raw.black.as_text(), ["Beta, B #2 (Open)", "1001"]);
        assert_eq!(g.score, [2, 1]);
        assert_eq!(g.date, [Some(day(2024, 1, 6)), Some(day(2024, 1, 7))]);
        assert_eq!(g.event_start, [Some(day(2024, 1, 6)); 2]);
        assert_eq!((g.white_rating[0], g.black_rating[0]), (Some(2100), None));
        assert_eq!(g.event_names, ["", "Open"]);
        assert_eq!(g.event_type, [EventType::Swiss; 2]);
        let expected = TrfCounts {
            reports: 1,
            players: 3,
            without_fide_id: 1,
            games: 2,
            half_point_byes: 1,
            pairing_byes: 1,
            lines_skipped: 2,
            ..TrfCounts::default()
        };
        assert_eq!(counts, expected);
    }

    /// An event longer than 30 days is rated round by round: each round its own event, started on
    /// its date, so that it goes on the list after it with the ratings in force then.
    #[test]
    fn a_season_is_rated_round_by_round() {
        let mut lines = head("2023-09-24", "2024-04-21", &["23/09/24", "24/04/21"]);
        lines.push("092 Standard Team Round Robin".into());
        lines.extend(two_rounds_of_a_and_b());
        let (raw, _) = report(&lines).unwrap();
        let g = &raw.games;
        assert_eq!(g.event_names, ["", "Open, round 1", "Open, round 2"]);
        assert_eq!(
            g.event_start,
            [Some(day(2023, 9, 24)), Some(day(2024, 4, 21))]
        );
        assert_eq!(g.event_type, [EventType::RoundRobin; 2]);
    }

    #[test]
    fn french_colours_and_any_line_end_are_read() {
        let mut lines = head("2015/09/27", "2015/09/27", &[]);
        lines.push(player(1, "A", "2000", "11", &[(2, 'N', '1')]));
        lines.push(player(2, "B", "2000", "12", &[(1, 'B', '0')]));
        for end in ["\r", "\r\n"] {
            let mut skips = Skips::new(false);
            let report = Report::parse("t.trf", &lines.join(end), &mut skips).unwrap();
            let mut out = no_games("t.trf".into());
            report
                .push_games(&mut out, &mut HashMap::new(), &mut skips)
                .unwrap();
            assert_eq!(out.white.as_text(), ["12"]);
            assert_eq!(out.games.score, [0]);
        }
    }

    #[test]
    fn a_player_line_describes_the_player() {
        let line = format!(
            "001 {:>4} w{:<3} {:<33} {:>4} {:<3} {:>11} {:<10}  4.0",
            1, "WGM", "Mu\u{f1}oz, Ana", 2301, "ESP", 2212072, "1981/00/00"
        );
        let line: Vec<char> = line.chars().collect();
        let expected = Reported {
            name: Some("Mu\u{f1}oz, Ana".into()),
            federation: Some("ESP".into()),
            sex: Some("F".into()),
            title: Some("WGM".into()),
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

    /// Latin-1 and UTF-8 with a byte-order mark read alike, from a file and from a directory,
    /// where only report files are read and players are joined by their FIDE id.
    #[test]
    fn encodings_and_directories() {
        let dir = crate::testing::scratch("trf").join("encodings");
        std::fs::create_dir_all(&dir).unwrap();
        let mut lines = head("2024-01-06", "2024-01-06", &[]);
        lines.push(player(1, "A", "2000", "11", &[(2, 'w', '1')]));
        lines.push(player(2, "Mu\u{f1}oz, B", "2000", "", &[(1, 'b', '0')]));
        let text = lines.join("\r\n");
        let latin1: Vec<u8> = text.chars().map(|c| c as u8).collect();
        std::fs::write(dir.join("a.tab"), latin1).unwrap();
        std::fs::write(
            dir.join("b.txt"),
            [b"\xEF\xBB\xBF", text.as_bytes()].concat(),
        )
        .unwrap();
        std::fs::write(dir.join("notes.md"), "not a report").unwrap();
        let mut skips = Skips::new(false);
        let (raw, counts) = read(&dir.join("a.tab"), &mut skips).unwrap();
        assert_eq!(raw.black.as_text(), ["Mu\u{f1}oz, B #2 (Open)"]);
        assert_eq!(counts.reports, 1);
        assert!(is_trf(&dir) && is_trf(&dir.join("b.txt")) && !is_trf(&dir.join("notes.md")));
        let (raw, counts) = read(&dir, &mut skips).unwrap();
        assert_eq!(raw.white.as_text(), ["11", "11"]);
        assert_eq!(raw.black.as_text(), ["Mu\u{f1}oz, B #2 (Open)"; 2]);
        let (id, reported) = &raw.reported[1];
        assert_eq!(id, "Mu\u{f1}oz, B #2 (Open)");
        assert_eq!(reported.name.as_deref(), Some("Mu\u{f1}oz, B"));
        assert_eq!(reported.birth_year, Some(1990));
        // The rating the report carries, on the list in force at the event's start.
        assert_eq!((reported.rating, reported.line), (Some(2000), 6));
        assert_eq!(reported.as_of, Day::from_ymd(2024, 1, 6));
        assert_eq!((counts.reports, counts.games), (2, 2));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn what_cannot_be_read_is_refused_with_its_line_and_columns() {
        let refuse = |edit: &dyn Fn(&mut Vec<String>)| {
            let mut lines = head("2024-01-06", "2024-01-07", &["24/01/06", "24/01/07"]);
            lines.extend(three_players());
            edit(&mut lines);
            refused(&lines)
        };
        let e = refuse(&|l| l[5].truncate(70));
        assert!(
            e.starts_with(
                "t.trf, line 6, column 1–84: a player line cut short: it ends at column 70"
            ),
            "{e}"
        );
        let e = refuse(&|l| l[5].truncate(96));
        assert!(
            e.starts_with(
                "t.trf, line 6, round 1, column 92–99 (round block): a round block cut short"
            ),
            "{e}"
        );
        let e = refuse(&|l| l[5] = l[5].replacen("   1 b 0", "   3 b 0", 1));
        assert!(e.starts_with("t.trf, line 5, round 1, column 92–99 (round block): a pairing the opponent's line contradicts"), "{e}");
        assert!(
            e.contains(
                "got opponent 2 w1 (White), and on their line 6: opponent 3, colour b, result 0"
            ),
            "{e}"
        );
        let e = refuse(&|l| l.push("XXR 1".into()));
        assert!(e.starts_with("t.trf, line 5, round 2, column 102–109 (round): a round beyond the rounds the report declares (XXR or 142); got round 2 of 1"), "{e}");
        let e = refuse(&|l| l[1] = "042 2024-02-30".into());
        assert!(
            e.starts_with("t.trf, line 2, column 5– (date): an impossible date: \"2024-02-30\""),
            "{e}"
        );
        let e = refuse(&|l| l[4] = l[4].replace("2100", "21OO"));
        assert!(
            e.starts_with(
                "t.trf, line 5, column 49–52 (rating): expected the player's FIDE rating"
            ),
            "{e}"
        );
        let e = refuse(&|l| l.push("999 what".into()));
        assert!(
            e.starts_with("t.trf, line 8, column 1–3: expected a TRF record"),
            "{e}"
        );
    }
}
