//! World files (TOML): read with every problem collected at its key path, written back whole
//! (`world.toml` beside a generated world), and edited in place (the values `calibrate` fits,
//! with the file's comments kept).
//!
//! A world file names the world and sets parameters by section (`[pool] players = 87000`). It
//! either gives every parameter or `extends` a built-in world or another file, whose values the
//! ones not given keep.

use std::path::{Path, PathBuf};

use toml::{Table, Value as Toml};

use crate::keys::{
    describe, did_you_mean, parse_table, problem_list, read_file, FileError, Problem, Reader,
};
use crate::model::Month;

use super::params::{self, Access, Param, Value, PARAMS};
use super::Settings;

/// The built-in worlds: the files shipped in `worlds/`, compiled in so that they need no path. A
/// regulation study is judged on each (docs/generate.md, "Three worlds"): the first is fitted to
/// Sonas's tables, the second to FIDE's activity, the third to the tables with another game model;
/// the second and third extend the first with the values they change.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "fide-2001-2025",
        include_str!("../../../worlds/fide-2001-2025.toml"),
    ),
    (
        "fide-2001-2025-activity",
        include_str!("../../../worlds/fide-2001-2025-activity.toml"),
    ),
    (
        "fide-2001-2025-form",
        include_str!("../../../worlds/fide-2001-2025-form.toml"),
    ),
];

#[derive(Debug, thiserror::Error)]
pub enum WorldError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{count} problem{s} in the world file:\n{list}", count = .0.len(), s = if .0.len() == 1 { "" } else { "s" }, list = problem_list(.0))]
    Invalid(Vec<Problem>),
    #[error("{name:?} is neither a world file nor a built-in world; the built-in worlds: {names}", names = preset_names())]
    NotFound { name: String },
    #[error("{file} extends itself through {chain}; a world file may not extend itself")]
    Circular { file: String, chain: String },
}

fn preset_names() -> String {
    PRESETS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A built-in world.
pub fn preset(name: &str) -> Result<Settings, WorldError> {
    preset_from(name, &mut Vec::new())
}

/// A built-in world, read after the worlds in `seen` that extend it.
fn preset_from(name: &str, seen: &mut Vec<String>) -> Result<Settings, WorldError> {
    let (_, text) = PRESETS
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| WorldError::NotFound { name: name.into() })?;
    let file = format!("built-in world {name}");
    enter(&file, seen)?;
    parse_text(text, &file, seen)
}

/// Reads a world's text that no file holds (a built-in world's), named `file` in messages; it
/// extends only built-in worlds.
fn parse_text(text: &str, file: &str, seen: &mut Vec<String>) -> Result<Settings, WorldError> {
    let table = parse_table(text).map_err(|message| FileError::Syntax {
        path: PathBuf::from(file),
        message,
    })?;
    parse(&table, Path::new(file), None, seen)
}

/// Notes that `file` is being read, refusing it if a world it extends is already reading it.
fn enter(file: &str, seen: &mut Vec<String>) -> Result<(), WorldError> {
    let circular = seen.iter().any(|s| s == file);
    seen.push(file.to_string());
    if circular {
        return Err(WorldError::Circular {
            file: file.to_string(),
            chain: seen.join(" → "),
        });
    }
    Ok(())
}

/// A world file, or a built-in world by name when no such file exists.
pub fn load(world: &str) -> Result<Settings, WorldError> {
    load_from(world, None, &mut Vec::new())
}

fn load_from(
    world: &str,
    dir: Option<&Path>,
    seen: &mut Vec<String>,
) -> Result<Settings, WorldError> {
    let path = match dir {
        Some(dir) => dir.join(world),
        None => PathBuf::from(world),
    };
    if !path.is_file() {
        if PRESETS.iter().any(|(n, _)| *n == world) {
            return preset_from(world, seen);
        }
        return Err(WorldError::NotFound {
            name: path.display().to_string(),
        });
    }
    enter(&path.display().to_string(), seen)?;
    let (_, table) = read_file(&path, "world file")?;
    parse(&table, &path, path.parent(), seen)
}

/// Reads a world file's keys. `dir` is where `extends` paths are found; a built-in world (none)
/// extends only built-in worlds, whatever files the current directory holds.
fn parse(
    table: &Table,
    file: &Path,
    dir: Option<&Path>,
    seen: &mut Vec<String>,
) -> Result<Settings, WorldError> {
    let mut r = Reader::new(file);
    let name = r.text(table, "", "name");
    r.text(table, "", "description");
    let extends = r.text(table, "", "extends");
    let mut settings = match (&extends, dir) {
        (Some(base), Some(_)) => load_from(base, dir, seen)?,
        (Some(base), None) => preset_from(base, seen)?,
        (None, _) => Settings::default(),
    };
    match &name {
        Some(name) if !name.trim().is_empty() => settings.name = name.clone(),
        _ if extends.is_some() => {}
        _ => r.problem(
            "name",
            "missing: expected the world's name, such as \"fide-2001-2025\"",
        ),
    }
    let sections = params::sections();
    let mut given: Vec<&'static str> = Vec::new();
    for (key, value) in table {
        if ["name", "description", "extends"].contains(&key.as_str()) {
            continue;
        }
        let Some(section) = sections.iter().find(|s| **s == key) else {
            r.problem(
                key,
                format!(
                    "unknown key{}; expected name, description, extends or a section: {}",
                    did_you_mean(key, &sections),
                    sections.join(", ")
                ),
            );
            continue;
        };
        let Toml::Table(entries) = value else {
            r.problem(
                key,
                format!("expected a section [{key}], got {}", describe(value)),
            );
            continue;
        };
        let keys: Vec<&str> = PARAMS
            .iter()
            .filter(|p| p.section() == *section)
            .map(|p| p.name())
            .collect();
        for (name, value) in entries {
            let path = format!("{section}.{name}");
            let Some(param) = params::find(&path) else {
                r.problem(
                    &path,
                    format!(
                        "unknown key{}; [{section}] has: {}",
                        did_you_mean(name, &keys),
                        keys.join(", ")
                    ),
                );
                continue;
            };
            match read_value(param, value) {
                Ok(v) => {
                    param.set(&mut settings, v);
                    given.push(param.key);
                }
                Err(message) => r.problem(&path, message),
            }
        }
    }
    if extends.is_none() {
        for p in PARAMS.iter().filter(|p| !given.contains(&p.key)) {
            r.problem(
                p.key,
                format!(
                    "missing: expected {} ({}); or `extends` a world that gives it",
                    p.range_text(),
                    p.unit
                ),
            );
        }
    }
    if r.problems.is_empty() {
        cross_checks(&mut r, &settings, &given);
    }
    if r.problems.is_empty() {
        Ok(settings)
    } else {
        Err(WorldError::Invalid(r.problems))
    }
}

/// The value of one key, checked for its kind and range.
fn read_value(param: &Param, value: &Toml) -> Result<Value, String> {
    let got = || describe(value);
    let expected = || {
        format!(
            "expected {} ({}), got {}",
            param.range_text(),
            param.unit,
            got()
        )
    };
    let v = match (param.access, value) {
        (Access::Real(..), Toml::Integer(i)) => Value::Real(*i as f64),
        (Access::Real(..), Toml::Float(f)) => Value::Real(*f),
        (Access::Whole(..), Toml::Integer(i)) => {
            Value::Whole(u32::try_from(*i).map_err(|_| expected())?)
        }
        (Access::Month(..), Toml::String(s)) => Value::Month(Month::parse(s).ok_or_else(expected)?),
        _ => return Err(expected()),
    };
    let n = v.number();
    if !(n.is_finite() && param.min <= n && n <= param.max) {
        return Err(expected());
    }
    Ok(v)
}

/// Rules between keys; `given` are the keys this file sets (not those of the world it extends).
fn cross_checks(r: &mut Reader, s: &Settings, given: &[&str]) {
    let mut check = |ok: bool, path: &str, message: String| {
        if !ok {
            r.problem(path, message);
        }
    };
    check(
        s.shutdown_from <= s.shutdown_to,
        "covid.to",
        format!("{} is before covid.from {}", s.shutdown_to, s.shutdown_from),
    );
    check(
        s.swiss_min <= s.swiss_max,
        "events.swiss_max",
        format!("{} is below events.swiss_min {}", s.swiss_max, s.swiss_min),
    );
    check(
        s.ceiling_from < s.ceiling_max,
        "players.ceiling_max",
        format!(
            "{} is not above players.ceiling_from {}",
            s.ceiling_max, s.ceiling_from
        ),
    );
    check(
        s.round_robin_min <= s.round_robin_max,
        "events.round_robin_max",
        format!(
            "{} is below events.round_robin_min {}",
            s.round_robin_max, s.round_robin_min
        ),
    );
    check(
        s.league_min <= s.league_max,
        "events.league_max",
        format!(
            "{} is below events.league_min {}",
            s.league_max, s.league_min
        ),
    );
    for (key, share) in [
        ("events.round_robin_share", s.round_robin_share),
        (
            "events.round_robin_share_strong",
            s.round_robin_share_strong,
        ),
    ] {
        check(
            s.international_share + share <= 1.0,
            key,
            format!(
                "{share} with events.international_share {} is more than every player; expected the two to add up to at most 1",
                s.international_share
            ),
        );
    }
    check(
        s.pool > 0.0 || s.latent_players > 0.0 || s.arrivals_per_month > 0.0,
        "pool.players",
        "0 with latent.players and arrivals.per_month 0 too: the world has no player; give one of them a number above 0".into(),
    );
    // A shutdown this file sets must fall in the world's months, or it shuts nothing; one a
    // shortened world inherits may lie after its end.
    let last = s.start.plus(s.months as i32 - 1);
    let span = format!(
        "the world's months run from {} to {last} (world.start, world.months)",
        s.start
    );
    check(
        !given.contains(&"covid.from") || s.shutdown_from <= last,
        "covid.from",
        format!(
            "{} is after the world's last month: {span}",
            s.shutdown_from
        ),
    );
    check(
        !given.contains(&"covid.to") || s.shutdown_to >= s.start,
        "covid.to",
        format!(
            "{} is before the world's first month: {span}",
            s.shutdown_to
        ),
    );
    check(
        u64::from(s.first_id) + 1_000_000_000 <= u64::from(u32::MAX),
        "world.first_id",
        "leaves too few ids: expected at most 3294967295".into(),
    );
}

/// A value as the file writes it: months quoted, numbers in their shortest exact form.
fn write_value(value: Value) -> String {
    match value {
        Value::Real(v) => format!("{v}"),
        Value::Whole(v) => v.to_string(),
        Value::Month(m) => format!("\"{m}\""),
    }
}

/// Every parameter, section by section, each with its unit: a complete world file that reads back
/// to the same settings.
pub fn dump(s: &Settings) -> String {
    let mut out = format!(
        "# The world {:?} with every parameter resolved; `elosim generate --world FILE` reads it back.\nname = {:?}\n",
        s.name, s.name
    );
    for section in params::sections() {
        out.push_str(&format!("\n[{section}]\n"));
        for p in PARAMS.iter().filter(|p| p.section() == section) {
            out.push_str(&format!(
                "{} = {}  # {}\n",
                p.name(),
                write_value(p.get(s)),
                p.unit
            ));
        }
    }
    out
}

/// A world file's text with some values replaced, its comments and layout kept; keys the file
/// does not give are added at the end of their section (a section it lacks, at the end).
pub fn set_values(text: &str, values: &[(&Param, Value)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (param, value) in values {
        let written = write_value(*value);
        let header = format!("[{}]", param.section());
        let start = lines.iter().position(|l| l.trim() == header);
        let Some(start) = start else {
            lines.push(String::new());
            lines.push(header);
            lines.push(format!("{} = {written}", param.name()));
            continue;
        };
        let end = lines[start + 1..]
            .iter()
            .position(|l| l.trim_start().starts_with('['))
            .map_or(lines.len(), |i| start + 1 + i);
        let found = (start + 1..end).find(|&i| {
            let line = lines[i].trim_start();
            line.strip_prefix(param.name())
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        });
        match found {
            Some(i) => {
                let line = &lines[i];
                let equals = line.find('=').expect("found by its `=`");
                let (before, after) = line.split_at(equals + 1);
                let comment = after.find('#').map(|at| &after[at..]);
                let old = after.split('#').next().unwrap_or("");
                // Keep the comment where it was when the new value fits before it, and a space
                // before it whatever the value's width.
                let width = old.len().saturating_sub(2).max(written.len());
                lines[i] = match comment {
                    Some(comment) => format!("{before} {written:<width$} {comment}"),
                    None => format!("{before} {written}"),
                };
            }
            None => {
                let last = (start + 1..end)
                    .rev()
                    .find(|&i| !lines[i].trim().is_empty())
                    .unwrap_or(start);
                lines.insert(last + 1, format!("{} = {written}", param.name()));
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use toml::Table;

    fn temp(name: &str, text: &str) -> PathBuf {
        let dir = crate::testing::scratch("world-file");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Why loading this text, written to a file of this name, fails.
    fn refused(name: &str, text: &str) -> String {
        let path = temp(name, text);
        load(path.to_str().unwrap()).unwrap_err().to_string()
    }

    /// The third refit docs/generate.md reports stays loadable: it extends the built-in world with
    /// its fitted values (league rounds and occasional players on). The second is built in.
    #[test]
    fn the_refits_in_the_docs_load() {
        let base = preset("fide-2001-2025").unwrap();
        for (world, name) in [
            (
                load("worlds/refits/tables-weighted.toml").unwrap(),
                "tables-weighted",
            ),
            (
                preset("fide-2001-2025-activity").unwrap(),
                "fide-2001-2025-activity",
            ),
        ] {
            assert_eq!(world.name, name);
            assert!(
                world.league_share > 0.1 && world.occasional_share > 0.2,
                "{name}"
            );
            assert_eq!(world.months, base.months);
        }
    }

    #[test]
    fn the_shipped_file_is_the_built_in_world() {
        let shipped = load("worlds/fide-2001-2025.toml").unwrap();
        let built_in = preset("fide-2001-2025").unwrap();
        assert_eq!(shipped, built_in);
        assert_eq!(built_in.name, "fide-2001-2025");
        assert_eq!(built_in.start, Month::new(2001, 1).unwrap());
        // Every parameter is given in the file (none falls back to a default).
        let text = std::fs::read_to_string("worlds/fide-2001-2025.toml").unwrap();
        let table: Table = text.parse().unwrap();
        for p in PARAMS {
            let section = table.get(p.section()).and_then(|s| s.as_table());
            assert!(
                section.is_some_and(|s| s.contains_key(p.name())),
                "{}",
                p.key
            );
        }
    }

    /// Every built-in world is its file in `worlds/`, named as the file; those after the first
    /// extend it and give only the values they change, so that each value has one copy.
    #[test]
    fn the_other_built_in_worlds_set_only_what_they_change() {
        let base = preset("fide-2001-2025").unwrap();
        assert_eq!(PRESETS[0].0, "fide-2001-2025");
        for (name, _) in PRESETS {
            let path = format!("worlds/{name}.toml");
            let world = preset(name).unwrap();
            assert_eq!(load(&path).unwrap(), world, "{path}");
            assert_eq!(&world.name, name);
        }
        for (name, text) in &PRESETS[1..] {
            let table: Table = text.parse().unwrap();
            assert_eq!(
                table.get("extends").and_then(Toml::as_str),
                Some("fide-2001-2025"),
                "{name}"
            );
            let world = preset(name).unwrap();
            let mut given = 0;
            for p in PARAMS {
                let section = table.get(p.section()).and_then(|s| s.as_table());
                if section.is_some_and(|s| s.contains_key(p.name())) {
                    given += 1;
                    assert_ne!(
                        p.get(&world),
                        p.get(&base),
                        "{name} gives {} as fide-2001-2025 does",
                        p.key
                    );
                } else {
                    assert_eq!(p.get(&world), p.get(&base), "{name}: {}", p.key);
                }
            }
            assert!(given > 0, "{name} changes nothing");
        }
    }

    /// The form world keeps the built-in world's game model but for half its upsets, held, and the
    /// more form its fit chose.
    #[test]
    fn the_form_world_halves_the_upsets() {
        let base = preset("fide-2001-2025").unwrap();
        let form = preset("fide-2001-2025-form").unwrap();
        assert!((form.upset_share - base.upset_share / 2.0).abs() < 1e-3);
        assert!(form.form_sd > base.form_sd);
        assert_eq!(form.white_advantage, base.white_advantage);
        assert_eq!(form.draw_rate_low, base.draw_rate_low);
    }

    /// A built-in world's `extends` names a built-in world, never a file of the current directory
    /// (the crate's root holds `worlds/fide-2001-2025.toml`).
    #[test]
    fn a_built_in_world_extends_only_built_in_worlds() {
        let text = "name = \"w\"\nextends = \"worlds/fide-2001-2025.toml\"\n";
        assert!(std::path::Path::new("worlds/fide-2001-2025.toml").is_file());
        let e = parse_text(text, "built-in world w", &mut Vec::new()).unwrap_err();
        assert!(matches!(e, WorldError::NotFound { .. }), "{e}");
    }

    #[test]
    fn a_dump_reads_back_identically() {
        let world = preset("fide-2001-2025").unwrap();
        let text = dump(&world);
        let again = parse_text(&text, "dump", &mut Vec::new()).unwrap();
        assert_eq!(again, world);
        // Odd values survive too.
        let mut odd = world.clone();
        odd.entry_sd = 0.1 + 0.2;
        odd.pool = 12_345.678_9;
        odd.shutdown_to = Month::new(2022, 2).unwrap();
        let again = parse_text(&dump(&odd), "dump", &mut Vec::new()).unwrap();
        assert_eq!(again, odd);
    }

    #[test]
    fn every_problem_is_reported_with_its_key_path() {
        let e = refused(
            "bad.toml",
            "name = \"bad\"\nextends = \"fide-2001-2025\"\nsurprise = 1\n[pool]\nplayers = -5\nage_maen = 30\n[arrivals]\nentry_sd = \"wide\"\n[covid]\nfrom = \"2021-13\"\n[games]\ndraw_rate_low = 2\n[weather]\nrain = 1\n",
        );
        for expected in [
            "7 problems",
            "surprise: unknown key",
            "pool.players: expected a number from 0 to 10000000 (players at scale 1), got -5",
            "pool.age_maen: unknown key (did you mean `age_mean`?)",
            "arrivals.entry_sd: expected a number from 0 to 1000 (rating points), got \"wide\"",
            "covid.from: expected a month",
            "games.draw_rate_low: expected a number from 0 to 1",
            "weather: unknown key",
        ] {
            assert!(e.contains(expected), "{expected}\n{e}");
        }
        assert!(e.contains("bad.toml"), "{e}");
    }

    #[test]
    fn a_complete_file_needs_every_key_and_keys_must_agree() {
        let e = refused("short.toml", "name = \"short\"\n[pool]\nplayers = 10\n");
        assert!(e.contains("world.start: missing"), "{e}");
        assert!(!e.contains("pool.players: missing"), "{e}");
        let e = refused(
            "order.toml",
            "name = \"order\"\nextends = \"fide-2001-2025\"\n[covid]\nfrom = \"2021-01\"\nto = \"2020-01\"\n",
        );
        assert!(
            e.contains("covid.to: 2020-01 is before covid.from 2021-01"),
            "{e}"
        );
        let e = refused(
            "low.toml",
            "name = \"low\"\nextends = \"fide-2001-2025\"\n[players]\nceiling_max = 2400\n",
        );
        assert!(
            e.contains("players.ceiling_max: 2400 is not above players.ceiling_from 2436"),
            "{e}"
        );
    }

    #[test]
    fn a_world_needs_a_player_and_a_shutdown_in_its_months() {
        let e = refused(
            "empty.toml",
            "name = \"empty\"\nextends = \"fide-2001-2025\"\n[pool]\nplayers = 0\n[latent]\nplayers = 0\n[arrivals]\nper_month = 0\n",
        );
        assert!(
            e.contains("empty.toml: pool.players: 0 with latent.players and arrivals.per_month 0 too: the world has no player"),
            "{e}"
        );
        let e = refused(
            "later.toml",
            "name = \"later\"\nextends = \"fide-2001-2025\"\n[covid]\nfrom = \"2030-01\"\nto = \"2030-06\"\n",
        );
        assert!(
            e.contains("later.toml: covid.from: 2030-01 is after the world's last month: the world's months run from 2001-01 to 2025-12"),
            "{e}"
        );
        let e = refused(
            "earlier.toml",
            "name = \"earlier\"\nextends = \"fide-2001-2025\"\n[covid]\nfrom = \"1990-01\"\nto = \"1990-06\"\n",
        );
        assert!(
            e.contains("covid.to: 1990-06 is before the world's first month"),
            "{e}"
        );
        // A shortened world ends before the shutdown it inherits; one running past its end is kept.
        for (name, text) in [
            (
                "short.toml",
                "name = \"short\"\nextends = \"fide-2001-2025\"\n[world]\nmonths = 30\n",
            ),
            (
                "past.toml",
                "name = \"past\"\nextends = \"fide-2001-2025\"\n[covid]\nto = \"2030-01\"\n",
            ),
        ] {
            assert!(load(temp(name, text).to_str().unwrap()).is_ok(), "{name}");
        }
    }

    #[test]
    fn a_file_extends_a_world_and_changes_what_it_names() {
        let path = temp(
            "faster.toml",
            "name = \"faster\"\nextends = \"fide-2001-2025\"\n[players]\ndevelopment_years = 2\n",
        );
        let world = load(path.to_str().unwrap()).unwrap();
        let base = preset("fide-2001-2025").unwrap();
        assert_eq!(world.name, "faster");
        assert_eq!(world.development_years, 2.0);
        assert_eq!(world.pool, base.pool);
        let child = temp(
            "child.toml",
            "name = \"child\"\nextends = \"faster.toml\"\n",
        );
        assert_eq!(
            load(child.to_str().unwrap()).unwrap().development_years,
            2.0
        );
        let circle = temp(
            "circle.toml",
            "name = \"circle\"\nextends = \"circle.toml\"\n",
        );
        let e = load(circle.to_str().unwrap()).unwrap_err().to_string();
        assert!(e.contains("extends itself"), "{e}");
        let e = load("no-such-world").unwrap_err().to_string();
        assert!(e.contains("fide-2001-2025"), "{e}");
    }

    #[test]
    fn values_are_set_in_place_keeping_comments() {
        let text = "name = \"w\"\n\n[pool]\n# the pool\nplayers = 87000     # FIDE's 2008 list\nage_mean = 33\n\n[games]\nform_sd = 48 # form\nwhite_advantage = 30\n";
        let players = params::find("pool.players").unwrap();
        let sd = params::find("pool.age_sd").unwrap();
        let draw = params::find("games.draw_decay").unwrap();
        let form = params::find("games.form_sd").unwrap();
        let out = set_values(
            text,
            &[
                (form, Value::Real(48.75)),
                (players, Value::Real(91234.5)),
                (sd, Value::Real(12.0)),
                (draw, Value::Real(400.0)),
            ],
        );
        assert!(
            out.contains("players = 91234.5   # FIDE's 2008 list\n"),
            "{out}"
        );
        assert!(out.contains("age_mean = 33\nage_sd = 12\n"), "{out}");
        assert!(
            out.contains("white_advantage = 30\ndraw_decay = 400\n"),
            "{out}"
        );
        assert!(out.contains("# the pool\n"), "{out}");
        // A value wider than the room before the comment pushes the comment, one space after it.
        assert!(out.contains("form_sd = 48.75 # form\n"), "{out}");
    }
}
