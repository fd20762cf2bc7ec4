//! How far apart rating groups really are: Sonas's estimates from his analysis of real games
//! (`data/published/sonas-strength.csv`: "players rated 1000-1100 … are really only 900-1000
//! points weaker than your typical 2400-rated player"). A world's truth is known, so its groups'
//! mean true strengths can be set against them: the one check on how the world's ratings relate to
//! what its players can do.

use std::path::Path;

use toml::Table as TomlTable;

use crate::ingest::{IngestError, Table};
use crate::keys::{at, Reader};
use crate::model::Month;

use super::{Figure, Goal, Kind, ListView, Needs};

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

/// Sums of true strength over the two bands of a gap, in 2⁻²⁴ points (exact for any strength
/// above 1 point, so that the sums do not depend on the order they are added in).
#[derive(Clone, Copy, Debug, Default)]
pub struct GapSums {
    stronger: (i128, u64),
    weaker: (i128, u64),
}

/// Fixed-point units of strength per point.
const UNITS: f64 = (1u64 << 24) as f64;

fn units(strength: f32) -> i128 {
    (f64::from(strength) * UNITS).round() as i128
}

impl GapSums {
    /// The difference of the bands' mean strengths (`None`: a band is empty).
    pub fn difference(&self) -> Option<f64> {
        let mean = |(sum, n): (i128, u64)| (n > 0).then(|| sum as f64 / UNITS / n as f64);
        Some(mean(self.stronger)? - mean(self.weaker)?)
    }
}

/// Rating groups' true strengths apart, against Sonas's estimates (`gaps`, a file of them).
#[derive(Clone, Debug)]
pub struct Gaps {
    pub target: GapTarget,
}

impl Gaps {
    pub fn distance(&self, sums: &[GapSums]) -> GapDistance {
        GapDistance {
            name: self.target.name.clone(),
            gaps: self
                .target
                .gaps
                .iter()
                .zip(sums)
                .map(|(g, s)| (g.clone(), s.difference()))
                .collect(),
        }
    }
}

impl Kind for Gaps {
    type Observed = Vec<GapSums>;

    const NAME: &'static str = "gaps";
    const KEYS: &'static [&'static str] = &["gaps"];
    const MEANING: &'static str =
        "rating groups' mean true strengths apart, against published estimates";
    const TARGET_KEYS: Option<&'static [&'static str]> = Some(&["gaps"]);
    const NEEDS_TRUTH: bool = true;

    fn read(r: &mut Reader, t: &TomlTable, path: &str, dir: &Path) -> Option<Self> {
        r.require(
            t,
            path,
            "gaps",
            "a file of estimated gaps, such as \"sonas-strength.csv\"",
        );
        let file = dir.join(r.text(t, path, "gaps")?);
        match read_gaps(&file) {
            Ok(target) => Some(Gaps { target }),
            Err(e) => {
                r.problem(&at(path, "gaps"), e.to_string());
                None
            }
        }
    }

    fn default_name(&self) -> String {
        self.target.name.clone()
    }

    fn needs(&self, needs: &mut Needs) {
        let months = self.target.gaps.iter().map(|g| g.month);
        needs.lists.extend(months.clone());
        needs.truth.extend(months);
    }

    fn empty(&self) -> Vec<GapSums> {
        vec![GapSums::default(); self.target.gaps.len()]
    }

    fn observe(&self, list: &ListView<'_>, sums: &mut Vec<GapSums>) {
        let (Some(whole), Some(truth)) = (list.whole, list.truth) else {
            return;
        };
        for (gap, sums) in self.target.gaps.iter().zip(sums.iter_mut()) {
            if gap.month != list.month {
                continue;
            }
            for (&player, &rating) in whole.player.iter().zip(&whole.rating) {
                let strength = truth[player as usize];
                if strength.is_nan() {
                    continue;
                }
                let within = |(low, high): (i32, i32)| (low..=high).contains(&rating);
                if within(gap.stronger) {
                    sums.stronger.0 += units(strength);
                    sums.stronger.1 += 1;
                }
                if within(gap.weaker) {
                    sums.weaker.0 += units(strength);
                    sums.weaker.1 += 1;
                }
            }
        }
    }

    fn add(into: &mut Vec<GapSums>, other: &Vec<GapSums>) {
        for (a, b) in into.iter_mut().zip(other) {
            a.stronger.0 += b.stronger.0;
            a.stronger.1 += b.stronger.1;
            a.weaker.0 += b.weaker.0;
            a.weaker.1 += b.weaker.1;
        }
    }

    fn figures(&self, sums: &Vec<GapSums>, _size: f64) -> Vec<Figure> {
        let d = self.distance(sums);
        let mut figures: Vec<Figure> = d
            .gaps
            .iter()
            .map(|(g, run)| Figure::new(g.text(), *run, Goal::Shown, "points"))
            .collect();
        figures.push(Figure::new("error", Some(d.error()), Goal::Lower, ""));
        figures
    }

    fn line(&self, sums: &Vec<GapSums>, _size: f64) -> String {
        let d = self.distance(sums);
        let gaps: Vec<String> = d
            .gaps
            .iter()
            .map(|(g, run)| {
                let run = run.map_or("–".into(), |r| format!("{r:.0}"));
                format!("{}: {run} (Sonas {:.0})", g.text(), g.real)
            })
            .collect();
        format!("{}: {}", d.name, gaps.join(" · "))
    }

    /// The mean squared miss in units of 50 points.
    fn error(&self, sums: &Vec<GapSums>, _size: f64, _share_weight: f64) -> Option<f64> {
        Some(self.distance(sums).error())
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
