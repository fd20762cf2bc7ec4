//! A world replayed without files: the generated months gathered into the engine's inputs, and the
//! replay's rated games gathered for crosstables, as `generate` + `replay` would write and
//! `crosstable` read them back.

use crate::generate::world::{MonthBatch, World, WorldSink};
use crate::model::{Games, Month, PlayerIds, PlayerInfo, StartEntry, StartList};
use crate::replay::{Inputs, Published, ReplayError, Sink};
use crate::report::game_source::RatedGames;

/// Gathers a generated world's games into the engine's columns.
#[derive(Default)]
pub struct WorldGames {
    games: Games,
    /// The world's event number of each dense event index, to number each event once.
    last_event: Option<u64>,
}

impl WorldSink for WorldGames {
    fn month(&mut self, batch: &MonthBatch) -> Result<(), String> {
        let g = &mut self.games;
        if g.event_names.is_empty() {
            g.event_names.push(String::new());
            g.row_word = "row";
            g.source = "the generated world (in memory)".into();
        }
        for i in 0..batch.white.len() {
            // A world's games come event by event, so an event's games are consecutive.
            if self.last_event != Some(batch.event[i]) {
                self.last_event = Some(batch.event[i]);
                g.event_names.push(batch.event[i].to_string());
            }
            g.period.push(Some(batch.period[i]));
            g.date.push(None);
            g.event.push(g.event_names.len() as u32 - 1);
            g.event_start.push(Some(batch.event_start[i]));
            g.white.push(batch.white[i]);
            g.black.push(batch.black[i]);
            g.score.push(batch.score[i]);
            g.source_row.push(g.source_row.len() as u32 + 1);
        }
        Ok(())
    }
}

impl WorldGames {
    /// The replay's inputs: the games with ids made dense (the world numbers its players from
    /// `first_id` in order of arrival, which is the sorted order the readers give them), the
    /// players' birth years and the starting list.
    pub fn into_inputs(mut self, world: &World) -> Inputs {
        let first = world.settings.first_id;
        let dense = |id: u32| id - first;
        for id in self
            .games
            .white
            .iter_mut()
            .chain(self.games.black.iter_mut())
        {
            *id = dense(*id);
        }
        let mut info = PlayerInfo::with_players(world.players.len());
        for (i, p) in world.players.iter().enumerate() {
            info.birth_year[i] = Some(p.born.floor() as i16);
        }
        let entries = world
            .start_list
            .iter()
            .map(|row| StartEntry {
                player: dense(row.id),
                rating: row.rating,
                k: Some(row.k),
                total_games: Some(row.total_games),
                ever_2400: Some(row.ever_2400),
                ever_2300: None,
                inactive: false,
            })
            .collect();
        Inputs {
            games: self.games,
            players: PlayerIds::Numbers(world.players.iter().map(|p| u64::from(p.id)).collect()),
            info,
            start_list: StartList {
                entries,
                source: "the generated world's starting list (in memory)".into(),
            },
        }
    }
}

/// Keeps the rated games of the lists from `from` to `to` with both players' ratings, as a run's
/// `games.parquet` gives them to `crosstable`.
pub struct GamesForTables {
    pub games: RatedGames,
    from: Month,
    to: Month,
}

impl GamesForTables {
    pub fn new(label: &str, from: Month, to: Month) -> GamesForTables {
        GamesForTables {
            games: RatedGames {
                label: label.to_string(),
                ..RatedGames::default()
            },
            from,
            to,
        }
    }
}

impl Sink for GamesForTables {
    fn publish(&mut self, list: Published<'_>) -> Result<(), ReplayError> {
        let month = list.month();
        if month < self.from || month > self.to {
            return Ok(());
        }
        let rated = list.games;
        for i in 0..rated.len() {
            match (rated.white[i].rating, rated.black[i].rating) {
                (Some(white), Some(black)) => {
                    self.games.month.push(month);
                    self.games.white_rating.push(white);
                    self.games.black_rating.push(black);
                    self.games
                        .score
                        .push(list.input.score[rated.game[i] as usize]);
                }
                _ => self.games.without_ratings += 1,
            }
        }
        Ok(())
    }
}
