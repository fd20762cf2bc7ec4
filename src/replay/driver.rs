//! The one run loop every rating system shares. It owns the run: the starting list (list 0), each
//! list's summary, the sink, progress, and the columns every list computes the same way (`new`,
//! `change`, the list's counts); an [`Engine`] only says what happens in a period.
//!
//! The run's semantics, the same for every system (docs/architecture.md):
//! - list 0 is the starting list, in force before the first list rated: the players the system
//!   starts with, at the ratings it starts them at; nobody on it is new, nobody has a change, and
//!   it has no games. It is written to `lists.parquet` with its own month, and `summary.json`
//!   gives it as `starting_list`, not among the lists rated.
//! - A player is new on the first list after list 0 that shows them, and again on a list where the
//!   engine gives them a first rating (FIDE's players delisted below the floor and rated again).
//! - `change` is the change from the player's rating on the previous list, empty when they were
//!   not on it.
//! - A list after list 0 holds only the rows that changed (`lists.rs`): an engine publishes a
//!   superset of them, and the driver keeps those that say something new.

use crate::model::{Games, Month};

use super::fide::FideSnapshot;
use super::list_games::{ListPieces, Period, Periods};
use super::schedule::{Placement, Schedule};
use super::{
    CurrentList, ListRows, ListSummary, PeriodRecords, Published, PublishedGames, RatedGames,
    ReplayError, Run, Sink, Step,
};

/// A replay stopped before a list, to be carried on under rules that differ from that list on
/// (`replay::Span::from`): everything the run loop and the engine carry from list to list.
#[derive(Clone)]
pub struct Snapshot {
    /// The last list rated and the first not.
    pub rated: Month,
    pub next: Month,
    t: usize,
    lists: Vec<Month>,
    current: CurrentList,
    summaries: Vec<ListSummary>,
    engine: FideSnapshot,
    /// The run's games as placed, and what placed them so (games held whole only).
    schedule: Option<(Schedule, Placement)>,
}

impl Snapshot {
    /// Whether every list it holds was rated before `month`: a replay whose rules first differ
    /// in `month` can carry on from it (from the latest such snapshot, it replays least).
    pub fn precedes(&self, month: Month) -> bool {
        self.rated < month
    }

    /// The engine's part, to build the engine that carries on.
    pub(super) fn engine(&self) -> &FideSnapshot {
        &self.engine
    }

    /// The lists of the run it was taken from.
    pub(super) fn lists(&self) -> &[Month] {
        &self.lists
    }

    /// Room for the lists' indices that the replays carrying on from this snapshot share, for as
    /// long as those replays run.
    pub fn shared_indices(&self) -> super::SharedIndices {
        super::SharedIndices::new(self.lists.len())
    }

    /// The run's schedule, for a scenario that places the games alike.
    pub(super) fn schedule_for(&self, placement: &Placement) -> Option<&Schedule> {
        self.schedule
            .as_ref()
            .filter(|(_, placed)| placed == placement)
            .map(|(schedule, _)| schedule)
    }
}

/// How much of a run the loop runs, and what it keeps for other runs.
#[derive(Clone, Copy)]
pub(super) struct Span<'s> {
    /// The last month read: no later list is computed.
    pub last: Option<Month>,
    /// Months before whose first list a snapshot goes to the sink, and what placed the games.
    pub snapshots: &'s [Month],
    pub placement: Option<&'s Placement>,
    /// Where the run carries on from.
    pub from: Option<&'s Snapshot>,
}

/// What happens in a period, for one family of rating systems.
pub(super) trait Engine {
    /// What the engine carries from list to list, for a run that carries on from here under
    /// other rules; `None` for the engines that cannot (only FIDE's regulations vary by month).
    fn snapshot(&self) -> Option<FideSnapshot> {
        None
    }

    /// Publishes the starting list into `rows` (list 0): `player`, `listed`, `rating` and the
    /// engine's own columns, every `new` false.
    fn start(&mut self, rows: &mut ListRows);

    /// Rates list `t`'s games into `out.games` (and what each player's period computed into
    /// `out.periods`, where the engine records it), then publishes list `t` into `out.rows`: in
    /// player order, at least every player whose row may have changed (who played, changed K or
    /// status, entered or left; `listed` false for one who left), with `player`, `rating` and the
    /// engine's own columns, `new` true only for a first rating this period. It counts the games
    /// and the delisted in `out.summary`.
    ///
    /// `alongside` is the run loop's own work on the previous list (its changes kept, the list
    /// handed to the sink), which touches nothing the engine does: the engine calls it once, on
    /// whichever thread its own work leaves idle.
    fn period(
        &mut self,
        t: usize,
        period: &Period<'_>,
        out: &mut ListOut,
        alongside: &mut Alongside<'_>,
    );

    /// Like `period`, from list `t`'s games read piece by piece (`pieces`), each piece's games
    /// handed to `games` once rated: `Ok(false)` when the engine rates a list only whole (then
    /// nothing was read).
    fn period_in_pieces(
        &mut self,
        _t: usize,
        _pieces: &mut ListPieces<'_, '_>,
        _out: &mut ListOut,
        _games: &mut dyn FnMut(&RatedGames, &Games) -> Result<(), ReplayError>,
    ) -> Result<bool, ReplayError> {
        Ok(false)
    }

    /// List `t` is published; `keeps(s)` says whether list `s` must still be kept for tournaments
    /// that started under it and are rated later.
    fn published(&mut self, _t: usize, _keeps: &dyn Fn(usize) -> bool) {}
}

/// The run loop's work on the previous list, which an engine runs beside its own (`period`).
pub(super) type Alongside<'a> = dyn FnMut() + Send + 'a;

/// One list as an engine fills it; the buffers are reused from list to list.
pub(super) struct ListOut {
    pub rows: ListRows,
    pub games: RatedGames,
    pub periods: PeriodRecords,
    pub summary: ListSummary,
}

impl ListOut {
    fn new(month: Month) -> ListOut {
        ListOut {
            rows: ListRows::default(),
            games: RatedGames::default(),
            periods: PeriodRecords::default(),
            summary: ListSummary::empty(month),
        }
    }

    /// Empties the buffers for list `month`.
    fn begin(&mut self, month: Month) {
        self.rows.begin();
        self.games.clear();
        self.periods.clear();
        self.summary = ListSummary::empty(month);
    }
}

/// What finishing a list reads and writes beside the engine: the list in force, the lists'
/// summaries, the sink and progress.
struct Finish<'d> {
    lists: &'d [Month],
    /// The lists computed, the starting list not counted.
    total: usize,
    current: &'d mut CurrentList,
    summaries: &'d mut Vec<ListSummary>,
    sink: &'d mut dyn Sink,
    progress: &'d (dyn Fn(Step) + Sync),
}

impl Finish<'_> {
    /// Finishes list `t` as the engine published it into `out`: keeps its changes, applying them
    /// to the list in force, and hands it to the sink with its games, which index `input`.
    fn list(&mut self, t: usize, out: &mut ListOut, input: &Games) -> Result<(), ReplayError> {
        out.summary.new = out.rows.keep_changes(t, self.current);
        out.summary.players = self.current.len();
        self.sink.publish(Published {
            lists: self.lists,
            t,
            rows: &out.rows,
            current: self.current,
            games: &out.games,
            periods: &out.periods,
            input,
        })?;
        if t > 0 {
            self.summaries.push(out.summary);
            (self.progress)(Step::Lists {
                done: t,
                total: self.total,
            });
        }
        Ok(())
    }
}

/// Runs `engine` over the periods of `periods` for a pool of `players`, handing each list to
/// `sink` as it is published: from the start or from `span.from` (whose engine `engine` is), up
/// to `span.last` (the starting list always), a snapshot handed to the sink before the first list
/// in or after each of `span.snapshots`.
///
/// When the games are held whole, each list is finished (its changes kept, the list handed to the
/// sink) while the engine rates the next one, in two sets of buffers taken in turn; the sink
/// still sees the lists one after the other, in order.
pub(super) fn drive(
    engine: &mut dyn Engine,
    players: usize,
    periods: &mut Periods<'_>,
    span: Span<'_>,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(Step) + Sync),
) -> Result<Run, ReplayError> {
    let lists = periods.lists().to_vec();
    let computed = span.last.map_or(lists.len(), |last| {
        lists.partition_point(|&m| m <= last).max(1)
    });
    let (first, mut current, mut summaries) = match span.from {
        Some(from) => (from.t, from.current.clone(), from.summaries.clone()),
        None => (0, CurrentList::new(players), Vec::with_capacity(computed)),
    };
    let mut outs = [ListOut::new(lists[0]), ListOut::new(lists[0])];
    let held = periods.held_input();
    // A list rated whose finishing waits for the next list's rating, and the games it indexes
    // (games held whole only: they are then every list's).
    let mut pending: Option<(usize, &Games)> = None;
    let no_games = Games::default();
    let mut finish = Finish {
        lists: &lists,
        total: computed - 1,
        current: &mut current,
        summaries: &mut summaries,
        sink,
        progress,
    };
    for t in first..computed {
        let asked = |&m: &Month| t > 0 && lists[t - 1] < m && m <= lists[t];
        if span.snapshots.iter().any(asked) {
            if let Some((p, input)) = pending.take() {
                finish.list(p, &mut outs[p % 2], input)?;
            }
            if let Some(engine) = engine.snapshot() {
                finish.sink.keep(Snapshot {
                    rated: lists[t - 1],
                    next: lists[t],
                    t,
                    lists: lists.clone(),
                    current: finish.current.clone(),
                    summaries: finish.summaries.clone(),
                    engine,
                    schedule: periods.schedule().cloned().zip(span.placement.cloned()),
                });
            }
        }
        let [even, odd] = &mut outs;
        let (out, previous) = if t % 2 == 0 { (even, odd) } else { (odd, even) };
        out.begin(lists[t]);
        // List 0 is the starting list; every later one is rated from its period's games, whole
        // or, when the source gives a large list in pieces and the engine can, piece by piece.
        let in_pieces = match periods
            .pieces(t, progress)
            .filter(|_| t > 0 && finish.sink.takes_pieces())
        {
            Some(mut pieces) => {
                engine.period_in_pieces(t, &mut pieces, out, &mut |games, input| {
                    finish.sink.publish_games(PublishedGames { games, input })
                })?
            }
            _ => false,
        };
        // A list of games held whole is finished once the next is rated; any other while its
        // games are at hand.
        match t {
            0 => {
                engine.start(&mut out.rows);
                // The columns the engine gives its lists, the same in both sets of buffers.
                previous.rows.with_exact = out.rows.with_exact;
                previous.rows.with_deviation = out.rows.with_deviation;
                finish.list(t, out, &no_games)?;
            }
            _ if in_pieces => finish.list(t, out, &no_games)?,
            _ => {
                let period = periods.get(t)?;
                let mut previous_finished = Ok(());
                let mut waiting = pending.take();
                engine.period(t, &period, out, &mut || {
                    if let Some((p, input)) = waiting.take() {
                        previous_finished = finish.list(p, previous, input);
                    }
                });
                previous_finished?;
                match held {
                    Some(input) => pending = Some((t, input)),
                    None => finish.list(t, out, period.input)?,
                }
            }
        }
        engine.published(t, &|s| periods.keeps(s, t));
    }
    if let Some((p, input)) = pending {
        finish.list(p, &mut outs[p % 2], input)?;
    }
    Ok(Run {
        skipped: periods.skipped(),
        scheduling_seconds: periods.scheduling_seconds(),
        lists: lists[..computed].to_vec(),
        summaries,
    })
}

impl ListSummary {
    /// A list's counts before anything is counted.
    pub(super) fn empty(month: Month) -> ListSummary {
        ListSummary {
            month,
            players: 0,
            new: 0,
            delisted: 0,
            games: 0,
            games_not_counted: 0,
        }
    }
}
