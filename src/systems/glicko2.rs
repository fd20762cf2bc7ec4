//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013; the system Lichess uses): rating,
//! deviation and volatility σ, updated once per rating period; the volatility by the Illinois
//! algorithm of step 5.1 (ε = 10⁻⁶), τ constraining its change.

use super::settings::settings;
use super::PeriodicSystem;

/// The scale factor between Glicko and Glicko-2 units.
const SCALE: f64 = 173.7178;
/// The convergence tolerance of step 5.
const EPSILON: f64 = 0.000_001;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko2Config {
    pub initial_rating: f64,
    pub initial_rd: f64,
    pub initial_volatility: f64,
    /// τ: how much the volatility may change (Glickman: 0.3 to 1.2).
    pub tau: f64,
}

impl Default for Glicko2Config {
    /// Glickman's defaults: 1500, RD 350, σ 0.06; τ 0.5 as in his example.
    fn default() -> Glicko2Config {
        Glicko2Config {
            initial_rating: 1500.0,
            initial_rd: 350.0,
            initial_volatility: 0.06,
            tau: 0.5,
        }
    }
}

settings!(Glicko2Config {
    initial_rating: "initial-rating", at_least(0.0, 4000.0), "rating of an unknown player";
    initial_rd: "initial-rd", above(0.0, 1000.0), "rating deviation of an unknown player (the largest RD)";
    initial_volatility: "initial-volatility", above(0.0, 1.0), "volatility σ of an unknown player";
    tau: "tau", above(0.0, 10.0), "τ, how fast the volatility may change";
});

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko2Player {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub games: u32,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn e(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Glicko2Config {
    /// Step 5: the new volatility (Illinois algorithm on f(x) = 0).
    fn volatility(&self, sigma: f64, phi: f64, v: f64, delta: f64) -> f64 {
        let a = (sigma * sigma).ln();
        let tau2 = self.tau * self.tau;
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - d) / (2.0 * d * d) - (x - a) / tau2
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * self.tau) < 0.0 {
                k += 1.0;
            }
            a - k * self.tau
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > EPSILON {
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
        }
        (big_a / 2.0).exp()
    }
}

impl PeriodicSystem for Glicko2Config {
    type Player = Glicko2Player;

    fn newcomer(&self) -> Glicko2Player {
        Glicko2Player {
            rating: self.initial_rating,
            rd: self.initial_rd,
            volatility: self.initial_volatility,
            games: 0,
        }
    }

    fn seeded(&self, rating: f64, games: u32) -> Glicko2Player {
        Glicko2Player {
            rating,
            rd: super::glicko::seeded_rd(games, self.initial_rd),
            volatility: self.initial_volatility,
            games,
        }
    }

    fn rating(&self, p: &Glicko2Player) -> f64 {
        p.rating
    }

    fn deviation(&self, p: &Glicko2Player) -> Option<f64> {
        Some(p.rd)
    }

    fn expected(&self, me: &Glicko2Player, opponent: &Glicko2Player) -> f64 {
        let combined = (me.rd * me.rd + opponent.rd * opponent.rd).sqrt() / SCALE;
        e(
            (me.rating - 1500.0) / SCALE,
            (opponent.rating - 1500.0) / SCALE,
            combined,
        )
    }

    fn rate(&self, me: &Glicko2Player, games: &[(Glicko2Player, f64)]) -> Glicko2Player {
        let mu = (me.rating - 1500.0) / SCALE;
        let phi = me.rd / SCALE;
        if games.is_empty() {
            return self.idle(me);
        }
        // Steps 3 and 4: the estimated variance v and improvement Δ.
        let (mut v_inverse, mut sum) = (0.0, 0.0);
        for (opponent, score) in games {
            let (mu_j, phi_j) = ((opponent.rating - 1500.0) / SCALE, opponent.rd / SCALE);
            let ej = e(mu, mu_j, phi_j);
            let gj = g(phi_j);
            v_inverse += gj * gj * ej * (1.0 - ej);
            sum += gj * (score - ej);
        }
        let v = 1.0 / v_inverse;
        let delta = v * sum;
        let sigma = self.volatility(me.volatility, phi, v, delta);
        // Steps 6–8.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Glicko2Player {
            rating: 1500.0 + SCALE * mu_new,
            rd: SCALE * phi_new,
            volatility: sigma,
            games: me.games + games.len() as u32,
        }
    }

    fn idle(&self, me: &Glicko2Player) -> Glicko2Player {
        let phi = me.rd / SCALE;
        let rd = SCALE * (phi * phi + me.volatility * me.volatility).sqrt();
        Glicko2Player {
            rd: rd.min(self.initial_rd),
            ..*me
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference §11.6, Glickman's worked example: r′ 1464.06 / RD′ 151.52 in the paper (rounded
    /// intermediates), 1464.051 / 151.517 at full precision; σ′ 0.0599960.
    #[test]
    fn glickmans_worked_example() {
        let glicko = Glicko2Config::default();
        let me = Glicko2Player {
            rating: 1500.0,
            rd: 200.0,
            volatility: 0.06,
            games: 10,
        };
        let opp = |rating, rd| Glicko2Player {
            rating,
            rd,
            volatility: 0.06,
            games: 10,
        };
        let after = glicko.rate(
            &me,
            &[
                (opp(1400.0, 30.0), 1.0),
                (opp(1550.0, 100.0), 0.0),
                (opp(1700.0, 300.0), 0.0),
            ],
        );
        assert!((after.rating - 1464.051).abs() < 0.001, "{}", after.rating);
        assert!((after.rd - 151.517).abs() < 0.001, "{}", after.rd);
        assert!(
            (after.volatility - 0.059996).abs() < 1e-6,
            "{}",
            after.volatility
        );
    }

    #[test]
    fn idle_players_grow_uncertain() {
        let glicko = Glicko2Config::default();
        let p = Glicko2Player {
            rating: 1700.0,
            rd: 60.0,
            volatility: 0.06,
            games: 50,
        };
        let q = glicko.idle(&p);
        let expected = SCALE * ((60.0 / SCALE).powi(2) + 0.0036).sqrt();
        assert!((q.rd - expected).abs() < 1e-9);
        assert_eq!(q.rating, 1700.0);
    }
}
