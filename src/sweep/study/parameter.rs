//! A study's parameters: a key path into the base scenario and the values it takes (a list, or a
//! range stepped through by a grid and drawn from by the other designs), each value rounded to its
//! key's grain and judged by the scenario's own checks before any replay.

use toml::{Table, Value};

use crate::keys::{at, describe, Domain, KeyValue, Reader};
use crate::scenario::{KeyPath, ScenarioFiles, Setting};

/// A parameter: a key path of the base scenario and the values it takes.
#[derive(Clone, Debug)]
pub struct Parameter {
    pub path: KeyPath,
    pub domain: Domain,
    pub values: Values,
    /// Where it is written in the study, for messages (`parameter[2]`).
    pub at: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// These values, typed by the key's domain.
    List(Vec<KeyValue>),
    /// Numbers from `min` to `max`: `steps` values, evenly spaced (`log`: evenly in logarithm), or
    /// every `step` from `min`. A space-filling or optimising design draws from the whole range.
    Range {
        min: f64,
        max: f64,
        steps: Option<usize>,
        step: Option<f64>,
        log: bool,
    },
}

const PARAMETER_KEYS: &[&str] = &["key", "values", "min", "max", "steps", "step", "spacing"];

impl Parameter {
    /// The values of a grid, when the parameter has a countable set.
    pub fn count(&self) -> Option<usize> {
        match &self.values {
            Values::List(v) => Some(v.len()),
            Values::Range { steps: Some(n), .. } => Some(*n),
            Values::Range {
                min,
                max,
                step: Some(step),
                ..
            } => Some(((max - min) / step + 1e-9).floor() as usize + 1),
            Values::Range { .. } => None,
        }
    }

    /// The values a grid steps through (each rounded to the key's grain, duplicates dropped).
    pub fn grid(&self) -> Vec<KeyValue> {
        let mut values: Vec<KeyValue> = match &self.values {
            Values::List(v) => v.clone(),
            Values::Range { .. } => {
                let n = self.count().unwrap_or(1);
                (0..n)
                    .map(|i| {
                        let u = if n > 1 {
                            i as f64 / (n - 1) as f64
                        } else {
                            0.0
                        };
                        self.at_fraction(u)
                    })
                    .collect()
            }
        };
        let mut seen: Vec<KeyValue> = Vec::new();
        values.retain(|v| {
            let new = !seen.contains(v);
            if new {
                seen.push(v.clone());
            }
            new
        });
        values
    }

    /// The smallest and largest values searched, as coordinates (numbers, or months in order): a
    /// range's ends (as rounded to the key's grain), or a list's extremes; `None` for a list of
    /// fewer than two values in order.
    pub fn extremes(&self) -> Option<(f64, f64)> {
        let values = match &self.values {
            Values::List(v) => v.clone(),
            Values::Range { .. } => vec![self.at_fraction(0.0), self.at_fraction(1.0)],
        };
        let numbers: Vec<f64> = values.iter().filter_map(KeyValue::coordinate).collect();
        let low = numbers.iter().copied().reduce(f64::min)?;
        let high = numbers.iter().copied().reduce(f64::max)?;
        (high > low).then_some((low, high))
    }

    /// The value at `u` (0–1) across the range or the list: what a space-filling or optimising
    /// design draws.
    pub fn at_fraction(&self, u: f64) -> KeyValue {
        let u = u.clamp(0.0, 1.0);
        match &self.values {
            Values::List(v) => v[((u * v.len() as f64) as usize).min(v.len() - 1)].clone(),
            Values::Range {
                min,
                max,
                step,
                log,
                ..
            } => {
                let x = if *log {
                    (min.ln() + u * (max.ln() - min.ln())).exp()
                } else if let Some(step) = step {
                    // The nearest of the values min, min + step, … that do not pass max.
                    let last = (self.count().unwrap_or(1) - 1) as f64;
                    min + (u * last).round() * step
                } else {
                    min + u * (max - min)
                };
                self.domain.number(x.clamp(*min, *max))
            }
        }
    }
}

pub(super) fn read_parameters(
    r: &mut Reader,
    table: &Table,
    base: &ScenarioFiles,
) -> Vec<Parameter> {
    let mut out: Vec<Parameter> = Vec::new();
    let tables = r.tables(table, "parameter");
    if tables.is_empty() && !r.has_problem_at("parameter") {
        r.problem(
            "parameter",
            "missing: the design is empty; expected at least one [[parameter]] to vary",
        );
    }
    for (path, t) in tables {
        r.unknown(&t, &path, PARAMETER_KEYS);
        r.require(
            &t,
            &path,
            "key",
            "a key path such as \"revision[2017-01].floor\" or \"event[compression 2017-01].factor\"",
        );
        let Some(text) = r.text(&t, &path, "key") else {
            continue;
        };
        let key_at = at(&path, "key");
        let key = match KeyPath::parse(&text) {
            Ok(k) => k,
            Err(m) => {
                r.problem(&key_at, m);
                continue;
            }
        };
        let domain = match base.domain(&key) {
            Ok(d) => d,
            Err(m) => {
                r.problem(&key_at, format!("{key}: {m}"));
                continue;
            }
        };
        if let Some(first) = out.iter().find(|p| p.path == key) {
            r.problem(
                &key_at,
                format!("{key} is varied twice (also in {})", first.at),
            );
            continue;
        }
        let Some(values) = read_values(r, &t, &path, domain) else {
            continue;
        };
        let parameter = Parameter {
            path: key,
            domain,
            values,
            at: path.clone(),
        };
        check_values(r, &parameter, base);
        out.push(parameter);
    }
    out
}

fn read_values(r: &mut Reader, t: &Table, path: &str, domain: Domain) -> Option<Values> {
    if let Some(value) = t.get("values") {
        for key in ["min", "max", "steps", "step", "spacing"] {
            if t.contains_key(key) {
                r.problem(
                    &at(path, key),
                    "give either `values` or a range (`min`, `max`), not both",
                );
            }
        }
        return match value {
            Value::Array(items) if !items.is_empty() => typed_list(r, path, items, domain),
            other => {
                r.problem(
                    &at(path, "values"),
                    format!("expected a list of values, got {}", describe(other)),
                );
                None
            }
        };
    }
    let Some((low, high)) = domain.bounds() else {
        r.problem(
            path,
            format!(
                "missing: `values`; this key takes {}, which is not a range",
                domain.text()
            ),
        );
        return None;
    };
    let expected = domain.text();
    r.require(
        t,
        path,
        "min",
        &format!("the range's lower end ({expected}), or `values`"),
    );
    r.require(
        t,
        path,
        "max",
        &format!("the range's upper end ({expected})"),
    );
    let min = r.number(t, path, "min", (low, high));
    let max = r.number(t, path, "max", (low, high));
    let steps = r.whole(t, path, "steps", (2, 100_000)).map(|n| n as usize);
    let step = read_step(r, t, path);
    let log = match r.text(t, path, "spacing").as_deref() {
        None | Some("linear") => false,
        Some("log") => true,
        Some(other) => {
            r.problem(
                &at(path, "spacing"),
                format!("expected \"linear\" or \"log\", got {other:?}"),
            );
            false
        }
    };
    // A refused step or count leaves the range unread, so that no other problem follows from it.
    let refused = |key: &str, read: bool| t.contains_key(key) && !read;
    if refused("step", step.is_some()) || refused("steps", steps.is_some()) {
        return None;
    }
    let (min, max) = (min?, max?);
    if max <= min {
        r.problem(&at(path, "max"), format!("{max} is not above min {min}"));
        return None;
    }
    if log && min <= 0.0 {
        r.problem(
            &at(path, "spacing"),
            format!("a log range needs min above 0, got {min}"),
        );
        return None;
    }
    if step.is_some() && (steps.is_some() || log) {
        r.problem(
            &at(path, "step"),
            "give `steps` (how many values) or `step` (how far apart, linear only), not both",
        );
        return None;
    }
    Some(Values::Range {
        min,
        max,
        steps,
        step,
        log,
    })
}

/// How far apart a range's values are: a number above 0.
fn read_step(r: &mut Reader, t: &Table, path: &str) -> Option<f64> {
    let value = t.get("step")?;
    match value.as_float().or(value.as_integer().map(|i| i as f64)) {
        Some(step) if step > 0.0 && step.is_finite() => Some(step),
        _ => {
            r.problem(
                &at(path, "step"),
                format!(
                    "expected a step greater than 0 (how far apart the values are), got {}",
                    describe(value)
                ),
            );
            None
        }
    }
}

/// A list's values typed by the key's domain, each one that is not of its kind named.
fn typed_list(r: &mut Reader, path: &str, items: &[Value], domain: Domain) -> Option<Values> {
    let mut values = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match domain.read(item) {
            Ok(v) => values.push(v),
            Err(m) => r.problem(&format!("{}[{}]", at(path, "values"), i + 1), m),
        }
    }
    (values.len() == items.len()).then_some(Values::List(values))
}

/// Every value a parameter can take, judged by the scenario's own checks alone (one value on the
/// base scenario at a time), so that a bad value is named before any replay.
fn check_values(r: &mut Reader, p: &Parameter, base: &ScenarioFiles) {
    let values = match &p.values {
        Values::List(v) => v.clone(),
        Values::Range { .. } => vec![p.at_fraction(0.0), p.at_fraction(1.0)],
    };
    for (i, value) in values.into_iter().enumerate() {
        let setting = Setting {
            path: p.path.clone(),
            value: value.toml(),
        };
        if let Err(problems) = base.with(&[setting], &r.file.clone()) {
            let at = match &p.values {
                Values::List(_) => format!("{}.values[{}]", p.at, i + 1),
                Values::Range { .. } => format!("{}.{}", p.at, if i == 0 { "min" } else { "max" }),
            };
            for problem in problems {
                r.problem(
                    &at,
                    format!(
                        "{} = {}: {}",
                        p.path,
                        describe(&value.toml()),
                        problem.message
                    ),
                );
            }
        }
    }
}
