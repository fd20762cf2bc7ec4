pub use crate::keys::Problem;
use crate::keys::{problem_list, FileError};

#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{count} problem{s} in the scenario:\n{list}", count = .0.len(), s = if .0.len() == 1 { "" } else { "s" }, list = problem_list(.0))]
    Invalid(Vec<Problem>),
}
