//! The replay of a period-based rating system (Elo, Glicko, Glicko-2): the same calendar and
//! schedule as FIDE's, but each list rates every player's games of the period against the states
//! frozen at its start, in parallel, with no regulations in between. It writes the same tables.

use rayon::prelude::*;

use crate::model::{Games, PlayerId};
use crate::systems::fide::SideResult;
use crate::systems::PeriodicSystem;

use super::periods::Periods;
use super::schedule::{Schedule, SkippedGames};
use super::{Inputs, ListRows, ListSummary, Published, RatedGames, ReplayError, Run, Sink};

/// Players per parallel block.
const BLOCK: usize = 4096;

pub fn run<S: PeriodicSystem>(
    system: &S,
    inputs: &Inputs,
    periods: &mut Periods<'_>,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    let lists = periods.lists().to_vec();
    let n = inputs.players.len();
    let mut state: Vec<Option<S::Player>> = vec![None; n];
    for e in &inputs.start_list.entries {
        state[e.player as usize] =
            Some(system.seeded(f64::from(e.rating), e.total_games.unwrap_or(30)));
    }
    let mut run = Run {
        lists: lists.clone(),
        summaries: Vec::new(),
        skipped: SkippedGames::default(),
    };
    let (mut rows, mut games) = (ListRows::default(), RatedGames::default());
    rows.with_exact = true;
    rows.with_deviation = system.deviation(&system.newcomer()).is_some();
    let mut publisher = Publisher::new(n);
    for e in &inputs.start_list.entries {
        publisher.total[e.player as usize] = e.total_games.unwrap_or(0);
    }
    let mut summary = ListSummary::empty(lists[0]);
    publisher.publish(published(system, &state), &mut rows, &mut summary);
    sink.publish(Published {
        lists: &run.lists,
        t: 0,
        rows: &rows,
        games: &games,
        input: &Games::default(),
    })?;
    run.summaries.push(summary);

    let mut games_of: Vec<Vec<(PlayerId, f64)>> = Vec::new();
    for t in 1..lists.len() {
        let period = periods.get(t)?;
        let (schedule, range) = (period.schedule, period.range.clone());
        let slots = &schedule.slots[range.clone()];
        for slot in slots {
            for p in [slot.white, slot.black] {
                state[p as usize].get_or_insert_with(|| system.newcomer());
            }
        }
        let frozen = state.clone();
        games_of.resize_with(n, Vec::new);
        for g in games_of.iter_mut() {
            g.clear();
        }
        let mut summary = ListSummary::empty(lists[t]);
        games.clear();
        for (i, slot) in slots.iter().enumerate() {
            let (w, b) = (slot.white as usize, slot.black as usize);
            let score = f64::from(slot.score) / 2.0;
            games_of[w].push((slot.black, score));
            games_of[b].push((slot.white, 1.0 - score));
            record(
                system,
                &frozen,
                &mut games,
                schedule,
                (range.start + i, t),
                (w, b),
            );
            summary.games += 1;
        }
        // Every player's new state from the frozen ones, in parallel blocks.
        state
            .par_chunks_mut(BLOCK)
            .enumerate()
            .for_each(|(block, chunk)| {
                let mut opponents = Vec::new();
                for (k, player) in chunk.iter_mut().enumerate() {
                    let p = block * BLOCK + k;
                    let Some(me) = frozen[p] else {
                        continue;
                    };
                    let games = &games_of[p];
                    *player = Some(if games.is_empty() {
                        system.idle(&me)
                    } else {
                        opponents.clear();
                        opponents.extend(games.iter().map(|&(o, s)| {
                            (frozen[o as usize].unwrap_or_else(|| system.newcomer()), s)
                        }));
                        system.rate(&me, &opponents)
                    });
                }
            });
        for (p, games) in games_of.iter().enumerate() {
            publisher.games[p] = games.len() as u32;
            publisher.total[p] += games.len() as u32;
        }
        publisher.publish(published(system, &state), &mut rows, &mut summary);
        sink.publish(Published {
            lists: &run.lists,
            t,
            rows: &rows,
            games: &games,
            input: period.input,
        })?;
        run.summaries.push(summary);
        progress(t, lists.len() - 1);
    }
    run.skipped = periods.skipped();
    Ok(run)
}

/// One game in the games table: each side's frozen rating, its expected score and, where the
/// system has one, the game's share of the change.
fn record<S: PeriodicSystem>(
    system: &S,
    frozen: &[Option<S::Player>],
    games: &mut RatedGames,
    schedule: &Schedule,
    (at, t): (usize, usize),
    (w, b): (usize, usize),
) {
    let (Some(white), Some(black)) = (frozen[w], frozen[b]) else {
        return;
    };
    let score = f64::from(schedule.slots[at].score) / 2.0;
    let side = |me: &S::Player, opponent: &S::Player, score: f64| {
        let expected = system.expected(me, opponent);
        let result = SideResult {
            rating: Some(system.rating(me).round() as i32),
            k: None,
            pd: Some((expected * 100.0).round() as u8),
            change: system
                .change_per_game(me, opponent, score)
                .map(|c| (c * 100.0).round() as i32),
            capped: false,
            counted: true,
        };
        (result, expected)
    };
    let (white_side, white_expected) = side(&white, &black, score);
    let (black_side, black_expected) = side(&black, &white, 1.0 - score);
    games.game.push(schedule.order[at]);
    games.list.push(t as u32);
    games.event_start.push(schedule.event_start[at]);
    games.white.push(white_side);
    games.black.push(black_side);
    games.expected.push((white_expected, black_expected));
}

/// What the lists show: every published player, with their rating and, where the system has one,
/// their deviation.
pub(super) struct Publisher {
    /// Each player's rating on the previous list.
    last: Vec<Option<i32>>,
    /// Games this period and in all, per player.
    pub(super) games: Vec<u32>,
    pub(super) total: Vec<u32>,
}

impl Publisher {
    pub(super) fn new(players: usize) -> Publisher {
        Publisher {
            last: vec![None; players],
            games: vec![0; players],
            total: vec![0; players],
        }
    }

    /// One list: (player, rating, deviation) in player order.
    pub(super) fn publish(
        &mut self,
        ratings: impl Iterator<Item = (usize, f64, Option<f64>)>,
        rows: &mut ListRows,
        summary: &mut ListSummary,
    ) {
        rows.clear();
        rows.starts.push(0);
        for (p, exact, deviation) in ratings {
            let rating = exact.round() as i32;
            rows.player.push(p as u32);
            rows.rating.push(rating);
            rows.exact.push(exact);
            if let Some(rd) = deviation {
                rows.deviation.push(rd);
            }
            rows.k.push(0);
            rows.games.push(self.games[p]);
            rows.total_games.push(self.total[p]);
            rows.inactive.push(false);
            rows.new.push(self.last[p].is_none());
            rows.change.push(self.last[p].map(|old| rating - old));
            summary.players += 1;
            summary.new += usize::from(self.last[p].is_none());
            self.last[p] = Some(rating);
        }
        rows.starts.push(rows.player.len());
    }
}

/// The published players of a periodic system's states.
fn published<'a, S: PeriodicSystem>(
    system: &'a S,
    state: &'a [Option<S::Player>],
) -> impl Iterator<Item = (usize, f64, Option<f64>)> + 'a {
    state.iter().enumerate().filter_map(move |(p, s)| {
        s.filter(|s| system.published(s))
            .map(|s| (p, system.rating(&s), system.deviation(&s)))
    })
}
