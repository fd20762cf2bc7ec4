//! Berkin's progressive system (seed 002, chapter 15): ratings never fall. Per game
//! ΔR = Rc·S/No [15.2]; over N games the gains add up to Σ(Rc·S)/No [15.3]. Linear ratings grow
//! without bound, so the system is replayed in its logarithmic form: ratings R = log_a of the
//! linear ones, each game adding [15.2] exactly, R′ = log_a(a^R + S·a^Rc/No). Its small-change
//! approximation is the seed's [15.7], ΔR ≈ S·a^(Rc − R)/(No·ln a) (tested); [15.7] itself cannot be
//! replayed on real games, because a win over a much stronger opponent makes it explode (a 1500
//! beating a 3000 would gain about 98,000 points), while the exact form gains about Rc − log_a No.
//!
//! The seed leaves its symbols to the reader; this module reads them so:
//! - **Rc**: the opponent's ("competitor's") rating, frozen at the period's start;
//! - **S**: the player's score in the game (1, ½ or 0), so a loss gains nothing;
//! - **No**: the arbitrary constant of [14.2]/[15.1] (the number of lost points at which the basic
//!   formula becomes progressive), a setting (`n0`, default 10) that must be above 0;
//! - **N** in [15.6]/[15.7]: the same constant No, since [15.6] is [15.2] substituted into [15.5];
//! - **a**: the base of the logarithmic ratings, chosen as 10^(1/400) (`base-points` 400) so that
//!   400 logarithmic points are a factor of ten in linear strength, as in Elo's odds; then
//!   1/ln a = 400/ln 10 ≈ 173.7.
//!
//! The system has no expected score of its own; the games table records Elo's logistic curve on the
//! logarithmic ratings (the reading of a above makes them Elo-scaled), so that `score` can compare it.

use super::settings::settings;
use super::PeriodicSystem;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BerkinConfig {
    /// No.
    pub n0: f64,
    /// Logarithmic points per factor of ten: a = 10^(1/base_points).
    pub base_points: f64,
    /// The logarithmic rating of an unknown player.
    pub initial: f64,
}

impl Default for BerkinConfig {
    fn default() -> BerkinConfig {
        BerkinConfig {
            n0: 10.0,
            base_points: 400.0,
            initial: 1500.0,
        }
    }
}

settings!(BerkinConfig {
    n0: "n0", above(0.0, 1_000_000.0), "No, Berkin's arbitrary constant";
    base_points: "base-points", above(0.0, 10_000.0), "logarithmic points per factor of ten (a = 10^(1/base-points))";
    initial: "initial", at_least(0.0, 4000.0), "logarithmic rating of an unknown player";
});

impl BerkinConfig {
    fn ln_a(&self) -> f64 {
        std::f64::consts::LN_10 / self.base_points
    }

    /// One game's gain in logarithmic points, never negative: log_a(1 + S·a^(Rc − R)/No), computed
    /// without overflow for any rating difference.
    pub fn gain(&self, rating: f64, opponent: f64, score: f64) -> f64 {
        if score <= 0.0 {
            return 0.0;
        }
        let t = (score / self.n0).ln() + self.ln_a() * (opponent - rating);
        let softplus = if t > 30.0 {
            t + (-t).exp()
        } else {
            t.exp().ln_1p()
        };
        softplus / self.ln_a()
    }

    /// [15.7]: the seed's approximation for small gains.
    pub fn approximate_gain(&self, rating: f64, opponent: f64, score: f64) -> f64 {
        score * (self.ln_a() * (opponent - rating)).exp() / (self.n0 * self.ln_a())
    }
}

/// [15.2]: one game's gain in the linear form.
pub fn linear_gain(opponent: f64, score: f64, n0: f64) -> f64 {
    opponent * score / n0
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BerkinPlayer {
    pub rating: f64,
    pub games: u32,
}

impl super::Newcomers for BerkinConfig {
    fn newcomers(&self) -> String {
        format!(
            "rated {} logarithmic points from their first game",
            self.initial
        )
    }
}

impl PeriodicSystem for BerkinConfig {
    type Player = BerkinPlayer;

    fn newcomer(&self) -> BerkinPlayer {
        BerkinPlayer {
            rating: self.initial,
            games: 0,
        }
    }

    fn seeded(&self, rating: f64, games: u32) -> BerkinPlayer {
        BerkinPlayer { rating, games }
    }

    fn rating(&self, p: &BerkinPlayer) -> f64 {
        p.rating
    }

    fn expected(&self, me: &BerkinPlayer, opponent: &BerkinPlayer) -> f64 {
        1.0 / (1.0 + 10f64.powf((opponent.rating - me.rating) / self.base_points))
    }

    /// Game after game; each gain uses the player's own rating as it grows.
    fn rate(&self, me: &BerkinPlayer, games: &[(BerkinPlayer, f64)]) -> BerkinPlayer {
        let mut rating = me.rating;
        for (opponent, score) in games {
            rating += self.gain(rating, opponent.rating, *score);
        }
        BerkinPlayer {
            rating,
            games: me.games + games.len() as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_never_fall() {
        let berkin = BerkinConfig::default();
        let me = berkin.newcomer();
        let strong = BerkinPlayer {
            rating: 2400.0,
            games: 100,
        };
        let weak = BerkinPlayer {
            rating: 900.0,
            games: 100,
        };
        for score in [0.0, 0.5, 1.0] {
            for opponent in [strong, weak] {
                assert!(berkin.rate(&me, &[(opponent, score)]).rating >= me.rating);
            }
        }
        assert_eq!(berkin.rate(&me, &[(strong, 0.0)]).rating, me.rating);
    }

    /// [15.3]: in the linear form the gains of N games add up to Σ(Rc·S)/No.
    #[test]
    fn linear_gains_add_up_to_the_sum_formula() {
        let games = [(1800.0, 1.0), (2100.0, 0.5), (1500.0, 0.0), (2000.0, 1.0)];
        let n0 = 10.0;
        let mut rating = 1000.0;
        for (opponent, score) in games {
            rating += linear_gain(opponent, score, n0);
        }
        let sum: f64 = games.iter().map(|(rc, s)| rc * s).sum::<f64>() / n0;
        assert!((rating - 1000.0 - sum).abs() < 1e-9);
        assert_eq!(sum, (1800.0 + 1050.0 + 2000.0) / 10.0);
    }

    /// [15.5]–[15.7]: the exact logarithmic gain is [15.2] carried over to a^R ratings, and for
    /// small gains it is the seed's approximation.
    #[test]
    fn the_logarithmic_form_is_the_linear_one_and_approximates_15_7() {
        let berkin = BerkinConfig {
            n0: 1000.0,
            ..BerkinConfig::default()
        };
        let (r, rc) = (1500.0, 1600.0);
        let ln_a = berkin.ln_a();
        let (linear_r, linear_rc) = ((ln_a * r).exp(), (ln_a * rc).exp());
        let linear_after = linear_r + linear_gain(linear_rc, 1.0, berkin.n0);
        let exact = linear_after.ln() / ln_a - r;
        assert!((berkin.gain(r, rc, 1.0) - exact).abs() < 1e-9);
        let approximate = berkin.approximate_gain(r, rc, 1.0);
        assert!(
            (exact - approximate).abs() / approximate < 0.01,
            "{exact} {approximate}"
        );
        // A win over a far stronger opponent stays finite: about Rc − log_a(No).
        let far = BerkinConfig::default().gain(1500.0, 3000.0, 1.0);
        assert!((far - (1500.0 - 400.0)).abs() < 1.0, "{far}");
    }
}
