//! One replay, observed: a scenario replayed in memory over one input (a seed's world, or the
//! user's games), every list handed to the measures as it is published.

use crate::model::Month;
use crate::replay::{self, Inputs, ListRows, SharedIndices};
use crate::scenario::Scenario;

use super::measure::{Measure, Needs, Observed};
use super::sink::{Baseline, Kept, Observer};
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
    /// The snapshots asked for with `Share::keep`.
    pub kept: Vec<Kept>,
    /// Whether the replay carried on from `Share::from` (else it ran whole).
    pub resumed: bool,
    /// Seconds of the whole replay, and of them the measures' (whole lists included).
    pub seconds: f64,
    pub measure_seconds: f64,
}

/// What a replay shares with the other replays of the same input: snapshots of the baseline's, from
/// which a candidate whose rules differ only later carries on instead of replaying what it shares.
#[derive(Clone, Copy, Default)]
pub struct Share<'a> {
    /// Months before whose first list a snapshot is kept.
    pub keep: &'a [Month],
    /// A snapshot to carry on from, and the lists' indices shared by the replays that carry on
    /// from it (`Snapshot::shared_indices`); the replay runs whole where it cannot.
    pub from: Option<(&'a Kept, &'a SharedIndices)>,
}

/// Replays `scenario` over `inputs`, adding what each measure observes to `observed` (one per
/// measure, in order): a calibration adds every seed into the same observations, a study keeps one
/// per seed. No list after the last one a measure reads is computed: none can change what they
/// read.
pub fn observe(
    scenario: &Scenario,
    inputs: &Inputs,
    truth: &Truth,
    measures: &[Measure],
    observed: &mut [Observed],
    compare: Compare<'_>,
    share: Share<'_>,
) -> Result<Observation, SimulateError> {
    let started = std::time::Instant::now();
    let needs = Needs::of(measures);
    let last = needs.last_month();
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
        whole: ListRows::default(),
        kept: Vec::new(),
        seconds: 0.0,
    };
    if let Some((from, _)) = share.from {
        observer.resume(from);
    }
    let from = share.from.map(|(f, shared)| (&f.replay, shared));
    let (_, resumed) = replay::run_span(scenario, inputs, last, share.keep, from, &mut observer)?;
    Ok(Observation {
        baseline: observer.record,
        kept: observer.kept,
        resumed,
        seconds: started.elapsed().as_secs_f64(),
        measure_seconds: observer.seconds,
    })
}
