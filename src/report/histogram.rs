//! Rating histograms (seeds/001, the January-list pictures): players per rating bin on chosen
//! lists, from a run's `lists.parquet` or from rating list files (FIDE's TXT layouts or canonical).

use std::path::Path;

use serde::Serialize;

use crate::ingest::{read_list_ratings, Skips};
use crate::model::Month;
use crate::plot::{ordered, BarChart, LineChart, Picture, Series, XAxis};

use super::crosstable::Format;
use super::run_files::{ReportError, RunFiles};
use super::run_lists::{no_list, Columns, RunLists};
use super::TextTable;
use crate::numbers::thousands;
use crate::output::pretty_json;

/// One list's ratings.
#[derive(Clone, Debug)]
pub struct MonthRatings {
    pub month: Month,
    pub ratings: Vec<i32>,
}

/// Which of a run's lists to draw.
#[derive(Clone, Debug)]
pub enum Months {
    /// Every January list.
    Januaries,
    Chosen(Vec<Month>),
}

/// Every list of a run (starting list included), each month's ratings.
pub fn run_lists(dir: &Path, months: &Months) -> Result<Vec<MonthRatings>, ReportError> {
    let run = RunFiles::open(dir)?;
    let through = match months {
        Months::Januaries => None,
        Months::Chosen(chosen) => chosen.iter().max().copied(),
    };
    let lists = RunLists::read(&run, through, Columns::Ratings)?;
    if let Months::Chosen(chosen) = months {
        if let Some(&missing) = chosen.iter().find(|m| !lists.months.contains(m)) {
            return Err(no_list(&run, &lists.months, missing));
        }
    }
    let mut out = Vec::new();
    lists.walk(|t, current| -> Result<(), ReportError> {
        let month = lists.months[t];
        let wanted = match months {
            Months::Januaries => month.month() == 1 && !current.is_empty(),
            Months::Chosen(chosen) => chosen.contains(&month),
        };
        if wanted {
            let ratings = current
                .players()
                .filter_map(|p| current.rating(p))
                .collect();
            out.push(MonthRatings { month, ratings });
        }
        Ok(())
    })?;
    Ok(out)
}

/// Rating list files, one list each; the month comes from the file's header or name.
pub fn list_files(paths: &[&Path], skip_invalid: bool) -> Result<Vec<MonthRatings>, ReportError> {
    let mut lists = Vec::new();
    for path in paths {
        let mut skips = Skips::new(skip_invalid);
        let list = read_list_ratings(path, &mut skips)?;
        let month = list.month.ok_or_else(|| {
            ReportError::NotFound(format!(
                "{}: cannot tell the list's month from its header or file name; name it YYYY-MM.csv",
                path.display()
            ))
        })?;
        if skips.total() > 0 {
            eprintln!(
                "{}: {} left out (--skip-invalid)",
                path.display(),
                crate::numbers::counted(skips.total() as u64, "invalid row")
            );
        }
        lists.push(MonthRatings {
            month,
            ratings: list.ratings,
        });
    }
    lists.sort_by_key(|l| l.month);
    if let Some(pair) = lists.windows(2).find(|p| p[0].month == p[1].month) {
        return Err(ReportError::NotFound(format!(
            "two of the files are lists of {}; give one file per month",
            pair[0].month
        )));
    }
    Ok(lists)
}

/// Players per bin on each list.
#[derive(Clone, Debug)]
pub struct Histogram {
    pub width: i32,
    /// Each bin's lower bound, over every list.
    pub bins: Vec<i32>,
    /// (month, players per bin in `bins` order, players in all).
    pub lists: Vec<(Month, Vec<u64>, u64)>,
}

/// A histogram as `--format json` writes it.
#[derive(Serialize)]
struct HistogramJson<'a> {
    title: &'a str,
    width: i32,
    bins: &'a [i32],
    lists: Vec<ListJson<'a>>,
}

#[derive(Serialize)]
struct ListJson<'a> {
    month: String,
    players: u64,
    counts: &'a [u64],
}

impl Histogram {
    pub fn build(lists: &[MonthRatings], width: i32) -> Histogram {
        let bin = |r: i32| r.div_euclid(width) * width;
        let low = lists.iter().flat_map(|l| &l.ratings).map(|&r| bin(r)).min();
        let high = lists.iter().flat_map(|l| &l.ratings).map(|&r| bin(r)).max();
        let bins: Vec<i32> = match (low, high) {
            (Some(low), Some(high)) => (low..=high).step_by(width as usize).collect(),
            _ => Vec::new(),
        };
        let lists = lists
            .iter()
            .map(|l| {
                let mut counts = vec![0u64; bins.len()];
                for &r in &l.ratings {
                    counts[((bin(r) - bins[0]) / width) as usize] += 1;
                }
                (l.month, counts, l.ratings.len() as u64)
            })
            .collect();
        Histogram { width, bins, lists }
    }

    pub fn render(&self, format: Format, title: &str) -> String {
        match format {
            Format::Csv => {
                let mut out = String::from("month,bin_low,bin_high,players\n");
                for (month, counts, _) in &self.lists {
                    for (b, &n) in self.bins.iter().zip(counts) {
                        out.push_str(&format!("{month},{b},{},{n}\n", b + self.width));
                    }
                }
                out
            }
            Format::Json => pretty_json(&HistogramJson {
                title,
                width: self.width,
                bins: &self.bins,
                lists: self
                    .lists
                    .iter()
                    .map(|(month, counts, players)| ListJson {
                        month: month.to_string(),
                        players: *players,
                        counts,
                    })
                    .collect(),
            }),
            Format::Text | Format::Md => {
                let mut table = TextTable::default();
                let mut header = vec!["rating".to_string()];
                header.extend(self.lists.iter().map(|(m, _, _)| m.to_string()));
                table.push(header);
                for (i, b) in self.bins.iter().enumerate() {
                    let mut line = vec![format!("{b}-{}", b + self.width - 1)];
                    line.extend(self.lists.iter().map(|(_, c, _)| thousands(c[i])));
                    table.push(line);
                }
                let mut total = vec!["all".to_string()];
                total.extend(self.lists.iter().map(|(_, _, t)| thousands(*t)));
                table.push(total);
                if format == Format::Text {
                    return format!("{title}\n\n{}", table.render(&[0]));
                }
                format!("**{title}**\n\n{}", table.markdown(&[]))
            }
        }
    }

    /// One line per list, blue (earliest) to red (latest).
    pub fn picture(&self, title: &str) -> Picture {
        let n = self.lists.len();
        let series = self
            .lists
            .iter()
            .enumerate()
            .map(|(i, (month, counts, total))| Series {
                name: format!("{month} ({} players)", thousands(*total)),
                colour: ordered(i, n),
                points: self
                    .bins
                    .iter()
                    .zip(counts)
                    .map(|(&b, &c)| (f64::from(b) + f64::from(self.width) / 2.0, c as f64))
                    .collect(),
                dashed: false,
                markers: false,
            })
            .collect();
        let top = self
            .lists
            .iter()
            .flat_map(|l| l.1.iter().copied())
            .max()
            .unwrap_or(1) as f64;
        let (low, high) = (
            self.bins.first().copied().unwrap_or(0),
            self.bins.last().copied().unwrap_or(0) + self.width,
        );
        Picture::Lines(LineChart {
            x_axis: XAxis::Numbers,
            title: title.to_string(),
            x_label: "rating (rating points)".to_string(),
            y_label: format!("players per {}-point bin", self.width),
            x_range: (f64::from(low), f64::from(high)),
            y_range: (0.0, top * 1.08),
            series,
            legend_lower_right: false,
            bands: Vec::new(),
        })
    }

    /// Two lists as bars side by side (a before/after pair).
    pub fn bars(&self, title: &str) -> Picture {
        let n = self.lists.len();
        Picture::Bars(BarChart {
            title: title.to_string(),
            x_label: "rating (rating points)".to_string(),
            y_label: format!("players per {}-point bin", self.width),
            bins: self.bins.clone(),
            width: self.width,
            groups: self
                .lists
                .iter()
                .enumerate()
                .map(|(i, (month, counts, total))| {
                    (
                        format!("{month} ({} players)", thousands(*total)),
                        ordered(i, n),
                        counts.iter().map(|&c| c as f64).collect(),
                    )
                })
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_every_list() {
        let m = |n| Month::new(2020, n).unwrap();
        let lists = [
            MonthRatings {
                month: m(1),
                ratings: vec![1000, 1024, 1025, 1100],
            },
            MonthRatings {
                month: m(2),
                ratings: vec![1049, 1200],
            },
        ];
        let h = Histogram::build(&lists, 25);
        assert_eq!(
            h.bins,
            vec![1000, 1025, 1050, 1075, 1100, 1125, 1150, 1175, 1200]
        );
        assert_eq!(h.lists[0].1, vec![2, 1, 0, 0, 1, 0, 0, 0, 0]);
        assert_eq!(h.lists[1].1, vec![0, 1, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(h.lists[1].2, 2);
        let csv = h.render(Format::Csv, "");
        assert!(csv.starts_with("month,bin_low,bin_high,players\n2020-01,1000,1025,2\n"));
    }
}
