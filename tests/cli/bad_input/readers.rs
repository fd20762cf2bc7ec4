//! The bad-input suite: every reader (games as CSV and Parquet, the Kaggle and 2011 contest
//! layouts, FIDE's list layouts and other starting lists, players files, PGN plain and gzip,
//! compressed inputs (gzip, zstd, zip), the scenario TOML) meets input it cannot interpret. Each case must end in an error that names the
//! file, the place and what was expected, with no panic and no run directory left behind; a case
//! about one row must also replay with `--skip-invalid`, the row counted in `summary.json`.
//! Month-partitioned datasets have their own cases in `cli.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;

use polars::prelude::*;

/// A file of a case: its name and bytes.
struct File {
    name: &'static str,
    bytes: Vec<u8>,
}

fn text(name: &'static str, contents: &str) -> File {
    File {
        name,
        bytes: contents.as_bytes().to_vec(),
    }
}

/// A canonical Parquet games file with one good game and `bad` as the second.
fn parquet(name: &'static str, bad: (Option<i64>, Option<i64>, Option<f64>)) -> File {
    let mut df = df!(
        "period" => ["2019-03", "2019-03"],
        "white" => [Some(101i64), bad.0],
        "black" => [Some(102i64), bad.1],
        "score" => [Some(1.0f64), bad.2],
    )
    .unwrap();
    let mut bytes = Vec::new();
    ParquetWriter::new(&mut bytes).finish(&mut df).unwrap();
    File { name, bytes }
}

/// A Parquet file of `df`.
fn parquet_of(name: &'static str, mut df: DataFrame) -> File {
    let mut bytes = Vec::new();
    ParquetWriter::new(&mut bytes).finish(&mut df).unwrap();
    File { name, bytes }
}

/// `text` compressed by gzip.
fn gzipped(text: &str) -> Vec<u8> {
    crate::common::gzip(text.as_bytes())
}

/// A tournament report of February 2019 among the small scenario's players 101–104, two rounds:
/// 1–2 and 3–4, then 1–3 and 2–4. `edit` changes its lines (0: the name, 1–3: the dates, 4–7: the
/// players) before they are joined.
fn trf(edit: &dyn Fn(&mut Vec<String>)) -> File {
    let player = |rank: u16, id: u32, rating: &str, rounds: [(u16, char, char); 2]| {
        let mut line = format!(
            "001 {rank:>4} m    {:<33} {rating:>4} BEL {id:>11} 1990/01/01  0.0     ",
            format!("Player {id}")
        );
        for (opponent, colour, result) in rounds {
            line += &format!("  {opponent:>4} {colour} {result}");
        }
        line
    };
    let mut lines = vec![
        "012 Open 2019".to_string(),
        "042 2019/02/09".to_string(),
        "052 2019/02/10".to_string(),
        format!("132{}19/02/09  19/02/10", " ".repeat(88)),
        player(1, 101, "2100", [(2, 'w', '1'), (3, 'b', '=')]),
        player(2, 102, "2000", [(1, 'b', '0'), (4, 'w', '1')]),
        player(3, 103, "2200", [(4, 'w', '='), (1, 'w', '=')]),
        player(4, 104, "1650", [(3, 'b', '='), (2, 'b', '0')]),
    ];
    edit(&mut lines);
    File {
        name: "games.trf",
        bytes: (lines.join("\r\n") + "\r\n").into_bytes(),
    }
}

struct Case {
    name: &'static str,
    files: Vec<File>,
    /// Arguments after `replay`; `{dir}` is the case's directory.
    args: &'static [&'static str],
    expected: &'static [&'static str],
    /// A problem of one row: `--skip-invalid` replays without it and counts it.
    row_level: bool,
}

const SMALL: &str = "tests/fixtures/scenario-2019.toml";
const GAMES_HEADER: &str = "period,event,event_start,white,black,score,white_rating,black_rating";

/// Two good games and one bad line (the fourth) of canonical CSV games.
fn games_with(bad: &str) -> String {
    format!("{GAMES_HEADER}\n2019-03,Open,2019-02-10,101,102,1,,\n2019-03,Open,2019-02-10,103,104,0,,\n{bad}\n")
}

fn row_case(name: &'static str, bad: &str, expected: &'static [&'static str]) -> Case {
    Case {
        name,
        files: vec![text("games.csv", &games_with(bad))],
        args: &[SMALL, "--games", "{dir}/games.csv"],
        expected,
        row_level: true,
    }
}

/// A row of FIDE's TXT download (`standard_rating_list.txt`) at its columns, as FIDE writes it.
fn download_row(id: &str, name: &str, rating: &str) -> String {
    format!(
        "{id:<15}{name:<61}{:<4}{:<4}{:<29}{rating:<6}{:<4}{:<3}{:<6}{:<4}\r\n",
        "SWE", "M", "", "0", "20", "1972", ""
    )
}

/// FIDE's XML download with one player per `(id, rating)`.
fn xml_list(players: &[(&str, &str)]) -> String {
    let player = |(id, rating): &(&str, &str)| {
        format!("<player>\n<fideid>{id}</fideid>\n<name>Aaberg, Anton</name>\n<country>SWE</country>\n<rating>{rating}</rating>\n<games>0</games>\n<k>20</k>\n<birthday>1972</birthday>\n<flag></flag>\n</player>\n")
    };
    format!(
        "<playerslist>\n{}</playerslist>\n",
        players.iter().map(player).collect::<String>()
    )
}

fn cases() -> Vec<Case> {
    // The list of February 2019 (its rating column's name), the list the small scenario starts from.
    let fide_header =
        "  ID_NUMBER NAME                             TITLE COUNTRY FEB19 GAMES FLAG\n";
    let fide_row = "   1701991  Aaberg, Anton                          SWE     2300    0   i   \n";
    let mut truncated = parquet("cut.parquet", (Some(103), Some(104), Some(0.5))).bytes;
    truncated.truncate(truncated.len() / 2);
    let pgn_game = |date: &str, result: &str| {
        format!("[Event \"X\"]\n[Date \"{date}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"{result}\"]\n\n1. e4 {result}\n\n")
    };
    let mut gzip = Vec::new();
    {
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(&mut gzip, flate2::Compression::default());
        for _ in 0..200 {
            encoder
                .write_all(pgn_game("2019.02.10", "1-0").as_bytes())
                .unwrap();
        }
        encoder.finish().unwrap();
    }
    gzip.truncate(gzip.len() / 2);
    let mut zstd_cut = crate::common::zstd(
        (0..200)
            .map(|_| pgn_game("2019.02.10", "1-0"))
            .collect::<String>()
            .as_bytes(),
    );
    zstd_cut.truncate(zstd_cut.len() / 2);
    // A stored member with a byte changed: only its CRC-32 tells.
    let list: &[u8] = b"id,rating\n101,2100\n";
    let mut damaged_zip = crate::common::zip_of(&[("start.csv", list)], false);
    damaged_zip[30 + "start.csv".len() + 12] = b'9';
    // The same archive with its central directory entry (after the local header, name and data)
    // saying bzip2 (method 12, APPNOTE §4.4.5), or encryption (flag bit 0).
    let directory = 30 + "start.csv".len() + list.len();
    let mut bzip2_zip = crate::common::zip_of(&[("start.csv", list)], false);
    bzip2_zip[directory + 10] = 12;
    let mut encrypted_zip = crate::common::zip_of(&[("start.csv", list)], false);
    encrypted_zip[directory + 8] = 1;
    vec![
        // Canonical games, CSV.
        row_case(
            "score",
            "2019-03,Open,2019-02-10,105,106,2,,",
            &["games.csv, line 4, column score", "expected White's score, one of 1, 0.5, 0"],
        ),
        row_case(
            "period",
            "2019-13,Open,2019-02-10,105,106,1,,",
            &["games.csv, line 4, column period", "expected a month YYYY-MM"],
        ),
        row_case(
            "event-start",
            "2019-03,Open,soon,105,106,1,,",
            &["line 4, column event_start", "expected a date YYYY-MM-DD"],
        ),
        row_case(
            "empty-player",
            "2019-03,Open,2019-02-10,,106,1,,",
            &["line 4, column white", "empty: expected a player id"],
        ),
        row_case(
            "plays-himself",
            "2019-03,Open,2019-02-10,105,105,1,,",
            &["line 4, column black", "cannot play himself"],
        ),
        row_case(
            "recorded-rating",
            "2019-03,Open,2019-02-10,105,106,1,5000,",
            &["line 4, column white_rating", "expected a rating from 0 to 4000"],
        ),
        row_case(
            "ragged-row",
            "2019-03,Open,2019-02-10,105",
            &["games.csv, line 4"],
        ),
        row_case(
            "no-period-or-date",
            ",Open,2019-02-10,105,106,1,,",
            &["line 4, column period", "every game needs its period (YYYY-MM) or its date"],
        ),
        Case {
            name: "missing-column",
            files: vec![text("games.csv", "period,white,black,result\n2019-03,101,102,1\n")],
            args: &[SMALL, "--games", "{dir}/games.csv"],
            expected: &["games.csv", "score", "period, white, black, result"],
            row_level: false,
        },
        Case {
            name: "empty-file",
            files: vec![text("games.csv", "")],
            args: &[SMALL, "--games", "{dir}/games.csv"],
            expected: &["games.csv", "empty"],
            row_level: false,
        },
        Case {
            name: "binary-file",
            files: vec![File {
                name: "games.csv",
                bytes: (0..=255u8).cycle().take(3000).collect(),
            }],
            args: &[SMALL, "--games", "{dir}/games.csv"],
            expected: &["games.csv is not text: its first line holds the control byte 0x00"],
            row_level: false,
        },
        row_case(
            "nul-in-id",
            "2019-03,Open,2019-02-10,10\u{0}5,106,1,,",
            &["games.csv, line 4, column white", "a control character (U+0000) in a player id"],
        ),
        Case {
            name: "column-twice",
            files: vec![text("games.csv", "period,white,black,score,score\n2019-03,101,102,1,0\n")],
            args: &[SMALL, "--games", "{dir}/games.csv"],
            expected: &["games.csv, line 1: the header names the column `score` twice (columns 4 and 5)"],
            row_level: false,
        },
        Case {
            name: "date-after-its-list",
            files: vec![text(
                "games.csv",
                "period,event_start,date,white,black,score\n2019-03,2019-02-10,2019-02-10,101,102,1\n2019-03,2019-02-10,2019-07-10,101,103,1\n",
            )],
            args: &[SMALL, "--games", "{dir}/games.csv"],
            expected: &[
                "games.csv, line 3, column date: the game was played on 2019-07-10, after the list it is rated on (2019-03)",
            ],
            row_level: false,
        },
        // A gzip file is read (whatever its name), so its bad row is found at its line.
        Case {
            name: "gzip-csv",
            files: vec![File {
                name: "games.csv",
                bytes: gzipped(&games_with("2019-03,Open,2019-02-10,105,106,2,,")),
            }],
            args: &[SMALL, "--games", "{dir}/games.csv"],
            expected: &["games.csv, line 4, column score", "expected White's score"],
            row_level: true,
        },
        Case {
            name: "zstd-csv-row",
            files: vec![File {
                name: "games.csv.zst",
                bytes: crate::common::zstd(games_with("2019-03,Open,2019-02-10,105,106,2,,").as_bytes()),
            }],
            args: &[SMALL, "--games", "{dir}/games.csv.zst"],
            expected: &["games.csv.zst, line 4, column score", "expected White's score"],
            row_level: true,
        },
        Case {
            name: "gzip-of-binary",
            files: vec![File {
                name: "games.csv.gz",
                bytes: crate::common::gzip(b"\0\x01\x02binary"),
            }],
            args: &[SMALL, "--games", "{dir}/games.csv.gz"],
            expected: &["games.csv.gz is not text: its first line holds the control byte 0x00"],
            row_level: false,
        },
        Case {
            name: "parquet-named-csv",
            files: vec![File {
                name: "games.csv",
                bytes: parquet("x", (Some(103), Some(104), Some(0.5))).bytes,
            }],
            args: &[SMALL, "--games", "{dir}/games.csv"],
            expected: &["games.csv is a Parquet file: name it .parquet"],
            row_level: false,
        },
        // Canonical games, Parquet.
        Case {
            name: "parquet-outside-calendar",
            files: vec![parquet_of(
                "games.parquet",
                df!(
                    "date" => ["2019-02-10", "1997-10-07"],
                    "white" => [101i64, 103],
                    "black" => [102i64, 104],
                    "score" => [1.0f64, 0.5],
                )
                .unwrap(),
            )],
            args: &[SMALL, "--games", "{dir}/games.parquet"],
            expected: &[
                "games.parquet, row 2, column date: 1997-10-07 is outside the scenario's calendar",
                "--skip-invalid",
            ],
            row_level: true,
        },
        Case {
            name: "parquet-fractional-id",
            files: vec![parquet_of(
                "games.parquet",
                df!(
                    "period" => ["2019-03", "2019-03"],
                    "white" => [101.0f64, 103.5],
                    "black" => [102.0f64, 104.0],
                    "score" => [1.0f64, 0.5],
                )
                .unwrap(),
            )],
            args: &[SMALL, "--games", "{dir}/games.parquet"],
            expected: &[
                "games.parquet, row 2, column white: expected a whole number as the player id",
                "got \"103.5\"",
            ],
            row_level: true,
        },
        Case {
            name: "parquet-huge-float-id",
            files: vec![parquet_of(
                "games.parquet",
                df!(
                    "period" => ["2019-03", "2019-03"],
                    "white" => [101.0f64, 1e30],
                    "black" => [102.0f64, 104.0],
                    "score" => [1.0f64, 0.5],
                )
                .unwrap(),
            )],
            args: &[SMALL, "--games", "{dir}/games.parquet"],
            expected: &[
                "games.parquet, row 2, column white: expected a whole number as the player id, at most 2^53",
                "got \"1e30\"",
            ],
            row_level: true,
        },
        Case {
            name: "parquet-score",
            files: vec![parquet("games.parquet", (Some(103), Some(104), Some(2.0)))],
            args: &[SMALL, "--games", "{dir}/games.parquet"],
            expected: &["games.parquet, row 2, column score", "expected White's score"],
            row_level: true,
        },
        Case {
            name: "parquet-null-player",
            files: vec![parquet("games.parquet", (Some(103), None, Some(1.0)))],
            args: &[SMALL, "--games", "{dir}/games.parquet"],
            expected: &["games.parquet, row 2, column black", "empty: expected a player id"],
            row_level: true,
        },
        Case {
            name: "parquet-truncated",
            files: vec![File {
                name: "games.parquet",
                bytes: truncated,
            }],
            args: &[SMALL, "--games", "{dir}/games.parquet"],
            expected: &["games.parquet", "not a readable Parquet file"],
            row_level: false,
        },
        // The Kaggle 2010 and 2011 contest layouts.
        Case {
            name: "kaggle-month",
            files: vec![text(
                "kaggle.csv",
                "Month #,White Player #,Black Player #,Score\n1,1,2,1\n0,1,2,1\n",
            )],
            args: &["scenarios/kaggle2010.toml", "--games", "{dir}/kaggle.csv"],
            expected: &["kaggle.csv, line 3, column Month #", "expected a month number from 1, got \"0\""],
            row_level: true,
        },
        Case {
            name: "kaggle-month-outside-calendar",
            files: vec![text(
                "kaggle.csv",
                "Month #,White Player #,Black Player #,Score\n1,1,2,1\n500,1,2,1\n",
            )],
            args: &["scenarios/kaggle2010.toml", "--games", "{dir}/kaggle.csv"],
            expected: &[
                "kaggle.csv, line 3, column Month #: month 500 (2054-03, month 1 being 2012-08: data.month-1 in the scenario) is outside the scenario's calendar",
            ],
            row_level: true,
        },
        Case {
            name: "kaggle-without-month-1",
            files: vec![text(
                "kaggle.csv",
                "Month #,White Player #,Black Player #,Score\n1,1,2,1\n",
            )],
            args: &[SMALL, "--games", "{dir}/kaggle.csv"],
            expected: &["kaggle.csv", "set data.month-1 in the scenario"],
            row_level: false,
        },
        Case {
            name: "contest-score",
            files: vec![text(
                "contest.csv",
                "TEID,MonthID,WhitePlayer,BlackPlayer,WhiteScore\n1,133,6,7,0.5\n2,133,6,8,x\n",
            )],
            args: &["scenarios/contest2011.toml", "--games", "{dir}/contest.csv"],
            expected: &["contest.csv, line 3, column WhiteScore", "got \"x\""],
            row_level: true,
        },
        // Starting lists: FIDE's fixed-width and tabbed layouts, and tables.
        Case {
            name: "fide-list-rating",
            files: vec![text(
                "2019-02.TXT",
                &format!("{fide_header}{fide_row}   1401815  Aagaard, Jacob                   m     DEN     23x4   18       \n"),
            )],
            args: &[SMALL, "--start-list", "{dir}/2019-02.TXT"],
            expected: &["2019-02.TXT, line 3, column rating", "\"23x4\""],
            row_level: true,
        },
        Case {
            name: "fide-list-duplicate",
            files: vec![text("2019-02.TXT", &format!("{fide_header}{fide_row}{fide_row}"))],
            args: &[SMALL, "--start-list", "{dir}/2019-02.TXT"],
            expected: &["2019-02.TXT, line 3 (first listed on line 2), column id", "a player listed twice"],
            row_level: true,
        },
        Case {
            name: "fide-tabbed-rating",
            files: vec![text(
                "2019-02.TXT",
                "ID_number\tName\tTitl\tFed\tRtng\tGame\tsBorn\tFlag\n1701991\t\"Aaberg, Anton\"\t\tSWE\t2400\t9\t1972\t\n1401815\t\"Aagaard, Jacob\"\tm\tDEN\t99999\t18\t1972\t\n",
            )],
            args: &[SMALL, "--start-list", "{dir}/2019-02.TXT"],
            expected: &["2019-02.TXT, line 3, column rating", "expected a rating from 1000 to 4000"],
            row_level: true,
        },
        Case {
            name: "fide-download-rating",
            files: vec![text(
                "standard_feb19frl.txt",
                &format!(
                    "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA FEB19 Gms K  B-day Flag\r\n{}{}",
                    download_row("1701991", "Aaberg, Anton", "2300"),
                    download_row("1401815", "Aagaard, Jacob", "2l00")
                ),
            )],
            args: &[SMALL, "--start-list", "{dir}/standard_feb19frl.txt"],
            expected: &["standard_feb19frl.txt, line 3, column rating", "expected a rating from 1000 to 4000, got \"2l00\""],
            row_level: true,
        },
        Case {
            name: "fide-xml-rating",
            files: vec![text("2019-02.xml", &xml_list(&[("1701991", "2300"), ("1401815", "2l00")]))],
            args: &[SMALL, "--start-list", "{dir}/2019-02.xml"],
            expected: &["2019-02.xml, line 16, column <rating>", "expected a rating from 1000 to 4000, got \"2l00\""],
            row_level: true,
        },
        Case {
            name: "fide-xml-element-cut-short",
            files: vec![text(
                "2019-02.xml",
                &xml_list(&[("1701991", "2300"), ("1401815", "2100")]).replace("<rating>2100</rating>\n<games>0</games>", "<rating>2100\n<games>0</games>"),
            )],
            args: &[SMALL, "--start-list", "{dir}/2019-02.xml"],
            expected: &["2019-02.xml, line 17: expected </rating> (the <rating> of line 16), found <games>"],
            row_level: false,
        },
        Case {
            name: "fide-xml-file-cut-short",
            files: vec![text(
                "2019-02.xml",
                &xml_list(&[("1701991", "2300"), ("1401815", "2100")]).split_inclusive('\n').take(15).collect::<String>(),
            )],
            args: &[SMALL, "--start-list", "{dir}/2019-02.xml"],
            expected: &["2019-02.xml, line 16: the file ends here: expected </player> (the <player> of line 12)"],
            row_level: false,
        },
        Case {
            name: "start-list-k",
            files: vec![text("start.csv", "id,rating,k\n101,2100,20\n102,2000,twenty\n")],
            args: &[SMALL, "--start-list", "{dir}/start.csv"],
            expected: &["start.csv, line 3, column k", "\"twenty\""],
            row_level: true,
        },
        Case {
            name: "start-list-no-rating",
            files: vec![text("start.csv", "id,elo\n101,2100\n")],
            args: &[SMALL, "--start-list", "{dir}/start.csv"],
            expected: &["start.csv", "rating", "id, elo"],
            row_level: false,
        },
        Case {
            name: "start-list-zstd",
            files: vec![File {
                name: "start.csv",
                bytes: b"\x28\xb5\x2f\xfd\x24\x10\x81\x00id,rating\n".to_vec(),
            }],
            args: &[SMALL, "--start-list", "{dir}/start.csv"],
            expected: &["start.csv: not a readable zstd file"],
            row_level: false,
        },
        Case {
            name: "players-twice",
            files: vec![text("players.csv", "id,birth_year\n101,1980\n102,1975\n101,2010\n")],
            args: &[SMALL, "--players", "{dir}/players.csv"],
            expected: &[
                "players.csv, line 4 (player 101, first listed on line 2), column id: a player listed twice",
            ],
            row_level: true,
        },
        Case {
            name: "players-birth-year",
            files: vec![text("players.csv", "id,birth_year\n101,1980\n102,nineteen\n")],
            args: &[SMALL, "--players", "{dir}/players.csv"],
            expected: &["players.csv, line 3, column birth_year", "\"nineteen\""],
            row_level: true,
        },
        // PGN, plain and gzip.
        Case {
            name: "pgn-result",
            files: vec![text(
                "games.pgn",
                &(pgn_game("2019.02.10", "1-0") + &pgn_game("2019.02.11", "2-0")),
            )],
            args: &[SMALL, "--games", "{dir}/games.pgn"],
            expected: &["games.pgn, line 9, column Result", "expected 1-0, 0-1, 1/2-1/2 or *, got \"2-0\""],
            row_level: true,
        },
        Case {
            name: "pgn-year-only",
            files: vec![text(
                "games.pgn",
                &(pgn_game("2019.02.10", "1-0") + &pgn_game("2019.??.??", "0-1")),
            )],
            args: &[SMALL, "--games", "{dir}/games.pgn"],
            expected: &["games.pgn, line 9, column Date", "2019.??.??"],
            row_level: true,
        },
        Case {
            name: "pgn-nul-in-name",
            files: vec![text(
                "games.pgn",
                &(pgn_game("2019.02.10", "1-0") + &pgn_game("2019.02.11", "1-0").replace("\"a\"", "\"a\u{0}\"")),
            )],
            args: &[SMALL, "--games", "{dir}/games.pgn"],
            expected: &["games.pgn, line 9, column White", "a control character (U+0000) in a player id"],
            row_level: true,
        },
        Case {
            name: "pgn-zip",
            files: vec![File {
                name: "games.pgn",
                bytes: b"PK\x03\x04\x14\x00\x00\x00\x08\x00games.pgn".to_vec(),
            }],
            args: &[SMALL, "--games", "{dir}/games.pgn"],
            expected: &["games.pgn: a damaged zip archive: no end of central directory record", "expected a zip archive of one file"],
            row_level: false,
        },
        Case {
            name: "pgn-gzip-truncated",
            files: vec![File {
                name: "games.pgn.gz",
                bytes: gzip,
            }],
            args: &[SMALL, "--games", "{dir}/games.pgn.gz"],
            expected: &["games.pgn.gz", "not a readable gzip file"],
            row_level: false,
        },
        Case {
            name: "pgn-zstd-truncated",
            files: vec![File {
                name: "games.pgn.zst",
                bytes: zstd_cut,
            }],
            args: &[SMALL, "--games", "{dir}/games.pgn.zst"],
            expected: &["games.pgn.zst: not a readable zstd file: incomplete frame"],
            row_level: false,
        },
        Case {
            name: "zip-of-no-list",
            files: vec![File {
                name: "start.zip",
                bytes: crate::common::zip_of(&[("lists/", b"")], false),
            }],
            args: &[SMALL, "--start-list", "{dir}/start.zip"],
            expected: &["start.zip: a zip archive holding no file; expected a zip archive of one file, as FIDE's list downloads hold one TXT or XML list"],
            row_level: false,
        },
        Case {
            name: "zip-of-two",
            files: vec![File {
                name: "start.zip",
                bytes: crate::common::zip_of(&[("a.txt", b"id,rating\n1,2000\n"), ("b.txt", b"id,rating\n")], true),
            }],
            args: &[SMALL, "--start-list", "{dir}/start.zip"],
            expected: &["start.zip: a zip archive holding 2 files (a.txt, b.txt", "expected a zip archive of one file"],
            row_level: false,
        },
        Case {
            name: "zip-damaged-member",
            files: vec![File {
                name: "start.zip",
                bytes: damaged_zip,
            }],
            args: &[SMALL, "--start-list", "{dir}/start.zip"],
            expected: &["start.zip: not a readable zip archive: the archived file is damaged"],
            row_level: false,
        },
        Case {
            name: "zip-bzip2-member",
            files: vec![File {
                name: "start.zip",
                bytes: bzip2_zip,
            }],
            args: &[SMALL, "--start-list", "{dir}/start.zip"],
            expected: &["start.zip: a zip archive whose file start.csv is compressed by method 12", "elosim reads stored and deflated members"],
            row_level: false,
        },
        Case {
            name: "zip-encrypted",
            files: vec![File {
                name: "start.zip",
                bytes: encrypted_zip,
            }],
            args: &[SMALL, "--start-list", "{dir}/start.zip"],
            expected: &["start.zip: an encrypted zip archive (start.csv is encrypted)"],
            row_level: false,
        },
        Case {
            name: "zip-row",
            files: vec![File {
                name: "start.zip",
                bytes: crate::common::zip_of(&[("start.csv", b"id,rating\n101,2100\n102,strong\n")], true),
            }],
            args: &[SMALL, "--start-list", "{dir}/start.zip"],
            expected: &["start.zip, line 3, column rating"],
            row_level: true,
        },
        // Tournament reports (TRF).
        Case {
            name: "trf-truncated-player",
            files: vec![trf(&|l| l[6].truncate(66))],
            args: &[SMALL, "--games", "{dir}/games.trf"],
            expected: &["games.trf, line 7, column 1–84", "a player line cut short: it ends at column 66"],
            row_level: true,
        },
        Case {
            name: "trf-contradicted-pairing",
            files: vec![trf(&|l| l[7] = l[7].replacen("   3 b =", "   3 w =", 1))],
            args: &[SMALL, "--games", "{dir}/games.trf"],
            expected: &["games.trf, line 7, round 1, column 92–99 (round block)", "both lines give the same colour", "whose line (line 8) has w too"],
            row_level: true,
        },
        Case {
            name: "trf-round-beyond-declared",
            files: vec![trf(&|l| l.insert(4, "XXR 1".into()))],
            args: &[SMALL, "--games", "{dir}/games.trf"],
            expected: &["games.trf, line 6, round 2, column 102–109 (round)", "a round beyond the rounds the report declares (XXR or 142); got round 2 of 1"],
            row_level: true,
        },
        Case {
            name: "trf-impossible-date",
            files: vec![trf(&|l| l[2] = "052 2019/02/30".into())],
            args: &[SMALL, "--games", "{dir}/games.trf"],
            expected: &["games.trf, line 3, column 5– (date)", "an impossible date: \"2019/02/30\""],
            row_level: true,
        },
        Case {
            name: "trf-rating-not-a-number",
            files: vec![trf(&|l| l[5] = l[5].replace("2000", "2O00"))],
            args: &[SMALL, "--games", "{dir}/games.trf"],
            expected: &["games.trf, line 6, column 49–52 (rating)", "expected the player's FIDE rating (a number, or blank or 0 for none), got \"2O00\""],
            row_level: true,
        },
        // Scenario TOML.
        Case {
            name: "scenario-syntax",
            files: vec![text("s.toml", "name = \"x\"\n[calendar\n")],
            args: &["{dir}/s.toml"],
            expected: &["s.toml", "line 2"],
            row_level: false,
        },
        Case {
            name: "scenario-unknown-key",
            files: vec![text(
                "s.toml",
                "extends = \"{root}/scenarios/fide-historical.toml\"\n[run]\nfrom = \"2019-03\"\nuntill = \"2019-04\"\n",
            )],
            args: &["{dir}/s.toml", "--games", "tests/fixtures/games-2019.csv"],
            expected: &["s.toml", "untill"],
            row_level: false,
        },
        Case {
            name: "scenario-bad-month",
            files: vec![text(
                "s.toml",
                "extends = \"{root}/scenarios/fide-historical.toml\"\n[run]\nfrom = \"2019-3\"\n",
            )],
            args: &["{dir}/s.toml", "--games", "tests/fixtures/games-2019.csv"],
            expected: &["s.toml", "run.from", "2019-3"],
            row_level: false,
        },
        Case {
            name: "scenario-system-setting",
            files: vec![text(
                "s.toml",
                "extends = \"{root}/scenarios/elo-k20.toml\"\n[elo]\nk = -1\n",
            )],
            args: &["{dir}/s.toml"],
            expected: &["s.toml", "elo.k"],
            row_level: false,
        },
        // A line longer than any reader takes (1 MiB), refused at its line as it is read, before
        // the rest of the file is held: a zip of a 1 GiB line must not cost 16 GB.
        Case {
            name: "long-line-games-csv",
            files: vec![text("games.csv", &games_with(&long_line()))],
            args: &[SMALL, "--games", "{dir}/games.csv"],
            expected: &["games.csv, line 4: a line longer than 1 MiB;", "is this the file you meant?"],
            row_level: false,
        },
        Case {
            name: "long-line-zipped-list",
            files: vec![File {
                name: "start.zip",
                bytes: crate::common::zip_of(&[("start.csv", format!("id,rating\n101,2100\n{}\n", long_line()).as_bytes())], true),
            }],
            args: &[SMALL, "--start-list", "{dir}/start.zip"],
            expected: &["start.zip, line 3: a line longer than 1 MiB;"],
            row_level: false,
        },
        Case {
            name: "long-line-fide-list",
            files: vec![text("standard_feb19frl.txt", &format!("{fide_header}{fide_row}{}\n", long_line()))],
            args: &[SMALL, "--start-list", "{dir}/standard_feb19frl.txt"],
            expected: &["standard_feb19frl.txt, line 3: a line longer than 1 MiB;"],
            row_level: false,
        },
        Case {
            name: "long-line-trf",
            files: vec![trf(&|lines| lines.insert(1, format!("012 {}", long_line())))],
            args: &[SMALL, "--games", "{dir}/games.trf"],
            expected: &["games.trf, line 2: a line longer than 1 MiB;"],
            row_level: false,
        },
        Case {
            name: "long-text-fide-xml",
            files: vec![text(
                "2019-02.xml",
                &xml_list(&[("1701991", "2300")]).replace("<rating>2300", &format!("<rating>2300{}", long_line())),
            )],
            args: &[SMALL, "--start-list", "{dir}/2019-02.xml"],
            expected: &["2019-02.xml, line 6: more than 1 MiB without a tag's end ('>')"],
            row_level: false,
        },
    ]
}

/// A line of 2 MiB: twice the longest a reader takes.
fn long_line() -> String {
    "9".repeat(2 << 20)
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn replay(dir: &Path, args: &[&str], extra: &[&str]) -> std::process::Output {
    let fill = |a: &str| {
        a.replace("{dir}", &dir.display().to_string())
            .replace("{root}", &root().display().to_string())
    };
    let mut all = vec!["replay".to_string(), "--quiet".into()];
    all.extend(args.iter().map(|a| fill(a)));
    all.extend(extra.iter().map(|a| fill(a)));
    Command::new(env!("CARGO_BIN_EXE_elosim"))
        .args(&all)
        .current_dir(root())
        .output()
        .expect("the elosim binary runs")
}

#[test]
fn every_reader_rejects_what_it_cannot_read_and_counts_what_it_skips() {
    let cases = cases();
    assert!(cases.len() >= 25, "the suite holds {} cases", cases.len());
    let base = crate::common::scratch("bad-input");
    let mut failures = Vec::new();
    for case in &cases {
        let dir = base.join(case.name);
        std::fs::create_dir_all(&dir).unwrap();
        for file in &case.files {
            let bytes = String::from_utf8(file.bytes.clone())
                .map(|t| {
                    t.replace("{root}", &root().display().to_string())
                        .into_bytes()
                })
                .unwrap_or_else(|_| file.bytes.clone());
            std::fs::write(dir.join(file.name), bytes).unwrap();
        }
        let run = dir.join("run");
        let out = ["--out", "{dir}/run"];
        let result = replay(&dir, case.args, &out);
        let stderr = String::from_utf8_lossy(&result.stderr).into_owned();
        let mut problems = Vec::new();
        if result.status.success() {
            problems.push("succeeded".to_string());
        }
        for e in case.expected {
            if !stderr.contains(e) {
                problems.push(format!("{e:?} not in the message"));
            }
        }
        if stderr.contains("panicked") {
            problems.push("panicked".into());
        }
        if stderr.chars().any(|c| c.is_control() && c != '\n') {
            problems.push("control characters in the message".into());
        }
        if run.exists() {
            problems.push("left a run directory".into());
        }
        if case.row_level && !stderr.contains("--skip-invalid") {
            problems.push("the message does not offer --skip-invalid".into());
        }
        if case.row_level {
            let skipped = replay(&dir, case.args, &[&out[..], &["--skip-invalid"]].concat());
            let summary = std::fs::read_to_string(run.join("summary.json")).unwrap_or_default();
            let summary: serde_json::Value =
                serde_json::from_str(&summary).unwrap_or(serde_json::Value::Null);
            let counted: u64 = summary["games"]["skipped_invalid"]
                .as_array()
                .map_or(0, |a| a.iter().filter_map(|s| s["rows"].as_u64()).sum());
            if !skipped.status.success() || counted == 0 {
                problems.push(format!(
                    "with --skip-invalid: exit {:?}, {counted} rows counted; {}",
                    skipped.status.code(),
                    String::from_utf8_lossy(&skipped.stderr)
                ));
            }
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{}: {}\n  message: {stderr}",
                case.name,
                problems.join("; ")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The cells of a CSV fixture, column by column.
fn fixture_columns(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(crate::common::fixture(name)).unwrap();
    let rows: Vec<Vec<String>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].clone()).collect())
        .collect()
}

fn floats(cells: &[String]) -> Vec<f64> {
    cells.iter().map(|c| c.parse().unwrap()).collect()
}

/// Ids stored as floats (as a dataframe library stores a column of integers with a missing value)
/// are the whole numbers they hold: the 2019 fixtures as Parquet, every id a float, replay into
/// the same lists as the CSV files, where "101.0" would have matched no "101".
#[test]
fn whole_float_ids_in_parquet_are_the_integers_they_hold() {
    let dir = crate::common::scratch("float-ids");
    let g = fixture_columns("games-2019.csv");
    let s = fixture_columns("start-2019.csv");
    let games = parquet_of(
        "games.parquet",
        df!(
            "period" => &g[0], "event" => &g[1], "event_start" => &g[2],
            "white" => floats(&g[3]), "black" => floats(&g[4]), "score" => &g[5],
        )
        .unwrap(),
    );
    let start = parquet_of(
        "start.parquet",
        df!(
            "id" => floats(&s[0]), "rating" => floats(&s[1]), "k" => &s[2],
            "games" => &s[3], "birth_year" => &s[4],
        )
        .unwrap(),
    );
    for file in [&games, &start] {
        std::fs::write(dir.join(file.name), &file.bytes).unwrap();
    }
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let args = [&[SMALL, "--csv", "--out", out.to_str().unwrap()], extra].concat();
        let r = replay(&dir, &args, &[]);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        std::fs::read_to_string(out.join("lists/2019-04.csv")).unwrap()
    };
    let csv = run("csv", &[]);
    let games = dir.join("games.parquet").display().to_string();
    let start = dir.join("start.parquet").display().to_string();
    let floats = run("floats", &["--games", &games, "--start-list", &start]);
    assert_eq!(csv, floats);
    assert!(floats.lines().any(|l| l.starts_with("101,")), "{floats}");
}

fn ingest(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_elosim"))
        .arg("ingest")
        .args(args)
        .current_dir(root())
        .output()
        .expect("the elosim binary runs")
}

/// `ingest` writes .parquet or .csv: any other name is refused before anything is written (an
/// out.xlsx holding Parquet opens nowhere). Games it skips are counted by what was wrong, a year
/// alone apart from a missing date.
#[test]
fn ingest_refuses_other_outputs_and_counts_skips_by_kind() {
    let dir = crate::common::scratch("ingest-out");
    let games = crate::common::write(
        &dir,
        "games.pgn",
        "[Event \"X\"]\n[Date \"2019.02.10\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
         [Event \"X\"]\n[Date \"2019.??.??\"]\n[White \"a\"]\n[Black \"c\"]\n[Result \"0-1\"]\n\n1. e4 0-1\n\n\
         [Event \"X\"]\n[Date \"????.??.??\"]\n[White \"b\"]\n[Black \"c\"]\n[Result \"0-1\"]\n\n1. e4 0-1\n",
    );
    for out in ["out.xlsx", "out"] {
        let path = dir.join(out);
        let r = ingest(&[&games, "--out", path.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success(), "{out}: written");
        assert!(
            stderr.contains(&format!(
                "--out {}: ingest writes canonical games as .parquet or .csv",
                path.display()
            )),
            "{stderr}"
        );
        assert!(!path.exists(), "{out}");
    }
    let out = dir.join("out.csv");
    let r = ingest(&[&games, "--out", out.to_str().unwrap(), "--skip-invalid"]);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "{stderr}");
    assert!(stderr.contains("1 game (pgn), 2 players"), "{stderr}");
    assert!(
        stderr.contains(
            "1 invalid game left out: Date: known by its year only, and a replay needs the month"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 invalid game left out: Date: expected YYYY.MM.DD with at least the year and month known"),
        "{stderr}"
    );
}

/// An entry of a partitioned dataset that cannot be followed is named as what it is, not as a
/// misnamed partition.
#[cfg(unix)]
#[test]
fn symlink_loops_in_a_dataset_are_named_as_such() {
    let dir = crate::common::scratch("dataset-loop");
    let data = crate::common::games_2019_dataset(&dir);
    std::os::unix::fs::symlink("period=2019-05", data.join("period=2019-05")).unwrap();
    let data = data.display().to_string();
    crate::common::fails(
        "dataset-loop-run",
        &[SMALL, "--games", &data],
        &["period=2019-05: a symbolic link that cannot be followed: it loops, or leads nowhere"],
    );
}
