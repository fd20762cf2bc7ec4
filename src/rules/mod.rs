//! The regulation vocabulary: one file per rule family, each citing its section of
//! `docs/fide-regulations.md` (the reference). A [`Regulations`] value is everything in force in
//! one era; the scenario's timeline says which era applies when.

pub mod calendar;
pub mod diff_cap;
pub mod events;
pub mod expected;
pub mod floor;
pub mod initial;
pub mod k_factor;
pub mod round_robin;
pub mod rounding;
pub mod timeline;

pub use calendar::ListCadence;
pub use diff_cap::{CapScope, DiffCap};
pub use events::{Compression, EventTiming};
pub use floor::DelistedGames;
pub use initial::{EventGate, GateApplies, InitialFormula, InitialRule, PooledResults};
pub use k_factor::{JuniorUntil, KHistory, KRule};
pub use round_robin::RoundRobinUnrated;
pub use rounding::Rounding;
pub use timeline::Timeline;

/// The FIDE regulations in force in one era.
///
/// Rules about a game (K cap, rating-difference cap, which events of an unrated player count) follow
/// its tournament's start date; rules about a list (floor, initial-rating formula, rounding,
/// inactivity) follow the start of the list's rating period; the list cadence follows the list month
/// (reference §0: "changes … apply to [tournaments] starting on or after that date").
#[derive(Clone, Debug, PartialEq)]
pub struct Regulations {
    pub lists: ListCadence,
    pub floor: i32,
    pub k: KRule,
    pub diff_cap: DiffCap,
    pub rounding: Rounding,
    pub initial: InitialRule,
    /// Whether round robins rate games against unrated players (follows the tournament's start).
    pub round_robin: RoundRobinUnrated,
    pub inactive_after_months: i32,
    pub delisted_games: DelistedGames,
}
