//! Unrated players in round robins (reference §6.1–§6.2, §6.5). Until 2014 a round robin rated
//! every game of its rated players, also those against unrated players, "as they have been rated so
//! far" (FIDE news, 13 July 2009): the unrated players get a rating from the tournament, and their
//! rated opponents' games against them count at it. The method is the 2003 Handbook's (B0210,
//! "Determining the ratings in a round-robin tournament", whose worked example is this file's test):
//!
//! - a round robin is rated so only when enough of its players are rated (B0206 6.3: a third, and
//!   four with fewer than ten players); otherwise it is rated as a Swiss, as FIDE would not have
//!   rated it as a round robin (reported games never hold one; a generated world's weakest round
//!   robins may);
//! - an unrated player who scores less than 1 point is disregarded, with their opponents' games
//!   against them (GA 2003, B0206 6.1; 2009: "if a previously unrated player scores at least 1 point
//!   in the event, the rating will be calculated");
//! - Rar is the average rating of the rated players, dpa the average of their dp (each from their
//!   score against all their opponents), n the number of opponents: Ra = Rar − dpa × n/(n + 1);
//! - an unrated player's tournament rating is Ra + 12.5 per half point over 50 %, or Ra + dp below.
//!
//! When the practice ended for standard ratings was not retrieved (reference §13.7): the shipped
//! history ends it with the regulations of July 2014, which rate only games against rated opponents.

use crate::named::named_enum;

use super::expected::{fide_dp, score_fraction_hundredths};
use super::initial::{plus_score_rating, PooledResults};
use super::rounding::round_ratio;

named_enum! {
    /// How a round robin rates games against unrated players.
    pub enum RoundRobinUnrated {
        /// As in a Swiss: only games against rated opponents are rated (from July 2014, and the
        /// 2022 and 2024 texts: "Ra is the average rating of the player's rated opponents").
        NotRated = "not-rated",
        /// The 2003 Handbook's method (B0210): the unrated players' ratings from the tournament, and
        /// every game of the rated players rated (2000 – June 2014 in the shipped history).
        TournamentRating = "tournament-rating",
    }
}

/// One participant of a round robin: their rating on the list in force at its start (`None` when
/// unrated), and their score and games against the participants who are not disregarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Participant {
    pub rating: Option<i32>,
    pub half_points: u32,
    pub games: u32,
}

/// Whether a round robin with unrated players may be rated as one (the 2002–2003 Handbook, B0206
/// 6.3): "at least one-third of the players must be rated"; with fewer than 10 players at least 4;
/// a double round robin at least 6 players, 4 of them rated. `players` and `rated` count the
/// participants, rated as the list in force at the start says.
pub fn composition_allows(players: usize, rated: usize, double: bool) -> bool {
    3 * rated >= players && (players >= 10 || rated >= 4) && (!double || players >= 6)
}

/// Whether an unrated player's results in a round robin stand: "at least 1 point in the event"
/// (`min_half_points`, the era's gate score) over all their games in it.
pub fn unrated_counts(half_points: u32, min_half_points: u32) -> bool {
    half_points >= min_half_points
}

/// The tournament average Ra = Rar − dpa × n/(n + 1), rounded (B0210: "Ra = 2375 − 29.5 × 9/10 =
/// 2348"), over the participants who stand; `None` without a rated participant.
pub fn tournament_average(participants: &[Participant]) -> Option<i32> {
    let n = i64::try_from(participants.len()).ok()? - 1;
    let rated: Vec<&Participant> = participants
        .iter()
        .filter(|p| p.rating.is_some() && p.games > 0)
        .collect();
    if rated.is_empty() || n < 1 {
        return None;
    }
    let ratings: i64 = rated.iter().filter_map(|p| p.rating).map(i64::from).sum();
    let dps: i64 = rated
        .iter()
        .map(|p| i64::from(fide_dp(score_fraction_hundredths(p.half_points, p.games))))
        .sum();
    let count = rated.len() as i64;
    Some(round_ratio(ratings * (n + 1) - dps * n, count * (n + 1)) as i32)
}

/// An unrated player's rating from the tournament: Ra + per-half-point × half points over 50 %, or
/// Ra + dp below (B0210: "Ru = 2348 + 5 × 12.5 = 2411"; "Ru = 2348 − 220 = 2128"), the player's
/// games all counted against Ra, as they also count towards a first rating (B0209 9.14a: a first
/// rating "based on results obtained under 6.3 [round robins], a minimum of 9 games").
pub fn tournament_rating(
    average: i32,
    player: &Participant,
    per_half_point_hundredths: i32,
) -> i32 {
    let results = PooledResults {
        games: player.games,
        half_points: player.half_points,
        opponents: i64::from(average) * i64::from(player.games),
    };
    plus_score_rating(&results, per_half_point_hundredths)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rated(rating: i32, points: u32) -> Participant {
        Participant {
            rating: Some(rating),
            half_points: 2 * points,
            games: 9,
        }
    }

    fn unrated(points: u32) -> Participant {
        Participant {
            rating: None,
            half_points: 2 * points,
            games: 9,
        }
    }

    /// The 2003 Handbook's worked example (B0210): ten players, four unrated; Rar = 2375,
    /// dpa = 29.5, Ra = 2348; C 7/9 → 2411, E 6/9 → 2386, H 2/9 → 2128, I 1/9 → 1997.
    #[test]
    fn handbook_2003_round_robin() {
        let field = [
            rated(2600, 8),
            rated(2500, 7),
            unrated(7),
            rated(2400, 6),
            unrated(6),
            rated(2150, 4),
            rated(2300, 3),
            unrated(2),
            unrated(1),
            rated(2300, 1),
        ];
        let ra = tournament_average(&field).expect("rated players");
        assert_eq!(ra, 2348);
        let ru: Vec<i32> = [2, 4, 7, 8]
            .iter()
            .map(|&i| tournament_rating(ra, &field[i], 1250))
            .collect();
        assert_eq!(ru, [2411, 2386, 2128, 1997]);
        assert!(composition_allows(field.len(), 6, false));
        assert!(unrated_counts(field[8].half_points, 2), "1 point stands");
        assert!(!unrated_counts(1, 2), "half a point is disregarded");
    }

    /// B0206 6.3–6.32.
    #[test]
    fn composition() {
        assert!(composition_allows(12, 4, false), "a third rated");
        assert!(!composition_allows(12, 3, false), "a quarter rated");
        assert!(
            !composition_allows(9, 3, false),
            "fewer than 10 players need 4 rated"
        );
        assert!(composition_allows(6, 4, true));
        assert!(
            !composition_allows(5, 4, true),
            "a double round robin needs 6 players"
        );
    }

    #[test]
    fn no_rated_player_no_average() {
        assert_eq!(tournament_average(&[unrated(3), unrated(6)]), None);
        assert_eq!(tournament_average(&[rated(2000, 1)]), None, "no opponent");
    }
}
