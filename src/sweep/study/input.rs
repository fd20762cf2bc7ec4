//! A study's `[input]`: generated worlds with their scale and seeds (`simulate::world_input`, as
//! calibration reads them), or the user's own games as `replay` takes them.

use std::path::Path;

use toml::Table;

use crate::ingest::InputFiles;
use crate::keys::{at, Reader};
use crate::scenario::{GameFormat, ScenarioFiles};
use crate::simulate::world_input::{WorldInput, WorldKeys, WORLD_KEYS};
use crate::simulate::LoadedWorld;

use super::Overrides;

/// What the candidates are replayed on.
pub enum Input {
    /// Generated worlds (one or more, each known by its name), each on the same seeds at the same
    /// scale: each (world, seed)'s world generated once and shared by every candidate.
    World {
        worlds: Vec<LoadedWorld>,
        scale: f64,
        seeds: Vec<u64>,
    },
    /// The user's own games (one history: no seeds, no truth).
    Games {
        files: InputFiles,
        skip_invalid: bool,
    },
}

impl Input {
    /// The seeds replayed: a world's, or a single 0 for one history of real games.
    pub fn seeds(&self) -> Vec<u64> {
        match self {
            Input::World { seeds, .. } => seeds.clone(),
            Input::Games { .. } => vec![0],
        }
    }

    pub fn is_world(&self) -> bool {
        matches!(self, Input::World { .. })
    }

    /// The generated worlds, in the study's order (none for the user's games).
    pub fn worlds(&self) -> &[LoadedWorld] {
        match self {
            Input::World { worlds, .. } => worlds,
            Input::Games { .. } => &[],
        }
    }

    /// What the rows' `world` holds, in the study's order: each world's name, or one empty name
    /// for one history of real games (which is no world).
    pub fn world_names(&self) -> Vec<String> {
        match self {
            Input::World { worlds, .. } => worlds.iter().map(|w| w.settings.name.clone()).collect(),
            Input::Games { .. } => vec![String::new()],
        }
    }
}

const INPUT_KEYS: &[&str] = &[
    "world",
    "worlds",
    "scale",
    "seeds",
    "games",
    "format",
    "month-1",
    "start-list",
    "players",
    "skip-invalid",
];

pub(super) fn read_input(
    r: &mut Reader,
    table: &Table,
    dir: &Path,
    overrides: &Overrides,
    base: Option<&ScenarioFiles>,
) -> Option<Input> {
    let t = r.table(table, "", "input", INPUT_KEYS);
    let path = "input";
    let flags = (None, overrides.scale, overrides.seeds.as_deref());
    let keys = WorldKeys::read(r, (&t, path), true, flags);
    let games = r.text(&t, path, "games");
    if keys.names_a_world() {
        for key in INPUT_KEYS.iter().filter(|k| !WORLD_KEYS.contains(k)) {
            if t.contains_key(*key) {
                r.problem(
                    &at(path, key),
                    "belongs to the user's own games, not to a world: give `world` or `games`",
                );
            }
        }
        let WorldInput {
            worlds,
            scale,
            seeds,
        } = keys.load(r, dir, &[1, 2, 3, 4]);
        if worlds.is_empty() {
            return None;
        }
        return Some(Input::World {
            worlds,
            scale,
            seeds,
        });
    }
    for key in keys.given_without_a_world() {
        r.problem(
            key,
            "belongs to a generated world: one history of real games has no scale or seeds",
        );
    }
    let data = base.map(|b| b.base().data.clone());
    let format = r
        .text(&t, path, "format")
        .and_then(|f| match GameFormat::parse(&f) {
            Some(f) => Some(f),
            None => {
                r.problem(
                    &at(path, "format"),
                    format!(
                        "expected one of: {}, got {f:?}",
                        GameFormat::NAMES.join(", ")
                    ),
                );
                None
            }
        });
    let month_1 = r.month(&t, path, "month-1");
    let start_list = r
        .text(&t, path, "start-list")
        .map(|f| crate::scenario::start_list_in(dir, &f));
    let players = r.text(&t, path, "players").map(|f| dir.join(f));
    let skip_invalid = r.boolean(&t, path, "skip-invalid").unwrap_or(false);
    let files = match (games, data) {
        (Some(games), data) => InputFiles {
            games: dir.join(games),
            format: format.unwrap_or(GameFormat::Auto),
            month_1: month_1.or(data.as_ref().and_then(|d| d.month_1)),
            start_list,
            players,
            pgn_dates: crate::ingest::Dates::NeedMonth,
        },
        (None, Some(data)) if data.games.is_some() => InputFiles {
            games: data.games.clone().unwrap_or_default(),
            format: format.unwrap_or(data.format),
            month_1: month_1.or(data.month_1),
            start_list: start_list.or(data.start_list),
            players: players.or(data.players),
            pgn_dates: crate::ingest::Dates::NeedMonth,
        },
        // A scenario that could not be read is named already; whether it names games is unknown.
        (None, None) => return None,
        (None, Some(_)) => {
            r.problem(
                path,
                "missing: expected `world` (a generated world: built-in or a world file) or `games` (your own games); the scenario names no games either",
            );
            return None;
        }
    };
    if !files.games.exists() {
        r.problem(
            &at(path, "games"),
            format!("{} does not exist", files.games.display()),
        );
        return None;
    }
    Some(Input::Games {
        files,
        skip_invalid,
    })
}
