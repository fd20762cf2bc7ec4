//! Games as Parquet, month-partitioned datasets and large sorted CSVs, replayed list by list as
//! the whole file is.

use std::path::{Path, PathBuf};
use std::process::Command;

use polars::prelude::*;

use super::common::*;

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
    // Starts are dates and events a Categorical: no string per row to write or to read back.
    let df = ParquetReader::new(std::fs::File::open(&games).unwrap())
        .finish()
        .unwrap();
    assert_eq!(df.column("event_start").unwrap().dtype(), &DataType::Date);
    assert!(df.column("event").unwrap().dtype().is_categorical());
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
        // A run is never written over the working directory, which it could not replace in use.
        let working = if scenarios.len() == 1 { &dir } else { &out };
        let r = Command::new(env!("CARGO_BIN_EXE_elosim"))
            .args(&args)
            .current_dir(working)
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
