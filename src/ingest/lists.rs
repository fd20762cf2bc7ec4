//! Starting lists (canonical CSV/Parquet, the 2011 contest's `Player,Rating,KFactor,NumGames`,
//! FIDE's list as a CSV of its XML download's columns, or a FIDE list file: TXT or XML) and players
//! files (`id, name, birth_year, federation, sex, title`).

use std::path::Path;

use crate::model::{Description, Month};

use super::compressed::read_start;
use super::error::IngestError;
use super::fide_list::{self, FideList};
use super::fide_xml;
use super::ids::RawIds;
use super::raw::Reported;
use super::table::{is_parquet, Skips, Table};
use super::text::decode;

/// One player of a starting list, before interning.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawEntry {
    pub rating: i32,
    pub k: Option<u8>,
    pub total_games: Option<u32>,
    /// Games rated in the list's period (a FIDE list's games column).
    pub period_games: Option<u32>,
    pub ever_2400: Option<bool>,
    pub ever_2300: Option<bool>,
    pub inactive: bool,
    pub birth_year: Option<i16>,
    /// Boxed, so that a list that describes nobody costs 8 bytes a row for it.
    pub description: Option<Box<Description>>,
    /// Line or row, for messages about duplicates.
    pub line: u32,
}

/// Which entries of a file of players to keep: each player's first. A player listed again is an
/// invalid row, an error naming both places (`lines`, each entry's `word` "line" or "row"), or
/// with `--skip-invalid` a counted skip. `holds` says what the file holds once ("a list holds each
/// player once").
pub(super) fn first_entries(
    file: &str,
    (word, lines): (&str, &[u32]),
    ids: &[String],
    holds: &str,
    skips: &mut Skips,
) -> Result<Vec<bool>, IngestError> {
    let mut keep = vec![true; ids.len()];
    let mut first: crate::model::IdMap<&str, usize> = Default::default();
    first.reserve(ids.len());
    for (again, id) in ids.iter().enumerate() {
        let Some(&earlier) = first.get(id.as_str()) else {
            first.insert(id, again);
            continue;
        };
        let duplicate = IngestError::Row {
            file: file.to_string(),
            place: format!(
                "{word} {} (player {id}, first listed on {word} {})",
                lines[again], lines[earlier]
            ),
            column: "id".into(),
            problem: format!("a player listed twice; {holds} (the first entry is kept)"),
        };
        skips.check::<()>(Err(duplicate))?;
        keep[again] = false;
    }
    Ok(keep)
}

pub struct RawList {
    pub file: String,
    pub ids: RawIds,
    pub entries: Vec<RawEntry>,
    /// What kind of file it was, for the run's summary.
    pub kind: String,
    pub sha256: String,
    /// The list's month: from a FIDE list's header, or any list's file name.
    pub month: Option<Month>,
    /// The month the list states itself: a FIDE list's (its header, or FIDE's name for the
    /// file), or a table's `month` column. Not a table's file name, which may as well name the
    /// month the list is used for (`2019-03-start.csv`).
    pub stated_month: Option<Month>,
    /// What an entry's `line` counts: "line" (text files) or "row" (Parquet).
    pub row_word: &'static str,
}

/// A rating list's players and ratings (histograms, comparisons).
#[derive(Debug)]
pub struct ListRatings {
    pub file: String,
    /// From a FIDE list's header or any list's file name (`JAN01FRL.TXT`, `2006-01.csv`).
    pub month: Option<Month>,
    pub ids: Vec<String>,
    pub ratings: Vec<i32>,
    pub inactive: Vec<bool>,
    /// Games rated in the list's period, where the file gives them (a FIDE list's games column).
    pub period_games: Vec<Option<u32>>,
    /// Each entry's line or row, for messages.
    pub lines: Vec<u32>,
    /// What `lines` count: "line" or "row".
    pub row_word: &'static str,
    /// What kind of file it was.
    pub kind: String,
}

/// Reads a FIDE list file or a canonical list (`id, rating, …`), every row as it is.
pub fn read_list_ratings(path: &Path, skips: &mut Skips) -> Result<ListRatings, IngestError> {
    let list = read_start_list(path, skips)?;
    Ok(ListRatings {
        ids: list.ids.as_text(),
        ratings: list.entries.iter().map(|e| e.rating).collect(),
        inactive: list.entries.iter().map(|e| e.inactive).collect(),
        period_games: list.entries.iter().map(|e| e.period_games).collect(),
        lines: list.entries.iter().map(|e| e.line).collect(),
        file: list.file,
        month: list.month,
        row_word: list.row_word,
        kind: list.kind,
    })
}

impl ListRatings {
    /// Keeps each player's first entry. A player listed twice is an invalid row: an error, or with
    /// `--skip-invalid` the later entries are left out and counted. Returns how many were left out.
    pub fn keep_first_entries(&mut self, skips: &mut Skips) -> Result<usize, IngestError> {
        let keep = first_entries(
            &self.file,
            (self.row_word, &self.lines),
            &self.ids,
            "a list holds each player once",
            skips,
        )?;
        let dropped = keep.iter().filter(|&&k| !k).count();
        if dropped > 0 {
            let mut k = keep.iter();
            self.ids.retain(|_| *k.next().unwrap_or(&true));
            let mut k = keep.iter();
            self.ratings.retain(|_| *k.next().unwrap_or(&true));
            let mut k = keep.iter();
            self.inactive.retain(|_| *k.next().unwrap_or(&true));
            let mut k = keep.iter();
            self.period_games.retain(|_| *k.next().unwrap_or(&true));
            let mut k = keep.iter();
            self.lines.retain(|_| *k.next().unwrap_or(&true));
        }
        Ok(dropped)
    }
}

const START_COLUMNS: &str =
    "id, rating; optionally k, games, ever_2400, ever_2300, birth_year, flag, month";

pub fn read_start_list(path: &Path, skips: &mut Skips) -> Result<RawList, IngestError> {
    if !is_parquet(path) {
        match fide_format(path)? {
            Some(FideFormat::Txt) => return Ok(from_fide(fide_list::read(path, skips)?)),
            Some(FideFormat::Xml) => return Ok(from_fide(fide_xml::read(path, skips)?)),
            None => {}
        }
    }
    let table = Table::open(path, START_COLUMNS)?;
    let id = table.require(&["id", "player", "fide_id", "ID Number", "ID_NUMBER"])?;
    let rating = table.require(&["rating", "rtng"])?;
    let k = table.find(&["k", "kfactor"]);
    let games = table.find(&["games", "numgames", "total_games"]);
    let ever_2400 = table.find(&["ever_2400"]);
    let ever_2300 = table.find(&["ever_2300"]);
    let born = table.find(&["birth_year", "born", "b-day"]);
    let flag = table.find(&["flag", "inactive"]);
    let name = table.find(&["name"]);
    let federation = table.find(&["federation", "fed", "country"]);
    let sex = table.find(&["sex"]);
    let title = table.find(&["title"]);
    // FIDE's list as a CSV of its XML download's columns (`w_title` among them): its games are the
    // list's period's, as on every FIDE list, not a career total.
    let fide_columns = table.find(&["w_title"]).is_some();
    // The list's month, where the file names it in a column (a generated world's list does): one
    // month in every row, and it outranks a month in the file's name.
    let month = table.find(&["month"]);
    let listed: std::cell::Cell<Option<(Month, u32)>> = std::cell::Cell::new(None);
    let kind = if fide_columns {
        "FIDE list, CSV of the XML download's columns"
    } else {
        "table of id, rating, k, games"
    };
    let mut list = collect(&table, id, kind, skips, |line, cells| {
        let err = |column: &str, problem: String| table.row_error(line, column, problem);
        let number =
            |i: Option<usize>, column: &str, max: i64| -> Result<Option<i64>, IngestError> {
                let Some(s) = i.map(|i| cells[i].trim()).filter(|s| !s.is_empty()) else {
                    return Ok(None);
                };
                s.parse::<i64>()
                    .ok()
                    .filter(|v| (0..=max).contains(v))
                    .map(Some)
                    .ok_or_else(|| {
                        err(
                            column,
                            format!("expected a whole number from 0 to {max}, got {s:?}"),
                        )
                    })
            };
        let yes_no = |i: Option<usize>, column: &str| -> Result<Option<bool>, IngestError> {
            match i.map(|i| cells[i].trim().to_ascii_lowercase()).as_deref() {
                None | Some("") => Ok(None),
                Some("1" | "true" | "yes" | "y") => Ok(Some(true)),
                Some("0" | "false" | "no" | "n") => Ok(Some(false)),
                Some(other) => Err(err(
                    column,
                    format!("expected true or false, got {other:?}"),
                )),
            }
        };
        if let Some(i) = month {
            let text = cells[i].trim();
            let this = Month::parse(text).ok_or_else(|| {
                err(
                    "month",
                    format!("expected the list's month YYYY-MM, got {text:?}"),
                )
            })?;
            match listed.get() {
                    None => listed.set(Some((this, line))),
                    Some((first, first_line)) if first != this => {
                        return Err(err(
                            "month",
                            format!("expected {first}, the month of line {first_line}, got {this}: a starting list is one month's list"),
                        ))
                    }
                    Some(_) => {}
                }
        }
        let inactive = flag.is_some_and(|i| {
            let f = cells[i].trim().to_ascii_lowercase();
            f.contains('i') || f == "true" || f == "1"
        });
        let games = number(games, "games", 1_000_000)?.map(|v| v as u32);
        let (total_games, period_games) = if fide_columns {
            (None, games)
        } else {
            (games, None)
        };
        Ok(RawEntry {
            rating: number(Some(rating), "rating", 4000)?
                .ok_or_else(|| err("rating", "empty: expected a rating".into()))?
                as i32,
            k: number(k, "k", 255)?.map(|v| v as u8),
            total_games,
            period_games,
            ever_2400: yes_no(ever_2400, "ever_2400")?,
            ever_2300: yes_no(ever_2300, "ever_2300")?,
            inactive,
            birth_year: number(born, "birth_year", 2100)?
                .filter(|&y| y > 0)
                .map(|v| v as i16),
            description: described(cells, [name, federation, sex, title]),
            ..RawEntry::default()
        })
    })?;
    if let Some((m, _)) = listed.get() {
        list.month = Some(m);
        list.stated_month = Some(m);
    }
    if let Some(m) = list.month.filter(|_| fide_columns) {
        list.kind = format!("{kind} of {m}");
    }
    Ok(list)
}

/// Reads every row of a table into a list: the id column, and the rest by `parse`; rows that
/// cannot be read are errors or counted skips.
fn collect(
    table: &Table,
    id: usize,
    kind: &str,
    skips: &mut Skips,
    parse: impl Fn(u32, &[&str]) -> Result<RawEntry, IngestError>,
) -> Result<RawList, IngestError> {
    let mut list = RawList {
        file: table.file().to_string(),
        ids: RawIds::default(),
        entries: Vec::new(),
        kind: kind.into(),
        sha256: table.sha256().to_string(),
        month: fide_list::month_in_file_name(Path::new(table.file())),
        stated_month: None,
        row_word: table.row_word(),
    };
    table.for_each_row(&mut |line, cells| {
        let Some(cells) = skips.check(cells)? else {
            return Ok(());
        };
        let who = table.player_id(line, (id, "id"), cells);
        let parsed = who.and_then(|who| Ok((who, parse(line, cells)?)));
        if let Some((who, entry)) = skips.check(parsed)? {
            list.ids.push(who);
            list.entries.push(RawEntry { line, ..entry });
        }
        Ok(())
    })?;
    Ok(list)
}

/// FIDE's list files: fixed-width or tabbed text, or the XML download.
enum FideFormat {
    Txt,
    Xml,
}

/// Whether a file is a FIDE list, and which, from its first non-blank line (only the file's start
/// is read, decompressed).
fn fide_format(path: &Path) -> Result<Option<FideFormat>, IngestError> {
    let start = read_start(path, 64 * 1024)?;
    let text = decode(start);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    Ok(if fide_xml::looks_like_fide_xml(first) {
        Some(FideFormat::Xml)
    } else if fide_list::looks_like_fide_list(first) {
        Some(FideFormat::Txt)
    } else {
        None
    })
}

fn from_fide(fide: FideList) -> RawList {
    let mut ids = RawIds::default();
    let mut entries = Vec::with_capacity(fide.entries.len());
    for e in fide.entries {
        ids.push(&e.id);
        entries.push(RawEntry {
            rating: e.rating,
            k: e.k,
            // A FIDE list's game count is the period's, not a career total.
            total_games: None,
            period_games: e.games,
            ever_2400: None,
            ever_2300: None,
            inactive: e.flag.to_ascii_lowercase().contains('i'),
            birth_year: e.birth_year,
            description: Description {
                name: Some(e.name),
                federation: e.federation,
                sex: e.sex,
                title: e.title,
            }
            .boxed(),
            line: e.line,
        });
    }
    let month = fide.month.map(|m| format!(" of {m}")).unwrap_or_default();
    let kind = format!("{}{month}", fide.layout.describe());
    RawList {
        file: fide.file,
        ids,
        entries,
        kind,
        sha256: fide.sha256,
        month: fide.month,
        stated_month: fide.month,
        row_word: "line",
    }
}

/// A players file: `id` and any of `name, birth_year, federation, sex, title`.
pub fn read_players(path: &Path, skips: &mut Skips) -> Result<RawList, IngestError> {
    let table = Table::open(
        path,
        "id; optionally name, birth_year, federation, sex, title",
    )?;
    let id = table.require(&["id", "player"])?;
    let name = table.find(&["name"]);
    let born = table.find(&["birth_year", "born"]);
    let federation = table.find(&["federation", "fed", "region"]);
    let sex = table.find(&["sex"]);
    let title = table.find(&["title"]);
    collect(&table, id, "players file", skips, |line, cells| {
        let birth_year = match cell_text(cells, born) {
            Some(s) => Some(
                s.parse::<i16>()
                    .ok()
                    .filter(|y| (1850..2100).contains(y))
                    .ok_or_else(|| {
                        table.row_error(line, "birth_year", format!("expected a year, got {s:?}"))
                    })?,
            ),
            None => None,
        };
        Ok(RawEntry {
            birth_year,
            description: described(cells, [name, federation, sex, title]),
            ..RawEntry::default()
        })
    })
}

/// A row's text in column `i`, where the file has the column and the row fills it.
fn cell_text(cells: &[&str], i: Option<usize>) -> Option<String> {
    i.map(|i| cells[i].trim())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// What a row says of who the player is, from the columns of `name, federation, sex, title`.
fn described(cells: &[&str], columns: [Option<usize>; 4]) -> Option<Box<Description>> {
    let [name, federation, sex, title] = columns.map(|i| cell_text(cells, i));
    Description {
        name,
        federation,
        sex,
        title,
    }
    .boxed()
}

use crate::scenario::REPORTED;

/// Whether a starting list is the reports' own ratings rather than a file.
pub fn is_reported(path: &Path) -> bool {
    path.as_os_str() == REPORTED
}

/// The starting list tournament reports give: each player at the rating their earliest report
/// carries (by the event's start; a report gives the player's rating on the list in force then,
/// TRF16 columns 49–52). A player that report leaves unrated (blank or 0) is not on the list, even
/// if a later report rates them: that rating is one the replay is to compute. Refused when the
/// games are not reports (`source`, the games file).
pub fn reported_start(
    source: &str,
    reported: Option<&[(String, Reported)]>,
) -> Result<RawList, IngestError> {
    let reported = reported.ok_or_else(|| IngestError::File {
        file: source.to_string(),
        problem: format!("--start-list {REPORTED} takes the ratings tournament reports carry, and these games are not tournament reports (TRF); give a starting list file"),
    })?;
    let mut order: Vec<usize> = (0..reported.len()).collect();
    order.sort_by_key(|&i| (reported[i].1.as_of, i));
    let mut seen = std::collections::HashSet::new();
    let mut ids = RawIds::default();
    let mut entries = Vec::new();
    for i in order {
        let (id, player) = &reported[i];
        if !seen.insert(id.as_str()) {
            continue;
        }
        let Some(rating) = player.rating else {
            continue;
        };
        ids.push(id);
        entries.push(RawEntry {
            rating,
            line: player.line,
            ..RawEntry::default()
        });
    }
    Ok(RawList {
        file: source.to_string(),
        ids,
        entries,
        kind: "the ratings its reports carry, each player's earliest".into(),
        sha256: String::new(),
        month: None,
        stated_month: None,
        row_word: "line",
    })
}
