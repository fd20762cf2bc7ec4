//! The settings of the period-based rating systems: one table per system (`[elo]`, `[glicko]`,
//! `[glicko2]`), every key a number with its valid range, checked when the file is read.

use std::fmt::Write;

use crate::systems::berkin::BerkinConfig;
use crate::systems::elo::{EloConfig, KRule};
use crate::systems::gcr::GcrConfig;
use crate::systems::glicko::GlickoConfig;
use crate::systems::glicko2::Glicko2Config;
use crate::systems::uscf_classic::UscfClassicConfig;
use crate::systems::{SystemConfig, SystemKind};

/// One setting: key, lower bound (exclusive when `above`), upper bound, meaning.
pub struct Key {
    pub name: &'static str,
    pub min: f64,
    pub above: bool,
    pub max: f64,
    pub meaning: &'static str,
}

const fn key(name: &'static str, min: f64, above: bool, max: f64, meaning: &'static str) -> Key {
    Key {
        name,
        min,
        above,
        max,
        meaning,
    }
}

const ELO: &[Key] = &[
    key(
        "k",
        0.0,
        false,
        1000.0,
        "K factor (after k-first-games games when k-first is set)",
    ),
    key(
        "k-first",
        0.0,
        false,
        1000.0,
        "K for a player's first k-first-games games",
    ),
    key(
        "k-first-games",
        0.0,
        false,
        10_000.0,
        "games played under k-first",
    ),
    key(
        "initial",
        0.0,
        false,
        4000.0,
        "rating of an unknown player on first appearance",
    ),
    key(
        "provisional-games",
        0.0,
        false,
        10_000.0,
        "no published rating before this many games",
    ),
];

const GLICKO: &[Key] = &[
    key(
        "initial-rating",
        0.0,
        false,
        4000.0,
        "rating of an unknown player",
    ),
    key(
        "initial-rd",
        0.0,
        true,
        1000.0,
        "rating deviation of an unknown player (the largest RD)",
    ),
    key(
        "c",
        0.0,
        false,
        1000.0,
        "RD growth per period without games",
    ),
    key("min-rd", 0.0, false, 1000.0, "smallest RD"),
];

const GLICKO2: &[Key] = &[
    key(
        "initial-rating",
        0.0,
        false,
        4000.0,
        "rating of an unknown player",
    ),
    key(
        "initial-rd",
        0.0,
        true,
        1000.0,
        "rating deviation of an unknown player (the largest RD)",
    ),
    key(
        "initial-volatility",
        0.0,
        true,
        1.0,
        "volatility σ of an unknown player",
    ),
    key(
        "tau",
        0.0,
        true,
        10.0,
        "τ, how fast the volatility may change",
    ),
];

const USCF_CLASSIC: &[Key] = &[
    key(
        "provisional-games",
        0.0,
        true,
        1000.0,
        "games in the provisional period",
    ),
    key(
        "unrated",
        0.0,
        false,
        4000.0,
        "rating assumed for an unrated opponent",
    ),
];

const BERKIN: &[Key] = &[
    key(
        "n0",
        0.0,
        true,
        1_000_000.0,
        "No, Berkin's arbitrary constant",
    ),
    key(
        "base-points",
        0.0,
        true,
        10_000.0,
        "logarithmic points per factor of ten (a = 10^(1/base-points))",
    ),
    key(
        "initial",
        0.0,
        false,
        4000.0,
        "logarithmic rating of an unknown player",
    ),
];

const GCR: &[Key] = &[
    key(
        "initial",
        0.0,
        false,
        4000.0,
        "everyone's rating before each pass",
    ),
    key(
        "max-change",
        0.0,
        true,
        4000.0,
        "largest change of one pair (× actual − expected)",
    ),
    key(
        "games-damping",
        0.0,
        true,
        10_000.0,
        "n/(n + this) for n games together",
    ),
    key(
        "experience-damping",
        0.0,
        true,
        1_000_000.0,
        "1 − p/(p + this) for p past games",
    ),
];

/// The settings table of a system, and its keys.
pub fn keys(kind: SystemKind) -> Option<(&'static str, &'static [Key])> {
    match kind {
        SystemKind::Fide => None,
        SystemKind::Elo => Some(("elo", ELO)),
        SystemKind::Glicko => Some(("glicko", GLICKO)),
        SystemKind::Glicko2 => Some(("glicko2", GLICKO2)),
        SystemKind::UscfClassic => Some(("uscf-classic", USCF_CLASSIC)),
        SystemKind::Berkin => Some(("berkin", BERKIN)),
        SystemKind::Gcr => Some(("gcr", GCR)),
    }
}

/// Every system's settings table name.
pub const TABLES: &[&str] = &["elo", "glicko", "glicko2", "uscf-classic", "berkin", "gcr"];

/// The keys of a settings table, by its name.
pub fn keys_of(table: &str) -> &'static [Key] {
    match table {
        "elo" => ELO,
        "glicko" => GLICKO,
        "uscf-classic" => USCF_CLASSIC,
        "berkin" => BERKIN,
        "gcr" => GCR,
        _ => GLICKO2,
    }
}

impl Key {
    /// The value, or what was expected.
    pub fn check(&self, value: f64) -> Result<f64, String> {
        let low_ok = if self.above {
            value > self.min
        } else {
            value >= self.min
        };
        if low_ok && value <= self.max && value.is_finite() {
            Ok(value)
        } else {
            let low = if self.above {
                "greater than"
            } else {
                "at least"
            };
            Err(format!(
                "expected a number {low} {} and at most {} ({}), got {value}",
                self.min, self.max, self.meaning
            ))
        }
    }
}

/// The system's configuration: its defaults, then the settings given (last one wins).
pub fn config(kind: SystemKind, settings: &[(String, f64)]) -> SystemConfig {
    let get = |name: &str| {
        settings
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| *v)
    };
    match kind {
        SystemKind::Fide => SystemConfig::Fide,
        SystemKind::UscfClassic => {
            let d = UscfClassicConfig::default();
            SystemConfig::UscfClassic(UscfClassicConfig {
                provisional_games: get("provisional-games")
                    .map_or(d.provisional_games, |v| v as u32),
                unrated: get("unrated").unwrap_or(d.unrated),
            })
        }
        SystemKind::Gcr => {
            let d = GcrConfig::default();
            SystemConfig::Gcr(GcrConfig {
                initial: get("initial").unwrap_or(d.initial),
                max_change: get("max-change").unwrap_or(d.max_change),
                games_damping: get("games-damping").unwrap_or(d.games_damping),
                experience_damping: get("experience-damping").unwrap_or(d.experience_damping),
            })
        }
        SystemKind::Berkin => {
            let d = BerkinConfig::default();
            SystemConfig::Berkin(BerkinConfig {
                n0: get("n0").unwrap_or(d.n0),
                base_points: get("base-points").unwrap_or(d.base_points),
                initial: get("initial").unwrap_or(d.initial),
            })
        }
        SystemKind::Elo => {
            let d = EloConfig::default();
            let after = get("k").unwrap_or(20.0);
            let k = match get("k-first") {
                Some(first) => KRule::ByGames {
                    first,
                    games: get("k-first-games").unwrap_or(30.0) as u32,
                    after,
                },
                None => KRule::Constant(after),
            };
            SystemConfig::Elo(EloConfig {
                k,
                initial: get("initial").unwrap_or(d.initial),
                provisional_games: get("provisional-games")
                    .map_or(d.provisional_games, |v| v as u32),
            })
        }
        SystemKind::Glicko => {
            let d = GlickoConfig::default();
            SystemConfig::Glicko(GlickoConfig {
                initial_rating: get("initial-rating").unwrap_or(d.initial_rating),
                initial_rd: get("initial-rd").unwrap_or(d.initial_rd),
                c: get("c").unwrap_or(d.c),
                min_rd: get("min-rd").unwrap_or(d.min_rd),
            })
        }
        SystemKind::Glicko2 => {
            let d = Glicko2Config::default();
            SystemConfig::Glicko2(Glicko2Config {
                initial_rating: get("initial-rating").unwrap_or(d.initial_rating),
                initial_rd: get("initial-rd").unwrap_or(d.initial_rd),
                initial_volatility: get("initial-volatility").unwrap_or(d.initial_volatility),
                tau: get("tau").unwrap_or(d.tau),
            })
        }
    }
}

/// Every setting in force, as (key, value), for the resolved file and `check`.
pub fn settings(config: &SystemConfig) -> Vec<(&'static str, f64)> {
    match config {
        SystemConfig::Fide => Vec::new(),
        SystemConfig::Elo(c) => {
            let mut out = match c.k {
                KRule::Constant(k) => vec![("k", k)],
                KRule::ByGames {
                    first,
                    games,
                    after,
                } => vec![
                    ("k", after),
                    ("k-first", first),
                    ("k-first-games", f64::from(games)),
                ],
            };
            out.push(("initial", c.initial));
            out.push(("provisional-games", f64::from(c.provisional_games)));
            out
        }
        SystemConfig::Glicko(c) => vec![
            ("initial-rating", c.initial_rating),
            ("initial-rd", c.initial_rd),
            ("c", c.c),
            ("min-rd", c.min_rd),
        ],
        SystemConfig::UscfClassic(c) => vec![
            ("provisional-games", f64::from(c.provisional_games)),
            ("unrated", c.unrated),
        ],
        SystemConfig::Gcr(c) => vec![
            ("initial", c.initial),
            ("max-change", c.max_change),
            ("games-damping", c.games_damping),
            ("experience-damping", c.experience_damping),
        ],
        SystemConfig::Berkin(c) => vec![
            ("n0", c.n0),
            ("base-points", c.base_points),
            ("initial", c.initial),
        ],
        SystemConfig::Glicko2(c) => vec![
            ("initial-rating", c.initial_rating),
            ("initial-rd", c.initial_rd),
            ("initial-volatility", c.initial_volatility),
            ("tau", c.tau),
        ],
    }
}

/// The settings as a TOML table (empty for FIDE).
pub fn to_toml(config: &SystemConfig) -> String {
    let Some((table, _)) = keys(config.kind()) else {
        return String::new();
    };
    let mut out = format!("\n[{table}]\n");
    for (k, v) in settings(config) {
        let _ = writeln!(out, "{k} = {v:?}");
    }
    out
}
