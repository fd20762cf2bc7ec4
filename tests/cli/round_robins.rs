//! Round robins with unrated players (reference §6.5): until 2014 their games were rated for the
//! rated players, at the unrated players' ratings from the tournament (the 2003 Handbook's method,
//! B0210); from 2014, and in every event not marked a round robin, only games between rated players.

use std::path::{Path, PathBuf};

use crate::common::*;

/// The 2003 Handbook's worked example (B0210): ten players, four of them unrated (C, E, H, I).
const FIELD: [(&str, Option<(i32, u32)>); 10] = [
    ("A", Some((2600, 10))),
    ("B", Some((2500, 10))),
    ("C", None),
    ("D", Some((2400, 10))),
    ("E", None),
    ("F", Some((2150, 15))),
    ("G", Some((2300, 15))),
    ("H", None),
    ("I", None),
    ("J", Some((2300, 15))),
];

/// White's score: the higher seat wins, but for J beating A and E beating B, which gives the
/// example's scores (A 8, B 7, C 7, D 6, E 6, F 4, G 3, H 2, I 1, J 1 out of 9).
fn score(white: usize, black: usize) -> &'static str {
    let upset = |a: &str, b: &str| FIELD[white].0 == a && FIELD[black].0 == b;
    if upset("J", "A") || upset("E", "B") {
        return "1";
    }
    if upset("A", "J") || upset("B", "E") {
        return "0";
    }
    if white < black {
        "1"
    } else {
        "0"
    }
}

/// Every pair of the field once, the first named playing White.
fn pairings() -> impl Iterator<Item = (usize, usize)> {
    (0..FIELD.len()).flat_map(|w| (w + 1..FIELD.len()).map(move |b| (w, b)))
}

/// The example played in `month` (its tournament starting on the 10th), with the given header's
/// event-type column (`None`: no such column), replayed under the shipped history from `from`.
fn replay(dir: &Path, name: &str, month: &str, event_type: Option<&str>, from: &str) -> PathBuf {
    let start = write_csv(
        dir,
        &format!("{name}-start.csv"),
        "id,rating,k,games",
        FIELD
            .iter()
            .filter_map(|(id, listed)| listed.map(|(r, k)| format!("{id},{r},{k},50"))),
    );
    let header = match event_type {
        Some(_) => "date,event,event_start,event_type,white,black,score",
        None => "date,event,event_start,white,black,score",
    };
    let kind = event_type.map(|t| format!("{t},")).unwrap_or_default();
    let rows = pairings().map(|(w, b)| {
        format!(
            "{month}-12,Club RR,{month}-10,{kind}{},{},{}",
            FIELD[w].0,
            FIELD[b].0,
            score(w, b)
        )
    });
    let games = write_csv(dir, &format!("{name}-games.csv"), header, rows);
    let out = dir.join(name);
    replay_history(&games, &start, from, &out, &["--csv", "--quiet"]);
    out
}

/// Each player's rating on a list written as CSV (`lists/MONTH.csv`), by id.
fn ratings(run: &Path, month: &str) -> Vec<(String, i32)> {
    let list = std::fs::read_to_string(run.join(format!("lists/{month}.csv"))).unwrap();
    list.lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[0].to_string(), cells[5].parse().unwrap())
        })
        .collect()
}

fn rating_of(list: &[(String, i32)], id: &str) -> Option<i32> {
    list.iter().find(|(p, _)| p == id).map(|&(_, r)| r)
}

/// 2010 (bi-monthly lists, 400-point rule, 9 games for a first rating, 12.5 per half point): Ra =
/// 2375 − 29.5 × 9/10 = 2348; the unrated players' tournament ratings are C 2411, E 2386, H 2128,
/// I 1997, their first ratings from these nine games, and the rated players' games against them are
/// rated at those ratings, game by game (computed by hand with tables 8.1.1–8.1.2: A +6.20 → 2606).
#[test]
fn a_round_robin_before_2014_rates_games_against_unrated_players() {
    let dir = scratch("round-robin-2010");
    let run = replay(&dir, "rr", "2010-01", Some("round-robin"), "2010-03");
    let list = ratings(&run, "2010-03");
    let expected = [
        ("A", 2606),
        ("B", 2505),
        ("C", 2411),
        ("D", 2406),
        ("E", 2386),
        ("F", 2171),
        ("G", 2281),
        ("H", 2128),
        ("I", 1997),
        ("J", 2251),
    ];
    for (id, rating) in expected {
        assert_eq!(rating_of(&list, id), Some(rating), "{id}: {list:?}");
    }
    let shown = explain(&run, "A", "2010-03");
    // H and I are more than 400 points below A: the rule applies to their tournament ratings too.
    for opponent in ["2411†", "2386†", "2200*†", "from the round robin"] {
        assert!(shown.contains(opponent), "{opponent} not in\n{shown}");
    }
    assert!(
        shown.contains("New rating on 2010-03: 2606 (+6 from 2600)"),
        "{shown}"
    );
    let newcomer = explain(&run, "C", "2010-03");
    assert!(
        newcomer.contains("First rating on 2010-03: 2411"),
        "{newcomer}"
    );
    assert!(
        newcomer.contains("2348†"),
        "counted against Ra:\n{newcomer}"
    );
}

/// The same tournament not marked a round robin (no `event_type` column) is rated as a Swiss: only
/// games between rated players, and the unrated players' six games against rated opponents are
/// short of the nine a first rating needs.
#[test]
fn without_the_event_type_a_round_robin_is_rated_as_a_swiss() {
    let dir = scratch("round-robin-unmarked");
    let run = replay(&dir, "swiss", "2010-01", None, "2010-03");
    let list = ratings(&run, "2010-03");
    for (id, rating) in [
        ("A", 2600),
        ("B", 2506),
        ("D", 2403),
        ("F", 2165),
        ("G", 2286),
        ("J", 2286),
    ] {
        assert_eq!(rating_of(&list, id), Some(rating), "{id}: {list:?}");
    }
    assert_eq!(rating_of(&list, "C"), None, "six games are not nine");
    let marked_swiss = replay(&dir, "marked", "2010-01", Some("swiss"), "2010-03");
    assert_eq!(ratings(&marked_swiss, "2010-03"), list);
}

/// From July 2014 a round robin rates only games against rated opponents (the shipped history's
/// switch `round-robin-unrated`): the rated players' changes are those of a Swiss, and C's first
/// rating comes from its six games against rated opponents (Ra 2375 + 2 × 20).
#[test]
fn a_round_robin_from_2014_rates_only_games_between_rated_players() {
    let dir = scratch("round-robin-2015");
    let run = replay(&dir, "rr", "2015-01", Some("round-robin"), "2015-02");
    let list = ratings(&run, "2015-02");
    for (id, rating) in [
        ("A", 2600),
        ("B", 2506),
        ("C", 2415),
        ("D", 2403),
        ("J", 2286),
    ] {
        assert_eq!(rating_of(&list, id), Some(rating), "{id}: {list:?}");
    }
    let shown = explain(&run, "A", "2015-02");
    assert!(!shown.contains('†'), "{shown}");
}

/// A PGN's `EventType "tourn"` (the PGN standard's round robin) marks the event: the same lists as
/// the CSV's `round-robin`; `EventType "swiss"` gives the Swiss lists.
#[test]
fn a_pgn_tourn_event_is_a_round_robin() {
    let dir = scratch("round-robin-pgn");
    let marked = replay(&dir, "csv", "2010-01", Some("round-robin"), "2010-03");
    let unmarked = replay(&dir, "csv-swiss", "2010-01", None, "2010-03");
    let start = dir.join("csv-start.csv");
    for (event_type, same_as) in [("tourn", &marked), ("swiss", &unmarked)] {
        let mut pgn = String::new();
        for (w, b) in pairings() {
            let result = match score(w, b) {
                "1" => "1-0",
                _ => "0-1",
            };
            pgn += &format!(
                "[Event \"Club RR\"]\n[EventDate \"2010.01.10\"]\n[EventType \"{event_type}\"]\n[Date \"2010.01.12\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n\n{result}\n\n",
                FIELD[w].0, FIELD[b].0
            );
        }
        let games = write(&dir, &format!("{event_type}.pgn"), &pgn);
        let out = dir.join(event_type);
        replay_history(
            &games,
            start.to_str().unwrap(),
            "2010-03",
            &out,
            &["--csv", "--quiet"],
        );
        assert_eq!(
            ratings(&out, "2010-03"),
            ratings(same_as, "2010-03"),
            "EventType {event_type}"
        );
    }
}
