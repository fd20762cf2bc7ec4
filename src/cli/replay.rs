use std::path::PathBuf;

use anyhow::Context;

use super::{count, kept_line, month, progress::Bar, set_threads};
use crate::model::Month;
use crate::numbers::counted;
use crate::pipeline::{self, ReplayOutcome, ReplayRequest};
use crate::systems::SystemKind;

/// Replay games under a scenario's regulations and write the monthly lists.
///
/// Writes into the output directory (default output/<scenario name>/): scenario.resolved.toml,
/// lists.parquet, games.parquet, periods.parquet (what each player's period computed),
/// summary.json and, with --csv, lists/YYYY-MM.csv. These files are replaced only when every one
/// is complete; other files in an earlier run's directory (a report) are kept. A directory that
/// holds anything else (a generated world, a dataset) is refused. Several scenarios over the same
/// games (`elosim replay a.toml b.toml`) read the games once and replay in parallel, each into
/// output/<its name>/.
#[derive(clap::Args)]
pub struct Args {
    /// The scenarios (TOML). Without one: your --games under today's FIDE rules (or --system)
    /// over their own months, first to last, named after them; without games either,
    /// scenarios/kaggle2010.toml, the Kaggle 2010 games under FIDE's rules
    scenarios: Vec<PathBuf>,
    /// Games file (CSV or Parquet: canonical, Kaggle 2010 or 2011 contest layout; PGN; a tournament
    /// report, TRF, or a directory of them), or a directory
    /// partitioned by period (DIR/period=YYYY-MM/*.parquet|csv), read list by list; overrides
    /// data.games
    #[arg(long, value_name = "FILE")]
    games: Option<PathBuf>,
    /// Players file (id, name, birth_year, federation, sex, title); overrides data.players
    #[arg(long, value_name = "FILE")]
    players: Option<PathBuf>,
    /// The list in force before the first list computed (CSV, Parquet or a FIDE list file); or
    /// `reported`: with tournament reports (TRF) as the games, each player at the rating their
    /// earliest report carries (unrated there: not on the list)
    #[arg(long, value_name = "FILE|reported")]
    start_list: Option<PathBuf>,
    /// Replay under this rating system with its default settings instead of the scenario's (the
    /// scenario's calendar, data and window stay; the run is named <scenario>-<system>); naming
    /// the scenario's own system changes nothing. With --games and no scenario: the system alone
    /// over the games' own months (run named <games>-<system>)
    #[arg(long, value_enum, value_name = "NAME")]
    system: Option<SystemKind>,
    /// Output directory [default: output/<scenario name>]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The first list to compute
    #[arg(long, value_name = "YYYY-MM", value_parser = month)]
    from: Option<Month>,
    /// The last list to compute [default: the list of the last game]
    #[arg(long, value_name = "YYYY-MM", value_parser = month)]
    to: Option<Month>,
    /// Also write one CSV list per month (lists/YYYY-MM.csv)
    #[arg(long)]
    csv: bool,
    /// Skip rows that cannot be rated (a bad score such as the 2011 contest's −1 decoys, a player
    /// playing himself, an unreadable cell) and report how many, instead of stopping at the first
    #[arg(long)]
    skip_invalid: bool,
    /// Read a games CSV sorted by period one period at a time, holding one list's games instead of
    /// the whole file (for histories larger than memory; a partitioned directory is always read so)
    #[arg(long)]
    stream: bool,
    /// In a partitioned directory, rate a list of more than N games file by file under FIDE's
    /// regulations, holding the players and one file's games instead of the list's (the same
    /// lists and games; each file read twice, three times when the files name events)
    #[arg(long, value_name = "N", default_value_t = crate::replay::PIECE_GAMES)]
    piece_games: usize,
    /// Replay from a starting list that names another month (a FIDE list's header, a `month`
    /// column, the file's name) than the list the run starts from, taking it as that list
    #[arg(long)]
    force: bool,
    /// Worker threads, 1 to 256 (or the cores if more) [default: all cores]; outputs are identical
    /// whatever the number
    #[arg(long, value_name = "N", value_parser = super::thread_count)]
    threads: Option<usize>,
    /// No progress bar and no summary
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let threads = set_threads(args.threads)?;
    if args.scenarios.is_empty() && args.games.is_some() {
        // Your own games: nothing of the default scenario's Kaggle data applies.
        return replay_one(&args, request(&args, None, threads));
    }
    let mut scenarios = args.scenarios.clone();
    if scenarios.is_empty() {
        let default = PathBuf::from("scenarios/kaggle2010.toml");
        anyhow::ensure!(default.is_file(), "no scenario given, and scenarios/kaggle2010.toml is not in the current directory: run from the repository's root or name a scenario file");
        scenarios.push(default);
    }
    if scenarios.len() > 1 {
        anyhow::ensure!(
            args.out.is_none(),
            "--out names one run's directory; several scenarios each write to output/<scenario name>"
        );
        let requests: Vec<ReplayRequest> = scenarios
            .iter()
            .map(|scenario| request(&args, Some(scenario.clone()), threads))
            .collect();
        let bar = Bar::new(args.quiet);
        let outcomes = pipeline::replay_many(&requests, &bar);
        bar.finish();
        let outcomes = outcomes.context(
            "replay failed; no run was left half-written (a run appears only when complete)",
        )?;
        if !args.quiet {
            for outcome in &outcomes {
                print!("{}", summary(outcome));
            }
        }
        return Ok(());
    }
    replay_one(&args, request(&args, Some(scenarios.remove(0)), threads))
}

fn replay_one(args: &Args, request: ReplayRequest) -> anyhow::Result<()> {
    let bar = Bar::new(args.quiet);
    let outcome = pipeline::replay(&request, &bar);
    bar.finish();
    let outcome = outcome.with_context(|| {
        let what = request.scenario.as_ref().or(request.games.as_ref());
        format!(
            "replay of {} failed; nothing was written",
            what.map(|p| p.display().to_string()).unwrap_or_default()
        )
    })?;
    if !args.quiet {
        print!("{}", summary(&outcome));
    }
    Ok(())
}

fn request(args: &Args, scenario: Option<PathBuf>, threads: usize) -> ReplayRequest {
    ReplayRequest {
        scenario,
        games: args.games.clone(),
        players: args.players.clone(),
        start_list: args.start_list.clone(),
        out: args.out.clone(),
        system: args.system,
        from: args.from,
        to: args.to,
        csv: args.csv,
        skip_invalid: args.skip_invalid,
        stream: args.stream,
        piece_games: Some(args.piece_games),
        threads,
        force: args.force,
    }
}

fn summary(o: &ReplayOutcome) -> String {
    let run = &o.run;
    let lists = run.lists.len() - 1;
    let total =
        |f: fn(&crate::replay::ListSummary) -> usize| run.summaries.iter().map(f).sum::<usize>();
    let first = run.lists.get(1).map(|m| m.to_string()).unwrap_or_default();
    let last = run.lists.last().map(|m| m.to_string()).unwrap_or_default();
    let skipped: usize = o.report.skipped.values().map(|(n, _)| n).sum();
    let mut text = format!(
        "Replayed {} ({}): {}, {first} to {last}\n",
        o.scenario.name,
        o.scenario.file.display(),
        counted(lists as u64, "list")
    );
    text += &format!(
        "  games    {} read · {} rated or counted towards a first rating · {} not counted (unrated opponents)\n",
        count(o.report.games_read),
        count(total(|s| s.games)),
        count(total(|s| s.games_not_counted))
    );
    if let Some(pgn) = o.report.pgn {
        text += &format!("  pgn      {}\n", pgn.describe());
    }
    if let Some(trf) = o.report.trf {
        text += &format!("  trf      {}\n", trf.describe());
    }
    let window = run.skipped.before_run + run.skipped.after_run;
    if window > 0 {
        text += &format!(
            "           {} outside the lists computed (before {first}: {}, after {last}: {})\n",
            count(window),
            count(run.skipped.before_run),
            count(run.skipped.after_run)
        );
    }
    if skipped > 0 {
        text += &format!(
            "  skipped  {} (--skip-invalid):\n",
            counted(skipped as u64, "invalid row")
        );
        for (reason, (n, first)) in &o.report.skipped {
            text += &format!("           {} × {reason} (first: {first})\n", count(*n));
        }
    }
    if let Some(start) = &o.report.start_list {
        text += &format!(
            "  start    {} players on {}\n",
            count(o.report.start_list_players),
            start
        );
    }
    text += &format!(
        "  players  {} on the last list ({last}) · {} new · {} delisted below the floor\n",
        count(run.summaries.last().map_or(0, |s| s.players)),
        count(total(|s| s.new)),
        count(total(|s| s.delisted))
    );
    let approximate = crate::output::run_approximations(&o.scenario, run);
    if let (Some(first), Some(last)) = (approximate.first(), approximate.last()) {
        let to = last.to.map_or_else(|| "on".into(), |m| format!("to {m}"));
        let eras = match approximate.len() {
            1 => "1 era".to_string(),
            n => format!("{n} eras"),
        };
        text += &format!(
            "  approx   tournaments starting {} {to} are rated under rules that only approximate FIDE's practice ({eras}; why: `elosim check`, summary.json)\n",
            first.from
        );
    }
    text += &format!("  files    {}/: lists.parquet ({} rows), games.parquet ({} rows), periods.parquet ({} rows), summary.json, scenario.resolved.toml\n", o.written.dir.display(), count(o.written.list_rows), count(o.written.game_rows), count(o.written.period_rows));
    text += &kept_line(&o.written.kept);
    text += &format!(
        "  time     read {:.2} s · replay {:.2} s · write {:.2} s (the tables' own threads, alongside the replay: lists {:.2} s · games {:.2} s)\n",
        o.times.read, o.times.replay, o.times.write, o.written.lists_seconds, o.written.games_seconds
    );
    text
}
