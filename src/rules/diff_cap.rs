//! The 350/400-point rule (reference §3.4): "A difference in rating of more than 400 points shall be
//! counted for rating purposes as though it were a difference of 400 points".
//! 350 points until June 2009, 400 after; once per event 2022 – Feb 2024; every game again from
//! March 2024; not for players rated 2650+ from October 2025.

use crate::named::named_enum;
use crate::rules::expected::fide_pd;

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

    /// The PD of a game of a player rated `own` against `opponent` under the rule (reference
    /// §3.4): the difference clamped where the cap covers the player and the scope does not limit
    /// it, and, where it limits it, the PD the game takes if it is its event's one upgrade.
    #[inline]
    pub fn pd(&self, own: i32, opponent: i32) -> CappedPd {
        let diff = own - opponent;
        let exceeds = self.covers(own) && self.exceeds(diff);
        let limited = exceeds && self.limited(diff);
        let capped = exceeds && !limited;
        CappedPd {
            plain: fide_pd(if capped { self.clamp(diff) } else { diff }),
            capped,
            upgraded: limited.then(|| fide_pd(self.clamp(diff))),
            size: diff.abs(),
        }
    }
}

/// One game's PD under the 350/400-point rule, in hundredths (reference §3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CappedPd {
    /// The PD unless the game is its event's one upgrade.
    pub plain: i32,
    /// Whether the rule changed `plain`.
    pub capped: bool,
    /// For a game whose difference a once-per-event scope limits: its PD as the event's upgrade.
    pub upgraded: Option<i32>,
    /// The size of the difference, by which an event's upgrade is chosen.
    size: i32,
}

impl CappedPd {
    /// The PD the game counts: the upgraded one if it is its event's upgrade.
    pub fn counted(self, upgraded: bool) -> i32 {
        match self.upgraded {
            Some(pd) if upgraded => pd,
            _ => self.plain,
        }
    }

    /// Whether the rule changed the PD counted.
    pub fn capped(self, upgraded: bool) -> bool {
        self.capped || (upgraded && self.upgraded.is_some())
    }
}

/// A game that could take its event's one upgrade under a once-per-event scope (2022–24,
/// reference §3.4: "a player may benefit from only one upgrade under this rule, for the game in
/// which the rating difference is greatest"), read at `at` in the list's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Upgrade<T> {
    size: i32,
    /// (score − PD) with the upgrade minus without it, in hundredths.
    pub gain: i32,
    pub at: T,
}

impl<T: Ord + Copy> Upgrade<T> {
    /// The candidate a game of PD `pd` read at `at` is: none unless the scope limits it.
    pub fn of(pd: CappedPd, at: impl FnOnce() -> T) -> Option<Upgrade<T>> {
        pd.upgraded.map(|upgraded| Upgrade {
            size: pd.size,
            gain: pd.plain - upgraded,
            at: at(),
        })
    }

    /// The one of two candidates that takes the upgrade: the greater difference, the first read of
    /// equals. Rating a list whole and rating it in pieces both choose by this.
    pub fn better(best: Option<Upgrade<T>>, other: Option<Upgrade<T>>) -> Option<Upgrade<T>> {
        match (best, other) {
            (Some(b), Some(o)) if o.size > b.size || (o.size == b.size && o.at < b.at) => other,
            (None, _) => other,
            _ => best,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let gain = |c: &DiffCap| 15 * (100 - c.pd(2200, 1600).plain);
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
        assert_eq!(c.pd(2813, 2400).plain, 93);
        assert_eq!(c.pd(2400, 2813).plain, 8);
    }

    /// The game that takes the upgrade among a player's games of one event, `(own rating,
    /// difference)` read in this order: its index.
    fn upgraded_game(cap: &DiffCap, games: &[(i32, i32)]) -> Option<usize> {
        games
            .iter()
            .enumerate()
            .map(|(i, &(own, diff))| Upgrade::of(cap.pd(own, own - diff), || i))
            .fold(None, Upgrade::better)
            .map(|u| u.at)
    }

    /// A player rated 2000 in every game, against opponents `diffs` below.
    fn games(diffs: &[i32]) -> Vec<(i32, i32)> {
        diffs.iter().map(|&d| (2000, d)).collect()
    }

    #[test]
    fn once_per_event_picks_the_greatest_difference() {
        let fav = cap(400, CapScope::OncePerEventFavourite, 0);
        assert_eq!(
            upgraded_game(&fav, &games(&[450, 520, -600, 120, 520])),
            Some(1)
        );
        assert_eq!(
            upgraded_game(&fav, &games(&[300, -700])),
            None,
            "the underdog is capped in every game"
        );
        assert!(!fav.limited(-700));
        assert_eq!(
            fav.pd(2000, 2700),
            CappedPd {
                plain: fide_pd(-400),
                capped: true,
                upgraded: None,
                size: 700
            }
        );
        let both = cap(400, CapScope::OncePerEventBoth, 0);
        assert_eq!(upgraded_game(&both, &games(&[450, 520, -600])), Some(2));
        assert_eq!(
            upgraded_game(&cap(400, CapScope::EveryGame, 0), &games(&[500])),
            None
        );
    }

    /// The event's upgrade counts the clamped PD, every other limited game the true one.
    #[test]
    fn only_the_upgraded_game_counts_the_clamped_difference() {
        let pd = cap(400, CapScope::OncePerEventFavourite, 0).pd(2000, 1480);
        assert_eq!(pd.counted(false), fide_pd(520));
        assert!(!pd.capped(false));
        assert_eq!(pd.counted(true), fide_pd(400));
        assert!(pd.capped(true));
        let gain = Upgrade::of(pd, || 0).unwrap().gain;
        assert_eq!(gain, fide_pd(520) - fide_pd(400));
    }

    #[test]
    fn the_upgrade_skips_games_the_cap_does_not_cover() {
        // From October 2025 a player rated 2650+ uses the true difference (S1 §8.3.1): their games
        // take no upgrade, whatever the difference.
        let c = cap(400, CapScope::OncePerEventBoth, 2650);
        assert_eq!(upgraded_game(&c, &[(2700, 600), (2600, 450)]), Some(1));
        assert_eq!(upgraded_game(&c, &[(2700, 600)]), None);
    }

    #[test]
    fn the_first_read_of_equal_differences_takes_the_upgrade() {
        let c = cap(400, CapScope::OncePerEventBoth, 0);
        let at = |diff: i32, i: u32| Upgrade::of(c.pd(2000, 2000 - diff), || i);
        assert_eq!(Upgrade::better(None, at(520, 3)), at(520, 3));
        assert_eq!(Upgrade::better(at(520, 1), at(-600, 3)), at(-600, 3));
        assert_eq!(Upgrade::better(at(520, 1), at(520, 3)), at(520, 1));
        assert_eq!(Upgrade::better(at(-520, 1), at(520, 0)), at(520, 0));
        assert_eq!(Upgrade::better(at(520, 1), None), at(520, 1));
    }
}
