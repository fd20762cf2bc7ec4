//! FIDE rating list files (TXT), in the layouts FIDE has published:
//! - fixed width, 2000–2004: `ID_NUMBER NAME TITLE COUNTRY JAN01 GAMES [BIRTHDAY] [SEX] FLAG` with
//!   varying column positions, a `CODE` header, a title line, or no header at all after a blank line;
//! - tab separated, the January files 2001–2008: `ID_NUMBER Name TITLE Fed Rtng GAMES [BIRTHDAY] FLAG`
//!   with varying spellings (`ID_number`, `Titl`, `AMES`, `Game`, `sBorn`, a merged `Name  Title`);
//! - the monthly fixed width: `ID Number Name Fed Sex Tit WTit OTit sep12 Gms K B-day Flag`;
//! - today's download (`standard_rating_list.txt`), the same with FIDE Online Arena titles:
//!   `ID Number Name Fed Sex Tit WTit OTit FOA SEP25 Gms K B-day Flag`, unknown birth years as `0`.
//!
//! Fixed-width rows are read from the right (flag, sex, birthday, games, rating, federation, title),
//! which holds however the columns drift; today's layout also takes the name and federation at the
//! header's positions. Files are UTF-8 or ISO-8859-1.

use std::path::Path;

use crate::model::Month;

use super::compressed::read_text;
use super::error::IngestError;
use super::table::Skips;
use super::text::decode;

/// One player on a FIDE list.
#[derive(Clone, Debug, PartialEq)]
pub struct FideEntry {
    pub line: u32,
    pub id: String,
    pub name: String,
    pub title: Option<String>,
    pub federation: Option<String>,
    pub sex: Option<String>,
    pub rating: i32,
    /// Games in the list's period (not a career total).
    pub games: Option<u32>,
    pub k: Option<u8>,
    pub birth_year: Option<i16>,
    /// Flag letters: `i` inactive, `w` woman, `n` new, …
    pub flag: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FideLayout {
    FixedWidth,
    Tabbed,
    Monthly,
    /// Today's download: the monthly layout with an `FOA` column before the rating.
    Download,
    /// FIDE's XML download (`fide_xml.rs`).
    Xml,
}

impl FideLayout {
    pub fn describe(self) -> &'static str {
        match self {
            FideLayout::FixedWidth => "FIDE list, fixed width (2000–2004 layout)",
            FideLayout::Tabbed => "FIDE list, tab separated (2001–2008 layout)",
            FideLayout::Monthly => "FIDE list, fixed width (monthly layout with Gms, K, B-day)",
            FideLayout::Download => "FIDE list, fixed width (today's download with FOA titles)",
            FideLayout::Xml => "FIDE list, XML download",
        }
    }
}

pub struct FideList {
    pub file: String,
    pub sha256: String,
    pub layout: FideLayout,
    /// The list's month, from its header or file name.
    pub month: Option<Month>,
    pub entries: Vec<FideEntry>,
}

const TITLES: &[&str] = &[
    "g", "m", "f", "c", "wg", "wm", "wf", "wc", "gm", "im", "fm", "cm", "wgm", "wim", "wfm", "wcm",
];

/// Whether a file's first non-blank line is a FIDE list's: a title or header naming an id column,
/// or a data row starting with an id.
pub fn looks_like_fide_list(first_line: &str) -> bool {
    let lower = first_line.to_ascii_lowercase();
    let header = (lower.contains("id_number")
        || lower.contains("id number")
        || lower.trim_start().starts_with("code")
        || lower.contains("rating list"))
        && !lower.contains(',');
    // A data row starts with a FIDE id followed by spaces or a tab (a CSV row's first token would
    // run on into a comma); names may hold commas.
    let mut tokens = first_line.split_whitespace();
    let data = tokens
        .next()
        .is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        && tokens.count() >= 2;
    header || data
}

pub fn read(path: &Path, skips: &mut Skips) -> Result<FideList, IngestError> {
    let file = path.display().to_string();
    let (bytes, sha256) = read_text(path)?;
    let text = decode(bytes);
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let first = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .ok_or_else(|| IngestError::Empty {
            file: file.clone(),
            expected: "a FIDE rating list".into(),
        })?;
    // A header is the first line naming a `name` column among the first few; data may come first.
    let header_at = (first..lines.len().min(first + 5))
        .find(|&i| lines[i].to_ascii_lowercase().contains("name") && !starts_with_id(lines[i]));
    let header = header_at.map(|i| lines[i]);
    let layout = match header {
        Some(h) if h.contains('\t') => FideLayout::Tabbed,
        Some(h) if h.contains("Gms") && h.contains("B-day") && h.contains(" FOA ") => {
            FideLayout::Download
        }
        Some(h) if h.contains("Gms") && h.contains("B-day") => FideLayout::Monthly,
        _ => FideLayout::FixedWidth,
    };
    let month = header
        .and_then(month_in_header)
        .or_else(|| month_in_file_name(path))
        .or_else(|| lines.get(first).and_then(|l| month_in_title(l)));
    let list_year = month.map(Month::year);
    let mut entries = Vec::new();
    let body = header_at.map_or(first, |i| i + 1);
    let tabbed = match (layout, header) {
        (FideLayout::Tabbed, Some(h)) => Some(TabColumns::new(
            h,
            &file,
            header_at.unwrap_or(0) as u32 + 1,
        )?),
        _ => None,
    };
    // Today's download only adds a title column before the rating, which the monthly layout's
    // reading from the right passes over.
    let monthly = match (layout, header) {
        (FideLayout::Monthly | FideLayout::Download, Some(h)) => Some(MonthlyColumns::new(h)),
        _ => None,
    };
    for (i, line) in lines.iter().enumerate().skip(body) {
        if line.trim().is_empty() {
            continue;
        }
        let number = i as u32 + 1;
        let parsed = match (&tabbed, &monthly) {
            (Some(cols), _) => cols.parse(line, number, list_year, &file),
            (_, Some(cols)) => cols.parse(line, number, &file),
            _ => parse_fixed(line, number, list_year, &file),
        };
        if let Some(entry) = skips.check(parsed)? {
            entries.push(entry);
        }
    }
    if entries.is_empty() && skips.total() == 0 {
        return Err(IngestError::File {
            file,
            problem: "no players found: expected lines starting with a FIDE id".into(),
        });
    }
    Ok(FideList {
        file,
        sha256,
        layout,
        month,
        entries,
    })
}

fn starts_with_id(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
}

pub(super) fn row_error(file: &str, line: u32, column: &str, problem: String) -> IngestError {
    IngestError::Row {
        file: file.into(),
        place: format!("line {line}"),
        column: column.into(),
        problem,
    }
}

/// English month names cut to three letters, as FIDE's list labels and reports' dates write them.
pub(super) const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// `JAN01`, `sep12` → the list's month.
fn month_label(token: &str) -> Option<Month> {
    let lower = token.to_ascii_lowercase();
    // Bytes, not a slice at 3: the token may hold a multi-byte character there (found by fuzzing).
    if lower.len() != 5 || !lower.bytes().skip(3).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let m = MONTHS.iter().position(|&name| lower.starts_with(name))?;
    Month::new(2000 + lower[3..].parse::<i32>().ok()?, m as u32 + 1)
}

fn month_in_header(header: &str) -> Option<Month> {
    header.split(['\t', ' ']).find_map(month_label)
}

/// `JAN01FRL.TXT`, `rapid_sep12frl.txt`, `standard_sep25frl_xml.xml`, `2006-01.TXT`,
/// `standard-2025-01.csv`.
pub(super) fn month_in_file_name(path: &Path) -> Option<Month> {
    let stem = path.file_stem()?.to_string_lossy().to_ascii_lowercase();
    if let Some(m) = year_month_in(&stem) {
        return Some(m);
    }
    stem.split(['_', '-', '.'])
        .find_map(|part| part.get(..5).and_then(month_label))
}

/// The first `YYYY-MM` in a name that no digit runs on into (`standard-2025-01`).
fn year_month_in(stem: &str) -> Option<Month> {
    let bytes = stem.as_bytes();
    let digit_at = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    (0..stem.len()).find_map(|i| {
        let fenced = (i == 0 || !digit_at(i - 1)) && !digit_at(i + 7);
        fenced.then(|| stem.get(i..i + 7).and_then(Month::parse))?
    })
}

/// "1st January 2000 FIDE Rating List".
fn month_in_title(line: &str) -> Option<Month> {
    let lower = line.to_ascii_lowercase();
    let m = MONTHS.iter().position(|name| lower.contains(name))?;
    let year = lower
        .split_whitespace()
        .find_map(|t| t.parse::<i32>().ok().filter(|y| (1970..2100).contains(y)))?;
    Month::new(year, m as u32 + 1)
}

/// `17.01.72`, `17.01.1972`, `1972`; unknown as `.  .`, `0000` or nothing. Two-digit years take the
/// century that makes the player at least five years old on the list.
pub(super) fn birth_year(text: &str, list_year: Option<i32>) -> Option<i16> {
    let text = text.trim();
    let year = match text.len() {
        4 => text.parse::<i32>().ok()?,
        8 | 10 if text.as_bytes()[2] == b'.' && text.as_bytes()[5] == b'.' => {
            let y: i32 = text[6..].parse().ok()?;
            if text.len() == 10 {
                y
            } else {
                let pivot = list_year.unwrap_or(2000) - 5;
                if 2000 + y > pivot {
                    1900 + y
                } else {
                    2000 + y
                }
            }
        }
        _ => return None,
    };
    (1850..2100).contains(&year).then_some(year as i16)
}

/// FIDE's lists never show a rating below 1000 (the lowest floor, reference §5).
pub(super) fn rating(text: &str, line: u32, file: &str, column: &str) -> Result<i32, IngestError> {
    text.parse::<i32>()
        .ok()
        .filter(|r| (1000..=4000).contains(r))
        .ok_or_else(|| {
            row_error(
                file,
                line,
                column,
                format!("expected a rating from 1000 to 4000, got {text:?}"),
            )
        })
}

/// A count or a K factor: a whole number.
pub(super) fn whole_number(
    text: &str,
    line: u32,
    file: &str,
    column: &str,
) -> Result<u32, IngestError> {
    text.parse().map_err(|_| {
        row_error(
            file,
            line,
            column,
            format!("expected a whole number, got {text:?}"),
        )
    })
}

/// A K factor: a whole number up to 255.
pub(super) fn k_factor(text: &str, line: u32, file: &str, column: &str) -> Result<u8, IngestError> {
    u8::try_from(whole_number(text, line, file, column)?).map_err(|_| {
        row_error(
            file,
            line,
            column,
            format!("expected a K factor, got {text:?}"),
        )
    })
}

/// A FIDE id: digits only.
pub(super) fn fide_id<'a>(
    token: &'a str,
    line: u32,
    file: &str,
    column: &str,
) -> Result<&'a str, IngestError> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(row_error(
            file,
            line,
            column,
            format!("expected a FIDE id (digits), got {token:?}"),
        ));
    }
    Ok(token)
}

fn is_federation(token: &str) -> bool {
    token.len() == 3 && token.bytes().all(|b| b.is_ascii_uppercase())
}

fn is_flag(token: &str) -> bool {
    token.len() <= 3
        && token.bytes().all(|b| b.is_ascii_alphabetic())
        && token != "M"
        && token != "F"
}

/// Tokens of a line with their byte offsets.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// A line's tokens, consumed from the right; the id (token 0) is never consumed.
struct Tail<'a> {
    tokens: &'a [(usize, &'a str)],
    end: usize,
}

impl<'a> Tail<'a> {
    fn peek(&self) -> Option<&'a str> {
        (self.end > 1).then(|| self.tokens[self.end - 1].1)
    }

    fn take(&mut self, test: impl Fn(&str) -> bool) -> Option<&'a str> {
        let token = self.peek().filter(|t| test(t))?;
        self.end -= 1;
        Some(token)
    }
}

/// The 2000–2004 fixed-width layouts, read from the right.
fn parse_fixed(
    line: &str,
    number: u32,
    list_year: Option<i32>,
    file: &str,
) -> Result<FideEntry, IngestError> {
    let t = tokens(line);
    let id = fide_id(t[0].1, number, file, "id")?;
    let mut tail = Tail {
        tokens: &t,
        end: t.len(),
    };
    let flag = tail.take(is_flag).unwrap_or("").to_string();
    let sex = tail.take(|s| s == "M" || s == "F").map(str::to_string);
    let mut birthday = tail.take(|s| birth_year(s, None).is_some() && s.contains('.'));
    if birthday.is_none() && tail.take(|s| s == ".").is_some() {
        tail.take(|s| s == ".");
        birthday = None;
    }
    let is_number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let last = tail.take(is_number).ok_or_else(|| {
        row_error(
            file,
            number,
            "rating",
            format!(
                "expected the rating and games count before the birthday and flag, in {:?}",
                line.trim()
            ),
        )
    })?;
    let (rating_text, games) = match tail.take(is_number) {
        Some(r) => (r, last.parse().ok()),
        None => match tail.peek() {
            Some(next) if !is_federation(next) => {
                return Err(row_error(
                    file,
                    number,
                    "rating",
                    format!("expected a rating (a number) before the games count, got {next:?}"),
                ));
            }
            _ => (last, None),
        },
    };
    let federation = tail.take(is_federation).ok_or_else(|| {
        row_error(
            file,
            number,
            "federation",
            format!(
                "expected a three-letter federation before the rating, in {:?}",
                line.trim()
            ),
        )
    })?;
    let title = tail.take(|s| TITLES.contains(&s));
    let name_end = t[tail.end].0;
    let name = line[t[0].0 + id.len()..name_end].trim().to_string();
    Ok(FideEntry {
        line: number,
        id: id.to_string(),
        name,
        title: title.map(str::to_string),
        federation: Some(federation.to_string()),
        sex,
        rating: rating(rating_text, number, file, "rating")?,
        games,
        k: None,
        birth_year: birthday.and_then(|b| birth_year(b, list_year)),
        flag,
    })
}

/// Today's layout: the tail read from the right, name and federation at the header's positions.
struct MonthlyColumns {
    name: usize,
    federation: usize,
    sex: Option<usize>,
    title: Option<(usize, usize)>,
    /// The rating column's label (`JAN25`) and where it starts: the label before `Gms`.
    rating: Option<(String, usize)>,
}

impl MonthlyColumns {
    fn new(header: &str) -> MonthlyColumns {
        let at = |label: &str| header.find(label);
        MonthlyColumns {
            name: at("Name").unwrap_or(15),
            federation: at("Fed").unwrap_or(76),
            sex: at("Sex"),
            title: at("Tit").zip(at("WTit")),
            rating: at(" Gms").and_then(|games| {
                let start = header[..games].trim_end().rfind(' ')? + 1;
                Some((header[start..games].trim().to_string(), start))
            }),
        }
    }

    /// A row that ends before the rating column: its tail would be read as the wrong columns.
    fn refuse_cut_row(&self, line: &str, number: u32, file: &str) -> Result<(), IngestError> {
        let Some((label, start)) = &self.rating else {
            return Ok(());
        };
        let end = line.trim_end().chars().count();
        if end > *start {
            return Ok(());
        }
        Err(row_error(
            file,
            number,
            label,
            format!(
                "the row ends at column {end}, before its header's rating column {label} (from column {}): expected every column the header has",
                start + 1
            ),
        ))
    }

    fn parse(&self, line: &str, number: u32, file: &str) -> Result<FideEntry, IngestError> {
        self.refuse_cut_row(line, number, file)?;
        let t = tokens(line);
        let id = fide_id(t[0].1, number, file, "ID Number")?;
        let mut tail: Vec<&str> = t.iter().rev().map(|x| x.1).take(5).collect();
        let flag = if tail.first().is_some_and(|s| is_flag(s)) {
            tail.remove(0).to_string()
        } else {
            String::new()
        };
        let [birthday, k, games, rating_text] =
            [0, 1, 2, 3].map(|i| tail.get(i).copied().unwrap_or(""));
        let number_in = |text: &str, column: &str| whole_number(text, number, file, column);
        let k = k_factor(k, number, file, "K")?;
        let slice = |a: usize, b: usize| line.get(a..b.min(line.len())).unwrap_or("").trim();
        let federation = slice(self.federation, self.federation + 3);
        Ok(FideEntry {
            line: number,
            id: id.to_string(),
            name: slice(self.name, self.federation).to_string(),
            title: self
                .title
                .map(|(a, b)| slice(a, b))
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            federation: (!federation.is_empty()).then(|| federation.to_string()),
            sex: self
                .sex
                .map(|s| slice(s, s + 3))
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            rating: rating(rating_text, number, file, "rating")?,
            games: Some(number_in(games, "Gms")?),
            k: Some(k),
            birth_year: birth_year(birthday, None),
            flag,
        })
    }
}

/// The January 2005 file splits women's titles over two columns (`w`, `f  RUS` for WFM of Russia):
/// a federation cell of a title letter, spaces and three letters is read as the title's end and the
/// federation.
fn split_title(title: Option<&str>, federation: Option<&str>) -> (Option<String>, Option<String>) {
    if let Some((letters, fed)) = federation.and_then(|f| f.split_once(char::is_whitespace)) {
        let fed = fed.trim();
        if (1..=2).contains(&letters.len())
            && letters.bytes().all(|b| b.is_ascii_lowercase())
            && fed.len() == 3
        {
            return (
                Some(format!("{}{letters}", title.unwrap_or(""))),
                Some(fed.to_string()),
            );
        }
    }
    (title.map(str::to_string), federation.map(str::to_string))
}

/// The tab-separated January files: columns found by (drifting) name.
struct TabColumns {
    count: usize,
    id: usize,
    name: usize,
    title: Option<usize>,
    federation: Option<usize>,
    rating: usize,
    games: Option<usize>,
    born: Option<usize>,
    flag: Option<usize>,
}

impl TabColumns {
    fn new(header: &str, file: &str, line: u32) -> Result<TabColumns, IngestError> {
        let names: Vec<String> = header
            .split('\t')
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        let find = |test: &dyn Fn(&str) -> bool| names.iter().position(|n| test(n));
        let missing = |what: &str| IngestError::Line {
            file: file.into(),
            line,
            problem: format!(
                "no {what} column in the header ({})",
                header.replace('\t', " | ")
            ),
        };
        Ok(TabColumns {
            count: names.len(),
            id: find(&|n| n.starts_with("id") || n == "code").ok_or_else(|| missing("id"))?,
            name: find(&|n| n.starts_with("name")).ok_or_else(|| missing("name"))?,
            title: find(&|n| n.starts_with("tit")),
            federation: find(&|n| n == "fed" || n == "country"),
            rating: find(&|n| n == "rtng" || n == "rating" || month_label(n).is_some())
                .ok_or_else(|| missing("rating"))?,
            games: find(&|n| n.contains("game") || n == "ames" || n == "gms"),
            born: find(&|n| n.contains("born") || n.contains("birth")),
            flag: find(&|n| n == "flag"),
        })
    }

    fn parse(
        &self,
        line: &str,
        number: u32,
        list_year: Option<i32>,
        file: &str,
    ) -> Result<FideEntry, IngestError> {
        let cells: Vec<&str> = line.split('\t').map(str::trim).collect();
        if cells.len() != self.count {
            return Err(IngestError::Line {
                file: file.into(),
                line: number,
                problem: format!(
                    "{} tab-separated fields where the header has {}",
                    cells.len(),
                    self.count
                ),
            });
        }
        let get = |i: Option<usize>| i.map(|i| cells[i]).filter(|s| !s.is_empty());
        let id = fide_id(cells[self.id], number, file, "id")?;
        let (title, federation) = split_title(get(self.title), get(self.federation));
        if let Some(fed) = federation
            .as_deref()
            .filter(|f| !(f.len() == 3 && f.bytes().all(|b| b.is_ascii_alphabetic())))
        {
            return Err(row_error(
                file,
                number,
                "federation",
                format!("expected a three-letter federation, got {fed:?}"),
            ));
        }
        let games = match get(self.games) {
            Some(g) => Some(g.parse().map_err(|_| {
                row_error(
                    file,
                    number,
                    "games",
                    format!("expected a whole number, got {g:?}"),
                )
            })?),
            None => None,
        };
        Ok(FideEntry {
            line: number,
            id: id.to_string(),
            name: cells[self.name].trim_matches('"').to_string(),
            title,
            federation: federation.map(|f| f.to_ascii_uppercase()),
            sex: None,
            rating: rating(cells[self.rating], number, file, "rating")?,
            games,
            k: None,
            birth_year: get(self.born).and_then(|b| birth_year(b, list_year)),
            flag: get(self.flag).unwrap_or("").to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_width_rows_read_from_the_right() {
        let e = parse_fixed("    1401815 Aagaard, Jacob                   m     DEN      2367     9 31.07.1973     ", 3, Some(2001), "f").unwrap();
        assert_eq!(
            (
                e.id.as_str(),
                e.name.as_str(),
                e.title.as_deref(),
                e.rating,
                e.games,
                e.birth_year
            ),
            (
                "1401815",
                "Aagaard, Jacob",
                Some("m"),
                2367,
                Some(9),
                Some(1973)
            )
        );
        let e = parse_fixed(
            "   2221578  Penas Hernandez, Yolanda               ESP     2086   13     .  .   wF   ",
            1,
            Some(2002),
            "f",
        )
        .unwrap();
        assert_eq!(
            (e.rating, e.games, e.birth_year, e.flag.as_str()),
            (2086, Some(13), None, "wF")
        );
        let e = parse_fixed(
            " 4137159  Matorin, Evgeny                   m  RUS  2472       ",
            1,
            Some(2000),
            "f",
        )
        .unwrap();
        assert_eq!((e.rating, e.games), (2472, None));
        let e = parse_fixed("   12200050 Abdol Raheim, Emad                     SUD      2205     0   .  .     M   in  ", 1, None, "f").unwrap();
        assert_eq!((e.sex.as_deref(), e.flag.as_str()), (Some("M"), "in"));
        let e = parse_fixed(
            " 1407589  Aabling-Thomsen, Jakob                DEN  2168   12  26.06.85       ",
            1,
            Some(2003),
            "f",
        )
        .unwrap();
        assert_eq!(e.birth_year, Some(1985));
        let err = parse_fixed(
            " 1407589  Aabling-Thomsen, Jakob   DEN  21x8   12 ",
            7,
            None,
            "f.txt",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(err, "f.txt, line 7, column rating: expected a rating (a number) before the games count, got \"21x8\" (--skip-invalid leaves out such rows and counts them)");
    }

    /// A row of today's list cut before its rating column says so, rather than reading its
    /// federation as the K factor.
    #[test]
    fn a_monthly_row_cut_before_its_rating_is_named_as_cut() {
        let header = "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA JAN25 Gms K  B-day Flag";
        let cols = MonthlyColumns::new(header);
        let whole = "100013         Campora, Daniel H.                                           ARG M   GM                           2353  7   10 1957      ";
        assert_eq!(cols.parse(whole, 2, "f.txt").unwrap().rating, 2353);
        let cut = "100145         Felice, Carolina                                             ARG";
        let err = cols.parse(cut, 3, "f.txt").unwrap_err().to_string();
        assert!(err.starts_with("f.txt, line 3, column JAN25: the row ends at column 79, before its header's rating column JAN25 (from column 114)"), "{err}");
    }

    #[test]
    fn tab_rows_repair_split_titles_and_reject_shifted_fields() {
        let cols = TabColumns::new(
            "ID_NUMBER\tName\tTITLE\tFed\tRtng\tGAMES\tBIRTHDAY\tFLAG",
            "f",
            1,
        )
        .unwrap();
        let e = cols
            .parse(
                "4140850\t\"Afanasieva, Oksana\"\tw\tf  RUS\t2139\t0\t18.04.80\tw",
                477,
                Some(2005),
                "f",
            )
            .unwrap();
        assert_eq!(
            (e.title.as_deref(), e.federation.as_deref(), e.birth_year),
            (Some("wf"), Some("RUS"), Some(1980))
        );
        let shifted = cols
            .parse(
                "2207306\t\"Perdomo Abad, Jos?\"\tE\tSP     2\t179\t3\t\t",
                9,
                None,
                "f",
            )
            .unwrap_err()
            .to_string();
        assert_eq!(
            shifted,
            "f, line 9, column federation: expected a three-letter federation, got \"SP     2\" (--skip-invalid leaves out such rows and counts them)"
        );
        let cols = TabColumns::new(
            "ID_number\tName                            Title\tFed\tRtng\tGames\tBorn\tFlag",
            "f",
            1,
        )
        .unwrap();
        assert!(cols
            .parse("1\tName\tFed\t0\t0\t\t", 40989, None, "f")
            .unwrap_err()
            .to_string()
            .contains("column rating: expected a rating from 1000 to 4000, got \"0\""));
        let e = cols
            .parse(
                "4400860\t\"Betancur, Carolina\"\tCol\t1946\t11\t1990\t",
                6423,
                None,
                "f",
            )
            .unwrap();
        assert_eq!(
            (e.federation.as_deref(), e.birth_year),
            (Some("COL"), Some(1990))
        );
    }

    #[test]
    fn lists_are_told_from_tables_by_their_first_line() {
        assert!(looks_like_fide_list(
            " 1701991  Aaberg, Anton                         SWE  2383    0  17.01.72"
        ));
        assert!(looks_like_fide_list(
            "ID_number\tName\tTitl\tFed\tRtng\tGame\tsBorn\tFlag"
        ));
        assert!(looks_like_fide_list(
            "   CODE   NAME                          TITLE COUNTRY APR03 GAMES BIRTHDAY FLAG"
        ));
        assert!(looks_like_fide_list("1st January 2000 FIDE Rating List"));
        assert!(!looks_like_fide_list("id,rating,k"));
        assert!(!looks_like_fide_list("101,2100,20,100"));
        assert!(!looks_like_fide_list("Player,Rating,KFactor,NumGames"));
    }

    #[test]
    fn two_digit_birth_years_take_the_right_century() {
        assert_eq!(birth_year("05.05.95", Some(2003)), Some(1995));
        assert_eq!(birth_year("05.05.96", Some(2003)), Some(1996));
        assert_eq!(birth_year("01.01.02", Some(2012)), Some(2002));
        assert_eq!(birth_year("0000", None), None);
        assert_eq!(birth_year(".  .", None), None);
    }

    #[test]
    fn list_months_from_headers_and_names() {
        assert_eq!(month_label("APR03"), Month::new(2003, 4));
        assert_eq!(month_label("sep12"), Month::new(2012, 9));
        // Five bytes with a two-byte character across the month's end (the fuzzer's crash).
        assert_eq!(month_label("Ga¹e"), None);
        assert_eq!(month_label("ja¹1"), None);
        assert_eq!(
            month_in_header("ID_number\tName\tTitl\tFed\tRtng\tGa¹e\tsBorn"),
            None
        );
        assert_eq!(
            month_in_file_name(Path::new("x/2006-01.TXT")),
            Month::new(2006, 1)
        );
        assert_eq!(
            month_in_file_name(Path::new("rapid_sep12frl.txt")),
            Month::new(2012, 9)
        );
        assert_eq!(
            month_in_file_name(Path::new("standard_sep25frl_xml.xml")),
            Month::new(2025, 9)
        );
        assert_eq!(
            month_in_file_name(Path::new("d/standard-2025-01.csv")),
            Month::new(2025, 1)
        );
        assert_eq!(month_in_file_name(Path::new("12025-011.csv")), None);
        assert_eq!(
            month_in_title("1st January 2000 FIDE Rating List"),
            Month::new(2000, 1)
        );
    }
}
