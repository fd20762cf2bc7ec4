//! A report's games: each played round block paired with the opponent's, which must name the
//! player back with the other colour and the complementary result; the pairing given once, by
//! the lower starting rank's line, dated by its round and placed in its event. Every other block
//! is counted by its kind.

use std::collections::HashMap;

use crate::model::{EventType, HalfPoints};

use super::super::error::IngestError;
use super::super::raw::{RawGames, TrfCounts};
use super::super::table::Skips;
use super::records::{Block, Colour, Player, Report, FIRST_ROUND_COLUMN, ROUND_WIDTH};

/// A pairing of a report: the two players, white first, with White's score.
struct Pairing<'a> {
    white: &'a Player,
    black: &'a Player,
    score: HalfPoints,
}

/// More than 30 days from start to end: FIDE rates such an event round by round, each round in
/// the period it is played, with the ratings in force when it was played (Title Regulations
/// 1.1.4; reference §1 and §4b: from 2022 such events report interim results).
const LONG_EVENT_DAYS: i32 = 30;

impl Report {
    fn ranks(&self) -> HashMap<u16, &Player> {
        self.players.iter().map(|p| (p.rank, p)).collect()
    }

    /// Whether `B` means White (blanc): where the report writes `N` (noir) for Black.
    fn writes_noir(&self) -> bool {
        self.players
            .iter()
            .flat_map(|p| p.rounds.iter().flatten())
            .any(|b| b.colour == Colour::Noir)
    }

    /// Every round block counted by kind, and the games pushed onto `out`, each pairing once.
    pub(super) fn push_games(
        &self,
        out: &mut RawGames,
        events: &mut HashMap<String, u32>,
        skips: &mut Skips,
    ) -> Result<TrfCounts, IngestError> {
        let dates = self.dates()?;
        let ranks = self.ranks();
        let noir = self.writes_noir();
        // The rounds held so far: a report sent after round 1 of 11 counts no absence from the
        // rounds still to come.
        let rounds = self
            .players
            .iter()
            .filter_map(|p| p.rounds.iter().rposition(Option::is_some))
            .max()
            .map_or(0, |last| last + 1);
        let long = matches!((dates.start, dates.end), (Some(s), Some(e)) if e.since(s) > LONG_EVENT_DAYS)
            && dates.rounds.iter().any(Option::is_some);
        let mut counts = self.counts;
        for player in &self.players {
            for round in 0..rounds {
                let block = player.rounds.get(round).copied().flatten();
                let result = block.map_or('Z', |b| b.result);
                match result {
                    'Z' | ' ' => counts.absences += 1,
                    '+' | '-' => counts.forfeits += 1,
                    'W' | 'D' | 'L' => counts.unplayed += 1,
                    'H' => counts.half_point_byes += 1,
                    'F' => counts.full_point_byes += 1,
                    'U' => counts.pairing_byes += 1,
                    _ => {
                        let pairing = self.pairing(player, round, &ranks, noir);
                        let Some(Some(pairing)) = skips.check(pairing)? else {
                            continue;
                        };
                        let date = dates.rounds.get(round).copied().flatten();
                        let Some(day) = date.or(dates.end).or(dates.start) else {
                            return Err(IngestError::File {
                                file: self.file.clone(),
                                problem: "no date: expected the event's dates (042, 052) or its round dates (132)".into(),
                            });
                        };
                        let (event, start) = match date {
                            Some(d) if long => (format!("{}, round {}", self.event, round + 1), d),
                            _ => (self.event.clone(), dates.start.unwrap_or(day)),
                        };
                        let next = events.len() as u32 + 1;
                        let event = *events.entry(event).or_insert(next);
                        let g = &mut out.games;
                        g.period.push(None);
                        g.date.push(Some(day));
                        g.event.push(event);
                        g.event_start.push(Some(start));
                        g.event_type.push(if self.round_robin {
                            EventType::RoundRobin
                        } else {
                            EventType::Swiss
                        });
                        g.score.push(pairing.score);
                        g.white_rating.push(pairing.white.rating);
                        g.black_rating.push(pairing.black.rating);
                        g.source_row.push(player.line);
                        out.white.push(&pairing.white.id);
                        out.black.push(&pairing.black.id);
                        counts.games += 1;
                    }
                }
            }
        }
        Ok(counts)
    }

    /// The game of `player`'s block in `round` (a played result), checked against the opponent's
    /// line: `None` when the game is the opponent's to give (the lower starting rank gives it).
    fn pairing<'a>(
        &self,
        player: &'a Player,
        round: usize,
        ranks: &HashMap<u16, &'a Player>,
        noir: bool,
    ) -> Result<Option<Pairing<'a>>, IngestError> {
        let block = player.rounds[round].expect("a played round has its block");
        let from = FIRST_ROUND_COLUMN + ROUND_WIDTH * round;
        let err = |at: usize, to: usize, what: &str, problem: String| IngestError::Row {
            file: self.file.clone(),
            place: format!("line {}, round {}", player.line, round + 1),
            column: format!("{at}–{to} ({what})"),
            problem,
        };
        let opponent = ranks
            .get(&block.opponent)
            .filter(|o| o.rank != player.rank)
            .ok_or_else(|| {
                err(from, from + 3, "opponent", format!("a game played against a starting rank that no other 001 line holds; got opponent {} with result {}", block.opponent, block.result))
            })?;
        let colour = |b: &Block| match (b.colour, noir) {
            (Colour::White, _) | (Colour::UpperB, true) => Some(true),
            (Colour::Black | Colour::Noir, _) | (Colour::UpperB, false) => Some(false),
            (Colour::None, _) => None,
        };
        let white = colour(&block).ok_or_else(|| {
            err(
                from + 5,
                from + 5,
                "colour",
                format!(
                    "a game played needs its colour, w or b; got none with result {}",
                    block.result
                ),
            )
        })?;
        let complement = match block.result {
            '1' => '0',
            '0' => '1',
            _ => '=',
        };
        let theirs = opponent.rounds.get(round).copied().flatten();
        let agrees = theirs.is_some_and(|t| {
            t.opponent == player.rank && colour(&t) == Some(!white) && t.result == complement
        });
        if !agrees {
            let checked_there =
                theirs.is_some_and(|t| t.opponent == player.rank && "10=".contains(t.result));
            if checked_there && player.rank > opponent.rank {
                // Told once, from the line of the lower starting rank.
                return Ok(None);
            }
            // The kind of fault before "; got", so that skipped rows are counted by kind.
            let against = format!(
                "rank {} against rank {}, whose line (line {})",
                player.rank, opponent.rank, opponent.line
            );
            let (fault, found) = match theirs {
                None => (
                    "the opponent's line has no game in this round",
                    format!("{against} has none"),
                ),
                Some(t) if t.opponent != player.rank => (
                    "the opponent's line names another opponent in this round",
                    format!("{against} names rank {}", t.opponent),
                ),
                Some(t) if colour(&t) != Some(!white) => (
                    "both lines give the same colour",
                    format!(
                        "{} with {against} has {} too",
                        colour_name(Some(white)),
                        colour_name(colour(&t))
                    ),
                ),
                Some(t) => (
                    "the two lines' results do not add up",
                    format!(
                        "{} for {against} has {} (expected {complement})",
                        block.result, t.result
                    ),
                ),
            };
            return Err(err(
                from,
                from + 7,
                "round block",
                format!(
                    "{fault} (a game's two lines name each other, with opposite colours and complementary results); got {found}"
                ),
            ));
        }
        if player.rank > opponent.rank {
            return Ok(None);
        }
        let score = match block.result {
            '1' => 2,
            '0' => 0,
            _ => 1,
        };
        let (white, black, score) = if white {
            (player, *opponent, score)
        } else {
            (*opponent, player, 2 - score)
        };
        Ok(Some(Pairing {
            white,
            black,
            score,
        }))
    }
}

fn colour_name(white: Option<bool>) -> &'static str {
    match white {
        Some(true) => "w",
        Some(false) => "b",
        None => "-",
    }
}

#[cfg(test)]
mod tests {
    use super::super::no_games;
    use super::super::tests::{day, head, player, report, three_players, two_rounds_of_a_and_b};
    use super::*;

    #[test]
    fn each_pairing_is_one_game_and_the_rest_is_counted_by_kind() {
        let mut lines = head("2024-01-06", "2024-01-07", &["24/01/06", "24/01/07"]);
        lines.push("XXR 2".into());
        lines.push("013 Team                             1    2".into());
        lines.push("### a comment".into());
        lines.extend(three_players());
        let (raw, counts) = report(&lines).unwrap();
        let g = &raw.games;
        assert_eq!(raw.white.as_text(), ["1001", "1003"]);
        assert_eq!(raw.black.as_text(), ["Beta, B #2 (Open)", "1001"]);
        assert_eq!(g.score, [2, 1]);
        assert_eq!(g.date, [Some(day(2024, 1, 6)), Some(day(2024, 1, 7))]);
        assert_eq!(g.event_start, [Some(day(2024, 1, 6)); 2]);
        assert_eq!((g.white_rating[0], g.black_rating[0]), (Some(2100), None));
        assert_eq!(g.event_names, ["", "Open"]);
        assert_eq!(g.event_type, [EventType::Swiss; 2]);
        let expected = TrfCounts {
            reports: 1,
            players: 3,
            without_fide_id: 1,
            games: 2,
            half_point_byes: 1,
            pairing_byes: 1,
            lines_skipped: 2,
            ..TrfCounts::default()
        };
        assert_eq!(counts, expected);
    }

    /// An event longer than 30 days is rated round by round: each round its own event, started on
    /// its date, so that it goes on the list after it with the ratings in force then.
    #[test]
    fn a_season_is_rated_round_by_round() {
        let mut lines = head("2023-09-24", "2024-04-21", &["23/09/24", "24/04/21"]);
        lines.push("092 Standard Team Round Robin".into());
        lines.extend(two_rounds_of_a_and_b());
        let (raw, _) = report(&lines).unwrap();
        let g = &raw.games;
        assert_eq!(g.event_names, ["", "Open, round 1", "Open, round 2"]);
        assert_eq!(
            g.event_start,
            [Some(day(2023, 9, 24)), Some(day(2024, 4, 21))]
        );
        assert_eq!(g.event_type, [EventType::RoundRobin; 2]);
    }

    #[test]
    fn french_colours_and_any_line_end_are_read() {
        let mut lines = head("2015/09/27", "2015/09/27", &[]);
        lines.push(player(1, "A", "2000", "11", &[(2, 'N', '1')]));
        lines.push(player(2, "B", "2000", "12", &[(1, 'B', '0')]));
        for end in ["\r", "\r\n"] {
            let mut skips = Skips::new(false);
            let report = Report::parse("t.trf", &lines.join(end), &mut skips).unwrap();
            let mut out = no_games("t.trf".into());
            report
                .push_games(&mut out, &mut HashMap::new(), &mut skips)
                .unwrap();
            assert_eq!(out.white.as_text(), ["12"]);
            assert_eq!(out.games.score, [0]);
        }
    }
}
