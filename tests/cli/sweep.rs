//! `elosim sweep` on a small world (30 months from January 2001 at a hundredth of FIDE's size), on
//! two such worlds, and on the Kaggle 2010 games: the results' table, the same bytes whatever the
//! threads, shards or interruptions, the measures against the reports that compute them from
//! files, each world's summary and their agreement, and bad studies.

use std::path::{Path, PathBuf};

use crate::common::{elosim, repo, scratch, succeeds, text, write};

/// The built-in world cut to 30 months (January 2001 to June 2003).
fn tiny_world(dir: &Path) -> String {
    write(
        dir,
        "tiny.toml",
        &format!(
            "name = \"tiny\"\nextends = {:?}\n[world]\nmonths = 30\n",
            repo("worlds/fide-2001-2025.toml")
        ),
    )
}

/// A grid of the October 2002 floor (the revision from 2002-07) on FIDE's history, three seeds at
/// a hundredth of FIDE's size, every kind of measure that reads a replay.
fn tiny_study(dir: &Path, extra: &str) -> String {
    tiny_world(dir);
    write(
        dir,
        "study.toml",
        &format!(
            r#"name = "tiny-study"
scenario = {:?}

[input]
world = "tiny.toml"
scale = 0.01
seeds = [1, 2, 3]

[[parameter]]
key = "revision[2002-07].floor"
values = [1601, 1801, 2001]

[[parameter]]
key = "revision[2002-07].k.standard"
values = [15, 25]

[[measure]]
kind = "truth-gap"
list = "2003-01"

[[measure]]
kind = "flatness"
from = "2002-07"
to = "2003-06"
lowest = 1800
min-games = 20

[[measure]]
kind = "curve-gap"
from = "2002-07"
to = "2003-06"
min-games = 20

[[measure]]
kind = "predictive"
from = "2003-01"
to = "2003-06"

[[measure]]
kind = "disruption"
list = "2003-04"

[[measure]]
kind = "pool-shape"
list = "2003-01"
lowest = 1800

[verify]
top = 2
scale = 0.015
{extra}"#,
            repo("scenarios/fide-historical.toml")
        ),
    )
}

/// Every file a finished study writes, but its journal and its timings.
const OUTPUTS: &[&str] = &[
    "results.parquet",
    "results.csv",
    "summary.txt",
    "summary.md",
    "summary.json",
    "report.html",
    "response-1.png",
    "response-2.png",
    "heatmap.png",
    "pareto.png",
];

fn same_outputs(a: &Path, b: &Path) {
    same_files(a, b, OUTPUTS);
}

fn same_files(a: &Path, b: &Path, names: &[&str]) {
    for name in names {
        let (x, y) = (std::fs::read(a.join(name)), std::fs::read(b.join(name)));
        assert!(
            x.is_ok() && x.as_ref().ok() == y.as_ref().ok(),
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

fn no_temporary_files(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains(".tmp-"), "{name} left in {}", dir.display());
    }
}

fn sweep(study: &str, out: &Path, more: &[&str]) -> String {
    let mut args = vec!["sweep", study, "--quiet", "--out", out.to_str().unwrap()];
    args.extend_from_slice(more);
    succeeds(&args)
}

/// A study named by another path, from another folder, is the same study: the fingerprint counts
/// its files' contents, never their paths as typed, so its shards merge.
#[test]
fn a_study_run_from_another_folder_is_the_same_study() {
    let dir = scratch("sweep-folders");
    let study = tiny_study(&dir, "");
    // The base scenario named relative to the study, as the shipped studies name theirs.
    write(
        &dir,
        "history.toml",
        &format!(
            "name = \"history\"\nextends = {:?}\n",
            repo("scenarios/fide-historical.toml")
        ),
    );
    let study_text = std::fs::read_to_string(&study).unwrap().replace(
        &format!("scenario = {:?}", repo("scenarios/fide-historical.toml")),
        "scenario = \"history.toml\"",
    );
    assert!(study_text.contains("scenario = \"history.toml\""));
    write(&dir, "study.toml", &study_text);
    sweep(&study, &dir.join("shard-1"), &["--shard", "1/2"]);
    let from_its_folder = std::process::Command::new(env!("CARGO_BIN_EXE_elosim"))
        .args([
            "sweep",
            "study.toml",
            "--quiet",
            "--shard",
            "2/2",
            "--out",
            "shard-2",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        from_its_folder.status.success(),
        "{}",
        text(&from_its_folder.stderr)
    );
    let merged = dir.join("merged");
    succeeds(&[
        "sweep",
        "--quiet",
        "--out",
        merged.to_str().unwrap(),
        "--merge",
        dir.join("shard-1").to_str().unwrap(),
        dir.join("shard-2").to_str().unwrap(),
    ]);
    let one = dir.join("one");
    sweep(&study, &one, &[]);
    same_files(&one, &merged, &["results.parquet", "results.csv"]);
}

#[test]
fn a_study_gives_the_same_bytes_whatever_the_threads_shards_and_interruptions() {
    let dir = scratch("sweep-bytes");
    let study = tiny_study(&dir, "");
    let one = dir.join("one");
    let summary = sweep(&study, &one, &["--threads", "2"]);
    assert!(
        summary.contains("Ranked by truth_gap.active.rms (lower is better)"),
        "{summary}"
    );
    assert!(
        summary.contains("Pareto front over truth_gap.active.rms"),
        "{summary}"
    );
    // Six points (3 floors × 2 K) and the baseline on three seeds.
    let csv = std::fs::read_to_string(one.join("results.csv")).unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with(
        "world,candidate,seed,label,revision[2002-07].floor,revision[2002-07].k.standard,truth_gap.active.rms,truth_gap.active.level,truth_gap.active.spread,truth_gap.active.slope,truth_gap.active.players,truth_gap.inactive.rms"
    ), "{header}");
    for column in [
        "flatness.rms",
        "flatness.underdogs",
        "curve_gap.rms",
        "predictive.log_loss",
        "predictive.deviance",
        "disruption.mean_abs",
        "disruption.top_mean_abs",
        "disruption.moved_share",
        "pool_shape.error",
        "pool_shape.band.1800",
        "pool_shape.truth.1800",
    ] {
        assert!(
            header.split(',').any(|c| c == column),
            "{column} not in {header}"
        );
    }
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 21, "{csv}");
    assert!(
        rows[0].starts_with("tiny,0,1,baseline,1801,15,"),
        "{}",
        rows[0]
    );
    assert!(
        rows[3].starts_with("tiny,1,1,point,1601,15,"),
        "{}",
        rows[3]
    );
    // The baseline against itself moved nobody.
    let column = |name: &str| header.split(',').position(|c| c == name).unwrap();
    let fields: Vec<&str> = rows[0].split(',').collect();
    assert_eq!(fields[column("disruption.mean_abs")], "0");
    no_temporary_files(&one);

    // The points differ from the baseline from 2002-07 on: they carry on from its replay there,
    // with the results of replays from the start, byte for byte.
    assert!(
        summary.contains("18 replays (15 carried on from the baseline's replay"),
        "{summary}"
    );
    let whole = dir.join("whole");
    let said = sweep(&study, &whole, &["--whole-replays"]);
    assert!(said.contains("(0 carried on"), "{said}");
    same_outputs(&one, &whole);

    // One thread, shards of two machines, then joined.
    let shards: Vec<PathBuf> = (1..=2).map(|i| dir.join(format!("shard-{i}"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let share = format!("{}/2", i + 1);
        let said = sweep(&study, shard, &["--shard", &share, "--threads", "1"]);
        assert!(said.contains(&format!("Shard {} of 2", i + 1)), "{said}");
        assert!(!shard.join("results.parquet").exists());
        assert!(
            shard.join("results.jsonl").exists() && !shard.join("results.partial.jsonl").exists()
        );
    }
    let merged = dir.join("merged");
    let mut args = vec![
        "sweep",
        "--quiet",
        "--out",
        merged.to_str().unwrap(),
        "--merge",
    ];
    args.extend(shards.iter().map(|s| s.to_str().unwrap()));
    succeeds(&args);
    same_outputs(&one, &merged);
    // Merged again over a directory holding one machine's timings, it keeps none of them.
    std::fs::copy(one.join("timings.json"), merged.join("timings.json")).unwrap();
    succeeds(&args);
    assert!(!merged.join("timings.json").exists());

    // Interrupted after four rows (the last line cut short), then resumed.
    let resumed = dir.join("resumed");
    std::fs::create_dir_all(&resumed).unwrap();
    let journal = std::fs::read_to_string(one.join("results.jsonl")).unwrap();
    let kept: Vec<&str> = journal
        .lines()
        .filter(|l| !l.starts_with("{\"world\""))
        .take(5)
        .collect();
    let cut = format!(
        "{}\n{}",
        kept.join("\n"),
        &journal.lines().nth(8).unwrap()[..20]
    );
    std::fs::write(resumed.join("results.partial.jsonl"), cut).unwrap();
    let r = elosim(&[
        "sweep",
        &study,
        "--quiet",
        "--out",
        resumed.to_str().unwrap(),
    ]);
    assert!(!r.status.success());
    assert!(
        text(&r.stderr).contains("holds an unfinished sweep (4 rows of study \"tiny-study\""),
        "{}",
        text(&r.stderr)
    );
    let said = sweep(&study, &resumed, &["--resume"]);
    assert!(
        said.contains("21 rows in") && said.contains("4 resumed from the journal"),
        "{said}"
    );
    same_outputs(&one, &resumed);
    no_temporary_files(&resumed);

    // Shards that do not make one study are refused, naming what is wrong.
    let merge = |dirs: &[&Path]| {
        let out = dir.join("refused");
        let mut args = vec![
            "sweep",
            study.as_str(),
            "--quiet",
            "--out",
            out.to_str().unwrap(),
            "--merge",
        ];
        args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
        let r = elosim(&args);
        assert!(!r.status.success());
        assert!(!out.join("results.parquet").exists());
        text(&r.stderr)
    };
    assert!(merge(&[&shards[0]])
        .contains("1 of the 2 shards is missing: number 2; give --merge every shard's directory"));
    // A shard alone is no study to report on: join the shards first.
    let r = elosim(&["report", shards[0].to_str().unwrap()]);
    assert!(!r.status.success());
    assert!(
        text(&r.stderr)
            .contains("is shard 1 of 2 of the study \"tiny-study\": join the shards first"),
        "{}",
        text(&r.stderr)
    );
    // A shard's journal cut in the middle of a line is named with the line, not merged short.
    let cut = dir.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    let whole = std::fs::read(shards[1].join("results.jsonl")).unwrap();
    let lines = whole.iter().filter(|&&b| b == b'\n').count();
    std::fs::write(cut.join("results.jsonl"), &whole[..whole.len() - 10]).unwrap();
    let e = merge(&[&shards[0], &cut]);
    assert!(
        e.contains(&format!(
            "results.jsonl, line {lines}: the journal is cut short in the middle of its last line"
        )),
        "{e}"
    );
    // A shard still going on is not merged.
    let going = dir.join("going");
    std::fs::create_dir_all(&going).unwrap();
    std::fs::write(going.join("results.partial.jsonl"), "").unwrap();
    assert!(merge(&[&shards[0], &going]).contains("holds an unfinished shard"));
    assert!(merge(&[&shards[0], &shards[0]]).contains("are both shard 1 of 2"));
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let changed = tiny_study(&other, "# another study\n");
    let foreign = other.join("shard");
    sweep(&changed, &foreign, &["--shard", "2/2"]);
    let e = merge(&[&shards[0], &foreign]);
    assert!(e.contains("is a shard of another study"), "{e}");
}

#[test]
fn the_measures_agree_with_the_reports_on_the_replays_files() {
    let dir = scratch("sweep-measures");
    let study = tiny_study(
        &dir,
        "[[measure]]\nkind = \"truth-gap\"\nname = \"gap_strength\"\nlist = \"2003-01\"\ntruth = \"strength\"\n",
    );
    let out = dir.join("study");
    sweep(&study, &out, &["--seeds", "1"]);
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let baseline: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let figure = |name: &str| -> f64 {
        baseline[header.iter().position(|c| *c == name).unwrap()]
            .parse()
            .unwrap()
    };
    // The same world and scenario written to files and read back by the reports.
    let world = dir.join("world");
    succeeds(&[
        "generate",
        "--world",
        dir.join("tiny.toml").to_str().unwrap(),
        "--scale",
        "0.01",
        "--seed",
        "1",
        "--out",
        world.to_str().unwrap(),
        "--quiet",
    ]);
    let run = dir.join("run");
    let file = |name: &str| world.join(name).display().to_string();
    succeeds(&[
        "replay",
        &repo("scenarios/fide-historical.toml"),
        "--games",
        &file("games.parquet"),
        "--start-list",
        &file("start-list.parquet"),
        "--players",
        &file("players.parquet"),
        "--from",
        "2001-04",
        "--out",
        run.to_str().unwrap(),
        "--quiet",
    ]);
    let score = succeeds(&[
        "score",
        run.to_str().unwrap(),
        "--from",
        "2003-01",
        "--to",
        "2003-06",
        "--format",
        "json",
    ]);
    let score: serde_json::Value = serde_json::from_str(&score).unwrap();
    let log_loss = score[0]["log_loss"].as_f64().unwrap();
    assert!(
        (figure("predictive.log_loss") - log_loss).abs() < 1e-6,
        "{log_loss}"
    );
    // The active players against their equilibrium (the world's equilibrium.parquet, solved as
    // the study solves it), the inactive ones against strength; then all against strength.
    for (against, measure) in [("equilibrium", "truth_gap"), ("strength", "gap_strength")] {
        let truth = succeeds(&[
            "compare",
            run.to_str().unwrap(),
            "--truth",
            world.to_str().unwrap(),
            "--against",
            against,
            "--format",
            "json",
        ]);
        let truth: serde_json::Value = serde_json::from_str(&truth).unwrap();
        let january = truth[0]["years"]
            .as_array()
            .unwrap()
            .iter()
            .find(|y| y["month"] == "2003-01")
            .unwrap()
            .clone();
        for group in ["active", "inactive"] {
            let players = january[group]["players"].as_f64().unwrap();
            assert_eq!(
                figure(&format!("{measure}.{group}.players")),
                players,
                "{against} {group}: {january}"
            );
            assert!(players > 0.0, "{against} {group}: {january}");
            // The files hold strengths to a tenth of a point, the study's memory to f32.
            for name in ["rms", "level"] {
                let reported = january[group][name].as_f64().unwrap();
                let measured = figure(&format!("{measure}.{group}.{name}"));
                assert!(
                    (measured - reported).abs() < 0.05,
                    "{against} {group}.{name}: {measured} against {reported}"
                );
            }
            for name in ["spread", "slope"] {
                let reported = january[group][name].as_f64().unwrap();
                let measured = figure(&format!("{measure}.{group}.{name}"));
                assert!(
                    (measured - reported).abs() < 1e-3,
                    "{against} {group}.{name}: {measured} against {reported}"
                );
            }
        }
        let all = figure(&format!("{measure}.all.level"));
        assert!(
            (all - january["mean_diff"].as_f64().unwrap()).abs() < 0.01,
            "{january}"
        );
    }
    // Against the reachable truth the active players' ratings are nearer than against strength.
    assert!(figure("truth_gap.active.rms") < figure("gap_strength.active.rms"));
}

#[test]
fn an_optimising_design_is_repeatable_and_stays_within_its_ranges() {
    let dir = scratch("sweep-optimise");
    let study = tiny_study(&dir, "");
    let text = std::fs::read_to_string(&study).unwrap().replace(
        "[[parameter]]\nkey = \"revision[2002-07].floor\"\nvalues = [1601, 1801, 2001]",
        "[design]\nkind = \"optimise\"\nbudget = 8\npopulation = 4\nminimise = { \"truth_gap.active.rms\" = 1, \"predictive.log_loss\" = 100 }\n\n[[parameter]]\nkey = \"revision[2002-07].floor\"\nmin = 1400\nmax = 2200",
    );
    let study = write(&dir, "optimise.toml", &text);
    let (a, b) = (dir.join("a"), dir.join("b"));
    let said = sweep(&study, &a, &["--seeds", "1,2"]);
    // The points carry on from the baseline's replay at 2002-07, as replays from the start would.
    assert!(!said.contains("(0 carried on"), "{said}");
    sweep(&study, &b, &["--seeds", "1,2", "--threads", "1"]);
    same_outputs_but_pictures(&a, &b);
    let whole = dir.join("whole");
    sweep(&study, &whole, &["--seeds", "1,2", "--whole-replays"]);
    same_outputs_but_pictures(&a, &whole);
    // The optimiser's points are read back from its journal.
    let page = std::fs::read(a.join("report.html")).unwrap();
    succeeds(&["report", a.to_str().unwrap()]);
    assert_eq!(std::fs::read(a.join("report.html")).unwrap(), page);
    let csv = std::fs::read_to_string(a.join("results.csv")).unwrap();
    let floors: Vec<f64> = csv
        .lines()
        .skip(1)
        .filter(|l| l.contains(",point,"))
        .map(|l| l.split(',').nth(4).unwrap().parse().unwrap())
        .collect();
    assert!(!floors.is_empty() && floors.len() <= 16, "{csv}");
    assert!(
        floors
            .iter()
            .all(|f| (1400.0..=2200.0).contains(f) && f.fract() == 0.0),
        "{floors:?}"
    );
    let summary = std::fs::read_to_string(a.join("summary.txt")).unwrap();
    assert!(
        summary.contains("The optimiser minimised the mean over the seeds of"),
        "{summary}"
    );
    assert!(
        summary.contains("1 × truth_gap.active.rms")
            && summary.contains("100 × predictive.log_loss"),
        "{summary}"
    );
}

fn same_outputs_but_pictures(a: &Path, b: &Path) {
    for name in [
        "results.parquet",
        "results.csv",
        "summary.txt",
        "summary.json",
    ] {
        assert_eq!(
            std::fs::read(a.join(name)).unwrap(),
            std::fs::read(b.join(name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn verification_replays_the_best_on_new_seeds_larger() {
    let dir = scratch("sweep-verify");
    let study = tiny_study(&dir, "");
    let out = dir.join("study");
    let said = sweep(&study, &out, &["--seeds", "1,2", "--verify"]);
    assert!(
        said.contains("Verified at scale 0.015 on seeds 3, 4 (the search: scale 0.01, seeds 1, 2; the verified verdicts corrected by Holm over the 2 points verified)"),
        "{said}"
    );
    assert!(said.contains("The ranking"), "{said}");
    let verify: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("verify.json")).unwrap()).unwrap();
    assert_eq!(verify["candidates"].as_array().unwrap().len(), 3);
    assert_eq!(verify["seeds"], serde_json::json!([3, 4]));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<h2>Verification</h2>"));

    // The verification's scale and seeds set on the command line, and read back from its journal
    // when the page is written again.
    let out = dir.join("again");
    let said = sweep(
        &study,
        &out,
        &[
            "--seeds",
            "1,2",
            "--verify",
            "1",
            "--verify-scale",
            "0.012",
            "--verify-seeds",
            "8,9",
        ],
    );
    assert!(
        said.contains("Verified at scale 0.012 on seeds 8, 9 (the search: scale 0.01, seeds 1, 2"),
        "{said}"
    );
    let page = std::fs::read(out.join("report.html")).unwrap();
    succeeds(&["report", out.to_str().unwrap()]);
    assert_eq!(std::fs::read(out.join("report.html")).unwrap(), page);
    for (flags, expected) in [
        (
            ["--verify-scale", "50"],
            "--verify-scale: expected a number from 0.0001 to 10, got 50",
        ),
        (
            ["--verify-seeds", "5,5"],
            "--verify-seeds: seed 5 is given twice",
        ),
        (
            ["--verify-seeds", "2,9"],
            "--verify-seeds: seed 2 is one the search used (its seeds: [1, 2])",
        ),
    ] {
        // Refused before the search: nothing replayed, nothing written.
        let refused = dir.join("refused");
        let mut args = vec![
            "sweep",
            study.as_str(),
            "--seeds",
            "1,2",
            "--verify",
            "--out",
            refused.to_str().unwrap(),
        ];
        args.extend(flags);
        let e = text(&elosim(&args).stderr);
        assert!(e.contains(expected), "{expected}\n{e}");
        assert!(!refused.exists(), "{expected}: {}", refused.display());
    }
}

#[test]
fn a_study_of_real_games_needs_no_truth_and_refuses_what_does() {
    let dir = scratch("sweep-games");
    let study = write(
        &dir,
        "kaggle.toml",
        &format!(
            r#"scenario = {:?}

[[parameter]]
key = "revision[2014-07].k.standard"
values = [10, 20, 30]

[[measure]]
kind = "predictive"
from = "2020-07"
to = "2020-11"
"#,
            repo("scenarios/kaggle2010.toml")
        ),
    );
    let out = dir.join("out");
    let said = sweep(&study, &out, &[]);
    assert!(said.contains("the games of"), "{said}");
    assert!(said.contains("one history"), "{said}");
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
    // The baseline is FIDE's K 20 on the Kaggle games: the log loss `elosim score` gives for it.
    let baseline = csv.lines().nth(1).unwrap();
    assert!(baseline.starts_with("0,0,baseline,20,0.6699"), "{baseline}");
    // The study's page, written again from its journal, is the same page.
    let page = std::fs::read(out.join("report.html")).unwrap();
    std::fs::remove_file(out.join("report.html")).unwrap();
    succeeds(&["report", out.to_str().unwrap()]);
    assert_eq!(std::fs::read(out.join("report.html")).unwrap(), page);

    let bad = write(
        &dir,
        "bad.toml",
        &format!(
            "scenario = {:?}\n[input]\nseeds = [1, 2]\n[[parameter]]\nkey = \"revision[2014-07].k.standard\"\nvalues = [10]\n[[measure]]\nkind = \"truth-gap\"\nlist = \"2020-01\"\n",
            repo("scenarios/kaggle2010.toml")
        ),
    );
    let r = elosim(&[
        "sweep",
        &bad,
        "--quiet",
        "--out",
        dir.join("bad").to_str().unwrap(),
    ]);
    let e = text(&r.stderr);
    assert!(!r.status.success());
    assert!(
        e.contains("input.seeds: belongs to a generated world"),
        "{e}"
    );
    assert!(e.contains("measure[1].kind: truth-gap needs the players' true strengths, which only a generated world has"), "{e}");
    assert!(!dir.join("bad").exists());
    // One history has no other seeds to verify on: refused before the search replays anything.
    let verified = dir.join("verified");
    let r = elosim(&[
        "sweep",
        &study,
        "--quiet",
        "--verify",
        "--out",
        verified.to_str().unwrap(),
    ]);
    assert!(!r.status.success());
    let e = text(&r.stderr);
    assert!(
        e.contains("the user's games are one history with no other seeds to verify on"),
        "{e}"
    );
    assert!(!verified.exists());
}

#[test]
fn bad_studies_name_every_problem_at_its_key_path_before_any_replay() {
    let dir = scratch("sweep-bad");
    tiny_world(&dir);
    let study = write(
        &dir,
        "bad.toml",
        &format!(
            r#"name = "../up"
scenario = {:?}
refrences = []

[input]
world = "tiny.toml"
scale = 20

[design]
kind = "sobl"

[[parameter]]
key = "revision[2002-07].flor"
values = [1601]

[[parameter]]
key = "revision[2003-01].floor"
values = [1601]

[[parameter]]
key = "revision[2002-07].k.new"
values = [30, -5]

[[parameter]]
key = "event[compression 2002-07].factor"
min = 0
max = 0.5

[[measure]]
kind = "truth-gap"
list = "2003-01"

[[measure]]
kind = "flatnes"

[[measure]]
kind = "truth-gap"
name = "later"
list = "2003-02"

[[measure]]
kind = "disruption"
list = "2003-06"

[[measure]]
kind = "predictive"
from = "2013-01"
to = "2013-12"

[[measure]]
kind = "truth-gap"
name = "gap_strength"
list = "2003-01"
truth = "strenght"

[summary]
rank = "truth_gap.active.rsm"
threshold = {{ "truth_gap.active.rms" = 1, "truth_gap.active.rsm" = 1, "truth_gap.active.players" = 2, "truth_gap.active.level" = -1 }}
"#,
            repo("scenarios/fide-historical.toml")
        ),
    );
    let out = dir.join("out");
    let r = elosim(&["sweep", &study, "--out", out.to_str().unwrap()]);
    assert!(!r.status.success());
    let e = text(&r.stderr);
    for expected in [
        "problems in the study",
        "bad.toml: refrences: unknown key (did you mean `references`?)",
        "bad.toml: name: expected a name for one directory under output/ (no `/`, `\\`, `..` or control characters; not empty), got \"../up\"",
        "input.scale: expected a number from 0.0001 to 10, got 20",
        "design.kind: expected one of: grid, sobol, latin, optimise, got \"sobl\" (did you mean `sobol`?)",
        "parameter[1].key: revision[2002-07].flor: `flor` is not a revision key; the nearest key paths it has: revision[2002-07].floor",
        "parameter[2].key: revision[2003-01].floor: the scenario has no revision from 2003-01",
        "parameter[3].values[2]: revision[2002-07].k.new = -5: expected a whole number from 0 to 255, got -5",
        "parameter[4].key: event[compression 2002-07].factor: the scenario has no compression event on 2002-07; its events: compression 2024-03",
        "measure[3].list: 2003-02 is not a January list",
        "measure[4].list: 2003-06 has no list in the scenario: lists are quarterly (Jan, Apr, Jul, Oct) then",
        "measure[5].from: the window 2013-01 to 2013-12 has no list of the world, whose lists run after 2001-01 and up to 2003-06",
        "measure[2].kind: unknown measure \"flatnes\" (did you mean `flatness`?)",
        "summary.rank: \"truth_gap.active.rsm\" is not a figure the measures judge; the nearest: truth_gap.active.rms",
        "measure[6].truth: expected one of: equilibrium, strength, got \"strenght\"",
        "summary.threshold.truth_gap.active.rsm: \"truth_gap.active.rsm\" is not a figure the measures judge; the nearest: truth_gap.active.rms",
        "summary.threshold.truth_gap.active.players: \"truth_gap.active.players\" is not a figure the measures judge; the nearest:",
        "summary.threshold.truth_gap.active.level: expected a threshold of 0 or more (a gain in distance from the figure's ideal, in its unit), got -1",
    ] {
        assert!(e.contains(expected), "{expected}\n{e}");
    }
    assert!(!e.contains("panicked"), "{e}");
    assert!(!e.contains("summary.threshold.truth_gap.active.rms"), "{e}");
    assert!(!out.exists(), "a refused study wrote {}", out.display());

    let empty = write(
        &dir,
        "empty.toml",
        &format!(
            "scenario = {:?}\n[input]\nworld = \"tiny.toml\"\n[[measure]]\nkind = \"predictive\"\nfrom = \"2003-01\"\nto = \"2003-06\"\n[summary]\nthreshold = 3\n",
            repo("scenarios/fide-historical.toml")
        ),
    );
    let r = elosim(&["sweep", &empty, "--out", out.to_str().unwrap()]);
    let e = text(&r.stderr);
    assert!(e.contains("parameter: missing: the design is empty"), "{e}");
    assert!(
        e.contains("summary.threshold: expected a table of figures and their thresholds, such as { \"truth_gap.active.rms\" = 1.0 }, got 3"),
        "{e}"
    );
    let r = elosim(&["sweep", &empty, "--shard", "3/2"]);
    assert!(
        text(&r.stderr).contains("expected I/N with 1 ≤ I ≤ N"),
        "{}",
        text(&r.stderr)
    );
}

/// A study's files never go into another command's directory: each is named by what it holds.
#[test]
fn a_study_refuses_another_commands_directory_before_any_replay() {
    let dir = scratch("sweep-other-kinds");
    let study = tiny_study(&dir, "");
    for (name, marker, what) in [
        ("world", "truth.parquet", "a generated world"),
        ("run", "lists.parquet", "a replay's run"),
        ("calibration", "evaluations.parquet", "a calibration"),
    ] {
        let out = dir.join(name);
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join(marker), "theirs").unwrap();
        let r = elosim(&["sweep", &study, "--quiet", "--out", out.to_str().unwrap()]);
        let e = text(&r.stderr);
        assert!(!r.status.success(), "{name}: the study ran");
        assert!(
            e.contains(&format!(
                "it holds {what} ({marker}), which a sweep study would overwrite"
            )),
            "{e}"
        );
        let left: Vec<_> = std::fs::read_dir(&out).unwrap().collect();
        assert_eq!(left.len(), 1, "{name}: the study wrote into it");
    }
    // A folder of someone's files (a summary and a page of their own, the repository's data).
    let theirs = dir.join("theirs");
    std::fs::create_dir_all(&theirs).unwrap();
    for file in ["summary.txt", "report.html"] {
        std::fs::write(theirs.join(file), "theirs").unwrap();
    }
    let r = elosim(&[
        "sweep",
        &study,
        "--quiet",
        "--out",
        theirs.to_str().unwrap(),
    ]);
    assert!(
        !r.status.success(),
        "the study ran in a folder of someone's files"
    );
    assert!(
        text(&r.stderr).contains("it exists and is not an elosim study directory, nor empty"),
        "{}",
        text(&r.stderr)
    );
    for file in ["summary.txt", "report.html"] {
        assert_eq!(
            std::fs::read_to_string(theirs.join(file)).unwrap(),
            "theirs"
        );
    }
    // Another study's finished results: its journal stays its own.
    let other = dir.join("other");
    let other_study = write(
        &dir,
        "other.toml",
        &std::fs::read_to_string(&study)
            .unwrap()
            .replace("name = \"tiny-study\"", "name = \"other-study\"")
            .replace("seeds = [1, 2, 3]", "seeds = [1]"),
    );
    sweep(&other_study, &other, &[]);
    let journal = std::fs::read(other.join("results.jsonl")).unwrap();
    let r = elosim(&["sweep", &study, "--quiet", "--out", other.to_str().unwrap()]);
    assert!(!r.status.success(), "the study replaced another's results");
    assert!(
        text(&r.stderr).contains("it holds the results of the study \"other-study\""),
        "{}",
        text(&r.stderr)
    );
    assert_eq!(std::fs::read(other.join("results.jsonl")).unwrap(), journal);
    // Its own earlier output is replaced.
    sweep(&other_study, &other, &[]);
    // A study file's own `out` takes the same checks as --out.
    let out_key = write(
        &dir,
        "out-key.toml",
        &std::fs::read_to_string(&study).unwrap().replace(
            "name = \"tiny-study\"\n",
            &format!(
                "name = \"tiny-study\"\nout = {:?}\n",
                theirs.to_str().unwrap()
            ),
        ),
    );
    let r = elosim(&["sweep", &out_key, "--quiet"]);
    assert!(
        !r.status.success(),
        "the study's out wrote into someone's folder"
    );
    assert!(
        text(&r.stderr).contains("it exists and is not an elosim study directory, nor empty"),
        "{}",
        text(&r.stderr)
    );
    assert_eq!(std::fs::read_dir(&theirs).unwrap().count(), 2);
    // An unfinished study is named as one, with what to run.
    std::fs::rename(
        other.join("results.jsonl"),
        other.join("results.partial.jsonl"),
    )
    .unwrap();
    let r = elosim(&["report", other.to_str().unwrap()]);
    assert!(!r.status.success(), "an unfinished study was reported");
    assert!(
        text(&r.stderr).contains("holds a study still running or interrupted (results.partial.jsonl): finish it with `elosim sweep STUDY --out"),
        "{}",
        text(&r.stderr)
    );
}

/// `elosim bench --sweep` sets the study's time against its naive cost: its rows times one whole
/// replay of the baseline alone, measured in the same run.
#[test]
fn the_bench_of_a_study_gives_its_naive_cost_and_the_ratio() {
    let dir = scratch("sweep-bench");
    let study = tiny_study(&dir, "");
    let said = succeeds(&["bench", "--sweep", &study]);
    assert!(
        said.contains("18 replays, 15 of them carried on from the baseline's replay"),
        "{said}"
    );
    let naive = said
        .lines()
        .find(|l| l.trim_start().starts_with("naive"))
        .unwrap_or_else(|| panic!("no naive cost in {said}"));
    assert!(
        naive.contains(": 21 rows × ") && naive.contains("one whole replay of the baseline alone"),
        "{naive}"
    );
    let ratio: f64 = naive
        .rsplit("the study took ")
        .next()
        .and_then(|r| r.split(' ').next())
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("no ratio in {naive}"));
    assert!(ratio > 0.0 && ratio.is_finite(), "{naive}");
}

#[test]
fn a_parameter_that_changes_nothing_is_named() {
    let dir = scratch("sweep-inert");
    tiny_world(&dir);
    let study = |design: &str, parameters: &str| {
        format!(
            "scenario = {:?}\n[input]\nworld = \"tiny.toml\"\nscale = 0.01\nseeds = [1, 2]\n{design}\n{parameters}\n[[measure]]\nkind = \"predictive\"\nfrom = \"2003-01\"\nto = \"2003-06\"\n",
            repo("scenarios/fide-historical.toml")
        )
    };
    // The floor of October 2025 comes long after this world's last list.
    let later = "[[parameter]]\nkey = \"revision[2025-10].floor\"\nvalues = [1400, 1500]\n";
    let now = "[[parameter]]\nkey = \"revision[2002-07].floor\"\nvalues = [1601, 2001]\n";
    let grid = write(&dir, "grid.toml", &study("", &format!("{now}{later}")));
    let said = sweep(&grid, &dir.join("grid"), &[]);
    assert!(
        said.contains("revision[2025-10].floor made no difference"),
        "{said}"
    );
    assert!(
        !said.contains("revision[2002-07].floor made no difference"),
        "{said}"
    );
    let sobol = write(
        &dir,
        "sobol.toml",
        &study("[design]\nkind = \"sobol\"\npoints = 4\n", later),
    );
    let said = sweep(&sobol, &dir.join("sobol"), &[]);
    assert!(
        said.contains("revision[2025-10].floor made no difference"),
        "{said}"
    );
}

/// Holm's step-down adjustment, written out again: sorted ascending, the k-th of m is the running
/// maximum of (m − k + 1)·p, capped at 1.
fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; p.len()];
    let mut running = 0.0f64;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((p.len() - k) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[test]
fn the_summary_carries_verdicts_corrected_over_the_candidates() {
    let dir = scratch("sweep-corrected");
    // Every player against true strength: the figure whose gains and losses this test knows.
    let threshold = "[[measure]]\nkind = \"truth-gap\"\nname = \"gap_strength\"\nlist = \"2003-01\"\ntruth = \"strength\"\n\n[summary]\nrank = \"gap_strength.all.rms\"\npareto = [\"gap_strength.all.rms\", \"flatness.rms\", \"curve_gap.rms\"]\nthreshold = { \"gap_strength.all.rms\" = 5 }\n";
    let study = tiny_study(&dir, threshold);
    let out = dir.join("out");
    let said = sweep(&study, &out, &[]);
    assert!(
        said.contains("Verdicts are corrected for multiplicity (Holm–Bonferroni over the 5 candidates compared with the baseline per figure")
            && said.contains("paired t-test over 3 seeds, α 0.05")
            && said.contains("thresholds: gap_strength.all.rms 5 (0 on every other figure)"),
        "{said}"
    );
    // The grid's 6 points but the one that sets the scenario's own floor and K: the baseline.
    assert!(
        said.contains(
            "The best point's Δ is biased in its favour: it was chosen as the best of 5 points"
        ),
        "{said}"
    );
    assert!(
        said.contains("`--verify` replays it on fresh seeds"),
        "{said}"
    );
    // The best point's table gives the baseline's own figure beside it: value − Δ is the baseline.
    let best = said
        .split_once("on every figure, beside the baseline:")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no best point's table: {said}"));
    let row = best
        .lines()
        .find(|l| l.trim_start().starts_with("gap_strength.all.rms"))
        .unwrap_or_else(|| panic!("no rank figure in the best point's table: {best}"));
    let cells: Vec<&str> = row
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let mean = |cell: &str| -> f64 {
        cell.split(" ± ")
            .next()
            .unwrap()
            .trim_start_matches('+')
            .parse()
            .unwrap()
    };
    let (value, baseline, change) = (mean(cells[1]), mean(cells[2]), mean(cells[3]));
    assert!(change != 0.0, "{row}");
    assert!(
        (value - change - baseline).abs() < 0.02 * baseline.abs().max(1.0),
        "{row}"
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("Verdicts are corrected for multiplicity"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(json["alpha"], 0.05);
    let candidates = json["candidates"].as_array().unwrap();
    let figures = candidates[0]["figures"].as_array().unwrap().len();
    let mut verdicts: Vec<(String, String)> = Vec::new();
    for f in 0..figures {
        let of = |c: &serde_json::Value| c["figures"][f].clone();
        let name = of(&candidates[0])["name"].as_str().unwrap().to_string();
        let tested: Vec<serde_json::Value> = candidates
            .iter()
            .map(of)
            .filter(|x| !x["p_value"].is_null())
            .collect();
        let p: Vec<f64> = tested
            .iter()
            .map(|x| x["p_value"].as_f64().unwrap())
            .collect();
        for (x, expected) in tested.iter().zip(holm(&p)) {
            let adjusted = x["adjusted_p_value"].as_f64().unwrap();
            assert!(
                (adjusted - expected).abs() <= 1e-6 * p.len() as f64,
                "{name}: {adjusted} against {expected}"
            );
            assert_eq!(
                x["method"],
                format!("paired t over 3 seeds, Holm over {}", p.len())
            );
            let threshold = if name == "gap_strength.all.rms" {
                5.0
            } else {
                0.0
            };
            assert_eq!(x["threshold"], threshold, "{name}");
            // The verdict follows from the adjusted p-value and the gain against the threshold.
            let change = x["distance_difference"].as_f64().unwrap();
            let verdict = x["verdict"].as_str().unwrap();
            let expected = match (adjusted < 0.05, change < 0.0, change.abs() > threshold) {
                (false, _, _) => "no clear difference",
                (true, true, true) => "better",
                (true, true, false) => "better, below the threshold",
                (true, false, true) => "worse",
                (true, false, false) => "worse, below the threshold",
            };
            assert_eq!(verdict, expected, "{name}: {x}");
            assert!(x["distance_difference_half_width"].as_f64().unwrap() > 0.0);
            verdicts.push((name.clone(), verdict.to_string()));
        }
    }
    // On the rank figure the threshold of 5 points parts the sure gains of over 10 points from the
    // sure losses of under 1.
    for wanted in ["better", "worse, below the threshold"] {
        assert!(
            verdicts
                .iter()
                .any(|(n, v)| n == "gap_strength.all.rms" && v == wanted),
            "{wanted}: {verdicts:?}"
        );
    }
    // The front's members that beat the baseline: better on a Pareto figure and worse on none.
    let pareto: Vec<&str> = json["pareto"]["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    let beats = |id: u64| {
        let c = candidates.iter().find(|c| c["candidate"] == id).unwrap();
        let on: Vec<&str> = c["figures"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| pareto.contains(&x["name"].as_str().unwrap()))
            .filter_map(|x| x["verdict"].as_str())
            .collect();
        on.contains(&"better") && !on.contains(&"worse")
    };
    let front: Vec<u64> = json["pareto"]["front"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    let beating: Vec<u64> = front.iter().copied().filter(|&c| beats(c)).collect();
    assert!(!beating.is_empty(), "{json}");
    assert_eq!(json["pareto"]["beating"], serde_json::json!(beating));
    assert!(
        said.contains("Of these, beating the baseline with corrected significance (better on at least one of these figures and worse on none"),
        "{said}"
    );
    // The best point's K is 15 or 25, both ends of the values searched: an edge either way.
    let best = candidates.iter().find(|c| c["label"] == "point").unwrap();
    let k = best["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v[0] == "revision[2002-07].k.standard")
        .unwrap()[1]
        .as_i64()
        .unwrap();
    let side = if k == 25 { "max" } else { "min" };
    let edges = json["edges"].as_array().unwrap();
    assert!(
        edges.contains(&serde_json::json!({
            "parameter": "revision[2002-07].k.standard",
            "value": k,
            "side": side,
            "key_limit": false
        })),
        "{edges:?}"
    );
    let where_ = if k == 25 { "top" } else { "bottom" };
    assert!(
        said.contains(&format!("revision[2002-07].k.standard: the best point is at the {where_} of the values searched ({k}): the best may lie beyond; widen them")),
        "{said}"
    );
}

#[test]
fn the_edge_of_the_values_searched_is_noted_only_there() {
    let dir = scratch("sweep-edges");
    tiny_world(&dir);
    // A floor long after the world's last list changes nothing: every point ties, and the best is
    // the first point, whose floor is the first value listed.
    let study = |values: &str| {
        format!(
            "scenario = {:?}\n[input]\nworld = \"tiny.toml\"\nscale = 0.01\nseeds = [1, 2]\n[[parameter]]\nkey = \"revision[2025-10].floor\"\nvalues = {values}\n[[measure]]\nkind = \"predictive\"\nfrom = \"2003-01\"\nto = \"2003-06\"\n",
            repo("scenarios/fide-historical.toml")
        )
    };
    let edges = |out: &Path| -> serde_json::Value {
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        json["edges"].clone()
    };
    let inside = write(&dir, "inside.toml", &study("[1450, 1400, 1500]"));
    let said = sweep(&inside, &dir.join("inside"), &[]);
    assert!(!said.contains("the best point is at the"), "{said}");
    assert_eq!(edges(&dir.join("inside")), serde_json::json!([]));
    // At 0, the floor's own limit: nothing to widen.
    let limit = write(&dir, "limit.toml", &study("[0, 1400]"));
    let said = sweep(&limit, &dir.join("limit"), &[]);
    assert!(
        said.contains("revision[2025-10].floor: the best point is at the bottom of the values searched (0), as far as the key goes."),
        "{said}"
    );
    assert_eq!(
        edges(&dir.join("limit")),
        serde_json::json!([{"parameter": "revision[2025-10].floor", "value": 0, "side": "min", "key_limit": true}])
    );
}

/// The small world with one key changed: a tenth of the games decided by no strength instead of
/// the built-in world's 17.5 %.
fn fewer_upsets_world(dir: &Path) -> String {
    write(
        dir,
        "fewer-upsets.toml",
        &format!(
            "name = \"fewer-upsets\"\nextends = {:?}\n[world]\nmonths = 30\n[games]\nupset_share = 0.1\n",
            repo("worlds/fide-2001-2025.toml")
        ),
    )
}

/// Three candidates (the October 2002 floor at 1601 and 2001 beside the baseline's 1801) on two
/// worlds, two seeds each, judged by measures that need no truth.
fn two_world_study(dir: &Path, input: &str) -> String {
    tiny_world(dir);
    fewer_upsets_world(dir);
    write(
        dir,
        "worlds-study.toml",
        &format!(
            r#"name = "two-worlds"
scenario = {:?}

[input]
{input}
scale = 0.01
seeds = [1, 2]

[[parameter]]
key = "revision[2002-07].floor"
values = [1601, 2001]

[[measure]]
kind = "flatness"
from = "2002-07"
to = "2003-06"
lowest = 1800
min-games = 20

[[measure]]
kind = "predictive"
from = "2003-01"
to = "2003-06"

[[measure]]
kind = "disruption"
list = "2003-04"

[verify]
scale = 0.01
"#,
            repo("scenarios/fide-historical.toml")
        ),
    )
}

const TWO_WORLDS: &str = "worlds = [\"tiny.toml\", \"fewer-upsets.toml\"]";

/// Every file a finished study of the two worlds writes, but its journal and its timings.
const TWO_WORLD_OUTPUTS: &[&str] = &[
    "results.parquet",
    "results.csv",
    "summary.txt",
    "summary.md",
    "summary.json",
    "report.html",
    "response-1-tiny.png",
    "response-1-fewer-upsets.png",
    "pareto-tiny.png",
    "pareto-fewer-upsets.png",
];

fn json_file(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn file_says(path: &Path, expected: &[&str]) {
    let text = std::fs::read_to_string(path).unwrap();
    for e in expected {
        assert!(text.contains(e), "{} lacks {e:?}:\n{text}", path.display());
    }
}

/// A candidate's entry in one world's summary of a `summary.json`.
fn world_candidate<'j>(
    world: &'j serde_json::Value,
    candidate: &serde_json::Value,
) -> &'j serde_json::Value {
    world["summary"]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["candidate"] == *candidate)
        .unwrap()
}

#[test]
fn a_study_over_two_worlds_judges_each_and_says_where_they_agree() {
    let dir = scratch("sweep-worlds");
    let study = two_world_study(&dir, TWO_WORLDS);
    let one = dir.join("one");
    let said = sweep(&study, &one, &["--threads", "2"]);
    assert!(
        said.contains("on 2 worlds, each at scale 0.01 on seeds 1, 2: tiny ("),
        "{said}"
    );

    // Rows by world in the study's order, then candidate, then seed.
    let csv = std::fs::read_to_string(one.join("results.csv")).unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with("world,candidate,seed,label,revision[2002-07].floor,flatness.rms,"),
        "{header}"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let places: Vec<String> = rows.iter().map(|r| r[..3].join(",")).collect();
    let mut expected = Vec::new();
    for world in ["tiny", "fewer-upsets"] {
        for candidate in 0..3 {
            for seed in 1..=2 {
                expected.push(format!("{world},{candidate},{seed}"));
            }
        }
    }
    assert_eq!(places, expected, "{csv}");
    // The worlds differ: the baseline's crosstable on the same seed is another.
    let flatness = header.split(',').position(|c| c == "flatness.rms").unwrap();
    assert_ne!(rows[0][flatness], rows[6][flatness], "{csv}");

    // A summary per world, as a single world's, and the agreement between them.
    file_says(
        &one.join("summary.txt"),
        &[
            "Candidates are ordered over the worlds by the mean of each world's mean distance from the ideal on flatness.rms",
            "Agreement between the worlds on flatness.rms, predictive.log_loss, disruption.mean_abs:",
            "\nWorld tiny\n==========\nStudy two-worlds",
            "\nWorld fewer-upsets\n==================\nStudy two-worlds",
            "Pareto front over flatness.rms, predictive.log_loss, disruption.mean_abs",
        ],
    );
    let json = json_file(&one.join("summary.json"));
    let worlds = json["worlds"].as_array().unwrap();
    let names: Vec<&str> = worlds.iter().map(|w| w["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["tiny", "fewer-upsets"]);
    assert!(worlds[1]["source"]
        .as_str()
        .unwrap()
        .ends_with("fewer-upsets.toml"));
    // Each agreement is the worlds' own verdicts, and agrees exactly when they are the same.
    let agreement = json["agreement"].as_array().unwrap();
    assert!(!agreement.is_empty());
    for a in agreement {
        let (candidate, figure) = (&a["candidate"], a["figure"].as_str().unwrap());
        let verdicts: Vec<&serde_json::Value> = names.iter().map(|n| &a["verdicts"][n]).collect();
        for (w, verdict) in worlds.iter().zip(&verdicts) {
            let own = world_candidate(w, candidate)["figures"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["name"] == figure)
                .unwrap()["verdict"]
                .clone();
            assert_eq!(**verdict, own, "{a}");
        }
        assert_eq!(
            a["agree"].as_bool().unwrap(),
            verdicts[0] == verdicts[1],
            "{a}"
        );
    }
    // The order over the worlds: by the mean of the worlds' means of flatness.rms (lower is better).
    let mean = |w: &serde_json::Value, candidate: &serde_json::Value| {
        world_candidate(w, candidate)["figures"][0]["mean"]
            .as_f64()
            .unwrap()
    };
    let order = json["order"].as_array().unwrap();
    assert_eq!(order.len(), 3);
    let distances: Vec<f64> = order
        .iter()
        .map(|o| o["mean_distance"].as_f64().unwrap())
        .collect();
    assert!(distances.windows(2).all(|d| d[0] <= d[1]), "{distances:?}");
    for o in order {
        let both = (mean(&worlds[0], &o["candidate"]) + mean(&worlds[1], &o["candidate"])) / 2.0;
        assert!(
            (o["mean_distance"].as_f64().unwrap() - both).abs() < 1e-5,
            "{o}"
        );
    }
    // Each picture world by world, side by side on the page with the agreement.
    assert!(!one.join("pareto.png").exists());
    file_says(
        &one.join("report.html"),
        &[
            "<h2>Agreement between the worlds</h2>",
            "<h2>World tiny</h2>",
            "<h2>World fewer-upsets</h2>",
            "<div class=\"half\"><figure>",
        ],
    );
    // Each (world, seed) generated once.
    let timings = json_file(&one.join("timings.json"));
    let generated: Vec<String> = timings["worlds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| format!("{} {}", w["world"].as_str().unwrap(), w["seed"]))
        .collect();
    assert_eq!(
        generated,
        ["tiny 1", "tiny 2", "fewer-upsets 1", "fewer-upsets 2"]
    );
    no_temporary_files(&one);
    // The page written again from the journal is the same page.
    let page = std::fs::read(one.join("report.html")).unwrap();
    succeeds(&["report", one.to_str().unwrap()]);
    assert_eq!(std::fs::read(one.join("report.html")).unwrap(), page);

    // Three machines, each a third of the (world, seed, candidate) triples, then joined.
    let shards: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("shard-{i}"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        sweep(
            &study,
            shard,
            &["--shard", &format!("{}/3", i + 1), "--threads", "1"],
        );
    }
    // The first shard's four triples are all the first world's: it generates no other.
    let first = std::fs::read_to_string(shards[0].join("results.jsonl")).unwrap();
    assert!(!first.contains("\"world\":\"fewer-upsets\""), "{first}");
    let merged = dir.join("merged");
    let mut args = vec![
        "sweep",
        "--quiet",
        "--out",
        merged.to_str().unwrap(),
        "--merge",
    ];
    args.extend(shards.iter().map(|s| s.to_str().unwrap()));
    succeeds(&args);
    same_files(&one, &merged, TWO_WORLD_OUTPUTS);

    // Interrupted in the second world (the last line cut short), then resumed.
    let resumed = dir.join("resumed");
    std::fs::create_dir_all(&resumed).unwrap();
    let journal = std::fs::read_to_string(one.join("results.jsonl")).unwrap();
    let kept: Vec<&str> = journal
        .lines()
        .filter(|l| !l.starts_with("{\"world\""))
        .take(8)
        .collect();
    assert!(
        kept[7].contains("\"world\":\"fewer-upsets\""),
        "{}",
        kept[7]
    );
    let cut = format!("{}\n{}", kept.join("\n"), &kept[7][..20]);
    std::fs::write(resumed.join("results.partial.jsonl"), cut).unwrap();
    let said = sweep(&study, &resumed, &["--resume"]);
    assert!(
        said.contains("12 rows in") && said.contains("7 resumed from the journal"),
        "{said}"
    );
    same_files(&one, &resumed, TWO_WORLD_OUTPUTS);

    // The best point over the worlds verified on new seeds of every world.
    let said = sweep(&study, &one, &["--resume", "--verify", "1"]);
    assert!(
        said.contains("World tiny. Verified at scale 0.01 on seeds 3, 4"),
        "{said}"
    );
    assert!(said.contains("World fewer-upsets. Verified"), "{said}");
    let verify = json_file(&one.join("verify.json"));
    let verified: Vec<&str> = verify["worlds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(verified, ["tiny", "fewer-upsets"]);
    let best = &json["order"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["label"] == "point")
        .unwrap()["candidate"];
    for w in verify["worlds"].as_array().unwrap() {
        let candidates: Vec<&serde_json::Value> = w["verification"]["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["candidate"])
            .collect();
        assert_eq!(candidates.len(), 2, "{w}");
        assert!(candidates.contains(&best), "{w}");
    }
    let held = verify["held"].as_bool().unwrap();
    let said_held = said.contains("The ranking held on every world.");
    assert_eq!(held, said_held, "{said}");
}

#[test]
fn one_world_in_a_list_is_the_single_world_study() {
    let dir = scratch("sweep-one-world");
    let listed = two_world_study(&dir, "worlds = [\"tiny.toml\"]");
    let (a, b) = (dir.join("listed"), dir.join("single"));
    sweep(&listed, &a, &[]);
    let single = two_world_study(&dir, "world = \"tiny.toml\"");
    sweep(&single, &b, &[]);
    // The study files' texts differ, and with them the fingerprint and the page that shows them.
    same_files(
        &a,
        &b,
        &["results.csv", "summary.txt", "summary.md", "pareto.png"],
    );
    let without_fingerprint = |dir: &Path| {
        let mut json = json_file(&dir.join("summary.json"));
        json.as_object_mut().unwrap().remove("fingerprint");
        json
    };
    assert_eq!(without_fingerprint(&a), without_fingerprint(&b));
    // The single world's summary: no order over worlds, no agreement, no world sections.
    let summary = std::fs::read_to_string(a.join("summary.txt")).unwrap();
    assert!(summary.starts_with("Study two-worlds ("), "{summary}");
    assert!(
        summary.contains("tiny.toml at scale 0.01, seeds 1, 2\nRanked by flatness.rms"),
        "{summary}"
    );
    for absent in ["Agreement", "World tiny", "over the worlds"] {
        assert!(!summary.contains(absent), "{absent}\n{summary}");
    }
    let json = json_file(&a.join("summary.json"));
    assert!(json.get("worlds").is_none() && json.get("agreement").is_none());
    assert_eq!(json["candidates"].as_array().unwrap().len(), 3);
}

#[test]
fn bad_worlds_are_refused_at_their_key_paths_before_any_replay() {
    let dir = scratch("sweep-bad-worlds");
    write(
        &dir,
        "slash.toml",
        &format!(
            "name = \"a/b\"\nextends = {:?}\n[world]\nmonths = 30\n",
            repo("worlds/fide-2001-2025.toml")
        ),
    );
    write(
        &dir,
        "also-tiny.toml",
        &format!(
            "name = \"tiny\"\nextends = {:?}\n[world]\nmonths = 30\n[games]\nupset_share = 0.1\n",
            repo("worlds/fide-2001-2025.toml")
        ),
    );
    write(
        &dir,
        "later.toml",
        &format!(
            "name = \"later\"\nextends = {:?}\n[world]\nstart = \"2002-01\"\nmonths = 30\n",
            repo("worlds/fide-2001-2025.toml")
        ),
    );
    for (input, expected) in [
        (
            "world = \"tiny.toml\"\nworlds = [\"fewer-upsets.toml\"]",
            "input.worlds: give `world` (one world) or `worlds` (a list of them), not both",
        ),
        (
            "worlds = []",
            "input.worlds: expected a list of one or more worlds",
        ),
        (
            "worlds = \"tiny.toml\"",
            "input.worlds: expected a list of one or more worlds (built in, such as \"fide-2001-2025\", or world files), got",
        ),
        (
            "worlds = [\"fide-2001-2025\", \"tiny.toml\", \"fide-2001-2025\"]",
            "input.worlds[3]: \"fide-2001-2025\" is given twice (also the first value)",
        ),
        (
            "worlds = [\"tiny.toml\", 7]",
            "input.worlds[2]: expected a built-in world's name or a world file, got",
        ),
        (
            "worlds = [\"tiny.toml\", \"also-tiny.toml\"]",
            "input.worlds[2]: \"tiny\" is also the name of the world at input.worlds[1]",
        ),
        (
            "worlds = [\"tiny.toml\", \"slash.toml\"]",
            "input.worlds[2]: the world's name \"a/b\" names its pictures",
        ),
        (
            "worlds = [\"tiny.toml\", \"nowhere.toml\"]",
            "input.worlds[2]: \"nowhere.toml\" is neither a world file nor a built-in world",
        ),
        (
            "worlds = [\"tiny.toml\", \"later.toml\"]",
            "input.worlds[2]: starts in 2002-01, the world of input.worlds[1] in 2001-01",
        ),
    ] {
        let study = two_world_study(&dir, input);
        let out = dir.join("out");
        let r = elosim(&["sweep", &study, "--quiet", "--out", out.to_str().unwrap()]);
        let e = text(&r.stderr);
        assert!(!r.status.success(), "{input}: the study ran");
        assert!(e.contains(expected), "{input}\n{expected}\n{e}");
        assert!(!e.contains("panicked"), "{e}");
        assert!(!out.exists(), "{input}: a refused study wrote {}", out.display());
    }
}

#[test]
fn an_optimising_design_minimises_over_every_world() {
    let dir = scratch("sweep-worlds-optimise");
    let study = two_world_study(&dir, TWO_WORLDS);
    let text = std::fs::read_to_string(&study).unwrap().replace(
        "[[parameter]]\nkey = \"revision[2002-07].floor\"\nvalues = [1601, 2001]",
        "[design]\nkind = \"optimise\"\nbudget = 4\npopulation = 4\nminimise = \"flatness.rms\"\n\n[[parameter]]\nkey = \"revision[2002-07].floor\"\nmin = 1400\nmax = 2200",
    );
    let study = write(&dir, "optimise.toml", &text);
    let out = dir.join("out");
    let said = sweep(&study, &out, &[]);
    assert!(
        said.contains(
            "The optimiser minimised the mean over the worlds and seeds of 1 × flatness.rms."
        ),
        "{said}"
    );
    // Every candidate the optimiser chose is on both worlds and both seeds.
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let candidates: std::collections::BTreeSet<&str> = rows.iter().map(|r| r[1]).collect();
    assert!(candidates.len() >= 2, "{csv}");
    assert_eq!(rows.len(), candidates.len() * 4, "{csv}");
    for world in ["tiny", "fewer-upsets"] {
        assert_eq!(
            rows.iter().filter(|r| r[0] == world).count(),
            candidates.len() * 2,
            "{csv}"
        );
    }
}

/// A parameter of months (the month an event moves to) steps through its months, writes them as
/// months in the results and the summary, and gets a response picture on an axis of months.
#[test]
fn a_parameter_of_months_moves_an_event_and_gets_its_picture() {
    let dir = scratch("sweep-months");
    tiny_world(&dir);
    let study = write(
        &dir,
        "months.toml",
        &format!(
            "scenario = {:?}\n[input]\nworld = \"tiny.toml\"\nscale = 0.01\nseeds = [1, 2]\n[[parameter]]\nkey = \"event[compression 2017-01].list\"\nvalues = [\"2002-07\", \"2002-01\", \"2003-01\"]\n[[measure]]\nkind = \"truth-gap\"\nlist = \"2003-01\"\n",
            repo("scenarios/sonas-2017.toml")
        ),
    );
    let out = dir.join("out");
    let said = sweep(&study, &out, &[]);
    // The points whose compression comes after the baseline's first list carry on from its
    // replay there, with the results of replays from the start.
    assert!(!said.contains("(0 carried on"), "{said}");
    let whole = dir.join("whole");
    sweep(&study, &whole, &["--whole-replays"]);
    let outputs = [
        "results.csv",
        "results.parquet",
        "summary.json",
        "response-1.png",
    ];
    same_files(&out, &whole, &outputs);
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(
        header.contains("event[compression 2017-01].list"),
        "{header}"
    );
    for month in ["2002-07", "2002-01", "2003-01"] {
        assert!(csv.contains(&format!(",{month},")), "{month} not in\n{csv}");
    }
    assert!(out.join("response-1.png").is_file());
    let json = json_file(&out.join("summary.json"));
    let values: Vec<&serde_json::Value> = json["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["values"][0])
        .collect();
    let moved = serde_json::json!(["event[compression 2017-01].list", "2002-01"]);
    assert!(values.contains(&&moved), "{values:?}");
    // A month that is not one is refused at its place in the list, before any replay.
    let bad = write(
        &dir,
        "bad.toml",
        &std::fs::read_to_string(&study)
            .unwrap()
            .replace("\"2002-01\"", "\"2002-13\""),
    );
    let r = elosim(&[
        "sweep",
        &bad,
        "--quiet",
        "--out",
        dir.join("bad").to_str().unwrap(),
    ]);
    assert!(!r.status.success());
    assert!(
        text(&r.stderr)
            .contains("parameter[1].values[2]: expected a month \"YYYY-MM\", got \"2002-13\""),
        "{}",
        text(&r.stderr)
    );
}

/// `[input] start-list = "reported"` takes what `replay --start-list reported` takes: the ratings
/// the tournament reports carry, not a file named `reported` beside the study.
#[test]
fn a_study_of_tournament_reports_starts_from_the_ratings_they_carry() {
    let dir = scratch("sweep-reported");
    let study = write(
        &dir,
        "reported.toml",
        &format!(
            "scenario = {:?}\n[input]\ngames = {:?}\nstart-list = \"reported\"\nskip-invalid = true\n[[parameter]]\nkey = \"revision[2024-03].floor\"\nvalues = [1000, 1400]\n[[measure]]\nkind = \"predictive\"\nfrom = \"2024-01\"\nto = \"2024-05\"\n",
            repo("scenarios/fide-historical.toml"),
            repo("data/trf/belgian-interclubs-2023-24/rounds")
        ),
    );
    let out = dir.join("out");
    sweep(&study, &out, &[]);
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let baseline = csv.lines().find(|l| l.contains(",baseline,")).unwrap();
    // The games of January to May 2024 between players the reports rate are predicted.
    assert!(baseline.ends_with(",4420,0"), "{csv}");
    // A starting list that is not there is named once, in the study's own words.
    let missing = write(
        &dir,
        "missing.toml",
        &std::fs::read_to_string(&study)
            .unwrap()
            .replace("start-list = \"reported\"", "start-list = \"nolist.csv\""),
    );
    let r = elosim(&[
        "sweep",
        &missing,
        "--quiet",
        "--out",
        dir.join("m").to_str().unwrap(),
    ]);
    let e = text(&r.stderr);
    assert!(!r.status.success());
    assert!(e.contains("reading the study's games: cannot read "), "{e}");
    assert_eq!(e.matches("cannot read").count(), 1, "{e}");
}

/// What a study cannot do is refused before any replay, writing nothing: a negative scale (a
/// number, not a flag), a verification of no candidate, more shards than (world, candidate, seed)
/// triples to share.
#[test]
fn impossible_verifications_and_shards_are_refused_before_any_replay() {
    let dir = scratch("sweep-impossible");
    let study = tiny_study(&dir, "");
    let out = dir.join("out");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--scale", "-0.02"],
            "--scale: expected a number from 0.0001 to 10, got -0.02",
        ),
        (
            &["--verify", "--verify-scale", "-1"],
            "--verify-scale: expected a number from 0.0001 to 10, got -1",
        ),
        (
            &["--verify", "0"],
            "expected how many of the best candidates to replay again, a whole number from 1 to 1000, got \"0\"",
        ),
        (
            &["--shard", "1/1000"],
            "--shard 1/1000: the study has 21 (world, candidate, seed) triples to share, fewer than 1000 shards",
        ),
    ];
    for (flags, said) in cases {
        let mut args = vec![
            "sweep",
            study.as_str(),
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(flags);
        let r = elosim(&args);
        assert!(!r.status.success(), "{flags:?} ran");
        assert!(text(&r.stderr).contains(said), "{}", text(&r.stderr));
        assert!(!out.exists(), "{flags:?} wrote {}", out.display());
    }
    // Verification seeds the search used, given in the study file, refused before the search.
    let reused = scratch("sweep-impossible-seeds");
    let reusing = tiny_study(&reused, "seeds = [3, 4]");
    let r = elosim(&[
        "sweep",
        &reusing,
        "--quiet",
        "--verify",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        !r.status.success(),
        "verification on the search's seeds ran"
    );
    assert!(
        text(&r.stderr).contains("verify.seeds: seed 3 is one the search used"),
        "{}",
        text(&r.stderr)
    );
    assert!(!out.exists(), "reused seeds wrote {}", out.display());
    // An output directory that cannot be made is named as one.
    let file = write(&dir, "afile.txt", "a file");
    let under = format!("{file}/sub");
    let r = elosim(&["sweep", &study, "--quiet", "--out", &under]);
    assert!(!r.status.success());
    assert!(
        text(&r.stderr).contains(&format!("cannot create the directory {under}")),
        "{}",
        text(&r.stderr)
    );
}
