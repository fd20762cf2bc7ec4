//! Benchmarks of elosim's own work, as `elosim bench` runs them. Each times its work over several
//! runs and gives the best run and the median (the machine's speed drifts between runs).

mod engine;
mod process;
mod times;
mod work_dir;

pub use engine::{engine_alone, engine_alone_streamed};
pub use process::{children_peak_kb, ChildReplay};
pub use times::Times;
pub use work_dir::WorkDir;

/// What stops a benchmark: the work it times failed, or a file of its own could not be written or
/// read. The messages are those of the work itself.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("the replay failed")]
    ChildFailed,
    #[error(transparent)]
    Summary(#[from] serde_json::Error),
}
