//! `elosim explain`: one player's calculation for one list, the way FIDE prints it.

use std::fmt::Write;
use std::path::Path;

use polars::prelude::*;

use super::run_files::{
    bool_column, float_column, hundredths_column, int_column, long_column, text_column,
    ReportError, RunFiles,
};
use super::run_lists::{list_months, no_list};
use crate::model::{Day, Month};
use crate::numbers::{counted, hundredths, signed_hundredths};
use crate::rules::{PooledResults, Rounding};

/// One game of the player, from the player's side.
struct Game {
    period: String,
    event: String,
    start: String,
    opponent: String,
    own: Option<i32>,
    /// The opponent rating the calculation used: the opponent's on the list in force, or a round
    /// robin's tournament rating or average (`tournament`).
    opponent_rating: Option<i32>,
    tournament: bool,
    score: f64,
    k: Option<i32>,
    /// PD in hundredths.
    expected: Option<i32>,
    /// K × (score − PD) in hundredths.
    change: Option<i32>,
    capped: bool,
}

/// What the engine computed for the player's period on a list (`periods.parquet`).
struct PeriodRow {
    month: String,
    outcome: String,
    change: Option<i32>,
    rating: Option<i32>,
    pooled_from: Option<String>,
    pooled_games: Option<i64>,
    pooled_points: Option<f64>,
    pooled_opponents: Option<i64>,
}

/// One of the player's rows in `lists.parquet`: from its list on until the next one.
struct ListRow {
    month: String,
    /// False on the list the player left.
    listed: bool,
    rating: i32,
    k: i32,
    new: bool,
}

pub fn explain(dir: &Path, player: &str, list: Month) -> Result<String, ReportError> {
    let run = RunFiles::open(dir)?;
    if run.scenario.system != crate::systems::SystemConfig::Fide {
        return Err(ReportError::NotFound(format!(
            "{} was replayed under {}, and explain prints FIDE's calculation; the run's lists.parquet and games.parquet give its players' ratings and each game's expected score",
            dir.display(),
            run.scenario.system.kind().name()
        )));
    }
    let months = list_months(&run)?;
    if !months.contains(&list) {
        return Err(no_list(&run, &months, list));
    }
    let table = |e: PolarsError, name: &str| ReportError::Table {
        path: dir.join(name),
        message: e.to_string(),
    };
    let games =
        player_games(&run.read("games.parquet")?, player).map_err(|e| table(e, "games.parquet"))?;
    let rows =
        player_rows(&run.read("lists.parquet")?, player).map_err(|e| table(e, "lists.parquet"))?;
    if list == months[0] {
        return starting_list(&run, &rows, player, &months);
    }
    if !run.has("periods.parquet") {
        return Err(ReportError::NotFound(format!(
            "{} has no periods.parquet (what each player's period computed), which explain reads: the run was made by an older elosim; replay it again",
            dir.display()
        )));
    }
    let periods = player_periods(&run.read("periods.parquet")?, player)
        .map_err(|e| table(e, "periods.parquet"))?;
    let month = list.to_string();
    let record = periods.iter().find(|r| r.month == month);
    // A row is in force until the player's next (runs before that layout wrote every list whole).
    let changes = run.lists_hold_changes();
    let on = |list: &str| {
        let row = if changes {
            rows.iter().rfind(|r| r.month.as_str() <= list)
        } else {
            rows.iter().find(|r| r.month == list)
        };
        row.filter(|r| r.listed)
    };
    let now = on(&month);
    let this: Vec<&Game> = games.iter().filter(|g| g.period == month).collect();
    if now.is_none() && this.is_empty() {
        return Err(ReportError::NotFound(format!(
            "player {player} is not on the {month} list of {} and has no games rated on it",
            dir.display()
        )));
    }
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(
        w,
        "Player {player}, list {month} (scenario {}, {})",
        run.scenario.name,
        dir.display()
    );
    let rules = run.scenario.timeline.at_month(list.plus(-1));
    let rated_games: Vec<&&Game> = this.iter().filter(|g| g.k.is_some()).collect();
    let previous_list = run
        .scenario
        .timeline
        .lists_between(run.scenario.calendar.start, list.plus(-1))
        .last()
        .map(|m| m.to_string());
    let on_previous = previous_list
        .as_deref()
        .and_then(|list| Some((list, on(list)?)));
    let own_in_games = this.iter().find_map(|g| g.own);
    let previous_rating = match (on_previous, own_in_games) {
        (Some((list, b)), _) => {
            let _ = writeln!(w, "Previous list {list}: rating {} · K {}", b.rating, b.k);
            b.rating
        }
        (None, Some(seed)) => {
            let _ = writeln!(w, "First appearance: rated {seed} by the scenario's bootstrap (unknown players are seeded)");
            seed
        }
        (None, None) => {
            explain_first_rating(w, &run, &games, record, now, list, player);
            return Ok(out);
        }
    };
    if this.is_empty() {
        let _ = writeln!(w, "No games rated on this list.");
    } else {
        write_games(w, &run, &this, list);
    }
    // The change as the engine rounded it (recorded in periods.parquet).
    let rounded = record.and_then(|r| r.change).unwrap_or(0);
    let computed = record.and_then(|r| r.rating).unwrap_or(previous_rating);
    let rounding = match rules.rounding {
        Rounding::PerPeriod => "rounded once for the period, 0.5 away from zero",
        Rounding::PerTournament => "each tournament rounded, 0.5 away from zero",
    };
    // Summed in hundredths, as the engine sums them: exact.
    let sum = |f: fn(&Game) -> i32| rated_games.iter().map(|g| i64::from(f(g))).sum::<i64>();
    let _ = writeln!(
        w,
        "  {} · Σ(score − PD) = {} · Σ K × (score − PD) = {} → {:+} ({rounding})",
        counted(rated_games.len() as u64, "rated game"),
        signed_hundredths(sum(
            |g| (g.score * 100.0).round() as i32 - g.expected.unwrap_or(0)
        )),
        signed_hundredths(sum(|g| g.change.unwrap_or(0))),
        rounded
    );
    match now {
        Some(r) => {
            let events = r.rating - computed;
            let note = if events != 0 {
                format!("; {events:+} from a one-off event on this list (such as the compression)")
            } else {
                String::new()
            };
            let _ = writeln!(
                w,
                "New rating on {month}: {} ({:+} from {previous_rating}{note})",
                r.rating,
                r.rating - previous_rating
            );
        }
        None => {
            let _ = writeln!(w, "New rating {computed} is below the floor of {}: the player is not on the {month} list (delisted)", rules.floor);
        }
    }
    Ok(out)
}

/// The run's starting list (`months[0]`) was read, not computed: the player's rating on it, and
/// where it came from.
fn starting_list(
    run: &RunFiles,
    rows: &[ListRow],
    player: &str,
    months: &[Month],
) -> Result<String, ReportError> {
    let month = months[0].to_string();
    let source = run
        .summary
        .as_ref()
        .and_then(|s| s["starting_list"]["source"].as_str())
        .map_or_else(
            || "no file: every player started unrated".to_string(),
            |source| format!("read from {source}"),
        );
    let next = match months.get(1) {
        Some(next) => format!("the first list the run computed is {next}"),
        None => "the run computed no list after it".to_string(),
    };
    let Some(row) = rows.iter().find(|r| r.month == month && r.listed) else {
        return Err(ReportError::NotFound(format!(
            "player {player} is not on {month}, the starting list of {}, {source}; {next}",
            run.dir.display()
        )));
    };
    Ok(format!(
        "Player {player}, list {month} (scenario {}, {})\nThe run's starting list, {source}: rating {} · K {}\nNo calculation of this run produced it: {next}.\n",
        run.scenario.name,
        run.dir.display(),
        row.rating,
        row.k
    ))
}

/// The games table: opponent, opponent's rating (* where the 350/400-point rule applied), D, PD,
/// score, K and change.
fn write_games(w: &mut String, run: &RunFiles, games: &[&Game], list: Month) {
    let _ = writeln!(w);
    let _ = writeln!(
        w,
        "  #  {:<16} {:<10}  {:>10}  {:>8}  {:>5}  {:>4}  {:>5}  {:>3}  {:>8}",
        "event", "start", "opponent", "rating", "D", "PD", "score", "K", "change"
    );
    for (i, g) in games.iter().enumerate() {
        let own = g.own.unwrap_or(0);
        let cap = run
            .scenario
            .timeline
            .at_day(Day::parse(&g.start).unwrap_or(list.first_day()))
            .diff_cap
            .points;
        let mark = if g.tournament { "†" } else { "" };
        let (shown, diff) = match g.opponent_rating {
            Some(o) if g.capped => {
                let d = (own - o).clamp(-cap, cap);
                (format!("{}*{mark}", own - d), d.to_string())
            }
            Some(o) => (format!("{o}{mark}"), (own - o).to_string()),
            None => ("unrated".into(), String::new()),
        };
        let (pd, k, change) = match (g.k, g.expected, g.change) {
            (Some(k), Some(pd), Some(change)) => (
                hundredths(i64::from(pd)),
                k.to_string(),
                signed_hundredths(i64::from(change)),
            ),
            _ => (String::new(), String::new(), "not rated".into()),
        };
        let _ = writeln!(
            w,
            "{:>3}  {:<16} {:<10}  {:>10}  {:>8}  {:>5}  {:>4}  {:>5.1}  {:>3}  {:>8}",
            i + 1,
            short(&g.event),
            g.start,
            g.opponent,
            shown,
            diff,
            pd,
            g.score,
            k,
            change
        );
    }
    if games.iter().any(|g| g.tournament) {
        let _ = writeln!(
            w,
            "  † an unrated opponent's rating from the round robin (reference §6.5)"
        );
    }
    let _ = writeln!(w);
}

fn short(event: &str) -> String {
    if event.is_empty() {
        "(no event)".into()
    } else if event.chars().count() > 16 {
        event.chars().take(15).collect::<String>() + "…"
    } else {
        event.to_string()
    }
}

/// An unrated player's pooled games and the first-rating formula (reference §6), as the engine
/// recorded the pool after this list's period.
fn explain_first_rating(
    w: &mut String,
    run: &RunFiles,
    games: &[Game],
    record: Option<&PeriodRow>,
    now: Option<&ListRow>,
    list: Month,
    player: &str,
) {
    let rules = run.scenario.timeline.at_month(list.plus(-1));
    let month = list.to_string();
    let Some((record, from)) = record.and_then(|r| Some((r, r.pooled_from.as_deref()?))) else {
        let _ = writeln!(
            w,
            "Unrated before this list, and no results counted towards a first rating on it: no rating on {month}"
        );
        return;
    };
    let pooled: Vec<&Game> = games
        .iter()
        .filter(|g| {
            g.own.is_none()
                && g.period.as_str() <= month.as_str()
                && g.period.as_str() >= from
                && g.opponent_rating.is_some()
        })
        .collect();
    let window = rules.initial.window_months;
    let _ = writeln!(w, "Unrated before this list. Games counted towards a first rating (lists {from} to {month}; the window is {window} months):");
    let _ = writeln!(
        w,
        "  #  {:<7}  {:<16}  {:>10}  {:>8}  {:>5}",
        "list", "event", "opponent", "rating", "score"
    );
    for (i, g) in pooled.iter().enumerate() {
        let _ = writeln!(
            w,
            "{:>3}  {:<7}  {:<16}  {:>10}  {:>8}  {:>5.1}",
            i + 1,
            g.period,
            short(&g.event),
            g.opponent,
            format!(
                "{}{}",
                g.opponent_rating.unwrap_or(0),
                if g.tournament { "†" } else { "" }
            ),
            g.score
        );
    }
    if pooled.iter().any(|g| g.tournament) {
        let _ = writeln!(
            w,
            "  † counted against the round robin's tournament average Ra (reference §6.5)"
        );
    }
    let pool = PooledResults {
        games: record.pooled_games.unwrap_or(0) as u32,
        half_points: (record.pooled_points.unwrap_or(0.0) * 2.0).round() as u32,
        opponents: record.pooled_opponents.unwrap_or(0),
    };
    let initial = &rules.initial;
    let ra = if pool.games > 0 {
        pool.opponents as f64 / f64::from(pool.games)
    } else {
        0.0
    };
    let points = f64::from(pool.half_points) / 2.0;
    let _ = writeln!(
        w,
        "\n  {}, {points} point{}, Ra = {ra:.1}; at least {} needed",
        counted(u64::from(pool.games), "game"),
        if points == 1.0 { "" } else { "s" },
        counted(u64::from(initial.min_games), "game")
    );
    if initial.formula == crate::rules::InitialFormula::Performance && initial.dummy_games > 0 {
        let _ = writeln!(
            w,
            "  with {} hypothetical draws against {}: Ra = {:.1}, p = {}/{}",
            initial.dummy_games,
            initial.dummy_rating,
            (pool.opponents as f64 + f64::from(initial.dummy_rating * initial.dummy_games as i32))
                / f64::from(pool.games + initial.dummy_games),
            f64::from(pool.half_points + initial.dummy_games) / 2.0,
            pool.games + initial.dummy_games
        );
    }
    match (now, record.rating) {
        (Some(r), Some(ru)) if r.new && record.outcome == "first-rating" => {
            let note = if r.rating != ru {
                format!(" (Ru = {ru} before a one-off event on this list)")
            } else {
                String::new()
            };
            let _ = writeln!(w, "First rating on {month}: {}{note}", r.rating);
        }
        (Some(r), _) => {
            let _ = writeln!(
                w,
                "Rated {} on {month} (player {player} was rated before: see the previous lists)",
                r.rating
            );
        }
        (None, Some(ru)) => {
            let _ = writeln!(
                w,
                "Ru = {ru} is below the floor of {}: no rating yet",
                rules.floor
            );
        }
        (None, None) => {
            let _ = writeln!(w, "Not enough games yet: no rating on {month}");
        }
    }
}

fn player_games(df: &DataFrame, player: &str) -> PolarsResult<Vec<Game>> {
    let white = text_column(df, "white")?;
    let black = text_column(df, "black")?;
    let period = text_column(df, "period")?;
    let event = text_column(df, "event")?;
    let start = text_column(df, "event_start")?;
    let score = float_column(df, "score")?;
    let sides = [
        SideColumns::read(df, "white")?,
        SideColumns::read(df, "black")?,
    ];
    let mut out = Vec::new();
    for i in 0..df.height() {
        let is_white = white[i].as_deref() == Some(player);
        if !is_white && black[i].as_deref() != Some(player) {
            continue;
        }
        let s = score[i].unwrap_or(0.0);
        let (own, opp) = if is_white { (0, 1) } else { (1, 0) };
        let ids = [&white[i], &black[i]];
        let mine = &sides[own];
        out.push(Game {
            period: period[i].clone().unwrap_or_default(),
            event: event[i].clone().unwrap_or_default(),
            start: start[i].clone().unwrap_or_default(),
            opponent: ids[opp].clone().unwrap_or_default(),
            own: mine.rating[i],
            opponent_rating: mine.counted_against[i].or(sides[opp].rating[i]),
            tournament: mine.counted_against[i].is_some(),
            score: if is_white { s } else { 1.0 - s },
            k: mine.k[i],
            expected: mine.expected[i],
            change: mine.change[i],
            capped: mine.capped[i].unwrap_or(false),
        });
    }
    Ok(out)
}

/// One side's columns of `games.parquet` (`white_rating`, `white_k`, …).
struct SideColumns {
    rating: Vec<Option<i32>>,
    k: Vec<Option<i32>>,
    expected: Vec<Option<i32>>,
    change: Vec<Option<i32>>,
    capped: Vec<Option<bool>>,
    counted_against: Vec<Option<i32>>,
}

impl SideColumns {
    fn read(df: &DataFrame, side: &str) -> PolarsResult<SideColumns> {
        Ok(SideColumns {
            rating: int_column(df, &format!("{side}_rating"))?,
            k: int_column(df, &format!("{side}_k"))?,
            expected: hundredths_column(df, &format!("{side}_expected"))?,
            change: hundredths_column(df, &format!("{side}_change"))?,
            capped: bool_column(df, &format!("{side}_capped"))?,
            // Runs made before round robins were told apart have no such column: nothing differed.
            counted_against: match df.column(&format!("{side}_counted_against")) {
                Ok(_) => int_column(df, &format!("{side}_counted_against"))?,
                Err(_) => vec![None; df.height()],
            },
        })
    }
}

fn player_periods(df: &DataFrame, player: &str) -> PolarsResult<Vec<PeriodRow>> {
    let id = text_column(df, "id")?;
    let month = text_column(df, "month")?;
    let outcome = text_column(df, "outcome")?;
    let change = int_column(df, "change")?;
    let rating = int_column(df, "rating")?;
    let pooled_from = text_column(df, "pooled_from")?;
    let pooled_games = int_column(df, "pooled_games")?;
    let pooled_points = float_column(df, "pooled_points")?;
    let pooled_opponents = long_column(df, "pooled_opponents")?;
    Ok((0..df.height())
        .filter(|&i| id[i].as_deref() == Some(player))
        .map(|i| PeriodRow {
            month: month[i].clone().unwrap_or_default(),
            outcome: outcome[i].clone().unwrap_or_default(),
            change: change[i],
            rating: rating[i],
            pooled_from: pooled_from[i].clone(),
            pooled_games: pooled_games[i].map(i64::from),
            pooled_points: pooled_points[i],
            pooled_opponents: pooled_opponents[i],
        })
        .collect())
}

fn player_rows(df: &DataFrame, player: &str) -> PolarsResult<Vec<ListRow>> {
    let id = text_column(df, "id")?;
    let month = text_column(df, "month")?;
    let rating = int_column(df, "rating")?;
    let k = int_column(df, "k")?;
    let new = bool_column(df, "new")?;
    Ok((0..df.height())
        .filter(|&i| id[i].as_deref() == Some(player))
        .map(|i| ListRow {
            month: month[i].clone().unwrap_or_default(),
            listed: rating[i].is_some(),
            rating: rating[i].unwrap_or(0),
            k: k[i].unwrap_or(0),
            new: new[i].unwrap_or(false),
        })
        .collect())
}
