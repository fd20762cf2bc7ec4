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

/// What one observed replay gives besides the observations.
pub struct Observation {
    /// The baseline's lists, when asked to record them.
    pub baseline: Option<Baseline>,
    /// Seconds of the whole replay, and of them the measures' (whole lists included).
    pub seconds: f64,
    pub measure_seconds: f64,
}

/// Replays `scenario` over `inputs`, adding what each measure observes to `observed` (one per
/// measure, in order): a calibration adds every seed into the same observations, a study keeps one
/// per seed.
pub fn observe(
    scenario: &Scenario,
    inputs: &Inputs,
    truth: &Truth,
    measures: &[Measure],
    observed: &mut [Observed],
    compare: Compare<'_>,
) -> Result<Observation, SimulateError> {
    let started = std::time::Instant::now();
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
        seconds: 0.0,
    };
    // No list after the last one a measure reads can change what they read.
    let no_progress = |_: usize, _: usize| {};
    match needs.last_month() {
        Some(last) => replay::run_until(scenario, inputs, last, &mut observer, &no_progress)?,
        None => replay::run(scenario, inputs, &mut observer, &no_progress)?,
    };
    Ok(Observation {
        baseline: observer.record,
        seconds: started.elapsed().as_secs_f64(),
        measure_seconds: observer.seconds,
    })
}
