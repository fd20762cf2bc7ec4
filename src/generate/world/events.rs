//! Tournaments: Swiss opens paired round by round by score and by the rating the organiser sees,
//! and round robins among similar players (Berger tables). Pairing and playing interleave, since a
//! Swiss round's pairings depend on the results so far.

use crate::model::{Day, EventType, Month};

use super::people::Player;
use super::play::OrganiserRatings;
use super::{Settings, SplitMix64};

/// One event of a month, before it is played.
#[derive(Clone, Debug)]
pub struct EventPlan {
    pub kind: EventType,
    /// Player indices.
    pub players: Vec<usize>,
    pub rounds: u32,
    pub start: Day,
    /// The list its games are rated on: the first month after it ends.
    pub period: Month,
}

/// Rounds of a Swiss: 5 to 11, nine the most common.
const SWISS_ROUNDS: [u32; 11] = [5, 6, 7, 7, 8, 9, 9, 9, 9, 10, 11];

/// Rounds of a month's league play, a round a week: FIDE's February 2025 list counts 8,150 players
/// who played one rated game that month, 5,592 two, 3,112 three and 2,672 four, of 34,576 from 1400
/// (`data/fide-lists-2025/`); one to four in the ratio 4 : 3 : 2 : 1.
const LEAGUE_ROUNDS: [u32; 10] = [1, 1, 1, 1, 2, 2, 2, 3, 3, 4];

/// A player who plays an event this month, with their strength and the draw (uniform, from their
/// own stream) that chooses the kind of event.
#[derive(Clone, Copy, Debug)]
pub struct Entrant {
    pub player: usize,
    pub strength: f64,
    pub choice: f64,
    /// The chance that their month's play is league rounds (one to four games): a league
    /// member's `events.league_share` (`Player::is_league_member`), else 0; a listed player's in
    /// a world whose activity comes from FIDE's lists, their cell's share who played at most four
    /// games (`fide_activity`).
    pub few: f64,
    /// In such a world, the games a listed player of their cell plays in a month of whole events
    /// on FIDE's list (`Fide::long_games`); 0 otherwise, where the opens' rounds are the model's.
    pub long: f64,
}

/// Splits a month's players into events: league rounds (the zone's league players sorted by the
/// organisers' ratings and cut into divisions, where boards meet their like), round robins among
/// players the organisers rate alike (strong players choose them more often), international opens
/// (where regions mix), and their region's opens, some of them in rating sections (the region's
/// entrants sorted by the organisers' ratings and cut into consecutive groups, as rating-limited
/// sections and junior events keep players among their own level). A region too small for an open
/// sends its players to the international ones.
pub fn plan_month(
    entrants: &[Entrant],
    players: &[Player],
    organisers: &OrganiserRatings,
    settings: &Settings,
    month: Month,
    rng: &mut SplitMix64,
) -> Vec<EventPlan> {
    let regions = settings.regions as usize;
    let mut regional: Vec<Vec<usize>> = vec![Vec::new(); regions];
    let mut sectioned: Vec<Vec<usize>> = vec![Vec::new(); regions];
    let mut international = Vec::new();
    let mut round_robin = Vec::new();
    let mut league = Vec::new();
    for e in entrants {
        let region = usize::from(players[e.player].region);
        match choose(e, organisers.get(e.player), settings) {
            Choice::League => league.push(e.player),
            Choice::RoundRobin => round_robin.push(e.player),
            Choice::International => international.push(e.player),
            Choice::Section => sectioned[region].push(e.player),
            Choice::Open => regional[region].push(e.player),
        }
    }
    let swiss_sizes = (u64::from(settings.swiss_min), u64::from(settings.swiss_max));
    let round_robin_sizes = (
        u64::from(settings.round_robin_min),
        u64::from(settings.round_robin_max),
    );
    let by_rating = |pool: &mut Vec<usize>| {
        pool.sort_by(|&a, &b| {
            let r = |p: usize| organisers.get(p).unwrap_or(f64::NEG_INFINITY);
            r(b).total_cmp(&r(a)).then(a.cmp(&b))
        })
    };
    let mut plans = Vec::new();
    for (mut open, mut sections) in regional.into_iter().zip(sectioned) {
        if (sections.len() as u64) < swiss_sizes.0 {
            open.append(&mut sections);
        }
        if (open.len() as u64) < swiss_sizes.0 {
            international.append(&mut open);
        } else {
            shuffle(&mut open, rng);
            swiss_events(open, swiss_sizes, &OPEN, month, rng, &mut plans);
        }
        if !sections.is_empty() {
            by_rating(&mut sections);
            swiss_events(sections, swiss_sizes, &OPEN, month, rng, &mut plans);
        }
    }
    shuffle(&mut international, rng);
    swiss_events(international, swiss_sizes, &OPEN, month, rng, &mut plans);
    lengthen_opens(&mut plans, entrants);
    by_rating(&mut round_robin);
    for group in cut(&round_robin, round_robin_sizes, rng) {
        let rounds = (group.len() - 1 + group.len() % 2) as u32;
        plans.push(plan(
            EventType::RoundRobin,
            group,
            rounds,
            rounds + 1,
            month,
            rng,
        ));
    }
    by_rating(&mut league);
    let league_sizes = (
        u64::from(settings.league_min),
        u64::from(settings.league_max),
    );
    swiss_events(league, league_sizes, &LEAGUE, month, rng, &mut plans);
    plans
}

/// In a world whose activity comes from FIDE's lists, an open or a section plays as many rounds as
/// its listed players play in a month of whole events on FIDE's list, on average (from 6 games
/// among new adults of 1400–1799 to 11 among K 10 players of 2500 and up): a section of strong
/// players plays more rounds than a weekend open of beginners. Opens without listed players keep
/// their rounds.
fn lengthen_opens(plans: &mut [EventPlan], entrants: &[Entrant]) {
    let long: std::collections::HashMap<usize, f64> = entrants
        .iter()
        .filter(|e| e.long > 0.0)
        .map(|e| (e.player, e.long))
        .collect();
    if long.is_empty() {
        return;
    }
    for plan in plans {
        let wanted: Vec<f64> = plan
            .players
            .iter()
            .filter_map(|p| long.get(p).copied())
            .collect();
        if wanted.is_empty() {
            continue;
        }
        let rounds = (wanted.iter().sum::<f64>() / wanted.len() as f64).round();
        plan.rounds = rounds.clamp(5.0, 13.0) as u32;
        plan.period = rated_on(plan.start, (OPEN.days)(plan.rounds));
    }
}

/// The kind of event an entrant plays this month.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    /// A month's rounds of their club's league team.
    League,
    RoundRobin,
    International,
    /// A rating section of their region's open.
    Section,
    /// Their region's open Swiss.
    Open,
}

/// What `e` plays, by their draw: league rounds (a share `Entrant::few` of their months of play),
/// else a round robin (strong players more often), an international open, or their
/// region's open, in a rating section or not. Rating-limited sections are capped above ("under
/// 2000"), so a player the organisers rate at `events.sections_below` or more plays the open Swiss,
/// where they meet weaker players (docs/generate.md).
fn choose(e: &Entrant, organisers_rating: Option<f64>, settings: &Settings) -> Choice {
    let mut choice = e.choice;
    if e.few > 0.0 {
        if choice < e.few {
            return Choice::League;
        }
        // The rest of the draw chooses among the events, as a non-member's whole draw does.
        choice = (choice - e.few) / (1.0 - e.few);
    }
    let round_robin_share = settings.round_robin_share(e.strength);
    let open = round_robin_share + settings.international_share;
    if choice < round_robin_share {
        Choice::RoundRobin
    } else if choice < open {
        Choice::International
    } else if (choice - open) / (1.0 - open) < settings.sectioned_share
        && organisers_rating.is_none_or(|r| r < settings.sections_below)
    {
        Choice::Section
    } else {
        Choice::Open
    }
}

/// How a kind of Swiss is played: its rounds, drawn uniformly from the table, and the days they take.
struct Schedule {
    rounds: &'static [u32],
    days: fn(u32) -> u32,
}

/// Opens are played over weekends and holidays: about two rounds a day.
const OPEN: Schedule = Schedule {
    rounds: &SWISS_ROUNDS,
    days: |rounds| rounds.div_ceil(2) + 1,
};

/// A league plays a round a week.
const LEAGUE: Schedule = Schedule {
    rounds: &LEAGUE_ROUNDS,
    days: |rounds| 7 * (rounds - 1) + 1,
};

/// Swiss events of consecutive groups of `pool`, in its order.
fn swiss_events(
    pool: Vec<usize>,
    sizes: (u64, u64),
    schedule: &Schedule,
    month: Month,
    rng: &mut SplitMix64,
    plans: &mut Vec<EventPlan>,
) {
    for group in cut(&pool, sizes, rng) {
        let rounds = schedule.rounds[rng.below(schedule.rounds.len() as u64) as usize];
        plans.push(plan(
            EventType::Swiss,
            group,
            rounds,
            (schedule.days)(rounds),
            month,
            rng,
        ));
    }
}

/// Consecutive groups of sizes drawn from `sizes`; a remainder too small for an event joins the
/// last group.
fn cut(pool: &[usize], sizes: (u64, u64), rng: &mut SplitMix64) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut rest = pool;
    while !rest.is_empty() {
        let size = (sizes.0 + rng.below(sizes.1 - sizes.0 + 1)) as usize;
        if rest.len() < sizes.0 as usize {
            match groups.last_mut() {
                Some(last) => last.extend_from_slice(rest),
                None if rest.len() >= 2 => groups.push(rest.to_vec()),
                None => {}
            }
            break;
        }
        let (group, after) = rest.split_at(size.min(rest.len()));
        groups.push(group.to_vec());
        rest = after;
    }
    groups
}

fn plan(
    kind: EventType,
    players: Vec<usize>,
    rounds: u32,
    days: u32,
    month: Month,
    rng: &mut SplitMix64,
) -> EventPlan {
    let first = month.first_day();
    let start = first.plus(rng.below(28) as i32);
    EventPlan {
        kind,
        players,
        rounds,
        start,
        period: rated_on(start, days),
    }
}

/// The list an event starting on `start` and lasting `days` is rated on: the month after its
/// last day.
fn rated_on(start: Day, days: u32) -> Month {
    start.plus(days as i32 - 1).month().plus(1)
}

fn shuffle(v: &mut [usize], rng: &mut SplitMix64) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

/// White's score in half points for a game between two players of the event (by their index).
pub type Play<'a> = dyn FnMut(usize, usize) -> u8 + 'a;

/// A Swiss tournament of `rounds` rounds among players whose organiser ratings are `seen`
/// (`None`: unrated, ranked last). Simplified Dutch system: within each score group, sorted by
/// rating, the top half meets the bottom half; players who cannot be paired without a rematch
/// float down; an odd player out gets a bye (a point, no game).
pub fn swiss(seen: &[Option<f64>], rounds: u32, rng: &mut SplitMix64, play: &mut Play<'_>) {
    let n = seen.len();
    if n < 2 {
        return;
    }
    let mut score = vec![0u32; n];
    let mut colour = vec![0i32; n];
    let mut had_bye = vec![false; n];
    let mut met = Met::new(n, rounds);
    let by_rating = by_rating(seen);
    let mut order = Vec::with_capacity(n);
    for _ in 0..rounds {
        by_score(&by_rating, &score, &mut order);
        if n % 2 == 1 {
            let bye = order
                .iter()
                .rposition(|&p| !had_bye[p])
                .unwrap_or(order.len() - 1);
            let p = order.remove(bye);
            had_bye[p] = true;
            score[p] += 2;
        }
        for (a, b) in pair_round(&order, &score, &met) {
            let (white, black) = colours(a, b, &colour, rng);
            let result = play(white, black);
            score[white] += u32::from(result);
            score[black] += u32::from(2 - result);
            colour[white] += 1;
            colour[black] -= 1;
            met.add(a, b);
        }
    }
}

/// The players by rating, highest first (unrated last), ties by index: the order within a score
/// group, the same every round.
fn by_rating(seen: &[Option<f64>]) -> Vec<usize> {
    let rating = |i: usize| seen[i].unwrap_or(f64::NEG_INFINITY);
    let mut order: Vec<usize> = (0..seen.len()).collect();
    order.sort_unstable_by(|&a, &b| rating(b).total_cmp(&rating(a)).then(a.cmp(&b)));
    order
}

/// The players by score, highest first, each score group in `by_rating`'s order (a counting sort
/// over the half points: rounds are few).
fn by_score(by_rating: &[usize], score: &[u32], order: &mut Vec<usize>) {
    let top = by_rating.iter().map(|&p| score[p]).max().unwrap_or(0) as usize;
    let mut starts = vec![0usize; top + 2];
    for &p in by_rating {
        starts[top - score[p] as usize + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    order.clear();
    order.resize(by_rating.len(), 0);
    for &p in by_rating {
        let at = &mut starts[top - score[p] as usize];
        order[*at] = p;
        *at += 1;
    }
}

/// Who has met whom in a Swiss: each player's opponents, at most one a round.
struct Met {
    rounds: usize,
    opponents: Vec<u32>,
    count: Vec<u32>,
}

impl Met {
    fn new(players: usize, rounds: u32) -> Met {
        let rounds = rounds as usize;
        Met {
            rounds,
            opponents: vec![0; players * rounds],
            count: vec![0; players],
        }
    }

    fn add(&mut self, a: usize, b: usize) {
        for (x, y) in [(a, b), (b, a)] {
            debug_assert!(
                (self.count[x] as usize) < self.rounds,
                "paired twice in a round"
            );
            self.opponents[x * self.rounds + self.count[x] as usize] = y as u32;
            self.count[x] += 1;
        }
    }

    fn have_met(&self, a: usize, b: usize) -> bool {
        let first = a * self.rounds;
        self.opponents[first..first + self.count[a] as usize].contains(&(b as u32))
    }
}

/// Pairs one round: score groups from the top, each folded (top half against bottom half), with
/// the players a group cannot pair carried down to the next.
fn pair_round(order: &[usize], score: &[u32], met: &Met) -> Vec<(usize, usize)> {
    let mut pairs = Vec::with_capacity(order.len() / 2);
    let mut carried: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let s = score[order[i]];
        let mut group = std::mem::take(&mut carried);
        while i < order.len() && score[order[i]] == s {
            group.push(order[i]);
            i += 1;
        }
        carried = fold(&group, met, &mut pairs);
    }
    // Players left at the bottom have all met: break up an earlier pair to make two new ones,
    // or as a last resort let them meet again.
    while let [a, b, ..] = carried[..] {
        carried.drain(..2);
        let fresh = |x: usize, y: usize| !met.have_met(x, y);
        let swap = pairs.iter().enumerate().find_map(|(k, &(c, d))| {
            if fresh(a, c) && fresh(b, d) {
                Some((k, (a, c), (b, d)))
            } else if fresh(a, d) && fresh(b, c) {
                Some((k, (a, d), (b, c)))
            } else {
                None
            }
        });
        match swap {
            Some((k, first, second)) => {
                pairs[k] = first;
                pairs.push(second);
            }
            None => pairs.push((a, b)),
        }
    }
    pairs
}

/// Pairs a score group, sorted by rating: each player, from the top, takes the first opponent not
/// yet met from the bottom half (the fold), else from the rest of the top half; returns the
/// players it could not pair.
fn fold(group: &[usize], met: &Met, pairs: &mut Vec<(usize, usize)>) -> Vec<usize> {
    let half = group.len() / 2;
    let mut taken = vec![false; group.len()];
    let mut unpaired = Vec::new();
    for i in 0..group.len() {
        if taken[i] {
            continue;
        }
        taken[i] = true;
        let a = group[i];
        let from = half.max(i + 1);
        let partner = (from..group.len())
            .chain(i + 1..from)
            .find(|&j| !taken[j] && !met.have_met(a, group[j]));
        match partner {
            Some(j) => {
                taken[j] = true;
                pairs.push((a, group[j]));
            }
            None => unpaired.push(a),
        }
    }
    unpaired
}

/// White to the player who has had Black more often; a coin decides ties.
fn colours(a: usize, b: usize, colour: &[i32], rng: &mut SplitMix64) -> (usize, usize) {
    match colour[a].cmp(&colour[b]) {
        std::cmp::Ordering::Less => (a, b),
        std::cmp::Ordering::Greater => (b, a),
        std::cmp::Ordering::Equal if rng.unit() < 0.5 => (a, b),
        std::cmp::Ordering::Equal => (b, a),
    }
}

/// A single round robin (Berger tables, the circle method): everyone meets everyone once.
pub fn round_robin(n: usize, play: &mut Play<'_>) {
    if n < 2 {
        return;
    }
    let slots = n + n % 2;
    let mut circle: Vec<usize> = (0..slots).collect();
    let mut whites = vec![0u32; n];
    for round in 0..slots - 1 {
        for board in 0..slots / 2 {
            let (a, b) = (circle[board], circle[slots - 1 - board]);
            if a >= n || b >= n {
                continue;
            }
            // White to whoever has had it less, so that colours stay balanced.
            if whites[a] < whites[b] || (whites[a] == whites[b] && round % 2 == 0) {
                whites[a] += 1;
                play(a, b);
            } else {
                whites[b] += 1;
                play(b, a);
            }
        }
        circle[1..].rotate_right(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_rated_above_the_sections_cap_play_the_open() {
        let mut settings = super::super::file::preset("fide-2001-2025").unwrap();
        settings.round_robin_share = 0.1;
        settings.round_robin_share_strong = 0.1;
        settings.international_share = 0.1;
        settings.sectioned_share = 0.5;
        settings.sections_below = 4000.0;
        let entrant = |choice| Entrant {
            player: 0,
            strength: 1500.0,
            choice,
            few: 0.0,
            long: 0.0,
        };
        let choices = |rating, settings: &Settings| {
            [0.05, 0.15, 0.3, 0.9].map(|c| choose(&entrant(c), rating, settings))
        };
        let uncapped = [
            Choice::RoundRobin,
            Choice::International,
            Choice::Section,
            Choice::Open,
        ];
        assert_eq!(choices(Some(2300.0), &settings), uncapped);
        settings.sections_below = 2000.0;
        let capped = [
            Choice::RoundRobin,
            Choice::International,
            Choice::Open,
            Choice::Open,
        ];
        assert_eq!(choices(Some(2000.0), &settings), capped);
        assert_eq!(choices(Some(1999.0), &settings), uncapped);
        assert_eq!(
            choices(None, &settings),
            uncapped,
            "an unrated player may play a section"
        );
    }

    /// An entrant's draw below their share of league months (`Entrant::few`) is a league round,
    /// and the rest of it chooses as the whole draw of an entrant without league months does;
    /// without them, an entrant never plays a league.
    #[test]
    fn entrants_play_their_share_of_months_in_league_rounds() {
        let settings = super::super::file::preset("fide-2001-2025").unwrap();
        let entrant = |choice, few| Entrant {
            player: 0,
            strength: 1500.0,
            choice,
            few,
            long: 0.0,
        };
        assert_eq!(
            choose(&entrant(0.39, 0.4), Some(1500.0), &settings),
            Choice::League
        );
        for c in [0.01, 0.2, 0.5, 0.9] {
            assert_eq!(
                choose(&entrant(0.4 + 0.6 * c, 0.4), Some(1500.0), &settings),
                choose(&entrant(c, 0.0), Some(1500.0), &settings),
            );
            assert_ne!(
                choose(&entrant(c, 0.0), Some(1500.0), &settings),
                Choice::League
            );
        }
    }

    /// The zone's league players are cut into divisions of `events.league_min` to `league_max`
    /// by the organisers' ratings, each a Swiss of one to four rounds, a round a week.
    #[test]
    fn league_divisions_keep_boards_among_their_like() {
        let settings = super::super::file::preset("fide-2001-2025").unwrap();
        let n = 200;
        let players: Vec<Player> = (0..n)
            .map(|i| {
                let rng = SplitMix64::new(i as u64);
                super::super::people::newcomer(10_000_001 + i as u32, 0, 2001.0, rng, &settings)
            })
            .collect();
        let mut organisers = OrganiserRatings::default();
        organisers.grow(n);
        // Ratings 7 points apart, in an order unrelated to the order of entry.
        let rating = |i: usize| 1000.0 + (7 * ((37 * i) % 200)) as f64;
        for i in 0..n {
            organisers.set(i, rating(i));
        }
        let entrants: Vec<Entrant> = (0..n)
            .map(|player| Entrant {
                player,
                strength: 1500.0,
                choice: 0.5,
                few: 1.0,
                long: 0.0,
            })
            .collect();
        let month = Month::new(2010, 3).unwrap();
        let plans = plan_month(
            &entrants,
            &players,
            &organisers,
            &settings,
            month,
            &mut SplitMix64::new(9),
        );
        let mut seen: Vec<usize> = plans.iter().flat_map(|p| p.players.clone()).collect();
        seen.sort_unstable();
        assert!(seen.into_iter().eq(0..n), "everyone plays exactly once");
        let mut rounds = std::collections::BTreeSet::new();
        let mut top = f64::INFINITY;
        for p in &plans {
            assert_eq!(p.kind, EventType::Swiss);
            assert!((8..=23).contains(&p.players.len()), "{}", p.players.len());
            assert!((1..=4).contains(&p.rounds));
            rounds.insert(p.rounds);
            // Divisions are consecutive in rating, from the top down.
            let (hi, lo) = p.players.iter().fold((f64::MIN, f64::MAX), |(hi, lo), &i| {
                (hi.max(rating(i)), lo.min(rating(i)))
            });
            assert!(hi <= top && hi - lo < 16.0 * 7.0 * 2.0, "{hi} {lo}");
            top = lo;
            let days = 7 * (p.rounds as i32 - 1);
            assert_eq!(p.period, p.start.plus(days).month().plus(1));
        }
        assert!(rounds.len() >= 3, "{rounds:?}");
    }

    #[test]
    fn a_round_robin_meets_everyone_once() {
        for n in [2, 5, 10] {
            let mut met = std::collections::BTreeSet::new();
            let mut whites = vec![0; n];
            round_robin(n, &mut |w, b| {
                assert!(met.insert((w.min(b), w.max(b))), "rematch {w}-{b}");
                whites[w] += 1;
                1
            });
            assert_eq!(met.len(), n * (n - 1) / 2);
            assert!(whites.iter().all(|&w| w + 1 >= (n - 1) / 2), "{whites:?}");
        }
    }

    #[test]
    fn a_swiss_has_no_rematches_and_pairs_leaders_together() {
        let seen: Vec<Option<f64>> = (0..40)
            .map(|i| (i != 39).then_some(2400.0 - 20.0 * i as f64))
            .collect();
        let mut rng = SplitMix64::new(3);
        let mut games = Vec::new();
        // The higher-rated player always wins.
        swiss(&seen, 7, &mut rng, &mut |w, b| {
            games.push((w, b));
            if seen[w].unwrap_or(0.0) >= seen[b].unwrap_or(0.0) {
                2
            } else {
                0
            }
        });
        assert_eq!(games.len(), 7 * 20);
        let mut pairs: Vec<(usize, usize)> =
            games.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), games.len(), "a rematch");
        // Round 1 folds the field: the top seed meets the 21st.
        assert!(games[..20]
            .iter()
            .any(|&(a, b)| (a.min(b), a.max(b)) == (0, 20)));
        // In the last round the two leaders (seeds 1 and 2 win everything) have met.
        assert!(pairs.contains(&(0, 1)));
    }

    /// The pairing order, by score, then rating (unrated last), then index, as one comparison
    /// gives it, on fields with ties of score and of rating.
    #[test]
    fn a_swiss_orders_players_by_score_then_rating() {
        let mut rng = SplitMix64::new(11);
        for n in [1, 2, 7, 40, 301] {
            let seen: Vec<Option<f64>> = (0..n)
                .map(|_| (rng.unit() < 0.9).then(|| 1400.0 + (rng.below(8) * 100) as f64))
                .collect();
            let score: Vec<u32> = (0..n).map(|_| rng.below(15) as u32).collect();
            let rating = |i: usize| seen[i].unwrap_or(f64::NEG_INFINITY);
            let mut expected: Vec<usize> = (0..n).collect();
            expected.sort_by(|&a, &b| {
                score[b]
                    .cmp(&score[a])
                    .then(rating(b).total_cmp(&rating(a)))
                    .then(a.cmp(&b))
            });
            let mut order = Vec::new();
            by_score(&by_rating(&seen), &score, &mut order);
            assert_eq!(order, expected, "{n} players");
        }
    }

    #[test]
    fn an_odd_field_gives_one_bye_a_round() {
        let seen = vec![Some(2000.0); 9];
        let mut rng = SplitMix64::new(5);
        let mut games = 0;
        swiss(&seen, 5, &mut rng, &mut |_, _| {
            games += 1;
            1
        });
        assert_eq!(games, 5 * 4);
    }

    /// An open's rounds follow its listed players' whole-event games where they have them; an open
    /// without them keeps its own, and its list follows its new last round.
    #[test]
    fn opens_play_as_many_rounds_as_their_listed_players_do() {
        let month = Month::new(2025, 1).unwrap();
        let open = |players: Vec<usize>| {
            plan(
                EventType::Swiss,
                players,
                7,
                5,
                month,
                &mut SplitMix64::new(1),
            )
        };
        let mut plans = vec![open(vec![0, 1, 2]), open(vec![3, 4])];
        let entrant = |player, long| Entrant {
            player,
            strength: 2000.0,
            choice: 0.5,
            few: 0.0,
            long,
        };
        let entrants = [
            entrant(0, 10.0),
            entrant(1, 11.0),
            entrant(2, 0.0),
            entrant(3, 0.0),
        ];
        lengthen_opens(&mut plans, &entrants);
        assert_eq!((plans[0].rounds, plans[1].rounds), (11, 7));
        // Eleven rounds take seven days, two a day after the first.
        let end = plans[0].start.plus(6);
        assert_eq!(plans[0].period, end.month().plus(1));
    }
}
