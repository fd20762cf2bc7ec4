//! Tournament Report Files, as federations send them to FIDE (TRF16, FIDE Handbook C.04 Annex 2;
//! TRF26 from September 2025), one file or a directory of them: the players from the `001` lines
//! read by their columns, the games from their round blocks (each pairing once, both players'
//! lines agreeing), the event from the tournament lines (012 name, 042 start, 052 end, 092 type,
//! 132 round dates). Team lines, TRF26's other records, pairing programs' extensions (`XXR`,
//! `XXC`…) and `###` comments are skipped; anything else is refused with its line and columns.

mod dates;
mod files;
mod records;

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
use records::{Block, Colour, Player, Report, FIRST_ROUND_COLUMN, ROUND_WIDTH};

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
