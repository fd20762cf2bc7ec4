//! Benchmarks of elosim's own work, as `elosim bench` runs them: the engine alone and the whole
//! replay of a generated file, the report tables read back from its run, idle players, a list
//! rated file by file, a world's generation and replay, a study. Each times its work over several
//! runs and gives its figures as a value that displays as the lines the command prints, the best
//! run and the median (the machine's speed drifts between runs).

mod engine;
mod file;
mod idle;
mod pieces;
mod process;
mod reports;
mod study;
mod times;
mod work_dir;
mod world;
mod world_replay;

pub use file::{
    generate_file, time_engine, time_whole_replay, EngineTimes, GeneratedFile, WholeReplayTimes,
};
pub use idle::{time_idle, IdleTimes};
pub use pieces::{GeneratedPieces, Pieces, PiecesTimes};
pub use reports::{time_report, ReportTable, ReportTimes};
pub use study::{time_study, StudyTimes};
pub use times::Times;
pub use work_dir::WorkDir;
pub use world::{time_world, WorldTimes};
pub use world_replay::{GeneratedWorld, WorldReplay, WorldReplayTimes};

use crate::generate::world::{SettingsError, WorldError};
use crate::ingest::IngestError;
use crate::output::OutputError;
use crate::pipeline::RunError;
use crate::replay::ReplayError;
use crate::report::ReportError;
use crate::scenario::ScenarioError;
use crate::simulate::SimulateError;
use crate::sweep::{StudyError, SweepError};

/// The built-in world the world benchmarks generate.
const WORLD: &str = "fide-2001-2025";

/// What stops a benchmark: the work it times failed, or a file of its own could not be written or
/// read. The messages are those of the work itself.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Ingest(#[from] IngestError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error(transparent)]
    Report(#[from] ReportError),
    #[error(transparent)]
    World(#[from] WorldError),
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Study(#[from] StudyError),
    #[error(transparent)]
    Sweep(#[from] SweepError),
    #[error(transparent)]
    Simulate(#[from] SimulateError),
    #[error("the replay failed")]
    ChildFailed,
    #[error(transparent)]
    Summary(#[from] serde_json::Error),
}
