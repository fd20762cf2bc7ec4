//! One rating period: freeze the previous list, compute every player's change in parallel, apply.

use std::ops::Range;
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::model::{Games, SideRecord};
use crate::model::{Month, PlayerId};
use crate::systems::fide::{self, Groups, Outcome, PeriodRules, ReadAt, SideInput};

use super::newcomers;
use super::round_robins::RoundRobins;
use super::state::Lists;
use crate::replay::schedule::Schedule;

/// One side of one game in a period's player index.
#[derive(Clone, Copy, Debug)]
pub struct SideRef {
    /// Position in the schedule's order.
    pub pos: u32,
    pub white: bool,
}

/// The period's games grouped by player (a CSR index), built with a counting sort. Its buffers are
/// kept from period to period so that a period allocates nothing.
pub struct PlayerIndex {
    pub players: Vec<PlayerId>,
    /// `sides[offsets[i]..offsets[i + 1]]` are the games of `players[i]`, in schedule order.
    pub offsets: Vec<usize>,
    pub sides: Vec<SideRef>,
    /// Per game of the range, in its order: where its white and its black side are in `sides`.
    pub by_game: Vec<[u32; 2]>,
    /// Per player: games this period, then the player's slot while filling.
    counts: Vec<u32>,
    fill: Vec<usize>,
}

impl PlayerIndex {
    pub fn new(players: usize) -> PlayerIndex {
        PlayerIndex {
            players: Vec::new(),
            offsets: Vec::new(),
            sides: Vec::new(),
            by_game: Vec::new(),
            counts: vec![0; players],
            fill: Vec::new(),
        }
    }

    /// Indexes the games of `range` of the schedule's order, which indexes `input`; their slots
    /// need not be filled. Players come in order of first appearance: every player's outcome is
    /// independent of the others', so the order changes no result.
    pub fn build(&mut self, schedule: &Schedule, input: &Games, range: Range<usize>) {
        let players_of = |pos: usize| {
            let game = schedule.order[pos] as usize;
            [input.white[game], input.black[game]]
        };
        self.players.clear();
        for pos in range.clone() {
            for p in players_of(pos) {
                if self.counts[p as usize] == 0 {
                    self.players.push(p);
                }
                self.counts[p as usize] += 1;
            }
        }
        self.offsets.clear();
        let mut total = 0;
        for (i, &p) in self.players.iter().enumerate() {
            self.offsets.push(total);
            total += self.counts[p as usize] as usize;
            self.counts[p as usize] = i as u32;
        }
        self.offsets.push(total);
        self.fill.clear();
        self.fill
            .extend_from_slice(&self.offsets[..self.players.len()]);
        self.sides.clear();
        self.sides.resize(
            total,
            SideRef {
                pos: 0,
                white: false,
            },
        );
        self.by_game.clear();
        self.by_game.reserve_exact(range.len());
        for pos in range {
            let players = players_of(pos);
            let sides = [0, 1].map(|side| {
                let at = &mut self.fill[self.counts[players[side] as usize] as usize];
                self.sides[*at] = SideRef {
                    pos: pos as u32,
                    white: side == 0,
                };
                *at += 1;
                *at as u32 - 1
            });
            self.by_game.push(sides);
        }
        for &p in &self.players {
            self.counts[p as usize] = 0;
        }
    }

    /// The index just built, its scratch buffers left behind for the next build.
    fn take_built(&mut self) -> PlayerIndex {
        PlayerIndex {
            players: std::mem::take(&mut self.players),
            offsets: std::mem::take(&mut self.offsets),
            sides: std::mem::take(&mut self.sides),
            by_game: std::mem::take(&mut self.by_game),
            counts: Vec::new(),
            fill: Vec::new(),
        }
    }

    /// The players in blocks of `BLOCK` for the threads, each with its stretch of `per_side` (one
    /// entry per side of the index, in its order).
    pub fn blocks<'s, S>(&self, per_side: &'s mut [S]) -> Vec<(Range<usize>, &'s mut [S])> {
        let mut blocks = Vec::with_capacity(self.players.len() / BLOCK + 1);
        let mut left = per_side;
        for first in (0..self.players.len()).step_by(BLOCK) {
            let last = (first + BLOCK).min(self.players.len());
            let (mine, rest) =
                std::mem::take(&mut left).split_at_mut(self.offsets[last] - self.offsets[first]);
            left = rest;
            blocks.push((first..last, mine));
        }
        blocks
    }
}

/// The lists' player indices of the replays that carry on from one snapshot over its schedule. An
/// index depends only on the schedule and the games, which those replays share whatever their
/// rules, so the first of them to rate a list builds its index and the others read it
/// (docs/sweep.md, "Running, resuming, many machines"). It lives as long as the replays that
/// share it.
pub struct SharedIndices(Box<[OnceLock<PlayerIndex>]>);

impl SharedIndices {
    /// Room for the index of each of `lists` lists, none built yet.
    pub fn new(lists: usize) -> SharedIndices {
        SharedIndices((0..lists).map(|_| OnceLock::new()).collect())
    }

    /// List `t`'s index over `range` of the schedule's order: the one already built, or built now
    /// with `scratch`'s buffers (a replay that asks while another builds it waits for that one).
    pub fn get(
        &self,
        t: usize,
        scratch: &mut PlayerIndex,
        (schedule, input, range): (&Schedule, &Games, Range<usize>),
    ) -> &PlayerIndex {
        self.0[t].get_or_init(|| {
            scratch.build(schedule, input, range);
            scratch.take_built()
        })
    }
}

/// What a period reads: the frozen lists, the schedule and its round robins' tournament ratings.
pub struct Frozen<'a> {
    pub lists: Lists<'a>,
    pub schedule: &'a Schedule,
    pub round_robins: &'a RoundRobins,
}

impl Frozen<'_> {
    /// The side of a game as the rules see it (reference §1: the ratings of the list in force at
    /// the tournament's start; §6.5: in a round robin rated by the tournament-rating rule, an
    /// unrated opponent counts at their tournament rating).
    pub fn side(&self, player: PlayerId, r: SideRef) -> SideInput {
        let slot = self.schedule.slot(r.pos as usize);
        let opponent = if r.white { slot.black } else { slot.white };
        let own = self.lists.own(player, slot.in_force);
        let listed = self.lists.listed(opponent, slot.in_force);
        let round_robin = slot
            .round_robin
            .then(|| self.round_robins.event(slot.event))
            .flatten();
        let (opponent, tournament) = match round_robin {
            Some(event) => {
                let counted = event.counted_against(player, opponent, listed, own.is_some());
                (
                    counted,
                    counted.is_some() && (own.is_none() || listed.is_none()),
                )
            }
            None => (listed, false),
        };
        SideInput {
            own,
            opponent,
            tournament,
            score: if r.white { slot.score } else { 2 - slot.score },
            event: slot.event,
            start: self.schedule.event_start[r.pos as usize],
            era: slot.era,
        }
    }
}

/// Players per parallel block: enough that a block's work outweighs handing it to a thread.
pub const BLOCK: usize = 2048;

/// Computes every player's outcome, in parallel over blocks of players; `results` receives one
/// entry per side of the index and `outcomes` one per player, in the index's order.
pub fn compute(
    frozen: &Frozen<'_>,
    rules: &PeriodRules<'_>,
    index: &PlayerIndex,
    list: Month,
    results: &mut Vec<SideRecord>,
    outcomes: &mut Vec<Outcome>,
) {
    results.clear();
    results.resize(index.sides.len(), SideRecord::default());
    outcomes.clear();
    outcomes.resize(
        index.players.len(),
        Outcome::Rated {
            change: 0,
            games: 0,
        },
    );
    let window = rules.list.initial.window_months;
    let blocks = index.blocks(results).into_par_iter();
    blocks.zip(outcomes.par_chunks_mut(BLOCK)).for_each_init(
        || (Vec::new(), Groups::default()),
        |(inputs, groups): &mut (Vec<SideInput>, Groups), ((players, results), outcomes)| {
            let base = index.offsets[players.start];
            for (i, outcome) in players.zip(outcomes) {
                let player = index.players[i];
                let sides = &index.sides[index.offsets[i]..index.offsets[i + 1]];
                let out = &mut results[index.offsets[i] - base..index.offsets[i + 1] - base];
                let standing =
                    newcomers::standing(frozen.lists.state, player as usize, list, window);
                // Each side is read from the frozen lists once, then rated from this buffer.
                inputs.clear();
                inputs.extend(sides.iter().map(|&side| frozen.side(player, side)));
                let at = |i: usize| ReadAt::in_list_read_whole(sides[i].pos);
                *outcome = fide::rate_player(rules, standing, inputs, at, groups, out);
            }
        },
    );
}
