//! elosim replays reported chess games month by month under a chosen set of rating regulations and
//! writes the rating lists those regulations produce.
//!
//! The engine (`model`, `rules`, `scenario`, `systems`, `replay`, `generate`) is plain Rust; polars
//! lives in `ingest` (reading Parquet), `output` (writing a run) and `report` (reading runs back);
//! plotters only in `plot`.
//!
//! A replay from a scenario file, through the library:
//!
//! ```
//! use elosim::pipeline::{prepare, ReplayRequest};
//!
//! // The small world of the tests: a starting list of February 2019 and two months of games.
//! let request = ReplayRequest { scenario: Some("tests/fixtures/scenario-2019.toml".into()), ..Default::default() };
//! let (scenario, files) = prepare(&request)?;
//! let (inputs, _report) = elosim::ingest::read_inputs(&files, false)?;
//! // Every list is handed to a sink as it is published (after the starting list, only the rows
//! // that changed); `Collect` keeps them all.
//! let mut lists = elosim::replay::Collect::default();
//! let run = elosim::replay::run(&scenario, &inputs, &mut lists, &|_step| {})?;
//!
//! // Player 101: +0.36 +0.14 +0.08 −0.50 = +0.08 × K 20 = +1.60 → 2100 + 2 on the March list.
//! let march = run.lists.iter().position(|m| m.to_string() == "2019-03").unwrap();
//! let player = inputs.players.find("101").unwrap();
//! let rows = lists.whole_lists();
//! let row = (rows.starts[march]..rows.starts[march + 1]).find(|&r| rows.player[r] == player).unwrap();
//! assert_eq!(rows.rating[row], 2102);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "full")]
pub mod bench;
#[cfg(feature = "full")]
pub mod calibrate;
#[cfg(feature = "full")]
pub mod cli;
pub mod generate;
pub mod ingest;
mod keys;
#[cfg(test)]
mod layers;
pub mod model;
mod named;
pub mod numbers;
#[cfg(feature = "full")]
pub mod output;
#[cfg(feature = "full")]
pub mod pipeline;
#[cfg(feature = "full")]
pub mod plot;
pub mod replay;
#[cfg(feature = "full")]
pub mod report;
pub mod rules;
pub mod scenario;
#[cfg(feature = "full")]
pub mod simulate;
#[cfg(feature = "full")]
pub mod sweep;
pub mod systems;
#[cfg(test)]
mod testing;
