//! The figures of docs/sweep.md, docs/generate.md, docs/compare.md and docs/systems.md,
//! regenerated from the current build: the script behind every table and picture of the worked
//! studies, of the worlds' measurements, of the comparisons and scores and of the rating systems'
//! scores and speeds, so that no number there is edited by hand.
//!
//! ```sh
//! cargo test --release --locked --test cli docs_figures::regenerate -- --ignored --nocapture
//! ```
//!
//! runs the shipped studies as a user does (`elosim sweep STUDY --verify`: three worlds × eight
//! seeds at a tenth of FIDE's size, the best three verified at FIDE's size on eight fresh seeds),
//! the study on the Kaggle games, and, for docs/generate.md, the calibration's evaluation (`elosim
//! calibrate … --evaluate`) at FIDE's size of each built-in world and of the worlds whose activity
//! comes from FIDE's lists on four seeds no calibration used, and of the worlds tried on the
//! built-in world on two; it sets the first of the lists' worlds against Sonas's tables, and makes
//! and replays the built-in world as docs/generate.md's opening commands do (`generate`,
//! `replay`, `crosstable --against`, `histogram`, `curve`, `compare --truth`, `score`). Then it
//! rewrites each block of the docs between `<!-- figures: NAME … -->` and `<!-- end NAME -->`,
//! each headed by its commands, the commit and the date, and the pictures in docs/sweep/ and
//! docs/world/; for docs/compare.md it compares and scores the world's two runs, a run against
//! tournament reports, the Kaggle 2010 and 2011 contest runs and FIDE's real lists
//! (`docs_figures::regenerate_compare`, about two minutes, writes that page's blocks alone); for
//! docs/systems.md it scores each rating system on the Kaggle 2010 games and times it with
//! `elosim bench` (`docs_figures::regenerate_systems`, half a minute).
//! `docs_figures::regenerate_worlds` writes docs/generate.md's blocks alone: 31
//! minutes (1,887 s, commit 2e1a021) on this repository's 2-core machine; the studies took about
//! 75 more (81 minutes for everything at commit bd2ada2, when docs/generate.md had fewer blocks).
//! The same code runs with the tests at a small scale on copies of the docs
//! (`the_docs_figures_regenerate_at_a_small_scale`), so that the script cannot rot.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{csv_rows, scratch, succeeds};

/// A path in the repository.
pub(crate) fn repo(path: &str) -> PathBuf {
    PathBuf::from(crate::common::repo(path))
}

/// How large the runs are.
pub(crate) struct Plan {
    /// `--scale`, `--seeds`, `--verify-scale`, `--verify-seeds` for the studies (none: the
    /// study's own).
    overrides: Vec<String>,
    /// The calibration's evaluation: scale and seeds.
    evaluate_scale: f64,
    evaluate_seeds: Vec<u64>,
    /// The seeds each world tried on the built-in world is evaluated on, at `evaluate_scale`.
    tried_seeds: Vec<u64>,
    /// The seed of the built-in world generated and replayed as docs/generate.md's opening
    /// commands do.
    history_seed: u64,
    /// `elosim bench --games` for docs/systems.md's speeds (none: the bench's own million).
    bench_games: Option<u64>,
    /// Where the studies and evaluations write.
    pub(crate) out: PathBuf,
    /// Take each command's output from the last run's records (`out/runs/`) instead of running it
    /// again: the docs written anew from the same runs.
    reuse: bool,
    /// The commands run so far by key: a command two pages' blocks share (the world's replays)
    /// runs once.
    ran: std::cell::RefCell<std::collections::HashMap<String, Record>>,
}

impl Plan {
    /// A plan for commands alone, written under `out` (the studies' and worlds' sizes unused).
    pub(crate) fn commands(out: PathBuf, reuse: bool) -> Plan {
        Plan {
            overrides: Vec::new(),
            evaluate_scale: 1.0,
            evaluate_seeds: Vec::new(),
            tried_seeds: Vec::new(),
            history_seed: 0,
            bench_games: None,
            out,
            reuse,
            ran: Default::default(),
        }
    }
}

/// A figure shown in a study's table: its column, header, decimals, and whether its paired
/// difference and verdict are shown beside its mean.
#[derive(Clone, Copy)]
struct Column {
    figure: &'static str,
    header: &'static str,
    decimals: usize,
    difference: bool,
}

const fn column(
    figure: &'static str,
    header: &'static str,
    decimals: usize,
    difference: bool,
) -> Column {
    Column {
        figure,
        header,
        decimals,
        difference,
    }
}

/// A shipped study as the docs show it.
struct StudyDoc {
    block: &'static str,
    file: &'static str,
    /// What a candidate's values are, as its name gives them: `factor / threshold`.
    values: &'static str,
    /// Points shown whatever their rank: a name and the parameters' values.
    shown: &'static [(&'static str, &'static [f64])],
    columns: &'static [Column],
    /// Figures whose verdicts make the findings: each with the figure that states the same under
    /// the other truth (every player against strength), when there is one.
    findings: &'static [(&'static str, Option<&'static str>)],
    /// A study of a generated world (seeds, scale, a verification), or one history of real games.
    world: bool,
}

/// What the two studies of Sonas's reform show of each candidate, and judge their findings by.
const REFORM_COLUMNS: [Column; 8] = [
    column("truth_gap.active.rms", "active RMS", 1, true),
    column("truth_gap.active.slope", "active slope", 3, false),
    column("truth_gap.active.level", "active level", 1, false),
    column("truth_gap.active.spread", "active spread", 3, false),
    column("truth_strength.all.rms", "all vs strength RMS", 1, true),
    column("flatness.rms", "flatness RMS", 2, true),
    column("predictive.log_loss", "log loss", 4, true),
    column("disruption.mean_abs", "list moved", 1, false),
];

const REFORM_FINDINGS: [(&str, Option<&str>); 3] = [
    ("truth_gap.active.rms", Some("truth_strength.all.rms")),
    ("flatness.rms", None),
    ("predictive.log_loss", None),
];

const COMPRESSION: StudyDoc = StudyDoc {
    block: "compression",
    values: "compression factor / threshold",
    file: "scenarios/studies/sonas-2017-compression.toml",
    shown: &[
        ("no compression (0 / 2000)", &[0.0, 2000.0]),
        ("0.6 / 1900", &[0.6, 1900.0]),
        ("0.5 / 2000", &[0.5, 2000.0]),
        ("0.6 / 2000", &[0.6, 2000.0]),
        ("0.5 / 2100", &[0.5, 2100.0]),
        ("0.6 / 2200", &[0.6, 2200.0]),
    ],
    columns: &REFORM_COLUMNS,
    findings: &REFORM_FINDINGS,
    world: true,
};

const FIRST_RATINGS: StudyDoc = StudyDoc {
    block: "first-ratings",
    values: "hypothetical draws / floor",
    file: "scenarios/studies/sonas-2017-first-ratings.toml",
    shown: &[
        ("0 / 1600", &[0.0, 1600.0]),
        ("0 / 1500", &[0.0, 1500.0]),
        ("1 / 1600", &[1.0, 1600.0]),
        ("2 / 1600", &[2.0, 1600.0]),
        ("3 / 1400", &[3.0, 1400.0]),
        ("4 / 1200", &[4.0, 1200.0]),
        ("2 / 1000", &[2.0, 1000.0]),
        ("0 / 1000", &[0.0, 1000.0]),
    ],
    columns: &REFORM_COLUMNS,
    findings: &REFORM_FINDINGS,
    world: true,
};

const KAGGLE: StudyDoc = StudyDoc {
    block: "kaggle",
    values: "K of established players / K of new players",
    file: "scenarios/studies/kaggle2010-k.toml",
    shown: &[
        ("40 / 40", &[40.0, 40.0]),
        ("30 / 30", &[30.0, 30.0]),
        ("30 / 20", &[30.0, 20.0]),
        ("10 / 20", &[10.0, 20.0]),
    ],
    columns: &[
        column("predictive.log_loss", "log loss", 4, true),
        column("predictive.deviance", "deviance", 2, false),
        column("flatness.rms", "flatness RMS", 2, false),
        column("flatness.underdogs", "underdogs", 2, false),
    ],
    findings: &[("predictive.log_loss", None)],
    world: false,
};

/// What one study run left: its summary, verification and timings, and the run's record.
struct Ran {
    summary: Value,
    verify: Option<Value>,
    timings: Value,
    record: Record,
}

/// A command run for the docs, as `out/runs/KEY.json` keeps it: what a user types, what it
/// printed, how long it took, and the commit and day it ran at.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct Record {
    pub(crate) command: String,
    pub(crate) said: String,
    pub(crate) seconds: f64,
    pub(crate) commit: String,
    pub(crate) day: String,
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!("{}: {e}", path.display());
    }))
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `elosim` with `args` (or, with `plan.reuse`, takes the last run's record of it), keeping
/// its record as `out/runs/KEY.json`; the command as a user types it (paths in the repository
/// relative, `--quiet` and `--out` left out).
pub(crate) fn run(plan: &Plan, key: &str, args: &[String]) -> Record {
    if let Some(record) = plan.ran.borrow().get(key) {
        return record.clone();
    }
    let record = run_once(plan, key, args);
    plan.ran
        .borrow_mut()
        .insert(key.to_string(), record.clone());
    record
}

/// [`run`] without its memory of the commands run so far.
fn run_once(plan: &Plan, key: &str, args: &[String]) -> Record {
    let mut shown = Vec::new();
    let mut skip = false;
    for a in args {
        if std::mem::take(&mut skip) || a == "--quiet" {
            continue;
        }
        if a == "--out" {
            skip = true;
            continue;
        }
        shown.push(a.replace(&format!("{}/", env!("CARGO_MANIFEST_DIR")), ""));
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    recorded(plan, key, format!("elosim {}", shown.join(" ")), || {
        succeeds(&refs)
    })
}

/// The record of a command shown as `command` whose output `said` gives, timed and kept as
/// `out/runs/KEY.json` (or, with `plan.reuse`, the last run's record of it).
pub(crate) fn recorded(
    plan: &Plan,
    key: &str,
    command: String,
    said: impl FnOnce() -> String,
) -> Record {
    let path = plan.out.join("runs").join(format!("{key}.json"));
    if plan.reuse {
        return serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let started = std::time::Instant::now();
    let said = said();
    let record = Record {
        command,
        said,
        seconds: started.elapsed().as_secs_f64(),
        commit: commit(),
        day: chrono::Utc::now().format("%Y-%m-%d").to_string(),
    };
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_string_pretty(&record).unwrap()).unwrap();
    record
}

/// The repository's commit, short.
fn commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or("unknown".into(), |o| {
            String::from_utf8_lossy(&o.stdout).trim().to_string()
        })
}

fn run_study(plan: &Plan, doc: &StudyDoc) -> Ran {
    let out = plan.out.join(doc.block);
    let mut args: Vec<String> = vec![
        "sweep".into(),
        repo(doc.file).display().to_string(),
        "--quiet".into(),
        "--out".into(),
        out.display().to_string(),
    ];
    if doc.world {
        args.extend(plan.overrides.iter().cloned());
        args.push("--verify".into());
    }
    let record = run(plan, doc.block, &args);
    Ran {
        summary: read_json(&out.join("summary.json")),
        verify: doc.world.then(|| read_json(&out.join("verify.json"))),
        timings: read_json(&out.join("timings.json")),
        record,
    }
}

/// One world's summary and its name, whether the study had one world or several.
fn world_summaries(summary: &Value) -> Vec<(String, &Value)> {
    match summary["worlds"].as_array() {
        Some(worlds) => worlds
            .iter()
            .map(|w| (w["name"].as_str().unwrap_or("").to_string(), &w["summary"]))
            .collect(),
        None => vec![(String::new(), summary)],
    }
}

fn candidates(summary: &Value) -> &[Value] {
    summary["candidates"].as_array().map_or(&[], Vec::as_slice)
}

/// A candidate's entry by id.
fn candidate(summary: &Value, id: u64) -> Option<&Value> {
    candidates(summary).iter().find(|c| c["candidate"] == id)
}

fn figure<'a>(c: &'a Value, name: &str) -> Option<&'a Value> {
    c["figures"].as_array()?.iter().find(|f| f["name"] == name)
}

/// The candidates a table shows: the baseline, the references, the best three points over the
/// worlds, and the study's named points; each with its name.
/// The study's candidates in its order (over the worlds where it has several).
fn order(summary: &Value) -> Vec<u64> {
    match summary["order"].as_array() {
        Some(order) => order
            .iter()
            .filter_map(|o| o["candidate"].as_u64())
            .collect(),
        None => candidates(world_summaries(summary)[0].1)
            .iter()
            .filter_map(|c| c["candidate"].as_u64())
            .collect(),
    }
}

/// A candidate's label in the summary: `point`, `baseline` or `reference NAME`.
fn label(summary: &Value, id: u64) -> String {
    candidate(world_summaries(summary)[0].1, id)
        .and_then(|c| c["label"].as_str())
        .unwrap_or("")
        .to_string()
}

/// A candidate's values of the study's parameters, in the study's order.
fn values(summary: &Value, id: u64) -> Vec<f64> {
    candidate(world_summaries(summary)[0].1, id)
        .and_then(|c| c["values"].as_array())
        .map(|v| v.iter().filter_map(|p| p[1].as_f64()).collect())
        .unwrap_or_default()
}

/// A candidate's values as the tables write them: `0.4 / 2000`.
fn values_text(summary: &Value, id: u64) -> String {
    values(summary, id)
        .iter()
        .map(|v| format!("{v}"))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// A candidate as the docs name it: a reference by its scenario, a point by its name in the
/// study's `shown` or else by its values.
fn name(doc: &StudyDoc, summary: &Value, id: u64) -> String {
    let label = label(summary, id);
    if let Some(reference) = label.strip_prefix("reference ") {
        return format!("{reference} (reference)");
    }
    let own = values(summary, id);
    doc.shown
        .iter()
        .find(|(_, v)| own == *v)
        .map_or_else(|| values_text(summary, id), |(n, _)| n.to_string())
}

/// The rows of a study's tables: the baseline, the references, the best three points and the
/// study's `shown` points.
fn shown(doc: &StudyDoc, summary: &Value) -> Vec<(u64, String)> {
    let order = order(summary);
    let over = if summary["worlds"].is_array() {
        " over the worlds"
    } else {
        ""
    };
    let mut out: Vec<(u64, String)> =
        vec![(0, format!("**baseline** ({})", values_text(summary, 0)))];
    for &id in &order {
        if label(summary, id).starts_with("reference") {
            out.push((id, name(doc, summary, id)));
        }
    }
    let points: Vec<u64> = order
        .iter()
        .copied()
        .filter(|&id| label(summary, id) == "point")
        .collect();
    for (place, &id) in points.iter().take(3).enumerate() {
        out.push((
            id,
            format!("{} (best {}{over})", name(doc, summary, id), place + 1),
        ));
    }
    for (named, v) in doc.shown {
        if let Some(&id) = points.iter().find(|&&id| values(summary, id) == *v) {
            if !out.iter().any(|(o, _)| *o == id) {
                out.push((id, named.to_string()));
            }
        }
    }
    out
}

fn number(v: &Value, decimals: usize) -> String {
    v.as_f64().map_or("–".into(), |x| format!("{x:.decimals$}"))
}

/// A verdict as a table cell: short words.
fn verdict_text(v: &Value) -> &str {
    match v.as_str() {
        Some("better") => "better",
        Some("worse") => "worse",
        Some("no clear difference") => "unclear",
        Some("the same") => "same",
        Some("better, below the threshold") => "better (small)",
        Some("worse, below the threshold") => "worse (small)",
        Some(other) => other,
        None => "",
    }
}

/// One world's table of the shown candidates.
fn world_table(doc: &StudyDoc, summary: &Value, rows: &[(u64, String)]) -> String {
    let mut header = vec!["candidate".to_string()];
    let mut rule = vec!["---".to_string()];
    for c in doc.columns {
        header.push(c.header.to_string());
        rule.push("---:".into());
        if c.difference {
            header.push("Δ".into());
            rule.push("---:".into());
        }
    }
    let mut out = format!("| {} |\n|{}|\n", header.join(" | "), rule.join("|"));
    for (id, name) in rows {
        let Some(c) = candidate(summary, *id) else {
            continue;
        };
        let mut cells = vec![name.clone()];
        for col in doc.columns {
            let f = figure(c, col.figure);
            let mean = f.map_or("–".into(), |f| {
                let m = number(&f["mean"], col.decimals);
                match f["half_width"].as_f64() {
                    Some(h) if *id == 0 => format!("{m} ± {h:.prec$}", prec = col.decimals),
                    _ => m,
                }
            });
            cells.push(mean);
            if col.difference {
                cells.push(f.map_or(String::new(), |f| match f["difference"].as_f64() {
                    Some(d) if *id != 0 => {
                        let half = f["difference_half_width"]
                            .as_f64()
                            .map_or(String::new(), |h| {
                                format!(" ± {h:.prec$}", prec = col.decimals)
                            });
                        format!(
                            "{d:+.prec$}{half} {}",
                            verdict_text(&f["verdict"]),
                            prec = col.decimals
                        )
                    }
                    _ => String::new(),
                }));
            }
        }
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

/// A candidate's verdict on a figure, world by world, in short words.
fn verdicts(summary: &Value, id: u64, figure_name: &str) -> Vec<String> {
    world_summaries(summary)
        .iter()
        .map(|(_, s)| {
            candidate(s, id)
                .and_then(|c| figure(c, figure_name))
                .map_or(String::new(), |f| verdict_text(&f["verdict"]).to_string())
        })
        .collect()
}

/// A better or worse verdict, beyond the threshold: what a finding is.
fn decisive(verdict: &str) -> bool {
    verdict == "better" || verdict == "worse"
}

/// The candidate's finding on the figure, where it has one that holds on every world: its
/// verdict. Whether the worlds agree is the summary's own word (its `agreement`).
fn holding(summary: &Value, id: u64, figure_name: &str) -> Option<String> {
    let first = verdicts(summary, id, figure_name).swap_remove(0);
    let agree = !summary["worlds"].is_array()
        || summary["agreement"].as_array().is_some_and(|a| {
            a.iter()
                .any(|x| x["candidate"] == id && x["figure"] == figure_name && x["agree"] == true)
        });
    (decisive(&first) && agree).then_some(first)
}

/// The findings of the shown candidates on each finding figure: the verdict on each world (and,
/// for the truth gap, under the other truth), and whether it holds on every one; then every
/// candidate's findings that hold everywhere.
fn findings(doc: &StudyDoc, summary: &Value, rows: &[(u64, String)]) -> String {
    let worlds = world_summaries(summary);
    let several = worlds.len() > 1;
    let mut header = vec!["candidate".to_string(), "figure".into()];
    header.extend(worlds.iter().map(|(w, _)| {
        if w.is_empty() {
            "verdict".to_string()
        } else {
            w.clone()
        }
    }));
    if several {
        header.push("holds everywhere".into());
    }
    let mut out = format!(
        "| {} |\n|{}|\n",
        header.join(" | "),
        vec!["---"; header.len()].join("|")
    );
    for (id, name) in rows.iter().filter(|(id, _)| *id != 0) {
        for (fig, other) in doc.findings {
            for f in std::iter::once(*fig).chain(*other) {
                let verdicts = verdicts(summary, *id, f);
                if verdicts.iter().any(|v| decisive(v)) {
                    let holds_cell = match (several, holding(summary, *id, f).is_some()) {
                        (false, _) => String::new(),
                        (true, true) => " yes |".into(),
                        (true, false) => " **no** |".into(),
                    };
                    out.push_str(&format!(
                        "| {name} | {f} | {} |{holds_cell}\n",
                        verdicts.join(" | ")
                    ));
                }
            }
        }
    }
    out.push_str(&robust_findings(doc, summary));
    out
}

/// Every candidate's findings that hold on every world, and for a truth figure under the other
/// truth too, grouped by what they say: `better on flatness.rms: 0.4 / 2100, …`.
fn robust_findings(doc: &StudyDoc, summary: &Value) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (fig, other) in doc.findings {
        for wanted in ["better", "worse"] {
            let said = format!(
                "{wanted} on {fig}{}",
                other.map_or(String::new(), |o| format!(" and {o}"))
            );
            let names: Vec<String> = order(summary)
                .into_iter()
                .filter(|&id| id != 0)
                .filter(|&id| {
                    std::iter::once(*fig)
                        .chain(*other)
                        .all(|f| holding(summary, id, f).as_deref() == Some(wanted))
                })
                .map(|id| name(doc, summary, id))
                .collect();
            if !names.is_empty() {
                groups.push((said, names));
            }
        }
    }
    let several = summary["worlds"].is_array();
    format!(
        "\nFindings that hold{}{}, after Holm's correction, over every candidate of the study: {}.\n",
        if several { " on every world" } else { "" },
        if doc.findings.iter().any(|(_, o)| o.is_some()) {
            " and under both truths (the truth gap against the equilibrium and every player against strength)"
        } else {
            ""
        },
        if groups.is_empty() {
            "none".to_string()
        } else {
            groups
                .iter()
                .map(|(said, names)| format!("{said}: {}", names.join(", ")))
                .collect::<Vec<_>>()
                .join("; ")
        }
    )
}

/// The verification, world by world: the orders and each candidate verified, named as the tables
/// name them.
fn verification(doc: &StudyDoc, summary: &Value, verify: &Value) -> String {
    let named = |c: &Value| {
        c.as_u64()
            .map_or(c.to_string(), |id| name(doc, summary, id))
    };
    let worlds: Vec<(String, &Value)> = match verify["worlds"].as_array() {
        Some(w) => w
            .iter()
            .map(|w| {
                (
                    w["name"].as_str().unwrap_or("").to_string(),
                    &w["verification"],
                )
            })
            .collect(),
        None => vec![(String::new(), verify)],
    };
    let mut out = String::new();
    for (name, v) in worlds {
        let ids = |key: &str, named: &dyn Fn(&Value) -> String| -> String {
            v[key]
                .as_array()
                .map(|a| a.iter().map(named).collect::<Vec<_>>().join(", "))
                .unwrap_or_default()
        };
        let candidates: Vec<String> = v["candidates"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|c| c["candidate"] != 0)
                    .map(|c| {
                        format!(
                            "{}: {} ({} {})",
                            named(&c["candidate"]),
                            number(&c["verified_mean"], 2),
                            c["verified_difference"]
                                .as_f64()
                                .map_or(String::new(), |d| format!("{d:+.2}")),
                            verdict_text(&c["verified_verdict"])
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.push_str(&format!(
            "- {}at scale {} on seeds {}: the search's order {}, verified {}; {} ({})\n",
            if name.is_empty() {
                String::new()
            } else {
                format!("**{name}** ")
            },
            v["scale"],
            ids("seeds", &|c| c.to_string()),
            ids("search_order", &named),
            ids("verified_order", &named),
            if v["held"] == true {
                "the ranking held"
            } else {
                "the ranking **did not hold**"
            },
            candidates.join("; ")
        ));
    }
    out
}

/// How much Holm's correction took away on the first finding figure, world by world: the
/// candidates that differ from the baseline at p < 0.05 before and after it.
fn correction(doc: &StudyDoc, summary: &Value) -> String {
    let (figure_name, _) = doc.findings[0];
    let counts: Vec<String> =
        world_summaries(summary)
            .iter()
            .map(|(world, s)| {
                let tested: Vec<&Value> = candidates(s)
                    .iter()
                    .filter_map(|c| figure(c, figure_name))
                    .filter(|f| f["p_value"].is_number())
                    .collect();
                let below = |key: &str| {
                    tested
                        .iter()
                        .filter(|f| f[key].as_f64() < Some(0.05))
                        .count()
                };
                format!(
                "{}{} of the {} candidates compared at p < 0.05 before the correction, {} after it",
                if world.is_empty() { String::new() } else { format!("{world}: ") },
                below("p_value"),
                tested.len(),
                below("adjusted_p_value")
            )
            })
            .collect();
    format!(
        "\nOn {figure_name}, differing from the baseline: {}.\n",
        counts.join("; ")
    )
}

/// A study's block: each world's table, the findings, the verification, the pictures.
fn study_block(doc: &StudyDoc, ran: &Ran) -> String {
    let rows = shown(doc, &ran.summary);
    let mut out = String::new();
    let worlds = world_summaries(&ran.summary);
    for (name, summary) in &worlds {
        if !name.is_empty() {
            out.push_str(&format!("**World {name}**\n\n"));
        }
        out.push_str(&world_table(doc, summary, &rows));
        out.push('\n');
    }
    out.push_str(&format!(
        "A point is named by its {}. Each cell: the mean over the seeds (the baseline's with its 95 % interval); Δ the paired difference from the baseline with its 95 % interval and the verdict, corrected for multiplicity ({}).\n\n",
        doc.values,
        candidates(worlds[0].1)
            .iter()
            .filter_map(|c| c["figures"].as_array())
            .flatten()
            .find_map(|f| f["method"].as_str())
            .unwrap_or("no test")
    ));
    out.push_str(&findings(doc, &ran.summary, &rows));
    out.push_str(&correction(doc, &ran.summary));
    if let Some(v) = &ran.verify {
        out.push_str(&format!(
            "\n**Verified:**\n\n{}",
            verification(doc, &ran.summary, v)
        ));
    }
    out
}

/// The ignored test that writes docs/sweep.md's blocks (and every other), and the one that writes
/// docs/generate.md's alone.
const ALL_BLOCKS: &str = "docs_figures::regenerate";
const WORLD_BLOCKS: &str = "docs_figures::regenerate_worlds";
/// The test that writes docs/compare.md's blocks alone.
const COMPARE_BLOCKS: &str = "docs_figures::regenerate_compare";
/// The test that writes docs/systems.md's blocks alone.
const SYSTEMS_BLOCKS: &str = "docs_figures::regenerate_systems";

/// The line that heads a block: the runs it comes from, and the test that writes it alone
/// (`regenerate` writes every block).
pub(crate) fn provenance(records: &[&Record], test: &str) -> String {
    let runs: Vec<String> = records
        .iter()
        .map(|r| format!("`{}` ({} s)", r.command, seconds(r.seconds)))
        .collect();
    let first = records.first();
    format!(
        "*Regenerated on {} at commit {} by `cargo test --release --locked --test cli {test} -- --ignored`, which ran {}.*\n\n",
        first.map_or("", |r| r.day.as_str()),
        first.map_or("", |r| r.commit.as_str()),
        runs.join(", ")
    )
}

/// A duration as the docs give it: whole seconds, tenths below ten.
pub(crate) fn seconds(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.1}")
    } else {
        format!("{s:.0}")
    }
}

/// Where a study's time went, from its `timings.json`.
fn speed(doc: &StudyDoc, ran: &Ran) -> String {
    let t = &ran.timings;
    let worlds = t["worlds"].as_array().map_or(0, Vec::len);
    let generation: f64 = t["worlds"].as_array().map_or(0.0, |w| {
        w.iter().filter_map(|w| w["seconds"].as_f64()).sum()
    });
    let generated = if worlds > 0 {
        format!("{worlds} worlds generated in {generation:.1} s, ")
    } else {
        String::new()
    };
    format!(
        "- `{}`: {} s in all; the search {} s: {}{} replays of {:.2} s on average (their measures {:.3} s){}\n",
        ran.record.command,
        seconds(ran.record.seconds),
        seconds(t["seconds"].as_f64().unwrap_or(0.0)),
        generated,
        t["replays"],
        t["replay_seconds"]["mean"].as_f64().unwrap_or(0.0),
        t["measure_seconds"]["mean"].as_f64().unwrap_or(0.0),
        if doc.world {
            "; the verification the rest"
        } else {
            ""
        },
    )
}

/// The built-in worlds, each evaluated against the calibration's targets.
const WORLDS: &[&str] = &[
    "fide-2001-2025",
    "fide-2001-2025-activity",
    "fide-2001-2025-form",
];

/// The worlds whose activity comes from FIDE's lists (docs/generate.md, "Activity from FIDE's
/// lists"): each name and world file, evaluated as the built-in worlds are: the mode, its refit,
/// the mode with regions drifting apart (`players.region_drift`) as the evidence suggests and four
/// times that, with juniors' development in jumps (`players.development_jump_months`), with
/// stopped juniors coming back (`activity.junior_return`), and with the three together.
const LISTS_WORLDS: &[(&str, &str)] = &[
    ("fide-2001-2025-lists", "worlds/fide-2001-2025-lists.toml"),
    ("lists-refit", "worlds/refits/lists-refit.toml"),
    ("lists-drift-10", "worlds/refits/lists-drift-10.toml"),
    ("lists-drift-40", "worlds/refits/lists-drift-40.toml"),
    ("lists-jumps-6", "worlds/refits/lists-jumps-6.toml"),
    ("lists-returns-25", "worlds/refits/lists-returns-25.toml"),
    ("lists-noise", "worlds/refits/lists-noise.toml"),
];

/// The built-in world with one change each, nothing refitted (docs/generate.md, "What was tried on
/// the built-in world"), and the refit that weighted Sonas's tables: each name and world file.
const TRIED_WORLDS: &[(&str, &str)] = &[
    ("leagues-30", "worlds/tried/leagues-30.toml"),
    ("leagues-50", "worlds/tried/leagues-50.toml"),
    ("events-halved", "worlds/tried/events-halved.toml"),
    ("quit-adult-5", "worlds/tried/quit-adult-5.toml"),
    ("strong-max-4", "worlds/tried/strong-max-4.toml"),
    ("occasional-fading", "worlds/tried/occasional-fading.toml"),
    ("arrivals-level", "worlds/tried/arrivals-level.toml"),
    ("start-sd-165", "worlds/tried/start-sd-165.toml"),
    ("tables-weighted", "worlds/refits/tables-weighted.toml"),
];

/// Sonas's tables the residual block sets the first of [`LISTS_WORLDS`] against.
const RESIDUAL_TABLES: &[&str] = &["2008-2012", "2021-2023"];

/// The text after `key` in `line` up to the next `·` or end.
fn after<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_once(key).map_or("–", |(_, rest)| {
        rest.split(" · ").next().unwrap_or("–").trim()
    })
}

/// The first word after `key` in `line` (up to a space, `,` or `;`).
pub(crate) fn word<'a>(line: &'a str, key: &str) -> &'a str {
    after(line, key)
        .split([' ', ',', ';'])
        .next()
        .unwrap_or("–")
}

/// One evaluation's printed figures as a table row.
fn evaluation_row(world: &str, seed: u64, said: &str) -> String {
    let line = |start: &str| line_of(said, start);
    let first = said.lines().next().unwrap_or("");
    let table = |name: &str| {
        let l = line(name);
        format!(
            "{}, {}, ×{}",
            word(l, "RMSE "),
            word(l, "signs "),
            word(l, " · games ×")
        )
    };
    let played = line("players who played");
    let activity = line("activity on 2025-02:");
    let within: Vec<&str> = activity
        .split(" of 12")
        .filter_map(|part| part.rsplit(' ').next())
        .take(2)
        .collect();
    format!(
        "| {world} | {seed} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
        word(first, "objective "),
        table("2008-2012:"),
        table("2021-2023:"),
        word(played, ": "),
        word(played, "K 10 "),
        within.join(" / "),
        after(line("list 2008-01:"), "list 2008-01: ").replace(" counts within 15 %", ""),
        after(line("fide-pool.csv:"), "fide-pool.csv: ").replace(" counts within 15 %", ""),
        first.split_once('(').map_or("–", |(_, rest)| rest
            .split(" games")
            .next()
            .unwrap_or("–")),
    )
}

/// One evaluation of a built-in world against the calibration's targets.
struct Evaluation {
    world: &'static str,
    seed: u64,
    record: Record,
}

/// The built-in worlds as [`evaluations`] takes them: each named by what `--world` is given.
fn built_in_worlds() -> Vec<(&'static str, String)> {
    WORLDS.iter().map(|&w| (w, w.to_string())).collect()
}

/// Worlds given by their files as [`evaluations`] takes them: each name and its file's path.
fn world_files(worlds: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    worlds
        .iter()
        .map(|&(name, file)| (name, repo(file).display().to_string()))
        .collect()
}

/// Each world (its name in the tables, and what `--world` is given) evaluated on `seeds`, one
/// run each.
fn evaluations(plan: &Plan, worlds: &[(&'static str, String)], seeds: &[u64]) -> Vec<Evaluation> {
    let mut out = Vec::new();
    for (world, given) in worlds {
        let world = *world;
        for &seed in seeds {
            let args: Vec<String> = [
                "calibrate",
                &repo("worlds/fide-2001-2025.calibrate.toml")
                    .display()
                    .to_string(),
                "--evaluate",
                "--world",
                given,
                "--scale",
                &plan.evaluate_scale.to_string(),
                "--seeds",
                &seed.to_string(),
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            let record = run(plan, &format!("evaluate-{world}-{seed}"), &args);
            out.push(Evaluation {
                world,
                seed,
                record,
            });
        }
    }
    out
}

/// docs/generate.md's block: each built-in world evaluated on the seeds.
fn worlds_block(evaluations: &[&Evaluation]) -> String {
    let mut table = String::from(
        "| world | seed | objective | 2008–2012: RMSE, signs, games against Sonas's | 2021–2023: RMSE, signs, games | players who played per list against FIDE's | K 10 | February 2025, bands within 15 % (share who played / games per player) | January 2008 list, bands within 15 % | pool figures within 15 % | games 2001–2025 |\n|---|---:|---:|---|---|---:|---:|---|---|---|---:|\n",
    );
    for e in evaluations {
        table.push_str(&evaluation_row(e.world, e.seed, &e.record.said));
    }
    let records: Vec<&Record> = evaluations.iter().map(|e| &e.record).collect();
    format!("{}{table}", provenance(&records, WORLD_BLOCKS))
}

/// The first world's evaluations, seed by seed: the default world's, or the first of the lists'
/// worlds.
fn first_world(evaluations: &[Evaluation]) -> Vec<&Evaluation> {
    let first = evaluations.first().map(|e| e.world);
    evaluations
        .iter()
        .filter(|e| Some(e.world) == first)
        .collect()
}

/// The evaluation's line that starts with `start`.
pub(crate) fn line_of<'a>(said: &'a str, start: &str) -> &'a str {
    said.lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or("")
}

/// docs/generate.md's block: the first world's players who played per list against FIDE's, year
/// by year, seed by seed (`… · by year: 2015 ×1.16, …` of each evaluation).
fn played_block(evaluations: &[Evaluation]) -> String {
    let runs = first_world(evaluations);
    let by_year = |said: &str| -> Vec<(String, String)> {
        after(line_of(said, "players who played"), "by year: ")
            .split(", ")
            .filter_map(|y| y.split_once(' '))
            .map(|(year, ratio)| (year.to_string(), ratio.to_string()))
            .collect()
    };
    let seeds: Vec<String> = runs.iter().map(|e| e.seed.to_string()).collect();
    let mut out = format!(
        "| year | world / FIDE, seed {} |\n|---|{}\n",
        seeds.join(" / "),
        "---:|"
    );
    let years = runs.first().map_or(Vec::new(), |e| by_year(&e.record.said));
    for (year, _) in &years {
        let ratios: Vec<String> = runs
            .iter()
            .map(|e| {
                by_year(&e.record.said)
                    .into_iter()
                    .find(|(y, _)| y == year)
                    .map_or("–".into(), |(_, r)| r)
            })
            .collect();
        out.push_str(&format!("| {year} | {} |\n", ratios.join(" / ")));
    }
    let records: Vec<&Record> = runs.iter().map(|e| &e.record).collect();
    format!("{}{out}", provenance(&records, WORLD_BLOCKS))
}

/// One band of February 2025 as an evaluation prints it: `1400: 0.253 / 0.112 played, 6.51 / 4.54
/// games` (the world's, FIDE's).
struct Band {
    from: u32,
    played: (f64, f64),
    games: (f64, f64),
}

fn bands(said: &str) -> Vec<Band> {
    let pair = |text: &str| -> Option<(f64, f64)> {
        let (a, b) = text.split_once(" / ")?;
        Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
    };
    line_of(said, "activity on 2025-02:")
        .split(" · ")
        .skip(1)
        .filter_map(|band| {
            let (from, rest) = band.split_once(": ")?;
            let (played, games) = rest.split_once(" played, ")?;
            Some(Band {
                from: from.trim().parse().ok()?,
                played: pair(played)?,
                games: pair(games.trim_end_matches(" games"))?,
            })
        })
        .collect()
}

/// docs/generate.md's block: the first world's February 2025 list against FIDE's, band by band:
/// FIDE's share who played and games per player who played, the world's mean over the seeds, its
/// ratio to FIDE's and its range.
fn activity_block(evaluations: &[Evaluation]) -> String {
    let runs = first_world(evaluations);
    let per_seed: Vec<Vec<Band>> = runs.iter().map(|e| bands(&e.record.said)).collect();
    let mut out = format!(
        "| band | FIDE: share who played | world (mean of {} seeds; range) | FIDE: games per player who played | world (mean; range) |\n|---|---:|---:|---:|---:|\n",
        runs.len()
    );
    let Some(first) = per_seed.first() else {
        return out;
    };
    let world = |i: usize, of: fn(&Band) -> (f64, f64), decimals: usize| -> String {
        let values: Vec<f64> = per_seed
            .iter()
            .filter_map(|b| b.get(i))
            .map(|b| of(b).0)
            .collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let (low, high) = values
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), v| (l.min(*v), h.max(*v)));
        format!(
            "{mean:.decimals$} (×{:.2}; {low:.decimals$}–{high:.decimals$})",
            mean / of(&first[i]).1
        )
    };
    for (i, band) in first.iter().enumerate() {
        let name = if i + 1 == first.len() {
            format!("{}+", band.from)
        } else {
            format!("{}–{}", band.from, band.from + 99)
        };
        out.push_str(&format!(
            "| {name} | {:.3} | {} | {:.2} | {} |\n",
            band.played.1,
            world(i, |b| b.played, 3),
            band.games.1,
            world(i, |b| b.games, 2),
        ));
    }
    let records: Vec<&Record> = runs.iter().map(|e| &e.record).collect();
    format!("{}{out}", provenance(&records, WORLD_BLOCKS))
}

/// Every block, by name and file, with its content.
fn regenerate_blocks(plan: &Plan) -> Vec<(&'static str, &'static str, String)> {
    let mut blocks = sweep_blocks(plan);
    blocks.extend(world_blocks(plan));
    blocks.extend(compare_blocks(plan));
    blocks.extend(systems_blocks(plan));
    blocks
}

/// docs/sweep.md's blocks: the studies and their timings.
fn sweep_blocks(plan: &Plan) -> Vec<(&'static str, &'static str, String)> {
    let mut blocks = Vec::new();
    let mut timings = String::new();
    for doc in [&COMPRESSION, &FIRST_RATINGS, &KAGGLE] {
        let ran = run_study(plan, doc);
        let block = format!(
            "{}{}",
            provenance(&[&ran.record], ALL_BLOCKS),
            study_block(doc, &ran)
        );
        timings.push_str(&speed(doc, &ran));
        blocks.push((doc.block, "docs/sweep.md", block));
        copy_pictures(plan, doc);
    }
    blocks.push(("speed", "docs/sweep.md", timings));
    blocks
}

/// Every evaluation of `e`, as [`worlds_block`] takes them.
fn all(e: &[Evaluation]) -> Vec<&Evaluation> {
    e.iter().collect()
}

/// docs/generate.md's blocks: the worlds evaluated, the default world's activity, the worlds
/// tried on it, the lists' worlds and their residual against Sonas's tables, and the default
/// world made and replayed as the opening commands do.
fn world_blocks(plan: &Plan) -> Vec<(&'static str, &'static str, String)> {
    let evaluated = evaluations(plan, &built_in_worlds(), &plan.evaluate_seeds);
    let lists = evaluations(plan, &world_files(LISTS_WORLDS), &plan.evaluate_seeds);
    let tried = evaluations(plan, &world_files(TRIED_WORLDS), &plan.tried_seeds);
    // The built-in world on the tried worlds' seeds, then each tried world.
    let against: Vec<&Evaluation> = first_world(&evaluated)
        .into_iter()
        .filter(|e| plan.tried_seeds.contains(&e.seed))
        .chain(&tried)
        .collect();
    let mut blocks = vec![
        ("worlds", "docs/generate.md", worlds_block(&all(&evaluated))),
        ("played", "docs/generate.md", played_block(&evaluated)),
        ("activity", "docs/generate.md", activity_block(&evaluated)),
        ("tried", "docs/generate.md", worlds_block(&against)),
        (
            "lists-worlds",
            "docs/generate.md",
            worlds_block(&all(&lists)),
        ),
        ("lists-played", "docs/generate.md", played_block(&lists)),
        ("lists-activity", "docs/generate.md", activity_block(&lists)),
        ("lists-residual", "docs/generate.md", residual_block(plan)),
        (
            "lists-goals",
            "docs/generate.md",
            goals_block(&first_world(&evaluated), &lists),
        ),
    ];
    blocks.extend(history_blocks(plan));
    blocks
}

/// One goal of the issue that asked for a world at FIDE's volume: what it reads of an evaluation
/// (a number for each seed, `None` where the evaluation did not print it; `line`, the line of
/// the Sonas table it reads, or empty) and whether a seed's number meets it.
struct Goal {
    name: String,
    read: fn(&str, &str) -> Option<f64>,
    line: &'static str,
    met: fn(f64) -> bool,
    decimals: usize,
}

impl Goal {
    /// The goal's number in the evaluation `said`.
    fn read(&self, said: &str) -> Option<f64> {
        (self.read)(said, self.line)
    }
}

/// A number after `key` in the evaluation's line that starts with `start`, a leading `×` dropped.
fn number_after(said: &str, start: &str, key: &str) -> Option<f64> {
    word(line_of(said, start), key)
        .trim_start_matches('×')
        .parse()
        .ok()
}

/// The share of a table's cells whose signs agree (`signs 136/142`).
fn signs(said: &str, table: &str) -> Option<f64> {
    let (agree, of) = word(line_of(said, table), "signs ").split_once('/')?;
    Some(agree.parse::<f64>().ok()? / of.parse::<f64>().ok()?)
}

/// The players who played per list against FIDE's, on average and in the year furthest off, as
/// the factor furthest from 1.
fn played_furthest(said: &str) -> Option<f64> {
    let line = line_of(said, "players who played");
    let mean: f64 = word(line, ": ×").parse().ok()?;
    after(line, "by year: ")
        .split(", ")
        .filter_map(|y| y.split_once(" ×")?.1.parse::<f64>().ok())
        .chain([mean])
        .max_by(|a, b| (a.ln().abs()).total_cmp(&b.ln().abs()))
}

/// February 2025's bands from 1400 to 2499 (11) within 15 % of FIDE's: shares who played, or games
/// per player who played.
fn bands_within(said: &str, of: fn(&Band) -> (f64, f64)) -> Option<f64> {
    let judged: Vec<Band> = bands(said)
        .into_iter()
        .filter(|b| (1400..=2400).contains(&b.from))
        .collect();
    (!judged.is_empty()).then(|| {
        judged
            .iter()
            .filter(|b| (of(b).0 / of(b).1 - 1.0).abs() <= 0.15)
            .count() as f64
    })
}

/// Each of Sonas's tables as the evaluation's line starts and as the goals name it.
const SONAS_TABLES: [(&str, &str); 2] = [("2008-2012:", "2008–2012"), ("2021-2023:", "2021–2023")];

/// The issue's goals, each as the evaluation prints it (docs/generate.md, "Activity from FIDE's
/// lists"): each of Sonas's tables (RMSE, signs, every row's share of games), FIDE's activity and
/// the January 2008 list.
fn goals() -> Vec<Goal> {
    type Read = fn(&str, &str) -> Option<f64>;
    type Met = fn(f64) -> bool;
    let per_table: [(&str, Read, Met); 3] = [
        (
            "RMSE ≤ 2.0",
            |s, l| number_after(s, l, "RMSE "),
            |v| v <= 2.0,
        ),
        ("signs ≥ 90 %", signs, |v| v >= 0.9),
        (
            "every row's share of games within ×1.5",
            |s, l| number_after(s, l, "worst row ×"),
            |v| v <= 1.5,
        ),
    ];
    let mut goals: Vec<Goal> = per_table
        .iter()
        .flat_map(|&(what, read, met)| {
            SONAS_TABLES.iter().map(move |&(line, years)| Goal {
                name: format!("{years} {what}"),
                read,
                line,
                met,
                decimals: 2,
            })
        })
        .collect();
    let other = |name: &str, read: Read, met: Met, decimals| Goal {
        name: name.to_string(),
        read,
        line: "",
        met,
        decimals,
    };
    goals.extend([
        other(
            "players who played per list within 15 %, on average and every year (the factor furthest off)",
            |s, _| played_furthest(s),
            |v| (0.85..=1.15).contains(&v),
            2,
        ),
        other(
            "K 10 players who played within 20 %",
            |s, _| number_after(s, "players who played", "K 10 ×"),
            |v| (0.8..=1.2).contains(&v),
            2,
        ),
        other(
            "February 2025, 1400–2499: bands' shares who played within 15 % (≥ 9 of 11)",
            |s, _| bands_within(s, |b| b.played),
            |v| v >= 9.0,
            0,
        ),
        other(
            "February 2025, 1400–2499: bands' games per player who played within 15 % (≥ 9 of 11)",
            |s, _| bands_within(s, |b| b.games),
            |v| v >= 9.0,
            0,
        ),
        other(
            "January 2008 list, bands from 1500 within 15 % (≥ 10 of 12)",
            |s, _| number_after(s, "list 2008-01:", "list 2008-01: "),
            |v| v >= 10.0,
            0,
        ),
    ]);
    goals
}

/// docs/generate.md's block: each goal against each world, the range over the seeds and on how
/// many seeds it is met: the default world, then the lists' worlds.
fn goals_block(default: &[&Evaluation], lists: &[Evaluation]) -> String {
    let mut worlds: Vec<(&str, Vec<&Evaluation>)> = Vec::new();
    for e in default.iter().copied().chain(lists) {
        match worlds.iter_mut().find(|(w, _)| *w == e.world) {
            Some((_, runs)) => runs.push(e),
            None => worlds.push((e.world, vec![e])),
        }
    }
    let names: Vec<&str> = worlds.iter().map(|(w, _)| *w).collect();
    let mut out = format!(
        "| goal | {} |\n|---|{}\n",
        names.join(" | "),
        "---|".repeat(names.len())
    );
    for goal in goals() {
        let cells: Vec<String> = worlds
            .iter()
            .map(|(_, runs)| {
                let values: Vec<f64> = runs
                    .iter()
                    .filter_map(|e| goal.read(&e.record.said))
                    .collect();
                if values.is_empty() {
                    return "–".into();
                }
                let (low, high) = values
                    .iter()
                    .fold((f64::MAX, f64::MIN), |(l, h), v| (l.min(*v), h.max(*v)));
                let met = values.iter().filter(|v| (goal.met)(**v)).count();
                let d = goal.decimals;
                let range = if low == high {
                    format!("{low:.d$}")
                } else {
                    format!("{low:.d$}–{high:.d$}")
                };
                format!("{range} (met on {met} of {})", runs.len())
            })
            .collect();
        out.push_str(&format!("| {} | {} |\n", goal.name, cells.join(" | ")));
    }
    let records: Vec<&Record> = worlds
        .iter()
        .flat_map(|(_, runs)| runs.iter().map(|e| &e.record))
        .collect();
    format!("{}{out}", provenance(&records, WORLD_BLOCKS))
}

/// A world generated at the evaluations' scale without its equilibrium (which changes none of its
/// games) and replayed from April 2001 under each scenario, as docs/generate.md's opening commands
/// do: the world's directory, each replay's, and the commands' records.
struct Replayed {
    world: PathBuf,
    runs: Vec<PathBuf>,
    records: Vec<Record>,
}

/// A path as a command's argument.
pub(crate) fn text(p: &Path) -> String {
    p.display().to_string()
}

/// Arguments as [`run`] takes them.
pub(crate) fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

fn replayed(plan: &Plan, name: &str, file: &str, seed: u64, scenarios: &[&str]) -> Replayed {
    let world = plan.out.join(format!("{name}-{seed}"));
    let generate = run(
        plan,
        &format!("generate-{name}-{seed}"),
        &args(&[
            "generate",
            "--world",
            file,
            "--scale",
            &plan.evaluate_scale.to_string(),
            "--seed",
            &seed.to_string(),
            "--no-equilibrium",
            "--out",
            &text(&world),
        ]),
    );
    let mut records = vec![generate];
    let mut runs = Vec::new();
    for scenario in scenarios {
        let out = plan.out.join(format!("{name}-{seed}-{scenario}"));
        records.push(run(
            plan,
            &format!("replay-{name}-{seed}-{scenario}"),
            &world_replay(
                &world,
                &text(&repo(&format!("scenarios/{scenario}.toml"))),
                &out,
            ),
        ));
        runs.push(out);
    }
    Replayed {
        world,
        runs,
        records,
    }
}

/// The arguments of a replay of the generated world in `world` under the scenario file
/// `scenario` from the world's first list, written to `out`.
pub(crate) fn world_replay(world: &Path, scenario: &str, out: &Path) -> Vec<String> {
    args(&[
        "replay",
        scenario,
        "--games",
        &text(&world.join("games.parquet")),
        "--start-list",
        &text(&world.join("start-list.parquet")),
        "--players",
        &text(&world.join("players.parquet")),
        "--from",
        "2001-04",
        "--quiet",
        "--out",
        &text(out),
    ])
}

/// Where the docs' pictures of the worlds are made, for docs/world/.
fn world_pictures(plan: &Plan) -> PathBuf {
    let pictures = plan.out.join("world-pictures");
    std::fs::create_dir_all(&pictures).unwrap();
    pictures
}

/// A replay set against each of Sonas's tables (2021–2023 to June 2023, as the calibration
/// compares it: the proposal is dated July 2023): the world's cells minus Sonas's, the distance
/// figures and each row's games, and the three tables as a heatmap named by `picture`.
fn against_sonas(
    plan: &Plan,
    key: &str,
    history: &Path,
    picture: fn(&str) -> String,
) -> (Vec<Record>, String) {
    let mut records = Vec::new();
    let mut out = String::new();
    for table in RESIDUAL_TABLES {
        let png = picture(table);
        let mut a = args(&[
            "crosstable",
            &text(history),
            // Relative, as the heatmap's title shows it (tests run in the repository).
            "--against",
            "data/published/sonas-crosstables.csv",
            "--table",
            table,
        ]);
        if *table == "2021-2023" {
            a.extend(args(&["--to", "2023-06"]));
        }
        a.extend(args(&[
            "--scale",
            &plan.evaluate_scale.to_string(),
            "--format",
            "md",
            "--plot",
            &text(&world_pictures(plan).join(&png)),
        ]));
        let record = run(plan, &format!("{key}-{table}"), &a);
        let difference = record
            .said
            .split_once("Run minus published:")
            .map_or("", |(_, rest)| rest.trim());
        out.push_str(&format!(
            "**{table}: the world's cells minus Sonas's** (percentage points)\n\n{difference}\n\n![{table}: Sonas's table, the world's and the difference](world/{png})\n\n"
        ));
        records.push(record);
    }
    (records, out)
}

/// docs/generate.md's block: the first of the lists' worlds, generated at the evaluations' scale
/// on their first seed and replayed under FIDE's history, set against each of Sonas's tables
/// (`plan.out/world-pictures/`, for docs/world/).
fn residual_block(plan: &Plan) -> String {
    let (name, file) = LISTS_WORLDS[0];
    let replayed = replayed(
        plan,
        name,
        &text(&repo(file)),
        plan.evaluate_seeds[0],
        &["fide-historical"],
    );
    let (against, out) = against_sonas(plan, &format!("residual-{name}"), &replayed.runs[0], |t| {
        format!("residual-{t}-fide-2001-2025-lists.png")
    });
    let records: Vec<&Record> = replayed.records.iter().chain(&against).collect();
    format!("{}{out}", provenance(&records, WORLD_BLOCKS))
}

/// A command's output as the docs show it: a Markdown table as it is, other text fenced.
fn as_shown(record: &Record) -> String {
    let said = record.said.trim_end();
    if said.contains("\n|---") {
        format!("{said}\n\n")
    } else {
        format!("```text\n{said}\n```\n\n")
    }
}

/// How many of the curve's bins from 100 to 499 points of advantage have each era's favourites
/// scoring less than the era before's (the eras in their order), of the bins every era has.
fn eras_ordered(curve: &str) -> (usize, usize) {
    let mut bins = (0, 0);
    for row in curve.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let from: Option<u32> = cells[0].split('-').next().and_then(|f| f.parse().ok());
        if !from.is_some_and(|f| (100..500).contains(&f)) {
            continue;
        }
        let scores: Option<Vec<f64>> = cells[1..]
            .iter()
            .step_by(3)
            .map(|c| c.trim_end_matches('%').parse().ok())
            .collect();
        let Some(scores) = scores else { continue };
        bins.1 += 1;
        if scores.windows(2).all(|w| w[0] > w[1]) {
            bins.0 += 1;
        }
    }
    bins
}

/// docs/generate.md's blocks of the built-in world at the evaluations' scale on the history seed,
/// made and replayed as its opening commands do (under FIDE's history and under Sonas's 2017
/// proposal): against Sonas's tables, its January lists against FIDE's, the compression of March
/// 2024, the era curves, published ratings against true strength, and the what-if.
fn history_blocks(plan: &Plan) -> Vec<(&'static str, &'static str, String)> {
    let name = WORLDS[0];
    let seed = plan.history_seed;
    let r = replayed(plan, name, name, seed, &["fide-historical", "sonas-2017"]);
    let (history, whatif) = (text(&r.runs[0]), text(&r.runs[1]));
    let picture = |png: &str| text(&world_pictures(plan).join(png));
    let command = |key: &str, a: &[&str]| run(plan, &format!("history-{key}"), &args(a));
    let block = |records: &[&Record], content: String| {
        let made: Vec<&Record> = r.records.iter().chain(records.iter().copied()).collect();
        format!("{}{content}", provenance(&made, WORLD_BLOCKS))
    };
    let generated = r.records[0].said.lines().next().unwrap_or("").to_string();

    let (against, sonas) =
        against_sonas(plan, "history", &r.runs[0], |t| format!("against-{t}.png"));
    let lists = command(
        "lists",
        &[
            "histogram",
            &history,
            "--width",
            "100",
            "--months",
            "2001-01,2005-01,2008-01,2011-01,2017-01,2023-01,2025-01",
            "--format",
            "md",
            "--plot",
            &picture("histogram-history.png"),
        ],
    );
    let fide = command(
        "fide-lists",
        &[
            "histogram",
            "data/fide-lists/JAN01FRL.TXT",
            "data/fide-lists/2005-01.TXT",
            "data/fide-lists/2008-01.TXT",
            "--width",
            "100",
            "--format",
            "md",
        ],
    );
    let compressed = command(
        "compression",
        &[
            "histogram",
            &history,
            "--width",
            "100",
            "--pair",
            "2024-02,2024-03",
            "--format",
            "md",
            "--plot",
            &picture("histogram-compression.png"),
        ],
    );
    let since = command(
        "curve-compression",
        &[
            "curve",
            &history,
            "--eras",
            "2021-01..2023-12,2024-04..2024-12,2025-01..2025-12",
            "--max",
            "500",
            "--format",
            "md",
            "--plot",
            &picture("curve-compression.png"),
        ],
    );
    let eras = command(
        "curve-eras",
        &[
            "curve",
            &history,
            "--eras",
            "2008-2012,2013-2016,2017-2020,2021-2023",
            "--max",
            "500",
            "--format",
            "md",
            "--plot",
            &picture("curve-history.png"),
        ],
    );
    let (ordered, bins) = eras_ordered(&eras.said);
    let truth = command(
        "truth",
        &[
            "compare",
            &history,
            &whatif,
            "--truth",
            &text(&r.world),
            "--against",
            "strength",
            "--by",
            "rating",
            "--plot",
            &picture("drift-by-rating.png"),
        ],
    );
    let crosstables: Vec<Record> = [(&history, "history"), (&whatif, "sonas")]
        .iter()
        .map(|(run_dir, key)| {
            command(
                &format!("crosstable-{key}"),
                &[
                    "crosstable",
                    run_dir,
                    "--from",
                    "2017-01",
                    "--to",
                    "2019-12",
                    "--plot",
                    &picture(&format!("{key}-2017-2019.png")),
                ],
            )
        })
        .collect();
    let score = command(
        "score",
        &[
            "score", &history, &whatif, "--from", "2021-01", "--to", "2023-12",
        ],
    );
    let against_refs: Vec<&Record> = against.iter().collect();
    vec![
        (
            "history-sonas",
            "docs/generate.md",
            block(&against_refs, format!("`{generated}`\n\n{sonas}")),
        ),
        (
            "history-pool",
            "docs/generate.md",
            block(
                &[&lists, &fide],
                format!(
                    "The world's January lists:\n\n{}FIDE's:\n\n{}![the world's January lists](world/histogram-history.png)\n",
                    as_shown(&lists),
                    as_shown(&fide)
                ),
            ),
        ),
        (
            "history-compression",
            "docs/generate.md",
            block(
                &[&compressed, &since],
                format!(
                    "{}![February against March 2024](world/histogram-compression.png)\n\n{}![expectation curves 2021–2023, 2024 and 2025](world/curve-compression.png)\n",
                    as_shown(&compressed),
                    as_shown(&since)
                ),
            ),
        ),
        (
            "history-curves",
            "docs/generate.md",
            block(
                &[&eras],
                format!(
                    "{}The eras are ordered as Sonas's (each era's favourites scoring less than the era before's) in {ordered} of the {bins} bins from 100 to 499 points of advantage.\n\n![expectation curves by era](world/curve-history.png)\n",
                    as_shown(&eras)
                ),
            ),
        ),
        (
            "history-truth",
            "docs/generate.md",
            block(
                &[&truth],
                format!(
                    "{}![rating minus true strength](world/drift-by-rating.png)\n",
                    as_shown(&truth)
                ),
            ),
        ),
        (
            "history-whatif",
            "docs/generate.md",
            block(
                &[&crosstables[0], &crosstables[1], &score],
                format!(
                    "![history 2017-2019](world/history-2017-2019.png)\n\n![Sonas 2017, 2017-2019](world/sonas-2017-2019.png)\n\n{}",
                    as_shown(&score)
                ),
            ),
        ),
    ]
}

/// A `score` run's first table and its notes, without the calibration bins.
fn scored(record: &Record) -> String {
    let said = record.said.trim_end();
    let table = said.split("\n\nCalibration").next().unwrap_or(said);
    format!("```text\n{table}\n```\n\n")
}

/// A CSV row's field, `–` where the row lacks it.
fn field<'a>(row: &'a std::collections::HashMap<String, String>, name: &str) -> &'a str {
    row.get(name).map_or("–", String::as_str)
}

/// A count as the docs give it, thousands separated.
fn count(n: &str) -> String {
    n.parse().map_or("–".into(), elosim::numbers::thousands)
}

/// A share as a percentage with one decimal.
fn percent(share: &str) -> String {
    share
        .parse::<f64>()
        .map_or("–".into(), |v| format!("{:.1}%", v * 100.0))
}

/// One row of a comparison of two list files from `compare`'s text: the `all` row of its band
/// table and how many players are on one list only.
fn list_pair_row(lists: &str, said: &str) -> String {
    let all: Vec<&str> = said
        .lines()
        .find(|l| l.starts_with("all "))
        .map_or(Vec::new(), |l| l.split_whitespace().skip(1).collect());
    let only = |side: &str| {
        said.lines()
            .find_map(|l| l.strip_prefix(side))
            .map_or("–", |rest| rest.trim().split(' ').next().unwrap_or("–"))
            .replace("none", "0")
    };
    let cell = |i: usize| all.get(i).copied().unwrap_or("–");
    format!(
        "| {lists} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
        cell(0),
        only("Only on A:"),
        only("Only on B:"),
        cell(1),
        cell(2),
        cell(3),
        cell(4),
        cell(5),
        cell(6),
        cell(7),
        cell(8),
        cell(9),
    )
}

/// FIDE's real lists shipped in data/, each compared with the next: (the block, the lists, and
/// the options the page gives: the older files need `--skip-invalid`).
const LIST_PAIRS: [(&str, &[&str], &[&str]); 2] = [
    (
        "compare-fide-lists",
        &[
            "data/fide-lists/JAN01FRL.TXT",
            "data/fide-lists/APR03FRL.TXT",
            "data/fide-lists/OCT03FRL.TXT",
            "data/fide-lists/2005-01.TXT",
            "data/fide-lists/2006-01.TXT",
            "data/fide-lists/2007-01.TXT",
            "data/fide-lists/2008-01.TXT",
        ],
        &["--skip-invalid"],
    ),
    (
        "compare-fide-2025",
        &[
            "data/fide-lists-2025/standard-2025-01.csv.gz",
            "data/fide-lists-2025/standard-2025-02.csv.gz",
        ],
        &[],
    ),
];

/// docs/compare.md's block: each list of `lists` compared with the next.
fn list_pairs_block(plan: &Plan, block: &str, lists: &[&str], options: &[&str]) -> String {
    let mut table = String::from(
        "| lists | both | only old | only new | mean | median | RMSE | MAE | unchanged | ±5 | ±10 | ±25 | Spearman |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut records = Vec::new();
    for pair in lists.windows(2) {
        let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
        let record = run(
            plan,
            &format!("{block}-{}", name(pair[0])),
            &args(&[&["compare", pair[0], pair[1]], options].concat()),
        );
        table.push_str(&list_pair_row(
            &format!("{} → {}", name(pair[0]), name(pair[1])),
            &record.said,
        ));
        records.push(record);
    }
    let records: Vec<&Record> = records.iter().collect();
    format!("{}{table}", provenance(&records, COMPARE_BLOCKS))
}

/// A scenario of the Kaggle 2010 games replayed into `plan.out/STEM`: its record and directory.
fn kaggle_replay(plan: &Plan, file: &str) -> (Record, PathBuf) {
    let stem = file
        .rsplit('/')
        .next()
        .unwrap_or(file)
        .trim_end_matches(".toml");
    let out = plan.out.join(stem);
    let record = run(
        plan,
        &format!("replay-{stem}"),
        &args(&["replay", file, "--quiet", "--out", &text(&out)]),
    );
    (record, out)
}

/// The rating systems docs/systems.md scores and times: each scenario and what it is.
const SYSTEMS: [(&str, &str); 7] = [
    ("kaggle2010", "FIDE's regulations, everyone seeded at 2200"),
    ("elo-k20", "period-based Elo, K 20"),
    ("glicko", "Glicko, Glickman's defaults"),
    ("glicko2", "Glicko-2, τ 0.5"),
    ("uscf-classic", "classic USCF"),
    ("berkin", "Berkin, progressive"),
    ("gcr", "Game Courier Ratings"),
];

/// The best time `elosim bench` printed on the line that starts with `start`, in seconds.
fn best(said: &str, start: &str) -> String {
    format!("{} s", word(line_of(said, start), "best "))
}

/// docs/systems.md's blocks: each system trained on months 1–95 of the Kaggle 2010 games and
/// scored on 96–100, and each system's speed on the bench's generated games.
fn systems_blocks(plan: &Plan) -> Vec<(&'static str, &'static str, String)> {
    let replays: Vec<(Record, PathBuf)> = SYSTEMS
        .iter()
        .map(|(name, _)| kaggle_replay(plan, &format!("scenarios/{name}.toml")))
        .collect();
    let mut score_args = vec!["score".to_string()];
    score_args.extend(replays.iter().map(|(_, out)| text(out)));
    score_args.extend(args(&["--from", "2020-07", "--to", "2020-11"]));
    let score = run(plan, "systems-score", &score_args);
    let mut records: Vec<&Record> = replays.iter().map(|(r, _)| r).collect();
    records.push(&score);
    let scores = format!("{}{}", provenance(&records, SYSTEMS_BLOCKS), scored(&score));

    let mut table = String::from(
        "| system (scenario) | engine alone, best of 3 | whole replay, every table written, best of 3 |\n|---|---:|---:|\n",
    );
    let mut benches = Vec::new();
    for (name, what) in &SYSTEMS[1..6] {
        let mut a = vec![
            "bench".to_string(),
            "--scenario".into(),
            format!("scenarios/{name}.toml"),
            "--runs".into(),
            "3".into(),
        ];
        if let Some(games) = plan.bench_games {
            a.extend(["--games".into(), games.to_string()]);
        }
        let record = run(plan, &format!("systems-bench-{name}"), &a);
        table.push_str(&format!(
            "| {what} (`{name}`) | {} | {} |\n",
            best(&record.said, "Engine alone"),
            best(&record.said, "Whole replay"),
        ));
        benches.push(record);
    }
    let benches: Vec<&Record> = benches.iter().collect();
    vec![
        ("systems-kaggle", "docs/systems.md", scores),
        (
            "systems-speed",
            "docs/systems.md",
            format!("{}{table}", provenance(&benches, SYSTEMS_BLOCKS)),
        ),
    ]
}

/// docs/compare.md's blocks: the built-in world's history against Sonas's 2017 what-if (made as
/// docs/generate.md's history blocks make them), a run against tournament reports, the scores
/// of the Kaggle 2010 runs, the 2011 contest and the world's two runs, and FIDE's real lists
/// compared with the next.
fn compare_blocks(plan: &Plan) -> Vec<(&'static str, &'static str, String)> {
    let name = WORLDS[0];
    let r = replayed(
        plan,
        name,
        name,
        plan.history_seed,
        &["fide-historical", "sonas-2017"],
    );
    let (history, whatif) = (text(&r.runs[0]), text(&r.runs[1]));
    let picture = |png: &str| text(&world_pictures(plan).join(png));
    let command = |key: &str, a: &[&str]| run(plan, &format!("compare-{key}"), &args(a));
    let block = |records: &[&Record], content: String| {
        format!("{}{content}", provenance(records, COMPARE_BLOCKS))
    };
    let at = |run_dir: &str| format!("{run_dir}@2023-12");
    let december = command(
        "world-2023-12",
        &[
            "compare",
            &at(&history),
            &at(&whatif),
            "--largest",
            "5",
            "--plot",
            &picture("history-vs-sonas-2023-12.png"),
            "--plot-distribution",
            &picture("history-vs-sonas-distribution.png"),
        ],
    );
    let over_time = command(
        "world-over-time",
        &[
            "compare",
            &history,
            &whatif,
            "--over-time",
            "--format",
            "csv",
            "--plot",
            &picture("history-vs-sonas-over-time.png"),
        ],
    );
    let months = csv_rows(&over_time.said);
    let mut series =
        String::from("| list | players on both | mean B − A | RMSE |\n|---|---:|---:|---:|\n");
    for (i, row) in months.iter().enumerate() {
        let month = field(row, "month");
        let january_from_2016 = month.ends_with("-01") && month >= "2016-01";
        if january_from_2016 || i + 1 == months.len() {
            series.push_str(&format!(
                "| {month} | {} | {} | {} |\n",
                count(field(row, "both")),
                field(row, "mean_diff"),
                field(row, "rmse"),
            ));
        }
    }

    let belgian = plan.out.join("belgian");
    let rounds = "data/trf/belgian-interclubs-2023-24/rounds";
    let replayed_reports = command(
        "reports-replay",
        &[
            "replay",
            "scenarios/fide-historical.toml",
            "--games",
            rounds,
            "--start-list",
            "reported",
            "--from",
            "2023-10",
            "--skip-invalid",
            "--quiet",
            "--out",
            &text(&belgian),
        ],
    );
    let reports = command(
        "reports",
        &[
            "compare",
            &text(&belgian),
            rounds,
            "--skip-invalid",
            "--format",
            "csv",
        ],
    );
    let mut by_month = String::from(
        "| list | players on both | mean B − A | RMSE | within ±10 |\n|---|---:|---:|---:|---:|\n",
    );
    for row in csv_rows(&reports.said)
        .iter()
        .filter(|r| field(r, "band") == "all")
    {
        let month = field(row, "month");
        by_month.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            if month == "all" {
                "every month together"
            } else {
                month
            },
            count(field(row, "both")),
            field(row, "mean_diff"),
            field(row, "rmse"),
            percent(field(row, "within_10")),
        ));
    }

    let kaggle: Vec<(Record, PathBuf)> = [
        "scenarios/kaggle2010.toml",
        "scenarios/kaggle2010-sonas-2017.toml",
        "docs/score/kaggle2010-seed-2000.toml",
        "docs/score/kaggle2010-seed-2400.toml",
    ]
    .iter()
    .map(|file| kaggle_replay(plan, file))
    .collect();
    let mut score_args = vec!["score".to_string()];
    score_args.extend(kaggle.iter().map(|(_, out)| text(out)));
    score_args.extend(args(&["--from", "2020-07", "--to", "2020-11"]));
    let kaggle_score = run(plan, "compare-score-kaggle", &score_args);

    let contest = plan.out.join("contest2011");
    let contest_replay = command(
        "replay-contest2011",
        &[
            "replay",
            "scenarios/contest2011.toml",
            "--skip-invalid",
            "--out",
            &text(&contest),
        ],
    );
    let contest_score = command("score-contest2011", &["score", &text(&contest)]);

    let world_scores: Vec<Record> = [("2021-01", "2023-12"), ("2017-01", "2019-12")]
        .iter()
        .map(|(from, to)| {
            let mut a = vec!["score", &history, &whatif, "--from", from, "--to", to];
            let png = picture("score-2021-2023.png");
            if *from == "2021-01" {
                a.extend(["--plot", &png]);
            }
            command(&format!("score-world-{from}"), &a)
        })
        .collect();

    let mut kaggle_records: Vec<&Record> = kaggle.iter().map(|(r, _)| r).collect();
    kaggle_records.push(&kaggle_score);
    let with_world = |more: [&Record; 2]| -> String {
        let records: Vec<&Record> = r.records.iter().chain(more).collect();
        provenance(&records, COMPARE_BLOCKS)
    };
    let mut blocks = vec![
        (
            "compare-world",
            "docs/compare.md",
            format!(
                "{}```text\n{}\n```\n\n{series}\n![history against Sonas 2017, December 2023](world/history-vs-sonas-2023-12.png)\n\n![the difference over time](world/history-vs-sonas-over-time.png)\n\n![the two distributions](world/history-vs-sonas-distribution.png)\n",
                with_world([&december, &over_time]),
                december.said.trim_end()
            ),
        ),
        (
            "compare-reports",
            "docs/compare.md",
            block(&[&replayed_reports, &reports], by_month),
        ),
        (
            "score-kaggle",
            "docs/compare.md",
            block(&kaggle_records, scored(&kaggle_score)),
        ),
        (
            "score-contest",
            "docs/compare.md",
            block(
                &[&contest_replay, &contest_score],
                format!(
                    "```text\n{}\n```\n\n{}",
                    // Paths in the repository relative, as the commands show them.
                    contest_replay
                        .said
                        .trim_end()
                        .replace(&format!("{}/", env!("CARGO_MANIFEST_DIR")), ""),
                    scored(&contest_score)
                ),
            ),
        ),
        (
            "score-world",
            "docs/compare.md",
            format!(
                "{}{}{}![calibration, 2021-2023](world/score-2021-2023.png)\n",
                with_world([&world_scores[0], &world_scores[1]]),
                scored(&world_scores[0]),
                scored(&world_scores[1])
            ),
        ),
    ];
    for (name, lists, options) in LIST_PAIRS {
        blocks.push((
            name,
            "docs/compare.md",
            list_pairs_block(plan, name, lists, options),
        ));
    }
    blocks
}

/// The study's pictures, kept in `plan.out/pictures/` named for the docs (`compression-pareto-
/// fide-2001-2025.png`).
fn copy_pictures(plan: &Plan, doc: &StudyDoc) {
    let dir = plan.out.join(doc.block);
    let pictures = plan.out.join("pictures");
    std::fs::create_dir_all(&pictures).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".png") && (name.starts_with("pareto") || name.starts_with("heatmap")) {
            std::fs::copy(
                dir.join(&name),
                pictures.join(format!("{}-{name}", doc.block)),
            )
            .unwrap();
        }
    }
}

/// `text` with each block's content between its markers replaced; panics naming a block the text
/// lacks.
fn splice(text: &str, name: &str, content: &str) -> String {
    let begin = format!("<!-- figures: {name} ");
    let end = format!("<!-- end {name} -->");
    let start = text
        .find(&begin)
        .unwrap_or_else(|| panic!("no `{begin}…-->` marker"));
    let open = start + text[start..].find("-->").unwrap() + 3;
    let close = text[open..]
        .find(&end)
        .unwrap_or_else(|| panic!("no `{end}` marker"))
        + open;
    format!(
        "{}\n{}\n{}",
        &text[..open],
        content.trim_end(),
        &text[close..]
    )
}

/// A text with every block's content left out: what a regeneration must not change.
fn outside_blocks(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<!-- figures: ") {
        let open = start + rest[start..].find("-->").unwrap() + 3;
        out.push_str(&rest[..open]);
        let close = open + rest[open..].find("<!-- end ").unwrap();
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

/// Asserts that splicing `blocks` into the docs changes nothing outside them.
pub(crate) fn only_blocks_change(blocks: &[(&str, &str, String)]) {
    for (path, text) in spliced(blocks) {
        let before = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            outside_blocks(&text),
            outside_blocks(&before),
            "{}",
            path.display()
        );
    }
}

/// Every block spliced into the docs' texts: (file, new text).
pub(crate) fn spliced(blocks: &[(&str, &str, String)]) -> Vec<(PathBuf, String)> {
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for (name, file, content) in blocks {
        let path = repo(file);
        let at = match files.iter().position(|(p, _)| *p == path) {
            Some(at) => at,
            None => {
                files.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
                files.len() - 1
            }
        };
        files[at].1 = splice(&files[at].1, name, content);
    }
    files
}

/// An evaluation's printed figures, as `elosim calibrate --evaluate` prints them, in the table.
#[test]
fn an_evaluation_s_figures_make_its_row() {
    let said = "fide-2001-2025 at scale 1 with seeds [7]: objective 2.152 (53,826,890 games, 198.9 s)
  2008-2012: RMSE 2.07 over 164 cells · signs 162/164 · coverage 166/166 · worst row ×1.50 · games ×1.61 (worst row ×2.41)
  2021-2023: RMSE 1.75 over 230 cells · signs 226/230 · coverage 230/230 · worst row ×1.82 · games ×2.22 (worst row ×3.03)
  list 2008-01: 7 of 12 counts within 15 % · worst 1500-1599 on 2008-01: ×2.11
  fide-pool.csv: 5 of 6 counts within 15 % · worst 1000-1099 on 2023-07: ×1.89
  players who played on 116 lists: ×1.40 FIDE's on average, worst 2021-07: ×9.42; K 10 ×2.90, K 40 ×1.19; K 10 share ×2.14
  activity on 2025-02: 0 of 12 bands' shares who played and 1 of 12 games per player who played within 15 % (run / real) · 1400: 0.254 / 0.112 played
";
    assert_eq!(
        evaluation_row("fide-2001-2025", 7, said),
        "| fide-2001-2025 | 7 | 2.152 | 2.07, 162/164, ×1.61 | 1.75, 226/230, ×2.22 | ×1.40 | ×2.90 | 0 / 1 | 7 of 12 | 5 of 6 | 53,826,890 |\n"
    );
}

/// Each goal read from an evaluation as `elosim calibrate --evaluate` prints it.
#[test]
fn an_evaluation_s_figures_meet_or_miss_the_goals() {
    let said = "w at scale 1 with seeds [7]: objective 2.152 (53,826,890 games, 198.9 s)
  2008-2012: RMSE 2.07 over 164 cells · signs 162/164 · coverage 166/166 · worst row ×1.50 · games ×1.61 (worst row ×2.41)
  2021-2023: RMSE 1.75 over 230 cells · signs 207/230 · coverage 230/230 · worst row ×1.82 · games ×2.22 (worst row ×3.03)
  list 2008-01: 7 of 12 counts within 15 % · worst 1500-1599 on 2008-01: ×2.11
  players who played on 116 lists: ×0.95 FIDE's on average, worst 2021-07: ×9.42; K 10 ×1.21, K 40 ×1.19; K 10 share ×2.14 · by year: 2015 ×1.10, 2016 ×0.84
  activity on 2025-02: 0 of 12 bands' shares who played and 1 of 12 games per player who played within 15 % (run / real) · 1300: 0.9 / 0.1 played, 9.0 / 1.0 games · 1400: 0.112 / 0.112 played, 6.00 / 4.54 games · 2500: 0.5 / 0.5 played, 1.0 / 9.0 games
";
    let goals = goals();
    let read: Vec<Option<f64>> = goals.iter().map(|g| g.read(said)).collect();
    assert_eq!(
        read,
        [
            Some(2.07),
            Some(1.75),
            Some(162.0 / 164.0),
            Some(207.0 / 230.0),
            Some(1.5),
            Some(1.82),
            Some(0.84),
            Some(1.21),
            Some(1.0),
            Some(0.0),
            Some(7.0),
        ]
    );
    let met: Vec<bool> = goals
        .iter()
        .zip(&read)
        .map(|(g, v)| (g.met)(v.unwrap()))
        .collect();
    assert_eq!(
        met,
        [false, true, true, true, true, false, false, false, false, false, false]
    );
}

/// The era curves' order is read bin by bin, from 100 points of advantage, each era's score
/// against the next's.
#[test]
fn the_era_curves_order_is_counted_bin_by_bin() {
    let curve =
        "| advantage | 2008-2012: score | expected | games | 2021-2023: score | expected | games |
|---:|---:|---:|---:|---:|---:|---:|
| 75-99 | 60.7% | 61.9% | 7,822 | 59.6% | 61.9% | 8,104 |
| 100-124 | 63.1% | 65.3% | 7,139 | 62.2% | 65.2% | 6,986 |
| 125-149 | 63.0% | 68.4% | 7,126 | 63.6% | 68.4% | 6,440 |
| 475-499 | 88.8% | 92.0% | 1,064 | 80.1% | 92.0% | 2,282 |
| 500-524 | 90.0% | 92.0% | 1,064 | 80.1% | 92.0% | 2,282 |";
    assert_eq!(eras_ordered(curve), (2, 3));
}

/// At a small scale, on copies: every block regenerated and spliced where its markers are, and
/// the pictures made.
#[test]
fn the_docs_figures_regenerate_at_a_small_scale() {
    let plan = Plan {
        overrides: [
            "--scale",
            "0.002",
            "--seeds",
            "1",
            "--verify-scale",
            "0.002",
            "--verify-seeds",
            "2",
            "--threads",
            "2",
        ]
        .map(String::from)
        .to_vec(),
        evaluate_scale: 0.005,
        evaluate_seeds: vec![7],
        tried_seeds: vec![7],
        history_seed: 7,
        bench_games: Some(20_000),
        out: scratch("docs-figures"),
        reuse: false,
        ran: Default::default(),
    };
    let blocks = regenerate_blocks(&plan);
    // Every block has its markers in its file, and nothing outside the blocks changes.
    only_blocks_change(&blocks);
    let marked: usize = [
        "docs/sweep.md",
        "docs/generate.md",
        "docs/compare.md",
        "docs/systems.md",
    ]
    .iter()
    .map(|f| {
        std::fs::read_to_string(repo(f))
            .unwrap()
            .matches("(written by tests/cli/docs_figures.rs")
            .count()
    })
    .sum();
    assert_eq!(marked, blocks.len());
    let (_, _, compression) = &blocks[0];
    for expected in [
        "**World fide-2001-2025**",
        "**World fide-2001-2025-activity**",
        "| **baseline** (0.4 / 2000) |",
        "fide-historical (reference)",
        "best 1 over the worlds",
        "Findings that hold on every world and under both truths",
        "**Verified:**",
        "at scale 0.002 on seeds 2",
    ] {
        assert!(compression.contains(expected), "{expected}\n{compression}");
    }
    let block = |name: &str| &blocks.iter().find(|(n, _, _)| *n == name).unwrap().2;
    let worlds = block("worlds");
    assert!(
        worlds.contains("| fide-2001-2025-activity | 7 |"),
        "{worlds}"
    );
    // The default world's activity, from the same evaluations: a row a year and a row a band.
    assert!(
        block("played").contains("\n| 2016 | ×"),
        "{}",
        block("played")
    );
    assert!(
        block("activity").contains("\n| 1400–1499 | 0.112 | "),
        "{}",
        block("activity")
    );
    // The lists' worlds evaluated, and the first set against both of Sonas's tables.
    assert!(
        block("lists-worlds").contains("| lists-refit | 7 |"),
        "{}",
        block("lists-worlds")
    );
    let residual = block("lists-residual");
    for table in RESIDUAL_TABLES {
        let picture = format!("world/residual-{table}-fide-2001-2025-lists.png");
        assert!(residual.contains(&picture), "{residual}");
        assert!(plan
            .out
            .join("world-pictures")
            .join(picture.trim_start_matches("world/"))
            .is_file());
    }
    assert!(residual.contains("| RMSE |"), "{residual}");
    let goals = block("lists-goals");
    assert!(
        goals.contains("| goal | fide-2001-2025 | fide-2001-2025-lists | lists-refit |"),
        "{goals}"
    );
    assert!(goals.contains("| 2021–2023 RMSE ≤ 2.0 | "), "{goals}");
    // The worlds tried on the built-in world, beside it on the same seeds.
    let tried = block("tried");
    for row in [
        "| fide-2001-2025 | 7 |",
        "| leagues-30 | 7 |",
        "| tables-weighted | 7 |",
    ] {
        assert!(tried.contains(row), "{row}\n{tried}");
    }
    // The built-in world made and replayed as the opening commands do, and its pictures.
    assert!(block("history-sonas").contains("| RMSE |"));
    assert!(block("history-pool").contains("| 2008-01 |"));
    assert!(block("history-compression").contains("| 2024-02 | 2024-03 |"));
    assert!(block("history-curves").contains("bins from 100 to 499 points"));
    assert!(block("history-truth").contains("```text"));
    assert!(block("history-whatif").contains("sonas-2017"));
    for picture in [
        "against-2008-2012.png",
        "against-2021-2023.png",
        "histogram-history.png",
        "histogram-compression.png",
        "curve-compression.png",
        "curve-history.png",
        "drift-by-rating.png",
        "history-2017-2019.png",
        "sonas-2017-2019.png",
    ] {
        assert!(
            plan.out.join("world-pictures").join(picture).is_file(),
            "{picture}"
        );
    }
    let pictures = std::fs::read_dir(plan.out.join("pictures"))
        .unwrap()
        .count();
    assert!(pictures >= 2 * WORLDS.len(), "{pictures} pictures");
    // docs/compare.md's: the world's two runs compared, the reports, the scores, FIDE's lists.
    assert!(block("compare-world").contains("| 2016-01 | "));
    assert!(block("compare-reports").contains("| every month together | "));
    assert!(block("score-kaggle").contains("kaggle2010-seed-2400"));
    assert!(block("score-contest").contains("deviance"));
    assert!(block("score-world").contains("sonas-2017"));
    assert!(block("compare-fide-lists")
        .contains("| JAN01FRL.TXT → APR03FRL.TXT | 35,679 | 1,299 | 9,971 |"));
    assert!(block("compare-fide-2025")
        .contains("| standard-2025-01.csv.gz → standard-2025-02.csv.gz | "));
    // docs/systems.md's: every system scored, and timed.
    assert!(block("systems-kaggle").contains("gcr"));
    assert!(block("systems-speed").contains("| Berkin, progressive (`berkin`) | "));
    // Written anew from the records, without running anything: the same blocks.
    let again = regenerate_blocks(&Plan {
        reuse: true,
        ran: Default::default(),
        ..plan
    });
    assert!(blocks == again);
}

/// The real run: rewrites docs/sweep.md's and docs/generate.md's blocks, docs/sweep/'s pictures
/// and the residual's in docs/world/ from the studies and worlds as shipped.
#[test]
#[ignore = "about 105 minutes on a 2-core machine: cargo test --release --locked --test cli docs_figures::regenerate -- --ignored"]
fn regenerate() {
    write_docs(false, Blocks::All);
}

/// docs/generate.md's blocks only: the worlds' evaluations, the residual and the built-in world's
/// replays, without the studies.
#[test]
#[ignore = "31 minutes on a 2-core machine: cargo test --release --locked --test cli docs_figures::regenerate_worlds -- --ignored"]
fn regenerate_worlds() {
    write_docs(false, Blocks::Worlds);
}

/// The docs written anew from the last real run's outputs and records, without running anything:
/// for a change to how the figures are shown.
#[test]
#[ignore = "after `regenerate`: cargo test --release --locked --test cli docs_figures::rewrite_from_the_last_run -- --ignored"]
fn rewrite_from_the_last_run() {
    write_docs(true, Blocks::All);
}

/// docs/generate.md's blocks written anew from the last real run's records, without running
/// anything.
#[test]
#[ignore = "after `regenerate_worlds`: cargo test --release --locked --test cli docs_figures::rewrite_worlds_from_the_last_run -- --ignored"]
fn rewrite_worlds_from_the_last_run() {
    write_docs(true, Blocks::Worlds);
}

/// docs/compare.md's blocks only: the runs it compares and scores, made anew.
#[test]
#[ignore = "a few minutes on a 2-core machine: cargo test --release --locked --test cli docs_figures::regenerate_compare -- --ignored"]
fn regenerate_compare() {
    write_docs(false, Blocks::Compare);
}

/// docs/systems.md's blocks only: the systems scored on the Kaggle games and timed.
#[test]
#[ignore = "about a minute on a 2-core machine: cargo test --release --locked --test cli docs_figures::regenerate_systems -- --ignored"]
fn regenerate_systems() {
    write_docs(false, Blocks::Systems);
}

/// Which blocks a run writes.
#[derive(Clone, Copy, PartialEq)]
enum Blocks {
    All,
    Worlds,
    Compare,
    Systems,
}

fn write_docs(reuse: bool, which: Blocks) {
    let plan = Plan {
        overrides: Vec::new(),
        evaluate_scale: 1.0,
        evaluate_seeds: vec![7, 42, 99, 2024],
        tried_seeds: vec![7, 42],
        history_seed: 42,
        bench_games: None,
        out: repo("output/docs-figures"),
        reuse,
        ran: Default::default(),
    };
    let blocks = match which {
        Blocks::All => regenerate_blocks(&plan),
        Blocks::Worlds => world_blocks(&plan),
        Blocks::Compare => compare_blocks(&plan),
        Blocks::Systems => systems_blocks(&plan),
    };
    for (path, text) in spliced(&blocks) {
        std::fs::write(&path, text).unwrap();
    }
    copy_all(&plan.out.join("world-pictures"), &repo("docs/world"));
    if which != Blocks::All {
        return;
    }
    // docs/sweep/ holds the studies' pictures only: the last run's replace them all.
    for entry in std::fs::read_dir(repo("docs/sweep")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "png") {
            std::fs::remove_file(path).unwrap();
        }
    }
    copy_all(&plan.out.join("pictures"), &repo("docs/sweep"));
}

/// Every file of `from` copied into `to`.
fn copy_all(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}
