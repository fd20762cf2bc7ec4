//! Writes a resolved scenario back as TOML that `Scenario::load` reads: every rule of every era.

use std::fmt::Write;
use std::path::Path;

use toml::Value;

use super::resolve::kind_name;
use super::{fields, EventKind, GameFormat, Scenario, UnknownPlayers};
use crate::systems::SystemConfig;

fn string(text: &str) -> Value {
    Value::String(text.to_string())
}

fn absolute_path(p: &Path) -> Value {
    if p.as_os_str() == super::REPORTED {
        return string(super::REPORTED);
    }
    string(
        &std::path::absolute(p)
            .unwrap_or_else(|_| p.to_path_buf())
            .to_string_lossy(),
    )
}

/// Whether the resolved text names the scenario's files, as a run's `scenario.resolved.toml` must
/// to be repeated, or leaves them out, as what a study's results depend on must: the files' contents
/// count there, never where they were found.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Files {
    Named,
    Left,
}

pub fn write(s: &Scenario, files: Files) -> String {
    let mut out = String::new();
    let w = &mut out;
    let path = |p: &Path| match files {
        Files::Named => absolute_path(p),
        Files::Left => string(""),
    };
    let _ = writeln!(
        w,
        "# Resolved by elosim {} from {}:",
        env!("CARGO_PKG_VERSION"),
        match files {
            Files::Named => s.file.display().to_string(),
            Files::Left => "a scenario".to_string(),
        }
    );
    let _ = writeln!(
        w,
        "# every rule in force, era by era, after `extends` and defaults. Repeat the run with"
    );
    let _ = writeln!(w, "#   elosim replay scenario.resolved.toml");
    let _ = writeln!(w, "name = {}", string(&s.name));
    let _ = writeln!(w, "description = {}", string(&s.description));
    let _ = writeln!(w, "system = {}", string(s.system.kind().name()));
    let _ = writeln!(
        w,
        "\n[calendar]\nstart = \"{}\"\nend = \"{}\"",
        s.calendar.start, s.calendar.end
    );
    let _ = writeln!(w, "\n[run]\nfrom = \"{}\"", s.run.from);
    if let Some(to) = s.run.to {
        let _ = writeln!(w, "to = \"{to}\"");
    }
    let _ = writeln!(w, "\n[data]");
    if let Some(p) = &s.data.games {
        let _ = writeln!(w, "games = {}", path(p));
    }
    if s.data.format != GameFormat::Auto {
        let _ = writeln!(w, "format = {}", string(s.data.format.name()));
    }
    if let Some(m) = s.data.month_1 {
        let _ = writeln!(w, "month-1 = \"{m}\"");
    }
    if let Some(p) = &s.data.start_list {
        let _ = writeln!(w, "start-list = {}", path(p));
    }
    if let Some(p) = &s.data.players {
        let _ = writeln!(w, "players = {}", path(p));
    }
    let _ = writeln!(
        w,
        "\n[bootstrap]\nunknown-players = {}",
        string(s.bootstrap.unknown_players.name())
    );
    if s.bootstrap.unknown_players == UnknownPlayers::Seed {
        let _ = writeln!(w, "seed-rating = {}", s.bootstrap.seed_rating);
    }
    if s.system != SystemConfig::Fide {
        let _ = writeln!(w, "\n[{}]", s.system.kind().name());
        for (key, value) in s.system.values() {
            let _ = writeln!(w, "{key} = {value:?}");
        }
    }
    for ((from, regs), notes) in s.timeline.eras().iter().zip(&s.era_notes) {
        let _ = writeln!(w, "\n[[revision]]\nfrom = \"{from}\"");
        if !notes.notes.is_empty() {
            let _ = writeln!(w, "note = {}", string(&notes.notes.join(" | ")));
        }
        if let Some(why) = &notes.approximate {
            let _ = writeln!(w, "approximate = {}", string(why));
        }
        for key in fields::KEYS {
            if let Some(value) = fields::get(regs, key) {
                let _ = writeln!(w, "{key} = {value}");
            }
        }
    }
    for event in &s.events {
        let _ = writeln!(
            w,
            "\n[[event]]\nkind = \"{}\"\nlist = \"{}\"",
            kind_name(&event.kind),
            event.list
        );
        if let EventKind::Compression(c) = &event.kind {
            let factor = Value::Float(f64::from(c.factor) / 100.0);
            let _ = writeln!(
                w,
                "below = {}\nfactor = {factor}\ntiming = \"{}\"",
                c.below,
                c.timing.name()
            );
        }
    }
    out
}
