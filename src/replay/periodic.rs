//! The replay of a period-based rating system (Elo, Glicko, Glicko-2): the same calendar and
//! schedule as FIDE's, but each list rates every player's games of the period against the states
//! frozen at its start, in parallel, with no regulations in between. It writes the same tables.

use rayon::prelude::*;

use crate::model::PlayerId;
use crate::scenario::Scenario;
use crate::systems::fide::SideResult;
use crate::systems::PeriodicSystem;

use super::schedule::{self, Schedule};
use super::{Inputs, ListRows, ListSummary, RatedGames, ReplayError, Run};

/// Players per parallel block.
const BLOCK: usize = 4096;

pub fn run<S: PeriodicSystem>(
    system: &S,
    scenario: &Scenario,
    inputs: &Inputs,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    let schedule = schedule::schedule(scenario, &inputs.games)?;
    let n = inputs.players.len();
    let mut state: Vec<Option<S::Player>> = vec![None; n];
    for e in &inputs.start_list.entries {
        state[e.player as usize] =
            Some(system.seeded(f64::from(e.rating), e.total_games.unwrap_or(30)));
    }
    let mut run = Run {
        lists: schedule.lists.clone(),
        rows: ListRows::default(),
        games: RatedGames::with_capacity(schedule.order.len()),
        summaries: Vec::new(),
        skipped: schedule.skipped,
    };
    let mut publisher = Publisher {
        last: vec![None; n],
        games: vec![0; n],
        total: vec![0; n],
    };
    for e in &inputs.start_list.entries {
        publisher.total[e.player as usize] = e.total_games.unwrap_or(0);
    }
    let mut summary = empty_summary(&schedule, 0);
    publisher.publish(system, &state, &mut run.rows, &mut summary);
    run.summaries.push(summary);

    let mut games_of: Vec<Vec<(PlayerId, f64)>> = Vec::new();
    for t in 1..schedule.lists.len() {
        let range = schedule.periods[t].clone();
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
        let mut summary = empty_summary(&schedule, t);
        for (i, slot) in slots.iter().enumerate() {
            let (w, b) = (slot.white as usize, slot.black as usize);
            let score = f64::from(slot.score) / 2.0;
            games_of[w].push((slot.black, score));
            games_of[b].push((slot.white, 1.0 - score));
            record(
                system,
                &frozen,
                &mut run.games,
                &schedule,
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
        publisher.publish(system, &state, &mut run.rows, &mut summary);
        run.summaries.push(summary);
        progress(t, schedule.lists.len() - 1);
    }
    Ok(run)
}

fn empty_summary(schedule: &Schedule, t: usize) -> ListSummary {
    ListSummary {
        month: schedule.lists[t],
        players: 0,
        new: 0,
        delisted: 0,
        games: 0,
        games_not_counted: 0,
    }
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

/// What the lists show: every known, published player.
struct Publisher {
    /// Each player's rating on the previous list.
    last: Vec<Option<i32>>,
    games: Vec<u32>,
    total: Vec<u32>,
}

impl Publisher {
    fn publish<S: PeriodicSystem>(
        &mut self,
        system: &S,
        state: &[Option<S::Player>],
        rows: &mut ListRows,
        summary: &mut ListSummary,
    ) {
        if rows.starts.is_empty() {
            rows.starts.push(0);
        }
        for (p, s) in state.iter().enumerate() {
            let Some(s) = s.filter(|s| system.published(s)) else {
                continue;
            };
            let exact = system.rating(&s);
            let rating = exact.round() as i32;
            rows.player.push(p as u32);
            rows.rating.push(rating);
            rows.exact.push(exact);
            if let Some(rd) = system.deviation(&s) {
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::ingest::read_inputs;
    use crate::pipeline::{prepare, ReplayRequest};

    /// `scenarios/elo-k20.toml` against a plain, independent reading of period-based Elo on the
    /// same 65,053 Kaggle games: everyone from 2200 on first appearance, K × Σ(score − E) against
    /// the ratings frozen at the period's start. Every rating of the last list agrees to 1e-9.
    #[test]
    fn elo_k20_agrees_with_a_plain_implementation_on_the_kaggle_data() {
        let request = ReplayRequest {
            scenario: "scenarios/elo-k20.toml".into(),
            ..ReplayRequest::default()
        };
        let (scenario, files) = prepare(&request).unwrap();
        let (inputs, _) = read_inputs(&files, false).unwrap();
        let run = super::super::run(&scenario, &inputs, &|_, _| {}).unwrap();

        let text = std::fs::read_to_string("data/kaggle2010/training_data.csv").unwrap();
        let mut by_month: BTreeMap<u32, Vec<(String, String, f64)>> = BTreeMap::new();
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            by_month.entry(f[0].parse().unwrap()).or_default().push((
                f[1].to_string(),
                f[2].to_string(),
                f[3].parse().unwrap(),
            ));
        }
        let mut rating: BTreeMap<String, f64> = BTreeMap::new();
        for games in by_month.values() {
            for (w, b, _) in games {
                rating.entry(w.clone()).or_insert(2200.0);
                rating.entry(b.clone()).or_insert(2200.0);
            }
            let frozen = rating.clone();
            for (w, b, s) in games {
                let e = 1.0 / (1.0 + 10f64.powf((frozen[b] - frozen[w]) / 400.0));
                *rating.get_mut(w).unwrap() += 20.0 * (s - e);
                *rating.get_mut(b).unwrap() += 20.0 * ((1.0 - s) - (1.0 - e));
            }
        }
        let rows = &run.rows;
        let last = run.lists.len() - 1;
        let range = rows.starts[last]..rows.starts[last + 1];
        assert_eq!(range.len(), rating.len());
        let mut worst: f64 = 0.0;
        for r in range {
            let id = inputs.players.label(rows.player[r]);
            worst = worst.max((rows.exact[r] - rating[&id]).abs());
        }
        assert!(worst < 1e-9, "largest difference {worst}");
    }
}
