//! elosim replays reported chess games month by month under a chosen set of rating regulations and
//! writes the rating lists those regulations produce.

pub mod model;
mod named;
pub mod replay;
pub mod rules;
pub mod scenario;
pub mod systems;
