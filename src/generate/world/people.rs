//! The players of the synthetic world and their true strength, month by month.
//!
//! A player's strength follows their age: it approaches a personal potential at a rate that slows
//! as they grow up (juniors enter weak and improve fast), declines with age, and carries a slow
//! personal random walk (form, study, life). Nothing here knows about ratings.
//!
//! Each player draws from a random stream of their own (seeded by the world's seed and their
//! place), so that changing one parameter changes what it governs and not every later draw: the
//! common random numbers that make calibration's objective smooth.

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
    /// Years of development so far where development comes in jumps
    /// (`players.development_jump_months` above 1); `None` where it is smooth, counted by age.
    grown: Option<f64>,
    /// The personal random walk, in rating points.
    walk: f64,
    /// Events a year while active, before the strength factor (`Settings::activity_factor`).
    pub activity: f64,
    pub active: bool,
    /// Arrived during the world (not present at its start).
    pub newcomer: bool,
    /// An occasional player: a newcomer who plays a few events and lapses (`activity.occasional_*`).
    pub occasional: bool,
    /// The player's own random stream.
    pub rng: SplitMix64,
}

/// Strength below which nobody plays rated chess (a true beginner).
pub const WEAKEST: f64 = 500.0;

/// Who a player is at the world's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// On the starting list.
    Listed,
    /// Playing rated events, but not (yet) rated: below the list's floor.
    Latent,
}

impl Player {
    pub fn age(&self, year: f64) -> f64 {
        year - self.born
    }

    pub fn is_junior(&self, year: f64) -> bool {
        self.age(year) < 20.0
    }

    /// True strength at a fractional year, before its region's drift (`drift`, which the generator
    /// adds to make the truth the replay is judged against); development counted by age, or by the
    /// player's own jumps where development comes in jumps.
    pub fn strength(&self, year: f64, settings: &Settings) -> f64 {
        let age = self.age(year);
        let grown = self
            .grown
            .unwrap_or_else(|| (age - self.entry_age).max(0.0));
        let developing = self.entry_gap * (-grown / self.development).exp();
        (self.potential - developing - settings.decline(age) + self.walk).max(WEAKEST)
    }

    /// One month of the random walk (mean-reverting, so that it stays a few dozen points wide) and
    /// of retirement.
    pub fn step(&mut self, settings: &Settings, year: f64, month: u32, strength: f64) {
        if let Some(grown) = self.grown.as_mut() {
            // A jump of this many months' development, once in as many months on average.
            let months = settings.development_jump_months;
            if self.rng.unit() < 1.0 / months {
                *grown += months / 12.0;
            }
        }
        self.walk = self.walk * settings.walk_reversion + settings.walk_step * self.rng.normal();
        if self.active {
            if self.rng.unit() < self.quit_chance(settings, year, month, strength) {
                self.active = false;
            }
        } else if settings.junior_return > 0.0
            && !self.occasional
            && self.is_junior(year)
            && self.rng.unit() < settings.junior_return / 12.0
        {
            // A junior back from a break: their strength grew with their age while their rating
            // stood still, so they come back underrated (issue 41's third mechanism).
            self.active = true;
        }
    }

    /// The chance that an active player stops this month: occasional players at their own rate
    /// whatever they are (most of FIDE's rated players never play thirty games:
    /// `data/fide-activity/`); of the others, newcomers in their first year most often, juniors
    /// more than adults, and strong players, who play more, less often.
    fn quit_chance(&self, settings: &Settings, year: f64, month: u32, strength: f64) -> f64 {
        if self.occasional {
            return settings.occasional_quit / 12.0;
        }
        let quit = if self.newcomer && month < self.first_month + 12 {
            settings.quit_first_year
        } else if self.is_junior(year) {
            settings.quit_junior
        } else {
            settings.quit_adult
        };
        quit / 12.0 / settings.activity_factor(strength, self.age(year))
    }

    /// Whether a club's league team takes the player in month `month` of the world: adults past
    /// their first year in it; newcomers play the opens that rate them, juniors their opens and
    /// junior events.
    pub fn is_league_member(&self, year: f64, month: u32) -> bool {
        !self.is_junior(year) && (!self.newcomer || month >= self.first_month + 12)
    }

    /// Events a year this month, at this strength: juniors play rated events at their own rate
    /// (much of their chess is not FIDE-rated: school, club, online).
    pub fn events_per_year(&self, settings: &Settings, year: f64, strength: f64) -> f64 {
        let junior = if self.is_junior(year) {
            settings.junior_activity
        } else {
            1.0
        };
        self.activity * junior * settings.activity_factor(strength, self.age(year))
    }
}

/// A player present at the world's start: on the starting list (established, strength at least
/// the list's floor) or latent (playing rated events below the floor). Juniors among them are
/// still improving.
pub fn initial(
    id: u32,
    origin: Origin,
    year: f64,
    mut rng: SplitMix64,
    settings: &Settings,
) -> Player {
    let (mean, sd, junior_share) = match origin {
        Origin::Listed => (
            settings.pool_strength_mean,
            settings.pool_strength_sd,
            settings.pool_junior_share,
        ),
        Origin::Latent => (
            settings.latent_strength_mean,
            settings.latent_strength_sd,
            settings.latent_junior_share,
        ),
    };
    let junior = rng.unit() < junior_share;
    let age = if junior {
        10.0 + 9.0 * rng.unit()
    } else {
        (settings.pool_age_mean + settings.pool_age_sd * rng.normal()).clamp(20.0, 85.0)
    };
    // Strength today, drawn on the side of the floor the player is on (a few tries, then the
    // floor itself).
    let floor = settings.pool_floor;
    let listed = origin == Origin::Listed;
    let today = (0..20)
        .map(|_| mean + sd * rng.normal())
        .find(|s| (*s >= floor) == listed && *s > WEAKEST)
        .unwrap_or(if listed { floor } else { floor - 1.0 });
    let gap = if junior {
        settings.junior_gap_on_list * rng.unit()
    } else {
        0.0
    };
    let active_share = match origin {
        Origin::Listed => settings.pool_active_share,
        Origin::Latent => settings.latent_active_share,
    };
    Player {
        id,
        born: year - age,
        sex: sex(&mut rng, settings.female_share),
        region: region(&mut rng, settings.regions),
        first_month: 0,
        // The potential is what today's strength and the age curve imply.
        potential: today + gap + settings.decline(age),
        entry_gap: gap,
        entry_age: age,
        development: settings.development_years * (0.6 + 0.8 * rng.unit()),
        grown: jumps(settings),
        walk: 0.0,
        activity: activity(&mut rng, settings),
        active: rng.unit() < active_share,
        newcomer: false,
        occasional: false,
        rng,
    }
}

/// A newcomer arriving at `year`: mostly juniors, entering weak and improving; some adults.
pub fn newcomer(
    id: u32,
    month: u32,
    year: f64,
    mut rng: SplitMix64,
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
        log_normal(settings.junior_gap_mean, settings.junior_gap_sd, &mut rng)
    } else {
        (80.0 * rng.normal()).abs()
    };
    Player {
        id,
        born: year - age,
        sex: sex(&mut rng, settings.female_share),
        region: region(&mut rng, settings.regions),
        first_month: month,
        potential: settings.ceiling(entry + gap) + settings.decline(age),
        entry_gap: gap,
        entry_age: age,
        development: settings.development_years * (0.6 + 0.8 * rng.unit()),
        grown: jumps(settings),
        walk: 0.0,
        activity: activity(&mut rng, settings),
        active: true,
        newcomer: true,
        // Drawn last, and only in a world that has them: a world without occasional players draws
        // what it drew before they existed.
        occasional: settings.occasional_share > 0.0 && rng.unit() < settings.occasional_share,
        rng,
    }
}

/// A log-normal draw with this mean and SD: always positive, with a long right tail (a few
/// juniors gain very much more than most).
fn log_normal(mean: f64, sd: f64, rng: &mut SplitMix64) -> f64 {
    if mean <= 0.0 {
        return 0.0;
    }
    let variance = (1.0 + (sd / mean).powi(2)).ln();
    (mean.ln() - variance / 2.0 + variance.sqrt() * rng.normal()).exp()
}

fn sex(rng: &mut SplitMix64, female_share: f64) -> Sex {
    if rng.unit() < female_share {
        Sex::Female
    } else {
        Sex::Male
    }
}

/// Development so far of a player entering a world whose development comes in jumps: none yet.
fn jumps(settings: &Settings) -> Option<f64> {
    (settings.development_jump_months > 1.0).then_some(0.0)
}

/// Regions of very different sizes (Zipf-like), as federations are: region k (from 0) with the
/// chance [`region_share`].
fn region(rng: &mut SplitMix64, regions: u32) -> u16 {
    let u = rng.unit();
    let r = (f64::from(regions + 1).powf(u)).floor() as u32;
    (r.clamp(1, regions) - 1) as u16
}

/// The chance of region `k` (from 0) of `regions`: log((k + 2) / (k + 1)) / log(regions + 1), a
/// discrete Zipf-like law, which [`region`] draws by inverting its sums.
pub fn region_share(k: u32, regions: u32) -> f64 {
    (f64::from(k + 2) / f64::from(k + 1)).ln() / f64::from(regions + 1).ln()
}

/// Events per year: log-normal, most players a few, some many; its mean is `events_per_year`.
fn activity(rng: &mut SplitMix64, settings: &Settings) -> f64 {
    let spread = settings.activity_spread;
    settings.events_per_year * (spread * rng.normal() - spread * spread / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A junior of 10 entering 800 points below a potential of 2000, developing in 5 years.
    fn junior(grown: Option<f64>) -> Player {
        Player {
            id: 1,
            born: 2000.0,
            sex: Sex::Male,
            region: 0,
            first_month: 0,
            potential: 2000.0,
            entry_gap: 800.0,
            entry_age: 10.0,
            development: 5.0,
            grown,
            walk: 0.0,
            activity: 3.0,
            active: true,
            newcomer: false,
            occasional: false,
            rng: SplitMix64::new(1),
        }
    }

    #[test]
    fn juniors_improve_fast_then_slower_and_everyone_declines_late() {
        let settings = crate::generate::world::preset("fide-2001-2025").unwrap();
        let p = junior(None);
        let at = |age: f64| p.strength(2000.0 + age, &settings);
        assert_eq!(at(10.0), 1200.0);
        let first = at(12.0) - at(10.0);
        let later = at(22.0) - at(20.0);
        assert!(
            first > 200.0 && later < 60.0 && later > 0.0,
            "{first} {later}"
        );
        let old = settings.decline(60.0);
        assert!(old > 50.0, "{old}");
        assert!((at(60.0) - (2000.0 - old)).abs() < 1.0);
    }

    /// With development in jumps of six months' worth, a junior's strength stands still for months
    /// and then leaps, by about what six months of smooth development give; over years it keeps
    /// pace with the smooth curve on average.
    #[test]
    fn development_in_jumps_stands_still_then_leaps_and_keeps_pace() {
        let mut settings = crate::generate::world::preset("fide-2001-2025").unwrap();
        settings.walk_step = 0.0;
        settings.development_jump_months = 6.0;
        let (months, players) = (36, 400);
        let mut behind = 0.0;
        let mut leaps = Vec::new();
        for seed in 0..players {
            let mut p = junior(Some(0.0));
            p.rng = SplitMix64::new(seed);
            let mut last = p.strength(2010.0, &settings);
            for t in 0..months {
                let year = 2010.0 + f64::from(t) / 12.0;
                p.step(&settings, year, t, last);
                let now = p.strength(year + 1.0 / 12.0, &settings);
                if now != last {
                    leaps.push(now - last);
                }
                last = now;
            }
            behind += junior(None).strength(2013.0, &settings) - last;
        }
        // Every leap is more than the largest step a smooth month makes (its first, at 10), and no
        // more than six smooth months from 10.
        let smooth = |age: f64| junior(None).strength(2000.0 + age, &settings);
        let (month, six) = (
            smooth(10.0 + 1.0 / 12.0) - smooth(10.0),
            smooth(10.5) - smooth(10.0),
        );
        let (least, most) = leaps
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, m), x| (l.min(*x), m.max(*x)));
        assert!(
            least > month && most <= six + 1e-9,
            "leaps {least}..{most}, a smooth month {month}, six {six}"
        );
        // About one month in six leaps.
        let share = leaps.len() as f64 / f64::from(months * players as u32);
        assert!((share - 1.0 / 6.0).abs() < 0.02, "{share}");
        // Three years on, as far as the smooth curve on average (within a few points).
        let mean_behind = behind / players as f64;
        assert!(mean_behind.abs() < 15.0, "{mean_behind}");
    }

    /// Smooth in the built-in world; in jumps of six months' worth in the file that measures it.
    #[test]
    fn development_is_smooth_by_default_and_jumps_in_the_file_that_measures_it() {
        let built_in = crate::generate::world::preset("fide-2001-2025").unwrap();
        assert_eq!(jumps(&built_in), None);
        let file = crate::generate::world::load("worlds/refits/lists-jumps-6.toml").unwrap();
        assert_eq!(
            (file.development_jump_months, jumps(&file)),
            (6.0, Some(0.0))
        );
    }

    /// Juniors who stopped come back at `activity.junior_return` a year while still juniors;
    /// adults never; and without returns a stopped player's stream is not drawn from.
    #[test]
    fn stopped_juniors_come_back_at_their_rate_and_adults_never() {
        let mut settings = crate::generate::world::preset("fide-2001-2025").unwrap();
        settings.walk_step = 0.0;
        let stopped = |born: f64, seed: u64| Player {
            born,
            active: false,
            rng: SplitMix64::new(seed),
            ..junior(None)
        };
        let back_within_a_year = |settings: &Settings, born: f64| {
            (0..2000)
                .filter(|seed| {
                    let mut p = stopped(born, *seed);
                    (0..12).any(|t| {
                        let year = 2010.0 + f64::from(t) / 12.0;
                        p.step(settings, year, t, 1500.0);
                        p.active
                    })
                })
                .count()
        };
        // Without returns, a stopped player's month draws its walk and nothing more.
        let mut without = stopped(1998.0, 3);
        let mut walk_only = without.rng.clone();
        walk_only.normal();
        without.step(&settings, 2010.0, 0, 1500.0);
        assert!(!without.active);
        assert_eq!(without.rng.next_u64(), walk_only.next_u64());
        assert_eq!(back_within_a_year(&settings, 1998.0), 0);

        settings.junior_return = 0.25;
        // 1 − (1 − 0.25 / 12)^12 = 22.3 % of 2,000 juniors, give or take the draws.
        let juniors = back_within_a_year(&settings, 1998.0);
        assert!((400..=500).contains(&juniors), "{juniors}");
        assert_eq!(back_within_a_year(&settings, 1980.0), 0);
    }

    /// Newcomers still active after `years`, of 4,000 arriving in the world's first month.
    fn still_active(settings: &Settings, years: u32) -> (usize, usize) {
        let year = settings.start_year();
        let mut players: Vec<Player> = (0..4000)
            .map(|i| newcomer(i, 0, year, SplitMix64::new(u64::from(i)), settings))
            .collect();
        for month in 0..12 * years {
            let now = year + f64::from(month) / 12.0;
            for p in &mut players {
                let strength = p.strength(now, settings);
                p.step(settings, now, month, strength);
            }
        }
        let occasional = players.iter().filter(|p| p.occasional).count();
        (occasional, players.iter().filter(|p| p.active).count())
    }

    /// A world without occasional players draws what it drew before they existed; with them, a
    /// share of the newcomers are occasional and lapse at their own rate.
    #[test]
    fn occasional_newcomers_lapse_at_their_own_rate() {
        let mut settings = crate::generate::world::preset("fide-2001-2025").unwrap();
        settings.occasional_share = 0.0;
        let year = settings.start_year();
        let without = newcomer(1, 0, year, SplitMix64::new(5), &settings);
        let (occasional, before) = still_active(&settings, 3);
        assert_eq!(occasional, 0);

        settings.occasional_share = 0.5;
        settings.occasional_quit = 0.6;
        // The same newcomer, one draw further on: the draw that makes them occasional or not.
        let with = newcomer(1, 0, year, SplitMix64::new(5), &settings);
        let mut one_on = without.rng.clone();
        one_on.next_u64();
        assert_eq!(with.rng.clone().next_u64(), one_on.next_u64());
        assert_eq!(
            (with.potential, with.activity, with.born),
            (without.potential, without.activity, without.born)
        );
        let (occasional, after) = still_active(&settings, 3);
        assert!((1850..=2150).contains(&occasional), "{occasional}");
        // Occasional players still active after three years: (1 − 0.6 / 12)^36 = 16 %.
        let kept = 0.16 * occasional as f64;
        let committed = before as f64 * (4000 - occasional) as f64 / 4000.0;
        assert!(
            (after as f64 - committed - kept).abs() < 0.04 * after as f64,
            "{before} → {after}: {occasional} occasional"
        );
    }

    /// League teams take adults past their first year in the world, never juniors.
    #[test]
    fn league_members_are_adults_past_their_first_year() {
        let settings = crate::generate::world::preset("fide-2001-2025").unwrap();
        let year = settings.start_year();
        let players: Vec<Player> = (0..200)
            .map(|i| newcomer(i, 5, year, SplitMix64::new(u64::from(i)), &settings))
            .collect();
        let adult = players.iter().find(|p| !p.is_junior(year + 1.0)).unwrap();
        assert!(!adult.is_league_member(year, 16));
        assert!(adult.is_league_member(year + 1.0, 17));
        let junior = players.iter().find(|p| p.is_junior(year + 2.0)).unwrap();
        assert!(!junior.is_league_member(year + 2.0, 40));
        let listed = initial(1, Origin::Listed, year, SplitMix64::new(3), &settings);
        assert_eq!(listed.is_league_member(year, 0), !listed.is_junior(year));
    }

    #[test]
    fn the_starting_pool_lies_on_its_side_of_the_floor() {
        let settings = crate::generate::world::preset("fide-2001-2025").unwrap();
        let year = settings.start_year();
        for i in 0..2000 {
            let listed = initial(
                i,
                Origin::Listed,
                year,
                SplitMix64::new(u64::from(i)),
                &settings,
            );
            assert!(listed.strength(year, &settings) >= settings.pool_floor);
            let latent = initial(
                i,
                Origin::Latent,
                year,
                SplitMix64::new(u64::from(i)),
                &settings,
            );
            assert!(latent.strength(year, &settings) < settings.pool_floor);
        }
    }

    #[test]
    fn gaps_are_log_normal_with_their_mean_and_sd() {
        let mut rng = SplitMix64::new(4);
        let draws: Vec<f64> = (0..200_000)
            .map(|_| log_normal(800.0, 600.0, &mut rng))
            .collect();
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        let sd =
            (draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / draws.len() as f64).sqrt();
        assert!(
            (mean - 800.0).abs() < 10.0 && (sd - 600.0).abs() < 20.0,
            "{mean} {sd}"
        );
        assert!(draws.iter().all(|&d| d > 0.0));
        let median = {
            let mut d = draws.clone();
            d.sort_by(f64::total_cmp);
            d[d.len() / 2]
        };
        assert!(median < mean, "a long right tail: median {median}");
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
        // Drawn with the chances `region_share` gives (which sum to 1).
        for (k, &n) in counts.iter().enumerate() {
            let share = region_share(k as u32, 30);
            assert!(
                (f64::from(n) / 30_000.0 - share).abs() < 0.006,
                "{k}: {n} {share}"
            );
        }
        let total: f64 = (0..30).map(|k| region_share(k, 30)).sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
    }
}
