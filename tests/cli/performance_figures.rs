//! docs/performance.md's figures, and docs/sweep.md's of a study at FIDE's size and of the Slurm
//! job array, measured in one sitting from the current build: every figure beside a target was
//! measured with its reference in the same sitting, and no number there is edited by hand.
//!
//! ```sh
//! cargo test --release --locked --test cli performance_figures::regenerate_performance -- --ignored --exact --nocapture
//! ```
//!
//! runs, in turn, with nothing else on the machine: `elosim bench` on its million-game file and
//! the awk period Elo on the same file (`benches/baselines.sh awk`); `elosim bench --replay-world
//! 1`; `elosim bench --idle 1000000`; a second replay of the scale-1 world and `elosim compare` of
//! the two runs against a polars script (`benches/baselines.sh compare`); the world replayed on
//! one thread, its tables compared byte for byte; the compression study with its first world alone
//! at FIDE's size on eight seeds (`elosim bench --sweep`); a small study run from the baseline's
//! snapshots, whole, on one thread and in shards, compared byte for byte; a month of 100 million
//! games rated file by file; 100 million games partitioned; compressed and over-long inputs
//! (`benches/baselines.sh gzip|zstd|long-line`); profiles (`perf record`) of the runs whose targets
//! are not met; and the Slurm job array and the Kubernetes Indexed Job of docs/sweep.md
//! (`benches/slurm.sh`, `benches/slurm.sh k8s`). It then rewrites the blocks between
//! `<!-- figures: NAME … -->` and `<!-- end NAME -->` of both pages and the README's table: 27
//! minutes (1,647 s, commit a17f37f) on this repository's 2-core machine. It needs GNU time,
//! Python polars, perf and Slurm (benches/ says how each is used). The same code runs with the tests at a small scale without
//! them (`the_performance_figures_regenerate_at_a_small_scale`), so that the script cannot rot.

use std::path::{Path, PathBuf};

use crate::docs_figures::{
    args, line_of, only_blocks_change, provenance, recorded, repo, run, spliced, text, word,
    world_replay, Plan, Record,
};

/// The test that writes these blocks.
const TEST: &str = "performance_figures::regenerate_performance";

/// The sizes of one sitting.
struct Sitting {
    plan: Plan,
    /// `elosim bench`'s generated file: games, players, months.
    file: [u64; 3],
    /// Runs of each timed measurement (the scale-1 world's: 2).
    runs: u32,
    world_scale: f64,
    idle: u64,
    /// The study at FIDE's size: scale and seeds.
    study_scale: f64,
    study_seeds: Vec<u64>,
    /// The study run every way and compared byte for byte: its scale (one seed).
    checked_scale: f64,
    /// A month rated file by file: games, players, files.
    pieces: [u64; 3],
    /// The world at this scale as a partitioned dataset.
    partitioned_scale: f64,
    /// The tools beside elosim (GNU time, mawk, Python polars, perf, Slurm): their baselines,
    /// profiles and the Slurm run.
    tools: bool,
}

impl Sitting {
    fn dir(&self, name: &str) -> PathBuf {
        self.plan.out.join(name)
    }

    /// `elosim bench` with the file's size, and `more`.
    fn bench(&self, key: &str, more: &[&str]) -> Record {
        let [games, players, months] = self.file.map(|n| n.to_string());
        let mut a = args(&["bench", "--games", &games, "--players", &players]);
        a.extend(args(&[
            "--months",
            &months,
            "--runs",
            &self.runs.to_string(),
        ]));
        a.extend(args(more));
        run(&self.plan, key, &a)
    }

    /// A script of benches/ with `ELOSIM` this build and `RUNS` runs, shown where the script
    /// reads it (benches/baselines.sh: the Slurm script runs each step once).
    fn script(&self, key: &str, script: &str, arguments: &[&str]) -> Record {
        let shown: Vec<String> = arguments.iter().map(|a| shown(a)).collect();
        let runs = match script {
            "baselines.sh" => format!("RUNS={} ", self.runs),
            _ => String::new(),
        };
        let command = [format!("{runs}benches/{script}")]
            .into_iter()
            .chain(shown)
            .collect::<Vec<_>>()
            .join(" ");
        recorded(&self.plan, key, command, || {
            let out = std::process::Command::new("bash")
                .arg(repo(&format!("benches/{script}")))
                .args(arguments)
                .env("ELOSIM", env!("CARGO_BIN_EXE_elosim"))
                .env("RUNS", self.runs.to_string())
                .env("WORK", self.dir(key))
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&out.stdout).into_owned();
            assert!(
                out.status.success(),
                "benches/{script}: {said}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            said
        })
    }

    /// `perf record` of `elosim` with `arguments`, its samples kept in `profiles/KEY.data`; the
    /// record shows the threads' and the functions' shares of them, read anew from the samples
    /// each time the blocks are written.
    fn profile(&self, key: &str, arguments: &[String]) -> Record {
        let data = self.dir("profiles").join(format!("{key}.data"));
        std::fs::create_dir_all(data.parent().unwrap()).unwrap();
        let shown: Vec<String> = arguments.iter().map(|a| shown(a)).collect();
        let command = format!("perf record -F 499 -- elosim {}", shown.join(" "));
        let record = recorded(&self.plan, key, command, || {
            let recorded = std::process::Command::new("perf")
                .args(["record", "-F", "499", "-o"])
                .arg(&data)
                .arg("--")
                .arg(env!("CARGO_BIN_EXE_elosim"))
                .args(arguments)
                .output()
                .unwrap();
            assert!(recorded.status.success(), "perf record {arguments:?}");
            String::new()
        });
        let report = |sort: &str| {
            let out = std::process::Command::new("perf")
                .args(["report", "--stdio", "--no-children", "--sort", sort, "-i"])
                .arg(&data)
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        Record {
            said: format!(
                "threads:\n{}functions:\n{}",
                shares(&report("comm"), 2.0),
                shares(&report("symbol"), 1.0)
            ),
            ..record
        }
    }
}

/// An argument or a command's output as a user reads it: the repository's paths relative.
fn shown(a: &str) -> String {
    a.replace(&format!("{}/", env!("CARGO_MANIFEST_DIR")), "")
}

/// The lines of a `perf report --stdio` of `at_least` per cent or more: `share name`, the names
/// of Rust's closures and generic instances shortened.
fn shares(report: &str, at_least: f64) -> String {
    let mut out = String::new();
    for line in report.lines().filter(|l| !l.starts_with('#')) {
        let Some((share, name)) = line.trim().split_once('%') else {
            continue;
        };
        let Ok(share) = share.trim().parse::<f64>() else {
            continue;
        };
        if share < at_least {
            continue;
        }
        // The name, without the columns perf adds after it (IPC, its coverage).
        let name = name
            .trim()
            .trim_start_matches("[.] ")
            .trim_start_matches("[k] ")
            .split("  ")
            .next()
            .unwrap_or("");
        out.push_str(&format!("{share:5.1} %  {}\n", short_name(name.trim())));
    }
    out
}

/// A function's name as a reader scans it: generic arguments left out, a trait method named by
/// its type (`<Vec<T> as SpecFromIter<T, I>>::from_iter` as `alloc::vec::Vec::from_iter`), the
/// crate's own prefix dropped, and Rust's closures called through a reference (`<impl Fn<A> for
/// &F>::call`, which perf cannot name further) said to be one.
fn short_name(name: &str) -> String {
    let mut out = String::new();
    let mut rest = name;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let close = open + closing(&rest[open..]);
        // A type in place of a path (`<T as Trait>::f`, `module::<impl T>::f`) names the
        // function; angle brackets after a name are its generic arguments.
        if out.is_empty() || out.ends_with("::") {
            out = short_name(own_type(&rest[open + 1..close]));
        }
        rest = &rest[(close + 1).min(rest.len())..];
    }
    out.push_str(rest);
    let out = out.replace("elosim::", "");
    if out.ends_with("::call") || out.ends_with("::call_mut") {
        return "a closure (`Fn::call`)".into();
    }
    out
}

/// Where the angle bracket that opens `s` closes (its length if it does not).
fn closing(s: &str) -> usize {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    s.len()
}

/// The type of `T as Trait`, `impl Trait for T` or `impl T`.
fn own_type(inside: &str) -> &str {
    let at_top = |pattern: &str| {
        let mut depth = 0;
        inside.char_indices().find_map(|(i, c)| {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            (depth == 0 && inside[i..].starts_with(pattern)).then_some(i)
        })
    };
    if let Some(at) = at_top(" for ") {
        &inside[at + 5..]
    } else if let Some(at) = at_top(" as ") {
        &inside[..at]
    } else {
        inside.trim_start_matches("impl ")
    }
}

/// The number after `key` on the line of `said` that starts with `start`.
fn figure(said: &str, start: &str, key: &str) -> f64 {
    word(line_of(said, start), key)
        .trim_start_matches('×')
        .replace(',', "")
        .parse()
        .unwrap_or(f64::NAN)
}

/// The text of `line` between `from` and `to`.
fn between<'a>(line: &'a str, from: &str, to: &str) -> &'a str {
    line.split_once(from)
        .and_then(|(_, rest)| rest.split_once(to))
        .map_or("–", |(inside, _)| inside.trim())
}

/// What `elosim bench --sweep` printed of a study, as the table and docs/sweep.md read it.
struct StudyFigures {
    seconds: f64,
    threads: f64,
    peak_gb: f64,
    naive: f64,
    rows: String,
}

impl StudyFigures {
    fn of(said: &str) -> StudyFigures {
        // `… on 2 threads in 807.0 s, files written`: the word before each mark.
        let first = line_of(said, "Study ");
        let before = |mark: &str| {
            first
                .split(mark)
                .next()
                .and_then(|text| text.rsplit(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(f64::NAN)
        };
        StudyFigures {
            seconds: before(" s, files written"),
            threads: before(" thread"),
            peak_gb: figure(said, "process", "memory "),
            naive: figure(said, "naive", "naive"),
            rows: word(line_of(said, "naive"), "s: ").to_string(),
        }
    }

    /// The study's time over its naive cost.
    fn ratio(&self) -> f64 {
        self.seconds / self.naive
    }
}

/// Seconds to `decimals` decimals, or "not measured".
fn secs(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        format!("{v:.decimals$} s")
    } else {
        "not measured".into()
    }
}

/// Gigabytes to two decimals, or "–".
fn gb(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.2} GB")
    } else {
        "–".into()
    }
}

/// A ratio as the tables give it.
fn ratio(a: f64, b: f64) -> String {
    if a.is_finite() && b.is_finite() && b > 0.0 {
        format!("{:.2} ×", a / b)
    } else {
        "–".into()
    }
}

/// Whether each value is at most its limit, as the table's last column says it.
fn met(checks: &[(f64, f64)]) -> String {
    let one = |&(v, limit): &(f64, f64)| {
        if !v.is_finite() {
            "not measured"
        } else if v <= limit {
            "**yes**"
        } else {
            "no"
        }
    };
    match checks {
        [check] => one(check).into(),
        // Each of several targets (time, memory, ratio) said on its own.
        _ => checks.iter().map(one).collect::<Vec<_>>().join(" · "),
    }
}

/// What the sitting ran, by record.
struct Ran {
    file: Record,
    awk: Option<Record>,
    world: Record,
    idle: Record,
    second: Record,
    compare: Record,
    script: Option<Record>,
    threads: Record,
    threads_same: String,
    study: Record,
    checked: Vec<Record>,
    checked_same: String,
    pieces: Record,
    partitioned: Record,
    inputs: Vec<Record>,
    profiles: Vec<Record>,
    /// `benches/slurm.sh` and `benches/slurm.sh k8s`.
    slurm: Option<[Record; 2]>,
}

/// The scale-1 world the world bench generated and kept.
fn world_dir(bench: &Path) -> PathBuf {
    std::fs::read_dir(bench)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("world-"))
        })
        .unwrap_or_else(|| panic!("no world kept in {}", bench.display()))
}

/// The files of two directories compared byte for byte, `except` those left out: "the same
/// bytes: …" or what differs.
fn same_bytes(a: &Path, b: &Path, except: &[&str]) -> String {
    let mut names: Vec<String> = std::fs::read_dir(a)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !except.contains(&n.as_str()) && a.join(n).is_file())
        .collect();
    names.sort();
    let differ: Vec<&String> = names
        .iter()
        .filter(|n| std::fs::read(a.join(n)).ok() != std::fs::read(b.join(n)).ok())
        .collect();
    if differ.is_empty() {
        format!("the same bytes: {}", names.join(", "))
    } else {
        format!("**differ**: {differ:?}")
    }
}

/// The compression study as shipped but with its first world alone, so that eight seeds make the
/// 37 × 8 rows the target was set on; its scenarios named from the study's folder.
fn one_world_study(s: &Sitting) -> PathBuf {
    let studies = repo("scenarios/studies");
    let shipped = std::fs::read_to_string(studies.join("sonas-2017-compression.toml")).unwrap();
    let mut study = String::new();
    for line in shipped.lines() {
        let line = line.replace("\"../", &format!("\"{}/../", studies.display()));
        if line.starts_with("worlds = [") {
            let first = line.split('"').nth(1).unwrap();
            study.push_str(&format!("worlds = [\"{first}\"]\n"));
        } else {
            study.push_str(&line);
            study.push('\n');
        }
    }
    let path = s.dir("one-world.toml");
    std::fs::create_dir_all(&s.plan.out).unwrap();
    std::fs::write(&path, study).unwrap();
    path
}

/// Every command of the sitting, in turn.
fn sit(s: &Sitting) -> Ran {
    let file = s.bench("file", &["--keep", &text(&s.dir("file"))]);
    let games_csv = s.dir("file").join("games.csv");
    let awk = s
        .tools
        .then(|| s.script("awk", "baselines.sh", &["awk", &text(&games_csv)]));
    let scale = s.world_scale.to_string();
    let world = run(
        &s.plan,
        "world",
        &args(&[
            "bench",
            "--replay-world",
            &scale,
            "--runs",
            &s.runs.min(2).to_string(),
        ])
        .into_iter()
        .chain(args(&["--keep", &text(&s.dir("world"))]))
        .collect::<Vec<_>>(),
    );
    let idle = s.bench(
        "idle",
        &[
            "--idle",
            &s.idle.to_string(),
            "--keep",
            &text(&s.dir("idle")),
        ],
    );
    let generated = world_dir(&s.dir("world"));
    let first = s.dir("world").join("run");
    let other = s.dir("sonas-2017");
    let second = run(
        &s.plan,
        "second",
        &world_replay(&generated, "scenarios/sonas-2017.toml", &other),
    );
    let compare = run(
        &s.plan,
        "compare",
        &args(&["compare", &text(&first), &text(&other)]),
    );
    let script = s.tools.then(|| {
        s.script(
            "compare-script",
            "baselines.sh",
            &["compare", &text(&first), &text(&other)],
        )
    });
    let one_thread = s.dir("threads-1");
    let mut a = world_replay(
        &generated,
        // As the bench names its scenario, so that the runs' resolved scenarios are the same.
        "scenarios/fide-historical.toml",
        &one_thread,
    );
    a.extend(args(&["--threads", "1"]));
    let threads = run(&s.plan, "threads-1", &a);
    let threads_same = same_bytes(&first, &one_thread, &["summary.json"]);
    let seeds: Vec<String> = s.study_seeds.iter().map(u64::to_string).collect();
    let one_world = one_world_study(s);
    let study = run(
        &s.plan,
        "study",
        &args(&["bench", "--sweep", &text(&one_world)])
            .into_iter()
            .chain(args(&["--scale", &s.study_scale.to_string()]))
            .chain(args(&[
                "--seeds",
                &seeds.join(","),
                "--keep",
                &text(&s.dir("study")),
            ]))
            .collect::<Vec<_>>(),
    );
    let (checked, checked_same) = checked_study(s);
    let [games, players, files] = s.pieces.map(|n| n.to_string());
    let pieces = run(
        &s.plan,
        "pieces",
        &args(&[
            "bench",
            "--games",
            &games,
            "--players",
            &players,
            "--months",
            "1",
        ])
        .into_iter()
        .chain(args(&[
            "--pieces",
            &files,
            "--runs",
            "1",
            "--keep",
            &text(&s.dir("pieces")),
        ]))
        .collect::<Vec<_>>(),
    );
    let partitioned = run(
        &s.plan,
        "partitioned",
        &args(&["bench", "--replay-world", &s.partitioned_scale.to_string()])
            .into_iter()
            .chain(args(&["--partitioned", "--runs", "1"]))
            .chain(args(&["--keep", &text(&s.dir("partitioned"))]))
            .collect::<Vec<_>>(),
    );
    let inputs = if s.tools {
        ["gzip", "zstd", "long-line"]
            .iter()
            .map(|mode| s.script(mode, "baselines.sh", &[mode]))
            .collect()
    } else {
        Vec::new()
    };
    let profiles = if s.tools {
        profiles(s, &generated, &one_world)
    } else {
        Vec::new()
    };
    let slurm = s.tools.then(|| {
        [
            s.script("slurm", "slurm.sh", &[]),
            s.script("k8s", "slurm.sh", &["k8s"]),
        ]
    });
    Ran {
        file,
        awk,
        world,
        idle,
        second,
        compare,
        script,
        threads,
        threads_same,
        study,
        checked,
        checked_same,
        pieces,
        partitioned,
        inputs,
        profiles,
        slurm,
    }
}

/// The compression study at `checked_scale` on one seed run as a user runs it, then replaying
/// every candidate whole, on one thread, and in three shards merged: its outputs compared with
/// the first run's byte for byte (all but the journal and the timings, which hold times).
fn checked_study(s: &Sitting) -> (Vec<Record>, String) {
    let study = text(&repo("scenarios/studies/sonas-2017-compression.toml"));
    let scale = s.checked_scale.to_string();
    let sweep = |key: &str, more: &[&str]| {
        let mut a = args(&[
            "sweep", &study, "--scale", &scale, "--seeds", "1", "--quiet",
        ]);
        a.extend(args(more));
        a.extend(args(&["--out", &text(&s.dir(key))]));
        run(&s.plan, key, &a)
    };
    let mut records = vec![
        sweep("checked", &[]),
        sweep("checked-whole", &["--whole-replays"]),
        sweep("checked-threads-1", &["--threads", "1"]),
    ];
    for i in 1..=3 {
        records.push(sweep(
            &format!("checked-shard-{i}"),
            &["--shard", &format!("{i}/3")],
        ));
    }
    let mut merge = args(&["sweep", "--merge"]);
    merge.extend((1..=3).map(|i| text(&s.dir(&format!("checked-shard-{i}")))));
    merge.extend(args(&["--quiet", "--out", &text(&s.dir("checked-merged"))]));
    records.push(run(&s.plan, "checked-merged", &merge));
    let except = ["results.jsonl", "timings.json"];
    let base = s.dir("checked");
    let same: Vec<String> = [
        ("from the first list (`--whole-replays`)", "checked-whole"),
        ("on one thread", "checked-threads-1"),
        ("in three shards merged", "checked-merged"),
    ]
    .iter()
    .map(|(how, dir)| format!("- {how}: {}\n", same_bytes(&base, &s.dir(dir), &except)))
    .collect();
    (records, same.concat())
}

/// Profiles of the runs whose targets are not met: the million-game file's whole replay, the
/// world's, the million idle players' and the study's carried-on replays (at a tenth of the
/// size, one seed, of the study in `one_world`).
fn profiles(s: &Sitting, world: &Path, one_world: &Path) -> Vec<Record> {
    let out = |name: &str| text(&s.dir("profiles").join(name));
    let file = s.dir("file").join("games.csv");
    let idle = s.dir("idle");
    let kaggle = text(&repo("scenarios/kaggle2010.toml"));
    let mut world_args = world_replay(
        world,
        "scenarios/fide-historical.toml",
        &s.dir("profiles").join("world"),
    );
    world_args.retain(|a| a != "--quiet");
    vec![
        s.profile(
            "profile-file",
            &args(&[
                "replay",
                &kaggle,
                "--games",
                &text(&file),
                "--out",
                &out("file"),
            ]),
        ),
        s.profile("profile-world", &world_args),
        s.profile(
            "profile-idle",
            &args(&["replay", &kaggle, "--games", &text(&idle.join("games.csv"))])
                .into_iter()
                .chain(args(&["--start-list", &text(&idle.join("start-idle.csv"))]))
                .chain(args(&["--out", &out("idle")]))
                .collect::<Vec<_>>(),
        ),
        s.profile(
            "profile-study",
            &args(&["bench", "--sweep", &text(one_world), "--scale", "0.1"])
                .into_iter()
                .chain(args(&["--seeds", "1", "--keep", &out("study")]))
                .collect::<Vec<_>>(),
        ),
    ]
}

/// A `bench` figure: the best time on the line that starts with `start`.
fn best(said: &str, start: &str) -> f64 {
    figure(said, start, "best ")
}

/// The targets table: each figure beside its reference of the same sitting.
fn targets(s: &Sitting, r: &Ran) -> String {
    let awk = r
        .awk
        .as_ref()
        .map_or(f64::NAN, |a| figure(&a.said, "awk period Elo", "best "));
    let engine = best(&r.file.said, "Engine alone");
    let whole = best(&r.file.said, "Whole replay");
    let stages = line_of(&r.file.said, "best run's stages")
        .split_once("stages: ")
        .map_or("–", |(_, stages)| stages);
    let w = &r.world.said;
    let (w_read, w_engine, w_whole) = (
        best(w, "read (parse"),
        best(w, "engine alone"),
        best(w, "whole replay, a process"),
    );
    let w_peak = figure(w, "whole replay's peak memory", "memory: ");
    let w_cores = between(line_of(w, "its CPU time"), "s, ", " cores");
    let idle_line = line_of(&r.idle.said, "with ");
    let idle_ratio = figure(&r.idle.said, "with ", "→ ");
    let nan = f64::NAN;
    let (c_time, c_gb, p_time, p_gb) = r.script.as_ref().map_or((nan, nan, nan, nan), |c| {
        (
            figure(&c.said, "elosim compare", "best "),
            figure(&c.said, "elosim compare", "s, "),
            figure(&c.said, "polars script", "best "),
            figure(&c.said, "polars script", "s, "),
        )
    });
    let study = StudyFigures::of(&r.study.said);
    let pieces_line = line_of(&r.pieces.said, "Whole replay");
    let pieces_peak = figure(&r.pieces.said, "of which the first pass", "memory ");
    let p = &r.partitioned.said;
    let mut t = String::from(
        "| what | measured | reference, same sitting | ratio | target | met |\n|---|---|---|---|---|---|\n",
    );
    let mut row = |cells: [String; 6]| t.push_str(&format!("| {} |\n", cells.join(" | ")));
    let size = |said: &str| between(line_of(said, "Generated "), "Generated ", " in ").to_string();
    row([
        format!("engine alone, the bench's file ({})", size(&r.file.said)),
        format!(
            "{engine:.3} s ({} games/s)",
            between(line_of(&r.file.said, "Engine alone"), "→ ", " games/s")
        ),
        format!("awk period Elo {}", secs(awk, 2)),
        format!("{} awk", ratio(engine, awk)),
        "≤ 0.12 × awk".into(),
        met(&[(engine / awk, 0.12)]),
    ]);
    row([
        "whole replay of the same file, every table written".into(),
        format!("{whole:.3} s ({stages})"),
        format!("awk {}", secs(awk, 2)),
        format!("{} awk", ratio(whole, awk)),
        "≤ 0.25 × awk".into(),
        met(&[(whole / awk, 0.25)]),
    ]);
    row([
        format!(
            "whole replay of the world at scale {} ({})",
            s.world_scale,
            between(line_of(w, "The world at scale"), "(", ", file)")
        ),
        format!(
            "{w_whole:.1} s, {w_peak:.2} GB (read {w_read:.1} s, engine alone {w_engine:.1} s; {w_cores} cores busy on average)"
        ),
        "–".into(),
        "–".into(),
        "≤ 15 s, ≤ 3.5 GB".into(),
        met(&[(w_whole, 15.0), (w_peak, 3.5)]),
    ]);
    row([
        format!("{} idle players added", elosim::numbers::thousands(s.idle)),
        between(idle_line, "best ", ",").to_string(),
        format!(
            "without them {}",
            between(line_of(&r.idle.said, "Whole replay"), "best ", ",")
        ),
        format!("{idle_ratio:.2} ×"),
        "≤ 1.3 ×".into(),
        met(&[(idle_ratio, 1.3)]),
    ]);
    row([
        "`compare` of the world's two runs".into(),
        format!("{}, {}", secs(c_time, 2), gb(c_gb)),
        format!("polars script {}, {}", secs(p_time, 2), gb(p_gb)),
        ratio(c_time, p_time),
        "≤ 1.5 ×".into(),
        met(&[(c_time / p_time, 1.5)]),
    ]);
    row([
        format!(
            "the compression study, its first world, scale {}, {} ({} rows)",
            s.study_scale,
            elosim::numbers::counted(s.study_seeds.len() as u64, "seed"),
            study.rows
        ),
        format!("{:.1} s, {:.2} GB", study.seconds, study.peak_gb),
        format!("naive cost {:.1} s", study.naive),
        format!("{:.2}", study.ratio()),
        "≤ 15 minutes, ≤ 16 GB, ≤ 0.2".into(),
        met(&[
            (study.seconds, 900.0),
            (study.peak_gb, 16.0),
            (study.ratio(), 0.2),
        ]),
    ]);
    row([
        format!(
            "a month of {} a period, rated file by file",
            between(pieces_line, "(", " a period")
        ),
        format!(
            "{:.1} s, {pieces_peak:.2} GB",
            best(&r.pieces.said, "Whole replay")
        ),
        "–".into(),
        "–".into(),
        "≤ 16 GB".into(),
        met(&[(pieces_peak, 16.0)]),
    ]);
    row([
        format!(
            "the world at scale {}, partitioned, list by list ({})",
            s.partitioned_scale,
            between(line_of(p, "The world at scale"), "(", ")")
        ),
        format!(
            "{:.1} s, {:.2} GB (read {:.1} s, engine alone {:.1} s)",
            best(p, "whole replay, a process"),
            figure(p, "whole replay's peak memory", "memory: "),
            best(p, "read (the first pass"),
            best(p, "engine alone")
        ),
        "–".into(),
        "–".into(),
        "memory bounded".into(),
        "–".into(),
    ]);
    for input in &r.inputs {
        let line = input.said.lines().last().unwrap_or("");
        row([
            line.split(':').next().unwrap_or("").to_string(),
            line.split_once(": ").map_or("–", |(_, v)| v).to_string(),
            "–".into(),
            "–".into(),
            "memory bounded by a buffer".into(),
            "–".into(),
        ]);
    }
    t
}

/// Each command of the sitting and what it printed.
fn outputs(records: &[&Record]) -> String {
    let mut out = String::new();
    for r in records {
        let said = shown(r.said.trim_end());
        let said = if said.is_empty() {
            String::new()
        } else {
            format!("{said}\n")
        };
        out.push_str(&format!("```text\n$ {}\n{said}```\n\n", r.command));
    }
    out
}

/// The blocks of docs/performance.md and docs/sweep.md.
fn blocks(s: &Sitting) -> Vec<(&'static str, &'static str, String)> {
    let r = sit(s);
    let mut timed: Vec<&Record> = vec![&r.file];
    timed.extend(&r.awk);
    timed.extend([&r.world, &r.idle, &r.second, &r.compare]);
    timed.extend(&r.script);
    timed.extend([&r.study, &r.pieces, &r.partitioned]);
    timed.extend(&r.inputs);
    let table = format!("{}{}", provenance(&timed, TEST), targets(s, &r));
    let mut same: Vec<&Record> = vec![&r.threads];
    same.extend(&r.checked);
    let identical = format!(
        "{}- the world's replay on one thread against two (`{}`; `summary.json` left out: it holds \
         the times): {}\n\n\
         The compression study at scale {} on seed 1, against its run as a user runs it (`{}`):\n\n{}",
        provenance(&same, TEST),
        r.world.command,
        r.threads_same,
        s.checked_scale,
        r.checked[0].command,
        r.checked_same
    );
    let profiles: Vec<&Record> = r.profiles.iter().collect();
    let mut blocks = vec![
        (
            "sitting",
            "README.md",
            format!(
                "*Measured on {} at commit {} by `cargo test --release --locked --test cli {TEST} -- --ignored`; `docs/performance.md` gives every command and what it printed.*\n\n{}",
                r.file.day,
                r.file.commit,
                targets(s, &r)
            ),
        ),
        ("sitting", "docs/performance.md", table),
        ("sitting-output", "docs/performance.md", outputs(&timed)),
        ("identical", "docs/performance.md", identical),
        (
            "profiles",
            "docs/performance.md",
            if profiles.is_empty() {
                "*No profile in this run (`perf` was not asked for).*\n".into()
            } else {
                format!("{}{}", provenance(&profiles, TEST), outputs(&profiles))
            },
        ),
        ("fide-size", "docs/sweep.md", fide_size(s, &r.study)),
    ];
    if let Some([slurm, k8s]) = &r.slurm {
        // What the runs printed after the docs' scripts they echo.
        let said = |r: &Record, from: &str| {
            let at = r.said.find(from).unwrap_or(0);
            format!(
                "{}```text\n{}\n```\n",
                provenance(&[r], TEST),
                shown(r.said[at..].trim_end())
            )
        };
        blocks.push(("slurm", "docs/sweep.md", said(slurm, "queued:")));
        blocks.push(("k8s", "docs/sweep.md", said(k8s, "kubernetes-validate")));
    }
    blocks
}

/// docs/sweep.md's study at FIDE's size: where its time went against the naive cost.
fn fide_size(s: &Sitting, study: &Record) -> String {
    let figures = StudyFigures::of(&study.said);
    let share = |start: &str| figure(&study.said, start, start) / figures.threads / figures.naive;
    format!(
        "{}{}Of the naive cost, on {} threads: the replays alone {:.2}, the worlds' generation {:.2}, the measures {:.2}; the rest of the study's {:.2} is each seed's baseline, which its candidates wait for, and the files (scale {}, seeds {:?}).\n",
        provenance(&[study], TEST),
        outputs(&[study]),
        figures.threads,
        share("replay"),
        share("generate"),
        share("measures"),
        figures.ratio(),
        s.study_scale,
        s.study_seeds,
    )
}

/// The sitting at this repository's sizes: the targets' own.
fn full(out: PathBuf, reuse: bool) -> Sitting {
    Sitting {
        plan: Plan::commands(out, reuse),
        file: [1_000_000, 50_000, 120],
        runs: 5,
        world_scale: 1.0,
        idle: 1_000_000,
        study_scale: 1.0,
        study_seeds: (1..=8).collect(),
        checked_scale: 0.02,
        pieces: [100_000_000, 10_000_000, 25],
        partitioned_scale: 1.86,
        tools: true,
    }
}

fn write_docs(s: &Sitting) {
    for (path, text) in spliced(&blocks(s)) {
        std::fs::write(&path, text).unwrap();
    }
}

/// The real sitting: rewrites the blocks of docs/performance.md and docs/sweep.md.
#[test]
#[ignore = "about 30 minutes on a 2-core machine, alone: cargo test --release --locked --test cli performance_figures::regenerate_performance -- --ignored --exact"]
fn regenerate_performance() {
    write_docs(&full(repo("output/performance-figures"), false));
}

/// The blocks written anew from the last sitting's records, without running anything.
#[test]
#[ignore = "after `regenerate_performance`: cargo test --release --locked --test cli performance_figures::rewrite_performance_from_the_last_run -- --ignored"]
fn rewrite_performance_from_the_last_run() {
    write_docs(&full(repo("output/performance-figures"), true));
}

#[test]
fn the_performance_figures_regenerate_at_a_small_scale() {
    let out = crate::common::scratch("performance-figures");
    let sitting = Sitting {
        plan: Plan::commands(out.clone(), false),
        file: [20_000, 2_000, 12],
        runs: 1,
        world_scale: 0.005,
        idle: 3_000,
        study_scale: 0.002,
        study_seeds: vec![1],
        checked_scale: 0.002,
        pieces: [30_000, 3_000, 3],
        partitioned_scale: 0.005,
        tools: false,
    };
    let blocks = blocks(&sitting);
    let block = |name: &str| &blocks.iter().find(|b| b.0 == name).unwrap().2;
    let table = block("sitting");
    assert!(table.contains("| engine alone, the bench's file (20,000 games of 2,000 players"));
    assert!(table.contains("| 3,000 idle players added | "), "{table}");
    // No awk here: its ratio is not measured rather than met.
    assert!(table.contains("| ≤ 0.12 × awk | not measured |"), "{table}");
    assert!(table.contains("| awk period Elo not measured |"), "{table}");
    assert!(table.contains("s (read "), "{table}");
    assert!(!table.contains("NaN"), "{table}");
    assert!(table.contains("scale 0.002, 1 seed (37 rows)"), "{table}");
    let identical = block("identical");
    assert_eq!(
        identical.matches("the same bytes: ").count(),
        4,
        "{identical}"
    );
    assert!(identical.contains("lists.parquet"), "{identical}");
    assert!(identical.contains("results.parquet"), "{identical}");
    assert!(block("fide-size").contains("Of the naive cost, on 2 threads: the replays alone 0."));
    // Every block the pages mark as this script's is written (the Slurm run's with the tools).
    for file in ["README.md", "docs/performance.md", "docs/sweep.md"] {
        let page = std::fs::read_to_string(repo(file)).unwrap();
        for marker in page.split("<!-- figures: ").skip(1) {
            let (name, rest) = marker.split_once(' ').unwrap();
            if rest.starts_with("(written by tests/cli/performance_figures.rs") {
                assert!(
                    ["slurm", "k8s"].contains(&name)
                        || blocks.iter().any(|b| b.0 == name && b.1 == file),
                    "{file}: {name}"
                );
            }
        }
    }
    // Spliced into the pages: nothing outside the blocks changes.
    only_blocks_change(&blocks);
    // Written anew from the records: the same blocks.
    let again = super::performance_figures::blocks(&Sitting {
        plan: Plan::commands(out, true),
        ..sitting
    });
    assert!(blocks == again);
}

#[test]
fn profiles_are_read_as_shares_with_short_names() {
    let report = "# Samples: 23K\n     5.86%  [.] elosim::systems::fide::rate_player          -      -\n     3.51%  [.] core::ops::function::impls::<impl core::ops::function::Fn<A> for &F>::call\n     0.40%  [.] small\n";
    assert_eq!(
        shares(report, 1.0),
        "  5.9 %  systems::fide::rate_player\n  3.5 %  a closure (`Fn::call`)\n"
    );
    for (name, short) in [
        (
            "elosim::replay::fide::<impl elosim::replay::RatedGames>::record",
            "replay::RatedGames::record",
        ),
        (
            "<alloc::vec::Vec<T> as alloc::vec::spec_from_iter::SpecFromIter<T,I>>::from_iter",
            "alloc::vec::Vec::from_iter",
        ),
        (
            "<elosim::simulate::measure::predictive::Predictive as elosim::simulate::measure::Kind>::observe",
            "simulate::measure::predictive::Predictive::observe",
        ),
        (
            "polars_core::chunked_array::logical::categorical::<impl polars_core::chunked_array::logical::Logical<T,<T as polars_core::datatypes::PolarsCategoricalType>::PolarsPhysical>>::from_str_iter",
            "polars_core::chunked_array::logical::Logical::from_str_iter",
        ),
        ("elosim::replay::fide::publish::Publisher::publish::{{closure}}", "replay::fide::publish::Publisher::publish::{{closure}}"),
        ("core::ops::function::impls::<impl core::ops::function::FnMut<A> for &mut F>::call_mut", "a closure (`Fn::call`)"),
        ("clear_page_erms", "clear_page_erms"),
    ] {
        assert_eq!(short_name(name), short, "{name}");
    }
}
