//! The players of the synthetic world and their true strength, month by month.
//!
//! A player's strength follows their age: it approaches a personal potential at a rate that slows
//! as they grow up (juniors enter weak and improve fast), declines after forty, and carries a slow
//! personal random walk (form, study, life). Nothing here knows about ratings.

use super::{Settings, SplitMix64};

/// Sex as the players file writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sex {
    Male,
    Female,
}

#[derive(Clone, Debug)]
pub struct Player {
    pub id: u32,
    /// Birth date as a fractional year (2001.5 = mid 2001).
    pub born: f64,
    pub sex: Sex,
    pub region: u16,
    /// Months since the world's start of the first month they exist in.
    pub first_month: u32,
    /// The strength the player tends to at maturity, before decline.
    potential: f64,
    /// How far below the potential the player entered.
    entry_gap: f64,
    /// Age at entry, in years.
    entry_age: f64,
    /// Years for the gap to shrink by a factor e.
    development: f64,
    /// The personal random walk, in rating points.
    walk: f64,
    /// Events per year while active.
    pub activity: f64,
    pub active: bool,
}

/// Strength below which nobody plays rated chess (a true beginner).
const WEAKEST: f64 = 500.0;

impl Player {
    pub fn age(&self, year: f64) -> f64 {
        year - self.born
    }

    /// True strength at a fractional year (the truth the replay is judged against).
    pub fn strength(&self, year: f64, settings: &Settings) -> f64 {
        let age = self.age(year);
        let grown = (age - self.entry_age).max(0.0);
        let developing = self.entry_gap * (-grown / self.development).exp();
        (self.potential - developing - settings.decline(age) + self.walk).max(WEAKEST)
    }

    /// One month of the random walk (mean-reverting, so that it stays a few dozen points wide) and
    /// of retirement.
    pub fn step(&mut self, rng: &mut SplitMix64, settings: &Settings, year: f64) {
        self.walk = self.walk * settings.walk_reversion + settings.walk_step * rng.normal();
        if self.active {
            let junior = self.age(year) < 20.0;
            let quit = if junior {
                settings.quit_junior
            } else {
                settings.quit_adult
            };
            if rng.unit() < quit / 12.0 {
                self.active = false;
            }
        }
    }
}

/// A player of the established pool on the first list: an adult or older junior near potential.
pub fn established(id: u32, year: f64, rng: &mut SplitMix64, settings: &Settings) -> Player {
    let age = (settings.pool_age_mean + settings.pool_age_sd * rng.normal()).clamp(12.0, 85.0);
    let mut p = Player {
        id,
        born: year - age,
        sex: sex(rng, settings.female_share),
        region: region(rng, settings.regions),
        first_month: 0,
        potential: 0.0,
        entry_gap: 0.0,
        entry_age: age,
        development: settings.development_years,
        walk: 0.0,
        activity: activity(rng, settings),
        active: rng.unit() < settings.pool_active_share,
    };
    // The pool's strength today is drawn first; the potential is what the age curve implies.
    let today = settings.pool_strength_mean + settings.pool_strength_sd * rng.normal();
    let today = today.max(settings.pool_strength_min + 30.0 * rng.unit());
    p.potential = today + settings.decline(age);
    if age < 20.0 {
        // A junior on the list is still improving: part of the potential is yet to come.
        let gap = settings.junior_gap_on_list * rng.unit();
        p.entry_gap = gap;
        p.potential += gap;
    }
    p
}

/// A newcomer arriving at `year`: mostly juniors, entering weak and improving; some adults.
pub fn newcomer(
    id: u32,
    month: u32,
    year: f64,
    rng: &mut SplitMix64,
    settings: &Settings,
) -> Player {
    let years = year - settings.start_year();
    let junior = rng.unit() < settings.junior_share(years);
    let age = if junior {
        7.0 + 9.0 * rng.unit()
    } else {
        (20.0 + 15.0 * rng.normal().abs()).min(75.0)
    };
    // Entrants get weaker as the game spreads: the mean entry strength falls each year; juniors
    // enter weaker than adults.
    let offset = if junior {
        settings.junior_entry_offset
    } else {
        0.0
    };
    let entry = settings.entry_mean - offset - settings.entry_drift * years
        + settings.entry_sd * rng.normal();
    let entry = entry.max(WEAKEST + 100.0 * rng.unit());
    let gap = if junior {
        (settings.junior_gap_mean + settings.junior_gap_sd * rng.normal()).max(50.0)
    } else {
        (80.0 * rng.normal()).abs()
    };
    Player {
        id,
        born: year - age,
        sex: sex(rng, settings.female_share),
        region: region(rng, settings.regions),
        first_month: month,
        potential: settings.ceiling(entry + gap) + settings.decline(age),
        entry_gap: gap,
        entry_age: age,
        development: settings.development_years * (0.6 + 0.8 * rng.unit()),
        walk: 0.0,
        activity: activity(rng, settings),
        active: true,
    }
}

fn sex(rng: &mut SplitMix64, female_share: f64) -> Sex {
    if rng.unit() < female_share {
        Sex::Female
    } else {
        Sex::Male
    }
}

/// Regions of very different sizes (Zipf-like), as federations are.
fn region(rng: &mut SplitMix64, regions: u32) -> u16 {
    let u = rng.unit();
    // P(k) = log((k + 1) / k) / log(regions + 1): a discrete Zipf-like law over 1..=regions.
    let r = (f64::from(regions + 1).powf(u)).floor() as u32;
    (r.clamp(1, regions) - 1) as u16
}

/// Events per year: lognormal, most players a few, some many.
fn activity(rng: &mut SplitMix64, settings: &Settings) -> f64 {
    let spread = settings.activity_spread;
    // The log-normal's mean is `events_per_year`.
    settings.events_per_year * (spread * rng.normal() - spread * spread / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn juniors_improve_fast_then_slower_and_everyone_declines_late() {
        let p = Player {
            id: 1,
            born: 2000.0,
            sex: Sex::Male,
            region: 0,
            first_month: 0,
            potential: 2000.0,
            entry_gap: 800.0,
            entry_age: 10.0,
            development: 5.0,
            walk: 0.0,
            activity: 3.0,
            active: true,
        };
        let settings = crate::generate::world::file::preset("fide-2008-2023").unwrap();
        let at = |age: f64| p.strength(2000.0 + age, &settings);
        assert_eq!(at(10.0), 1200.0);
        let first = at(12.0) - at(10.0);
        let later = at(22.0) - at(20.0);
        assert!(
            first > 200.0 && later < 60.0 && later > 0.0,
            "{first} {later}"
        );
        assert!((at(40.0) - 2000.0).abs() < 2.0);
        assert!((at(60.0) - (2000.0 - 140.0)).abs() < 1.0);
    }

    #[test]
    fn regions_are_of_very_different_sizes() {
        let mut rng = SplitMix64::new(1);
        let mut counts = [0u32; 30];
        for _ in 0..30_000 {
            counts[usize::from(region(&mut rng, 30))] += 1;
        }
        assert!(counts[0] > 5 * counts[29], "{counts:?}");
        assert!(counts.iter().all(|&c| c > 0));
    }
}
