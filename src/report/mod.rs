//! Tables and texts made from a run's output files (never from engine internals).

pub mod compare;
pub mod crosstable;
pub mod curve;
pub mod explain;
pub mod game_source;
pub mod histogram;
pub mod html;
pub mod list;
mod run_files;
pub mod run_lists;
pub mod score;
mod text;
pub mod truth;

pub use run_files::{ReportError, RunFiles};
pub use text::TextTable;
