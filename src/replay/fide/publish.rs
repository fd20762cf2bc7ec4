//! What FIDE's engine does once a period's outcomes are known: each player's outcome applied
//! (reference §4–§6: the change, the floor, a first rating), the one-off events (§8), and the list
//! published with its K and inactivity flags (§3.2, §7).

use std::collections::BTreeMap;

use crate::model::{Month, PlayerId};
use crate::rules::calendar::is_inactive;
use crate::rules::floor::is_listed;
use crate::rules::EventTiming;
use crate::rules::{DelistedGames, KRule, Regulations};
use crate::scenario::{EventKind, Scenario};
use crate::systems::fide::Outcome;

use super::newcomers;
use super::state::State;
use crate::replay::{ListRows, PeriodOutcome, PeriodRecords};

/// What publishing a list changes: the players' state and the publisher.
pub(super) struct Publish<'e> {
    pub(super) scenario: &'e Scenario,
    pub(super) state: &'e mut State,
    pub(super) publisher: &'e mut Publisher,
}

impl Publish<'_> {
    /// Applies the period's outcomes (`(player, outcome)` in the order the period met the players)
    /// under the rules of the period's start, `list_rules`, then the one-off events after the
    /// calculations, and publishes list `t` of `month`.
    pub(super) fn list<'o>(
        &mut self,
        (t, month, list_rules): (usize, Month, &Regulations),
        outcomes: impl Iterator<Item = (&'o PlayerId, &'o Outcome)>,
        (rows, periods, delisted): (&mut ListRows, &mut PeriodRecords, &mut usize),
    ) {
        let rules = self.scenario.timeline.at_month(month);
        // The K of those who played is recomputed as their outcome is applied, while their state
        // is at hand, unless publishing recomputes every K anyway (reference §3.2): under other K
        // rules, or after a one-off event that changes the ratings once the calculations are done.
        // Publishing then recomputes only the K a new year can change (`Publisher::publish`).
        let rerated_after = events_at(self.scenario, month, false).any(rerates);
        let k_now = (!self.publisher.recomputes_every_k(&rules.k) && !rerated_after)
            .then_some((&rules.k, month.year()));
        for (&player, outcome) in outcomes {
            self.apply_outcome(
                (t, month, list_rules),
                player as usize,
                *outcome,
                (periods, delisted),
                k_now,
            );
        }
        apply_events(self.scenario, (self.state, self.publisher), month, false);
        self.publisher
            .publish(rows, self.state, rules, month, false);
    }

    /// Applies one player's period outcome (reference §4–§6) and records it; with `k_now` (the
    /// list's K rule and year), recomputes the K of a player rated now.
    fn apply_outcome(
        &mut self,
        (t, month, rules): (usize, Month, &Regulations),
        p: usize,
        outcome: Outcome,
        (periods, delisted): (&mut PeriodRecords, &mut usize),
        k_now: Option<(&KRule, i32)>,
    ) {
        let (state, publisher) = (&mut *self.state, &mut *self.publisher);
        match outcome {
            Outcome::Rated { change, games } if games > 0 => {
                publisher.played(p, games);
                state.shown[p] = true;
                state.last_rated_game[p] = Some(month);
                state.history[p].total_games += games;
                let rating = state.list[p].rating + change;
                if !is_listed(rating, rules.floor) {
                    // Reference §5: "shown as unrated on the next list … treated in the same manner
                    // as any other unrated player".
                    state.list[p].rated = false;
                    if rules.delisted_games == DelistedGames::Reset {
                        state.history[p].total_games = 0;
                    }
                    *delisted += 1;
                    periods.rated((t, p), PeriodOutcome::Delisted, games, (change, rating));
                    return;
                }
                state.list[p].rating = rating;
                periods.rated((t, p), PeriodOutcome::Rated, games, (change, rating));
            }
            Outcome::Rated { .. } => return,
            Outcome::Unrated { counted } => {
                let pool = &mut state.pool[p];
                let pooled = newcomers::add_to_pool(pool, month, counted, rules);
                if pooled.from.is_none() {
                    return;
                }
                let Some(rating) = pooled.qualifies(rules) else {
                    periods.pooled((t, p), PeriodOutcome::Pooled, counted.games, &pooled);
                    return;
                };
                periods.pooled((t, p), PeriodOutcome::FirstRating, counted.games, &pooled);
                state.history[p].total_games += newcomers::pooled_games(pool);
                pool.clear();
                state.list[p].rated = true;
                state.list[p].rating = rating;
                state.shown[p] = true;
                state.last_rated_game[p] = Some(month);
                publisher.rated_first(p, counted.games);
            }
        }
        // Listed now, with a rated game on this list: idle from it.
        publisher.played_now.push(p as u32);
        if let Some((rule, year)) = k_now {
            recompute_k(state, p, rule, year);
        }
    }
}

/// A rated player's K on a list of `year` under `rule`, their history published first (reference
/// §3.2); whether it changed.
fn recompute_k(state: &mut State, p: usize, rule: &KRule, year: i32) -> bool {
    let history = &mut state.history[p];
    history.publish(state.list[p].rating, rule);
    let k = rule.k_for_list(history, state.birth_year[p], year);
    let changed = k != state.list[p].k;
    state.list[p].k = k;
    changed
}

/// The kinds of the one-off events on `month` that apply before its calculations (`before`) or
/// after them (reference §8).
fn events_at(scenario: &Scenario, month: Month, before: bool) -> impl Iterator<Item = &EventKind> {
    let applies = move |kind: &&EventKind| match kind {
        EventKind::Compression(c) => (c.timing == EventTiming::BeforeCalculation) == before,
        EventKind::FreshStart => !before,
    };
    scenario
        .events
        .iter()
        .filter(move |e| e.list == month)
        .map(|e| &e.kind)
        .filter(applies)
}

/// Whether a one-off event changes the listed ratings, so that every K is recomputed and every
/// listed player published after it (reference §8).
fn rerates(kind: &EventKind) -> bool {
    matches!(kind, EventKind::Compression(_))
}

/// One-off events on `month`, before or after its calculations (reference §8).
pub(super) fn apply_events(
    scenario: &Scenario,
    (state, publisher): (&mut State, &mut Publisher),
    month: Month,
    before: bool,
) {
    for kind in events_at(scenario, month, before) {
        match kind {
            EventKind::Compression(c) => {
                for p in 0..state.players() {
                    if state.list[p].rated && state.shown[p] {
                        state.list[p].rating = c.apply(state.list[p].rating);
                    }
                }
            }
            EventKind::FreshStart => state.pool.iter_mut().for_each(Vec::clear),
        }
        if rerates(kind) {
            publisher.recompute_all();
        }
    }
}

/// Publishes lists: K and inactivity for every rated player shown (reference §3.2, §7). A list
/// holds the players whose row may have changed: those who played, were rated or left, those whose
/// K changed (recomputed for everyone under other K rules or after a one-off event, for those with
/// a birth year at a new year, else for those who played), and those whose last rated game makes
/// them inactive now; every listed player only on the first list, after a one-off event or under
/// other inactivity rules.
#[derive(Clone)]
pub(super) struct Publisher {
    /// Rated games this period, and first ratings this period.
    period_games: Vec<u32>,
    first: Vec<bool>,
    /// Players whose rating or history changed this period: their K is recomputed.
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    /// Listed players whose last rated game is this list's, in the order their outcomes were
    /// applied: idle from this list on.
    played_now: Vec<u32>,
    /// Recompute every K (a new year for the junior rule, other K rules, a one-off event).
    all: bool,
    last_year: i32,
    last_rules: Option<KRule>,
    last_inactive_after: Option<i32>,
    /// Listed players by the month of their last rated game, until the list that flags them
    /// inactive: the players a list changes without their playing.
    idle_since: BTreeMap<Month, Vec<u32>>,
    /// The players of the list being published, and room to sort them.
    candidates: Vec<u32>,
    spare: Vec<u32>,
    /// Players with a birth year: the only ones whose K a new year can change (the junior rule).
    dated: Vec<u32>,
}

impl Publisher {
    pub(super) fn new(birth_year: &[Option<i16>]) -> Publisher {
        let n = birth_year.len();
        Publisher {
            dated: (0..n as u32)
                .filter(|&p| birth_year[p as usize].is_some())
                .collect(),
            period_games: vec![0; n],
            first: vec![false; n],
            touched: Vec::new(),
            is_touched: vec![false; n],
            played_now: Vec::new(),
            all: true,
            last_year: i32::MIN,
            last_rules: None,
            last_inactive_after: None,
            idle_since: BTreeMap::new(),
            candidates: Vec::new(),
            spare: Vec::new(),
        }
    }

    fn touch(&mut self, p: usize) {
        if !self.is_touched[p] {
            self.is_touched[p] = true;
            self.touched.push(p as u32);
        }
    }

    fn played(&mut self, p: usize, games: u32) {
        self.period_games[p] = games;
        self.touch(p);
    }

    /// A first rating; `games` are the period's games behind it.
    fn rated_first(&mut self, p: usize, games: u32) {
        self.first[p] = true;
        self.period_games[p] = games;
        self.touch(p);
    }

    fn recompute_all(&mut self) {
        self.all = true;
    }

    /// Whether publishing under `rule` recomputes every K: the first list computed, other K rules,
    /// a one-off event.
    fn recomputes_every_k(&self, rule: &KRule) -> bool {
        self.all || self.last_rules.as_ref() != Some(rule)
    }

    /// The list's rows. The starting list is published as given: its K and ratings are the
    /// input's.
    pub(super) fn publish(
        &mut self,
        rows: &mut ListRows,
        state: &mut State,
        rules: &Regulations,
        month: Month,
        starting: bool,
    ) {
        let inactive_after = rules.inactive_after_months;
        // Every K recomputed: other K rules, a one-off event; at a new year, the K of those whose
        // age the junior rule may read.
        let all_k = self.recomputes_every_k(&rules.k);
        let new_year = self.last_year != month.year();
        // Every listed player published: the starting list, a one-off event, other inactivity
        // rules. Otherwise those whose row may have changed.
        let everyone = self.all || self.last_inactive_after != Some(inactive_after);
        self.candidates.clear();
        let mut recompute = |state: &mut State, p: usize| {
            if recompute_k(state, p, &rules.k, month.year()) && !everyone {
                self.candidates.push(p as u32);
            }
        };
        if starting {
        } else if all_k {
            for p in 0..state.players() {
                if state.list[p].rated {
                    recompute(state, p);
                }
            }
        } else {
            // Those who played had theirs recomputed as their outcome was applied (`Publish::list`
            // does whenever the list does not recompute every K); a new year changes the K of
            // those whose age the junior rule may read.
            let dated = if new_year { &self.dated[..] } else { &[] };
            for &p in dated {
                if state.list[p as usize].rated {
                    recompute(state, p as usize);
                }
            }
        }
        let listed = |p: usize| state.list[p].rated && state.shown[p];
        // Inactive from this list: the last rated game `inactive_after` months ago or more.
        let due = month.plus(-inactive_after);
        if everyone {
            self.candidates.extend(
                (0..state.players() as u32)
                    .filter(|&p| listed(p as usize) || self.is_touched[p as usize]),
            );
            self.idle_since.clear();
            for &p in &self.candidates {
                match state.last_rated_game[p as usize] {
                    Some(last) if listed(p as usize) && last > due => {
                        self.idle_since.entry(last).or_default().push(p)
                    }
                    _ => {}
                }
            }
        } else {
            self.candidates.extend_from_slice(&self.touched);
            let later = self.idle_since.split_off(&due.plus(1));
            for (last, players) in std::mem::replace(&mut self.idle_since, later) {
                self.candidates.extend(
                    players
                        .into_iter()
                        .filter(|&p| state.last_rated_game[p as usize] == Some(last)),
                );
            }
            if !self.played_now.is_empty() {
                let idle_from_now = self.idle_since.entry(month).or_default();
                idle_from_now.extend_from_slice(&self.played_now);
            }
            sort_players(&mut self.candidates, &mut self.spare);
        }
        // Column by column over the candidates: each loop is one tight gather.
        let at = |p: &u32| *p as usize;
        let candidates = &self.candidates;
        rows.player.extend_from_slice(candidates);
        rows.listed.extend(candidates.iter().map(|p| listed(at(p))));
        rows.rating
            .extend(candidates.iter().map(|p| state.list[at(p)].rating));
        rows.k
            .extend(candidates.iter().map(|p| state.list[at(p)].k));
        rows.games
            .extend(candidates.iter().map(|p| self.period_games[at(p)]));
        rows.total_games
            .extend(candidates.iter().map(|p| state.history[at(p)].total_games));
        rows.inactive.extend(candidates.iter().map(|p| {
            state.last_rated_game[at(p)].is_none_or(|last| is_inactive(month, last, inactive_after))
        }));
        rows.new
            .extend(candidates.iter().map(|p| self.first[at(p)]));
        for &p in &self.touched {
            self.period_games[p as usize] = 0;
            self.first[p as usize] = false;
            self.is_touched[p as usize] = false;
        }
        self.touched.clear();
        self.played_now.clear();
        if !starting {
            self.all = false;
            self.last_year = month.year();
            self.last_rules = Some(rules.k.clone());
            self.last_inactive_after = Some(inactive_after);
        }
    }
}

/// Sorts player indices and drops repeats: a stable counting sort by 11 bits at a time, as many
/// passes as the largest index needs. A list's candidates come in the order the period met them;
/// comparison-sorting them was a sixth of publishing a list (callgrind, the 1M-game file).
fn sort_players(players: &mut Vec<u32>, spare: &mut Vec<u32>) {
    const BITS: u32 = 11;
    const MASK: u32 = (1 << BITS) - 1;
    let largest = players.iter().copied().max().unwrap_or(0);
    let passes = (u32::BITS - largest.leading_zeros()).div_ceil(BITS);
    spare.clear();
    spare.resize(players.len(), 0);
    for pass in 0..passes {
        let shift = pass * BITS;
        let mut starts = [0usize; 1 << BITS];
        for &p in players.iter() {
            starts[((p >> shift) & MASK) as usize] += 1;
        }
        let mut total = 0;
        for start in starts.iter_mut() {
            (*start, total) = (total, total + *start);
        }
        for &p in players.iter() {
            let digit = ((p >> shift) & MASK) as usize;
            spare[starts[digit]] = p;
            starts[digit] += 1;
        }
        std::mem::swap(players, spare);
    }
    players.dedup();
    // Nothing kept in the spare room: a snapshot of the publisher copies none of it.
    spare.clear();
}

#[cfg(test)]
mod tests {
    use super::sort_players;

    #[test]
    fn players_are_sorted_and_repeats_dropped_as_a_comparison_sort_would() {
        // xorshift64: any spread of indices will do.
        let mut x = 7u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut spare = Vec::new();
        let sizes = [
            (0, 1),
            (1, 1),
            (1000, 50),
            (20_000, 50_000),
            (5000, u32::MAX),
        ];
        for (n, range) in sizes {
            let mut players: Vec<u32> =
                (0..n).map(|_| (next() % u64::from(range)) as u32).collect();
            players.push(range.saturating_sub(1));
            let mut expected = players.clone();
            expected.sort_unstable();
            expected.dedup();
            sort_players(&mut players, &mut spare);
            assert_eq!(players, expected, "{n} below {range}");
        }
        for (mut players, expected) in [
            (vec![], vec![]),
            (vec![u32::MAX, 0, u32::MAX], vec![0, u32::MAX]),
        ] {
            sort_players(&mut players, &mut spare);
            assert_eq!(players, expected);
        }
    }
}
