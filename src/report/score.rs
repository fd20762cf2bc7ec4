//! How well a run's ratings predicted the games they rated: each game's expected score is the one
//! the run used (`games.parquet`), from the lists in force when the game was played, never later
//! ones. Binomial deviance (100 = a coin flip), log loss, the 2010 Kaggle contest's RMSE (per
//! player per month, predicted against actual total score) and a calibration table.

use std::collections::HashMap;
use std::path::Path;
use std::sync::LazyLock;

use polars::prelude::*;
use serde::Serialize;

use crate::model::{HalfPoints, IdMap, Month};
use crate::plot::{categorical, LineChart, Picture, Series, XAxis};

use super::crosstable::{Format, Selection};
use super::game_source::month_column;
use super::run_files::{
    expected_score_column, expected_score_columns, id_keys, ReportError, RunFiles,
};
use super::TextTable;
use crate::numbers::{round_to, thousands};
use crate::output::pretty_json;

/// Expected scores are clipped to this distance from 0 and 1 for the logarithms.
pub const CLIP: f64 = 0.001;
/// Calibration bins of expected score.
const BINS: usize = 20;

/// A run's games with the expectation the run used for White.
#[derive(Debug, Default)]
pub struct ScoredGames {
    pub name: String,
    pub month: Vec<Month>,
    pub white: Vec<i64>,
    pub black: Vec<i64>,
    /// White's score, 0–1.
    pub score: Vec<f64>,
    /// White's expected score as the run used it; `None` when neither side had one (the game
    /// only counted towards a first rating).
    pub expected: Vec<Option<f64>>,
}

impl ScoredGames {
    pub fn read(dir: &Path) -> Result<ScoredGames, ReportError> {
        let run = RunFiles::open(dir)?;
        let path = dir.join("games.parquet");
        let table = |e: PolarsError| ReportError::Table {
            path: path.clone(),
            message: e.to_string(),
        };
        let names = run.column_names("games.parquet")?;
        let mut columns = ["period", "white", "black", "score"]
            .map(String::from)
            .to_vec();
        for side in ["white", "black"] {
            columns.extend(expected_score_columns(&names, side));
        }
        let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
        let df = run.read_columns("games.parquet", &columns)?;
        let mut interner: HashMap<String, i64> = HashMap::new();
        let white = id_keys(&df, "white", &mut interner).map_err(table)?;
        let black = id_keys(&df, "black", &mut interner).map_err(table)?;
        let score = df
            .column("score")
            .and_then(|c| c.f64().cloned())
            .map_err(table)?;
        let we = expected_score_column(&df, "white").map_err(table)?;
        let be = expected_score_column(&df, "black").map_err(table)?;
        Ok(ScoredGames {
            name: run.scenario.name.clone(),
            month: month_column(&df, "period").map_err(table)?,
            white,
            black,
            score: score.iter().map(|s| s.unwrap_or(0.5)).collect(),
            expected: we
                .into_iter()
                .zip(be)
                .map(|(w, b)| w.or(b.map(|b| 1.0 - b)))
                .collect(),
        })
    }
}

/// A sum that keeps the rounding error of each addition (Neumaier's compensated summation), so
/// that millions of small terms add up exactly enough.
#[derive(Clone, Copy, Debug, Default)]
struct Sum {
    total: f64,
    compensation: f64,
}

impl Sum {
    fn add(&mut self, x: f64) {
        let t = self.total + x;
        if self.total.abs() >= x.abs() {
            self.compensation += (self.total - t) + x;
        } else {
            self.compensation += (x - t) + self.total;
        }
        self.total = t;
    }

    fn value(&self) -> f64 {
        self.total + self.compensation
    }
}

/// One calibration bin.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bin {
    pub games: u64,
    expected: f64,
    actual: f64,
}

impl Bin {
    pub fn expected(&self) -> f64 {
        self.expected / self.games as f64
    }
    pub fn actual(&self) -> f64 {
        self.actual / self.games as f64
    }
}

#[derive(Clone, Debug)]
pub struct Score {
    pub name: String,
    pub games: u64,
    /// Games in the window without an expectation (both players unrated).
    pub unscored: u64,
    pub log_loss: f64,
    pub deviance: f64,
    pub player_months: u64,
    pub kaggle_rmse: f64,
    /// White's expected score in 20 bins of 0.05, from White's side.
    pub calibration: [Bin; BINS],
}

/// Σ over player-months of (predicted − actual total score)², and the number of player-months.
fn player_month_errors(games: &ScoredGames, scored: &[u32]) -> (Sum, u64) {
    let (Some(first), Some(last)) = (
        scored.iter().map(|&i| games.month[i as usize]).min(),
        scored.iter().map(|&i| games.month[i as usize]).max(),
    ) else {
        return (Sum::default(), 0);
    };
    let span = last.since(first) as usize + 1;
    let mut starts = vec![0usize; span + 1];
    for &i in scored {
        starts[games.month[i as usize].since(first) as usize + 1] += 1;
    }
    for m in 0..span {
        starts[m + 1] += starts[m];
    }
    let mut order = vec![0u32; scored.len()];
    let mut next = starts.clone();
    for &i in scored {
        let m = games.month[i as usize].since(first) as usize;
        order[next[m]] = i;
        next[m] += 1;
    }
    let mut squares = Sum::default();
    let mut player_months = 0u64;
    let mut totals: IdMap<i64, (f64, f64)> = IdMap::default();
    let mut errors: Vec<f64> = Vec::new();
    for m in 0..span {
        totals.clear();
        for &i in &order[starts[m]..starts[m + 1]] {
            let i = i as usize;
            let p = games.expected[i].unwrap_or(0.5);
            let s = games.score[i];
            let w = totals.entry(games.white[i]).or_default();
            w.0 += p;
            w.1 += s;
            let b = totals.entry(games.black[i]).or_default();
            b.0 += 1.0 - p;
            b.1 += 1.0 - s;
        }
        // Sorted, so that the sum does not depend on the order of the rows.
        errors.clear();
        errors.extend(totals.values().map(|(p, s)| (p - s) * (p - s)));
        errors.sort_by(f64::total_cmp);
        for &e in &errors {
            squares.add(e);
        }
        player_months += totals.len() as u64;
    }
    (squares, player_months)
}

/// The log loss of one game, in nats: White's score `s` against White's expected score `p`,
/// clipped to [CLIP, 1 − CLIP] so that one confident miss stays finite. `elosim score` and the
/// studies' predictive measure both score a game by this.
pub fn game_log_loss(s: f64, p: f64) -> f64 {
    let q = p.clamp(CLIP, 1.0 - CLIP);
    -(s * q.ln() + (1.0 - s) * (1.0 - q).ln())
}

/// `game_log_loss` of each score in half points against each expected score in whole hundredths.
static HUNDREDTHS: LazyLock<[[f64; 3]; 101]> = LazyLock::new(|| {
    std::array::from_fn(|k| {
        std::array::from_fn(|h| game_log_loss(h as f64 / 2.0, k as f64 / 100.0))
    })
});

/// `game_log_loss` of White's score in half points against `p`, the same number, read from a
/// table where `p` is a whole number of hundredths, as FIDE's table of expectations gives them
/// (reference §8.1.2): a study's predictive measure scores millions of games a replay.
pub fn half_points_log_loss(half_points: HalfPoints, p: f64) -> f64 {
    let k = (p * 100.0).round();
    match HUNDREDTHS.get(k as usize) {
        Some(row) if k / 100.0 == p && half_points <= 2 => row[usize::from(half_points)],
        _ => game_log_loss(f64::from(half_points) / 2.0, p),
    }
}

impl Score {
    pub fn of(games: &ScoredGames, window: &Selection) -> Score {
        let mut loss = Sum::default();
        let mut calibration = [Bin::default(); BINS];
        let (mut n, mut unscored) = (0u64, 0u64);
        let mut scored: Vec<u32> = Vec::with_capacity(games.month.len());
        for i in 0..games.month.len() {
            if !window.contains(games.month[i]) {
                continue;
            }
            let (Some(p), s) = (games.expected[i], games.score[i]) else {
                unscored += 1;
                continue;
            };
            n += 1;
            loss.add(game_log_loss(s, p));
            let bin = ((p * BINS as f64) as usize).min(BINS - 1);
            calibration[bin].games += 1;
            calibration[bin].expected += p;
            calibration[bin].actual += s;
            scored.push(i as u32);
        }
        let (squares, player_months) = player_month_errors(games, &scored);
        let log_loss = if n > 0 {
            loss.value() / n as f64
        } else {
            f64::NAN
        };
        Score {
            name: games.name.clone(),
            games: n,
            unscored,
            log_loss,
            deviance: 100.0 * log_loss / std::f64::consts::LN_2,
            player_months,
            kaggle_rmse: (squares.value() / player_months.max(1) as f64).sqrt(),
            calibration,
        }
    }

    fn json(&self) -> ScoreJson<'_> {
        ScoreJson {
            run: &self.name,
            games: self.games,
            unscored: self.unscored,
            deviance: round_to(self.deviance, 4),
            log_loss: round_to(self.log_loss, 6),
            kaggle_rmse: round_to(self.kaggle_rmse, 6),
            player_months: self.player_months,
            calibration: self
                .calibration
                .iter()
                .enumerate()
                .filter(|(_, b)| b.games > 0)
                .map(|(i, b)| BinJson {
                    bin_low: i as f64 / BINS as f64,
                    games: b.games,
                    expected: round_to(b.expected(), 5),
                    actual: round_to(b.actual(), 5),
                })
                .collect(),
        }
    }
}

/// One run's score as `--format json` writes it.
#[derive(Serialize)]
struct ScoreJson<'a> {
    run: &'a str,
    games: u64,
    unscored: u64,
    deviance: f64,
    log_loss: f64,
    kaggle_rmse: f64,
    player_months: u64,
    calibration: Vec<BinJson>,
}

#[derive(Serialize)]
struct BinJson {
    bin_low: f64,
    games: u64,
    expected: f64,
    actual: f64,
}

/// Several runs' scores side by side.
pub fn render(scores: &[Score], format: Format, window: &str) -> String {
    match format {
        Format::Json => pretty_json(&scores.iter().map(Score::json).collect::<Vec<_>>()),
        Format::Csv => {
            let mut out =
                String::from("run,games,unscored,deviance,log_loss,kaggle_rmse,player_months\n");
            for s in scores {
                out.push_str(&format!(
                    "{},{},{},{:.4},{:.6},{:.6},{}\n",
                    s.name,
                    s.games,
                    s.unscored,
                    s.deviance,
                    s.log_loss,
                    s.kaggle_rmse,
                    s.player_months
                ));
            }
            out
        }
        Format::Text | Format::Md => {
            let mut table = TextTable::default();
            table.push(
                [
                    "run",
                    "games",
                    "deviance",
                    "log loss",
                    "Kaggle RMSE",
                    "player-months",
                ]
                .map(String::from)
                .to_vec(),
            );
            for s in scores {
                table.push(vec![
                    s.name.clone(),
                    thousands(s.games),
                    format!("{:.2}", s.deviance),
                    format!("{:.4}", s.log_loss),
                    format!("{:.4}", s.kaggle_rmse),
                    thousands(s.player_months),
                ]);
            }
            let mut cal = TextTable::default();
            let mut header = vec!["expected".to_string()];
            for s in scores {
                header.push(format!("{}: actual", s.name));
                header.push("games".into());
            }
            cal.push(header);
            for b in 0..BINS {
                if scores.iter().all(|s| s.calibration[b].games == 0) {
                    continue;
                }
                let mut line = vec![format!(
                    "{:.2}-{:.2}",
                    b as f64 / BINS as f64,
                    (b + 1) as f64 / BINS as f64
                )];
                for s in scores {
                    let bin = &s.calibration[b];
                    if bin.games == 0 {
                        line.extend(["".into(), "0".into()]);
                    } else {
                        line.push(format!("{:.3} (exp. {:.3})", bin.actual(), bin.expected()));
                        line.push(thousands(bin.games));
                    }
                }
                cal.push(line);
            }
            format!(
                "How well the ratings in force predicted the games of {window} (expected scores as each run used them)\n\n{}\nDeviance: 100 × mean log loss / ln 2, so a coin flip scores 100; lower is better.\nKaggle RMSE: per player and month, predicted against actual total score (the 2010 contest's measure).\n\nCalibration, White's expected score against White's actual score:\n\n{}",
                table.render(&[0]),
                cal.render(&[0])
            )
        }
    }
}

/// Expected against actual score per bin, one line per run, with the diagonal.
pub fn calibration_picture(scores: &[Score]) -> Picture {
    let mut series = vec![Series {
        name: "perfect calibration".to_string(),
        colour: plotters::style::RGBColor(0, 0, 0),
        points: vec![(0.0, 0.0), (1.0, 1.0)],
        dashed: true,
        markers: false,
    }];
    for (i, s) in scores.iter().enumerate() {
        series.push(Series {
            name: format!("{} ({} games)", s.name, thousands(s.games)),
            colour: categorical(i),
            points: s
                .calibration
                .iter()
                .filter(|b| b.games >= 20)
                .map(|b| (b.expected(), b.actual()))
                .collect(),
            dashed: false,
            markers: true,
        });
    }
    Picture::Lines(LineChart {
        x_axis: XAxis::Numbers,
        title: "Calibration: White's expected against actual score".to_string(),
        x_label: "expected score as the run used it (bins of 0.05)".to_string(),
        y_label: "actual mean score".to_string(),
        x_range: (0.0, 1.0),
        y_range: (0.0, 1.0),
        series,
        legend_lower_right: true,
        bands: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table gives `game_log_loss`'s own bits for every expectation in hundredths, as the
    /// engine writes them, and any other expectation is computed.
    #[test]
    fn a_games_log_loss_from_the_table_is_the_computed_one() {
        for h in 0..=2u8 {
            let s = f64::from(h) / 2.0;
            let hundredths = (0..=100u8).map(|p| f64::from(p) / 100.0);
            for p in hundredths.chain([0.123456, 1.0 - 0.37, -0.5, 1.5, f64::NAN]) {
                let (read, computed) = (half_points_log_loss(h, p), game_log_loss(s, p));
                assert_eq!(read.to_bits(), computed.to_bits(), "{h} half points at {p}");
            }
        }
    }

    /// Three games in one month and one in the next, by hand:
    /// log losses −ln .8, −ln .5, −ln(1 − .25) for the decisive and drawn games, and the draw at .6:
    /// −(.5 ln .6 + .5 ln .4).
    fn games() -> ScoredGames {
        let m = |n| Month::new(2020, n).unwrap();
        ScoredGames {
            name: "fixture".into(),
            month: vec![m(1), m(1), m(1), m(2), m(2)],
            white: vec![1, 2, 3, 1, 4],
            black: vec![2, 3, 1, 3, 5],
            score: vec![1.0, 0.5, 0.0, 0.5, 1.0],
            expected: vec![Some(0.8), Some(0.5), Some(0.25), Some(0.6), None],
        }
    }

    #[test]
    fn scores_are_the_hand_computed_ones() {
        let s = Score::of(&games(), &Selection::all());
        assert_eq!((s.games, s.unscored), (4, 1));
        let expected_loss =
            (-(0.8f64.ln()) - 0.5f64.ln() - 0.75f64.ln() - (0.5 * 0.6f64.ln() + 0.5 * 0.4f64.ln()))
                / 4.0;
        assert!((s.log_loss - expected_loss).abs() < 1e-12);
        assert!((s.deviance - 100.0 * expected_loss / std::f64::consts::LN_2).abs() < 1e-9);
        // January: player 1 expected .8 + .75 = 1.55, scored 1 + 1 = 2 (error .45); player 2
        // expected .2 + .5 = .7, scored 0 + .5 = .5 (.2); player 3 expected .5 + .25 = .75, scored
        // .5 + 0 = .5 (.25). February: players 1 and 3, .6 against .5 and .4 against .5 (.1 each).
        let squares = 0.45f64.powi(2) + 0.2f64.powi(2) + 0.25f64.powi(2) + 0.01 + 0.01;
        assert_eq!(s.player_months, 5);
        assert!((s.kaggle_rmse - (squares / 5.0).sqrt()).abs() < 1e-12);
        assert_eq!(s.calibration[16].games, 1);
        assert_eq!(s.calibration[10].games, 1);
        assert!((s.calibration[12].actual() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_coin_flip_scores_100_and_expectations_are_clipped() {
        let m = Month::new(2020, 1).unwrap();
        let flip = ScoredGames {
            month: vec![m, m],
            white: vec![1, 2],
            black: vec![2, 1],
            score: vec![1.0, 0.0],
            expected: vec![Some(0.5), Some(0.5)],
            ..ScoredGames::default()
        };
        assert!((Score::of(&flip, &Selection::all()).deviance - 100.0).abs() < 1e-9);
        let certain = ScoredGames {
            month: vec![m],
            white: vec![1],
            black: vec![2],
            score: vec![0.0],
            expected: vec![Some(1.0)],
            ..ScoredGames::default()
        };
        let s = Score::of(&certain, &Selection::all());
        assert!((s.log_loss + (0.001f64).ln()).abs() < 1e-12);
    }

    #[test]
    fn compensated_sums_keep_small_terms() {
        let mut s = Sum::default();
        s.add(1e16);
        for _ in 0..1000 {
            s.add(1.0);
        }
        s.add(-1e16);
        assert_eq!(s.value(), 1000.0);
    }
}
