//! FIDE's standard rating calculation for one player in one rating period (reference §3–§6, §4's
//! monthly algorithm), given the player's games as seen from the lists in force when each
//! tournament started. The replay calls it for every player in parallel on frozen lists, then
//! applies the outcomes.

use crate::model::{Day, HalfPoints, PlayerId, SideRecord};
use crate::rules::diff_cap::takes_upgrade;
use crate::rules::expected::fide_pd;
use crate::rules::rounding::round_hundredths;
use crate::rules::{DiffCap, PooledResults, Regulations, Rounding, Timeline};

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
        let upgraded = |cap: &DiffCap, own| is_upgraded_game(cap, own, i, sides);
        *result = rated_side(rules, s, rated_games, upgraded);
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

/// One side of a rated player's game (reference §3.3–§4): the K of its list after the K × n cap
/// over the period's `rated_games`, the PD after the 350/400-point rule, and K × (score − PD).
/// `upgraded(cap, own)` says whether, under a once-per-event scope, this game is its event's one
/// upgrade; it is asked only of a game whose difference the scope limits.
fn rated_side(
    rules: &PeriodRules<'_>,
    s: &SideInput,
    rated_games: u32,
    upgraded: impl FnOnce(&DiffCap, i32) -> bool,
) -> SideRecord {
    let (Some((own, k)), Some(opponent)) = (s.own, s.opponent) else {
        return SideRecord {
            rating: s.own.map(|(r, _)| r),
            ..SideRecord::default()
        };
    };
    let era = rules.timeline.era(usize::from(s.era));
    let cap = &era.diff_cap;
    let diff = own - opponent;
    let capped = cap.covers(own) && cap.exceeds(diff) && (!cap.limited(diff) || upgraded(cap, own));
    let pd = fide_pd(if capped { cap.clamp(diff) } else { diff });
    let k = era.k.capped(k, rated_games);
    SideRecord {
        rating: Some(own),
        k: Some(k),
        pd: Some(pd as u8),
        change: Some(i32::from(k) * (i32::from(s.score) * 50 - pd)),
        capped,
        counted: true,
        counted_against: s.tournament.then_some(opponent),
    }
}

/// Under a once-per-event scope, whether game `i` is the one of its event that gets the upgrade
/// (`DiffCap::upgraded_game`, reference §3.4, 2022–24).
fn is_upgraded_game(cap: &DiffCap, own: i32, i: usize, sides: &[SideInput]) -> bool {
    let (event, era) = (sides[i].event, sides[i].era);
    // Each game's difference from its own rating, which an event's games share; a period's games
    // without an event may start under different lists and eras, and the upgrade is the rule of
    // one era, chosen among its games.
    let games = sides
        .iter()
        .enumerate()
        .filter(|(_, o)| o.event == event && o.era == era)
        .filter_map(|(j, o)| {
            let own = o.own.map_or(own, |(r, _)| r);
            Some((j, own, own - o.opponent?))
        });
    cap.upgraded_game(games) == Some(i)
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

/// A side's place in its list's canonical order, in a period rated in pieces: its game's own start,
/// players and score (an event's games are ordered so), then where it was read (its piece and its
/// place in the piece), which orders identical games as the input does. Ordered field by field, as
/// declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ReadAt {
    pub start: Day,
    pub white: PlayerId,
    pub black: PlayerId,
    pub score: HalfPoints,
    pub piece: u32,
    pub position: u32,
}

/// A player's games in one group of a period rated in pieces, summed: one event (a period's games
/// without an event are one), under one own rating and K and one era. It is what a period read in
/// pieces keeps of a player's games: memory follows the players and their events, not the games.
#[derive(Clone, Copy, Debug)]
pub struct GroupSums {
    pub event: u32,
    pub era: u16,
    pub own: Option<(i32, u8)>,
    /// The earliest tournament start of its games: with `event`, the group's place in the
    /// period's canonical order, in which an unrated player's events meet the gate.
    start: Day,
    /// Games with a rated opponent (or counted against a tournament's ratings).
    rated_games: u32,
    /// Σ (score − PD) in hundredths over those games, each with the 350/400-point rule of its own
    /// difference, none with a once-per-event upgrade.
    base: i64,
    /// The game the upgrade would go to among the group's games whose difference the scope
    /// limits: the greatest difference, the first read of equals.
    upgrade: Option<Upgrade>,
    /// The results an unrated player's pool would take from the group.
    pooled: PooledResults,
    /// A round robin's games rated by the tournament-rating rule (reference §6.5).
    round_robin: bool,
    /// Decided with the player's outcome: the event's one upgrade, and whether an unrated player's
    /// results of the event count.
    chosen: Option<ReadAt>,
    counted: bool,
}

#[derive(Clone, Copy, Debug)]
struct Upgrade {
    size: i32,
    /// (score − PD) with the upgrade minus without it, in hundredths.
    gain: i32,
    at: ReadAt,
}

impl GroupSums {
    /// An empty group for the games like `s`, whose tournament started on `start`.
    pub fn new(s: &SideInput, start: Day) -> GroupSums {
        GroupSums {
            event: s.event,
            era: s.era,
            own: s.own,
            start,
            rated_games: 0,
            base: 0,
            upgrade: None,
            pooled: PooledResults::default(),
            round_robin: false,
            chosen: None,
            counted: false,
        }
    }

    /// What the group's games share: their event, era and own rating and K.
    fn key(&self) -> (u32, u16, Option<(i32, u8)>) {
        (self.event, self.era, self.own)
    }

    /// Whether side `s` belongs to this group.
    pub fn holds(&self, s: &SideInput) -> bool {
        self.key() == (s.event, s.era, s.own)
    }

    /// Whether `other` sums games of the same group (from another piece).
    pub fn same_group(&self, other: &GroupSums) -> bool {
        self.key() == other.key()
    }

    /// Adds side `s`, read at `at` (later than every side added so far), of a tournament that
    /// started on `start`.
    pub fn add(&mut self, rules: &PeriodRules<'_>, s: &SideInput, start: Day, at: ReadAt) {
        self.start = self.start.min(start);
        let Some(opponent) = s.opponent else {
            return;
        };
        self.rated_games += 1;
        self.round_robin |= s.tournament;
        self.pooled.add(PooledResults {
            games: 1,
            half_points: u32::from(s.score),
            opponents: i64::from(opponent),
        });
        let Some((own, _)) = s.own else {
            return;
        };
        let cap = &rules.timeline.era(usize::from(s.era)).diff_cap;
        let diff = own - opponent;
        let exceeds = cap.covers(own) && cap.exceeds(diff);
        let plain = fide_pd(if exceeds && !cap.limited(diff) {
            cap.clamp(diff)
        } else {
            diff
        });
        self.base += i64::from(i32::from(s.score) * 50 - plain);
        let candidate = Upgrade {
            size: diff.abs(),
            gain: plain - fide_pd(cap.clamp(diff)),
            at,
        };
        if exceeds && cap.limited(diff) && self.upgrade.is_none_or(|u| candidate.beats(u)) {
            self.upgrade = Some(candidate);
        }
    }

    /// Adds the same group's sums from a later piece.
    pub fn merge(&mut self, later: &GroupSums) {
        self.start = self.start.min(later.start);
        self.rated_games += later.rated_games;
        self.base += later.base;
        self.pooled.add(later.pooled);
        self.round_robin |= later.round_robin;
        if let Some(u) = later.upgrade {
            if self.upgrade.is_none_or(|mine| u.beats(mine)) {
                self.upgrade = Some(u);
            }
        }
    }
}

impl Upgrade {
    /// Whether this game, rather than `other`, gets its event's upgrade: the greater difference,
    /// the first in the list's order of equals (reference §3.4, 2022–24).
    fn beats(self, other: Upgrade) -> bool {
        takes_upgrade(self.size, self.at, Some((other.size, other.at)))
    }
}

/// Rates one player's period from the sums of their games (a period rated in pieces): the same
/// outcome as `rate_player` over the same games. `groups` are the player's groups in the order
/// they were first read; it decides each event's upgrade and whether an unrated player's events
/// count, for `side_from_sums`.
pub fn rate_from_sums(
    rules: &PeriodRules<'_>,
    rated: bool,
    has_counted_results: bool,
    groups: &mut [GroupSums],
) -> Outcome {
    if rated {
        rate_rated_from_sums(rules, groups)
    } else {
        pool_unrated_from_sums(rules, has_counted_results, groups)
    }
}

/// `rate_rated` over sums: each event's upgrade (an era's rule) goes to its greatest limited
/// difference under that era, the first in the list's order of equals; K is capped over all the
/// period's rated games.
fn rate_rated_from_sums(rules: &PeriodRules<'_>, groups: &mut [GroupSums]) -> Outcome {
    let rated_games: u32 = groups.iter().map(|g| g.rated_games).sum();
    for i in 0..groups.len() {
        let (event, era) = (groups[i].event, groups[i].era);
        let best = groups
            .iter()
            .filter(|g| g.event == event && g.era == era)
            .filter_map(|g| g.upgrade)
            .reduce(|a, b| if b.beats(a) { b } else { a });
        groups[i].chosen = best.map(|u| u.at);
    }
    let change_of = |g: &GroupSums| -> i64 {
        let Some((_, k)) = g.own else { return 0 };
        let k = rules
            .timeline
            .era(usize::from(g.era))
            .k
            .capped(k, rated_games);
        let gain = g
            .upgrade
            .filter(|u| Some(u.at) == g.chosen)
            .map_or(0, |u| u.gain);
        i64::from(k) * (g.base + i64::from(gain))
    };
    let change = match rules.list.rounding {
        Rounding::PerPeriod => round_hundredths(groups.iter().map(change_of).sum()),
        Rounding::PerTournament => (0..groups.len())
            .filter(|&i| groups[..i].iter().all(|g| g.event != groups[i].event))
            .map(|i| {
                let event = groups[i].event;
                round_hundredths(
                    groups
                        .iter()
                        .filter(|g| g.event == event)
                        .map(change_of)
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

/// `pool_unrated` over sums: the events in canonical order, each through the gate of its first
/// game's era.
fn pool_unrated_from_sums(
    rules: &PeriodRules<'_>,
    mut has_counted_results: bool,
    groups: &mut [GroupSums],
) -> Outcome {
    groups.sort_by_key(|g| (g.start, g.event));
    let mut counted = PooledResults::default();
    for i in 0..groups.len() {
        let event = groups[i].event;
        if groups[..i].iter().any(|g| g.event == event) {
            continue;
        }
        let mut results = PooledResults::default();
        let mut round_robin = false;
        for g in groups.iter().filter(|g| g.event == event) {
            results.add(g.pooled);
            round_robin |= g.round_robin;
        }
        let gate = &rules.timeline.era(usize::from(groups[i].era)).initial.gate;
        if results.games > 0 && (round_robin || gate.counts(&results, has_counted_results)) {
            counted.add(results);
            has_counted_results = true;
            for g in groups.iter_mut().filter(|g| g.event == event) {
                g.counted = true;
            }
        }
    }
    Outcome::Unrated { counted }
}

/// One side's record in a period rated in pieces, once the player's outcome is known: `group` is
/// the side's group, `rated_games` the player's rated games this period.
pub fn side_from_sums(
    rules: &PeriodRules<'_>,
    rated: bool,
    s: &SideInput,
    group: &GroupSums,
    rated_games: u32,
    at: ReadAt,
) -> SideRecord {
    if rated {
        return rated_side(rules, s, rated_games, |_, _| group.chosen == Some(at));
    }
    let counted = group.counted && s.opponent.is_some();
    SideRecord {
        counted,
        counted_against: s.opponent.filter(|_| counted && s.tournament),
        ..SideRecord::default()
    }
}
