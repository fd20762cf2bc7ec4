//! Running a study: each (world, seed)'s world generated once and shared by every candidate on it
//! (common random numbers), the next one generated while this one's replays run, the baseline
//! replayed first on each (the measures that compare with it read its lists, the candidates carry
//! on from its snapshots), then the other candidates in parallel, each (world, candidate, seed) a
//! replay in memory whose figures are appended to the journal as it arrives. The rows' order of
//! arrival varies with the threads; the results never do: each row depends only on its world,
//! candidate and seed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use crate::keys::{Domain, KeyValue, Problem};
use crate::model::Month;
use crate::replay::Inputs;
use crate::scenario::Scenario;
use crate::simulate::cmaes::Cmaes;
use crate::simulate::{
    self, Baseline, Compare, Kept, Observation, Observed, Replica, Share, SimulateError, Truth,
};

use super::candidates::{self, Candidate, Kind};
use super::error::{ResumeError, SweepError};
use super::journal::{self, Header, Journal, JournalError, Row, WorldLine};
use super::stats::Table;
use super::study::{Design, Input, Study};

/// How a run goes.
#[derive(Clone, Debug)]
pub struct Options {
    pub out: PathBuf,
    /// (index from 1, count): evaluate this share of the (world, seed, candidate) triples.
    pub shard: Option<(u32, u32)>,
    /// Go on with the journal in `out`.
    pub resume: bool,
    /// Replay every candidate from the start (`Plan::whole_replays`).
    pub whole_replays: bool,
}

/// Progress for a terminal.
pub trait Progress: Sync {
    fn stage(&self, _text: &str) {}
    /// Rows done of all, and the best candidate so far.
    fn rows(&self, _done: usize, _total: usize, _best: &str) {}
}

/// No progress shown.
pub struct Quiet;

impl Progress for Quiet {}

/// What a run evaluated.
pub struct Outcome {
    pub candidates: Vec<Candidate>,
    /// Every row of the run (those resumed from the journal included), by world (in the study's
    /// order), then candidate, then seed.
    pub rows: Vec<Row>,
    pub worlds: Vec<WorldLine>,
    /// Rows taken from the journal instead of evaluated.
    pub resumed: usize,
    /// Rows of points that set the base scenario's own values, taken from the baseline's replay.
    pub reused: usize,
    /// Replays that carried on from the baseline's snapshot before the first list they could
    /// differ on, instead of replaying what they share with it.
    pub carried_on: usize,
    /// Points a space-filling design drew twice (after rounding to the keys' grains), dropped.
    pub repeated: usize,
    /// Whether this run covers every (world, seed, candidate) triple (not a shard's share).
    pub complete: bool,
    /// The journal's last line had been cut short by an interruption and was dropped.
    pub cut_short: bool,
    pub seconds: f64,
}

/// What a candidate replays, resolved and narrowed to the input.
struct Ready {
    candidate: Candidate,
    scenario: Scenario,
    /// The first month its replay can differ from the baseline's (`Scenario::first_difference`):
    /// it carries on from the baseline's snapshot before the first list from then on.
    differs_from: Option<Month>,
}

/// What an optimising design keeps of each (world, seed) for the points it draws later: the inputs,
/// the baseline's lists and its snapshots.
type Shared = (Source, Option<Baseline>, Vec<Kept>);

/// One (world, seed)'s inputs.
struct Source {
    /// The world's place in the study's order.
    world: usize,
    seed: u64,
    inputs: Inputs,
    truth: Truth,
    /// A generated world's line for the journal, until its turn journals it.
    line: Option<WorldLine>,
}

/// A (world, seed) to evaluate: its candidates still to replay, and whether the baseline's own
/// row is among this run's.
struct Turn<'r> {
    world: usize,
    seed: u64,
    pending: Vec<&'r Ready>,
    wanted: bool,
}

/// A row's place: (world in the study's order, candidate, seed), the order of the results.
type Key = (usize, u32, u64);

/// A run in progress: the journal, the rows so far and the progress.
struct Sweep<'a> {
    study: &'a Study,
    /// The rows' `world` of each world, in the study's order.
    names: Vec<String>,
    /// What the replays write, behind one lock.
    ledger: Mutex<Ledger>,
    progress: &'a dyn Progress,
    /// The world's scale (`None`: the user's games).
    scale: Option<f64>,
    /// How many figures a row has.
    columns: usize,
}

/// A study's ledger: its journal, the rows kept, how many there will be, the leader so far and
/// how many rows were taken from the baseline's replay.
struct Ledger {
    journal: Journal,
    rows: BTreeMap<Key, Row>,
    total: usize,
    leader: Leader,
    reused: usize,
    /// Replays that carried on from the baseline's snapshot instead of starting over.
    carried_on: usize,
}

/// The (world, candidate, seed) triples of a shard: ordered by world, then seed, then candidate,
/// cut into `count` consecutive shares, so that a shard needs few (world, seed)s' generations.
pub fn shard_triples(
    candidates: &[u32],
    worlds: usize,
    seeds: &[u64],
    shard: Option<(u32, u32)>,
) -> Vec<Key> {
    let all: Vec<Key> = (0..worlds)
        .flat_map(|w| {
            seeds
                .iter()
                .flat_map(move |&s| candidates.iter().map(move |&c| (w, c, s)))
        })
        .collect();
    match shard {
        None => all,
        Some((index, count)) => {
            let (n, i, k) = (all.len(), index as usize - 1, count as usize);
            all[i * n / k..(i + 1) * n / k].to_vec()
        }
    }
}

/// What to evaluate: candidates on the study's worlds and these seeds at a scale, into a journal.
pub struct Plan {
    pub candidates: Vec<Candidate>,
    pub seeds: Vec<u64>,
    /// A world's scale (`None`: the user's games).
    pub scale: Option<f64>,
    pub journal: PathBuf,
    pub shard: Option<(u32, u32)>,
    pub resume: bool,
    /// Whether the design's optimiser adds candidates (the search; not a verification).
    pub optimise: bool,
    /// Every candidate replayed from the start, none carrying on from the baseline's snapshots
    /// (the same results, slower: for checking that they are the same).
    pub whole_replays: bool,
}

/// Runs a study's search: its candidates (and, for an optimising design, those the optimiser
/// chooses) on its seeds.
pub fn run(
    study: &Study,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Outcome, SweepError> {
    let (candidates, repeated) = candidates::all(study);
    let optimise = matches!(study.design, Design::Optimise { .. });
    if options.shard.is_some() && optimise {
        return Err(SweepError::OptimiseInShards);
    }
    if let Some((index, count)) = options.shard {
        let triples =
            study.input.world_names().len() * study.input.seeds().len() * candidates.len();
        if triples < count as usize {
            return Err(SweepError::MoreShardsThanTriples {
                index,
                count,
                triples,
            });
        }
    }
    let plan = Plan {
        candidates,
        seeds: study.input.seeds(),
        scale: match &study.input {
            Input::World { scale, .. } => Some(*scale),
            Input::Games { .. } => None,
        },
        journal: options.out.join(journal::FILE),
        shard: options.shard,
        resume: options.resume,
        optimise,
        whole_replays: options.whole_replays,
    };
    let mut outcome = execute(study, plan, progress)?;
    outcome.repeated = repeated;
    Ok(outcome)
}

/// Evaluates a plan: each (world, seed)'s world generated once (the next beside this one's
/// replays), the baseline first, then the others in parallel.
pub fn execute(study: &Study, plan: Plan, progress: &dyn Progress) -> Result<Outcome, SweepError> {
    let started = Instant::now();
    let start = start_month(study);
    let ready = resolve(study, &plan.candidates, start)?;
    let ids: Vec<u32> = plan.candidates.iter().map(|c| c.id).collect();
    let names = study.input.world_names();
    let triples: std::collections::HashSet<Key> =
        shard_triples(&ids, names.len(), &plan.seeds, plan.shard)
            .into_iter()
            .collect();
    let header = header(study, &plan);
    let (journal, resumed_rows, cut_short) =
        open_journal(&plan.journal, &header, &study.domains(), plan.resume)?;
    check_resumed(&resumed_rows, &plan.candidates)?;
    let resumed = resumed_rows.len();
    let mut leader = Leader::new(study);
    for r in &resumed_rows {
        leader.add(r);
    }
    let resumed_rows = resumed_rows
        .into_iter()
        .map(|r| Ok((key(&names, &r)?, r)))
        .collect::<Result<_, SweepError>>()?;
    let sweep = Sweep {
        study,
        names,
        ledger: Mutex::new(Ledger {
            journal,
            rows: resumed_rows,
            total: triples.len(),
            leader,
            reused: 0,
            carried_on: 0,
        }),
        progress,
        scale: plan.scale,
        columns: study.columns().len(),
    };
    let mut worlds = Vec::new();
    let mut games = match &study.input {
        Input::Games {
            files,
            skip_invalid,
        } => {
            progress.stage("reading the games");
            Some(crate::ingest::read_inputs(files, *skip_invalid)?.0)
        }
        Input::World { .. } => None,
    };
    let turns: Vec<Turn> = (0..sweep.names.len())
        .flat_map(|w| plan.seeds.iter().map(move |&seed| (w, seed)))
        .map(|(w, seed)| Turn {
            world: w,
            seed,
            pending: ready
                .iter()
                .filter(|r| {
                    let id = r.candidate.id;
                    triples.contains(&(w, id, seed)) && !sweep.done((w, id, seed))
                })
                .collect(),
            wanted: triples.contains(&(w, 0, seed)),
        })
        .filter(|turn| !turn.pending.is_empty() || plan.optimise)
        .collect();
    let mut kept: Vec<Shared> = Vec::new();
    // With more than one thread the next (world, seed)'s world is generated beside this one's
    // replays: generation is mostly one thread's work, and the replays fill the other cores
    // meanwhile (two worlds are then held at once). With one thread it would only add memory.
    let overlap = rayon::current_num_threads() > 1;
    let mut next = match turns.first() {
        Some(turn) => Some(sweep.source(turn, &mut games)?),
        None => None,
    };
    for (i, turn) in turns.iter().enumerate() {
        let mut source = next
            .take()
            .expect("each turn's source is made before its turn");
        sweep.journal_world(&mut source, &mut worlds)?;
        let mut generate_next = || {
            turns
                .get(i + 1)
                .map(|t| sweep.source(t, &mut games))
                .transpose()
        };
        let replay_this = || sweep.turn(&ready[0], turn, &source, &plan, start);
        let (generated, replayed) = if overlap {
            rayon::join(generate_next, replay_this)
        } else {
            let replayed = replay_this()?;
            (generate_next(), Ok(replayed))
        };
        let (baseline, snapshots) = replayed?;
        next = generated?;
        if plan.optimise {
            kept.push((source, baseline, snapshots));
        }
    }
    let mut candidates = plan.candidates;
    if plan.optimise {
        candidates = sweep.optimise(candidates, &kept, (&ready[0].scenario, start))?;
    }
    let Ledger {
        journal,
        rows,
        reused,
        carried_on,
        ..
    } = sweep.ledger.into_inner().expect(POISONED);
    drop(journal);
    std::fs::rename(journal::partial(&plan.journal), &plan.journal).map_err(|source| {
        JournalError::Write {
            path: plan.journal.clone(),
            source,
        }
    })?;
    let rows: Vec<Row> = rows.into_values().collect();
    Ok(Outcome {
        complete: plan.shard.is_none(),
        cut_short,
        candidates,
        rows,
        worlds,
        resumed,
        reused,
        carried_on,
        repeated: 0,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The baseline's scenario as the study replays it (narrowed to its worlds' starting list).
pub fn baseline_scenario(study: &Study) -> Result<Scenario, SweepError> {
    let (candidates, _) = candidates::all(study);
    let baseline = ready_candidate(study, &candidates[0], start_month(study));
    Ok(baseline.map_err(SweepError::Candidates)?.scenario)
}

/// Where an optimising design's points can first differ from the baseline, for its snapshots: a
/// probe at each end of each parameter's range (the others at their middle) and one at the middle.
/// A point that differs elsewhere carries on from the latest snapshot before its month.
fn probe_months(study: &Study, baseline: &Scenario, start: Option<Month>) -> Vec<Month> {
    let dims = study.parameters.len();
    let mut probes = vec![vec![0.5; dims]];
    for d in 0..dims {
        for end in [0.0, 1.0] {
            let mut x = vec![0.5; dims];
            x[d] = end;
            probes.push(x);
        }
    }
    let mut points = Vec::new();
    for x in probes {
        let values = study.parameters.iter().zip(&x);
        candidates::add_point(
            &mut points,
            values.map(|(p, &u)| p.at_fraction(u)).collect(),
        );
    }
    let mut months: Vec<Month> = points
        .iter()
        .filter_map(|c| ready_candidate(study, c, start).ok())
        .filter_map(|r| baseline.first_difference(&r.scenario))
        .collect();
    months.sort();
    months.dedup();
    months
}

/// The months before which the baseline's replay keeps a snapshot: each month from which a
/// candidate's rules differ, once. A candidate that differs from the first list gains nothing and
/// replays whole.
fn snapshot_months(candidates: &[&Ready]) -> Vec<Month> {
    let mut months: Vec<Month> = candidates.iter().filter_map(|r| r.differs_from).collect();
    months.sort();
    months.dedup();
    months
}

/// The month of the worlds' starting list (the study refuses worlds that start in different
/// months), to which every scenario is narrowed; `None` for the user's games, which run as their
/// scenarios say.
fn start_month(study: &Study) -> Option<Month> {
    study.input.worlds().first().map(|w| w.settings.start)
}

/// A row's place in the results, by its world's place in the study's order.
fn key(names: &[String], row: &Row) -> Result<Key, SweepError> {
    let world =
        names
            .iter()
            .position(|n| *n == row.world)
            .ok_or_else(|| ResumeError::OtherWorld {
                candidate: row.candidate,
                world: row.world.clone(),
                worlds: names.to_vec(),
            })?;
    Ok((world, row.candidate, row.seed))
}

/// Every candidate's scenario, resolved before any replay: every problem at once.
fn resolve(
    study: &Study,
    candidates: &[Candidate],
    start: Option<Month>,
) -> Result<Vec<Ready>, SweepError> {
    let mut problems = Vec::new();
    let mut ready = Vec::new();
    for c in candidates {
        match ready_candidate(study, c, start) {
            Ok(r) => ready.push(r),
            Err(mut p) => problems.append(&mut p),
        }
    }
    if !problems.is_empty() {
        return Err(SweepError::Candidates(problems));
    }
    let differs: Vec<Option<Month>> = ready
        .iter()
        .map(|r| ready[0].scenario.first_difference(&r.scenario))
        .collect();
    for (r, differs_from) in ready.iter_mut().zip(differs) {
        r.differs_from = differs_from;
    }
    Ok(ready)
}

fn ready_candidate(
    study: &Study,
    c: &Candidate,
    start: Option<Month>,
) -> Result<Ready, Vec<Problem>> {
    let described = |mut problems: Vec<Problem>| {
        for p in &mut problems {
            p.message = format!(
                "candidate {} ({}): {}",
                c.id,
                c.values_text(study),
                p.message
            );
        }
        problems
    };
    let scenario = c.scenario(study).map_err(described)?;
    let scenario = match start {
        Some(month) => scenario.starting_from(month).map_err(|e| match e {
            crate::scenario::ScenarioError::Invalid(p) => described(p),
            other => vec![Problem {
                file: study.file.clone(),
                path: String::new(),
                message: other.to_string(),
            }],
        })?,
        None => scenario,
    };
    Ok(Ready {
        candidate: c.clone(),
        scenario,
        differs_from: None,
    })
}

/// The journal's header for this study and plan.
fn header(study: &Study, plan: &Plan) -> Header {
    Header {
        scale: plan.scale,
        seeds: plan.seeds.clone(),
        shard: plan.shard.unwrap_or((1, 1)),
        ..search_header(study)
    }
}

/// The header of a study's search on one machine.
pub fn search_header(study: &Study) -> Header {
    Header {
        elosim: env!("CARGO_PKG_VERSION").into(),
        study: study.name.clone(),
        file: study.file.display().to_string(),
        fingerprint: study.fingerprint.clone(),
        worlds: study
            .input
            .worlds()
            .iter()
            .map(|w| w.settings.name.clone())
            .collect(),
        scale: match &study.input {
            Input::World { scale, .. } => Some(*scale),
            Input::Games { .. } => None,
        },
        seeds: study.input.seeds(),
        shard: (1, 1),
        parameters: study
            .parameters
            .iter()
            .map(|p| p.path.to_string())
            .collect(),
        columns: study
            .columns()
            .into_iter()
            .map(|(name, _, _)| name)
            .collect(),
    }
}

/// The journal to append to, the rows it already holds (with `--resume`), and whether its last
/// line was cut short. An unfinished journal is never overwritten: without `--resume` it is
/// refused; with it, it must be this run's (the same study, inputs, scale, seeds and shard).
fn open_journal(
    path: &Path,
    header: &Header,
    domains: &[Domain],
    resume: bool,
) -> Result<(Journal, Vec<Row>, bool), SweepError> {
    let partial = journal::partial(path);
    if partial.exists() {
        let (found, rows) = journal::header(&partial)?;
        if !resume {
            return Err(ResumeError::Unfinished {
                path: partial,
                rows,
                run: describe_header(&found),
            }
            .into());
        }
        refuse_other_run(&partial, &found, header)?;
        let (read, kept) = journal::read(&partial, domains)?;
        return Ok((
            Journal::append(&partial, kept)?,
            read.rows,
            read.cut_short.is_some(),
        ));
    }
    if resume && path.exists() {
        // A finished run resumed: its rows are all there, and the journal is finished again at
        // the end. Only this run's journal is taken over.
        refuse_other_run(path, &journal::header(path)?.0, header)?;
        std::fs::rename(path, &partial).map_err(|source| JournalError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        let (read, kept) = journal::read(&partial, domains)?;
        return Ok((
            Journal::append(&partial, kept)?,
            read.rows,
            read.cut_short.is_some(),
        ));
    }
    // Nothing to resume (a shard restarted before its first row, say): start.
    Ok((Journal::create(&partial, header)?, Vec::new(), false))
}

/// A journal of another run is not resumed: says which of its fields differ.
fn refuse_other_run(path: &Path, found: &Header, wanted: &Header) -> Result<(), SweepError> {
    let differences = found.differences(wanted);
    if differences.is_empty() {
        return Ok(());
    }
    Err(ResumeError::OtherRun {
        path: path.to_path_buf(),
        run: describe_header(found),
        differences: differences.into_iter().map(String::from).collect(),
    }
    .into())
}

fn describe_header(h: &Header) -> String {
    format!(
        "study {:?} ({}, elosim {}, shard {}/{}, seeds {:?})",
        h.study, h.file, h.elosim, h.shard.0, h.shard.1, h.seeds
    )
}

/// Rows resumed must be of the candidates the study now has, with the same values.
fn check_resumed(rows: &[Row], candidates: &[Candidate]) -> Result<(), SweepError> {
    for r in rows {
        if let Some(c) = candidates.iter().find(|c| c.id == r.candidate) {
            if c.values != r.values || c.label() != r.label {
                return Err(ResumeError::OtherCandidate {
                    candidate: r.candidate,
                    label: r.label.clone(),
                }
                .into());
            }
        }
    }
    Ok(())
}

impl Sweep<'_> {
    fn done(&self, key: Key) -> bool {
        self.ledger().rows.contains_key(&key)
    }

    /// A (world, seed)'s world, generated (and its line journaled), or the user's games.
    fn source(&self, turn: &Turn, games: &mut Option<Inputs>) -> Result<Source, SweepError> {
        let (w, seed) = (turn.world, turn.seed);
        match (&self.study.input, games.take()) {
            (Input::World { worlds: all, .. }, _) => {
                let world = &all[w];
                let scale = self.scale.unwrap_or(1.0);
                self.progress.stage(&format!(
                    "generating the world {} of seed {seed}",
                    self.names[w]
                ));
                let needs = simulate::Needs::of(&self.study.measures);
                let settings = world
                    .settings
                    .clone()
                    .sized(scale, seed)
                    .map_err(|e| SweepError::Simulate(SimulateError::Settings(e)))?;
                let replica = Replica::generate(&settings, seed, &needs)?;
                let line = WorldLine {
                    world: self.names[w].clone(),
                    seed,
                    games: replica.games,
                    seconds: replica.seconds,
                };
                Ok(Source {
                    world: w,
                    seed,
                    inputs: replica.inputs,
                    truth: replica.truth,
                    line: Some(line),
                })
            }
            (Input::Games { .. }, Some(inputs)) => Ok(Source {
                world: w,
                seed,
                inputs,
                truth: Truth::default(),
                line: None,
            }),
            (Input::Games { .. }, None) => {
                unreachable!("one history has one source: its games are read once and taken once")
            }
        }
    }

    /// Journals a generated world's line when its turn begins (not when it was generated, a turn
    /// earlier: an interrupted turn would leave the next world journaled, and counted twice once
    /// resumed).
    fn journal_world(
        &self,
        source: &mut Source,
        worlds: &mut Vec<WorldLine>,
    ) -> Result<(), SweepError> {
        if let Some(line) = source.line.take() {
            self.ledger().journal.world(&line)?;
            worlds.push(line);
        }
        Ok(())
    }

    fn ledger(&self) -> std::sync::MutexGuard<'_, Ledger> {
        self.ledger.lock().expect(POISONED)
    }

    /// One (world, seed)'s turn: the baseline replayed (keeping the snapshots its candidates
    /// carry on from), then the pending candidates; returns the baseline's lists and snapshots.
    fn turn(
        &self,
        baseline: &Ready,
        turn: &Turn,
        source: &Source,
        plan: &Plan,
        start: Option<Month>,
    ) -> Result<(Option<Baseline>, Vec<Kept>), SweepError> {
        let others: Vec<&Ready> = turn
            .pending
            .iter()
            .copied()
            .filter(|r| r.candidate.id != 0)
            .collect();
        let keep = match (plan.whole_replays, plan.optimise) {
            (true, _) => Vec::new(),
            (false, false) => snapshot_months(&others),
            (false, true) => probe_months(self.study, &baseline.scenario, start),
        };
        let (lists, snapshots) = self.baseline(baseline, source, turn.wanted, &keep)?;
        self.evaluate(&others, source, lists.as_ref(), &snapshots)?;
        Ok((lists, snapshots))
    }

    /// Replays the baseline on a (world, seed) where its row is wanted, other candidates compare
    /// with its lists or carry on from its snapshots (taken before the first list in or after
    /// each of `keep`); returns the lists they compare with and the snapshots.
    fn baseline(
        &self,
        baseline: &Ready,
        source: &Source,
        wanted: bool,
        keep: &[Month],
    ) -> Result<(Option<Baseline>, Vec<Kept>), SweepError> {
        let compared = simulate::Needs::of(&self.study.measures).baseline();
        let pending = wanted && !self.done((source.world, 0, source.seed));
        if !compared && !pending && keep.is_empty() {
            return Ok((None, Vec::new()));
        }
        let share = Share { keep, from: None };
        let (row, observation) = self.replay(baseline, source, Compare::Record, share)?;
        if pending {
            self.record(row)?;
        }
        Ok((observation.baseline, observation.kept))
    }

    /// Evaluates candidates on one (world, seed), in parallel, each carrying on from the
    /// baseline's snapshot (`kept`) before the first list it can differ on, where there is one.
    fn evaluate(
        &self,
        candidates: &[&Ready],
        source: &Source,
        baseline: Option<&Baseline>,
        kept: &[Kept],
    ) -> Result<(), SweepError> {
        let base = self
            .ledger()
            .rows
            .get(&(source.world, 0, source.seed))
            .cloned();
        let shared: Vec<_> = kept.iter().map(|k| k.replay.shared_indices()).collect();
        candidates.par_iter().try_for_each(|ready| {
            // A point that sets the base scenario's own values is the baseline's replay again:
            // its row is the baseline's, figure for figure.
            if let Some(base) = base.as_ref().filter(|b| b.values == ready.candidate.values) {
                self.ledger().reused += 1;
                return self.record(Row {
                    candidate: ready.candidate.id,
                    label: ready.candidate.label(),
                    seconds: 0.0,
                    measure_seconds: 0.0,
                    ..base.clone()
                });
            }
            let compare = match baseline {
                Some(b) => Compare::With(b),
                None => Compare::Nothing,
            };
            let from = ready.differs_from.and_then(|m| {
                let before = kept.iter().zip(&shared);
                let before = before.filter(|(k, _)| k.replay.precedes(m));
                before.max_by_key(|(k, _)| k.replay.rated)
            });
            let share = Share { keep: &[], from };
            let (row, observation) = self.replay(ready, source, compare, share)?;
            if observation.resumed {
                self.ledger().carried_on += 1;
            }
            self.record(row)
        })
    }

    /// One replay of one candidate on one (world, seed): its row, and what the replay observed.
    fn replay(
        &self,
        ready: &Ready,
        source: &Source,
        compare: Compare<'_>,
        share: Share<'_>,
    ) -> Result<(Row, Observation), SweepError> {
        let measures = &self.study.measures;
        let mut observed: Vec<Observed> = measures.iter().map(|m| m.kind.empty()).collect();
        let observation = simulate::observe(
            &ready.scenario,
            &source.inputs,
            &source.truth,
            measures,
            &mut observed,
            compare,
            share,
        )?;
        let figures: Vec<Option<f64>> = measures
            .iter()
            .zip(&observed)
            .flat_map(|(m, o)| m.columns(o, self.scale.unwrap_or(1.0)))
            .map(|f| f.value)
            .collect();
        assert_eq!(
            figures.len(),
            self.columns,
            "every measure gives as many figures as its columns"
        );
        let row = Row {
            world: self.names[source.world].clone(),
            candidate: ready.candidate.id,
            seed: source.seed,
            label: ready.candidate.label(),
            values: ready.candidate.values.clone(),
            figures,
            seconds: observation.seconds,
            measure_seconds: observation.measure_seconds,
        };
        Ok((row, observation))
    }

    /// Journals a row, keeps it, and shows the progress with the best candidate so far.
    fn record(&self, row: Row) -> Result<(), SweepError> {
        let key = key(&self.names, &row)?;
        let mut ledger = self.ledger();
        ledger.journal.row(&row)?;
        let best = ledger.leader.add(&row);
        ledger.rows.insert(key, row);
        self.progress.rows(ledger.rows.len(), ledger.total, &best);
        Ok(())
    }

    /// An optimising design: CMA-ES over the unit cube of the parameters' ranges, each candidate's
    /// objective the mean over the worlds and seeds of the weighted distances of its figures from
    /// their ideals; a point met again is not evaluated again.
    fn optimise(
        &self,
        mut candidates: Vec<Candidate>,
        sources: &[Shared],
        (baseline, start): (&Scenario, Option<Month>),
    ) -> Result<Vec<Candidate>, SweepError> {
        let Design::Optimise {
            budget,
            population,
            seed,
            step,
            minimise,
        } = &self.study.design
        else {
            return Ok(candidates);
        };
        let columns = self.study.columns();
        let weights: Vec<(usize, f64)> = minimise
            .iter()
            .filter_map(|(name, w)| Some((columns.iter().position(|(c, _, _)| c == name)?, *w)))
            .collect();
        // Start from the middle of the ranges: the baseline is evaluated anyway.
        let dims = self.study.parameters.len();
        let mut strategy = Cmaes::new(vec![0.5; dims], *step, *population, *seed);
        self.ledger().total = (candidates.len() + budget) * sources.len();
        strategy.minimise(*budget, 0, |_, asked| {
            let mut fresh = Vec::new();
            let ids = asked
                .iter()
                .map(|x| self.point(&mut candidates, x, (baseline, start), &mut fresh))
                .collect::<Result<Vec<u32>, _>>()?;
            for (source, lists, snapshots) in sources {
                let pending: Vec<&Ready> = fresh
                    .iter()
                    .filter(|r| !self.done((source.world, r.candidate.id, source.seed)))
                    .collect();
                self.evaluate(&pending, source, lists.as_ref(), snapshots)?;
            }
            self.objectives(&ids, &weights)
        })?;
        Ok(candidates)
    }

    /// The candidate at `x` in the unit cube of the ranges: one met before, or a new point (made
    /// ready in `fresh`, its rows resumed from the journal checked against its values).
    fn point(
        &self,
        candidates: &mut Vec<Candidate>,
        x: &[f64],
        (baseline, start): (&Scenario, Option<Month>),
        fresh: &mut Vec<Ready>,
    ) -> Result<u32, SweepError> {
        let values: Vec<KeyValue> = self
            .study
            .parameters
            .iter()
            .zip(x)
            .map(|(p, u)| p.at_fraction(*u))
            .collect();
        let wanted: Vec<Option<KeyValue>> = values.iter().cloned().map(Some).collect();
        if let Some(c) = candidates
            .iter()
            .find(|c| c.kind == Kind::Point && c.values == wanted)
        {
            return Ok(c.id);
        }
        candidates::add_point(candidates, values);
        let c = candidates[candidates.len() - 1].clone();
        let journaled: Vec<Row> = self
            .ledger()
            .rows
            .values()
            .filter(|r| r.candidate == c.id)
            .cloned()
            .collect();
        check_resumed(&journaled, std::slice::from_ref(&c))?;
        let mut ready = ready_candidate(self.study, &c, start).map_err(SweepError::Candidates)?;
        ready.differs_from = baseline.first_difference(&ready.scenario);
        fresh.push(ready);
        Ok(c.id)
    }

    /// Each candidate's objective: the weighted sum of its figures' mean distances from their
    /// ideals over the worlds and seeds (each world's mean over its seeds, averaged over the
    /// worlds, which have the same seeds); a candidate without a figure on a world counts as very
    /// bad.
    fn objectives(&self, ids: &[u32], weights: &[(usize, f64)]) -> Result<Vec<f64>, SweepError> {
        // By world, then candidate, then seed: each world's rows are consecutive.
        let kept: Vec<Row> = self.ledger().rows.values().cloned().collect();
        let goals: Vec<_> = self.study.columns().iter().map(|(_, g, _)| *g).collect();
        let tables: Vec<Table> = kept
            .chunk_by(|a, b| a.world == b.world)
            .map(|rows| Table::new(rows, goals.clone()))
            .collect();
        // Every world's rows, or the candidate counts as very bad.
        let complete = tables.len() == self.names.len();
        Ok(ids
            .iter()
            .map(|&id| {
                weights
                    .iter()
                    .map(|&(f, w)| {
                        let mean = super::stats::mean_of_all(tables.iter().map(|t| t.loss(id, f)))
                            .filter(|_| complete);
                        w * mean.unwrap_or(f64::MAX / 1e6)
                    })
                    .sum()
            })
            .collect())
    }
}

/// A ledger's lock is poisoned only by a panic on another thread, which the parallel loop then
/// carries to its caller.
const POISONED: &str = "a replay panicked on another thread while the ledger was held";

/// The best candidate so far by the rank figure's mean distance from its ideal over the worlds
/// and seeds done, kept row by row (ordered, so that each row costs a logarithm, not a scan of every row).
struct Leader {
    /// The rank figure's column and goal, its name.
    figure: Option<(usize, crate::simulate::Goal)>,
    name: String,
    /// Each candidate's sum of distances and seeds.
    sums: std::collections::HashMap<u32, (f64, usize)>,
    /// (mean distance in an order-keeping integer, candidate).
    order: std::collections::BTreeSet<(i64, u32)>,
}

/// An f64 as an integer in the same order (negative numbers included).
fn ordered(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

impl Leader {
    fn new(study: &Study) -> Leader {
        let columns = study.columns();
        Leader {
            figure: columns
                .iter()
                .position(|(c, _, _)| *c == study.rank)
                .map(|f| (f, columns[f].1)),
            name: study.rank.clone(),
            sums: Default::default(),
            order: Default::default(),
        }
    }

    /// Takes in a row; "best so far: candidate 12 (truth_gap.active.rms 21.300)".
    fn add(&mut self, row: &Row) -> String {
        let Some((f, goal)) = self.figure else {
            return String::new();
        };
        if let Some(loss) = row.figures[f].and_then(|v| goal.loss(v)) {
            let (sum, n) = self.sums.entry(row.candidate).or_default();
            if *n > 0 {
                self.order
                    .remove(&(ordered(*sum / *n as f64), row.candidate));
            }
            *sum += loss;
            *n += 1;
            self.order
                .insert((ordered(*sum / *n as f64), row.candidate));
        }
        self.order
            .first()
            .map(|&(_, c)| {
                let (sum, n) = self.sums[&c];
                format!(
                    "best so far: candidate {c} ({} {:.3})",
                    self.name,
                    sum / n as f64
                )
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::ordered;

    #[test]
    fn ordered_integers_keep_the_order_of_the_numbers() {
        let numbers = [-1e9, -2.5, -0.0, 0.0, 1e-300, 0.5, 3.0, f64::INFINITY];
        for pair in numbers.windows(2) {
            assert!(ordered(pair[0]) <= ordered(pair[1]), "{pair:?}");
        }
        assert!(ordered(-2.5) < ordered(-1.0) && ordered(1.0) < ordered(2.5));
    }
}
