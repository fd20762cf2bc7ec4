//! Bad input on the command line: games files, scenarios, decoys, starting lists, report
//! commands and partitioned datasets each rejected with file, place and what was expected.

use std::path::Path;

use super::common::*;

mod outputs;
mod readers;

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
        (
            "unknown-event-type",
            "period,event,event_type,white,black,score\n2019-03,Open,rr,1,2,1\n".into(),
            &[
                "line 2, column event_type",
                "expected one of swiss, round-robin (or empty for a Swiss), got \"rr\"",
            ],
        ),
        (
            "mixed-event-types",
            "period,event,event_type,white,black,score\n2019-03,Open,swiss,1,2,1\n2019-03,Open,round-robin,1,3,1\n".into(),
            &[
                "line 3, column event_type",
                "round-robin in event \"Open\", whose game on line 2 is swiss",
            ],
        ),
        (
            "round-robin-without-event",
            "period,event_type,white,black,score\n2019-03,round-robin,1,2,1\n".into(),
            &[
                "line 2, column event_type",
                "a round robin without an event name",
            ],
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
            "no games to tabulate (1990-01 to 1991-12: 8 games outside it",
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
            vec![
                "histogram".into(),
                dir.display().to_string(),
                "--pair".into(),
                "2016-01,2016-01".into(),
            ],
            "--pair 2016-01,2016-01: the same list twice",
        ),
        (
            vec![
                "histogram".into(),
                dir.display().to_string(),
                "--pair".into(),
                "2016-02,2016-01".into(),
            ],
            "the list before comes first; give --pair 2016-01,2016-02",
        ),
        (
            vec![
                "histogram".into(),
                rated.clone(),
                "--pair".into(),
                "2016-01,2016-02".into(),
            ],
            "--pair chooses among a run's lists",
        ),
        (
            vec!["report".into(), dir.display().to_string()],
            "not an elosim run directory",
        ),
        (
            vec![
                "report".into(),
                dir.display().to_string(),
                "--windows".into(),
                "2020-2019".into(),
            ],
            "--windows: \"2020-2019\" is reversed",
        ),
        (
            vec![
                "curve".into(),
                rated.clone(),
                "--eras".into(),
                "2012-06..2012-01".into(),
            ],
            "--eras: \"2012-06..2012-01\" is reversed",
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
    check(
        "empty",
        empty.to_str().unwrap(),
        &["an empty directory: expected tournament reports (.trf, .txt, .tab files) or a dataset partitioned by rating period"],
    );
}

/// `explain` of a month the run has no list for names the run's lists instead of inventing a
/// calculation; of the starting list, gives the rating read, which no calculation produced.
#[test]
fn explain_keeps_to_the_lists_the_run_has() {
    let dir = scratch("explain-lists");
    let out = dir.join("run");
    succeeds(&[
        "replay",
        &fixture("scenario-2019.toml"),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let start = explain(&out, "101", "2019-02");
    for expected in [
        "The run's starting list, read from ",
        "rating 2100 · K 20",
        "No calculation of this run produced it: the first list the run computed is 2019-03.",
    ] {
        assert!(start.contains(expected), "{expected:?} not in:\n{start}");
    }
    assert!(!start.contains("nrated"), "{start}");
    let run = out.to_str().unwrap();
    for (player, period, expected) in [
        (
            "101",
            "2099-01",
            "the run has no list for 2099-01; its lists run from 2019-02 to 2019-04, and 2099-01 is after the last list: nothing was computed after 2019-04",
        ),
        (
            "101",
            "2018-12",
            "the run has no list for 2018-12; its lists run from 2019-02 to 2019-04, and 2018-12 is before the starting list 2019-02: the run starts later",
        ),
        (
            "201",
            "2019-02",
            "player 201 is not on 2019-02, the starting list of",
        ),
    ] {
        let r = elosim(&["explain", run, "--player", player, "--period", period]);
        let stderr = text(&r.stderr);
        assert!(!r.status.success(), "{period}: {}", text(&r.stdout));
        assert!(stderr.contains(expected), "{expected:?} not in {stderr}");
        assert!(r.stdout.is_empty(), "{period}: {}", text(&r.stdout));
    }
}

/// The command line's values for a calibration (`--world`, `--scale`, `--budget`) go through the
/// file's checks, and a calibration that would search nothing (no parameter, or a budget no
/// larger than the starting world's evaluation and one generation) is refused.
#[test]
fn calibration_flags_are_checked_as_the_file_is() {
    let dir = scratch("calibrate-flags");
    let world = |name: &str, extra: &str| {
        write(
            &dir,
            &format!("{name}.toml"),
            &format!(
                "name = {name:?}\nextends = {:?}\n[world]\nmonths = 30\n{extra}",
                repo("worlds/fide-2001-2025.toml")
            ),
        )
    };
    world("tiny", "");
    let old = world("old", "[pool]\nage_mean = 60\n");
    let few = world(
        "few",
        "[pool]\nplayers = 0\n[latent]\nplayers = 10\n[arrivals]\nper_month = 0\n",
    );
    let calibration = |name: &str, budget: u32, parameter: &str| {
        write(
            &dir,
            name,
            &format!(
                "world = \"tiny.toml\"\nscenario = {:?}\nscale = 0.001\nseeds = [3]\nbudget = {budget}\npopulation = 4\n\n[[target]]\nlist = {:?}\nlowest = 1800\ntop = 2500\n{parameter}",
                repo("scenarios/fide-historical.toml"),
                repo("data/fide-lists/APR03FRL.TXT")
            ),
        )
    };
    let config = calibration(
        "calibration.toml",
        5,
        "\n[[parameter]]\nkey = \"pool.age_mean\"\nmin = 30\nmax = 45\n",
    );
    let small = calibration(
        "small.toml",
        3,
        "\n[[parameter]]\nkey = \"pool.age_mean\"\nmin = 30\nmax = 45\n",
    );
    let none = calibration("none.toml", 5, "");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let flags = "the flags given in place of its values";
    let cases: &[(&[&str], &[&str])] = &[
        (
            &[&config, "--budget", "0"],
            &[
                flags,
                "--budget: expected a number from 1 to 1000000, got 0",
            ],
        ),
        (
            &[&config, "--budget", "4"],
            &[
                flags,
                "--budget: 4 evaluations leave none for the search",
                "the budget must be at least 5",
            ],
        ),
        (
            &[&small],
            &["budget: 3 evaluations leave none for the search"],
        ),
        (
            &[&none],
            &[
                "none.toml: parameter: missing: expected at least one [[parameter]]",
                "--evaluate",
            ],
        ),
        (
            &[&config, "--scale", "0"],
            &[flags, "--scale: expected a number from 0.0001 to 10, got 0"],
        ),
        (
            &[&config, "--world", &few, "--scale", "0.01"],
            &[
                flags,
                "--scale: --scale 0.01 makes a world of no player: few has about 10 players",
                "needs --scale 0.1 or more",
            ],
        ),
        (
            &[&config, "--world", &old],
            &["pool.age_mean: the world's value 60 is outside the bounds 30 to 45"],
        ),
        (
            &[&config, "--seeds", "3,4,3"],
            &[
                flags,
                "--seeds: seed 3 is given twice (the third value): each seed is one replicate",
            ],
        ),
    ];
    for (args, expected) in cases {
        let r = elosim(&[&["calibrate", "--quiet", "--out", out][..], args].concat());
        let stderr = text(&r.stderr);
        assert!(!r.status.success(), "{args:?} succeeded");
        for e in *expected {
            assert!(stderr.contains(e), "{args:?}: {e:?} not in {stderr}");
        }
        assert!(!Path::new(out).exists(), "{args:?} left {out}");
    }
    // Measuring the starting world needs no parameter.
    succeeds(&["calibrate", &none, "--evaluate"]);
    // A built-in world named on the command line is the whole world, as when the file names it.
    succeeds(&[
        "calibrate",
        &config,
        "--world",
        "fide-2001-2025",
        "--quiet",
        "--out",
        out,
    ]);
    let fitted = std::fs::read_to_string(dir.join("out/world.toml")).unwrap();
    assert!(fitted.contains("months = 300"), "{fitted}");
    let generated = dir.join("generated");
    succeeds(&[
        "generate",
        "--world",
        dir.join("out/world.toml").to_str().unwrap(),
        "--scale",
        "0.001",
        "--quiet",
        "--out",
        generated.to_str().unwrap(),
    ]);
}

/// A scale too small for one player is refused naming the smallest that gives one; a world that
/// makes no game is refused before anything is written.
#[test]
fn a_world_too_small_for_a_player_or_a_game_is_refused() {
    let dir = scratch("world-too-small");
    let out = dir.join("world");
    for (scale, expected) in [
        (
            "1e-9",
            "--scale 0.000000001 makes a world of no player: fide-2001-2025 has about",
        ),
        ("1e-9", "so a world of one needs --scale 0.0000011 or more"),
        (
            "0.000003",
            "fide-2001-2025 at scale 0.000003 made no game: its 1 player never met in an event",
        ),
    ] {
        let r = elosim(&["generate", "--scale", scale, "--out", out.to_str().unwrap()]);
        let stderr = text(&r.stderr);
        assert!(!r.status.success(), "--scale {scale} succeeded");
        assert!(stderr.contains(expected), "{expected:?} not in {stderr}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(left.is_empty(), "--scale {scale} left {left:?}");
    }
}
