fn main() {
    restore_sigpipe();
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
