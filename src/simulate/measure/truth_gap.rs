//! The truth gap (a world only): on one January list, each player's published rating against the
//! truth, taken apart. The *active* players (a game in the window of lists before the list,
//! `generate::world::equilibrium::WINDOW`) are set against their equilibrium rating, the reachable
//! truth: what a converged system on FIDE's curve would rate them from the games they played, each
//! result replaced by its true expected score (`truth = "equilibrium"`, the default), or against
//! their true strength (`truth = "strength"`). The *inactive* players have no equilibrium (no game
//! to reach it from): they are set against their true strength, apart. Each group gives its root
//! mean square gap (the headline is the active players'), its level (the mean gap: the list's
//! deflation or inflation), its spread (the SD of the ratings over the SD of the truth: 1 is
//! right) and the slope of rating on truth (1 when ratings are as far apart as the truth, above 1
//! when they are "spread apart far more than they should be", Sonas, seeds/001), and the mean gap
//! by band of truth; `all.` is both groups together.
//!
//! Why apart: a world's true strengths are on a scale no rating system on FIDE's curve reaches
//! (the world's results flatten FIDE's curve: form, upsets, the first move), and a player who
//! stopped playing keeps a rating while their strength moves. Against strength, the gap's size is
//! mostly those two, which no regulation touches, and the ranking of regulations depends on them
//! (docs/sweep.md, "The truth a rating system can reach").
//!
//! With `common`, only the players also on the baseline's list count: a candidate with a higher
//! floor or other first ratings lists other players, and the gap over its own list then mixes the
//! regulations' effect on ratings with their effect on who is listed.
//!
//! The bands group players by their truth, not by rating. Grouped by rating, a band holds the
//! players whose ratings erred upwards into it as well as those truly there, so every band's mean
//! gap would lean towards the band's side of the pool (regression to the mean); grouped by truth, a
//! band holds the same players under every regulation compared on a seed, and its mean is the
//! error of their ratings. Rating on truth is the regression for the slope for the same reason.

use std::path::Path;

use toml::Table;

use crate::keys::Reader;
use crate::model::Month;

pub use crate::generate::world::gap::{Against, GapSums, Groups};

use super::{read, Bands, Figure, Goal, Kind, ListView, Needs};

#[derive(Clone, Debug)]
pub struct TruthGap {
    pub list: Month,
    pub bands: Bands,
    pub truth: Against,
    /// Only the players the baseline's list also has: candidates whose floors or first ratings
    /// list other players are then judged on the players they share.
    pub common: bool,
}

/// A group's figures under `group.` (`active.rms`, …).
fn group_figures(sums: &GapSums, group: &str, figures: &mut Vec<Figure>) {
    figures.extend([
        Figure::new(format!("{group}.rms"), sums.rms(), Goal::Lower, "points"),
        Figure::new(format!("{group}.level"), sums.level(), Goal::Zero, "points"),
        Figure::new(format!("{group}.spread"), sums.spread(), Goal::One, ""),
        Figure::new(format!("{group}.slope"), sums.slope(), Goal::One, ""),
        Figure::new(
            format!("{group}.players"),
            Some(sums.players as f64),
            Goal::Shown,
            "players",
        ),
    ]);
}

/// A group's figures for people.
fn group_line(sums: &GapSums) -> String {
    let signed = |v: Option<f64>| v.map_or("–".into(), |v| format!("{v:+.1}"));
    let plain =
        |v: Option<f64>, decimals: usize| v.map_or("–".into(), |v| format!("{v:.decimals$}"));
    format!(
        "RMS {} · level {} · spread {} · slope {} over {} players",
        plain(sums.rms(), 1),
        signed(sums.level()),
        plain(sums.spread(), 3),
        plain(sums.slope(), 3),
        crate::numbers::thousands(sums.players)
    )
}

impl Kind for TruthGap {
    type Observed = Groups;

    const NAME: &'static str = "truth-gap";
    const KEYS: &'static [&'static str] = &["list", "lowest", "top", "width", "truth", "common"];
    const MEANING: &'static str = "published rating against the truth on a January list, active players (against the equilibrium rating) and inactive ones (against strength) apart: RMS, level, spread, slope, by band";
    const NEEDS_TRUTH: bool = true;

    fn read(r: &mut Reader, t: &Table, path: &str, _dir: &Path) -> Option<Self> {
        let list = read::list(r, t, path, true);
        let bands = read::bands(r, t, path, (1000, 2700, 100));
        let truth = match r.text(t, path, "truth") {
            None => Some(Against::Equilibrium),
            Some(text) => {
                let parsed = Against::parse(&text);
                if parsed.is_none() {
                    r.problem(
                        &crate::keys::at(path, "truth"),
                        format!(
                            "expected one of: {}, got {text:?}",
                            Against::NAMES.join(", ")
                        ),
                    );
                }
                parsed
            }
        };
        let common = r.boolean(t, path, "common").unwrap_or(false);
        Some(TruthGap {
            list: list?,
            bands: bands?,
            truth: truth?,
            common,
        })
    }

    fn default_name(&self) -> String {
        "truth_gap".into()
    }

    fn needs(&self, needs: &mut Needs) {
        needs.lists.push(self.list);
        needs.truth.push(self.list);
        // Who is active (a game in the window) comes with the equilibrium, whichever truth.
        needs.equilibrium.push(self.list);
        if self.common {
            needs.baseline.push(self.list);
        }
    }

    fn empty(&self) -> Groups {
        let group = GapSums {
            bands: vec![(0, 0.0); self.bands.count()],
            ..GapSums::default()
        };
        Groups {
            active: group.clone(),
            inactive: group,
        }
    }

    fn observe(&self, list: &ListView<'_>, groups: &mut Groups) {
        if list.month != self.list {
            return;
        }
        let (Some(whole), Some(strength), Some(equilibrium)) =
            (list.whole, list.truth, list.equilibrium)
        else {
            return;
        };
        for i in 0..whole.player.len() {
            let player = whole.player[i] as usize;
            let shared = !self.common
                || list
                    .baseline
                    .is_some_and(|b| b.get(player).copied().flatten().is_some());
            let strength = f64::from(strength[player]);
            if strength.is_nan() || !shared {
                continue;
            }
            groups.add_player(
                f64::from(whole.rating[i]),
                strength,
                f64::from(equilibrium[player]),
                self.truth,
                |truth| self.bands.of(truth),
            );
        }
    }

    fn add(into: &mut Groups, other: &Groups) {
        into.active.add(&other.active);
        into.inactive.add(&other.inactive);
    }

    fn figures(&self, groups: &Groups, _size: f64) -> Vec<Figure> {
        let mut figures = Vec::new();
        group_figures(&groups.active, "active", &mut figures);
        group_figures(&groups.inactive, "inactive", &mut figures);
        group_figures(&groups.all(), "all", &mut figures);
        for (name, group) in [("active", &groups.active), ("inactive", &groups.inactive)] {
            for (band, &(n, gap)) in group.bands.iter().enumerate() {
                figures.push(Figure::new(
                    format!("{name}.band.{}", self.bands.low(band)),
                    (n > 0).then(|| gap / n as f64),
                    Goal::Zero,
                    "points",
                ));
            }
        }
        figures
    }

    fn line(&self, groups: &Groups, _size: f64) -> String {
        format!(
            "truth gap on {}: active players against their {}: {}; inactive against strength: {}",
            self.list,
            match self.truth {
                Against::Equilibrium => "equilibrium rating",
                Against::Strength => "true strength",
            },
            group_line(&groups.active),
            group_line(&groups.inactive)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::measure::testing::{figure, Lists};

    fn measure(truth: Against) -> TruthGap {
        TruthGap {
            list: Month::new(2023, 1).unwrap(),
            bands: Bands {
                lowest: 1000,
                top: 2000,
                width: 500,
            },
            truth,
            common: false,
        }
    }

    #[test]
    fn the_slope_of_ratings_spread_apart_twice_is_two() {
        let m = measure(Against::Strength);
        let month = m.list;
        // Strengths 1200, 1800, 2400, all active; ratings 1800 ± twice the distance from it; a
        // fourth player not in the world that month.
        let lists = Lists {
            ratings: vec![Some(600), Some(1800), Some(3000), Some(1500)],
            truth: Some(vec![1200.0, 1800.0, 2400.0, f32::NAN]),
            equilibrium: Some(vec![0.0, 0.0, 0.0, f32::NAN]),
            ..Lists::default()
        };
        let sums = lists.observed(&m, month);
        let figures = m.figures(&sums, 1.0);
        let value = |name: &str| figure(&figures, name);
        assert!((value("active.slope").unwrap() - 2.0).abs() < 1e-12);
        assert!((value("active.spread").unwrap() - 2.0).abs() < 1e-12);
        // Gaps −600, 0, +600: level 0, RMS √((360000 + 0 + 360000) / 3).
        assert!(value("active.level").unwrap().abs() < 1e-9);
        assert!((value("active.rms").unwrap() - 240_000f64.sqrt()).abs() < 1e-9);
        assert_eq!(value("active.players"), Some(3.0));
        assert_eq!(value("inactive.players"), Some(0.0));
        assert_eq!(value("inactive.rms"), None);
        assert_eq!(value("active.band.1000"), Some(-600.0));
        assert_eq!(value("active.band.1500"), Some(0.0));
        assert_eq!(value("active.band.2000"), Some(600.0));
        // The headline is the active players' RMS.
        assert_eq!(figures[0].name, "active.rms");
        // Another month's list is not this measure's.
        assert_eq!(lists.observed(&m, month.plus(1)).active.players, 0);
        // With `common`, only the players the baseline also lists: here the first two.
        let shared = TruthGap { common: true, ..m };
        let lists = Lists {
            baseline: Some(vec![Some(1500), Some(1700), None, None]),
            ..lists
        };
        let sums = lists.observed(&shared, month);
        assert_eq!(sums.active.players, 2);
        assert_eq!(sums.active.gap, -600.0);
    }

    /// The active players against their equilibrium, the inactive ones (no equilibrium) against
    /// their strength, and `all` both together; with `truth = "strength"` the active ones against
    /// strength too.
    #[test]
    fn active_players_meet_their_equilibrium_and_the_inactive_their_strength() {
        let m = measure(Against::Equilibrium);
        let lists = Lists {
            // Players 0–2 played in the window (equilibria 1700, 1900, 2100); player 3 did not.
            ratings: vec![Some(1710), Some(1890), Some(2110), Some(1500)],
            truth: Some(vec![1600.0, 1900.0, 2200.0, 1700.0]),
            equilibrium: Some(vec![1700.0, 1900.0, 2100.0, f32::NAN]),
            ..Lists::default()
        };
        let observed = lists.observed(&m, m.list);
        let figures = m.figures(&observed, 1.0);
        let value = |name: &str| figure(&figures, name).unwrap();
        // Gaps +10, −10, +10 against the equilibrium.
        assert!((value("active.rms") - 10.0).abs() < 1e-9);
        assert!((value("active.level") - 10.0 / 3.0).abs() < 1e-9);
        assert_eq!(value("active.players"), 3.0);
        // Ratings spread (1710, 1890, 2110) over equilibria (1700, 1900, 2100): slope 1 by
        // least squares, 400/400 = 1.0 between the extremes.
        assert!((value("active.slope") - 1.0).abs() < 1e-9);
        // Player 3 against strength: −200.
        assert_eq!(value("inactive.level"), -200.0);
        assert_eq!(value("inactive.rms"), 200.0);
        assert_eq!(value("all.players"), 4.0);
        assert!((value("all.level") - (10.0 - 200.0) / 4.0).abs() < 1e-9);
        assert_eq!(value("inactive.band.1500"), -200.0);
        // Against strength, the same active players are 110 above, 10 below and 90 below.
        let strength = measure(Against::Strength);
        let observed = lists.observed(&strength, strength.list);
        let figures = strength.figures(&observed, 1.0);
        let value = |name: &str| figure(&figures, name).unwrap();
        assert!((value("active.level") - 10.0 / 3.0).abs() < 1e-9);
        let rms = ((110.0f64.powi(2) + 10.0f64.powi(2) + 90.0f64.powi(2)) / 3.0).sqrt();
        assert!((value("active.rms") - rms).abs() < 1e-9);
        // Ratings 400 apart over strengths 600 apart: squeezed.
        assert!(value("active.slope") < 0.7 && value("active.spread") < 0.7);
        assert_eq!(value("inactive.level"), -200.0);
    }
}
