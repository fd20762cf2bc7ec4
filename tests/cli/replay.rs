//! Whole replays from the command line: the default run, the real data of `data/`, every
//! rating system, several scenarios on one game set.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::common::*;

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
        shown.contains("Era 10: tournaments starting 2017-01 to 2017-06"),
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

/// A FIDE list names its month (header or FIDE's file name), a table may in a `month` column: a
/// run that starts from another month's list is refused, and a table's months must agree.
#[test]
fn a_starting_list_of_another_month_is_refused() {
    let dir = scratch("start-month");
    let games = write(
        &dir,
        "games.csv",
        "period,white,black,score\n2019-03,1701991,1401815,1\n",
    );
    let out = dir.join("run");
    // APR03FRL.TXT lists 13 ids twice: --skip-invalid keeps the first entries.
    let replay_from = |start: &str, skip: &[&str]| {
        let args = [
            "replay",
            &history(),
            "--games",
            &games,
            "--start-list",
            start,
        ];
        let rest = [
            "--from",
            "2019-03",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        elosim(&[&args[..], skip, &rest[..]].concat())
    };
    let fide = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fide-lists/APR03FRL.TXT");
    let r = replay_from(fide.to_str().unwrap(), &["--skip-invalid"]);
    assert!(
        text(&r.stderr).contains(
            "APR03FRL.TXT is the list of 2003-04, but the run starts from the list of 2019-02"
        ),
        "{}",
        text(&r.stderr)
    );
    let mixed = write(
        &dir,
        "mixed.csv",
        "id,rating,month\n1701991,2400,2019-02\n1401815,2500,2019-01\n",
    );
    let r = replay_from(&mixed, &[]);
    assert!(
        text(&r.stderr).contains(
            "mixed.csv, line 3, column month: expected 2019-02, the month of line 2, got 2019-01"
        ),
        "{}",
        text(&r.stderr)
    );
    let stated = write(
        &dir,
        "2019-03-start.csv",
        "id,rating,month\n1701991,2400,2019-02\n1401815,2500,2019-02\n",
    );
    let r = replay_from(&stated, &[]);
    assert!(r.status.success(), "{}", text(&r.stderr));
}

/// The README's first what-if must show a difference on the default run's games (issue 31: the
/// Sonas 2017 what-if it used to show changed nothing there).
#[test]
fn the_readmes_what_if_changes_the_default_runs_ratings() {
    let dir = scratch("readme-what-if");
    replay_shipped("kaggle2010", &dir.join("history"));
    replay_shipped("kaggle2010-k-2011", &dir.join("what-if"));
    let compared = succeeds(&[
        "compare",
        dir.join("history").to_str().unwrap(),
        dir.join("what-if").to_str().unwrap(),
    ]);
    let all = compared
        .lines()
        .find(|line| line.starts_with("all "))
        .unwrap_or_else(|| panic!("{compared}"));
    let rmse: f64 = all.split_whitespace().nth(5).unwrap().parse().unwrap();
    assert!(rmse > 5.0, "{compared}");
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert!(readme.contains("replay scenarios/kaggle2010-k-2011.toml"));
}

/// A newcomer who reads the README top to bottom learns how to get `elosim` on the PATH before the
/// first example that calls it by name.
#[test]
fn the_readme_says_how_to_call_elosim_before_calling_it_by_name() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let mut in_code = false;
    let mut install = None;
    for (number, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if in_code && line.starts_with("cargo install --locked --path .") {
            install = Some(number);
        } else if in_code && (line.starts_with("elosim ") || line.starts_with("$ elosim ")) {
            assert!(install.is_some(), "README line {}: {line}", number + 1);
            return;
        }
    }
    panic!("no example calls elosim by name");
}

/// `check` describes the system a scenario runs: how it starts a player on no starting list, and
/// none of FIDE's eras or events, which do not apply to it.
#[test]
fn check_describes_the_system_the_scenario_runs() {
    for (scenario, newcomers) in [
        (
            "scenarios/glicko2.toml",
            "rated 1500 with RD 350 and volatility 0.06 from their first game",
        ),
        (
            "scenarios/glicko.toml",
            "rated 1500 with RD 350 from their first game",
        ),
        (
            "scenarios/uscf-classic.toml",
            "provisional for their first 20 games",
        ),
        (
            "scenarios/gcr.toml",
            "every player starts each list's pass over all games at 1500",
        ),
        ("scenarios/berkin.toml", "rated 1500 logarithmic points"),
        (
            "scenarios/elo-k20.toml",
            "rated 2200 from their first game\n",
        ),
    ] {
        let shown = succeeds(&["check", scenario]);
        assert!(
            shown.contains(&format!("Players on no starting list: {newcomers}")),
            "{shown}"
        );
        for fide in ["Era 1", "new for K", "compression", "Events:"] {
            assert!(!shown.contains(fide), "{scenario}: {fide}\n{shown}");
        }
        assert!(shown.contains("FIDE's eras, bootstrap and one-off events do not apply"));
    }
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
        replay_shipped(system, &out);
        let resolved = std::fs::read_to_string(out.join("scenario.resolved.toml")).unwrap();
        assert!(
            resolved.contains(&format!("system = \"{system}\"").replace("elo-k20", "elo")),
            "{resolved}"
        );
        // explain prints FIDE's calculation only, and says so.
        let explained = elosim(&[
            "explain",
            out.to_str().unwrap(),
            "--player",
            "4",
            "--period",
            "2020-06",
        ]);
        assert!(!explained.status.success());
        assert!(
            text(&explained.stderr).contains("explain prints FIDE's calculation"),
            "{}",
            text(&explained.stderr)
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

/// Any scenario on your own data: a games file named with `--games` is read by its own header, so
/// every shipped scenario (several of which read the Kaggle layout of their own data file)
/// replays a canonical CSV; `--system` tries another rating system with its defaults.
#[test]
fn every_shipped_scenario_replays_a_canonical_csv_given_on_the_command_line() {
    let dir = scratch("own-data");
    let games = fixture("games-2019.csv");
    let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&scenarios)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 14);
    for scenario in &names {
        let out = dir.join(scenario.file_stem().unwrap());
        let args = ["replay", scenario.to_str().unwrap(), "--games", &games];
        succeeds(&[&args[..], &["--quiet", "--out", out.to_str().unwrap()]].concat());
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        assert_eq!(summary["games"]["format"], "canonical", "{scenario:?}");
        assert_eq!(summary["games"]["read"], 12, "{scenario:?}");
        // The resolved scenario repeats the run on this file, read by its header.
        let resolved = std::fs::read_to_string(out.join("scenario.resolved.toml")).unwrap();
        assert!(!resolved.contains("format ="), "{scenario:?}: {resolved}");
    }
    let out = dir.join("system");
    let shown = succeeds(&[
        "replay",
        &history(),
        "--games",
        &games,
        "--from",
        "2019-03",
        "--system",
        "glicko2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        shown.contains("Replayed fide-historical-glicko2"),
        "{shown}"
    );
    let resolved = std::fs::read_to_string(out.join("scenario.resolved.toml")).unwrap();
    assert!(resolved.contains("system = \"glicko2\""), "{resolved}");
    assert!(
        resolved.contains("[glicko2]\ninitial-rating = 1500.0"),
        "{resolved}"
    );
    let bad = elosim(&["replay", &history(), "--system", "glicko3"]);
    assert!(text(&bad.stderr).contains("possible values: fide, elo, glicko, glicko2"));
}

/// Your own games with no scenario: `--system` (FIDE's without it) with its defaults over the
/// games' own months, named after the games, with nothing of the default (Kaggle) scenario: not its
/// calendar, its seeding at 2200 nor its layout; the resolved scenario repeats the run.
#[test]
fn own_games_with_a_system_alone_replay_that_system_over_their_months() {
    let dir = scratch("own-data-system");
    let out = dir.join("run");
    let games = fixture("games-2019.csv");
    let args = ["replay", "--games", &games, "--system", "glicko2"];
    let shown = succeeds(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(
        shown.contains("Replayed games-2019-glicko2 (")
            && shown.contains("2 lists, 2019-03 to 2019-04"),
        "{shown}"
    );
    let resolved = std::fs::read_to_string(out.join("scenario.resolved.toml")).unwrap();
    for expected in [
        "name = \"games-2019-glicko2\"",
        "[calendar]\nstart = \"2019-02\"\nend = \"2019-04\"",
        "[run]\nfrom = \"2019-03\"\nto = \"2019-04\"",
        "unknown-players = \"newcomer\"",
        "[glicko2]\ninitial-rating = 1500.0",
    ] {
        assert!(resolved.contains(expected), "{expected}: {resolved}");
    }
    for leaked in ["kaggle", "Kaggle", "seed-rating", "month-1", "format ="] {
        assert!(!resolved.contains(leaked), "{leaked}: {resolved}");
    }
    let again = dir.join("again");
    let resolved = out.join("scenario.resolved.toml");
    let shown = succeeds(&[
        "replay",
        resolved.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(shown.contains("Replayed games-2019-glicko2 ("), "{shown}");
    let lists = |dir: &Path| std::fs::read(dir.join("lists.parquet")).unwrap();
    assert_eq!(lists(&out), lists(&again));
    // Without --system: today's FIDE rules, as plainly.
    let fide = dir.join("fide");
    let shown = succeeds(&["replay", "--games", &games, "--out", fide.to_str().unwrap()]);
    assert!(shown.contains("Replayed games-2019-fide ("), "{shown}");
    let resolved = std::fs::read_to_string(fide.join("scenario.resolved.toml")).unwrap();
    for leaked in ["kaggle", "Kaggle", "seed-rating", "month-1", "format ="] {
        assert!(!resolved.contains(leaked), "{leaked}: {resolved}");
    }
}

/// Glicko and Glicko-2 as R PlayerRatings computes them: `scenarios/playerratings-glicko.toml` and
/// `playerratings-glicko2.toml` on the Kaggle 2010 games give every one of the 7,301 players the
/// package's own rating and deviation (`data/reference/playerratings/`, its `glicko()` and
/// `glicko2()` outputs with its defaults) within 1e-6.
#[test]
fn playerratings_glicko_and_glicko2_match_the_package_for_every_player() {
    let dir = scratch("playerratings");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (scenario, reference) in [
        ("playerratings-glicko", "glicko_init2200_300_c15.csv"),
        (
            "playerratings-glicko2",
            "glicko2_init2200_300_015_tau12.csv",
        ),
    ] {
        let out = dir.join(scenario);
        replay_shipped(scenario, &out);
        // The last list whole (lists.parquet holds each list's changes).
        let list = succeeds(&["list", out.to_str().unwrap(), "--month", "2020-11", "--csv"]);
        let mut lines = list.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let (id, exact, rd) = (column("id"), column("rating_exact"), column("rd"));
        let last: std::collections::HashMap<i64, (f64, f64)> = lines
            .map(|line| {
                let f: Vec<&str> = line.split(',').collect();
                (
                    f[id].parse().unwrap(),
                    (f[exact].parse().unwrap(), f[rd].parse().unwrap()),
                )
            })
            .collect();
        let reference =
            std::fs::read_to_string(repo.join("data/reference/playerratings").join(reference))
                .unwrap();
        let mut players = 0;
        for line in reference.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let (player, rating, deviation): (i64, f64, f64) = (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            );
            let (ours, our_rd) = last[&player];
            assert!(
                (ours - rating).abs() < 1e-6,
                "{scenario}, player {player}: {ours} against {rating}"
            );
            assert!(
                (our_rd - deviation).abs() < 1e-6,
                "{scenario}, player {player}: RD {our_rd} against {deviation}"
            );
            players += 1;
        }
        assert_eq!((players, last.len()), (7301, 7301), "{scenario}");
    }
}

/// Reference §1 through the command line: an event that crosses the 1st of a month counts its
/// opponents at the list in force when it began. Cross-Open starts on 30 August; D gains 20 on the
/// September list from Aug-Open, but A's two draws count D at 1600: A 1986 on 2023-10, not 1987,
/// and `explain` shows the event's start for both games. The same from a PGN without EventDate,
/// where the event is rated on one list, after its last game.
#[test]
fn an_event_across_the_1st_of_a_month_uses_the_list_of_its_start() {
    let dir = scratch("cross");
    let start = write(
        &dir,
        "start.csv",
        "id,rating,k,games\n1,2000,20,50\n3,1800,20,50\n4,1600,20,50\n5,1600,20,50\n6,1600,20,50\n",
    );
    let csv = write(
        &dir,
        "games.csv",
        "period,date,event,white,black,score\n2023-09,2023-08-10,Aug-Open,4,5,1\n2023-09,2023-08-11,Aug-Open,4,6,1\n2023-10,2023-08-30,Cross-Open,1,3,0.5\n2023-10,2023-09-02,Cross-Open,1,4,0.5\n",
    );
    let game = |event: &str, date: &str, white: u32, black: u32, result: &str| {
        format!("[Event \"{event}\"]\n[Date \"{date}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n{result}\n\n")
    };
    let pgn = write(
        &dir,
        "games.pgn",
        &[
            game("Aug-Open", "2023.08.10", 4, 5, "1-0"),
            game("Aug-Open", "2023.08.11", 4, 6, "1-0"),
            game("Cross-Open", "2023.08.30", 1, 3, "1/2-1/2"),
            game("Cross-Open", "2023.09.02", 1, 4, "1/2-1/2"),
        ]
        .concat(),
    );
    for (games, name) in [(&csv, "run-csv"), (&pgn, "run-pgn")] {
        let out = dir.join(name);
        replay_history(games, &start, "2023-09", &out, &["--csv", "--quiet"]);
        let october = std::fs::read_to_string(out.join("lists/2023-10.csv")).unwrap();
        assert!(
            october
                .lines()
                .any(|l| l.starts_with("1,") && l.contains(",1986,")),
            "{games}:\n{october}"
        );
        let shown = explain(&out, "1", "2023-10");
        for expected in [
            "Cross-Open       2023-08-30           3      1800    200  0.76    0.5   20     -5.20",
            "Cross-Open       2023-08-30           4      1600    400  0.92    0.5   20     -8.40",
            "New rating on 2023-10: 1986 (-14 from 2000)",
        ] {
            assert!(
                shown.contains(expected),
                "{games}: {expected:?} not in:\n{shown}"
            );
        }
    }
}

/// Seed 003's worked example through a replay: 2.5 out of 3 gives 1530 and 1469 on the list, the
/// seed's truncated ratings (rounding would give 1531).
#[test]
fn game_courier_ratings_publish_the_seeds_example() {
    let dir = scratch("gcr-seed");
    let games = write(
        &dir,
        "games.csv",
        "period,white,black,score\n2019-03,1,2,1\n2019-03,1,2,1\n2019-03,2,1,0.5\n",
    );
    let out = dir.join("run");
    let args = [
        "replay",
        &history(),
        "--games",
        &games,
        "--from",
        "2019-03",
        "--system",
        "gcr",
    ];
    succeeds(
        &[
            &args[..],
            &["--csv", "--quiet", "--out", out.to_str().unwrap()],
        ]
        .concat(),
    );
    let list = std::fs::read_to_string(out.join("lists/2019-03.csv")).unwrap();
    assert!(
        list.lines()
            .any(|l| l.starts_with("1,") && l.contains(",1530,")),
        "{list}"
    );
    assert!(
        list.lines()
            .any(|l| l.starts_with("2,") && l.contains(",1469,")),
        "{list}"
    );
}

/// A run that covers eras the scenario marks `approximate` says so: on the terminal, in
/// `summary.json`, in `elosim check` and in the HTML report; a run of later eras says nothing.
#[test]
fn runs_over_approximate_eras_say_so() {
    let dir = scratch("approximate");
    let start = write(&dir, "start.csv", "id,rating\n1,2200\n2,2100\n");
    let games = write(
        &dir,
        "games.csv",
        "period,white,black,score\n2005-04,1,2,1\n2005-04,2,1,0.5\n",
    );
    let out = dir.join("run");
    let shown = replay_history(&games, &start, "2005-04", &out, &[]);
    assert!(
        shown.contains("approx   tournaments starting 2004-07 to 2005-06 are rated under rules that only approximate FIDE's practice (1 era;"),
        "{shown}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let eras = summary["approximate"].as_array().unwrap();
    assert_eq!(eras.len(), 1);
    assert_eq!(
        (eras[0]["from"].as_str(), eras[0]["to"].as_str()),
        (Some("2004-07"), Some("2005-06"))
    );
    assert!(eras[0]["why"]
        .as_str()
        .unwrap()
        .contains("tournament-average method"));
    assert!(succeeds(&["check", &history()]).contains("APPROXIMATE: until April 2006"));
    let html = dir.join("report.html");
    succeeds(&[
        "report",
        out.to_str().unwrap(),
        "--out",
        html.to_str().unwrap(),
    ]);
    assert!(std::fs::read_to_string(&html)
        .unwrap()
        .contains("<b>Approximate:</b> tournaments starting 2004-07"));
    let later = dir.join("later");
    let quiet = succeeds(&[
        "replay",
        &fixture("scenario-2019.toml"),
        "--out",
        later.to_str().unwrap(),
    ]);
    assert!(!quiet.contains("  approx   "), "{quiet}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(later.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["approximate"], serde_json::json!([]));
}

/// A replay in which no game reaches a list computed is refused, not written as a run of empty
/// lists: a games file of a header only, and a window after the last game.
#[test]
fn a_replay_that_rates_no_game_is_refused() {
    let dir = scratch("rates-nothing");
    let empty = write(&dir, "empty.csv", "period,white,black,score\n");
    let out = dir.join("run");
    let r = elosim(&[
        "replay",
        &history(),
        "--games",
        &empty,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        text(&r.stderr).contains("empty.csv: no game to replay: it holds none"),
        "{}",
        text(&r.stderr)
    );
    let games = fixture("games-2019.csv");
    let r = elosim(&[
        "replay",
        &history(),
        "--games",
        &games,
        "--from",
        "2025-01",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        text(&r.stderr).contains("no game falls on the lists computed from 2025-01:")
            && text(&r.stderr).contains("games before it, 0 after"),
        "{}",
        text(&r.stderr)
    );
    assert!(!out.exists());
}

/// The real rows of FIDE's January 2025 list shipped in `data/fide-lists-2025/`, as a CSV of the
/// XML download's columns.
const DOWNLOAD_CSV: &str =
    "id,name,federation,sex,title,w_title,o_title,foa_title,rating,games,k,birth_year,flag
100013,\"Campora, Daniel H.\",ARG,M,GM,,,,2353,7,10,1957,
100145,\"Felice, Carolina\",ARG,F,,,,,1927,0,40,,wi
100528,\"Devcic, Marcos\",ARG,M,,,,,2237,0,20,1959,
101591,\"D'Israel, Davy\",ARG,M,,,,AFM,2133,0,20,1957,i
107565,\"Araoz, Claudio Alberto\",ARG,M,,,FI,AIM,1795,0,20,1961,
109363,\"Francia, Victor\",CRC,M,,,NA,,1537,5,40,1969,
109878,\"Lujan, Carolina\",ARG,F,IM,WGM,FT,,2259,0,10,1985,w
182605,\"Federico, Daniel\",ARG,M,,,,,1413,5,40,1961,
1503014,\"Carlsen, Magnus\",NOR,M,GM,,,,2831,0,10,1990,
";

/// FIDE's downloads as starting lists: today's TXT (January 2025), the XML (February 2025) and the
/// CSV of the XML's columns (January 2025), each with its month and every player's details. One
/// game the month after, Campora (2353, K 10) beating Devcic (2237, K 20): PD 116, expected 0.66
/// (table 8.1.2, reference §2.3: 114–121), so Campora gains 10 × 0.34 = 3.4 → +3 and Devcic loses
/// 20 × 0.34 = 6.8 → −7 (computed by hand).
#[test]
fn fide_downloads_serve_as_starting_lists() {
    let dir = scratch("fide-downloads");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fide-lists-2025");
    let csv = write(&dir, "standard-2025-01.csv", DOWNLOAD_CSV);
    let cases = [
        (
            data.join("standard_jan25frl.txt").display().to_string(),
            "2025-02",
            "FIDE list, fixed width (today's download with FOA titles) of 2025-01",
            (2353, 2237),
        ),
        (
            data.join("standard_feb25frl_xml.xml").display().to_string(),
            "2025-03",
            "FIDE list, XML download of 2025-02",
            (2355, 2237),
        ),
        (
            csv,
            "2025-02",
            "FIDE list, CSV of the XML download's columns of 2025-01",
            (2353, 2237),
        ),
    ];
    for (i, (list, month, kind, (campora, devcic))) in cases.into_iter().enumerate() {
        let games = write(
            &dir,
            "g.csv",
            &format!("period,white,black,score\n{month},100013,100528,1\n"),
        );
        let out = dir.join(format!("run-{i}"));
        let shown = succeeds(&[
            "replay",
            &history(),
            "--games",
            &games,
            "--start-list",
            &list,
            "--from",
            month,
            "--to",
            month,
            "--csv",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            shown.contains(&format!("9 players on {list} ({kind})")),
            "{shown}"
        );
        let rows = std::fs::read_to_string(out.join(format!("lists/{month}.csv"))).unwrap();
        let row = |id: &str| {
            rows.lines()
                .find(|l| l.starts_with(&format!("{id},")))
                .unwrap_or_else(|| panic!("{id} not in {rows}"))
                .to_string()
        };
        assert!(
            row("100013").starts_with(&format!(
                "100013,\"Campora, Daniel H.\",ARG,M,GM,{},1,10,1957,",
                campora + 3
            )),
            "{list}: {rows}"
        );
        assert!(
            row("100528").starts_with(&format!(
                "100528,\"Devcic, Marcos\",ARG,M,,{},1,20,1959,",
                devcic - 7
            )),
            "{list}: {rows}"
        );
        assert!(
            row("109878").starts_with("109878,\"Lujan, Carolina\",ARG,F,IM,2259,0,10,1985,"),
            "{list}: {rows}"
        );
        assert!(row("100145").contains(",1927,0,40,,i,"), "{list}: {rows}");
    }
}
