//! A whole replay in a process of its own, so that its peak memory is its own: the figure that
//! matters for the largest inputs.

use std::path::Path;
use std::time::Instant;

use super::BenchError;

/// A finished `elosim replay` run in a process of its own.
pub struct ChildReplay {
    /// Wall time, the process's start included.
    pub seconds: f64,
    /// User and system time, on every thread of the process.
    pub cpu_seconds: f64,
    summary: serde_json::Value,
}

impl ChildReplay {
    /// Runs the elosim program at `elosim` with a replay's arguments (`replay …`, writing to
    /// `out`), and reads the run's `summary.json`.
    pub fn run(elosim: &Path, args: &[String], out: &Path) -> Result<ChildReplay, BenchError> {
        let (started, cpu_before) = (Instant::now(), children_cpu_seconds());
        let status = std::process::Command::new(elosim).args(args).status()?;
        if !status.success() {
            return Err(BenchError::ChildFailed);
        }
        let seconds = started.elapsed().as_secs_f64();
        let cpu_seconds = children_cpu_seconds() - cpu_before;
        let summary = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json"))?)?;
        Ok(ChildReplay {
            seconds,
            cpu_seconds,
            summary,
        })
    }

    /// A figure of the summary's `timing` (its seconds), 0 where the run does not give it.
    pub fn timing(&self, key: &str) -> f64 {
        self.summary["timing"][key].as_f64().unwrap_or(0.0)
    }
}

/// The largest peak resident memory of the child processes waited for, in kB.
pub fn children_peak_kb() -> i64 {
    usage(libc::RUSAGE_CHILDREN).map_or(0, |u| u.ru_maxrss)
}

/// The CPU time of the child processes waited for so far, in seconds.
fn children_cpu_seconds() -> f64 {
    usage(libc::RUSAGE_CHILDREN).map_or(0.0, |u| cpu_seconds(&u))
}

/// User and system time of a usage report.
fn cpu_seconds(u: &libc::rusage) -> f64 {
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(u.ru_utime) + seconds(u.ru_stime)
}

/// This process's own use of the machine so far: its peak resident memory and its CPU time.
pub struct OwnUsage {
    pub peak_kb: i64,
    /// User and system time, on every thread.
    pub cpu_seconds: f64,
}

/// This process's [`OwnUsage`] so far (zeros where the system does not say).
pub fn own_usage() -> OwnUsage {
    usage(libc::RUSAGE_SELF).map_or(
        OwnUsage {
            peak_kb: 0,
            cpu_seconds: 0.0,
        },
        |u| OwnUsage {
            peak_kb: u.ru_maxrss,
            cpu_seconds: cpu_seconds(&u),
        },
    )
}

#[allow(
    unsafe_code,
    reason = "std does not report a process's peak memory or CPU time; one libc call"
)]
fn usage(who: libc::c_int) -> Option<libc::rusage> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given; RUSAGE_SELF and RUSAGE_CHILDREN are valid
    // targets.
    let ok = unsafe { libc::getrusage(who, usage.as_mut_ptr()) } == 0;
    // SAFETY: initialised by the successful call above.
    ok.then(|| unsafe { usage.assume_init() })
}
