//! A stand-in for each player's published FIDE rating, kept by the generator in a world whose
//! activity comes from FIDE's lists (`fide_activity`): FIDE's tables count players by their
//! published rating and K, so the world counts its players by a rating made as FIDE makes one.
//! The organisers' Elo, which pairs the events, will not do: with K 20 throughout and no floor it
//! lies 130–580 points below the replay's ratings on the world's February 2025 list
//! (docs/generate.md, "Activity from FIDE's lists").
//!
//! The rules are FIDE's own, read from `scenarios/fide-historical.toml` (compiled in): each era's
//! K rule, 350/400-point rule, floor and first-rating rule, and the compression of March 2024. The
//! calculation is simplified where the replay's detail would not move a player's band: every month
//! is a rating period, each game is rated against the opponent's stand-in before the month, and an
//! unrated player's results against rated opponents are pooled, without event gates or window,
//! until they make a rating at the floor or above.

use std::path::Path;

use crate::model::Month;
use crate::rules::floor::is_listed;
use crate::rules::rounding::round_hundredths;
use crate::rules::{Compression, KHistory, PooledResults, Regulations};
use crate::scenario::{EventKind, Scenario};

/// FIDE's regulations, era by era: the replay's historical scenario.
const REGULATIONS: &str = include_str!("../../../scenarios/fide-historical.toml");

/// Every player's stand-in rating and what FIDE's K rule reads of their past.
pub struct Published {
    scenario: Scenario,
    rating: Vec<Option<i32>>,
    history: Vec<KHistory>,
    /// This month's Σ (score − PD) in hundredths over games against rated opponents, and their
    /// number, of each rated player.
    sum: Vec<i64>,
    games: Vec<u32>,
    /// An unrated player's results against rated opponents so far.
    pool: Vec<PooledResults>,
    /// The regulations' compression while it is still ahead (`None` once applied: ratings are
    /// then on the scale of the lists since).
    ahead: Option<Compression>,
}

impl Published {
    pub fn new() -> Published {
        let scenario =
            Scenario::from_text(REGULATIONS, Path::new("scenarios/fide-historical.toml"))
                .expect("the compiled-in historical scenario is valid (tested)");
        let ahead = scenario.events.iter().find_map(|e| match &e.kind {
            EventKind::Compression(c) => Some(c.clone()),
            _ => None,
        });
        Published {
            scenario,
            rating: Vec::new(),
            history: Vec::new(),
            sum: Vec::new(),
            games: Vec::new(),
            pool: Vec::new(),
            ahead,
        }
    }

    pub fn grow(&mut self, players: usize) {
        self.rating.resize(players, None);
        self.history.resize(players, KHistory::default());
        self.sum.resize(players, 0);
        self.games.resize(players, 0);
        self.pool.resize(players, PooledResults::default());
    }

    /// A player of the starting list, with the games behind their rating.
    pub fn start(&mut self, player: usize, rating: i32, total_games: u32, month: Month) {
        self.rating[player] = Some(rating);
        self.history[player].total_games = total_games;
        self.history[player].publish(rating, &self.scenario.timeline.at_month(month).k);
    }

    #[cfg(test)]
    fn rating(&self, player: usize) -> Option<i32> {
        self.rating[player]
    }

    /// The player's rating where the lists since March 2024 would show it.
    pub fn on_todays_scale(&self, player: usize) -> Option<i32> {
        Some(self.todays_scale(self.rating[player]?))
    }

    /// A rating where the lists since March 2024 would show it: compressed as the regulations
    /// compressed ratings (`Compression::apply`) while that is still ahead, so that February
    /// 2025's bands hold the players of any month.
    pub fn todays_scale(&self, rating: i32) -> i32 {
        self.ahead.as_ref().map_or(rating, |c| c.apply(rating))
    }

    pub fn history(&self, player: usize) -> KHistory {
        self.history[player]
    }

    /// Notes one game of `month` (White's half points), against each side's rating before it.
    pub fn record(&mut self, white: usize, black: usize, half_points: u8, month: Month) {
        let rules = self.scenario.timeline.at_month(month);
        let score = i32::from(half_points);
        for (p, o, s) in [(white, black, score), (black, white, 2 - score)] {
            match (self.rating[p], self.rating[o]) {
                (Some(own), Some(opponent)) => {
                    let pd = rules.diff_cap.pd(own, opponent).plain;
                    self.sum[p] += i64::from(s * 50 - pd);
                    self.games[p] += 1;
                }
                (None, Some(opponent)) => self.pool[p].add(PooledResults {
                    games: 1,
                    half_points: s as u32,
                    opponents: i64::from(opponent),
                }),
                _ => {}
            }
        }
    }

    /// Publishes the list after `month`'s games: rated players' changes, K 10 for good once 2400,
    /// first ratings, players below the floor delisted, then any one-off event of that list.
    /// `born(p)` is player p's birth year, `played(p)` their games of the month.
    pub fn update(
        &mut self,
        month: Month,
        born: impl Fn(usize) -> i16,
        played: impl Fn(usize) -> u32,
    ) {
        let list = month.plus(1);
        let rules: &Regulations = self.scenario.timeline.at_month(month);
        for p in 0..self.rating.len() {
            let (sum, games) = (
                std::mem::take(&mut self.sum[p]),
                std::mem::take(&mut self.games[p]),
            );
            match self.rating[p] {
                Some(r) => {
                    let k = rules
                        .k
                        .k_for_list(&self.history[p], Some(born(p)), list.year());
                    let k = rules.k.capped(k, games);
                    let next = r + round_hundredths(i64::from(k) * sum) as i32;
                    self.rating[p] = is_listed(next, rules.floor).then_some(next);
                }
                None => {
                    let pool = self.pool[p];
                    let first = rules.initial.rating(&pool);
                    if let Some(first) = first.filter(|&r| is_listed(r, rules.floor)) {
                        self.rating[p] = Some(first);
                        self.pool[p] = PooledResults::default();
                    }
                }
            }
            self.history[p].total_games += played(p);
            if let Some(r) = self.rating[p] {
                self.history[p].publish(r, &rules.k);
            }
        }
        for event in self.scenario.events.iter().filter(|e| e.list == list) {
            if let EventKind::Compression(c) = &event.kind {
                for r in self.rating.iter_mut().flatten() {
                    *r = c.apply(*r);
                }
                self.ahead = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stand-in follows FIDE's rules: K 40 for a junior, the 400-point rule, a first rating
    /// from five games, delisting under the floor and the compression of March 2024.
    #[test]
    fn the_stand_in_rates_as_fide_does() {
        let mut published = Published::new();
        published.grow(4);
        let month = Month::new(2023, 5).unwrap();
        published.start(0, 1600, 50, month);
        published.start(1, 1600, 50, month);
        published.start(2, 1002, 50, month);
        // A junior (born 2012) beats an equal player: K 40 × (1 − 0.5) = +20; the adult −10.
        published.record(0, 1, 2, month);
        // Player 2 loses to player 1 (598 points apart: counted as 400, PD 0.92): −20 × 0.08.
        published.record(1, 2, 2, month);
        // Player 3, unrated, scores 3 of 5 against 1600.
        for s in [2, 2, 2, 0, 0] {
            published.record(3, 1, s, month);
        }
        let born = |p: usize| if p == 0 { 2012 } else { 1980 };
        published.update(month, born, |p| if p == 3 { 5 } else { 1 });
        assert_eq!(published.rating(0), Some(1620));
        assert_eq!(published.rating(2), Some(1000));
        // Under the rules of 2014–2024 (reference §6.3): 1600 + 20 for the half point over 50 %.
        assert_eq!(published.rating(3), Some(1620));
        assert_eq!(published.history(3).total_games, 5);
        // Player 2 loses twice more: below 1000, delisted.
        let june = month.plus(1);
        published.record(1, 2, 2, june);
        published.record(1, 2, 2, june);
        published.update(june, born, |_| 1);
        assert_eq!(published.rating(2), None);
        // The compression comes with the March 2024 list: 1620 + 0.4 × 380.
        assert_eq!(published.on_todays_scale(0), Some(1620 + 152));
        published.update(Month::new(2024, 2).unwrap(), born, |_| 0);
        assert_eq!(published.rating(0), Some(1772));
        assert_eq!(published.on_todays_scale(0), Some(1772));
        assert_eq!(published.todays_scale(1500), 1500);
    }
}
