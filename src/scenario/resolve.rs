//! `extends`, folding dated revisions into eras, and validation of the whole scenario.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::error::{Problem, ScenarioError};
use super::raw::{self, RawEventKind, RawScenario};
use super::{
    base_regulations, fields, Bootstrap, Calendar, DataSources, EraNotes, EventKind, GameFormat,
    RunWindow, Scenario, ScenarioEvent, Timeline, UnknownPlayers,
};
use crate::keys::FileError;
use crate::model::Month;
use crate::rules::{Compression, Regulations};
use crate::systems::{SystemConfig, SystemKind};

pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    let (chain, problems) = read_chain(path)?;
    let chain: Vec<&RawScenario> = chain.iter().collect();
    merged(path, &chain, problems)
}

/// A scenario's text that no file holds (one compiled in), named `path` in messages; it may not
/// extend another.
pub fn from_text(text: &str, path: &Path) -> Result<Scenario, ScenarioError> {
    let (raw, problems) = raw::read_text(text, path)?;
    if raw.extends.is_some() {
        return Err(ScenarioError::Invalid(vec![Problem {
            file: path.to_path_buf(),
            path: "extends".into(),
            message: "a compiled-in scenario cannot extend a file".into(),
        }]));
    }
    merged(path, &[&raw], problems)
}

/// `system` with its default settings over `games` alone, rating the lists of `first` to `last`
/// (the games' own months): a user's games replayed with `--system` and no scenario. Nothing of a
/// shipped scenario: today's FIDE regulations (which only FIDE's system reads), players on no
/// starting list started as the system starts newcomers, no one-off event.
pub fn plain(
    system: SystemKind,
    name: &str,
    games: &Path,
    (first, last): (Month, Month),
) -> Result<Scenario, ScenarioError> {
    let mut raw = RawScenario::overlay(games);
    raw.name = Some(format!("{name}-{}", system.name()));
    raw.description = Some(format!(
        "{} with its default settings over the games of {}, their first list to their last (no scenario named)",
        system.name(),
        games.display()
    ));
    raw.system = Some(system);
    // The month before the first list holds the starting list.
    raw.calendar_start = Some(first.plus(-1));
    raw.calendar_end = Some(last);
    raw.games = Some(games.to_path_buf());
    merged(games, &[&raw], Vec::new())
}

/// The scenario of a chain of files, or every problem found in them (`problems`, the files' own).
fn merged(
    path: &Path,
    chain: &[&RawScenario],
    mut problems: Vec<Problem>,
) -> Result<Scenario, ScenarioError> {
    match merge(path, chain, &mut problems) {
        Some(s) if problems.is_empty() => Ok(s),
        _ => Err(ScenarioError::Invalid(problems)),
    }
}

/// The file and the files it extends, the root first, and the problems found in them.
pub fn read_chain(path: &Path) -> Result<(Vec<RawScenario>, Vec<Problem>), ScenarioError> {
    let mut chain: Vec<RawScenario> = Vec::new();
    let mut problems = Vec::new();
    let mut seen = HashSet::new();
    let mut next = Some(path.to_path_buf());
    while let Some(file) = next.take() {
        let key = file.canonicalize().unwrap_or_else(|_| file.clone());
        if !seen.insert(key) {
            let child = chain.last().map(|c| c.file.clone()).unwrap_or_default();
            return Err(ScenarioError::Invalid(vec![Problem {
                file: child,
                path: "extends".into(),
                message: format!("{} is already part of this chain of `extends`: a scenario cannot extend itself", file.display()),
            }]));
        }
        let (raw, found) = match raw::read(&file) {
            Err(ScenarioError::File(FileError::Read { source, .. })) if !chain.is_empty() => {
                let child = &chain[chain.len() - 1];
                return Err(ScenarioError::Invalid(vec![Problem {
                    file: child.file.clone(),
                    path: "extends".into(),
                    message: format!("cannot read {}: {source}", file.display()),
                }]));
            }
            other => other?,
        };
        problems.extend(found);
        next = raw.extends.clone();
        chain.push(raw);
    }
    chain.reverse();
    Ok((chain, problems))
}

/// The last value any file of the chain gives (children override their parents).
fn last<T: Clone>(chain: &[&RawScenario], field: impl Fn(&RawScenario) -> &Option<T>) -> Option<T> {
    chain.iter().rev().find_map(|raw| field(raw).clone())
}

pub fn merge(path: &Path, chain: &[&RawScenario], problems: &mut Vec<Problem>) -> Option<Scenario> {
    let problem = |problems: &mut Vec<Problem>, file: &Path, at: &str, message: String| {
        problems.push(Problem {
            file: file.to_path_buf(),
            path: at.to_string(),
            message,
        })
    };
    let start = last(chain, |r| &r.calendar_start);
    let end = last(chain, |r| &r.calendar_end);
    if start.is_none() {
        problem(
            problems,
            path,
            "calendar.start",
            "missing: the first month the scenario covers, such as \"2000-01\"".into(),
        );
    }
    if end.is_none() {
        problem(
            problems,
            path,
            "calendar.end",
            "missing: the last month the scenario covers, such as \"2026-12\"".into(),
        );
    }
    let (Some(start), Some(end)) = (start, end) else {
        return None;
    };
    if start >= end {
        problem(
            problems,
            path,
            "calendar",
            format!("start {start} must come before end {end}"),
        );
        return None;
    }
    let calendar = Calendar { start, end };

    let (timeline, era_notes) = fold_revisions(chain, calendar, problems);
    let events = merge_events(chain, calendar, &timeline, problems);

    let unknown_players = last(chain, |r| &r.unknown_players).unwrap_or(UnknownPlayers::Newcomer);
    let seed_rating = last(chain, |r| &r.seed_rating);
    if unknown_players == UnknownPlayers::Seed && seed_rating.is_none() {
        problem(
            problems,
            path,
            "bootstrap.seed-rating",
            "required when unknown-players = \"seed\"".into(),
        );
    }
    let first_list = (start.index() + 1..=end.index())
        .map(Month::from_index)
        .find(|&m| timeline.has_list_in(m));
    let Some(first_list) = first_list else {
        problem(
            problems,
            path,
            "calendar",
            format!("no list falls after {start} and up to {end}"),
        );
        return None;
    };
    let run = RunWindow {
        from: last(chain, |r| &r.run_from).unwrap_or(first_list),
        to: last(chain, |r| &r.run_to),
    };
    problems.extend(check_window(path, calendar, run, "run"));

    let name = last(chain, |r| &r.name).unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "scenario".into())
    });
    let system = last(chain, |r| &r.system).unwrap_or(SystemKind::Fide);
    // The system's own table, last file first (a file's settings override those it extends).
    let settings: Vec<(&str, f64)> = chain
        .iter()
        .flat_map(|r| r.system_settings.iter())
        .filter(|(table, _, _)| table == system.name())
        .map(|(_, key, value)| (key.as_str(), *value))
        .collect();
    let value = |key: &str| {
        settings
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    };
    Some(Scenario {
        name,
        description: last(chain, |r| &r.description).unwrap_or_default(),
        file: path.to_path_buf(),
        system: SystemConfig::read(system, &value),
        calendar,
        run,
        data: DataSources {
            games: last(chain, |r| &r.games),
            format: last(chain, |r| &r.format).unwrap_or(GameFormat::Auto),
            month_1: last(chain, |r| &r.month_1),
            start_list: last(chain, |r| &r.start_list),
            players: last(chain, |r| &r.players),
        },
        bootstrap: Bootstrap {
            unknown_players,
            seed_rating: seed_rating.unwrap_or(0),
        },
        timeline,
        era_notes,
        events,
    })
}

/// Applies the revisions of every file in date order (a child's after its parent's on the same
/// date) to today's regulations, one era per distinct date.
fn fold_revisions(
    chain: &[&RawScenario],
    calendar: Calendar,
    problems: &mut Vec<Problem>,
) -> (Timeline, Vec<EraNotes>) {
    let mut revisions: Vec<(&RawScenario, &raw::RawRevision)> = chain
        .iter()
        .flat_map(|&raw| raw.revisions.iter().map(move |r| (raw, r)))
        .collect();
    revisions.sort_by_key(|(_, r)| r.from); // stable: parents first on equal dates
    let mut regs: Regulations = base_regulations();
    let mut eras: Vec<(Month, Regulations)> = Vec::new();
    let mut notes: Vec<EraNotes> = Vec::new();
    if revisions
        .first()
        .is_none_or(|(_, r)| r.from > calendar.start)
    {
        eras.push((calendar.start, regs.clone()));
        notes.push(EraNotes {
            notes: vec!["today's FIDE regulations (elosim's defaults)".into()],
            approximate: None,
        });
    }
    for (raw, revision) in revisions {
        // A revision after the calendar would never apply; one before its start is history the
        // first era folds in, as the shipped history's 2000 rules are for a calendar from 2010.
        if revision.from > calendar.end {
            problems.push(Problem {
                file: raw.file.clone(),
                path: revision.path.clone(),
                message: format!(
                    "{} is after the scenario's last month ({}): the revision would never apply; extend calendar.end or move it",
                    revision.from, calendar.end
                ),
            });
        }
        for (key, value) in &revision.entries {
            if let Err(message) = fields::set(&mut regs, key, value) {
                problems.push(Problem {
                    file: raw.file.clone(),
                    path: format!("{}.{key}", revision.path),
                    message,
                });
            }
        }
        let note = revision.note.clone().into_iter();
        match (eras.last_mut(), notes.last_mut()) {
            (Some((from, era)), Some(last)) if *from == revision.from => {
                *era = regs.clone();
                last.notes.extend(note);
                if revision.approximate.is_some() {
                    last.approximate.clone_from(&revision.approximate);
                }
            }
            _ => {
                eras.push((revision.from, regs.clone()));
                notes.push(EraNotes {
                    notes: note.collect(),
                    approximate: revision.approximate.clone(),
                });
            }
        }
    }
    (Timeline::new(eras), notes)
}

fn merge_events(
    chain: &[&RawScenario],
    calendar: Calendar,
    timeline: &Timeline,
    problems: &mut Vec<Problem>,
) -> Vec<ScenarioEvent> {
    let mut events: Vec<(ScenarioEvent, PathBuf)> = Vec::new();
    for raw in chain {
        for event in &raw.events {
            let same = |(e, _): &(ScenarioEvent, PathBuf)| {
                e.list == event.list && kind_name(&e.kind) == event.kind.name()
            };
            let problem = |message: String| Problem {
                file: raw.file.clone(),
                path: event.path.clone(),
                message,
            };
            if event.remove {
                match events.iter().position(same) {
                    Some(i) => {
                        events.remove(i);
                    }
                    None => problems.push(problem(format!(
                        "there is no inherited {} event on {} to remove",
                        event.kind.name(),
                        event.list
                    ))),
                }
                continue;
            }
            if let Some((_, file)) = events.iter().find(|e| same(e)) {
                problems.push(problem(format!(
                    "a {} event on {} is already defined in {}",
                    event.kind.name(),
                    event.list,
                    file.display()
                )));
                continue;
            }
            if event.list <= calendar.start || event.list > calendar.end {
                problems.push(problem(format!(
                    "list {} is outside the scenario's months: events happen on a computed list, after {} and up to {}",
                    event.list, calendar.start, calendar.end
                )));
                continue;
            }
            if !timeline.has_list_in(event.list) {
                problems.push(problem(format!(
                    "{} has no list: lists are {} then",
                    event.list,
                    timeline.at_month(event.list).lists.describe()
                )));
                continue;
            }
            let kind = match event.kind.clone() {
                RawEventKind::Compression {
                    below,
                    factor,
                    timing,
                } => EventKind::Compression(Compression {
                    below,
                    factor,
                    timing,
                }),
                RawEventKind::FreshStart => EventKind::FreshStart,
            };
            events.push((
                ScenarioEvent {
                    list: event.list,
                    kind,
                },
                raw.file.clone(),
            ));
        }
    }
    let mut events: Vec<ScenarioEvent> = events.into_iter().map(|(e, _)| e).collect();
    events.sort_by_key(|e| (e.list, kind_name(&e.kind)));
    events
}

pub fn kind_name(kind: &EventKind) -> &'static str {
    match kind {
        EventKind::Compression(_) => "compression",
        EventKind::FreshStart => "fresh-start",
    }
}

/// Problems with a run window: it must lie after the calendar's first month (the starting list)
/// and within its last.
pub fn check_window(file: &Path, calendar: Calendar, run: RunWindow, at: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut problem = |message: String| {
        problems.push(Problem {
            file: file.to_path_buf(),
            path: at.to_string(),
            message,
        })
    };
    if run.from <= calendar.start {
        problem(format!("the first list computed ({}) must come after the scenario's first month {} (the starting list)", run.from, calendar.start));
    }
    if run.from > calendar.end {
        problem(format!(
            "the first list computed ({}) is after the scenario's last month {}",
            run.from, calendar.end
        ));
    }
    if let Some(to) = run.to {
        if to > calendar.end {
            problem(format!(
                "the last list computed ({to}) is after the scenario's last month {}",
                calendar.end
            ));
        }
        if run.from > to {
            problem(format!(
                "the first list computed ({}) comes after the last ({to})",
                run.from
            ));
        }
    }
    problems
}
