//! The development coefficient K (reference §3.2, §3.3).
//!
//! Precedence, fitted to FIDE's lists 2017–2026 (reference §3.2, S26, 99.21 % agreement):
//! 1. ever a published rating ≥ 2400 → K 10 for good (before 2014 only once 30 games were also
//!    completed: `high_needs_games`);
//! 2. a junior who never had a published rating ≥ 2300 → the junior K;
//! 3. fewer than 30 games counted, including the games behind the first rating → the new K;
//! 4. otherwise the standard K.

use crate::named::named_enum;

/// K values and their conditions in one era.
#[derive(Clone, Debug, PartialEq)]
pub struct KRule {
    /// K for a player new to the list.
    pub new: u8,
    /// Games after which a player stops being new.
    pub new_until_games: u32,
    /// K under `high_from`.
    pub standard: u8,
    /// K once a published rating has reached `high_from`; permanent.
    pub high: u8,
    pub high_from: i32,
    /// Before July 2014 K 10 also needed 30 games ("and he has also completed events with a total of
    /// at least 30 games"; reference §3.2, §13.8).
    pub high_needs_games: bool,
    /// The junior K (0: no junior rule). From 2014 "K = 40 for all players until their 18th birthday
    /// [from 2017: until the end of the year of their 18th birthday], as long as their rating remains
    /// under 2300".
    pub junior: u8,
    pub junior_max_age: i32,
    /// A junior stops being one for good once a published rating reached this (the data read
    /// "remains under 2300" as "has never reached 2300": reference §3.2).
    pub junior_below: i32,
    pub junior_until: JuniorUntil,
    /// K × n ≤ cap for a period's n games (0: none): "K shall be the largest whole number such that
    /// K x n does not exceed 700" (2024 §8.3.3).
    pub period_cap: u32,
}

named_enum! {
    /// When juniors stop being juniors. Lists carry only the birth year, so both readings go by year
    /// (reference §3.2: "probably applied by year too").
    pub enum JuniorUntil {
        /// 2014–2017 wording "until their 18th birthday": junior while list year − birth year < 18.
        Birthday = "birthday",
        /// 2017+ wording "until the end of the year of their 18th birthday": junior while ≤ 18; they
        /// drop to K 20 on the January list after (reference §3.2, S26 §3).
        YearEnd = "year-end",
    }
}

/// What a player's past gives the K rule; updated at every list the player is on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KHistory {
    pub total_games: u32,
    pub ever_2400: bool,
    pub ever_2300: bool,
    /// K 10 reached: "Thereafter it remains permanently at 10".
    pub high_locked: bool,
}

impl KHistory {
    /// Records a published rating.
    pub fn publish(&mut self, rating: i32, rule: &KRule) {
        self.ever_2400 |= rating >= rule.high_from;
        self.ever_2300 |= rule.junior_below > 0 && rating >= rule.junior_below;
        if self.ever_2400 && (!rule.high_needs_games || self.total_games >= rule.new_until_games) {
            self.high_locked = true;
        }
    }
}

impl KRule {
    /// The K published on a list of year `list_year` (reference §3.2 precedence).
    pub fn k_for_list(&self, history: &KHistory, birth_year: Option<i16>, list_year: i32) -> u8 {
        if history.high_locked {
            return self.high;
        }
        if self.is_junior(history, birth_year, list_year) {
            return self.junior;
        }
        if history.total_games < self.new_until_games {
            return self.new;
        }
        self.standard
    }

    fn is_junior(&self, history: &KHistory, birth_year: Option<i16>, list_year: i32) -> bool {
        let Some(born) = birth_year else { return false };
        if self.junior == 0 || history.ever_2300 {
            return false;
        }
        let age = list_year - i32::from(born);
        match self.junior_until {
            JuniorUntil::Birthday => age < self.junior_max_age,
            JuniorUntil::YearEnd => age <= self.junior_max_age,
        }
    }

    /// K for a period of `games` rated games under the K × n cap (reference §3.3): F-P05 shows
    /// K 20 on the list and K 17 = ⌊700/39⌋ used for 39 games.
    pub fn capped(&self, k: u8, games: u32) -> u8 {
        if self.period_cap == 0 || games == 0 {
            return k;
        }
        k.min((self.period_cap / games).min(u32::from(u8::MAX)) as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule_2017() -> KRule {
        KRule {
            new: 40,
            new_until_games: 30,
            standard: 20,
            high: 10,
            high_from: 2400,
            high_needs_games: false,
            junior: 40,
            junior_max_age: 18,
            junior_below: 2300,
            junior_until: JuniorUntil::YearEnd,
            period_cap: 700,
        }
    }

    fn rule_2000() -> KRule {
        KRule {
            new: 25,
            standard: 15,
            high_needs_games: true,
            junior: 0,
            period_cap: 0,
            ..rule_2017()
        }
    }

    /// Reference §11.2 (3).
    #[test]
    fn the_700_cap() {
        let r = rule_2017();
        for (n, k, eff) in [
            (17, 40, 40),
            (18, 40, 38),
            (35, 20, 20),
            (36, 20, 19),
            (70, 10, 10),
            (71, 10, 9),
            (39, 20, 17),
        ] {
            assert_eq!(r.capped(k, n), eff, "n = {n}, K = {k}");
        }
        assert_eq!(rule_2000().capped(25, 100), 25);
    }

    #[test]
    fn precedence_high_then_junior_then_new_then_standard() {
        let r = rule_2017();
        let mut h = KHistory {
            total_games: 12,
            ..KHistory::default()
        };
        assert_eq!(r.k_for_list(&h, None, 2020), 40, "new");
        h.total_games = 30;
        assert_eq!(r.k_for_list(&h, None, 2020), 20, "standard");
        assert_eq!(r.k_for_list(&h, Some(2002), 2020), 40, "junior, 18 in 2020");
        assert_eq!(
            r.k_for_list(&h, Some(2002), 2021),
            20,
            "January list after the year of the 18th birthday"
        );
        h.publish(2310, &r);
        assert_eq!(
            r.k_for_list(&h, Some(2005), 2020),
            20,
            "a junior who reached 2300 keeps K 20"
        );
        h.publish(2250, &r);
        assert_eq!(
            r.k_for_list(&h, Some(2005), 2020),
            20,
            "…even after dropping below 2300"
        );
        h.publish(2400, &r);
        h.publish(2350, &r);
        assert_eq!(
            r.k_for_list(&h, Some(2005), 2020),
            10,
            "K 10 for good once 2400 was published"
        );
        let fresh = KHistory {
            total_games: 3,
            ..KHistory::default()
        };
        let mut strong = fresh;
        strong.publish(2450, &r);
        assert_eq!(
            r.k_for_list(&strong, None, 2020),
            10,
            "2014+: 2400 beats the new-player K"
        );
    }

    #[test]
    fn before_2014_k10_needs_30_games_and_then_stays() {
        let r = rule_2000();
        let mut h = KHistory {
            total_games: 20,
            ..KHistory::default()
        };
        h.publish(2410, &r);
        assert_eq!(
            r.k_for_list(&h, None, 2005),
            25,
            "2400 but fewer than 30 games: still new"
        );
        h.total_games = 31;
        h.publish(2390, &r);
        assert_eq!(
            r.k_for_list(&h, None, 2005),
            10,
            "reached 2400 and has 30 games"
        );
        h.publish(2200, &r);
        assert_eq!(
            r.k_for_list(&h, None, 2005),
            10,
            "thereafter permanently 10"
        );
    }

    #[test]
    fn birthday_wording_ends_a_year_earlier() {
        let r = KRule {
            junior_until: JuniorUntil::Birthday,
            ..rule_2017()
        };
        let h = KHistory {
            total_games: 50,
            ..KHistory::default()
        };
        assert_eq!(r.k_for_list(&h, Some(2000), 2017), 40);
        assert_eq!(r.k_for_list(&h, Some(2000), 2018), 20);
    }
}
