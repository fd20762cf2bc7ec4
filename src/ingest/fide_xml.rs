//! FIDE's XML list download (`standard_rating_list.xml`, the archive's `standard_sep25frl_xml`): a
//! flat `<playerslist>` of `<player>` elements, each with the children `fideid, name, country, sex,
//! title, w_title, o_title, foa_title, rating, games, k, birthday, flag` (the combined list adds
//! `rapid_…` and `blitz_…`, which are not read). The file states no month: the list's month comes
//! from the file's name where FIDE's name carries it.
//!
//! Read tag by tag from a buffered stream (plain, compressed or zipped as FIDE's downloads are:
//! `compressed.rs`), so that a list costs its players, not its text; a player's values are checked
//! as the TXT lists' are (`fide_list.rs`).

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::compressed::{Input, LINE_CAP};
use super::error::{clipped, IngestError};
use super::fide_list::{
    birth_year, fide_id, k_factor, month_in_file_name, rating, whole_number, FideEntry, FideLayout,
    FideList,
};
use super::table::Skips;
use super::text::push_decoded;

/// Whether a file's first non-blank line starts an XML document or FIDE's `<playerslist>`.
pub fn looks_like_fide_xml(first_line: &str) -> bool {
    let start = first_line.trim_start();
    start.starts_with("<?xml") || start.starts_with("<playerslist")
}

pub fn read(path: &Path, skips: &mut Skips) -> Result<FideList, IngestError> {
    let file = path.display().to_string();
    let mut opened = Input::open(path)?;
    opened.refuse_binary()?;
    let mut tags = Tags::new(opened, &file);
    let mut entries = Vec::new();
    // The player being read (the line of its `<player>`, its children so far) and the child open
    // (its name, line and text so far: a comment may split the text).
    let mut player: Option<(u32, Vec<Child>)> = None;
    let mut open: Option<(String, u32, String)> = None;
    while let Some(piece) = tags.next()? {
        let error = |problem: String| IngestError::Line {
            file: file.clone(),
            line: piece.line,
            problem,
        };
        if open.is_none() && !piece.text.trim().is_empty() {
            return Err(error(format!(
                "expected a tag, found the text {:?}",
                piece.text.trim()
            )));
        }
        match (piece.tag, &mut player, open.take()) {
            (Tag::Other, _, child) => {
                open = child.map(|(name, line, text)| (name, line, text + &piece.text));
            }
            (Tag::Start(name), None, None) if name == "player" => {
                player = Some((piece.line, Vec::new()));
            }
            (Tag::Start(name), None, None) if name == "playerslist" => {}
            (Tag::End(name), None, None) if name == "playerslist" => {}
            (Tag::Start(name), Some(_), None) => open = Some((name, piece.line, String::new())),
            (Tag::Empty(name), Some((_, children)), None) => children.push(Child {
                name,
                value: String::new(),
                line: piece.line,
            }),
            (Tag::End(name), Some((_, children)), Some((child, line, text))) if name == child => {
                children.push(Child {
                    name,
                    value: unescape(&(text + &piece.text)),
                    line,
                });
            }
            (Tag::End(name), Some((line, children)), None) if name == "player" => {
                let parsed = entry(&file, *line, children);
                player = None;
                if let Some(entry) = skips.check(parsed)? {
                    entries.push(entry);
                }
            }
            (tag, _, Some((child, line, _))) => {
                return Err(error(format!(
                    "expected </{child}> (the <{child}> of line {line}), found {}",
                    tag.shown()
                )))
            }
            (tag, Some((line, _)), None) => {
                let expected =
                    format!("a player's element or </player> (the <player> of line {line})");
                return Err(error(format!("expected {expected}, found {}", tag.shown())));
            }
            (tag, None, None) => {
                return Err(error(format!(
                    "expected <player> or </playerslist>, found {}",
                    tag.shown()
                )))
            }
        }
    }
    if let Some((child, line, _)) = open {
        return Err(tags.cut_short(&format!("</{child}> (the <{child}> of line {line})")));
    }
    if let Some((line, _)) = player {
        return Err(tags.cut_short(&format!("</player> (the <player> of line {line})")));
    }
    if entries.is_empty() && skips.total() == 0 {
        return Err(IngestError::File {
            file,
            problem: "no players found: expected <player> elements in a <playerslist>".into(),
        });
    }
    Ok(FideList {
        sha256: tags.sha256(),
        file,
        layout: FideLayout::Xml,
        month: month_in_file_name(path),
        entries,
    })
}

/// One element of a `<player>`: its name, its text and the line it starts on.
struct Child {
    name: String,
    value: String,
    line: u32,
}

/// A player from its elements; a missing element is read as empty.
fn entry(file: &str, line: u32, children: &[Child]) -> Result<FideEntry, IngestError> {
    let get = |name: &str| {
        children
            .iter()
            .find(|c| c.name == name)
            .map_or(("", line), |c| (c.value.trim(), c.line))
    };
    let text = |name: &str| {
        Some(get(name).0)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let (id, id_line) = get("fideid");
    let (rating_text, rating_line) = get("rating");
    let (games, games_line) = get("games");
    let (k, k_line) = get("k");
    Ok(FideEntry {
        line,
        id: fide_id(id, id_line, file, "<fideid>")?.to_string(),
        name: get("name").0.to_string(),
        title: text("title"),
        federation: text("country"),
        sex: text("sex"),
        rating: rating(rating_text, rating_line, file, "<rating>")?,
        games: Some(whole_number(games, games_line, file, "<games>")?),
        k: Some(k_factor(k, k_line, file, "<k>")?),
        birth_year: birth_year(get("birthday").0, None),
        flag: get("flag").0.to_string(),
    })
}

/// XML's five named entities and numeric references; anything else is kept as written.
fn unescape(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| match &rest[1..e] {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            code => code
                .strip_prefix("#x")
                .map(|hex| u32::from_str_radix(hex, 16))
                .or_else(|| code.strip_prefix('#').map(str::parse))
                .and_then(Result::ok)
                .and_then(char::from_u32),
        });
        match (decoded, end) {
            (Some(c), Some(e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

enum Tag {
    Start(String),
    End(String),
    Empty(String),
    /// A declaration, comment or processing instruction (`<?…?>`, `<!…>`).
    Other,
}

impl Tag {
    fn shown(&self) -> String {
        match self {
            Tag::Start(name) => format!("<{name}>"),
            Tag::End(name) => format!("</{name}>"),
            Tag::Empty(name) => format!("<{name}/>"),
            Tag::Other => "a declaration".into(),
        }
    }
}

/// The text before a tag, the tag, and the line the tag starts on.
struct Piece {
    text: String,
    tag: Tag,
    line: u32,
}

/// A file read as text-then-tag pieces, counting lines; the input hashes the file's bytes as
/// they pass.
struct Tags {
    reader: BufReader<Input>,
    file: String,
    line: u32,
    buffer: Vec<u8>,
    first: bool,
}

impl Tags {
    fn new(source: Input, file: &str) -> Tags {
        Tags {
            reader: BufReader::with_capacity(1 << 16, source),
            file: file.to_string(),
            line: 1,
            buffer: Vec::new(),
            first: true,
        }
    }

    /// The SHA-256 of the file as stored (all of it, once every tag is read).
    fn sha256(self) -> String {
        self.reader.get_ref().sha256()
    }

    fn cut_short(&self, expected: &str) -> IngestError {
        IngestError::Line {
            file: self.file.clone(),
            line: self.line,
            problem: format!("the file ends here: expected {expected}"),
        }
    }

    fn next(&mut self) -> Result<Option<Piece>, IngestError> {
        self.buffer.clear();
        // At most a line's bound between two tags' ends, so that memory stays bounded on any input.
        let read = (&mut self.reader)
            .take(LINE_CAP as u64 + 1)
            .read_until(b'>', &mut self.buffer);
        read.map_err(|e| self.reader.get_ref().error(e))?;
        if self.buffer.len() > LINE_CAP {
            return Err(IngestError::Line {
                file: self.file.clone(),
                line: self.line,
                problem: "more than 1 MiB without a tag's end ('>'): a FIDE XML list's elements are short; is this the file you meant?".into(),
            });
        }
        if self.buffer.is_empty() {
            return Ok(None);
        }
        let mut bytes = self.buffer.as_slice();
        if std::mem::take(&mut self.first) {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        let lt = bytes.iter().position(|&b| b == b'<');
        let text_end = lt.unwrap_or(bytes.len());
        let mut text = String::new();
        push_decoded(&bytes[..text_end], &mut text);
        self.line += count_newlines(&bytes[..text_end]);
        let line = self.line;
        let Some(lt) = lt.filter(|_| bytes.ends_with(b">")) else {
            // The file's end: after the last tag, only blank text may follow.
            if lt.is_none() && text.trim().is_empty() {
                return Ok(None);
            }
            let problem = match lt {
                Some(lt) => format!(
                    "the file ends inside the tag {:?}: expected '>'",
                    clipped(&String::from_utf8_lossy(&bytes[lt..]))
                ),
                None => format!(
                    "expected a tag, found the text {:?} at the file's end",
                    clipped(text.trim())
                ),
            };
            return Err(IngestError::Line {
                file: self.file.clone(),
                line,
                problem,
            });
        };
        let inside = &bytes[lt + 1..bytes.len() - 1];
        self.line += count_newlines(inside);
        let mut tag_text = String::new();
        push_decoded(inside, &mut tag_text);
        let name = |t: &str| t.split_whitespace().next().unwrap_or("").to_string();
        let tag = if tag_text.starts_with(['?', '!']) {
            Tag::Other
        } else if let Some(end) = tag_text.strip_prefix('/') {
            Tag::End(name(end))
        } else if let Some(empty) = tag_text.strip_suffix('/') {
            Tag::Empty(name(empty))
        } else {
            Tag::Start(name(&tag_text))
        };
        Ok(Some(Piece { text, tag, line }))
    }
}

fn count_newlines(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_read_from_their_elements_whatever_the_whitespace() {
        let dir = crate::testing::scratch("fide-xml");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("standard_sep25frl_xml.xml");
        std::fs::write(
            &path,
            "\u{feff}<?xml version=\"1.0\"?>\r\n<!-- FIDE -->\r\n<playerslist><player><fideid>101591</fideid>\
             <name>D&apos;Israel,<!-- a comment --> Davy</name><country>ARG</country><sex>M</sex><title/>\
             <foa_title>AFM</foa_title><rating>2133</rating><games>0</games><k>20</k>\
             <rapid_rating>0</rapid_rating><birthday>1957</birthday><flag>i</flag></player>\r\n\
             <player>\r\n <fideid>100145</fideid>\r\n <name>Felice, Carolina</name>\r\n\
             <rating>1927</rating><games>0</games><k>40</k><birthday></birthday><flag>wi</flag>\r\n\
             </player></playerslist>\r\n",
        )
        .unwrap();
        let list = read(&path, &mut Skips::new(false)).unwrap();
        assert_eq!(list.month, crate::model::Month::new(2025, 9));
        let e = &list.entries[0];
        assert_eq!(
            (e.line, e.id.as_str(), e.name.as_str(), e.title.as_deref()),
            (3, "101591", "D'Israel, Davy", None)
        );
        assert_eq!(
            (
                e.federation.as_deref(),
                e.sex.as_deref(),
                e.rating,
                e.games,
                e.k
            ),
            (Some("ARG"), Some("M"), 2133, Some(0), Some(20))
        );
        assert_eq!((e.birth_year, e.flag.as_str()), (Some(1957), "i"));
        let e = &list.entries[1];
        assert_eq!(
            (
                e.line,
                e.federation.as_deref(),
                e.birth_year,
                e.flag.as_str()
            ),
            (4, None, None, "wi")
        );
        assert_eq!(
            list.sha256,
            super::super::text::sha256(&std::fs::read(&path).unwrap())
        );
    }

    #[test]
    fn a_file_cut_inside_a_tag_is_refused_with_its_line() {
        let dir = crate::testing::scratch("fide-xml-cut");
        let path = dir.join("cut.xml");
        std::fs::write(&path, "<playerslist>\n<player>\n<fideid>1</fideid>\n<rati").unwrap();
        let Err(err) = read(&path, &mut Skips::new(true)) else {
            panic!("a cut file was read");
        };
        let err = err.to_string();
        assert!(
            err.ends_with("cut.xml, line 4: the file ends inside the tag \"<rati\": expected '>'"),
            "{err}"
        );
    }

    #[test]
    fn entities_are_decoded() {
        assert_eq!(unescape("D&apos;Israel &amp; Co"), "D'Israel & Co");
        assert_eq!(unescape("&#233;&#xE9;"), "éé");
        assert_eq!(unescape("A & B &unknown;"), "A & B &unknown;");
    }
}
