//! Players who never play: a list costs what changed on it, so that players on the starting list
//! who never play should cost little more than reading them.

use std::fmt;
use std::path::{Path, PathBuf};

use super::{BenchError, Times};
use crate::numbers::thousands;
use crate::pipeline::{self, Quiet, ReplayRequest};

/// The whole replay without and with the idle players.
pub struct IdleTimes {
    /// The players who play.
    pub players: usize,
    /// The players added who never play.
    pub idle: usize,
    pub without: Times,
    pub with: Times,
    /// The rows of `lists.parquet` without and with them.
    pub list_rows: [usize; 2],
}

/// Times the whole replay of the request with a starting list of its `players` (ids 1 to
/// `players`, as the Kaggle-layout file numbers them; 2200 with 50 games, K as the scenario's
/// rules give it), then with `idle` more players on it who never play, the two alternated so that
/// the machine's drift falls on both. The starting lists are written in `dir`.
pub fn time_idle(
    request: &ReplayRequest,
    players: usize,
    idle: usize,
    runs: usize,
    dir: &Path,
) -> Result<IdleTimes, BenchError> {
    let lists = [
        write_start_list(dir.join("start.csv"), players)?,
        write_start_list(dir.join("start-idle.csv"), players + idle)?,
    ];
    let mut times = [Times::default(), Times::default()];
    let mut list_rows = [0, 0];
    for _ in 0..runs {
        for (i, list) in lists.iter().enumerate() {
            let request = ReplayRequest {
                start_list: Some(list.clone()),
                ..request.clone()
            };
            let outcome = times[i].time(|| pipeline::replay(&request, &Quiet))?;
            list_rows[i] = outcome.written.list_rows;
        }
    }
    let [without, with] = times;
    Ok(IdleTimes {
        players,
        idle,
        without,
        with,
        list_rows,
    })
}

/// Writes a starting list of players 1 to `players`, each 2200 with 50 games.
fn write_start_list(path: PathBuf, players: usize) -> std::io::Result<PathBuf> {
    let mut text = String::from("id,rating,k,games\n");
    for id in 1..=players {
        text.push_str(&format!("{id},2200,,50\n"));
    }
    std::fs::write(&path, text)?;
    Ok(path)
}

impl fmt::Display for IdleTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Whole replay, starting list of the {} players who play: {} ({} list rows)",
            thousands(self.players as u64),
            self.without.best_and_median(3),
            thousands(self.list_rows[0] as u64)
        )?;
        write!(
            f,
            "  with {} more who never play: {} ({} list rows) → {:.2} × (best against best)",
            thousands(self.idle as u64),
            self.with.best_and_median(3),
            thousands(self.list_rows[1] as u64),
            self.with.best() / self.without.best()
        )
    }
}
