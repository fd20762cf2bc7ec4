//! What a study's rows say: each figure's mean over the seeds with a 95 % interval, and its paired
//! difference from the baseline on the same seeds (common random numbers: the world is the same,
//! only the regulations differ, so the difference has far less noise than either figure). A
//! candidate beats the baseline on a figure only where the interval of the paired difference of
//! their distances from the ideal excludes zero. Intervals are Student's t over the seeds (n − 1
//! degrees of freedom): with 4 seeds the half-width is 3.18 standard errors.

use std::collections::BTreeMap;

use crate::simulate::Goal;

use super::journal::Row;

/// A mean with the half-width of its 95 % interval (`None` with fewer than two values).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub mean: f64,
    pub half: Option<f64>,
    pub n: usize,
}

impl Interval {
    pub fn of(values: &[f64]) -> Option<Interval> {
        let n = values.len();
        if n == 0 || values.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let half = (n >= 2).then(|| {
            let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            t95(n - 1) * (variance / n as f64).sqrt()
        });
        Some(Interval { mean, half, n })
    }

    pub fn low(&self) -> Option<f64> {
        Some(self.mean - self.half?)
    }

    pub fn high(&self) -> Option<f64> {
        Some(self.mean + self.half?)
    }
}

/// The two-sided 95 % quantile of Student's t with `df` degrees of freedom.
pub fn t95(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => TABLE[df - 1],
        // Beyond the table, interpolated in 1/df towards the normal's 1.960 (within 0.002).
        _ => 1.960 + (2.042 - 1.960) * 30.0 / df as f64,
    }
}

/// How a candidate stands against the baseline on one figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The interval of the paired difference in distance from the ideal lies below zero.
    Better,
    /// … above zero.
    Worse,
    /// It includes zero.
    Unclear,
    /// Identical on every seed.
    Same,
    /// Nearer the ideal, or further from it, with nothing to tell whether by more than noise (one
    /// seed; one history without a standard error).
    BetterNoInterval,
    WorseNoInterval,
    /// The baseline itself, a figure not judged, or not enough values.
    None,
}

impl Verdict {
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Better => "better",
            Verdict::Worse => "worse",
            Verdict::Unclear => "no clear difference",
            Verdict::Same => "the same",
            Verdict::BetterNoInterval => "better (no interval)",
            Verdict::WorseNoInterval => "worse (no interval)",
            Verdict::None => "",
        }
    }
}

/// One candidate's standing on one figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub value: Option<Interval>,
    /// Candidate minus baseline, paired by seed.
    pub difference: Option<Interval>,
    pub verdict: Verdict,
}

/// Each candidate's rows, by seed, and the figures' goals.
pub struct Table<'a> {
    pub goals: Vec<Goal>,
    /// Per figure, the column of its paired difference's standard error within one replay and the
    /// factor to apply to it (one history's only measure of noise).
    pub errors: Vec<Option<(usize, f64)>>,
    /// The rows are one history of real games (not a world's seeds): the standard errors apply.
    pub one_history: bool,
    /// Candidate → seed → row.
    pub rows: BTreeMap<u32, BTreeMap<u64, &'a Row>>,
}

impl<'a> Table<'a> {
    pub fn new(rows: &'a [Row], goals: Vec<Goal>) -> Table<'a> {
        let mut by: BTreeMap<u32, BTreeMap<u64, &Row>> = BTreeMap::new();
        for r in rows {
            by.entry(r.candidate).or_default().insert(r.seed, r);
        }
        let errors = vec![None; goals.len()];
        Table {
            goals,
            errors,
            one_history: false,
            rows: by,
        }
    }

    /// The figure's values of a candidate, seed by seed.
    fn values(&self, candidate: u32, figure: usize) -> Vec<(u64, Option<f64>)> {
        self.rows
            .get(&candidate)
            .map(|rows| rows.iter().map(|(&s, r)| (s, r.figures[figure])).collect())
            .unwrap_or_default()
    }

    /// The candidate's mean distance from the ideal on a figure over the seeds (what ranking and
    /// the Pareto front use); `None` where a seed has no value.
    pub fn loss(&self, candidate: u32, figure: usize) -> Option<f64> {
        let values = self.values(candidate, figure);
        let losses: Option<Vec<f64>> = values
            .iter()
            .map(|(_, v)| self.goals[figure].loss((*v)?))
            .collect();
        let losses = losses?;
        (!losses.is_empty()).then(|| losses.iter().sum::<f64>() / losses.len() as f64)
    }

    /// The candidate's standing on a figure against candidate 0, the baseline.
    pub fn standing(&self, candidate: u32, figure: usize) -> Standing {
        let own = self.values(candidate, figure);
        let value = own
            .iter()
            .map(|(_, v)| *v)
            .collect::<Option<Vec<f64>>>()
            .and_then(|v| Interval::of(&v));
        if candidate == 0 {
            return Standing {
                value,
                difference: None,
                verdict: Verdict::None,
            };
        }
        let base: BTreeMap<u64, Option<f64>> = self.values(0, figure).into_iter().collect();
        let goal = self.goals[figure];
        // Paired seed by seed; a seed where either lacks the figure leaves no difference at all.
        let pairs: Option<Vec<(f64, f64)>> = own
            .iter()
            .map(|(seed, v)| Some((v.as_ref().copied()?, base.get(seed).copied().flatten()?)))
            .collect();
        let Some(pairs) = pairs.filter(|p| !p.is_empty()) else {
            return Standing {
                value,
                difference: None,
                verdict: Verdict::None,
            };
        };
        let differences: Vec<f64> = pairs.iter().map(|(v, b)| v - b).collect();
        let losses: Vec<f64> = pairs
            .iter()
            .filter_map(|&(v, b)| Some(goal.loss(v)? - goal.loss(b)?))
            .collect();
        if differences.iter().all(|&d| d == 0.0) {
            return Standing {
                value,
                difference: Interval::of(&differences),
                verdict: if goal == Goal::Shown {
                    Verdict::None
                } else {
                    Verdict::Same
                },
            };
        }
        if let ([d], [loss], [(seed, _)], true) =
            (&differences[..], &losses[..], &own[..], self.one_history)
        {
            if let Some(se) = self.paired_se(candidate, *seed, figure) {
                return one_history(value, *d, *loss, se);
            }
        }
        let difference = Interval::of(&differences);
        let verdict = verdict(goal, &losses);
        Standing {
            value,
            difference,
            verdict,
        }
    }
}

impl Table<'_> {
    /// The standard error of a figure's paired difference within one replay, where the measure
    /// gives one.
    fn paired_se(&self, candidate: u32, seed: u64, figure: usize) -> Option<f64> {
        let (column, factor) = self.errors.get(figure).copied().flatten()?;
        let row = self.rows.get(&candidate)?.get(&seed)?;
        Some(row.figures[column]? * factor)
    }
}

/// One history: the difference judged by its standard error within the replay (1.96 of them for
/// 95 %), the games taken as independent.
fn one_history(value: Option<Interval>, difference: f64, loss: f64, se: f64) -> Standing {
    let half = 1.96 * se;
    let verdict = if loss == 0.0 && difference == 0.0 {
        Verdict::Same
    } else if loss + half < 0.0 {
        Verdict::Better
    } else if loss - half > 0.0 {
        Verdict::Worse
    } else {
        Verdict::Unclear
    };
    Standing {
        value,
        difference: Some(Interval {
            mean: difference,
            half: Some(half),
            n: 1,
        }),
        verdict,
    }
}

fn verdict(goal: Goal, losses: &[f64]) -> Verdict {
    if goal == Goal::Shown || losses.is_empty() {
        return Verdict::None;
    }
    let Some(i) = Interval::of(losses) else {
        return Verdict::None;
    };
    match (i.low(), i.high()) {
        (Some(_), Some(high)) if high < 0.0 => Verdict::Better,
        (Some(low), Some(_)) if low > 0.0 => Verdict::Worse,
        (Some(_), Some(_)) => Verdict::Unclear,
        _ if i.mean < 0.0 => Verdict::BetterNoInterval,
        _ if i.mean > 0.0 => Verdict::WorseNoInterval,
        _ => Verdict::Unclear,
    }
}

/// The candidates no other beats on every one of `figures` (by mean distance from the ideal) while
/// beating them on one, in the order given.
pub fn pareto(table: &Table<'_>, candidates: &[u32], figures: &[usize]) -> Vec<u32> {
    let points: Vec<(u32, Vec<f64>)> = candidates
        .iter()
        .filter_map(|&c| {
            let losses: Option<Vec<f64>> = figures.iter().map(|&f| table.loss(c, f)).collect();
            Some((c, losses?))
        })
        .collect();
    let dominates = |a: &[f64], b: &[f64]| {
        a.iter().zip(b).all(|(x, y)| x <= y) && a.iter().zip(b).any(|(x, y)| x < y)
    };
    points
        .iter()
        .filter(|(_, p)| !points.iter().any(|(_, q)| dominates(q, p)))
        .map(|(c, _)| *c)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(candidate: u32, seed: u64, value: f64) -> Row {
        Row {
            world: String::new(),
            candidate,
            seed,
            label: String::new(),
            values: Vec::new(),
            figures: vec![Some(value)],
            seconds: 0.0,
            measure_seconds: 0.0,
        }
    }

    #[test]
    fn an_interval_by_hand() {
        // Mean 2, sample SD 1, n 4: t₃ 3.182 × 1 / 2.
        let i = Interval::of(&[1.0, 2.0, 3.0, 2.0]).unwrap();
        assert_eq!(i.mean, 2.0);
        let sd = (2.0f64 / 3.0).sqrt();
        assert!((i.half.unwrap() - 3.182 * sd / 2.0).abs() < 1e-12);
        assert_eq!(Interval::of(&[5.0]).unwrap().half, None);
    }

    #[test]
    fn paired_differences_see_through_seed_noise() {
        // The seeds differ by ±10 but the candidate is always 1 lower than the baseline: paired,
        // it is clearly better; a candidate 1 lower on two seeds and 1 higher on two is unclear.
        let rows = vec![
            row(0, 1, 10.0),
            row(0, 2, 20.0),
            row(0, 3, 30.0),
            row(0, 4, 40.0),
            row(1, 1, 9.0),
            row(1, 2, 19.0),
            row(1, 3, 29.0),
            row(1, 4, 38.5),
            row(2, 1, 9.0),
            row(2, 2, 21.0),
            row(2, 3, 29.0),
            row(2, 4, 41.0),
            row(3, 1, 10.0),
            row(3, 2, 20.0),
            row(3, 3, 30.0),
            row(3, 4, 40.0),
        ];
        let table = Table::new(&rows, vec![Goal::Lower]);
        let s = table.standing(1, 0);
        assert_eq!(s.verdict, Verdict::Better);
        assert_eq!(s.difference.unwrap().mean, -1.125);
        assert_eq!(table.standing(2, 0).verdict, Verdict::Unclear);
        assert_eq!(table.standing(3, 0).verdict, Verdict::Same);
        // Equally far from the ideal on the other side is not the same.
        let mirrored: Vec<Row> = (1..=4)
            .flat_map(|seed| [row(0, seed, 5.0), row(1, seed, -5.0)])
            .collect();
        let zero = Table::new(&mirrored, vec![Goal::Zero]);
        assert_eq!(zero.standing(1, 0).verdict, Verdict::Unclear);
        assert_eq!(table.standing(0, 0).verdict, Verdict::None);
        // Nearer 0: −8 or −9 is better than +10 though it is lower by 18 or 19, not "lower".
        let bias: Vec<Row> = (1..=4)
            .flat_map(|seed| [row(0, seed, 10.0), row(1, seed, -8.0 - (seed % 2) as f64)])
            .collect();
        let table = Table::new(&bias, vec![Goal::Zero]);
        assert_eq!(table.standing(1, 0).verdict, Verdict::Better);
    }

    #[test]
    fn one_history_is_judged_by_its_paired_standard_error() {
        // Figure 0 a loss, figure 1 the standard error of its paired difference.
        let one = |c: u32, loss: f64, se: f64| Row {
            figures: vec![Some(loss), Some(se)],
            ..row(c, 0, 0.0)
        };
        let rows = vec![
            one(0, 0.670, 0.0),
            one(1, 0.668, 0.0005),
            one(2, 0.6695, 0.0005),
        ];
        let mut table = Table::new(&rows, vec![Goal::Lower, Goal::Shown]);
        table.errors = vec![Some((1, 1.0)), None];
        table.one_history = true;
        let s = table.standing(1, 0);
        assert_eq!(s.verdict, Verdict::Better);
        assert!((s.difference.unwrap().half.unwrap() - 0.00098).abs() < 1e-12);
        // 0.0005 lower is within 1.96 × 0.0005: no clear difference.
        assert_eq!(table.standing(2, 0).verdict, Verdict::Unclear);
        // Without a standard error, one history says only which way.
        table.errors = vec![None, None];
        assert_eq!(table.standing(1, 0).verdict, Verdict::BetterNoInterval);
        // A world's single seed is not a history of games: its standard errors do not apply.
        table.errors = vec![Some((1, 1.0)), None];
        table.one_history = false;
        assert_eq!(table.standing(1, 0).verdict, Verdict::BetterNoInterval);
    }

    #[test]
    fn the_pareto_front_by_hand() {
        let rows = vec![
            Row {
                figures: vec![Some(1.0), Some(5.0)],
                ..row(0, 1, 0.0)
            },
            Row {
                figures: vec![Some(2.0), Some(2.0)],
                ..row(1, 1, 0.0)
            },
            Row {
                figures: vec![Some(3.0), Some(3.0)],
                ..row(2, 1, 0.0)
            },
            Row {
                figures: vec![Some(5.0), Some(1.0)],
                ..row(3, 1, 0.0)
            },
        ];
        let table = Table::new(&rows, vec![Goal::Lower, Goal::Lower]);
        assert_eq!(pareto(&table, &[0, 1, 2, 3], &[0, 1]), [0, 1, 3]);
    }
}
