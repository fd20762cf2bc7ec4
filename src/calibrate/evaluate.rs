//! One evaluation of a world: generated at a reduced scale with fixed seeds, each seed replayed
//! under the scenario in memory (`simulate`), every seed's observations added into one, and set
//! against the targets: published crosstables of real games, counts of players on real lists, the
//! strength gaps between rating groups.

use std::time::Instant;

use crate::generate::world::Settings;
use crate::scenario::Scenario;
use crate::simulate::{self, Compare, Measure, Needs, Observed, Replica, Share, SimulateError};

/// A published figure the world is fitted to: a measure and its weight in the objective.
#[derive(Clone, Debug)]
pub struct Target {
    pub measure: Measure,
    pub weight: f64,
}

/// How the targets' errors are folded into one number to minimise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objective {
    /// Weight of squared log ratios (row shares, list bands) against the cells' squared points: 25
    /// makes a row ×1.5 off its share cost as much as every cell 2 points off.
    pub share_weight: f64,
}

impl Default for Objective {
    fn default() -> Objective {
        Objective { share_weight: 25.0 }
    }
}

/// What one evaluation found.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// One per target, in the targets' order: every seed's observations added.
    pub observed: Vec<Observed>,
    /// The replays' size against FIDE's: the scale times the seeds.
    pub size: f64,
    pub objective: f64,
    /// Games generated over every seed.
    pub games: u64,
    pub seconds: f64,
}

impl Evaluation {
    /// Each target's line for people.
    pub fn lines(&self, targets: &[Target]) -> Vec<String> {
        targets
            .iter()
            .zip(&self.observed)
            .map(|(t, o)| t.measure.kind.line(o, self.size))
            .collect()
    }
}

/// Generates the world once per seed (`settings.seed` is replaced), replays each from its own
/// starting list under `scenario`, and sets all their games and lists against the targets.
/// Crosstable thresholds are for FIDE's size and are scaled to the games generated; list counts are
/// scaled up to FIDE's size.
pub fn evaluate(
    settings: &Settings,
    seeds: &[u64],
    scenario: &Scenario,
    targets: &[Target],
    objective: Objective,
) -> Result<Evaluation, SimulateError> {
    let started = Instant::now();
    let scenario = scenario.starting_from(settings.start)?;
    let measures: Vec<_> = targets.iter().map(|t| t.measure.clone()).collect();
    let needs = Needs::of(&measures);
    let mut observed: Vec<Observed> = measures.iter().map(|m| m.kind.empty()).collect();
    let mut games = 0;
    for &seed in seeds {
        let replica = Replica::generate(settings, seed, &needs)?;
        games += replica.games;
        simulate::observe(
            &scenario,
            &replica.inputs,
            &replica.truth,
            &measures,
            &mut observed,
            Compare::Nothing,
            Share::default(),
        )?;
    }
    let size = settings.scale * seeds.len() as f64;
    let objective = objective.value(targets, &observed, size);
    Ok(Evaluation {
        observed,
        size,
        objective,
        games,
        seconds: started.elapsed().as_secs_f64(),
    })
}

impl Objective {
    /// √ of the targets' weighted mean error: a table's cells' weighted mean squared difference +
    /// share_weight × its rows' mean squared log share ratio (and, with `games`, their mean
    /// squared log ratio of games); counts' share_weight × their mean squared log ratio; gaps'
    /// mean squared miss in units of 50 points.
    pub fn value(&self, targets: &[Target], observed: &[Observed], size: f64) -> f64 {
        let mut total = 0.0;
        let mut weights = 0.0;
        for (t, o) in targets.iter().zip(observed) {
            let error = t
                .measure
                .kind
                .error(o, size, self.share_weight)
                .unwrap_or(0.0);
            total += t.weight * error;
            weights += t.weight;
        }
        (total / weights.max(f64::MIN_POSITIVE)).sqrt()
    }
}
