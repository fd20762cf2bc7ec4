//! elosim replays reported chess games month by month under a chosen set of rating regulations and
//! writes the rating lists those regulations produce.

pub mod cli;
pub mod generate;
pub mod ingest;
pub mod model;
mod named;
pub mod output;
pub mod pipeline;
pub mod replay;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod systems;
