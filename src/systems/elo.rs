//! Plain period-based Elo, as rating research defines it (seed 000 for the provisional variant):
//! a player's change over a period is K × Σ(score − E) against ratings frozen at the period's
//! start, with E = 1/(1 + 10^(−D/400)); no rounding, floor or cap. Unknown players start at a
//! chosen rating, or (Fritz's rated-game mode, seed 000) carry no published rating before a
//! number of games, while still being rated from their chosen start behind the scenes.

use super::settings::{at_least, Key, Settings};
use super::PeriodicSystem;

/// How K is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KRule {
    Constant(f64),
    /// `first` until the player has played `games` games, then `after`.
    ByGames {
        first: f64,
        games: u32,
        after: f64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloConfig {
    pub k: KRule,
    /// Where an unknown player starts.
    pub initial: f64,
    /// No published rating before this many games (0: published from the first list).
    pub provisional_games: u32,
}

impl Default for EloConfig {
    /// The configuration of `scenarios/elo-k20.toml`: K 20, everyone starts at 2200.
    fn default() -> EloConfig {
        EloConfig {
            k: KRule::Constant(20.0),
            initial: 2200.0,
            provisional_games: 0,
        }
    }
}

impl Settings for EloConfig {
    const KEYS: &'static [Key] = &[
        at_least(
            "k",
            0.0,
            1000.0,
            "K factor (after k-first-games games when k-first is set)",
        ),
        at_least(
            "k-first",
            0.0,
            1000.0,
            "K for a player's first k-first-games games",
        ),
        at_least("k-first-games", 0.0, 10_000.0, "games played under k-first"),
        at_least(
            "initial",
            0.0,
            4000.0,
            "rating of an unknown player on first appearance",
        ),
        at_least(
            "provisional-games",
            0.0,
            10_000.0,
            "no published rating before this many games",
        ),
    ];

    fn read(value: &dyn Fn(&str) -> Option<f64>) -> EloConfig {
        let d = EloConfig::default();
        let after = value("k").unwrap_or(20.0);
        let k = match value("k-first") {
            Some(first) => KRule::ByGames {
                first,
                games: value("k-first-games").unwrap_or(30.0) as u32,
                after,
            },
            None => KRule::Constant(after),
        };
        EloConfig {
            k,
            initial: value("initial").unwrap_or(d.initial),
            provisional_games: value("provisional-games").map_or(d.provisional_games, |v| v as u32),
        }
    }

    fn values(&self) -> Vec<(&'static str, f64)> {
        let mut out = match self.k {
            KRule::Constant(k) => vec![("k", k)],
            KRule::ByGames {
                first,
                games,
                after,
            } => vec![
                ("k", after),
                ("k-first", first),
                ("k-first-games", f64::from(games)),
            ],
        };
        out.push(("initial", self.initial));
        out.push(("provisional-games", f64::from(self.provisional_games)));
        out
    }
}

impl EloConfig {
    /// K for a player who has played `games` games.
    fn k_for(&self, games: u32) -> f64 {
        match self.k {
            KRule::Constant(k) => k,
            KRule::ByGames {
                first,
                games: n,
                after,
            } => {
                if games < n {
                    first
                } else {
                    after
                }
            }
        }
    }
}

/// The logistic expectation of a player rated `diff` above the opponent.
pub fn expected(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloPlayer {
    pub rating: f64,
    pub games: u32,
}

impl super::Newcomers for EloConfig {
    fn newcomers(&self) -> String {
        let published = if self.provisional_games == 0 {
            String::new()
        } else {
            format!(
                ", published once they have {} games",
                self.provisional_games
            )
        };
        format!("rated {} from their first game{published}", self.initial)
    }
}

impl PeriodicSystem for EloConfig {
    type Player = EloPlayer;

    fn newcomer(&self) -> EloPlayer {
        EloPlayer {
            rating: self.initial,
            games: 0,
        }
    }

    fn seeded(&self, rating: f64, games: u32) -> EloPlayer {
        EloPlayer { rating, games }
    }

    fn rating(&self, p: &EloPlayer) -> f64 {
        p.rating
    }

    fn published(&self, p: &EloPlayer) -> bool {
        p.games >= self.provisional_games
    }

    fn expected(&self, me: &EloPlayer, opponent: &EloPlayer) -> f64 {
        expected(me.rating - opponent.rating)
    }

    fn rate(&self, me: &EloPlayer, games: &[(EloPlayer, f64)]) -> EloPlayer {
        let k = self.k_for(me.games);
        let surplus: f64 = games
            .iter()
            .map(|(opponent, score)| score - expected(me.rating - opponent.rating))
            .sum();
        EloPlayer {
            rating: me.rating + k * surplus,
            games: me.games + games.len() as u32,
        }
    }

    fn change_per_game(&self, me: &EloPlayer, opponent: &EloPlayer, score: f64) -> Option<f64> {
        let k = self.k_for(me.games);
        Some(k * (score - expected(me.rating - opponent.rating)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_period_against_frozen_ratings() {
        let elo = EloConfig::default();
        let me = elo.newcomer();
        let opponent = EloPlayer {
            rating: 2400.0,
            games: 10,
        };
        // E(−200) = 1/(1 + 10^0.5) = 0.240253…; a win and a draw: 20 × (1.5 − 2E).
        let after = elo.rate(&me, &[(opponent, 1.0), (opponent, 0.5)]);
        let e = 1.0 / (1.0 + 10f64.sqrt());
        assert!((after.rating - (2200.0 + 20.0 * (1.5 - 2.0 * e))).abs() < 1e-12);
        assert_eq!(after.games, 2);
    }

    #[test]
    fn a_closed_pool_is_zero_sum() {
        let elo = EloConfig::default();
        let (a, b) = (
            EloPlayer {
                rating: 2250.0,
                games: 5,
            },
            EloPlayer {
                rating: 2130.0,
                games: 5,
            },
        );
        let a2 = elo.rate(&a, &[(b, 0.0), (b, 0.5)]);
        let b2 = elo.rate(&b, &[(a, 1.0), (a, 0.5)]);
        assert!((a2.rating + b2.rating - a.rating - b.rating).abs() < 1e-9);
    }

    #[test]
    fn provisional_players_are_not_published_before_n_games() {
        let elo = EloConfig {
            provisional_games: 20,
            ..EloConfig::default()
        };
        let p = EloPlayer {
            rating: 2000.0,
            games: 19,
        };
        assert!(!elo.published(&p));
        assert!(elo.published(&EloPlayer { games: 20, ..p }));
    }
}
