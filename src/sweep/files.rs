//! A finished study's files, each written under a temporary name and renamed when complete:
//! `results.parquet` and `results.csv` (one row per (world, candidate, seed): `world` (left out for
//! one history of real games, which is no world), `candidate`, `seed`, `label`, each parameter
//! under its key path, each figure under `measure.figure`),
//! `summary.txt`, `summary.md`, `summary.json`, the pictures and `report.html`. None of them holds
//! a time, so the same study gives the same bytes whatever the threads, the order the rows arrived
//! in, or the machines that shared it; the times go to `timings.json`.

use std::path::{Path, PathBuf};

use polars::prelude::*;
use serde::Serialize;

use crate::keys::{Domain, KeyValue};
use crate::output::tables::{table_error, write_parquet};
use crate::output::{pretty_json, write_file, OutputError};

use super::journal::{Row, WorldLine};
use super::study::Study;
use super::worlds::{Summaries, Verification};

/// Writes every file of a finished study into `dir`; returns the files written.
pub fn write_study(
    dir: &Path,
    summary: &Summaries<'_>,
    rows: &[Row],
) -> Result<Vec<PathBuf>, OutputError> {
    let study = summary.study;
    std::fs::create_dir_all(dir).map_err(|source| OutputError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::new();
    let parquet = dir.join("results.parquet");
    staged(&parquet, |tmp| {
        let mut frame = results(study, rows).map_err(table_error(tmp))?;
        write_parquet(tmp, &mut frame)
    })?;
    written.push(parquet);
    for (name, text) in [
        ("results.csv", results_csv(study, rows)),
        ("summary.txt", summary.text()),
        ("summary.md", summary.markdown()),
        ("summary.json", summary.json()),
    ] {
        let path = dir.join(name);
        write_file(&path, text.as_bytes())?;
        written.push(path);
    }
    written.push(write_report(dir, summary, None)?);
    for (stem, picture) in summary.pictures().into_iter().flatten() {
        let path = dir.join(format!("{stem}.png"));
        picture.save(&path).map_err(|e| OutputError::Io {
            path: path.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        written.push(path);
    }
    Ok(written)
}

/// Writes `report.html` (with the verification when there is one); returns its path.
pub fn write_report(
    dir: &Path,
    summary: &Summaries<'_>,
    verified: Option<&Verification<'_>>,
) -> Result<PathBuf, OutputError> {
    let path = dir.join("report.html");
    write_file(&path, super::html::page(summary, verified).as_bytes())?;
    Ok(path)
}

/// Writes a file through `write` under a temporary name beside it, then renames it.
pub fn staged(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), OutputError>,
) -> Result<(), OutputError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let result = write(&tmp).and_then(|()| {
        std::fs::rename(&tmp, path).map_err(|source| OutputError::Io {
            path: path.to_path_buf(),
            source,
        })
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn results(study: &Study, rows: &[Row]) -> PolarsResult<DataFrame> {
    let mut columns: Vec<Column> = Vec::new();
    if study.input.is_world() {
        columns.push(
            StringChunked::from_iter_values("world".into(), rows.iter().map(|r| r.world.as_str()))
                .into_series()
                .into(),
        );
    }
    columns.extend::<[Column; 3]>([
        UInt32Chunked::from_iter_values("candidate".into(), rows.iter().map(|r| r.candidate))
            .into_series()
            .into(),
        UInt64Chunked::from_iter_values("seed".into(), rows.iter().map(|r| r.seed))
            .into_series()
            .into(),
        StringChunked::from_iter_values("label".into(), rows.iter().map(|r| r.label.as_str()))
            .into_series()
            .into(),
    ]);
    for (k, p) in study.parameters.iter().enumerate() {
        let name = p.path.to_string();
        // A number's column holds numbers; any other kind of value's, text.
        columns.push(if matches!(p.domain, Domain::Number { .. }) {
            Float64Chunked::from_iter_options(
                name.as_str().into(),
                rows.iter()
                    .map(|r| r.values[k].as_ref().and_then(KeyValue::number)),
            )
            .into_series()
            .into()
        } else {
            StringChunked::from_iter_options(
                name.as_str().into(),
                rows.iter()
                    .map(|r| r.values[k].as_ref().map(KeyValue::to_string)),
            )
            .into_series()
            .into()
        });
    }
    for (f, (name, _, _)) in study.columns().iter().enumerate() {
        columns.push(
            Float64Chunked::from_iter_options(
                name.as_str().into(),
                rows.iter().map(|r| r.figures[f]),
            )
            .into_series()
            .into(),
        );
    }
    DataFrame::new(rows.len(), columns)
}

/// A number as CSV writes it: the shortest text that reads back the same; empty for none.
fn csv_number(x: Option<f64>) -> String {
    x.map(|x| format!("{x}")).unwrap_or_default()
}

fn results_csv(study: &Study, rows: &[Row]) -> String {
    let world = study.input.is_world();
    let mut header: Vec<String> = world.then(|| "world".to_string()).into_iter().collect();
    header.extend(["candidate".to_string(), "seed".into(), "label".into()]);
    header.extend(study.parameters.iter().map(|p| p.path.to_string()));
    header.extend(study.columns().into_iter().map(|(n, _, _)| n));
    let field = crate::output::tables::csv_field;
    let mut out = header
        .iter()
        .map(|h| field(h))
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for r in rows {
        let mut line: Vec<String> = world.then(|| field(&r.world)).into_iter().collect();
        line.extend([r.candidate.to_string(), r.seed.to_string(), field(&r.label)]);
        line.extend(
            r.values
                .iter()
                .map(|v| v.as_ref().map_or(String::new(), |v| field(&v.to_string()))),
        );
        line.extend(r.figures.iter().map(|f| csv_number(*f)));
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

/// `timings.json`: where the time went, the one file that differs from run to run.
#[derive(Serialize)]
struct Timings {
    seconds: f64,
    worlds: Vec<WorldTime>,
    replays: usize,
    replay_seconds: Stats,
    measure_seconds: Stats,
}

#[derive(Serialize)]
struct WorldTime {
    world: String,
    seed: u64,
    games: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct Stats {
    total: f64,
    mean: f64,
    max: f64,
}

fn stats(values: impl Iterator<Item = f64>) -> Stats {
    let v: Vec<f64> = values.collect();
    let total: f64 = v.iter().sum();
    Stats {
        total,
        mean: total / v.len().max(1) as f64,
        max: v.iter().copied().fold(0.0, f64::max),
    }
}

pub fn write_timings(
    dir: &Path,
    seconds: f64,
    worlds: &[WorldLine],
    rows: &[Row],
) -> Result<(), OutputError> {
    let timings = Timings {
        seconds,
        worlds: worlds
            .iter()
            .map(|w| WorldTime {
                world: w.world.clone(),
                seed: w.seed,
                games: w.games,
                seconds: w.seconds,
            })
            .collect(),
        replays: rows.len(),
        replay_seconds: stats(rows.iter().map(|r| r.seconds - r.measure_seconds)),
        measure_seconds: stats(rows.iter().map(|r| r.measure_seconds)),
    };
    write_file(&dir.join("timings.json"), pretty_json(&timings).as_bytes())
}
