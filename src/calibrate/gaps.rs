//! How far apart rating groups really are: Sonas's estimates from his analysis of real games
//! (`data/published/sonas-strength.csv`: "players rated 1000-1100 … are really only 900-1000
//! points weaker than your typical 2400-rated player"). A world's truth is known, so its groups'
//! mean true strengths can be set against them: the one check on how the world's ratings relate to
//! what its players can do.

use std::path::Path;

use crate::ingest::{IngestError, Table};
use crate::model::Month;

/// The difference of mean true strength between two rating bands of one list.
#[derive(Clone, Debug, PartialEq)]
pub struct Gap {
    /// A January list: a world knows every player's strength in January.
    pub month: Month,
    /// Rating bands, inclusive.
    pub stronger: (i32, i32),
    pub weaker: (i32, i32),
    /// Points of true strength between them.
    pub real: f64,
}

impl Gap {
    pub fn text(&self) -> String {
        format!(
            "{}-{} over {}-{} on {}",
            self.stronger.0, self.stronger.1, self.weaker.0, self.weaker.1, self.month
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GapTarget {
    pub name: String,
    pub file: String,
    pub gaps: Vec<Gap>,
}

/// A run's gaps against the estimates.
#[derive(Clone, Debug, PartialEq)]
pub struct GapDistance {
    pub name: String,
    /// Each gap and the run's: its bands' mean true strengths apart (`None`: a band is empty).
    pub gaps: Vec<(Gap, Option<f64>)>,
}

/// Points a gap may be off before it costs as much as a crosstable cell 1 point off.
const POINTS: f64 = 50.0;

impl GapDistance {
    /// Mean squared miss in units of 50 points; a gap the run cannot measure counts as 200 off.
    pub fn error(&self) -> f64 {
        let squares: Vec<f64> = self
            .gaps
            .iter()
            .map(|(g, run)| (run.map_or(200.0, |r| r - g.real) / POINTS).powi(2))
            .collect();
        squares.iter().sum::<f64>() / squares.len().max(1) as f64
    }

    /// Gaps the run has within `points` of the estimate, and all gaps.
    pub fn within(&self, points: f64) -> (usize, usize) {
        let good = self
            .gaps
            .iter()
            .filter(|(g, run)| run.is_some_and(|r| (r - g.real).abs() <= points))
            .count();
        (good, self.gaps.len())
    }
}

const COLUMNS: &str = "month, stronger, weaker, difference (and a quote)";

fn band(text: &str) -> Option<(i32, i32)> {
    let (low, high) = text.trim().split_once('-')?;
    let (low, high) = (low.parse().ok()?, high.parse().ok()?);
    (low <= high).then_some((low, high))
}

/// Reads estimated gaps: `month` (a January), `stronger` and `weaker` bands (`2400-2499`),
/// `difference` in rating points.
pub fn read_gaps(path: &Path) -> Result<GapTarget, IngestError> {
    let table = Table::open(path, COLUMNS)?;
    let columns = [
        table.require(&["month"])?,
        table.require(&["stronger"])?,
        table.require(&["weaker"])?,
        table.require(&["difference"])?,
    ];
    let mut gaps = Vec::new();
    table.for_each_row(&mut |line, cells| {
        let cells = cells?;
        let text = |i: usize| cells[columns[i]].trim();
        let err = |column: &str, problem: String| table.row_error(line, column, problem);
        let month = Month::parse(text(0))
            .filter(|m| m.month() == 1)
            .ok_or_else(|| {
                err(
                    "month",
                    format!("expected a January YYYY-01 (a world knows every player's strength in January), got {:?}", text(0)),
                )
            })?;
        let bands = [(1, "stronger"), (2, "weaker")].map(|(i, column)| {
            band(text(i)).ok_or_else(|| {
                err(column, format!("expected a rating band such as 2400-2499, got {:?}", text(i)))
            })
        });
        let [stronger, weaker] = bands;
        let real = text(3).parse::<f64>().ok().filter(|d| d.is_finite()).ok_or_else(|| {
            err("difference", format!("expected rating points, got {:?}", text(3)))
        })?;
        gaps.push(Gap {
            month,
            stronger: stronger?,
            weaker: weaker?,
            real,
        });
        Ok(())
    })?;
    if gaps.is_empty() {
        return Err(table.nothing_read("gaps", "gap", COLUMNS));
    }
    Ok(GapTarget {
        name: path
            .file_name()
            .map_or("gaps".into(), |n| n.to_string_lossy().into_owned()),
        file: table.file().to_string(),
        gaps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sonas_estimates_are_read() {
        let t = read_gaps(Path::new("data/published/sonas-strength.csv")).unwrap();
        assert_eq!(t.gaps.len(), 3);
        assert_eq!(t.gaps[0].stronger, (2400, 2499));
        assert_eq!(t.gaps[0].weaker, (1000, 1099));
        assert_eq!(t.gaps[0].real, 950.0);
        assert_eq!(t.gaps[0].text(), "2400-2499 over 1000-1099 on 2023-01");
    }

    #[test]
    fn a_gap_off_by_fifty_points_costs_one() {
        let g = |real| Gap {
            month: Month::new(2023, 1).unwrap(),
            stronger: (2400, 2499),
            weaker: (1000, 1099),
            real,
        };
        let d = GapDistance {
            name: "d".into(),
            gaps: vec![
                (g(950.0), Some(1000.0)),
                (g(600.0), Some(700.0)),
                (g(300.0), None),
            ],
        };
        assert!((d.error() - (1.0 + 4.0 + 16.0) / 3.0).abs() < 1e-12);
        assert_eq!(d.within(60.0), (1, 3));
    }

    #[test]
    fn only_january_lists_are_accepted() {
        let dir = crate::testing::scratch("gaps");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("gaps.csv");
        std::fs::write(
            &path,
            "month,stronger,weaker,difference\n2023-07,2400-2499,1000-1099,950\n",
        )
        .unwrap();
        let e = read_gaps(&path).unwrap_err().to_string();
        assert!(
            e.contains("gaps.csv, line 2, column month: expected a January"),
            "{e}"
        );
    }
}
