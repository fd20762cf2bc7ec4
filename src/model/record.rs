//! What a replay records for one side of one game: the same record for every rating system, with
//! the fields a system does not have left empty.

/// One side of one rated (or counted) game, as the period computed it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideRecord {
    /// The player's own rating in the game (the rating behind this side's calculation).
    pub rating: Option<i32>,
    /// The K used, after FIDE's K × n cap; `None` when the game is not rated for this player or the
    /// system has no K per game.
    pub k: Option<u8>,
    /// The expected score in hundredths (FIDE's PD, after the 350/400-point rule).
    pub pd: Option<u8>,
    /// The game's share of the change in hundredths of a rating point, before rounding (FIDE's
    /// K × (score − PD)); `None` where the system's change is not a sum over games.
    pub change: Option<i32>,
    /// Whether FIDE's 350/400-point rule changed the difference used.
    pub capped: bool,
    /// Rated for this player, or counted towards an unrated player's first rating.
    pub counted: bool,
    /// The opponent rating the game counted against where it is not the opponent's rating on the
    /// list in force: in a round robin rated by FIDE's tournament-rating rule (reference §6.5), an
    /// unrated opponent's tournament rating, or for an unrated player the tournament average Ra.
    pub counted_against: Option<i32>,
}

impl SideRecord {
    /// A side rated by a system that computes in real numbers: its rating as the system publishes
    /// it, its expected score, and the game's share of the change where the system has one.
    pub fn predicted(rating: i32, expected: f64, change: Option<f64>) -> SideRecord {
        SideRecord {
            rating: Some(rating),
            k: None,
            pd: Some((expected * 100.0).round() as u8),
            change: change.map(|c| (c * 100.0).round() as i32),
            capped: false,
            counted: true,
            counted_against: None,
        }
    }
}
