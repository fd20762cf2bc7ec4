//! One scenario file as written: every key checked for its type and spelling, every problem
//! collected with its key path (a serde mirror would stop at the first).

use std::path::{Path, PathBuf};

use toml::{Table, Value};

use super::error::{Problem, ScenarioError};
use super::fields::{choice, describe, whole};
use super::{GameFormat, UnknownPlayers};
use crate::keys::{at, Reader};
use crate::model::Month;
use crate::rules::EventTiming;
use crate::systems::SystemKind;

pub struct RawScenario {
    pub file: PathBuf,
    pub name: Option<String>,
    pub description: Option<String>,
    pub extends: Option<PathBuf>,
    pub system: Option<SystemKind>,
    pub calendar_start: Option<Month>,
    pub calendar_end: Option<Month>,
    pub run_from: Option<Month>,
    pub run_to: Option<Month>,
    pub games: Option<PathBuf>,
    pub format: Option<GameFormat>,
    pub month_1: Option<Month>,
    pub start_list: Option<PathBuf>,
    pub players: Option<PathBuf>,
    pub unknown_players: Option<UnknownPlayers>,
    pub seed_rating: Option<i32>,
    pub revisions: Vec<RawRevision>,
    pub events: Vec<RawEvent>,
    /// Settings of the period-based systems: (table, key, value), checked against their ranges.
    pub system_settings: Vec<(String, String, f64)>,
}

impl RawScenario {
    /// A file that sets nothing yet, made in memory (a study's values on top of a scenario);
    /// `file` is where its problems are reported.
    pub fn overlay(file: &Path) -> RawScenario {
        RawScenario {
            file: file.to_path_buf(),
            name: None,
            description: None,
            extends: None,
            system: None,
            calendar_start: None,
            calendar_end: None,
            run_from: None,
            run_to: None,
            games: None,
            format: None,
            month_1: None,
            start_list: None,
            players: None,
            unknown_players: None,
            seed_rating: None,
            revisions: Vec::new(),
            events: Vec::new(),
            system_settings: Vec::new(),
        }
    }
}

pub struct RawRevision {
    /// Where the revision is written, for messages: `revision[3] (from 2014-07)`.
    pub path: String,
    pub from: Month,
    pub note: Option<String>,
    /// Why the era this revision opens is only an approximation of FIDE's practice, if it is.
    pub approximate: Option<String>,
    /// Dotted keys (`k.new`) and their values, checked when the revisions are folded.
    pub entries: Vec<(String, Value)>,
}

pub struct RawEvent {
    pub path: String,
    pub list: Month,
    pub kind: RawEventKind,
    pub remove: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RawEventKind {
    Compression {
        below: i32,
        factor: i32,
        timing: EventTiming,
    },
    FreshStart,
}

impl RawEventKind {
    pub fn name(&self) -> &'static str {
        match self {
            RawEventKind::Compression { .. } => "compression",
            RawEventKind::FreshStart => "fresh-start",
        }
    }
}

const EVENT_KINDS: &[&str] = &["compression", "fresh-start"];

fn parse_event_kind(text: &str) -> Option<&'static str> {
    EVENT_KINDS.iter().copied().find(|k| *k == text)
}

/// The top-level keys besides the systems' settings tables (`SystemKind::WITH_SETTINGS`).
const TOP_KEYS: &[&str] = &[
    "name",
    "description",
    "extends",
    "system",
    "calendar",
    "run",
    "data",
    "bootstrap",
    "revision",
    "event",
];

/// Reads one file: what could be read, and the problems found (a syntax error is fatal).
pub fn read(path: &Path) -> Result<(RawScenario, Vec<Problem>), ScenarioError> {
    let (_, table) = crate::keys::read_file(path, "scenario")?;
    Ok(read_table(&table, path))
}

/// Reads a scenario's text that no file holds, named `path` in messages.
pub fn read_text(text: &str, path: &Path) -> Result<(RawScenario, Vec<Problem>), ScenarioError> {
    let table =
        crate::keys::parse_table(text).map_err(|message| crate::keys::FileError::Syntax {
            path: path.to_path_buf(),
            message,
        })?;
    Ok(read_table(&table, path))
}

fn read_table(table: &Table, path: &Path) -> (RawScenario, Vec<Problem>) {
    let mut walk = Walk {
        r: Reader::new(path),
    };
    let raw = walk.scenario(table);
    (raw, walk.r.problems)
}

/// The scenario's keys, read with the one reader of key files.
struct Walk {
    r: Reader,
}

impl Walk {
    fn problem(&mut self, path: &str, message: impl Into<String>) {
        self.r.problem(path, message);
    }

    fn scenario(&mut self, top: &Table) -> RawScenario {
        let tables = SystemKind::WITH_SETTINGS.iter().map(|kind| kind.name());
        let top_keys: Vec<&str> = TOP_KEYS.iter().copied().chain(tables).collect();
        self.known_keys(top, "", &top_keys);
        let dir = self
            .r
            .file
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let path_in = |p: String| normalize(&dir.join(p));
        let calendar = self.table(top, "calendar", &["start", "end"]);
        let run = self.table(top, "run", &["from", "to"]);
        let data = self.table(
            top,
            "data",
            &["games", "format", "month-1", "start-list", "players"],
        );
        let bootstrap = self.table(top, "bootstrap", &["unknown-players", "seed-rating"]);
        RawScenario {
            file: self.r.file.clone(),
            name: self.r.directory_name(top, "", "name"),
            description: self.string(top, "description", ""),
            extends: self.string(top, "extends", "").map(path_in),
            system: self.choice(top, "system", "", SystemKind::parse, SystemKind::NAMES),
            calendar_start: self.month(&calendar, "start", "calendar"),
            calendar_end: self.month(&calendar, "end", "calendar"),
            run_from: self.month(&run, "from", "run"),
            run_to: self.month(&run, "to", "run"),
            games: self.string(&data, "games", "data").map(path_in),
            format: self.choice(
                &data,
                "format",
                "data",
                GameFormat::parse,
                GameFormat::NAMES,
            ),
            month_1: self.month(&data, "month-1", "data"),
            start_list: self
                .string(&data, "start-list", "data")
                .map(|p| normalize(&super::start_list_in(&dir, &p))),
            players: self.string(&data, "players", "data").map(path_in),
            unknown_players: self.choice(
                &bootstrap,
                "unknown-players",
                "bootstrap",
                UnknownPlayers::parse,
                UnknownPlayers::NAMES,
            ),
            seed_rating: self
                .whole(&bootstrap, "seed-rating", "bootstrap", 0, 4000)
                .map(|v| v as i32),
            revisions: self.revisions(top),
            events: self.events(top),
            system_settings: self.system_settings(top),
        }
    }

    fn system_settings(&mut self, top: &Table) -> Vec<(String, String, f64)> {
        let mut out = Vec::new();
        for kind in SystemKind::WITH_SETTINGS {
            let (name, keys) = (kind.name(), kind.keys());
            let names: Vec<&str> = keys.iter().map(|k| k.name).collect();
            let table = self.table(top, name, &names);
            for key in keys {
                let Some(value) = table.get(key.name) else {
                    continue;
                };
                let number = match value {
                    Value::Integer(i) => Some(*i as f64),
                    Value::Float(f) => Some(*f),
                    _ => None,
                };
                match number
                    .ok_or_else(|| format!("expected a number, got {}", describe(value)))
                    .and_then(|v| key.check(v))
                {
                    Ok(v) => out.push((name.to_string(), key.name.to_string(), v)),
                    Err(m) => self.problem(&format!("{name}.{}", key.name), m),
                }
            }
        }
        out
    }

    fn revisions(&mut self, top: &Table) -> Vec<RawRevision> {
        let mut out: Vec<RawRevision> = Vec::new();
        for (i, table) in self
            .array_of_tables(top, "revision")
            .into_iter()
            .enumerate()
        {
            let mut path = format!("revision[{}]", i + 1);
            let Some(from) = self.month(&table, "from", &path) else {
                if !table.contains_key("from") {
                    self.problem(&path, "missing `from` (the month from which the revision applies, such as \"2014-07\")");
                }
                self.check_unplaced(&table, &path);
                continue;
            };
            path = format!("{path} (from {from})");
            if let Some(previous) = out.last() {
                if from == previous.from {
                    self.problem(
                        &path,
                        format!(
                            "{} is also from {from}: a file holds one revision per month; merge the two",
                            previous.path
                        ),
                    );
                } else if from < previous.from {
                    self.problem(
                        &path,
                        format!(
                            "revisions must be in date order: this one follows {}",
                            previous.path
                        ),
                    );
                }
            }
            let note = self.string(&table, "note", &path);
            let approximate = self.string(&table, "approximate", &path);
            let mut entries = Vec::new();
            flatten(&table, "", &mut entries);
            entries.retain(|(k, _)| !["from", "note", "approximate"].contains(&k.as_str()));
            out.push(RawRevision {
                path,
                from,
                note,
                approximate,
                entries,
            });
        }
        out
    }

    /// A revision whose `from` cannot be read opens no era, but its keys are still checked (against
    /// today's rules), so that one slip does not hide the others.
    fn check_unplaced(&mut self, table: &Table, path: &str) {
        let mut entries = Vec::new();
        flatten(table, "", &mut entries);
        let mut scratch = super::base_regulations();
        for (key, value) in entries {
            if ["from", "note", "approximate"].contains(&key.as_str()) {
                continue;
            }
            if let Err(message) = super::fields::set(&mut scratch, &key, &value) {
                self.problem(&format!("{path}.{key}"), message);
            }
        }
    }

    fn events(&mut self, top: &Table) -> Vec<RawEvent> {
        let mut out = Vec::new();
        for (i, table) in self.array_of_tables(top, "event").into_iter().enumerate() {
            let path = format!("event[{}]", i + 1);
            let kind = self.choice(&table, "kind", &path, parse_event_kind, EVENT_KINDS);
            let list = self.month(&table, "list", &path);
            if !table.contains_key("list") {
                self.problem(
                    &path,
                    "missing `list` (the list month of the event, such as \"2024-03\")",
                );
            }
            let remove = table
                .get("remove")
                .map(|v| v.as_bool())
                .unwrap_or(Some(false));
            if remove.is_none() {
                self.problem(&format!("{path}.remove"), "expected true or false");
            }
            let kind = match kind {
                Some("compression") => {
                    self.known_keys(
                        &table,
                        &path,
                        &["kind", "list", "remove", "below", "factor", "timing"],
                    );
                    let below = self.whole(&table, "below", &path, 0, 4000).unwrap_or(2000) as i32;
                    let factor = match table.get("factor") {
                        None => 40,
                        Some(v) => match super::fields::hundredths(v, 0, 1) {
                            Ok(h) => h,
                            Err(m) => {
                                self.problem(&format!("{path}.factor"), m);
                                40
                            }
                        },
                    };
                    let timing = self
                        .choice(
                            &table,
                            "timing",
                            &path,
                            EventTiming::parse,
                            EventTiming::NAMES,
                        )
                        .unwrap_or(EventTiming::AfterCalculation);
                    Some(RawEventKind::Compression {
                        below,
                        factor,
                        timing,
                    })
                }
                Some(_) => {
                    self.known_keys(&table, &path, &["kind", "list", "remove"]);
                    Some(RawEventKind::FreshStart)
                }
                None => {
                    if !table.contains_key("kind") {
                        self.problem(&path, "missing `kind` (\"compression\" or \"fresh-start\")");
                    }
                    None
                }
            };
            if let (Some(kind), Some(list), Some(remove)) = (kind, list, remove) {
                out.push(RawEvent {
                    path,
                    list,
                    kind,
                    remove,
                });
            }
        }
        out
    }

    fn known_keys(&mut self, table: &Table, path: &str, allowed: &[&str]) {
        self.r.unknown(table, path, allowed);
    }

    fn table(&mut self, top: &Table, key: &str, allowed: &[&str]) -> Table {
        self.r.table(top, "", key, allowed)
    }

    fn array_of_tables(&mut self, top: &Table, key: &str) -> Vec<Table> {
        self.r
            .tables(top, key)
            .into_iter()
            .map(|(_, t)| t)
            .collect()
    }

    fn string(&mut self, table: &Table, key: &str, path: &str) -> Option<String> {
        self.r.text(table, path, key)
    }

    fn month(&mut self, table: &Table, key: &str, path: &str) -> Option<Month> {
        self.r.month(table, path, key)
    }

    fn whole(&mut self, table: &Table, key: &str, path: &str, min: i64, max: i64) -> Option<i64> {
        let value = table.get(key)?;
        whole(value, min, max)
            .map_err(|m| self.problem(&at(path, key), m))
            .ok()
    }

    fn choice<T>(
        &mut self,
        table: &Table,
        key: &str,
        path: &str,
        parse: fn(&str) -> Option<T>,
        names: &[&str],
    ) -> Option<T> {
        let value = table.get(key)?;
        choice(value, parse, names)
            .map_err(|m| self.problem(&at(path, key), m))
            .ok()
    }
}

/// `k = { new = 40 }` and `k.new = 40` both become (`k.new`, 40).
fn flatten(table: &Table, prefix: &str, out: &mut Vec<(String, Value)>) {
    for (key, value) in table {
        let dotted = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            Value::Table(inner) => flatten(inner, &dotted, out),
            other => out.push((dotted, other.clone())),
        }
    }
}

/// `scenarios/../data/x.csv` → `data/x.csv`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}
