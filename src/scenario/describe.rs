//! `elosim check`: the resolved rules era by era, in words, with what changed marked.

use std::fmt::Write;

use super::{EventKind, Scenario, UnknownPlayers};
use crate::rules::{
    CapScope, GateApplies, InitialFormula, JuniorUntil, Regulations, RoundRobinUnrated,
};

pub fn describe(s: &Scenario) -> String {
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "Scenario {} ({})", s.name, s.file.display());
    if !s.description.is_empty() {
        let _ = writeln!(w, "  {}", s.description);
    }
    let _ = writeln!(w, "System: {}", s.system.kind().name());
    for (key, value) in s.system.values() {
        let _ = writeln!(w, "  {key} = {value}");
    }
    let to = s
        .run
        .to
        .map(|m| m.to_string())
        .unwrap_or_else(|| "the list of the last game".into());
    let _ = writeln!(w, "Calendar: {} to {}; the run computes the lists from {} to {}, starting from the list of {}", s.calendar.start, s.calendar.end, s.run.from, to, s.start_list_month());
    let data = &s.data;
    let show = |p: &Option<std::path::PathBuf>| match p {
        Some(p) if p.as_os_str() == super::REPORTED => {
            "the ratings the games' tournament reports carry (reported)".into()
        }
        Some(p) if p.is_file() || p.is_dir() => p.display().to_string(),
        Some(p) => format!("{} (NOT FOUND)", p.display()),
        None => "none".into(),
    };
    let _ = writeln!(
        w,
        "Data: games {} (layout {}{}); starting list {}; players {}",
        show(&data.games),
        data.format.name(),
        data.month_1
            .map(|m| format!(", month 1 = {m}"))
            .unwrap_or_default(),
        show(&data.start_list),
        show(&data.players)
    );
    if let Some(newcomers) = s.system.newcomers() {
        let _ = writeln!(w, "Players on no starting list: {newcomers}");
        let _ = writeln!(
            w,
            "\nFIDE's eras, bootstrap and one-off events do not apply to {}: it uses only the scenario's calendar, data and window.",
            s.system.kind().name()
        );
        return out;
    }
    let _ = match s.bootstrap.unknown_players {
        UnknownPlayers::Newcomer => writeln!(w, "Players on no starting list: unrated newcomers"),
        UnknownPlayers::Seed => writeln!(
            w,
            "Players on no starting list: rated {} from their first game, new for K",
            s.bootstrap.seed_rating
        ),
    };
    let eras = s.timeline.eras();
    let mut previous: Option<Vec<String>> = None;
    for (i, ((from, regs), notes)) in eras.iter().zip(&s.era_notes).enumerate() {
        let until = eras
            .get(i + 1)
            .map(|(next, _)| format!(" to {}", next.plus(-1)))
            .unwrap_or_else(|| " on".into());
        let _ = writeln!(w, "\nEra {}: tournaments starting {from}{until}", i + 1);
        for note in &notes.notes {
            let _ = writeln!(w, "  {note}");
        }
        if let Some(why) = &notes.approximate {
            let _ = writeln!(w, "  APPROXIMATE: {why}");
        }
        let lines = rule_lines(regs);
        for (j, line) in lines.iter().enumerate() {
            let changed = previous.as_ref().is_some_and(|p| p[j] != *line);
            let _ = writeln!(w, "  {} {line}", if changed { "*" } else { " " });
        }
        previous = Some(lines);
    }
    let _ = writeln!(w, "\n(* = changed from the era before)");
    if !s.events.is_empty() {
        let _ = writeln!(w, "\nEvents:");
    }
    for e in &s.events {
        let _ = match &e.kind {
            EventKind::Compression(c) => writeln!(w, "  {}  compression: ratings below {} rise by {:.2} × ({} − R), rounded, {}", e.list, c.below, f64::from(c.factor) / 100.0, c.below, c.timing.name().replace('-', " ")),
            EventKind::FreshStart => writeln!(w, "  {}  fresh start: unrated players' partial results are discarded after the list's calculations", e.list),
        };
    }
    out
}

fn rule_lines(r: &Regulations) -> Vec<String> {
    let k = &r.k;
    let high = if k.high_needs_games {
        format!(
            "{} from {} once {} games are completed, for good",
            k.high, k.high_from, k.new_until_games
        )
    } else {
        format!("{} from {} for good", k.high, k.high_from)
    };
    let junior = if k.junior == 0 {
        "no junior K".to_string()
    } else {
        let until = match k.junior_until {
            JuniorUntil::Birthday => format!("until the {}th birthday", k.junior_max_age),
            JuniorUntil::YearEnd => format!(
                "to the end of the year of the {}th birthday",
                k.junior_max_age
            ),
        };
        format!(
            "junior {} {until} while never rated {}+",
            k.junior, k.junior_below
        )
    };
    let cap = if k.period_cap == 0 {
        "no K×n cap".to_string()
    } else {
        format!("K×n ≤ {}", k.period_cap)
    };
    let d = &r.diff_cap;
    let diff = if d.points == 0 {
        "no rating-difference cap".to_string()
    } else {
        let scope = match d.scope {
            CapScope::EveryGame => "in every game",
            CapScope::OncePerEventFavourite => {
                "once per event for the favourite (every game for the underdog)"
            }
            CapScope::OncePerEventBoth => "once per event for each player",
        };
        let exempt = if d.exempt_from > 0 {
            format!(", not for players rated {}+", d.exempt_from)
        } else {
            String::new()
        };
        format!("{}-point rule {scope}{exempt}", d.points)
    };
    let i = &r.initial;
    let formula = match i.formula {
        InitialFormula::PlusScore => format!(
            "Ra + {:.2} per half point over 50 %, Ra + dp below",
            f64::from(i.per_half_point) / 100.0
        ),
        InitialFormula::Performance => format!(
            "Ra + dp with {} hypothetical draws against {}",
            i.dummy_games, i.dummy_rating
        ),
    };
    let max = if i.max > 0 {
        format!(", at most {}", i.max)
    } else {
        String::new()
    };
    let g = &i.gate;
    let gate = format!(
        "an event counts with ≥ {} rated opponent(s) and ≥ {} point(s){}",
        g.min_rated_opponents,
        f64::from(g.min_half_points) / 2.0,
        if g.applies == GateApplies::EveryEvent {
            ", every event"
        } else {
            ", until one has counted"
        }
    );
    let round_robin = match r.round_robin {
        RoundRobinUnrated::NotRated => "only games between rated players, as in a Swiss",
        RoundRobinUnrated::TournamentRating => {
            "unrated players counted at their tournament rating (2003 Handbook)"
        }
    };
    vec![
        format!("lists        {}", r.lists.describe()),
        format!(
            "floor        {} (lower ratings are delisted; first ratings must reach it)",
            r.floor
        ),
        format!(
            "K            new {} until {} games · standard {} · {high}",
            k.new, k.new_until_games, k.standard
        ),
        format!("             {junior} · {cap}"),
        format!("difference   {diff}"),
        format!("rounding     {}", r.rounding.name()),
        format!(
            "first rating {} games within {} months · {formula}{max}",
            i.min_games, i.window_months
        ),
        format!("             {gate}"),
        format!("round robins {round_robin}"),
        format!(
            "inactivity   after {} months without rated games · delisted players' game count: {}",
            r.inactive_after_months,
            r.delisted_games.name()
        ),
    ]
}
