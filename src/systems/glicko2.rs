//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013; the system Lichess uses): rating,
//! deviation and volatility σ, updated once per rating period; the volatility by the Illinois
//! algorithm of step 5.1 (ε = 10⁻⁶), τ constraining its change.
//!
//! `playerratings = 1` follows R PlayerRatings' `glicko2()` instead, the package's own variant
//! (`R/ratings.R`): in units of q = ln 10 / 400 exactly, a player who plays has their deviation
//! grown by lag·σ² for the periods missed, capped at `max-rd` (its `rdmax`), before the period (and
//! opponents' expected scores use theirs grown so); the new volatility minimises
//! (z − 2 ln σ)²/τ² + ln(φ² + eᶻ + v) + (vΔ)²/(φ² + eᶻ + v) over z in [2 ln σ − 4τ, 2 ln σ + 4τ] by
//! Brent's method with R's `optimize` tolerance, capped at q·rdmax; then φ² + σ′², the update,
//! and φ′ capped at rdmax; a player who stops playing keeps their last deviation.

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
    /// The largest RD; 0: the initial RD.
    pub max_rd: f64,
    /// R PlayerRatings' variant (module header).
    pub playerratings: bool,
}

impl Default for Glicko2Config {
    /// Glickman's defaults: 1500, RD 350, σ 0.06; τ 0.5 as in his example.
    fn default() -> Glicko2Config {
        Glicko2Config {
            initial_rating: 1500.0,
            initial_rd: 350.0,
            initial_volatility: 0.06,
            tau: 0.5,
            max_rd: 0.0,
            playerratings: false,
        }
    }
}

settings!(Glicko2Config {
    initial_rating: "initial-rating", at_least(0.0, 4000.0), "rating of an unknown player";
    initial_rd: "initial-rd", above(0.0, 1000.0), "rating deviation of an unknown player (the largest RD)";
    initial_volatility: "initial-volatility", above(0.0, 1.0), "volatility σ of an unknown player";
    tau: "tau", above(0.0, 10.0), "τ, how fast the volatility may change";
    max_rd: "max-rd", at_least(0.0, 1000.0), "largest RD (0: the initial RD)";
    playerratings: "playerratings", switch(), "1: R PlayerRatings' glicko2() variant";
});

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko2Player {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub games: u32,
    /// Periods since the player last played (PlayerRatings' variant only).
    pub lag: u32,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn e(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// q = ln 10 / 400, PlayerRatings' unit of the Glicko-2 scale.
const Q: f64 = std::f64::consts::LN_10 / 400.0;

/// R's `optimize` tolerance, `.Machine$double.eps^0.25`.
const OPTIMIZE_TOL: f64 = 1.220_703_125e-4;

/// The minimum of `f` on [low, high] by Brent's method (golden sections and parabolic steps, Brent
/// 1973, "Algorithms for Minimization without Derivatives", procedure localmin), step for step as
/// R's `optimize` takes them, so that its results are reproduced to the last digit.
fn brent_minimum(low: f64, high: f64, f: impl Fn(f64) -> f64, tol: f64) -> f64 {
    let golden = (3.0 - 5f64.sqrt()) * 0.5;
    let eps = f64::EPSILON.sqrt();
    let (mut a, mut b) = (low, high);
    let mut x = a + golden * (b - a);
    let (mut v, mut w) = (x, x);
    let (mut d, mut e) = (0.0f64, 0.0f64);
    let mut fx = f(x);
    let (mut fv, mut fw) = (fx, fx);
    let tol3 = tol / 3.0;
    loop {
        let xm = (a + b) * 0.5;
        let tol1 = eps * x.abs() + tol3;
        let t2 = tol1 * 2.0;
        if (x - xm).abs() <= t2 - (b - a) * 0.5 {
            return x;
        }
        let (mut p, mut q, mut r) = (0.0, 0.0, 0.0);
        if e.abs() > tol1 {
            r = (x - w) * (fx - fv);
            q = (x - v) * (fx - fw);
            p = (x - v) * q - (x - w) * r;
            q = (q - r) * 2.0;
            if q > 0.0 {
                p = -p;
            } else {
                q = -q;
            }
            r = e;
            e = d;
        }
        if p.abs() >= (q * 0.5 * r).abs() || p <= q * (a - x) || p >= q * (b - x) {
            e = if x < xm { b - x } else { a - x };
            d = golden * e;
        } else {
            d = p / q;
            let u = x + d;
            if u - a < t2 || b - u < t2 {
                d = if x >= xm { -tol1 } else { tol1 };
            }
        }
        let u = if d.abs() >= tol1 {
            x + d
        } else if d > 0.0 {
            x + tol1
        } else {
            x - tol1
        };
        let fu = f(u);
        if fu <= fx {
            if u < x {
                b = x;
            } else {
                a = x;
            }
            (v, w, x) = (w, x, u);
            (fv, fw, fx) = (fw, fx, fu);
        } else {
            if u < x {
                a = u;
            } else {
                b = u;
            }
            if fu <= fw || w == x {
                (v, fv) = (w, fw);
                (w, fw) = (u, fu);
            } else if fu <= fv || v == x || v == w {
                (v, fv) = (u, fu);
            }
        }
    }
}

impl Glicko2Config {
    fn max_rd(&self) -> f64 {
        super::glicko::largest_rd(self.max_rd, self.initial_rd)
    }

    /// A player's φ² (in units of q) as they play a period under PlayerRatings' variant: grown by
    /// lag·σ² for the periods missed, at most rdmax².
    fn playing_phi2(&self, p: &Glicko2Player) -> f64 {
        let phi = Q * p.rd;
        let max = Q * self.max_rd();
        (phi * phi + f64::from(p.lag) * p.volatility * p.volatility).min(max * max)
    }

    /// One period under PlayerRatings' variant (module header).
    fn rate_playerratings(
        &self,
        me: &Glicko2Player,
        games: &[(Glicko2Player, f64)],
    ) -> Glicko2Player {
        let mu = Q * (me.rating - 1500.0);
        let phi2 = self.playing_phi2(me);
        let (mut v_inverse, mut sum) = (0.0, 0.0);
        for (opponent, score) in games {
            let gj = g(self.playing_phi2(opponent).sqrt());
            let ej = 1.0 / (1.0 + (gj * (Q * (opponent.rating - 1500.0) - mu)).exp());
            v_inverse += gj * gj * ej * (1.0 - ej);
            sum += gj * (score - ej);
        }
        let max2 = (Q * self.max_rd()).powi(2);
        let (v, tau2) = (1.0 / v_inverse, self.tau * self.tau);
        let prior = 2.0 * me.volatility.ln();
        let penalised = |z: f64| {
            let denominator = phi2 + z.exp() + v;
            let delta = v * sum;
            (z - prior) * (z - prior) / tau2 + denominator.ln() + delta * delta / denominator
        };
        let z = brent_minimum(
            prior - 4.0 * self.tau,
            prior + 4.0 * self.tau,
            penalised,
            OPTIMIZE_TOL,
        );
        let volatility = (z / 2.0).exp().min(Q * self.max_rd());
        let phi2_new = (1.0 / (1.0 / (phi2 + volatility * volatility) + v_inverse)).min(max2);
        Glicko2Player {
            rating: (mu + phi2_new * sum) / Q + 1500.0,
            rd: phi2_new.sqrt() / Q,
            volatility,
            games: me.games + games.len() as u32,
            lag: 0,
        }
    }

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

impl super::Newcomers for Glicko2Config {
    fn newcomers(&self) -> String {
        format!(
            "rated {} with RD {} and volatility {} from their first game",
            self.initial_rating, self.initial_rd, self.initial_volatility
        )
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
            lag: 0,
        }
    }

    fn seeded(&self, rating: f64, games: u32) -> Glicko2Player {
        Glicko2Player {
            rating,
            rd: super::glicko::seeded_rd(games, self.initial_rd),
            volatility: self.initial_volatility,
            games,
            lag: 0,
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
        if self.playerratings {
            return self.rate_playerratings(me, games);
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
            lag: 0,
        }
    }

    fn idle(&self, me: &Glicko2Player) -> Glicko2Player {
        if self.playerratings {
            // The deviation waits for the player's next game; only the lag grows.
            return Glicko2Player {
                lag: me.lag + u32::from(me.games > 0),
                ..*me
            };
        }
        let phi = me.rd / SCALE;
        let rd = SCALE * (phi * phi + me.volatility * me.volatility).sqrt();
        Glicko2Player {
            rd: rd.min(self.max_rd()),
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
            lag: 0,
        };
        let opp = |rating, rd| Glicko2Player {
            rating,
            rd,
            volatility: 0.06,
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
            lag: 0,
        };
        let q = glicko.idle(&p);
        let expected = SCALE * ((60.0 / SCALE).powi(2) + 0.0036).sqrt();
        assert!((q.rd - expected).abs() < 1e-9);
        assert_eq!(q.rating, 1700.0);
    }

    /// Brent's method finds a minimum within R's tolerance, inside the interval, also at its edge
    /// (R's `optimize(function(x) (x - 1/3)^2, c(0, 1))` gives 0.3333333).
    #[test]
    fn brent_finds_minima_as_r_optimize_does() {
        let third = brent_minimum(0.0, 1.0, |x| (x - 1.0 / 3.0).powi(2), OPTIMIZE_TOL);
        assert!((third - 1.0 / 3.0).abs() < 1e-6, "{third}");
        let cosine = brent_minimum(0.0, 6.0, f64::cos, OPTIMIZE_TOL);
        assert!((cosine - std::f64::consts::PI).abs() < 1e-4, "{cosine}");
        let edge = brent_minimum(1.0, 2.0, |x| x, OPTIMIZE_TOL);
        assert!((1.0..1.001).contains(&edge), "{edge}");
    }
}
