//! Tables and texts made from a run's output files (never from engine internals).

pub mod explain;
mod run_files;

pub use run_files::{ReportError, RunFiles};
