//! Fitting a world to published crosstables of real games by simulation (`elosim calibrate`).
//! Each evaluation generates the world at a reduced scale with fixed seeds (common random
//! numbers), replays it in memory under a scenario and measures the distance to the tables; an
//! evolution strategy moves the chosen parameters within their bounds.

mod cmaes;
mod config;
mod counts;
mod evaluate;
mod files;
mod gaps;
mod memory;
mod search;
mod target;

pub use config::{Bounded, Calibration, ConfigError};
pub use counts::{read_counts, Count, CountDistance, CountTarget};
pub use evaluate::{
    cell_error, evaluate, games_error, scenario_for, share_error, EvaluateError, Evaluation,
    Objective, TargetDistance,
};
pub use files::write_calibration;
pub use gaps::{read_gaps, Gap, GapDistance, GapTarget};
pub use memory::{Collected, WorldGames};
pub use search::{significant, Fit, Record};
pub use target::Target;
