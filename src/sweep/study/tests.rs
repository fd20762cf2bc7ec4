//! A study file read table by table: what each table gives when it says nothing, and every
//! problem of every table found in one reading at its key path.

use std::path::{Path, PathBuf};

use super::*;

/// A study file in a scratch directory, its scenario the repository's FIDE history.
fn study_file(name: &str, body: &str) -> PathBuf {
    let dir = crate::testing::scratch("study-reader");
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/fide-historical.toml");
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, format!("scenario = {scenario:?}\n{body}")).unwrap();
    path
}

const FLOOR: &str = "[[parameter]]\nkey = \"revision[2017-07].floor\"\nvalues = [1000, 1400]\n";
const PREDICTIVE: &str =
    "[[measure]]\nkind = \"predictive\"\nfrom = \"2023-01\"\nto = \"2023-12\"\n";

fn problems(name: &str, body: &str, overrides: &Overrides) -> Vec<String> {
    match Study::load(&study_file(name, body), overrides) {
        Err(StudyError::Invalid(problems)) => problems
            .iter()
            .map(|p| format!("{}: {}", p.path, p.message))
            .collect(),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("{name} was accepted"),
    }
}

#[test]
fn tables_left_out_take_their_defaults() {
    let body = format!("[input]\nworld = \"fide-2001-2025\"\nscale = 0.1\n{FLOOR}{PREDICTIVE}");
    let study = Study::load(&study_file("defaults", &body), &Overrides::default()).unwrap();
    assert_eq!(study.name, "defaults");
    assert_eq!(study.design, Design::Grid);
    assert_eq!(study.input.seeds(), [1, 2, 3, 4]);
    assert_eq!(study.input.world_names(), ["fide-2001-2025"]);
    assert_eq!(study.rank, "predictive.log_loss");
    assert!(study.pareto.len() <= 3 && study.pareto[0] == study.rank);
    assert!(study.thresholds.is_empty());
    assert_eq!(study.threshold("predictive.log_loss"), 0.0);
    // The verification: the best three, at FIDE's size, on as many new seeds after the search's.
    assert_eq!(
        study.verify,
        Verify {
            top: 3,
            scale: 1.0,
            seeds: vec![5, 6, 7, 8],
            seeds_from: "verify.seeds".into(),
        }
    );
    assert_eq!(study.domains(), [crate::keys::Domain::whole(0, 4000)]);
}

#[test]
fn the_command_line_overrides_the_file_through_the_same_checks() {
    let body = format!("[input]\nworld = \"fide-2001-2025\"\nscale = 0.1\n{FLOOR}{PREDICTIVE}");
    let overrides = Overrides {
        scale: Some(0.02),
        seeds: Some(vec![7, 9]),
        verify_scale: Some(0.05),
        verify_seeds: None,
    };
    let study = Study::load(&study_file("overridden", &body), &overrides).unwrap();
    let Input::World { scale, seeds, .. } = &study.input else {
        panic!("a world was given");
    };
    assert_eq!((*scale, seeds.as_slice()), (0.02, [7, 9].as_slice()));
    assert_eq!(
        (study.verify.scale, study.verify.seeds.as_slice()),
        (0.05, [10, 11].as_slice())
    );
    let out_of_range = Overrides {
        scale: Some(1000.0),
        ..Overrides::default()
    };
    let said = problems("overridden", &body, &out_of_range);
    assert!(said.iter().any(|p| p.starts_with("--scale")), "{said:?}");
}

#[test]
fn an_optimising_design_reads_its_search_and_what_it_minimises() {
    let design = "[design]\nkind = \"optimise\"\nbudget = 12\npopulation = 4\nminimise = { \"predictive.log_loss\" = 2 }\n";
    let range = "[[parameter]]\nkey = \"revision[2017-07].floor\"\nmin = 1000\nmax = 1600\n";
    let body = format!("[input]\nworld = \"fide-2001-2025\"\n{design}{range}{PREDICTIVE}");
    let study = Study::load(&study_file("optimise", &body), &Overrides::default()).unwrap();
    let Design::Optimise {
        budget,
        population,
        minimise,
        ..
    } = &study.design
    else {
        panic!("{:?}", study.design);
    };
    assert_eq!((*budget, *population), (12, 4));
    assert_eq!(minimise, &[("predictive.log_loss".to_string(), 2.0)]);
}

#[test]
fn every_tables_problems_are_named_at_once() {
    let body = format!(
        "[input]\nworld = \"fide-2001-2025\"\nformat = \"pgn\"\n[design]\nkind = \"sobool\"\n[summary]\nrank = \"predictive.log_los\"\npareto = [\"predictive.log_loss\"]\n[verify]\ntop = 0\n{FLOOR}{PREDICTIVE}"
    );
    let said = problems("bad", &body, &Overrides::default());
    let expected = [
        "input.format: belongs to the user's own games, not to a world",
        "design.kind: expected one of: grid, sobol, latin, optimise, got \"sobool\"",
        "summary.rank: \"predictive.log_los\" is not a figure the measures judge; the nearest: predictive.log_loss",
        "summary.pareto: expected two or three figures' names (a front needs two figures to trade against each other), got 1 name",
        "verify.top:",
    ];
    for e in expected {
        assert!(
            said.iter().any(|p| p.starts_with(e)),
            "{e:?} not in {said:#?}"
        );
    }
}

#[test]
fn a_grid_of_ranges_needs_its_steps_and_a_grid_too_large_is_refused() {
    let range = "[[parameter]]\nkey = \"revision[2017-07].floor\"\nmin = 1000\nmax = 1600\n";
    let body = format!("[input]\nworld = \"fide-2001-2025\"\n{range}{PREDICTIVE}");
    let said = problems("unstepped", &body, &Overrides::default());
    assert!(
        said.iter()
            .any(|p| p.starts_with("parameter[1]: a grid needs the values it steps through")),
        "{said:#?}"
    );
    let many = |key: &str, max: u32| {
        format!(
            "[[parameter]]\nkey = \"revision[2017-07].{key}\"\nmin = 0\nmax = {max}\nsteps = {}\n",
            max + 1
        )
    };
    let body = format!(
        "[input]\nworld = \"fide-2001-2025\"\n{}{}{}{PREDICTIVE}",
        many("initial.dummy-games", 100),
        many("k.new", 100),
        many("k.standard", 100)
    );
    let said = problems("huge", &body, &Overrides::default());
    let refused = "design: the grid has 1030301 candidates; at most 100000";
    assert!(said.iter().any(|p| p.starts_with(refused)), "{said:#?}");
}

#[test]
fn a_range_steps_by_a_positive_number() {
    for step in ["0", "-0.1"] {
        let range = format!(
            "[[parameter]]\nkey = \"revision[2017-07].floor\"\nmin = 1000\nmax = 1600\nstep = {step}\n"
        );
        let body = format!("[input]\nworld = \"fide-2001-2025\"\n{range}{PREDICTIVE}");
        let said = problems("step", &body, &Overrides::default());
        let expected = format!(
            "parameter[1].step: expected a step greater than 0 (how far apart the values are), got {step}"
        );
        assert_eq!(said, [expected]);
    }
}

/// A study whose scenario cannot be read (missing, or extending itself in a loop) says so alone:
/// neither its parameters nor, without `[input]`, its games are called missing.
#[test]
fn a_missing_scenario_is_the_only_problem_named() {
    let dir = crate::testing::scratch("study-reader");
    std::fs::write(dir.join("loop-a.toml"), "extends = \"loop-b.toml\"\n").unwrap();
    std::fs::write(dir.join("loop-b.toml"), "extends = \"loop-a.toml\"\n").unwrap();
    for (scenario, input, said) in [
        (
            "nowhere.toml",
            "[input]\nworld = \"fide-2001-2025\"\n",
            "cannot read",
        ),
        ("nowhere.toml", "", "cannot read"),
        ("loop-a.toml", "", "already part of this chain of `extends`"),
    ] {
        let path = dir.join("lost.toml");
        let body = format!("scenario = \"{scenario}\"\n{input}{FLOOR}{PREDICTIVE}");
        std::fs::write(&path, body).unwrap();
        let Err(StudyError::Invalid(problems)) = Study::load(&path, &Overrides::default()) else {
            panic!("a study of no scenario was read");
        };
        assert_eq!(problems.len(), 1, "{scenario}, {input}: {problems:#?}");
        assert_eq!(problems[0].path, "scenario");
        assert!(problems[0].message.contains(said), "{problems:#?}");
    }
}
