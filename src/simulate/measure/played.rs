//! How many of a list's players played: FIDE's players with games in each list's period, all of
//! them and those of published K 10 (once rated 2400) and K 40 (new or junior), list by list
//! (`data/fide-activity/`), against the replay's lists at FIDE's size. A list's players who played
//! are its listed rows with a game rated on it, as FIDE's lists count a player's games of the
//! period. The lists of a span may be set aside (`aside_from`, `aside_to`: COVID's, when FIDE's
//! players hardly played and a world's shutdown is a single share of play).

use std::path::Path;

use toml::Table as TomlTable;

use crate::ingest::{IngestError, Table};
use crate::keys::{at, Reader};
use crate::model::Month;
use crate::plot::{categorical, LineChart, Picture, Series, XAxis};

use super::{Figure, Goal, Kind, ListView, Needs};

/// FIDE's players who played on one list: all, K 10 and K 40.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Played {
    pub all: u64,
    pub k10: u64,
    pub k40: u64,
}

impl Played {
    fn add(&mut self, other: &Played) {
        self.all += other.all;
        self.k10 += other.k10;
        self.k40 += other.k40;
    }
}

/// Players who played per list against FIDE's, from `from` to `to` without the lists set aside.
#[derive(Clone, Debug)]
pub struct PlayedLists {
    pub file: String,
    /// FIDE's figures of each list compared, in order.
    pub real: Vec<(Month, Played)>,
}

/// The run's figures against FIDE's, each list's ratio at FIDE's size.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedRatios {
    /// Per list: the month, players who played, K 10 players who played, K 40 players who played,
    /// the K 10 share of them and the K 40 share, each the run's over FIDE's (NaN where the run
    /// has none to divide).
    pub lists: Vec<(Month, [f64; 5])>,
}

/// The ratios' names, in `PlayedRatios::lists`' order.
const RATIOS: [&str; 5] = ["played", "k10", "k40", "k10_share", "k40_share"];

impl PlayedRatios {
    /// The mean of one ratio over the lists (`None` without a list).
    pub fn mean(&self, which: usize) -> Option<f64> {
        let values: Vec<f64> = self
            .lists
            .iter()
            .map(|(_, r)| r[which])
            .filter(|v| v.is_finite())
            .collect();
        (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
    }

    /// The mean ratio of the players who played over each year's lists, year by year.
    pub fn by_year(&self) -> Vec<(i32, f64)> {
        let mut years: Vec<(i32, f64, usize)> = Vec::new();
        for (m, r) in self.lists.iter().filter(|(_, r)| r[0].is_finite()) {
            match years.last_mut() {
                Some((year, sum, n)) if *year == m.year() => {
                    *sum += r[0];
                    *n += 1;
                }
                _ => years.push((m.year(), r[0], 1)),
            }
        }
        years
            .into_iter()
            .map(|(year, sum, n)| (year, sum / n as f64))
            .collect()
    }

    /// The list whose players who played are furthest off, as a factor of at least 1 either way.
    pub fn worst(&self) -> Option<(Month, f64)> {
        self.lists
            .iter()
            .filter(|(_, r)| r[0].is_finite())
            .map(|&(m, r)| {
                (
                    m,
                    if r[0] >= 1.0 {
                        r[0]
                    } else {
                        1.0 / r[0].max(1e-9)
                    },
                )
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The mean over the lists of the squared logs of the players who played and of the K 10 and
    /// K 40 shares (a list where the run has nobody who played counts as ×1000 off).
    pub fn error(&self) -> f64 {
        let logs: Vec<f64> = self
            .lists
            .iter()
            .flat_map(|(_, r)| [r[0], r[3], r[4]])
            .map(|v| if v.is_finite() { v.max(1e-3) } else { 1e-3 })
            .map(|v| v.ln().powi(2))
            .collect();
        logs.iter().sum::<f64>() / logs.len().max(1) as f64
    }
}

impl PlayedLists {
    /// The run's players who played (summed over its seeds, `size` times FIDE's) against FIDE's.
    pub fn ratios(&self, found: &[Played], size: f64) -> PlayedRatios {
        let lists = self
            .real
            .iter()
            .zip(found)
            .map(|(&(month, real), run)| {
                let ratio = |run: u64, real: u64| run as f64 / size / real as f64;
                let share = |run: u64, run_all: u64, real: u64, real_all: u64| {
                    (run as f64 / run_all as f64) / (real as f64 / real_all as f64)
                };
                (
                    month,
                    [
                        ratio(run.all, real.all),
                        ratio(run.k10, real.k10),
                        ratio(run.k40, real.k40),
                        share(run.k10, run.all, real.k10, real.all),
                        share(run.k40, run.all, real.k40, real.all),
                    ],
                )
            })
            .collect();
        PlayedRatios { lists }
    }
}

impl PlayedLists {
    /// FIDE's players who played per list against the run's at FIDE's size, one line each, broken
    /// where lists are set aside.
    pub fn picture(&self, found: &[Played], size: f64, run: &str) -> Picture {
        let x = |m: Month| f64::from(m.year()) + f64::from(m.month() - 1) / 12.0;
        let fide: Vec<(Month, f64)> = self.real.iter().map(|(m, p)| (*m, p.all as f64)).collect();
        let world: Vec<(Month, f64)> = self
            .real
            .iter()
            .zip(found)
            .map(|((m, _), p)| (*m, p.all as f64 / size))
            .collect();
        let mut series = Vec::new();
        for (i, (name, points)) in [
            ("FIDE's players who played".to_string(), fide),
            (format!("{run}'s, at FIDE's size"), world),
        ]
        .into_iter()
        .enumerate()
        {
            // One line per run of consecutive lists; only the first is named in the legend.
            for (j, run) in consecutive(&points).into_iter().enumerate() {
                series.push(Series {
                    name: if j == 0 { name.clone() } else { String::new() },
                    colour: categorical(i),
                    points: run.iter().map(|&(m, v)| (x(m), v)).collect(),
                    dashed: false,
                    markers: false,
                });
            }
        }
        let high = series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .fold(1.0, f64::max);
        let first = self.real.first().map_or(0.0, |(m, _)| x(*m));
        let last = self
            .real
            .last()
            .map_or(1.0, |(m, _)| x(*m))
            .max(first + 1.0 / 12.0);
        Picture::Lines(LineChart {
            x_axis: XAxis::Numbers,
            title: "players who played per list".to_string(),
            x_label: "list (year)".to_string(),
            y_label: "players with a game rated on the list".to_string(),
            x_range: (first, last),
            y_range: (0.0, high * 1.1),
            series,
            legend_lower_right: true,
            bands: Vec::new(),
        })
    }
}

/// The runs of consecutive months in `points` (in order).
fn consecutive(points: &[(Month, f64)]) -> Vec<&[(Month, f64)]> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=points.len() {
        if i == points.len() || points[i].0 != points[i - 1].0.plus(1) {
            runs.push(&points[start..i]);
            start = i;
        }
    }
    runs
}

impl Kind for PlayedLists {
    type Observed = Vec<Played>;

    const NAME: &'static str = "played";
    const KEYS: &'static [&'static str] = &["played", "from", "to", "aside_from", "aside_to"];
    const MEANING: &'static str =
        "players who played per list, and the K 10 and K 40 shares of them, against FIDE's";
    const TARGET_KEYS: Option<&'static [&'static str]> = Some(&["played"]);

    fn read(r: &mut Reader, t: &TomlTable, path: &str, dir: &Path) -> Option<Self> {
        let file = r.text(t, path, "played");
        r.require(
            t,
            path,
            "played",
            "a file of FIDE's players who played per list, such as \"data/fide-activity/k-activity-2015-2026.csv\"",
        );
        let (from, to) = (r.month(t, path, "from"), r.month(t, path, "to"));
        let aside = match (r.month(t, path, "aside_from"), r.month(t, path, "aside_to")) {
            (Some(a), Some(b)) if b >= a => Some((a, b)),
            (Some(a), Some(b)) => {
                r.problem(
                    &at(path, "aside_to"),
                    format!("{b} is before `aside_from` {a}"),
                );
                None
            }
            (None, None) => None,
            (a, _) => {
                let missing = if a.is_some() {
                    "aside_to"
                } else {
                    "aside_from"
                };
                r.problem(
                    &at(path, missing),
                    "missing: lists are set aside from `aside_from` to `aside_to`, both given",
                );
                None
            }
        };
        let file = dir.join(file?);
        let all = match read_played(&file) {
            Ok(all) => all,
            Err(e) => {
                r.problem(&at(path, "played"), e.to_string());
                return None;
            }
        };
        let real: Vec<(Month, Played)> = all
            .into_iter()
            .filter(|(m, _)| from.is_none_or(|f| *m >= f) && to.is_none_or(|t| *m <= t))
            .filter(|(m, _)| aside.is_none_or(|(a, b)| *m < a || *m > b))
            .collect();
        if real.is_empty() {
            r.problem(
                &at(path, "from"),
                format!(
                    "no list of {} lies from `from` to `to` outside the lists set aside",
                    file.display()
                ),
            );
            return None;
        }
        Some(PlayedLists {
            file: file.display().to_string(),
            real,
        })
    }

    fn default_name(&self) -> String {
        "played".into()
    }

    fn needs(&self, needs: &mut Needs) {
        needs.lists.extend(self.real.iter().map(|(m, _)| *m));
    }

    fn empty(&self) -> Vec<Played> {
        vec![Played::default(); self.real.len()]
    }

    fn observe(&self, list: &ListView<'_>, found: &mut Vec<Played>) {
        let Some(whole) = list.whole else { return };
        let Ok(i) = self.real.binary_search_by_key(&list.month, |(m, _)| *m) else {
            return;
        };
        let played = &mut found[i];
        for ((&listed, &games), &k) in whole.listed.iter().zip(&whole.games).zip(&whole.k) {
            if listed && games > 0 {
                played.all += 1;
                played.k10 += u64::from(k == 10);
                played.k40 += u64::from(k == 40);
            }
        }
    }

    fn add(into: &mut Vec<Played>, other: &Vec<Played>) {
        for (a, b) in into.iter_mut().zip(other) {
            a.add(b);
        }
    }

    fn figures(&self, found: &Vec<Played>, size: f64) -> Vec<Figure> {
        let ratios = self.ratios(found, size);
        let mut figures: Vec<Figure> = RATIOS
            .iter()
            .enumerate()
            .map(|(i, name)| Figure::new(format!("{name}_ratio"), ratios.mean(i), Goal::One, "×"))
            .collect();
        figures.push(Figure::new(
            "worst_factor",
            ratios.worst().map(|w| w.1),
            Goal::One,
            "×",
        ));
        figures.push(Figure::new(
            "lists",
            Some(self.real.len() as f64),
            Goal::Shown,
            "lists",
        ));
        figures.push(Figure::new("error", Some(ratios.error()), Goal::Lower, ""));
        figures
    }

    fn line(&self, found: &Vec<Played>, size: f64) -> String {
        let ratios = self.ratios(found, size);
        let mean = |i: usize| ratios.mean(i).map_or("-".into(), |v| format!("×{v:.2}"));
        let worst = ratios
            .worst()
            .map_or(String::new(), |(m, f)| format!(", worst {m}: ×{f:.2}"));
        let years: Vec<String> = ratios
            .by_year()
            .iter()
            .map(|(year, r)| format!("{year} ×{r:.2}"))
            .collect();
        format!(
            "players who played on {} lists: ×{} FIDE's on average{worst}; K 10 {}, K 40 {}; K 10 share {}, K 40 share {} · by year: {}",
            self.real.len(),
            mean(0).trim_start_matches('×'),
            mean(1),
            mean(2),
            mean(3),
            mean(4),
            years.join(", ")
        )
    }

    /// `share_weight` × the mean squared log ratio of the players who played and their shares.
    fn error(&self, found: &Vec<Played>, size: f64, share_weight: f64) -> Option<f64> {
        Some(share_weight * self.ratios(found, size).error())
    }
}

const COLUMNS: &str = "list, played_total, played_K10, played_K40";

/// Reads FIDE's players who played per list: one row per list, `list` (YYYY-MM), `played_total`,
/// `played_K10`, `played_K40`; other columns are kept out. The lists in order, each once.
pub fn read_played(path: &Path) -> Result<Vec<(Month, Played)>, IngestError> {
    let table = Table::open(path, COLUMNS)?;
    let columns = [
        table.require(&["list"])?,
        table.require(&["played_total"])?,
        table.require(&["played_K10"])?,
        table.require(&["played_K40"])?,
    ];
    let mut lists: Vec<(Month, Played)> = Vec::new();
    table.for_each_row(&mut |line, cells| {
        let cells = cells?;
        let text = |i: usize| cells[columns[i]].trim();
        let err = |column: &str, problem: String| table.row_error(line, column, problem);
        let month = table.month_cell(line, "list", text(0))?;
        if let Some(&(last, _)) = lists.last() {
            if month <= last {
                return Err(err(
                    "list",
                    format!(
                        "{month} does not follow {last}: expected the lists in order, each once"
                    ),
                ));
            }
        }
        let number = |i: usize, column: &str| {
            text(i).parse::<u64>().map_err(|_| {
                err(
                    column,
                    format!("expected a whole number of players, got {:?}", text(i)),
                )
            })
        };
        let played = Played {
            all: number(1, "played_total")?,
            k10: number(2, "played_K10")?,
            k40: number(3, "played_K40")?,
        };
        if played.k10 + played.k40 > played.all {
            return Err(err(
                "played_total",
                format!(
                    "{} is below the K 10 and K 40 players who played ({} and {})",
                    played.all, played.k10, played.k40
                ),
            ));
        }
        lists.push((month, played));
        Ok(())
    })?;
    if lists.is_empty() {
        return Err(table.nothing_read("players who played", "list", COLUMNS));
    }
    Ok(lists)
}

#[cfg(test)]
mod tests {
    use super::super::testing::observed_whole;
    use super::*;
    use crate::replay::ListRows;

    fn month(text: &str) -> Month {
        Month::parse(text).unwrap()
    }

    fn measure(toml: &str) -> (Option<PlayedLists>, Vec<String>) {
        let table: TomlTable = toml.parse().unwrap();
        let mut r = Reader::new(Path::new("calibrate.toml"));
        let m = PlayedLists::read(&mut r, &table, "target", Path::new("."));
        (m, r.problems.iter().map(|p| p.to_string()).collect())
    }

    #[test]
    fn fides_series_is_read_with_covid_set_aside() {
        let (m, problems) = measure(
            "played = \"data/fide-activity/k-activity-2015-2026.csv\"\nfrom = \"2015-01\"\nto = \"2025-12\"\naside_from = \"2020-04\"\naside_to = \"2021-06\"\n",
        );
        assert!(problems.is_empty(), "{problems:?}");
        let m = m.unwrap();
        // February 2015 – December 2025 is 131 lists, less the 15 of April 2020 – June 2021.
        assert_eq!(m.real.len(), 116);
        assert_eq!(m.real[0].0, month("2015-02"));
        assert_eq!(
            m.real[0].1,
            Played {
                all: 29967,
                k10: 1684,
                k40: 12688
            }
        );
        assert!(!m.real.iter().any(|(l, _)| *l == month("2020-06")));
        assert_eq!(m.real.last().unwrap().0, month("2025-12"));
    }

    #[test]
    fn a_runs_lists_are_counted_and_set_against_fides() {
        let m = PlayedLists {
            file: "f".into(),
            real: vec![
                (
                    month("2025-01"),
                    Played {
                        all: 100,
                        k10: 10,
                        k40: 50,
                    },
                ),
                (
                    month("2025-02"),
                    Played {
                        all: 50,
                        k10: 5,
                        k40: 20,
                    },
                ),
            ],
        };
        // Five rows: one who left the list, one without games; K 10, K 40 and K 20 who played.
        let whole = ListRows {
            listed: vec![false, true, true, true, true],
            games: vec![3, 0, 4, 9, 1],
            k: vec![40, 40, 10, 40, 20],
            ..ListRows::default()
        };
        let mut found = observed_whole(&m, month("2025-02"), &whole);
        assert_eq!(found[0], Played::default());
        assert_eq!(
            found[1],
            Played {
                all: 3,
                k10: 1,
                k40: 1
            }
        );
        // A world of a tenth of FIDE's size whose January had 12 who played, 1 of K 10 and 3 of
        // K 40: ×1.2, ×1, ×0.6; shares ×(1/12)/(1/10) and ×(3/12)/(1/2).
        found[0] = Played {
            all: 12,
            k10: 1,
            k40: 3,
        };
        let ratios = m.ratios(&found, 0.1);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        let jan = ratios.lists[0].1;
        assert!(close(jan[0], 1.2) && close(jan[1], 1.0) && close(jan[2], 0.6));
        assert!(close(jan[3], 10.0 / 12.0) && close(jan[4], 0.5));
        // February: 3 at a tenth against 50 is ×0.6; K 10 share (1/3)/(1/10), K 40 (1/3)/(2/5).
        let feb = ratios.lists[1].1;
        assert!(close(feb[0], 0.6) && close(feb[3], 10.0 / 3.0) && close(feb[4], 5.0 / 6.0));
        assert!(close(ratios.mean(0).unwrap(), 0.9));
        assert_eq!(ratios.by_year().len(), 1);
        assert!(close(ratios.by_year()[0].1, 0.9));
        assert_eq!(ratios.worst().unwrap().0, month("2025-02"));
        let logs = [1.2f64, 10.0 / 12.0, 0.5, 0.6, 10.0 / 3.0, 5.0 / 6.0];
        let error = logs.iter().map(|v| v.ln().powi(2)).sum::<f64>() / 6.0;
        assert!(close(ratios.error(), error), "{}", ratios.error());
    }

    #[test]
    fn the_picture_breaks_its_lines_where_lists_are_set_aside() {
        let (m, _) = measure(
            "played = \"data/fide-activity/k-activity-2015-2026.csv\"\nfrom = \"2019-11\"\nto = \"2021-08\"\naside_from = \"2020-04\"\naside_to = \"2021-06\"\n",
        );
        let m = m.unwrap();
        // 2019-11 to 2020-03, then 2021-07 and 2021-08; a world of half FIDE's size.
        let found: Vec<Played> = m
            .real
            .iter()
            .map(|(_, p)| Played {
                all: p.all / 2,
                ..*p
            })
            .collect();
        let Picture::Lines(chart) = m.picture(&found, 0.5, "w") else {
            panic!("a line chart");
        };
        let lines: Vec<(&str, usize)> = chart
            .series
            .iter()
            .map(|s| (s.name.as_str(), s.points.len()))
            .collect();
        assert_eq!(
            lines,
            [
                ("FIDE's players who played", 5),
                ("", 2),
                ("w's, at FIDE's size", 5),
                ("", 2)
            ]
        );
        // November 2019: 49,285 who played (FIDE's); the world's 24,642 at half size, 49,284 at FIDE's.
        assert_eq!(chart.series[0].points[0], (2019.0 + 10.0 / 12.0, 49_285.0));
        assert_eq!(chart.series[2].points[0].1, 49_284.0);
        assert_eq!(chart.series[1].points[0].0, 2021.5);
        let years: Vec<i32> = m
            .ratios(&found, 0.5)
            .by_year()
            .iter()
            .map(|y| y.0)
            .collect();
        assert_eq!(years, [2019, 2020, 2021]);
    }

    #[test]
    fn bad_files_and_keys_are_named() {
        let dir = crate::testing::scratch("played");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("k.csv");
        let header = "list,played_total,played_K10,played_K40\n";
        std::fs::write(
            &path,
            format!("{header}2025-01,100,10,50\n2025-01,90,9,40\n"),
        )
        .unwrap();
        let e = read_played(&path).unwrap_err().to_string();
        assert!(
            e.contains("k.csv, line 3, column list: 2025-01 does not follow 2025-01"),
            "{e}"
        );
        std::fs::write(&path, format!("{header}2025-01,10,10,50\n")).unwrap();
        let e = read_played(&path).unwrap_err().to_string();
        assert!(
            e.contains("line 2, column played_total: 10 is below"),
            "{e}"
        );
        std::fs::write(&path, format!("{header}2025-01,many,10,50\n")).unwrap();
        let e = read_played(&path).unwrap_err().to_string();
        assert!(
            e.contains("expected a whole number of players, got \"many\""),
            "{e}"
        );
        let (_, problems) = measure(&format!(
            "played = {:?}\naside_from = \"2020-04\"\n",
            path.display().to_string()
        ));
        assert!(
            problems
                .iter()
                .any(|p| p.contains("aside_to") && p.contains("both given")),
            "{problems:?}"
        );
        std::fs::write(&path, format!("{header}2025-01,100,10,50\n")).unwrap();
        let (m, problems) = measure(&format!(
            "played = {:?}\nfrom = \"2026-01\"\n",
            path.display().to_string()
        ));
        assert!(m.is_none());
        assert!(
            problems.iter().any(|p| p.contains("no list of")),
            "{problems:?}"
        );
    }
}
