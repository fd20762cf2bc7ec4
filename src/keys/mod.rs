//! What the files of keys (scenarios, worlds, calibrations, studies: TOML) share: reading one into
//! a table, a [`Reader`] that takes values out of it and collects every problem at its key path,
//! and the near miss a misspelt key or column suggests.

use std::fmt;
use std::path::{Path, PathBuf};

use toml::{Table, Value};

use crate::model::Month;

mod domain;

pub use domain::{Domain, KeyValue};

/// A file of keys that could not be read at all: the same error for every kind of file.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("cannot read {what} {}", path.display())]
    Read {
        /// What the file is ("scenario", "study"), for people.
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not valid TOML: {message}", path.display())]
    Syntax { path: PathBuf, message: String },
    #[error("{} is {} bytes long: a {what} is a few kilobytes of TOML (at most 1 MiB is read); is this the file you meant?", path.display(), crate::numbers::thousands(*bytes))]
    TooLong {
        what: &'static str,
        path: PathBuf,
        bytes: u64,
    },
}

/// The longest file of keys read: the shipped ones are under 10 KB, and a parser's message quotes
/// its line, which in a file of one enormous line would be the file.
const KEYS_FILE_CAP: u64 = 1 << 20;

/// A TOML file (a `what`, for messages): its text and its table of keys.
pub fn read_file(path: &Path, what: &'static str) -> Result<(String, Table), FileError> {
    use std::io::Read;
    let read = |source| FileError::Read {
        what,
        path: path.to_path_buf(),
        source,
    };
    let mut text = String::new();
    let file = std::fs::File::open(path).map_err(read)?;
    file.take(KEYS_FILE_CAP + 1)
        .read_to_string(&mut text)
        .map_err(read)?;
    if text.len() as u64 > KEYS_FILE_CAP {
        let bytes = std::fs::metadata(path).map_or(text.len() as u64, |m| m.len());
        return Err(FileError::TooLong {
            what,
            path: path.to_path_buf(),
            bytes,
        });
    }
    let table = parse_table(&text).map_err(|message| FileError::Syntax {
        path: path.to_path_buf(),
        message,
    })?;
    Ok((text, table))
}

/// TOML text as a table of keys, or the parser's message (with a hint where it is a month
/// written unquoted).
pub fn parse_table(text: &str) -> Result<Table, String> {
    text.parse().map_err(|e: toml::de::Error| {
        let message = e.to_string().trim().to_string();
        match e.span().and_then(|span| unquoted_month(text, span.start)) {
            Some(hint) => format!("{message}\n{hint}"),
            None => message,
        }
    })
}

/// The hint for a month written unquoted (`from = 2019-01`), which TOML reads as a broken date:
/// the line holding byte `at` of `text`, when its value is a bare YYYY-MM.
fn unquoted_month(text: &str, at: usize) -> Option<String> {
    let start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let line = text.get(start..)?.lines().next()?;
    let (key, value) = line.split_once('=')?;
    let value = value.split('#').next()?.trim();
    let bytes = value.as_bytes();
    let month = bytes.len() == 7
        && bytes[4] == b'-'
        && bytes[..4].iter().chain(&bytes[5..]).all(u8::is_ascii_digit);
    month.then(|| {
        format!(
            "write months as quoted strings: {} = \"{value}\"",
            key.trim()
        )
    })
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

/// " (did you mean `x`?)" when a known name is a letter or two away.
pub fn did_you_mean(name: &str, known: &[&str]) -> String {
    near(name, known)
        .map(|k| format!(" (did you mean `{k}`?)"))
        .unwrap_or_default()
}

/// Up to `n` known names closest to `name` by edits (ties in the known order), for a long list of
/// valid names where a near miss may be more than two letters away.
pub fn nearest<'a>(name: &str, known: &[&'a str], n: usize) -> Vec<&'a str> {
    let name = name.to_ascii_lowercase();
    let mut by_distance: Vec<(usize, usize, &str)> = known
        .iter()
        .enumerate()
        .map(|(i, k)| (edit_distance(&k.to_ascii_lowercase(), &name), i, *k))
        .collect();
    by_distance.sort();
    by_distance.into_iter().take(n).map(|(_, _, k)| k).collect()
}

/// A TOML value as a message shows it: text quoted, tables and arrays by their kind.
pub fn describe(value: &Value) -> String {
    match value {
        Value::String(s) => format!("\"{s}\""),
        Value::Table(_) => "a table".to_string(),
        Value::Array(items) if items.is_empty() => "an empty list".to_string(),
        Value::Array(_) => "a list".to_string(),
        other => other.to_string(),
    }
}

/// `prefix.key`, or `key` at the top.
pub fn at(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Takes values out of one file's tables: each getter returns the value, or notes what was
/// expected as a problem at the value's key path and returns `None`, so that a file's every
/// problem is found in one reading. Arrays of tables are numbered from 1 (`target[1]`), as people
/// count them.
pub struct Reader {
    pub file: PathBuf,
    pub problems: Vec<Problem>,
}

impl Reader {
    pub fn new(file: &Path) -> Reader {
        Reader {
            file: file.to_path_buf(),
            problems: Vec::new(),
        }
    }

    pub fn problem(&mut self, path: &str, message: impl Into<String>) {
        self.problems.push(Problem {
            file: self.file.clone(),
            path: path.to_string(),
            message: message.into(),
        });
    }

    /// Whether a problem was noted at `path` or below it.
    #[cfg(feature = "full")]
    pub fn has_problem_at(&self, path: &str) -> bool {
        self.problems.iter().any(|p| p.path.starts_with(path))
    }

    /// Every key of `table` not in `known` is a problem, with the near miss it suggests.
    pub fn unknown(&mut self, table: &Table, prefix: &str, known: &[&str]) {
        for key in table.keys().filter(|k| !known.contains(&k.as_str())) {
            self.problem(
                &at(prefix, key),
                format!(
                    "unknown key{}; expected one of: {}",
                    did_you_mean(key, known),
                    known.join(", ")
                ),
            );
        }
    }

    /// A key that must be there: notes `expected` as missing when it is absent.
    #[cfg(feature = "full")]
    pub fn require(&mut self, table: &Table, prefix: &str, key: &str, expected: &str) {
        if !table.contains_key(key) {
            self.problem(&at(prefix, key), format!("missing: expected {expected}"));
        }
    }

    pub fn text(&mut self, table: &Table, prefix: &str, key: &str) -> Option<String> {
        match table.get(key)? {
            Value::String(s) => Some(s.clone()),
            other => {
                self.problem(
                    &at(prefix, key),
                    format!("expected a quoted string, got {}", describe(other)),
                );
                None
            }
        }
    }

    /// A name that becomes one directory under output/ (a scenario's, a study's).
    pub fn directory_name(&mut self, table: &Table, prefix: &str, key: &str) -> Option<String> {
        let name = self.text(table, prefix, key)?;
        match directory_name_problem(&name) {
            Some(problem) => {
                self.problem(&at(prefix, key), problem);
                None
            }
            None => Some(name),
        }
    }

    /// A number from `min` to `max` (integers are numbers too).
    #[cfg(feature = "full")]
    pub fn number(
        &mut self,
        table: &Table,
        prefix: &str,
        key: &str,
        (min, max): (f64, f64),
    ) -> Option<f64> {
        let value = table.get(key)?;
        match value {
            Value::Integer(i) if (min..=max).contains(&(*i as f64)) => Some(*i as f64),
            Value::Float(f) if (min..=max).contains(f) => Some(*f),
            other => {
                self.problem(
                    &at(prefix, key),
                    format!(
                        "expected a number from {min} to {max}, got {}",
                        describe(other)
                    ),
                );
                None
            }
        }
    }

    /// A command-line value given in place of a file's number: itself where it lies from `min` to
    /// `max`; out of range, a problem at its flag and None, so that the file's value stands.
    #[cfg(feature = "full")]
    pub fn overridden(
        &mut self,
        flag: &str,
        value: Option<f64>,
        (min, max): (f64, f64),
    ) -> Option<f64> {
        let v = value?;
        if (min..=max).contains(&v) {
            return Some(v);
        }
        self.problem(
            flag,
            format!("expected a number from {min} to {max}, got {v}"),
        );
        None
    }

    /// A whole number from `min` to `max`.
    #[cfg(feature = "full")]
    pub fn whole(
        &mut self,
        table: &Table,
        prefix: &str,
        key: &str,
        (min, max): (u64, u64),
    ) -> Option<u64> {
        match table.get(key)? {
            Value::Integer(i) if *i >= 0 && (min..=max).contains(&(*i as u64)) => Some(*i as u64),
            other => {
                self.problem(
                    &at(prefix, key),
                    format!(
                        "expected a whole number from {min} to {max}, got {}",
                        describe(other)
                    ),
                );
                None
            }
        }
    }

    #[cfg(feature = "full")]
    pub fn boolean(&mut self, table: &Table, prefix: &str, key: &str) -> Option<bool> {
        match table.get(key)? {
            Value::Boolean(b) => Some(*b),
            other => {
                self.problem(
                    &at(prefix, key),
                    format!("expected true or false, got {}", describe(other)),
                );
                None
            }
        }
    }

    /// A month written `"YYYY-MM"`.
    pub fn month(&mut self, table: &Table, prefix: &str, key: &str) -> Option<Month> {
        let value = table.get(key)?;
        let parsed = value.as_str().and_then(Month::parse);
        if parsed.is_none() {
            self.problem(&at(prefix, key), month_expected(value));
        }
        parsed
    }

    /// A list of whole numbers such as `[1, 2]`, at least one.
    #[cfg(feature = "full")]
    pub fn wholes(&mut self, table: &Table, prefix: &str, key: &str) -> Option<Vec<u64>> {
        let path = at(prefix, key);
        match table.get(key)? {
            Value::Array(items) if !items.is_empty() => {
                let mut out = Vec::new();
                for (i, v) in items.iter().enumerate() {
                    match v {
                        Value::Integer(n) if *n >= 0 => out.push(*n as u64),
                        other => self.problem(
                            &format!("{path}[{}]", i + 1),
                            format!("expected a whole number, got {}", describe(other)),
                        ),
                    }
                }
                (out.len() == items.len()).then_some(out)
            }
            other => {
                self.problem(
                    &path,
                    format!(
                        "expected a list of whole numbers, such as [1, 2], got {}",
                        describe(other)
                    ),
                );
                None
            }
        }
    }

    /// A table under `key` (absent: empty), its keys checked against `known`.
    pub fn table(&mut self, table: &Table, prefix: &str, key: &str, known: &[&str]) -> Table {
        let path = at(prefix, key);
        match table.get(key) {
            None => Table::new(),
            Some(Value::Table(t)) => {
                self.unknown(t, &path, known);
                t.clone()
            }
            Some(other) => {
                self.problem(
                    &path,
                    format!("expected a table [{key}], got {}", describe(other)),
                );
                Table::new()
            }
        }
    }

    /// The `[[key]]` tables with their key paths (`key[1]`, `key[2]`, …); anything else under the
    /// key is a problem.
    pub fn tables(&mut self, table: &Table, key: &str) -> Vec<(String, Table)> {
        match table.get(key) {
            None => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(i, v)| {
                    let path = format!("{key}[{}]", i + 1);
                    match v {
                        Value::Table(t) => Some((path, t.clone())),
                        other => {
                            self.problem(
                                &path,
                                format!("expected a table ([[{key}]]), got {}", describe(other)),
                            );
                            None
                        }
                    }
                })
                .collect(),
            Some(other) => {
                self.problem(
                    key,
                    format!(
                        "expected an array of tables ([[{key}]]), got {}",
                        describe(other)
                    ),
                );
                Vec::new()
            }
        }
    }
}

/// What a value that is not a month gets told; a bare TOML date gets a hint.
pub fn month_expected(value: &Value) -> String {
    let hint = if matches!(value, Value::Datetime(_)) {
        " (write months as quoted strings: \"2014-07\")"
    } else {
        ""
    };
    format!(
        "expected a month \"YYYY-MM\", got {}{hint}",
        describe(value)
    )
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

/// Why `name` cannot name a directory under output/, if it cannot: it must be one plain path
/// component, so that the directory lands inside output/ and not in it or above it.
fn directory_name_problem(name: &str) -> Option<String> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name
            .chars()
            .any(|c| c == '/' || c == '\\' || c.is_control());
    (!plain).then(|| {
        format!("expected a name for one directory under output/ (no `/`, `\\`, `..` or control characters; not empty), got {name:?}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of keys past 1 MiB is refused by its size before it is parsed (a parser's message
    /// would quote its enormous line); one just under is parsed as usual.
    #[test]
    fn a_file_of_keys_past_its_bound_is_refused_by_its_size() {
        let dir = crate::testing::scratch("keys");
        let path = dir.join("big.toml");
        std::fs::write(&path, "x".repeat(KEYS_FILE_CAP as usize + 1)).unwrap();
        let e = read_file(&path, "scenario").unwrap_err().to_string();
        assert!(
            e.ends_with("big.toml is 1,048,577 bytes long: a scenario is a few kilobytes of TOML (at most 1 MiB is read); is this the file you meant?"),
            "{e}"
        );
        let padded = format!(
            "name = \"a\"\n#{}\n",
            "x".repeat(KEYS_FILE_CAP as usize - 20)
        );
        std::fs::write(&path, padded).unwrap();
        assert_eq!(
            read_file(&path, "scenario").unwrap().1["name"].as_str(),
            Some("a")
        );
    }

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

    /// An empty list is called empty, not "a list" (a calibration's `seeds = []`).
    #[test]
    fn an_empty_list_of_wholes_is_called_empty() {
        let table = parse_table("seeds = []").unwrap();
        let mut reader = Reader::new(Path::new("study.toml"));
        assert_eq!(reader.wholes(&table, "", "seeds"), None);
        assert!(reader.problems[0]
            .message
            .ends_with("expected a list of whole numbers, such as [1, 2], got an empty list"));
    }
}
