//! Counts of players on real rating lists that a world's replayed lists must reproduce: a list
//! file's players per 100-point band, or published figures (`data/published/fide-pool.csv`: the
//! pool's size and bands that Sonas quotes for 2011 and 2023).

use std::path::Path;

use toml::Table as TomlTable;

use crate::ingest::{IngestError, Table};
use crate::keys::{at, Reader};
use crate::model::Month;

use super::{read, Figure, Goal, Kind, ListView, Needs};

/// How many players a list has in a range of ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    pub month: Month,
    /// The range, inclusive; `None` is open.
    pub low: Option<i32>,
    pub high: Option<i32>,
    /// Players on the real list.
    pub real: f64,
    /// Their mean games rated in the list's period, where the real list gives them (a FIDE
    /// list's games column): how much each rating group plays.
    pub games: Option<f64>,
}

impl Count {
    pub fn contains(&self, rating: i32) -> bool {
        self.low.is_none_or(|l| rating >= l) && self.high.is_none_or(|h| rating <= h)
    }

    /// The range as people read it: `1500-1599`, `2600+`, `below 1400`, `all`.
    pub fn range_text(&self) -> String {
        match (self.low, self.high) {
            (Some(l), Some(h)) => format!("{l}-{h}"),
            (Some(l), None) => format!("{l}+"),
            (None, Some(h)) => format!("below {}", h + 1),
            (None, None) => "all".into(),
        }
    }
}

/// Counts of players that a run's lists must reproduce.
#[derive(Clone, Debug, PartialEq)]
pub struct CountTarget {
    /// `list 2008-01`, or the published file's name.
    pub name: String,
    pub file: String,
    pub counts: Vec<Count>,
}

impl CountTarget {
    /// A real list's players per 100-point band from `lowest`; every rating from `top` up is one
    /// band. With `games` (each player's games in the list's period, `None` where not given), also
    /// each band's mean games per player.
    pub fn from_list(
        file: String,
        month: Month,
        ratings: &[i32],
        games: Option<&[Option<u32>]>,
        lowest: i32,
        top: i32,
    ) -> CountTarget {
        let mut counts: Vec<Count> = (lowest..=top)
            .step_by(100)
            .map(|low| Count {
                month,
                low: Some(low),
                high: (low < top).then_some(low + 99),
                real: 0.0,
                games: games.map(|_| 0.0),
            })
            .collect();
        for (i, &r) in ratings.iter().enumerate() {
            if let Some(c) = counts.iter_mut().find(|c| c.contains(r)) {
                c.real += 1.0;
                if let (Some(sum), Some(games)) = (&mut c.games, games) {
                    *sum += f64::from(games.get(i).copied().flatten().unwrap_or(0));
                }
            }
        }
        for c in &mut counts {
            c.games = c.games.map(|sum| sum / c.real.max(1.0));
        }
        CountTarget {
            name: format!("list {month}"),
            file,
            counts,
        }
    }
}

/// A run's lists against counts of real ones.
#[derive(Clone, Debug, PartialEq)]
pub struct CountDistance {
    pub name: String,
    /// Each count and the run's players in it, at FIDE's size.
    pub counts: Vec<(Count, f64)>,
    /// Each count's games per player on the run's list (`None` where the real list gives no
    /// games or the run has nobody in the range).
    pub games: Vec<Option<f64>>,
}

impl CountDistance {
    /// The run's players over the real count, each count.
    pub fn ratios(&self) -> impl Iterator<Item = (&Count, f64)> + '_ {
        self.counts
            .iter()
            .map(|(c, run)| (c, run / c.real.max(0.5)))
    }

    /// Counts the run has within `within` (0.15: 15 %), and all counts.
    pub fn within(&self, within: f64) -> (usize, usize) {
        count_within(self.ratios(), within)
    }

    /// The count furthest off, as a factor of at least 1 either way.
    pub fn worst(&self) -> Option<(&Count, f64)> {
        furthest(self.ratios())
    }

    /// The run's games per player over the real list's, each count that has both.
    pub fn games_ratios(&self) -> impl Iterator<Item = (&Count, f64)> + '_ {
        self.counts
            .iter()
            .zip(&self.games)
            .filter_map(|((c, _), run)| Some((c, run.as_ref()? / c.games?.max(0.01))))
    }

    /// Counts whose games per player the run has within `within`, and the counts compared.
    pub fn games_within(&self, within: f64) -> (usize, usize) {
        count_within(self.games_ratios(), within)
    }

    /// The count whose games per player are furthest off, as a factor of at least 1 either way.
    pub fn games_worst(&self) -> Option<(&Count, f64)> {
        furthest(self.games_ratios())
    }

    /// Mean squared log ratio over the counts and, where compared, their games per player.
    pub fn error(&self) -> f64 {
        let logs: Vec<f64> = self
            .counts
            .iter()
            .map(|(c, run)| ((run + 0.5) / (c.real + 0.5)).ln())
            .chain(self.games_ratios().map(|(_, r)| r.max(1e-3).ln()))
            .map(|l| l * l)
            .collect();
        logs.iter().sum::<f64>() / logs.len().max(1) as f64
    }
}

/// Of run-over-real ratios, those within `within` of 1, and all of them.
fn count_within<'a>(ratios: impl Iterator<Item = (&'a Count, f64)>, within: f64) -> (usize, usize) {
    ratios.fold((0, 0), |(good, all), (_, r)| {
        (good + usize::from((r - 1.0).abs() <= within), all + 1)
    })
}

/// The ratio furthest from 1, as a factor of at least 1 either way.
fn furthest<'a>(ratios: impl Iterator<Item = (&'a Count, f64)>) -> Option<(&'a Count, f64)> {
    ratios
        .map(|(c, r)| (c, if r >= 1.0 { r } else { 1.0 / r.max(1e-9) }))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// The players a run's list has in one count's range, and their games in the list's period.
#[derive(Clone, Copy, Debug, Default)]
pub struct Found {
    pub players: u64,
    pub games: u64,
}

impl Found {
    /// Games per player (`None` without players).
    pub fn games_per_player(&self) -> Option<f64> {
        (self.players > 0).then(|| self.games as f64 / self.players as f64)
    }
}

/// Players on the replay's lists against counts of real ones: a real list's 100-point bands
/// (`list`), or published counts (`counts`).
#[derive(Clone, Debug)]
pub struct Counts {
    pub target: CountTarget,
}

impl Counts {
    /// The replay's counts at FIDE's size against the real ones.
    pub fn distance(&self, found: &[Found], size: f64) -> CountDistance {
        let counts = &self.target.counts;
        CountDistance {
            name: self.target.name.clone(),
            counts: counts
                .iter()
                .zip(found)
                .map(|(c, f)| (c.clone(), f.players as f64 / size))
                .collect(),
            games: counts
                .iter()
                .zip(found)
                .map(|(c, f)| c.games.and(f.games_per_player()))
                .collect(),
        }
    }

    fn from_list(r: &mut Reader, t: &TomlTable, path: &str, dir: &Path) -> Option<CountTarget> {
        let list = r.text(t, path, "list");
        let month = r.month(t, path, "month");
        let lowest = r.whole(t, path, "lowest", (0, 4000)).unwrap_or(1000) as i32;
        let top = r.whole(t, path, "top", (0, 4000)).unwrap_or(2700) as i32;
        let games = r.boolean(t, path, "games").unwrap_or(false);
        if lowest % 100 != 0 || top % 100 != 0 || top < lowest {
            r.problem(
                &at(path, "top"),
                format!("expected bands of 100 from `lowest` {lowest} to `top` {top}, both multiples of 100"),
            );
            return None;
        }
        let file = dir.join(list?);
        let (list, month) = read::real_list(r, path, "list", &file, month)?;
        Some(CountTarget::from_list(
            file.display().to_string(),
            month,
            &list.ratings,
            games.then_some(list.period_games.as_slice()),
            lowest,
            top,
        ))
    }
}

impl Kind for Counts {
    type Observed = Vec<Found>;

    const NAME: &'static str = "counts";
    const KEYS: &'static [&'static str] = &["counts", "list", "month", "lowest", "top", "games"];
    const MEANING: &'static str =
        "players per band on the replay's lists against a real list's bands or published counts";
    const TARGET_KEYS: Option<&'static [&'static str]> = Some(&["counts", "list"]);

    fn read(r: &mut Reader, t: &TomlTable, path: &str, dir: &Path) -> Option<Self> {
        let target = match (t.contains_key("list"), r.text(t, path, "counts")) {
            (true, _) => Counts::from_list(r, t, path, dir)?,
            (false, Some(counts)) => {
                for key in ["month", "lowest", "top", "games"] {
                    if t.contains_key(key) {
                        r.problem(
                            &at(path, key),
                            "belongs to a `list`, not to published `counts`",
                        );
                    }
                }
                match read_counts(&dir.join(counts)) {
                    Ok(target) => target,
                    Err(e) => {
                        r.problem(&at(path, "counts"), e.to_string());
                        return None;
                    }
                }
            }
            (false, None) => {
                if !t.contains_key("counts") {
                    r.problem(path, "missing: expected `list` (a rating list file) or `counts` (a file of published counts)");
                }
                return None;
            }
        };
        Some(Counts { target })
    }

    fn default_name(&self) -> String {
        self.target.name.clone()
    }

    fn needs(&self, needs: &mut Needs) {
        needs
            .lists
            .extend(self.target.counts.iter().map(|c| c.month));
    }

    fn empty(&self) -> Vec<Found> {
        vec![Found::default(); self.target.counts.len()]
    }

    fn observe(&self, list: &ListView<'_>, found: &mut Vec<Found>) {
        let Some(whole) = list.whole else { return };
        for (count, found) in self.target.counts.iter().zip(found.iter_mut()) {
            if count.month != list.month {
                continue;
            }
            for (&r, &g) in whole.rating.iter().zip(&whole.games) {
                if count.contains(r) {
                    found.players += 1;
                    found.games += u64::from(g);
                }
            }
        }
    }

    fn add(into: &mut Vec<Found>, other: &Vec<Found>) {
        for (a, b) in into.iter_mut().zip(other) {
            a.players += b.players;
            a.games += b.games;
        }
    }

    fn figures(&self, found: &Vec<Found>, size: f64) -> Vec<Figure> {
        let d = self.distance(found, size);
        let whole = |n: usize| Some(n as f64);
        vec![
            Figure::new("within_15", whole(d.within(0.15).0), Goal::Shown, "counts"),
            Figure::new("counts", whole(d.within(0.15).1), Goal::Shown, "counts"),
            Figure::new("worst_factor", d.worst().map(|w| w.1), Goal::One, "×"),
            Figure::new(
                "games_within_15",
                whole(d.games_within(0.15).0),
                Goal::Shown,
                "counts",
            ),
            Figure::new(
                "games_worst_factor",
                d.games_worst().map(|w| w.1),
                Goal::One,
                "×",
            ),
            Figure::new("error", Some(d.error()), Goal::Lower, ""),
        ]
    }

    fn line(&self, found: &Vec<Found>, size: f64) -> String {
        let d = self.distance(found, size);
        let (good, all) = d.within(0.15);
        let worst = d.worst().map_or(String::new(), |(c, f)| {
            format!("worst {} on {}: ×{f:.2}", c.range_text(), c.month)
        });
        let games = match d.games_worst() {
            Some((c, f)) => {
                let (good, all) = d.games_within(0.15);
                format!(
                    " · games per player: {good} of {all} within 15 %, worst {}: ×{f:.2}",
                    c.range_text()
                )
            }
            None => String::new(),
        };
        format!(
            "{}: {good} of {all} counts within 15 % · {worst}{games}",
            d.name
        )
    }

    /// `share_weight` × the mean squared log ratio of the counts (and games per player).
    fn error(&self, found: &Vec<Found>, size: f64, share_weight: f64) -> Option<f64> {
        Some(share_weight * self.distance(found, size).error())
    }
}

const COLUMNS: &str = "month, low, high, players (and a quote)";

/// Reads published counts: one row per count, `month` (YYYY-MM), `low` and `high` (inclusive,
/// empty for open), `players`; other columns (the quote) are kept out.
pub fn read_counts(path: &Path) -> Result<CountTarget, IngestError> {
    let table = Table::open(path, COLUMNS)?;
    let columns = [
        table.require(&["month"])?,
        table.require(&["low"])?,
        table.require(&["high"])?,
        table.require(&["players"])?,
    ];
    let mut counts = Vec::new();
    table.for_each_row(&mut |line, cells| {
        let cells = cells?;
        let text = |i: usize| cells[columns[i]].trim();
        let err = |column: &str, problem: String| table.row_error(line, column, problem);
        let month = table.month_cell(line, "month", text(0))?;
        let bound = |i: usize, column: &str| -> Result<Option<i32>, IngestError> {
            crate::model::parse_rating(text(i)).map_err(|problem| err(column, problem))
        };
        let (low, high) = (bound(1, "low")?, bound(2, "high")?);
        if let (Some(l), Some(h)) = (low, high) {
            if h < l {
                return Err(err("high", format!("{h} is below low {l}")));
            }
        }
        let real = text(3).parse::<u64>().map_err(|_| {
            err(
                "players",
                format!("expected a whole number of players, got {:?}", text(3)),
            )
        })?;
        counts.push(Count {
            month,
            low,
            high,
            real: real as f64,
            games: None,
        });
        Ok(())
    })?;
    if counts.is_empty() {
        return Err(table.nothing_read("counts", "count", COLUMNS));
    }
    Ok(CountTarget {
        name: path
            .file_name()
            .map_or("counts".into(), |n| n.to_string_lossy().into_owned()),
        file: table.file().to_string(),
        counts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sonas_pool_figures_are_read() {
        let t = read_counts(Path::new("data/published/fide-pool.csv")).unwrap();
        assert_eq!(t.counts.len(), 6);
        let c = &t.counts[4];
        assert_eq!(
            (c.month.to_string(), c.low, c.high, c.real),
            ("2023-07".into(), None, Some(1399), 125_000.0)
        );
        assert_eq!(c.range_text(), "below 1400");
        assert!(c.contains(1000) && !c.contains(1400));
        assert_eq!(t.counts[0].range_text(), "all");
    }

    #[test]
    fn a_list_is_counted_in_bands() {
        let m = Month::new(2008, 1).unwrap();
        let t = CountTarget::from_list(
            "l".into(),
            m,
            &[1450, 1500, 1599, 1600, 2650, 2799, 3000],
            Some(&[
                Some(9),
                Some(3),
                None,
                Some(4),
                Some(10),
                Some(20),
                Some(30),
            ]),
            1500,
            2600,
        );
        let real: Vec<f64> = t.counts.iter().map(|c| c.real).collect();
        assert_eq!(
            real,
            [2.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0]
        );
        assert_eq!(t.counts[11].range_text(), "2600+");
        // 1500–1599: 3 and nothing given; 2600+: 10, 20 and 30.
        assert_eq!(t.counts[0].games, Some(1.5));
        assert_eq!(t.counts[1].games, Some(4.0));
        assert_eq!(t.counts[11].games, Some(20.0));
        let d = CountDistance {
            name: "d".into(),
            counts: vec![(t.counts[0].clone(), 2.3), (t.counts[1].clone(), 0.5)],
            games: vec![Some(3.0), None],
        };
        assert_eq!(d.within(0.15), (1, 2));
        assert_eq!(d.worst().unwrap().1, 2.0);
        assert_eq!(d.games_within(0.15), (0, 1));
        assert_eq!(d.games_worst().unwrap().1, 2.0);
        // (ln(2.8/2.5)² + ln(1/1.5)² + ln 2²) / 3.
        let error =
            ((2.8f64 / 2.5).ln().powi(2) + (1.0f64 / 1.5).ln().powi(2) + 2f64.ln().powi(2)) / 3.0;
        assert!((d.error() - error).abs() < 1e-12, "{}", d.error());
    }

    #[test]
    fn bad_counts_name_the_line_and_column() {
        let dir = crate::testing::scratch("counts");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pool.csv");
        std::fs::write(
            &path,
            "month,low,high,players
2023-01,,,400000
2023-13,,,5
",
        )
        .unwrap();
        let e = read_counts(&path).unwrap_err().to_string();
        assert!(e.contains("pool.csv, line 3, column month"), "{e}");
        std::fs::write(
            &path,
            "month,low,high,players
2023-01,1400,1000,5
",
        )
        .unwrap();
        let e = read_counts(&path).unwrap_err().to_string();
        assert!(
            e.contains("line 2, column high: 1000 is below low 1400"),
            "{e}"
        );
    }
}
