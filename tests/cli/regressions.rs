//! Guards against what once went wrong or must never change: byte-identical outputs whatever
//! the threads and the row order, the hand-reviewed golden lists, a killed replay.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::common::*;

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
        let tables = [
            "games.parquet",
            "lists.parquet",
            "periods.parquet",
            "scenario.resolved.toml",
        ]
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
                "periods.parquet",
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

/// `elosim … | head` ends quietly: the reader closes the pipe after one line of a 77 kB table, and
/// elosim stops without a panic or a message about the broken pipe.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/pgn/GarryKasparov.pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_elosim"))
        .args(["crosstable", pgn.to_str().unwrap(), "--format", "csv"])
        .args([
            "--width",
            "1",
            "--lowest",
            "0",
            "--top",
            "4000",
            "--min-games",
            "0",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("row_group,"), "{first}");
    let result = child.wait_with_output().unwrap();
    let stderr = text(&result.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );
}

/// Reference §11.2 through the command line: each vector replayed from a starting list and a
/// games file, then read back with `explain`, which prints what the engine recorded.
#[test]
fn the_reference_single_games_and_periods_through_replay_and_explain() {
    let dir = scratch("vectors-11-2");
    // (id, rating, K); games (white, black, White's score) rated on the first list of the run.
    let run = |name: &str,
               from: &str,
               period: &str,
               start: &[(u32, i32, u32)],
               games: &[(u32, u32, &str)]| {
        let start = write_csv(
            &dir,
            &format!("{name}-start.csv"),
            "id,rating,k,games",
            start.iter().map(|(id, r, k)| format!("{id},{r},{k},50")),
        );
        let games = write_csv(
            &dir,
            &format!("{name}-games.csv"),
            "period,event,white,black,score",
            games
                .iter()
                .map(|(w, b, s)| format!("{period},Open,{w},{b},{s}")),
        );
        let out = dir.join(name);
        replay_history(&games, &start, from, &out, &["--quiet"]);
        out
    };
    let explain = |out: &Path, player: u32, period: &str| {
        let player = player.to_string();
        explain(out, &player, period)
    };
    let game_end = |k: u32, change: &str| format!("{k:>3}  {change:>8}");

    // 1. 1500 against 1650 with K 20: PD .30, win +14, draw +4, loss −6.
    // 2. 2200 (K 15) beats 1600: before July 2009 D counts as 350, PD .89, +1.65; from then 400,
    //    PD .92, +1.20.
    // 3. K × n ≤ 700: 17 games at K 40 keep 40, 18 → 38; 35 at K 20 keep 20, 36 → 19; 70 at
    //    K 10 keep 10, 71 → 9 (wins over equals).
    // 4. 1010 − 20 = 990 is below the floor of 1000: off the list.
    // 5. Rounding away from zero: −2.50 → −3 (K 25: a loss at D −400, PD .08, and a draw at D +11,
    //    PD .52), +2.50 → +3 (K 25: a win at D +358, PD .90), +5.40 → +5 (K 20: a win at D +206,
    //    PD .76, draws at D −4 and −11, PD .49 and .48).
    let start = [
        (11, 1500, 20),
        (12, 1500, 20),
        (13, 1500, 20),
        (21, 1650, 20),
        (22, 1650, 20),
        (23, 1650, 20),
        (31, 2200, 15),
        (32, 1600, 20),
        (41, 1800, 40),
        (42, 1800, 20),
        (43, 1800, 20),
        (44, 1800, 20),
        (45, 2450, 10),
        (46, 2450, 10),
        (51, 1010, 20),
        (52, 1010, 20),
        (53, 1010, 20),
        (61, 2000, 25),
        (62, 2400, 20),
        (63, 1989, 20),
        (64, 1642, 20),
        (65, 2000, 25),
        (66, 2000, 20),
        (67, 2004, 20),
        (68, 2011, 20),
        (69, 1794, 20),
        (47, 1800, 40),
        (48, 1800, 40),
        (49, 1800, 20),
        (50, 1800, 20),
        (55, 2450, 10),
        (56, 2450, 10),
    ];
    let mut games = vec![(11, 21, "1"), (12, 22, "0.5"), (13, 23, "0"), (31, 32, "1")];
    games.extend(std::iter::repeat_n((41, 42, "1"), 18));
    games.extend(std::iter::repeat_n((43, 44, "1"), 36));
    games.extend(std::iter::repeat_n((45, 46, "1"), 71));
    games.extend(std::iter::repeat_n((47, 48, "1"), 17));
    games.extend(std::iter::repeat_n((49, 50, "1"), 35));
    games.extend(std::iter::repeat_n((55, 56, "1"), 70));
    games.extend([(51, 52, "0"), (51, 53, "0")]);
    games.extend([(61, 62, "0"), (61, 63, "0.5"), (65, 64, "1")]);
    games.extend([(66, 69, "1"), (66, 67, "0.5"), (66, 68, "0.5")]);
    let out = run("2019", "2019-03", "2019-03", &start, &games);
    for (player, change) in [(11, "+14"), (12, "+4"), (13, "-6")] {
        let shown = explain(&out, player, "2019-03");
        assert!(
            shown.contains(&format!("→ {change} (")),
            "{player}:\n{shown}"
        );
        assert!(shown.contains(" 0.30 "), "{player}:\n{shown}");
    }
    let shown = explain(&out, 31, "2019-03");
    assert!(
        shown.contains("1800*    400  0.92    1.0   15     +1.20"),
        "{shown}"
    );
    for (player, k, change, n) in [
        (41, 38, "+19.00", 18),
        (43, 19, "+9.50", 36),
        (45, 9, "+4.50", 71),
    ] {
        let shown = explain(&out, player, "2019-03");
        assert_eq!(
            shown.matches(&game_end(k, change)).count(),
            n,
            "{player}:\n{shown}"
        );
    }
    let shown = explain(&out, 51, "2019-03");
    assert!(
        shown.contains("New rating 990 is below the floor of 1000"),
        "{shown}"
    );
    for (player, sum, rounded) in [
        (61, "-2.50", "-3"),
        (65, "+2.50", "+3"),
        (66, "+5.40", "+5"),
    ] {
        let shown = explain(&out, player, "2019-03");
        let expected = format!("Σ K × (score − PD) = {sum} → {rounded} (");
        assert!(shown.contains(&expected), "{player}:\n{shown}");
    }
    let before_2009 = run(
        "2008",
        "2008-04",
        "2008-04",
        &[(31, 2200, 15), (32, 1600, 25)],
        &[(31, 32, "1")],
    );
    let shown = explain(&before_2009, 31, "2008-04");
    assert!(
        shown.contains("1850*    350  0.89    1.0   15     +1.65"),
        "{shown}"
    );
}

/// Reference §11.3 through the command line: an unrated player's event against rated opponents,
/// replayed in each era and read back with `explain` (the pool the engine recorded, and the first
/// rating).
#[test]
fn the_reference_first_ratings_through_replay_and_explain() {
    let dir = scratch("vectors-11-3");
    // (name, list, opponents' rating, newcomer's scores against them, what explain must show)
    let cases: [(&str, &str, i32, &[&str], &str); 8] = [
        (
            "2b-2019",
            "2019-03",
            1600,
            &["1", "0", "0", "0", "0", "0"],
            "First rating on 2019-03: 1327",
        ),
        (
            "2b-2024",
            "2024-05",
            1600,
            &["1", "0", "0", "0", "0", "0"],
            "First rating on 2024-05: 1457",
        ),
        (
            "2f-2019",
            "2019-03",
            1600,
            &["1", "1", "1", "1", "1", "0"],
            "First rating on 2019-03: 1680",
        ),
        (
            "2f-2024",
            "2024-05",
            1600,
            &["1", "1", "1", "1", "1", "0"],
            "First rating on 2024-05: 1843",
        ),
        (
            "2009",
            "2010-03",
            2000,
            &["1", "1", "1", "1", "1", "1", "0.5", "0", "0"],
            "First rating on 2010-03: 2050",
        ),
        (
            "2011",
            "2012-03",
            2000,
            &["1", "1", "1", "1", "1", "1", "0", "0", "0"],
            "First rating on 2012-03: 2045",
        ),
        (
            "minus",
            "2019-03",
            2000,
            &["1", "1", "1", "0", "0", "0", "0", "0", "0"],
            "First rating on 2019-03: 1875",
        ),
        (
            "2a",
            "2019-03",
            1600,
            &["1", "0", "0", "0"],
            "Not enough games yet: no rating on 2019-03",
        ),
    ];
    for (name, list, rating, scores, expected) in cases {
        let start = write_csv(
            &dir,
            &format!("{name}-start.csv"),
            "id,rating,k,games",
            (1..=scores.len()).map(|o| format!("{o},{rating},20,50")),
        );
        let games = write_csv(
            &dir,
            &format!("{name}-games.csv"),
            "period,event,white,black,score",
            (scores.iter().enumerate()).map(|(o, s)| format!("{list},Open,100,{},{s}", o + 1)),
        );
        let out = dir.join(name);
        replay_history(&games, &start, list, &out, &["--quiet"]);
        let shown = explain(&out, "100", list);
        assert!(
            shown.contains(expected),
            "{name}: {expected:?} not in\n{shown}"
        );
    }
}

/// Reference §11.4 through the command line: the March 2024 compression of the shipped history,
/// new = R + round(0.4 × (2000 − R)) below 2000, on the March 2024 list of a replay (Sonas 1A, 1B,
/// 1E, the press examples, his continuity example, and the ties that rounding makes).
#[test]
fn the_reference_compression_through_a_replay() {
    let dir = scratch("vectors-11-4");
    let cases = [
        (1200, 1520),
        (1003, 1402),
        (2350, 2350),
        (1000, 1400),
        (1500, 1700),
        (1600, 1760),
        (1700, 1820),
        (1950, 1970),
        (1495, 1697),
        (1505, 1703),
        (1998, 1999),
        (1999, 1999),
    ];
    let start = write_csv(
        &dir,
        "start.csv",
        "id,rating,k,games",
        (cases.iter().enumerate())
            .map(|(i, (r, _))| format!("{},{r},20,50", i + 1))
            .chain(["901,2100,20,50".into(), "902,2100,20,50".into()]),
    );
    let games = write(
        &dir,
        "games.csv",
        "period,white,black,score\n2024-03,901,902,0.5\n",
    );
    let out = dir.join("run");
    replay_history(&games, &start, "2024-03", &out, &["--csv", "--quiet"]);
    let list = std::fs::read_to_string(out.join("lists/2024-03.csv")).unwrap();
    for (i, (before, after)) in cases.iter().enumerate() {
        let row = list.lines().find(|l| l.starts_with(&format!("{},", i + 1)));
        assert!(
            row.is_some_and(|l| l.contains(&format!(",{after},"))),
            "{before} → {after}: {row:?}"
        );
    }
    let shown = explain(&out, "1", "2024-03");
    assert!(
        shown.contains("New rating on 2024-03: 1520 (+320 from 1200; +320 from a one-off event"),
        "{shown}"
    );
}

/// FIDE's published calculations F-P01/F-P02 through the command line: from October 2025 the
/// 400-point rule no longer applies to players rated 2650 and above, so the 2813 player uses
/// D = 413 (PD .93), while his 2400 opponent still sees him at 2800* (D −400, PD .08).
#[test]
fn the_2650_exemption_through_replay_and_explain() {
    let dir = scratch("exemption");
    let start = write(
        &dir,
        "start.csv",
        "id,rating,k,games\n1,2813,10,500\n2,2400,10,500\n",
    );
    let games = write(
        &dir,
        "games.csv",
        "period,event,white,black,score\n2025-11,Open,1,2,1\n",
    );
    let out = dir.join("run");
    replay_history(&games, &start, "2025-11", &out, &["--quiet"]);
    let explain = |player: &str| explain(&out, player, "2025-11");
    let strong = explain("1");
    assert!(
        strong.contains("2400    413  0.93    1.0   10     +0.70"),
        "{strong}"
    );
    let weaker = explain("2");
    assert!(
        weaker.contains("2800*   -400  0.08    0.0   10     -0.80"),
        "{weaker}"
    );
}

/// Sonas's examples 1A–1E and 2A–2F (his 2024 proposal) through the command line: his reform
/// applied from January 2024 in a scenario file, the players of the examples in a starting list
/// and a games file, the lists read back as CSV and the delisting of 2E with `explain`.
#[test]
fn sonas_examples_through_replay_and_explain() {
    let dir = scratch("sonas-examples");
    let scenario = write(
        &dir,
        "sonas-2024.toml",
        &format!(
            "extends = {:?}\n[run]\nfrom = \"2023-07\"\n\
             [[revision]]\nfrom = \"2024-01\"\nfloor = 1400\ndiff-cap.scope = \"every-game\"\ninitial.formula = \"performance\"\ninitial.dummy-games = 2\ninitial.dummy-rating = 1800\ninitial.max = 2200\n\
             [[event]]\nkind = \"compression\"\nlist = \"2024-03\"\nremove = true\n\
             [[event]]\nkind = \"compression\"\nlist = \"2024-01\"\n\
             [[event]]\nkind = \"fresh-start\"\nlist = \"2024-01\"\n",
            history()
        ),
    );
    let mut start = vec![
        "id,rating,k,games".to_string(),
        "1,1200,,100".into(),
        "2,1003,,100".into(),
        "5,2350,,100".into(),
        "25,1050,40,10".into(),
    ];
    for (ids, rating) in [
        (100..106, 1333),
        (110..116, 1500),
        (120..125, 1900),
        (130..135, 1217),
        (135..137, 1233),
        (140..143, 1167),
    ] {
        start.extend(ids.map(|id| format!("{id},{rating},,100")));
    }
    let start = write(&dir, "start.csv", &(start.join("\n") + "\n"));
    /// (period, event, event start, player, opponents, wins, draws): the rest are losses.
    type Event = (
        &'static str,
        &'static str,
        &'static str,
        u32,
        Vec<u32>,
        usize,
        usize,
    );
    let events: [Event; 10] = [
        ("2024-01", "", "", 3, (120..125).collect(), 2, 1),
        ("2024-01", "", "", 4, vec![120, 121], 1, 0),
        ("2024-02", "", "", 21, (100..104).collect(), 1, 0),
        ("2024-02", "", "", 22, (100..106).collect(), 1, 0),
        ("2023-07", "", "", 23, vec![110, 111, 112], 1, 0),
        ("2024-02", "", "", 23, vec![110, 111, 112], 0, 0),
        ("2024-02", "D1", "2024-01-05", 24, vec![140, 141, 142], 1, 0),
        ("2024-02", "D2", "2024-01-20", 24, vec![110, 111, 112], 0, 0),
        ("2024-02", "", "", 25, (130..137).collect(), 0, 1),
        ("2024-02", "", "", 26, (100..106).collect(), 5, 0),
    ];
    let mut games = vec!["period,event,event_start,white,black,score".to_string()];
    for (period, event, event_start, player, opponents, wins, draws) in &events {
        for (i, o) in opponents.iter().enumerate() {
            let score = if i < *wins {
                "1"
            } else if i < wins + draws {
                "0.5"
            } else {
                "0"
            };
            games.push(format!(
                "{period},{event},{event_start},{player},{o},{score}"
            ));
        }
    }
    let games = write(&dir, "games.csv", &(games.join("\n") + "\n"));
    let out = dir.join("run");
    let args = [
        "replay",
        &scenario,
        "--games",
        &games,
        "--start-list",
        &start,
    ];
    succeeds(
        &[
            &args[..],
            &["--csv", "--quiet", "--out", out.to_str().unwrap()],
        ]
        .concat(),
    );
    // The `rating` column of a CSV list (id,name,federation,sex,title,rating,…).
    let rating_in = |out: &Path, month: &str, id: u32| {
        let list = std::fs::read_to_string(out.join(format!("lists/{month}.csv"))).unwrap();
        let column = list
            .lines()
            .next()?
            .split(',')
            .position(|c| c == "rating")?;
        let row = list.lines().find(|l| l.starts_with(&format!("{id},")))?;
        row.split(',').nth(column).map(str::to_string)
    };
    let rating = |month: &str, id: u32| rating_in(&out, month, id);
    for (month, id, expected, what) in [
        ("2024-01", 1, Some("1520"), "1A"),
        ("2024-01", 2, Some("1402"), "1B"),
        (
            "2024-01",
            3,
            Some("1940"),
            "1C: a first rating of 1900, compressed",
        ),
        ("2024-01", 4, None, "1D: not yet qualified"),
        ("2024-01", 5, Some("2350"), "1E"),
        ("2024-02", 21, None, "2A: 1/4"),
        ("2024-02", 22, Some("1457"), "2B: 2/8 against 1650"),
        (
            "2024-02",
            23,
            None,
            "2C: July discarded, January's zero disregarded",
        ),
        (
            "2024-02",
            24,
            Some("1457"),
            "2D: a zero in a second event counts",
        ),
        ("2024-01", 25, Some("1430"), "2E before"),
        ("2024-02", 25, None, "2E: 1430 − 80 is below 1400"),
        ("2024-02", 26, Some("1843"), "2F: 6/8 against 1650"),
    ] {
        assert_eq!(rating(month, id).as_deref(), expected, "{what}");
    }
    let without = write(
        &dir,
        "without-fresh-start.toml",
        &std::fs::read_to_string(&scenario).unwrap().replace(
            "[[event]]\nkind = \"fresh-start\"\nlist = \"2024-01\"\n",
            "",
        ),
    );
    let pooled = dir.join("without");
    let args = [
        "replay",
        &without,
        "--games",
        &games,
        "--start-list",
        &start,
    ];
    succeeds(
        &[
            &args[..],
            &["--csv", "--quiet", "--out", pooled.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(
        rating_in(&pooled, "2024-02", 23).as_deref(),
        Some("1457"),
        "2C without a fresh start: 6 games pooled, 1/6 and two draws against 1650"
    );
    let shown = explain(&out, "25", "2024-02");
    assert!(
        shown.contains("Σ(score − PD) = -2.00 · Σ K × (score − PD) = -80.00 → -80"),
        "{shown}"
    );
    assert!(
        shown.contains("New rating 1350 is below the floor of 1400"),
        "{shown}"
    );
}

/// F-P05 and rounding per tournament through the command line: K × n ≤ 700 counts every game of
/// the period whatever the event (39 games in two events: K 20 → 17 on each, the list still shows
/// K 20); and a scenario that rounds per tournament rounds each event (two events of +2.50: +6,
/// where rounding once per period gives +5).
#[test]
fn the_700_cap_over_events_and_rounding_per_tournament_through_explain() {
    let dir = scratch("fp05");
    let mut start = vec!["id,rating,k,games".to_string(), "1,2000,20,100".into()];
    start.extend((100..139).map(|o| format!("{o},2000,20,100")));
    start.extend([
        "3,2593,10,100".into(),
        "4,2400,10,100".into(),
        "5,2400,10,100".into(),
    ]);
    let start = write(&dir, "start.csv", &(start.join("\n") + "\n"));
    let mut games = vec!["period,event,white,black,score".to_string()];
    games.extend((100..139).map(|o| {
        let event = if o < 120 { "A" } else { "B" };
        let score = if o % 2 == 0 { "1" } else { "0" };
        format!("2019-01,{event},1,{o},{score}")
    }));
    games.extend(["2019-01,A,3,4,1".into(), "2019-01,B,3,5,1".into()]);
    let games = write(&dir, "games.csv", &(games.join("\n") + "\n"));
    let per_period = dir.join("per-period");
    replay_history(
        &games,
        &start,
        "2019-01",
        &per_period,
        &["--csv", "--quiet"],
    );
    let explain = |out: &Path, player: &str| explain(out, player, "2019-01");
    let shown = explain(&per_period, "1");
    assert_eq!(shown.matches("   17  ").count(), 39, "{shown}");
    let list = std::fs::read_to_string(per_period.join("lists/2019-01.csv")).unwrap();
    let header: Vec<&str> = list.lines().next().unwrap().split(',').collect();
    let k = header.iter().position(|&c| c == "k").unwrap();
    let row: Vec<&str> = list
        .lines()
        .find(|l| l.starts_with("1,"))
        .unwrap()
        .split(',')
        .collect();
    assert_eq!(row[k], "20", "the list shows the K before the cap");
    assert!(explain(&per_period, "3")
        .contains("Σ K × (score − PD) = +5.00 → +5 (rounded once for the period"));
    let scenario = write(
        &dir,
        "per-tournament.toml",
        &format!(
            "extends = {:?}\n[[revision]]\nfrom = \"2018-01\"\nrounding = \"per-tournament\"\n",
            history()
        ),
    );
    let per_event = dir.join("per-event");
    let args = [
        "replay",
        &scenario,
        "--games",
        &games,
        "--start-list",
        &start,
        "--from",
        "2019-01",
    ];
    succeeds(
        &[
            &args[..],
            &["--quiet", "--out", per_event.to_str().unwrap()],
        ]
        .concat(),
    );
    let shown = explain(&per_event, "3");
    assert!(
        shown.contains("Σ K × (score − PD) = +5.00 → +6 (each tournament rounded"),
        "{shown}"
    );
}

/// Reference §11.1 through the command line: table 8.1.2's edges, each a game whose PD `explain`
/// prints (D beyond 400 from October 2025, for a player rated 2650 and above, whom the 400-point
/// rule no longer limits).
#[test]
fn the_reference_table_edges_through_explain() {
    let dir = scratch("vectors-11-1");
    // (D, PD): the player is rated 2000 (or 3000 for D beyond 400), the opponent 2000 − D.
    let within: [(i32, &str); 22] = [
        (0, "0.50"),
        (3, "0.50"),
        (4, "0.51"),
        (10, "0.51"),
        (11, "0.52"),
        (98, "0.63"),
        (99, "0.64"),
        (100, "0.64"),
        (150, "0.70"),
        (206, "0.76"),
        (207, "0.77"),
        (344, "0.88"),
        (345, "0.89"),
        (357, "0.89"),
        (358, "0.90"),
        (391, "0.91"),
        (392, "0.92"),
        (-3, "0.50"),
        (-4, "0.49"),
        (-150, "0.30"),
        (-400, "0.08"),
        (400, "0.92"),
    ];
    let beyond: [(i32, &str); 4] = [(411, "0.92"), (412, "0.93"), (735, "0.99"), (736, "1.00")];
    for (list, own, cases) in [
        ("2019-03", 2000, &within[..]),
        ("2025-11", 3000, &beyond[..]),
    ] {
        let mut start = vec!["id,rating,k,games".to_string()];
        let mut games = vec!["period,event,white,black,score".to_string()];
        for (i, (d, _)) in cases.iter().enumerate() {
            let (player, opponent) = (1000 + i, 2000 + i);
            start.push(format!("{player},{own},10,500"));
            start.push(format!("{opponent},{},10,500", own - d));
            games.push(format!("{list},Open,{player},{opponent},0.5"));
        }
        let start = write(
            &dir,
            &format!("{list}-start.csv"),
            &(start.join("\n") + "\n"),
        );
        let games = write(
            &dir,
            &format!("{list}-games.csv"),
            &(games.join("\n") + "\n"),
        );
        let out = dir.join(list);
        replay_history(&games, &start, list, &out, &["--quiet"]);
        for (i, (d, pd)) in cases.iter().enumerate() {
            let player = (1000 + i).to_string();
            let shown = explain(&out, &player, list);
            let expected = format!("{d:>5}  {pd:>4}    0.5");
            assert!(
                shown.contains(&expected),
                "D {d}: {expected:?} not in\n{shown}"
            );
        }
    }
}
