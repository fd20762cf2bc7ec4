//! One rating period: freeze the previous list, compute every player's change in parallel, apply.

use rayon::prelude::*;

use crate::model::{Games, Month, PlayerId};
use crate::systems::fide::{self, Outcome, PeriodRules, SideInput, SideResult};

use super::schedule::Schedule;
use super::state::{ListView, State};

/// One side of one game in a period's player index.
#[derive(Clone, Copy, Debug)]
pub struct SideRef {
    /// Position in the schedule's order.
    pub pos: u32,
    pub white: bool,
}

/// The period's games grouped by player (a CSR index), built with a counting sort.
pub struct PlayerIndex {
    pub players: Vec<PlayerId>,
    /// `sides[offsets[i]..offsets[i + 1]]` are the games of `players[i]`, in schedule order.
    pub offsets: Vec<usize>,
    pub sides: Vec<SideRef>,
    counts: Vec<u32>,
}

impl PlayerIndex {
    pub fn new(players: usize) -> PlayerIndex {
        PlayerIndex {
            players: Vec::new(),
            offsets: Vec::new(),
            sides: Vec::new(),
            counts: vec![0; players],
        }
    }

    pub fn build(&mut self, games: &Games, schedule: &Schedule, range: std::ops::Range<usize>) {
        self.players.clear();
        for pos in range.clone() {
            let g = schedule.order[pos] as usize;
            for p in [games.white[g], games.black[g]] {
                if self.counts[p as usize] == 0 {
                    self.players.push(p);
                }
                self.counts[p as usize] += 1;
            }
        }
        self.players.sort_unstable();
        self.offsets.clear();
        let mut total = 0;
        for &p in &self.players {
            self.offsets.push(total);
            total += self.counts[p as usize] as usize;
            self.counts[p as usize] = self.offsets.len() as u32 - 1; // reuse as the player's slot
        }
        self.offsets.push(total);
        let mut fill: Vec<usize> = self.offsets[..self.players.len()].to_vec();
        self.sides.clear();
        self.sides.resize(
            total,
            SideRef {
                pos: 0,
                white: false,
            },
        );
        for pos in range {
            let g = schedule.order[pos] as usize;
            for (p, white) in [(games.white[g], true), (games.black[g], false)] {
                let slot = self.counts[p as usize] as usize;
                self.sides[fill[slot]] = SideRef {
                    pos: pos as u32,
                    white,
                };
                fill[slot] += 1;
            }
        }
        for &p in &self.players {
            self.counts[p as usize] = 0;
        }
    }
}

/// The frozen lists a period reads.
pub struct Frozen<'a> {
    pub state: &'a State,
    /// Older lists kept for tournaments that started under them.
    pub views: &'a [Option<ListView>],
    /// The previous list's index (the list being frozen).
    pub previous: u32,
    pub games: &'a Games,
    pub schedule: &'a Schedule,
}

impl Frozen<'_> {
    /// The side of a game as the rules see it (reference §1: the ratings of the list in force at
    /// the tournament's start).
    fn side(&self, player: PlayerId, r: SideRef) -> SideInput {
        let pos = r.pos as usize;
        let g = self.schedule.order[pos] as usize;
        let opponent = if r.white {
            self.games.black[g]
        } else {
            self.games.white[g]
        };
        let in_force = self.schedule.in_force[pos];
        let then = (in_force != self.previous).then(|| {
            self.views[in_force as usize]
                .as_ref()
                .expect("older lists in force are kept")
        });
        let (p, o) = (player as usize, opponent as usize);
        let current = (self.state.rating[p], self.state.k[p]);
        let own = self.state.rated[p].then(|| match then {
            Some(view) if view.rated[p] => (view.rating[p], view.k[p]),
            _ => current,
        });
        let opponent = match then {
            Some(view) => view.rated[o].then(|| view.rating[o]),
            None => self.state.rated_at(opponent),
        };
        let score = self.games.score[g];
        SideInput {
            own,
            opponent,
            score: if r.white { score } else { 2 - score },
            event: self.games.event[g],
            era: self.schedule.era[pos],
        }
    }
}

/// Computes every player's outcome in parallel; `results` receives one entry per side of the index.
pub fn compute(
    frozen: &Frozen<'_>,
    rules: &PeriodRules<'_>,
    index: &PlayerIndex,
    list: Month,
    results: &mut Vec<SideResult>,
) -> Vec<Outcome> {
    results.clear();
    results.resize(index.sides.len(), SideResult::default());
    let mut slices: Vec<&mut [SideResult]> = Vec::with_capacity(index.players.len());
    let mut rest: &mut [SideResult] = results;
    for w in index.offsets.windows(2) {
        let (head, tail) = rest.split_at_mut(w[1] - w[0]);
        slices.push(head);
        rest = tail;
    }
    let window = rules.list.initial.window_months;
    index
        .players
        .par_iter()
        .zip(slices.into_par_iter())
        .enumerate()
        .with_min_len(256)
        .map(|(i, (&player, out))| {
            let sides = &index.sides[index.offsets[i]..index.offsets[i + 1]];
            let p = player as usize;
            let pooled = super::newcomers::has_counted_results(&frozen.state.pool[p], list, window);
            fide::rate_player(
                rules,
                frozen.state.rated[p],
                pooled,
                sides.len(),
                |j| frozen.side(player, sides[j]),
                out,
            )
        })
        .collect()
}
