fn main() {
    restore_sigpipe();
    keep_freed_memory();
    if let Err(e) = elosim::cli::run() {
        eprintln!("Error: {e:#}");
        std::process::exit(1);
    }
}

/// Rust ignores SIGPIPE, so that printing into a closed pipe panics; with the default action back,
/// `elosim … | head` ends quietly when `head` has read enough, as Unix tools do.
#[cfg(unix)]
#[allow(
    unsafe_code,
    reason = "std cannot set a signal's action; one libc call before any thread"
)]
fn restore_sigpipe() {
    // SAFETY: called first in main, before any other thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_sigpipe() {}

/// glibc gives freed memory back to the kernel as soon as 128 KB lie free at the top of a heap, and
/// serves blocks from 128 KB up (its threshold grows to at most 32 MB) with pages of their own: a
/// reader that frees a slice's columns and allocates the next one's then has the kernel zero new
/// pages for every slice. Keeping up to 1 GiB of freed memory, and serving blocks below 32 MB from
/// the heaps, reuses them instead: less CPU reading a world, comparing two runs and replaying
/// (docs/performance.md, "How the engine is laid out for speed"; the figures in its history).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(
    unsafe_code,
    reason = "std cannot tune the C allocator; two libc calls before any thread"
)]
fn keep_freed_memory() {
    // SAFETY: called in main before any other thread exists; both are valid mallopt parameters,
    // and a value it refuses leaves glibc's default.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}
