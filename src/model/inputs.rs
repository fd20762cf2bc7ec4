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
}
