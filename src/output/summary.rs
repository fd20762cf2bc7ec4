//! `summary.json`: what a run read, skipped and produced, list by list.

use serde::Serialize;

use crate::ingest::IngestReport;
use crate::replay::{ListSummary, Run};
use crate::scenario::{Approximation, Scenario};

/// `summary.json`'s `lists_layout`: `lists.parquet` holds the starting list whole, then each
/// list's changed rows (runs before it held every list whole, and say nothing).
pub const LISTS_LAYOUT: &str = "changes";

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

/// `summary.json`, field by field in the order written.
#[derive(Serialize)]
struct Summary<'a> {
    elosim: &'static str,
    /// What `lists.parquet` holds after the starting list: each list's changes.
    lists_layout: &'static str,
    scenario: &'a str,
    system: &'static str,
    first_list: Option<String>,
    last_list: Option<String>,
    starting_list: StartingList<'a>,
    inputs: Vec<Checksum>,
    games: GameCounts<'a>,
    players: PlayerCounts,
    /// The eras the run covers that only approximate FIDE's practice, and why.
    approximate: Vec<ApproximateEra>,
    lists: Vec<ListCounts>,
    timing: Seconds,
}

#[derive(Serialize)]
struct ApproximateEra {
    from: String,
    to: Option<String>,
    why: String,
}

#[derive(Serialize)]
struct StartingList<'a> {
    month: String,
    source: &'a Option<String>,
    players: usize,
}

#[derive(Serialize)]
struct Checksum {
    path: String,
    sha256: String,
}

#[derive(Serialize)]
struct GameCounts<'a> {
    format: &'static str,
    read: usize,
    skipped_invalid: Vec<Skipped<'a>>,
    before_run: usize,
    after_run: usize,
    moved_to_next_list: usize,
    rated_or_counted: usize,
    not_counted: usize,
}

#[derive(Serialize)]
struct Skipped<'a> {
    reason: &'a str,
    rows: usize,
    first: &'a str,
}

#[derive(Serialize)]
struct PlayerCounts {
    ids: usize,
    new: usize,
    delisted: usize,
    on_last_list: usize,
}

#[derive(Serialize)]
struct ListCounts {
    month: String,
    players: usize,
    new: usize,
    delisted: usize,
    games: usize,
    games_not_counted: usize,
}

#[derive(Serialize)]
struct Seconds {
    read_seconds: f64,
    intern_seconds: f64,
    replay_seconds: f64,
    write_lists_seconds: f64,
    write_games_seconds: f64,
    threads: usize,
}

pub fn summary_json(
    scenario: &Scenario,
    run: &Run,
    report: &IngestReport,
    timing: &Timing,
) -> String {
    let total = |f: fn(&ListSummary) -> usize| run.summaries.iter().map(f).sum::<usize>();
    let summary = Summary {
        elosim: env!("CARGO_PKG_VERSION"),
        lists_layout: LISTS_LAYOUT,
        scenario: &scenario.name,
        system: scenario.system.kind().name(),
        first_list: run.lists.get(1).map(|m| m.to_string()),
        last_list: run.lists.last().map(|m| m.to_string()),
        starting_list: StartingList {
            month: run.lists[0].to_string(),
            source: &report.start_list,
            players: report.start_list_players,
        },
        inputs: report
            .checksums
            .iter()
            .map(|(path, sha)| Checksum {
                path: path.display().to_string(),
                sha256: sha.clone(),
            })
            .collect(),
        games: GameCounts {
            format: report.format.name(),
            read: report.games_read,
            skipped_invalid: report
                .skipped
                .iter()
                .map(|(reason, (rows, first))| Skipped {
                    reason,
                    rows: *rows,
                    first,
                })
                .collect(),
            before_run: run.skipped.before_run,
            after_run: run.skipped.after_run,
            moved_to_next_list: run.skipped.moved_to_next_list,
            rated_or_counted: total(|s| s.games),
            not_counted: total(|s| s.games_not_counted),
        },
        players: PlayerCounts {
            ids: report.players,
            new: total(|s| s.new),
            delisted: total(|s| s.delisted),
            on_last_list: run.summaries.last().map_or(0, |s| s.players),
        },
        approximate: run_approximations(scenario, run)
            .into_iter()
            .map(|a| ApproximateEra {
                from: a.from.to_string(),
                to: a.to.map(|m| m.to_string()),
                why: a.why,
            })
            .collect(),
        lists: run
            .summaries
            .iter()
            .map(|s| ListCounts {
                month: s.month.to_string(),
                players: s.players,
                new: s.new,
                delisted: s.delisted,
                games: s.games,
                games_not_counted: s.games_not_counted,
            })
            .collect(),
        timing: Seconds {
            read_seconds: round3(timing.read_seconds),
            intern_seconds: round3(report.intern_seconds),
            replay_seconds: round3(timing.replay_seconds),
            write_lists_seconds: round3(timing.lists_seconds),
            write_games_seconds: round3(timing.games_seconds),
            threads: timing.threads,
        },
    };
    crate::output::pretty_json(&summary)
}

/// The approximate eras under which the run rated tournaments: from the starting list's month
/// to the last list.
pub fn run_approximations(scenario: &Scenario, run: &Run) -> Vec<Approximation> {
    match (run.lists.first(), run.lists.last()) {
        (Some(&first), Some(&last)) if run.lists.len() > 1 => scenario.approximations(first, last),
        _ => Vec::new(),
    }
}

fn round3(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}
