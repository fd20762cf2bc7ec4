//! FIDE's regulations, era by era, as an engine of the run loop: each period freezes the previous
//! list, computes every player's period in parallel and applies the outcomes, the one-off events
//! and the list-level rules (floor, first ratings, K, inactivity).

mod calculation;
pub(super) mod newcomers;
mod pieces;
mod publish;
mod round_robins;
mod state;

use std::ops::Range;

use crate::model::{Games, Month, SideRecord};
use crate::scenario::Scenario;
use crate::systems::fide::{Outcome, PeriodRules};

use super::driver::{Alongside, Engine, ListOut};
use super::list_games::{ListPieces, Period};
use super::{Inputs, ListRows, Pass, RatedGames, ReplayError};
pub use calculation::SharedIndices;
use calculation::{Frozen, PlayerIndex};
use pieces::{ListSums, Survey};
use publish::{apply_events, Publish, Publisher};
use round_robins::RoundRobins;
use state::{ListView, Lists, State};

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
    /// The next list's index and its games, built while this list is published (games held
    /// whole only).
    ahead: PlayerIndex,
    ahead_of: Option<Range<usize>>,
    /// The lists' indices shared with other replays carrying on from the same snapshot, in place
    /// of `index` and `ahead`, which are then the scratch buffers that build them.
    shared: Option<&'a SharedIndices>,
    results: Vec<SideRecord>,
    outcomes: Vec<Outcome>,
    /// The period's round robins rated by the tournament-rating rule.
    round_robins: RoundRobins,
    /// A list rated in pieces: its games summed by player.
    sums: ListSums,
}

/// What a FIDE replay carries from one list to the next: the players' state, the older lists kept
/// for tournaments rated late, and what the publisher remembers (its idle players, the last K
/// rules). The rest of the engine is buffers, rebuilt each period.
#[derive(Clone)]
pub struct FideSnapshot {
    state: State,
    views: Vec<Option<ListView>>,
    publisher: Publisher,
}

impl<'a> FideEngine<'a> {
    /// The engine of `scenario` carrying on from `snapshot`, taken from a replay of the same inputs
    /// over the same lists under rules that were the same until then; with `shared`, the lists'
    /// indices it shares with the other replays that carry on from it over its schedule.
    pub(super) fn resumed(
        scenario: &'a Scenario,
        inputs: &Inputs,
        lists: &[Month],
        (snapshot, shared): (&FideSnapshot, Option<&'a SharedIndices>),
    ) -> FideEngine<'a> {
        let mut engine =
            FideEngine::from_snapshot(scenario, inputs.players.len(), lists, snapshot.clone());
        engine.shared = shared;
        engine
    }

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
        let start = FideSnapshot {
            state,
            views: vec![None; lists.len()],
            publisher: Publisher::new(&inputs.info.birth_year),
        };
        FideEngine::from_snapshot(scenario, n, lists, start)
    }

    /// The engine of `players` players in the state `snapshot` holds, its buffers empty.
    fn from_snapshot(
        scenario: &'a Scenario,
        players: usize,
        lists: &[Month],
        snapshot: FideSnapshot,
    ) -> FideEngine<'a> {
        let FideSnapshot {
            state,
            views,
            publisher,
        } = snapshot;
        FideEngine {
            scenario,
            lists: lists.to_vec(),
            views,
            spare: Vec::new(),
            publisher,
            index: PlayerIndex::new(players),
            ahead: PlayerIndex::new(players),
            ahead_of: None,
            shared: None,
            results: Vec::new(),
            outcomes: Vec::new(),
            round_robins: RoundRobins::default(),
            sums: ListSums::new(players),
            state,
        }
    }

    /// Starts the period of list `t`: its month and rules (the eras by tournament start, the
    /// list-level rules of the period's start), the one-off events before its calculation applied.
    fn begin_period(&mut self, t: usize) -> (Month, PeriodRules<'a>) {
        let timeline = &self.scenario.timeline;
        let month = self.lists[t];
        apply_events(
            self.scenario,
            (&mut self.state, &mut self.publisher),
            month,
            true,
        );
        let rules = PeriodRules {
            timeline,
            list: timeline.at_month(self.lists[t - 1]),
        };
        (month, rules)
    }
}

impl Engine for FideEngine<'_> {
    fn snapshot(&self) -> Option<FideSnapshot> {
        Some(FideSnapshot {
            state: self.state.clone(),
            views: self.views.clone(),
            publisher: self.publisher.clone(),
        })
    }

    fn start(&mut self, rows: &mut ListRows) {
        let month = self.lists[0];
        let rules = self.scenario.timeline.at_month(month);
        self.publisher
            .publish(rows, &mut self.state, rules, month, true);
    }

    fn period(
        &mut self,
        t: usize,
        period: &Period<'_>,
        out: &mut ListOut,
        alongside: &mut Alongside<'_>,
    ) {
        let (month, rules) = self.begin_period(t);
        let timeline = rules.timeline;
        let shared = self.shared;
        let games_of = |range: &Range<usize>| (period.schedule, period.input, range.clone());
        let index = match shared {
            Some(shared) => shared.get(t, &mut self.index, games_of(&period.range)),
            None => {
                if self.ahead_of.take().as_ref() == Some(&period.range) {
                    std::mem::swap(&mut self.index, &mut self.ahead);
                } else {
                    self.index
                        .build(period.schedule, period.input, period.range.clone());
                }
                &self.index
            }
        };
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
        calculation::compute(
            &frozen,
            &rules,
            index,
            month,
            &mut self.results,
            &mut self.outcomes,
        );
        // The games are recorded, the previous list finished and the next list's games indexed on
        // one thread while the outcomes are applied and the list published on another: neither
        // reads what the other writes.
        let (games, summary) = (&mut out.games, &mut out.summary);
        let results = &self.results;
        let (rows, periods) = (&mut out.rows, &mut out.periods);
        let (ahead, ahead_of) = (&mut self.ahead, &mut self.ahead_of);
        let ((counted, not_counted), ()) = rayon::join(
            || {
                let (counted, ()) = rayon::join(
                    || {
                        let counted = games.record(index, results, period, t);
                        alongside();
                        counted
                    },
                    || match (&period.next, shared) {
                        (Some(next), Some(shared)) => {
                            shared.get(t + 1, ahead, games_of(next));
                        }
                        (Some(next), None) => {
                            ahead.build(period.schedule, period.input, next.clone());
                            *ahead_of = Some(next.clone());
                        }
                        (None, _) => {}
                    },
                );
                counted
            },
            || {
                let mut publish = Publish {
                    scenario: self.scenario,
                    state: &mut self.state,
                    publisher: &mut self.publisher,
                };
                let outcomes = index.players.iter().zip(&self.outcomes);
                publish.list(
                    (t, month, rules.list),
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
        pieces: &mut ListPieces<'_, '_>,
        out: &mut ListOut,
        games: &mut dyn FnMut(&RatedGames, &Games) -> Result<(), ReplayError>,
    ) -> Result<bool, ReplayError> {
        let (month, rules) = self.begin_period(t);
        let timeline = rules.timeline;
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
                let Some(period) = pieces.read(i, &survey.events, Pass::Sum)? else {
                    if surveyed {
                        return Err(changed_between_reads(month));
                    }
                    survey = pieces::survey(self.scenario, pieces)?;
                    surveyed = true;
                    self.round_robins
                        .build(&lists, &survey.round_robins, timeline);
                    continue 'summing;
                };
                self.index
                    .build(period.schedule, period.input, period.range.clone());
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
            let Some(period) = pieces.read(i, &survey.events, Pass::Record)? else {
                return Err(changed_between_reads(month));
            };
            self.index
                .build(period.schedule, period.input, period.range.clone());
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
        for (pos, &[white, black]) in range.zip(&index.by_game) {
            let (white, black) = (results[white as usize], results[black as usize]);
            if !(white.counted || black.counted) {
                continue;
            }
            self.white.push(white);
            self.black.push(black);
            self.game.push(schedule.order[pos]);
            self.list.push(t as u32);
            self.event_start.push(schedule.event_start[pos]);
        }
        let counted = self.game.len() - first;
        (counted, range_len - counted)
    }
}
