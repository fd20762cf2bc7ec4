//! A published crosstable of real games (Sonas's, `data/published/sonas-crosstables.csv`) set
//! against the replay's own over the same window: cell by cell, and row by row in the share and the
//! number of games (`report::crosstable::Distance`). What calibration fits a world to.

use std::path::Path;

use toml::Table;

use crate::keys::{at, Reader};
use crate::model::Month;
use crate::report::crosstable::{
    choose, read_published, Crosstable, Distance, Expectation, PublishedTable, RowShare, Selection,
    Thresholds,
};

use super::{Figure, Goal, Kind, ListView, Needs};

#[derive(Clone, Debug)]
pub struct PublishedCrosstable {
    pub published: PublishedTable,
    pub from: Month,
    pub to: Month,
    /// Also each row's number of games (Sonas's row totals), not only its share.
    pub games: bool,
}

impl PublishedCrosstable {
    /// The replay's table against the published one, with FIDE's thresholds scaled to the
    /// replays' size.
    pub fn distance(&self, table: &Crosstable, size: f64) -> Distance {
        Distance::between(table, &self.published, Thresholds::FIDE.scaled(size))
    }
}

impl Kind for PublishedCrosstable {
    type Observed = Crosstable;

    const NAME: &'static str = "table";
    const KEYS: &'static [&'static str] = &["published", "table", "from", "to", "games"];
    const MEANING: &'static str =
        "a published crosstable of real games against the replay's over the same window";
    const TARGET_KEYS: Option<&'static [&'static str]> = Some(&[]);

    fn read(r: &mut Reader, t: &Table, path: &str, dir: &Path) -> Option<Self> {
        r.require(
            t,
            path,
            "published",
            "the published tables' file (a rating list's bands are kind \"counts\" with `list`)",
        );
        let published = r.text(t, path, "published");
        let name = r.text(t, path, "table");
        let from = r.month(t, path, "from");
        let to = r.month(t, path, "to");
        let games = r.boolean(t, path, "games").unwrap_or(false);
        let file = dir.join(published?);
        let chosen = read_published(&file)
            .map_err(|e| e.to_string())
            .and_then(|tables| {
                choose(tables, name.as_deref(), &file.display().to_string())
                    .map_err(|e| e.to_string())
            });
        let published = match chosen {
            Ok(p) => p,
            Err(message) => {
                r.problem(&at(path, "published"), message);
                return None;
            }
        };
        let window = published.window();
        match (from.or(window.map(|w| w.0)), to.or(window.map(|w| w.1))) {
            (Some(from), Some(to)) if from <= to => Some(PublishedCrosstable {
                published,
                from,
                to,
                games,
            }),
            (Some(_), Some(_)) => {
                r.problem(&at(path, "to"), "is before `from`");
                None
            }
            _ => {
                r.problem(
                    path,
                    format!(
                        "the table {:?} is not named by its years; give `from` and `to`",
                        published.name
                    ),
                );
                None
            }
        }
    }

    fn default_name(&self) -> String {
        self.published.name.clone()
    }

    fn needs(&self, needs: &mut Needs) {
        needs.windows.push((self.from, self.to));
    }

    fn empty(&self) -> Crosstable {
        let selection = Selection::between(self.from, self.to);
        Crosstable::new(self.published.grouping, Expectation::Fide, 0, selection)
    }

    fn observe(&self, list: &ListView<'_>, into: &mut Crosstable) {
        if list.month < self.from || list.month > self.to {
            return;
        }
        for (white, black, score) in list.rated_pairs() {
            into.add(white, black, score);
        }
    }

    fn add(into: &mut Crosstable, other: &Crosstable) {
        into.merge(other);
    }

    fn figures(&self, table: &Crosstable, size: f64) -> Vec<Figure> {
        let d = self.distance(table, size);
        let (agree, compared) = d.signs();
        let (covered, numbered) = d.coverage();
        let whole = |n: usize| Some(n as f64);
        vec![
            Figure::new("rmse", d.rmse(), Goal::Lower, "points"),
            Figure::new("compared", whole(compared), Goal::Shown, "cells"),
            Figure::new("signs_agree", whole(agree), Goal::Shown, "cells"),
            Figure::new("covered", whole(covered), Goal::Shown, "cells"),
            Figure::new("numbered", whole(numbered), Goal::Shown, "cells"),
            Figure::new(
                "worst_share_factor",
                d.worst_share().map(RowShare::factor),
                Goal::One,
                "×",
            ),
            Figure::new("cell_error", Some(cell_error(&d)), Goal::Lower, "points²"),
            Figure::new("share_error", Some(share_error(&d)), Goal::Lower, ""),
            Figure::new("games_ratio", Some(d.games_ratio()), Goal::One, "×"),
            Figure::new("games_error", Some(games_error(&d)), Goal::Lower, ""),
        ]
    }

    fn line(&self, table: &Crosstable, size: f64) -> String {
        let d = self.distance(table, size);
        let (agree, compared) = d.signs();
        let (covered, numbered) = d.coverage();
        let worst = d
            .worst_share()
            .map(|w| format!("worst row ×{:.2}", w.factor()))
            .unwrap_or_default();
        let games = d
            .worst_games()
            .map(|w| {
                format!(
                    " · games ×{:.2} (worst row ×{:.2})",
                    d.games_ratio(),
                    w.games_ratio()
                )
            })
            .unwrap_or_default();
        format!(
            "{}: RMSE {} over {compared} cells · signs {agree}/{compared} · coverage {covered}/{numbered} · {worst}{games}",
            d.table,
            d.rmse().map_or("–".into(), |r| format!("{r:.2}")),
        )
    }

    /// The cells' weighted mean squared difference + `share_weight` × the rows' mean squared log
    /// share ratio (and, with `games`, their mean squared log ratio of games).
    fn error(&self, table: &Crosstable, size: f64, share_weight: f64) -> Option<f64> {
        Some(self.objective_term(&self.distance(table, size), share_weight))
    }
}

impl PublishedCrosstable {
    fn objective_term(&self, d: &Distance, share_weight: f64) -> f64 {
        let games = if self.games { games_error(d) } else { 0.0 };
        cell_error(d) + share_weight * (share_error(d) + games)
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
    use crate::report::crosstable::Thresholds;

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
        let measure = |games| PublishedCrosstable {
            published: published.clone(),
            from: Month::new(2008, 1).unwrap(),
            to: Month::new(2012, 12).unwrap(),
            games,
        };
        assert!((measure(false).objective_term(&d, 25.0) - 225.0).abs() < 1e-12);
        let with_games = 225.0 + 25.0 * ln2 * ln2;
        assert!((measure(true).objective_term(&d, 25.0) - with_games).abs() < 1e-12);
    }
}
