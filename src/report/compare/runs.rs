//! Two runs compared over time: every month both have a list, and one player's first divergence.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use polars::prelude::*;

use crate::model::{IdMap, Month};
use crate::plot::{categorical, LineChart, Picture, Series};

use super::super::game_source::month_column;
use super::super::run_files::{id_keys, ReportError, RunFiles};
use super::super::TextTable;
use super::Format;
use crate::numbers::round_to;
use crate::output::pretty_json;

/// A run's lists as (month, player key, rating) rows, players keyed by number.
struct RunRows {
    name: String,
    months: Vec<Month>,
    keys: Vec<i64>,
    ratings: Vec<i32>,
}

fn read_rows(dir: &Path, interner: &mut HashMap<String, i64>) -> Result<RunRows, ReportError> {
    let run = RunFiles::open(dir)?;
    let path = dir.join("lists.parquet");
    let table = |e: PolarsError| ReportError::Table {
        path: path.clone(),
        message: e.to_string(),
    };
    let df = run.read_columns("lists.parquet", &["month", "id", "rating"])?;
    Ok(RunRows {
        name: run.scenario.name.clone(),
        months: month_column(&df, "month").map_err(table)?,
        keys: id_keys(&df, "id", interner).map_err(table)?,
        ratings: df
            .column("rating")
            .and_then(|c| c.i32().cloned())
            .map_err(table)?
            .iter()
            .map(|r| r.unwrap_or(0))
            .collect(),
    })
}

/// One month of two runs: players on both lists, Σ(B − A) and Σ(B − A)².
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MonthDiff {
    pub month: Month,
    pub both: u64,
    pub sum: i64,
    pub squares: i64,
}

impl MonthDiff {
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.both.max(1) as f64
    }
    pub fn rmse(&self) -> f64 {
        (self.squares as f64 / self.both.max(1) as f64).sqrt()
    }
}

/// The monthly series of B − A over every month both runs have a list.
pub struct OverTime {
    pub a: String,
    pub b: String,
    pub months: Vec<MonthDiff>,
}

/// The monthly series as `--format json` writes it.
#[derive(serde::Serialize)]
struct OverTimeJson<'a> {
    a: &'a str,
    b: &'a str,
    months: Vec<MonthJson>,
}

#[derive(serde::Serialize)]
struct MonthJson {
    month: String,
    both: u64,
    mean_diff: f64,
    rmse: f64,
}

/// Rows of one run grouped by month: month → (key → rating), with the fast hash (tens of millions
/// of rows).
fn by_month(rows: &RunRows) -> BTreeMap<Month, IdMap<i64, i32>> {
    let mut out: BTreeMap<Month, IdMap<i64, i32>> = BTreeMap::new();
    for ((m, k), r) in rows.months.iter().zip(&rows.keys).zip(&rows.ratings) {
        out.entry(*m).or_default().insert(*k, *r);
    }
    out
}

impl OverTime {
    pub fn of(dir_a: &Path, dir_b: &Path) -> Result<OverTime, ReportError> {
        let mut interner = HashMap::new();
        let a = read_rows(dir_a, &mut interner)?;
        let b = read_rows(dir_b, &mut interner)?;
        let lists_a = by_month(&a);
        let mut months: BTreeMap<Month, MonthDiff> = BTreeMap::new();
        for ((m, k), rb) in b.months.iter().zip(&b.keys).zip(&b.ratings) {
            let Some(ra) = lists_a.get(m).and_then(|list| list.get(k)) else {
                continue;
            };
            let d = i64::from(rb - ra);
            let entry = months.entry(*m).or_insert(MonthDiff {
                month: *m,
                ..MonthDiff::default()
            });
            entry.both += 1;
            entry.sum += d;
            entry.squares += d * d;
        }
        if months.is_empty() {
            return Err(ReportError::NotFound(format!(
                "{} and {} share no player on any month: are they runs of the same games?",
                dir_a.display(),
                dir_b.display()
            )));
        }
        Ok(OverTime {
            a: a.name,
            b: b.name,
            months: months.into_values().collect(),
        })
    }

    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Csv => {
                let mut out = String::from("month,both,mean_diff,rmse\n");
                for m in &self.months {
                    out.push_str(&format!(
                        "{},{},{:.3},{:.3}\n",
                        m.month,
                        m.both,
                        m.mean(),
                        m.rmse()
                    ));
                }
                out
            }
            Format::Json => pretty_json(&OverTimeJson {
                a: &self.a,
                b: &self.b,
                months: self
                    .months
                    .iter()
                    .map(|m| MonthJson {
                        month: m.month.to_string(),
                        both: m.both,
                        mean_diff: round_to(m.mean(), 3),
                        rmse: round_to(m.rmse(), 3),
                    })
                    .collect(),
            }),
            Format::Text | Format::Md => {
                let mut table = TextTable::default();
                table.push(
                    ["list", "both", "mean B − A", "RMSE"]
                        .map(String::from)
                        .to_vec(),
                );
                for m in &self.months {
                    table.push(vec![
                        m.month.to_string(),
                        crate::numbers::thousands(m.both),
                        format!("{:+.1}", m.mean()),
                        format!("{:.1}", m.rmse()),
                    ]);
                }
                format!(
                    "A = {}, B = {}: every month both runs have a list\n\n{}",
                    self.a,
                    self.b,
                    table.render(&[0])
                )
            }
        }
    }

    pub fn picture(&self) -> Picture {
        let x = |m: Month| f64::from(m.year()) + f64::from(m.month() - 1) / 12.0;
        let mean: Vec<(f64, f64)> = self.months.iter().map(|m| (x(m.month), m.mean())).collect();
        let rmse: Vec<(f64, f64)> = self.months.iter().map(|m| (x(m.month), m.rmse())).collect();
        let low = mean.iter().map(|p| p.1).fold(0.0, f64::min);
        let high = rmse.iter().chain(&mean).map(|p| p.1).fold(1.0, f64::max);
        let first = mean.first().map_or(0.0, |p| p.0);
        let last = mean.last().map_or(1.0, |p| p.0).max(first + 1.0 / 12.0);
        Picture::Lines(LineChart {
            title: format!("{} − {}, list by list", self.b, self.a),
            x_label: "list (year)".to_string(),
            y_label: "rating points".to_string(),
            x_range: (first, last),
            y_range: (low * 1.1 - 1.0, high * 1.1 + 1.0),
            series: vec![
                Series {
                    name: "mean difference B − A".to_string(),
                    colour: categorical(0),
                    points: mean,
                    dashed: false,
                    markers: false,
                },
                Series {
                    name: "RMSE".to_string(),
                    colour: categorical(1),
                    points: rmse,
                    dashed: false,
                    markers: false,
                },
            ],
            legend_lower_right: false,
        })
    }
}

/// One player in two runs: the first list where their ratings differ, with the lists around it.
pub fn explain(dir_a: &Path, dir_b: &Path, id: &str) -> Result<String, ReportError> {
    let mut interner = HashMap::new();
    let a = read_rows(dir_a, &mut interner)?;
    let b = read_rows(dir_b, &mut interner)?;
    let key = id
        .parse::<i64>()
        .ok()
        .filter(|_| interner.is_empty())
        .or_else(|| interner.get(id).copied());
    let Some(key) = key else {
        return Err(ReportError::NotFound(format!(
            "player {id} is on no list of either run"
        )));
    };
    let history = |rows: &RunRows| -> BTreeMap<Month, i32> {
        rows.keys
            .iter()
            .enumerate()
            .filter(|(_, k)| **k == key)
            .map(|(i, _)| (rows.months[i], rows.ratings[i]))
            .collect()
    };
    let (ha, hb) = (history(&a), history(&b));
    if ha.is_empty() && hb.is_empty() {
        return Err(ReportError::NotFound(format!(
            "player {id} is on no list of either run"
        )));
    }
    let mut months: Vec<Month> = ha.keys().chain(hb.keys()).copied().collect();
    months.sort_unstable();
    months.dedup();
    let show =
        |m: &Month, h: &BTreeMap<Month, i32>| h.get(m).map_or("-".to_string(), i32::to_string);
    let Some(first) = months.iter().position(|m| ha.get(m) != hb.get(m)) else {
        return Ok(format!(
            "Player {id} has the same rating on every list of {} and {} ({} lists).\n",
            a.name,
            b.name,
            months.len()
        ));
    };
    let mut table = TextTable::default();
    table.push(vec!["list".into(), a.name.clone(), b.name.clone()]);
    for m in &months[first.saturating_sub(2)..(first + 3).min(months.len())] {
        table.push(vec![m.to_string(), show(m, &ha), show(m, &hb)]);
    }
    let month = months[first];
    Ok(format!(
        "Player {id}: the runs first differ on the {month} list.\n\n{}\nSee each calculation:\n  elosim explain {} --player {id} --period {month}\n  elosim explain {} --player {id} --period {month}\n",
        table.render(&[0]),
        dir_a.display(),
        dir_b.display()
    ))
}
