//! Reading text files: UTF-8 (with or without a byte-order mark) or, failing that, ISO-8859-1 as
//! FIDE's older lists are; and a CSV tokenizer that keeps exact line numbers for messages. Files are
//! opened through `compressed.rs`, which also refuses what is not text.

use std::borrow::Cow;
use std::path::Path;

use super::compressed::{read_text, Input, LineBound, LINE_CAP};
use super::error::IngestError;

/// Called with each record's line number and fields.
/// Called with each row's line and its cells, or the error of a record that cannot be a row (its
/// fields do not match the header), which the caller may skip.
pub type RowFn<'a> = dyn FnMut(u32, Result<&[&str], IngestError>) -> Result<(), IngestError> + 'a;

/// The SHA-256 of a file's bytes, in hex, for `summary.json`: computed from the bytes a reader
/// already holds, so that no input is read twice.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A whole file's bytes: Parquet, which is read whole (a build without it reads none).
#[cfg(feature = "full")]
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, IngestError> {
    std::fs::read(path).map_err(|source| IngestError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Decodes UTF-8, else ISO-8859-1 (every byte is a character). A byte-order mark is dropped, and
/// so is everything from a DOS end-of-file mark (Ctrl-Z, which ends several of FIDE's older lists,
/// some followed by a row of empty fields).
pub fn decode(mut bytes: Vec<u8>) -> String {
    if let Some(end) = bytes.iter().position(|&b| b == 0x1a) {
        bytes.truncate(end);
    }
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let mut text = String::new();
            push_decoded(e.as_bytes(), &mut text);
            text
        }
    }
}

/// Appends `bytes` as text: UTF-8, else ISO-8859-1 (every byte is a character).
pub fn push_decoded(bytes: &[u8], out: &mut String) {
    match std::str::from_utf8(bytes) {
        Ok(text) => out.push_str(text),
        Err(_) => out.extend(bytes.iter().map(|&b| char::from(b))),
    }
}

/// A delimited text table: a header line, then one record per line (quoted fields may span lines).
#[derive(Clone)]
pub struct Csv {
    pub file: String,
    pub sha256: String,
    text: String,
    pub header: Vec<String>,
    delimiter: u8,
    body: usize,
    body_line: u32,
}

impl Csv {
    pub fn open(path: &Path, expected: &str) -> Result<Csv, IngestError> {
        let (bytes, sha256) = read_text(path)?;
        let mut csv = Csv::parse(path.display().to_string(), decode(bytes), expected)?;
        csv.sha256 = sha256;
        Ok(csv)
    }

    /// A table from its text: the header, then the body.
    fn parse(file: String, text: String, expected: &str) -> Result<Csv, IngestError> {
        let sha256 = String::new();
        let mut line = 1;
        let mut offset = 0;
        // Skip blank lines before the header.
        while offset < text.len() && text[offset..].starts_with(['\n', '\r']) {
            line += u32::from(text.as_bytes()[offset] == b'\n');
            offset += 1;
        }
        if offset >= text.len() {
            return Err(IngestError::Empty {
                file,
                expected: expected.into(),
            });
        }
        let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
        let first = text[offset..end].trim_end_matches('\r');
        let delimiter = sniff_delimiter(first);
        let mut header = Vec::new();
        let mut fields = Vec::new();
        let mut cursor = Cursor {
            text: &text,
            pos: offset,
            line,
        };
        if !cursor.record(delimiter, &mut fields, &file)? {
            return Err(IngestError::Empty {
                file,
                expected: expected.into(),
            });
        }
        for f in &fields {
            header.push(f.resolve(&text).trim().to_string());
        }
        if let Some(problem) = repeated_column(&header) {
            return Err(IngestError::Line {
                file,
                line,
                problem,
            });
        }
        let (body, body_line) = (cursor.pos, cursor.line);
        Ok(Csv {
            file,
            sha256,
            text,
            header,
            delimiter,
            body,
            body_line,
        })
    }

    /// Calls `f(line, fields)` for every record after the header; blank lines are skipped. A record
    /// with more or fewer fields than the header is handed to `f` as its error.
    pub fn for_each_row(&self, f: &mut RowFn<'_>) -> Result<(), IngestError> {
        let mut cursor = Cursor {
            text: &self.text,
            pos: self.body,
            line: self.body_line,
        };
        let mut fields = Vec::with_capacity(self.header.len());
        let mut values: Vec<Cow<str>> = Vec::with_capacity(self.header.len());
        loop {
            let line = cursor.line;
            if !cursor.record(self.delimiter, &mut fields, &self.file)? {
                return Ok(());
            }
            if fields.len() == 1 && fields[0].resolve(&self.text).trim().is_empty() {
                continue;
            }
            if fields.len() != self.header.len() {
                let ragged = IngestError::Record {
                    file: self.file.clone(),
                    line,
                    problem: format!(
                        "{} fields where the header has {} ({})",
                        fields.len(),
                        self.header.len(),
                        super::error::header_names(&self.header)
                    ),
                };
                f(line, Err(ragged))?;
                continue;
            }
            // The fields as &str without allocating for each record: a table has few columns,
            // and nearly every field is a slice of the text as it stands.
            let mut refs = [""; INLINE_FIELDS];
            if fields.len() <= INLINE_FIELDS && slices_into(&fields, &self.text, &mut refs) {
                f(line, Ok(&refs[..fields.len()]))?;
                continue;
            }
            values.clear();
            values.extend(fields.iter().map(|f| f.resolve(&self.text)));
            if values.len() <= INLINE_FIELDS {
                for (r, v) in refs.iter_mut().zip(&values) {
                    *r = v.as_ref();
                }
                f(line, Ok(&refs[..values.len()]))?;
            } else {
                let refs: Vec<&str> = values.iter().map(|v| v.as_ref()).collect();
                f(line, Ok(&refs))?;
            }
        }
    }
}

/// Records of up to this many fields are handed over without allocating.
const INLINE_FIELDS: usize = 16;

/// Bytes of a large CSV file read at a time.
const BLOCK_BYTES: usize = 32 << 20;

/// A CSV file read in blocks of whole records, each block a `Csv` of its own with the file's header
/// and its true line numbers, so that memory holds one block and not the file.
pub struct CsvBlocks {
    file: String,
    input: Input,
    /// The file's header, as a table with no rows.
    header: Csv,
    /// Bytes read past the last whole record.
    carry: Vec<u8>,
    next_line: u32,
    at_end: bool,
    block_bytes: usize,
    bound: LineBound,
}

impl CsvBlocks {
    pub fn open(path: &Path, expected: &str) -> Result<CsvBlocks, IngestError> {
        use std::io::Read;
        let mut input = Input::open(path)?;
        input.refuse_binary()?;
        // The header comes from the first kilobytes, parsed as a whole file would be.
        let mut head = Vec::new();
        let read = (&mut input).take(1 << 16).read_to_end(&mut head);
        read.map_err(|e| input.error(e))?;
        let file = path.display().to_string();
        let mut bound = LineBound::default();
        bound.check(&file, &head)?;
        // The header is the first line that is not blank.
        let mut end = 0;
        while end < head.len() {
            let next = head[end..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(head.len(), |i| end + i + 1);
            let blank = head[end..next].iter().all(u8::is_ascii_whitespace);
            end = next;
            if !blank {
                break;
            }
        }
        let mut header = Csv::parse(file.clone(), decode(head[..end].to_vec()), expected)?;
        header.sha256.clear();
        let next_line = header.body_line;
        let carry = head[end..].to_vec();
        Ok(CsvBlocks {
            file,
            input,
            header,
            carry,
            next_line,
            at_end: false,
            block_bytes: BLOCK_BYTES,
            bound,
        })
    }

    /// The next block of whole records, or `None` at the end of the file.
    pub fn next_block(&mut self) -> Result<Option<Csv>, IngestError> {
        use std::io::Read;
        if self.at_end && self.carry.is_empty() {
            return Ok(None);
        }
        let mut bytes = std::mem::take(&mut self.carry);
        if !self.at_end {
            let before = bytes.len();
            let read = (&mut self.input)
                .take(self.block_bytes as u64)
                .read_to_end(&mut bytes);
            read.map_err(|e| self.input.error(e))?;
            self.bound.check(&self.file, &bytes[before..])?;
            self.at_end = bytes.len() - before < self.block_bytes;
            // A DOS end-of-file mark ends the file, as it does for a file read whole.
            if let Some(end) = bytes.iter().position(|&b| b == 0x1a) {
                bytes.truncate(end);
                self.at_end = true;
            }
        }
        // Cut after the last line end outside quotes; at the end of the file, take everything.
        let cut = if self.at_end {
            bytes.len()
        } else {
            let mut quoted = false;
            let mut last = None;
            for (i, &b) in bytes.iter().enumerate() {
                match b {
                    b'"' => quoted = !quoted,
                    b'\n' if !quoted => last = Some(i + 1),
                    _ => {}
                }
            }
            // A record longer than a block: read on until it ends, unless it cannot be a record
            // (a quote never closed makes the rest of the file one).
            match last {
                Some(cut) => cut,
                None if bytes.len() > LINE_CAP => {
                    return Err(IngestError::Line {
                        file: self.file.clone(),
                        line: self.next_line,
                        problem: "a record longer than 1 MiB: a quote (\") opens a field that never closes".into(),
                    });
                }
                None => {
                    self.carry = bytes;
                    return self.next_block();
                }
            }
        };
        self.carry = bytes.split_off(cut);
        let text = decode(bytes);
        let lines = text.bytes().filter(|&b| b == b'\n').count() as u32;
        let block = Csv {
            file: self.file.clone(),
            sha256: String::new(),
            text,
            header: self.header.header.clone(),
            delimiter: self.header.delimiter,
            body: 0,
            body_line: self.next_line,
        };
        self.next_line += lines;
        Ok(Some(block))
    }

    /// Bytes of the file read so far, as stored (compressed or not).
    pub fn bytes_read(&self) -> usize {
        self.input.bytes_read() as usize
    }

    /// The SHA-256 of the bytes read so far (of the whole file, once every block is read).
    pub fn sha256(&self) -> String {
        self.input.sha256()
    }
}

/// What is wrong with a header that names a column twice (case ignored, as columns are found):
/// which of the two to read would be a guess. Empty names (a trailing delimiter) are not names.
pub fn repeated_column(header: &[String]) -> Option<String> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, name) in header.iter().enumerate().filter(|(_, n)| !n.is_empty()) {
        if let Some(&first) = seen.get(&name.to_ascii_lowercase()) {
            return Some(format!(
                "the header names the column `{name}` twice (columns {} and {}); give each column once",
                first + 1,
                i + 1
            ));
        }
        seen.insert(name.to_ascii_lowercase(), i);
    }
    None
}

fn sniff_delimiter(first_line: &str) -> u8 {
    [b',', b'\t', b';']
        .into_iter()
        .max_by_key(|&d| first_line.bytes().filter(|&b| b == d).count())
        .filter(|&d| first_line.as_bytes().contains(&d))
        .unwrap_or(b',')
}

/// Fills `refs` with the fields, each a slice of `text`; false (`refs` partly filled) when one has
/// doubled quotes to undo.
fn slices_into<'a>(fields: &[Field], text: &'a str, refs: &mut [&'a str]) -> bool {
    for (r, field) in refs.iter_mut().zip(fields) {
        match *field {
            Field::Slice(a, b) => *r = &text[a..b],
            Field::Escaped(..) => return false,
        }
    }
    true
}

/// A field of a record: a slice of the text, or a quoted field with doubled quotes to undo.
enum Field {
    Slice(usize, usize),
    Escaped(usize, usize),
}

impl Field {
    fn resolve<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match *self {
            Field::Slice(a, b) => Cow::Borrowed(&text[a..b]),
            Field::Escaped(a, b) => Cow::Owned(text[a..b].replace("\"\"", "\"")),
        }
    }
}

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: u32,
}

impl Cursor<'_> {
    /// Reads one record into `fields`; false at the end of the text.
    fn record(
        &mut self,
        delimiter: u8,
        fields: &mut Vec<Field>,
        file: &str,
    ) -> Result<bool, IngestError> {
        fields.clear();
        let bytes = self.text.as_bytes();
        if self.pos >= bytes.len() {
            return Ok(false);
        }
        loop {
            if bytes.get(self.pos) == Some(&b'"') {
                let start = self.pos + 1;
                let first_line = self.line;
                let mut i = start;
                let mut escaped = false;
                loop {
                    match bytes.get(i) {
                        None => {
                            return Err(IngestError::Line {
                                file: file.into(),
                                line: first_line,
                                problem: "a quoted field is never closed (missing \")".into(),
                            })
                        }
                        Some(b'"') if bytes.get(i + 1) == Some(&b'"') => {
                            escaped = true;
                            i += 2;
                        }
                        Some(b'"') => break,
                        Some(b'\n') => {
                            self.line += 1;
                            i += 1;
                        }
                        Some(_) => i += 1,
                    }
                }
                fields.push(if escaped {
                    Field::Escaped(start, i)
                } else {
                    Field::Slice(start, i)
                });
                self.pos = i + 1;
                // Up to the delimiter or the end of the line; anything else after the quote is an error.
                let rest_start = self.pos;
                while self.pos < bytes.len()
                    && bytes[self.pos] != delimiter
                    && bytes[self.pos] != b'\n'
                {
                    self.pos += 1;
                }
                if !self.text[rest_start..self.pos].trim().is_empty() {
                    return Err(IngestError::Line {
                        file: file.into(),
                        line: self.line,
                        problem: format!(
                            "text after a closing quote: {:?}",
                            &self.text[rest_start..self.pos]
                        ),
                    });
                }
            } else {
                let start = self.pos;
                while self.pos < bytes.len()
                    && bytes[self.pos] != delimiter
                    && bytes[self.pos] != b'\n'
                {
                    self.pos += 1;
                }
                let end = if self.pos > start && bytes[self.pos - 1] == b'\r' {
                    self.pos - 1
                } else {
                    self.pos
                };
                fields.push(Field::Slice(start, end));
            }
            match bytes.get(self.pos) {
                Some(&b) if b == delimiter => self.pos += 1,
                Some(b'\n') => {
                    self.pos += 1;
                    self.line += 1;
                    return Ok(true);
                }
                _ => return Ok(true),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Rows = (Vec<String>, Vec<(u32, Vec<String>)>);

    /// `text` in a file of its own (tests run in parallel).
    fn file(text: &str) -> std::path::PathBuf {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = crate::testing::scratch("csv").join(n.to_string());
        std::fs::write(&path, text).unwrap();
        path
    }

    fn rows(text: &str) -> Result<Rows, IngestError> {
        let path = file(text);
        let csv = Csv::open(&path, "a, b")?;
        let mut out = Vec::new();
        csv.for_each_row(&mut |line, f| {
            out.push((line, f?.iter().map(|s| s.to_string()).collect()));
            Ok(())
        })?;
        Ok((csv.header, out))
    }

    /// The rows of `text` read in blocks of `block_bytes`.
    fn rows_in_blocks(text: &str, block_bytes: usize) -> Result<Rows, IngestError> {
        let path = file(text);
        let mut blocks = CsvBlocks::open(&path, "a, b")?;
        blocks.block_bytes = block_bytes;
        let header = blocks.header.header.clone();
        let mut out = Vec::new();
        while let Some(block) = blocks.next_block()? {
            block.for_each_row(&mut |line, f| {
                out.push((line, f?.iter().map(|s| s.to_string()).collect()));
                Ok(())
            })?;
        }
        assert_eq!(blocks.sha256(), sha256(text.as_bytes()));
        Ok((header, out))
    }

    #[test]
    fn blocks_of_any_size_give_the_rows_and_lines_of_the_whole_file() {
        let text = "\n\u{feff}a,b\r\n1,\"x\ny\"\r\n\n2,\"say \"\"hi\"\"\"\n3,é\n4,\"\"\n5,last";
        let whole = rows(text).unwrap();
        assert_eq!(whole.1.len(), 5);
        for size in [1, 2, 3, 5, 7, 11, 16, 64, 1 << 20] {
            assert_eq!(
                rows_in_blocks(text, size).unwrap(),
                whole,
                "blocks of {size} bytes"
            );
        }
    }

    /// A quote never closed would make the rest of a file read in blocks one record, held
    /// whole: past a line's bound it is refused at the record's first line.
    #[test]
    fn a_quote_never_closed_is_refused_in_blocks() {
        let mut text = String::from("a,b\n1,2\n3,\"open\n");
        while text.len() <= 2 * LINE_CAP {
            text.push_str("4,5\n");
        }
        let e = rows_in_blocks(&text, 1 << 16).unwrap_err().to_string();
        assert!(
            e.contains(", line 3: a record longer than 1 MiB: a quote"),
            "{e}"
        );
    }

    #[test]
    fn quoted_fields_crlf_blank_lines_and_line_numbers() {
        let (header, rows) =
            rows("\u{feff}\"Month #\",\"Score\"\r\n1,\"a \"\"b\"\"\"\r\n\r\n2,\"x\ny\"\n3,z")
                .unwrap();
        assert_eq!(header, ["Month #", "Score"]);
        assert_eq!(
            rows,
            [
                (2, vec!["1".into(), "a \"b\"".into()]),
                (4, vec!["2".into(), "x\ny".into()]),
                (6, vec!["3".into(), "z".into()])
            ]
        );
        let (h, r) = rows_tab();
        assert_eq!((h.len(), r.len()), (3, 1));
    }

    fn rows_tab() -> Rows {
        rows("a\tb\tc\n1\t2\t3\n").unwrap()
    }

    #[test]
    fn malformed_records_are_errors_with_lines() {
        let e = rows("a,b\n1,2\n1,2,3\n").unwrap_err().to_string();
        assert!(
            e.ends_with("line 3: 3 fields where the header has 2 (a, b) (--skip-invalid leaves out such rows and counts them)"),
            "{e}"
        );
        let e = rows("a,b\n1,\"2\n").unwrap_err().to_string();
        assert!(e.contains("line 2: a quoted field is never closed"), "{e}");
        assert!(matches!(rows("\n\n"), Err(IngestError::Empty { .. })));
    }
}
