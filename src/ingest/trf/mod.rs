//! Tournament Report Files, as federations send them to FIDE (TRF16, FIDE Handbook C.04 Annex 2;
//! TRF26 from September 2025), one file or a directory of them: the players from the `001` lines
//! read by their columns, the games from their round blocks (each pairing once, both players'
//! lines agreeing), the event from the tournament lines (012 name, 042 start, 052 end, 092 type,
//! 132 round dates). Team lines, TRF26's other records, pairing programs' extensions (`XXR`,
//! `XXC`…) and `###` comments are skipped; anything else is refused with its line and columns.
//!
//! The reader's parts, one file each: `files.rs` finds the reports, `records.rs` reads their lines
//! and `dates.rs` their dates, `pairing.rs` makes the games of the round blocks; `read` here puts
//! them together.

mod dates;
mod files;
mod pairing;
mod records;

use std::collections::HashMap;
use std::path::Path;

use super::compressed::read_text;
use super::error::IngestError;
use super::raw::{sort_event_names, Extras, RawGames, Reported, TrfCounts};
use super::table::Skips;
use super::text::{decode, sha256};
use records::Report;

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
pub fn read(path: &Path, skips: &mut Skips) -> Result<RawGames, IngestError> {
    let files = if path.is_dir() {
        files::report_files(path)?
    } else {
        vec![path.to_path_buf()]
    };
    let mut out = no_games(path.display().to_string());
    let mut events: HashMap<String, u32> = HashMap::new();
    let mut counts = TrfCounts::default();
    let mut reported = Vec::new();
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
        reported.extend(report.players.into_iter().map(|p| {
            let details = Reported {
                rating: p.rating,
                as_of,
                line: p.line,
                ..p.details
            };
            (p.id, details)
        }));
    }
    if counts.players == 0 {
        return Err(IngestError::File {
            file: path.display().to_string(),
            problem: "holds no player line: a tournament report lists each player on a line beginning 001, and this holds none".into(),
        });
    }
    out.sha256 = match files.as_slice() {
        [_] => checksums[..64].to_string(),
        _ => sha256(checksums.as_bytes()),
    };
    sort_event_names(&mut out.games, events);
    out.extras = Extras::Trf { counts, reported };
    Ok(out)
}

fn no_games(source: String) -> RawGames {
    RawGames::of_lines(
        source,
        Extras::Trf {
            counts: TrfCounts::default(),
            reported: Vec::new(),
        },
    )
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

    /// An empty report, or one of header lines alone, is named as holding no player.
    #[test]
    fn a_report_of_no_player_line_says_so() {
        let dir = crate::testing::scratch("trf-no-player");
        for (name, text) in [
            ("empty.trf", String::new()),
            (
                "head.trf",
                head("2024-01-06", "2024-01-07", &["24/01/06"]).join("\n"),
            ),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            let e = read(&path, &mut Skips::new(false))
                .err()
                .unwrap()
                .to_string();
            assert!(e.ends_with(&format!("{name}: holds no player line: a tournament report lists each player on a line beginning 001, and this holds none")), "{e}");
        }
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
        let raw = read(&dir.join("a.tab"), &mut skips).unwrap();
        assert_eq!(raw.black.as_text(), ["Mu\u{f1}oz, B #2 (Open)"]);
        let Extras::Trf { counts, .. } = raw.extras else {
            panic!("reports read as another format");
        };
        assert_eq!(counts.reports, 1);
        assert!(is_trf(&dir) && is_trf(&dir.join("b.txt")) && !is_trf(&dir.join("notes.md")));
        let raw = read(&dir, &mut skips).unwrap();
        assert_eq!(raw.white.as_text(), ["11", "11"]);
        assert_eq!(raw.black.as_text(), ["Mu\u{f1}oz, B #2 (Open)"; 2]);
        let Extras::Trf { counts, reported } = raw.extras else {
            panic!("reports read as another format");
        };
        let (id, reported) = &reported[1];
        assert_eq!(id, "Mu\u{f1}oz, B #2 (Open)");
        assert_eq!(reported.description.name.as_deref(), Some("Mu\u{f1}oz, B"));
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
        // Two players of one rank: the report's problem, which no skipped row would mend.
        let e = refuse(&|l| l[5].replace_range(4..8, "   1"));
        assert_eq!(e, "t.trf, line 6: column 5–8 (starting rank): starting rank 1 again (first on line 5); each player has a rank of their own, or the report cannot say who played whom");
        // One FIDE id on two lines: that player's games would be against themselves.
        let e = refuse(&|l| {
            let id = l[4][57..68].to_string();
            l[5].replace_range(57..68, &id);
        });
        assert!(
            e.starts_with("t.trf, line 6: columns 58–68 (FIDE id): FIDE id "),
            "{e}"
        );
        assert!(
            e.contains(" again (first on line 5); each player has one line in a report"),
            "{e}"
        );
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
        assert!(e.starts_with("t.trf, line 5, round 1, column 92–99 (round block): the opponent's line names another opponent in this round (a game's two lines name each other, with opposite colours and complementary results); got rank 1 against rank 2, whose line (line 6) names rank 3"), "{e}");
        let e = refuse(&|l| l[5] = l[5].replacen("   1 b 0", "   1 w 0", 1));
        assert!(
            e.contains("both lines give the same colour (a game's two lines name each other, with opposite colours and complementary results); got w with rank 1 against rank 2, whose line (line 6) has w too"),
            "{e}"
        );
        let e = refuse(&|l| l[5] = l[5].replacen("   1 b 0", "   1 b 1", 1));
        assert!(
            e.contains("the two lines' results do not add up (a game's two lines name each other, with opposite colours and complementary results); got 1 for rank 1 against rank 2, whose line (line 6) has 1 (expected 0)"),
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
