//! How well the ratings in force predicted a window's games: each game's expected score is the one
//! the replay used, from the lists in force when it was played (never later ones), so a window
//! after a reform holds out every game that shaped the ratings it judges. The log loss is the mean
//! of −(s ln p + (1 − s) ln(1 − p)) over the games, p clipped to 0.001 from 0 and 1; the deviance is
//! the same in bits × 100 (100 = a coin flip). Both as `elosim score` computes them from a run's
//! `games.parquet`; games with no expectation (both players unrated) are left out and counted.

use std::path::Path;

use toml::Table;

use crate::keys::Reader;
use crate::model::Month;
use crate::report::score::CLIP;

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
}

impl LossSums {
    fn log_loss(&self) -> Option<f64> {
        (self.games > 0).then(|| self.loss / self.games as f64)
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

    fn needs(&self, _needs: &mut Needs) {}

    fn empty(&self) -> LossSums {
        LossSums::default()
    }

    fn observe(&self, list: &ListView<'_>, sums: &mut LossSums) {
        if list.month < self.from || list.month > self.to {
            return;
        }
        let g = list.games;
        for i in 0..g.len() {
            let exact = g.expected.get(i).map(|e| e.0);
            let pd = |p: u8| f64::from(p) / 100.0;
            let expected = exact
                .or(g.white[i].pd.map(pd))
                .or(g.black[i].pd.map(|p| 1.0 - pd(p)));
            let Some(p) = expected else {
                sums.unscored += 1;
                continue;
            };
            let s = f64::from(list.input.score[g.game[i] as usize]) / 2.0;
            let q = p.clamp(CLIP, 1.0 - CLIP);
            sums.games += 1;
            sums.loss += -(s * q.ln() + (1.0 - s) * (1.0 - q).ln());
        }
    }

    fn add(into: &mut LossSums, other: &LossSums) {
        into.games += other.games;
        into.loss += other.loss;
        into.unscored += other.unscored;
    }

    fn figures(&self, sums: &LossSums, _size: f64) -> Vec<Figure> {
        let log_loss = sums.log_loss();
        vec![
            Figure::new("log_loss", log_loss, Goal::Lower, "nats"),
            Figure::new(
                "deviance",
                log_loss.map(|l| 100.0 * l / std::f64::consts::LN_2),
                Goal::Lower,
                "",
            ),
            Figure::new("games", Some(sums.games as f64), Goal::Shown, "games"),
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
        let built = lists.build();
        let mut sums = m.empty();
        m.observe(&built.view(month), &mut sums);
        let expected = -(0.64f64.ln() + 0.36f64.ln()) / 2.0;
        let figures = m.figures(&sums, 1.0);
        assert!((figures[0].value.unwrap() - expected).abs() < 1e-12);
        assert!((figures[1].value.unwrap() - 100.0 * expected / 2f64.ln()).abs() < 1e-9);
        assert_eq!(figures[2].value, Some(2.0));
        assert_eq!(sums.unscored, 1);
    }
}
