//! A study's `[verify]`: how many of the best candidates are replayed again, at what scale and on
//! which seeds (by default as many as the search used, numbered after its largest).

use toml::Table;

use crate::keys::{at, Reader};
use crate::simulate::{read_seeds, SCALE};

use super::input::Input;
use super::Overrides;

/// The best candidates replayed again, larger and on seeds the search did not use.
#[derive(Clone, Debug, PartialEq)]
pub struct Verify {
    pub top: usize,
    pub scale: f64,
    pub seeds: Vec<u64>,
    /// Where the seeds were given, for a refusal to name: `--verify-seeds` or `verify.seeds`.
    pub seeds_from: String,
}

pub(super) fn read_verify(
    r: &mut Reader,
    table: &Table,
    input: Option<&Input>,
    overrides: &Overrides,
) -> Verify {
    let t = r.table(table, "", "verify", &["top", "scale", "seeds"]);
    let top = r.whole(&t, "verify", "top", (1, 1000)).unwrap_or(3) as usize;
    let scale = r.number(&t, "verify", "scale", SCALE);
    let scale = r
        .overridden("--verify-scale", overrides.verify_scale, SCALE)
        .or(scale)
        .unwrap_or(1.0);
    let study_seeds = input.map(Input::seeds).unwrap_or_default();
    let given = overrides.verify_seeds.as_deref();
    let (seeds, seeds_from) =
        read_seeds(r, &t, "verify", "--verify-seeds", given).unwrap_or_else(|| {
            // As many seeds as the search used (two at least), numbered after its largest.
            let next = study_seeds.iter().max().map_or(1, |m| m + 1);
            let seeds = (next..next + study_seeds.len().max(2) as u64).collect();
            (seeds, at("verify", "seeds"))
        });
    Verify {
        top,
        scale,
        seeds,
        seeds_from,
    }
}
