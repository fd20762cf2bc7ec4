//! What calibration and regulation studies share: a world per seed as a replay's inputs, an
//! in-memory replay under a scenario, and the measures observed on it. Calibration fits a world to
//! published figures with these; a study (`sweep`) ranks regulations by them. Neither is named in
//! here, so that neither depends on the other.

pub mod cmaes;
mod evaluate;
pub mod measure;
mod sink;
mod world;

/// The range of a world's scale where a study or a calibration generates it: each candidate or
/// evaluation generates a world, so ten times FIDE's size is the most either takes (`elosim
/// generate`, one world, goes to a hundred).
pub const SCALE: (f64, f64) = (1e-4, 10.0);

/// The seeds of a study's or a calibration's worlds, and where they were given: the command
/// line's (`flag`) in place of the file's `prefix.seeds`, each seed once: a seed twice would be one
/// replicate counted twice (and, in a study, one pair in two shards). None where neither gives
/// any: the caller's default.
pub fn read_seeds(
    r: &mut Reader,
    table: &toml::Table,
    prefix: &str,
    flag: &str,
    given: Option<&[u64]>,
) -> Option<(Vec<u64>, String)> {
    let file = r.wholes(table, prefix, "seeds");
    let (seeds, at) = match given.filter(|s| !s.is_empty()) {
        Some(s) => (s.to_vec(), flag.to_string()),
        None => (file?, keys::at(prefix, "seeds")),
    };
    if let Some((i, s)) = seeds
        .iter()
        .enumerate()
        .find(|(i, s)| seeds[..*i].contains(s))
    {
        r.problem(
            &at,
            format!(
                "seed {s} is given twice (the {} value): each seed is one replicate",
                numbers::ordinal(i + 1)
            ),
        );
    }
    Some((seeds, at))
}

pub use evaluate::{observe, Compare, Observation};
pub use measure::{Figure, Goal, Measure, MeasureKind, Needs, Observed};
pub use sink::Baseline;
pub use world::{load_world, LoadedWorld, Replica, Truth, WorldGames};

use crate::keys::{self, Reader};
use crate::numbers;
use crate::replay::ReplayError;
use crate::scenario::ScenarioError;

#[derive(Debug, thiserror::Error)]
pub enum SimulateError {
    #[error("generating the world: {0}")]
    Generate(String),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error("replaying the world: {0}")]
    Replay(#[from] ReplayError),
}
