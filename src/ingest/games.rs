//! Games files: the canonical layout (README, "Your own data"), the Kaggle 2010 layout and the 2011 contest's.

use std::collections::HashMap;
use std::path::Path;

use crate::model::{parse_score, Day, EventType, Games, HalfPoints, Month, EVENT_NONE};
use crate::scenario::GameFormat;

use super::error::IngestError;
use super::ids::RawIds;
use super::pgn;
use super::raw::{
    parse_event_type, partition_mismatch, sort_event_names, Extras, PgnCounts, RawGames,
};
use super::table::{Skips, Table};
use super::text::CsvBlocks;
use super::trf;

const SCORES: &str = "1, 0.5, 0, 1-0, 0-1, 1/2-1/2 or ½-½";
pub(super) const CANONICAL: &str = "period (or date), white, black, score; optionally event, event_start, event_type, white_rating, black_rating";

/// The columns of one layout, by index, and how its month is written.
struct Columns {
    when: When,
    /// The period of the dataset partition the file is in: its games' period, which the file
    /// may leave out.
    partition: Option<Month>,
    event: Option<usize>,
    event_start: Option<usize>,
    event_type: Option<usize>,
    white: (usize, &'static str),
    black: (usize, &'static str),
    score: (usize, &'static str),
    ratings: Option<(usize, usize)>,
}

enum When {
    /// `period` and/or `date` columns.
    Calendar {
        period: Option<usize>,
        date: Option<usize>,
    },
    /// A month number counted from `month_1` (the contest layouts).
    Numbered {
        column: usize,
        name: &'static str,
        month_1: Month,
    },
}

pub fn read(
    path: &Path,
    format: GameFormat,
    month_1: Option<Month>,
    pgn_dates: pgn::Dates,
    skips: &mut Skips,
) -> Result<RawGames, IngestError> {
    read_file(path, format, month_1, pgn_dates, None, skips)
}

/// One file of a month-partitioned dataset: a canonical table whose games are all of `period`
/// (a `period` column, if any, must say so).
pub fn read_partition(
    path: &Path,
    period: Month,
    skips: &mut Skips,
) -> Result<RawGames, IngestError> {
    read_file(
        path,
        GameFormat::Canonical,
        None,
        pgn::Dates::NeedMonth,
        Some(period),
        skips,
    )
}

/// What reads a games file.
enum Reader {
    Trf,
    Directory,
    Pgn,
    /// Canonical Parquet games, read in their own types.
    #[cfg(feature = "full")]
    Parquet,
    /// A table of text cells: a CSV file, or a Parquet file of another layout.
    Table,
}

fn reader(path: &Path, format: GameFormat, partition: Option<Month>) -> Reader {
    let chosen = |given: GameFormat, detected: fn(&Path) -> bool| {
        partition.is_none() && (format == given || (format == GameFormat::Auto && detected(path)))
    };
    if chosen(GameFormat::Trf, trf::is_trf) {
        return Reader::Trf;
    }
    if path.is_dir() {
        return Reader::Directory;
    }
    if chosen(GameFormat::Pgn, pgn::is_pgn) {
        return Reader::Pgn;
    }
    #[cfg(feature = "full")]
    if super::table::is_parquet(path) && matches!(format, GameFormat::Auto | GameFormat::Canonical)
    {
        return Reader::Parquet;
    }
    Reader::Table
}

fn directory_refused(path: &Path) -> IngestError {
    IngestError::File {
        file: path.display().to_string(),
        problem: "a directory: only `elosim replay` reads a dataset partitioned by period (DIR/period=YYYY-MM/), list by list; give a games file here".into(),
    }
}

fn read_file(
    path: &Path,
    format: GameFormat,
    month_1: Option<Month>,
    pgn_dates: pgn::Dates,
    partition: Option<Month>,
    skips: &mut Skips,
) -> Result<RawGames, IngestError> {
    match reader(path, format, partition) {
        Reader::Trf => return trf::read(path, skips),
        Reader::Directory => return Err(directory_refused(path)),
        Reader::Pgn => return pgn::read(path, pgn_dates, skips),
        #[cfg(feature = "full")]
        Reader::Parquet => {
            if let Some(raw) = super::parquet_games::read(path, partition, skips)? {
                return Ok(raw);
            }
        }
        Reader::Table => {}
    }
    let table = Table::open(path, CANONICAL)?;
    read_table(&table, format, month_1, partition, skips)
}

/// Games of a PGN file read at a time: their ids and columns take some 40 MB.
const BLOCK_GAMES: usize = 1 << 18;

/// Reads a games file a block at a time, handing each block to `each`, so that a command that
/// keeps a few figures of each game holds one block of the file and not all of it: PGN and CSV
/// files are read in blocks (`BLOCK_GAMES` games, `text::CsvBlocks`' bytes); tournament reports
/// and Parquet files whole, as one block. Returns what a PGN file counted besides its games.
pub fn read_blocks(
    path: &Path,
    format: GameFormat,
    month_1: Option<Month>,
    pgn_dates: pgn::Dates,
    skips: &mut Skips,
    each: &mut dyn FnMut(RawGames),
) -> Result<Option<PgnCounts>, IngestError> {
    match reader(path, format, None) {
        Reader::Pgn => {
            let (counts, _) = pgn::read_blocks(path, pgn_dates, skips, BLOCK_GAMES, each)?;
            Ok(Some(counts))
        }
        Reader::Table if !super::table::is_parquet(path) => {
            let mut blocks = CsvBlocks::open(path, CANONICAL)?;
            while let Some(block) = blocks.next_block()? {
                each(read_table(
                    &Table::Csv(block),
                    format,
                    month_1,
                    None,
                    skips,
                )?);
            }
            Ok(None)
        }
        _ => {
            each(read_file(path, format, month_1, pgn_dates, None, skips)?);
            Ok(None)
        }
    }
}

/// The games of a table of text cells (a whole file, or one block of a large CSV).
pub fn read_table(
    table: &Table,
    format: GameFormat,
    month_1: Option<Month>,
    partition: Option<Month>,
    skips: &mut Skips,
) -> Result<RawGames, IngestError> {
    let format = match format {
        GameFormat::Auto => detect(table),
        given => given,
    };
    let mut columns = columns(table, format, month_1, partition.is_some())?;
    columns.partition = partition;
    let mut out = RawGames {
        games: Games {
            source: table.file().to_string(),
            row_word: table.row_word(),
            event_names: vec![String::new()],
            ..Games::default()
        },
        white: RawIds::default(),
        black: RawIds::default(),
        sha256: table.sha256().to_string(),
        extras: Extras::Table(format),
    };
    if let When::Numbered { name, month_1, .. } = columns.when {
        out.games.numbered_months = Some((name, month_1));
    }
    let mut events: HashMap<String, u32> = HashMap::new();
    table.for_each_row(&mut |line, cells| {
        let row = cells.and_then(|cells| parse_row(table, &columns, line, cells));
        let Some(row) = skips.check(row)? else {
            return Ok(());
        };
        let g = &mut out.games;
        g.period.push(row.period);
        g.date.push(row.date);
        let event = match row.event {
            Some(name) if !name.is_empty() => {
                let next = events.len() as u32 + 1;
                *events.entry(name.to_string()).or_insert(next)
            }
            _ => EVENT_NONE,
        };
        g.event.push(event);
        g.event_start.push(row.event_start);
        if let Some(event_type) = row.event_type {
            g.event_type.push(event_type);
        }
        g.score.push(row.score);
        if let Some((w, b)) = row.ratings {
            g.white_rating.push(w);
            g.black_rating.push(b);
        }
        g.source_row.push(line);
        out.white.push(row.white);
        out.black.push(row.black);
        Ok(())
    })?;
    sort_event_names(&mut out.games, events);
    Ok(out)
}

fn detect(table: &Table) -> GameFormat {
    if table.find(&["Month #"]).is_some() {
        GameFormat::Kaggle2010
    } else if table.find(&["TEID"]).is_some() || table.find(&["WhiteScore"]).is_some() {
        GameFormat::Contest2011
    } else {
        GameFormat::Canonical
    }
}

fn columns(
    table: &Table,
    format: GameFormat,
    month_1: Option<Month>,
    partitioned: bool,
) -> Result<Columns, IngestError> {
    let numbered = |column: &'static str| -> Result<When, IngestError> {
        let month_1 = month_1.ok_or_else(|| IngestError::File {
            file: table.file().to_string(),
            problem: format!("this is a {} games file, whose months are numbered from 1: set data.month-1 in the scenario to the calendar month of month 1", format.name()),
        })?;
        Ok(When::Numbered {
            column: table.require(&[column])?,
            name: column,
            month_1,
        })
    };
    Ok(match format {
        GameFormat::Kaggle2010 => Columns {
            when: numbered("Month #")?,
            partition: None,
            event: None,
            event_start: None,
            event_type: None,
            white: (table.require(&["White Player #"])?, "White Player #"),
            black: (table.require(&["Black Player #"])?, "Black Player #"),
            score: (table.require(&["Score"])?, "Score"),
            ratings: None,
        },
        GameFormat::Contest2011 => Columns {
            when: numbered("MonthID")?,
            partition: None,
            event: None,
            event_start: None,
            event_type: None,
            white: (table.require(&["WhitePlayer"])?, "WhitePlayer"),
            black: (table.require(&["BlackPlayer"])?, "BlackPlayer"),
            score: (table.require(&["WhiteScore"])?, "WhiteScore"),
            ratings: None,
        },
        // PGN files and reports never reach here: `read` hands them to their readers.
        GameFormat::Canonical | GameFormat::Auto | GameFormat::Pgn | GameFormat::Trf => {
            let period = table.find(&["period"]);
            let date = table.find(&["date"]);
            if period.is_none() && date.is_none() && !partitioned {
                table.require(&["period", "date"])?;
            }
            let ratings = match (table.find(&["white_rating"]), table.find(&["black_rating"])) {
                (Some(w), Some(b)) => Some((w, b)),
                (None, None) => None,
                _ => {
                    table.require(&["white_rating"])?;
                    table.require(&["black_rating"])?;
                    None
                }
            };
            Columns {
                when: When::Calendar { period, date },
                partition: None,
                event: table.find(&["event"]),
                event_start: table.find(&["event_start"]),
                event_type: table.find(&["event_type"]),
                white: (table.require(&["white"])?, "white"),
                black: (table.require(&["black"])?, "black"),
                score: (table.require(&["score"])?, "score"),
                ratings,
            }
        }
    })
}

struct Row<'a> {
    period: Option<Month>,
    date: Option<Day>,
    event: Option<&'a str>,
    event_start: Option<Day>,
    event_type: Option<EventType>,
    white: &'a str,
    black: &'a str,
    score: HalfPoints,
    ratings: Option<(Option<i32>, Option<i32>)>,
}

fn parse_row<'a>(
    table: &Table,
    c: &Columns,
    line: u32,
    cells: &[&'a str],
) -> Result<Row<'a>, IngestError> {
    let err = |column: &str, problem: String| table.row_error(line, column, problem);
    let (period, date) = match c.when {
        When::Calendar { period, date } => {
            let period = match period.map(|i| cells[i].trim()).filter(|s| !s.is_empty()) {
                Some(s) => Some(Month::parse(s).ok_or_else(|| {
                    err("period", format!("expected a month YYYY-MM, got {s:?}"))
                })?),
                None => None,
            };
            let date = match date.map(|i| cells[i].trim()).filter(|s| !s.is_empty()) {
                Some(s) => Some(Day::parse(s).ok_or_else(|| {
                    err("date", format!("expected a date YYYY-MM-DD, got {s:?}"))
                })?),
                None => None,
            };
            if let Some((own, partition)) = period.zip(c.partition).filter(|(o, p)| o != p) {
                return Err(err("period", partition_mismatch(own, partition)));
            }
            let period = period.or(c.partition);
            if period.is_none() && date.is_none() {
                return Err(err(
                    if c_has_period(c) { "period" } else { "date" },
                    "empty: every game needs its period (YYYY-MM) or its date (YYYY-MM-DD)".into(),
                ));
            }
            (period, date)
        }
        When::Numbered {
            column,
            name,
            month_1,
        } => {
            let s = cells[column].trim();
            let n: i32 = s
                .parse()
                .ok()
                .filter(|n| (1..=100_000).contains(n))
                .ok_or_else(|| err(name, format!("expected a month number from 1, got {s:?}")))?;
            (Some(month_1.plus(n - 1)), None)
        }
    };
    let white = table.player_id(line, c.white, cells)?;
    let black = table.player_id(line, c.black, cells)?;
    if white == black {
        return Err(err(
            c.black.1,
            format!("player {white} cannot play himself"),
        ));
    }
    let s = cells[c.score.0].trim();
    let score = parse_score(s).ok_or_else(|| {
        err(
            c.score.1,
            format!("expected White's score, one of {SCORES}; got {s:?}"),
        )
    })?;
    let event_start = match c
        .event_start
        .map(|i| cells[i].trim())
        .filter(|s| !s.is_empty())
    {
        Some(s) => Some(Day::parse(s).ok_or_else(|| {
            err(
                "event_start",
                format!("expected a date YYYY-MM-DD, got {s:?}"),
            )
        })?),
        None => None,
    };
    let event_type = match c.event_type.map(|i| cells[i].trim()) {
        Some(s) => Some(parse_event_type(s).map_err(|problem| err("event_type", problem))?),
        None => None,
    };
    let rating = |i: usize, name: &str| -> Result<Option<i32>, IngestError> {
        crate::model::parse_rating(cells[i]).map_err(|problem| err(name, problem))
    };
    let ratings = match c.ratings {
        Some((w, b)) => Some((rating(w, "white_rating")?, rating(b, "black_rating")?)),
        None => None,
    };
    Ok(Row {
        period,
        date,
        event: c.event.map(|i| cells[i].trim()),
        event_start,
        event_type,
        white,
        black,
        score,
        ratings,
    })
}

fn c_has_period(c: &Columns) -> bool {
    matches!(
        c.when,
        When::Calendar {
            period: Some(_),
            ..
        }
    )
}
