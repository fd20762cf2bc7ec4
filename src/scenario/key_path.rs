//! Key paths into a scenario, and a scenario resolved with values set at some of them: what a
//! regulation study varies. A path names one value the scenario's files can set:
//!
//! - `revision[2017-01].floor`: a revision key of the revision from that month (any file of the
//!   chain of `extends`). The value holds from that revision until a later one sets the key again,
//!   as the revision's own value would;
//! - `event[compression 2017-01].factor`: a field of a one-off event (`list`, and for a
//!   compression `below`, `factor`, `timing`); moving `list` moves the event;
//! - `glicko.tau`: a setting of the scenario's rating system.
//!
//! The values are set as one more file extending the scenario would set them (a revision of the
//! same month applied last; the event removed and defined anew; the system's table), so the
//! scenario's own checks judge them, and every problem is reported at its key path.

use std::fmt;
use std::path::{Path, PathBuf};

use toml::Value;

use super::error::{Problem, ScenarioError};
use super::raw::{RawEvent, RawEventKind, RawRevision, RawScenario};
use super::resolve::{merge, read_chain};
use super::{fields, Scenario};
use crate::keys::{nearest, Domain, KeyValue};
use crate::model::Month;
use crate::rules::EventTiming;
use crate::systems::SystemKind;

/// One value of a scenario a study can set.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyPath {
    Revision {
        from: Month,
        key: String,
    },
    Event {
        kind: String,
        list: Month,
        field: String,
    },
    System {
        table: String,
        key: String,
    },
}

const EVENT_KINDS: &[&str] = &["compression", "fresh-start"];
const COMPRESSION_FIELDS: &[&str] = &["list", "below", "factor", "timing"];
const FRESH_START_FIELDS: &[&str] = &["list"];

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyPath::Revision { from, key } => write!(f, "revision[{from}].{key}"),
            KeyPath::Event { kind, list, field } => write!(f, "event[{kind} {list}].{field}"),
            KeyPath::System { table, key } => write!(f, "{table}.{key}"),
        }
    }
}

impl KeyPath {
    /// Reads `revision[YYYY-MM].key`, `event[kind YYYY-MM].field` or `system.key`; what is
    /// expected otherwise.
    pub fn parse(text: &str) -> Result<KeyPath, String> {
        let expected = || {
            format!(
                "{text:?} is not a key path: expected revision[YYYY-MM].key (such as \"revision[2017-01].floor\"), event[kind YYYY-MM].field (such as \"event[compression 2017-01].factor\") or a system's setting (such as \"glicko.tau\")"
            )
        };
        let bracketed = |prefix: &str| -> Option<(String, String)> {
            let rest = text.strip_prefix(prefix)?.strip_prefix('[')?;
            let (inside, after) = rest.split_once(']')?;
            let key = after.strip_prefix('.')?;
            (!key.is_empty()).then(|| (inside.trim().to_string(), key.to_string()))
        };
        if text.starts_with("revision") {
            let (inside, key) = bracketed("revision").ok_or_else(expected)?;
            let from = Month::parse(&inside).ok_or_else(|| {
                format!("{text:?}: expected the revision's month as YYYY-MM in the brackets, got {inside:?}")
            })?;
            return Ok(KeyPath::Revision { from, key });
        }
        if text.starts_with("event") {
            let (inside, field) = bracketed("event").ok_or_else(expected)?;
            let (kind, list) = inside.split_once(' ').ok_or_else(expected)?;
            let list = Month::parse(list.trim()).ok_or_else(|| {
                format!(
                    "{text:?}: expected the event's list as YYYY-MM after its kind, got {:?}",
                    list.trim()
                )
            })?;
            return Ok(KeyPath::Event {
                kind: kind.to_string(),
                list,
                field,
            });
        }
        let (table, key) = text.split_once('.').ok_or_else(expected)?;
        Ok(KeyPath::System {
            table: table.to_string(),
            key: key.to_string(),
        })
    }
}

/// A value set at a key path.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub path: KeyPath,
    pub value: Value,
}

/// A scenario file with the files it extends, read once and resolved as it stands (`base`) or
/// with settings on top (`with`).
pub struct ScenarioFiles {
    path: PathBuf,
    chain: Vec<RawScenario>,
    base: Scenario,
}

impl ScenarioFiles {
    /// Reads a scenario and the files it extends; a scenario with problems is refused.
    pub fn read(path: &Path) -> Result<ScenarioFiles, ScenarioError> {
        let (chain, mut problems) = read_chain(path)?;
        let refs: Vec<&RawScenario> = chain.iter().collect();
        let base = merge(path, &refs, &mut problems);
        match base {
            Some(base) if problems.is_empty() => Ok(ScenarioFiles {
                path: path.to_path_buf(),
                chain,
                base,
            }),
            _ => Err(ScenarioError::Invalid(problems)),
        }
    }

    /// The scenario as its files state it.
    pub fn base(&self) -> &Scenario {
        &self.base
    }

    /// The months of the revisions in the chain, in order.
    fn revision_months(&self) -> Vec<Month> {
        let mut months: Vec<Month> = self
            .chain
            .iter()
            .flat_map(|raw| raw.revisions.iter().map(|r| r.from))
            .collect();
        months.sort();
        months.dedup();
        months
    }

    /// Every key path this scenario has, in the order people read them.
    pub fn key_paths(&self) -> Vec<String> {
        let mut paths = Vec::new();
        for from in self.revision_months() {
            for key in fields::KEYS {
                paths.push(format!("revision[{from}].{key}"));
            }
        }
        for e in &self.base.events {
            let kind = super::resolve::kind_name(&e.kind);
            for field in event_fields(kind) {
                paths.push(format!("event[{kind} {}].{field}", e.list));
            }
        }
        let system = self.base.system.kind();
        if SystemKind::WITH_SETTINGS.contains(&system) {
            for key in system.keys() {
                paths.push(format!("{}.{}", system.name(), key.name));
            }
        }
        paths
    }

    /// The values the path takes, or why this scenario has no such path (with the nearest it has).
    pub fn domain(&self, path: &KeyPath) -> Result<Domain, String> {
        let unknown = |what: String| {
            let paths = self.key_paths();
            let known: Vec<&str> = paths.iter().map(String::as_str).collect();
            let near = nearest(&path.to_string(), &known, 3);
            format!("{what}; the nearest key paths it has: {}", near.join(", "))
        };
        match path {
            KeyPath::Revision { from, key } => {
                let Some(domain) = fields::domain(key) else {
                    return Err(unknown(format!("`{key}` is not a revision key")));
                };
                if !self.revision_months().contains(from) {
                    let months: Vec<String> = self
                        .revision_months()
                        .iter()
                        .map(Month::to_string)
                        .collect();
                    return Err(format!(
                        "the scenario has no revision from {from}; its revisions are from {}",
                        months.join(", ")
                    ));
                }
                Ok(domain)
            }
            KeyPath::Event { kind, list, field } => {
                let present = self
                    .base
                    .events
                    .iter()
                    .any(|e| e.list == *list && super::resolve::kind_name(&e.kind) == kind);
                if !present {
                    let events: Vec<String> = self
                        .base
                        .events
                        .iter()
                        .map(|e| format!("{} {}", super::resolve::kind_name(&e.kind), e.list))
                        .collect();
                    return Err(format!(
                        "the scenario has no {kind} event on {list}; its events: {}",
                        if events.is_empty() {
                            "none".into()
                        } else {
                            events.join(", ")
                        }
                    ));
                }
                event_domain(kind, field)
                    .ok_or_else(|| unknown(format!("a {kind} event has no field `{field}`")))
            }
            KeyPath::System { table, key } => {
                let system = self.base.system.kind();
                if table != system.name() {
                    return Err(format!(
                        "`{table}` is neither a revision, an event nor the scenario's rating system ({})",
                        system.name()
                    ));
                }
                let Some(k) = system.keys().iter().find(|k| k.name == key) else {
                    return Err(unknown(format!("{table} has no setting `{key}`")));
                };
                Ok(Domain::Number {
                    min: k.min,
                    max: k.max,
                    above: k.above,
                    grain: k.switch.then_some(1.0),
                })
            }
        }
    }

    /// The value the scenario itself gives a path, typed by the path's domain (`None`: no such
    /// path).
    pub fn value(&self, path: &KeyPath) -> Option<KeyValue> {
        self.domain(path)
            .ok()?
            .read(&self.written_value(path)?)
            .ok()
    }

    /// The value the scenario gives a path, as a file would write it.
    fn written_value(&self, path: &KeyPath) -> Option<Value> {
        match path {
            KeyPath::Revision { from, key } => fields::get(self.base.timeline.at_month(*from), key),
            KeyPath::Event { kind, list, field } => {
                let event = self
                    .base
                    .events
                    .iter()
                    .find(|e| e.list == *list && super::resolve::kind_name(&e.kind) == kind)?;
                match (&event.kind, field.as_str()) {
                    (_, "list") => Some(Value::String(event.list.to_string())),
                    (super::EventKind::Compression(c), "below") => {
                        Some(Value::Integer(i64::from(c.below)))
                    }
                    (super::EventKind::Compression(c), "factor") => {
                        Some(Value::Float(f64::from(c.factor) / 100.0))
                    }
                    (super::EventKind::Compression(c), "timing") => {
                        Some(Value::String(c.timing.name().to_string()))
                    }
                    _ => None,
                }
            }
            KeyPath::System { key, .. } => self
                .base
                .system
                .values()
                .into_iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| Value::Float(v)),
        }
    }

    /// The scenario with `settings` on top, as a file extending it would set them; problems are
    /// reported against `origin` (the study) at each setting's key path.
    pub fn with(&self, settings: &[Setting], origin: &Path) -> Result<Scenario, Vec<Problem>> {
        // The settings that name no value of this scenario are left out of the overlay, so that the
        // others are still judged: every problem at once.
        let mut problems = Vec::new();
        let overlay = self.overlay(settings, origin, &mut problems);
        let mut chain: Vec<&RawScenario> = self.chain.iter().collect();
        chain.push(&overlay);
        match merge(&self.path, &chain, &mut problems) {
            Some(scenario) if problems.is_empty() => Ok(scenario),
            _ => Err(problems),
        }
    }

    /// The file that would set `settings`.
    fn overlay(
        &self,
        settings: &[Setting],
        origin: &Path,
        problems: &mut Vec<Problem>,
    ) -> RawScenario {
        let mut overlay = RawScenario::overlay(origin);
        let mut problem = |path: &KeyPath, message: String| {
            problems.push(Problem {
                file: origin.to_path_buf(),
                path: path.to_string(),
                message,
            })
        };
        let mut events: Vec<(String, Month, Vec<&Setting>)> = Vec::new();
        for setting in settings {
            if let Err(message) = self.domain(&setting.path) {
                problem(&setting.path, message);
                continue;
            }
            match &setting.path {
                KeyPath::Revision { from, key } => {
                    let path = format!("revision[{from}]");
                    match overlay.revisions.iter_mut().find(|r| r.from == *from) {
                        Some(r) => r.entries.push((key.clone(), setting.value.clone())),
                        None => overlay.revisions.push(RawRevision {
                            path,
                            from: *from,
                            note: None,
                            approximate: None,
                            entries: vec![(key.clone(), setting.value.clone())],
                        }),
                    }
                }
                KeyPath::Event { kind, list, .. } => {
                    match events.iter_mut().find(|(k, l, _)| k == kind && l == list) {
                        Some((_, _, s)) => s.push(setting),
                        None => events.push((kind.clone(), *list, vec![setting])),
                    }
                }
                KeyPath::System { table, key } => {
                    let system = self.base.system.kind();
                    let checked = match &setting.value {
                        Value::Integer(i) => Ok(*i as f64),
                        Value::Float(f) => Ok(*f),
                        other => Err(format!(
                            "expected a number, got {}",
                            fields::describe(other)
                        )),
                    }
                    .and_then(|v| {
                        let k = system.keys().iter().find(|k| k.name == key);
                        k.map_or(Ok(v), |k| k.check(v))
                    });
                    match checked {
                        Ok(v) => overlay
                            .system_settings
                            .push((table.clone(), key.clone(), v)),
                        Err(m) => problem(&setting.path, m),
                    }
                }
            }
        }
        for (kind, list, settings) in events {
            let Some(base) = self
                .base
                .events
                .iter()
                .find(|e| e.list == list && super::resolve::kind_name(&e.kind) == kind)
            else {
                continue;
            };
            let path = format!("event[{kind} {list}]");
            let mut moved_to = list;
            let mut raw_kind = match &base.kind {
                super::EventKind::Compression(c) => RawEventKind::Compression {
                    below: c.below,
                    factor: c.factor,
                    timing: c.timing,
                },
                super::EventKind::FreshStart => RawEventKind::FreshStart,
            };
            for s in settings {
                let KeyPath::Event { field, .. } = &s.path else {
                    continue;
                };
                if let Err(m) = set_event_field(&mut raw_kind, &mut moved_to, field, &s.value) {
                    problem(&s.path, m);
                }
            }
            overlay.events.push(RawEvent {
                path: path.clone(),
                list,
                kind: raw_kind.clone(),
                remove: true,
            });
            overlay.events.push(RawEvent {
                path,
                list: moved_to,
                kind: raw_kind,
                remove: false,
            });
        }
        overlay
    }
}

fn event_fields(kind: &str) -> &'static [&'static str] {
    if kind == "compression" {
        COMPRESSION_FIELDS
    } else {
        FRESH_START_FIELDS
    }
}

fn event_domain(kind: &str, field: &str) -> Option<Domain> {
    if !EVENT_KINDS.contains(&kind) || !event_fields(kind).contains(&field) {
        return None;
    }
    Some(match field {
        "list" => Domain::Month,
        "below" => Domain::whole(0, 4000),
        "factor" => Domain::Number {
            min: 0.0,
            max: 1.0,
            above: false,
            grain: Some(0.01),
        },
        _ => Domain::Choice(EventTiming::NAMES),
    })
}

/// Sets one field of an event as the scenario's reader would read it.
fn set_event_field(
    kind: &mut RawEventKind,
    list: &mut Month,
    field: &str,
    value: &Value,
) -> Result<(), String> {
    match (kind, field) {
        (_, "list") => {
            *list = value
                .as_str()
                .and_then(Month::parse)
                .ok_or_else(|| crate::keys::month_expected(value))?;
        }
        (RawEventKind::Compression { below, .. }, "below") => {
            *below = fields::whole(value, 0, 4000)? as i32;
        }
        (RawEventKind::Compression { factor, .. }, "factor") => {
            *factor = fields::hundredths(value, 0, 1)?;
        }
        (RawEventKind::Compression { timing, .. }, "timing") => {
            *timing = fields::choice(value, EventTiming::parse, EventTiming::NAMES)?;
        }
        _ => return Err(format!("no field `{field}`")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::EventKind;

    fn sonas() -> ScenarioFiles {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/sonas-2017.toml");
        ScenarioFiles::read(&path).unwrap()
    }

    fn set(path: &str, value: Value) -> Setting {
        Setting {
            path: KeyPath::parse(path).unwrap(),
            value,
        }
    }

    fn month(text: &str) -> Month {
        Month::parse(text).unwrap()
    }

    #[test]
    fn key_paths_read_back_as_written() {
        for text in [
            "revision[2017-01].floor",
            "revision[2014-07].initial.dummy-games",
            "event[compression 2017-01].factor",
            "glicko.tau",
        ] {
            assert_eq!(KeyPath::parse(text).unwrap().to_string(), text);
        }
        for bad in [
            "floor",
            "revision[2017].floor",
            "revision[2017-01]",
            "event[2017-01].factor",
        ] {
            assert!(KeyPath::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_revision_key_holds_until_a_later_revision_sets_it() {
        let files = sonas();
        let origin = Path::new("study.toml");
        let s = files
            .with(
                &[set("revision[2017-01].floor", Value::Integer(1300))],
                origin,
            )
            .unwrap();
        assert_eq!(s.timeline.at_month(month("2017-01")).floor, 1300);
        assert_eq!(s.timeline.at_month(month("2023-12")).floor, 1300);
        // fide-historical's March 2024 revision sets the floor again.
        assert_eq!(s.timeline.at_month(month("2024-03")).floor, 1400);
        assert_eq!(files.base().timeline.at_month(month("2017-01")).floor, 1400);
        assert_eq!(
            files.value(&KeyPath::parse("revision[2017-01].floor").unwrap()),
            Some(KeyValue::Whole(1400))
        );
    }

    #[test]
    fn an_event_changes_and_moves() {
        let files = sonas();
        let s = files
            .with(
                &[
                    set("event[compression 2017-01].factor", Value::Float(0.25)),
                    set("event[compression 2017-01].below", Value::Integer(1900)),
                    set(
                        "event[compression 2017-01].list",
                        Value::String("2018-01".into()),
                    ),
                ],
                Path::new("study.toml"),
            )
            .unwrap();
        let compressions: Vec<_> = s
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Compression(c) => Some((e.list, c.factor, c.below)),
                EventKind::FreshStart => None,
            })
            .collect();
        assert_eq!(compressions, [(month("2018-01"), 25, 1900)]);
        assert_eq!(
            files.value(&KeyPath::parse("event[compression 2017-01].factor").unwrap()),
            Some(KeyValue::Number(0.4))
        );
        assert_eq!(
            files.value(&KeyPath::parse("event[compression 2017-01].list").unwrap()),
            Some(KeyValue::Month(month("2017-01")))
        );
        assert_eq!(
            files.value(&KeyPath::parse("event[compression 2017-01].timing").unwrap()),
            Some(KeyValue::Choice("after-calculation"))
        );
    }

    #[test]
    fn every_bad_setting_is_named_at_its_key_path() {
        let files = sonas();
        let problems = files
            .with(
                &[
                    set("revision[2017-01].floor", Value::Integer(-5)),
                    set("revision[2018-01].floor", Value::Integer(1300)),
                    set("revision[2017-01].flor", Value::Integer(1300)),
                    set("event[compression 2019-01].factor", Value::Float(0.3)),
                    set("event[compression 2017-01].factor", Value::Float(1.5)),
                    set("glicko.tau", Value::Float(0.5)),
                ],
                Path::new("study.toml"),
            )
            .unwrap_err();
        let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        let all = text.join("\n");
        for expected in [
            "study.toml: revision[2017-01].floor: expected a whole number from 0 to 4000, got -5",
            "study.toml: revision[2018-01].floor: the scenario has no revision from 2018-01; its revisions are from 2000-01, 2002-07, 2004-07,",
            "study.toml: revision[2017-01].flor: `flor` is not a revision key; the nearest key paths it has: revision[2017-01].floor, ",
            "study.toml: event[compression 2019-01].factor: the scenario has no compression event on 2019-01; its events: compression 2017-01, fresh-start 2017-01",
            "study.toml: event[compression 2017-01].factor: expected a number from 0 to 1 with at most two decimals, got 1.5",
            "study.toml: glicko.tau: `glicko` is neither a revision, an event nor the scenario's rating system (fide)",
        ] {
            assert!(all.contains(expected), "{expected}\n{all}");
        }
    }
}
