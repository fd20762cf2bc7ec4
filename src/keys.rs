//! What the files of keys (scenarios, worlds, calibrations: TOML) share: reading one into a table,
//! problems found at key paths, and the near miss a misspelt key or column suggests.

use std::fmt;
use std::path::{Path, PathBuf};

use toml::Table;

/// Why a file of keys could not be read at all.
#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    /// Not valid TOML: the parser's message.
    Syntax(String),
}

/// A TOML file as a table of keys.
pub fn read_table(path: &Path) -> Result<Table, ReadError> {
    let text = std::fs::read_to_string(path).map_err(ReadError::Io)?;
    parse_table(&text).map_err(ReadError::Syntax)
}

/// TOML text as a table of keys, or the parser's message.
pub fn parse_table(text: &str) -> Result<Table, String> {
    text.parse()
        .map_err(|e: toml::de::Error| e.to_string().trim().to_string())
}

/// One problem in a file, at a key path such as `revision[3] (from 2014-07).k.new`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub file: PathBuf,
    pub path: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(
                f,
                "{}: {}: {}",
                self.file.display(),
                self.path,
                self.message
            )
        }
    }
}

/// Problems one to a line, for an error message.
pub fn problem_list(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| format!("  - {p}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The known name a misspelt one is at most two edits from.
pub fn near<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    let name = name.to_ascii_lowercase();
    known
        .iter()
        .copied()
        .find(|k| edit_distance(&k.to_ascii_lowercase(), &name) <= 2)
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let here = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != b[j]))
                .min(row[j] + 1)
                .min(here + 1);
            previous = here;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_are_a_letter_or_two_away() {
        assert_eq!(near("age_maen", &["age_mean", "age_sd"]), Some("age_mean"));
        assert_eq!(
            near("WhiteElo", &["black_elo", "white_elo"]),
            Some("white_elo")
        );
        assert_eq!(near("surprise", &["age_mean", "age_sd"]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
