//! Ratings against the truth (generated worlds): on each January list, each player's published
//! rating against their truth, the active players (a game in the window before the list) against
//! their equilibrium rating, the reachable truth (`--against equilibrium`, the default), or their
//! true strength (`--against strength`), the inactive ones against true strength: per band, and
//! each group's RMS, level, spread and slope, computed by the study's truth-gap measure's own sums
//! (`simulate::measure::truth_gap`), so that a run and a study give the same figures. Banding by
//! the truth keeps the bands fixed while ratings move; the overall mean does not depend on
//! banding. A negative mean is deflation: ratings below the truth.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use polars::prelude::*;
use serde::Serialize;

use crate::generate::world::gap::{Against, GapSums, Groups};
use crate::model::{Month, PlayerIds};
use crate::named::named_enum;
use crate::plot::{black, ordered, LineChart, Picture, Series, XAxis};

use super::crosstable::Format;
use super::game_source::month_column;
use super::run_files::{ReportError, RunFiles};
use super::run_lists::{Columns, RunLists};
use super::TextTable;
use crate::numbers::{round_to, thousands};
use crate::output::pretty_json;

/// One table of a world by month and id: a column of `truth.parquet` or `equilibrium.parquet`.
type ByMonth = HashMap<Month, HashMap<i64, f32>>;

/// What a generated world knows that no list shows: players' true strength by month
/// (`truth.parquet`) and, on every January list, the equilibrium rating of each player with a
/// game in the window before it (`equilibrium.parquet`); keyed by id.
pub struct Truth {
    strength: ByMonth,
    /// `None` where the world has no `equilibrium.parquet` (written by an older elosim, or with
    /// `generate --no-equilibrium`).
    equilibrium: Option<ByMonth>,
}

impl Truth {
    /// Reads a world's truth: `path` is its directory or its `truth.parquet`, beside which
    /// `equilibrium.parquet` is read when there; `against` equilibrium needs it.
    pub fn read(path: &Path, against: Against) -> Result<Truth, ReportError> {
        let truth = if path.is_dir() {
            path.join("truth.parquet")
        } else {
            path.to_path_buf()
        };
        let strength = read_by_month(&truth, "strength")?;
        let beside: PathBuf = truth.with_file_name("equilibrium.parquet");
        let equilibrium = if beside.is_file() {
            Some(read_by_month(&beside, "rating")?)
        } else if against == Against::Equilibrium {
            return Err(ReportError::NotFound(format!(
                "{}: no equilibrium.parquet beside it, so the reachable truth is not known (a world from an older elosim, or generated with --no-equilibrium): generate the world again, or compare with --against strength",
                truth.display()
            )));
        } else {
            None
        };
        Ok(Truth {
            strength,
            equilibrium,
        })
    }
}

/// `id`, `month` and one number column of a world's table.
fn read_by_month(path: &Path, column: &str) -> Result<ByMonth, ReportError> {
    let table = |e: PolarsError| ReportError::Table {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let file = std::fs::File::open(path).map_err(|e| ReportError::Table {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let df = ParquetReader::new(file)
        .with_columns(Some(vec!["id".into(), "month".into(), column.into()]))
        .finish()
        .map_err(table)?;
    let months = month_column(&df, "month").map_err(table)?;
    let ids = df
        .column("id")
        .and_then(|c| c.cast(&DataType::Int64))
        .map_err(table)?;
    let values = df
        .column(column)
        .and_then(|c| c.cast(&DataType::Float32))
        .map_err(table)?;
    let mut by_month: ByMonth = HashMap::new();
    let bad = |row: usize, message: String| ReportError::Table {
        path: path.to_path_buf(),
        message: format!("row {}: {message}", row + 1),
    };
    for (row, ((m, id), v)) in months
        .iter()
        .zip(ids.i64().map_err(table)?.iter())
        .zip(values.f32().map_err(table)?.iter())
        .enumerate()
    {
        let (Some(id), Some(v)) = (id, v.filter(|v| v.is_finite())) else {
            return Err(bad(
                row,
                format!("expected an id and a number in `{column}`, got an empty or not-a-number value: is this a world's file as elosim generate writes it?"),
            ));
        };
        if by_month.entry(*m).or_default().insert(id, v).is_some() {
            return Err(bad(row, format!("id {id} is given twice on {m}")));
        }
    }
    Ok(by_month)
}

named_enum! {
    /// What the bands group players by.
    pub enum BandBy {
        /// Each player's truth (the equilibrium rating or the true strength): fixed bands while
        /// ratings move (the default).
        Truth = "truth",
        /// Published rating, as crosstables group players.
        Rating = "rating",
    }
}

/// Players and Σ (rating − truth) of one band of one list.
pub type Cell = (u64, f64);

/// Rating against the truth for one run: per January list, per band, and the groups' figures.
#[derive(Clone, Debug)]
pub struct Drift {
    pub name: String,
    pub by: BandBy,
    pub against: Against,
    /// Whether the active and inactive players are told apart (the world's equilibrium known).
    pub split: bool,
    pub width: i32,
    /// Band lower bounds, over all years.
    pub bands: Vec<i32>,
    /// (January, per band, all players, the groups).
    pub years: Vec<(Month, Vec<Cell>, Cell, Groups)>,
}

/// A run's drift from the truth as `--format json` writes it.
#[derive(Serialize)]
pub struct DriftJson<'a> {
    run: &'a str,
    by: &'static str,
    against: &'static str,
    width: i32,
    years: Vec<YearJson>,
}

#[derive(Serialize)]
struct YearJson {
    month: String,
    players: u64,
    mean_diff: Option<f64>,
    active: Option<GroupJson>,
    inactive: Option<GroupJson>,
    bands: Vec<BandJson>,
}

/// A group's figures, as the truth-gap measure names them.
#[derive(Serialize)]
struct GroupJson {
    players: u64,
    rms: Option<f64>,
    level: Option<f64>,
    spread: Option<f64>,
    slope: Option<f64>,
}

impl GroupJson {
    fn of(g: &GapSums) -> GroupJson {
        let r = |v: Option<f64>| v.map(|v| round_to(v, 6));
        GroupJson {
            players: g.players,
            rms: r(g.rms()),
            level: r(g.level()),
            spread: r(g.spread()),
            slope: r(g.slope()),
        }
    }
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
        against: Against,
    ) -> Result<Drift, ReportError> {
        let run = RunFiles::open(run_dir)?;
        let lists = RunLists::read(&run, None, Columns::Ratings)?;
        let PlayerIds::Numbers(ids) = &lists.ids else {
            return Err(ReportError::NotFound(format!(
                "{}: player ids are not numbers, so they cannot be a generated world's",
                run_dir.join("lists.parquet").display()
            )));
        };
        let band = |value: f64| (value.floor() as i32).div_euclid(width) * width;
        let mut sums: std::collections::BTreeMap<Month, (HashMap<i32, Cell>, Groups)> =
            Default::default();
        let no_window = HashMap::new();
        lists.walk(|t, current| -> Result<(), ReportError> {
            let m = lists.months[t];
            let Some(strengths) = truth.strength.get(&m).filter(|_| m.month() == 1) else {
                return Ok(());
            };
            let reached = truth
                .equilibrium
                .as_ref()
                .map_or(&no_window, |e| e.get(&m).unwrap_or(&no_window));
            let (cells, groups) = sums.entry(m).or_default();
            for p in current.players() {
                let id = ids[p as usize] as i64;
                let (Some(r), Some(&s)) = (current.rating(p), strengths.get(&id)) else {
                    continue;
                };
                let (r, s) = (f64::from(r), f64::from(s));
                let e = reached.get(&id).map_or(f64::NAN, |&e| f64::from(e));
                let truth = groups.add_player(r, s, e, against, |_| None);
                let cell = cells
                    .entry(band(match by {
                        BandBy::Truth => truth,
                        BandBy::Rating => r,
                    }))
                    .or_default();
                cell.0 += 1;
                cell.1 += r - truth;
            }
            Ok(())
        })?;
        if sums.is_empty() {
            return Err(ReportError::NotFound(format!(
                "{}: no January list shares players with the truth; is it a replay of this world?",
                run_dir.display()
            )));
        }
        let mut bands: Vec<i32> = sums.values().flat_map(|b| b.0.keys().copied()).collect();
        bands.sort_unstable();
        bands.dedup();
        let years = sums
            .into_iter()
            .map(|(m, (b, groups))| {
                let cells: Vec<Cell> = bands
                    .iter()
                    .map(|k| b.get(k).copied().unwrap_or((0, 0.0)))
                    .collect();
                let all = cells.iter().fold((0, 0.0), |a, c| (a.0 + c.0, a.1 + c.1));
                (m, cells, all, groups)
            })
            .collect();
        Ok(Drift {
            name: run.scenario.name.clone(),
            by,
            against,
            split: truth.equilibrium.is_some(),
            width,
            bands,
            years,
        })
    }

    fn mean((n, sum): Cell) -> Option<f64> {
        (n > 0).then(|| sum / n as f64)
    }

    /// What the active players are set against, for people.
    fn against_text(&self) -> &'static str {
        match self.against {
            Against::Equilibrium => "their equilibrium rating",
            Against::Strength => "their true strength",
        }
    }

    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Csv => {
                let mut out = String::from("run,month,band_low,band_high,players,mean_diff\n");
                for (m, cells, all, groups) in &self.years {
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
                    if self.split {
                        for (name, g) in
                            [("active", &groups.active), ("inactive", &groups.inactive)]
                        {
                            if let Some(mean) = g.level() {
                                out.push_str(&format!(
                                    "{},{m},{name},{name},{},{mean:.2}\n",
                                    self.name, g.players
                                ));
                            }
                        }
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
                for (m, cells, all, _) in &self.years {
                    let mut line = vec![m.to_string(), signed(Drift::mean(*all))];
                    line.extend(cells.iter().map(|c| signed(Drift::mean(*c))));
                    table.push(line);
                }
                let players = self.years.last().map_or(0, |y| y.2 .0);
                let mut out = format!(
                    "{}: published rating minus the truth (rating points), January lists, by band of {}; the active players (a game in the window before the list) against {}, the inactive ones against their true strength\n\n{}\nNegative: deflation (ratings below the truth). {} players compared on the last January list.\n",
                    self.name,
                    match self.by {
                        BandBy::Truth => "the truth",
                        BandBy::Rating => "published rating",
                    },
                    if self.split { self.against_text() } else { "their true strength (the world has no equilibrium.parquet: every player against strength)" },
                    table.render(&[0]),
                    thousands(players)
                );
                if self.split {
                    out.push_str(&format!("\n{}", self.groups_table().render(&[0, 1])));
                }
                out
            }
        }
    }

    /// Each January's groups: players, RMS, level, spread and slope.
    fn groups_table(&self) -> TextTable {
        let mut t = TextTable::default();
        t.push(
            ["list", "players", "n", "RMS", "level", "spread", "slope"]
                .map(String::from)
                .to_vec(),
        );
        let fixed = |v: Option<f64>, d: usize| v.map_or("–".into(), |v| format!("{v:.d$}"));
        for (m, _, _, groups) in &self.years {
            for (name, g) in [
                (
                    format!("active (against {})", self.against_text()),
                    &groups.active,
                ),
                ("inactive (against strength)".to_string(), &groups.inactive),
            ] {
                t.push(vec![
                    m.to_string(),
                    name,
                    thousands(g.players),
                    fixed(g.rms(), 1),
                    signed(g.level()),
                    fixed(g.spread(), 3),
                    fixed(g.slope(), 3),
                ]);
            }
        }
        t
    }

    pub fn json(&self) -> DriftJson<'_> {
        let mean = |cell: Cell| Drift::mean(cell).map(|v| round_to(v, 2));
        DriftJson {
            run: &self.name,
            by: self.by.name(),
            against: self.against.name(),
            width: self.width,
            years: self
                .years
                .iter()
                .map(|(m, cells, all, groups)| YearJson {
                    month: m.to_string(),
                    players: all.0,
                    mean_diff: mean(*all),
                    active: self.split.then(|| GroupJson::of(&groups.active)),
                    inactive: self.split.then(|| GroupJson::of(&groups.inactive)),
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
    // What the truth is: the active players' equilibrium or every player's strength.
    let truth = match drifts.first().map(|d| (d.against, d.split)) {
        Some((Against::Equilibrium, true)) => "the truth (the active players' equilibrium)",
        _ => "true strength",
    };
    Picture::Lines(LineChart {
        x_axis: XAxis::Numbers,
        title: format!("Published rating minus {truth}, January lists"),
        x_label: "year (January list)".to_string(),
        y_label: format!("mean rating − {truth} (rating points)"),
        x_range: (f64::from(first), f64::from(last.max(first + 1))),
        y_range: (low - 20.0, high + 20.0),
        series,
        legend_lower_right: false,
        bands: Vec::new(),
    })
}
