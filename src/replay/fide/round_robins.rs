//! A period's round robins rated by the tournament-rating rule (reference §6.5; the method is in
//! `rules::round_robin`): each unrated participant's tournament rating, or that they are
//! disregarded, and the tournament average Ra, found before the players' periods are computed so
//! that every player reads the same values.

use crate::model::{IdMap, PlayerId, EVENT_NONE};
use crate::rules::round_robin::{
    composition_allows, tournament_average, tournament_rating, unrated_counts, Participant,
};
use crate::rules::{RoundRobinUnrated, Timeline};

use super::state::Lists;
use crate::replay::schedule::GameSlot;

/// One round robin with unrated participants, rated by the tournament-rating rule.
pub struct RoundRobin {
    /// The tournament average Ra, against which an unrated participant's games count.
    average: i32,
    /// Each participant unrated at the start: their tournament rating, or `None` when disregarded
    /// (less than the era's gate score in the event).
    unrated: IdMap<PlayerId, Option<i32>>,
}

impl RoundRobin {
    /// The rating one side's game counts against: the opponent's listed rating, an unrated
    /// opponent's tournament rating, Ra for an unrated player's own games; `None` when the game
    /// does not count (a disregarded player's, on both sides).
    pub fn counted_against(
        &self,
        player: PlayerId,
        opponent: PlayerId,
        listed: Option<i32>,
        rated_now: bool,
    ) -> Option<i32> {
        if self.unrated.get(&player) == Some(&None) {
            return None;
        }
        let opponent = match listed {
            Some(rating) => Some(rating),
            None => self.unrated.get(&opponent).copied().flatten(),
        };
        if rated_now {
            opponent
        } else {
            opponent.map(|_| self.average)
        }
    }
}

/// The period's round robins rated by the rule, by event.
#[derive(Default)]
pub struct RoundRobins {
    events: IdMap<u32, RoundRobin>,
}

impl RoundRobins {
    pub fn event(&self, event: u32) -> Option<&RoundRobin> {
        if self.events.is_empty() {
            return None;
        }
        self.events.get(&event)
    }

    /// Finds the round robins among a list's games (`slots`, in which an event's games are
    /// consecutive) whose era rates them by the rule and which have an unrated participant.
    pub fn build(&mut self, lists: &Lists<'_>, slots: &[GameSlot], timeline: &Timeline) {
        self.events.clear();
        for event in slots.chunk_by(|a, b| a.event == b.event) {
            let first = &event[0];
            if !first.round_robin || first.event == EVENT_NONE {
                continue;
            }
            let era = timeline.era(usize::from(first.era));
            if era.round_robin != RoundRobinUnrated::TournamentRating {
                continue;
            }
            let (gate, per_half_point) =
                (era.initial.gate.min_half_points, era.initial.per_half_point);
            if let Some(rr) = round_robin(lists, event, gate, per_half_point) {
                self.events.insert(first.event, rr);
            }
        }
    }
}

/// One round robin's tournament ratings; `None` without an unrated participant, with too few rated
/// ones to be rated as a round robin, or without a rated one who stands.
fn round_robin(
    lists: &Lists<'_>,
    games: &[GameSlot],
    min_half_points: u32,
    per_half_point: i32,
) -> Option<RoundRobin> {
    let in_force = games[0].in_force;
    let listed = |p: PlayerId| lists.listed(p, in_force);
    let all = scores(games, |_| true, listed);
    let rated = all.iter().filter(|(_, p)| p.rating.is_some()).count();
    let double = all.iter().any(|(_, p)| p.games as usize >= all.len());
    if rated == all.len() || !composition_allows(all.len(), rated, double) {
        return None;
    }
    // GA 2003: an unrated player under the gate score is disregarded, with their opponents' games
    // against them; the others' scores are then counted without those games.
    let disregarded: Vec<PlayerId> = all
        .iter()
        .filter(|(_, p)| p.rating.is_none() && !unrated_counts(p.half_points, min_half_points))
        .map(|&(player, _)| player)
        .collect();
    let stands = |player: PlayerId| disregarded.binary_search(&player).is_err();
    let kept = if disregarded.is_empty() {
        all
    } else {
        scores(games, |g| stands(g.white) && stands(g.black), listed)
    };
    let participants: Vec<Participant> = kept.iter().map(|&(_, p)| p).collect();
    let average = tournament_average(&participants)?;
    let mut unrated: IdMap<PlayerId, Option<i32>> =
        disregarded.iter().map(|&p| (p, None)).collect();
    for (player, p) in kept.iter().filter(|(_, p)| p.rating.is_none()) {
        unrated.insert(*player, Some(tournament_rating(average, p, per_half_point)));
    }
    Some(RoundRobin { average, unrated })
}

/// Each participant's listed rating, score and games over the games that `keep` keeps, by player.
fn scores(
    games: &[GameSlot],
    keep: impl Fn(&GameSlot) -> bool,
    listed: impl Fn(PlayerId) -> Option<i32>,
) -> Vec<(PlayerId, Participant)> {
    let mut sides: Vec<(PlayerId, u32)> = games
        .iter()
        .filter(|g| keep(g))
        .flat_map(|g| {
            [
                (g.white, u32::from(g.score)),
                (g.black, 2 - u32::from(g.score)),
            ]
        })
        .collect();
    sides.sort_unstable();
    sides
        .chunk_by(|a, b| a.0 == b.0)
        .map(|player| {
            let id = player[0].0;
            let participant = Participant {
                rating: listed(id),
                half_points: player.iter().map(|s| s.1).sum(),
                games: player.len() as u32,
            };
            (id, participant)
        })
        .collect()
}
