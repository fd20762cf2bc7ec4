//! Glicko (Glickman 1999, "Parameter estimation in large dynamic paired comparison
//! experiments"; the system chess.com uses): a rating and a rating deviation RD, updated once per
//! rating period against opponents' ratings and RDs frozen at its start; RD grows by c² per
//! period without games, up to the initial RD (or `max-rd`).
//!
//! `playerratings = 1` follows R PlayerRatings' `glicko()` (the package rating research uses;
//! `R/ratings.R`): a deviation grows only when its player next plays, by (lag + 1)·c² for the lag
//! periods missed and the current one, capped at `max-rd` (its `rdmax`, 350); opponents' expected
//! scores use their deviations grown the same way; a player who stops playing keeps the deviation of
//! their last period; there is no smallest RD. Its defaults are `scenarios/playerratings-glicko.toml`.

use super::settings::settings;
use super::PeriodicSystem;

/// q = ln 10 / 400.
const Q: f64 = std::f64::consts::LN_10 / 400.0;

/// The RD of a player seeded from a starting list: an established player (30 games or more) is
/// well known, a provisional one as unknown as a newcomer. Glicko-2 seeds the same way.
pub(super) fn seeded_rd(games: u32, initial_rd: f64) -> f64 {
    if games >= 30 {
        50.0
    } else {
        initial_rd
    }
}

/// The largest RD growth reaches: the `max-rd` setting, or the initial RD when it is 0. Glicko-2
/// reads its setting the same way.
pub(super) fn largest_rd(max_rd: f64, initial_rd: f64) -> f64 {
    if max_rd > 0.0 {
        max_rd
    } else {
        initial_rd
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GlickoConfig {
    pub initial_rating: f64,
    pub initial_rd: f64,
    /// RD growth per period without games: RD² + c², at most the initial RD.
    pub c: f64,
    /// Smallest RD (rating sites keep it from collapsing).
    pub min_rd: f64,
    /// The largest RD that growth reaches; 0: the initial RD.
    pub max_rd: f64,
    /// R PlayerRatings' conventions (module header).
    pub playerratings: bool,
}

impl Default for GlickoConfig {
    /// Glickman's defaults: 1500, RD 350; c = 63.2 brings a typical RD of 50 back to 350 in about
    /// 30 idle periods.
    fn default() -> GlickoConfig {
        GlickoConfig {
            initial_rating: 1500.0,
            initial_rd: 350.0,
            c: 63.2,
            min_rd: 30.0,
            max_rd: 0.0,
            playerratings: false,
        }
    }
}

settings!(GlickoConfig {
    initial_rating: "initial-rating", at_least(0.0, 4000.0), "rating of an unknown player";
    initial_rd: "initial-rd", above(0.0, 1000.0), "rating deviation of an unknown player (the largest RD)";
    c: "c", at_least(0.0, 1000.0), "RD growth per period without games";
    min_rd: "min-rd", at_least(0.0, 1000.0), "smallest RD";
    max_rd: "max-rd", at_least(0.0, 1000.0), "largest RD that growth reaches (0: the initial RD)";
    playerratings: "playerratings", switch(), "1: R PlayerRatings' conventions (RD grows when a player next plays)";
});

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GlickoPlayer {
    pub rating: f64,
    pub rd: f64,
    pub games: u32,
    /// Periods since the player last played (PlayerRatings' convention only).
    pub lag: u32,
}

fn g(rd: f64) -> f64 {
    1.0 / (1.0 + 3.0 * Q * Q * rd * rd / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// E(s | r, r_j, RD_j).
fn expected_vs(rating: f64, opponent: &GlickoPlayer) -> f64 {
    1.0 / (1.0 + 10f64.powf(-g(opponent.rd) * (rating - opponent.rating) / 400.0))
}

impl GlickoConfig {
    fn max_rd(&self) -> f64 {
        largest_rd(self.max_rd, self.initial_rd)
    }

    /// Step 1: the RD at the start of a period, grown for the time since the last.
    fn grown(&self, rd: f64) -> f64 {
        (rd * rd + self.c * self.c).sqrt().min(self.max_rd())
    }

    /// The RD a player plays a period with. Glickman's: grown at every period already. PlayerRatings':
    /// grown now for the periods missed and this one, (lag + 1)·c², at most the largest RD.
    fn playing_rd(&self, p: &GlickoPlayer) -> f64 {
        if self.playerratings {
            let max = self.max_rd();
            let periods = f64::from(p.lag + 1);
            (p.rd * p.rd + periods * self.c * self.c)
                .min(max * max)
                .sqrt()
        } else {
            p.rd
        }
    }
}

impl super::Newcomers for GlickoConfig {
    fn newcomers(&self) -> String {
        format!(
            "rated {} with RD {} from their first game",
            self.initial_rating, self.initial_rd
        )
    }
}

impl PeriodicSystem for GlickoConfig {
    type Player = GlickoPlayer;

    fn newcomer(&self) -> GlickoPlayer {
        GlickoPlayer {
            rating: self.initial_rating,
            rd: self.initial_rd,
            games: 0,
            lag: 0,
        }
    }

    fn seeded(&self, rating: f64, games: u32) -> GlickoPlayer {
        GlickoPlayer {
            rating,
            rd: seeded_rd(games, self.initial_rd),
            games,
            lag: 0,
        }
    }

    fn rating(&self, p: &GlickoPlayer) -> f64 {
        p.rating
    }

    fn deviation(&self, p: &GlickoPlayer) -> Option<f64> {
        Some(p.rd)
    }

    fn expected(&self, me: &GlickoPlayer, opponent: &GlickoPlayer) -> f64 {
        // The expectation of a game between two players: both uncertainties combined.
        let combined = GlickoPlayer {
            rd: (me.rd * me.rd + opponent.rd * opponent.rd).sqrt(),
            ..*opponent
        };
        expected_vs(me.rating, &combined)
    }

    fn rate(&self, me: &GlickoPlayer, games: &[(GlickoPlayer, f64)]) -> GlickoPlayer {
        if games.is_empty() {
            return self.idle(me);
        }
        let rd = if self.playerratings {
            self.playing_rd(me)
        } else {
            self.grown(me.rd)
        };
        let (mut d_inverse, mut sum) = (0.0, 0.0);
        for (opponent, score) in games {
            let opponent = &GlickoPlayer {
                rd: self.playing_rd(opponent),
                ..*opponent
            };
            let e = expected_vs(me.rating, opponent);
            let gj = g(opponent.rd);
            d_inverse += Q * Q * gj * gj * e * (1.0 - e);
            sum += gj * (score - e);
        }
        let precision = 1.0 / (rd * rd) + d_inverse;
        GlickoPlayer {
            rating: me.rating + Q / precision * sum,
            rd: (1.0 / precision).sqrt().max(self.min_rd),
            games: me.games + games.len() as u32,
            lag: 0,
        }
    }

    fn idle(&self, me: &GlickoPlayer) -> GlickoPlayer {
        if self.playerratings {
            // The deviation waits for the player's next game; only the lag grows.
            return GlickoPlayer {
                lag: me.lag + u32::from(me.games > 0),
                ..*me
            };
        }
        GlickoPlayer {
            rd: self.grown(me.rd),
            ..*me
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's example (1999 paper, "Example calculation"): r = 1500, RD = 200 against
    /// (1400, 30) won, (1550, 100) lost, (1700, 300) lost → r′ = 1464, RD′ = 151.4 (no RD growth
    /// in the example: the player played last period).
    #[test]
    fn glickmans_example() {
        let glicko = GlickoConfig {
            c: 0.0,
            ..GlickoConfig::default()
        };
        let me = GlickoPlayer {
            rating: 1500.0,
            rd: 200.0,
            games: 10,
            lag: 0,
        };
        let opp = |rating, rd| GlickoPlayer {
            rating,
            rd,
            games: 10,
            lag: 0,
        };
        let after = glicko.rate(
            &me,
            &[
                (opp(1400.0, 30.0), 1.0),
                (opp(1550.0, 100.0), 0.0),
                (opp(1700.0, 300.0), 0.0),
            ],
        );
        assert!((after.rating - 1464.0).abs() < 0.5, "{}", after.rating);
        assert!((after.rd - 151.4).abs() < 0.1, "{}", after.rd);
    }

    #[test]
    fn idle_players_grow_uncertain_up_to_the_initial_rd() {
        let glicko = GlickoConfig::default();
        let p = GlickoPlayer {
            rating: 1800.0,
            rd: 50.0,
            games: 40,
            lag: 0,
        };
        let once = glicko.idle(&p);
        assert!((once.rd - (50.0f64.powi(2) + 63.2f64.powi(2)).sqrt()).abs() < 1e-9);
        let mut q = p;
        for _ in 0..100 {
            q = glicko.idle(&q);
        }
        assert_eq!(q.rd, 350.0);
        assert_eq!(q.rating, 1800.0);
    }
}
