//! The world's parameters. Each value says why it is what it is; they were set from the shape of
//! FIDE's real lists (docs/generate.md) and never from what a replay of the world shows.

use crate::model::Month;
use crate::named::named_enum;

named_enum! {
    /// A preset world.
    pub enum Preset {
        /// FIDE's standard rating world from January 2008 to December 2023 (Sonas's 15 years).
        Fide2008To2023 = "fide-2008-2023",
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub preset: Preset,
    /// Players and games scale with this (1.0: FIDE's size).
    pub scale: f64,
    pub seed: u64,
    /// The first month of games; the starting list is the list in force then.
    pub start: Month,
    pub months: u32,
    /// Ids are numbered from here, in order of arrival (FIDE-like 8-digit numbers).
    pub first_id: u32,
    /// Players on the starting list: FIDE's January 2008 standard list has 87,075.
    pub pool: f64,
    /// Their ages: FIDE's pool of 2008 was mostly adult (mean about 33, wide spread).
    pub pool_age_mean: f64,
    pub pool_age_sd: f64,
    /// The share of them still playing: about 70 % of a list's players were active then.
    pub pool_active_share: f64,
    /// Their strengths: the January 2008 list peaks near 2100 with an SD near 190 and stops at the
    /// 1400 floor (docs/generate.md compares the bands).
    pub pool_strength_mean: f64,
    pub pool_strength_sd: f64,
    pub pool_strength_min: f64,
    /// How much a junior on the starting list still has to gain, at most.
    pub junior_gap_on_list: f64,
    /// Years for a junior's gap to potential to shrink by a factor e (individuals vary ±40 %):
    /// juniors gain hundreds of points in their first years, little after twenty.
    pub development_years: f64,
    /// The personal random walk: each month keeps this share of the last and adds a step of this
    /// SD, about ±35 points at equilibrium (form, study, life).
    pub walk_reversion: f64,
    pub walk_step: f64,
    /// Yearly chance that an active player stops playing: juniors drop out more often.
    pub quit_junior: f64,
    pub quit_adult: f64,
    /// About one player in eight on FIDE's lists is a woman.
    pub female_share: f64,
    /// Regions (federations) of very different sizes.
    pub regions: u16,
    /// Events a year of an active player (lognormal across players, this mean): with 5–11 rounds,
    /// about 20 rated games a year.
    pub events_per_year: f64,
    /// New players a month in the first year, and their growth a year: the game spreads, and
    /// FIDE's pool grew from about 100,000 (2011) to about 400,000 rated players (2023).
    pub arrivals_per_month: f64,
    pub arrivals_growth: f64,
    /// Entrants' strength: this mean in the first year, falling by `entry_drift` a year as
    /// weaker players take up rated chess, with this SD.
    pub entry_mean: f64,
    pub entry_drift: f64,
    pub entry_sd: f64,
    /// How much weaker than adult entrants juniors enter.
    pub junior_entry_offset: f64,
    /// A junior entrant's gap to potential.
    pub junior_gap_mean: f64,
    pub junior_gap_sd: f64,
    /// The game's ceiling: potentials above `ceiling_from` grow only by `ceiling_slope` of the
    /// excess, so that a junior's potential stays human (FIDE's best are near 2850, and only a
    /// few dozen pass 2700).
    pub ceiling_from: f64,
    pub ceiling_slope: f64,
    /// Share of entrants who are juniors: half at first, more each year.
    pub junior_share_start: f64,
    pub junior_share_growth: f64,
    /// Share of a month's players in an international (mixed-region) event.
    pub international_share: f64,
    /// Share of a month's players in round robins (among similar players).
    pub round_robin_share: f64,
    /// COVID: over-the-board play almost stops from April 2020 to June 2021.
    pub shutdown: (Month, Month),
    pub shutdown_play: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("--scale must be above 0 (0.01 for a small world, 1 for FIDE's size), got {0}")]
    Scale(f64),
    #[error("unknown preset {0:?}; presets: {names}", names = Preset::NAMES.join(", "))]
    Preset(String),
}

impl Settings {
    pub fn new(preset: &str, scale: f64, seed: u64) -> Result<Settings, SettingsError> {
        let preset = Preset::parse(preset).ok_or_else(|| SettingsError::Preset(preset.into()))?;
        if !(scale > 0.0 && scale.is_finite()) {
            return Err(SettingsError::Scale(scale));
        }
        let month = |y, m| Month::new(y, m).unwrap_or_default();
        Ok(match preset {
            Preset::Fide2008To2023 => Settings {
                preset,
                scale,
                seed,
                start: month(2008, 1),
                months: 16 * 12,
                first_id: 10_000_001,
                pool: 87_000.0,
                pool_age_mean: 33.0,
                pool_age_sd: 14.0,
                pool_active_share: 0.7,
                pool_strength_mean: 2075.0,
                pool_strength_sd: 175.0,
                pool_strength_min: 1400.0,
                junior_gap_on_list: 300.0,
                development_years: 3.0,
                walk_reversion: 0.985,
                walk_step: 6.0,
                quit_junior: 0.25,
                quit_adult: 0.08,
                female_share: 0.12,
                regions: 40,
                events_per_year: 1.7,
                arrivals_per_month: 1_200.0,
                arrivals_growth: 0.11,
                entry_mean: 1500.0,
                entry_drift: 20.0,
                entry_sd: 250.0,
                junior_entry_offset: 600.0,
                junior_gap_mean: 1000.0,
                junior_gap_sd: 300.0,
                ceiling_from: 2400.0,
                ceiling_slope: 0.35,
                junior_share_start: 0.5,
                junior_share_growth: 0.02,
                international_share: 0.2,
                round_robin_share: 0.15,
                shutdown: (month(2020, 4), month(2021, 6)),
                shutdown_play: 0.03,
            },
        })
    }

    pub fn start_year(&self) -> f64 {
        f64::from(self.start.year()) + f64::from(self.start.month() - 1) / 12.0
    }

    /// A count at FIDE's size, scaled.
    pub fn scaled(&self, count: f64) -> usize {
        (count * self.scale).round() as usize
    }

    /// New players a month at a fractional year, before scaling.
    pub fn arrivals(&self, year: f64) -> f64 {
        self.arrivals_per_month * (1.0 + self.arrivals_growth).powf(year - self.start_year())
    }

    /// A potential after the game's ceiling.
    pub fn ceiling(&self, potential: f64) -> f64 {
        if potential > self.ceiling_from {
            self.ceiling_from + (potential - self.ceiling_from) * self.ceiling_slope
        } else {
            potential
        }
    }

    /// The share of juniors among entrants, `years` after the start.
    pub fn junior_share(&self, years: f64) -> f64 {
        (self.junior_share_start + self.junior_share_growth * years).min(0.85)
    }

    /// How much over-the-board play happens in a month (1 normally).
    pub fn open_share(&self, month: Month) -> f64 {
        if self.shutdown.0 <= month && month <= self.shutdown.1 {
            self.shutdown_play
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_scales_and_presets_are_refused() {
        assert!(Settings::new("fide-2008-2023", 0.0, 1).is_err());
        assert!(Settings::new("fide-2008-2023", -1.0, 1).is_err());
        assert!(Settings::new("fide-2008-2023", f64::NAN, 1).is_err());
        let e = Settings::new("fide-1990", 1.0, 1).unwrap_err().to_string();
        assert!(e.contains("fide-2008-2023"), "{e}");
    }

    #[test]
    fn the_shutdown_stops_play() {
        let s = Settings::new("fide-2008-2023", 1.0, 1).unwrap();
        assert_eq!(s.open_share(Month::new(2020, 3).unwrap()), 1.0);
        assert!(s.open_share(Month::new(2020, 4).unwrap()) < 0.1);
        assert!(s.open_share(Month::new(2021, 6).unwrap()) < 0.1);
        assert_eq!(s.open_share(Month::new(2021, 7).unwrap()), 1.0);
    }
}
