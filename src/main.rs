fn main() {
    if let Err(e) = elosim::cli::run() {
        eprintln!("Error: {e:#}");
        std::process::exit(1);
    }
}
