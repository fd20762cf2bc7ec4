//! Generated game files. `kaggle_like` is the benchmark's file; the synthetic FIDE-like world
//! with known true strengths will live here too.

pub mod kaggle_like;
mod random;

pub use random::SplitMix64;
