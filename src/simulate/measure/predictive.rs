//! How well the ratings in force predicted a window's games: each game's expected score is the one
//! the replay used, from the lists in force when it was played (never later ones), so a window
//! after a reform holds out every game that shaped the ratings it judges. The log loss is the mean
//! of −(s ln p + (1 − s) ln(1 − p)) over the games, p clipped to 0.001 from 0 and 1; the deviance is
//! the same in bits × 100 (100 = a coin flip). Both as `elosim score` computes them from a run's
//! `games.parquet`; games with no expectation (both players unrated) are left out and counted.
//! `paired_se` is the standard error of the mean per-game difference from the baseline's log loss
//! on the games both scored, the games taken as independent: what says whether a difference is
//! more than noise when there is one history and no seeds to compare.

use std::path::Path;

use toml::Table;

use crate::keys::Reader;
use crate::model::Month;
use crate::report::score::half_points_log_loss;

use super::{read, Figure, Goal, Kind, ListView, Needs};

#[derive(Clone, Debug)]
pub struct Predictive {
    pub from: Month,
    pub to: Month,
}

#[derive(Clone, Debug, Default)]
pub struct LossSums {
    pub games: u64,
    pub loss: f64,
    pub unscored: u64,
    /// Games the baseline scored too, and Σ d, Σ d² of their loss minus the baseline's.
    pub paired: u64,
    pub difference: f64,
    pub difference_squares: f64,
}

impl LossSums {
    fn log_loss(&self) -> Option<f64> {
        (self.games > 0).then(|| self.loss / self.games as f64)
    }

    /// The standard error of the mean per-game difference from the baseline's loss, the games
    /// taken as independent.
    fn paired_se(&self) -> Option<f64> {
        if self.paired < 2 {
            return None;
        }
        let n = self.paired as f64;
        let mean = self.difference / n;
        let variance = ((self.difference_squares - n * mean * mean) / (n - 1.0)).max(0.0);
        Some((variance / n).sqrt())
    }
}

impl Kind for Predictive {
    type Observed = LossSums;

    const NAME: &'static str = "predictive";
    const KEYS: &'static [&'static str] = &["from", "to"];
    const MEANING: &'static str =
        "log loss and deviance of a window's games predicted by the ratings in force";

    fn read(r: &mut Reader, t: &Table, path: &str, _dir: &Path) -> Option<Self> {
        let (from, to) = read::window(r, t, path)?;
        Some(Predictive { from, to })
    }

    fn default_name(&self) -> String {
        "predictive".into()
    }

    /// The baseline's expected scores, game by game, for the paired standard error.
    fn needs(&self, needs: &mut Needs) {
        needs.baseline_games = true;
        needs.windows.push((self.from, self.to));
    }

    fn empty(&self) -> LossSums {
        LossSums::default()
    }

    fn observe(&self, list: &ListView<'_>, sums: &mut LossSums) {
        if list.month < self.from || list.month > self.to {
            return;
        }
        let g = list.games;
        for i in 0..g.len() {
            let Some(p) = g.white_expected(i) else {
                sums.unscored += 1;
                continue;
            };
            let game = g.game[i] as usize;
            let s = list.input.score[game];
            let own = half_points_log_loss(s, p);
            sums.games += 1;
            sums.loss += own;
            let base = list.baseline_expected.map_or(f64::NAN, |b| b[game]);
            if !base.is_nan() {
                let d = own - half_points_log_loss(s, base);
                sums.paired += 1;
                sums.difference += d;
                sums.difference_squares += d * d;
            }
        }
    }

    fn add(into: &mut LossSums, other: &LossSums) {
        into.games += other.games;
        into.loss += other.loss;
        into.unscored += other.unscored;
        into.paired += other.paired;
        into.difference += other.difference;
        into.difference_squares += other.difference_squares;
    }

    fn figures(&self, sums: &LossSums, _size: f64) -> Vec<Figure> {
        let log_loss = sums.log_loss();
        vec![
            Figure::new("log_loss", log_loss, Goal::Lower, "nats").with_paired_se("paired_se", 1.0),
            Figure::new(
                "deviance",
                log_loss.map(|l| 100.0 * l / std::f64::consts::LN_2),
                Goal::Lower,
                "",
            )
            .with_paired_se("paired_se", 100.0 / std::f64::consts::LN_2),
            Figure::new("games", Some(sums.games as f64), Goal::Shown, "games"),
            Figure::new("paired_se", sums.paired_se(), Goal::Shown, "nats"),
        ]
    }

    fn line(&self, sums: &LossSums, _size: f64) -> String {
        format!(
            "predictive {}..{}: log loss {} over {} games ({} without an expectation)",
            self.from,
            self.to,
            sums.log_loss().map_or("–".into(), |v| format!("{v:.5}")),
            crate::numbers::thousands(sums.games),
            crate::numbers::thousands(sums.unscored)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::measure::testing::Lists;

    #[test]
    fn log_loss_by_hand() {
        let month = Month::new(2021, 3).unwrap();
        let m = Predictive {
            from: month,
            to: month,
        };
        // White expected 0.64 wins; expected 0.64 loses; a game nobody expected anything of.
        let lists = Lists {
            games: vec![
                (0, 1, 2, Some(2100), Some(2000), Some(64)),
                (0, 1, 0, Some(2100), Some(2000), Some(64)),
                (2, 3, 1, None, None, None),
            ],
            ..Lists::default()
        };
        let sums = lists.observed(&m, month);
        let expected = -(0.64f64.ln() + 0.36f64.ln()) / 2.0;
        let figures = m.figures(&sums, 1.0);
        assert!((figures[0].value.unwrap() - expected).abs() < 1e-12);
        assert!((figures[1].value.unwrap() - 100.0 * expected / 2f64.ln()).abs() < 1e-9);
        assert_eq!(figures[2].value, Some(2.0));
        assert_eq!(sums.unscored, 1);
        // Paired with a baseline that expected 0.5 of both: the differences' standard error.
        let paired = Lists {
            baseline_expected: Some(vec![0.5, 0.5, f64::NAN]),
            ..lists
        };
        let sums = paired.observed(&m, month);
        let d = [-0.64f64.ln() - 2f64.ln(), -0.36f64.ln() - 2f64.ln()];
        let mean = (d[0] + d[1]) / 2.0;
        let se = (((d[0] - mean).powi(2) + (d[1] - mean).powi(2)) / 1.0 / 2.0).sqrt();
        let figures = m.figures(&sums, 1.0);
        assert!(
            (figures[3].value.unwrap() - se).abs() < 1e-12,
            "{figures:?}"
        );
        assert_eq!(figures[0].paired_se, Some(("paired_se".into(), 1.0)));
    }
}
