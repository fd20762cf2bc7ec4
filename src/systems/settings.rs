//! A rating system's settings as a scenario gives them: its own TOML table (`[elo]`, `[glicko]`,
//! …), every key a number with its valid range, checked when the file is read. Each system's file
//! declares its keys and how it reads and writes them; `systems/mod.rs` registers the system.

/// One setting: key, lower bound (exclusive when `above`), upper bound, meaning; a `switch` is 0
/// (off) or 1 (on).
pub struct Key {
    pub name: &'static str,
    pub min: f64,
    pub above: bool,
    pub max: f64,
    pub meaning: &'static str,
    pub switch: bool,
}

/// A key whose value must be at least `min` and at most `max`.
pub const fn at_least(name: &'static str, min: f64, max: f64, meaning: &'static str) -> Key {
    Key {
        name,
        min,
        above: false,
        max,
        meaning,
        switch: false,
    }
}

/// A key that is 0 (off) or 1 (on).
pub const fn switch(name: &'static str, meaning: &'static str) -> Key {
    Key {
        name,
        min: 0.0,
        above: false,
        max: 1.0,
        meaning,
        switch: true,
    }
}

/// A key whose value must be greater than `min` and at most `max`.
pub const fn above(name: &'static str, min: f64, max: f64, meaning: &'static str) -> Key {
    Key {
        name,
        min,
        above: true,
        max,
        meaning,
        switch: false,
    }
}

impl Key {
    /// The value, or what was expected.
    pub fn check(&self, value: f64) -> Result<f64, String> {
        if self.switch {
            return if value == 0.0 || value == 1.0 {
                Ok(value)
            } else {
                Err(format!(
                    "expected 0 (off) or 1 (on) ({}), got {value}",
                    self.meaning
                ))
            };
        }
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

/// The settings of a system with a settings table.
pub trait Settings: Default {
    /// The keys of the system's table, with their ranges and meanings.
    const KEYS: &'static [Key];

    /// The settings from the values given (`value(key)`, already checked against `KEYS`), the
    /// defaults for the rest.
    fn read(value: &dyn Fn(&str) -> Option<f64>) -> Self;

    /// Every setting in force, as (key, value): what `read` reads back to the same settings.
    fn values(&self) -> Vec<(&'static str, f64)>;
}

/// A setting's field: a real number, or a count given as a number.
pub trait Value: Copy {
    fn from_setting(value: f64) -> Self;
    fn to_setting(self) -> f64;
}

impl Value for f64 {
    fn from_setting(value: f64) -> f64 {
        value
    }

    fn to_setting(self) -> f64 {
        self
    }
}

impl Value for u32 {
    /// Counts are checked against their key's range before they get here.
    fn from_setting(value: f64) -> u32 {
        value as u32
    }

    fn to_setting(self) -> f64 {
        f64::from(self)
    }
}

impl Value for bool {
    /// Switches are checked to be 0 or 1 before they get here.
    fn from_setting(value: f64) -> bool {
        value != 0.0
    }

    fn to_setting(self) -> f64 {
        f64::from(u8::from(self))
    }
}

/// `Settings` for a configuration whose every field is one key: field, key, kind (`at_least(min,
/// max)`, `above(min, max)` or `switch()`), and meaning.
macro_rules! settings {
    ($config:ident { $($field:ident: $key:literal, $kind:ident($($bound:expr),*), $meaning:literal;)+ }) => {
        impl $crate::systems::settings::Settings for $config {
            const KEYS: &'static [$crate::systems::settings::Key] =
                &[$($crate::systems::settings::$kind($key, $($bound,)* $meaning)),+];

            fn read(value: &dyn Fn(&str) -> Option<f64>) -> $config {
                use $crate::systems::settings::Value;
                let defaults = $config::default();
                $config {
                    $($field: value($key).map_or(defaults.$field, Value::from_setting),)+
                }
            }

            fn values(&self) -> Vec<(&'static str, f64)> {
                use $crate::systems::settings::Value;
                vec![$(($key, self.$field.to_setting())),+]
            }
        }
    };
}

pub(crate) use settings;
