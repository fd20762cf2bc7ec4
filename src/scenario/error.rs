use std::path::PathBuf;

use crate::keys::problem_list;
pub use crate::keys::Problem;

#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("cannot read scenario {}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not valid TOML: {message}", path.display())]
    Syntax { path: PathBuf, message: String },
    #[error("{count} problem{s} in the scenario:\n{list}", count = .0.len(), s = if .0.len() == 1 { "" } else { "s" }, list = problem_list(.0))]
    Invalid(Vec<Problem>),
}

impl ScenarioError {
    /// The error of a scenario file that cannot be read at all.
    pub fn reading(path: &std::path::Path, e: crate::keys::ReadError) -> ScenarioError {
        let path = path.to_path_buf();
        match e {
            crate::keys::ReadError::Io(source) => ScenarioError::Read { path, source },
            crate::keys::ReadError::Syntax(message) => ScenarioError::Syntax { path, message },
        }
    }
}
