//! What a replay reads, as the readers in `ingest` hand it over.

use super::{Games, Month, PlayerIds, PlayerInfo, StartList};

/// Everything a replay reads, with player ids interned.
pub struct Inputs {
    pub games: Games,
    pub players: PlayerIds,
    pub info: PlayerInfo,
    pub start_list: StartList,
}

/// Games read a rating period at a time, for inputs too large to hold at once.
pub trait PeriodSource {
    /// The rating periods the source holds, sorted, each with its number of games.
    fn periods(&self) -> &[(Month, usize)];
    /// The games of `periods`, with their players interned as in the replay's `Inputs`.
    fn read(
        &mut self,
        periods: &[Month],
    ) -> Result<Games, Box<dyn std::error::Error + Send + Sync>>;
    /// How many pieces the games of `periods` can be read in, one at a time (`read_piece`), so that a
    /// list too large to hold is rated piece by piece; `None` when the source reads them only whole.
    fn pieces(&self, periods: &[Month]) -> Option<usize>;
    /// Piece `piece` of the games of `periods` (each piece read as often as asked, the same each
    /// time), with its players interned as in `read` and its events named.
    fn read_piece(
        &mut self,
        periods: &[Month],
        piece: usize,
    ) -> Result<Games, Box<dyn std::error::Error + Send + Sync>>;
}
