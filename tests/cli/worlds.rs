//! Generated worlds and their calibration against the published tables.

use std::path::Path;

use super::common::*;

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
        "equilibrium.parquet",
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
    // Every January after the first solved, and said so.
    let solved = summary["equilibrium"].as_array().unwrap();
    assert_eq!(solved.len(), 24, "{summary}");
    assert_eq!(solved[0]["month"], "2002-01");
    assert!(
        solved
            .iter()
            .all(|e| e["players"].as_u64().unwrap() > 0 && e["last_move"].as_f64().unwrap() < 0.01),
        "{summary}"
    );
    // Without it: no equilibrium.parquet, and compare --truth says what to do.
    let without = dir.join("without");
    succeeds(&[
        "generate",
        "--scale",
        "0.003",
        "--seed",
        "7",
        "--quiet",
        "--no-equilibrium",
        "--out",
        without.to_str().unwrap(),
    ]);
    assert!(!without.join("equilibrium.parquet").exists());
    assert_eq!(
        std::fs::read(without.join("games.parquet")).unwrap(),
        std::fs::read(a.join("games.parquet")).unwrap()
    );
    assert_eq!(summary["last_month"], "2025-12");
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
    // The world's starting list is January 2001's: a replay from another month is refused unless
    // forced (issue 31: it was taken as the list of March 2008 without a word).
    let (later_run, history) = (dir.join("later"), history());
    let (games, start) = (a.join("games.parquet"), a.join("start-list.parquet"));
    let later = [
        "replay",
        &history,
        "--quiet",
        "--games",
        games.to_str().unwrap(),
        "--start-list",
        start.to_str().unwrap(),
        "--from",
        "2008-04",
        "--out",
        later_run.to_str().unwrap(),
    ];
    let refused = elosim(&later);
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("start-list.parquet is the list of 2001-01, but the run starts from the list of 2008-01 (its first list computed is 2008-04): replay from the list after it (--from 2001-04), or give the list of 2008-01; --force takes it as the list of 2008-01"),
        "{}",
        text(&refused.stderr)
    );
    assert!(!dir.join("later").exists());
    succeeds(&[&later[..], &["--force"]].concat());
    // The world says which events are round robins (reference §6.5 rates them apart until 2014).
    let canonical = dir.join("world-games.csv");
    succeeds(&[
        "ingest",
        a.join("games.parquet").to_str().unwrap(),
        "--out",
        canonical.to_str().unwrap(),
    ]);
    let canonical = std::fs::read_to_string(&canonical).unwrap();
    let header = canonical.lines().next().unwrap();
    assert!(header.contains(",event_type,"), "{header}");
    for kind in [",swiss,", ",round-robin,"] {
        assert!(canonical.contains(kind), "no {kind} game");
    }
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
    let refused = elosim(&["compare", history_run, "--truth", without.to_str().unwrap()]);
    assert!(
        text(&refused.stderr).contains("no equilibrium.parquet beside it, so the reachable truth is not known (a world from an older elosim, or generated with --no-equilibrium): generate the world again, or compare with --against strength"),
        "{}",
        text(&refused.stderr)
    );
    let by_strength = succeeds(&[
        "compare",
        history_run,
        "--truth",
        without.to_str().unwrap(),
        "--against",
        "strength",
    ]);
    assert!(
        by_strength.contains("every player against strength"),
        "{by_strength}"
    );
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
            "\"fide-1990\" is neither a world file nor a built-in world; the built-in worlds: fide-2001-2025, fide-2001-2025-activity, fide-2001-2025-form",
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

/// The world whose activity comes from FIDE's lists makes the same bytes whatever the threads, its
/// equilibrium included, and other games than the built-in world it extends.
#[test]
fn a_world_playing_as_fides_lists_say_is_repeatable() {
    let dir = scratch("generate-lists");
    let world = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/worlds/fide-2001-2025-lists.toml"
    );
    let made = |name: &str, world: &str, threads: &str| {
        let out = dir.join(name);
        succeeds(&[
            "generate",
            "--world",
            world,
            "--scale",
            "0.003",
            "--seed",
            "7",
            "--quiet",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        ["games.parquet", "equilibrium.parquet"].map(|f| std::fs::read(out.join(f)).unwrap())
    };
    let one = made("one", world, "1");
    assert!(
        one == made("two", world, "2"),
        "games.parquet or equilibrium.parquet differs between thread counts"
    );
    assert!(one[0] != made("default", "fide-2001-2025", "2")[0]);
}

/// Every built-in world generates by name at a tiny scale, and `generate --help` names each.
#[test]
fn every_built_in_world_generates() {
    const BUILT_IN: [(&str, &str); 3] = [
        ("fide-2001-2025", "upset_share = 0.1753"),
        ("fide-2001-2025-activity", "league_share = 0.2064"),
        ("fide-2001-2025-form", "upset_share = 0.0877"),
    ];
    let dir = scratch("built-in-worlds");
    let help = succeeds(&["generate", "--help"]);
    for (name, value) in BUILT_IN {
        assert!(help.contains(name), "{name} not in\n{help}");
        let out = dir.join(name);
        succeeds(&[
            "generate",
            "--world",
            name,
            "--scale",
            "0.002",
            "--seed",
            "3",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        assert_eq!(summary["world"], name);
        assert_eq!(summary["last_month"], "2025-12");
        assert!(summary["games"].as_u64().unwrap() > 10_000, "{summary}");
        // The resolved file holds the world's own values, not only those of the world it extends.
        let resolved = std::fs::read_to_string(out.join("world.toml")).unwrap();
        assert!(
            resolved.contains(&format!("{value}  #")),
            "{name}: {resolved}"
        );
    }
}

/// A study and a calibration take a built-in world other than the default by name.
#[test]
fn a_study_and_a_calibration_name_a_built_in_world() {
    let dir = scratch("built-in-world-study");
    let study = write(
        &dir,
        "study.toml",
        &format!(
            "name = \"on-activity\"\nscenario = {:?}\n\n[input]\nworld = \"fide-2001-2025-activity\"\nscale = 0.002\nseeds = [1]\n\n[[parameter]]\nkey = \"revision[2002-07].floor\"\nvalues = [1801, 2001]\n\n[[measure]]\nkind = \"pool-shape\"\nlist = \"2003-01\"\n",
            history()
        ),
    );
    let out = dir.join("out");
    let shown = succeeds(&["sweep", &study, "--quiet", "--out", out.to_str().unwrap()]);
    assert!(
        shown.contains("built-in world fide-2001-2025-activity at scale 0.002, seeds 1"),
        "{shown}"
    );
    assert!(shown.contains("3 rows in"), "{shown}");
    let calibration = write(
        &dir,
        "calibration.toml",
        &format!(
            "world = \"fide-2001-2025-activity\"\nscenario = {:?}\nscale = 0.002\nseeds = [1]\n\n[[target]]\nlist = {:?}\nlowest = 1800\ntop = 2500\n",
            history(),
            repo("data/fide-lists/APR03FRL.TXT")
        ),
    );
    let shown = succeeds(&["calibrate", &calibration, "--evaluate"]);
    assert!(
        shown.contains("fide-2001-2025-activity at scale 0.002 with seeds [1]: objective"),
        "{shown}"
    );
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
    assert_eq!(csv.lines().filter(|l| l.starts_with("games,")).count(), 14);
    // The run's games at FIDE's size: a world of 0.003 FIDE's size has a third of a thousand
    // times its games; the thresholds follow the size unless given.
    let raw_games: Vec<f64> = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["run_games"].as_f64().unwrap())
        .collect();
    let at_scale = |scale: &str, extra: &[&str]| {
        let args = [
            &["crosstable", run, "--against", published][..],
            &["--table", "2008-2012", "--scale", scale],
            extra,
        ]
        .concat();
        elosim(&args)
    };
    let scaled: serde_json::Value =
        serde_json::from_str(&text(&at_scale("0.003", &["--format", "json"]).stdout)).unwrap();
    assert_eq!(scaled["thresholds"]["size"], 0.003);
    assert_eq!(scaled["thresholds"]["compared_games"], 2);
    assert_eq!(scaled["thresholds"]["covered_games"], 1);
    for (row, raw) in scaled["rows"].as_array().unwrap().iter().zip(&raw_games) {
        let games = row["run_games"].as_f64().unwrap();
        assert!((games - raw / 0.003).abs() < 0.1, "{row} {raw}");
        let ratio = games / row["published_games"].as_f64().unwrap();
        assert!(
            (row["games_ratio"].as_f64().unwrap() - ratio).abs() < 1e-3,
            "{row}"
        );
    }
    let total: f64 = raw_games.iter().sum::<f64>() / 0.003 / 5_302_093.0;
    assert!(
        (scaled["games_ratio"].as_f64().unwrap() - total).abs() < 1e-3,
        "{scaled}"
    );
    assert!(against(&["--table", "2008-2012", "--scale", "0.003"]).contains("row games"));
    let r = at_scale("0", &[]);
    assert!(
        text(&r.stderr)
            .contains("expected a number above 0 (0.1 for a world generated with --scale 0.1)"),
        "{}",
        text(&r.stderr)
    );
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

/// A tiny calibration through the command line: the fitted world file reads back and generates,
/// every evaluation is in the Parquet table, and the same calibration writes the same files.
#[test]
fn calibrate_writes_a_fitted_world_that_generates() {
    let dir = scratch("calibrate");
    write(
        &dir,
        "tiny.toml",
        &format!(
            "name = \"tiny\"\nextends = {:?}\n[world]\nmonths = 30\n",
            repo("worlds/fide-2001-2025.toml")
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
    // --plot draws a `played` target's lists: refused at once without one, drawn with one.
    let plot = dir.join("played.png");
    let plot_arg = plot.to_str().unwrap();
    let r = elosim(&["calibrate", &config, "--evaluate", "--plot", plot_arg]);
    assert!(!r.status.success());
    let stderr = text(&r.stderr);
    assert!(
        stderr.contains("draws the players who played per list of a `played` target"),
        "{stderr}"
    );
    assert!(!plot.exists());
    let r = elosim(&["calibrate", &config, "--plot", plot_arg]);
    assert!(!r.status.success(), "--plot without --evaluate");
    let with_played = write(
        &dir,
        "played.toml",
        &format!(
            "world = \"tiny.toml\"\nscenario = {:?}\nscale = 0.01\nseeds = [3]\n\n[[target]]\nplayed = {:?}\nfrom = \"2015-02\"\nto = \"2016-12\"\n",
            repo("scenarios/fide-historical.toml"),
            repo("data/fide-activity/k-activity-2015-2026.csv")
        ),
    );
    let shown = succeeds(&["calibrate", &with_played, "--evaluate", "--plot", plot_arg]);
    assert!(shown.contains("players who played on 23 lists"), "{shown}");
    assert!(shown.contains("plot     "), "{shown}");
    assert!(std::fs::read(&plot).unwrap().starts_with(b"\x89PNG"));
    // Each seed's world is replayed from its own starting list, whatever came before it.
    let objective = |seeds: &str| {
        let shown = succeeds(&["calibrate", &config, "--evaluate", "--seeds", seeds]);
        let at = shown.find("objective").expect("an objective");
        shown[at..]
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_string()
    };
    assert_eq!(objective("3,4"), objective("4,3"));
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
        "world: expected a quoted string, got 1",
        "surprise: unknown key",
        "scenario: missing",
        "target: missing",
    ] {
        assert!(stderr.contains(part), "{part}\n{stderr}");
    }
}
