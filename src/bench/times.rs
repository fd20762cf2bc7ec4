//! The seconds of a measurement's runs: the best is its figure, the median says how far the
//! machine's speed drifted between runs.

use std::time::Instant;

use crate::numbers::thousands;

#[derive(Clone, Debug, Default)]
pub struct Times(Vec<f64>);

impl Times {
    /// Runs `work` and adds the seconds it took.
    pub fn time<T>(&mut self, work: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let result = work();
        self.push(started.elapsed().as_secs_f64());
        result
    }

    /// Adds a run timed elsewhere (a process of its own, from its start).
    pub fn push(&mut self, seconds: f64) {
        self.0.push(seconds);
    }

    /// The fastest run's seconds. Panics without a run.
    pub fn best(&self) -> f64 {
        self.sorted()[0]
    }

    /// The median run's seconds (the upper of the two middle ones). Panics without a run.
    pub fn median(&self) -> f64 {
        let sorted = self.sorted();
        sorted[sorted.len() / 2]
    }

    /// The index of the fastest run, whose other figures are given beside its time.
    pub fn best_run(&self) -> usize {
        let best = self.best();
        self.0.iter().position(|&s| s == best).unwrap_or(0)
    }

    /// "best B s, median M s", to `decimals` decimals.
    pub fn best_and_median(&self, decimals: usize) -> String {
        format!(
            "best {:.*} s, median {:.*} s",
            decimals,
            self.best(),
            decimals,
            self.median()
        )
    }

    /// The best and the median, and the `games` a second at the fastest run's pace.
    pub fn games_per_second(&self, decimals: usize, games: usize) -> String {
        let rate = (games as f64 / self.best()) as u64;
        format!(
            "{} → {} games/s",
            self.best_and_median(decimals),
            thousands(rate)
        )
    }

    fn sorted(&self) -> Vec<f64> {
        let mut sorted = self.0.clone();
        sorted.sort_by(f64::total_cmp);
        sorted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_run_is_the_fastest_and_the_median_the_middle_one() {
        let times = Times(vec![3.0, 1.0, 4.0, 2.0]);
        assert_eq!(times.best(), 1.0);
        assert_eq!(times.median(), 3.0);
        assert_eq!(times.best_run(), 1);
        assert_eq!(
            times.games_per_second(1, 10),
            "best 1.0 s, median 3.0 s → 10 games/s"
        );
    }
}
