//! A whole replay: scenario and command-line overrides → inputs → engine → run directory.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::ingest::{self, GameStream, IngestError, IngestReport, InputFiles};
use crate::model::Month;
use crate::numbers::{counted, thousands};
use crate::output::{
    check_destination, resolved, OutputError, OutputKind, RunWriter, Timing, WriteOptions, Written,
};
use crate::replay::{self, ReplayError, Run};
use crate::scenario::{GameFormat, Scenario, ScenarioError};
use crate::systems::{SystemConfig, SystemKind};

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Ingest(#[from] IngestError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("{}: the scenario names no games file (data.games); pass one with --games FILE", .0.display())]
    NoGames(PathBuf),
    #[error("no scenario and no games: name a scenario, or give the games to replay with --games")]
    NoScenario,
    #[error("{} and {} read different data ({what}); scenarios replayed together share one game set: run them separately, or give --games (and --start-list, --players) for all", first.display(), other.display())]
    DifferentData {
        first: PathBuf,
        other: PathBuf,
        what: &'static str,
    },
    #[error("the starting list {file} is the list of {listed}, but the run starts from the list of {start} (its first list computed is {from}): {remedy}give the list of {start}; --force takes it as the list of {start}")]
    StartMonth {
        file: String,
        listed: Month,
        start: Month,
        from: Month,
        /// "replay from the list after it (--from M), or ", where the calendar has that list.
        remedy: String,
    },
    #[error("refusing to write the run into {}: it lies inside the games dataset {}, which the next replay of it would read as a misnamed partition; choose an --out outside it", out.display(), dataset.display())]
    OutInsideInput { out: PathBuf, dataset: PathBuf },
    #[error("{file}: no game to replay: {why}")]
    EmptyGames { file: String, why: String },
    #[error("no game falls on the lists computed from {from}: {before} before it, {after} after {last}; choose --from and --to (or the scenario's [run]) around the games' months")]
    NoGameInWindow {
        from: Month,
        last: Month,
        before: String,
        after: String,
    },
    #[error("{} and {} would both write to {}; give the scenarios different names", first.display(), other.display(), dir.display())]
    SameOutput {
        first: PathBuf,
        other: PathBuf,
        dir: PathBuf,
    },
}

/// What to replay and where to write it; `None` fields fall back to the scenario's.
#[derive(Clone, Debug, Default)]
pub struct ReplayRequest {
    /// `None`: no scenario, `system` (FIDE's when none) with its defaults over the games' own
    /// months, first to last (`Scenario::plain`).
    pub scenario: Option<PathBuf>,
    pub games: Option<PathBuf>,
    pub players: Option<PathBuf>,
    pub start_list: Option<PathBuf>,
    pub out: Option<PathBuf>,
    /// Replay under this system with its default settings instead of the scenario's.
    pub system: Option<SystemKind>,
    pub from: Option<Month>,
    pub to: Option<Month>,
    pub csv: bool,
    pub skip_invalid: bool,
    /// Read the games period by period (a CSV sorted by period), holding one list's games.
    pub stream: bool,
    /// A list read from a partitioned dataset is rated file by file when it holds more games
    /// (`replay::run_streamed`) [default: `replay::PIECE_GAMES`].
    pub piece_games: Option<usize>,
    pub threads: usize,
    /// Replay from a starting list that names another month than the list the run starts from,
    /// taken as that list.
    pub force: bool,
}

/// Progress of a replay, for a terminal.
pub trait Progress: Sync {
    fn stage(&self, _name: &str) {}
    /// Reading that takes a while: `done` of `total` in `unit` ("partitions", "MB").
    fn reading(&self, _done: usize, _total: usize, _unit: &str) {}
    /// A step of the replay: a list rated, or a piece of a list rated in pieces begun.
    fn step(&self, _step: replay::Step) {}
}

/// No progress shown.
pub struct Quiet;

impl Progress for Quiet {}

/// Seconds spent in each stage.
#[derive(Clone, Copy, Debug, Default)]
pub struct StageTimes {
    pub read: f64,
    /// The engine, with the lists and games written as they are published.
    pub replay: f64,
    /// The last row groups and the summary, after the last list.
    pub write: f64,
}

pub struct ReplayOutcome {
    pub scenario: Scenario,
    pub run: Run,
    pub report: IngestReport,
    /// The run's directory and the rows of its tables.
    pub written: Written,
    pub times: StageTimes,
}

/// Loads a scenario and applies the request's overrides of its data and window. A request without
/// a scenario gets its system's plain scenario over every month a file can name, which `replay`
/// narrows to the games' own once they are read.
pub fn prepare(request: &ReplayRequest) -> Result<(Scenario, InputFiles), RunError> {
    let mut scenario = match &request.scenario {
        Some(path) => Scenario::load(path)?,
        None => plain(request, EVERY_MONTH)?,
    };
    scenario.set_window(request.from, request.to)?;
    if let Some(kind) = request.system.filter(|&k| k != scenario.system.kind()) {
        scenario.system = SystemConfig::read(kind, &|_| None);
        scenario.name = format!("{}-{}", scenario.name, kind.name());
    }
    let data = &mut scenario.data;
    let pick = |flag: &Option<PathBuf>, own: &mut Option<PathBuf>| {
        if flag.is_some() {
            own.clone_from(flag);
        }
    };
    pick(&request.games, &mut data.games);
    pick(&request.players, &mut data.players);
    pick(&request.start_list, &mut data.start_list);
    let games = data.games.clone().ok_or_else(|| match &request.scenario {
        Some(path) => RunError::NoGames(path.clone()),
        None => RunError::NoScenario,
    })?;
    // A scenario's `format` describes its own data file; a file named on the command line is read
    // by its header (the Kaggle and 2011 contest layouts still take the scenario's `month-1`), and
    // the resolved scenario says so, to be repeated on that file.
    if request.games.is_some() {
        data.format = GameFormat::Auto;
    }
    let files = InputFiles {
        games,
        format: data.format,
        month_1: data.month_1,
        start_list: data.start_list.clone(),
        players: data.players.clone(),
        pgn_dates: crate::ingest::Dates::NeedMonth,
    };
    Ok((scenario, files))
}

/// Every month a games file can write (`0001-01` to `9999-12`): a plain scenario's calendar
/// until its games are read.
const EVERY_MONTH: (Month, Month) = (Month::from_index(12), Month::from_index(9999 * 12 + 11));

/// The plain scenario of a request without one, over `months`, named after its games
/// (`games-2019.csv.gz` → `games-2019-<system>`).
fn plain(request: &ReplayRequest, months: (Month, Month)) -> Result<Scenario, RunError> {
    let games = request.games.as_deref().ok_or(RunError::NoScenario)?;
    let file = games.file_name().unwrap_or_default().to_string_lossy();
    // The name without its compression's extension (`plain_name` keeps the length, lowercased),
    // then without its own.
    let plain = &file[..ingest::plain_name(games).len()];
    let name = Path::new(plain)
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy();
    let system = request.system.unwrap_or(SystemKind::Fide);
    Ok(Scenario::plain(system, &name, games, months)?)
}

/// The months the games are rated on, first and last: a stream's periods, or each game's.
fn games_months(inputs: &replay::Inputs, source: Option<&GameStream>) -> Option<(Month, Month)> {
    use replay::PeriodSource;
    match source {
        Some(source) => Some((source.periods().first()?.0, source.periods().last()?.0)),
        None => {
            let games = &inputs.games;
            let months = (0..games.len()).filter_map(|i| games.rating_month(i));
            Some((months.clone().min()?, months.max()?))
        }
    }
}

/// The inputs of a replay: the games held whole, or a partitioned dataset read list by list.
struct Loaded {
    inputs: replay::Inputs,
    report: IngestReport,
    source: Option<GameStream>,
}

/// A partitioned dataset is always read period by period; a games file when `stream` asks.
fn load(
    files: &InputFiles,
    skip_invalid: bool,
    stream: bool,
    progress: &dyn Progress,
) -> Result<Loaded, RunError> {
    if stream || ingest::is_dataset(&files.games) {
        let reading = |done, total, unit: &str| progress.reading(done, total, unit);
        let (inputs, report, source) = ingest::read_streamed(files, skip_invalid, &reading)?;
        return Ok(Loaded {
            inputs,
            report,
            source: Some(source),
        });
    }
    let (inputs, report) = ingest::read_inputs(files, skip_invalid)?;
    Ok(Loaded {
        inputs,
        report,
        source: None,
    })
}

pub fn replay(request: &ReplayRequest, progress: &dyn Progress) -> Result<ReplayOutcome, RunError> {
    let started = Instant::now();
    let (scenario, files) = prepare(request)?;
    check_output(&output_dir(request, &scenario), &files)?;
    progress.stage("reading");
    let loaded = load(&files, request.skip_invalid, request.stream, progress)?;
    let read = started.elapsed().as_secs_f64();
    replay_and_write(
        request,
        scenario,
        &loaded.inputs,
        loaded.source,
        loaded.report,
        (started, read),
        progress,
    )
}

/// Several scenarios over one game set: the inputs are read once, the scenarios replayed in
/// parallel, each written to its own directory. Every scenario must read the same files.
pub fn replay_many(
    requests: &[ReplayRequest],
    progress: &dyn Progress,
) -> Result<Vec<ReplayOutcome>, RunError> {
    use rayon::prelude::*;
    let started = Instant::now();
    let prepared = requests
        .iter()
        .map(prepare)
        .collect::<Result<Vec<_>, _>>()?;
    let (first, first_files) = &prepared[0];
    let mut dirs: Vec<(PathBuf, &Scenario)> = Vec::new();
    for ((scenario, files), request) in prepared.iter().zip(requests) {
        let differs = [
            (files.games != first_files.games, "games"),
            (files.format != first_files.format, "format"),
            (files.month_1 != first_files.month_1, "month-1"),
            (files.start_list != first_files.start_list, "start list"),
            (files.players != first_files.players, "players"),
        ];
        if let Some((_, what)) = differs.iter().find(|(d, _)| *d) {
            return Err(RunError::DifferentData {
                first: first.file.clone(),
                other: scenario.file.clone(),
                what,
            });
        }
        let dir = output_dir(request, scenario);
        check_output(&dir, files)?;
        if let Some((_, other)) = dirs.iter().find(|(d, _)| *d == dir) {
            return Err(RunError::SameOutput {
                first: other.file.clone(),
                other: scenario.file.clone(),
                dir,
            });
        }
        dirs.push((dir, scenario));
    }
    progress.stage("reading");
    let skip_invalid = requests.iter().any(|r| r.skip_invalid);
    let stream = requests.iter().any(|r| r.stream);
    let loaded = load(first_files, skip_invalid, stream, progress)?;
    let read = started.elapsed().as_secs_f64();
    progress.stage("replaying");
    prepared
        .into_par_iter()
        .zip(requests)
        .map(|((scenario, _), request)| {
            // A dataset is read by each scenario as it goes: each has its own reader.
            replay_and_write(
                request,
                scenario,
                &loaded.inputs,
                loaded.source.clone(),
                loaded.report.clone(),
                (started, read),
                &Quiet,
            )
        })
        .collect()
}

fn output_dir(request: &ReplayRequest, scenario: &Scenario) -> PathBuf {
    request
        .out
        .clone()
        .unwrap_or_else(|| Path::new("output").join(&scenario.name))
}

/// A starting list that names its month must be the list the run starts from: replayed from
/// another month, its players' ratings would stand for a list they were never on, and the games
/// between the two months would only be counted as outside the lists computed.
fn check_start_month(scenario: &Scenario, start: &crate::model::StartList) -> Result<(), RunError> {
    let Some(listed) = start.month else {
        return Ok(());
    };
    let expected = scenario.start_list_month();
    if listed == expected {
        return Ok(());
    }
    let calendar = scenario.calendar;
    let after = (listed.index() + 1..=calendar.end.index())
        .map(Month::from_index)
        .find(|&m| scenario.timeline.has_list_in(m))
        .filter(|_| listed >= calendar.start);
    Err(RunError::StartMonth {
        file: start.source.clone(),
        listed,
        start: expected,
        from: scenario.run.from,
        remedy: after.map_or_else(String::new, |m| {
            format!("replay from the list after it (--from {m}), or ")
        }),
    })
}

/// Refuses, before anything is read, an output directory the run could not replace, or one inside
/// the games dataset it reads.
fn check_output(dir: &Path, files: &InputFiles) -> Result<(), RunError> {
    check_destination(dir, OutputKind::Run)?;
    if ingest::is_dataset(&files.games) && resolved(dir).starts_with(resolved(&files.games)) {
        return Err(RunError::OutInsideInput {
            out: dir.to_path_buf(),
            dataset: files.games.clone(),
        });
    }
    Ok(())
}

/// With `--skip-invalid`, the games the scenario's calendar places on no list are left out and
/// counted as invalid rows are (a PGN collection reaches back decades before a shipped scenario's
/// calendar); `None` when every game is inside it.
fn within_calendar(
    scenario: &Scenario,
    inputs: &replay::Inputs,
    report: &mut IngestReport,
) -> Result<Option<replay::Inputs>, IngestError> {
    let games = &inputs.games;
    let outside = replay::outside_calendar(scenario, games);
    if outside.is_empty() {
        return Ok(None);
    }
    let mut skips = ingest::Skips {
        skip_invalid: true,
        counts: std::mem::take(&mut report.skipped),
    };
    let mut keep = vec![true; games.len()];
    for &i in &outside {
        let (column, value) = games.when(i);
        let problem = format!(
            "outside the scenario's calendar, whose games are rated on the lists after {} and up to {} (widen [calendar] to keep them); got {value}",
            scenario.calendar.start, scenario.calendar.end
        );
        let row = IngestError::Row {
            file: games.source.clone(),
            place: format!("{} {}", games.row_word, games.source_row[i]),
            column: column.to_string(),
            problem,
        };
        skips.check::<()>(Err(row))?;
        keep[i] = false;
    }
    report.skipped = skips.counts;
    report.games_read -= outside.len();
    let rows: Vec<usize> = (0..games.len()).filter(|&i| keep[i]).collect();
    Ok(Some(replay::Inputs {
        games: games.select(&rows),
        players: inputs.players.clone(),
        info: inputs.info.clone(),
        start_list: inputs.start_list.clone(),
    }))
}

/// A run in which no game reached a list computed is a mistake to say, not a run of empty lists
/// to write: the file held no game, or the window missed them all.
fn nothing_rated(
    scenario: &Scenario,
    run: &Run,
    report: &IngestReport,
    source: &str,
) -> Result<(), RunError> {
    if run
        .summaries
        .iter()
        .any(|s| s.games > 0 || s.games_not_counted > 0)
    {
        return Ok(());
    }
    let (before, after) = (run.skipped.before_run, run.skipped.after_run);
    if before + after == 0 {
        return Err(no_game(report, source));
    }
    Err(RunError::NoGameInWindow {
        from: scenario.run.from,
        last: run.lists.last().copied().unwrap_or(scenario.run.from),
        before: counted(before as u64, "game"),
        after: thousands(after as u64),
    })
}

/// The games file held no game to replay: none at all, or none that `--skip-invalid` kept.
fn no_game(report: &IngestReport, source: &str) -> RunError {
    let skipped: usize = report.skipped.values().map(|(n, _)| n).sum();
    let why = if skipped > 0 {
        format!(
            "--skip-invalid left out every row ({})",
            counted(skipped as u64, "row")
        )
    } else {
        "it holds none".to_string()
    };
    RunError::EmptyGames {
        file: source.to_string(),
        why,
    }
}

fn replay_and_write(
    request: &ReplayRequest,
    mut scenario: Scenario,
    inputs: &replay::Inputs,
    source: Option<GameStream>,
    mut report: IngestReport,
    (started, read): (Instant, f64),
    progress: &dyn Progress,
) -> Result<ReplayOutcome, RunError> {
    if request.scenario.is_none() {
        let months = games_months(inputs, source.as_ref())
            .ok_or_else(|| no_game(&report, &inputs.games.source))?;
        scenario = plain(request, months)?;
        scenario.set_window(request.from, request.to)?;
    }
    if !request.force {
        check_start_month(&scenario, &inputs.start_list)?;
    }
    progress.stage("replaying");
    let kept = match source {
        None if request.skip_invalid => within_calendar(&scenario, inputs, &mut report)?,
        _ => None,
    };
    let inputs = kept.as_ref().unwrap_or(inputs);
    let dir = output_dir(request, &scenario);
    let options = WriteOptions { csv: request.csv };
    let mut writer = RunWriter::create(&dir, &inputs.players, &inputs.info, &options)?;
    // The lists are written as they are published, so the replay stage includes their writing.
    let steps = |step| progress.step(step);
    let run = match source {
        Some(mut source) => {
            let piece_games = request.piece_games.unwrap_or(replay::PIECE_GAMES);
            replay::run_streamed(
                &scenario,
                inputs,
                &mut source,
                piece_games,
                &mut writer,
                &steps,
            )?
        }
        None => replay::run(&scenario, inputs, &mut writer, &steps)?,
    };
    nothing_rated(&scenario, &run, &report, &inputs.games.source)?;
    let replayed = started.elapsed().as_secs_f64();
    // The resolved scenario states the window actually run, so that it repeats the run alone.
    scenario.run.to = run.lists.last().copied().filter(|_| run.lists.len() > 1);
    progress.stage("writing");
    let mut timing = Timing {
        read_seconds: read,
        replay_seconds: replayed - read,
        lists_seconds: 0.0,
        games_seconds: 0.0,
        threads: request.threads,
    };
    let written = writer.finish(&scenario, &run, &report, &mut timing)?;
    let times = StageTimes {
        read,
        replay: replayed - read,
        write: started.elapsed().as_secs_f64() - replayed,
    };
    Ok(ReplayOutcome {
        scenario,
        run,
        report,
        written,
        times,
    })
}
