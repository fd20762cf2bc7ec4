//! FIDE's standard rating calculation for one player in one rating period (reference §3–§6, §4's
//! monthly algorithm), given the player's games as seen from the lists in force when each
//! tournament started. The replay calls it for every player in parallel on frozen lists, then
//! applies the outcomes.

use crate::model::{HalfPoints, SideRecord};
use crate::rules::expected::fide_pd;
use crate::rules::rounding::round_hundredths;
use crate::rules::{PooledResults, Regulations, Rounding, Timeline};

/// One game from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideInput {
    /// The player's rating and K for this game: from the list in force at the tournament's start,
    /// or, for a player rated since, the current ones (2022 §8.2.4: "rated as a rated player with
    /// their current rating"). `None` for an unrated player.
    pub own: Option<(i32, u8)>,
    /// The opponent's rating on the list in force at the tournament's start; `None` when unrated
    /// then ("in the rating of their opponents they are counted as an unrated player", §8.2.4) or
    /// when the game does not count. In a round robin rated by the tournament-rating rule (§6.5),
    /// an unrated opponent's tournament rating, and for an unrated player the tournament average.
    pub opponent: Option<i32>,
    /// Whether `opponent` comes from a round robin's calculation rather than from the list.
    pub tournament: bool,
    /// The player's own score.
    pub score: HalfPoints,
    pub event: u32,
    /// The era of the tournament's start.
    pub era: u16,
}

/// What the period did to one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A rated player: the rounded change and the rated games behind it.
    Rated { change: i32, games: u32 },
    /// An unrated player: the results that count towards a first rating.
    Unrated { counted: PooledResults },
}

/// The rules a period needs: the eras by tournament start, and the list-level rules of the
/// period's start.
pub struct PeriodRules<'a> {
    pub timeline: &'a Timeline,
    pub list: &'a Regulations,
}

/// Rates one player's period. `sides` are the player's games, in the schedule's order; `out`
/// receives one result per side.
pub fn rate_player(
    rules: &PeriodRules<'_>,
    rated: bool,
    has_counted_results: bool,
    sides: &[SideInput],
    out: &mut [SideRecord],
) -> Outcome {
    if rated {
        rate_rated(rules, sides, out)
    } else {
        pool_unrated(rules, has_counted_results, sides, out)
    }
}

/// Reference §4: change = round(Σ over tournaments of K × Σ(score − PD)), K from the player's list,
/// reduced by the K × n cap over all the period's games (§3.3).
fn rate_rated(rules: &PeriodRules<'_>, sides: &[SideInput], out: &mut [SideRecord]) -> Outcome {
    let rated_games = sides.iter().filter(|s| s.opponent.is_some()).count() as u32;
    for (i, (s, result)) in sides.iter().zip(out.iter_mut()).enumerate() {
        let (Some((own, k)), Some(opponent)) = (s.own, s.opponent) else {
            *result = SideRecord {
                rating: s.own.map(|(r, _)| r),
                ..SideRecord::default()
            };
            continue;
        };
        let era = rules.timeline.era(usize::from(s.era));
        let cap = &era.diff_cap;
        let diff = own - opponent;
        let capped = cap.covers(own)
            && cap.exceeds(diff)
            && (!cap.limited(diff) || is_upgraded_game(cap, own, i, sides));
        let pd = fide_pd(if capped { cap.clamp(diff) } else { diff });
        let k = era.k.capped(k, rated_games);
        let change = i32::from(k) * (i32::from(s.score) * 50 - pd);
        *result = SideRecord {
            rating: Some(own),
            k: Some(k),
            pd: Some(pd as u8),
            change: Some(change),
            capped,
            counted: true,
            counted_against: s.tournament.then_some(opponent),
        };
    }
    let change = match rules.list.rounding {
        Rounding::PerPeriod => round_hundredths(
            out[..sides.len()]
                .iter()
                .filter_map(|r| r.change)
                .map(i64::from)
                .sum(),
        ),
        Rounding::PerTournament => first_of_each_event(sides)
            .map(|first| {
                let event = sides[first].event;
                round_hundredths(
                    (first..sides.len())
                        .filter(|&j| sides[j].event == event)
                        .filter_map(|j| out[j].change)
                        .map(i64::from)
                        .sum(),
                )
            })
            .sum(),
    };
    Outcome::Rated {
        change: change as i32,
        games: rated_games,
    }
}

/// Under a once-per-event scope, whether game `i` is the one of its event that gets the upgrade:
/// the greatest limited difference, the first of equals (reference §3.4, 2022–24).
fn is_upgraded_game(cap: &crate::rules::DiffCap, own: i32, i: usize, sides: &[SideInput]) -> bool {
    let event = sides[i].event;
    let differences = sides
        .iter()
        .enumerate()
        .filter(|(_, o)| o.event == event)
        .filter_map(|(j, o)| Some((j, own - o.opponent?)));
    let mut upgraded = None;
    let mut best = 0;
    for (j, d) in differences {
        if cap.limited(d) && (upgraded.is_none() || d.abs() > best) {
            upgraded = Some(j);
            best = d.abs();
        }
    }
    upgraded == Some(i)
}

/// The first side of each event, in order (all of a period's games without an event form one).
fn first_of_each_event(sides: &[SideInput]) -> impl Iterator<Item = usize> + '_ {
    (0..sides.len()).filter(move |&i| sides[..i].iter().all(|s| s.event != sides[i].event))
}

/// Reference §6: an unrated player's results against rated opponents, event by event through the
/// era's gate ("If an unrated player scores zero in their first event this score is disregarded").
/// A round robin rated by the tournament-rating rule has passed its own gate (§6.5) and counts
/// every game that stands, against the tournament average.
fn pool_unrated(
    rules: &PeriodRules<'_>,
    mut has_counted_results: bool,
    sides: &[SideInput],
    out: &mut [SideRecord],
) -> Outcome {
    let mut counted = PooledResults::default();
    for first in first_of_each_event(sides) {
        let event = sides[first].event;
        let games = || {
            (first..sides.len()).filter(|&j| sides[j].event == event && sides[j].opponent.is_some())
        };
        let mut results = PooledResults::default();
        for j in games() {
            let s = sides[j];
            results.add(PooledResults {
                games: 1,
                half_points: u32::from(s.score),
                opponents: i64::from(s.opponent.unwrap_or(0)),
            });
        }
        let gate = &rules
            .timeline
            .era(usize::from(sides[first].era))
            .initial
            .gate;
        let round_robin = games().any(|j| sides[j].tournament);
        if results.games > 0 && (round_robin || gate.counts(&results, has_counted_results)) {
            counted.add(results);
            has_counted_results = true;
            for j in games() {
                let s = sides[j];
                out[j].counted = true;
                out[j].counted_against = s.opponent.filter(|_| s.tournament);
            }
        }
    }
    Outcome::Unrated { counted }
}
