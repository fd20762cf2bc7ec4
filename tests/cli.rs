//! The command line on small fixtures and on the shipped real data: bad input, determinism,
//! hand-computed periods, and the real files of `data/`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn elosim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_elosim"))
        .args(args)
        .output()
        .expect("the elosim binary runs")
}

/// Runs elosim expecting success; returns its standard output.
fn succeeds(args: &[&str]) -> String {
    let r = elosim(args);
    assert!(
        r.status.success(),
        "elosim {}: {}",
        args.join(" "),
        text(&r.stderr)
    );
    text(&r.stdout)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch directory per test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("elosim-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, contents: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn history() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/fide-historical.toml")
        .display()
        .to_string()
}

/// Runs a replay expected to fail: non-zero exit, every `expected` fragment in the message, no
/// output directory left behind.
fn fails(name: &str, args: &[&str], expected: &[&str]) {
    let dir = scratch(name);
    let out = dir.join("run");
    let mut all = vec!["replay", "--quiet", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let result = elosim(&all);
    let stderr = text(&result.stderr);
    assert!(
        !result.status.success(),
        "{name}: expected a failure, got success"
    );
    for e in expected {
        assert!(stderr.contains(e), "{name}: {e:?} not in:\n{stderr}");
    }
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    assert!(!out.exists(), "{name}: a failed run left {}", out.display());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name() != "games.csv"
                && !e.file_name().to_string_lossy().ends_with(".toml")
                && !e.file_name().to_string_lossy().ends_with(".csv")
        })
        .collect();
    assert!(leftovers.is_empty(), "{name}: left {leftovers:?}");
}

/// A scenario over the small 2019 world with the given extra TOML.
fn scenario_with(dir: &Path, extra: &str) -> String {
    write(
        dir,
        "s.toml",
        &format!(
            "extends = {:?}\n[run]\nfrom = \"2019-03\"\n{extra}",
            history()
        ),
    )
}

#[test]
fn bad_games_files_are_rejected_with_file_line_column_and_expectation() {
    let dir = scratch("bad-games");
    let scenario = scenario_with(&dir, "");
    let header = "period,white,black,score\n";
    let cases: &[(&str, String, &[&str])] = &[
        (
            "misspelled-column",
            "period,whte,black,score\n2019-03,1,2,1\n".into(),
            &[
                "missing column `white`",
                "is `whte` a misspelling?",
                "period, whte, black, score",
            ],
        ),
        (
            "missing-column",
            "period,white,black\n2019-03,1,2\n".into(),
            &["missing column `score`"],
        ),
        (
            "no-period-or-date",
            "white,black,score\n1,2,1\n".into(),
            &["missing column `period` or `date`"],
        ),
        (
            "bad-score",
            format!("{header}2019-03,1,2,1\n2019-03,1,3,1-1\n"),
            &[
                "line 3, column score",
                "expected White's score",
                "got \"1-1\"",
            ],
        ),
        (
            "score-out-of-range",
            format!("{header}2019-03,1,2,2\n"),
            &["line 2, column score", "got \"2\""],
        ),
        (
            "negative-score",
            format!("{header}2019-03,1,2,-1\n"),
            &["line 2, column score", "got \"-1\""],
        ),
        (
            "bad-month",
            format!("{header}2019-13,1,2,1\n"),
            &[
                "line 2, column period",
                "expected a month YYYY-MM, got \"2019-13\"",
            ],
        ),
        (
            "plays-himself",
            format!("{header}2019-03,7,7,1\n"),
            &["line 2, column black", "player 7 cannot play himself"],
        ),
        (
            "empty-file",
            String::new(),
            &["is empty: expected a header line"],
        ),
        ("header-only-blank", "\n\n".into(), &["is empty"]),
        (
            "ragged-row",
            format!("{header}2019-03,1,2\n"),
            &["line 2: 3 fields where the header has 4"],
        ),
        (
            "outside-calendar",
            format!("{header}2019-03,1,2,1\n2031-05,1,2,0\n"),
            &[
                "line 3, column period",
                "2031-05 is outside the scenario's calendar",
            ],
        ),
        (
            "before-calendar",
            format!("{header}1999-05,1,2,0\n"),
            &[
                "line 2, column period",
                "1999-05 is outside the scenario's calendar",
            ],
        ),
        (
            "starts-after-its-list",
            "period,event_start,white,black,score\n2019-03,2019-03-15,1,2,1\n".into(),
            &[
                "line 2, column event_start",
                "not before the list it is rated on (2019-03)",
            ],
        ),
        (
            "unclosed-quote",
            format!("{header}2019-03,\"1,2,1\n"),
            &["line 2: a quoted field is never closed"],
        ),
    ];
    for (name, contents, expected) in cases {
        let games = write(&dir, &format!("{name}.csv"), contents);
        fails(name, &[&scenario, "--games", &games], expected);
    }
}

#[test]
fn bad_scenarios_report_every_problem_with_its_key_path() {
    let dir = scratch("bad-scenarios");
    let games = fixture("games-2019.csv");
    let cases: &[(&str, &str, &[&str])] = &[
        ("unknown-key", "[[revision]]\nfrom = \"2019-01\"\nk.nwe = 3\n", &["revision[1] (from 2019-01).k.nwe: unknown key `k.nwe`"]),
        ("unknown-top-key", "colour = \"blue\"\n", &["colour: unknown key"]),
        ("out-of-order", "[[revision]]\nfrom = \"2019-01\"\nfloor = 1000\n[[revision]]\nfrom = \"2018-01\"\nfloor = 1000\n", &["revision[2] (from 2018-01): revisions must be in date order"]),
        ("event-outside", "[[event]]\nkind = \"compression\"\nlist = \"2031-01\"\n", &["event[1]: list 2031-01 is outside the scenario's months"]),
        ("event-off-list", "[[event]]\nkind = \"fresh-start\"\nlist = \"2010-02\"\n", &["event[1]: 2010-02 has no list"]),
        ("negative-k", "[[revision]]\nfrom = \"2019-01\"\nk.new = -40\n", &["k.new: expected a whole number from 0 to 255, got -40"]),
        ("negative-floor", "[[revision]]\nfrom = \"2019-01\"\nfloor = -1000\n", &["floor: expected a whole number from 0 to 4000, got -1000"]),
        ("two-problems", "[[revision]]\nfrom = \"2019-01\"\nk.new = -1\nlists = \"weekly\"\n", &["2 problems in the scenario", "k.new", "lists: expected one of \"monthly\", \"bimonthly\", \"quarterly\", got \"weekly\""]),
    ];
    for (name, extra, expected) in cases {
        let scenario = write(
            &dir,
            &format!("{name}.toml"),
            &format!("extends = {:?}\n{extra}", history()),
        );
        fails(
            name,
            &[&scenario, "--games", &games, "--from", "2019-03"],
            expected,
        );
        let check = elosim(&["check", &scenario]);
        assert!(!check.status.success(), "check {name}");
        assert!(
            text(&check.stderr).contains(expected[0]),
            "check {name}: {}",
            text(&check.stderr)
        );
    }
    let syntax = write(&dir, "syntax.toml", "name = \"unterminated\n");
    fails(
        "syntax",
        &[&syntax, "--games", &games],
        &["syntax.toml is not valid TOML"],
    );
    fails(
        "missing-scenario",
        &["no-such.toml"],
        &["cannot read scenario no-such.toml"],
    );
    fails(
        "bad-window",
        &[&history(), "--games", &games, "--from", "2030-01"],
        &["--from/--to", "after the scenario's last month"],
    );
}

#[test]
fn decoys_are_errors_unless_skipped_and_then_counted() {
    let dir = scratch("decoys");
    let games = write(&dir, "contest.csv", "TEID,MonthID,WhitePlayer,BlackPlayer,WhiteScore,Leaderboard\n1,133,1,2,0.5,Private\n2,133,3,4,-1,Spurious\n3,134,1,3,1,Public\n4,135,2,4,-1,Spurious\n");
    let scenario = write(&dir, "s.toml", &format!("extends = {:?}\n[data]\nformat = \"contest2011\"\nmonth-1 = \"2000-01\"\n[run]\nfrom = \"2011-01\"\n", history()));
    fails(
        "decoy",
        &[&scenario, "--games", &games],
        &["contest.csv, line 3, column WhiteScore", "got \"-1\""],
    );
    let out = dir.join("run");
    let ok = elosim(&[
        "replay",
        &scenario,
        "--games",
        &games,
        "--skip-invalid",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    let stdout = text(&ok.stdout);
    assert!(
        stdout.contains("2 invalid rows (--skip-invalid)"),
        "{stdout}"
    );
    assert!(stdout.contains("2 × WhiteScore"), "{stdout}");
    let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(summary.contains("\"rows\": 2"), "{summary}");
    let kaggle = write(
        &dir,
        "kaggle.csv",
        "\"Month #\",\"White Player #\",\"Black Player #\",\"Score\"\n1,1,2,1\n",
    );
    fails(
        "kaggle-without-month-1",
        &[&history(), "--games", &kaggle],
        &[
            "kaggle.csv: this is a kaggle2010 games file",
            "set data.month-1",
        ],
    );
}

#[test]
fn bad_starting_lists_are_rejected() {
    let dir = scratch("bad-lists");
    let scenario = fixture("scenario-2019.toml");
    let duplicate = write(&dir, "dup.csv", "id,rating\n101,2100\n102,2000\n101,2050\n");
    fails(
        "duplicate-player",
        &[&scenario, "--start-list", &duplicate],
        &["dup.csv, line 4 (first listed on line 2), column id: a player listed twice"],
    );
    let bad_rating = write(&dir, "rating.csv", "id,rating\n101,twenty\n");
    fails(
        "bad-rating",
        &[&scenario, "--start-list", &bad_rating],
        &["rating.csv, line 2, column rating", "got \"twenty\""],
    );
    let fide = write(&dir, "list.txt", "ID_NUMBER NAME                         TITLE COUNTRY APR04 GAMES BIRTHDAY   FLAG\n 1701991  Aaberg, Anton                         SWE  2383    0  17.01.72\n 1407589  Aabling-Thomsen, Jakob                DEN  21x8    0  26.06.85\n");
    fails(
        "fide-list-row",
        &[&scenario, "--start-list", &fide],
        &[
            "list.txt, line 3, column rating",
            "expected a rating (a number) before the games count, got \"21x8\"",
        ],
    );
    let tabbed = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fide-lists/2006-01.TXT");
    fails(
        "placeholder-rows",
        &[&scenario, "--start-list", tabbed.to_str().unwrap()],
        &[
            "2006-01.TXT, line 130, column rating",
            "expected a rating from 1000 to 4000, got \"0\"",
        ],
    );
}

/// Reads every file of a run, with `summary.json` stripped of its timing (and optionally of the
/// input checksums), for byte comparisons.
fn run_files(dir: &Path, drop_inputs: bool) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            let mut bytes = std::fs::read(&path).unwrap();
            if name == "summary.json" {
                let mut json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                json.as_object_mut().unwrap().remove("timing");
                if drop_inputs {
                    json.as_object_mut().unwrap().remove("inputs");
                }
                bytes = serde_json::to_vec(&json).unwrap();
            }
            if name == "scenario.resolved.toml" && drop_inputs {
                bytes = text(&bytes)
                    .lines()
                    .filter(|l| !l.starts_with("games =") && !l.starts_with("# Resolved"))
                    .collect::<Vec<_>>()
                    .join("\n")
                    .into_bytes();
            }
            files.push((name, bytes));
        }
    }
    files.sort();
    files
}

#[test]
fn outputs_are_identical_whatever_the_threads_and_the_row_order() {
    let dir = scratch("determinism");
    let scenario = fixture("scenario-2019.toml");
    let replay = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec![
            "replay",
            &scenario,
            "--quiet",
            "--csv",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let r = elosim(&args);
        assert!(r.status.success(), "{}", text(&r.stderr));
        out
    };
    let one = run_files(&replay("one", &["--threads", "1"]), false);
    let two = run_files(&replay("two", &["--threads", "2"]), false);
    assert!(
        one.len() >= 6,
        "{:?}",
        one.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    assert_eq!(one, two, "--threads 1 and --threads 2 differ");
    let eight = run_files(&replay("eight", &["--threads", "8"]), false);
    assert_eq!(one, eight, "--threads 1 and --threads 8 differ");
    let shuffled = fixture("games-2019-shuffled.csv");
    let a = run_files(&replay("ordered", &[]), true);
    let b = run_files(&replay("shuffled", &["--games", &shuffled]), true);
    assert_eq!(a, b, "shuffling rows and columns changed an output");

    let kaggle1 = run_files(&replay_kaggle(&dir, "k1", "1"), false);
    let kaggle2 = run_files(&replay_kaggle(&dir, "k2", "2"), false);
    assert_eq!(
        kaggle1, kaggle2,
        "the Kaggle replay differs between --threads 1 and 2"
    );
    let kaggle8 = run_files(&replay_kaggle(&dir, "k8", "8"), false);
    assert_eq!(
        kaggle1, kaggle8,
        "the Kaggle replay differs between --threads 1 and 8"
    );
}

fn replay_kaggle(dir: &Path, name: &str, threads: &str) -> PathBuf {
    let out = dir.join(name);
    succeeds(&[
        "replay",
        "scenarios/kaggle2010.toml",
        "--quiet",
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ]);
    out
}

/// The period of player 101 on the March 2019 list, computed by hand (reference §2, §3, §11.2):
/// vs 2000 won, D 100, PD .64: +.36 · vs 2200 drawn, D −100, PD .36: +.14 · vs 1650 won, D 450
/// capped at 400, PD .92: +.08 · vs 2100 lost, D 0: −.50 · Σ +.08 × K 20 = +1.60 → +2 → 2102.
#[test]
fn explain_prints_a_period_computed_by_hand() {
    let dir = scratch("explain");
    let out = dir.join("run");
    succeeds(&[
        "replay",
        &fixture("scenario-2019.toml"),
        "--quiet",
        "--csv",
        "--out",
        out.to_str().unwrap(),
    ]);
    let e = elosim(&[
        "explain",
        out.to_str().unwrap(),
        "--player",
        "101",
        "--period",
        "2019-03",
    ]);
    let shown = text(&e.stdout);
    assert!(e.status.success(), "{}", text(&e.stderr));
    for expected in [
        "Previous list 2019-02: rating 2100 · K 20",
        "Spring Open      2019-02-10         102      2000    100  0.64    1.0   20     +7.20",
        "Spring Open      2019-02-10         103      2200   -100  0.36    0.5   20     +2.80",
        "Spring Open      2019-02-10         104     1700*    400  0.92    1.0   20     +1.60",
        "Spring Open      2019-02-10         105      2100      0  0.50    0.0   20    -10.00",
        "4 rated games · Σ(score − PD) = +0.08 · Σ K × (score − PD) = +1.60 → +2 (rounded once for the period, 0.5 away from zero)",
        "New rating on 2019-03: 2102 (+2 from 2100)",
    ] {
        assert!(shown.contains(expected), "{expected:?} not in:\n{shown}");
    }
    // Player 201's first rating, by hand: 3/5 against the March ratings 1993, 2197, 1652, 2110,
    // 1792: Ra = 1948.8, one half point over 50 % → + 20 → 1968.8 → 1969 (reference §6.3).
    let first = text(
        &elosim(&[
            "explain",
            out.to_str().unwrap(),
            "--player",
            "201",
            "--period",
            "2019-04",
        ])
        .stdout,
    );
    assert!(first.contains("5 games, 3 points, Ra = 1948.8"), "{first}");
    assert!(first.contains("First rating on 2019-04: 1969"), "{first}");
    let list = std::fs::read_to_string(out.join("lists/2019-04.csv")).unwrap();
    assert!(
        list.lines().any(|l| l.starts_with("201,,,,,1969,5,40,")),
        "{list}"
    );
    // The whole run's lists, as reviewed by hand above, are the golden files.
    for month in ["2019-03", "2019-04"] {
        let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/golden/small-2019/{month}.csv"));
        assert_eq!(
            std::fs::read_to_string(out.join(format!("lists/{month}.csv"))).unwrap(),
            std::fs::read_to_string(golden).unwrap(),
            "{month}"
        );
    }
    let missing = elosim(&[
        "explain",
        out.to_str().unwrap(),
        "--player",
        "999",
        "--period",
        "2019-03",
    ]);
    assert!(
        !missing.status.success()
            && text(&missing.stderr).contains("player 999 is not on the 2019-03 list")
    );
    let not_a_run = elosim(&[
        "explain",
        dir.to_str().unwrap(),
        "--player",
        "101",
        "--period",
        "2019-03",
    ]);
    assert!(
        text(&not_a_run.stderr).contains("not an elosim run directory"),
        "{}",
        text(&not_a_run.stderr)
    );
}

#[test]
fn the_default_replay_writes_every_file() {
    let dir = scratch("default");
    let out = dir.join("run");
    let stdout = succeeds(&["replay", "--out", out.to_str().unwrap()]);
    assert!(
        stdout.contains(
            "Replayed kaggle2010 (scenarios/kaggle2010.toml): 100 lists, 2012-08 to 2020-11"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("65,053 read · 65,053 rated"), "{stdout}");
    for file in [
        "scenario.resolved.toml",
        "lists.parquet",
        "games.parquet",
        "summary.json",
    ] {
        assert!(out.join(file).is_file(), "{file}");
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["games"]["read"], 65053);
    assert_eq!(summary["lists"].as_array().unwrap().len(), 100);
    assert_eq!(summary["players"]["ids"], 7301);
    // The resolved scenario repeats the run alone.
    let again = dir.join("again");
    succeeds(&[
        "replay",
        out.join("scenario.resolved.toml").to_str().unwrap(),
        "--quiet",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(out.join("lists.parquet")).unwrap(),
        std::fs::read(again.join("lists.parquet")).unwrap()
    );
    // A second run replaces the first; a directory that is not a run is never replaced.
    let stranger = dir.join("stranger");
    std::fs::create_dir_all(&stranger).unwrap();
    std::fs::write(stranger.join("notes.txt"), "mine").unwrap();
    let r = elosim(&["replay", "--quiet", "--out", stranger.to_str().unwrap()]);
    assert!(
        text(&r.stderr).contains("is not an elosim run directory"),
        "{}",
        text(&r.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(stranger.join("notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn the_2011_contest_replays_with_its_decoys_skipped() {
    let dir = scratch("contest");
    let out = dir.join("run");
    let stdout = succeeds(&[
        "replay",
        "scenarios/contest2011.toml",
        "--skip-invalid",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(stdout.contains("88,457 read"), "{stdout}");
    assert!(
        stdout.contains("11,543 × WhiteScore: expected White's score"),
        "{stdout}"
    );
    assert!(
        stdout.contains("14,118 players on data/contest2011/initial_ratings.csv"),
        "{stdout}"
    );
}

#[test]
fn sonas_2017_resolves_and_replays() {
    let check = elosim(&["check", "scenarios/sonas-2017.toml"]);
    let shown = text(&check.stdout);
    assert!(check.status.success(), "{}", text(&check.stderr));
    assert!(
        shown.contains("Era 9: tournaments starting 2017-01 to 2017-06"),
        "{shown}"
    );
    assert!(
        shown.contains("2017-01  compression: ratings below 2000 rise by 0.40 × (2000 − R)"),
        "{shown}"
    );
    assert!(shown.contains("2017-01  fresh start"), "{shown}");
    assert!(!shown.contains("2024-03  compression"), "{shown}");
    let dir = scratch("sonas");
    succeeds(&[
        "replay",
        "scenarios/kaggle2010-sonas-2017.toml",
        "--quiet",
        "--out",
        dir.join("run").to_str().unwrap(),
    ]);
    let resolved = std::fs::read_to_string(dir.join("run/scenario.resolved.toml")).unwrap();
    assert!(
        resolved.contains("kind = \"fresh-start\"\nlist = \"2017-01\""),
        "{resolved}"
    );
}

#[test]
fn real_fide_list_files_serve_as_starting_lists() {
    let dir = scratch("fide-lists");
    let games = write(
        &dir,
        "games.csv",
        "period,white,black,score\n2001-04,1701991,1401815,1\n",
    );
    let list = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/fide-lists")
            .join(name)
            .display()
            .to_string()
    };
    // FIDE's own lists hold a few ids twice (APR03: 13, OCT03: 4, Jan 2007: 13 by a separate
    // count of the files): --skip-invalid keeps each player's first entry and says how many.
    let cases = [
        (
            "JAN01FRL.TXT",
            "2001-04",
            &[
                "36,978 players",
                "FIDE list, fixed width (2000–2004 layout) of 2001-01",
            ][..],
        ),
        (
            "APR03FRL.TXT",
            "2003-07",
            &[
                "45,650 players",
                "of 2003-04",
                "13 × id: a player listed twice",
            ][..],
        ),
        (
            "OCT03FRL.TXT",
            "2004-01",
            &[
                "49,260 players",
                "of 2003-10",
                "4 × id: a player listed twice",
            ][..],
        ),
        (
            "2007-01.TXT",
            "2007-04",
            &[
                "77,043 players",
                "tab separated (2001–2008 layout) of 2007-01",
                "13 × id: a player listed twice",
            ][..],
        ),
        (
            "rapid_sep12frl.txt",
            "2012-10",
            &[
                "5,906 players",
                "monthly layout with Gms, K, B-day) of 2012-09",
            ][..],
        ),
    ];
    for (file, from, expected) in cases {
        let games = write(
            &dir,
            "g.csv",
            &format!("period,white,black,score\n{from},1701991,1401815,1\n"),
        );
        let out = dir.join(file);
        let r = elosim(&[
            "replay",
            &history(),
            "--games",
            &games,
            "--start-list",
            &list(file),
            "--from",
            from,
            "--to",
            from,
            "--skip-invalid",
            "--out",
            out.to_str().unwrap(),
        ]);
        let stdout = text(&r.stdout);
        assert!(r.status.success(), "{file}: {}", text(&r.stderr));
        for e in expected {
            assert!(stdout.contains(e), "{file}: {e:?} not in {stdout}");
        }
    }
    let dup = elosim(&[
        "replay",
        &history(),
        "--games",
        &games,
        "--start-list",
        &list("APR03FRL.TXT"),
        "--from",
        "2003-07",
        "--out",
        dir.join("x").to_str().unwrap(),
    ]);
    assert!(text(&dup.stderr).contains("APR03FRL.TXT, line 10566 (first listed on line 10565), column id: a player listed twice"), "{}", text(&dup.stderr));
    let out = dir.join("placeholders");
    let games = write(
        &dir,
        "g.csv",
        "period,white,black,score\n2006-04,1701991,1401815,1\n",
    );
    let r = elosim(&[
        "replay",
        &history(),
        "--games",
        &games,
        "--start-list",
        &list("2006-01.TXT"),
        "--from",
        "2006-04",
        "--skip-invalid",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = text(&r.stdout);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(
        stdout.contains("87 × rating: expected a rating from 1000 to 4000 (first: "),
        "{stdout}"
    );
}

/// Games read from Parquet: a run's own `games.parquet` holds the canonical columns (period, event,
/// event_start, white, black, score), so replaying it must give the same lists. A players file's
/// birth years feed the junior K rule.
#[test]
fn parquet_games_and_players_files_are_read() {
    let dir = scratch("parquet");
    let scenario = fixture("scenario-2019.toml");
    let first = dir.join("first");
    succeeds(&[
        "replay",
        &scenario,
        "--quiet",
        "--csv",
        "--out",
        first.to_str().unwrap(),
    ]);
    let again = dir.join("again");
    let games = first.join("games.parquet");
    succeeds(&[
        "replay",
        &scenario,
        "--quiet",
        "--csv",
        "--games",
        games.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    for month in ["2019-03", "2019-04"] {
        let list =
            |run: &Path| std::fs::read_to_string(run.join(format!("lists/{month}.csv"))).unwrap();
        assert_eq!(list(&first), list(&again), "{month}");
    }
    let not_parquet = write(&dir, "broken.parquet", "period,white,black,score\n");
    fails(
        "not-parquet",
        &[&scenario, "--games", &not_parquet],
        &["broken.parquet: not a readable Parquet file"],
    );

    // Player 102 (1993 after March, never 2300+) born in 2005 is a junior in 2019: K 40, not 20.
    let players = write(
        &dir,
        "players.csv",
        "id,name,birth_year,federation\n102,\"Junior, Jan\",2005,NED\n999,Nobody,1970,ENG\n",
    );
    let junior = dir.join("junior");
    succeeds(&[
        "replay",
        &scenario,
        "--quiet",
        "--csv",
        "--players",
        &players,
        "--out",
        junior.to_str().unwrap(),
    ]);
    let list = std::fs::read_to_string(junior.join("lists/2019-03.csv")).unwrap();
    assert!(
        list.lines()
            .any(|l| l == "102,\"Junior, Jan\",NED,,,1993,1,40,2005,,101,false,-7"),
        "{list}"
    );
    let plain = std::fs::read_to_string(first.join("lists/2019-03.csv")).unwrap();
    assert!(
        plain
            .lines()
            .any(|l| l.starts_with("102,,,,,1993,1,20,1975,")),
        "{plain}"
    );
}

/// The hand-computed crosstable of `report::crosstable`'s unit tests, through the command line
/// from a CSV games file with recorded ratings (FIDE table: PD(100) .64, PD(150) .70, PD(200) .76,
/// PD(400) .92 for D 450 under the 400-point rule).
#[test]
fn crosstable_from_a_rated_games_file_gives_the_hand_computed_cells() {
    let base = [
        "crosstable",
        &fixture("rated-games.csv"),
        "--lowest",
        "1200",
        "--top",
        "1500",
        "--min-games",
        "2",
        "--from",
        "2010",
        "--to",
        "2010",
    ];
    let csv = succeeds(&[&base[..], &["--format", "csv"]].concat());
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "row_group,col_group,games,score,expected,diff,ci_low,ci_high,few_games"
    );
    assert_eq!(
        lines[1],
        "1200,1300,2,0.750000,0.360000,39.0000,-10.00,88.00,false"
    );
    assert!(csv.contains("\n1500,1400,1,0.500000,0.920000,-42.0000,,,true\n"));
    assert!(csv.contains("\n1300,all,4,0.125000,0.455000,-33.0000,-54.26,-11.74,false\n"));
    let text = succeeds(&base);
    assert!(
        text.contains(" +39.0% in 2 games  1200-99         ×     +39%      =0%    =0%"),
        "{text}"
    );
    assert!(
        text.contains("Left out: 1 outside 2010-01 to 2010-12; 1 with a player rated below 1200"),
        "{text}"
    );
    assert!(text.contains("1 without both players' ratings"), "{text}");
    let json = succeeds(&[&base[..], &["--format", "json"]].concat());
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["counts"]["used"], 6);
    assert_eq!(value["cells"][0]["diff"], 39.0);
}

#[test]
fn pgn_files_feed_reports_and_convert_to_canonical_games() {
    let dir = scratch("pgn");
    let pgn = fixture("tricky.pgn");
    let out = dir.join("games.csv");
    let r = elosim(&["ingest", &pgn, "--out", out.to_str().unwrap()]);
    assert!(!r.status.success());
    let stderr = text(&r.stderr);
    assert!(
        stderr.contains("tricky.pgn, line 38, column Date"),
        "{stderr}"
    );
    assert!(!out.exists());
    let r = elosim(&[
        "ingest",
        &pgn,
        "--out",
        out.to_str().unwrap(),
        "--skip-invalid",
    ]);
    let stderr = text(&r.stderr);
    assert!(r.status.success(), "{stderr}");
    assert!(stderr.contains("4 games in the file · 1 unfinished (*) left out · 1 without both ratings · 1 malformed tag lines and 1 unclosed comments ignored"), "{stderr}");
    let csv = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        csv,
        "date,event,event_start,white,black,score,white_rating,black_rating\n\
         2019-03-02,Test Open,,100001,\"Beta, B\",0.5,2310,2150\n\
         2019-03-04,Test Open,,\"Beta, B\",\"Gamma, C\",1,,2150\n"
    );
    // Reports keep the game known by its year only, in its January.
    let r = elosim(&[
        "crosstable",
        &pgn,
        "--lowest",
        "2000",
        "--min-games",
        "1",
        "--format",
        "csv",
    ]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let csv = text(&r.stdout);
    assert!(
        csv.contains("2300,2100,1,0.500000,0.710000,-21.0000,,,false"),
        "{csv}"
    );
    assert!(
        csv.contains("2100,2400,1,1.000000,0.190000,81.0000,,,false"),
        "{csv}"
    );
    assert!(text(&r.stderr).contains("1 dated by year only"));
    // The same file gzip-compressed gives the same table.
    let gz = dir.join("tricky.pgn.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    std::io::Write::write_all(&mut encoder, &std::fs::read(&pgn).unwrap()).unwrap();
    encoder.finish().unwrap();
    let from_gz = succeeds(&[
        "crosstable",
        gz.to_str().unwrap(),
        "--lowest",
        "2000",
        "--min-games",
        "1",
        "--format",
        "csv",
    ]);
    assert_eq!(from_gz, csv);
}

#[test]
fn curves_histograms_and_plots_are_written() {
    let dir = scratch("pictures");
    let rated = fixture("rated-games.csv");
    let svg = dir.join("curve.svg");
    let table = succeeds(&[
        "curve",
        &rated,
        "--width",
        "100",
        "--min-games",
        "1",
        "--eras",
        "2010,2011",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(table.contains("advantage  2010: score"), "{table}");
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg_text.starts_with("<svg")
            && svg_text.contains("the favourite&apos;s rating advantage (rating points)")
    );
    let png = dir.join("table.png");
    succeeds(&[
        "crosstable",
        &rated,
        "--lowest",
        "1200",
        "--top",
        "1500",
        "--plot",
        png.to_str().unwrap(),
    ]);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let lists = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/fide-lists")
            .join(name)
            .display()
            .to_string()
    };
    let csv = succeeds(&[
        "histogram",
        &lists("2006-01.TXT"),
        &lists("2007-01.TXT"),
        "--width",
        "100",
        "--format",
        "csv",
        "--skip-invalid",
    ]);
    assert!(
        csv.starts_with("month,bin_low,bin_high,players\n2006-01,"),
        "{csv}"
    );
    assert!(csv.contains("\n2007-01,2700,2800,"), "{csv}");
}

#[test]
fn the_html_report_is_self_contained() {
    let dir = scratch("report");
    let run = dir.join("run");
    succeeds(&[
        "replay",
        &fixture("scenario-2019.toml"),
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    let html_path = dir.join("report.html");
    succeeds(&[
        "report",
        run.to_str().unwrap(),
        "--vs",
        run.to_str().unwrap(),
        "--min-games",
        "1",
        "--out",
        html_path.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        html.contains("<svg")
            && html.contains("Summary crosstables")
            && html.contains("Monthly summary")
    );
    for external in ["<script", "<link", "src=", "@import", "url("] {
        assert!(!html.contains(external), "{external} in the report");
    }
    let histogram = succeeds(&[
        "histogram",
        run.to_str().unwrap(),
        "--months",
        "2019-03,2019-04",
    ]);
    assert!(histogram.contains("2019-03  2019-04"), "{histogram}");
}

#[test]
fn report_commands_reject_bad_input_clearly() {
    let dir = scratch("report-bad");
    let rated = fixture("rated-games.csv");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["crosstable".into(), fixture("games-2019.csv")],
            "carry no ratings",
        ),
        (
            vec![
                "crosstable".into(),
                rated.clone(),
                "--from".into(),
                "1990".into(),
                "--to".into(),
                "1991".into(),
            ],
            "no games to tabulate in 1990-01 to 1991-12",
        ),
        (
            vec![
                "crosstable".into(),
                rated.clone(),
                "--width".into(),
                "0".into(),
            ],
            "--width must be at least 1",
        ),
        (
            vec![
                "curve".into(),
                rated.clone(),
                "--eras".into(),
                "2008-2012,2012-2016".into(),
            ],
            "overlap",
        ),
        (
            vec!["curve".into(), rated.clone(), "--width".into(), "0".into()],
            "--width must be at least 1",
        ),
        (
            vec![
                "crosstable".into(),
                rated.clone(),
                "--out".into(),
                "/nonexistent/dir/t.csv".into(),
            ],
            "cannot write /nonexistent/dir/t.csv",
        ),
        (
            vec![
                "crosstable".into(),
                rated.clone(),
                "--lowest".into(),
                "1200".into(),
                "--plot".into(),
                dir.join("t.gif").display().to_string(),
            ],
            "name the file .svg or .png",
        ),
        (vec!["histogram".into(), rated.clone()], "missing column"),
        (
            vec!["report".into(), dir.display().to_string()],
            "not an elosim run directory",
        ),
    ];
    for (args, expected) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = elosim(&args);
        let stderr = text(&r.stderr);
        assert!(!r.status.success(), "{args:?} succeeded");
        assert!(
            stderr.contains(expected),
            "{args:?}: {expected:?} not in {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .collect();
    assert!(left.is_empty(), "left {left:?}");
}

/// A small generated world: four tables, its world file and summary, the same bytes for the same
/// seed whatever the threads, and a replay of it under FIDE's history.
#[test]
fn a_generated_world_is_repeatable_and_replays() {
    let dir = scratch("generate");
    let (a, b) = (dir.join("a"), dir.join("b"));
    for (out, threads) in [(&a, "1"), (&b, "2")] {
        let out = out.to_str().unwrap();
        let args = [
            "generate", "--scale", "0.003", "--seed", "7", "--quiet", "--out", out,
        ];
        succeeds(&[&args[..], &["--threads", threads]].concat());
    }
    for file in [
        "games.parquet",
        "truth.parquet",
        "players.parquet",
        "start-list.parquet",
        "world.toml",
        "summary.json",
    ] {
        let (x, y) = (
            std::fs::read(a.join(file)).unwrap(),
            std::fs::read(b.join(file)).unwrap(),
        );
        assert!(x == y, "{file} differs between thread counts");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["first_month"], "2001-01");
    assert_eq!(summary["last_month"], "2023-12");
    assert!(summary["games"].as_u64().unwrap() > 10_000, "{summary}");
    let run = dir.join("run");
    let stdout = succeeds(&[
        "replay",
        &history(),
        "--quiet",
        "--games",
        a.join("games.parquet").to_str().unwrap(),
        "--start-list",
        a.join("start-list.parquet").to_str().unwrap(),
        "--players",
        a.join("players.parquet").to_str().unwrap(),
        "--from",
        "2001-04",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(stdout.is_empty());
    assert!(run.join("lists.parquet").is_file());
    against_the_published_tables(&run, &dir);
    // Sonas's what-if on the same world: the two runs part at the January 2017 compression.
    let sonas = dir.join("sonas");
    let sonas_2017 = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/sonas-2017.toml");
    succeeds(&[
        "replay",
        sonas_2017.to_str().unwrap(),
        "--quiet",
        "--games",
        a.join("games.parquet").to_str().unwrap(),
        "--start-list",
        a.join("start-list.parquet").to_str().unwrap(),
        "--players",
        a.join("players.parquet").to_str().unwrap(),
        "--from",
        "2001-04",
        "--out",
        sonas.to_str().unwrap(),
    ]);
    let (history_run, sonas_run) = (run.to_str().unwrap(), sonas.to_str().unwrap());
    let series = succeeds(&[
        "compare",
        history_run,
        sonas_run,
        "--over-time",
        "--format",
        "csv",
    ]);
    let row = |month: &str| {
        series
            .lines()
            .find(|l| l.starts_with(month))
            .unwrap_or_else(|| panic!("{month} not in {series}"))
            .to_string()
    };
    assert!(row("2016-12").ends_with(",0.000,0.000"), "{series}");
    assert!(!row("2017-01").ends_with(",0.000,0.000"), "{series}");
    let json = succeeds(&[
        "compare",
        &format!("{history_run}@2016-12"),
        &format!("{sonas_run}@2017-01"),
        "--format",
        "json",
    ]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let largest = value["largest"][0]["id"].as_str().unwrap().to_string();
    assert!(value["mean_diff"].as_f64().unwrap() > 0.0, "{json}");
    let explained = succeeds(&["compare", history_run, sonas_run, "--explain", &largest]);
    assert!(
        explained.contains("the runs first differ on the 2017-01 list"),
        "{explained}"
    );
    let truth = a.join("truth.parquet");
    let drift = succeeds(&[
        "compare",
        history_run,
        sonas_run,
        "--truth",
        truth.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    assert!(
        drift.starts_with(
            "run,month,band_low,band_high,players,mean_diff\nfide-historical,2001-01,"
        ),
        "{drift}"
    );
    assert!(drift.contains("\nsonas-2017,2023-01,all,all,"), "{drift}");
    for (args, expected) in [
        (vec!["generate", "--scale", "0"], "--scale must be above 0"),
        (vec!["generate", "--scale", "-1"], "--scale must be above 0"),
        (
            vec!["generate", "--world", "fide-1990"],
            "\"fide-1990\" is neither a world file nor a built-in world; the built-in worlds: fide-2001-2023",
        ),
        (
            vec![
                "generate",
                "--scale",
                "0.001",
                "--out",
                "/proc/elosim-world",
            ],
            "cannot write",
        ),
    ] {
        let r = elosim(&args);
        let stderr = text(&r.stderr);
        assert!(
            !r.status.success() && stderr.contains(expected),
            "{args:?}: {stderr}"
        );
    }
}

/// A run of the generated world set against Sonas's tables: both tables, their difference and the
/// distance figures, in every format, and a picture of the three.
fn against_the_published_tables(run: &Path, dir: &Path) {
    let published =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/published/sonas-crosstables.csv");
    let (run, published) = (run.to_str().unwrap(), published.to_str().unwrap());
    let small = ["--compared-games", "5", "--covered-games", "2"];
    let against = |extra: &[&str]| {
        let args = [
            &["crosstable", run, "--against", published][..],
            &small,
            extra,
        ]
        .concat();
        succeeds(&args)
    };
    let shown = against(&["--table", "2021-2023"]);
    for part in [
        "fide-historical, 2021-01 to 2023-12 against the published table 2021-2023",
        "+7.4% in 47,760 games  1000-99",
        "Difference, run minus published",
        "RMSE",
        "signs agree",
        "coverage",
        "of the 230 published numbered cells",
        "1000-99",
    ] {
        assert!(shown.contains(part), "{part}\n{shown}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&against(&["--table", "2008-2012", "--format", "json"])).unwrap();
    assert_eq!(json["published"]["table"], "2008-2012");
    assert_eq!(json["window"]["from"], "2008-01");
    assert_eq!(json["numbered_cells"], 166);
    assert_eq!(json["cells"].as_array().unwrap().len(), 14 * 13);
    assert!(json["rmse"].as_f64().unwrap() > 0.0, "{json}");
    let compared = json["compared_cells"].as_u64().unwrap();
    assert!(
        compared > 20 && json["signs_agree"].as_u64().unwrap() <= compared,
        "{json}"
    );
    let shares: f64 = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["run_share"].as_f64().unwrap())
        .sum();
    assert!((shares - 1.0).abs() < 1e-3, "{shares}");
    let csv = against(&["--table", "2008-2012", "--format", "csv"]);
    assert!(csv.starts_with("kind,row_group,col_group,published,run,difference,games,compared\ncell,1200-99,1300-99,1.0000,"), "{csv}");
    assert_eq!(csv.lines().filter(|l| l.starts_with("share,")).count(), 14);
    let md = against(&["--table", "2008-2012", "--format", "md"]);
    assert!(md.contains("| figure | value |"), "{md}");
    let plot = dir.join("against.png");
    against(&["--table", "2008-2012", "--plot", plot.to_str().unwrap()]);
    assert!(std::fs::metadata(&plot).unwrap().len() > 10_000);
    // Which table, when the file holds two, and a window that is not a span of years.
    let r = elosim(&["crosstable", run, "--against", published]);
    assert!(!r.status.success());
    assert!(
        text(&r.stderr)
            .contains("has 2 tables (2008-2012, 2021-2023); choose one with --table NAME"),
        "{}",
        text(&r.stderr)
    );
    let r = elosim(&["crosstable", run, "--against", published, "--table", "2019"]);
    assert!(
        text(&r.stderr).contains("no table \"2019\""),
        "{}",
        text(&r.stderr)
    );
}

/// The dozen players of `report::compare`'s unit tests, through the command line from CSV lists.
#[test]
fn compare_gives_the_hand_computed_statistics_and_refuses_bad_lists() {
    let (a, b) = (fixture("list-a.csv"), fixture("list-b.csv"));
    let json = succeeds(&["compare", &a, &b, "--format", "json", "--largest", "3"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (
            v["both"].as_u64(),
            v["only_a"].as_u64(),
            v["only_b"].as_u64()
        ),
        (Some(10), Some(2), Some(1))
    );
    assert_eq!(v["mean_diff"], 4.9);
    assert_eq!(v["median_diff"], 0.0);
    assert_eq!(v["rmse"], 16.885);
    assert_eq!(v["mae"], 11.1);
    assert_eq!(v["within_5"], 0.5);
    assert_eq!(v["spearman"], 0.99697);
    assert_eq!(
        v["only_a_reasons"]["inactive (list files may leave inactive players out)"],
        1
    );
    assert_eq!(v["largest"][0]["id"], "6");
    assert_eq!(v["bands"][2]["band"], 1800);
    assert_eq!(v["bands"][2]["mean_diff"], 2.5);
    let shown = succeeds(&["compare", &a, &b]);
    assert!(
        shown.contains(
            "all          10   +4.9    +0.0  16.9  11.1   30.0%   50.0%   70.0%   90.0%    0.9970"
        ),
        "{shown}"
    );

    let dir = scratch("compare-bad");
    let twice = write(&dir, "twice.csv", "id,rating\n1,2000\n2,2100\n1,2010\n");
    let r = elosim(&["compare", &a, &twice]);
    assert!(!r.status.success());
    assert!(text(&r.stderr).contains("twice.csv, line 4 (player 1, first listed on line 2), column id: a player listed twice"), "{}", text(&r.stderr));
    let r = elosim(&["compare", &a, &twice, "--skip-invalid", "--format", "json"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(
        text(&r.stderr).contains("1 rows left out (--skip-invalid), 1 of them ids listed twice")
    );
    let strangers = write(&dir, "strangers.csv", "id,rating\n900,2000\n");
    let r = elosim(&["compare", &a, &strangers]);
    assert!(
        text(&r.stderr).contains("no player in common"),
        "{}",
        text(&r.stderr)
    );
    let rapid = write(&dir, "rapid_2019.csv", "id,rating\n1,2000\n");
    let r = elosim(&["compare", &a, &rapid]);
    assert!(r.status.success());
    assert!(
        text(&r.stderr).contains(
            "warning: list-a.csv looks like a standard list and rapid_2019.csv like a rapid list"
        ),
        "{}",
        text(&r.stderr)
    );
    let run = dir.join("run");
    succeeds(&[
        "replay",
        &fixture("scenario-2019.toml"),
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    let r = elosim(&["compare", &format!("{}@2030-01", run.display()), &a]);
    assert!(
        text(&r.stderr)
            .contains("the run has no list for 2030-01; its lists run from 2019-02 to 2019-04"),
        "{}",
        text(&r.stderr)
    );
    let score = succeeds(&["score", run.to_str().unwrap(), "--format", "json"]);
    let s: serde_json::Value = serde_json::from_str(&score).unwrap();
    for key in ["games", "deviance", "log_loss", "kaggle_rmse"] {
        assert!(s[0][key].is_number(), "{key} in {score}");
    }
    let r = elosim(&["score", run.to_str().unwrap(), "--from", "2025"]);
    assert!(
        text(&r.stderr).contains("no scored game in the window"),
        "{}",
        text(&r.stderr)
    );
}

/// Every rating system of the source documents replays the Kaggle games end to end, and `score`
/// judges them side by side.
#[test]
fn every_rating_system_replays_and_scores() {
    let dir = scratch("systems");
    let mut runs = Vec::new();
    for system in [
        "elo-k20",
        "glicko",
        "glicko2",
        "uscf-classic",
        "berkin",
        "gcr",
    ] {
        let out = dir.join(system);
        let scenario = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(format!("{system}.toml"));
        succeeds(&[
            "replay",
            scenario.to_str().unwrap(),
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        let resolved = std::fs::read_to_string(out.join("scenario.resolved.toml")).unwrap();
        assert!(
            resolved.contains(&format!("system = \"{system}\"").replace("elo-k20", "elo")),
            "{resolved}"
        );
        runs.push(out.display().to_string());
    }
    let mut args = vec![
        "score", "--from", "2020-07", "--to", "2020-11", "--format", "json",
    ];
    args.extend(runs.iter().map(String::as_str));
    let json: serde_json::Value = serde_json::from_str(&succeeds(&args)).unwrap();
    for (i, run) in json.as_array().unwrap().iter().enumerate() {
        assert_eq!(run["games"], 11182, "{run}");
        let deviance = run["deviance"].as_f64().unwrap();
        assert!(deviance > 80.0 && deviance < 130.0, "{i}: {run}");
    }
}

/// A replay killed (SIGKILL) at any moment leaves a complete run under the final name: the
/// previous one, or the new one if it had finished; never a partial file.
#[test]
fn a_killed_replay_leaves_a_complete_run() {
    let dir = scratch("kill");
    let out = dir.join("run");
    let out_text = out.to_str().unwrap().to_string();
    // The kills are timed against how long a whole replay takes on this machine now.
    let started = std::time::Instant::now();
    succeeds(&["replay", "--quiet", "--out", &out_text]);
    let whole = started.elapsed().as_millis() as u64;
    // Every file but the summary, whose timing differs from run to run; and the summary's scenario.
    let state = |d: &Path| -> (Vec<String>, Vec<Vec<u8>>, String) {
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let tables = ["games.parquet", "lists.parquet", "scenario.resolved.toml"]
            .iter()
            .map(|n| std::fs::read(d.join(n)).unwrap_or_default())
            .collect();
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("summary.json")).unwrap())
                .unwrap();
        (
            names,
            tables,
            summary["scenario"].as_str().unwrap().to_string(),
        )
    };
    let before = state(&out);
    assert_eq!(before.2, "kaggle2010");
    let sonas = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/kaggle2010-sonas-2017.toml");
    let mut replaced = 0;
    // From just after the start to well after the end (at three times a whole replay's time).
    for percent in [2u64, 15, 30, 50, 70, 90, 120, 300] {
        let delay = whole * percent / 100;
        let mut child = Command::new(env!("CARGO_BIN_EXE_elosim"))
            .args([
                "replay",
                sonas.to_str().unwrap(),
                "--quiet",
                "--out",
                &out_text,
            ])
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay));
        let _ = child.kill();
        let _ = child.wait();
        let now = state(&out);
        assert_eq!(
            now.0,
            [
                "games.parquet",
                "lists.parquet",
                "scenario.resolved.toml",
                "summary.json"
            ],
            "after {delay} ms"
        );
        if now.2 == "kaggle2010" {
            assert!(
                now.1 == before.1,
                "after {delay} ms the previous run changed"
            );
        } else {
            // The new run had finished: it must be whole and readable.
            assert_eq!(now.2, "kaggle2010-sonas-2017");
            succeeds(&["histogram", &out_text, "--months", "2020-11"]);
            replaced += 1;
            succeeds(&["replay", "--quiet", "--out", &out_text]);
            assert!(state(&out).1 == before.1);
        }
    }
    assert!(
        replaced >= 1,
        "no kill came late enough to see the new run (a whole replay took {whole} ms)"
    );
    // The temporary directories the killed runs left are gone after the next replay.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Several scenarios over one game set: read once, each written to output/<its name>/, with the same
/// lists as when replayed alone; scenarios reading different data are refused.
#[test]
fn several_scenarios_share_one_game_set() {
    let dir = scratch("many");
    let scenario = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(name)
            .display()
            .to_string()
    };
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_elosim"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let r = run(&[
        "replay",
        &scenario("kaggle2010.toml"),
        &scenario("elo-k20.toml"),
        "--quiet",
    ]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let alone = dir.join("alone");
    succeeds(&[
        "replay",
        &scenario("elo-k20.toml"),
        "--quiet",
        "--out",
        alone.to_str().unwrap(),
    ]);
    assert!(
        std::fs::read(dir.join("output/elo-k20/lists.parquet")).unwrap()
            == std::fs::read(alone.join("lists.parquet")).unwrap()
    );
    assert!(dir.join("output/kaggle2010/lists.parquet").is_file());
    let r = run(&[
        "replay",
        &scenario("kaggle2010.toml"),
        &scenario("contest2011.toml"),
        "--quiet",
    ]);
    assert!(!r.status.success());
    assert!(
        text(&r.stderr).contains("read different data (games)"),
        "{}",
        text(&r.stderr)
    );
}

/// Writes `games-2019.csv` as a dataset partitioned by period, hive style (no period column),
/// with the games of a period split over two files; returns the dataset's directory.
fn games_2019_dataset(dir: &Path) -> PathBuf {
    let games = std::fs::read_to_string(fixture("games-2019.csv")).unwrap();
    let data = dir.join("games");
    let mut lines = games.lines();
    let header = lines.next().unwrap().split_once(',').unwrap().1.to_string();
    for (i, line) in lines.enumerate() {
        let (period, rest) = line.split_once(',').unwrap();
        let partition = data.join(format!("period={period}"));
        std::fs::create_dir_all(&partition).unwrap();
        let file = partition.join(format!("part-{}.csv", i % 2));
        let mut text = std::fs::read_to_string(&file).unwrap_or_else(|_| format!("{header}\n"));
        text += &format!("{rest}\n");
        std::fs::write(&file, text).unwrap();
    }
    // What data tools leave beside their tables is passed over.
    std::fs::write(data.join("_SUCCESS"), "").unwrap();
    data
}

#[test]
fn partitioned_datasets_replay_list_by_list_as_the_whole_file_does() {
    let dir = scratch("dataset");
    // The small 2019 world as CSV partitions without a period column: the same lists.
    let data = games_2019_dataset(&dir);
    let scenario = fixture("scenario-2019.toml");
    let replay = |name: &str, games: &str| {
        let out = dir.join(name);
        succeeds(&[
            "replay",
            &scenario,
            "--quiet",
            "--csv",
            "--games",
            games,
            "--out",
            out.to_str().unwrap(),
        ]);
        out
    };
    let whole = run_files(&replay("whole", &fixture("games-2019.csv")), true);
    let streamed = run_files(&replay("streamed", data.to_str().unwrap()), true);
    assert!(whole.len() >= 6);
    assert_eq!(
        whole, streamed,
        "the dataset's replay differs from the file's"
    );

    // A generated world, partitioned by the generator: byte-identical tables, list by list.
    let (file, parts) = (dir.join("w-file"), dir.join("w-parts"));
    for (out, extra) in [(&file, None), (&parts, Some("--partitioned"))] {
        let mut args = vec![
            "generate",
            "--scale",
            "0.003",
            "--seed",
            "7",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        succeeds(&args);
    }
    assert!(!parts.join("games.parquet").exists());
    // Several scenarios write to output/<name> under the working directory, one alone to --out.
    let world_replay = |name: &str, games: PathBuf, scenarios: &[String]| {
        let out = dir.join(name);
        let mut args: Vec<String> = vec!["replay".into()];
        args.extend(scenarios.iter().cloned());
        args.extend(
            [
                "--quiet",
                "--games",
                games.to_str().unwrap(),
                "--start-list",
                file.join("start-list.parquet").to_str().unwrap(),
                "--players",
                file.join("players.parquet").to_str().unwrap(),
                "--from",
                "2001-04",
            ]
            .map(String::from),
        );
        if scenarios.len() == 1 {
            args.extend(["--out".to_string(), out.display().to_string()]);
        }
        std::fs::create_dir_all(&out).unwrap();
        let r = Command::new(env!("CARGO_BIN_EXE_elosim"))
            .args(&args)
            .current_dir(&out)
            .output()
            .unwrap();
        assert!(r.status.success(), "{}", text(&r.stderr));
        out
    };
    let history = history();
    let a = world_replay(
        "h-file",
        file.join("games.parquet"),
        std::slice::from_ref(&history),
    );
    let b = world_replay(
        "h-parts",
        parts.join("games"),
        std::slice::from_ref(&history),
    );
    for table in ["lists.parquet", "games.parquet"] {
        let (x, y) = (
            std::fs::read(a.join(table)).unwrap(),
            std::fs::read(b.join(table)).unwrap(),
        );
        assert!(x.len() > 10_000 && x == y, "{table} differs");
    }
    let summary = |d: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join("summary.json")).unwrap()).unwrap()
    };
    assert_eq!(summary(&a)["games"], summary(&b)["games"]);
    assert_eq!(summary(&a)["lists"], summary(&b)["lists"]);

    // Several scenarios over one dataset: each reads it as it goes, with the same result.
    let sonas = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/sonas-2017.toml")
        .display()
        .to_string();
    let both = world_replay("both", parts.join("games"), &[history, sonas]);
    let history_run = both.join("output/fide-historical");
    assert!(both.join("output/sonas-2017/lists.parquet").is_file());
    assert!(
        std::fs::read(history_run.join("lists.parquet")).unwrap()
            == std::fs::read(a.join("lists.parquet")).unwrap()
    );
}

#[test]
fn bad_partitioned_datasets_are_rejected_or_counted() {
    let dir = scratch("bad-dataset");
    let scenario = fixture("scenario-2019.toml");
    let data = games_2019_dataset(&dir);
    let data_text = data.to_str().unwrap().to_string();
    let args = |out: &str, games: &str| {
        vec![
            "replay".to_string(),
            scenario.clone(),
            "--quiet".into(),
            "--games".into(),
            games.into(),
            "--out".into(),
            out.into(),
        ]
    };
    let check = |name: &str, games: &str, expected: &[&str]| {
        let out = dir.join(name);
        let a = args(out.to_str().unwrap(), games);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let r = elosim(&a);
        let stderr = text(&r.stderr);
        assert!(!r.status.success(), "{name}: expected a failure");
        for e in expected {
            assert!(stderr.contains(e), "{name}: {e:?} not in:\n{stderr}");
        }
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!out.exists(), "{name}: a failed run left its directory");
    };
    // A game filed under another period.
    let march = data.join("period=2019-03/part-9.csv");
    std::fs::write(
        &march,
        "period,event,event_start,white,black,score\n2019-04,X,2019-03-01,101,102,1\n",
    )
    .unwrap();
    check(
        "mismatch",
        &data_text,
        &[
            "part-9.csv, line 2, column period",
            "2019-04, in the partition period=2019-03",
            "--skip-invalid",
        ],
    );
    let out = dir.join("skipped");
    let mut a = args(out.to_str().unwrap(), &data_text);
    a.push("--skip-invalid".into());
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    succeeds(&a);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["games"]["read"], 12, "{summary}");
    assert_eq!(
        summary["games"]["skipped_invalid"][0]["rows"], 1,
        "{summary}"
    );
    std::fs::remove_file(&march).unwrap();

    // A stray file, a directory not named for a period, a partition outside the calendar, an
    // empty directory.
    std::fs::write(data.join("notes.txt"), "x").unwrap();
    check("stray", &data_text, &["notes.txt", "period=YYYY-MM"]);
    std::fs::remove_file(data.join("notes.txt")).unwrap();
    std::fs::create_dir_all(data.join("month=2019-05")).unwrap();
    check("misnamed", &data_text, &["month=2019-05", "period=YYYY-MM"]);
    std::fs::remove_dir(data.join("month=2019-05")).unwrap();
    std::fs::create_dir_all(data.join("period=2019-04/extra")).unwrap();
    check("subdirectory", &data_text, &["extra", ".parquet or .csv"]);
    std::fs::remove_dir(data.join("period=2019-04/extra")).unwrap();
    let old = data.join("period=1950-01");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join("g.csv"), "white,black,score\n101,102,1\n").unwrap();
    check("outside", &data_text, &["period 1950-01", "calendar"]);
    std::fs::remove_dir_all(&old).unwrap();
    let empty = dir.join("no-partitions");
    std::fs::create_dir_all(&empty).unwrap();
    check("empty", empty.to_str().unwrap(), &["no partition"]);
}

#[test]
fn a_csv_sorted_by_period_streams_as_the_whole_file_does() {
    let dir = scratch("stream");
    let replay = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["replay", "--quiet", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        succeeds(&args);
        out
    };
    // The Kaggle games (sorted by month) and the small world, whole and period by period.
    for (name, extra) in [
        ("kaggle", vec![]),
        ("small", vec![fixture("scenario-2019.toml")]),
    ] {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let whole = run_files(&replay(&format!("{name}-whole"), &extra), true);
        let streamed = run_files(
            &replay(
                &format!("{name}-stream"),
                &[&extra[..], &["--stream"]].concat(),
            ),
            true,
        );
        assert_eq!(whole, streamed, "{name}: --stream changed an output");
    }
    // A file out of period order cannot be streamed; Parquet and PGN files are not streamed.
    let shuffled = fixture("games-2019-shuffled.csv");
    fails(
        "unsorted",
        &[
            &fixture("scenario-2019.toml"),
            "--games",
            &shuffled,
            "--stream",
        ],
        &[
            "games-2019-shuffled.csv, line",
            "sorted by period",
            "without --stream",
        ],
    );
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tricky.pgn");
    fails(
        "stream-pgn",
        &[
            &fixture("scenario-2019.toml"),
            "--games",
            pgn.to_str().unwrap(),
            "--stream",
        ],
        &[
            "tricky.pgn",
            "only CSV files and month-partitioned datasets",
        ],
    );
}

/// A tiny calibration through the command line: the fitted world file reads back and generates,
/// every evaluation is in the Parquet table, and the same calibration writes the same files.
#[test]
fn calibrate_writes_a_fitted_world_that_generates() {
    let dir = scratch("calibrate");
    let repo = |p: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(p)
            .display()
            .to_string()
    };
    write(
        &dir,
        "tiny.toml",
        &format!(
            "name = \"tiny\"\nextends = {:?}\n[world]\nmonths = 30\n",
            repo("worlds/fide-2001-2023.toml")
        ),
    );
    let config = write(
        &dir,
        "calibration.toml",
        &format!(
            "world = \"tiny.toml\"\nscenario = {:?}\nscale = 0.01\nseeds = [3]\nbudget = 9\npopulation = 4\n\n[[target]]\nlist = {:?}\nlowest = 1800\ntop = 2500\n\n[[parameter]]\nkey = \"latent.players\"\nmin = 10000\nmax = 150000\n",
            repo("scenarios/fide-historical.toml"),
            repo("data/fide-lists/APR03FRL.TXT")
        ),
    );
    let evaluated = succeeds(&["calibrate", &config, "--evaluate"]);
    assert!(
        evaluated.contains("tiny at scale 0.01 with seeds [3]: objective"),
        "{evaluated}"
    );
    assert!(evaluated.contains("list 2003-04: "), "{evaluated}");
    let (a, b) = (dir.join("a"), dir.join("b"));
    for out in [&a, &b] {
        let shown = succeeds(&[
            "calibrate",
            &config,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(shown.contains("in 9 evaluations"), "{shown}");
        assert!(shown.contains("latent.players"), "{shown}");
    }
    for file in ["world.toml", "evaluations.parquet", "summary.json"] {
        assert!(
            std::fs::read(a.join(file)).unwrap() == std::fs::read(b.join(file)).unwrap(),
            "{file} differs between two runs of one calibration"
        );
    }
    let world = std::fs::read_to_string(a.join("world.toml")).unwrap();
    assert!(
        world.starts_with("# Fitted by `elosim calibrate"),
        "{world}"
    );
    assert!(
        world.contains("extends = "),
        "the file's own lines are kept: {world}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["evaluations"], 9);
    let (start, best) = (
        summary["start"]["objective"].as_f64().unwrap(),
        summary["best"]["objective"].as_f64().unwrap(),
    );
    assert!(best <= start, "{summary}");
    let fitted = summary["parameters"][0]["best"].as_f64().unwrap();
    assert!(world.contains(&format!("players = {fitted}")), "{world}");
    let generated = dir.join("generated");
    succeeds(&[
        "generate",
        "--world",
        a.join("world.toml").to_str().unwrap(),
        "--scale",
        "0.005",
        "--quiet",
        "--out",
        generated.to_str().unwrap(),
    ]);
    let resolved = std::fs::read_to_string(generated.join("world.toml")).unwrap();
    assert!(
        resolved.contains(&format!("players = {fitted}  # players at scale 1")),
        "{resolved}"
    );
    let r = elosim(&[
        "calibrate",
        &write(&dir, "bad.toml", "world = 1\nsurprise = true\n"),
    ]);
    assert!(!r.status.success());
    let stderr = text(&r.stderr);
    for part in [
        "world: expected text",
        "surprise: unknown key",
        "scenario: missing",
        "target: missing",
    ] {
        assert!(stderr.contains(part), "{part}\n{stderr}");
    }
}
