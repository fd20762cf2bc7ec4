//! Ratings against true strength (generated worlds): on each January list, the mean published
//! rating minus the player's true strength that month, per band of true strength. Banding by true
//! strength keeps the bands fixed while ratings move; the overall mean does not depend on banding.
//! A negative mean is deflation: ratings below what the players can do.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use polars::prelude::*;
use serde::Serialize;

use crate::model::{Month, PlayerIds};
use crate::named::named_enum;
use crate::plot::{black, ordered, LineChart, Picture, Series};

use super::crosstable::Format;
use super::game_source::month_column;
use super::run_files::{ReportError, RunFiles};
use super::run_lists::{Columns, RunLists};
use super::TextTable;
use crate::numbers::{round_to, thousands};
use crate::output::pretty_json;

/// Players' true strength by month (a world's `truth.parquet`), keyed by id as text.
pub struct Truth {
    by_month: HashMap<Month, HashMap<i64, f32>>,
}

impl Truth {
    pub fn read(path: &Path) -> Result<Truth, ReportError> {
        let table = |e: PolarsError| ReportError::Table {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let file = std::fs::File::open(path).map_err(|e| ReportError::Table {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let df = ParquetReader::new(file)
            .with_columns(Some(vec!["id".into(), "month".into(), "strength".into()]))
            .finish()
            .map_err(table)?;
        let months = month_column(&df, "month").map_err(table)?;
        let ids = df
            .column("id")
            .and_then(|c| c.cast(&DataType::Int64))
            .map_err(table)?;
        let strength = df
            .column("strength")
            .and_then(|c| c.cast(&DataType::Float32))
            .map_err(table)?;
        let mut by_month: HashMap<Month, HashMap<i64, f32>> = HashMap::new();
        for ((m, id), s) in months
            .iter()
            .zip(ids.i64().map_err(table)?.iter())
            .zip(strength.f32().map_err(table)?.iter())
        {
            if let (Some(id), Some(s)) = (id, s) {
                by_month.entry(*m).or_default().insert(id, s);
            }
        }
        Ok(Truth { by_month })
    }
}

named_enum! {
    /// What the bands group players by.
    pub enum BandBy {
        /// True strength: fixed bands while ratings move (the default).
        Strength = "strength",
        /// Published rating, as crosstables group players.
        Rating = "rating",
    }
}

/// Players and Σ (rating − strength) of one band of one list.
pub type Cell = (u64, f64);

/// Rating minus strength for one run: per January list, per band.
#[derive(Clone, Debug)]
pub struct Drift {
    pub name: String,
    pub by: BandBy,
    pub width: i32,
    /// Band lower bounds, over all years.
    pub bands: Vec<i32>,
    /// (January, per band, all players).
    pub years: Vec<(Month, Vec<Cell>, Cell)>,
}

/// A run's drift from the truth as `--format json` writes it.
#[derive(Serialize)]
pub struct DriftJson<'a> {
    run: &'a str,
    by: &'static str,
    width: i32,
    years: Vec<YearJson>,
}

#[derive(Serialize)]
struct YearJson {
    month: String,
    players: u64,
    mean_diff: Option<f64>,
    bands: Vec<BandJson>,
}

#[derive(Serialize)]
struct BandJson {
    band: i32,
    players: u64,
    mean_diff: Option<f64>,
}

impl Drift {
    /// Compares every January list of the run with the truth of that month.
    pub fn measure(
        run_dir: &Path,
        truth: &Truth,
        width: i32,
        by: BandBy,
    ) -> Result<Drift, ReportError> {
        let run = RunFiles::open(run_dir)?;
        let lists = RunLists::read(&run, None, Columns::Ratings)?;
        let PlayerIds::Numbers(ids) = &lists.ids else {
            return Err(ReportError::NotFound(format!(
                "{}: player ids are not numbers, so they cannot be a generated world's",
                run_dir.join("lists.parquet").display()
            )));
        };
        let band = |rating: i32, strength: f32| {
            let value = match by {
                BandBy::Strength => strength as i32,
                BandBy::Rating => rating,
            };
            value.div_euclid(width) * width
        };
        let mut sums: std::collections::BTreeMap<Month, HashMap<i32, Cell>> = Default::default();
        lists.walk(|t, current| -> Result<(), ReportError> {
            let m = lists.months[t];
            let Some(truth) = truth.by_month.get(&m).filter(|_| m.month() == 1) else {
                return Ok(());
            };
            for p in current.players() {
                let (Some(r), Some(&s)) = (current.rating(p), truth.get(&(ids[p as usize] as i64)))
                else {
                    continue;
                };
                let cell = sums.entry(m).or_default().entry(band(r, s)).or_default();
                cell.0 += 1;
                cell.1 += f64::from(r) - f64::from(s);
            }
            Ok(())
        })?;
        if sums.is_empty() {
            return Err(ReportError::NotFound(format!(
                "{}: no January list shares players with the truth; is it a replay of this world?",
                run_dir.display()
            )));
        }
        let mut bands: Vec<i32> = sums.values().flat_map(|b| b.keys().copied()).collect();
        bands.sort_unstable();
        bands.dedup();
        let years = sums
            .into_iter()
            .map(|(m, b)| {
                let cells: Vec<Cell> = bands
                    .iter()
                    .map(|k| b.get(k).copied().unwrap_or((0, 0.0)))
                    .collect();
                let all = cells.iter().fold((0, 0.0), |a, c| (a.0 + c.0, a.1 + c.1));
                (m, cells, all)
            })
            .collect();
        Ok(Drift {
            name: run.scenario.name.clone(),
            by,
            width,
            bands,
            years,
        })
    }

    fn mean((n, sum): Cell) -> Option<f64> {
        (n > 0).then(|| sum / n as f64)
    }

    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Csv => {
                let mut out = String::from("run,month,band_low,band_high,players,mean_diff\n");
                for (m, cells, all) in &self.years {
                    for (b, c) in self.bands.iter().zip(cells) {
                        if let Some(mean) = Drift::mean(*c) {
                            out.push_str(&format!(
                                "{},{m},{b},{},{},{mean:.2}\n",
                                self.name,
                                b + self.width,
                                c.0
                            ));
                        }
                    }
                    if let Some(mean) = Drift::mean(*all) {
                        out.push_str(&format!("{},{m},all,all,{},{mean:.2}\n", self.name, all.0));
                    }
                }
                out
            }
            Format::Json => pretty_json(&self.json()),
            Format::Text | Format::Md => {
                let mut table = TextTable::default();
                let mut header = vec!["list".to_string(), "all".to_string()];
                header.extend(
                    self.bands
                        .iter()
                        .map(|b| format!("{b}-{}", b + self.width - 1)),
                );
                table.push(header);
                for (m, cells, all) in &self.years {
                    let mut line = vec![m.to_string(), signed(Drift::mean(*all))];
                    line.extend(cells.iter().map(|c| signed(Drift::mean(*c))));
                    table.push(line);
                }
                let players = self.years.last().map_or(0, |y| y.2 .0);
                format!(
                    "{}: published rating minus true strength (rating points), January lists, by band of {}\n\n{}\nNegative: deflation (ratings below strength). {} players compared on the last January list.\n",
                    self.name,
                    match self.by {
                        BandBy::Strength => "true strength",
                        BandBy::Rating => "published rating",
                    },
                    table.render(&[0]),
                    thousands(players)
                )
            }
        }
    }

    pub fn json(&self) -> DriftJson<'_> {
        let mean = |cell: Cell| Drift::mean(cell).map(|v| round_to(v, 2));
        DriftJson {
            run: &self.name,
            by: self.by.name(),
            width: self.width,
            years: self
                .years
                .iter()
                .map(|(m, cells, all)| YearJson {
                    month: m.to_string(),
                    players: all.0,
                    mean_diff: mean(*all),
                    bands: self
                        .bands
                        .iter()
                        .zip(cells)
                        .filter(|(_, c)| c.0 > 0)
                        .map(|(&band, c)| BandJson {
                            band,
                            players: c.0,
                            mean_diff: mean(*c),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

fn signed(value: Option<f64>) -> String {
    value.map_or(String::new(), |v| format!("{v:+.0}"))
}

/// The grey of a run's line in the drift chart's key (its bands are drawn in their colours).
const RUN_KEY: plotters::style::RGBColor = plotters::style::RGBColor(90, 90, 90);

/// The deflation chart: one line per band over the years (and the whole list, in black), for one
/// or several runs (later runs dashed).
pub fn drift_picture(drifts: &[Drift], min_players: u64) -> Picture {
    let width = drifts.first().map_or(1, |d| d.width);
    let year = |m: &Month| f64::from(m.year());
    // Each run's bands with enough players in some year, unnamed: the key names each band's
    // colour and each run's line once.
    let mut banded: Vec<(i32, Series)> = drifts
        .iter()
        .enumerate()
        .flat_map(|(r, drift)| {
            drift.bands.iter().enumerate().map(move |(b, &band)| {
                let points = drift
                    .years
                    .iter()
                    .filter(|y| y.1[b].0 >= min_players)
                    .filter_map(|y| Drift::mean(y.1[b]).map(|v| (year(&y.0), v)))
                    .collect();
                let line = Series {
                    name: String::new(),
                    colour: black(),
                    points,
                    dashed: r > 0,
                    markers: r == 0,
                };
                (band, line)
            })
        })
        .filter(|(_, line)| !line.points.is_empty())
        .collect();
    let drawn: BTreeSet<i32> = banded.iter().map(|(band, _)| *band).collect();
    // A band has one colour in every run, by its place among the bands drawn.
    let colour = |band: i32| ordered(drawn.range(..band).count(), drawn.len());
    for (band, line) in &mut banded {
        line.colour = colour(*band);
    }
    let mut series: Vec<Series> = banded.into_iter().map(|(_, line)| line).collect();
    series.extend(drifts.iter().enumerate().map(|(r, drift)| {
        Series {
            name: String::new(),
            colour: black(),
            points: drift
                .years
                .iter()
                .filter_map(|y| Drift::mean(y.2).map(|v| (year(&y.0), v)))
                .collect(),
            dashed: r > 0,
            markers: true,
        }
    }));
    let values = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (low, high) = values.fold((0.0f64, 0.0f64), |(l, h), v| (l.min(v), h.max(v)));
    let key = |name: String, colour, dashed, markers| Series {
        name,
        colour,
        points: Vec::new(),
        dashed,
        markers,
    };
    series.extend(drawn.iter().map(|&band| {
        key(
            format!("{band}-{}", band + width - 1),
            colour(band),
            false,
            false,
        )
    }));
    series.push(key("all players".to_string(), black(), false, false));
    series.extend(
        drifts
            .iter()
            .enumerate()
            .map(|(r, d)| key(d.name.clone(), RUN_KEY, r > 0, r == 0)),
    );
    let first = drifts
        .iter()
        .flat_map(|d| d.years.first())
        .map(|y| y.0.year())
        .min()
        .unwrap_or(2000);
    let last = drifts
        .iter()
        .flat_map(|d| d.years.last())
        .map(|y| y.0.year())
        .max()
        .unwrap_or(first + 1);
    Picture::Lines(LineChart {
        title: "Published rating minus true strength, January lists".to_string(),
        x_label: "year (January list)".to_string(),
        y_label: "mean rating − true strength (rating points)".to_string(),
        x_range: (f64::from(first), f64::from(last.max(first + 1))),
        y_range: (low - 20.0, high + 20.0),
        series,
        legend_lower_right: false,
        bands: Vec::new(),
    })
}
