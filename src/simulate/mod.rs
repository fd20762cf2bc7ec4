//! What calibration and regulation studies share: a world per seed as a replay's inputs, an
//! in-memory replay under a scenario, and the measures observed on it. Calibration fits a world to
//! published figures with these; a study (`sweep`) ranks regulations by them. Neither is named in
//! here, so that neither depends on the other.

pub mod cmaes;
mod evaluate;
pub mod measure;
mod sink;
mod world;
pub mod world_input;

pub use evaluate::{observe, Compare, Observation, Share};
pub use measure::{Figure, Goal, Measure, MeasureKind, Needs, Observed};
pub use sink::{Baseline, Kept};
pub use world::{load_world, LoadedWorld, Replica, Truth, WorldGames};
pub use world_input::{read_seeds, SCALE};

use crate::generate::world::equilibrium::NotConverged;
use crate::generate::world::SettingsError;
use crate::replay::ReplayError;
use crate::scenario::ScenarioError;

#[derive(Debug, thiserror::Error)]
pub enum SimulateError {
    #[error("generating the world")]
    Equilibrium(#[from] NotConverged),
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error("replaying the world")]
    Replay(#[from] ReplayError),
}
