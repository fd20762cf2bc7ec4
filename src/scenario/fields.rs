//! The keys of a revision: how each is read from TOML, validated and written back. One table of
//! keys serves the reader, the `scenario.resolved.toml` writer and `elosim check`, so they agree.

use toml::Value;

use crate::keys::Domain;
use crate::rules::Regulations;

/// Declares the revision keys once: each key's field of `Regulations` and its kind of value
/// (`read` and `write` hold one function per kind), giving `KEYS`, `set` and `get`.
macro_rules! revision_keys {
    ($($key:literal => $($field:ident).+ : $kind:ident $(($($arg:expr),*))?,)+) => {
        /// Every revision key, in the order they are written.
        pub const KEYS: &[&str] = &[$($key),+];

        /// Sets one key of `regs` from a TOML value, or says what was expected.
        pub fn set(regs: &mut Regulations, key: &str, value: &Value) -> Result<(), String> {
            match key {
                $($key => regs.$($field).+ = read::$kind(value $($(, $arg)*)?)?,)+
                _ => return Err(unknown_key(key)),
            }
            Ok(())
        }

        /// The value of one key, as written to `scenario.resolved.toml`; `None` for an unknown
        /// key.
        pub fn get(regs: &Regulations, key: &str) -> Option<Value> {
            Some(match key {
                $($key => write::$kind(regs.$($field).+),)+
                _ => return None,
            })
        }

        /// The values a key may take; `None` for an unknown key.
        pub fn domain(key: &str) -> Option<Domain> {
            let regs = crate::scenario::base_regulations();
            Some(match key {
                $($key => domain::$kind(&regs.$($field).+ $($(, $arg)*)?),)+
                _ => return None,
            })
        }
    };
}

revision_keys! {
    "lists" => lists: choice,
    "floor" => floor: whole(0, RATING_MAX),
    "k.new" => k.new: whole(0, K_MAX),
    "k.new-until-games" => k.new_until_games: whole(0, 10_000),
    "k.standard" => k.standard: whole(0, K_MAX),
    "k.high" => k.high: whole(0, K_MAX),
    "k.high-from" => k.high_from: whole(0, RATING_MAX),
    "k.high-needs-games" => k.high_needs_games: boolean,
    "k.junior" => k.junior: whole(0, K_MAX),
    "k.junior-max-age" => k.junior_max_age: whole(0, 100),
    "k.junior-below" => k.junior_below: whole(0, RATING_MAX),
    "k.junior-until" => k.junior_until: choice,
    "k.period-cap" => k.period_cap: whole(0, 100_000),
    "diff-cap.points" => diff_cap.points: whole(0, RATING_MAX),
    "diff-cap.scope" => diff_cap.scope: choice,
    "diff-cap.exempt-from" => diff_cap.exempt_from: whole(0, RATING_MAX),
    "rounding" => rounding: choice,
    "initial.min-games" => initial.min_games: whole(1, 1000),
    "initial.window-months" => initial.window_months: whole(1, 1200),
    "initial.formula" => initial.formula: choice,
    "initial.per-half-point" => initial.per_half_point: hundredths(0, 1000),
    "initial.dummy-games" => initial.dummy_games: whole(0, 100),
    "initial.dummy-rating" => initial.dummy_rating: whole(0, RATING_MAX),
    "initial.max" => initial.max: whole(0, RATING_MAX),
    "initial.gate.applies" => initial.gate.applies: choice,
    "initial.gate.min-rated-opponents" => initial.gate.min_rated_opponents: whole(0, 1000),
    "initial.gate.min-score" => initial.gate.min_half_points: half_points,
    "round-robin-unrated" => round_robin: choice,
    "inactive-after-months" => inactive_after_months: whole(1, 1200),
    "delisted-games" => delisted_games: choice,
}

const RATING_MAX: i64 = 4000;
const K_MAX: i64 = 255;

/// Reading a key's TOML value into its field, one function per kind of value.
mod read {
    use toml::Value;

    use crate::named::Named;

    /// A whole number from `min` to `max`, in the field's integer type.
    pub fn whole<T: TryFrom<i64>>(value: &Value, min: i64, max: i64) -> Result<T, String> {
        super::whole(value, min, max)
            .and_then(|v| T::try_from(v).map_err(|_| format!("{v} does not fit this key")))
    }

    pub fn boolean(value: &Value) -> Result<bool, String> {
        super::boolean(value)
    }

    pub fn choice<T: Named>(value: &Value) -> Result<T, String> {
        super::choice(value, T::parse, T::NAMES)
    }

    /// A number with at most two decimals, kept in hundredths.
    pub fn hundredths(value: &Value, min: i64, max: i64) -> Result<i32, String> {
        super::hundredths(value, min, max)
    }

    /// A score in points, kept in half points.
    pub fn half_points(value: &Value) -> Result<u32, String> {
        super::half_points(value)
    }
}

/// The values a key may take, one function per kind of value (the field shows its type).
mod domain {
    use crate::keys::Domain;
    use crate::named::Named;

    pub fn whole<T>(_: &T, min: i64, max: i64) -> Domain {
        Domain::whole(min, max)
    }

    pub fn boolean(_: &bool) -> Domain {
        Domain::Boolean
    }

    pub fn choice<T: Named>(_: &T) -> Domain {
        Domain::Choice(T::NAMES)
    }

    pub fn hundredths(_: &i32, min: i64, max: i64) -> Domain {
        Domain::Number {
            min: min as f64,
            max: max as f64,
            above: false,
            grain: Some(0.01),
        }
    }

    pub fn half_points(_: &u32) -> Domain {
        Domain::Number {
            min: 0.0,
            max: 100.0,
            above: false,
            grain: Some(0.5),
        }
    }
}

/// Writing a field back as the TOML value its key reads, one function per kind of value.
mod write {
    use toml::Value;

    use crate::named::Named;

    pub fn whole<T: Into<i64>>(v: T) -> Value {
        Value::Integer(v.into())
    }

    pub fn boolean(v: bool) -> Value {
        Value::Boolean(v)
    }

    pub fn choice<T: Named>(v: T) -> Value {
        Value::String(v.name().to_string())
    }

    pub fn hundredths(v: i32) -> Value {
        Value::Float(f64::from(v) / 100.0)
    }

    pub fn half_points(v: u32) -> Value {
        Value::Float(f64::from(v) / 2.0)
    }
}

pub fn unknown_key(key: &str) -> String {
    format!(
        "unknown key `{key}`{}; a revision may set: {}",
        crate::keys::did_you_mean(key, KEYS),
        KEYS.join(", ")
    )
}

pub use crate::keys::describe;

pub fn whole(value: &Value, min: i64, max: i64) -> Result<i64, String> {
    match value {
        Value::Integer(v) if (min..=max).contains(v) => Ok(*v),
        _ => Err(format!(
            "expected a whole number from {min} to {max}, got {}",
            describe(value)
        )),
    }
}

pub fn boolean(value: &Value) -> Result<bool, String> {
    value
        .as_bool()
        .ok_or_else(|| format!("expected true or false, got {}", describe(value)))
}

pub fn choice<T>(value: &Value, parse: fn(&str) -> Option<T>, names: &[&str]) -> Result<T, String> {
    value
        .as_str()
        .and_then(parse)
        .ok_or_else(|| format!("expected one of {}, got {}", quoted(names), describe(value)))
}

pub fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A number with at most two decimals, as hundredths.
pub fn hundredths(value: &Value, min: i64, max: i64) -> Result<i32, String> {
    let x = match value {
        Value::Integer(v) => *v as f64,
        Value::Float(v) => *v,
        _ => f64::NAN,
    };
    let h = (x * 100.0).round();
    if !x.is_finite()
        || (x * 100.0 - h).abs() > 1e-6
        || h < (min * 100) as f64
        || h > (max * 100) as f64
    {
        return Err(format!(
            "expected a number from {min} to {max} with at most two decimals, got {}",
            describe(value)
        ));
    }
    Ok(h as i32)
}

/// A score of 0, 0.5, 1, … points, as half points.
fn half_points(value: &Value) -> Result<u32, String> {
    let h = hundredths(value, 0, 100).map_err(|_| {
        format!(
            "expected a score in points such as 0.5 or 1, got {}",
            describe(value)
        )
    })?;
    if h % 50 != 0 {
        return Err(format!(
            "expected a score in whole or half points, got {}",
            describe(value)
        ));
    }
    Ok((h / 50) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::base_regulations;

    #[test]
    fn every_key_reads_back_what_it_writes() {
        let base = base_regulations();
        let mut copy = base_regulations();
        copy.floor = 0;
        copy.k.new = 1;
        for key in KEYS {
            set(&mut copy, key, &get(&base, key).unwrap()).unwrap();
        }
        assert_eq!(copy, base);
    }

    #[test]
    fn bad_values_say_what_was_expected() {
        let mut r = base_regulations();
        assert_eq!(
            set(&mut r, "k.new", &Value::Integer(-5)).unwrap_err(),
            "expected a whole number from 0 to 255, got -5"
        );
        assert_eq!(
            set(&mut r, "floor", &Value::Integer(-1)).unwrap_err(),
            "expected a whole number from 0 to 4000, got -1"
        );
        assert!(set(&mut r, "lists", &Value::String("weekly".into()))
            .unwrap_err()
            .contains("\"monthly\""));
        assert!(set(&mut r, "initial.per-half-point", &Value::Float(12.345)).is_err());
        assert_eq!(
            set(&mut r, "initial.per-half-point", &Value::Float(12.5)),
            Ok(())
        );
        assert_eq!(r.initial.per_half_point, 1250);
        assert!(set(&mut r, "initial.gate.min-score", &Value::Float(0.3)).is_err());
        assert!(set(&mut r, "k.nwe", &Value::Integer(3))
            .unwrap_err()
            .starts_with("unknown key `k.nwe`"));
    }
}
