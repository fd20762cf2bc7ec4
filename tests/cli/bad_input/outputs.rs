//! What a command writes where, and the resources it may take: an output directory is replaced
//! only by the command that wrote it (and only in the files it writes), never inside what is read
//! or around the working directory; names, scales, thread counts and picture formats are refused
//! before anything is written.

use std::path::Path;
use std::process::Command;

use crate::common::*;

/// Replays the small 2019 world into `out` with `extra` arguments; returns what it printed.
fn replay_2019(out: &Path, extra: &[&str]) -> String {
    let scenario = fixture("scenario-2019.toml");
    let args = ["replay", &scenario, "--out", out.to_str().unwrap()];
    succeeds(&[&args[..], extra].concat())
}

/// Runs elosim expecting a failure whose message holds every `expected` fragment and no panic.
fn refused(args: &[&str], expected: &[&str]) {
    let r = elosim(args);
    let stderr = text(&r.stderr);
    assert!(!r.status.success(), "elosim {}: succeeded", args.join(" "));
    assert!(!stderr.contains("panicked"), "{stderr}");
    for e in expected {
        assert!(stderr.contains(e), "{e:?} not in:\n{stderr}");
    }
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Files that make `dir` look like an output of some kind, with their contents.
fn fake_output(dir: &Path, files: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    for file in files {
        std::fs::write(dir.join(file), "kept").unwrap();
    }
}

#[test]
fn a_replay_again_replaces_its_own_files_and_keeps_the_rest() {
    let dir = scratch("outputs-keep");
    let run = dir.join("run");
    replay_2019(&run, &["--quiet", "--csv"]);
    assert!(run.join("lists").is_dir());
    std::fs::write(run.join("report.html"), "the report of the first run").unwrap();
    std::fs::create_dir_all(run.join("notes")).unwrap();
    std::fs::write(run.join("notes/mine.txt"), "mine").unwrap();
    let printed = replay_2019(&run, &[]);
    assert!(
        printed.contains("kept     notes, report.html (not written by this command"),
        "{printed}"
    );
    assert_eq!(
        std::fs::read_to_string(run.join("report.html")).unwrap(),
        "the report of the first run"
    );
    assert_eq!(
        std::fs::read_to_string(run.join("notes/mine.txt")).unwrap(),
        "mine"
    );
    // A run's own files are replaced: the first run's CSV lists go with it.
    assert!(!run.join("lists").exists());
    assert!(run.join("lists.parquet").is_file());
    assert_eq!(
        names(&dir),
        ["run"],
        "a staged directory was left beside the run"
    );
}

#[test]
fn an_output_of_another_kind_is_refused_by_name_and_left_whole() {
    let dir = scratch("outputs-kinds");
    let world = dir.join("world");
    fake_output(&world, &["truth.parquet", "world.toml", "games.parquet"]);
    let scenario = fixture("scenario-2019.toml");
    refused(
        &[
            "replay",
            &scenario,
            "--quiet",
            "--out",
            world.to_str().unwrap(),
        ],
        &[
            "refusing to replace",
            "it holds a generated world (truth.parquet), which a replay would overwrite",
        ],
    );
    let run = dir.join("run");
    fake_output(&run, &["lists.parquet", "summary.json"]);
    refused(
        &[
            "generate",
            "--scale",
            "0.001",
            "--quiet",
            "--out",
            run.to_str().unwrap(),
        ],
        &["it holds a replay's run (lists.parquet), which `elosim generate` would overwrite"],
    );
    let calibration = dir.join("calibration");
    fake_output(
        &calibration,
        &["evaluations.parquet", "world.toml", "summary.json"],
    );
    refused(
        &[
            "replay",
            &scenario,
            "--quiet",
            "--out",
            calibration.to_str().unwrap(),
        ],
        &["it holds a calibration (evaluations.parquet)"],
    );
    for (out, files) in [
        (
            &world,
            &["games.parquet", "truth.parquet", "world.toml"][..],
        ),
        (&run, &["lists.parquet", "summary.json"][..]),
        (
            &calibration,
            &["evaluations.parquet", "summary.json", "world.toml"][..],
        ),
    ] {
        assert_eq!(names(out), files);
        for file in files {
            assert_eq!(std::fs::read_to_string(out.join(file)).unwrap(), "kept");
        }
    }
    assert_eq!(names(&dir), ["calibration", "run", "world"]);
}

#[test]
fn an_out_inside_the_games_dataset_is_refused_before_reading() {
    let dir = scratch("outputs-inside-dataset");
    let data = games_2019_dataset(&dir);
    let scenario = fixture("scenario-2019.toml");
    let inside = data.join("run");
    refused(
        &[
            "replay",
            &scenario,
            "--quiet",
            "--games",
            data.to_str().unwrap(),
            "--out",
            inside.to_str().unwrap(),
        ],
        &[
            "it lies inside the games dataset",
            "choose an --out outside it",
        ],
    );
    assert!(!inside.exists());
    // The dataset still replays.
    replay_2019(
        &dir.join("run"),
        &["--quiet", "--games", data.to_str().unwrap()],
    );
}

#[test]
fn the_working_directory_and_its_parents_are_refused_as_out() {
    let dir = scratch("outputs-cwd");
    let run = dir.join("run");
    replay_2019(&run, &["--quiet"]);
    let before = names(&run);
    for out in [".", "..", "../run"] {
        let r = Command::new(env!("CARGO_BIN_EXE_elosim"))
            .args([
                "replay",
                &fixture("scenario-2019.toml"),
                "--quiet",
                "--out",
                out,
            ])
            .current_dir(&run)
            .output()
            .unwrap();
        let stderr = text(&r.stderr);
        assert!(!r.status.success(), "--out {out}: succeeded");
        assert!(
            stderr.contains("it is the current directory or a parent of it"),
            "--out {out}: {stderr}"
        );
    }
    assert_eq!(names(&run), before);
    assert_eq!(names(&dir), ["run"]);
}

#[test]
fn a_scenario_name_must_be_one_directory_under_output() {
    let dir = scratch("outputs-names");
    for name in ["../../escape", "", "a/b", ".."] {
        let scenario = write(
            &dir,
            "named.toml",
            &format!(
                "extends = {:?}\nname = {name:?}\n",
                fixture("scenario-2019.toml")
            ),
        );
        refused(
            &["replay", &scenario, "--quiet"],
            &[
                "named.toml: name: expected a name for one directory under output/",
                &format!("got {name:?}"),
            ],
        );
        refused(&["check", &scenario], &["named.toml: name:"]);
    }
    assert_eq!(names(&dir), ["named.toml"]);
}

#[test]
fn threads_are_bounded_the_same_for_every_command() {
    let scenario = fixture("scenario-2019.toml");
    let commands: [&[&str]; 5] = [
        &["replay", &scenario],
        &["generate", "--scale", "0.001"],
        &["calibrate", "missing.toml"],
        &["sweep", "missing.toml"],
        &["bench"],
    ];
    for command in commands {
        for threads in ["1000000", "0", "many"] {
            refused(
                &[command, &["--threads", threads]].concat(),
                &[
                    &format!("invalid value '{threads}' for '--threads <N>'"),
                    "expected a number of worker threads from 1 to",
                ],
            );
        }
    }
}

#[test]
fn bench_runs_one_of_its_modes_and_refuses_two() {
    // `bench --sweep S --world 1` once ran the study and ignored --world.
    refused(
        &["bench", "--sweep", "study.toml", "--world", "1"],
        &["the argument '--sweep <STUDY>' cannot be used with '--world <SCALE>'"],
    );
    refused(
        &["bench", "--idle", "10", "--pieces", "2"],
        &["cannot be used with"],
    );
    // No runs gave no time to report, and a panic.
    refused(
        &["bench", "--runs", "0"],
        &["expected how many runs each measurement takes, a whole number from 1 to 1000, got \"0\""],
    );
    refused(
        &["bench", "--partitioned"],
        &[
            "the following required arguments were not provided",
            "--replay-world <SCALE>",
        ],
    );
    // A flag of one mode given with another: clap waives `requires` where the mode it requires
    // conflicts with one given, so these once ran --world, --idle and --pieces.
    let refinements: [(&[&str], &str); 3] = [
        (
            &["--world", "1", "--partitioned"],
            "'--world <SCALE>' cannot be used with '--partitioned'",
        ),
        (
            &["--idle", "10", "--scale", "2"],
            "'--idle <N>' cannot be used with '--scale <SCALE>'",
        ),
        (
            &["--pieces", "2", "--seeds", "1,2"],
            "'--pieces <N>' cannot be used with '--seeds <N,N>'",
        ),
    ];
    for (args, message) in refinements {
        refused(&[&["bench"], args].concat(), &[message]);
    }
}

#[test]
fn bench_takes_one_mode_with_its_own_flags() {
    let dir = scratch("outputs-bench");
    let kaggle = repo("scenarios/kaggle2010.toml");
    let keep = dir.display().to_string();
    let printed = succeeds(&[
        "bench",
        "--games",
        "2000",
        "--players",
        "1000",
        "--months",
        "3",
        "--runs",
        "1",
        "--scenario",
        &kaggle,
        "--keep",
        &keep,
    ]);
    assert!(printed.contains("Engine alone (3 lists,"), "{printed}");
    assert!(
        printed.contains("Histogram (read lists.parquet"),
        "{printed}"
    );
    // The study's own flags pass clap with it: what stops this run is the missing study.
    refused(
        &[
            "bench",
            "--sweep",
            "missing.toml",
            "--scale",
            "0.01",
            "--seeds",
            "1,2",
        ],
        &["cannot read study file missing.toml"],
    );
}

#[test]
fn bench_reads_its_scenario_before_generating_a_file() {
    // A wrong --scenario (or the default one, run from another folder) once failed only after
    // the million-game file was written.
    let dir = scratch("outputs-bench-scenario");
    let keep = dir.join("kept");
    refused(
        &[
            "bench",
            "--scenario",
            "missing.toml",
            "--keep",
            &keep.display().to_string(),
        ],
        &[
            "elosim bench replays the generated file under --scenario",
            "cannot read scenario missing.toml",
        ],
    );
    assert!(!keep.join("games.csv").exists());
}

#[test]
fn a_scale_beyond_a_hundred_fides_is_refused_and_leaves_nothing() {
    let dir = scratch("outputs-scale");
    let out = dir.join("world");
    for scale in ["1e9", "100.5", "inf"] {
        refused(
            &[
                "generate",
                "--scale",
                scale,
                "--quiet",
                "--out",
                out.to_str().unwrap(),
            ],
            &["--scale must be above 0 and at most 100", "about 5 billion"],
        );
    }
    assert!(names(&dir).is_empty(), "left {:?}", names(&dir));
    let calibration =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("worlds/fide-2001-2025.calibrate.toml");
    refused(
        &[
            "calibrate",
            calibration.to_str().unwrap(),
            "--evaluate",
            "--scale",
            "1e12",
        ],
        &["--scale: expected a number from 0.0001 to 10, got 1000000000000"],
    );
}

#[test]
fn a_picture_in_an_unknown_format_is_refused_before_any_output() {
    let dir = scratch("outputs-plot-format");
    let table = dir.join("t.txt");
    refused(
        &[
            "crosstable",
            &fixture("rated-games.csv"),
            "--lowest",
            "1200",
            "--out",
            table.to_str().unwrap(),
            "--plot",
            dir.join("x.jpg").to_str().unwrap(),
        ],
        &[
            "invalid value",
            "x.jpg: cannot tell the picture format; name the file .svg or .png",
        ],
    );
    assert!(names(&dir).is_empty(), "left {:?}", names(&dir));
}

#[test]
fn a_damaged_summary_is_called_unreadable_not_missing() {
    let dir = scratch("outputs-summary");
    let run = dir.join("run");
    replay_2019(&run, &["--quiet"]);
    std::fs::write(run.join("summary.json"), "garbage{").unwrap();
    for command in ["report", "list", "crosstable", "score"] {
        refused(
            &[command, run.to_str().unwrap()],
            &[
                "summary.json: unreadable, not the JSON summary a replay writes (expected value at line 1 column 1)",
            ],
        );
    }
    std::fs::remove_file(run.join("summary.json")).unwrap();
    refused(
        &["report", run.to_str().unwrap()],
        &["not an elosim run directory (no summary.json)"],
    );
}
