//! The report commands: crosstables, PGN sources, curves, histograms, plots, the HTML report,
//! compare.

use std::path::Path;

use polars::prelude::*;

use super::common::*;

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
    // The axis ends with the last bin drawn (advantages up to 450), not at --max 800.
    let ticks: Vec<&str> = svg_text
        .lines()
        .filter(|l| l.parse::<u32>().is_ok())
        .collect();
    assert_eq!(ticks.last(), Some(&"500"), "{ticks:?}");
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
    // Four groups: rows stop growing at 96 pixels, and the picture stops under them (no blank).
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!(height, 110 + 4 * 96 + 80);
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

/// The dozen players of `report::compare`'s unit tests, through the command line from CSV lists.
/// Why a player is on one of a run's lists and not on another: player 1 (1005) loses twice to
/// 1600s in February 2019 and falls below the 1000 floor (−6.4 → 999), newcomer 100 scores 2.5 of
/// 5 against them and is rated 1600 on the same list. Compared with the starting list, 100 "never
/// qualified" as of January and 1 was "delisted below the floor" by February.
#[test]
fn compare_says_why_a_player_is_missing_from_a_run_list() {
    let dir = scratch("compare-absences");
    let start = write_csv(
        &dir,
        "start.csv",
        "id,rating,k,games",
        std::iter::once("1,1005,40,50".to_string())
            .chain((2..=6).map(|o| format!("{o},1600,20,50"))),
    );
    let games = write_csv(
        &dir,
        "games.csv",
        "period,event,white,black,score",
        [
            "2019-02,Open,2,1,1".to_string(),
            "2019-02,Open,3,1,1".to_string(),
        ]
        .into_iter()
        .chain((2..=6).map(|o| {
            format!(
                "2019-02,Open,100,{o},{}",
                if o < 4 {
                    "1"
                } else if o == 4 {
                    "0.5"
                } else {
                    "0"
                }
            )
        })),
    );
    let run = dir.join("run");
    replay_history(&games, &start, "2019-02", &run, &["--quiet"]);
    let shown = succeeds(&[
        "compare",
        &format!("{}@2019-02", run.display()),
        &format!("{}@2019-01", run.display()),
    ]);
    for expected in [
        "Only on A: 1 (1 never qualified (played, never rated))",
        "Only on B: 1 (1 delisted below the floor)",
    ] {
        assert!(shown.contains(expected), "{expected:?} not in\n{shown}");
    }
}

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
    assert!(text(&r.stderr).contains("1 row left out (--skip-invalid), 1 of them ids listed twice"));
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

/// A reversed window is named as such, not called empty; a run in which nobody was ever rated is
/// told apart from a window that misses its games.
#[test]
fn reversed_windows_and_runs_without_ratings_are_named() {
    let dir = scratch("reversed-windows");
    let run = replayed_fixture(&dir);
    for command in ["crosstable", "score"] {
        let r = elosim(&[command, &run, "--from", "2019-04", "--to", "2019-02"]);
        assert!(
            text(&r.stderr).contains("--from 2019-04 is after --to 2019-02: no month lies between them; did you mean --from 2019-02 --to 2019-04?"),
            "{command}: {}",
            text(&r.stderr)
        );
    }
    let r = elosim(&["crosstable", &run, "--from", "2025-01"]);
    assert!(
        text(&r.stderr).contains("no games to tabulate (from 2025-01 on: "),
        "{}",
        text(&r.stderr)
    );
    let newcomers = dir.join("newcomers");
    succeeds(&[
        "replay",
        "docs/score/kaggle2010-newcomers.toml",
        "--quiet",
        "--out",
        newcomers.to_str().unwrap(),
    ]);
    let r = elosim(&["score", newcomers.to_str().unwrap()]);
    assert!(
        text(&r.stderr).contains("nothing to score, the run rated no game")
            && text(&r.stderr).contains("need rated opponents to earn a first rating"),
        "{}",
        text(&r.stderr)
    );
}

/// `--plot FILE --vs` draws the second table beside the first with -vs added to its name, as
/// `--help` says.
#[test]
fn the_second_crosstable_picture_goes_where_the_help_says() {
    let dir = scratch("vs-plot");
    let run = replayed_fixture(&dir);
    let picture = dir.join("table.svg");
    succeeds(&[
        "crosstable",
        &run,
        "--vs",
        &run,
        "--min-games",
        "1",
        "--plot",
        picture.to_str().unwrap(),
    ]);
    assert!(picture.is_file() && dir.join("table-vs.svg").is_file());
    assert!(succeeds(&["crosstable", "--help"]).contains("(table.png: table-vs.png)"));
    // Every compression a reader takes is named where the commands are listed.
    assert!(succeeds(&["--help"]).contains("plain, .gz, .zst or a .zip of one file"));
}

/// docs/compare.md's table of FIDE's real lists reruns from a clone: every list its commands
/// compare is shipped in data/fide-lists.
#[test]
fn the_compare_docs_lists_are_shipped() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/compare.md")).unwrap();
    let commands: Vec<&str> = docs
        .lines()
        .filter(|l| l.starts_with("elosim compare ") && l.ends_with("--skip-invalid"))
        .collect();
    assert!(commands.len() >= 6, "{commands:?}");
    for command in commands {
        for file in command.split_whitespace().filter(|w| w.ends_with(".TXT")) {
            assert!(
                root.join("data/fide-lists").join(file).is_file(),
                "{file} of docs/compare.md is not in data/fide-lists"
            );
        }
    }
}

/// FIDE's January 2025 list as its TXT download against February's as its XML download (real rows
/// of 9 players each, data/fide-lists-2025/): 8 on both, Federico (1413) only in January, Florentin
/// only in February; the differences +2 (Campora), +40 (Francia), +2 (Carlsen) and five 0, so by
/// hand: mean 44 / 8 = 5.5, RMSE √((4 + 1600 + 4) / 8) = √201 = 14.177, 5 of 8 unchanged, 7 of 8
/// within 5 points; and the two as histograms.
#[test]
fn fide_downloads_compare_as_computed_by_hand() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fide-lists-2025");
    let json = succeeds(&[
        "compare",
        data.join("standard_jan25frl.txt").to_str().unwrap(),
        data.join("standard_feb25frl_xml.xml").to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let figures = [
        "both",
        "only_a",
        "only_b",
        "mean_diff",
        "median_diff",
        "rmse",
        "mae",
        "within_0",
        "within_5",
        "within_25",
    ]
    .map(|k| v[k].as_f64().unwrap());
    assert_eq!(
        figures,
        [8.0, 1.0, 1.0, 5.5, 0.0, 14.177, 5.5, 0.625, 0.875, 0.875]
    );
    assert_eq!(v["largest"][0]["id"], "109363", "{json}");
    // The same lists as histograms, each under its month (the TXT's header, the XML's file name):
    // January 1413, 1537 | 1795, 1927 | 2133, 2237, 2259, 2353 | 2831; February 1577 | 1740, …
    let csv = succeeds(&[
        "histogram",
        data.join("standard_jan25frl.txt").to_str().unwrap(),
        data.join("standard_feb25frl_xml.xml").to_str().unwrap(),
        "--width",
        "400",
        "--format",
        "csv",
    ]);
    assert_eq!(
        csv,
        "month,bin_low,bin_high,players\n\
         2025-01,1200,1600,2\n2025-01,1600,2000,2\n2025-01,2000,2400,4\n2025-01,2400,2800,0\n2025-01,2800,3200,1\n\
         2025-02,1200,1600,1\n2025-02,1600,2000,3\n2025-02,2000,2400,4\n2025-02,2400,2800,0\n2025-02,2800,3200,1\n"
    );
}

/// docs/compare.md's pair of 2025 lists reruns from a clone: the files its command compares are
/// shipped in data/fide-lists-2025, and its table names the 8 federations the copy lacks.
#[test]
fn the_compare_docs_2025_lists_are_shipped() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/compare.md")).unwrap();
    let files: Vec<&str> = docs
        .lines()
        .filter(|l| l.starts_with("elosim compare standard-2025-"))
        .flat_map(|l| l.split_whitespace().filter(|w| w.ends_with(".csv.gz")))
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
    for file in files {
        assert!(
            root.join("data/fide-lists-2025").join(file).is_file(),
            "{file} of docs/compare.md is not in data/fide-lists-2025"
        );
    }
    let words = docs.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("lacks ESP, FRA, GER, IND, IRI, ITA, POL and RUS"));
}

/// `games.parquet` as a run wrote it before the hundredths: each side's `*_expected` and
/// `*_change` as floats, the hundredths over 100 (a real-number system's expected score unrounded).
fn with_float_columns(games: &DataFrame) -> DataFrame {
    let mut old = games.clone();
    for side in ["white", "black"] {
        let over_100 = |name: String| -> Float64Chunked {
            let hundredths = games.column(&name).unwrap().i32().unwrap();
            hundredths
                .iter()
                .map(|h| h.map(|h| f64::from(h) / 100.0))
                .collect()
        };
        let mut expected = over_100(format!("{side}_expected_hundredths"));
        if let Ok(exact) = games.column(&format!("{side}_expected_exact")) {
            expected = exact.f64().unwrap().clone();
            old.drop_in_place(&format!("{side}_expected_exact"))
                .unwrap();
        }
        let change = over_100(format!("{side}_change_hundredths"));
        for (name, values) in [("expected", expected), ("change", change)] {
            old.drop_in_place(&format!("{side}_{name}_hundredths"))
                .unwrap();
            old.with_column(
                values
                    .with_name(format!("{side}_{name}").into())
                    .into_column(),
            )
            .unwrap();
        }
    }
    old
}

/// FIDE's PD and each game's K × (score − PD) are written as the integer hundredths the engine
/// computed, and a real-number system's unrounded expected score beside its hundredths; a run
/// written before, with floats, gives `explain` and `score` the same figures as the same run
/// written now.
#[test]
fn hundredths_and_the_floats_of_older_runs_give_the_same_reports() {
    let dir = scratch("hundredths");
    let fide = replayed_fixture(&dir);
    let glicko = dir.join("glicko").display().to_string();
    succeeds(&[
        "replay",
        &fixture("scenario-2019.toml"),
        "--quiet",
        "--system",
        "glicko",
        "--out",
        &glicko,
    ]);
    let reports = |run: &str| {
        let mut shown = vec![
            succeeds(&["score", run]),
            succeeds(&["score", run, "--format", "json"]),
        ];
        if run == fide {
            for (player, period) in [("101", "2019-03"), ("201", "2019-04"), ("102", "2019-04")] {
                shown.push(explain(Path::new(run), player, period));
            }
        }
        shown
    };
    for run in [&fide, &glicko] {
        let path = format!("{run}/games.parquet");
        let games = ParquetReader::new(std::fs::File::open(&path).unwrap())
            .finish()
            .unwrap();
        let hundredths = games.column("white_expected_hundredths").unwrap();
        assert_eq!(hundredths.dtype(), &DataType::Int32);
        assert!(hundredths
            .i32()
            .unwrap()
            .iter()
            .any(|h| h.is_some_and(|h| h != 50)));
        let change = games.column("black_change_hundredths").unwrap();
        assert_eq!(change.dtype(), &DataType::Int32);
        let exact = games.column("white_expected_exact");
        assert_eq!(exact.is_ok(), run == &glicko, "{run}");
        if let Ok(exact) = exact {
            // The unrounded score is more than its hundredths.
            let rounded = hundredths.i32().unwrap();
            assert!(exact
                .f64()
                .unwrap()
                .iter()
                .zip(rounded.iter())
                .any(|(e, h)| e.unwrap() != f64::from(h.unwrap()) / 100.0));
        }
        // Every game's expected score as `score` reads it, to the last bit.
        let expected = |run: &str| {
            elosim::report::score::ScoredGames::read(Path::new(run))
                .unwrap()
                .expected
        };
        let exactly = expected(run);
        let now = reports(run);
        assert!(now[0].contains("deviance"), "{}", now[0]);
        let mut old = with_float_columns(&games);
        ParquetWriter::new(std::fs::File::create(&path).unwrap())
            .finish(&mut old)
            .unwrap();
        assert_eq!(reports(run), now, "{run}");
        assert_eq!(expected(run), exactly, "{run}");
    }
}
