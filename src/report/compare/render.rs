//! A comparison written out: as a text or Markdown table, CSV, or JSON (`--format`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::numbers::{round_to, thousands};
use crate::output::pretty_json;

use super::super::crosstable::Format;
use super::super::TextTable;
use super::absence::Absence;
use super::stats::{Stats, BAND};
use super::Comparison;

/// A comparison as `--format json` writes it: the figures over every player on both lists, then
/// per band of B's rating.
#[derive(Serialize)]
pub struct ComparisonJson<'a> {
    a: &'a str,
    b: &'a str,
    both: usize,
    only_a: usize,
    only_b: usize,
    #[serde(flatten)]
    figures: Figures,
    only_a_reasons: BTreeMap<&'static str, usize>,
    only_b_reasons: BTreeMap<&'static str, usize>,
    bands: Vec<BandJson>,
    largest: Vec<LargestJson<'a>>,
}

#[derive(Serialize)]
struct BandJson {
    band: i32,
    both: usize,
    #[serde(flatten)]
    figures: Figures,
}

/// The statistics of one set of players, rounded as written.
#[derive(Serialize)]
struct Figures {
    mean_diff: f64,
    median_diff: f64,
    rmse: f64,
    mae: f64,
    within_0: f64,
    within_5: f64,
    within_10: f64,
    within_25: f64,
    /// `null` when it is undefined (every rating the same).
    spearman: Option<f64>,
}

impl Figures {
    fn of(s: &Stats) -> Figures {
        Figures {
            mean_diff: round_to(s.mean_diff, 3),
            median_diff: s.median_diff,
            rmse: round_to(s.rmse, 3),
            mae: round_to(s.mae, 3),
            within_0: round_to(s.within[0], 4),
            within_5: round_to(s.within[1], 4),
            within_10: round_to(s.within[2], 4),
            within_25: round_to(s.within[3], 4),
            spearman: (!s.spearman.is_nan()).then(|| round_to(s.spearman, 5)),
        }
    }
}

#[derive(Serialize)]
struct LargestJson<'a> {
    id: &'a str,
    a: i32,
    b: i32,
    diff: i32,
}

/// The count of each reason, by its name.
fn reasons(counts: &BTreeMap<Absence, usize>) -> BTreeMap<&'static str, usize> {
    counts.iter().map(|(k, v)| (k.name(), *v)).collect()
}

impl Comparison {
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Json => pretty_json(&self.json()),
            Format::Csv => self.csv(),
            Format::Text | Format::Md => self.text(),
        }
    }

    pub fn json(&self) -> ComparisonJson<'_> {
        ComparisonJson {
            a: &self.a,
            b: &self.b,
            both: self.overall.both,
            only_a: self.only_a.values().sum(),
            only_b: self.only_b.values().sum(),
            figures: Figures::of(&self.overall),
            only_a_reasons: reasons(&self.only_a),
            only_b_reasons: reasons(&self.only_b),
            bands: self
                .bands
                .iter()
                .map(|(band, s)| BandJson {
                    band: *band,
                    both: s.both,
                    figures: Figures::of(s),
                })
                .collect(),
            largest: self
                .largest
                .iter()
                .map(|(id, a, b)| LargestJson {
                    id,
                    a: *a,
                    b: *b,
                    diff: b - a,
                })
                .collect(),
        }
    }

    /// One row for every player on both lists (`all`), then one per band.
    fn csv(&self) -> String {
        let mut out = String::from(
            "band,both,mean_diff,median_diff,rmse,mae,within_0,within_5,within_10,within_25,spearman\n",
        );
        out.push_str(&csv_row("all", &self.overall));
        for (band, s) in &self.bands {
            out.push_str(&csv_row(&band.to_string(), s));
        }
        out
    }

    fn text(&self) -> String {
        let mut out = format!(
            "A = {}, B = {}: differences B − A in rating points\n\n{}\nOnly on A: {}\nOnly on B: {}\n",
            self.a,
            self.b,
            self.bands_table().render(&[0]),
            absences_line(&self.only_a),
            absences_line(&self.only_b)
        );
        if !self.largest.is_empty() {
            out.push_str("\nLargest differences:\n");
            out.push_str(&largest_table(&self.largest).render(&[0]));
        }
        out
    }

    /// The statistics over every player on both lists, then per band of B's rating.
    fn bands_table(&self) -> TextTable {
        let mut table = TextTable::default();
        table.push(
            [
                "band of B",
                "both",
                "mean",
                "median",
                "RMSE",
                "MAE",
                "=0",
                "±5",
                "±10",
                "±25",
                "Spearman",
            ]
            .map(String::from)
            .to_vec(),
        );
        table.push(text_row("all".into(), &self.overall));
        for (band, s) in &self.bands {
            table.push(text_row(format!("{band}-{}", band + BAND - 1), s));
        }
        table
    }
}

fn csv_row(band: &str, s: &Stats) -> String {
    format!(
        "{band},{},{:.3},{},{:.3},{:.3},{:.4},{:.4},{:.4},{:.4},{:.5}\n",
        s.both,
        s.mean_diff,
        s.median_diff,
        s.rmse,
        s.mae,
        s.within[0],
        s.within[1],
        s.within[2],
        s.within[3],
        s.spearman
    )
}

fn text_row(band: String, s: &Stats) -> Vec<String> {
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    vec![
        band,
        thousands(s.both as u64),
        format!("{:+.1}", s.mean_diff),
        format!("{:+.1}", s.median_diff),
        format!("{:.1}", s.rmse),
        format!("{:.1}", s.mae),
        pct(s.within[0]),
        pct(s.within[1]),
        pct(s.within[2]),
        pct(s.within[3]),
        if s.spearman.is_nan() {
            "-".into()
        } else {
            format!("{:.4}", s.spearman)
        },
    ]
}

/// The players on one list only: how many, and how many for each reason.
fn absences_line(counts: &BTreeMap<Absence, usize>) -> String {
    let total: usize = counts.values().sum();
    let parts: Vec<String> = counts
        .iter()
        .map(|(k, v)| format!("{} {}", thousands(*v as u64), k.name()))
        .collect();
    if parts.is_empty() {
        "none".to_string()
    } else {
        format!("{} ({})", thousands(total as u64), parts.join(", "))
    }
}

fn largest_table(largest: &[(String, i32, i32)]) -> TextTable {
    let mut table = TextTable::default();
    table.push(["id", "A", "B", "B − A"].map(String::from).to_vec());
    for (id, a, b) in largest {
        table.push(vec![
            id.clone(),
            a.to_string(),
            b.to_string(),
            format!("{:+}", b - a),
        ]);
    }
    table
}
