//! A synthetic FIDE-like world whose players' true strengths are known month by month
//! (`elosim generate`). Players enter, improve, decline and retire; each month the active ones play
//! Swiss opens and round robins, regional or international; results come from the true strengths.
//! Deflation or inflation, if any, comes from these mechanisms, never from a written-in result:
//! the generator knows nothing of FIDE's regulations.
//!
//! The world is generated month by month and handed to a [`WorldSink`], so that no more than one
//! month of games is ever held in memory. Every player, every month's arrivals and planning, and
//! every event draw from their own random streams (seeded by the world's seed and their place), so
//! the output does not depend on the number of threads, and a parameter changes what it governs
//! without reshuffling every other draw.

mod drift;
pub mod equilibrium;
mod events;
pub mod fide_activity;
pub mod file;
pub mod gap;
pub mod params;
mod people;
mod play;
mod published;
mod settings;

use rayon::prelude::*;

use crate::model::{Day, EventType, Month};

use super::SplitMix64;
pub use file::{load, preset, WorldError};
pub use people::{Player, Sex};
pub use settings::{Settings, SettingsError};

/// One month of the world: the games of the events that started in it, and the truth.
#[derive(Debug, Default)]
pub struct MonthBatch {
    pub month: Month,
    /// The list each game is rated on: the first month after its event ends.
    pub period: Vec<Month>,
    pub event: Vec<u64>,
    pub event_start: Vec<Day>,
    pub event_type: Vec<EventType>,
    pub white: Vec<u32>,
    pub black: Vec<u32>,
    /// White's score in half points.
    pub score: Vec<u8>,
    /// Player ids and their true strength this month: every player who exists in January, and in
    /// other months every player who plays.
    pub truth_id: Vec<u32>,
    pub truth_strength: Vec<f32>,
}

/// A player of the starting list, published at about their true strength.
#[derive(Clone, Copy, Debug)]
pub struct StartRow {
    pub id: u32,
    pub rating: i32,
    pub k: u8,
    pub total_games: u32,
    pub ever_2400: bool,
}

/// Where the world goes: the files, or a test's memory.
pub trait WorldSink {
    /// What stops the generation: the sink's own failures, and an equilibrium that did not
    /// converge where it solves them.
    type Error: From<equilibrium::NotConverged>;
    fn month(&mut self, batch: &MonthBatch) -> Result<(), Self::Error>;
}

/// What the generation made, besides the months handed to the sink.
pub struct World {
    pub settings: Settings,
    pub players: Vec<Player>,
    pub start_list: Vec<StartRow>,
    pub games: u64,
}

/// The random streams of a world: each draws from its own generator, seeded by the world's seed,
/// the stream's kind and its place, so that the draws of one do not depend on any other's.
#[derive(Clone, Copy)]
enum Stream {
    /// A player present at the start, by index.
    Initial = 1,
    /// How many newcomers arrive in a month.
    Arrivals = 2,
    /// The `j`-th newcomer of a month.
    Newcomer = 3,
    /// A month's planning: which events, who plays where, when.
    Plan = 4,
    /// One event's pairings and results.
    Event = 5,
    /// A month of a region's walk of strength (`drift`).
    RegionDrift = 6,
}

fn stream(seed: u64, kind: Stream, a: u64, b: u64) -> SplitMix64 {
    let mut mix = SplitMix64::new(seed);
    for part in [kind as u64, a, b] {
        mix = SplitMix64::new(mix.next_u64() ^ part);
    }
    SplitMix64::new(mix.next_u64())
}

/// Generates the world; `progress(month, months)` after each month.
pub fn generate<S: WorldSink>(
    settings: &Settings,
    sink: &mut S,
    progress: &dyn Fn(usize, usize),
) -> Result<World, S::Error> {
    let seed = settings.seed;
    let start_year = settings.start_year();
    let mut players: Vec<Player> = Vec::new();
    let mut organisers = play::OrganiserRatings::default();
    let mut start_list = Vec::new();
    let listed = settings.scaled(settings.pool);
    let initial = listed + settings.scaled(settings.latent_players);
    organisers.grow(initial);
    for i in 0..initial {
        let origin = if i < listed {
            people::Origin::Listed
        } else {
            people::Origin::Latent
        };
        let rng = stream(seed, Stream::Initial, i as u64, 0);
        let id = settings.first_id + i as u32;
        let mut p = people::initial(id, origin, start_year, rng, settings);
        let strength = p.strength(start_year, settings);
        match origin {
            people::Origin::Listed => {
                let row = start_row(&mut p, strength, settings);
                organisers.set(i, f64::from(row.rating));
                start_list.push(row);
            }
            // Organisers know a latent player from national ratings, roughly.
            people::Origin::Latent => {
                organisers.set(i, strength + settings.latent_seen_noise * p.rng.normal())
            }
        }
        players.push(p);
    }
    // A world whose activity comes from FIDE's lists: the lists' tables, and the stand-in for
    // each player's published rating that places players in them.
    let mut from_fide = (settings.from_fide == 1).then(|| {
        let mut published = published::Published::new();
        published.grow(players.len());
        for (i, row) in start_list.iter().enumerate() {
            published.start(i, row.rating, row.total_games, settings.start);
        }
        (fide_activity::Fide::get(), published)
    });
    let mut region_drift = drift::RegionDrift::new(settings);
    let mut games = 0u64;
    let mut batch = MonthBatch::default();
    for t in 0..settings.months {
        let month = settings.start.plus(t as i32);
        let year = settings.month_year(t);
        let open = settings.play_share(month);
        let expected = settings.arrivals_in(t, settings.scale);
        let arrivals = poisson(
            expected,
            &mut stream(seed, Stream::Arrivals, u64::from(t), 0),
        );
        for j in 0..arrivals {
            let id = settings.first_id + players.len() as u32;
            let rng = stream(seed, Stream::Newcomer, u64::from(t), j as u64);
            players.push(people::newcomer(id, t, year, rng, settings));
        }
        organisers.grow(players.len());
        if let Some((_, published)) = from_fide.as_mut() {
            published.grow(players.len());
        }
        let mut strength: Vec<f64> = players.iter().map(|p| p.strength(year, settings)).collect();
        if let Some(drift) = region_drift.as_mut() {
            drift.step(t);
            let offsets = drift.offsets();
            for (s, p) in strength.iter_mut().zip(&players) {
                *s = (*s + offsets[drift.index(p.id, p.region)]).max(people::WEAKEST);
            }
        }
        for (i, p) in players.iter_mut().enumerate() {
            p.step(settings, year, t, strength[i]);
        }
        let listed = from_fide
            .as_ref()
            .map(|(fide, published)| listed_play(fide, published, &players, settings, month));
        let mut entrants = Vec::new();
        for (i, p) in players.iter_mut().enumerate() {
            if !p.active {
                continue;
            }
            let (plays, choice) = (p.rng.unit(), p.rng.unit());
            let play = match listed.as_ref().and_then(|l| l[i]) {
                Some(listed) => listed,
                None => MonthPlay {
                    chance: p.events_per_year(settings, year, strength[i]) / 12.0 * open,
                    few: match &from_fide {
                        Some((fide, _)) => {
                            fide.unlisted_few_share(p.born.floor() as i32, month.year())
                        }
                        None if p.is_league_member(year, t) => settings.league_share,
                        None => 0.0,
                    },
                    long: 0.0,
                },
            };
            if plays < play.chance {
                entrants.push(events::Entrant {
                    player: i,
                    strength: strength[i],
                    choice,
                    few: play.few,
                    long: play.long,
                });
            }
        }
        let mut plan_rng = stream(seed, Stream::Plan, u64::from(t), 0);
        let mut plans = Vec::new();
        for zone in by_zone(entrants, &players, settings.zones_now()) {
            plans.extend(events::plan_month(
                &zone,
                &players,
                &organisers,
                settings,
                month,
                &mut plan_rng,
            ));
        }
        let played: Vec<Vec<(u32, u32, u8)>> = plans
            .par_iter()
            .enumerate()
            .map(|(e, plan)| {
                let mut rng = stream(seed, Stream::Event, u64::from(t), e as u64);
                play_event(plan, &strength, &organisers, settings, &mut rng)
            })
            .collect();
        batch.clear(month);
        let mut plays = vec![0u32; players.len()];
        for (e, (plan, results)) in plans.iter().zip(&played).enumerate() {
            let event_id = u64::from(t) * 1_000_000 + e as u64 + 1;
            for &(w, b, s) in results {
                organisers.record(w as usize, b as usize, s);
                if let Some((_, published)) = from_fide.as_mut() {
                    published.record(w as usize, b as usize, s, month);
                }
                plays[w as usize] += 1;
                plays[b as usize] += 1;
                batch.period.push(plan.period);
                batch.event.push(event_id);
                batch.event_start.push(plan.start);
                batch.event_type.push(plan.kind);
                batch.white.push(players[w as usize].id);
                batch.black.push(players[b as usize].id);
                batch.score.push(s);
            }
        }
        organisers.update();
        if let Some((_, published)) = from_fide.as_mut() {
            published.update(month, |p| players[p].born.floor() as i16, |p| plays[p]);
        }
        for (i, p) in players.iter().enumerate() {
            if month.month() == 1 || plays[i] > 0 {
                batch.truth_id.push(p.id);
                batch.truth_strength.push(strength[i] as f32);
            }
        }
        games += batch.white.len() as u64;
        sink.month(&batch)?;
        progress(t as usize + 1, settings.months as usize);
    }
    Ok(World {
        settings: settings.clone(),
        players,
        start_list,
        games,
    })
}

impl MonthBatch {
    fn clear(&mut self, month: Month) {
        self.month = month;
        self.period.clear();
        self.event.clear();
        self.event_start.clear();
        self.event_type.clear();
        self.white.clear();
        self.black.clear();
        self.score.clear();
        self.truth_id.clear();
        self.truth_strength.clear();
    }
}

/// A player's play this month: their chance to play, their share of league months and the games
/// of their whole events (`events::Entrant`).
#[derive(Clone, Copy, Debug)]
struct MonthPlay {
    chance: f64,
    few: f64,
    long: f64,
}

/// In a world whose activity comes from FIDE's lists, each listed player's play this month
/// (`None`: not listed, so the rates decide). Listed, band and class are those of the player's
/// published rating (`published`).
fn listed_play(
    fide: &fide_activity::Fide,
    published: &published::Published,
    players: &[Player],
    settings: &Settings,
    month: Month,
) -> Vec<Option<MonthPlay>> {
    use fide_activity::{band, chances, Class, Listed};
    let year = month.year();
    let listed: Vec<Listed> = players
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let rating = published.on_todays_scale(i)?;
            let history = published.history(i);
            Some(Listed {
                player: i,
                class: Class::of(
                    history.ever_2400,
                    p.born.floor() as i32,
                    year,
                    history.total_games,
                ),
                band: band(f64::from(rating)),
                activity: if p.active { p.activity } else { 0.0 },
            })
        })
        .collect();
    let wanted = fide.wanted(month, settings.scale, settings.season_share(month));
    let chance = chances(fide, &listed, &wanted);
    let mut out = vec![None; players.len()];
    for (l, c) in listed.iter().zip(chance) {
        out[l.player] = Some(MonthPlay {
            chance: c,
            few: fide.few_share(l.class, l.band),
            long: fide.long_games(l.class, l.band),
        });
    }
    out
}

/// A month's entrants split by zone, zones in order: each zone plans its own events. A player's
/// zone follows from their id alone (a fixed hash), so it draws nothing from any random stream.
fn by_zone(
    entrants: Vec<events::Entrant>,
    players: &[Player],
    zones: u64,
) -> Vec<Vec<events::Entrant>> {
    let mut split: Vec<Vec<events::Entrant>> = vec![Vec::new(); zones as usize];
    for e in entrants {
        split[zone_of(players[e.player].id, zones)].push(e);
    }
    split
}

/// The zone of the player `id` among `zones`: a fixed hash of the id.
fn zone_of(id: u32, zones: u64) -> usize {
    let hash = u64::from(id).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    (hash % zones) as usize
}

/// The starting list's row of a listed player: their strength today, give or take the noise of
/// any published rating, at least the list's floor; K 15, or 10 from 2400 (reference §3.2).
fn start_row(p: &mut Player, strength: f64, settings: &Settings) -> StartRow {
    let noise = settings.pool_rating_noise * p.rng.normal();
    let rating = (strength + noise).round().max(settings.pool_floor) as i32;
    StartRow {
        id: p.id,
        rating,
        k: if rating >= 2400 { 10 } else { 15 },
        total_games: 30 + (200.0 * p.rng.unit()) as u32,
        ever_2400: rating >= 2400,
    }
}

/// One event's games: (white, black, White's half points) by player index.
fn play_event(
    plan: &events::EventPlan,
    strength: &[f64],
    organisers: &play::OrganiserRatings,
    settings: &Settings,
    rng: &mut SplitMix64,
) -> Vec<(u32, u32, u8)> {
    let mut games = Vec::new();
    let mut outcome = SplitMix64::new(rng.next_u64());
    // Each player's form in this event: strength is not the same from one event to the next.
    let form: Vec<f64> = plan
        .players
        .iter()
        .map(|_| settings.form_sd * outcome.normal())
        .collect();
    let mut play = |a: usize, b: usize| {
        let (w, bl) = (plan.players[a], plan.players[b]);
        let s = play::result(
            strength[w] + form[a],
            strength[bl] + form[b],
            settings,
            &mut outcome,
        );
        games.push((w as u32, bl as u32, s));
        s
    };
    match plan.kind {
        EventType::Swiss => {
            let seen: Vec<Option<f64>> = plan.players.iter().map(|&p| organisers.get(p)).collect();
            events::swiss(&seen, plan.rounds, rng, &mut play);
        }
        EventType::RoundRobin => events::round_robin(plan.players.len(), &mut play),
    }
    games
}

/// A Poisson draw (normal approximation above 50, exact inversion below).
fn poisson(mean: f64, rng: &mut SplitMix64) -> usize {
    if mean <= 0.0 {
        return 0;
    }
    if mean > 50.0 {
        return (mean + mean.sqrt() * rng.normal()).round().max(0.0) as usize;
    }
    let limit = (-mean).exp();
    let mut k = 0;
    let mut product = rng.unit();
    while product > limit {
        k += 1;
        product *= rng.unit();
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(n: usize) -> (Vec<events::Entrant>, Vec<Player>) {
        let settings = preset("fide-2001-2025").unwrap();
        let players: Vec<Player> = (0..n)
            .map(|i| {
                let rng = SplitMix64::new(i as u64);
                people::newcomer(10_000_001 + i as u32, 0, 2001.0, rng, &settings)
            })
            .collect();
        let entrants = (0..n)
            .map(|player| events::Entrant {
                player,
                strength: 1500.0,
                choice: 0.5,
                few: 0.0,
                long: 0.0,
            })
            .collect();
        (entrants, players)
    }

    /// One zone keeps the month's entrants as they are (a world at the calibration's scale plans
    /// exactly as before zones); many zones put each entrant in exactly one, by id, in order, and
    /// fill them about evenly.
    #[test]
    fn zones_split_entrants_by_id_alone() {
        let (entrants, players) = world(4000);
        let one = by_zone(entrants.clone(), &players, 1);
        assert_eq!(one.len(), 1);
        assert!(one[0].iter().map(|e| e.player).eq(0..4000));
        let twenty = by_zone(entrants.clone(), &players, 20);
        assert_eq!(twenty.len(), 20);
        let mut seen: Vec<usize> = twenty.iter().flatten().map(|e| e.player).collect();
        assert!(twenty
            .iter()
            .all(|z| z.windows(2).all(|w| w[0].player < w[1].player)));
        seen.sort_unstable();
        assert!(seen.into_iter().eq(0..4000));
        assert!(
            twenty.iter().all(|z| (140..=260).contains(&z.len())),
            "{:?}",
            twenty.iter().map(Vec::len).collect::<Vec<_>>()
        );
        let again = by_zone(entrants, &players, 20);
        assert!(twenty
            .iter()
            .zip(&again)
            .all(|(a, b)| a.iter().map(|e| e.player).eq(b.iter().map(|e| e.player))));
    }
}
