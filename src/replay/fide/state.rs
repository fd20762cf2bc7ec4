//! The players' state between lists, one column per field.

use crate::model::{Month, PlayerId, StartList};
use crate::rules::{KHistory, PooledResults, Regulations};
use crate::scenario::{Bootstrap, UnknownPlayers};

/// Results an unrated player scored against rated opponents in one rating period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolEntry {
    pub list: Month,
    pub results: PooledResults,
}

/// A player as a list shows them to the rules, packed so that reading a game's side from a list
/// touches one place in memory.
#[derive(Clone, Copy, Debug, Default)]
pub struct ListEntry {
    /// The published rating (meaningful while `rated`).
    pub rating: i32,
    /// The K published with the rating.
    pub k: u8,
    pub rated: bool,
}

impl ListEntry {
    fn rating(self) -> Option<i32> {
        self.rated.then_some(self.rating)
    }
}

/// Everything the rules need to know about every player after a list.
#[derive(Clone)]
pub struct State {
    /// Each player's rating, K and whether rated, as the list shows them.
    pub list: Vec<ListEntry>,
    pub history: Vec<KHistory>,
    pub birth_year: Vec<Option<i16>>,
    /// The list of the last rated game, for the inactivity flag.
    pub last_rated_game: Vec<Option<Month>>,
    /// Whether the player appears on lists: seeded players only from their first game.
    pub shown: Vec<bool>,
    /// Unrated players' results, one entry per period with counted results.
    pub pool: Vec<Vec<PoolEntry>>,
}

/// The ratings, rated flags and K of one published list, kept for tournaments that started under it
/// but are rated later.
#[derive(Clone, Default)]
pub struct ListView {
    list: Vec<ListEntry>,
}

impl State {
    /// The state of the starting list. Fields the list does not give are derived: players without a
    /// game count are taken as established (30 games) unless their K is the new players' K; "ever
    /// 2400/2300" follow the rating and a K of 10 (reference §3.2).
    pub fn from_start_list(
        players: usize,
        start: &StartList,
        birth_year: Vec<Option<i16>>,
        month: Month,
        regs: &Regulations,
        bootstrap: Bootstrap,
    ) -> State {
        let mut s = State {
            list: vec![ListEntry::default(); players],
            history: vec![KHistory::default(); players],
            birth_year,
            last_rated_game: vec![None; players],
            shown: vec![false; players],
            pool: vec![Vec::new(); players],
        };
        let rule = &regs.k;
        if bootstrap.unknown_players == UnknownPlayers::Seed {
            for p in 0..players {
                s.list[p].rated = true;
                s.list[p].rating = bootstrap.seed_rating;
                s.history[p].publish(bootstrap.seed_rating, rule);
                s.list[p].k = rule.k_for_list(&s.history[p], s.birth_year[p], month.year());
            }
        }
        for e in &start.entries {
            let p = e.player as usize;
            let new_player =
                e.k.is_some_and(|k| k == rule.new && rule.new != rule.standard);
            let history = &mut s.history[p];
            *history = KHistory {
                total_games: e.total_games.unwrap_or(if new_player {
                    0
                } else {
                    rule.new_until_games
                }),
                ever_2400: e
                    .ever_2400
                    .unwrap_or(e.rating >= rule.high_from || e.k == Some(rule.high)),
                ever_2300: e
                    .ever_2300
                    .unwrap_or(rule.junior_below > 0 && e.rating >= rule.junior_below),
                high_locked: e.k == Some(rule.high) && rule.high != rule.standard,
            };
            history.publish(e.rating, rule);
            s.list[p].rated = true;
            s.shown[p] = true;
            s.list[p].rating = e.rating;
            s.list[p].k =
                e.k.unwrap_or_else(|| rule.k_for_list(history, s.birth_year[p], month.year()));
            s.last_rated_game[p] = Some(if e.inactive {
                month.plus(-regs.inactive_after_months)
            } else {
                month
            });
        }
        s
    }

    /// The list as published now, copied into `spare` (a view no longer needed) when there is
    /// one: a run keeps a view of nearly every list for a month or two, and reusing their buffers
    /// saves allocating and faulting in fresh pages for each.
    pub fn view(&self, spare: Option<ListView>) -> ListView {
        let mut view = spare.unwrap_or_default();
        view.list.clone_from(&self.list);
        view
    }

    pub fn players(&self) -> usize {
        self.list.len()
    }
}

/// The frozen lists a period reads.
#[derive(Clone, Copy)]
pub struct Lists<'a> {
    pub state: &'a State,
    /// Older lists kept for tournaments that started under them.
    pub views: &'a [Option<ListView>],
    /// The previous list's index (the list being frozen).
    pub previous: u32,
}

impl Lists<'_> {
    /// The list in force as index `in_force`, or `None` when it is the previous list (the state).
    fn view(&self, in_force: u32) -> Option<&ListView> {
        (in_force != self.previous).then(|| {
            self.views[in_force as usize]
                .as_ref()
                .expect("older lists in force are kept")
        })
    }

    /// A player's rating on the list in force at a tournament's start; `None` when unrated then.
    pub fn listed(&self, player: PlayerId, in_force: u32) -> Option<i32> {
        match self.view(in_force) {
            Some(view) => view.list[player as usize].rating(),
            None => self.state.list[player as usize].rating(),
        }
    }

    /// A player's own rating and K for a game: from the list in force at the tournament's start,
    /// or, for a player rated since, the current ones (2022 §8.2.4); `None` while unrated.
    pub fn own(&self, player: PlayerId, in_force: u32) -> Option<(i32, u8)> {
        let now = self.state.list[player as usize];
        now.rated.then(|| match self.view(in_force) {
            Some(view) if view.list[player as usize].rated => {
                let then = view.list[player as usize];
                (then.rating, then.k)
            }
            _ => (now.rating, now.k),
        })
    }
}
