//! Writing a calibration's directory (`elosim calibrate`): `world.toml` (the starting world file
//! with the fitted values set in place, its comments kept), `evaluations.parquet` (every
//! evaluation: its parameters and distance figures) and `summary.json`, all staged and put in
//! place together. Nothing timed is written, so the same calibration writes the same files.

use std::path::Path;

use polars::prelude::*;
use serde::Serialize;

use crate::generate::world::file::set_values;
use crate::generate::world::params::Value;
use crate::output::atomic::StagedDir;
use crate::output::tables::{table_error, write_parquet};
use crate::output::{pretty_json, write_text, OutputError, OutputKind, Placed};

use super::{Calibration, Fit, Record};

/// Writes the calibration's files into `dir`; returns the directory.
pub fn write_calibration(
    dir: &Path,
    calibration: &Calibration,
    fit: &Fit,
) -> Result<Placed, OutputError> {
    let staged = StagedDir::new(dir, OutputKind::Calibration)?;
    let at = |name: &str| staged.path.join(name);
    write_text(&at("world.toml"), &fitted_world(calibration, fit))?;
    let path = at("evaluations.parquet");
    let mut frame = evaluations(calibration, fit).map_err(table_error(&path))?;
    write_parquet(&path, &mut frame)?;
    write_text(
        &at("summary.json"),
        &pretty_json(&summary(calibration, fit)),
    )?;
    staged.commit()
}

/// The starting world file with the best values in place and a note of where they came from.
pub fn fitted_world(calibration: &Calibration, fit: &Fit) -> String {
    let best = fit.best();
    let values: Vec<_> = calibration
        .parameters
        .iter()
        .zip(&best.values)
        .map(|(b, &v)| (b.param, Value::Real(v)))
        .collect();
    let keys: Vec<&str> = calibration.parameters.iter().map(|b| b.param.key).collect();
    format!(
        "# Fitted by `elosim calibrate {}`: objective {:.3} (the start: {:.3}) after {} evaluations at\n# scale {} with seeds {:?}; the fitted keys: {}.\n{}",
        calibration.file.display(),
        best.evaluation.objective,
        fit.start().evaluation.objective,
        fit.records.len(),
        calibration.scale,
        calibration.seeds,
        keys.join(", "),
        set_values(&calibration.world_text, &values)
    )
}

/// Every target's figures of one evaluation, named `measure.figure`, in the targets' order.
fn figures(calibration: &Calibration, record: &Record) -> Vec<(String, Option<f64>)> {
    let e = &record.evaluation;
    calibration
        .targets
        .iter()
        .zip(&e.observed)
        .flat_map(|(t, o)| t.measure.columns(o, e.size))
        .map(|f| (f.name, f.value))
        .collect()
}

/// `evaluations.parquet`: evaluation, generation, each parameter, the objective and each target's
/// figures.
fn evaluations(calibration: &Calibration, fit: &Fit) -> PolarsResult<DataFrame> {
    let records = &fit.records;
    let mut columns: Vec<Column> = vec![
        UInt32Chunked::from_iter_values("evaluation".into(), 0..records.len() as u32)
            .into_series()
            .into(),
        UInt32Chunked::from_iter_values("generation".into(), records.iter().map(|r| r.generation))
            .into_series()
            .into(),
    ];
    for (k, b) in calibration.parameters.iter().enumerate() {
        columns.push(
            Float64Chunked::from_iter_values(
                b.param.key.into(),
                records.iter().map(|r| r.values[k]),
            )
            .into_series()
            .into(),
        );
    }
    columns.push(
        Float64Chunked::from_iter_values(
            "objective".into(),
            records.iter().map(|r| r.evaluation.objective),
        )
        .into_series()
        .into(),
    );
    let by_record: Vec<Vec<(String, Option<f64>)>> =
        records.iter().map(|r| figures(calibration, r)).collect();
    for (k, (name, _)) in by_record[0].iter().enumerate() {
        columns.push(
            Float64Chunked::from_iter_options(
                name.as_str().into(),
                by_record.iter().map(|figures| figures[k].1),
            )
            .into_series()
            .into(),
        );
    }
    DataFrame::new(records.len(), columns)
}

/// The calibration's `summary.json`: its settings, each parameter's range, start and best, and
/// the start's and the best evaluation's figures.
#[derive(Serialize)]
struct Summary<'a> {
    elosim: &'static str,
    calibration: String,
    world: &'a str,
    scenario: String,
    scale: f64,
    seeds: &'a [u64],
    budget: usize,
    population: usize,
    optimiser_seed: u64,
    evaluations: usize,
    best_evaluation: usize,
    parameters: Vec<ParameterJson>,
    start: RecordJson,
    best: RecordJson,
}

#[derive(Serialize)]
struct ParameterJson {
    key: &'static str,
    unit: &'static str,
    min: f64,
    max: f64,
    start: f64,
    best: f64,
}

/// One evaluation: the objective, its generation, and every target's figures by name.
#[derive(Serialize)]
struct RecordJson {
    objective: f64,
    generation: u32,
    figures: InOrder,
}

/// Figures by name, in the order of the calibration's targets.
struct InOrder(Vec<(String, Option<f64>)>);

impl Serialize for InOrder {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, value)| (name, value)))
    }
}

fn record_json(calibration: &Calibration, record: &Record) -> RecordJson {
    RecordJson {
        objective: record.evaluation.objective,
        generation: record.generation,
        figures: InOrder(figures(calibration, record)),
    }
}

fn summary<'a>(calibration: &'a Calibration, fit: &Fit) -> Summary<'a> {
    Summary {
        elosim: env!("CARGO_PKG_VERSION"),
        calibration: calibration.file.display().to_string(),
        world: &calibration.world_source,
        scenario: calibration.scenario.file.display().to_string(),
        scale: calibration.scale,
        seeds: &calibration.seeds,
        budget: calibration.budget,
        population: calibration.population,
        optimiser_seed: calibration.seed,
        evaluations: fit.records.len(),
        best_evaluation: fit.best,
        parameters: calibration
            .parameters
            .iter()
            .enumerate()
            .map(|(k, b)| ParameterJson {
                key: b.param.key,
                unit: b.param.unit,
                min: b.min,
                max: b.max,
                start: fit.start().values[k],
                best: fit.best().values[k],
            })
            .collect(),
        start: record_json(calibration, fit.start()),
        best: record_json(calibration, fit.best()),
    }
}
