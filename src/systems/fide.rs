//! FIDE's standard rating calculation for one player in one rating period (reference §3–§6, §4's
//! monthly algorithm), given the player's games as seen from the lists in force when each
//! tournament started. The replay calls it for every player in parallel on frozen lists, then
//! applies the outcomes.
//!
//! A period is calculated one way, from sums: a player's games are summed per group (one event
//! under one own rating, K and era, `GroupSums`), the player is rated from the sums
//! (`rate_from_sums`), then each game is recorded (`side_record`). A list read whole sums each
//! player's games at once (`rate_player`); a list rated in pieces sums them piece by piece and
//! merges the sums, so that memory follows the players, not the games.

use crate::model::{Day, HalfPoints, PlayerId, SideRecord};
use crate::rules::diff_cap::{CappedPd, Upgrade};
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
    /// The tournament's start (a game without an event: its own), and its era.
    pub start: Day,
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

/// Rates one player's period from the player's games read whole, in the schedule's order:
/// summed into `scratch.groups`, rated from the sums, each side recorded into `out`. `at(i)` is
/// side i's place in the list's order, asked only of a game that could take its event's upgrade.
pub fn rate_player(
    rules: &PeriodRules<'_>,
    (rated, has_counted_results): (bool, bool),
    sides: &[SideInput],
    at: impl Fn(usize) -> ReadAt,
    scratch: &mut Groups,
    out: &mut [SideRecord],
) -> Outcome {
    scratch.clear();
    sum_sides(rules, sides, &at, scratch);
    // The schedule's order is the period's: the groups, made as first read, are in it.
    let outcome = rate_from_sums(rules, (rated, has_counted_results), &mut scratch.groups);
    let rated_games = outcome.rated_games();
    for (i, ((s, result), &(g, pd))) in sides.iter().zip(out).zip(&scratch.of).enumerate() {
        let group = &scratch.groups[g as usize];
        *result = side_record(rules, (rated, rated_games), (s, pd), group, || at(i));
    }
    outcome
}

/// A player's groups and, per side summed, the index of its group and its PD.
#[derive(Default)]
pub struct Groups {
    pub groups: Vec<GroupSums>,
    of: Vec<(u32, Option<CappedPd>)>,
}

impl Groups {
    pub fn clear(&mut self) {
        self.groups.clear();
        self.of.clear();
    }
}

/// Adds a player's `sides` to their groups (the player's only), a group for each event, own
/// rating and K and era, in the order first read; `at(i)` as for `rate_player`.
#[inline]
pub fn sum_sides(
    rules: &PeriodRules<'_>,
    sides: &[SideInput],
    at: impl Fn(usize) -> ReadAt,
    scratch: &mut Groups,
) {
    let groups = &mut scratch.groups;
    for (i, s) in sides.iter().enumerate() {
        let g = match groups.iter().position(|g| g.holds(s)) {
            Some(g) => g,
            None => {
                groups.push(GroupSums::new(s));
                groups.len() - 1
            }
        };
        let pd = side_pd(rules, s);
        groups[g].add(s, pd, || at(i));
        scratch.of.push((g as u32, pd));
    }
}

impl Outcome {
    /// A rated player's rated games this period (0 for an unrated player).
    pub fn rated_games(&self) -> u32 {
        match *self {
            Outcome::Rated { games, .. } => games,
            Outcome::Unrated { .. } => 0,
        }
    }
}

/// A side's place in its list's canonical order: its game's own start, players and score (an
/// event's games are ordered so), then where it was read (its piece, 0 for a list read whole, and
/// its place in the piece), which orders identical games as the input does. Ordered field by field,
/// as declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ReadAt {
    pub start: Day,
    pub white: PlayerId,
    pub black: PlayerId,
    pub score: HalfPoints,
    pub piece: u32,
    pub position: u32,
}

impl ReadAt {
    /// The place of the game at `position` of a list read whole: its schedule holds the list in
    /// its canonical order, so its position alone orders it.
    pub fn in_list_read_whole(position: u32) -> ReadAt {
        ReadAt {
            start: Day::from_index(0),
            white: 0,
            black: 0,
            score: 0,
            piece: 0,
            position,
        }
    }
}

/// A player's games in one group of a period, summed: one event (a period's games without an event
/// are one), under one own rating and K and one era.
#[derive(Clone, Copy, Debug)]
pub struct GroupSums {
    event: u32,
    era: u16,
    own: Option<(i32, u8)>,
    /// The earliest tournament start of its games: with `event`, the group's place in the
    /// period's canonical order, in which an unrated player's events meet the gate.
    start: Day,
    /// Games with a rated opponent (or counted against a tournament's ratings).
    rated_games: u32,
    /// Σ (score − PD) in hundredths over those games, each with the 350/400-point rule of its own
    /// difference, none with a once-per-event upgrade.
    base: i64,
    /// The game the upgrade would go to among the group's games whose difference the scope
    /// limits.
    upgrade: Option<Upgrade<ReadAt>>,
    /// The results an unrated player's pool would take from the group.
    pooled: PooledResults,
    /// A round robin's games rated by the tournament-rating rule (reference §6.5).
    round_robin: bool,
    /// Decided with the player's outcome: whether `upgrade` is its event's one upgrade, and whether
    /// an unrated player's results of the event count.
    upgraded: bool,
    counted: bool,
}

impl GroupSums {
    /// An empty group for the games like `s`.
    fn new(s: &SideInput) -> GroupSums {
        GroupSums {
            event: s.event,
            era: s.era,
            own: s.own,
            start: s.start,
            rated_games: 0,
            base: 0,
            upgrade: None,
            pooled: PooledResults::default(),
            round_robin: false,
            upgraded: false,
            counted: false,
        }
    }

    /// What the group's games share: their event, era and own rating and K.
    fn key(&self) -> (u32, u16, Option<(i32, u8)>) {
        (self.event, self.era, self.own)
    }

    /// The group's place in the period's order.
    pub fn place(&self) -> (Day, u32) {
        (self.start, self.event)
    }

    /// Whether side `s` belongs to this group.
    pub fn holds(&self, s: &SideInput) -> bool {
        self.key() == (s.event, s.era, s.own)
    }

    /// Whether `other` sums games of the same group (from another piece).
    pub fn same_group(&self, other: &GroupSums) -> bool {
        self.key() == other.key()
    }

    /// Adds side `s` of PD `pd` (`side_pd`), read at `at()` (later than every side added so far).
    #[inline]
    fn add(&mut self, s: &SideInput, pd: Option<CappedPd>, at: impl FnOnce() -> ReadAt) {
        self.start = self.start.min(s.start);
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
        let Some(pd) = pd else {
            return;
        };
        self.base += i64::from(i32::from(s.score) * 50 - pd.plain);
        if let Some(candidate) = Upgrade::of(pd, at) {
            self.upgrade = Upgrade::better(self.upgrade, Some(candidate));
        }
    }

    /// Adds the same group's sums from a later piece.
    pub fn merge(&mut self, later: &GroupSums) {
        self.start = self.start.min(later.start);
        self.rated_games += later.rated_games;
        self.base += later.base;
        self.pooled.add(later.pooled);
        self.round_robin |= later.round_robin;
        self.upgrade = Upgrade::better(self.upgrade, later.upgrade);
    }
}

/// Rates one player's period from the sums of their games. `groups` are the player's groups in
/// the period's order (by start, then event, then as first read); it decides each event's upgrade
/// and whether an unrated player's events count, for `side_record`.
#[inline]
pub fn rate_from_sums(
    rules: &PeriodRules<'_>,
    (rated, has_counted_results): (bool, bool),
    groups: &mut [GroupSums],
) -> Outcome {
    if rated {
        rate_rated(rules, groups)
    } else {
        pool_unrated(rules, has_counted_results, groups)
    }
}

/// Reference §4: change = round(Σ over tournaments of K × Σ(score − PD)), K from the player's
/// list, reduced by the K × n cap over all the period's games (§3.3). Each event's upgrade (an
/// era's rule) goes to its greatest limited difference under that era, the first in the list's
/// order of equals (§3.4).
fn rate_rated(rules: &PeriodRules<'_>, groups: &mut [GroupSums]) -> Outcome {
    let rated_games: u32 = groups.iter().map(|g| g.rated_games).sum();
    let candidates = groups.iter().any(|g| g.upgrade.is_some());
    for i in (0..groups.len()).filter(|_| candidates) {
        let (event, era) = (groups[i].event, groups[i].era);
        let best = groups
            .iter()
            .filter(|g| g.event == event && g.era == era)
            .fold(None, |best, g| Upgrade::better(best, g.upgrade));
        groups[i].upgraded = best.is_some() && best == groups[i].upgrade;
    }
    let change_of = |g: &GroupSums| -> i64 {
        let Some((_, k)) = g.own else { return 0 };
        let k = rules
            .timeline
            .era(usize::from(g.era))
            .k
            .capped(k, rated_games);
        let gain = g.upgrade.filter(|_| g.upgraded).map_or(0, |u| u.gain);
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

/// Reference §6: an unrated player's results against rated opponents, event by event in the
/// period's order through the gate of the era of the event's first game ("If an unrated player
/// scores zero in their first event this score is disregarded"). A round robin rated by the
/// tournament-rating rule has passed its own gate (§6.5) and counts every game that stands,
/// against the tournament average.
fn pool_unrated(
    rules: &PeriodRules<'_>,
    mut has_counted_results: bool,
    groups: &mut [GroupSums],
) -> Outcome {
    debug_assert!(groups.is_sorted_by_key(GroupSums::place));
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

/// Reference §3.3–§3.4: the PD of a rated player's game against a rated opponent under the
/// 350/400-point rule of the era of its tournament's start (`None` for any other game).
#[inline]
pub fn side_pd(rules: &PeriodRules<'_>, s: &SideInput) -> Option<CappedPd> {
    let (Some((own, _)), Some(opponent)) = (s.own, s.opponent) else {
        return None;
    };
    Some(
        rules
            .timeline
            .era(usize::from(s.era))
            .diff_cap
            .pd(own, opponent),
    )
}

/// One side's record once the player's outcome is known: `rated_games` is the player's rated
/// games this period, `pd` the side's (`side_pd`), `group` its group, `at()` its place in the
/// list's order. A rated player's game (reference §3.3–§4): the K of its list after the K × n
/// cap, the PD after the 350/400-point rule (the event's upgrade if it is this game),
/// K × (score − PD).
#[inline]
pub fn side_record(
    rules: &PeriodRules<'_>,
    (rated, rated_games): (bool, u32),
    (s, pd): (&SideInput, Option<CappedPd>),
    group: &GroupSums,
    at: impl FnOnce() -> ReadAt,
) -> SideRecord {
    if !rated {
        let counted = group.counted && s.opponent.is_some();
        return SideRecord {
            counted,
            counted_against: s.opponent.filter(|_| counted && s.tournament),
            ..SideRecord::default()
        };
    }
    let (Some((own, k)), Some(opponent), Some(pd)) = (s.own, s.opponent, pd) else {
        return SideRecord {
            rating: s.own.map(|(r, _)| r),
            ..SideRecord::default()
        };
    };
    let upgraded =
        pd.upgraded.is_some() && group.upgraded && group.upgrade.is_some_and(|u| u.at == at());
    let counted = pd.counted(upgraded);
    let k = rules
        .timeline
        .era(usize::from(s.era))
        .k
        .capped(k, rated_games);
    SideRecord {
        rating: Some(own),
        k: Some(k),
        pd: Some(counted as u8),
        change: Some(i32::from(k) * (i32::from(s.score) * 50 - counted)),
        capped: pd.capped(upgraded),
        counted: true,
        counted_against: s.tournament.then_some(opponent),
    }
}
