//! Tournament Report Files: the Belgian Interclubs 2023–24 as the federation reported them, eleven
//! round reports and one season file, replayed under FIDE's history with each round on the first
//! list after its date (Title Regulations 1.1.4; reference §1, §4b).

use std::path::Path;

use crate::common::*;

fn belgian() -> String {
    format!(
        "{}/data/trf/belgian-interclubs-2023-24",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Each list's games as the run's summary gives them, rated or not counted: nobody starts rated
/// (no starting list), so every game is "not counted".
fn games_by_list(run: &Path) -> Vec<(String, u64)> {
    let summary = std::fs::read_to_string(run.join("summary.json")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    summary["lists"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let games = l["games"].as_u64().unwrap() + l["games_not_counted"].as_u64().unwrap();
            (l["month"].as_str().unwrap().to_string(), games)
        })
        .collect()
}

fn replay_reports(games: &str, out: &Path, extra: &[&str]) -> String {
    let history = history();
    let args = [
        "replay",
        &history,
        "--games",
        games,
        "--from",
        "2023-10",
        "--out",
        out.to_str().unwrap(),
    ];
    succeeds(&[&args[..], extra].concat())
}

/// Counted by hand from the file (`cut -c92-` in blocks of ten): 17,866 played results are 8,933
/// pairings; 316 forfeit marks (`+`/`-`); 3,037 × 11 − 17,866 − 316 = 15,225 blank blocks. The
/// rounds' dates (132, YY/MM/DD) put R1 on October, R2–R3 on November, R4 December, R5 January,
/// R6 February, R7–R8 March, R9–R10 April and R11 May.
#[test]
fn the_season_file_is_rated_round_by_round() {
    let out = scratch("trf-season");
    let printed = replay_reports(&format!("{}/season-whole.txt", belgian()), &out, &[]);
    assert!(printed.contains("8,933 read"), "{printed}");
    assert!(printed.contains("1 report · 3,037 player lines (1 without a FIDE id) · 8,933 games played · not rated: 316 forfeits, 0 of less than one move, byes 0 half-point, 0 full-point, 0 pairing-allocated, 15,225 absences"), "{printed}");
    let expected = [
        ("2023-10", 823),
        ("2023-11", 1643),
        ("2023-12", 817),
        ("2024-01", 808),
        ("2024-02", 816),
        ("2024-03", 1609),
        ("2024-04", 1610),
        ("2024-05", 807),
    ];
    let expected: Vec<(String, u64)> = expected.iter().map(|(m, n)| (m.to_string(), *n)).collect();
    assert_eq!(games_by_list(&out), expected);
}

/// The eleven round reports, read as a directory in name order. R3 cannot be read whole: 335 of
/// its played results name no opponent (0000) and 342 pairings disagree between the two players'
/// lines, which `--skip-invalid` leaves out and counts. The other reports' games go on the list
/// after their round, as the season file's do.
#[test]
fn the_round_reports_are_read_as_a_directory() {
    let out = scratch("trf-rounds");
    let rounds = format!("{}/rounds", belgian());
    fails(
        "trf-rounds-whole",
        &[&history(), "--games", &rounds, "--from", "2023-10"],
        &["ICN_fide_R3.txt, line 16, round 1, column 92–99 (round block): the opponent's line names another opponent in this round", "got rank 3 against rank 23, whose line (line 36) names rank 50"],
    );
    let printed = replay_reports(&rounds, &out, &["--skip-invalid"]);
    assert!(printed.contains("11 reports · 18,692 player lines (268 without a FIDE id) · 8,840 games played · not rated: 335 forfeits"), "{printed}");
    assert!(printed.contains("335 × 92–95 (opponent): a game played against a starting rank that no other 001 line holds"), "{printed}");
    assert!(
        printed.contains(
            "342 × 92–99 (round block): the opponent's line names another opponent in this round"
        ),
        "{printed}"
    );
    let expected = [
        ("2023-10", 823),
        ("2023-11", 828 + 722),
        ("2023-12", 817),
        ("2024-01", 808),
        ("2024-02", 816),
        ("2024-03", 808 + 801),
        ("2024-04", 814 + 796),
        ("2024-05", 807),
    ];
    let expected: Vec<(String, u64)> = expected.iter().map(|(m, n)| (m.to_string(), *n)).collect();
    assert_eq!(games_by_list(&out), expected);
}

/// The same reports give the same files, whatever else is in the directory.
#[test]
fn a_directory_of_reports_replays_to_the_same_bytes() {
    let dir = scratch("trf-dir");
    std::fs::create_dir_all(&dir).unwrap();
    for r in [1, 2] {
        let name = format!("ICN_fide_R{r}.txt");
        std::fs::copy(format!("{}/rounds/{name}", belgian()), dir.join(&name)).unwrap();
    }
    std::fs::write(dir.join("notes.md"), "not a report").unwrap();
    let (a, b) = (dir.join("run-a"), dir.join("run-b"));
    replay_reports(dir.to_str().unwrap(), &a, &[]);
    replay_reports(dir.to_str().unwrap(), &b, &[]);
    assert_eq!(run_files(&a, false), run_files(&b, false));
    assert_eq!(
        games_by_list(&a),
        [("2023-10".to_string(), 823), ("2023-11".to_string(), 828)]
    );
}

/// Reports come compressed as they come plain: a directory of a gzipped and a zstd round report
/// replays to the lists and games of the plain reports.
#[test]
fn compressed_reports_replay_as_the_plain_ones() {
    let dir = scratch("trf-compressed");
    let (plain, packed) = (dir.join("plain"), dir.join("packed"));
    for (r, pack) in [(1, gzip as fn(&[u8]) -> Vec<u8>), (2, zstd)] {
        let name = format!("ICN_fide_R{r}.txt");
        let bytes = std::fs::read(format!("{}/rounds/{name}", belgian())).unwrap();
        for d in [&plain, &packed] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(plain.join(&name), &bytes).unwrap();
        let ext = if r == 1 { "gz" } else { "zst" };
        std::fs::write(packed.join(format!("{name}.{ext}")), pack(&bytes)).unwrap();
    }
    let (a, b) = (dir.join("run-plain"), dir.join("run-packed"));
    replay_reports(plain.to_str().unwrap(), &a, &[]);
    replay_reports(packed.to_str().unwrap(), &b, &[]);
    for table in ["lists.parquet", "games.parquet", "periods.parquet"] {
        assert!(
            std::fs::read(a.join(table)).unwrap() == std::fs::read(b.join(table)).unwrap(),
            "{table} differs"
        );
    }
    assert_eq!(games_by_list(&b).len(), 2);
}

/// `--start-list reported`: the season file's own ratings as the list in force before October
/// 2023. Its 3,037 player lines carry 2,587 ratings (columns 49–52 not blank or 0, counted with
/// `cut -c49-52`; no FIDE id twice), so 2,587 players start rated. Gurevich (200930, 2574, K 10)
/// beat Beukema (1032984, 2362, K 20) in round 1 (24 September, on the October list): D = 212,
/// PD 0.77 and 0.23 by FIDE's table (207–215), so +10 × 0.23 = +2.3 → +2 (2576) and
/// −20 × 0.23 = −4.6 → −5 (2357).
#[test]
fn the_reports_own_ratings_are_the_starting_list() {
    let out = scratch("trf-reported-start");
    let season = format!("{}/season-whole.txt", belgian());
    let printed = replay_reports(&season, &out, &["--start-list", "reported"]);
    assert!(printed.contains("start    2,587 players on "), "{printed}");
    assert!(
        printed.contains("(the ratings its reports carry, each player's earliest)"),
        "{printed}"
    );
    let gurevich = explain(&out, "200930", "2023-10");
    assert!(
        gurevich.contains("Previous list 2023-09: rating 2574 · K 10"),
        "{gurevich}"
    );
    assert!(
        gurevich.contains("1032984      2362    212  0.77    1.0   10     +2.30"),
        "{gurevich}"
    );
    assert!(
        gurevich.contains("New rating on 2023-10: 2576 (+2 from 2574)"),
        "{gurevich}"
    );
    let beukema = explain(&out, "1032984", "2023-10");
    assert!(
        beukema.contains("Previous list 2023-09: rating 2362 · K 20"),
        "{beukema}"
    );
    assert!(
        beukema.contains("New rating on 2023-10: 2357 (-5 from 2362)"),
        "{beukema}"
    );
}

/// The earliest report a player is on gives their starting rating, whatever the files' names:
/// the round reports are read in name order (R1, R10, R11, R2…), and 1048333 is first in R10
/// (2024-03-24) at 2549 but earliest in R3 (2023-10-22) at 2569. Counted from the files (each
/// player's report with the earliest 042 date, its columns 49–52): 2,377 of 3,229 players rated.
#[test]
fn the_earliest_report_gives_the_starting_rating() {
    let out = scratch("trf-reported-rounds");
    let rounds = format!("{}/rounds", belgian());
    let printed = replay_reports(
        &rounds,
        &out,
        &["--start-list", "reported", "--skip-invalid"],
    );
    assert!(printed.contains("start    2,377 players on "), "{printed}");
    let player = explain(&out, "1048333", "2023-11");
    assert!(
        player.contains("Previous list 2023-10: rating 2569 · K 10"),
        "{player}"
    );
}

/// Games that are not reports carry no reported list.
#[test]
fn a_reported_start_needs_reports() {
    fails(
        "trf-reported-csv",
        &[&fixture("scenario-2019.toml"), "--start-list", "reported"],
        &["--start-list reported takes the ratings tournament reports carry, and these games are not tournament reports (TRF)"],
    );
}

/// Crosstables straight from reports, at the ratings the reports carry. Counted from the season
/// file's 001 lines (each pairing once, from the lower starting rank): 8,933 games, 1,016 with a
/// player unrated (rating blank or 0), 6 more with a player below 1400, so 7,911 used.
#[test]
fn a_crosstable_of_the_season_file_uses_the_reported_ratings() {
    let season = format!("{}/season-whole.txt", belgian());
    let printed = succeeds(&["crosstable", &season, "--lowest", "1400"]);
    assert!(printed.contains("Games used: 7,911."), "{printed}");
    assert!(printed.contains("Left out: 6 with a player rated below 1400 (dropped; --below group keeps them as one group); 1,016 without both players' ratings."), "{printed}");
}

/// A directory of reports is read as reports, not taken for a run: rounds 1 and 2 hold 823 + 828
/// games, 175 + 170 with a player unrated and 137 + 125 more with one below 1400 (counted as
/// above), so 1,044 used.
#[test]
fn a_crosstable_of_a_directory_of_reports() {
    let dir = scratch("trf-crosstable-dir");
    for round in ["ICN_fide_R1.txt", "ICN_fide_R2.txt"] {
        std::fs::copy(format!("{}/rounds/{round}", belgian()), dir.join(round)).unwrap();
    }
    let printed = succeeds(&["crosstable", dir.to_str().unwrap(), "--lowest", "1400"]);
    assert!(printed.contains("Games used: 1,044."), "{printed}");
    assert!(
        printed.contains("Left out: 262 with a player rated below 1400"),
        "{printed}"
    );
    assert!(
        printed.contains("345 without both players' ratings."),
        "{printed}"
    );
}

/// `compare RUN REPORTS`: the run's list in force at each report's event against the ratings the
/// reports carry. Replayed from the round reports' own ratings, September (R1, the starting list)
/// agrees with R1 exactly: its 1,664 player lines carry 1,455 ratings. October (R2 and R3): the
/// two reports rate 2,032 players, 12 of them unrated in R1, so never on the run's lists (counted
/// from the files). Gurevich is 2553 in R3 (FIDE's October list); the run gives him 2555: 2553 in
/// R1, he beat Beukema (2351): D = 202, PD 0.76 (198–206), +10 × 0.24 = +2.4 → +2.
#[test]
fn a_run_compared_with_the_reports() {
    let out = scratch("trf-compare");
    let rounds = format!("{}/rounds", belgian());
    let skip = ["--start-list", "reported", "--skip-invalid"];
    replay_reports(&rounds, &out, &skip);
    let run = out.to_str().unwrap();
    let args = [
        "compare",
        run,
        &rounds,
        "--skip-invalid",
        "--format",
        "json",
    ];
    let json: serde_json::Value =
        serde_json::from_str(&succeeds(&[&args[..], &["--largest", "100000"]].concat())).unwrap();
    let september = &json["months"][0];
    assert_eq!(september["a"], "rounds@2023-09");
    assert_eq!(september["b"], "fide-historical@2023-09");
    assert_eq!(
        (september["both"].as_u64(), september["within_0"].as_f64()),
        (Some(1455), Some(1.0))
    );
    let october = &json["months"][1];
    assert_eq!(october["a"], "rounds@2023-10");
    assert_eq!(
        (october["both"].as_u64(), october["only_a"].as_u64()),
        (Some(2020), Some(12))
    );
    assert_eq!(
        october["only_a_reasons"]["never qualified (played, never rated)"],
        12
    );
    let gurevich = october["largest"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "200930")
        .unwrap();
    assert_eq!(
        (gurevich["a"].as_i64(), gurevich["b"].as_i64()),
        (Some(2553), Some(2555))
    );
    // Every month together: each (player, month) on one list only keeps its month's reason.
    let months = json["months"].as_array().unwrap();
    let overall = &json["overall"];
    for side in ["only_a", "only_b"] {
        let reasons = format!("{side}_reasons");
        let sum = |reason: &str| -> u64 {
            months
                .iter()
                .map(|m| m[&reasons][reason].as_u64().unwrap_or(0))
                .sum()
        };
        let mut reasons_seen: std::collections::BTreeSet<String> = months
            .iter()
            .chain([overall])
            .filter_map(|m| m[&reasons].as_object())
            .flat_map(|r| r.keys().cloned())
            .collect();
        reasons_seen.insert("never qualified (played, never rated)".into());
        for reason in reasons_seen.iter().map(String::as_str) {
            assert_eq!(
                overall[&reasons][reason].as_u64().unwrap_or(0),
                sum(reason),
                "{side} {reason}"
            );
        }
        let total: u64 = months.iter().map(|m| m[side].as_u64().unwrap()).sum();
        assert_eq!(overall[side].as_u64(), Some(total), "{side}");
    }
    assert!(overall["only_a_reasons"]["never qualified (played, never rated)"].as_u64() > Some(0));
    let text = succeeds(&["compare", run, &rounds, "--skip-invalid"]);
    assert!(
        text.contains("A = rounds@2023-10, B = fide-historical@2023-10: differences B − A"),
        "{text}"
    );
    assert!(text.contains("Every month together:\nA = rounds (every month), B = fide-historical (each month's list)"), "{text}");
}

/// The README's "From tournament reports" runs as written on the shipped files: each command gives
/// the lines shown under it (`…` stands for lines left out, the run's directory for a scratch one).
#[test]
fn the_readme_examples_run_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme.find("## From tournament reports").unwrap();
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let out = scratch("trf-readme");
    let run = out.join("belgian").display().to_string();
    let blocks: Vec<&str> = section.split("```").collect();
    let mut ran = 0;
    for pair in blocks.windows(3) {
        let (Some(command), Some(shown)) =
            (pair[0].strip_prefix("sh\n"), pair[2].strip_prefix('\n'))
        else {
            continue;
        };
        let command = command.replace("\\\n", " ").replace("output/belgian", &run);
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        for path in args
            .iter()
            .filter(|a| a.starts_with("data/") || a.starts_with("scenarios/"))
        {
            assert!(
                root.join(path).exists(),
                "README names {path}, which is not shipped"
            );
        }
        let printed = std::process::Command::new(env!("CARGO_BIN_EXE_elosim"))
            .current_dir(root)
            .args(&args)
            .output()
            .unwrap();
        assert!(
            printed.status.success(),
            "{command}: {}",
            text(&printed.stderr)
        );
        let printed = text(&printed.stdout);
        for line in shown.lines().filter(|l| *l != "…") {
            let line = line.replace("output/belgian", &run);
            assert!(
                printed.contains(&line),
                "{command}: {line:?} not in\n{printed}"
            );
        }
        ran += 1;
    }
    assert_eq!(ran, 4, "the section's commands, each with its output");
}

/// A scenario names the reports' own ratings as its starting list as the command line does
/// (`start-list = "reported"`), and its resolved file repeats the run.
#[test]
fn a_scenario_takes_the_reported_ratings_as_its_starting_list() {
    let dir = scratch("trf-scenario");
    let season = format!("{}/season-whole.txt", belgian());
    let scenario = write(
        &dir,
        "reported.toml",
        &format!(
            "name = \"reported\"\nextends = {:?}\n\n[data]\ngames = {season:?}\nstart-list = \"reported\"\n",
            history()
        ),
    );
    let (flag, file, again) = (dir.join("flag"), dir.join("file"), dir.join("again"));
    replay_reports(&season, &flag, &["--start-list", "reported"]);
    let run = |scenario: &str, out: &Path| {
        let args = ["replay", scenario, "--from", "2023-10", "--quiet", "--out"];
        succeeds(&[&args[..], &[out.to_str().unwrap()]].concat())
    };
    run(&scenario, &file);
    let resolved = file.join("scenario.resolved.toml");
    assert!(std::fs::read_to_string(&resolved)
        .unwrap()
        .contains("start-list = \"reported\""));
    run(resolved.to_str().unwrap(), &again);
    for table in ["lists.parquet", "games.parquet"] {
        let bytes = |run: &Path| std::fs::read(run.join(table)).unwrap();
        assert!(
            bytes(&flag) == bytes(&file),
            "{table}: scenario and flag differ"
        );
        assert!(
            bytes(&file) == bytes(&again),
            "{table}: the resolved file differs"
        );
    }
    assert!(succeeds(&["check", &scenario])
        .contains("starting list the ratings the games' tournament reports carry (reported)"));
}
