//! `summary.json`: what a run read, skipped and produced, list by list.

use serde_json::{json, Value};

use crate::ingest::IngestReport;
use crate::replay::Run;
use crate::scenario::Scenario;

/// How long reading and replaying took; the only part of a run's outputs that differs between
/// identical runs.
pub struct Timing {
    pub read_seconds: f64,
    pub replay_seconds: f64,
    /// Time the threads writing `lists.parquet` and `games.parquet` were busy building, encoding
    /// and compressing row groups, alongside the replay (filled in when the run is finished).
    pub lists_seconds: f64,
    pub games_seconds: f64,
    pub threads: usize,
}

pub fn summary_json(
    scenario: &Scenario,
    run: &Run,
    report: &IngestReport,
    timing: &Timing,
) -> String {
    let lists: Vec<Value> = run
        .summaries
        .iter()
        .map(|s| json!({ "month": s.month.to_string(), "players": s.players, "new": s.new, "delisted": s.delisted, "games": s.games, "games_not_counted": s.games_not_counted }))
        .collect();
    let skipped: Vec<Value> = report
        .skipped
        .iter()
        .map(|(reason, (count, first))| json!({ "reason": reason, "rows": count, "first": first }))
        .collect();
    let checksums: Vec<Value> = report
        .checksums
        .iter()
        .map(|(path, sha)| json!({ "path": path.display().to_string(), "sha256": sha }))
        .collect();
    let total =
        |f: fn(&crate::replay::ListSummary) -> usize| run.summaries.iter().map(f).sum::<usize>();
    let value = json!({
        "elosim": env!("CARGO_PKG_VERSION"),
        "scenario": scenario.name,
        "system": scenario.system.kind().name(),
        "first_list": run.lists.get(1).map(|m| m.to_string()),
        "last_list": run.lists.last().map(|m| m.to_string()),
        "starting_list": { "month": run.lists[0].to_string(), "source": report.start_list, "players": report.start_list_players },
        "inputs": checksums,
        "games": {
            "format": report.format.name(),
            "read": report.games_read,
            "skipped_invalid": skipped,
            "before_run": run.skipped.before_run,
            "after_run": run.skipped.after_run,
            "moved_to_next_list": run.skipped.moved_to_next_list,
            "rated_or_counted": total(|s| s.games),
            "not_counted": total(|s| s.games_not_counted),
        },
        "players": { "ids": report.players, "new": total(|s| s.new), "delisted": total(|s| s.delisted), "on_last_list": run.summaries.last().map_or(0, |s| s.players) },
        "lists": lists,
        "timing": {
            "read_seconds": round3(timing.read_seconds),
            "intern_seconds": round3(report.intern_seconds),
            "replay_seconds": round3(timing.replay_seconds),
            "write_lists_seconds": round3(timing.lists_seconds),
            "write_games_seconds": round3(timing.games_seconds),
            "threads": timing.threads,
        },
    });
    let mut text = serde_json::to_string_pretty(&value).expect("a JSON value always serializes");
    text.push('\n');
    text
}

fn round3(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}
