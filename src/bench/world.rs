//! The generation of the built-in world, files included.

use std::fmt;

use super::{BenchError, Times, WorkDir, WORLD};
use crate::generate::world;
use crate::numbers::{counted, thousands};
use crate::output::WorldWriter;

/// The world's generations.
pub struct WorldTimes {
    pub scale: f64,
    pub games: u64,
    pub threads: usize,
    pub times: Times,
}

/// Times `runs` generations of the world at `scale`, written to a temporary directory
/// (`threads` is what the caller set the pools to).
pub fn time_world(
    scale: f64,
    seed: u64,
    runs: usize,
    threads: usize,
) -> Result<WorldTimes, BenchError> {
    let settings = world::preset(WORLD)?.sized(scale, seed)?;
    let dir = WorkDir::new(None, "bench-world");
    let mut times = Times::default();
    let mut games = 0;
    for _ in 0..runs {
        let generated = times.time(|| -> Result<_, BenchError> {
            let mut writer = WorldWriter::new(&dir.path, &settings, false, false)?;
            let world = world::generate(&settings, &mut writer, &|_, _| {})?;
            writer.finish(&world)?;
            Ok(world)
        })?;
        games = generated.games;
    }
    dir.done()?;
    Ok(WorldTimes {
        scale,
        games,
        threads,
        times,
    })
}

impl fmt::Display for WorldTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Generated the {WORLD} world at scale {} ({} games, {}, files written): {}",
            self.scale,
            thousands(self.games),
            counted(self.threads as u64, "thread"),
            self.times.games_per_second(2, self.games as usize)
        )
    }
}
