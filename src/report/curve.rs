//! The expectation curve (seeds/001, first picture): the rating favourite's mean score against
//! its rating advantage, in bins, one series per era or source, against the theoretical curve.
//! Games between equally rated players have no favourite and are left out.

use serde::Serialize;

use crate::model::Month;
use crate::plot::{categorical, ordered, LineChart, Picture, Series, XAxis};
use crate::rules::expected::fide_pd;

use super::crosstable::{Expectation, Format};
use super::game_source::GamesWithRatings;
use crate::numbers::{round_to, thousands};
use crate::output::pretty_json;

/// A span of months: one era of a curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Era {
    pub from: Month,
    pub to: Month,
}

impl Era {
    /// `2008-2012`, `2017`, or `2008-01..2012-06`; what is wrong with `text` otherwise.
    pub fn parse(text: &str) -> Result<Era, String> {
        let text = text.trim();
        let unreadable = || format!("expected YYYY-YYYY, YYYY or YYYY-MM..YYYY-MM, got {text:?}");
        let era = if let Some((a, b)) = text.split_once("..") {
            Era {
                from: Month::parse(a).ok_or_else(unreadable)?,
                to: Month::parse(b).ok_or_else(unreadable)?,
            }
        } else {
            let (a, b) = text.split_once('-').unwrap_or((text, text));
            let year = |y: &str| y.parse().ok().and_then(|y| Month::new(y, 1));
            Era {
                from: year(a).ok_or_else(unreadable)?,
                to: year(b)
                    .and_then(|m| Month::new(m.year(), 12))
                    .ok_or_else(unreadable)?,
            }
        };
        if era.from > era.to {
            return Err(format!(
                "{text:?} is reversed: it ends before it starts; write the earlier end first"
            ));
        }
        Ok(era)
    }

    /// Several eras, which must not overlap; a message naming `flag` (`--eras`, `--windows`)
    /// where one cannot be read.
    pub fn parse_list(text: &str, flag: &str) -> Result<Vec<Era>, String> {
        let mut eras = Vec::new();
        for item in text.split(',').filter(|s| !s.trim().is_empty()) {
            eras.push(Era::parse(item).map_err(|e| format!("{flag}: {e}"))?);
        }
        let mut sorted = eras.clone();
        sorted.sort_by_key(|e| e.from);
        for pair in sorted.windows(2) {
            if pair[1].from <= pair[0].to {
                return Err(format!(
                    "{flag}: {} and {} overlap; each game must belong to one of them",
                    pair[0], pair[1]
                ));
            }
        }
        Ok(eras)
    }

    pub fn contains(&self, month: Month) -> bool {
        self.from <= month && month <= self.to
    }

    /// The games' years cut into up to three eras of whole years (the report's default windows).
    pub fn thirds(games: &GamesWithRatings) -> Vec<Era> {
        let Some((first, last)) = games.span() else {
            return Vec::new();
        };
        let years = last.year() - first.year() + 1;
        let parts = years.min(3);
        let mut eras = Vec::new();
        let mut start = first.year();
        for i in 0..parts {
            let end = first.year() + (years * (i + 1)) / parts - 1;
            eras.push(Era {
                from: Month::new(start, 1).unwrap_or(first),
                to: Month::new(end, 12).unwrap_or(last),
            });
            start = end + 1;
        }
        eras
    }
}

impl std::fmt::Display for Era {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.from.month() == 1 && self.to.month() == 12 {
            if self.from.year() == self.to.year() {
                write!(f, "{}", self.from.year())
            } else {
                write!(f, "{}-{}", self.from.year(), self.to.year())
            }
        } else {
            write!(f, "{}..{}", self.from, self.to)
        }
    }
}

/// The bins of a curve.
#[derive(Clone, Copy, Debug)]
pub struct Bins {
    pub width: i32,
    /// Advantages from `min` (inclusive) to `max` (exclusive).
    pub min: i32,
    pub max: i32,
}

impl Bins {
    pub fn validate(&self) -> Result<(), String> {
        if self.width <= 0 {
            return Err(format!("--width must be at least 1, got {}", self.width));
        }
        if self.min < 0 || self.max <= self.min {
            return Err(format!(
                "--min {} and --max {}: expected 0 ≤ min < max",
                self.min, self.max
            ));
        }
        Ok(())
    }

    fn count(&self) -> usize {
        ((self.max - self.min + self.width - 1) / self.width) as usize
    }
}

/// One bin of one series.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Point {
    pub games: u64,
    /// Σ advantage, for the bin's mean advantage.
    pub advantage: u64,
    /// The favourite's half points.
    pub half_points: u64,
    /// The favourite's expected score in billionths.
    pub expected: i128,
}

impl Point {
    pub fn mean_advantage(&self) -> f64 {
        self.advantage as f64 / self.games as f64
    }
    pub fn score(&self) -> f64 {
        self.half_points as f64 / 2.0 / self.games as f64
    }
    pub fn expected(&self) -> f64 {
        self.expected as f64 / 1e9 / self.games as f64
    }
}

#[derive(Clone, Debug)]
pub struct CurveSeries {
    pub name: String,
    pub points: Vec<Point>,
}

#[derive(Clone, Debug)]
pub struct Curve {
    pub bins: Bins,
    pub expectation: Expectation,
    pub min_games: u64,
    pub series: Vec<CurveSeries>,
    /// Whether the series are eras (coloured blue → red by date) or sources.
    pub dated: bool,
    /// How many sources the series come from, one after the other with the same eras: each
    /// source's eras take the first source's colours, later sources' lines dashed.
    pub sources: usize,
}

/// One series from one source's games within `era` (all games when `None`).
pub fn series(
    games: &GamesWithRatings,
    name: String,
    era: Option<Era>,
    bins: Bins,
    expectation: Expectation,
) -> CurveSeries {
    let mut points = vec![Point::default(); bins.count()];
    for i in 0..games.len() {
        if era.is_some_and(|e| !e.contains(games.month[i])) {
            continue;
        }
        let diff = games.white_rating[i] - games.black_rating[i];
        let advantage = diff.abs();
        if advantage == 0 || advantage < bins.min || advantage >= bins.max {
            continue;
        }
        let favourite_half_points = if diff > 0 {
            games.score[i]
        } else {
            2 - games.score[i]
        };
        let p = &mut points[((advantage - bins.min) / bins.width) as usize];
        p.games += 1;
        p.advantage += advantage as u64;
        p.half_points += u64::from(favourite_half_points);
        p.expected += i128::from(expectation.nanos(advantage));
    }
    CurveSeries { name, points }
}

impl Curve {
    fn lower(&self, bin: usize) -> i32 {
        self.bins.min + bin as i32 * self.bins.width
    }

    /// Rows: series, bin, games, mean advantage, score, expected, diff (percentage points).
    fn rows(&self) -> Vec<(&str, i32, &Point)> {
        let mut rows = Vec::new();
        for s in &self.series {
            for (b, p) in s.points.iter().enumerate() {
                if p.games > 0 {
                    rows.push((s.name.as_str(), self.lower(b), p));
                }
            }
        }
        rows
    }

    pub fn render(&self, format: Format, title: &str) -> String {
        match format {
            Format::Csv => {
                let mut out = String::from(
                    "series,bin_low,bin_high,games,mean_advantage,score,expected,diff,few_games\n",
                );
                for (name, low, p) in self.rows() {
                    out.push_str(&format!(
                        "{},{low},{},{},{:.2},{:.6},{:.6},{:.4},{}\n",
                        csv_text(name),
                        low + self.bins.width,
                        p.games,
                        p.mean_advantage(),
                        p.score(),
                        p.expected(),
                        (p.score() - p.expected()) * 100.0,
                        p.games < self.min_games
                    ));
                }
                out
            }
            Format::Json => pretty_json(&CurveJson {
                title,
                expected: self.expectation.name(),
                width: self.bins.width,
                min: self.bins.min,
                max: self.bins.max,
                min_games: self.min_games,
                points: self
                    .rows()
                    .into_iter()
                    .map(|(series, low, p)| PointJson {
                        series,
                        bin_low: low,
                        bin_high: low + self.bins.width,
                        games: p.games,
                        mean_advantage: round_to(p.mean_advantage(), 2),
                        score: round_to(p.score(), 6),
                        expected: round_to(p.expected(), 6),
                        diff: round_to((p.score() - p.expected()) * 100.0, 4),
                        few_games: p.games < self.min_games,
                    })
                    .collect(),
            }),
            Format::Text | Format::Md => self.table_text(format, title),
        }
    }

    fn table_text(&self, format: Format, title: &str) -> String {
        let mut table = super::TextTable::default();
        let mut header = vec!["advantage".to_string()];
        for s in &self.series {
            header.push(format!("{}: score", s.name));
            header.push("expected".to_string());
            header.push("games".to_string());
        }
        table.push(header.clone());
        for b in 0..self.bins.count() {
            if self.series.iter().all(|s| s.points[b].games == 0) {
                continue;
            }
            let mut line = vec![format!(
                "{}-{}",
                self.lower(b),
                self.lower(b) + self.bins.width - 1
            )];
            for s in &self.series {
                let p = &s.points[b];
                if p.games == 0 {
                    line.extend(["".into(), "".into(), "0".into()]);
                } else {
                    let mark = if p.games < self.min_games { "*" } else { "" };
                    line.push(format!("{:.1}%{mark}", p.score() * 100.0));
                    line.push(format!("{:.1}%", p.expected() * 100.0));
                    line.push(thousands(p.games));
                }
            }
            table.push(line);
        }
        let note = format!(
            "The favourite's mean score per bin of rating advantage; expected from {}; * fewer than {} games (not drawn).",
            match self.expectation {
                Expectation::Fide => "FIDE's table with the 400-point rule",
                Expectation::Logistic => "the logistic curve",
            },
            self.min_games
        );
        if format == Format::Md {
            let rendered = table.render(&[]);
            let mut out = format!("**{title}**\n\n");
            for (i, line) in rendered.lines().enumerate() {
                let cells: Vec<&str> = line
                    .split("  ")
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .collect();
                out.push_str(&format!("| {} |\n", cells.join(" | ")));
                if i == 0 {
                    out.push_str(&format!("|{}\n", "---:|".repeat(header.len())));
                }
            }
            return format!("{out}\n{note}\n");
        }
        format!("{title}\n\n{}\n{note}\n", table.render(&[0]))
    }

    /// Where the drawn bins end: the upper bound of the last bin with enough games in any series
    /// (the whole range when none has), so that the axis ends where the data do.
    fn drawn_end(&self) -> i32 {
        let enough = self.min_games.max(1);
        self.series
            .iter()
            .filter_map(|s| s.points.iter().rposition(|p| p.games >= enough))
            .max()
            .map_or(self.bins.max, |last| {
                (self.lower(last) + self.bins.width).min(self.bins.max)
            })
    }

    /// The curve as a picture: the theoretical curve in black, one coloured line per series.
    pub fn picture(&self, title: &str) -> Picture {
        let (min, max) = (self.bins.min, self.drawn_end());
        let mut series = vec![Series {
            name: match self.expectation {
                Expectation::Fide => "FIDE table 8.1.2 (no 400-point rule)".to_string(),
                Expectation::Logistic => "logistic 1/(1+10^(−D/400))".to_string(),
            },
            colour: plotters::style::RGBColor(0, 0, 0),
            points: (min..=max)
                .map(|d| {
                    let e = match self.expectation {
                        Expectation::Fide => f64::from(fide_pd(d)) / 100.0,
                        Expectation::Logistic => Expectation::Logistic.fraction(d),
                    };
                    (f64::from(d), e)
                })
                .collect(),
            dashed: false,
            markers: false,
        }];
        if self.expectation == Expectation::Fide && max > 400 {
            series.push(Series {
                name: "with the 400-point rule".to_string(),
                colour: plotters::style::RGBColor(120, 120, 120),
                points: (min.max(400)..=max)
                    .map(|d| (f64::from(d), Expectation::Fide.fraction(d)))
                    .collect(),
                dashed: true,
                markers: false,
            });
        }
        let n = self.series.len();
        let per_source = (n / self.sources.max(1)).max(1);
        let mut low: f64 = 0.5;
        for (i, s) in self.series.iter().enumerate() {
            let points: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter(|p| p.games >= self.min_games.max(1))
                .map(|p| (p.mean_advantage(), p.score()))
                .collect();
            low = points.iter().map(|p| p.1).fold(low, f64::min);
            series.push(Series {
                name: format!(
                    "{} ({} games)",
                    s.name,
                    thousands(s.points.iter().map(|p| p.games).sum())
                ),
                colour: if self.dated {
                    ordered(i % per_source, per_source)
                } else {
                    categorical(i)
                },
                points,
                dashed: self.dated && i >= per_source,
                markers: true,
            });
        }
        let y_low = if min > 0 {
            series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.1))
                .fold(1.0, f64::min)
                .min(low)
                - 0.02
        } else {
            (low - 0.02).min(0.45)
        };
        let y_high = series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .fold(0.5, f64::max);
        let y_high = (y_high + 0.02).min(1.0);
        Picture::Lines(LineChart {
            x_axis: XAxis::Numbers,
            title: title.to_string(),
            x_label: "the favourite's rating advantage (rating points)".to_string(),
            y_label: "the favourite's mean score (fraction of a point)".to_string(),
            x_range: (f64::from(min), f64::from(max)),
            y_range: (y_low.max(0.0), y_high),
            series,
            legend_lower_right: true,
            bands: Vec::new(),
        })
    }
}

fn csv_text(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// An expectation curve as `--format json` writes it.
#[derive(Serialize)]
struct CurveJson<'a> {
    title: &'a str,
    expected: &'static str,
    width: i32,
    min: i32,
    max: i32,
    min_games: u64,
    points: Vec<PointJson<'a>>,
}

#[derive(Serialize)]
struct PointJson<'a> {
    series: &'a str,
    bin_low: i32,
    bin_high: i32,
    games: u64,
    mean_advantage: f64,
    score: f64,
    expected: f64,
    diff: f64,
    few_games: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games() -> GamesWithRatings {
        let m = |y| Month::new(y, 6).unwrap();
        // (year, white, black, White's half points)
        let rows = [
            (2010, 2000, 1950, 2), // favourite White, +50: wins
            (2010, 1900, 1960, 2), // favourite Black, +60: loses (0 half points)
            (2010, 1800, 1800, 1), // equal: no favourite, left out
            (2011, 2100, 1990, 1), // +110: draws
            (2010, 2500, 2000, 2), // +500: beyond --max 400, left out
        ];
        GamesWithRatings {
            month: rows.iter().map(|r| m(r.0)).collect(),
            white_rating: rows.iter().map(|r| r.1).collect(),
            black_rating: rows.iter().map(|r| r.2).collect(),
            score: rows.iter().map(|r| r.3).collect(),
            ..GamesWithRatings::default()
        }
    }

    const BINS: Bins = Bins {
        width: 100,
        min: 0,
        max: 400,
    };

    #[test]
    fn points_are_the_favourites_mean_score_per_bin() {
        let s = series(&games(), "all".into(), None, BINS, Expectation::Fide);
        // Bin 0-99: +50 won (PD .57), +60 lost (PD .58).
        let p = s.points[0];
        assert_eq!((p.games, p.advantage, p.half_points), (2, 110, 2));
        assert!((p.score() - 0.5).abs() < 1e-12);
        assert!((p.expected() - 0.575).abs() < 1e-12);
        assert!((p.mean_advantage() - 55.0).abs() < 1e-12);
        // Bin 100-199: +110 drawn, PD .65.
        let p = s.points[1];
        assert_eq!((p.games, p.half_points), (1, 1));
        assert!((p.expected() - 0.65).abs() < 1e-12);
        assert_eq!(s.points[2].games + s.points[3].games, 0);
    }

    #[test]
    fn eras_select_their_months() {
        let era = Era::parse("2011").unwrap();
        let s = series(&games(), "2011".into(), Some(era), BINS, Expectation::Fide);
        assert_eq!(s.points.iter().map(|p| p.games).sum::<u64>(), 1);
    }

    #[test]
    fn eras_parse_and_must_not_overlap() {
        let eras = Era::parse_list("2008-2012,2013-2016,2017-01..2020-06", "--eras").unwrap();
        assert_eq!(eras[0].to_string(), "2008-2012");
        assert_eq!(eras[2].to_string(), "2017-01..2020-06");
        assert!(Era::parse_list("2008-2012,2012-2016", "--eras")
            .unwrap_err()
            .contains("overlap"));
        assert!(Era::parse_list("2012-2008", "--eras")
            .unwrap_err()
            .contains("reversed"));
        assert!(Era::parse_list("2017-06..2017-01", "--windows")
            .unwrap_err()
            .starts_with("--windows: \"2017-06..2017-01\" is reversed"));
        assert!(Era::parse_list("soon", "--eras")
            .unwrap_err()
            .contains("expected YYYY-YYYY"));
    }

    #[test]
    fn csv_rows() {
        let curve = Curve {
            bins: BINS,
            expectation: Expectation::Fide,
            min_games: 2,
            series: vec![series(
                &games(),
                "all".into(),
                None,
                BINS,
                Expectation::Fide,
            )],
            dated: false,
            sources: 1,
        };
        let csv = curve.render(Format::Csv, "");
        assert_eq!(
            csv,
            "series,bin_low,bin_high,games,mean_advantage,score,expected,diff,few_games\n\
             all,0,100,2,55.00,0.500000,0.575000,-7.5000,false\n\
             all,100,200,1,110.00,0.500000,0.650000,-15.0000,true\n"
        );
    }
}
