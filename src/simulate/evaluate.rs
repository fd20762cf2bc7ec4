//! One replay, observed: a scenario replayed in memory over one input (a seed's world, or the
//! user's games), every list handed to the measures as it is published.

use crate::replay::{self, CurrentList, Inputs, ListRows};
use crate::scenario::Scenario;

use super::measure::{Measure, Needs, Observed};
use super::sink::{Baseline, Observer};
use super::world::Truth;
use super::SimulateError;

/// What the replay compares with and keeps.
pub enum Compare<'a> {
    /// Nothing to compare with (calibration).
    Nothing,
    /// This is the baseline's replay: its lists are recorded (and compared with themselves).
    Record,
    /// The baseline's lists recorded on the same input.
    With(&'a Baseline),
}

/// Replays `scenario` over `inputs`, adding what each measure observes to `observed` (one per
/// measure, in order): a calibration adds every seed into the same observations, a study keeps one
/// per seed. Returns the baseline's lists when asked to record them.
pub fn observe(
    scenario: &Scenario,
    inputs: &Inputs,
    truth: &Truth,
    measures: &[Measure],
    observed: &mut [Observed],
    compare: Compare<'_>,
) -> Result<Option<Baseline>, SimulateError> {
    let needs = Needs::of(measures);
    let mut observer = Observer {
        measures,
        observed,
        needs: &needs,
        truth,
        players: inputs.players.len(),
        compare: match compare {
            Compare::With(baseline) => Some(baseline),
            _ => None,
        },
        record: matches!(compare, Compare::Record).then(Baseline::default),
        current: CurrentList::default(),
        whole: ListRows::default(),
    };
    replay::run(scenario, inputs, &mut observer, &|_, _| {})?;
    Ok(observer.record)
}
