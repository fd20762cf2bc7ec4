//! Rating systems, one file each, sharing the replay's calendar, inputs and output tables.
//! A scenario's `system` key picks one: FIDE's regulations, era by era (`fide`), or one of the
//! period-based systems of the source documents, which the periodic replay drives through
//! [`PeriodicSystem`].

pub mod berkin;
pub mod elo;
pub mod fide;
pub mod gcr;
pub mod glicko;
pub mod glicko2;
pub mod settings;
pub mod uscf_classic;

use crate::named::named_enum;

pub use settings::{Key, Settings};

/// Declares the rating systems with a settings table: each one's name (its `system` value and its
/// table), its settings type (which carries its keys, `Settings`) and the engine family that
/// replays it (a `Visit` method). FIDE's regulations live in the scenario's timeline instead.
macro_rules! systems {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $config:ty, $family:ident;)+) => {
        named_enum! {
            pub enum SystemKind {
                /// FIDE's standard regulations, era by era (`docs/fide-regulations.md`).
                Fide = "fide",
                $($(#[$doc])* $variant = $name,)+
            }
        }

        /// A system's settings, as a scenario gives them.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum SystemConfig {
            /// FIDE's rules live in the scenario's timeline.
            Fide,
            $($variant($config),)+
        }

        impl SystemKind {
            /// The systems with a settings table, which is named as the system.
            pub const WITH_SETTINGS: &'static [SystemKind] = &[$(SystemKind::$variant),+];

            /// The keys of the system's settings table (none for FIDE's).
            pub fn keys(self) -> &'static [Key] {
                match self {
                    SystemKind::Fide => &[],
                    $(SystemKind::$variant => <$config as Settings>::KEYS,)+
                }
            }
        }

        impl SystemConfig {
            pub fn kind(&self) -> SystemKind {
                match self {
                    SystemConfig::Fide => SystemKind::Fide,
                    $(SystemConfig::$variant(_) => SystemKind::$variant,)+
                }
            }

            /// The system's settings from the values given in its table (`value(key)`), its
            /// defaults for the rest.
            pub fn read(kind: SystemKind, value: &dyn Fn(&str) -> Option<f64>) -> SystemConfig {
                match kind {
                    SystemKind::Fide => SystemConfig::Fide,
                    $(SystemKind::$variant => SystemConfig::$variant(<$config as Settings>::read(value)),)+
                }
            }

            /// Every setting in force, as (key, value); none for FIDE's.
            pub fn values(&self) -> Vec<(&'static str, f64)> {
                match self {
                    SystemConfig::Fide => Vec::new(),
                    $(SystemConfig::$variant(c) => c.values(),)+
                }
            }

            /// How the system starts a player on no starting list, in words (`elosim check`); none
            /// for FIDE's, whose bootstrap and first-rating rules say it era by era.
            pub fn newcomers(&self) -> Option<String> {
                match self {
                    SystemConfig::Fide => None,
                    $(SystemConfig::$variant(c) => Some(c.newcomers()),)+
                }
            }

            /// Hands the settings to the visitor's method for the system's family.
            pub fn visit<V: Visit>(&self, visitor: V) -> V::Output {
                match self {
                    SystemConfig::Fide => visitor.fide(),
                    $(SystemConfig::$variant(c) => visitor.$family(*c),)+
                }
            }
        }
    };
}

systems! {
    /// Plain period-based Elo (`systems/elo.rs`).
    Elo = "elo", elo::EloConfig, periodic;
    /// Glicko (`systems/glicko.rs`).
    Glicko = "glicko", glicko::GlickoConfig, periodic;
    /// Glicko-2 (`systems/glicko2.rs`).
    Glicko2 = "glicko2", glicko2::Glicko2Config, periodic;
    /// The classic USCF method (`systems/uscf_classic.rs`).
    UscfClassic = "uscf-classic", uscf_classic::UscfClassicConfig, periodic;
    /// Berkin's progressive system (`systems/berkin.rs`).
    Berkin = "berkin", berkin::BerkinConfig, periodic;
    /// Game Courier Ratings, holistic (`systems/gcr.rs`).
    Gcr = "gcr", gcr::GcrConfig, holistic;
}

/// How a system starts a player on no starting list, in words, with its settings' values.
pub trait Newcomers {
    fn newcomers(&self) -> String;
}

/// What to do with a system's settings, by the family of engine that replays it.
pub trait Visit {
    type Output;
    /// FIDE's regulations (the scenario's timeline).
    fn fide(self) -> Self::Output;
    /// A system that rates each period against ratings frozen at its start.
    fn periodic<S: PeriodicSystem + 'static>(self, system: S) -> Self::Output;
    /// Game Courier Ratings, recomputed from every game at each list.
    fn holistic(self, config: gcr::GcrConfig) -> Self::Output;
}

/// A rating system that rates each period against ratings frozen at its start: each player's new
/// state depends only on their own state and their opponents' frozen states.
pub trait PeriodicSystem: Sync {
    type Player: Clone + Copy + Send + Sync + std::fmt::Debug;

    /// An unknown player on first appearance.
    fn newcomer(&self) -> Self::Player;
    /// A player of the starting list.
    fn seeded(&self, rating: f64, games: u32) -> Self::Player;
    fn rating(&self, p: &Self::Player) -> f64;
    /// The rating deviation, for systems that have one.
    fn deviation(&self, _p: &Self::Player) -> Option<f64> {
        None
    }
    /// Whether the player's rating is published (provisional players are not).
    fn published(&self, _p: &Self::Player) -> bool {
        true
    }
    /// The expected score of `me` against `opponent`, as the system predicts a game.
    fn expected(&self, me: &Self::Player, opponent: &Self::Player) -> f64;
    /// The player's state after a period with these games (opponent's frozen state, own score).
    fn rate(&self, me: &Self::Player, games: &[(Self::Player, f64)]) -> Self::Player;
    /// A known player's state after a period without games.
    fn idle(&self, me: &Self::Player) -> Self::Player {
        *me
    }
    /// One game's contribution to the change, for systems where it is one.
    fn change_per_game(
        &self,
        _me: &Self::Player,
        _opponent: &Self::Player,
        _score: f64,
    ) -> Option<f64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{SystemConfig, SystemKind};

    /// A system's settings written out read back to the same settings, and every key written is
    /// one of its table's keys.
    #[test]
    fn every_system_reads_back_the_settings_it_writes() {
        for &kind in SystemKind::WITH_SETTINGS {
            let defaults = SystemConfig::read(kind, &|_| None);
            assert_eq!(defaults.kind(), kind);
            let values = defaults.values();
            for (key, value) in &values {
                let known = kind.keys().iter().find(|k| k.name == *key);
                assert!(known.is_some(), "{}: {key} is not a key", kind.name());
                assert_eq!(known.unwrap().check(*value), Ok(*value), "{key}");
            }
            let value = |key: &str| values.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
            assert_eq!(
                SystemConfig::read(kind, &value),
                defaults,
                "{}",
                kind.name()
            );
        }
        assert!(SystemKind::Fide.keys().is_empty());
        assert!(!SystemKind::WITH_SETTINGS.contains(&SystemKind::Fide));
        assert_eq!(SystemKind::WITH_SETTINGS.len() + 1, SystemKind::NAMES.len());
    }

    /// docs/scenarios.md's table of systems names every key of every system's table.
    #[test]
    fn the_scenario_docs_name_every_systems_keys() {
        let docs = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scenarios.md"),
        )
        .unwrap();
        for &kind in SystemKind::WITH_SETTINGS {
            let row = docs
                .lines()
                .find(|l| l.starts_with(&format!("| `{}` |", kind.name())))
                .unwrap_or_else(|| panic!("no row for {}", kind.name()));
            for key in kind.keys() {
                assert!(
                    row.contains(&format!("`{}`", key.name)),
                    "{}: {} missing from docs/scenarios.md",
                    kind.name(),
                    key.name
                );
            }
        }
    }
}
