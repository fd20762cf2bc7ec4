//! The 350/400-point rule (reference §3.4): "A difference in rating of more than 400 points shall be
//! counted for rating purposes as though it were a difference of 400 points".
//! 350 points until June 2009, 400 after; once per event 2022 – Feb 2024; every game again from
//! March 2024; not for players rated 2650+ from October 2025.

use crate::named::named_enum;

#[derive(Clone, Debug, PartialEq)]
pub struct DiffCap {
    /// The largest difference counted (0: no cap).
    pub points: i32,
    pub scope: CapScope,
    /// Players rated at or above this use the true difference (0: nobody): "For players rated 2650
    /// and above, the difference between ratings shall be used in all cases" (S1 §8.3.1). The test
    /// is on the rating of the player whose change is computed (F-P01/F-P02).
    pub exempt_from: i32,
}

named_enum! {
    /// How often the cap applies in one event.
    pub enum CapScope {
        EveryGame = "every-game",
        /// 2022–24: "In any tournament, a player may benefit from only one upgrade under this rule, for
        /// the game in which the rating difference is greatest." The cap lowers the favourite's expected
        /// score, so only the favourite benefits: the favourite gets it in one game, the underdog in all
        /// (reference §3.4, the author's reading, unconfirmed: §13.3).
        OncePerEventFavourite = "once-per-event-favourite",
        /// The alternative reading of §13.3: each player gets the cap in their one game of the event with
        /// the greatest difference, whichever side they are on.
        OncePerEventBoth = "once-per-event-both",
    }
}

impl DiffCap {
    /// Whether the cap can apply to a player rated `own` at all.
    pub fn covers(&self, own: i32) -> bool {
        self.points > 0 && (self.exempt_from == 0 || own < self.exempt_from)
    }

    /// Whether a game with difference `diff` (own − opponent) exceeds the cap.
    pub fn exceeds(&self, diff: i32) -> bool {
        self.points > 0 && diff.abs() > self.points
    }

    /// The difference counted: ±points beyond the cap.
    pub fn clamp(&self, diff: i32) -> i32 {
        diff.clamp(-self.points, self.points)
    }

    /// Under a once-per-event scope, whether this game's difference is one the scope limits (so that
    /// only the chosen game of the event gets the cap); under `EveryGame` nothing is limited.
    pub fn limited(&self, diff: i32) -> bool {
        match self.scope {
            CapScope::EveryGame => false,
            CapScope::OncePerEventFavourite => diff > self.points,
            CapScope::OncePerEventBoth => diff.abs() > self.points,
        }
    }

    /// Among a player's games of one event, `(index, own rating, difference)`, the index of the game
    /// that gets the one upgrade: the greatest difference the scope limits, among the games the cap
    /// covers; the first of equals.
    pub fn upgraded_game(
        &self,
        games: impl IntoIterator<Item = (usize, i32, i32)>,
    ) -> Option<usize> {
        let mut best: Option<(i32, usize)> = None;
        for (i, own, diff) in games {
            if self.covers(own) && self.limited(diff) && takes_upgrade(diff, i, best) {
                best = Some((diff, i));
            }
        }
        best.map(|(_, i)| i)
    }
}

/// Whether a game of difference `diff`, read at `at`, takes its event's one upgrade from the best
/// so far (its difference and when it was read): the greater difference, the first read of equals
/// (reference §3.4, 2022–24). Rating a list whole and rating it in pieces both choose by this.
pub fn takes_upgrade<T: Ord>(diff: i32, at: T, best: Option<(i32, T)>) -> bool {
    best.is_none_or(|(d, t)| diff.abs() > d.abs() || (diff.abs() == d.abs() && at < t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::expected::fide_pd;

    fn cap(points: i32, scope: CapScope, exempt_from: i32) -> DiffCap {
        DiffCap {
            points,
            scope,
            exempt_from,
        }
    }

    /// Reference §11.2 (2): 2200 (K 15) beats 1600.
    #[test]
    fn cap_350_then_400() {
        let gain = |c: &DiffCap| 15 * (100 - fide_pd(c.clamp(600)));
        assert_eq!(gain(&cap(350, CapScope::EveryGame, 0)), 165); // +1.65
        assert_eq!(gain(&cap(400, CapScope::EveryGame, 0)), 120); // +1.20
    }

    #[test]
    fn exemption_goes_by_own_rating() {
        let c = cap(400, CapScope::EveryGame, 2650);
        assert!(!c.covers(2813), "F-P01: the 2813 player uses D = 413");
        assert!(
            c.covers(2400),
            "F-P02: his 2400 opponent still sees the cap"
        );
        assert_eq!(fide_pd(413), 93);
        assert_eq!(fide_pd(-c.clamp(413)), 8);
    }

    /// A player rated 2000 in every game, against opponents `diffs` below.
    fn games(diffs: &[i32]) -> Vec<(usize, i32, i32)> {
        diffs
            .iter()
            .enumerate()
            .map(|(i, &d)| (i, 2000, d))
            .collect()
    }

    #[test]
    fn once_per_event_picks_the_greatest_difference() {
        let fav = cap(400, CapScope::OncePerEventFavourite, 0);
        assert_eq!(
            fav.upgraded_game(games(&[450, 520, -600, 120, 520])),
            Some(1)
        );
        assert_eq!(
            fav.upgraded_game(games(&[300, -700])),
            None,
            "the underdog is capped in every game"
        );
        assert!(!fav.limited(-700));
        let both = cap(400, CapScope::OncePerEventBoth, 0);
        assert_eq!(both.upgraded_game(games(&[450, 520, -600])), Some(2));
        assert_eq!(
            cap(400, CapScope::EveryGame, 0).upgraded_game(games(&[500])),
            None
        );
    }

    #[test]
    fn the_upgrade_skips_games_the_cap_does_not_cover() {
        // From October 2025 a player rated 2650+ uses the true difference (S1 §8.3.1): their games
        // take no upgrade, whatever the difference.
        let c = cap(400, CapScope::OncePerEventBoth, 2650);
        assert_eq!(c.upgraded_game([(0, 2700, 600), (1, 2600, 450)]), Some(1));
        assert_eq!(c.upgraded_game([(0, 2700, 600)]), None);
    }

    #[test]
    fn the_first_read_of_equal_differences_takes_the_upgrade() {
        assert!(takes_upgrade(520, 3, None));
        assert!(takes_upgrade(-600, 3, Some((520, 1))));
        assert!(!takes_upgrade(520, 3, Some((520, 1))));
        assert!(takes_upgrade(520, 0, Some((-520, 1))));
    }
}
