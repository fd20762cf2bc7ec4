//! A generated world input, read with one set of rules wherever a file names worlds (a
//! calibration's starting world, a study's `[input]`): the worlds by name (a world file relative
//! to the file, or a built-in world), or the command line's `--world`; their scale and seeds, the
//! command line's in place of the file's; every world checked at the scale.

use std::path::Path;

use toml::{Table, Value};

use crate::keys::{self, at, describe, Reader};
use crate::numbers::{self, ordinal};

use super::world::{load_world, LoadedWorld};

/// The keys of a world input in its table.
pub const WORLD_KEYS: &[&str] = &["world", "worlds", "scale", "seeds"];

/// The scale when neither the file nor the command line gives one: a tenth of FIDE's size.
const DEFAULT_SCALE: f64 = 0.1;

/// The range of a world's scale where a study or a calibration generates it: each candidate or
/// evaluation generates a world, so ten times FIDE's size is the most either takes (`elosim
/// generate`, one world, goes to a hundred).
pub const SCALE: (f64, f64) = (1e-4, 10.0);

/// The seeds of a study's or a calibration's worlds, and where they were given: the command
/// line's (`flag`) in place of the file's `prefix.seeds`, each seed once: a seed twice would be one
/// replicate counted twice (and, in a study, one pair in two shards). None where neither gives
/// any: the caller's default.
pub fn read_seeds(
    r: &mut Reader,
    table: &toml::Table,
    prefix: &str,
    flag: &str,
    given: Option<&[u64]>,
) -> Option<(Vec<u64>, String)> {
    let file = r.wholes(table, prefix, "seeds");
    let (seeds, at) = match given.filter(|s| !s.is_empty()) {
        Some(s) => (s.to_vec(), flag.to_string()),
        None => (file?, keys::at(prefix, "seeds")),
    };
    if let Some((i, s)) = seeds
        .iter()
        .enumerate()
        .find(|(i, s)| seeds[..*i].contains(s))
    {
        r.problem(
            &at,
            format!(
                "seed {s} is given twice (the {} value): each seed is one replicate",
                numbers::ordinal(i + 1)
            ),
        );
    }
    Some((seeds, at))
}

/// A world input: its worlds, the scale and the seeds.
pub struct WorldInput {
    pub worlds: Vec<LoadedWorld>,
    pub scale: f64,
    pub seeds: Vec<u64>,
}

/// What a table and the command line give of a world input, before the worlds are loaded.
pub struct WorldKeys {
    /// Each world named: where (a key path or `--world`), whether a file of that name is relative
    /// to the file's folder (else to the working directory), and the name; `None` when none is
    /// named, empty when what is named is refused.
    names: Option<Vec<(String, bool, String)>>,
    /// The scale's key path, where a scale the command line does not give is refused.
    scale_key: String,
    scale: Option<(f64, String)>,
    seeds: Option<(Vec<u64>, String)>,
}

impl WorldKeys {
    /// Reads `prefix.world` (one world) or, where `several`, `prefix.worlds` (a list),
    /// `prefix.scale` and `prefix.seeds` from `t`, the command line's `(world, scale, seeds)` in
    /// place of the file's.
    pub fn read(
        r: &mut Reader,
        (t, prefix): (&Table, &str),
        several: bool,
        (world, scale, seeds): (Option<&str>, Option<f64>, Option<&[u64]>),
    ) -> WorldKeys {
        let named = world_list(r, t, prefix, several);
        let names = match world {
            Some(w) => Some(vec![("--world".to_string(), false, w.to_string())]),
            None => named.map(|n| n.into_iter().map(|(at, w)| (at, true, w)).collect()),
        };
        let in_file = r
            .number(t, prefix, "scale", SCALE)
            .map(|s| (s, at(prefix, "scale")));
        let flag = r
            .overridden("--scale", scale, SCALE)
            .map(|s| (s, "--scale".to_string()));
        WorldKeys {
            names,
            scale_key: at(prefix, "scale"),
            scale: flag.or(in_file),
            seeds: read_seeds(r, t, prefix, "--seeds", seeds),
        }
    }

    /// Whether it names a world.
    pub fn names_a_world(&self) -> bool {
        self.names.is_some()
    }

    /// Where a scale or seeds are given though no world is named.
    pub fn given_without_a_world(&self) -> Vec<&str> {
        [
            self.scale.as_ref().map(|(_, at)| at),
            self.seeds.as_ref().map(|(_, at)| at),
        ]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect()
    }

    /// Loads the worlds named (files relative to `dir`) at the scale given (or a tenth of FIDE's
    /// size) on the seeds given (or `default_seeds`); every problem goes to `r`, and the worlds
    /// are empty when any is refused.
    pub fn load(self, r: &mut Reader, dir: &Path, default_seeds: &[u64]) -> WorldInput {
        let (scale, scale_at) = self.scale.unwrap_or((DEFAULT_SCALE, self.scale_key));
        let seeds = self
            .seeds
            .map_or_else(|| default_seeds.to_vec(), |(s, _)| s);
        let names = self.names.unwrap_or_default();
        let worlds = load_worlds(r, dir, &names);
        let mut refused: Vec<String> = worlds
            .iter()
            .filter_map(|w| w.settings.clone().sized(scale, seeds[0]).err())
            .map(|e| e.to_string())
            .collect();
        refused.dedup();
        let sized = refused.is_empty();
        for e in refused {
            r.problem(&scale_at, e);
        }
        let complete = sized && !names.is_empty() && worlds.len() == names.len();
        WorldInput {
            worlds: if complete { worlds } else { Vec::new() },
            scale,
            seeds,
        }
    }
}

/// The worlds a table names, each with its key path: `world` (one) or `worlds` (a list); `None`
/// when it names none, an empty list when what it names is refused.
fn world_list(
    r: &mut Reader,
    t: &Table,
    path: &str,
    several: bool,
) -> Option<Vec<(String, String)>> {
    let one = r.text(t, path, "world");
    let key = at(path, "worlds");
    let items = match (one, t.get("worlds").filter(|_| several)) {
        (one, None) => return one.map(|w| vec![(at(path, "world"), w)]),
        (Some(_), Some(_)) => {
            r.problem(
                &key,
                "give `world` (one world) or `worlds` (a list of them), not both",
            );
            return Some(Vec::new());
        }
        (None, Some(Value::Array(items))) if !items.is_empty() => items,
        (None, Some(other)) => {
            r.problem(
                &key,
                format!(
                    "expected a list of one or more worlds (built in, such as \"fide-2001-2025\", or world files), got {}",
                    describe(other)
                ),
            );
            return Some(Vec::new());
        }
    };
    let mut out: Vec<(String, String)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("{key}[{}]", i + 1);
        match item.as_str() {
            None => r.problem(
                &at,
                format!(
                    "expected a built-in world's name or a world file, got {}",
                    describe(item)
                ),
            ),
            Some(w) => match out.iter().position(|(_, given)| given == w) {
                Some(first) => r.problem(
                    &at,
                    format!(
                        "{w:?} is given twice (also the {} value): each world is one assumption, judged once",
                        ordinal(first + 1)
                    ),
                ),
                None => out.push((at, w.to_string())),
            },
        }
    }
    Some(out)
}

/// Loads the worlds named, each refused at its key path: unreadable, named like another (a world
/// is known by its name in the results), named so that its pictures' files cannot carry the name,
/// or starting in another month than the first (every candidate is narrowed to that starting
/// list).
fn load_worlds(r: &mut Reader, dir: &Path, given: &[(String, bool, String)]) -> Vec<LoadedWorld> {
    let mut worlds: Vec<(&str, LoadedWorld)> = Vec::new();
    for (at, in_file_folder, name) in given {
        let folder = if *in_file_folder { dir } else { Path::new("") };
        let world = match load_world(folder, name) {
            Ok(w) => w,
            Err(e) => {
                r.problem(at, e.to_string());
                continue;
            }
        };
        let named = &world.settings.name;
        if let Some((other, _)) = worlds.iter().find(|(_, w)| w.settings.name == *named) {
            r.problem(
                at,
                format!("{named:?} is also the name of the world at {other}: each world is known by its name in the results; give it another `name`"),
            );
            continue;
        }
        if given.len() > 1 && !file_stem_name(named) {
            r.problem(
                at,
                format!("the world's name {named:?} names its pictures (pareto-NAME.png): expected no `/`, `\\` or control characters and no leading `.`"),
            );
            continue;
        }
        if let Some((first, w)) = worlds.first() {
            if w.settings.start != world.settings.start {
                r.problem(
                    at,
                    format!(
                        "starts in {}, the world of {first} in {}: worlds judged together start from the same month (every candidate is narrowed to its starting list)",
                        world.settings.start, w.settings.start
                    ),
                );
                continue;
            }
        }
        worlds.push((at, world));
    }
    worlds.into_iter().map(|(_, w)| w).collect()
}

/// Whether a name can end a file's name as it is.
fn file_stem_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name
            .chars()
            .any(|c| c == '/' || c == '\\' || c.is_control())
}
