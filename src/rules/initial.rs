//! Initial (first) ratings of unrated players (reference §6).

use crate::named::named_enum;

use super::expected::{fide_dp, score_fraction_hundredths};
use super::rounding::round_ratio;

#[derive(Clone, Debug, PartialEq)]
pub struct InitialRule {
    /// Games against rated opponents needed: 9 until June 2014, 5 after (reference §6).
    pub min_games: u32,
    /// Results pool over this many months: "the same or next 7 rating periods" of the quarterly era
    /// (24 months), "not more than 26 months" from 2014 (reference §6.1, §6.3).
    pub window_months: i32,
    pub formula: InitialFormula,
    /// Points per half point above 50 % under `plus-score` (12.5 until 2011, "half of the highest K";
    /// 15 inferred for 2011–14; 20 from 2014): stored in hundredths.
    pub per_half_point: i32,
    /// `performance` (March 2024): hypothetical drawn games added to the results…
    pub dummy_games: u32,
    /// …against opponents of this rating.
    pub dummy_rating: i32,
    /// The highest initial rating (0: none): "The maximum initial rating is 2200".
    pub max: i32,
    pub gate: EventGate,
}

named_enum! {
    /// The initial-rating formula of an era.
    pub enum InitialFormula {
        /// Until Feb 2024: Ru = Ra + per-half-point × half points over 50 %; Ru = Ra at 50 %;
        /// Ru = Ra + dp below 50 % (2022 §8.2.3).
        PlusScore = "plus-score",
        /// From March 2024: "Ra is the average rating of the player's rated opponents plus two
        /// hypothetical opponents rated 1800 … considered as a draw"; Ru = Ra + dp, capped (2024 §8.2).
        Performance = "performance",
    }
}

/// Which events of an unrated player count (reference §6, §9 "first-event gate").
#[derive(Clone, Debug, PartialEq)]
pub struct EventGate {
    pub applies: GateApplies,
    /// Rated opponents the player must meet in the event (Swiss: "at least three", 2002–2014).
    pub min_rated_opponents: u32,
    /// Score against them, in half points: 2 = "scored ≥ 1 point" (2009) and "scores zero or half …
    /// disregarded" (GA 2003); 1 = "scores zero in their first event this score is disregarded" (2014+).
    pub min_half_points: u32,
}

named_enum! {
    pub enum GateApplies {
        /// Every event of an unrated player must pass (2000 – June 2011).
        EveryEvent = "every-event",
        /// Events must pass until one has counted (from July 2011 "once such a first partial rating
        /// exists, later events count"; from 2014 "zero in their first event"). A disregarded event does
        /// not use up the first event: Sonas 2C treats the first event after a fresh start as the first.
        UntilFirstCounted = "until-first-counted",
    }
}

/// An unrated player's results against rated opponents, pooled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PooledResults {
    pub games: u32,
    pub half_points: u32,
    /// Sum of the opponents' ratings.
    pub opponents: i64,
}

impl PooledResults {
    pub fn add(&mut self, other: PooledResults) {
        self.games += other.games;
        self.half_points += other.half_points;
        self.opponents += other.opponents;
    }
}

impl EventGate {
    /// Whether an event's results count, given whether the player already has counted results.
    pub fn counts(&self, event: &PooledResults, has_counted_results: bool) -> bool {
        if has_counted_results && self.applies == GateApplies::UntilFirstCounted {
            return true;
        }
        event.games >= self.min_rated_opponents && event.half_points >= self.min_half_points
    }
}

impl InitialRule {
    /// The initial rating Ru from pooled results (before the floor check), or `None` with too few
    /// games. Ru is computed exactly and rounded once ("Ru is rounded to the nearest whole number");
    /// whether FIDE rounds Ra first is open (reference §13.9).
    pub fn rating(&self, pool: &PooledResults) -> Option<i32> {
        if pool.games < self.min_games || pool.games == 0 {
            return None;
        }
        let rating = match self.formula {
            InitialFormula::PlusScore => plus_score_rating(pool, self.per_half_point),
            InitialFormula::Performance => {
                let games = pool.games + self.dummy_games;
                let with_dummies = PooledResults {
                    games,
                    half_points: pool.half_points + self.dummy_games, // each hypothetical game is a draw
                    opponents: pool.opponents
                        + i64::from(self.dummy_rating) * i64::from(self.dummy_games),
                };
                performance_rating(&with_dummies)
            }
        };
        Some(if self.max > 0 {
            rating.min(self.max)
        } else {
            rating
        })
    }
}

/// Ra + per-half-point × (half points over 50 %) at or above 50 %, Ra + dp below.
pub(crate) fn plus_score_rating(pool: &PooledResults, per_half_point_hundredths: i32) -> i32 {
    let over = i64::from(pool.half_points) - i64::from(pool.games);
    if over < 0 {
        return performance_rating(pool);
    }
    let n = i64::from(pool.games);
    round_ratio(
        100 * pool.opponents + n * i64::from(per_half_point_hundredths) * over,
        100 * n,
    ) as i32
}

/// Ra + dp(p), p rounded to hundredths.
fn performance_rating(pool: &PooledResults) -> i32 {
    let dp = fide_dp(score_fraction_hundredths(pool.half_points, pool.games));
    let n = i64::from(pool.games);
    round_ratio(pool.opponents + n * i64::from(dp), n) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(games: u32, points: f64, average: i64) -> PooledResults {
        PooledResults {
            games,
            half_points: (points * 2.0) as u32,
            opponents: average * i64::from(games),
        }
    }

    fn rule(formula: InitialFormula, per_half_point: i32, min_games: u32) -> InitialRule {
        InitialRule {
            min_games,
            window_months: 26,
            formula,
            per_half_point,
            dummy_games: 2,
            dummy_rating: 1800,
            max: if formula == InitialFormula::Performance {
                2200
            } else {
                0
            },
            gate: EventGate {
                applies: GateApplies::UntilFirstCounted,
                min_rated_opponents: 1,
                min_half_points: 1,
            },
        }
    }

    /// Reference §11.3, every formula case.
    #[test]
    fn initial_ratings_of_each_era() {
        let r2014 = rule(InitialFormula::PlusScore, 2000, 5);
        let r2024 = rule(InitialFormula::Performance, 0, 5);
        let r2009 = rule(InitialFormula::PlusScore, 1250, 9);
        let r2011 = rule(InitialFormula::PlusScore, 1500, 9);
        assert_eq!(
            r2014.rating(&pool(4, 1.0, 1600)),
            None,
            "2A: fewer than 5 games"
        );
        assert_eq!(
            r2024.rating(&pool(4, 1.0, 1600)),
            None,
            "2A: the dummy draws do not count"
        );
        assert_eq!(
            r2014.rating(&pool(6, 1.0, 1600)),
            Some(1327),
            "2B before 2024"
        );
        assert_eq!(
            r2024.rating(&pool(6, 1.0, 1600)),
            Some(1457),
            "2B from 2024"
        );
        let two_events = PooledResults {
            games: 6,
            half_points: 2,
            opponents: 4500 + 5100,
        };
        assert_eq!(
            r2024.rating(&two_events),
            Some(1457),
            "2C without fresh start, 2D"
        );
        assert_eq!(
            r2014.rating(&pool(6, 5.0, 1600)),
            Some(1680),
            "2F before 2024"
        );
        assert_eq!(
            r2024.rating(&pool(6, 5.0, 1600)),
            Some(1843),
            "2F from 2024"
        );
        assert_eq!(
            r2009.rating(&pool(9, 6.5, 2000)),
            Some(2050),
            "12.5 per half point"
        );
        assert_eq!(
            r2011.rating(&pool(9, 6.0, 2000)),
            Some(2045),
            "15 per half point"
        );
        assert_eq!(
            r2009.rating(&pool(9, 3.0, 2000)),
            Some(1875),
            "minus score: p .33 → −125"
        );
        assert_eq!(
            r2014.rating(&pool(6, 3.0, 1777)),
            Some(1777),
            "50 %: Ru = Ra"
        );
        assert_eq!(
            r2014.rating(&pool(5, 3.0, 2400)),
            Some(2420),
            "F-I05: FIDE's calculator, 3/5 against 2400; no maximum"
        );
        assert_eq!(
            r2024.rating(&pool(5, 5.0, 2400)),
            Some(2200),
            "maximum 2200"
        );
    }

    #[test]
    fn averages_round_once() {
        let r = rule(InitialFormula::PlusScore, 2000, 5);
        let p = PooledResults {
            games: 6,
            half_points: 6,
            opponents: 9601,
        }; // Ra = 1600.17
        assert_eq!(r.rating(&p), Some(1600));
        let p = PooledResults {
            games: 2 * 3,
            half_points: 8,
            opponents: 3 * 3201,
        }; // Ra 1600.5 + 2×20
        assert_eq!(r.rating(&p), Some(1641));
    }

    #[test]
    fn gates() {
        let swiss = EventGate {
            applies: GateApplies::EveryEvent,
            min_rated_opponents: 3,
            min_half_points: 2,
        };
        assert!(
            !swiss.counts(&pool(2, 2.0, 2000), false),
            "two rated opponents"
        );
        assert!(
            !swiss.counts(&pool(5, 0.5, 2000), true),
            "half a point: disregarded (GA 2003)"
        );
        assert!(swiss.counts(&pool(3, 1.0, 2000), false));
        let partial = EventGate {
            applies: GateApplies::UntilFirstCounted,
            ..swiss.clone()
        };
        assert!(
            partial.counts(&pool(1, 0.0, 2000), true),
            "2011: later games count one by one"
        );
        let zero = EventGate {
            applies: GateApplies::UntilFirstCounted,
            min_rated_opponents: 1,
            min_half_points: 1,
        };
        assert!(
            !zero.counts(&pool(3, 0.0, 1700), false),
            "2C: zero in the first event"
        );
        assert!(
            zero.counts(&pool(3, 0.0, 1700), true),
            "2D: zero in a later event counts"
        );
    }
}
