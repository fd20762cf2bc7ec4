//! The reachable truth: the ratings a rating system on FIDE's curve could at best reach from the
//! games actually played. A world's players have true strengths, but no rating system can show
//! them on FIDE's scale: the world's results are not FIDE's curve between strengths (each player
//! has a form from event to event, a share of games is decided as between equals, White has the
//! move: `play::expected_score`), and a rating only knows the games played, among the opponents
//! met. A strength gap of 400 points is worth about 283 rating points on FIDE's curve, and no gap
//! is worth more than about 383 (docs/sweep.md, "The truth a rating system can reach").
//!
//! For a January list, the *equilibrium rating* of each player who played in the window of
//! [`WINDOW`] lists up to it is the solution of FIDE's equations with every result replaced by its
//! true expected score: for every player i,
//!
//! ```text
//!     Σ over i's games g of ( E_g − F(r_i − r_opponent) ) = 0,
//! ```
//!
//! E_g the game's expected score for i under the world's game model at the strengths of the
//! game's month, and F FIDE's expected-score curve with the 400-point rule: the normal curve with
//! σ = 200·√2 that table 8.1.2 tabulates (reference §2), the difference counted as at most 400
//! points. The curve, not the table: the table's hundredths are steps, and a fixed point of a step
//! function is a band a few points wide instead of one rating. An expected score beyond what the
//! capped curve can express (above F(400) = 0.921) counts as F(400): the 400-point rule bounds what
//! a rating can show, and without the bound a player who only meets much weaker opponents would
//! have no equilibrium at all.
//!
//! The equations fix only differences: each connected group of players (who met, directly or
//! through others) is anchored so that its mean equals the mean true strength of its players on
//! the January list's month, as Elo's points are zero-sum. (The built-in world's zones never meet:
//! its pool is `events.zones` × scale groups, each anchored on its own.)
//!
//! How it is solved: the left-hand sides are the gradient of a convex function of the ratings
//! (Σ over games of G(r_w − r_b) − E·(r_w − r_b), G' = F), whose Hessian is the graph Laplacian of
//! the games weighted by F's slope. Newton's method: each step solves that Laplacian system by
//! conjugate gradients preconditioned by its diagonal, then halves the step until the equations'
//! residuals shrink; it stops when no player's rating moves by more than [`TOLERANCE`]. Beyond the
//! cap the function is flat: a group of players whose games with everyone else all lie beyond it
//! has equations that stay off by the same sum wherever the group stands, until one of those games
//! comes back within the cap, and Newton's matrix, flat there but for its diagonal's floor, would
//! creep there a point or so a step (FIDE's volume makes such groups common: the January 2025
//! window of a world whose activity comes from FIDE's lists, scale 1, seed 42, did not converge in
//! 100 steps). So after each step such a group moves there in one go. Simpler
//! player-by-player Newton steps (Gauss–Seidel) converge too, but the pool's pairings follow
//! strength (Swiss sections, ratings-cut events), so the mode that stretches the whole scale relaxes
//! only a few players per sweep: 70–380 sweeps a window at a tenth of FIDE's size, against a
//! handful of Newton steps.

use rayon::prelude::*;

use crate::model::Month;

use super::play::{expected, expected_score, SIGMA};
use super::{MonthBatch, Settings};

/// Lists in a January's window: the list itself and the 17 before it, a year and a half of games.
/// Long enough that a player active in the period has met enough opponents for their equation to
/// say something (a year holds fewer, and FIDE's own activity rule counts one), short enough that
/// the strengths move little within it (a junior improving 100 points a year moves about 75 in it).
pub const WINDOW: i32 = 18;

/// The solution is reached when a full Newton step moves no player by more than this (rating
/// points).
pub const TOLERANCE: f64 = 0.01;

/// Newton steps before the solve gives up (as not converged: an error).
const MAX_STEPS: u32 = 100;

/// A group held only by games beyond the cap moves when its players' residuals add up to more
/// than this (points): below it Newton's steps would move it by less than [`TOLERANCE`] anyway,
/// and a sum of exact cancellations (games at the cap both ways) is not mistaken for a push.
const FLAT_RESIDUAL: f64 = 1e-9;

/// Conjugate-gradient iterations of one Newton step at most, and the residual they aim for,
/// relative to the equations' own: loose while the equations are far from solved, tight near the
/// end (an inexact Newton method: the early steps need only a direction).
const MAX_ITERATIONS: u32 = 2_000;
const CG_TOLERANCE: (f64, f64) = (1e-3, 0.1);

/// The largest move of one player in one Newton step: far from the solution the curve's slope
/// says little.
const MAX_STEP: f64 = 100.0;

/// The 400-point rule (reference §3.4): a difference counted as at most 400 points.
const CAP: f64 = 400.0;

/// FIDE's expected score for a rating `diff` points above the opponent's, the difference counted
/// as at most 400 points: the world's own normal curve (`play::expected`), capped.
pub fn fide_curve(diff: f64) -> f64 {
    expected(diff.clamp(-CAP, CAP))
}

/// The normal curve's density at `diff`, uncapped: the slope of [`fide_curve`] within the cap.
fn density(diff: f64) -> f64 {
    let z = diff / SIGMA;
    (-0.5 * z * z).exp() / (SIGMA * (2.0 * std::f64::consts::PI).sqrt())
}

/// The integral of [`fide_curve`] from 0 to `diff`: d·Φ(d/σ) + σ·(φ(d/σ) − φ(0)) within the cap,
/// straight beyond it (the curve is flat there). The equations are the gradient of Σ over games
/// of G(r_white − r_black) − E·(r_white − r_black), which each Newton step must lower.
fn integral(diff: f64) -> f64 {
    let within = |d: f64| d * expected(d) + SIGMA * SIGMA * (density(d) - density(0.0));
    if diff.abs() <= CAP {
        within(diff)
    } else {
        let edge = CAP.copysign(diff);
        within(edge) + fide_curve(edge) * (diff - edge)
    }
}

/// [`fide_curve`] and its slope tabulated every 1/32 point from 0 to the cap and interpolated
/// linearly (within 2e-9 of the curve): the solver evaluates them for every game at every step.
struct Curve {
    value: Vec<f64>,
    slope: Vec<f64>,
}

const PER_POINT: f64 = 32.0;

impl Curve {
    fn new() -> Curve {
        let n = (CAP * PER_POINT) as usize + 2;
        let at = |k: usize| k as f64 / PER_POINT;
        // The slope tabulated uncapped, so that interpolation next to the cap meets no 0.
        Curve {
            value: (0..n).map(|k| fide_curve(at(k))).collect(),
            slope: (0..n).map(|k| density(at(k))).collect(),
        }
    }

    /// F(d) and F'(d).
    #[inline]
    fn at(&self, diff: f64) -> (f64, f64) {
        let x = diff.abs().min(CAP) * PER_POINT;
        let k = (x as usize).min(self.value.len() - 2);
        let f = x - k as f64;
        let value = self.value[k] + f * (self.value[k + 1] - self.value[k]);
        let slope = if diff.abs() >= CAP {
            0.0
        } else {
            self.slope[k] + f * (self.slope[k + 1] - self.slope[k])
        };
        if diff >= 0.0 {
            (value, slope)
        } else {
            (1.0 - value, slope)
        }
    }
}

/// One game of a window: the players by dense index and White's expected score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowGame {
    pub white: u32,
    pub black: u32,
    pub expected: f64,
}

/// The equilibrium of one January's window.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Equilibrium {
    /// Each player's equilibrium rating by dense index (NaN: no game in the window).
    pub rating: Vec<f32>,
    /// Each player's games in the window.
    pub games: Vec<u32>,
    /// Newton steps made, the largest move of the last one, and whether the solution was
    /// reached (a full step within the tolerance).
    pub steps: u32,
    pub last_move: f64,
    pub converged: bool,
    /// Groups of players who met (directly or through others), and the players outside the
    /// largest: each group is anchored on its own.
    pub groups: usize,
    pub outside_largest: usize,
}

impl Equilibrium {
    /// Players with a game in the window.
    pub fn players(&self) -> usize {
        self.games.iter().filter(|&&n| n > 0).count()
    }
}

/// Solves the equilibrium of `games` among `players` (dense indices below it), each group of
/// players who met anchored on the mean of their `anchor` (the true strengths on the January
/// list's month; NaN where a player is not in the world then, who then counts in no mean).
pub fn solve(players: usize, games: &[WindowGame], anchor: &[f32]) -> Equilibrium {
    let graph = Graph::new(players, games);
    let start = |i: usize| f64::from(anchor.get(i).copied().unwrap_or(f32::NAN));
    let mut rating = first_guess(&graph, &start);
    let met = graph.groups();
    let (steps, last_move, converged) = graph.newton(&mut rating, &met);
    let (group, groups) = met;
    // Each group's mean equilibrium moved onto its players' mean true strength.
    let mut sums = vec![(0.0f64, 0.0f64, 0usize); groups];
    for i in 0..players {
        if group[i] != NONE && start(i).is_finite() {
            let s = &mut sums[group[i] as usize];
            s.0 += rating[i];
            s.1 += start(i);
            s.2 += 1;
        }
    }
    let mut sizes = vec![0usize; groups];
    for &g in group.iter().filter(|g| **g != NONE) {
        sizes[g as usize] += 1;
    }
    let largest = sizes.iter().copied().max().unwrap_or(0);
    let rating = (0..players)
        .map(|i| match group[i] {
            NONE => f32::NAN,
            g => {
                let (r, s, n) = sums[g as usize];
                let shift = if n > 0 { (s - r) / n as f64 } else { 0.0 };
                (rating[i] + shift) as f32
            }
        })
        .collect();
    Equilibrium {
        rating,
        games: (0..players).map(|i| graph.degree(i) as u32).collect(),
        steps,
        last_move,
        converged,
        groups,
        outside_largest: sizes.iter().sum::<usize>() - largest,
    }
}

const NONE: u32 = u32::MAX;

/// Where Newton's method starts: the true strengths squeezed towards their mean by a third, about
/// where the world's flatter curve puts them (a 400-point gap in strength is worth about 283 on
/// FIDE's curve), so that the first steps are not spent bringing games back within the cap.
fn first_guess(graph: &Graph, strength: &impl Fn(usize) -> f64) -> Vec<f64> {
    let known: Vec<f64> = (0..graph.players())
        .filter(|&i| graph.degree(i) > 0)
        .map(strength)
        .filter(|s| s.is_finite())
        .collect();
    let mean = known.iter().sum::<f64>() / known.len().max(1) as f64;
    (0..graph.players())
        .map(|i| match strength(i) {
            s if s.is_finite() => mean + SQUEEZE * (s - mean),
            _ => mean,
        })
        .collect()
}

const SQUEEZE: f64 = 0.7;

/// Each player's games as (opponent, own expected score), players' games consecutive.
struct Graph {
    start: Vec<usize>,
    opponent: Vec<u32>,
    expected: Vec<f64>,
    curve: Curve,
}

/// The equations at some ratings: each player's residual Σ (E − F) and the Laplacian's weights
/// (F's slope in each game) with its diagonal.
struct Linearised {
    residual: Vec<f64>,
    weight: Vec<f64>,
    diagonal: Vec<f64>,
}

/// A step the line search accepted: its share of the full step, the ratings it reached and the
/// equations there.
struct Searched {
    scale: f64,
    moved: Vec<f64>,
    next: Linearised,
}

impl Graph {
    fn new(players: usize, games: &[WindowGame]) -> Graph {
        let mut start = vec![0usize; players + 1];
        for g in games {
            start[g.white as usize + 1] += 1;
            start[g.black as usize + 1] += 1;
        }
        for i in 0..players {
            start[i + 1] += start[i];
        }
        let mut at = start.clone();
        let mut opponent = vec![0u32; start[players]];
        let mut expected = vec![0.0f64; start[players]];
        let (low, high) = (fide_curve(-CAP), fide_curve(CAP));
        for g in games {
            let e = g.expected.clamp(low, high);
            for (p, o, e) in [(g.white, g.black, e), (g.black, g.white, 1.0 - e)] {
                let k = &mut at[p as usize];
                opponent[*k] = o;
                expected[*k] = e;
                *k += 1;
            }
        }
        Graph {
            start,
            opponent,
            expected,
            curve: Curve::new(),
        }
    }

    fn players(&self) -> usize {
        self.start.len() - 1
    }

    fn degree(&self, i: usize) -> usize {
        self.start[i + 1] - self.start[i]
    }

    /// Player by player (in parallel: each player's sums in their own order, so the same bits
    /// whatever the threads), `each(i, games)` into `out[i]`.
    fn per_player<T: Send>(
        &self,
        out: &mut [T],
        each: impl Fn(usize, std::ops::Range<usize>) -> T + Sync,
    ) {
        use rayon::prelude::*;
        out.par_iter_mut()
            .enumerate()
            .with_min_len(1024)
            .for_each(|(i, o)| *o = each(i, self.start[i]..self.start[i + 1]));
    }

    /// The residuals, weights and diagonal at `rating`, player by player in one pass (in
    /// parallel: each player's sums in their own order, so the same bits whatever the threads),
    /// each game's point on the curve looked up once for both its value and its slope.
    fn linearise(&self, rating: &[f64]) -> Linearised {
        let n = self.players();
        let mut residual = vec![0.0; n];
        let mut diagonal = vec![0.0; n];
        let mut weight = vec![0.0; self.opponent.len()];
        // A player whose every game is beyond the cap has a flat equation: a thousandth of the
        // curve's slope between equals in each game keeps the diagonal positive (and their step
        // finite; its bound keeps it modest) without moving the solution, where residuals are 0.
        let floor = 1e-3 * density(0.0);
        residual
            .par_iter_mut()
            .zip(diagonal.par_iter_mut())
            .zip(self.per_player_slices(&mut weight))
            .enumerate()
            .with_min_len(1024)
            .for_each(|(i, ((residual, diagonal), own))| {
                let games = self.start[i]..self.start[i + 1];
                *residual = games
                    .clone()
                    .zip(own.iter_mut())
                    .map(|(k, w)| {
                        let (value, slope) = self.curve.at(self.difference(rating, i, k));
                        *w = slope;
                        self.expected[k] - value
                    })
                    .sum();
                *diagonal = if games.is_empty() {
                    // No game, no equation: a diagonal of 1 leaves the rating where it is.
                    1.0
                } else {
                    own.iter().sum::<f64>() + floor * games.len() as f64
                };
            });
        Linearised {
            residual,
            weight,
            diagonal,
        }
    }

    /// Each player's slice of `per_game` (a value for each of each player's games, players'
    /// games consecutive), so that the players' slices can be filled in parallel.
    fn per_player_slices<'a>(&self, per_game: &'a mut [f64]) -> Vec<&'a mut [f64]> {
        let mut slices = Vec::with_capacity(self.players());
        let mut rest = per_game;
        for i in 0..self.players() {
            let (own, after) = rest.split_at_mut(self.degree(i));
            slices.push(own);
            rest = after;
        }
        slices
    }

    /// A player's rating minus the opponent's in their `k`-th game.
    fn difference(&self, rating: &[f64], i: usize, k: usize) -> f64 {
        rating[i] - rating[self.opponent[k] as usize]
    }

    /// The linearised equations' matrix times `x`: the weighted Laplacian plus the diagonal's
    /// floor.
    fn apply(&self, l: &Linearised, x: &[f64], out: &mut [f64]) {
        self.per_player(out, |i, games| {
            let off: f64 = games
                .map(|k| l.weight[k] * x[self.opponent[k] as usize])
                .sum();
            l.diagonal[i] * x[i] - off
        });
    }

    /// The Newton step at `l`: the linearised equations solved by conjugate gradients, each
    /// iteration preconditioned by the diagonal.
    fn step(&self, l: &Linearised, tolerance: f64) -> Vec<f64> {
        let n = self.players();
        let mut x = vec![0.0; n];
        let mut r = l.residual.clone();
        let mut rr = dot(&r, &r);
        let target = tolerance * rr.sqrt();
        let mut z: Vec<f64> = r.iter().zip(&l.diagonal).map(|(r, d)| r / d).collect();
        let mut p = z.clone();
        let mut rz = dot(&r, &z);
        let mut ap = vec![0.0; n];
        for _ in 0..MAX_ITERATIONS {
            if rr.sqrt() <= target {
                break;
            }
            self.apply(l, &p, &mut ap);
            let alpha = rz / dot(&p, &ap);
            // The update and the next iteration's r·r and r·z in one pass over the players (the
            // serial part of an iteration), each sum in order from −0 as `dot` adds.
            let (mut next_rr, mut next_rz) = (-0.0, -0.0);
            for i in 0..n {
                x[i] += alpha * p[i];
                r[i] -= alpha * ap[i];
                z[i] = r[i] / l.diagonal[i];
                next_rr += r[i] * r[i];
                next_rz += r[i] * z[i];
            }
            let beta = next_rz / rz;
            rz = next_rz;
            rr = next_rr;
            for i in 0..n {
                p[i] = z[i] + beta * p[i];
            }
        }
        x
    }

    /// How much moving from `rating` to `moved` lowers the convex function whose gradient the
    /// equations are (negative: lowered): Σ over games of ΔG − E·Δd, each game's change computed
    /// on its own so that no total of millions of terms is subtracted from another.
    fn change(&self, rating: &[f64], moved: &[f64]) -> f64 {
        let mut per_player = vec![0.0; self.players()];
        self.per_player(&mut per_player, |i, games| {
            games
                .map(|k| {
                    let (d, e) = (self.difference(rating, i, k), self.difference(moved, i, k));
                    integral(e) - integral(d) - self.expected[k] * (e - d)
                })
                .sum()
        });
        // Each game is counted from both sides, each side the same change.
        per_player.iter().sum::<f64>() / 2.0
    }

    /// The step from `rating` along `step`, halved until it lowers the convex function whose
    /// gradient the equations are (Armijo's condition, `descent` the step's slope) or the
    /// equations' residuals shrink below `size` (near the solution, where the function's change is
    /// lost in rounding); `None` when no step, however short, does either.
    fn line_search(
        &self,
        rating: &[f64],
        step: &[f64],
        descent: f64,
        size: f64,
    ) -> Option<Searched> {
        let mut scale = 1.0;
        while scale * MAX_STEP >= TOLERANCE * 1e-6 {
            let moved: Vec<f64> = rating
                .iter()
                .zip(step)
                .map(|(r, s)| r + scale * s)
                .collect();
            let next = self.linearise(&moved);
            // The function's change costs a pass over the games: only when the residuals did
            // not shrink.
            if dot(&next.residual, &next.residual) < size
                || self.change(rating, &moved) <= -1e-4 * scale * descent
            {
                return Some(Searched { scale, moved, next });
            }
            scale /= 2.0;
        }
        None
    }

    /// Newton's method from `rating`: each step bounded per player and shortened by the line
    /// search, then the groups held only beyond the cap moved in one go (`shift_flat_groups`;
    /// `met`: the groups of players who met). It has converged
    /// when a full step moves no player by more than the tolerance and no group was moved. The
    /// steps made, the largest move of the last, and whether it converged.
    fn newton(&self, rating: &mut [f64], met: &(Vec<u32>, usize)) -> (u32, f64, bool) {
        let mut l = self.linearise(rating);
        let mut size = dot(&l.residual, &l.residual);
        let first = size;
        let mut last = 0.0;
        for steps in 1..=MAX_STEPS {
            let (tight, loose) = CG_TOLERANCE;
            let tolerance = (size / first).sqrt().clamp(tight, loose);
            let bounded = |step: Vec<f64>| -> Vec<f64> {
                step.into_iter()
                    .map(|s| s.clamp(-MAX_STEP, MAX_STEP))
                    .collect()
            };
            let mut step = bounded(self.step(&l, tolerance));
            let mut descent = dot(&l.residual, &step);
            if descent.is_nan() || descent <= 0.0 {
                // The bounds turned the step uphill: the preconditioned residuals are downhill.
                step = bounded(
                    l.residual
                        .iter()
                        .zip(&l.diagonal)
                        .map(|(r, d)| r / d)
                        .collect(),
                );
                descent = dot(&l.residual, &step);
            }
            let full = match self.line_search(rating, &step, descent, size) {
                Some(Searched { scale, moved, next }) => {
                    last = step.iter().fold(0.0f64, |m, s| m.max((scale * s).abs()));
                    rating.copy_from_slice(&moved);
                    size = dot(&next.residual, &next.residual);
                    l = next;
                    Some(scale == 1.0)
                }
                None => None,
            };
            if self.shift_flat_groups(rating, &l.residual, met) {
                l = self.linearise(rating);
                size = dot(&l.residual, &l.residual);
                continue;
            }
            match full {
                // No step, however short, lowers anything, and no group can move: stalled.
                None => return (steps, last, false),
                Some(true) if last < TOLERANCE => return (steps, last, true),
                Some(_) => {}
            }
        }
        (MAX_STEPS, last, false)
    }

    /// Moves each group of players held together only by games within the cap, whose games with
    /// everyone else all lie beyond it, as far as its equations push it: such a group's summed
    /// residual stays the same wherever it stands, until one of those games comes back within
    /// the cap, so Newton's step, whose matrix is flat there but for the diagonal's floor, would
    /// creep that far (a point or so a step). The group moves in one go to just inside the cap
    /// of its nearest game on the side it is pushed towards. Groups go in order of their first
    /// player, each from where the earlier ones left it; a group one of whose games an earlier
    /// move brought within the cap waits for the next step, which sees it joined. Each group of
    /// players who met holds its largest such group still (`met`: their groups), the others
    /// moving against it. Whether any group moved.
    fn shift_flat_groups(
        &self,
        rating: &mut [f64],
        residual: &[f64],
        met: &(Vec<u32>, usize),
    ) -> bool {
        let (group, count) = self.within_cap_groups(rating);
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (i, &g) in group.iter().enumerate().filter(|(_, g)| **g != NONE) {
            members[g as usize].push(i);
        }
        let held = largest_within(&members, met);
        let mut moved = false;
        for (g, players) in members.iter().enumerate() {
            let pushed: f64 = players.iter().map(|&i| residual[i]).sum();
            if players.is_empty() || held[g] || pushed.abs() <= FLAT_RESIDUAL {
                continue;
            }
            if let Some(distance) = self.distance_to_cap(rating, players, &group, g, pushed > 0.0) {
                let by = (distance + TOLERANCE).copysign(pushed);
                for &i in players {
                    rating[i] += by;
                }
                moved = true;
            }
        }
        moved
    }

    /// How far the group `g` (its `players`) can move up (or down) before its nearest game with
    /// another group on that side comes back within the cap; `None` when a game with another
    /// group already lies within it (an earlier group's move brought it there) or none lies on
    /// that side.
    fn distance_to_cap(
        &self,
        rating: &[f64],
        players: &[usize],
        group: &[u32],
        g: usize,
        up: bool,
    ) -> Option<f64> {
        let mut nearest = f64::INFINITY;
        for &i in players {
            for k in self.start[i]..self.start[i + 1] {
                if group[self.opponent[k] as usize] as usize == g {
                    continue;
                }
                let d = self.difference(rating, i, k);
                if d.abs() < CAP {
                    return None;
                }
                let towards = if up { -d - CAP } else { d - CAP };
                if towards >= 0.0 {
                    nearest = nearest.min(towards);
                }
            }
        }
        nearest.is_finite().then_some(nearest)
    }

    /// Each player's group of players who met within the cap at `rating`, directly or through
    /// others, and how many groups; `NONE` for players without games.
    fn within_cap_groups(&self, rating: &[f64]) -> (Vec<u32>, usize) {
        self.components(|i, k| self.difference(rating, i, k).abs() < CAP)
    }

    /// Each player's group (players who met directly or through others), numbered in order of
    /// their first player, and how many; `NONE` for players without games.
    fn groups(&self) -> (Vec<u32>, usize) {
        self.components(|_, _| true)
    }

    /// The groups of players joined by the games `joins(player, k)` accepts, numbered in order of
    /// their first player, and how many; `NONE` for players without games.
    fn components(&self, joins: impl Fn(usize, usize) -> bool) -> (Vec<u32>, usize) {
        let players = self.players();
        let mut group = vec![NONE; players];
        let mut next = 0;
        let mut stack = Vec::new();
        for first in 0..players {
            if group[first] != NONE || self.degree(first) == 0 {
                continue;
            }
            group[first] = next;
            stack.push(first);
            while let Some(p) = stack.pop() {
                for k in self.start[p]..self.start[p + 1] {
                    let o = self.opponent[k] as usize;
                    if group[o] == NONE && joins(p, k) {
                        group[o] = next;
                        stack.push(o);
                    }
                }
            }
            next += 1;
        }
        (group, next as usize)
    }
}

/// Whether each group within the cap (`members`: each one's players) is held still: in each group
/// of players who met (`met`: each player's, and how many), the largest of the groups within the
/// cap that lie in it, the first of the largest.
fn largest_within(members: &[Vec<usize>], met: &(Vec<u32>, usize)) -> Vec<bool> {
    let mut largest: Vec<Option<usize>> = vec![None; met.1];
    for (g, players) in members.iter().enumerate() {
        let Some(&first) = players.first() else {
            continue;
        };
        let held = &mut largest[met.0[first] as usize];
        if held.is_none_or(|h| players.len() > members[h].len()) {
            *held = Some(g);
        }
    }
    let mut held = vec![false; members.len()];
    for g in largest.into_iter().flatten() {
        held[g] = true;
    }
    held
}

/// Σ a·b, in order (the same bits whatever the threads).
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Gathers, month by month as a world is generated, the games of the windows of some January
/// lists with their true expected scores, and solves each January's equilibrium when its list
/// comes (every game rated on it was played before).
pub struct Windows {
    settings: Settings,
    /// The Januaries wanted, in order.
    januaries: Vec<Month>,
    /// Games kept for a later window: (rated on, white, black, White's expected score).
    kept: Vec<(Month, WindowGame)>,
    /// This month's true strengths by dense index (scratch).
    strength: Vec<f32>,
    solved: Vec<(Month, Equilibrium)>,
}

/// An equilibrium that Newton's method did not bring to rest: a bug, reported with what to send.
#[derive(Debug, thiserror::Error)]
#[error("the equilibrium ratings of the {month} list did not converge ({steps} Newton steps, the last moving a player by {last_move:.3} points): this is a bug in elosim, please report it with the world file")]
pub struct NotConverged {
    pub month: Month,
    pub steps: u32,
    pub last_move: f64,
}

impl Windows {
    /// The windows of `januaries` (other months are not lists with a truth, and are ignored).
    pub fn new(settings: &Settings, januaries: &[Month]) -> Windows {
        let mut januaries: Vec<Month> = januaries
            .iter()
            .copied()
            .filter(|m| m.month() == 1)
            .collect();
        januaries.sort();
        januaries.dedup();
        Windows {
            settings: settings.clone(),
            januaries,
            kept: Vec::new(),
            strength: Vec::new(),
            solved: Vec::new(),
        }
    }

    /// Whether any January is wanted.
    pub fn wanted(&self) -> bool {
        !self.januaries.is_empty()
    }

    /// Takes in one month of the world (months in order); an equilibrium that did not converge is
    /// an error.
    pub fn month(&mut self, batch: &MonthBatch) -> Result<(), NotConverged> {
        if !self.wanted() {
            return Ok(());
        }
        let first = self.settings.first_id;
        for (&id, &s) in batch.truth_id.iter().zip(&batch.truth_strength) {
            let i = (id - first) as usize;
            if i >= self.strength.len() {
                self.strength.resize(i + 1, f32::NAN);
            }
            self.strength[i] = s;
        }
        let month = batch.month;
        if self.januaries.contains(&month) {
            // Every game rated on this list came from an earlier month.
            let games: Vec<WindowGame> = self
                .kept
                .iter()
                .filter(|(list, _)| in_window(*list, month))
                .map(|(_, g)| *g)
                .collect();
            let solved = solve(self.strength.len(), &games, &self.strength);
            if !solved.converged {
                return Err(NotConverged {
                    month,
                    steps: solved.steps,
                    last_move: solved.last_move,
                });
            }
            self.solved.push((month, solved));
        }
        let later: Vec<Month> = self
            .januaries
            .iter()
            .copied()
            .filter(|&j| j > month)
            .collect();
        let needed = |list: Month| later.iter().any(|&j| in_window(list, j));
        self.kept.retain(|(list, _)| needed(*list));
        for i in 0..batch.white.len() {
            if !needed(batch.period[i]) {
                continue;
            }
            let (w, b) = (batch.white[i] - first, batch.black[i] - first);
            let expected = expected_score(
                f64::from(self.strength[w as usize]),
                f64::from(self.strength[b as usize]),
                &self.settings,
            );
            self.kept.push((
                batch.period[i],
                WindowGame {
                    white: w,
                    black: b,
                    expected,
                },
            ));
        }
        Ok(())
    }

    /// Each January's equilibrium, its vectors as long as the world's `players`.
    pub fn finish(self, players: usize) -> Vec<(Month, Equilibrium)> {
        self.solved
            .into_iter()
            .map(|(month, mut e)| {
                e.rating.resize(players, f32::NAN);
                e.games.resize(players, 0);
                (month, e)
            })
            .collect()
    }
}

/// Whether games rated on `list` are in the window of the January list `january`.
pub fn in_window(list: Month, january: Month) -> bool {
    list <= january && list > january.plus(-WINDOW)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: u32, black: u32, expected: f64) -> WindowGame {
        WindowGame {
            white,
            black,
            expected,
        }
    }

    /// The rating difference at which FIDE's curve gives `p` (p within the cap).
    fn inverse(p: f64) -> f64 {
        let (mut low, mut high) = (-CAP, CAP);
        for _ in 0..200 {
            let mid = (low + high) / 2.0;
            if fide_curve(mid) < p {
                low = mid;
            } else {
                high = mid;
            }
        }
        (low + high) / 2.0
    }

    #[test]
    fn the_curve_is_fides_table_smoothly() {
        // Table 8.1.2 rounds this curve: 100 points → .64, 200 → .76, 400 → .92; beyond 400 the
        // difference counts as 400.
        assert!((fide_curve(0.0) - 0.5).abs() < 1e-7);
        assert!((fide_curve(100.0) - 0.64).abs() < 0.005);
        assert!((fide_curve(200.0) - 0.76).abs() < 0.005);
        assert!((fide_curve(400.0) - 0.9214).abs() < 0.0001);
        assert_eq!(fide_curve(700.0), fide_curve(400.0));
        assert!((fide_curve(-150.0) + fide_curve(150.0) - 1.0).abs() < 1e-15);
        // The table's slope is the curve's derivative within the cap, up to its last 1/32 point,
        // and 0 beyond; its value the curve's.
        let curve = Curve::new();
        let derivative = |x: f64| (fide_curve(x + 0.01) - fide_curve(x - 0.01)) / 0.02;
        for x in [-250.0, 0.0, 120.0, 399.99] {
            let (value, slope) = curve.at(x);
            assert!((value - fide_curve(x)).abs() < 1e-8, "{x}");
            assert!((slope - density(x)).abs() < 1e-9, "{x}: {slope}");
            // The world's erfc (Numerical Recipes', within 1.2e-7 of the true one) has a kink at
            // 0 where its slope is 0.1 % off the density's: harmless to Newton's steps.
            assert!((slope - derivative(x)).abs() < 2e-6, "{x}: {slope}");
        }
        assert_eq!(curve.at(450.0), (fide_curve(400.0), 0.0));
        // The integral's derivative is the curve, within the cap and beyond it.
        for x in [-600.0, -120.0, 0.5, 250.0, 401.0, 900.0] {
            let slope = (integral(x + 0.01) - integral(x - 0.01)) / 0.02;
            assert!((slope - fide_curve(x)).abs() < 1e-7, "{x}: {slope}");
        }
    }

    /// Two players: the gap at which FIDE's curve gives the stronger their expected score, the
    /// pair centred on their mean true strength.
    #[test]
    fn two_players_by_hand() {
        // Four games with colours alternating, expected 0.70 and 0.66 for the first as White and
        // as Black: a mean of 0.68.
        let games = [
            game(0, 1, 0.70),
            game(1, 0, 0.34),
            game(0, 1, 0.70),
            game(1, 0, 0.34),
        ];
        let e = solve(2, &games, &[2100.0, 1900.0]);
        let gap = inverse(0.68);
        // Φ⁻¹(0.68) = 0.46770 standard deviations of 200·√2.
        assert!((gap - 132.29).abs() < 0.01, "{gap}");
        let (a, b) = (f64::from(e.rating[0]), f64::from(e.rating[1]));
        assert!((a - b - gap).abs() < 0.02, "{a} {b} {gap}");
        assert!(((a + b) / 2.0 - 2000.0).abs() < 0.01);
        assert_eq!(e.games, [4, 4]);
        assert_eq!((e.groups, e.outside_largest), (1, 0));
        assert!(e.last_move < TOLERANCE);
    }

    /// Three players in a chain A–B–C and a fourth player alone: each link at its own gap, the
    /// chain's gaps adding up, the player without games without a rating.
    #[test]
    fn a_chain_adds_its_gaps_and_groups_anchor_apart() {
        let games = [game(0, 1, 0.60), game(1, 2, 0.75), game(3, 4, 0.5)];
        let anchor = [2000.0, 1900.0, 1700.0, 1500.0, 1300.0, 1800.0];
        let e = solve(6, &games, &anchor);
        let r: Vec<f64> = e.rating.iter().map(|&r| f64::from(r)).collect();
        // B's two games cancel only where each is at its own gap: A − B = F⁻¹(0.60), B − C = F⁻¹(0.75).
        assert!((r[0] - r[1] - inverse(0.60)).abs() < 0.05, "{r:?}");
        assert!((r[1] - r[2] - inverse(0.75)).abs() < 0.05, "{r:?}");
        assert!(((r[0] + r[1] + r[2]) / 3.0 - 1866.667).abs() < 0.01);
        // The pair D–E met nobody else: anchored on its own mean, 1400, and level.
        assert!((r[3] - 1400.0).abs() < 0.01 && (r[4] - 1400.0).abs() < 0.01);
        assert!(r[5].is_nan());
        assert_eq!((e.groups, e.outside_largest), (2, 2));
        assert_eq!(e.games, [1, 2, 1, 1, 1, 0]);
    }

    /// A score beyond what the capped curve can express counts as the cap: the favourite sits at
    /// least 400 points above, however lopsided the expected score.
    #[test]
    fn an_expected_score_beyond_the_cap_counts_as_the_cap() {
        let games = [game(0, 1, 0.99), game(1, 0, 0.01), game(0, 1, 0.99)];
        let e = solve(2, &games, &[2000.0, 1000.0]);
        let gap = f64::from(e.rating[0] - e.rating[1]);
        assert!(gap >= CAP - 0.05, "{gap}");
        assert!(e.last_move < TOLERANCE);
    }

    /// A pair who met each other and, each once, a player beyond the 400-point cap: wherever the
    /// pair stands between those two games' caps its equations are off by the same small sum, so
    /// Newton's steps alone crept a point or so a step for a hundred steps (the January 2021
    /// window of a world whose activity comes from FIDE's lists, scale 0.05, seed 42, had such a
    /// pair). The pair moves in one go to the cap of the game its sum pushes it towards, and the
    /// steps come to rest there.
    #[test]
    fn a_pair_held_only_beyond_the_cap_moves_to_the_cap_in_one_go() {
        let (x, y, a, b, z) = (0, 1, 2, 3, 4);
        // X and Y 800 points apart; A and B 366 apart, each beyond the cap from X or Y.
        let mut games = vec![
            game(a, x, 0.095198),
            game(b, y, 0.904795),
            game(a, b, 0.081127),
        ];
        for _ in 0..3 {
            games.push(game(x, z, 0.92));
            games.push(game(z, y, 0.92));
        }
        let e = solve(5, &games, &[1788.0, 1163.0, 1287.0, 1653.0, 1475.0]);
        assert!(
            e.converged && e.steps < 10 && e.last_move < TOLERANCE,
            "{e:?}"
        );
        let r = |p: u32| f64::from(e.rating[p as usize]);
        // The pair's games with X and Y expect 0.095198 + 0.904795 = 0.999993 of a point, where
        // beyond the cap both ways the curve gives F(−400) + F(400) = 1: the pair went down until
        // B's game with Y came back to the cap, and A's game with X stays beyond it.
        assert!((r(b) - r(y) - CAP).abs() < 0.05, "{e:?}");
        assert!(r(a) <= r(x) - CAP, "{e:?}");
        let gap = inverse(1.0 - 0.081127 - (0.095198 - fide_curve(-CAP)));
        assert!((r(b) - r(a) - gap).abs() < 0.05, "{e:?}");
    }

    /// Two groups held only beyond the cap, pushed towards each other: the first to move brings
    /// their game back within the cap, and the second waits for the next step rather than move
    /// through it (moving both in one pass put their game 280 points off its gap).
    #[test]
    fn a_group_does_not_move_through_a_game_an_earlier_move_brought_within_the_cap() {
        let (h0, h1, h2, a, b) = (0, 1, 2, 3, 4);
        let mut games = vec![
            game(a, b, fide_curve(-380.0)),
            game(b, h0, fide_curve(390.0)),
        ];
        for (x, y) in [(h0, h1), (h1, h2), (h2, h0)] {
            games.push(game(x, y, 0.5));
        }
        // One shift from A at 1200 and B at 1700, the three others at 1000: A goes up to just
        // within the cap of B, and B, which would have gone down to the cap of the three, waits.
        let graph = Graph::new(5, &games);
        let mut rating = vec![1000.0, 1000.0, 1000.0, 1200.0, 1700.0];
        let l = graph.linearise(&rating);
        assert!(graph.shift_flat_groups(&mut rating, &l.residual, &graph.groups()));
        assert!(
            (rating[a as usize] - (1300.0 + TOLERANCE)).abs() < 1e-9,
            "{rating:?}"
        );
        assert_eq!(rating[b as usize], 1700.0);
        // And the solve reaches both games' gaps.
        let e = solve(5, &games, &[1000.0, 1000.0, 1000.0, 1200.0, 1700.0]);
        let r = |p: u32| f64::from(e.rating[p as usize]);
        assert!(e.converged && e.steps < 10, "{e:?}");
        assert!((r(b) - r(a) - 380.0).abs() < 0.05, "{e:?}");
        assert!((r(b) - r(h0) - 390.0).abs() < 0.05, "{e:?}");
    }

    /// docs/sweep.md ("The truth a rating system can reach") gives what a strength gap is worth on
    /// FIDE's curve in the built-in world: the model's own figures, colours averaged.
    #[test]
    fn the_docs_give_the_built_in_world_s_curve() {
        let settings = crate::generate::world::preset("fide-2001-2025").unwrap();
        let worth = |gap: f64| {
            let as_white = expected_score(2000.0 + gap, 2000.0, &settings);
            let as_black = 1.0 - expected_score(2000.0, 2000.0 + gap, &settings);
            inverse(((as_white + as_black) / 2.0).min(fide_curve(CAP))).round()
        };
        let figures: Vec<String> = [100.0, 200.0, 400.0, 800.0]
            .iter()
            .map(|&gap| format!("{}", worth(gap)))
            .collect();
        let docs = include_str!("../../../docs/sweep.md").replace('\n', " ");
        let said = format!(
            "100 / 200 / 400 / 800 points is worth {} rating points",
            figures.join(" / ")
        );
        assert!(docs.contains(&said), "docs/sweep.md should say: {said}");
        let most = worth(5000.0);
        assert!(
            docs.contains(&format!("no gap is worth more than about {most}")),
            "{most}"
        );
    }

    /// A generated world's January: the solve converges, and at its ratings every player's own
    /// equation is solved (their Newton step alone would move them by under a tenth of a point);
    /// each group's mean is its players' mean strength.
    #[test]
    fn a_generated_world_s_equilibrium_solves_its_equations() {
        let mut settings = crate::generate::world::preset("fide-2001-2025")
            .unwrap()
            .sized(0.003, 5)
            .unwrap();
        settings.months = 26;
        let january = settings.start.plus(24);
        struct Sink {
            windows: Windows,
            games: Vec<(Month, WindowGame)>,
            strength: Vec<f32>,
            at_january: Vec<f32>,
        }
        impl super::super::WorldSink for Sink {
            type Error = NotConverged;

            fn month(&mut self, batch: &MonthBatch) -> Result<(), NotConverged> {
                let first = self.windows.settings.first_id;
                for (&id, &s) in batch.truth_id.iter().zip(&batch.truth_strength) {
                    let i = (id - first) as usize;
                    self.strength
                        .resize(self.strength.len().max(i + 1), f32::NAN);
                    self.strength[i] = s;
                }
                if batch.month.month() == 1 {
                    self.at_january = self.strength.clone();
                }
                for i in 0..batch.white.len() {
                    let (w, b) = (batch.white[i] - first, batch.black[i] - first);
                    let expected = expected_score(
                        f64::from(self.strength[w as usize]),
                        f64::from(self.strength[b as usize]),
                        &self.windows.settings,
                    );
                    let game = WindowGame {
                        white: w,
                        black: b,
                        expected,
                    };
                    self.games.push((batch.period[i], game));
                }
                self.windows.month(batch)
            }
        }
        let mut sink = Sink {
            windows: Windows::new(&settings, &[january]),
            games: Vec::new(),
            strength: Vec::new(),
            at_january: Vec::new(),
        };
        let world = crate::generate::world::generate(&settings, &mut sink, &|_, _| {}).unwrap();
        let solved = sink.windows.finish(world.players.len());
        let e = &solved[0].1;
        assert!(
            e.converged && e.steps < MAX_STEPS,
            "{} {}",
            e.steps,
            e.last_move
        );
        let games: Vec<WindowGame> = sink
            .games
            .iter()
            .filter(|(list, _)| in_window(*list, january))
            .map(|(_, g)| *g)
            .collect();
        assert!(games.len() > 1000, "{}", games.len());
        let graph = Graph::new(world.players.len(), &games);
        let rating: Vec<f64> = e.rating.iter().map(|&r| f64::from(r)).collect();
        let l = graph.linearise(&rating);
        let worst = (0..graph.players())
            .filter(|&i| graph.degree(i) > 0)
            .map(|i| (l.residual[i] / l.diagonal[i]).abs())
            .fold(0.0f64, f64::max);
        assert!(
            worst < 0.1,
            "a player's own step would move them {worst} points"
        );
        let (group, _) = graph.groups();
        let largest = group[games[0].white as usize];
        let (mut r, mut s, mut n) = (0.0, 0.0, 0.0);
        for i in (0..graph.players()).filter(|&i| group[i] == largest) {
            r += rating[i];
            s += f64::from(sink.at_january[i]);
            n += 1.0;
        }
        assert!(((r - s) / n).abs() < 0.01, "{} {}", r / n, s / n);
    }

    /// The windows gather the games rated on the 18 lists up to each January, scored at the
    /// strengths of the month they were played, and solve it when the January's month comes.
    #[test]
    fn windows_take_the_lists_up_to_the_january() {
        let settings = Settings {
            first_id: 100,
            white_advantage: 0.0,
            form_sd: 0.0,
            upset_share: 0.0,
            ..Settings::default()
        };
        let january = Month::new(2023, 1).unwrap();
        let mut windows = Windows::new(&settings, &[january, january.plus(3)]);
        let batch = |month: Month, period: Month, strengths: [f32; 2]| MonthBatch {
            month,
            period: vec![period, period],
            event: vec![1, 1],
            event_start: vec![month.first_day(); 2],
            event_type: vec![crate::model::EventType::Swiss; 2],
            white: vec![100, 101],
            black: vec![101, 100],
            score: vec![1, 1],
            truth_id: vec![100, 101],
            truth_strength: strengths.to_vec(),
        };
        // Rated on July 2021: before the window (its first list is August 2021).
        windows
            .month(&batch(
                Month::new(2021, 6).unwrap(),
                Month::new(2021, 7).unwrap(),
                [2400.0, 1600.0],
            ))
            .unwrap();
        // Rated on August 2021 and on January 2023: in it, at 100 points apart.
        windows
            .month(&batch(
                Month::new(2021, 7).unwrap(),
                Month::new(2021, 8).unwrap(),
                [2050.0, 1950.0],
            ))
            .unwrap();
        windows
            .month(&batch(
                Month::new(2022, 12).unwrap(),
                january,
                [2050.0, 1950.0],
            ))
            .unwrap();
        windows
            .month(&batch(january, january.plus(1), [2000.0, 2000.0]))
            .unwrap();
        let solved = windows.finish(3);
        assert_eq!(
            solved.len(),
            1,
            "only the Januaries, when their month comes"
        );
        let (month, e) = &solved[0];
        assert_eq!(*month, january);
        assert_eq!(e.games, [4, 4, 0]);
        // No form, no upsets, no first move: the world's curve is FIDE's, so the gap is 100.
        assert!(
            (f64::from(e.rating[0] - e.rating[1]) - 100.0).abs() < 0.05,
            "{:?}",
            e.rating
        );
        // Anchored on January's strengths: 2000 and 2000.
        assert!((f64::from(e.rating[0] + e.rating[1]) / 2.0 - 2000.0).abs() < 0.01);
        assert!(e.rating[2].is_nan());
    }
}
