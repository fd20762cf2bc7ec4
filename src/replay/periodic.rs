//! The engine of a period-based rating system (Elo, Glicko, Glicko-2, classic USCF, Berkin): the
//! same calendar and schedule as FIDE's, but each list rates every player's games of the period
//! against the states frozen at its start, in parallel, with no regulations in between.

use rayon::prelude::*;

use crate::model::{PlayerId, SideRecord};
use crate::systems::PeriodicSystem;

use super::driver::{Alongside, Engine, ListOut};
use super::list_games::Period;
use super::{Inputs, ListRows};

/// Players per parallel block.
const BLOCK: usize = 4096;

pub(super) struct PeriodicEngine<S: PeriodicSystem> {
    system: S,
    /// Each known player's state after the last list.
    state: Vec<Option<S::Player>>,
    /// The period's games of each player (opponent, own score), and games in all.
    games_of: Vec<Vec<(PlayerId, f64)>>,
    total: Vec<u32>,
}

impl<S: PeriodicSystem> PeriodicEngine<S> {
    pub(super) fn new(system: S, inputs: &Inputs) -> PeriodicEngine<S> {
        let n = inputs.players.len();
        let mut state = vec![None; n];
        let mut total = vec![0; n];
        for e in &inputs.start_list.entries {
            state[e.player as usize] =
                Some(system.seeded(f64::from(e.rating), e.total_games.unwrap_or(30)));
            total[e.player as usize] = e.total_games.unwrap_or(0);
        }
        PeriodicEngine {
            system,
            state,
            games_of: vec![Vec::new(); n],
            total,
        }
    }

    /// Every player the system knows, with this period's games: the driver keeps the rows that
    /// changed (a system whose deviations grow with time changes every row).
    fn publish(&self, rows: &mut ListRows) {
        for (p, s) in self.state.iter().enumerate() {
            if let Some(s) = s {
                let games = (self.games_of[p].len() as u32, self.total[p]);
                let exact = self.system.rating(s);
                let rating = (exact.round() as i32, exact);
                let listed = self.system.published(s);
                rows.push_real((p, listed), rating, self.system.deviation(s), games);
            }
        }
    }
}

impl<S: PeriodicSystem> Engine for PeriodicEngine<S> {
    fn start(&mut self, rows: &mut ListRows) {
        // Every list of the run has the same columns (ListRows keeps these from list to list).
        rows.with_exact = true;
        rows.with_deviation = self.system.deviation(&self.system.newcomer()).is_some();
        self.publish(rows);
    }

    fn period(
        &mut self,
        t: usize,
        period: &Period<'_>,
        out: &mut ListOut,
        alongside: &mut Alongside<'_>,
    ) {
        alongside();
        let system = &self.system;
        let (schedule, range) = (period.schedule, period.range.clone());
        let slots = schedule.list_slots();
        for slot in slots {
            for p in [slot.white, slot.black] {
                self.state[p as usize].get_or_insert_with(|| system.newcomer());
            }
        }
        let frozen = self.state.clone();
        for g in self.games_of.iter_mut() {
            g.clear();
        }
        for (i, slot) in slots.iter().enumerate() {
            let (w, b) = (slot.white as usize, slot.black as usize);
            let score = f64::from(slot.score) / 2.0;
            self.games_of[w].push((slot.black, score));
            self.games_of[b].push((slot.white, 1.0 - score));
            let at = range.start + i;
            let (Some(white), Some(black)) = (frozen[w], frozen[b]) else {
                continue;
            };
            let (white_side, white_expected) = side(system, &white, &black, score);
            let (black_side, black_expected) = side(system, &black, &white, 1.0 - score);
            out.games.push_predicted(
                (schedule.order[at], t, schedule.event_start[at]),
                (white_side, black_side),
                (white_expected, black_expected),
            );
            out.summary.games += 1;
        }
        // Every player's new state from the frozen ones, in parallel blocks.
        let games_of = &self.games_of;
        self.state
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
        for (total, games) in self.total.iter_mut().zip(&self.games_of) {
            *total += games.len() as u32;
        }
        self.publish(&mut out.rows);
    }
}

/// One side of a game in the games table: its frozen rating, its expected score and, where the
/// system has one, the game's share of the change.
fn side<S: PeriodicSystem>(
    system: &S,
    me: &S::Player,
    opponent: &S::Player,
    score: f64,
) -> (SideRecord, f64) {
    let expected = system.expected(me, opponent);
    let change = system.change_per_game(me, opponent, score);
    (
        SideRecord::predicted(system.rating(me).round() as i32, expected, change),
        expected,
    )
}
