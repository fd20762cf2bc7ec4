//! One evaluation of a world: generated at a reduced scale with fixed seeds, replayed under a
//! scenario in memory, and set against its targets: published crosstables of real games, and
//! counts of players on real lists (a list file's 100-point bands, or published figures).

use std::time::Instant;

use crate::generate::world::{self, Settings};
use crate::model::Month;
use crate::replay::{self, ReplayError};
use crate::report::crosstable::{
    Crosstable, Distance, Expectation, RowShare, Selection, Thresholds,
};
use crate::scenario::{Scenario, ScenarioError};

use super::counts::CountDistance;
use super::gaps::GapDistance;
use super::memory::{Collected, WorldGames};
use super::target::Target;

/// One target's distance.
#[derive(Clone, Debug, PartialEq)]
pub enum TargetDistance {
    Table(Distance),
    Counts(CountDistance),
    Gaps(GapDistance),
}

/// How the distances are folded into one number to minimise.
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
    /// One per target, in the targets' order.
    pub distances: Vec<TargetDistance>,
    pub objective: f64,
    /// Games generated over every seed.
    pub games: u64,
    pub seconds: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum EvaluateError {
    #[error("generating the world: {0}")]
    Generate(String),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error("replaying the world: {0}")]
    Replay(#[from] ReplayError),
    #[error("the scenario {} has no list after the world's first month {start}; a world must start within the scenario's calendar", .file.display())]
    NoList {
        file: std::path::PathBuf,
        start: Month,
    },
}

/// The scenario narrowed to a run from the world's starting list: its first list computed is the
/// first list after the world's first month.
pub fn scenario_for(scenario: &Scenario, settings: &Settings) -> Result<Scenario, EvaluateError> {
    let mut scenario = scenario.clone();
    let from = scenario
        .timeline
        .lists_between(settings.start.plus(1), scenario.calendar.end)
        .first()
        .copied()
        .ok_or(EvaluateError::NoList {
            file: scenario.file.clone(),
            start: settings.start,
        })?;
    scenario.set_window(Some(from), None)?;
    Ok(scenario)
}

/// Generates the world once per seed (`settings.seed` is replaced), replays each under
/// `scenario`, and sets all their games and lists against the targets. Crosstable thresholds are
/// for FIDE's size and are scaled to the games generated; list counts are scaled up to FIDE's size.
pub fn evaluate(
    settings: &Settings,
    seeds: &[u64],
    scenario: &Scenario,
    targets: &[Target],
    objective: Objective,
) -> Result<Evaluation, EvaluateError> {
    let started = Instant::now();
    let scenario = scenario_for(scenario, settings)?;
    let mut collected = Collected::new(&settings.name, targets);
    let mut games = 0;
    for &seed in seeds {
        let mut settings = settings.clone();
        settings.seed = seed;
        let mut sink = WorldGames::keeping_truth(&collected.truth_months());
        let world =
            world::generate(&settings, &mut sink, &|_, _| {}).map_err(EvaluateError::Generate)?;
        games += world.games;
        let (inputs, truth) = sink.into_inputs(&world);
        collected.set_truth(truth);
        replay::run(&scenario, &inputs, &mut collected, &|_, _| {})?;
    }
    let size = settings.scale * seeds.len() as f64;
    let thresholds = Thresholds::FIDE.scaled(size);
    let distances: Vec<TargetDistance> = targets
        .iter()
        .enumerate()
        .map(|(i, target)| match target {
            Target::Table {
                published,
                from,
                to,
                ..
            } => {
                let selection = Selection {
                    from: Some(*from),
                    to: Some(*to),
                    established: None,
                };
                let table = Crosstable::build(
                    &collected.games,
                    published.grouping,
                    Expectation::Fide,
                    thresholds.covered,
                    selection,
                );
                TargetDistance::Table(Distance::between(&table, published, thresholds))
            }
            Target::Counts { counts, .. } => TargetDistance::Counts(CountDistance {
                name: counts.name.clone(),
                counts: counts
                    .counts
                    .iter()
                    .zip(&collected.counts[i])
                    .map(|(c, found)| (c.clone(), found.players as f64 / size))
                    .collect(),
                games: counts
                    .counts
                    .iter()
                    .zip(&collected.counts[i])
                    .map(|(c, found)| c.games.and(found.games_per_player()))
                    .collect(),
            }),
            Target::Gaps { gaps, .. } => TargetDistance::Gaps(GapDistance {
                name: gaps.name.clone(),
                gaps: gaps
                    .gaps
                    .iter()
                    .zip(&collected.gaps[i])
                    .map(|(g, sums)| (g.clone(), sums.difference()))
                    .collect(),
            }),
        })
        .collect();
    let objective = objective.value(&distances, targets);
    Ok(Evaluation {
        distances,
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
    pub fn value(&self, distances: &[TargetDistance], targets: &[Target]) -> f64 {
        let mut total = 0.0;
        let mut weights = 0.0;
        for (d, t) in distances.iter().zip(targets) {
            let error = match d {
                TargetDistance::Table(d) => {
                    let games = match t {
                        Target::Table { games: true, .. } => games_error(d),
                        _ => 0.0,
                    };
                    cell_error(d) + self.share_weight * (share_error(d) + games)
                }
                TargetDistance::Counts(d) => self.share_weight * d.error(),
                TargetDistance::Gaps(d) => d.error(),
            };
            total += t.weight() * error;
            weights += t.weight();
        }
        (total / weights.max(f64::MIN_POSITIVE)).sqrt()
    }
}

/// The cells' weighted mean squared difference, in squared percentage points. A cell weighs
/// n / (n + n₀) by its n games (n₀ the compared threshold), so thin cells, whose difference is
/// mostly sampling noise, count less and no cell enters or leaves the sum abruptly.
pub fn cell_error(d: &Distance) -> f64 {
    let n0 = d.thresholds.compared.max(1) as f64;
    let (mut sum, mut weights) = (0.0, 0.0);
    for c in &d.cells {
        if let Some(diff) = c.difference() {
            let w = c.games as f64 / (c.games as f64 + n0);
            sum += w * diff * diff;
            weights += w;
        }
    }
    if weights > 0.0 {
        sum / weights
    } else {
        // No cell at all: as bad as every cell 15 points off.
        225.0
    }
}

/// The judged rows' mean squared log ratio of shares (an empty row counts as a 1-in-1000 share).
pub fn share_error(d: &Distance) -> f64 {
    judged_mean_squared_log(d, |r| r.run.max(1e-3 * r.published) / r.published)
}

/// The judged rows' mean squared log ratio of games at FIDE's size (an empty row counts as a
/// thousandth of the published games).
pub fn games_error(d: &Distance) -> f64 {
    judged_mean_squared_log(d, |r| r.games_ratio().max(1e-3))
}

/// The mean over the judged rows of ln(ratio)², 0 without a judged row.
fn judged_mean_squared_log(d: &Distance, ratio: impl Fn(&RowShare) -> f64) -> f64 {
    let logs: Vec<f64> = d.judged_rows().map(|r| ratio(r).ln().powi(2)).collect();
    if logs.is_empty() {
        0.0
    } else {
        logs.iter().sum::<f64>() / logs.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::crosstable::read_published;

    /// Two judged rows, one with twice its published games and one with half; a third too small
    /// to be judged. No cells: the cells' error is the empty table's 225.
    fn distance() -> Distance {
        let row = |row, published, published_games, run_games| RowShare {
            row,
            published,
            run: published,
            published_games,
            run_games,
        };
        Distance {
            table: "t".into(),
            thresholds: Thresholds::FIDE,
            cells: Vec::new(),
            rows: vec![
                row(0, 0.5, 1000, 2000.0),
                row(1, 0.495, 990, 495.0),
                row(2, 0.005, 10, 1000.0),
            ],
        }
    }

    #[test]
    fn a_table_target_with_games_adds_their_log_ratios() {
        let d = distance();
        let ln2 = 2f64.ln();
        assert!((games_error(&d) - ln2 * ln2).abs() < 1e-12);
        assert_eq!(share_error(&d), 0.0);
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/published/sonas-crosstables.csv");
        let published = read_published(&file).unwrap().remove(0);
        let target = |games| Target::Table {
            published: published.clone(),
            from: Month::new(2008, 1).unwrap(),
            to: Month::new(2012, 12).unwrap(),
            games,
            weight: 1.0,
        };
        let objective = Objective::default();
        let value = |games| objective.value(&[TargetDistance::Table(d.clone())], &[target(games)]);
        assert!((value(false) - 15.0).abs() < 1e-12);
        let with_games = (225.0 + 25.0 * ln2 * ln2).sqrt();
        assert!((value(true) - with_games).abs() < 1e-12);
    }
}
