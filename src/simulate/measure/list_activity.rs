//! How much each rating band of one real list played in its period: the share of the band's
//! players with games, and the games per player who played (a FIDE list's games column), against
//! the replay's list of the same month. Shares and rates, not counts: a copy of a list may lack
//! federations (`data/fide-lists-2025/` lacks eight), which changes its counts far more than how
//! its players play.

use std::path::Path;

use toml::Table as TomlTable;

use crate::keys::{at, Reader};
use crate::model::Month;

use super::{read, Bands, Figure, Goal, Kind, ListView, Needs};

/// One band's players, those who played and their games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BandActivity {
    pub players: u64,
    pub played: u64,
    pub games: u64,
}

impl BandActivity {
    /// The share of the band's players who played (`None` without players).
    pub fn share(&self) -> Option<f64> {
        (self.players > 0).then(|| self.played as f64 / self.players as f64)
    }

    /// Games per player who played (`None` without one).
    pub fn games_per_player(&self) -> Option<f64> {
        (self.played > 0).then(|| self.games as f64 / self.played as f64)
    }

    fn count(&mut self, games: u32) {
        self.players += 1;
        self.played += u64::from(games > 0);
        self.games += u64::from(games);
    }
}

/// A band's low end, and its share who played and games per player who played, the run's over
/// the real list's.
pub type BandRatio = (i32, Option<f64>, Option<f64>);

/// A real list's bands against the replay's list of the same month.
#[derive(Clone, Debug)]
pub struct ListActivity {
    pub file: String,
    pub month: Month,
    pub bands: Bands,
    pub real: Vec<BandActivity>,
}

impl ListActivity {
    /// Each band's share who played and games per player who played, the run's over the real
    /// list's (`None` where either has nobody to divide).
    pub fn ratios(&self, found: &[BandActivity]) -> Vec<BandRatio> {
        self.real
            .iter()
            .zip(found)
            .enumerate()
            .map(|(band, (real, run))| {
                let ratio =
                    |run: Option<f64>, real: Option<f64>| Some(run? / real.filter(|&r| r > 0.0)?);
                (
                    self.bands.low(band),
                    ratio(run.share(), real.share()),
                    ratio(run.games_per_player(), real.games_per_player()),
                )
            })
            .collect()
    }

    /// Bands within `within` (0.15: 15 %) on shares and on games per player, and the bands.
    pub fn within(&self, found: &[BandActivity], within: f64) -> (usize, usize, usize) {
        let near = |r: Option<f64>| r.is_some_and(|r| (r - 1.0).abs() <= within);
        self.ratios(found)
            .iter()
            .fold((0, 0, 0), |(s, g, n), (_, share, games)| {
                (
                    s + usize::from(near(*share)),
                    g + usize::from(near(*games)),
                    n + 1,
                )
            })
    }

    /// The mean squared log ratio of the shares and games per player (a band the run leaves empty
    /// counts as ×1000 off).
    pub fn log_error(&self, found: &[BandActivity]) -> f64 {
        let logs: Vec<f64> = self
            .ratios(found)
            .iter()
            .flat_map(|(_, share, games)| [*share, *games])
            .map(|r| r.unwrap_or(1e-3).max(1e-3).ln().powi(2))
            .collect();
        logs.iter().sum::<f64>() / logs.len().max(1) as f64
    }
}

/// The factor of at least 1 either way.
fn factor(r: f64) -> f64 {
    if r >= 1.0 {
        r
    } else {
        1.0 / r.max(1e-9)
    }
}

impl Kind for ListActivity {
    type Observed = Vec<BandActivity>;

    const NAME: &'static str = "list-activity";
    const KEYS: &'static [&'static str] = &["activity", "month", "lowest", "top", "width"];
    const MEANING: &'static str =
        "each band's share of players who played and games per player who played, against a real list's";
    const TARGET_KEYS: Option<&'static [&'static str]> = Some(&["activity"]);

    fn read(r: &mut Reader, t: &TomlTable, path: &str, dir: &Path) -> Option<Self> {
        r.require(
            t,
            path,
            "activity",
            "a FIDE list file with each player's games in its period",
        );
        let file = r.text(t, path, "activity");
        let month = r.month(t, path, "month");
        let bands = read::bands(r, t, path, (1400, 2500, 100));
        let file = dir.join(file?);
        let (list, month) = read::real_list(r, path, "activity", &file, month)?;
        if list.period_games.iter().all(Option::is_none) {
            r.problem(
                &at(path, "activity"),
                format!("{} gives no games in the list's period: expected a FIDE list (its games column)", file.display()),
            );
            return None;
        }
        let bands = bands?;
        let mut real = vec![BandActivity::default(); bands.count()];
        for (&rating, games) in list.ratings.iter().zip(&list.period_games) {
            if let Some(band) = bands.of(f64::from(rating)) {
                real[band].count(games.unwrap_or(0));
            }
        }
        Some(ListActivity {
            file: file.display().to_string(),
            month,
            bands,
            real,
        })
    }

    fn default_name(&self) -> String {
        format!("activity {}", self.month)
    }

    fn needs(&self, needs: &mut Needs) {
        needs.lists.push(self.month);
    }

    fn empty(&self) -> Vec<BandActivity> {
        vec![BandActivity::default(); self.real.len()]
    }

    fn observe(&self, list: &ListView<'_>, found: &mut Vec<BandActivity>) {
        if list.month != self.month {
            return;
        }
        let Some(whole) = list.whole else { return };
        for ((&listed, &rating), &games) in whole.listed.iter().zip(&whole.rating).zip(&whole.games)
        {
            if let Some(band) = self.bands.of(f64::from(rating)).filter(|_| listed) {
                found[band].count(games);
            }
        }
    }

    fn add(into: &mut Vec<BandActivity>, other: &Vec<BandActivity>) {
        for (a, b) in into.iter_mut().zip(other) {
            a.players += b.players;
            a.played += b.played;
            a.games += b.games;
        }
    }

    /// Each band's real and run figures, how many are within 15 %, the worst factors and the
    /// error; the sizes cancel (shares and rates).
    fn figures(&self, found: &Vec<BandActivity>, _size: f64) -> Vec<Figure> {
        let (shares, games, bands) = self.within(found, 0.15);
        let ratios = self.ratios(found);
        let worst = |pick: fn(&BandRatio) -> Option<f64>| {
            ratios.iter().filter_map(pick).map(factor).reduce(f64::max)
        };
        let whole = |n: usize| Some(n as f64);
        let mut figures = vec![
            Figure::new("shares_within_15", whole(shares), Goal::Shown, "bands"),
            Figure::new("games_within_15", whole(games), Goal::Shown, "bands"),
            Figure::new("bands", whole(bands), Goal::Shown, "bands"),
            Figure::new("share_worst_factor", worst(|r| r.1), Goal::One, "×"),
            Figure::new("games_worst_factor", worst(|r| r.2), Goal::One, "×"),
            Figure::new("error", Some(self.log_error(found)), Goal::Lower, ""),
        ];
        for (band, (real, run)) in self.real.iter().zip(found.iter()).enumerate() {
            let low = self.bands.low(band);
            figures.extend([
                Figure::new(
                    format!("band.{low}.real_share"),
                    real.share(),
                    Goal::Shown,
                    "",
                ),
                Figure::new(format!("band.{low}.share"), run.share(), Goal::Shown, ""),
                Figure::new(
                    format!("band.{low}.real_games"),
                    real.games_per_player(),
                    Goal::Shown,
                    "games",
                ),
                Figure::new(
                    format!("band.{low}.games"),
                    run.games_per_player(),
                    Goal::Shown,
                    "games",
                ),
            ]);
        }
        figures
    }

    fn line(&self, found: &Vec<BandActivity>, _size: f64) -> String {
        let (shares, games, bands) = self.within(found, 0.15);
        let show =
            |v: Option<f64>, digits: usize| v.map_or("-".into(), |v| format!("{v:.digits$}"));
        let each: Vec<String> = self
            .real
            .iter()
            .zip(found.iter())
            .enumerate()
            .map(|(band, (real, run))| {
                format!(
                    "{}: {} / {} played, {} / {} games",
                    self.bands.low(band),
                    show(run.share(), 3),
                    show(real.share(), 3),
                    show(run.games_per_player(), 2),
                    show(real.games_per_player(), 2)
                )
            })
            .collect();
        format!(
            "activity on {}: {shares} of {bands} bands' shares who played and {games} of {bands} games per player who played within 15 % (run / real) · {}",
            self.month,
            each.join(" · ")
        )
    }

    /// `share_weight` × the mean squared log ratio of the bands' shares and games per player.
    fn error(&self, found: &Vec<BandActivity>, _size: f64, share_weight: f64) -> Option<f64> {
        Some(share_weight * self.log_error(found))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::observed_whole;
    use super::*;
    use crate::replay::ListRows;

    fn measure(toml: &str) -> (Option<ListActivity>, Vec<String>) {
        let table: TomlTable = toml.parse().unwrap();
        let mut r = Reader::new(Path::new("calibrate.toml"));
        let m = ListActivity::read(&mut r, &table, "target", Path::new("."));
        (m, r.problems.iter().map(|p| p.to_string()).collect())
    }

    /// The first lines of FIDE's February 2025 list as shipped, by hand: a band's players, those
    /// with games and their games.
    #[test]
    fn a_fide_list_is_read_into_bands() {
        let dir = crate::testing::scratch("list-activity");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("standard-2025-02.csv");
        std::fs::write(
            &path,
            "id,name,federation,sex,title,w_title,o_title,foa_title,rating,games,k,birth_year,flag
1,A,ENG,M,,,,,1450,0,40,2010,
2,B,ENG,M,,,,,1499,4,40,2011,
3,C,ENG,F,,,,,1460,2,40,2009,wi
4,D,ENG,M,,,,,1550,,20,1980,i
5,E,ENG,M,,,,,2710,9,10,1990,
6,F,ENG,M,,,,,1390,5,40,2012,
",
        )
        .unwrap();
        let (m, problems) = measure(&format!(
            "activity = {:?}\nlowest = 1400\ntop = 1600\n",
            path.display().to_string()
        ));
        assert!(problems.is_empty(), "{problems:?}");
        let m = m.unwrap();
        assert_eq!(m.month, Month::parse("2025-02").unwrap());
        assert_eq!(
            m.real,
            [
                BandActivity {
                    players: 3,
                    played: 2,
                    games: 6
                },
                BandActivity {
                    players: 1,
                    played: 0,
                    games: 0
                },
                BandActivity {
                    players: 1,
                    played: 1,
                    games: 9
                },
            ]
        );
        // A run whose 1400s played as much and whose 1600+ played half as often, twice as much.
        let whole = ListRows {
            listed: vec![true, true, true, false, true, true, true],
            rating: vec![1405, 1420, 1480, 1450, 1700, 1800, 1550],
            games: vec![1, 5, 0, 9, 18, 0, 0],
            ..ListRows::default()
        };
        let found = observed_whole(&m, m.month, &whole);
        assert_eq!(found[0], m.real[0]);
        let ratios = m.ratios(&found);
        assert_eq!(ratios[0], (1400, Some(1.0), Some(1.0)));
        // The 1500s: nobody played on either list, so neither has a ratio.
        assert_eq!(ratios[1], (1500, None, None));
        assert_eq!(ratios[2], (1600, Some(0.5), Some(2.0)));
        assert_eq!(m.within(&found, 0.15), (1, 1, 3));
        // Two ratios of 1, one of ½ and one of 2, a missing share and a missing rate (×1000 each).
        let error = (2.0 * 2f64.ln().powi(2) + 2.0 * 1000f64.ln().powi(2)) / 6.0;
        assert!(
            (m.log_error(&found) - error).abs() < 1e-9,
            "{}",
            m.log_error(&found)
        );
    }

    #[test]
    fn a_list_without_games_is_refused() {
        let dir = crate::testing::scratch("list-activity-no-games");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("2025-02.csv");
        std::fs::write(&path, "id,rating\n1,2000\n").unwrap();
        let (m, problems) = measure(&format!("activity = {:?}\n", path.display().to_string()));
        assert!(m.is_none());
        assert!(
            problems.iter().any(|p| p.contains("gives no games")),
            "{problems:?}"
        );
    }
}
