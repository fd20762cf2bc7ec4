use std::path::{Path, PathBuf};

use super::*;
use crate::rules::{CapScope, InitialFormula};

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name)
}

/// A scratch directory per test, so tests can run in parallel.
fn scratch(test: &str) -> PathBuf {
    let dir = crate::testing::scratch(&format!("scenario-{test}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn problems(result: Result<Scenario, ScenarioError>) -> Vec<String> {
    match result {
        Err(ScenarioError::Invalid(p)) => p
            .iter()
            .map(|p| format!("{}: {}", p.path, p.message))
            .collect(),
        Err(other) => vec![other.to_string()],
        Ok(_) => vec![],
    }
}

fn m(text: &str) -> Month {
    Month::parse(text).unwrap()
}

#[test]
fn the_history_resolves_era_by_era() {
    let s = Scenario::load(&shipped("fide-historical.toml")).unwrap();
    let t = &s.timeline;
    // Twelve revisions, and April 2006, where the approximate eras end (the same rules).
    assert_eq!(t.eras().len(), 13);
    assert_eq!(t.eras()[3].1, t.eras()[4].1);
    let at = |month: &str| t.at_month(m(month));
    assert_eq!(
        (
            at("2000-01").floor,
            at("2003-01").floor,
            at("2005-01").floor,
            at("2008-01").floor
        ),
        (2001, 1801, 1601, 1401)
    );
    assert_eq!(
        (
            at("2009-07").floor,
            at("2012-07").floor,
            at("2024-03").floor
        ),
        (1200, 1000, 1400)
    );
    assert_eq!(
        (
            at("2011-06").k.new,
            at("2011-07").k.new,
            at("2014-07").k.new
        ),
        (25, 30, 40)
    );
    assert_eq!(
        (at("2009-06").diff_cap.points, at("2009-07").diff_cap.points),
        (350, 400)
    );
    assert_eq!(
        at("2022-01").diff_cap.scope,
        CapScope::OncePerEventFavourite
    );
    assert_eq!(at("2024-03").diff_cap.scope, CapScope::EveryGame);
    assert_eq!(
        (
            at("2025-09").diff_cap.exempt_from,
            at("2025-10").diff_cap.exempt_from
        ),
        (0, 2650)
    );
    assert_eq!(
        (
            at("2014-06").initial.min_games,
            at("2014-07").initial.min_games
        ),
        (9, 5)
    );
    assert_eq!(
        (
            at("2009-07").initial.per_half_point,
            at("2011-07").initial.per_half_point,
            at("2014-07").initial.per_half_point
        ),
        (1250, 1500, 2000)
    );
    assert_eq!(at("2024-03").initial.formula, InitialFormula::Performance);
    assert_eq!(
        (at("2017-06").k.period_cap, at("2017-07").k.period_cap),
        (0, 700)
    );
    assert_eq!(s.events.len(), 1);
    assert_eq!(s.events[0].list, m("2024-03"));
    assert_eq!(s.run.from, m("2000-04"));
    assert_eq!(s.start_list_month(), m("2000-01"));
    let lists = s.run_lists(Some(m("2012-09")));
    assert_eq!(lists.iter().filter(|l| l.year() == 2009).count(), 5);
    assert_eq!(*lists.last().unwrap(), m("2012-09"));
}

#[test]
fn what_ifs_extend_the_history() {
    let s = Scenario::load(&shipped("sonas-2017.toml")).unwrap();
    let at = |month: &str| s.timeline.at_month(m(month));
    assert_eq!(
        (
            at("2016-12").floor,
            at("2017-01").floor,
            at("2020-01").floor
        ),
        (1000, 1400, 1400)
    );
    assert_eq!(
        at("2017-07").k.period_cap,
        700,
        "the history's later revisions still apply"
    );
    assert_eq!(at("2022-06").diff_cap.scope, CapScope::EveryGame);
    let events: Vec<(String, &str)> = s
        .events
        .iter()
        .map(|e| (e.list.to_string(), resolve::kind_name(&e.kind)))
        .collect();
    assert_eq!(
        events,
        [
            ("2017-01".to_string(), "compression"),
            ("2017-01".to_string(), "fresh-start")
        ]
    );
    assert!(
        s.data.games.is_none(),
        "the what-if names no data, as the history"
    );
    let on_kaggle = Scenario::load(&shipped("kaggle2010-sonas-2017.toml")).unwrap();
    assert_eq!(on_kaggle.events, s.events);
    let games = on_kaggle.data.games.as_ref().unwrap();
    assert!(
        games.ends_with("data/kaggle2010/training_data.csv") && games.is_file(),
        "data paths are relative to the file that states them: {}",
        games.display()
    );
    let k = Scenario::load(&shipped("kaggle2010.toml")).unwrap();
    assert_eq!(
        (k.bootstrap.unknown_players, k.bootstrap.seed_rating),
        (UnknownPlayers::Seed, 2200)
    );
    assert_eq!(k.data.month_1, Some(m("2012-08")));
    assert_eq!(k.start_list_month(), m("2012-07"));
    let c = Scenario::load(&shipped("contest2011.toml")).unwrap();
    assert_eq!(c.start_list_month(), m("2010-11"));
}

#[test]
fn the_resolved_file_reloads_to_the_same_rules() {
    let dir = scratch("resolved");
    for name in [
        "fide-historical.toml",
        "sonas-2017.toml",
        "kaggle2010.toml",
        "kaggle2010-sonas-2017.toml",
        "kaggle2010-k-2011.toml",
        "elo-k20.toml",
        "glicko.toml",
        "glicko2.toml",
        "uscf-classic.toml",
        "berkin.toml",
        "gcr.toml",
    ] {
        let s = Scenario::load(&shipped(name)).unwrap();
        let again = Scenario::load(&write(&dir, name, &s.resolved_toml())).unwrap();
        assert_eq!(again.timeline, s.timeline, "{name}");
        assert_eq!(again.events, s.events, "{name}");
        assert_eq!(again.system, s.system, "{name}");
        assert_eq!(
            (again.calendar, again.run, again.bootstrap),
            (s.calendar, s.run, s.bootstrap),
            "{name}"
        );
        assert_eq!(again.data.month_1, s.data.month_1);
        assert_eq!(
            again.data.games.as_ref().map(|p| p.canonicalize().unwrap()),
            s.data.games.as_ref().map(|p| p.canonicalize().unwrap())
        );
        assert_eq!(
            again.resolved_toml().lines().skip(1).collect::<Vec<_>>(),
            s.resolved_toml().lines().skip(1).collect::<Vec<_>>()
        );
    }
}

#[test]
fn every_problem_is_reported_with_its_key_path() {
    let dir = scratch("problems");
    let path = write(
        &dir,
        "bad.toml",
        r#"
name = "bad"
colour = "blue"
[calendar]
start = "2010-01"
end = "2020-12"
[[revision]]
from = "2014-07"
k.new = -5
k.nwe = 3
floor = -100
[[revision]]
from = "2012-01"
lists = "weekly"
[[event]]
kind = "compression"
list = "2031-01"
[[event]]
kind = "meteor"
list = "2015-01"
"#,
    );
    let found = problems(Scenario::load(&path));
    let expected = [
        "colour: unknown key",
        "revision[2] (from 2012-01): revisions must be in date order: this one follows revision[1] (from 2014-07)",
        "event[2].kind: expected one of \"compression\", \"fresh-start\", got \"meteor\"",
        "revision[2] (from 2012-01).lists: expected one of \"monthly\", \"bimonthly\", \"quarterly\", got \"weekly\"",
        "revision[1] (from 2014-07).floor: expected a whole number from 0 to 4000, got -100",
        "revision[1] (from 2014-07).k.new: expected a whole number from 0 to 255, got -5",
        "revision[1] (from 2014-07).k.nwe: unknown key `k.nwe`",
        "event[1]: list 2031-01 is outside the scenario's months",
    ];
    for e in expected {
        assert!(
            found.iter().any(|f| f.starts_with(e)),
            "missing {e:?} in {found:#?}"
        );
    }
    assert_eq!(found.len(), expected.len(), "{found:#?}");
}

#[test]
fn extends_and_event_removal_are_checked() {
    let dir = scratch("extends");
    let a = write(
        &dir,
        "a.toml",
        "extends = \"b.toml\"\n[calendar]\nstart = \"2010-01\"\nend = \"2012-01\"\n",
    );
    write(&dir, "b.toml", "extends = \"a.toml\"\n");
    assert!(problems(Scenario::load(&a))[0].contains("cannot extend itself"));
    let c = write(&dir, "c.toml", "extends = \"missing.toml\"\n");
    assert!(problems(Scenario::load(&c))[0].starts_with("extends: cannot read"));
    let d = write(&dir, "d.toml", &format!("extends = {:?}\n[[event]]\nkind = \"fresh-start\"\nlist = \"2024-03\"\nremove = true\n", shipped("fide-historical.toml")));
    assert_eq!(
        problems(Scenario::load(&d)),
        ["event[1]: there is no inherited fresh-start event on 2024-03 to remove"]
    );
    let e = write(
        &dir,
        "e.toml",
        &format!(
            "extends = {:?}\n[[event]]\nkind = \"compression\"\nlist = \"2010-02\"\n",
            shipped("fide-historical.toml")
        ),
    );
    assert_eq!(
        problems(Scenario::load(&e)),
        ["event[1]: 2010-02 has no list: lists are bi-monthly (odd months) then"]
    );
    let f = write(
        &dir,
        "f.toml",
        "[calendar]\nstart = \"2010-01\"\n[run]\nfrom = \"2009-01\"\n",
    );
    assert_eq!(
        problems(Scenario::load(&f)),
        ["calendar.end: missing: the last month the scenario covers, such as \"2026-12\""]
    );
    let g = write(
        &dir,
        "g.toml",
        "[calendar]\nstart = 2010-01-01\nend = \"2012-01\"\n",
    );
    assert!(problems(Scenario::load(&g))[0].contains("write months as quoted strings"));
    let h = write(
        &dir,
        "h.toml",
        "[calendar]\nstart = \"2010-01\"\nend = \"2012-01\n",
    );
    assert!(problems(Scenario::load(&h))[0].contains("is not valid TOML"));
    let i = write(
        &dir,
        "i.toml",
        "[calendar]\nstart = \"2010-01\"\nend = 2012-01  # the last month\n",
    );
    let problem = &problems(Scenario::load(&i))[0];
    assert!(problem.contains("is not valid TOML"), "{problem}");
    assert!(
        problem.ends_with("write months as quoted strings: end = \"2012-01\""),
        "{problem}"
    );
}

/// One slip in a revision (a bare date for `from`) does not hide the others, and a revision that
/// could never apply or repeats a month is named as such.
#[test]
fn every_problem_of_a_revision_is_reported_at_once() {
    let dir = scratch("revision-problems");
    let file = write(
        &dir,
        "a.toml",
        "[calendar]\nstart = \"2010-01\"\nend = \"2020-12\"\n\n[[revision]]\nfrom = 2014-07-01\nflor = 1300\nk.new = -5\n\n[[revision]]\nfrom = \"2016-01\"\n\n[[revision]]\nfrom = \"2016-01\"\n\n[[revision]]\nfrom = \"2030-01\"\n",
    );
    let found = problems(Scenario::load(&file));
    for expected in [
        "revision[1].from: expected a month \"YYYY-MM\", got 2014-07-01 (write months as quoted strings: \"2014-07\")",
        "revision[1].flor: unknown key `flor` (did you mean `floor`?)",
        "revision[1].k.new: expected a whole number from 0 to 255, got -5",
        "revision[3] (from 2016-01): revision[2] (from 2016-01) is also from 2016-01: a file holds one revision per month; merge the two",
        "revision[4] (from 2030-01): 2030-01 is after the scenario's last month (2020-12): the revision would never apply",
    ] {
        assert!(
            found.iter().any(|p| p.contains(expected)),
            "{expected:?} not in {found:#?}"
        );
    }
}

#[test]
fn the_window_stays_inside_the_calendar() {
    let mut s = Scenario::load(&shipped("fide-historical.toml")).unwrap();
    assert!(
        s.set_window(Some(m("2000-01")), None).is_err(),
        "the first month is the starting list"
    );
    assert!(s.set_window(None, Some(m("2030-01"))).is_err());
    assert!(s
        .set_window(Some(m("2015-01")), Some(m("2014-01")))
        .is_err());
    s.set_window(Some(m("2013-01")), Some(m("2013-06")))
        .unwrap();
    assert_eq!(s.run_lists(None).len(), 6);
    assert_eq!(s.start_list_month(), m("2012-12"));
}

#[test]
fn check_marks_what_changed() {
    let text = Scenario::load(&shipped("fide-historical.toml"))
        .unwrap()
        .describe();
    assert!(
        text.contains("Era 6: tournaments starting 2009-07 to 2011-06"),
        "{text}"
    );
    assert!(
        text.contains("Era 5: tournaments starting 2006-04 to 2009-06"),
        "{text}"
    );
    assert!(text.contains("* floor        1200"), "{text}");
    let kaggle = Scenario::load(&shipped("kaggle2010.toml"))
        .unwrap()
        .describe();
    assert!(
        kaggle.contains("data/kaggle2010/training_data.csv (layout kaggle2010, month 1 = 2012-08)"),
        "{kaggle}"
    );
    let dir = scratch("check");
    let missing = write(
        &dir,
        "m.toml",
        &format!(
            "extends = {:?}\n[data]\ngames = \"nowhere.csv\"\n",
            shipped("fide-historical.toml")
        ),
    );
    assert!(Scenario::load(&missing)
        .unwrap()
        .describe()
        .contains("nowhere.csv (NOT FOUND)"));
    assert!(
        text.contains("2024-03  compression: ratings below 2000 rise by 0.40 × (2000 − R)"),
        "{text}"
    );
}

#[test]
fn rating_system_settings_are_checked_with_their_ranges() {
    let dir = scratch("system-settings");
    let path = write(
        &dir,
        "bad.toml",
        "system = \"glicko2\"\n[glicko2]\ntau = -0.5\ninitial-rd = 0\n[elo]\nk = -1\nspeed = 3\n[berkin]\nn0 = 0\n",
    );
    let message = Scenario::load(&path).unwrap_err().to_string();
    for expected in [
        "problems in the scenario",
        "glicko2.tau: expected a number greater than 0 and at most 10",
        "glicko2.initial-rd: expected a number greater than 0 and at most 1000",
        "elo.k: expected a number at least 0 and at most 1000",
        "elo.speed: unknown key",
        "berkin.n0: expected a number greater than 0",
    ] {
        assert!(message.contains(expected), "{expected:?} not in {message}");
    }
    let good = write(
        &dir,
        "good.toml",
        &format!(
            "extends = {:?}\n[glicko2]\ntau = 1.2\n",
            shipped("glicko2.toml")
        ),
    );
    let s = Scenario::load(&good).unwrap();
    assert_eq!(
        s.system,
        crate::systems::SystemConfig::Glicko2(crate::systems::glicko2::Glicko2Config {
            tau: 1.2,
            ..Default::default()
        })
    );
}
