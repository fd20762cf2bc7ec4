//! FIDE's regulations, era by era, as an engine of the run loop: each period freezes the previous
//! list, computes every player's period in parallel and applies the outcomes, the one-off events
//! and the list-level rules (floor, first ratings, K, inactivity).

use std::collections::BTreeMap;

use crate::model::{Games, Month, PlayerId, SideRecord};
use crate::rules::floor::is_listed;
use crate::rules::period::is_inactive;
use crate::rules::EventTiming;
use crate::rules::{DelistedGames, KRule, Regulations};
use crate::scenario::{EventKind, Scenario};
use crate::systems::fide::{Outcome, PeriodRules};

use super::driver::{Engine, ListOut};
use super::newcomers;
use super::period::{self, Frozen, PlayerIndex};
use super::periods::{Period, Pieces};
use super::pieces::{self, PeriodSums, Survey};
use super::round_robins::RoundRobins;
use super::state::{ListView, Lists, State};
use super::{Inputs, ListRows, PeriodOutcome, PeriodRecords, RatedGames, ReplayError};

pub(super) struct FideEngine<'a> {
    scenario: &'a Scenario,
    lists: Vec<Month>,
    state: State,
    /// Older lists, kept only for tournaments that started under them and are rated later.
    views: Vec<Option<ListView>>,
    spare: Vec<ListView>,
    publisher: Publisher,
    /// The period's games by player, their sides' records and the players' outcomes; the buffers
    /// are reused from period to period.
    index: PlayerIndex,
    results: Vec<SideRecord>,
    outcomes: Vec<Outcome>,
    /// The period's round robins rated by the tournament-rating rule.
    round_robins: RoundRobins,
    /// A list rated in pieces: its games summed by player.
    sums: PeriodSums,
}

impl<'a> FideEngine<'a> {
    pub(super) fn new(scenario: &'a Scenario, inputs: &Inputs, lists: &[Month]) -> FideEngine<'a> {
        let n = inputs.players.len();
        let state = State::from_start_list(
            n,
            &inputs.start_list,
            inputs.info.birth_year.clone(),
            lists[0],
            scenario.timeline.at_month(lists[0]),
            scenario.bootstrap,
        );
        FideEngine {
            scenario,
            lists: lists.to_vec(),
            views: vec![None; lists.len()],
            spare: Vec::new(),
            publisher: Publisher::new(&inputs.info.birth_year),
            index: PlayerIndex::new(n),
            results: Vec::new(),
            outcomes: Vec::new(),
            round_robins: RoundRobins::default(),
            sums: PeriodSums::new(n),
            state,
        }
    }
}

impl Engine for FideEngine<'_> {
    fn start(&mut self, rows: &mut ListRows) {
        let month = self.lists[0];
        let rules = self.scenario.timeline.at_month(month);
        self.publisher
            .publish(rows, &mut self.state, rules, month, true);
    }

    fn period(&mut self, t: usize, period: &Period<'_>, out: &mut ListOut) {
        let timeline = &self.scenario.timeline;
        let month = self.lists[t];
        let list_rules = timeline.at_month(self.lists[t - 1]);
        apply_events(
            self.scenario,
            (&mut self.state, &mut self.publisher),
            month,
            true,
        );
        self.index.build(period.schedule, period.range.clone());
        let lists = Lists {
            state: &self.state,
            views: &self.views,
            previous: t as u32 - 1,
        };
        self.round_robins
            .build(&lists, period.schedule.list_slots(), timeline);
        let frozen = Frozen {
            lists,
            schedule: period.schedule,
            round_robins: &self.round_robins,
        };
        let rules = PeriodRules {
            timeline,
            list: list_rules,
        };
        period::compute(
            &frozen,
            &rules,
            &self.index,
            month,
            &mut self.results,
            &mut self.outcomes,
        );
        // The games are recorded on one thread while the outcomes are applied and the list
        // published on another: neither reads what the other writes.
        let (games, summary) = (&mut out.games, &mut out.summary);
        let (index, results) = (&self.index, &self.results);
        let (rows, periods) = (&mut out.rows, &mut out.periods);
        let ((counted, not_counted), ()) = rayon::join(
            || games.record(index, results, period, t),
            || {
                let mut publish = Publish {
                    scenario: self.scenario,
                    state: &mut self.state,
                    publisher: &mut self.publisher,
                };
                let outcomes = index.players.iter().zip(&self.outcomes);
                publish.list(
                    (t, month, list_rules),
                    outcomes,
                    (rows, periods, &mut summary.delisted),
                );
            },
        );
        summary.games += counted;
        summary.games_not_counted += not_counted;
    }

    /// A list rated in pieces (`pieces.rs`): the pieces read to sum each player's games, then,
    /// the outcomes known, to record the games, each piece's handed to `games` as soon as it is
    /// recorded. A piece that names events first has every piece read once more before, to find
    /// the list's events and round robins.
    fn period_in_pieces(
        &mut self,
        t: usize,
        pieces: &mut Pieces<'_, '_>,
        out: &mut ListOut,
        games: &mut dyn FnMut(&RatedGames, &Games) -> Result<(), ReplayError>,
    ) -> Result<bool, ReplayError> {
        let timeline = &self.scenario.timeline;
        let month = self.lists[t];
        let rules = PeriodRules {
            timeline,
            list: timeline.at_month(self.lists[t - 1]),
        };
        apply_events(
            self.scenario,
            (&mut self.state, &mut self.publisher),
            month,
            true,
        );
        let lists = Lists {
            state: &self.state,
            views: &self.views,
            previous: t as u32 - 1,
        };
        let mut survey = Survey::without_events();
        let mut surveyed = false;
        self.round_robins.build(&lists, &[], timeline);
        'summing: loop {
            self.sums.clear();
            for i in 0..pieces.count {
                let Some(period) = pieces.read(i, &survey.events, false)? else {
                    if surveyed {
                        return Err(changed_between_reads(month));
                    }
                    survey = pieces::survey(self.scenario, pieces)?;
                    surveyed = true;
                    self.round_robins
                        .build(&lists, &survey.round_robins, timeline);
                    continue 'summing;
                };
                self.index.build(period.schedule, period.range.clone());
                let frozen = Frozen {
                    lists,
                    schedule: period.schedule,
                    round_robins: &self.round_robins,
                };
                self.sums.fold(&frozen, &rules, &self.index, i as u32);
            }
            break;
        }
        self.sums
            .outcomes(&rules, &self.state, month, &mut self.outcomes);
        for i in 0..pieces.count {
            let Some(period) = pieces.read(i, &survey.events, true)? else {
                return Err(changed_between_reads(month));
            };
            self.index.build(period.schedule, period.range.clone());
            let frozen = Frozen {
                lists,
                schedule: period.schedule,
                round_robins: &self.round_robins,
            };
            self.sums
                .records(&frozen, &rules, &self.index, i as u32, &mut self.results)
                .ok_or_else(|| changed_between_reads(month))?;
            out.games.clear();
            let (counted, not_counted) = out.games.record(&self.index, &self.results, &period, t);
            out.summary.games += counted;
            out.summary.games_not_counted += not_counted;
            games(&out.games, period.input)?;
        }
        out.games.clear();
        let mut publish = Publish {
            scenario: self.scenario,
            state: &mut self.state,
            publisher: &mut self.publisher,
        };
        let outcomes = self.sums.players.iter().zip(&self.outcomes);
        publish.list(
            (t, month, rules.list),
            outcomes,
            (&mut out.rows, &mut out.periods, &mut out.summary.delisted),
        );
        Ok(true)
    }

    fn published(&mut self, t: usize, keeps: &dyn Fn(usize) -> bool) {
        for (s, view) in self.views.iter_mut().enumerate().take(t) {
            if !keeps(s) {
                self.spare.extend(view.take());
            }
        }
        if keeps(t) {
            self.views[t] = Some(self.state.view(self.spare.pop()));
        }
    }
}

/// A piece read again that holds what its earlier read did not (an event, a game).
fn changed_between_reads(list: Month) -> ReplayError {
    ReplayError::Input(
        format!("the games of the list of {list} changed while the replay was reading them piece by piece (a piece holds a game or an event it did not hold when first read); replay again once they are complete").into(),
    )
}

/// What publishing a list changes: the players' state and the publisher.
struct Publish<'e> {
    scenario: &'e Scenario,
    state: &'e mut State,
    publisher: &'e mut Publisher,
}

impl Publish<'_> {
    /// Applies the period's outcomes (`(player, outcome)` in the order the period met the players)
    /// under the rules of the period's start, `list_rules`, then the one-off events after the
    /// calculations, and publishes list `t` of `month`.
    fn list<'o>(
        &mut self,
        (t, month, list_rules): (usize, Month, &Regulations),
        outcomes: impl Iterator<Item = (&'o PlayerId, &'o Outcome)>,
        (rows, periods, delisted): (&mut ListRows, &mut PeriodRecords, &mut usize),
    ) {
        for (&player, outcome) in outcomes {
            apply_outcome(
                self.state,
                self.publisher,
                (periods, delisted),
                (t, player as usize),
                *outcome,
                month,
                list_rules,
            );
        }
        apply_events(self.scenario, (self.state, self.publisher), month, false);
        self.publisher.publish(
            rows,
            self.state,
            self.scenario.timeline.at_month(month),
            month,
            false,
        );
    }
}

/// One-off events on `month`, before or after its calculations (reference §8).
fn apply_events(
    scenario: &Scenario,
    (state, publisher): (&mut State, &mut Publisher),
    month: Month,
    before: bool,
) {
    for event in scenario.events.iter().filter(|e| e.list == month) {
        match &event.kind {
            EventKind::Compression(c) if (c.timing == EventTiming::BeforeCalculation) == before => {
                for p in 0..state.players() {
                    if state.list[p].rated && state.shown[p] {
                        state.list[p].rating = c.apply(state.list[p].rating);
                    }
                }
                publisher.recompute_all();
            }
            EventKind::FreshStart if !before => state.pool.iter_mut().for_each(Vec::clear),
            _ => {}
        }
    }
}

/// Applies one player's period outcome (reference §4–§6), and records it.
fn apply_outcome(
    state: &mut State,
    publisher: &mut Publisher,
    (periods, delisted): (&mut PeriodRecords, &mut usize),
    (t, p): (usize, usize),
    outcome: Outcome,
    month: Month,
    rules: &Regulations,
) {
    match outcome {
        Outcome::Rated { change, games } if games > 0 => {
            publisher.played(p, games);
            state.shown[p] = true;
            state.last_rated_game[p] = Some(month);
            state.history[p].total_games += games;
            let rating = state.list[p].rating + change;
            if !is_listed(rating, rules.floor) {
                // Reference §5: "shown as unrated on the next list … treated in the same manner as
                // any other unrated player".
                state.list[p].rated = false;
                if rules.delisted_games == DelistedGames::Reset {
                    state.history[p].total_games = 0;
                }
                *delisted += 1;
                periods.rated((t, p), PeriodOutcome::Delisted, games, (change, rating));
            } else {
                state.list[p].rating = rating;
                periods.rated((t, p), PeriodOutcome::Rated, games, (change, rating));
            }
        }
        Outcome::Rated { .. } => {}
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
}

impl RatedGames {
    /// Appends the period's games that counted for someone, in schedule order; returns how many
    /// games counted and how many counted for nobody.
    fn record(
        &mut self,
        index: &PlayerIndex,
        results: &[SideRecord],
        period: &Period<'_>,
        t: usize,
    ) -> (usize, usize) {
        let (schedule, range) = (period.schedule, period.range.clone());
        let range_len = range.len();
        let first = self.game.len();
        self.white
            .resize(first + range.len(), SideRecord::default());
        self.black
            .resize(first + range.len(), SideRecord::default());
        for (side, result) in index.sides.iter().zip(results) {
            let at = first + side.pos as usize - range.start;
            if side.white {
                self.white[at] = *result;
            } else {
                self.black[at] = *result;
            }
        }
        let mut kept = first;
        for (i, pos) in range.enumerate() {
            let (white, black) = (self.white[first + i], self.black[first + i]);
            if !(white.counted || black.counted) {
                continue;
            }
            self.white[kept] = white;
            self.black[kept] = black;
            self.game.push(schedule.order[pos]);
            self.list.push(t as u32);
            self.event_start.push(schedule.event_start[pos]);
            kept += 1;
        }
        self.white.truncate(kept);
        self.black.truncate(kept);
        let counted = kept - first;
        (counted, range_len - counted)
    }
}

/// Publishes lists: K and inactivity for every rated player shown (reference §3.2, §7). A list
/// holds the players whose row may have changed: those who played, were rated or left, those whose
/// K changed (recomputed for everyone under other K rules or after a one-off event, for those with
/// a birth year at a new year, else for those who played), and those whose last rated game makes
/// them inactive now; every listed player only on the first list, after a one-off event or under
/// other inactivity rules.
struct Publisher {
    /// Rated games this period, and first ratings this period.
    period_games: Vec<u32>,
    first: Vec<bool>,
    /// Players whose rating or history changed this period: their K is recomputed.
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    /// Recompute every K (a new year for the junior rule, other K rules, a one-off event).
    all: bool,
    last_year: i32,
    last_rules: Option<KRule>,
    last_inactive_after: Option<i32>,
    /// Listed players by the month of their last rated game, until the list that flags them
    /// inactive: the players a list changes without their playing.
    idle_since: BTreeMap<Month, Vec<u32>>,
    /// The players of the list being published.
    candidates: Vec<u32>,
    /// Players with a birth year: the only ones whose K a new year can change (the junior rule).
    dated: Vec<u32>,
}

impl Publisher {
    fn new(birth_year: &[Option<i16>]) -> Publisher {
        let n = birth_year.len();
        Publisher {
            dated: (0..n as u32)
                .filter(|&p| birth_year[p as usize].is_some())
                .collect(),
            period_games: vec![0; n],
            first: vec![false; n],
            touched: Vec::new(),
            is_touched: vec![false; n],
            all: true,
            last_year: i32::MIN,
            last_rules: None,
            last_inactive_after: None,
            idle_since: BTreeMap::new(),
            candidates: Vec::new(),
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

    /// The list's rows. The starting list is published as given: its K and ratings are the
    /// input's.
    fn publish(
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
        let all_k = self.all || self.last_rules.as_ref() != Some(&rules.k);
        let new_year = self.last_year != month.year();
        // Every listed player published: the starting list, a one-off event, other inactivity
        // rules. Otherwise those whose row may have changed.
        let everyone = self.all || self.last_inactive_after != Some(inactive_after);
        self.candidates.clear();
        let mut recompute = |state: &mut State, p: usize| {
            let history = &mut state.history[p];
            history.publish(state.list[p].rating, &rules.k);
            let k = rules
                .k
                .k_for_list(history, state.birth_year[p], month.year());
            if k != state.list[p].k && !everyone {
                self.candidates.push(p as u32);
            }
            state.list[p].k = k;
        };
        if starting {
        } else if all_k {
            for p in 0..state.players() {
                if state.list[p].rated {
                    recompute(state, p);
                }
            }
        } else {
            let dated = if new_year { &self.dated[..] } else { &[] };
            for &p in self.touched.iter().chain(dated) {
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
            for &p in &self.touched {
                if listed(p as usize) && state.last_rated_game[p as usize] == Some(month) {
                    self.idle_since.entry(month).or_default().push(p);
                }
            }
            self.candidates.sort_unstable();
            self.candidates.dedup();
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
        if !starting {
            self.all = false;
            self.last_year = month.year();
            self.last_rules = Some(rules.k.clone());
            self.last_inactive_after = Some(inactive_after);
        }
    }
}
