//! Every key of a world file: where it lives in [`Settings`], its unit and the values it may take.
//! One table serves reading, checking, writing and calibrating world files.

use crate::model::Month;

use super::Settings;

/// A parameter's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Real(f64),
    Whole(u32),
    Month(Month),
}

impl Value {
    /// The value as a number (a month counts its months since year 0).
    pub fn number(self) -> f64 {
        match self {
            Value::Real(v) => v,
            Value::Whole(v) => f64::from(v),
            Value::Month(m) => f64::from(m.index()),
        }
    }
}

/// Where a parameter lives in the settings.
#[derive(Clone, Copy)]
pub enum Access {
    Real(fn(&Settings) -> f64, fn(&mut Settings) -> &mut f64),
    Whole(fn(&Settings) -> u32, fn(&mut Settings) -> &mut u32),
    Month(fn(&Settings) -> Month, fn(&mut Settings) -> &mut Month),
}

/// One key of the world file.
#[derive(Clone, Copy)]
pub struct Param {
    /// `section.key`, as in the file.
    pub key: &'static str,
    pub unit: &'static str,
    /// The values allowed, inclusive (months: as `Value::number`).
    pub min: f64,
    pub max: f64,
    pub access: Access,
}

impl std::fmt::Debug for Param {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Param({})", self.key)
    }
}

impl Param {
    pub fn section(&self) -> &'static str {
        self.key.split_once('.').map_or("", |(s, _)| s)
    }

    pub fn name(&self) -> &'static str {
        self.key.split_once('.').map_or(self.key, |(_, k)| k)
    }

    pub fn get(&self, s: &Settings) -> Value {
        match self.access {
            Access::Real(get, _) => Value::Real(get(s)),
            Access::Whole(get, _) => Value::Whole(get(s)),
            Access::Month(get, _) => Value::Month(get(s)),
        }
    }

    /// Sets the value; the caller has checked its kind and range.
    pub fn set(&self, s: &mut Settings, value: Value) {
        match (self.access, value) {
            (Access::Real(_, at), Value::Real(v)) => *at(s) = v,
            (Access::Real(_, at), Value::Whole(v)) => *at(s) = f64::from(v),
            (Access::Whole(_, at), Value::Whole(v)) => *at(s) = v,
            (Access::Month(_, at), Value::Month(v)) => *at(s) = v,
            _ => {}
        }
    }

    /// Whether a number may be given (real parameters only: calibration moves these).
    pub fn is_real(&self) -> bool {
        matches!(self.access, Access::Real(..))
    }

    /// The range as people read it.
    pub fn range_text(&self) -> String {
        match self.access {
            Access::Month(..) => format!(
                "a month from {} to {}",
                Month::from_index(self.min as i32),
                Month::from_index(self.max as i32)
            ),
            Access::Whole(..) => format!("a whole number from {} to {}", self.min, self.max),
            Access::Real(..) => format!("a number from {} to {}", self.min, self.max),
        }
    }
}

macro_rules! params {
    ($($key:literal => $field:ident: $kind:ident [$min:expr, $max:expr] $unit:literal,)*) => {
        /// Every parameter, in the order the world file lists them.
        pub const PARAMS: &[Param] = &[$(
            Param {
                key: $key,
                unit: $unit,
                min: $min as f64,
                max: $max as f64,
                access: params!(@access $kind $field),
            },
        )*];
    };
    (@access real $field:ident) => {
        Access::Real(
            { fn get(s: &Settings) -> f64 { s.$field } get },
            { fn at(s: &mut Settings) -> &mut f64 { &mut s.$field } at },
        )
    };
    (@access whole $field:ident) => {
        Access::Whole(
            { fn get(s: &Settings) -> u32 { s.$field } get },
            { fn at(s: &mut Settings) -> &mut u32 { &mut s.$field } at },
        )
    };
    (@access month $field:ident) => {
        Access::Month(
            { fn get(s: &Settings) -> Month { s.$field } get },
            { fn at(s: &mut Settings) -> &mut Month { &mut s.$field } at },
        )
    };
}

/// Months as `Value::number` gives them, for ranges.
const Y1900: i32 = 1900 * 12;
const Y2200: i32 = 2200 * 12 + 11;

params! {
    "world.start" => start: month [Y1900, Y2200] "month",
    "world.months" => months: whole [1, 1200] "months",
    "world.first_id" => first_id: whole [1, 1_000_000_000] "id",

    "pool.players" => pool: real [0, 10_000_000] "players at scale 1",
    "pool.floor" => pool_floor: real [500, 3000] "rating points",
    "pool.strength_mean" => pool_strength_mean: real [500, 3000] "rating points",
    "pool.strength_sd" => pool_strength_sd: real [0, 1000] "rating points",
    "pool.rating_noise" => pool_rating_noise: real [0, 500] "rating points",
    "pool.age_mean" => pool_age_mean: real [20, 85] "years",
    "pool.age_sd" => pool_age_sd: real [0, 50] "years",
    "pool.junior_share" => pool_junior_share: real [0, 1] "share",
    "pool.junior_gap" => junior_gap_on_list: real [0, 2000] "rating points",
    "pool.active_share" => pool_active_share: real [0, 1] "share",

    "latent.players" => latent_players: real [0, 10_000_000] "players at scale 1",
    "latent.strength_mean" => latent_strength_mean: real [500, 3000] "rating points",
    "latent.strength_sd" => latent_strength_sd: real [0, 1000] "rating points",
    "latent.junior_share" => latent_junior_share: real [0, 1] "share",
    "latent.active_share" => latent_active_share: real [0, 1] "share",
    "latent.seen_noise" => latent_seen_noise: real [0, 500] "rating points",

    "players.development_years" => development_years: real [0.1, 50] "years",
    "players.walk_reversion" => walk_reversion: real [0, 1] "share kept a month",
    "players.walk_step" => walk_step: real [0, 200] "rating points a month",
    "players.region_drift" => region_drift: real [0, 100] "rating points a year",
    "players.development_jump_months" => development_jump_months: real [1, 60] "months",
    "players.ceiling_from" => ceiling_from: real [1000, 3500] "rating points",
    "players.ceiling_slope" => ceiling_slope: real [0, 1] "share",
    "players.ceiling_max" => ceiling_max: real [1000, 4000] "rating points",
    "players.decline_from" => decline_from: real [20, 100] "years of age",
    "players.decline_rate" => decline_rate: real [0, 10] "rating points a year squared",
    "players.female_share" => female_share: real [0, 1] "share",

    "arrivals.per_month" => arrivals_per_month: real [0, 1_000_000] "players a month at scale 1",
    "arrivals.growth" => arrivals_growth: real [-0.5, 1] "share a year",
    "arrivals.growth_years" => arrivals_growth_years: real [0, 1000] "years",
    "arrivals.entry_mean" => entry_mean: real [500, 3000] "rating points",
    "arrivals.entry_drift" => entry_drift: real [-200, 200] "rating points a year",
    "arrivals.entry_sd" => entry_sd: real [0, 1000] "rating points",
    "arrivals.junior_offset" => junior_entry_offset: real [-1000, 2000] "rating points",
    "arrivals.junior_gap_mean" => junior_gap_mean: real [0, 3000] "rating points",
    "arrivals.junior_gap_sd" => junior_gap_sd: real [0, 1500] "rating points",
    "arrivals.junior_share" => junior_share_start: real [0, 1] "share",
    "arrivals.junior_share_growth" => junior_share_growth: real [-0.5, 0.5] "share a year",
    "arrivals.junior_share_max" => junior_share_max: real [0, 1] "share",

    "activity.events_per_year" => events_per_year: real [0.01, 100] "events a year",
    "activity.spread" => activity_spread: real [0, 3] "log-normal SD",
    "activity.junior_factor" => junior_activity: real [0.05, 5] "times",
    "activity.quit_first_year" => quit_first_year: real [0, 1] "share a year",
    "activity.quit_junior" => quit_junior: real [0, 1] "share a year",
    "activity.quit_adult" => quit_adult: real [0, 1] "share a year",
    "activity.occasional_share" => occasional_share: real [0, 1] "share",
    "activity.occasional_quit" => occasional_quit: real [0, 1] "share a year",
    "activity.junior_return" => junior_return: real [0, 1] "share a year",
    "activity.strong_from" => strong_from: real [1000, 3000] "rating points",
    "activity.strong_slope" => strong_slope: real [0, 3] "log of the factor per 100 points",
    "activity.strong_max" => strong_max: real [1, 100] "times",
    "activity.strong_fade" => strong_fade: real [0, 100] "years",
    "activity.season" => season: real [0, 0.95] "share",
    "activity.season_peak" => season_peak: real [0, 12] "months from the start of the year",
    "activity.from_fide" => from_fide: whole [0, 1] "1: FIDE's lists say who of the listed players plays and how much; 0: the rates above",

    "events.zones" => zones: real [0, 10_000] "zones at scale 1",
    "events.regions" => regions: whole [1, 1000] "regions",
    "events.international_share" => international_share: real [0, 1] "share",
    "events.round_robin_share" => round_robin_share: real [0, 1] "share",
    "events.round_robin_share_strong" => round_robin_share_strong: real [0, 1] "share",
    "events.sectioned_share" => sectioned_share: real [0, 1] "share",
    "events.sections_below" => sections_below: real [0, 4000] "rating points",
    "events.swiss_min" => swiss_min: whole [2, 10_000] "players",
    "events.swiss_max" => swiss_max: whole [2, 10_000] "players",
    "events.round_robin_min" => round_robin_min: whole [2, 100] "players",
    "events.round_robin_max" => round_robin_max: whole [2, 100] "players",
    "events.league_share" => league_share: real [0, 1] "share",
    "events.league_min" => league_min: whole [2, 10_000] "players",
    "events.league_max" => league_max: whole [2, 10_000] "players",

    "games.white_advantage" => white_advantage: real [-200, 200] "rating points",
    "games.draw_rate_low" => draw_rate_low: real [0, 1] "share",
    "games.draw_rate_high" => draw_rate_high: real [0, 1] "share",
    "games.draw_decay" => draw_decay: real [1, 5000] "rating points",
    "games.form_sd" => form_sd: real [0, 500] "rating points",
    "games.upset_share" => upset_share: real [0, 1] "share of games",

    "covid.from" => shutdown_from: month [Y1900, Y2200] "month",
    "covid.to" => shutdown_to: month [Y1900, Y2200] "month",
    "covid.play" => shutdown_play: real [0, 1] "share",
    "covid.arrivals" => shutdown_arrivals: real [0, 1] "share",
    "covid.return_play" => return_play: real [0, 1] "share",
    "covid.return_months" => return_months: real [0, 120] "months",
}

/// The parameter of a key.
pub fn find(key: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.key == key)
}

/// The file's sections, in order.
pub fn sections() -> Vec<&'static str> {
    let mut sections: Vec<&'static str> = Vec::new();
    for p in PARAMS {
        if !sections.contains(&p.section()) {
            sections.push(p.section());
        }
    }
    sections
}
