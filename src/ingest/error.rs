use std::path::PathBuf;

/// A problem reading an input file. Row-level problems name the file, the line (or Parquet row),
/// the column and what was expected; `--skip-invalid` turns those into counted skips.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("cannot read {}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{file} is empty: expected a header line with the columns {expected}")]
    Empty { file: String, expected: String },
    #[error("{file}: missing column `{column}`{hint}; the header has: {found}")]
    MissingColumn {
        file: String,
        column: String,
        found: String,
        hint: String,
    },
    #[error("{file}, {place}, column {column}: {problem} (--skip-invalid leaves out such rows and counts them)")]
    Row {
        file: String,
        place: String,
        column: String,
        problem: String,
    },
    /// A CSV record with more or fewer fields than the header: a row `--skip-invalid` may skip.
    #[error(
        "{file}, line {line}: {problem} (--skip-invalid leaves out such rows and counts them)"
    )]
    Record {
        file: String,
        line: u32,
        problem: String,
    },
    #[error("{file}, line {line}: {problem}")]
    Line {
        file: String,
        line: u32,
        problem: String,
    },
    #[error("{file}: {problem}")]
    File { file: String, problem: String },
    /// A compressed or binary file given where text is read: `what` it is, and what to do.
    #[error("{file} is {what}: {advice}")]
    NotText {
        file: String,
        what: String,
        advice: String,
    },
}

impl IngestError {
    /// Whether `--skip-invalid` may skip the row this error is about.
    pub fn is_row_level(&self) -> bool {
        matches!(self, IngestError::Row { .. } | IngestError::Record { .. })
    }

    /// What a skipped row was skipped for, without its position or the value found, so that rows
    /// with the same problem are counted together.
    pub fn reason(&self) -> String {
        match self {
            IngestError::Row {
                column, problem, ..
            } => {
                let cut = [", got ", "; got "]
                    .iter()
                    .filter_map(|sep| problem.rfind(sep))
                    .max();
                let expected = cut.map_or(problem.as_str(), |at| &problem[..at]);
                format!("{column}: {expected}")
            }
            IngestError::Record { .. } => {
                "a record with more or fewer fields than the header".to_string()
            }
            other => other.to_string(),
        }
    }
}

/// A header's names as a message quotes them: each cut to 40 characters and at most twelve, so
/// that a file of one enormous line gives an error of a line, not of the file.
pub fn header_names<S: AsRef<str>>(names: &[S]) -> String {
    const NAMES: usize = 12;
    let shown: Vec<String> = names
        .iter()
        .take(NAMES)
        .map(|n| clipped(n.as_ref()))
        .collect();
    match names.len() {
        n if n > NAMES => format!("{}, … ({n} in all)", shown.join(", ")),
        _ => shown.join(", "),
    }
}

/// Text a message quotes, cut to 40 characters: what a file holds may be a megabyte long.
pub fn clipped(text: &str) -> String {
    const CHARS: usize = 40;
    match text.char_indices().nth(CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    /// A header of one enormous name, or of many names, is quoted in a line.
    #[test]
    fn a_header_is_quoted_in_a_line() {
        let long = "x".repeat(10_000_000);
        let quoted = super::header_names(&["id", "rating", long.as_str()]);
        assert_eq!(quoted, format!("id, rating, {}…", "x".repeat(40)));
        let many: Vec<String> = (1..=30).map(|i| format!("c{i}")).collect();
        assert_eq!(
            super::header_names(&many),
            "c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, … (30 in all)"
        );
    }
}
