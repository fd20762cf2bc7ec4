//! PGN files, plain or compressed (`compressed.rs`), read for their tag pairs only (PGN standard §8.1): the
//! movetext is skipped line by line without parsing moves. Our own reader because the best-known
//! PGN crates are GPL-3 and elosim is MIT/Apache; it only needs the seven-tag roster and the
//! rating tags, and it must survive files from the wild (unterminated tags and comments, stray
//! braces, megabyte-long movetext lines) without panicking.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

use crate::model::{Day, EventType, HalfPoints, Month, EVENT_NONE};

use super::compressed::{plain_name, Input, LINE_CAP};
use super::error::IngestError;
use super::raw::{control_character, sort_event_names, Extras, PgnCounts, RawGames};
use super::table::Skips;
use super::text::push_decoded;

impl PgnCounts {
    /// One line for people: what the file held besides the games kept.
    pub fn describe(&self) -> String {
        let n = |v: usize| crate::numbers::thousands(v as u64);
        let mut text = format!(
            "{} games in the file · {} unfinished (*) left out · {} without both ratings",
            n(self.games),
            n(self.unfinished),
            n(self.without_ratings)
        );
        if self.dated_by_year > 0 {
            text += &format!(
                " · {} dated by year only, placed in January",
                n(self.dated_by_year)
            );
        }
        text += &format!(
            " · {} malformed tag lines and {} unclosed comments ignored",
            n(self.malformed_tags),
            n(self.unterminated_comments)
        );
        text
    }
}

/// What to do with a game whose date gives only the year ("1988.??.??", common in collections).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dates {
    /// An invalid row: a replay needs the month.
    NeedMonth,
    /// Placed in the year's January and counted: reports over whole years stay exact.
    YearIsEnough,
}

/// Whether a path names a PGN file (`.pgn`, and compressed `.pgn.gz`, `.pgn.zst`, `.pgn.zip`).
pub fn is_pgn(path: &Path) -> bool {
    plain_name(path).ends_with(".pgn")
}

/// Reads a PGN file's games. A game without players, result or date is an invalid row (an error,
/// or a counted skip with `--skip-invalid`); unfinished games are always left out and counted.
pub fn read(path: &Path, dates: Dates, skips: &mut Skips) -> Result<RawGames, IngestError> {
    let mut whole = None;
    let (counts, sha256) = read_blocks(path, dates, skips, usize::MAX, &mut |block| {
        whole = Some(block)
    })?;
    let mut out = whole.unwrap_or_else(|| empty_block(path));
    out.extras = Extras::Pgn(counts);
    out.sha256 = sha256;
    Ok(out)
}

/// Reads a PGN file's games `block_games` at a time, handing each block to `each` as it fills
/// (the last one may be shorter; a file without games gives none), so that memory holds one block
/// and not the file. Returns what the whole file counted and its checksum.
pub fn read_blocks(
    path: &Path,
    dates: Dates,
    skips: &mut Skips,
    block_games: usize,
    each: &mut dyn FnMut(RawGames),
) -> Result<(PgnCounts, String), IngestError> {
    let file = path.display().to_string();
    let mut lines = Lines::open(path)?;
    let mut block = Block::new(path);
    let mut counts = PgnCounts::default();
    let (mut unfinished, mut without_ratings, mut dated_by_year) = (0, 0, 0);
    scan(&mut lines, &mut counts, &mut |tags| {
        match skips.check(game_row(&file, tags, dates))? {
            Some(Verdict::Game(row)) => {
                dated_by_year += usize::from(row.by_year);
                if row.white_rating.is_none() || row.black_rating.is_none() {
                    without_ratings += 1;
                }
                block.push(row);
                if block.raw.len() >= block_games {
                    each(block.hand_over(path));
                }
            }
            Some(Verdict::Unfinished) => unfinished += 1,
            None => {}
        }
        Ok(())
    })?;
    if !block.raw.is_empty() {
        each(block.hand_over(path));
    }
    counts.unfinished = unfinished;
    counts.without_ratings = without_ratings;
    counts.dated_by_year = dated_by_year;
    Ok((counts, lines.finish()?))
}

fn empty_block(path: &Path) -> RawGames {
    RawGames::of_lines(
        path.display().to_string(),
        Extras::Pgn(PgnCounts::default()),
    )
}

/// The games of one block as they are read, with its events' names.
struct Block {
    raw: RawGames,
    events: HashMap<String, u32>,
    any_event_type: bool,
}

impl Block {
    fn new(path: &Path) -> Block {
        Block {
            raw: empty_block(path),
            events: HashMap::new(),
            any_event_type: false,
        }
    }

    /// The block's games, complete, leaving an empty block in its place.
    fn hand_over(&mut self, path: &Path) -> RawGames {
        let Block {
            mut raw,
            events,
            any_event_type,
        } = std::mem::replace(self, Block::new(path));
        if !any_event_type {
            // No EventType tag: the file does not say, as a table without the column.
            raw.games.event_type.clear();
        }
        sort_event_names(&mut raw.games, events);
        raw
    }

    fn push(&mut self, row: GameRow) {
        self.any_event_type |= row.event_type.is_some();
        let g = &mut self.raw.games;
        g.period.push(None);
        g.date.push(Some(row.date));
        let event = match row.event {
            Some(name) => {
                let next = self.events.len() as u32 + 1;
                *self.events.entry(name).or_insert(next)
            }
            None => EVENT_NONE,
        };
        g.event.push(event);
        g.event_start.push(row.event_start);
        g.event_type
            .push(row.event_type.unwrap_or(EventType::Swiss));
        g.score.push(row.score);
        g.white_rating.push(row.white_rating);
        g.black_rating.push(row.black_rating);
        g.source_row.push(row.line);
        self.raw.white.push(&row.white);
        self.raw.black.push(&row.black);
    }
}

/// A PGN file's lines, read as a stream (decompressed as it is stored) and decoded one by one:
/// UTF-8, else ISO-8859-1; a byte-order mark is dropped, and everything from a DOS end-of-file
/// mark. Memory holds one line, whatever the file's size.
struct Lines {
    input: Input,
    /// The current line, as read and as decoded; both buffers are reused.
    bytes: Vec<u8>,
    text: String,
    first: bool,
    ended: bool,
}

impl Lines {
    fn open(path: &Path) -> Result<Lines, IngestError> {
        let mut input = Input::open(path)?;
        input.refuse_binary()?;
        Ok(Lines::new(input))
    }

    fn new(input: Input) -> Lines {
        Lines {
            input,
            bytes: Vec::new(),
            text: String::new(),
            first: true,
            ended: false,
        }
    }

    /// The next line, without its end; `None` at the end of the file (or its end-of-file mark).
    fn next_line(&mut self) -> Result<Option<&str>, IngestError> {
        if self.ended {
            return Ok(None);
        }
        self.bytes.clear();
        let mut found_end = false;
        let mut any = false;
        while !found_end {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) => return Err(self.input.error(e)),
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(at) => (at, true),
                None => (chunk.len(), false),
            };
            // Longer lines can only be movetext (or junk): only their first `LINE_CAP` bytes
            // are looked at, so that memory stays bounded on any input.
            let room = LINE_CAP.saturating_sub(self.bytes.len());
            self.bytes.extend_from_slice(&chunk[..take.min(room)]);
            self.input.consume(take + usize::from(end));
            found_end = end;
        }
        if !any {
            self.ended = true;
            return Ok(None);
        }
        let mut line = self.bytes.as_slice();
        if let Some(mark) = line.iter().position(|&b| b == 0x1a) {
            line = &line[..mark];
            self.ended = true;
        }
        line = line.strip_suffix(b"\r").unwrap_or(line);
        if std::mem::take(&mut self.first) {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        self.text.clear();
        push_decoded(line, &mut self.text);
        Ok(Some(&self.text))
    }

    /// Reads what is left, for the checksum of the whole file, and returns it.
    fn finish(mut self) -> Result<String, IngestError> {
        let read = std::io::copy(&mut self.input, &mut std::io::sink());
        read.map_err(|e| self.input.error(e))?;
        Ok(self.input.sha256())
    }
}

/// The tags of one game that elosim uses.
#[derive(Debug, Default)]
struct Tags {
    /// The line of the game's first tag.
    line: u32,
    event: Option<String>,
    date: Option<String>,
    event_date: Option<String>,
    event_type: Option<String>,
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
    white_elo: Option<String>,
    black_elo: Option<String>,
    white_fide_id: Option<String>,
    black_fide_id: Option<String>,
    /// Any tag seen (kept or not).
    any: bool,
    movetext: bool,
}

impl Tags {
    fn set(&mut self, name: &str, value: String) {
        let slot = match name {
            "Event" => &mut self.event,
            "Date" => &mut self.date,
            "EventDate" => &mut self.event_date,
            "EventType" => &mut self.event_type,
            "White" => &mut self.white,
            "Black" => &mut self.black,
            "Result" => &mut self.result,
            "WhiteElo" => &mut self.white_elo,
            "BlackElo" => &mut self.black_elo,
            "WhiteFideId" => &mut self.white_fide_id,
            "BlackFideId" => &mut self.black_fide_id,
            _ => return,
        };
        *slot = Some(value);
    }
}

/// Walks the file line by line and calls `game` with each game's tags. A game ends where the next
/// tag section begins (a tag after movetext, or a second `[Event` tag) or at the end of the file.
fn scan(
    lines: &mut Lines,
    counts: &mut PgnCounts,
    game: &mut dyn FnMut(&Tags) -> Result<(), IngestError>,
) -> Result<(), IngestError> {
    let mut tags = Tags::default();
    let mut in_comment = false;
    let mut n = 0usize;
    while let Some(line) = lines.next_line()? {
        n += 1;
        let line_no = u32::try_from(n).unwrap_or(u32::MAX);
        let rest = line.trim();
        if in_comment {
            if rest.starts_with("[Event ") {
                // A `{` never closed would swallow the rest of the file: end it at the next game.
                counts.unterminated_comments += 1;
                in_comment = false;
            } else {
                if let Some(end) = rest.find('}') {
                    in_comment = skip_movetext(&rest[end + 1..]);
                }
                continue;
            }
        }
        if rest.is_empty() || rest.starts_with('%') {
            continue;
        }
        if rest.starts_with('[') {
            if tags.movetext || (tags.event.is_some() && rest.starts_with("[Event ")) {
                finish(&mut tags, counts, game)?;
            }
            if !tags.any {
                tags.line = line_no;
                tags.any = true;
            }
            match parse_tag(rest) {
                Some((name, value)) => tags.set(name, value),
                None => counts.malformed_tags += 1,
            }
            continue;
        }
        tags.movetext = true;
        in_comment = skip_movetext(rest);
    }
    finish(&mut tags, counts, game)
}

fn finish(
    tags: &mut Tags,
    counts: &mut PgnCounts,
    game: &mut dyn FnMut(&Tags) -> Result<(), IngestError>,
) -> Result<(), IngestError> {
    let done = std::mem::take(tags);
    if done.any {
        counts.games += 1;
        game(&done)?;
    }
    Ok(())
}

/// Skips one line of movetext; returns whether it leaves a `{` comment open.
fn skip_movetext(line: &str) -> bool {
    let mut rest = line;
    loop {
        let Some(at) = rest.find(['{', ';']) else {
            return false;
        };
        if rest.as_bytes()[at] == b';' {
            return false;
        }
        match rest[at + 1..].find('}') {
            Some(end) => rest = &rest[at + 1 + end + 1..],
            None => return true,
        }
    }
}

/// `[Name "value"]` with the standard's `\"` and `\\` escapes; `None` for anything else.
fn parse_tag(line: &str) -> Option<(&str, String)> {
    let inner = line.strip_prefix('[')?;
    let name_end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (name, rest) = inner.split_at(name_end);
    let mut chars = rest.trim_start().strip_prefix('"')?.chars();
    let mut value = String::new();
    loop {
        match chars.next()? {
            '\\' => value.push(chars.next()?),
            '"' => break,
            c => value.push(c),
        }
    }
    let after: String = chars.collect();
    (!name.is_empty() && after.trim_start().starts_with(']')).then_some((name, value))
}

/// One game as the canonical table holds it.
#[derive(Debug, PartialEq)]
struct GameRow {
    line: u32,
    event: Option<String>,
    date: Day,
    event_start: Option<Day>,
    /// From the EventType tag, when there is one.
    event_type: Option<EventType>,
    white: String,
    black: String,
    score: HalfPoints,
    white_rating: Option<i32>,
    black_rating: Option<i32>,
    /// Dated to January because only the year is known.
    by_year: bool,
}

#[derive(Debug, PartialEq)]
enum Verdict {
    Game(GameRow),
    Unfinished,
}

fn game_row(file: &str, tags: &Tags, dates: Dates) -> Result<Verdict, IngestError> {
    let problem = |column: &str, problem: String| IngestError::Row {
        file: file.to_string(),
        place: format!("line {}", tags.line),
        column: column.to_string(),
        problem,
    };
    let score = match tags.result.as_deref().map(str::trim) {
        Some("1-0") => 2,
        Some("0-1") => 0,
        Some("1/2-1/2") => 1,
        Some("*") => return Ok(Verdict::Unfinished),
        other => {
            return Err(problem(
                "Result",
                format!(
                    "expected 1-0, 0-1, 1/2-1/2 or *, got {:?}",
                    other.unwrap_or("")
                ),
            ))
        }
    };
    let player = |name: &Option<String>, fide_id: &Option<String>, column: &str| {
        let fide_id = fide_id.as_deref().map(str::trim);
        if let Some(id) = fide_id.filter(|id| is_fide_id(id)) {
            return Ok(id.to_string());
        }
        let name = name.as_deref().map(str::trim);
        if let Some(bad) = name.and_then(control_character) {
            return Err(problem(column, bad));
        }
        match name {
            Some(name) if !name.is_empty() && name != "?" => Ok(name.to_string()),
            other => Err(problem(
                column,
                format!(
                    "expected a player's name or a {column}FideId tag, got {:?}",
                    other.unwrap_or("")
                ),
            )),
        }
    };
    let white = player(&tags.white, &tags.white_fide_id, "White")?;
    let black = player(&tags.black, &tags.black_fide_id, "Black")?;
    let by_month = tags
        .date
        .as_deref()
        .and_then(pgn_date)
        .or_else(|| tags.event_date.as_deref().and_then(pgn_date));
    let by_year = match (by_month, dates) {
        (None, Dates::YearIsEnough) => tags.date.as_deref().and_then(pgn_year),
        _ => None,
    };
    let date = by_month.or(by_year).ok_or_else(|| {
        let date = tags.date.as_deref().unwrap_or("");
        problem("Date", undated(date))
    })?;
    Ok(Verdict::Game(GameRow {
        line: tags.line,
        event: tags
            .event
            .clone()
            .filter(|e| !e.trim().is_empty() && e != "?"),
        date,
        event_start: tags
            .event_date
            .as_deref()
            .filter(|d| !d.contains('?'))
            .and_then(pgn_date),
        event_type: tags.event_type.as_deref().map(event_type),
        white,
        black,
        score,
        white_rating: tags.white_elo.as_deref().and_then(elo),
        black_rating: tags.black_elo.as_deref().and_then(elo),
        by_year: by_month.is_none(),
    }))
}

/// Why a game's date cannot place it on a list, by kind: a year alone (common in collections, and
/// read by the reports) is told apart from a date missing or unreadable, so that the counts of
/// skipped games say which it was.
fn undated(date: &str) -> String {
    if pgn_year(date).is_some() {
        format!("known by its year only, and a replay needs the month (crosstable and curve read such games, placed in January); got {date:?}")
    } else {
        format!("expected YYYY.MM.DD with at least the year and month known (or an EventDate), got {date:?}")
    }
}

/// The PGN standard's EventType (§9.2.1.1): `tourn` is a round robin ("round-robin"); every other
/// type (`swiss`, `team`, `match`, `k.o.`, …) is rated as a Swiss is.
fn event_type(text: &str) -> EventType {
    if text.trim().eq_ignore_ascii_case("tourn") {
        EventType::RoundRobin
    } else {
        EventType::Swiss
    }
}

fn is_fide_id(text: &str) -> bool {
    !text.is_empty() && text != "0" && text.bytes().all(|b| b.is_ascii_digit())
}

/// `YYYY.MM.DD` with an unknown day (`??`) read as the month's first day; `None` when the year or
/// month is unknown.
fn pgn_date(text: &str) -> Option<Day> {
    let mut parts = text.trim().split(['.', '-', '/']);
    let year = parts.next()?.parse().ok()?;
    let month = parts.next()?.parse().ok()?;
    let day = parts.next().and_then(|d| d.parse().ok()).unwrap_or(1);
    Day::from_ymd(year, month, day).or_else(|| Month::new(year, month).map(Month::first_day))
}

/// January 1st of a date's year, when the year is known.
fn pgn_year(text: &str) -> Option<Day> {
    let year = text.trim().split(['.', '-', '/']).next()?.parse().ok()?;
    Day::from_ymd(year, 1, 1)
}

/// A rating tag: 1 to 4000; "0", "-", "?" and empty mean no rating.
fn elo(text: &str) -> Option<i32> {
    text.trim().parse().ok().filter(|r| (1..=4000).contains(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> (Vec<Result<Verdict, String>>, PgnCounts) {
        let mut counts = PgnCounts::default();
        let mut found = Vec::new();
        let bytes = std::io::Cursor::new(text.as_bytes().to_vec());
        let mut lines = Lines::new(Input::from_reader(Path::new("t.pgn"), bytes).unwrap());
        scan(&mut lines, &mut counts, &mut |tags| {
            found.push(game_row("t.pgn", tags, Dates::NeedMonth).map_err(|e| e.to_string()));
            Ok(())
        })
        .unwrap();
        (found, counts)
    }

    fn game(verdict: &Result<Verdict, String>) -> &GameRow {
        match verdict {
            Ok(Verdict::Game(row)) => row,
            other => panic!("not a game: {other:?}"),
        }
    }

    #[test]
    fn reads_the_tags_and_skips_movetext_with_comments() {
        let (found, counts) = games(concat!(
            "[Event \"Reykjavik \\\"Blitz\\\"\"]\n[Date \"2004.03.17\"]\n",
            "[White \"Kasparov, Garry\"]\n[Black \"Carlsen, Magnus\"]\n",
            "[WhiteElo \"2831\"]\n[BlackElo \"2484\"]\n[Result \"1-0\"]\n\n",
            "1. c4 {a comment with [brackets]\n[Site \"not a tag\"] inside} Nf6 ; rest {\n",
            "2. Nc3 1-0\n\n",
            "[Event \"Second\"]\n[Date \"1999.??.??\"]\n[EventDate \"1999.05.??\"]\n",
            "[White \"A\"]\n[Black \"B\"]\n[WhiteFideId \"4100018\"]\n[Result \"1/2-1/2\"]\n",
            "%escaped line\n1. e4 1/2-1/2\n",
        ));
        assert_eq!(counts.games, 2);
        let first = game(&found[0]);
        assert_eq!(first.event.as_deref(), Some("Reykjavik \"Blitz\""));
        assert_eq!(first.date, Day::from_ymd(2004, 3, 17).unwrap());
        assert_eq!(
            (first.white_rating, first.black_rating),
            (Some(2831), Some(2484))
        );
        assert_eq!(first.score, 2);
        assert_eq!(first.line, 1);
        let second = game(&found[1]);
        assert_eq!(second.white, "4100018");
        assert_eq!(second.black, "B");
        assert_eq!(second.date, Day::from_ymd(1999, 5, 1).unwrap());
        assert_eq!(second.event_start, None);
        assert_eq!(second.white_rating, None);
        assert_eq!(second.line, 13);
    }

    #[test]
    fn unfinished_and_incomplete_games_are_told_apart() {
        let (found, _) = games(concat!(
            "[Event \"E\"]\n[Date \"2001.01.01\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n*\n",
            "[Event \"E\"]\n[Date \"2001.01.01\"]\n[White \"A\"]\n[Result \"1-0\"]\n\n1-0\n",
            "[Event \"E\"]\n[Date \"????.??.??\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n",
        ));
        assert_eq!(found[0], Ok(Verdict::Unfinished));
        assert!(found[1].as_ref().unwrap_err().starts_with(
            "t.pgn, line 8, column Black: expected a player's name or a BlackFideId tag, got \"\""
        ));
        assert!(found[2]
            .as_ref()
            .unwrap_err()
            .contains("line 14, column Date"));
    }

    #[test]
    fn a_year_is_enough_for_reports_only() {
        let mut tags = Tags {
            date: Some("1988.??.??".into()),
            white: Some("A".into()),
            black: Some("B".into()),
            result: Some("1-0".into()),
            ..Tags::default()
        };
        assert!(game_row("t.pgn", &tags, Dates::NeedMonth).is_err());
        let row = game_row("t.pgn", &tags, Dates::YearIsEnough).unwrap();
        let Verdict::Game(row) = row else { panic!() };
        assert_eq!(
            (row.date, row.by_year),
            (Day::from_ymd(1988, 1, 1).unwrap(), true)
        );
        tags.date = Some("????.??.??".into());
        assert!(game_row("t.pgn", &tags, Dates::YearIsEnough).is_err());
    }

    #[test]
    fn survives_malformed_files() {
        let (found, counts) = games(concat!(
            "[Event \"E\"]\n[Date \"2001.01.01\n[White A]\n[Black \"B\"]\n[Result \"0-1\"]\n",
            "1. e4 { never closed\n} } stray braces }\n{ open again\n",
            "[Event \"F\"]\n[Date \"2001.02.01\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n",
            "[Event \"G\"]\n[Date \"2001.02.01\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n[",
        ));
        assert_eq!(counts.malformed_tags, 3);
        assert_eq!(counts.unterminated_comments, 1);
        assert_eq!(counts.games, 3);
        assert!(found[0].as_ref().unwrap_err().contains("column White"));
        assert_eq!(game(&found[1]).event.as_deref(), Some("F"));
        assert_eq!(game(&found[2]).event.as_deref(), Some("G"));
    }

    #[test]
    fn long_movetext_and_odd_bytes_do_not_panic() {
        let mut text = String::from("[Event \"E\"]\n[Result \"1-0\"]\n");
        text.push_str(&"1. e4 e5 {x} ".repeat(200_000));
        text.push_str("\n[Ev\u{e9}nt \"\u{e9}\"]\n{\n[\"\n\\\n");
        let (found, counts) = games(&text);
        assert_eq!(counts.games, 2);
        assert_eq!(found.len(), 2);
    }

    /// Read in blocks, a file gives the games, counts and checksum it gives read whole.
    #[test]
    fn blocks_hold_the_games_of_the_whole_file() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tricky.pgn");
        let whole = read(&path, Dates::YearIsEnough, &mut Skips::new(true)).unwrap();
        let mut blocks = Vec::new();
        let (counts, sha256) = read_blocks(
            &path,
            Dates::YearIsEnough,
            &mut Skips::new(true),
            2,
            &mut |b| blocks.push(b),
        )
        .unwrap();
        assert!(blocks.len() > 1 && blocks.iter().all(|b| b.len() <= 2));
        assert_eq!(
            (Extras::Pgn(counts).format(), sha256),
            (whole.extras.format(), whole.sha256.clone())
        );
        let Extras::Pgn(whole_counts) = whole.extras else {
            unreachable!()
        };
        assert_eq!(counts, whole_counts);
        let column = |f: &dyn Fn(&RawGames) -> Vec<String>| -> Vec<String> {
            blocks.iter().flat_map(f).collect()
        };
        let players = |b: &RawGames| {
            let (w, k) = (b.white.as_text(), b.black.as_text());
            w.into_iter()
                .zip(k)
                .map(|(w, k)| format!("{w}-{k}"))
                .collect()
        };
        let scores = |b: &RawGames| b.games.score.iter().map(|s| s.to_string()).collect();
        let dates = |b: &RawGames| b.games.date.iter().map(|d| format!("{d:?}")).collect();
        assert_eq!(column(&players), players(&whole));
        assert_eq!(column(&scores), scores(&whole));
        assert_eq!(column(&dates), dates(&whole));
    }

    /// A gzip or zstd stream is read line by line: a line longer than LINE_CAP is kept only up
    /// to it (a file of zeros cannot fill memory), and the lines after it are read as usual.
    #[test]
    fn compressed_lines_are_read_as_a_stream_with_a_bounded_line() {
        use std::io::Write;
        let mut text = vec![b'0'; 3 * LINE_CAP];
        text.extend_from_slice(b"\r\n[Event \"A\"]\n");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&text).unwrap();
        let zst = zstd::encode_all(&text[..], 1).unwrap();
        for (name, bytes) in [
            ("zeros.pgn.gz", gz.finish().unwrap()),
            ("zeros.pgn.zst", zst),
        ] {
            let path = crate::testing::scratch("pgn").join(name);
            std::fs::write(&path, bytes).unwrap();
            let mut lines = Lines::open(&path).unwrap();
            assert_eq!(lines.next_line().unwrap().map(|l| l.len()), Some(LINE_CAP));
            assert_eq!(lines.next_line().unwrap(), Some("[Event \"A\"]"));
            assert_eq!(lines.next_line().unwrap(), None);
            let sha = lines.finish().unwrap();
            assert_eq!(sha.len(), 64);
            std::fs::remove_file(&path).unwrap();
        }
    }
}
