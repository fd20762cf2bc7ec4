//! Readers against random input: every one must answer with its games, an error or a counted skip,
//! never a panic. Deterministic (a fixed seed), so a failure repeats; a stand-in until the fuzz
//! targets of the robustness work exist.

use std::path::PathBuf;

use crate::generate::SplitMix64;
use crate::model::{parse_score, Day, Month};
use crate::scenario::Scenario;

use super::{fide_list, fide_xml, games, pgn, trf, Skips};

/// Pieces that make inputs look like the real thing, mixed with raw bytes.
const PIECES: &[&str] = &[
    "[",
    "]",
    "\"",
    "{",
    "}",
    ";",
    "%",
    "\n",
    "\r\n",
    "\t",
    " ",
    ",",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "½-½",
    "[Event \"",
    "[Date \"",
    "2019.03.",
    "??",
    "[WhiteElo \"",
    "ID_NUMBER",
    "Name",
    "Rtng",
    "JAN01",
    "2400",
    "-1",
    "99999999999999999999",
    "é",
    "\u{1a}",
    "\u{0}",
    "2019-03",
    "period",
    "white",
    "black",
    "score",
    "0.5",
    "NaN",
    "[[revision]]",
    "from = ",
    "k.new = ",
    "floor",
    "=",
    "\"2019-01\"",
];

fn garbage(rng: &mut SplitMix64, pieces: usize) -> String {
    let mut s = String::new();
    for _ in 0..pieces {
        if rng.below(5) == 0 {
            s.push(char::from_u32(rng.below(0x2FF) as u32).unwrap_or('?'));
        } else {
            s.push_str(PIECES[rng.below(PIECES.len() as u64) as usize]);
        }
    }
    s
}

fn scratch(name: &str) -> PathBuf {
    let dir = crate::testing::scratch(&format!("garbage-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn parsers_of_cells_never_panic() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..20_000 {
        let s = garbage(&mut rng, 3);
        let _ = parse_score(&s);
        let _ = Month::parse(&s);
        let _ = Day::parse(&s);
    }
}

#[test]
fn readers_never_panic_on_random_files() {
    let dir = scratch("files");
    let mut rng = SplitMix64::new(12);
    for i in 0..1000 {
        let pieces = 40 + rng.below(400) as usize;
        let text = garbage(&mut rng, pieces);
        for (name, body) in [
            ("g.pgn", text.clone()),
            (
                "l.txt",
                format!("ID_NUMBER NAME TITL FED JAN01 GAMES BORN FLAG\n{text}"),
            ),
            ("g.csv", format!("period,white,black,score\n{text}")),
            (
                "l.xml",
                format!("<playerslist>\n<player><fideid>1</fideid>{text}"),
            ),
        ] {
            let path = dir.join(format!("{i}-{name}"));
            std::fs::write(&path, &body).unwrap();
            for skip in [false, true] {
                let mut skips = Skips::new(skip);
                match name {
                    "g.pgn" => {
                        let _ = pgn::read(&path, pgn::Dates::YearIsEnough, &mut skips);
                    }
                    "l.txt" => {
                        let _ = fide_list::read(&path, &mut skips);
                    }
                    "l.xml" => {
                        let _ = fide_xml::read(&path, &mut skips);
                    }
                    _ => {
                        let _ = games::read(
                            &path,
                            crate::scenario::GameFormat::Auto,
                            None,
                            pgn::Dates::NeedMonth,
                            &mut skips,
                        );
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random bytes behind the magic numbers of gzip, zstd and zip, and zip records (central
/// directory entries, end records) with random fields: the decompressing reader answers with text
/// or an error, never a panic or an allocation its headers ask for.
#[test]
fn compressed_inputs_never_panic() {
    let dir = scratch("compressed");
    let mut rng = SplitMix64::new(14);
    let mut random = |n: usize| -> Vec<u8> { (0..n).map(|_| rng.below(256) as u8).collect() };
    for i in 0..1000 {
        let body = random(i % 300);
        let fields = random(46);
        let mut bytes = match i % 4 {
            0 => b"\x1f\x8b".to_vec(),
            1 => b"\x28\xb5\x2f\xfd".to_vec(),
            _ => b"PK\x03\x04".to_vec(),
        };
        bytes.extend_from_slice(&body);
        if i % 4 >= 2 {
            bytes.extend_from_slice(b"PK\x01\x02");
            bytes.extend_from_slice(&fields);
            bytes.extend_from_slice(b"PK\x05\x06");
            bytes.extend_from_slice(&fields[..18]);
        }
        let path = dir.join(format!("{i}.csv"));
        std::fs::write(&path, &bytes).unwrap();
        let _ = super::compressed::read_text(&path);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tournament report with random characters put in random columns: dates, ranks, colours and
/// results that are almost right are where a column reader would slip.
#[test]
fn the_report_reader_never_panics_on_damaged_reports() {
    let dir = scratch("reports");
    let mut rng = SplitMix64::new(14);
    let block = |o: u16, c: char, r: char| format!("  {o:>4} {c} {r}");
    let player = |rank: u16, rounds: String| {
        format!(
            "001 {rank:>4} m    {:<33} 2000 BEL {:>11} 1990/01/01  0.0     {rounds}",
            format!("P{rank}"),
            1000 + rank
        )
    };
    let report = [
        "012 Open".to_string(),
        "042 19/02/09".into(),
        "052 2019-02-10".into(),
        format!("132{}19/02/09  19/02/10", " ".repeat(88)),
        "XXR 2".into(),
        player(1, block(2, 'w', '1') + &block(3, 'b', '=')),
        player(2, block(1, 'b', '0') + &block(0, '-', 'U')),
        player(3, block(0, ' ', 'H') + &block(1, 'w', '=')),
    ]
    .join("\n");
    let marks: Vec<char> = "0123456789 /-.=+wbBNWDLHFUZ\r\n\u{e9}\u{0}x"
        .chars()
        .collect();
    for i in 0..2000 {
        let mut chars: Vec<char> = report.chars().collect();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(chars.len() as u64) as usize;
            let mark = marks[rng.below(marks.len() as u64) as usize];
            match rng.below(3) {
                0 => chars[at] = mark,
                1 => chars.insert(at, mark),
                _ => {
                    chars.remove(at);
                }
            }
        }
        let path = dir.join(format!("{i}.trf"));
        std::fs::write(&path, chars.iter().collect::<String>()).unwrap();
        for skip in [false, true] {
            let _ = trf::read(&path, &mut Skips::new(skip));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_scenario_loader_never_panics() {
    let dir = scratch("scenarios");
    let mut rng = SplitMix64::new(13);
    for i in 0..2000 {
        let path = dir.join(format!("{i}.toml"));
        std::fs::write(&path, garbage(&mut rng, 30)).unwrap();
        let _ = Scenario::load(&path);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
