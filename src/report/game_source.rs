//! Games with the ratings their players had when they played them: what crosstables and
//! expectation curves are made of. From a run directory (`games.parquet`: the ratings the run
//! used), a PGN file (WhiteElo/BlackElo), tournament reports (TRF: a report or a directory of
//! them, each player at the rating the report carries) or a canonical games file with
//! `white_rating` and `black_rating`.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use polars::prelude::*;

use crate::ingest::{self, Dates, Numbering, PgnCounts, RawGames};
use crate::model::{HalfPoints, Month};

use super::run_files::{ReportError, RunFiles};

/// The games a report reads, each with both players' ratings, one entry per game in each column
/// (not `replay::RatedGames`, a run's record of what it rated).
#[derive(Debug, Default)]
pub struct GamesWithRatings {
    /// What the games are, for titles: the run's scenario or the file's name.
    pub label: String,
    pub month: Vec<Month>,
    pub white_rating: Vec<i32>,
    pub black_rating: Vec<i32>,
    /// White's score in half points.
    pub score: Vec<HalfPoints>,
    /// Rated games each side had played before the game's month (for `--established`), when asked.
    pub prior_games: Option<(Vec<u32>, Vec<u32>)>,
    /// Games in the source that lack one of the two ratings (an unrated player), left out.
    pub without_ratings: usize,
    /// What a PGN source counted besides its games.
    pub pgn: Option<PgnCounts>,
    /// Invalid games left out with `--skip-invalid`: reason → (count, first place).
    pub invalid: BTreeMap<String, (usize, String)>,
}

impl GamesWithRatings {
    pub fn len(&self) -> usize {
        self.month.len()
    }

    pub fn is_empty(&self) -> bool {
        self.month.is_empty()
    }

    /// Invalid games left out with `--skip-invalid`.
    pub fn invalid_games(&self) -> usize {
        self.invalid.values().map(|(n, _)| n).sum()
    }

    /// What was left out of the source and why, one line each, for the terminal.
    pub fn source_notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(pgn) = self.pgn {
            notes.push(format!("{}: {}", self.label, pgn.describe()));
        }
        const SHOWN: usize = 5;
        for (reason, (count, first)) in self.invalid.iter().take(SHOWN) {
            notes.push(format!("{}: {count} invalid games left out (--skip-invalid): {reason}; the first at {first}", self.label));
        }
        if self.invalid.len() > SHOWN {
            notes.push(format!(
                "{}: and {} more invalid games for {} other reasons",
                self.label,
                self.invalid
                    .values()
                    .skip(SHOWN)
                    .map(|(n, _)| n)
                    .sum::<usize>(),
                self.invalid.len() - SHOWN
            ));
        }
        notes
    }

    /// The first and last months with games.
    pub fn span(&self) -> Option<(Month, Month)> {
        let first = self.month.iter().min()?;
        let last = self.month.iter().max()?;
        Some((*first, *last))
    }
}

/// Reads `source`: a run directory, a PGN file, tournament reports or a games file with recorded
/// ratings. With
/// `prior_games`, also counts each side's earlier rated games (a run adds its starting list's).
pub fn read_games_with_ratings(
    source: &Path,
    prior_games: bool,
    skip_invalid: bool,
) -> Result<GamesWithRatings, ReportError> {
    if source.is_dir() && !ingest::is_trf(source) {
        return read_run(&RunFiles::open(source)?, prior_games);
    }
    let mut out = GamesWithRatings {
        label: file_label(source),
        ..GamesWithRatings::default()
    };
    let mut rated = false;
    let mut players = prior_games.then(Players::default);
    let read = ingest::read_game_blocks(source, Dates::YearIsEnough, skip_invalid, &mut |raw| {
        rated |= raw.games.has_recorded_ratings();
        out.keep(&raw, players.as_mut());
    })?;
    if !rated {
        return Err(ReportError::NoRatings {
            path: source.to_path_buf(),
        });
    }
    out.pgn = read.pgn;
    out.invalid = read.skipped;
    if let Some(players) = players {
        out.prior_games = Some(count_prior_games(
            &out.month,
            players.white,
            players.black,
            &[],
        ));
    }
    Ok(out)
}

/// The players of the games kept, numbered as they come, for counting their earlier games.
#[derive(Default)]
struct Players {
    numbering: Numbering,
    white: Vec<u32>,
    black: Vec<u32>,
}

impl GamesWithRatings {
    /// Keeps a block's games that have both ratings and a month, and counts the others.
    fn keep(&mut self, raw: &RawGames, mut players: Option<&mut Players>) {
        let g = &raw.games;
        if !g.has_recorded_ratings() {
            return;
        }
        for i in 0..raw.len() {
            let (Some(white), Some(black)) = (g.white_rating[i], g.black_rating[i]) else {
                self.without_ratings += 1;
                continue;
            };
            let Some(month) = g.period[i].or(g.date(i).map(|d| d.month())) else {
                self.without_ratings += 1;
                continue;
            };
            self.month.push(month);
            self.white_rating.push(white);
            self.black_rating.push(black);
            self.score.push(g.score[i]);
            if let Some(players) = players.as_deref_mut() {
                let (w, b) = (
                    players.numbering.number(&raw.white, i),
                    players.numbering.number(&raw.black, i),
                );
                players.white.push(w);
                players.black.push(b);
            }
        }
    }
}

fn file_label(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn read_run(run: &RunFiles, prior_games: bool) -> Result<GamesWithRatings, ReportError> {
    let mut columns = vec!["period", "white_rating", "black_rating", "score"];
    if prior_games {
        columns.extend(["white", "black"]);
    }
    let df = run.read_columns("games.parquet", &columns)?;
    let path = run.dir.join("games.parquet");
    let table = |e: PolarsError| ReportError::Table {
        path: path.clone(),
        message: e.to_string(),
    };
    let months = month_column(&df, "period").map_err(table)?;
    let white = df
        .column("white_rating")
        .and_then(|c| c.i32().cloned())
        .map_err(table)?;
    let black = df
        .column("black_rating")
        .and_then(|c| c.i32().cloned())
        .map_err(table)?;
    let score = df
        .column("score")
        .and_then(|c| c.f64().cloned())
        .map_err(table)?;
    let mut out = GamesWithRatings {
        label: run.scenario.name.clone(),
        ..GamesWithRatings::default()
    };
    let mut kept = Vec::with_capacity(df.height());
    for (i, (((month, w), b), s)) in months
        .iter()
        .zip(white.iter())
        .zip(black.iter())
        .zip(score.iter())
        .enumerate()
    {
        let (Some(w), Some(b), Some(s)) = (w, b, s) else {
            out.without_ratings += 1;
            continue;
        };
        out.month.push(*month);
        out.white_rating.push(w);
        out.black_rating.push(b);
        out.score
            .push((s * 2.0).round().clamp(0.0, 2.0) as HalfPoints);
        kept.push(i);
    }
    if prior_games {
        out.prior_games = Some(run_prior_games(run, &df, &kept, &out.month).map_err(table)?);
    }
    Ok(out)
}

pub use crate::ingest::month_column;

/// Prior rated games in a run: the starting list's counts, then the run's own games.
fn run_prior_games(
    run: &RunFiles,
    games: &DataFrame,
    kept: &[usize],
    months: &[Month],
) -> PolarsResult<(Vec<u32>, Vec<u32>)> {
    let white = super::run_files::text_column(games, "white")?;
    let black = super::run_files::text_column(games, "black")?;
    let mut index: HashMap<String, u32> = HashMap::new();
    let mut intern = |id: &Option<String>| {
        let id = id.clone().unwrap_or_default();
        let next = index.len() as u32;
        *index.entry(id).or_insert(next)
    };
    let white: Vec<u32> = kept.iter().map(|&i| intern(&white[i])).collect();
    let black: Vec<u32> = kept.iter().map(|&i| intern(&black[i])).collect();
    let lists = run
        .read_columns("lists.parquet", &["month", "id", "total_games"])
        .map_err(|e| polars_err!(ComputeError: "{e}"))?;
    let list_months = month_column(&lists, "month")?;
    let ids = super::run_files::text_column(&lists, "id")?;
    let totals = lists.column("total_games")?.i32()?;
    let mut start = vec![0u32; index.len()];
    if let Some(&first) = list_months.first() {
        for ((m, id), total) in list_months.iter().zip(&ids).zip(totals.iter()) {
            if *m != first {
                break;
            }
            if let (Some(id), Some(total)) = (id, total) {
                if let Some(&p) = index.get(id) {
                    start[p as usize] = total.max(0) as u32;
                }
            }
        }
    }
    Ok(count_prior_games(months, white, black, &start))
}

/// Each side's games before the game's month: `start` plus the source's games of earlier months.
/// The players' numbers (`white`, `black`) become their counts in place, so that memory holds the
/// games' months in order and no more: 12 bytes a game.
fn count_prior_games(
    months: &[Month],
    mut white: Vec<u32>,
    mut black: Vec<u32>,
    start: &[u32],
) -> (Vec<u32>, Vec<u32>) {
    let players = white
        .iter()
        .chain(&black)
        .map(|&p| p as usize + 1)
        .max()
        .unwrap_or(0)
        .max(start.len());
    let mut played = vec![0u32; players];
    played[..start.len()].copy_from_slice(start);
    let mut counts: Vec<(u32, u32)> = Vec::new();
    for month in in_month_order(months).chunk_by(|&a, &b| months[a as usize] == months[b as usize])
    {
        counts.clear();
        counts.extend(month.iter().map(|&i| {
            (
                played[white[i as usize] as usize],
                played[black[i as usize] as usize],
            )
        }));
        for &i in month {
            played[white[i as usize] as usize] += 1;
            played[black[i as usize] as usize] += 1;
        }
        for (&i, &(w, b)) in month.iter().zip(&counts) {
            white[i as usize] = w;
            black[i as usize] = b;
        }
    }
    (white, black)
}

/// The games' indices, month by month, each month's in the order read.
fn in_month_order(months: &[Month]) -> Vec<u32> {
    let Some(first) = months.iter().min() else {
        return Vec::new();
    };
    let slot = |m: &Month| m.since(*first) as usize;
    let mut starts = vec![0usize; months.iter().map(slot).max().unwrap_or(0) + 2];
    for m in months {
        starts[slot(m) + 1] += 1;
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
    let mut order = vec![0u32; months.len()];
    for (i, m) in months.iter().enumerate() {
        order[starts[slot(m)]] = i as u32;
        starts[slot(m)] += 1;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prior_games_count_earlier_months_only() {
        let m = |n| Month::new(2020, n).unwrap();
        let months = [m(2), m(1), m(1), m(3)];
        let (w, b) = count_prior_games(&months, vec![0, 0, 1, 0], vec![1, 2, 2, 2], &[5, 0, 0]);
        assert_eq!(w, vec![6, 5, 0, 7]);
        assert_eq!(b, vec![1, 0, 0, 2]);
    }
}
