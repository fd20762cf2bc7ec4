//! Game results drawn from the true strengths, and the organisers' own ratings.

use super::{Settings, SplitMix64};

/// The SD of the normal curve that FIDE's table 8.1.2 tabulates (reference §2): 200·√2.
pub const SIGMA: f64 = 282.842_712_474_619;

/// The expected score of a player `diff` points stronger: the normal curve with σ = 200·√2 that
/// FIDE's table 8.1.2 tabulates (reference §2), so that true strengths live on the rating scale
/// the FIDE engine assumes. Φ(d/σ) = ½·erfc(−d/(σ·√2)) = ½·erfc(−d/400).
pub fn expected(diff: f64) -> f64 {
    0.5 * erfc(-diff / 400.0)
}

/// White's expected score against `black` under the world's game model, in closed form: what
/// [`result`] gives on average. A share `upset_share` of games is scored as between equals with
/// White's move; in the rest each player's strength in the event carries their form, normal with
/// SD `form_sd` (`play_event`), so the difference D + first move meets a normal curve widened from
/// σ = 200·√2 to √(σ² + 2·form_sd²): E Φ((x + X)/σ) = Φ(x/√(σ² + τ²)) for X normal with SD τ. The
/// draws do not move it: a draw replaces half a win and half a loss.
pub fn expected_score(white: f64, black: f64, settings: &Settings) -> f64 {
    let sigma_squared = SIGMA * SIGMA;
    let widen = (sigma_squared / (sigma_squared + 2.0 * settings.form_sd.powi(2))).sqrt();
    let u = settings.upset_share;
    let decided = expected((white - black + settings.white_advantage) * widen);
    (1.0 - u) * decided + u * expected(settings.white_advantage)
}

/// The complementary error function (Numerical Recipes' erfcc, relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The draw rate: higher between strong players and between equals (`draw_rate_low` at 1200,
/// `draw_rate_high` at 2700 between equals), falling by a factor e per `draw_decay` points of
/// difference.
pub fn draw_rate(white: f64, black: f64, settings: &Settings) -> f64 {
    let level = ((white + black) / 2.0 - 1200.0) / 1500.0;
    let (low, high) = (settings.draw_rate_low, settings.draw_rate_high);
    let equal = low + (high - low) * level.clamp(0.0, 1.0);
    equal * (-(white - black).abs() / settings.draw_decay).exp()
}

/// White's result in half points; White's first move is worth `white_advantage` points. In a
/// share `upset_share` of games the strengths do not decide (a blunder, a bad day, time trouble):
/// the result is drawn as between equals, which gives results between very unequal players the
/// fatter tails that real ones have (Sonas: a 400-point favourite "is not even scoring 80 %").
pub fn result(white: f64, black: f64, settings: &Settings, rng: &mut SplitMix64) -> u8 {
    let upset = rng.unit() < settings.upset_share;
    let difference = if upset { 0.0 } else { white - black };
    let e = expected(difference + settings.white_advantage);
    let level = (white + black) / 2.0;
    let (white, black) = if upset {
        (level, level)
    } else {
        (white, black)
    };
    let draw = draw_rate(white, black, settings).min(2.0 * e.min(1.0 - e));
    let win = e - draw / 2.0;
    let u = rng.unit();
    if u < win {
        2
    } else if u < win + draw {
        1
    } else {
        0
    }
}

/// The ratings organisers see when they pair: a plain Elo kept by the generator itself (K 20,
/// updated once a month, the logistic curve), since the world is generated before any replay.
/// A newcomer gets their first month's performance (opponents' average ± 400 × (W − L)/n).
#[derive(Clone, Debug, Default)]
pub struct OrganiserRatings {
    rating: Vec<Option<f64>>,
    /// This month's Σ(score − expected) of rated players, and newcomers' opponents and points.
    delta: Vec<f64>,
    opponents: Vec<f64>,
    points: Vec<f64>,
    games: Vec<u32>,
}

const K: f64 = 20.0;

impl OrganiserRatings {
    pub fn grow(&mut self, players: usize) {
        self.rating.resize(players, None);
        self.delta.resize(players, 0.0);
        self.opponents.resize(players, 0.0);
        self.points.resize(players, 0.0);
        self.games.resize(players, 0);
    }

    pub fn get(&self, player: usize) -> Option<f64> {
        self.rating[player]
    }

    pub fn set(&mut self, player: usize, rating: f64) {
        self.rating[player] = Some(rating);
    }

    /// Notes one game (White's half points) for the month's update.
    pub fn record(&mut self, white: usize, black: usize, half_points: u8) {
        let score = f64::from(half_points) / 2.0;
        for (p, o, s) in [(white, black, score), (black, white, 1.0 - score)] {
            match (self.rating[p], self.rating[o]) {
                (Some(r), Some(ro)) => {
                    self.delta[p] += s - 1.0 / (1.0 + 10f64.powf((ro - r) / 400.0));
                }
                (None, Some(ro)) => {
                    self.opponents[p] += ro;
                    self.points[p] += s;
                    self.games[p] += 1;
                }
                _ => {}
            }
        }
    }

    /// Applies the month's results.
    pub fn update(&mut self) {
        for p in 0..self.rating.len() {
            match self.rating[p] {
                Some(r) if self.delta[p] != 0.0 => self.rating[p] = Some(r + K * self.delta[p]),
                None if self.games[p] > 0 => {
                    let n = f64::from(self.games[p]);
                    let average = self.opponents[p] / n;
                    let margin = (2.0 * self.points[p] - n) / n;
                    self.rating[p] = Some(average + 400.0 * margin);
                }
                _ => {}
            }
            self.delta[p] = 0.0;
            self.opponents[p] = 0.0;
            self.points[p] = 0.0;
            self.games[p] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expectation_is_fides_normal_curve() {
        assert!((expected(0.0) - 0.5).abs() < 1e-7);
        // Table 8.1.2: 100 points → .64, 200 → .76, 400 → .92 (rounded).
        assert!((expected(100.0) - 0.64).abs() < 0.005);
        assert!((expected(200.0) - 0.76).abs() < 0.005);
        assert!((expected(400.0) - 0.92).abs() < 0.005);
        assert!((expected(-300.0) + expected(300.0) - 1.0).abs() < 1e-7);
    }

    #[test]
    fn results_follow_the_strengths_with_realistic_draws() {
        let settings = crate::generate::world::preset("fide-2001-2025").unwrap();
        let draw_rate = |w, b| draw_rate(w, b, &settings);
        let mut rng = SplitMix64::new(9);
        let games = 200_000;
        let (mut points, mut draws) = (0u64, 0u64);
        for _ in 0..games {
            let r = result(2000.0, 1930.0, &settings, &mut rng);
            points += u64::from(r);
            draws += u64::from(r == 1);
        }
        // A share `upset_share` of games is played as between equals (White still has the move).
        let u = settings.upset_share;
        assert!(u > 0.0);
        let score = points as f64 / 2.0 / games as f64;
        let expected_score = (1.0 - u) * expected(100.0) + u * expected(30.0);
        assert!((score - expected_score).abs() < 0.005, "{score}");
        let rate = draws as f64 / games as f64;
        let expected_rate = (1.0 - u) * draw_rate(2000.0, 1930.0) + u * draw_rate(1965.0, 1965.0);
        assert!((rate - expected_rate).abs() < 0.005, "{rate}");
        assert!(draw_rate(2600.0, 2600.0) > 2.0 * draw_rate(1300.0, 1300.0));
        assert!(draw_rate(2000.0, 2000.0) > 2.0 * draw_rate(2000.0, 1600.0));
    }

    /// The closed form against the results themselves, each game played as `play_event` plays
    /// it: each player's form drawn for the game, then the result.
    #[test]
    fn the_expected_score_is_what_the_results_average() {
        let settings = crate::generate::world::preset("fide-2001-2025").unwrap();
        assert!(settings.form_sd > 0.0 && settings.upset_share > 0.0);
        let mut rng = SplitMix64::new(5);
        for (white, black) in [
            (2000.0, 2000.0),
            (2100.0, 1900.0),
            (1500.0, 2300.0),
            (2600.0, 1400.0),
        ] {
            let games = 400_000;
            let points: u64 = (0..games)
                .map(|_| {
                    let w = white + settings.form_sd * rng.normal();
                    let b = black + settings.form_sd * rng.normal();
                    u64::from(result(w, b, &settings, &mut rng))
                })
                .sum();
            let score = points as f64 / 2.0 / f64::from(games);
            let expected = expected_score(white, black, &settings);
            // Four standard errors of a mean of 400,000 scores (SD at most 0.5).
            assert!(
                (score - expected).abs() < 0.0032,
                "{white} v {black}: {score} against {expected}"
            );
        }
        // Without form or upsets it is the normal curve with the first move.
        let plain = Settings {
            form_sd: 0.0,
            upset_share: 0.0,
            ..settings.clone()
        };
        let e = expected_score(2100.0, 2000.0, &plain);
        assert!((e - expected(100.0 + plain.white_advantage)).abs() < 1e-12);
        // Form flattens the curve and upsets bound it: at most 0.5 + (1 − u)/2 plus the move's share.
        assert!(expected_score(2100.0, 2000.0, &settings) < e);
        let far = expected_score(3400.0, 1000.0, &settings);
        let bound = 1.0 - settings.upset_share * (1.0 - expected(settings.white_advantage));
        assert!((far - bound).abs() < 1e-6, "{far} {bound}");
    }

    /// docs/generate.md ("Three worlds") gives what a favourite scores between true strengths in
    /// the default world and in the form world, White's move aside: the model's own figures.
    #[test]
    fn the_docs_give_each_world_s_curve() {
        let scores = |name: &str| {
            let settings = Settings {
                white_advantage: 0.0,
                ..crate::generate::world::preset(name).unwrap()
            };
            [100.0, 200.0, 400.0, 800.0]
                .map(|gap| format!("{:.3}", expected_score(2000.0 + gap, 2000.0, &settings)))
                .join(" / ")
        };
        let said = format!(
            "a favourite by 100 / 200 / 400 / 800 points scores {} in the default world and {} in the form world",
            scores("fide-2001-2025"),
            scores("fide-2001-2025-form")
        );
        let docs = include_str!("../../../docs/generate.md").replace('\n', " ");
        assert!(docs.contains(&said), "docs/generate.md should say: {said}");
    }

    #[test]
    fn upsets_give_the_underdog_a_share_of_lost_causes() {
        let mut settings = crate::generate::world::preset("fide-2001-2025").unwrap();
        let score = |settings: &Settings| {
            let mut rng = SplitMix64::new(11);
            let points: u64 = (0..100_000)
                .map(|_| u64::from(result(1200.0, 2400.0, settings, &mut rng)))
                .sum();
            points as f64 / 2.0 / 100_000.0
        };
        settings.upset_share = 0.0;
        assert!(score(&settings) < 0.001);
        settings.upset_share = 0.1;
        // A tenth of the games as between equals (White or Black alike): about 5 %.
        assert!(
            (score(&settings) - 0.05).abs() < 0.005,
            "{}",
            score(&settings)
        );
    }

    #[test]
    fn organisers_rate_newcomers_by_performance_then_by_elo() {
        let mut r = OrganiserRatings::default();
        r.grow(3);
        r.set(0, 2000.0);
        r.set(1, 2000.0);
        r.record(0, 2, 0);
        r.record(1, 2, 1);
        r.record(0, 1, 2);
        r.update();
        // Newcomer 2: 1.5 of 2 against 2000 → 2000 + 400 × 0.5.
        assert_eq!(r.get(2), Some(2200.0));
        // Player 0 beat an equal player: +10; games against the unrated newcomer do not count.
        assert_eq!(r.get(0), Some(2010.0));
        assert_eq!(r.get(1), Some(1990.0));
    }
}
