//! Unrated players: pooling their results over the era's window until they qualify for a first
//! rating (reference §6).

use crate::model::Month;
use crate::rules::floor::is_listed;
use crate::rules::{PooledResults, Regulations};

use super::state::{PoolEntry, State};

/// What a period's calculation reads of player `p` on list `list`: whether rated, and, for an
/// unrated player, whether earlier results still pool within the era's window (reference §6).
pub fn standing(state: &State, p: usize, list: Month, window_months: i32) -> (bool, bool) {
    let rated = state.list[p].rated;
    let pooled = !rated && has_counted_results(&state.pool[p], list, window_months);
    (rated, pooled)
}

/// Whether any pooled results are still inside the window on `list` (results older than the
/// window no longer pool: "consecutive rating periods of not more than 26 months").
pub fn has_counted_results(pool: &[PoolEntry], list: Month, window_months: i32) -> bool {
    pool.iter().any(|e| list.since(e.list) < window_months)
}

/// An unrated player's pool after a period: its results, the earliest list they come from, and
/// the rating they give (Ru, before the floor) once there are enough games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pooled {
    pub total: PooledResults,
    pub from: Option<Month>,
    pub rating: Option<i32>,
}

impl Pooled {
    /// The first rating, when the pool qualifies: enough games, and a rating at least the floor
    /// ("The rating must be at least 1400", 2024 §7.1.4).
    pub fn qualifies(&self, regs: &Regulations) -> Option<i32> {
        self.rating.filter(|&r| is_listed(r, regs.floor))
    }
}

/// Adds a period's counted results to a player's pool and drops what fell out of the window
/// ("consecutive rating periods of not more than 26 months"); the pool's figures and its rating
/// (rounding and the maximum come first, §6.4).
pub fn add_to_pool(
    pool: &mut Vec<PoolEntry>,
    list: Month,
    counted: PooledResults,
    regs: &Regulations,
) -> Pooled {
    if counted.games > 0 {
        pool.push(PoolEntry {
            list,
            results: counted,
        });
    }
    pool.retain(|e| list.since(e.list) < regs.initial.window_months);
    let mut total = PooledResults::default();
    for e in pool.iter() {
        total.add(e.results);
    }
    Pooled {
        total,
        from: pool.first().map(|e| e.list),
        rating: regs.initial.rating(&total),
    }
}

/// Games behind a pool, for the K rule ("the 30 include the games behind the first rating").
pub fn pooled_games(pool: &[PoolEntry]) -> u32 {
    pool.iter().map(|e| e.results.games).sum()
}
