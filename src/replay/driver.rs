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

use crate::model::{Games, Month};

use super::periods::{Period, Periods};
use super::{ListRows, ListSummary, PeriodRecords, Published, RatedGames, ReplayError, Run, Sink};

/// What happens in a period, for one family of rating systems.
pub(super) trait Engine {
    /// Publishes the starting list into `rows` (list 0): `player`, `rating` and the engine's own
    /// columns, every `new` false.
    fn start(&mut self, rows: &mut ListRows);

    /// Rates list `t`'s games into `out.games` (and what each player's period computed into
    /// `out.periods`, where the engine records it), then publishes list `t` into `out.rows`:
    /// `player`, `rating` and the engine's own columns, with `new` true only for a first rating
    /// this period. It counts the games and the delisted in `out.summary`.
    fn period(&mut self, t: usize, period: &Period<'_>, out: &mut ListOut);

    /// List `t` is published; `keeps(s)` says whether list `s` must still be kept for tournaments
    /// that started under it and are rated later.
    fn published(&mut self, _t: usize, _keeps: &dyn Fn(usize) -> bool) {}
}

/// One list as an engine fills it; the buffers are reused from list to list.
pub(super) struct ListOut {
    pub rows: ListRows,
    pub games: RatedGames,
    pub periods: PeriodRecords,
    pub summary: ListSummary,
}

/// Runs `engine` over every period of `periods` for a pool of `players`, handing each list to
/// `sink` as it is published.
pub(super) fn drive(
    engine: &mut dyn Engine,
    players: usize,
    periods: &mut Periods<'_>,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    let lists = periods.lists().to_vec();
    let mut summaries = Vec::with_capacity(lists.len().saturating_sub(1));
    let mut appearances = Appearances::new(players);
    let mut out = ListOut {
        rows: ListRows::default(),
        games: RatedGames::default(),
        periods: PeriodRecords::default(),
        summary: ListSummary::empty(lists[0]),
    };
    let no_games = Games::default();
    for t in 0..lists.len() {
        out.rows.begin();
        out.games.clear();
        out.periods.clear();
        out.summary = ListSummary::empty(lists[t]);
        // List 0 is the starting list; every later one is rated from its period's games.
        let period = match t {
            0 => {
                engine.start(&mut out.rows);
                None
            }
            _ => {
                let period = periods.get(t)?;
                engine.period(t, &period, &mut out);
                Some(period)
            }
        };
        (out.summary.players, out.summary.new) = appearances.finish(&mut out.rows, t);
        sink.publish(Published {
            lists: &lists,
            t,
            rows: &out.rows,
            games: &out.games,
            periods: &out.periods,
            input: period.as_ref().map_or(&no_games, |p| p.input),
        })?;
        engine.published(t, &|s| periods.keeps(s, t));
        if t > 0 {
            summaries.push(out.summary);
            progress(t, lists.len() - 1);
        }
    }
    Ok(Run {
        skipped: periods.skipped(),
        lists,
        summaries,
    })
}

/// Each player's last list and rating on it, for `new` and `change`.
struct Appearances {
    last_list: Vec<u32>,
    last_rating: Vec<i32>,
}

const NEVER: u32 = u32::MAX;

impl Appearances {
    fn new(players: usize) -> Appearances {
        Appearances {
            last_list: vec![NEVER; players],
            last_rating: vec![0; players],
        }
    }

    /// Completes list `t`'s rows (`new`, `change`, `starts`); returns its players and new players.
    fn finish(&mut self, rows: &mut ListRows, t: usize) -> (usize, usize) {
        let previous = (t as u32).checked_sub(1);
        rows.change.clear();
        let mut new = 0;
        for i in 0..rows.player.len() {
            let (p, rating) = (rows.player[i] as usize, rows.rating[i]);
            rows.new[i] = t > 0 && (rows.new[i] || self.last_list[p] == NEVER);
            new += usize::from(rows.new[i]);
            rows.change
                .push((Some(self.last_list[p]) == previous).then(|| rating - self.last_rating[p]));
            self.last_list[p] = t as u32;
            self.last_rating[p] = rating;
        }
        rows.starts.push(rows.player.len());
        (rows.player.len(), new)
    }
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
