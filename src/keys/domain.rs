//! The values a key may take ([`Domain`]) and one value of a key as its domain reads it
//! ([`KeyValue`]): what a study steps through, draws, writes in its journal and draws in its
//! pictures, typed from the study's file to the scenario it sets.

use std::fmt;

use toml::Value;

use crate::model::Month;

use super::{describe, month_expected};

/// The values a key may take: what a study needs to step through a key's range, round a point of
/// a space-filling design to the key's grain, and write it back as the TOML value the key reads.
/// The file's own reader still checks every value it is given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Domain {
    /// A number from `min` to `max` (above `min` when `above`), in steps of `grain` where it has
    /// one (1: whole numbers; 0.01: two decimals; 0.5: half points).
    Number {
        min: f64,
        max: f64,
        above: bool,
        grain: Option<f64>,
    },
    Boolean,
    /// One of these names.
    Choice(&'static [&'static str]),
    /// A month `"YYYY-MM"`.
    Month,
}

impl Domain {
    pub const fn whole(min: i64, max: i64) -> Domain {
        Domain::Number {
            min: min as f64,
            max: max as f64,
            above: false,
            grain: Some(1.0),
        }
    }

    /// The bounds of a number (`None` for other values).
    pub fn bounds(&self) -> Option<(f64, f64)> {
        match *self {
            Domain::Number { min, max, .. } => Some((min, max)),
            _ => None,
        }
    }

    /// A number rounded to the key's grain, as the key reads it: a whole number where the grain
    /// is 1, anything else as a number.
    pub fn number(&self, x: f64) -> KeyValue {
        match *self {
            Domain::Number {
                grain: Some(grain), ..
            } => {
                let steps = (x / grain).round();
                if grain == 1.0 {
                    KeyValue::Whole(steps as i64)
                } else {
                    // Rounded again at the grain's decimals, so that 0.35 is 0.35, not
                    // 0.35000000000000003.
                    let decimals = (-grain.log10()).ceil().max(0.0) as i32;
                    let scale = 10f64.powi(decimals + 1);
                    KeyValue::Number((steps * grain * scale).round() / scale)
                }
            }
            _ => KeyValue::Number(x),
        }
    }

    /// A value written in a file, typed by this domain, or what was expected. Only its type is
    /// judged here: the range and the rest are the file's own reader's to check, so that a value
    /// is refused with the reader's own words.
    pub fn read(&self, value: &Value) -> Result<KeyValue, String> {
        let typed = match (self, value) {
            (Domain::Number { .. }, Value::Integer(i)) => Some(KeyValue::Whole(*i)),
            (Domain::Number { .. }, Value::Float(f)) => Some(KeyValue::Number(*f)),
            (Domain::Boolean, Value::Boolean(b)) => Some(KeyValue::Boolean(*b)),
            (Domain::Choice(names), Value::String(s)) => {
                names.iter().find(|n| **n == s).map(|n| KeyValue::Choice(n))
            }
            (Domain::Month, Value::String(s)) => Month::parse(s).map(KeyValue::Month),
            _ => None,
        };
        typed.ok_or_else(|| match self {
            Domain::Month => month_expected(value),
            _ => format!("expected {}, got {}", self.text(), describe(value)),
        })
    }

    /// What the key takes, for people.
    pub fn text(&self) -> String {
        match *self {
            Domain::Number {
                min,
                max,
                above,
                grain,
            } => {
                let what = match grain {
                    Some(1.0) => "a whole number",
                    Some(0.5) => "a number in halves",
                    Some(_) => "a number with at most two decimals",
                    None => "a number",
                };
                let low = if above { "above" } else { "from" };
                format!("{what} {low} {min} to {max}")
            }
            Domain::Boolean => "true or false".into(),
            Domain::Choice(names) => format!(
                "one of {}",
                names
                    .iter()
                    .map(|n| format!("\"{n}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Domain::Month => "a month \"YYYY-MM\"".into(),
        }
    }
}

/// One value of a key, typed by its [`Domain`].
#[derive(Clone, Debug, PartialEq)]
pub enum KeyValue {
    /// A number written (or rounded to a grain of 1) as a whole number.
    Whole(i64),
    Number(f64),
    Boolean(bool),
    /// One of a choice's names.
    Choice(&'static str),
    Month(Month),
}

impl KeyValue {
    /// The TOML value the key's reader reads.
    pub fn toml(&self) -> Value {
        match self {
            KeyValue::Whole(i) => Value::Integer(*i),
            KeyValue::Number(f) => Value::Float(*f),
            KeyValue::Boolean(b) => Value::Boolean(*b),
            KeyValue::Choice(name) => Value::String((*name).to_string()),
            KeyValue::Month(m) => Value::String(m.to_string()),
        }
    }

    /// The value as a number, where it is one (a numeric column of results).
    pub fn number(&self) -> Option<f64> {
        match *self {
            KeyValue::Whole(i) => Some(i as f64),
            KeyValue::Number(f) => Some(f),
            _ => None,
        }
    }

    /// Where the value sits on an axis, for values in order: a number, or a month as months
    /// since year 0 (`Month`'s own count), so that months are spaced as the calendar spaces them.
    pub fn coordinate(&self) -> Option<f64> {
        match self {
            KeyValue::Month(m) => Some(f64::from(m.index())),
            other => other.number(),
        }
    }
}

/// As results and people show it: numbers as written, names and months without quotes.
impl fmt::Display for KeyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyValue::Whole(i) => write!(f, "{i}"),
            KeyValue::Number(x) => write!(f, "{x}"),
            KeyValue::Boolean(b) => write!(f, "{b}"),
            KeyValue::Choice(name) => f.write_str(name),
            KeyValue::Month(m) => write!(f, "{m}"),
        }
    }
}
