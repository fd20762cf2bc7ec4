//! The keys of a revision: how each is read from TOML, validated and written back. One table of
//! keys serves the reader, the `scenario.resolved.toml` writer and `elosim check`, so they agree.

use toml::Value;

use crate::rules::{
    CapScope, DelistedGames, GateApplies, InitialFormula, JuniorUntil, ListCadence, Regulations,
    Rounding,
};

/// Every revision key, in the order they are written.
pub const KEYS: &[&str] = &[
    "lists",
    "floor",
    "k.new",
    "k.new-until-games",
    "k.standard",
    "k.high",
    "k.high-from",
    "k.high-needs-games",
    "k.junior",
    "k.junior-max-age",
    "k.junior-below",
    "k.junior-until",
    "k.period-cap",
    "diff-cap.points",
    "diff-cap.scope",
    "diff-cap.exempt-from",
    "rounding",
    "initial.min-games",
    "initial.window-months",
    "initial.formula",
    "initial.per-half-point",
    "initial.dummy-games",
    "initial.dummy-rating",
    "initial.max",
    "initial.gate.applies",
    "initial.gate.min-rated-opponents",
    "initial.gate.min-score",
    "inactive-after-months",
    "delisted-games",
];

const RATING_MAX: i64 = 4000;

/// Sets one key of `regs` from a TOML value, or says what was expected.
pub fn set(regs: &mut Regulations, key: &str, value: &Value) -> Result<(), String> {
    match key {
        "lists" => regs.lists = choice(value, ListCadence::parse, ListCadence::NAMES)?,
        "floor" => regs.floor = whole(value, 0, RATING_MAX)? as i32,
        "k.new" => regs.k.new = k_value(value)?,
        "k.new-until-games" => regs.k.new_until_games = whole(value, 0, 10_000)? as u32,
        "k.standard" => regs.k.standard = k_value(value)?,
        "k.high" => regs.k.high = k_value(value)?,
        "k.high-from" => regs.k.high_from = whole(value, 0, RATING_MAX)? as i32,
        "k.high-needs-games" => regs.k.high_needs_games = boolean(value)?,
        "k.junior" => regs.k.junior = k_value(value)?,
        "k.junior-max-age" => regs.k.junior_max_age = whole(value, 0, 100)? as i32,
        "k.junior-below" => regs.k.junior_below = whole(value, 0, RATING_MAX)? as i32,
        "k.junior-until" => {
            regs.k.junior_until = choice(value, JuniorUntil::parse, JuniorUntil::NAMES)?
        }
        "k.period-cap" => regs.k.period_cap = whole(value, 0, 100_000)? as u32,
        "diff-cap.points" => regs.diff_cap.points = whole(value, 0, RATING_MAX)? as i32,
        "diff-cap.scope" => regs.diff_cap.scope = choice(value, CapScope::parse, CapScope::NAMES)?,
        "diff-cap.exempt-from" => regs.diff_cap.exempt_from = whole(value, 0, RATING_MAX)? as i32,
        "rounding" => regs.rounding = choice(value, Rounding::parse, Rounding::NAMES)?,
        "initial.min-games" => regs.initial.min_games = whole(value, 1, 1000)? as u32,
        "initial.window-months" => regs.initial.window_months = whole(value, 1, 1200)? as i32,
        "initial.formula" => {
            regs.initial.formula = choice(value, InitialFormula::parse, InitialFormula::NAMES)?
        }
        "initial.per-half-point" => regs.initial.per_half_point = hundredths(value, 0, 1000)?,
        "initial.dummy-games" => regs.initial.dummy_games = whole(value, 0, 100)? as u32,
        "initial.dummy-rating" => regs.initial.dummy_rating = whole(value, 0, RATING_MAX)? as i32,
        "initial.max" => regs.initial.max = whole(value, 0, RATING_MAX)? as i32,
        "initial.gate.applies" => {
            regs.initial.gate.applies = choice(value, GateApplies::parse, GateApplies::NAMES)?
        }
        "initial.gate.min-rated-opponents" => {
            regs.initial.gate.min_rated_opponents = whole(value, 0, 1000)? as u32
        }
        "initial.gate.min-score" => regs.initial.gate.min_half_points = half_points(value)?,
        "inactive-after-months" => regs.inactive_after_months = whole(value, 1, 1200)? as i32,
        "delisted-games" => {
            regs.delisted_games = choice(value, DelistedGames::parse, DelistedGames::NAMES)?
        }
        _ => return Err(unknown_key(key)),
    }
    Ok(())
}

/// The value of one key, as written to `scenario.resolved.toml`.
pub fn get(regs: &Regulations, key: &str) -> Value {
    let int = |v: i64| Value::Integer(v);
    let text = |s: &str| Value::String(s.to_string());
    match key {
        "lists" => text(regs.lists.name()),
        "floor" => int(regs.floor.into()),
        "k.new" => int(regs.k.new.into()),
        "k.new-until-games" => int(regs.k.new_until_games.into()),
        "k.standard" => int(regs.k.standard.into()),
        "k.high" => int(regs.k.high.into()),
        "k.high-from" => int(regs.k.high_from.into()),
        "k.high-needs-games" => Value::Boolean(regs.k.high_needs_games),
        "k.junior" => int(regs.k.junior.into()),
        "k.junior-max-age" => int(regs.k.junior_max_age.into()),
        "k.junior-below" => int(regs.k.junior_below.into()),
        "k.junior-until" => text(regs.k.junior_until.name()),
        "k.period-cap" => int(regs.k.period_cap.into()),
        "diff-cap.points" => int(regs.diff_cap.points.into()),
        "diff-cap.scope" => text(regs.diff_cap.scope.name()),
        "diff-cap.exempt-from" => int(regs.diff_cap.exempt_from.into()),
        "rounding" => text(regs.rounding.name()),
        "initial.min-games" => int(regs.initial.min_games.into()),
        "initial.window-months" => int(regs.initial.window_months.into()),
        "initial.formula" => text(regs.initial.formula.name()),
        "initial.per-half-point" => Value::Float(f64::from(regs.initial.per_half_point) / 100.0),
        "initial.dummy-games" => int(regs.initial.dummy_games.into()),
        "initial.dummy-rating" => int(regs.initial.dummy_rating.into()),
        "initial.max" => int(regs.initial.max.into()),
        "initial.gate.applies" => text(regs.initial.gate.applies.name()),
        "initial.gate.min-rated-opponents" => int(regs.initial.gate.min_rated_opponents.into()),
        "initial.gate.min-score" => {
            Value::Float(f64::from(regs.initial.gate.min_half_points) / 2.0)
        }
        "inactive-after-months" => int(regs.inactive_after_months.into()),
        "delisted-games" => text(regs.delisted_games.name()),
        _ => unreachable!("KEYS lists only known keys"),
    }
}

pub fn unknown_key(key: &str) -> String {
    format!(
        "unknown key `{key}`; a revision may set: {}",
        KEYS.join(", ")
    )
}

pub fn describe(value: &Value) -> String {
    match value {
        Value::String(s) => format!("\"{s}\""),
        Value::Table(_) => "a table".to_string(),
        Value::Array(_) => "an array".to_string(),
        other => other.to_string(),
    }
}

pub fn whole(value: &Value, min: i64, max: i64) -> Result<i64, String> {
    match value {
        Value::Integer(v) if (min..=max).contains(v) => Ok(*v),
        _ => Err(format!(
            "expected a whole number from {min} to {max}, got {}",
            describe(value)
        )),
    }
}

fn k_value(value: &Value) -> Result<u8, String> {
    whole(value, 0, 255).map(|v| v as u8)
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
            set(&mut copy, key, &get(&base, key)).unwrap();
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
