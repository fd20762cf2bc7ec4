//! Fitting a world to published crosstables of real games by simulation (`elosim calibrate`).
//! Each evaluation generates the world at a reduced scale with fixed seeds (common random
//! numbers), replays it in memory under a scenario and measures the distance to the targets
//! (`simulate`); an evolution strategy moves the chosen parameters within their bounds.

mod config;
mod evaluate;
mod files;
mod search;

pub use config::{Bounded, Calibration, ConfigError, Overrides};
pub use evaluate::{evaluate, Evaluation, Objective, Target};
pub use files::write_calibration;
pub use search::{significant, Fit, Record};
