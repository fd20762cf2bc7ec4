use std::path::PathBuf;

use crate::scenario::Scenario;

/// Check a scenario and print its rules era by era.
///
/// Reports every problem of the file (and of the files it extends) with its key path, or prints
/// the resolved regulations of each era, what changed, and the one-off events.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario (TOML)
    scenario: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let scenario = Scenario::load(&args.scenario)?;
    print!("{}", scenario.describe());
    Ok(())
}
