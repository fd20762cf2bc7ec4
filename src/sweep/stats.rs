//! What a study's rows say: each figure's mean over the seeds with a 95 % interval, and its paired
//! difference from the baseline on the same seeds (common random numbers: the world is the same,
//! only the regulations differ, so the difference has far less noise than either figure).
//! Intervals are Student's t over the seeds (n − 1 degrees of freedom): with 4 seeds the
//! half-width is 3.18 standard errors.
//!
//! A study compares many candidates with the baseline, so at 5 % a comparison some would look
//! better or worse by chance alone. Each comparison is a paired t-test of the per-seed differences
//! in distance from the ideal, and its p-value is adjusted by Holm's step-down procedure over every
//! candidate compared on the figure; a candidate is better or worse only where the adjusted p-value
//! is below α and its mean gain exceeds the figure's practical threshold.

use std::collections::BTreeMap;

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use crate::simulate::Goal;

use super::candidates::BASELINE;
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
        let half = (n >= 2).then(|| t95(n - 1) * standard_error(values, mean));
        Some(Interval { mean, half, n })
    }

    pub fn low(&self) -> Option<f64> {
        Some(self.mean - self.half?)
    }

    pub fn high(&self) -> Option<f64> {
        Some(self.mean + self.half?)
    }
}

/// The standard error of the mean of two values or more: the sample SD over √n.
fn standard_error(values: &[f64], mean: f64) -> f64 {
    let n = values.len();
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    (variance / n as f64).sqrt()
}

/// The two-sided 95 % quantile of Student's t with `df` degrees of freedom (NaN for none).
pub fn t95(df: usize) -> f64 {
    StudentsT::new(0.0, 1.0, df as f64).map_or(f64::NAN, |t| t.inverse_cdf(0.975))
}

/// The level below which an adjusted p-value makes a verdict.
pub const ALPHA: f64 = 0.05;

/// The two-sided p-value of a mean difference from zero with this standard error: Student's t
/// with `df` degrees of freedom, or the normal without.
fn two_sided_p(mean: f64, se: f64, df: Option<usize>) -> f64 {
    if se == 0.0 {
        // No spread at all: the same difference on every seed is the t-test's limit (certain),
        // and no difference is no evidence.
        return if mean == 0.0 { 1.0 } else { 0.0 };
    }
    let statistic = (mean / se).abs();
    let tail = match df {
        Some(df) => StudentsT::new(0.0, 1.0, df as f64).map_or(f64::NAN, |t| t.sf(statistic)),
        None => Normal::standard().sf(statistic),
    };
    (2.0 * tail).min(1.0)
}

/// Holm's step-down adjustment (Holm 1979) of m p-values, returned in their order: with the
/// p-values sorted, p(1) ≤ … ≤ p(m), the k-th's adjusted value is the largest of (m − j + 1)·p(j)
/// over j ≤ k, capped at 1. It keeps the chance of any false verdict among the m at α at most,
/// as Bonferroni's m·p does, and never says less than it.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut adjusted = vec![1.0; m];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// What a paired difference was tested by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statistic {
    /// Student's t of the per-seed differences, n − 1 degrees of freedom.
    T,
    /// One history: the difference over its per-game paired standard error, against the normal.
    Z,
}

/// The paired test of a candidate against the baseline on one figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Test {
    /// Candidate minus baseline in distance from the ideal, paired by seed (below 0: nearer the
    /// ideal), with its 95 % interval.
    pub distance: Interval,
    pub statistic: Statistic,
    /// The two-sided p-value of the paired test.
    pub p: f64,
    /// `p` adjusted by Holm's procedure over the `family` candidates compared on the figure (`p`
    /// itself in a family of one).
    pub adjusted: f64,
    pub family: usize,
    /// The gain in distance from the ideal that a verdict of better or worse needs.
    pub threshold: f64,
}

impl Test {
    fn alone(distance: Interval, statistic: Statistic, p: f64, threshold: f64) -> Test {
        Test {
            distance,
            statistic,
            p,
            adjusted: p,
            family: 1,
            threshold,
        }
    }

    /// Better or worse where the adjusted p-value is below α, beyond the threshold or within it.
    pub fn verdict(&self) -> Verdict {
        let change = self.distance.mean;
        if !(self.adjusted < ALPHA && change != 0.0) {
            return Verdict::Unclear;
        }
        match (change < 0.0, change.abs() > self.threshold) {
            (true, true) => Verdict::Better,
            (true, false) => Verdict::BetterBelowThreshold,
            (false, true) => Verdict::Worse,
            (false, false) => Verdict::WorseBelowThreshold,
        }
    }

    /// `paired t over 8 seeds, Holm over 36`.
    pub fn method(&self) -> String {
        let test = match self.statistic {
            Statistic::T => format!("paired t over {} seeds", self.distance.n),
            Statistic::Z => "paired z by the per-game standard error".to_string(),
        };
        format!("{test}, Holm over {}", self.family)
    }
}

/// How a candidate stands against the baseline on one figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nearer the ideal: the adjusted p-value of the paired difference in distance from the ideal
    /// is below α, and the gain exceeds the figure's threshold.
    Better,
    /// … further from it.
    Worse,
    /// Surely nearer the ideal, but by no more than the threshold: too little to matter.
    BetterBelowThreshold,
    /// Surely further from it, by no more than the threshold.
    WorseBelowThreshold,
    /// The adjusted p-value is α or more.
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
            Verdict::BetterBelowThreshold => "better, below the threshold",
            Verdict::WorseBelowThreshold => "worse, below the threshold",
            Verdict::Unclear => "no clear difference",
            Verdict::Same => "the same",
            Verdict::BetterNoInterval => "better (no interval)",
            Verdict::WorseNoInterval => "worse (no interval)",
            Verdict::None => "",
        }
    }
}

/// One candidate's standing on one figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub value: Option<Interval>,
    /// Candidate minus baseline, paired by seed.
    pub difference: Option<Interval>,
    /// The paired test, where there is one: not for the baseline, a figure not judged, a
    /// candidate identical to the baseline, or a single seed.
    pub test: Option<Test>,
    pub verdict: Verdict,
}

/// Whether a candidate beats the baseline with corrected significance on these verdicts: better
/// on at least one and worse on none (a difference within its threshold counts as neither).
pub fn beats(verdicts: &[Verdict]) -> bool {
    verdicts.contains(&Verdict::Better) && !verdicts.contains(&Verdict::Worse)
}

/// Each candidate's rows, by seed, and the figures' goals.
pub struct Table<'a> {
    pub goals: Vec<Goal>,
    /// Per figure, the column of its paired difference's standard error within one replay and the
    /// factor to apply to it (one history's only measure of noise).
    pub errors: Vec<Option<(usize, f64)>>,
    /// The rows are one history of real games (not a world's seeds): the standard errors apply.
    pub one_history: bool,
    /// Per figure, the gain in distance from the ideal a verdict of better or worse needs.
    pub thresholds: Vec<f64>,
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
        let thresholds = vec![0.0; goals.len()];
        Table {
            goals,
            errors,
            one_history: false,
            thresholds,
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

    /// Every candidate's standing on a figure, each p-value adjusted by Holm's procedure over all
    /// the candidates that have one (the design's points and the references compared with the
    /// baseline: those identical to it, or without the figure, test nothing).
    pub fn corrected(&self, figure: usize) -> BTreeMap<u32, Standing> {
        let mut standings: BTreeMap<u32, Standing> = self
            .rows
            .keys()
            .map(|&c| (c, self.standing(c, figure)))
            .collect();
        let p: Vec<f64> = standings.values().filter_map(|s| Some(s.test?.p)).collect();
        let tested = standings.values_mut().filter(|s| s.test.is_some());
        for (standing, adjusted) in tested.zip(holm(&p)) {
            if let Some(test) = standing.test.as_mut() {
                test.adjusted = adjusted;
                test.family = p.len();
                standing.verdict = test.verdict();
            }
        }
        standings
    }

    /// The candidate's standing on a figure against candidate 0, the baseline, compared alone
    /// (uncorrected: a family of one).
    pub fn standing(&self, candidate: u32, figure: usize) -> Standing {
        let own = self.values(candidate, figure);
        let value = own
            .iter()
            .map(|(_, v)| *v)
            .collect::<Option<Vec<f64>>>()
            .and_then(|v| Interval::of(&v));
        if candidate == BASELINE {
            return Standing {
                value,
                difference: None,
                test: None,
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
                test: None,
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
                test: None,
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
                return one_history(value, *d, *loss, se, self.threshold(figure));
            }
        }
        let difference = Interval::of(&differences);
        let test = (goal != Goal::Shown)
            .then(|| paired_t(&losses, self.threshold(figure)))
            .flatten();
        let verdict = match test {
            Some(test) => test.verdict(),
            None if goal == Goal::Shown => Verdict::None,
            None => direction(&losses),
        };
        Standing {
            value,
            difference,
            test,
            verdict,
        }
    }
}

impl Table<'_> {
    /// The gain in distance from the ideal a verdict on the figure needs (0 where none is set).
    fn threshold(&self, figure: usize) -> f64 {
        self.thresholds.get(figure).copied().unwrap_or(0.0)
    }

    /// The standard error of a figure's paired difference within one replay, where the measure
    /// gives one.
    fn paired_se(&self, candidate: u32, seed: u64, figure: usize) -> Option<f64> {
        let (column, factor) = self.errors.get(figure).copied().flatten()?;
        let row = self.rows.get(&candidate)?.get(&seed)?;
        Some(row.figures[column]? * factor).filter(|se| se.is_finite() && *se >= 0.0)
    }
}

/// One history: the difference judged by its standard error within the replay (z against the
/// normal; its interval 1.96 of them for 95 %), the games taken as independent.
fn one_history(
    value: Option<Interval>,
    difference: f64,
    loss: f64,
    se: f64,
    threshold: f64,
) -> Standing {
    let half = 1.96 * se;
    let interval = |mean| Interval {
        mean,
        half: Some(half),
        n: 1,
    };
    let test = Test::alone(
        interval(loss),
        Statistic::Z,
        two_sided_p(loss, se, None),
        threshold,
    );
    // Identical figures were judged "the same" before any test (`standing`).
    let verdict = test.verdict();
    Standing {
        value,
        difference: Some(interval(difference)),
        test: Some(test),
        verdict,
    }
}

/// The paired t-test of the per-seed differences in distance from the ideal (none with fewer than
/// two seeds).
fn paired_t(losses: &[f64], threshold: f64) -> Option<Test> {
    let distance = Interval::of(losses).filter(|i| i.n >= 2)?;
    let se = standard_error(losses, distance.mean);
    let p = two_sided_p(distance.mean, se, Some(losses.len() - 1));
    Some(Test::alone(distance, Statistic::T, p, threshold))
}

/// Which way a single comparison went, with nothing to tell whether by more than noise.
fn direction(losses: &[f64]) -> Verdict {
    match Interval::of(losses) {
        Some(i) if i.mean < 0.0 => Verdict::BetterNoInterval,
        Some(i) if i.mean > 0.0 => Verdict::WorseNoInterval,
        Some(_) => Verdict::Unclear,
        None => Verdict::None,
    }
}

/// The mean of values that must all be there (a candidate's distance on every world): `None`
/// where one is missing or there are none.
pub fn mean_of_all(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let values: Vec<f64> = values.collect::<Option<_>>()?;
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
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
        // Mean 2, sample SD √(2/3), n 4: t₃ 3.182446 × SD / 2.
        let i = Interval::of(&[1.0, 2.0, 3.0, 2.0]).unwrap();
        assert_eq!(i.mean, 2.0);
        let sd = (2.0f64 / 3.0).sqrt();
        assert!((i.half.unwrap() - 3.182446305 * sd / 2.0).abs() < 1e-9);
        assert_eq!(Interval::of(&[5.0]).unwrap().half, None);
    }

    #[test]
    fn students_t_quantiles_as_published() {
        // Two-sided 95 % quantiles of Student's t, as the published tables give them (12.706,
        // 3.182, 2.365, 2.042, 1.962) to six decimals.
        for (df, t) in [
            (1, 12.706205),
            (3, 3.182446),
            (7, 2.364624),
            (30, 2.042272),
            (1000, 1.962339),
        ] {
            assert!((t95(df) - t).abs() < 1e-6, "{df}: {}", t95(df));
        }
        assert!(t95(0).is_nan());
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
        // z = −0.002 / 0.0005 = −4: two-sided p 6.3e-5 by the normal.
        let test = s.test.unwrap();
        assert_eq!(test.statistic, Statistic::Z);
        assert!((test.p - 6.334e-5).abs() < 1e-7, "{}", test.p);
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
    fn holms_adjustment_by_hand() {
        // Sorted 0.005, 0.01, 0.03, 0.04: × 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04, then the running
        // maximum (0.04 → 0.06), returned in the given order.
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.005]);
        let expected = [0.03, 0.06, 0.06, 0.02];
        for (a, e) in adjusted.iter().zip(expected) {
            assert!((a - e).abs() < 1e-12, "{adjusted:?}");
        }
        // Capped at 1; ties adjusted alike whatever their order; none at all is none.
        assert_eq!(holm(&[0.5, 0.9]), [1.0, 1.0]);
        assert_eq!(holm(&[0.02, 0.01, 0.02]), [0.04, 0.03, 0.04]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn p_values_of_known_statistics() {
        // t = 2.776 with 4 degrees of freedom is the two-sided 5 % point (Student's table).
        assert!((two_sided_p(2.776, 1.0, Some(4)) - 0.05).abs() < 1e-4);
        assert!((two_sided_p(-2.776, 1.0, Some(4)) - 0.05).abs() < 1e-4);
        // The normal's 1.96 likewise, and 2.576 its 1 % point.
        assert!((two_sided_p(1.96, 1.0, None) - 0.05).abs() < 1e-4);
        assert!((two_sided_p(2.576, 1.0, None) - 0.01).abs() < 1e-4);
        // With 3 degrees of freedom the two-sided p of t = 3√3 has a closed form:
        // 1 − (2/π)(atan 3 + 3/10) = 0.013847.
        let closed = 1.0 - 2.0 / std::f64::consts::PI * (3.0f64.atan() + 0.3);
        assert!((two_sided_p(3.0 * 3.0f64.sqrt(), 1.0, Some(3)) - closed).abs() < 1e-9);
        assert!((closed - 0.013847).abs() < 1e-6);
        // No spread: a constant difference is certain, none at all no evidence.
        assert_eq!(two_sided_p(-1.0, 0.0, Some(3)), 0.0);
        assert_eq!(two_sided_p(0.0, 0.0, Some(3)), 1.0);
    }

    /// The baseline at 10, 20, 30, 40 on four seeds, and each candidate's differences from it.
    fn against(differences: &[[f64; 4]]) -> Vec<Row> {
        let mut rows: Vec<Row> = (1..=4u64).map(|s| row(0, s, 10.0 * s as f64)).collect();
        for (c, d) in differences.iter().enumerate() {
            rows.extend(
                (1..=4u64).map(|s| row(c as u32 + 1, s, 10.0 * s as f64 + d[s as usize - 1])),
            );
        }
        rows
    }

    #[test]
    fn many_comparisons_need_more_than_one_would() {
        // Each candidate 1.5 lower on average, t = 3√3 on 3 degrees of freedom: p = 0.0138,
        // better alone; five such comparisons at once, Holm's 5 × 0.0138 = 0.069 is not.
        let rows = against(&[[-1.0, -2.0, -1.0, -2.0]; 5]);
        let table = Table::new(&rows, vec![Goal::Lower]);
        let alone = table.standing(1, 0);
        assert_eq!(alone.verdict, Verdict::Better);
        let test = alone.test.unwrap();
        assert!((test.p - 0.013847).abs() < 1e-6);
        assert_eq!((test.adjusted, test.family), (test.p, 1));
        let corrected = table.corrected(0);
        for c in 1..=5 {
            let s = corrected[&c];
            let test = s.test.unwrap();
            assert_eq!(s.verdict, Verdict::Unclear, "{c}");
            assert!((test.adjusted - 5.0 * 0.013847).abs() < 1e-5);
            assert_eq!(test.family, 5);
            assert_eq!(test.method(), "paired t over 4 seeds, Holm over 5");
        }
        assert_eq!(corrected[&0].verdict, Verdict::None);
        assert_eq!(corrected[&0].test, None);
        // A candidate identical to the baseline tests nothing and does not widen the family.
        let rows = against(&[[-1.0, -2.0, -1.0, -2.0], [0.0; 4], [-1.0, -2.0, -1.0, -2.0]]);
        let corrected = Table::new(&rows, vec![Goal::Lower]).corrected(0);
        assert_eq!(corrected[&2].verdict, Verdict::Same);
        assert_eq!(corrected[&2].test, None);
        assert_eq!(corrected[&1].test.unwrap().family, 2);
        assert_eq!(corrected[&1].verdict, Verdict::Better);
    }

    #[test]
    fn a_threshold_tells_a_sure_gain_too_small_to_matter() {
        let rows = against(&[
            // Surely nearer (t ≈ −19), by 0.55: within a threshold of 1.
            [-0.5, -0.6, -0.5, -0.6],
            // Surely nearer by 2.05: beyond it.
            [-2.0, -2.1, -2.0, -2.1],
            // Surely further by 0.55.
            [0.5, 0.6, 0.5, 0.6],
            // Surely further by 2.05.
            [2.0, 2.1, 2.0, 2.1],
            // Exactly 1 nearer on every seed: a gain equal to the threshold does not exceed it.
            [-1.0; 4],
        ]);
        let mut table = Table::new(&rows, vec![Goal::Lower]);
        let verdicts = |t: &Table| -> Vec<Verdict> {
            t.corrected(0).values().skip(1).map(|s| s.verdict).collect()
        };
        assert_eq!(
            verdicts(&table),
            [
                Verdict::Better,
                Verdict::Better,
                Verdict::Worse,
                Verdict::Worse,
                Verdict::Better
            ]
        );
        table.thresholds = vec![1.0];
        assert_eq!(
            verdicts(&table),
            [
                Verdict::BetterBelowThreshold,
                Verdict::Better,
                Verdict::WorseBelowThreshold,
                Verdict::Worse,
                Verdict::BetterBelowThreshold
            ]
        );
        let test = table.corrected(0)[&1].test.unwrap();
        assert!(test.adjusted < ALPHA && test.threshold == 1.0);
        assert!((test.distance.mean + 0.55).abs() < 1e-12);
        assert_eq!(
            Verdict::BetterBelowThreshold.text(),
            "better, below the threshold"
        );
    }

    #[test]
    fn beating_the_baseline_needs_a_better_and_no_worse() {
        use Verdict::*;
        assert!(beats(&[Better, Unclear, Same]));
        assert!(beats(&[Better, WorseBelowThreshold]));
        assert!(!beats(&[Better, Worse]));
        assert!(!beats(&[BetterBelowThreshold, Unclear]));
        assert!(!beats(&[BetterNoInterval, BetterNoInterval]));
        assert!(!beats(&[]));
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
