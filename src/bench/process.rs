//! A whole replay in a process of its own, so that its peak memory is its own: the figure that
//! matters for the largest inputs.

use std::path::Path;
use std::time::Instant;

use super::BenchError;

/// A finished `elosim replay` run in a process of its own.
pub struct ChildReplay {
    /// Wall time, the process's start included.
    pub seconds: f64,
    summary: serde_json::Value,
}

impl ChildReplay {
    /// Runs the elosim program at `elosim` with a replay's arguments (`replay …`, writing to
    /// `out`), and reads the run's `summary.json`.
    pub fn run(elosim: &Path, args: &[String], out: &Path) -> Result<ChildReplay, BenchError> {
        let started = Instant::now();
        let status = std::process::Command::new(elosim).args(args).status()?;
        if !status.success() {
            return Err(BenchError::ChildFailed);
        }
        let seconds = started.elapsed().as_secs_f64();
        let summary = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json"))?)?;
        Ok(ChildReplay { seconds, summary })
    }

    /// A figure of the summary's `timing` (its seconds), 0 where the run does not give it.
    pub fn timing(&self, key: &str) -> f64 {
        self.summary["timing"][key].as_f64().unwrap_or(0.0)
    }
}

/// The largest peak resident memory of the child processes waited for, in kB.
#[allow(
    unsafe_code,
    reason = "std does not report the children's peak memory; one libc call"
)]
pub fn children_peak_kb() -> i64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given; RUSAGE_CHILDREN is a valid target.
    let ok = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr()) } == 0;
    if ok {
        // SAFETY: initialised by the successful call above.
        unsafe { usage.assume_init() }.ru_maxrss
    } else {
        0
    }
}
