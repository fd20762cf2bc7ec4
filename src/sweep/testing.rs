//! What the sweep's unit tests share: a study of one floor read (never run) from a scratch
//! folder, and rows made by hand.

use super::journal::Row;
use super::study::{Overrides, Study};

/// A study of the floor of the revision from 2002-07 on FIDE's history over `values`, judged by
/// flatness, its `[input]` given by `input`, `more` (measures, a `[summary]`) after; each of
/// `worlds` is a world file beside it, the built-in world cut to 30 months under that name.
pub fn floor_study(folder: &str, input: &str, values: &str, worlds: &[&str], more: &str) -> Study {
    let dir = crate::testing::scratch(folder);
    let repo = env!("CARGO_MANIFEST_DIR");
    for name in worlds {
        std::fs::write(
            dir.join(format!("{name}.toml")),
            format!("name = \"{name}\"\nextends = \"{repo}/worlds/fide-2001-2025.toml\"\n[world]\nmonths = 30\n"),
        )
        .unwrap();
    }
    let file = dir.join("study.toml");
    std::fs::write(
        &file,
        format!(
            "scenario = \"{repo}/scenarios/fide-historical.toml\"\n[input]\n{input}\n[[parameter]]\nkey = \"revision[2002-07].floor\"\nvalues = {values}\n[[measure]]\nkind = \"flatness\"\nfrom = \"2002-07\"\nto = \"2003-06\"\n{more}"
        ),
    )
    .unwrap();
    Study::load(&file, &Overrides::default()).unwrap()
}

/// A row whose flatness RMS is `rms` (its other figures 0).
pub fn flatness_row(world: &str, candidate: u32, seed: u64, rms: f64) -> Row {
    Row {
        world: world.into(),
        candidate,
        seed,
        label: String::new(),
        values: Vec::new(),
        figures: vec![Some(rms), Some(0.0), Some(0.0), Some(0.0)],
        seconds: 0.0,
        measure_seconds: 0.0,
    }
}
