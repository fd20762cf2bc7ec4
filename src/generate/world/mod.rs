//! A synthetic FIDE-like world whose players' true strengths are known month by month
//! (`elosim generate`). Players enter, improve, decline and retire; each month the active ones play
//! Swiss opens and round robins, regional or international; results come from the true strengths.
//! Deflation or inflation, if any, comes from these mechanisms, never from a written-in result:
//! the generator knows nothing of FIDE's regulations.
//!
//! The world is generated month by month and handed to a [`WorldSink`], so that no more than one
//! month of games is ever held in memory. Every event draws from its own random stream (seeded by
//! the world's seed, the month and the event's number), so the output does not depend on the
//! number of threads.

mod events;
pub mod file;
pub mod params;
mod people;
mod play;
mod settings;

use rayon::prelude::*;

use crate::model::{Day, Month};

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
    fn month(&mut self, batch: &MonthBatch) -> Result<(), String>;
}

/// What the generation made, besides the months handed to the sink.
pub struct World {
    pub settings: Settings,
    pub players: Vec<Player>,
    pub start_list: Vec<StartRow>,
    pub games: u64,
}

/// Generates the world; `progress(month, months)` after each month.
pub fn generate(
    settings: &Settings,
    sink: &mut dyn WorldSink,
    progress: &dyn Fn(usize, usize),
) -> Result<World, String> {
    let mut rng = SplitMix64::new(settings.seed);
    let start_year = settings.start_year();
    let mut players: Vec<Player> = Vec::new();
    let mut organisers = play::OrganiserRatings::default();
    let mut start_list = Vec::new();
    let pool = settings.scaled(settings.pool);
    organisers.grow(pool);
    for i in 0..pool {
        let p = people::established(settings.first_id + i as u32, start_year, &mut rng, settings);
        let row = start_row(&p, start_year, settings, &mut rng);
        organisers.set(i, f64::from(row.rating));
        start_list.push(row);
        players.push(p);
    }
    let mut games = 0u64;
    let mut batch = MonthBatch::default();
    for t in 0..settings.months {
        let month = settings.start.plus(t as i32);
        let year = start_year + f64::from(t) / 12.0 + 1.0 / 24.0;
        let open = settings.open_share(month);
        let arrivals = poisson(
            settings.arrivals(year) * settings.scale * settings.arrivals_share(month),
            &mut rng,
        );
        for _ in 0..arrivals {
            let id = settings.first_id + players.len() as u32;
            players.push(people::newcomer(id, t, year, &mut rng, settings));
        }
        organisers.grow(players.len());
        for p in &mut players {
            p.step(&mut rng, settings, year);
        }
        let strength: Vec<f64> = players.iter().map(|p| p.strength(year, settings)).collect();
        let participants: Vec<usize> = (0..players.len())
            .filter(|&i| {
                let p = &players[i];
                p.active && rng.unit() < p.activity / 12.0 * open
            })
            .collect();
        let plans = events::plan_month(
            &participants,
            &players,
            &organisers,
            settings,
            month,
            &mut rng,
        );
        let played: Vec<Vec<(u32, u32, u8)>> = plans
            .par_iter()
            .enumerate()
            .map(|(e, plan)| {
                let mut rng = SplitMix64::new(event_seed(settings.seed, t, e));
                play_event(plan, &strength, &organisers, settings, &mut rng)
            })
            .collect();
        batch.clear(month);
        let mut plays = vec![false; players.len()];
        for (e, (plan, results)) in plans.iter().zip(&played).enumerate() {
            let event_id = u64::from(t) * 1_000_000 + e as u64 + 1;
            for &(w, b, s) in results {
                organisers.record(w as usize, b as usize, s);
                plays[w as usize] = true;
                plays[b as usize] = true;
                batch.period.push(plan.period);
                batch.event.push(event_id);
                batch.event_start.push(plan.start);
                batch.white.push(players[w as usize].id);
                batch.black.push(players[b as usize].id);
                batch.score.push(s);
            }
        }
        organisers.update();
        for (i, p) in players.iter().enumerate() {
            if month.month() == 1 || plays[i] {
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
        self.white.clear();
        self.black.clear();
        self.score.clear();
        self.truth_id.clear();
        self.truth_strength.clear();
    }
}

/// The starting list's row of an established player: their strength today, give or take a little
/// (a published rating is never exact), at least the list's floor; K 15, or 10 from 2400
/// (reference §3.2, 2008).
fn start_row(p: &Player, year: f64, settings: &Settings, rng: &mut SplitMix64) -> StartRow {
    let rating = (p.strength(year, settings) + 25.0 * rng.normal())
        .round()
        .max(1401.0) as i32;
    StartRow {
        id: p.id,
        rating,
        k: if rating >= 2400 { 10 } else { 15 },
        total_games: 30 + (200.0 * rng.unit()) as u32,
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
    let mut play = |a: usize, b: usize| {
        let (w, bl) = (plan.players[a], plan.players[b]);
        let s = play::result(strength[w], strength[bl], settings, &mut outcome);
        games.push((w as u32, bl as u32, s));
        s
    };
    match plan.kind {
        events::Kind::Swiss => {
            let seen: Vec<Option<f64>> = plan.players.iter().map(|&p| organisers.get(p)).collect();
            events::swiss(&seen, plan.rounds, rng, &mut play);
        }
        events::Kind::RoundRobin => events::round_robin(plan.players.len(), &mut play),
    }
    games
}

fn event_seed(seed: u64, month: u32, event: usize) -> u64 {
    let mut mix =
        SplitMix64::new(seed ^ (u64::from(month) << 40) ^ (event as u64).wrapping_mul(0x9e37_79b9));
    mix.next_u64()
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
