//! A world as a replay's inputs, without files: the generated months gathered into the engine's
//! columns as `generate` + `replay` would write and read them, with the players' true strengths on
//! the months the measures need. One seed's world is generated once and replayed under every
//! scenario that is evaluated on it.

use std::time::Instant;

use std::path::Path;

use crate::generate::world::equilibrium::{NotConverged, Windows};
use crate::generate::world::{self, MonthBatch, Settings, World, WorldError, WorldSink};
use crate::keys::read_file;
use crate::model::{Games, Month, PlayerIds, PlayerInfo, StartEntry, StartList};
use crate::replay::Inputs;

use super::measure::Needs;
use super::SimulateError;

/// A world file or a built-in world, as read.
pub struct LoadedWorld {
    /// The file's text (a built-in world's own), for files written from it.
    pub text: String,
    /// Where it came from, for people.
    pub source: String,
    pub settings: Settings,
}

/// Loads `name`: a world file relative to `dir`, or a built-in world by name.
pub fn load_world(dir: &Path, name: &str) -> Result<LoadedWorld, WorldError> {
    let path = dir.join(name);
    if path.is_file() {
        let (text, _) = read_file(&path, "world file")?;
        let settings = world::load(&path.display().to_string())?;
        return Ok(LoadedWorld {
            text,
            source: path.display().to_string(),
            settings,
        });
    }
    let settings = world::preset(name)?;
    let text = world::file::PRESETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| t.to_string())
        .unwrap_or_default();
    Ok(LoadedWorld {
        text,
        source: format!("built-in world {name}"),
        settings,
    })
}

/// One seed's world, ready to replay.
pub struct Replica {
    pub seed: u64,
    pub inputs: Inputs,
    /// True strengths on the months asked for.
    pub truth: Truth,
    /// The world's first month (its starting list's).
    pub start: Month,
    pub games: u64,
    /// Seconds the generation took.
    pub seconds: f64,
}

impl Replica {
    /// Generates the world of `settings` with `seed` (the settings' own seed is replaced), keeping
    /// what the measures `needs` of the truth: every player's strength on `needs.truth`
    /// (Januaries: the world knows every player's strength then) and their equilibrium rating on
    /// `needs.equilibrium`.
    pub fn generate(
        settings: &Settings,
        seed: u64,
        needs: &Needs,
    ) -> Result<Replica, SimulateError> {
        let started = Instant::now();
        let mut settings = settings.clone();
        settings.seed = seed;
        let mut sink = WorldGames::keeping_truth(&settings, needs);
        let world = world::generate(&settings, &mut sink, &|_, _| {})?;
        let (inputs, truth) = sink.into_inputs(&world);
        Ok(Replica {
            seed,
            inputs,
            truth,
            start: settings.start,
            games: world.games,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

/// Gathers a generated world's games into the engine's columns, and its players' true strength
/// and equilibrium ratings on the months asked for.
pub struct WorldGames {
    games: Games,
    /// The world's event number of the last game, to number each event once.
    last_event: Option<u64>,
    truth_months: Vec<Month>,
    /// Per month kept: (world id, strength) of every player present.
    truth: Vec<(Month, Vec<(u32, f32)>)>,
    windows: Windows,
}

impl WorldSink for WorldGames {
    type Error = NotConverged;

    fn month(&mut self, batch: &MonthBatch) -> Result<(), NotConverged> {
        if self.truth_months.contains(&batch.month) {
            let strengths = batch
                .truth_id
                .iter()
                .copied()
                .zip(batch.truth_strength.iter().copied())
                .collect();
            self.truth.push((batch.month, strengths));
        }
        self.windows.month(batch)?;
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
            g.event.push(g.event_names.len() as u32 - 1);
            g.event_start.push(Some(batch.event_start[i]));
            g.event_type.push(batch.event_type[i]);
            g.white.push(batch.white[i]);
            g.black.push(batch.black[i]);
            g.score.push(batch.score[i]);
            g.source_row.push(g.source_row.len() as u32 + 1);
        }
        Ok(())
    }
}

/// What a world knows that no list shows, by dense player index, on the months the measures
/// asked for.
#[derive(Clone, Debug, Default)]
pub struct Truth {
    /// Every player's true strength (NaN: not present).
    pub strength: Vec<(Month, Vec<f32>)>,
    /// Every player's equilibrium rating, the reachable truth (NaN: no game in the window:
    /// `generate::world::equilibrium`).
    pub equilibrium: Vec<(Month, Vec<f32>)>,
}

impl Truth {
    fn find(months: &[(Month, Vec<f32>)], month: Month) -> Option<&[f32]> {
        months
            .iter()
            .find(|(m, _)| *m == month)
            .map(|(_, v)| v.as_slice())
    }

    pub fn strength(&self, month: Month) -> Option<&[f32]> {
        Truth::find(&self.strength, month)
    }

    pub fn equilibrium(&self, month: Month) -> Option<&[f32]> {
        Truth::find(&self.equilibrium, month)
    }
}

impl WorldGames {
    /// Keeps every player's strength on the months of `needs.truth` (Januaries, when the world
    /// gives the strength of every player present), and solves their equilibrium ratings on
    /// those of `needs.equilibrium`.
    pub fn keeping_truth(settings: &Settings, needs: &Needs) -> WorldGames {
        WorldGames {
            games: Games::default(),
            last_event: None,
            truth_months: needs.truth.clone(),
            truth: Vec::new(),
            windows: Windows::new(settings, &needs.equilibrium),
        }
    }

    /// The replay's inputs: the games with ids made dense (the world numbers its players from
    /// `first_id` in order of arrival, which is the sorted order the readers give them), the
    /// players' birth years and the starting list; and the strengths kept, by dense index.
    pub fn into_inputs(mut self, world: &World) -> (Inputs, Truth) {
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
        let strength = self
            .truth
            .into_iter()
            .map(|(month, strengths)| {
                let mut dense = vec![f32::NAN; world.players.len()];
                for (id, strength) in strengths {
                    dense[(id - first) as usize] = strength;
                }
                (month, dense)
            })
            .collect();
        let equilibrium = self
            .windows
            .finish(world.players.len())
            .into_iter()
            .map(|(month, e)| (month, e.rating))
            .collect();
        let truth = Truth {
            strength,
            equilibrium,
        };
        let inputs = Inputs {
            games: self.games,
            players: PlayerIds::Numbers(world.players.iter().map(|p| u64::from(p.id)).collect()),
            info,
            start_list: StartList {
                entries,
                source: "the generated world's starting list (in memory)".into(),
                month: Some(world.settings.start),
            },
        };
        (inputs, truth)
    }
}
