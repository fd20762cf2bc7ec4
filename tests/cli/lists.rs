//! A run's `lists.parquet` holds the starting list whole, then each list's changes; `elosim list`
//! gives any month's list whole.

use polars::prelude::*;

use crate::common::*;

/// The small world replayed into a scratch directory's `run`, with `extra` arguments.
fn small_run(name: &str, extra: &[&str]) -> (std::path::PathBuf, String) {
    let dir = scratch(name);
    let run = dir.join("run").display().to_string();
    let mut args = vec!["replay", "--quiet", "--out", &run];
    let scenario = fixture("scenario-2019.toml");
    args.push(&scenario);
    args.extend_from_slice(extra);
    succeeds(&args);
    (dir, run)
}

/// The small world replayed with `--csv` (whole monthly files, FIDE's column order): `elosim list`
/// gives each month's list with the same players and values, while `lists.parquet` holds only
/// the rows that changed (105 sits out April 2019: no row of theirs that month).
#[test]
fn list_gives_each_month_whole_from_the_changes() {
    let (_, run) = small_run("lists-whole", &["--csv"]);
    let run = run.as_str();
    let mut whole = 0;
    for month in ["2019-02", "2019-03", "2019-04"] {
        let file = std::fs::read_to_string(format!("{run}/lists/{month}.csv")).unwrap();
        let listed = succeeds(&["list", run, "--month", month, "--csv"]);
        let (file, listed) = (csv_rows(&file), csv_rows(&listed));
        assert_eq!(file.len(), listed.len(), "{month}");
        for (a, b) in file.iter().zip(&listed) {
            for column in ["id", "rating", "games", "k", "total_games", "new", "change"] {
                assert_eq!(a[column], b[column], "{month}, {column}");
            }
            let flag = if b["status"] == "inactive" { "i" } else { "" };
            assert_eq!(a["flag"], flag, "{month}");
        }
        whole += file.len();
    }
    let lists = ParquetReader::new(std::fs::File::open(format!("{run}/lists.parquet")).unwrap())
        .finish()
        .unwrap();
    assert_eq!((whole, lists.height()), (19, 17));
    let month = lists
        .column("month")
        .unwrap()
        .cast(&DataType::String)
        .unwrap();
    let month = month.str().unwrap();
    let id = lists.column("id").unwrap().i64().unwrap();
    let april: Vec<i64> = (0..lists.height())
        .filter(|&i| month.get(i) == Some("2019-04"))
        .filter_map(|i| id.get(i))
        .collect();
    assert!(!april.contains(&105) && april.len() < 7, "{april:?}");
    let last = succeeds(&["list", run, "--csv"]);
    assert_eq!(
        csv_rows(&last).iter().find(|r| r["id"] == "105").map(|r| (
            r["rating"].as_str(),
            r["games"].as_str(),
            r["change"].as_str()
        )),
        Some(("2110", "0", "0"))
    );
}

/// `--top` ranks, `--parquet` writes the list with `lists.parquet`'s columns, and a month the run
/// has no list for is refused with the run's span.
#[test]
fn list_ranks_writes_parquet_and_refuses_unknown_months() {
    let (dir, run) = small_run("lists-top", &[]);
    let run = run.as_str();
    let top = succeeds(&["list", run, "--top", "2"]);
    let lines: Vec<Vec<&str>> = top
        .lines()
        .skip(3)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        lines.iter().map(|l| (l[0], l[1], l[2])).collect::<Vec<_>>(),
        [("1", "103", "2199"), ("2", "105", "2110")],
        "{top}"
    );
    assert!(top.starts_with("small-2019: the 2019-04 list, 2 players, highest rated"));
    let file = dir.join("april.parquet");
    succeeds(&["list", run, "--parquet", file.to_str().unwrap()]);
    let april = ParquetReader::new(std::fs::File::open(&file).unwrap())
        .finish()
        .unwrap();
    let lists = ParquetReader::new(std::fs::File::open(format!("{run}/lists.parquet")).unwrap())
        .finish()
        .unwrap();
    assert_eq!(april.schema(), lists.schema());
    assert_eq!(april.height(), 7);
    let refused = elosim(&["list", run, "--month", "2018-01"]);
    assert!(!refused.status.success());
    let message = text(&refused.stderr);
    assert!(
        message.contains("has no list for 2018-01; its lists run from 2019-02 to 2019-04"),
        "{message}"
    );
}

/// The ids of a run's table's columns, each once.
fn ids_of(table: &std::path::Path, columns: &[&str]) -> std::collections::BTreeSet<String> {
    let df = ParquetReader::new(std::fs::File::open(table).unwrap())
        .with_columns(Some(columns.iter().map(|c| c.to_string()).collect()))
        .finish()
        .unwrap();
    let mut ids = std::collections::BTreeSet::new();
    for column in columns {
        let text = df.column(column).unwrap().cast(&DataType::String).unwrap();
        ids.extend(text.str().unwrap().iter().flatten().map(str::to_string));
    }
    ids
}

/// The ids of a run's starting list: `lists.parquet`'s rows of its first month.
fn starting_list(lists: &std::path::Path) -> Vec<String> {
    let df = ParquetReader::new(std::fs::File::open(lists).unwrap())
        .with_columns(Some(vec!["month".into(), "id".into()]))
        .finish()
        .unwrap();
    let month = df.column("month").unwrap().cast(&DataType::String).unwrap();
    let months: Vec<&str> = month.str().unwrap().iter().flatten().collect();
    let first = months.iter().min().copied().unwrap_or("");
    let ids = df.column("id").unwrap().cast(&DataType::String).unwrap();
    ids.str()
        .unwrap()
        .iter()
        .zip(&months)
        .filter(|(_, m)| **m == first)
        .filter_map(|(id, _)| id.map(str::to_string))
        .collect()
}

/// `compare` tells who played from `periods.parquet` where players on no starting list enter as
/// unrated newcomers (src/report/compare/absence.rs): under FIDE's regulations every player of a
/// game in `games.parquet` is on the starting list or has a row there (their pool, or the rated
/// periods after a first rating listed them), and every row there is of a player who played.
/// Checked on a small generated world under FIDE's history (floors, first ratings from pools,
/// round robins) and on the Belgian round reports, whose listed players' games against players
/// never rated leave them without a period.
#[test]
fn every_player_of_a_fide_run_s_games_has_a_period() {
    let dir = scratch("played-periods");
    let world = dir.join("world");
    let text = |p: &std::path::Path| p.display().to_string();
    succeeds(&[
        "generate",
        "--scale",
        "0.005",
        "--seed",
        "3",
        "--no-equilibrium",
        "--quiet",
        "--out",
        &text(&world),
    ]);
    let runs: [(&str, Vec<String>); 2] = [
        (
            "history",
            [
                &repo("scenarios/fide-historical.toml"),
                "--games",
                &text(&world.join("games.parquet")),
                "--start-list",
                &text(&world.join("start-list.parquet")),
                "--from",
                "2001-04",
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            "belgian",
            [
                &repo("scenarios/fide-historical.toml"),
                "--games",
                &repo("data/trf/belgian-interclubs-2023-24/rounds"),
                "--start-list",
                "reported",
                "--from",
                "2023-10",
                "--skip-invalid",
            ]
            .map(String::from)
            .to_vec(),
        ),
    ];
    for (name, arguments) in runs {
        let run = dir.join(name);
        let mut args = vec![
            "replay".to_string(),
            "--quiet".into(),
            "--out".into(),
            text(&run),
        ];
        args.extend(arguments);
        succeeds(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let played = ids_of(&run.join("games.parquet"), &["white", "black"]);
        let periods = ids_of(&run.join("periods.parquet"), &["id"]);
        // And the other way: a row is of a player who played.
        let idle: Vec<&String> = periods.difference(&played).take(5).collect();
        assert!(idle.is_empty(), "{name}: a period without games: {idle:?}");
        let mut known = periods;
        known.extend(starting_list(&run.join("lists.parquet")));
        assert!(played.len() > 100, "{name}: {} players", played.len());
        let without: Vec<&String> = played.difference(&known).take(5).collect();
        assert!(
            without.is_empty(),
            "{name}: played, never listed at the start, no period: {without:?}"
        );
    }
}
