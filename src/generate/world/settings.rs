//! The world's parameters. Their values, units and reasons live in the world file
//! (`worlds/fide-2001-2025.toml`, built in as the default); `params.rs` lists every key with its
//! unit and range, and `file.rs` reads, checks and writes world files.

use crate::model::Month;
use crate::numbers::thousands;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// The world's name (for output directories and summaries).
    pub name: String,
    /// Players and games scale with this (1.0: FIDE's size); a run option, not in the file.
    pub scale: f64,
    /// A run option, not in the file.
    pub seed: u64,

    // [world]
    /// The first month of games; the starting list is the list in force then.
    pub start: Month,
    pub months: u32,
    /// Ids are numbered from here, in order of arrival (FIDE-like 8-digit numbers).
    pub first_id: u32,

    // [pool]: the players on the starting list.
    pub pool: f64,
    pub pool_floor: f64,
    pub pool_strength_mean: f64,
    pub pool_strength_sd: f64,
    pub pool_rating_noise: f64,
    pub pool_age_mean: f64,
    pub pool_age_sd: f64,
    pub pool_junior_share: f64,
    pub junior_gap_on_list: f64,
    pub pool_active_share: f64,

    // [latent]: players of rated events below the starting list's floor.
    pub latent_players: f64,
    pub latent_strength_mean: f64,
    pub latent_strength_sd: f64,
    pub latent_junior_share: f64,
    pub latent_active_share: f64,
    pub latent_seen_noise: f64,

    // [players]: how strength changes with age.
    pub development_years: f64,
    pub walk_reversion: f64,
    pub walk_step: f64,
    pub region_drift: f64,
    pub development_jump_months: f64,
    pub ceiling_from: f64,
    pub ceiling_slope: f64,
    pub ceiling_max: f64,
    pub decline_from: f64,
    pub decline_rate: f64,
    pub female_share: f64,

    // [arrivals]
    pub arrivals_per_month: f64,
    pub arrivals_growth: f64,
    pub arrivals_growth_years: f64,
    pub entry_mean: f64,
    pub entry_drift: f64,
    pub entry_sd: f64,
    pub junior_entry_offset: f64,
    pub junior_gap_mean: f64,
    pub junior_gap_sd: f64,
    pub junior_share_start: f64,
    pub junior_share_growth: f64,
    pub junior_share_max: f64,

    // [activity]
    pub events_per_year: f64,
    pub activity_spread: f64,
    pub junior_activity: f64,
    pub quit_first_year: f64,
    pub quit_junior: f64,
    pub quit_adult: f64,
    pub occasional_share: f64,
    pub occasional_quit: f64,
    pub junior_return: f64,
    pub strong_from: f64,
    pub strong_slope: f64,
    pub strong_max: f64,
    pub strong_fade: f64,
    pub season: f64,
    pub season_peak: f64,
    /// 1: who of the listed players plays and how much comes from FIDE's lists
    /// (`fide_activity`); 0: from the rates above.
    pub from_fide: u32,

    // [events]
    pub zones: f64,
    pub regions: u32,
    pub international_share: f64,
    pub round_robin_share: f64,
    pub round_robin_share_strong: f64,
    pub sectioned_share: f64,
    pub sections_below: f64,
    pub swiss_min: u32,
    pub swiss_max: u32,
    pub round_robin_min: u32,
    pub round_robin_max: u32,
    pub league_share: f64,
    pub league_min: u32,
    pub league_max: u32,

    // [games]
    pub white_advantage: f64,
    pub draw_rate_low: f64,
    pub draw_rate_high: f64,
    pub draw_decay: f64,
    pub form_sd: f64,
    pub upset_share: f64,

    // [covid]
    pub shutdown_from: Month,
    pub shutdown_to: Month,
    pub shutdown_play: f64,
    pub shutdown_arrivals: f64,
    pub return_play: f64,
    pub return_months: f64,
}

/// The largest world: a hundred times FIDE's pool (about 5 billion games and 94 million players,
/// many times every rated player there has ever been), well inside the billion ids a world keeps
/// for its players. Far larger scales asked for petabytes of memory at once.
pub const MAX_SCALE: f64 = 100.0;

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("--scale must be above 0 and at most {MAX_SCALE} (0.01 for a small world, 1 for FIDE's size: 54 million games; {MAX_SCALE}: about 5 billion), got {0}")]
    Scale(f64),
    #[error("--scale {scale} makes a world of no player: {world} has about {} players at scale 1 (on its starting list, below its floor and arriving), so a world of one needs --scale {} or more", thousands(.players.round() as u64), smallest_scale(*.players))]
    NoPlayer {
        scale: f64,
        world: String,
        /// The players the world expects at scale 1.
        players: f64,
    },
}

/// The smallest scale at which a world of `players` at scale 1 expects one, rounded up to two
/// significant digits.
fn smallest_scale(players: f64) -> String {
    let scale = 1.0 / players;
    let digits = (1 - scale.log10().floor() as i32).max(0) as usize;
    let unit = 10f64.powi(-(digits as i32));
    let text = format!("{:.*}", digits, (scale / unit).ceil() * unit);
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

impl Settings {
    /// Sets the run options: the size against FIDE's and the seed.
    pub fn sized(mut self, scale: f64, seed: u64) -> Result<Settings, SettingsError> {
        if !(scale > 0.0 && scale <= MAX_SCALE) {
            return Err(SettingsError::Scale(scale));
        }
        let players = self.expected_players();
        if scale * players < 1.0 {
            return Err(SettingsError::NoPlayer {
                scale,
                world: self.name,
                players,
            });
        }
        self.scale = scale;
        self.seed = seed;
        Ok(self)
    }

    /// The players the world expects at scale 1: its starting pool, the latent players below its
    /// floor, and every month's arrivals.
    fn expected_players(&self) -> f64 {
        let arrivals: f64 = (0..self.months).map(|t| self.arrivals_in(t, 1.0)).sum();
        self.pool + self.latent_players + arrivals
    }

    /// The fractional year of the world's month `t`, at its middle.
    pub fn month_year(&self, t: u32) -> f64 {
        self.start_year() + f64::from(t) / 12.0 + 1.0 / 24.0
    }

    /// The newcomers the world's month `t` expects at `scale` (its arrivals are a Poisson draw of
    /// this mean).
    pub fn arrivals_in(&self, t: u32, scale: f64) -> f64 {
        let month = self.start.plus(t as i32);
        self.arrivals(self.month_year(t)) * scale * self.arrivals_share(month)
    }

    pub fn start_year(&self) -> f64 {
        f64::from(self.start.year()) + f64::from(self.start.month() - 1) / 12.0
    }

    /// Zones at this scale: at least one.
    pub fn zones_now(&self) -> u64 {
        ((self.zones * self.scale).round() as u64).max(1)
    }

    /// A count at FIDE's size, scaled.
    pub fn scaled(&self, count: f64) -> usize {
        (count * self.scale).round() as usize
    }

    /// New players a month at a fractional year, before scaling: growing by `arrivals_growth` a
    /// year, for `arrivals_growth_years` from the start when set (0: throughout), level after.
    pub fn arrivals(&self, year: f64) -> f64 {
        let mut years = year - self.start_year();
        if self.arrivals_growth_years > 0.0 {
            years = years.min(self.arrivals_growth_years);
        }
        self.arrivals_per_month * (1.0 + self.arrivals_growth).powf(years)
    }

    /// A potential after the game's ceiling: above `ceiling_from` it grows by `ceiling_slope` of
    /// the excess, and never past `ceiling_max` (the best players of FIDE's history peaked near
    /// 2880; without it, the long tail of juniors' gains made a few players truly 3000 and more).
    /// The personal random walk and each event's form still move strength a few dozen points.
    pub fn ceiling(&self, potential: f64) -> f64 {
        if potential > self.ceiling_from {
            let above = self.ceiling_from + (potential - self.ceiling_from) * self.ceiling_slope;
            above.min(self.ceiling_max)
        } else {
            potential
        }
    }

    /// Points lost to age: `decline_rate` × (years past `decline_from`)².
    pub fn decline(&self, age: f64) -> f64 {
        let over = (age - self.decline_from).max(0.0);
        self.decline_rate * over * over
    }

    /// The share of juniors among entrants, `years` after the start.
    pub fn junior_share(&self, years: f64) -> f64 {
        (self.junior_share_start + self.junior_share_growth * years).min(self.junior_share_max)
    }

    /// How many times more events a player of this strength and age plays than the players' base
    /// activity: professionals play much more (FIDE's January 2008 list: 12.6 games a quarter per
    /// player at 2500–2599, 1.8 at 2000–2099), less so as they age (`strong_fade`).
    pub fn activity_factor(&self, strength: f64, age: f64) -> f64 {
        let above = (strength - self.strong_from).max(0.0) / 100.0;
        let factor = (self.strong_slope * above).exp().min(self.strong_max);
        let past = age - self.decline_from;
        if self.strong_fade > 0.0 && past > 0.0 {
            factor.powf((-past / self.strong_fade).exp())
        } else {
            factor
        }
    }

    /// The share of a player's events that are round robins: amateurs' few, strong players' many
    /// (closed events among equals), rising linearly over 400 points from `strong_from`.
    pub fn round_robin_share(&self, strength: f64) -> f64 {
        let t = ((strength - self.strong_from) / 400.0).clamp(0.0, 1.0);
        self.round_robin_share + (self.round_robin_share_strong - self.round_robin_share) * t
    }

    fn shut(&self, month: Month) -> bool {
        self.shutdown_from <= month && month <= self.shutdown_to
    }

    /// How much over-the-board play happens in a month against a usual month of the year: the
    /// shutdown's share, and after it the return.
    fn open_share(&self, month: Month) -> f64 {
        if self.shut(month) {
            return self.shutdown_play;
        }
        let after = month.since(self.shutdown_to);
        if after <= 0 || f64::from(after) > self.return_months {
            return 1.0;
        }
        // Players come back over months, not at once: FIDE's lists of July 2021 counted about
        // 0.4 of the usual players who played, of mid-2022 about 0.85 (data/fide-activity/).
        self.return_play + (1.0 - self.return_play) * f64::from(after - 1) / self.return_months
    }

    /// The chess season: play in a month against the year's mean, 1 + `season` in the month
    /// `season_peak` (months from the start of the year) and 1 − `season` six months away, a
    /// cosine between. FIDE's lists of 2015–2025 count about 1.25 times the year's mean of players
    /// who played on the lists of January–April (games of December–March) and 0.7–0.8 on those of
    /// July–October (data/fide-activity/).
    pub fn season_share(&self, month: Month) -> f64 {
        let phase = (f64::from(month.month()) - self.season_peak) / 12.0 * std::f64::consts::TAU;
        1.0 + self.season * phase.cos()
    }

    /// How much play a month has against the world's usual: its season, its shutdown or return.
    pub fn play_share(&self, month: Month) -> f64 {
        self.open_share(month) * self.season_share(month)
    }

    /// How many newcomers arrive in a month, against normal (1 normally).
    pub fn arrivals_share(&self, month: Month) -> f64 {
        if self.shut(month) {
            self.shutdown_arrivals
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::file::preset;
    use super::*;

    #[test]
    fn bad_scales_are_refused() {
        let s = preset("fide-2001-2025").unwrap();
        let e = s.clone().sized(1e-9, 1).unwrap_err().to_string();
        assert!(
            e.contains("--scale 0.000000001 makes a world of no player: fide-2001-2025 has"),
            "{e}"
        );
        let smallest = e.split("one needs --scale ").nth(1).unwrap();
        let smallest: f64 = smallest.split(' ').next().unwrap().parse().unwrap();
        assert!(s.clone().sized(smallest, 1).is_ok(), "{e}");
        assert!(s.clone().sized(smallest * 0.9, 1).is_err(), "{e}");
        assert!(s.clone().sized(0.0, 1).is_err());
        assert!(s.clone().sized(-1.0, 1).is_err());
        assert!(s.clone().sized(f64::NAN, 1).is_err());
        assert_eq!(s.sized(0.5, 7).unwrap().seed, 7);
    }

    /// Potentials grow by the slope above the ceiling, and none passes its maximum.
    #[test]
    fn the_ceiling_slows_potentials_and_caps_them() {
        let s = preset("fide-2001-2025").unwrap();
        assert_eq!(s.ceiling(s.ceiling_from - 100.0), s.ceiling_from - 100.0);
        let above = s.ceiling(s.ceiling_from + 100.0);
        assert!((above - (s.ceiling_from + 100.0 * s.ceiling_slope)).abs() < 1e-9);
        assert_eq!(s.ceiling(5000.0), s.ceiling_max);
        assert!(s.ceiling(s.ceiling_max + 1.0) <= s.ceiling_max);
    }

    /// Arrivals grow by `arrivals.growth` a year throughout, or for `arrivals.growth_years` and
    /// level after.
    #[test]
    fn arrivals_grow_then_hold_their_level_when_growth_years_is_set() {
        let mut s = preset("fide-2001-2025").unwrap();
        let start = s.start_year();
        let grown = |years: f64| s.arrivals_per_month * (1.0 + s.arrivals_growth).powf(years);
        let (at_10, at_14, at_20) = (grown(10.0), grown(14.0), grown(20.0));
        assert!((s.arrivals(start + 20.0) - at_20).abs() < 1e-9);
        s.arrivals_growth_years = 14.0;
        assert!((s.arrivals(start + 10.0) - at_10).abs() < 1e-9);
        assert!((s.arrivals(start + 14.0) - at_14).abs() < 1e-9);
        assert!((s.arrivals(start + 20.0) - at_14).abs() < 1e-9);
    }

    /// Strong players' extra play fades past `decline_from` when `strong_fade` is set: by a factor
    /// e of its log in `strong_fade` years; without it (0), age changes nothing.
    #[test]
    fn strong_players_play_less_as_they_age_when_their_calendar_fades() {
        let mut s = preset("fide-2001-2025").unwrap();
        let strong = s.strong_from + 150.0;
        let young = s.activity_factor(strong, 30.0);
        assert!(young > 2.0, "{young}");
        assert_eq!(s.activity_factor(strong, 70.0), young);
        s.strong_fade = 10.0;
        assert_eq!(s.activity_factor(strong, s.decline_from), young);
        let later = s.activity_factor(strong, s.decline_from + 10.0);
        assert!((later.ln() - young.ln() / std::f64::consts::E).abs() < 1e-9);
        assert!(s.activity_factor(strong, 90.0) < 1.1);
        assert_eq!(s.activity_factor(s.strong_from - 100.0, 70.0), 1.0);
    }

    #[test]
    fn the_shutdown_stops_play() {
        let s = preset("fide-2001-2025").unwrap();
        assert_eq!(s.open_share(Month::new(2020, 3).unwrap()), 1.0);
        assert!(s.open_share(Month::new(2020, 4).unwrap()) < 0.1);
        assert!(s.open_share(Month::new(2021, 6).unwrap()) < 0.1);
        // The return: its share the month after, the usual after `return_months`.
        let month = |y, m| Month::new(y, m).unwrap();
        assert_eq!(s.open_share(month(2021, 7)), s.return_play);
        let months = s.return_months as i32;
        let last = month(2021, 6).plus(months);
        let step = (1.0 - s.return_play) / s.return_months;
        assert!((s.open_share(last) - (1.0 - step)).abs() < 1e-12);
        assert_eq!(s.open_share(last.plus(1)), 1.0);
        // The season: its peak and its trough six months away, the year's mean 1.
        let peak = s.season_peak.round() as u32;
        let year: Vec<f64> = (1..=12).map(|m| s.season_share(month(2019, m))).collect();
        assert!((year.iter().sum::<f64>() / 12.0 - 1.0).abs() < 1e-9);
        let highest = year.iter().cloned().fold(0.0, f64::max);
        assert_eq!(year[peak as usize - 1], highest);
        assert!(year[(peak as usize + 5) % 12] < 1.0 - s.season * 0.9);
        assert_eq!(s.play_share(month(2019, 3)), s.season_share(month(2019, 3)));
    }
}
