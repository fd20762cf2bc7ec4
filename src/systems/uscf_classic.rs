//! The classic USCF method as seed 000 (ChessBase Workshop, 1999 text) describes it, game by game:
//! - provisional ratings, for the first `provisional_games` (20) games: the running average of the
//!   performances (opponent + 400 for a win, the opponent's rating for a draw, − 400 for a loss),
//!   rounded half up after each game ("1256.5 rounded up to 1257", "1464.4 rounded down");
//!   two unrated players are each assumed to be 1200;
//! - established ratings: Rn = Ro + 0.04·(Ropp − Ro) ± 16 (no ± for a draw), the 0.04 term rounded
//!   to whole points (1464 beats 1586: + 5 + 16), each game's change kept within 1..32 points for a
//!   win or a loss ("no player can gain or lose more than 32 points or less than 1 point in a
//!   game"; a draw may change nothing), with "12 … used as a base factor instead of 16" from 2100
//!   to 2399 and 8 from 2400.
//!
//! The formula is the straight-line form of K·(S − E) with K 32 and the linear expectation
//! E = ½ + (Ro − Ropp)/800: K/800 = 0.04 is the rating-difference term and K/2 = 16 the base. A
//! base of 12 is therefore K 24, whose difference term is 24/800 = 0.03, and a base of 8 is K 16
//! with 0.02: the difference term is base/400. That consistent reading is the default; the seed's
//! words taken literally (only the ± 16 replaced, 0.04 kept) are the switch `literal-base = 1`. A
//! 2200 who loses to an 1800: −12 − 12 = −24 by the default, −16 − 12 = −28 literally.
//!
//! Readings where the seed is silent: an established player meeting an unrated one counts them as
//! 1200 too. The games table records E as the expected score (clamped to 0..1).

use super::settings::settings;
use super::PeriodicSystem;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UscfClassicConfig {
    /// Games in the provisional period (20 over the board, 25 by post).
    pub provisional_games: u32,
    /// The rating assumed for an unrated opponent.
    pub unrated: f64,
    /// Keep the difference term at 0.04 when the base is 12 or 8 (the seed's words read literally)
    /// instead of base/400 (K·(S − E) with K = 2 × base).
    pub literal_base: bool,
}

impl Default for UscfClassicConfig {
    fn default() -> UscfClassicConfig {
        UscfClassicConfig {
            provisional_games: 20,
            unrated: 1200.0,
            literal_base: false,
        }
    }
}

settings!(UscfClassicConfig {
    provisional_games: "provisional-games", above(0.0, 1000.0), "games in the provisional period";
    unrated: "unrated", at_least(0.0, 4000.0), "rating assumed for an unrated opponent";
    literal_base: "literal-base", switch(), "1: the difference term stays 0.04 with bases 12 and 8";
});

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UscfPlayer {
    /// Whole points; meaningless before the first game.
    pub rating: f64,
    pub games: u32,
}

fn round_half_up(x: f64) -> f64 {
    (x + 0.5).floor()
}

impl UscfClassicConfig {
    /// One game for `me` against an opponent rated `opponent` (already 1200 if unrated).
    pub fn game(&self, me: UscfPlayer, opponent: f64, score: f64) -> UscfPlayer {
        if me.games < self.provisional_games {
            let performance = opponent + 800.0 * (score - 0.5);
            let n = f64::from(me.games);
            let rating = if me.games == 0 {
                performance
            } else {
                round_half_up((me.rating * n + performance) / (n + 1.0))
            };
            return UscfPlayer {
                rating,
                games: me.games + 1,
            };
        }
        let base = if me.rating >= 2400.0 {
            8.0
        } else if me.rating >= 2100.0 {
            12.0
        } else {
            16.0
        };
        let term = if self.literal_base {
            0.04
        } else {
            base / 400.0
        };
        let mut change = round_half_up(term * (opponent - me.rating)) + 2.0 * base * (score - 0.5);
        if score > 0.5 {
            change = change.clamp(1.0, 32.0);
        } else if score < 0.5 {
            change = change.clamp(-32.0, -1.0);
        } else {
            change = change.clamp(-32.0, 32.0);
        }
        UscfPlayer {
            rating: me.rating + change,
            games: me.games + 1,
        }
    }

    fn opponent_rating(&self, opponent: &UscfPlayer) -> f64 {
        if opponent.games == 0 {
            self.unrated
        } else {
            opponent.rating
        }
    }
}

impl super::Newcomers for UscfClassicConfig {
    fn newcomers(&self) -> String {
        format!(
            "provisional for their first {} games, rated the running average of their performances (two unrated players count each other as {})",
            self.provisional_games, self.unrated
        )
    }
}

impl PeriodicSystem for UscfClassicConfig {
    type Player = UscfPlayer;

    fn newcomer(&self) -> UscfPlayer {
        UscfPlayer {
            rating: self.unrated,
            games: 0,
        }
    }

    fn seeded(&self, rating: f64, games: u32) -> UscfPlayer {
        UscfPlayer { rating, games }
    }

    fn rating(&self, p: &UscfPlayer) -> f64 {
        p.rating
    }

    fn published(&self, p: &UscfPlayer) -> bool {
        p.games > 0
    }

    fn expected(&self, me: &UscfPlayer, opponent: &UscfPlayer) -> f64 {
        let diff = self.opponent_rating(me) - self.opponent_rating(opponent);
        (0.5 + diff / 800.0).clamp(0.0, 1.0)
    }

    /// The period's games one after another, each against the opponent's rating frozen at the
    /// period's start.
    fn rate(&self, me: &UscfPlayer, games: &[(UscfPlayer, f64)]) -> UscfPlayer {
        let mut now = *me;
        for (opponent, score) in games {
            let rating = if now.games == 0 && opponent.games == 0 {
                self.unrated
            } else {
                self.opponent_rating(opponent)
            };
            now = self.game(now, rating, *score);
        }
        now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 000: Fred Patzer's first tournament, then his twentieth game and his first
    /// established games.
    #[test]
    fn fred_patzers_ratings() {
        let uscf = UscfClassicConfig::default();
        let mut fred = uscf.newcomer();
        for (opponent, score, after) in [
            (1600.0, 0.0, 1200.0),
            (1326.0, 1.0, 1463.0),
            (1544.0, 0.5, 1490.0),
            (956.0, 0.0, 1257.0),
        ] {
            fred = uscf.game(fred, opponent, score);
            assert_eq!(fred.rating, after);
        }
        let nineteen = UscfPlayer {
            rating: 1472.0,
            games: 19,
        };
        assert_eq!(uscf.game(nineteen, 1320.0, 0.5).rating, 1464.0);
        let fred = UscfPlayer {
            rating: 1464.0,
            games: 20,
        };
        assert_eq!(uscf.game(fred, 1586.0, 1.0).rating, 1485.0);
        assert_eq!(uscf.game(fred, 1586.0, 0.0).rating, 1453.0);
        assert_eq!(uscf.game(fred, 1586.0, 0.5).rating, 1469.0);
        let opponent = UscfPlayer {
            rating: 1586.0,
            games: 50,
        };
        assert_eq!(uscf.game(opponent, 1464.0, 0.0).rating, 1565.0);
        assert_eq!(uscf.game(opponent, 1464.0, 1.0).rating, 1597.0);
        assert_eq!(uscf.game(opponent, 1464.0, 0.5).rating, 1581.0);
    }

    #[test]
    fn limits_and_bases() {
        let uscf = UscfClassicConfig::default();
        let low = UscfPlayer {
            rating: 1485.0,
            games: 30,
        };
        // 400+ above: a win is worth at most 32, a loss costs at least 1.
        assert_eq!(uscf.game(low, 2300.0, 1.0).rating, 1485.0 + 32.0);
        assert_eq!(uscf.game(low, 2300.0, 0.0).rating, 1485.0 - 1.0);
        let master = UscfPlayer {
            rating: 2450.0,
            games: 300,
        };
        assert_eq!(uscf.game(master, 2450.0, 1.0).rating, 2458.0);
        let expert = UscfPlayer {
            rating: 2200.0,
            games: 300,
        };
        assert_eq!(uscf.game(expert, 2200.0, 0.0).rating, 2188.0);
        // Base 12 is K 24: the difference term is 0.03 (−12 − 12), or 0.04 read literally.
        assert_eq!(uscf.game(expert, 1800.0, 0.0).rating, 2200.0 - 24.0);
        let literal = UscfClassicConfig {
            literal_base: true,
            ..uscf
        };
        assert_eq!(literal.game(expert, 1800.0, 0.0).rating, 2200.0 - 28.0);
        // Base 8 is K 16: 0.02 × 400 = 8.
        assert_eq!(uscf.game(master, 2050.0, 0.0).rating, 2450.0 - 8.0 - 8.0);
        assert_eq!(
            literal.game(master, 2050.0, 0.0).rating,
            2450.0 - 16.0 - 8.0
        );
        // Below 2100 both readings are the seed's formula.
        assert_eq!(literal.game(low, 1586.0, 1.0), uscf.game(low, 1586.0, 1.0));
    }

    #[test]
    fn two_unrated_players_count_each_other_as_1200() {
        let uscf = UscfClassicConfig::default();
        let (a, b) = (uscf.newcomer(), uscf.newcomer());
        assert_eq!(uscf.rate(&a, &[(b, 1.0)]).rating, 1600.0);
        assert_eq!(uscf.rate(&b, &[(a, 0.0)]).rating, 800.0);
    }
}
