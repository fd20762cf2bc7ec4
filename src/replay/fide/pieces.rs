//! A list rated in pieces, so that memory follows the players and not a month's games: a source
//! read list by list whose list is larger than the pieces' size hands its games piece by piece
//! (a partitioned dataset, file by file), and FIDE's engine reads them two or three times.
//!
//! 1. `survey`, only when a piece names events: every piece placed as read, to find the list's
//!    events (numbered in the order of their names, as when the list is read whole), each event's
//!    earliest start, which all its games share (reference §1), and the games of its round robins,
//!    whose tournament ratings need the whole tournament (§6.5). A list without named events (a
//!    source of Lichess's kind) has none of these to find.
//! 2. `ListSums::fold`: each piece's games summed per player and group (`GroupSums`: an event
//!    under one own rating and era), then each player's outcome from their sums.
//! 3. `ListSums::records`: each piece's games recorded, their K capped over the period's games
//!    and each event's upgrade known, and handed to the sink.
//!
//! The outcomes, lists and records are those of the list rated whole (an event's 2022–24 upgrade
//! among games of equal difference goes to the first in the list's order, `fide::ReadAt`). The
//! games' and periods' rows come in the order of the pieces: the whole list's when the pieces come
//! in it (as `elosim bench --pieces` writes them).

use std::collections::HashMap;

use rayon::prelude::*;

use crate::model::{Day, EventType, Games, Month, PlayerId, SideRecord, EVENT_NONE};
use crate::systems::fide::{self, GroupSums, Groups, Outcome, PeriodRules, ReadAt, SideInput};

use super::calculation::{Frozen, PlayerIndex, BLOCK};
use super::newcomers;
use super::state::State;
use crate::replay::list_games::{ListEvents, ListPieces};
use crate::replay::schedule::{self, GameSlot};
use crate::replay::ReplayError;

/// What the first read of a list's pieces finds.
pub struct Survey {
    pub events: ListEvents,
    /// The games of the list's round robins, an event's games together, with the start and rules
    /// of the whole event.
    pub round_robins: Vec<GameSlot>,
}

impl Survey {
    /// What a list without named events holds (no round robin has no name): a list of Lichess's
    /// kind is rated without reading its pieces a first time.
    pub fn without_events() -> Survey {
        Survey {
            events: ListEvents::new(HashMap::new()),
            round_robins: Vec::new(),
        }
    }
}

/// The first read: every piece placed as read (so that a bad game is refused as when the list is
/// read whole), its events' names and earliest starts gathered, and its round robins' games kept.
pub fn survey(
    scenario: &crate::scenario::Scenario,
    pieces: &mut ListPieces<'_, '_>,
) -> Result<Survey, ReplayError> {
    let mut starts: HashMap<String, Day> = HashMap::new();
    // Each event's type, with the file and row of its first game (an event's games share one).
    let mut types: HashMap<String, (EventType, String, u32)> = HashMap::new();
    // Round robins' games by event name: (white, black, score).
    let mut round_robins: HashMap<String, Vec<(PlayerId, PlayerId, u8)>> = HashMap::new();
    let lists = pieces.lists().to_vec();
    for i in 0..pieces.count {
        let period = pieces.as_read(i)?;
        let (input, schedule) = (period.input, period.schedule);
        for (pos, slot) in schedule.list_slots().iter().enumerate() {
            if slot.event == EVENT_NONE {
                continue;
            }
            let name = &input.event_names[slot.event as usize];
            let start = schedule.event_start[pos];
            let game = schedule.order[pos] as usize;
            match starts.get_mut(name) {
                Some(known) => {
                    *known = (*known).min(start);
                    same_type(input, game, name, &types[name])?;
                }
                None => {
                    starts.insert(name.clone(), start);
                    let first = (input.source.clone(), input.source_row[game]);
                    types.insert(name.clone(), (input.event_type(game), first.0, first.1));
                }
            }
            if slot.round_robin {
                round_robins
                    .entry(name.clone())
                    .or_default()
                    .push((slot.white, slot.black, slot.score));
            }
        }
    }
    let events = ListEvents::new(starts);
    let mut slots = Vec::new();
    for (code, name) in events.names().iter().enumerate() {
        let Some(games) = round_robins.get(name) else {
            continue;
        };
        let (in_force, era) = schedule::in_force_at(scenario, &lists, events.starts()[code]);
        slots.extend(games.iter().map(|&(white, black, score)| GameSlot {
            white,
            black,
            event: code as u32,
            in_force,
            era,
            score,
            round_robin: true,
        }));
    }
    Ok(Survey {
        events,
        round_robins: slots,
    })
}

/// The place in the list's order of the game at `pos` of piece `piece`.
fn place_in_list(frozen: &Frozen<'_>, piece: u32, pos: u32) -> ReadAt {
    let schedule = frozen.schedule;
    let slot = schedule.slot(pos as usize);
    let own_start = schedule.own_start[pos as usize];
    ReadAt {
        start: own_start,
        white: slot.white,
        black: slot.black,
        score: slot.score,
        piece,
        position: pos,
    }
}

/// An event's games in several pieces share one type, as they must when read whole; `first` is
/// the type of its first game, with that game's file and row.
fn same_type(
    input: &Games,
    game: usize,
    name: &str,
    (first, file, row): &(EventType, String, u32),
) -> Result<(), ReplayError> {
    let event_type = input.event_type(game);
    if event_type == *first {
        return Ok(());
    }
    Err(ReplayError::EventType {
        file: input.source.clone(),
        row_word: input.row_word,
        row: input.source_row[game],
        problem: format!(
            "{} in event {name:?}, whose game in {file}, {} {row}, is {}: an event's games share one type",
            event_type.name(),
            input.row_word,
            first.name()
        ),
    })
}

/// No group: the end of a player's groups.
const NO_GROUP: u32 = u32::MAX;

/// A period's games summed by player and group, for a list rated in pieces; its buffers are kept
/// from list to list.
pub struct ListSums {
    /// Per player: their first group (`NO_GROUP` before they play this period).
    first: Vec<u32>,
    groups: Vec<GroupSums>,
    /// Per group: the player's next group.
    next: Vec<u32>,
    /// The players who played, in the order first read: the whole list's order when the pieces
    /// come in it.
    pub players: Vec<PlayerId>,
    /// Per player: their rated games this period, once the outcomes are known.
    rated_games: Vec<u32>,
    /// One player's groups while their outcome is computed.
    scratch: Vec<GroupSums>,
}

impl ListSums {
    pub fn new(players: usize) -> ListSums {
        ListSums {
            first: vec![NO_GROUP; players],
            groups: Vec::new(),
            next: Vec::new(),
            players: Vec::new(),
            rated_games: vec![0; players],
            scratch: Vec::new(),
        }
    }

    /// Empties the sums for the next list.
    pub fn clear(&mut self) {
        for &p in &self.players {
            self.first[p as usize] = NO_GROUP;
            self.rated_games[p as usize] = 0;
        }
        self.players.clear();
        self.groups.clear();
        self.next.clear();
    }

    /// The indices of a player's groups, in the order first read.
    fn groups_of(&self, player: PlayerId) -> impl Iterator<Item = usize> + '_ {
        let mut at = self.first[player as usize];
        std::iter::from_fn(move || {
            (at != NO_GROUP).then(|| {
                let here = at as usize;
                at = self.next[here];
                here
            })
        })
    }

    /// Adds piece `piece`'s games (`index` over `frozen.schedule`): each player's sums over the
    /// piece in parallel, then added to the period's.
    pub fn fold(
        &mut self,
        frozen: &Frozen<'_>,
        rules: &PeriodRules<'_>,
        index: &PlayerIndex,
        piece: u32,
    ) {
        let starts: Vec<usize> = (0..index.players.len()).step_by(BLOCK).collect();
        let blocks: Vec<Vec<(u32, GroupSums)>> = starts
            .into_par_iter()
            .map_init(
                || (Vec::new(), Groups::default()),
                |(inputs, groups): &mut (Vec<SideInput>, Groups), first| {
                    let last = (first + BLOCK).min(index.players.len());
                    let mut sums = Vec::new();
                    for i in first..last {
                        let player = index.players[i];
                        let sides = &index.sides[index.offsets[i]..index.offsets[i + 1]];
                        inputs.clear();
                        inputs.extend(sides.iter().map(|&side| frozen.side(player, side)));
                        groups.clear();
                        let at = |j: usize| place_in_list(frozen, piece, sides[j].pos);
                        fide::sum_sides(rules, inputs, at, groups);
                        sums.extend(groups.groups.iter().map(|g| (i as u32, *g)));
                    }
                    sums
                },
            )
            .collect();
        for (i, sums) in blocks.iter().flatten() {
            self.add(index.players[*i as usize], sums);
        }
    }

    /// Adds one player's sums of one group from a piece.
    fn add(&mut self, player: PlayerId, sums: &GroupSums) {
        let mut last = None;
        let mut at = self.first[player as usize];
        while at != NO_GROUP {
            let g = at as usize;
            if self.groups[g].same_group(sums) {
                self.groups[g].merge(sums);
                return;
            }
            last = Some(g);
            at = self.next[g];
        }
        let at = self.groups.len() as u32;
        self.groups.push(*sums);
        self.next.push(NO_GROUP);
        match last {
            Some(g) => self.next[g] = at,
            None => {
                self.first[player as usize] = at;
                self.players.push(player);
            }
        }
    }

    /// Each player's outcome from their sums, in the order of `players`, into `outcomes`.
    pub fn outcomes(
        &mut self,
        rules: &PeriodRules<'_>,
        state: &State,
        list: Month,
        outcomes: &mut Vec<Outcome>,
    ) {
        outcomes.clear();
        let window = rules.list.initial.window_months;
        let mut places = Vec::new();
        for i in 0..self.players.len() {
            let p = self.players[i] as usize;
            places.clear();
            places.extend(self.groups_of(p as PlayerId));
            self.scratch.clear();
            self.scratch.extend(places.iter().map(|&g| self.groups[g]));
            // Read across pieces, the groups come in the period's order only once sorted.
            self.scratch.sort_by_key(GroupSums::place);
            let standing = newcomers::standing(state, p, list, window);
            let outcome = fide::rate_from_sums(rules, standing, &mut self.scratch);
            // The decisions written back: a player's groups are found by what they hold, so their
            // order among the player's places does not matter.
            for (&g, sums) in places.iter().zip(&self.scratch) {
                self.groups[g] = *sums;
            }
            if let Outcome::Rated { games, .. } = outcome {
                self.rated_games[p] = games;
            }
            outcomes.push(outcome);
        }
    }

    /// Piece `piece`'s records, one per side of `index`, in parallel over blocks of players. A
    /// side that `fold` did not sum means the piece changed between its reads: `None`.
    pub fn records(
        &self,
        frozen: &Frozen<'_>,
        rules: &PeriodRules<'_>,
        index: &PlayerIndex,
        piece: u32,
        results: &mut Vec<SideRecord>,
    ) -> Option<()> {
        results.clear();
        results.resize(index.sides.len(), SideRecord::default());
        let state = frozen.lists.state;
        index
            .blocks(results)
            .into_par_iter()
            .try_for_each(|(players, results)| {
                let base = index.offsets[players.start];
                for i in players {
                    let player = index.players[i];
                    let rated = state.list[player as usize].rated;
                    let rated_games = self.rated_games[player as usize];
                    let sides = &index.sides[index.offsets[i]..index.offsets[i + 1]];
                    let out = &mut results[index.offsets[i] - base..index.offsets[i + 1] - base];
                    for (side, result) in sides.iter().zip(out) {
                        let s = frozen.side(player, *side);
                        let group = self
                            .groups_of(player)
                            .map(|g| &self.groups[g])
                            .find(|g| g.holds(&s))?;
                        let at = || place_in_list(frozen, piece, side.pos);
                        let pd = fide::side_pd(rules, &s);
                        *result =
                            fide::side_record(rules, (rated, rated_games), (&s, pd), group, at);
                    }
                }
                Some(())
            })
    }
}
