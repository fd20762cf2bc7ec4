//! Generated game files: `kaggle_like` is the benchmark's file; `world` is the synthetic FIDE-like
//! world with known true strengths.

pub mod kaggle_like;
mod random;
pub mod world;

pub use random::SplitMix64;
