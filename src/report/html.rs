//! One self-contained HTML file for a run (and optionally a second run beside it): the scenario,
//! Sonas's crosstables as coloured tables, the expectation curve and the January histograms as
//! inline SVG, and the monthly summary. No scripts, no external fonts or styles: it opens anywhere.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::model::Month;
use crate::plot::{diverging, hex, Picture};

use super::crosstable::{Crosstable, Difference, Expectation, Grouping, Selection};
use super::curve::{self, Bins, Curve, Era};
use super::game_source::{read_games_with_ratings, GamesWithRatings};
use super::histogram::{run_lists, Histogram, Months};
use super::run_files::{ReportError, RunFiles};
use crate::numbers::thousands;

/// What the report shows.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// Crosstable windows (also the curve's eras); empty: the run's years in up to three parts.
    pub windows: Vec<Era>,
    pub grouping: Grouping,
    pub min_games: u64,
}

/// One run's tables, read once.
struct RunData {
    dir: PathBuf,
    run: RunFiles,
    games: GamesWithRatings,
    summary: Value,
}

impl RunData {
    fn read(dir: &Path) -> Result<RunData, ReportError> {
        let run = RunFiles::open(dir)?;
        let summary = run.summary.clone().ok_or_else(|| ReportError::NotARun {
            dir: dir.to_path_buf(),
            missing: "summary.json",
        })?;
        let games = read_games_with_ratings(dir, false, false)?;
        Ok(RunData {
            dir: dir.to_path_buf(),
            run,
            games,
            summary,
        })
    }

    fn name(&self) -> &str {
        &self.run.scenario.name
    }
}

/// Each run's name as the report's captions give it: with `--vs`, "A: " and "B: " before the
/// names, so that a difference labelled B − A says which run is which.
fn captions(runs: &[&RunData]) -> Vec<String> {
    match runs {
        [a, b] => vec![format!("A: {}", a.name()), format!("B: {}", b.name())],
        _ => runs.iter().map(|r| r.name().to_string()).collect(),
    }
}

pub fn html_report(
    dir: &Path,
    vs: Option<&Path>,
    options: &ReportOptions,
) -> Result<String, ReportError> {
    let first = RunData::read(dir)?;
    let second = vs.map(RunData::read).transpose()?;
    let windows = if options.windows.is_empty() {
        Era::thirds(&first.games)
    } else {
        options.windows.clone()
    };
    let runs: Vec<&RunData> = std::iter::once(&first).chain(second.as_ref()).collect();
    let captions = captions(&runs);
    let mut page = String::new();
    let title = match &second {
        Some(s) => format!("elosim report: {} vs {}", first.name(), s.name()),
        None => format!("elosim report: {}", first.name()),
    };
    page.push_str(&page_start(&title));
    page.push_str("<h2>Scenario and run</h2>\n<div class=\"row\">\n");
    for (run, caption) in runs.iter().zip(&captions) {
        page.push_str(&run_summary(run, caption));
    }
    page.push_str("</div>\n");

    page.push_str("<h2>Summary crosstables</h2>\n<p>Each cell: the row group's score minus its expected score (FIDE's table with the 400-point rule), in percentage points per game, using each game's own rating difference and the ratings the run used. Blue: the row group outperformed; red: underperformed; <code>=0%</code>: fewer than ");
    let _ = writeln!(
        page,
        "{} games; ×: a group against itself. Row labels: the group against all others.</p>",
        options.min_games
    );
    for window in &windows {
        // One above the other, each at full width: side by side, Sonas's 17 columns do not fit.
        let _ = writeln!(page, "<h3>{window}</h3>");
        let mut tables = Vec::new();
        for (run, caption) in runs.iter().zip(&captions) {
            let table = Crosstable::build(
                &run.games,
                options.grouping,
                Expectation::Fide,
                options.min_games,
                Selection::between(window.from, window.to),
            );
            page.push_str(&crosstable_html(&table, caption));
            tables.push(table);
        }
        if let [a, b] = tables.as_slice() {
            let difference = Difference {
                first: a,
                second: b,
            };
            page.push_str(&difference_html(
                &difference,
                runs[0].name(),
                runs[1].name(),
            ));
        }
    }

    let dashed = if runs.len() > 1 {
        " (B's dashed, in the colours of A's)"
    } else {
        ""
    };
    let _ = writeln!(page, "<h2>Expectation curve</h2>\n<p>The rating favourite's mean score by rating advantage (25-point bins with at least 50 games), one line per window{dashed}, against FIDE's table in black.</p>");
    let bins = Bins {
        width: 25,
        min: 0,
        max: 800,
    };
    let mut series = Vec::new();
    for run in &runs {
        for window in &windows {
            let name = if runs.len() > 1 {
                format!("{} {window}", run.name())
            } else {
                window.to_string()
            };
            series.push(curve::series(
                &run.games,
                name,
                Some(*window),
                bins,
                Expectation::Fide,
            ));
        }
    }
    let curve = Curve {
        bins,
        expectation: Expectation::Fide,
        min_games: 50,
        series,
        dated: true,
        sources: runs.len(),
    };
    page.push_str(&svg(&curve.picture("Expectation curve")));

    // One above the other, each at full width: a January line per year needs the room.
    page.push_str("<h2>Rating histograms</h2>\n");
    for run in &runs {
        let mut lists = run_lists(&run.dir, &Months::Januaries)?;
        if lists.is_empty() {
            lists = run_lists(&run.dir, &Months::Chosen(first_and_last(run)))?;
        }
        let histogram = Histogram::build(&lists, 25);
        page.push_str(&svg(
            &histogram.picture(&format!("{}: players per 25-point bin", run.name()))
        ));
    }

    page.push_str("<h2>Monthly summary</h2>\n<div class=\"row\">\n");
    for (run, caption) in runs.iter().zip(&captions) {
        page.push_str(&monthly_html(run, caption));
    }
    page.push_str("</div>\n");
    page.push_str(&page_end());
    Ok(page)
}

/// The head of a self-contained page and its title as the first heading.
pub fn page_start(title: &str) -> String {
    format!("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n", escape(title), escape(title))
}

/// The end of a page: a footer saying what wrote it.
pub fn page_end() -> String {
    format!(
        "<footer>Written by elosim {}: self-contained, no scripts and no external files.</footer>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    )
}

const STYLE: &str = "body{font-family:sans-serif;margin:24px;color:#222;max-width:1800px}\
h1{font-size:26px}h2{margin-top:36px;border-bottom:1px solid #ccc}\
.row{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}.half{flex:1 1 560px;min-width:0}\
svg{max-width:100%;height:auto}table{border-collapse:collapse;font-size:13px}\
td,th{padding:3px 6px;border:1px solid #ddd;text-align:right;white-space:nowrap}\
th{background:#f4f4f4}td.label{text-align:left}caption{font-weight:bold;text-align:left;padding:4px 0}\
pre{background:#f8f8f8;padding:8px;font-size:12px;overflow-x:auto}footer{margin-top:40px;color:#777;font-size:12px}\
.scroll{overflow-x:auto;max-width:100%;margin-bottom:16px}\
.note{background:#fff6e0;border-left:4px solid #e0a000;padding:6px 10px;font-size:13px}";

pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A picture inline, as SVG.
pub fn svg(picture: &Picture) -> String {
    match picture.svg() {
        Ok(svg) => format!("<figure>{svg}</figure>\n"),
        Err(e) => format!("<p>Could not draw this figure: {}</p>\n", escape(&e)),
    }
}

fn number(value: &Value) -> String {
    value
        .as_u64()
        .map(thousands)
        .unwrap_or_else(|| value.to_string())
}

fn run_summary(run: &RunData, caption: &str) -> String {
    let s = &run.summary;
    let mut out = String::from("<div class=\"half\">\n");
    let _ = writeln!(out, "<table><caption>{}</caption>", escape(caption));
    let rows = [
        ("run directory", escape(&run.dir.display().to_string())),
        ("rating system", escape(s["system"].as_str().unwrap_or(""))),
        (
            "lists",
            format!(
                "{} to {}",
                s["first_list"].as_str().unwrap_or("?"),
                s["last_list"].as_str().unwrap_or("?")
            ),
        ),
        ("games read", number(&s["games"]["read"])),
        (
            "games rated or counted",
            number(&s["games"]["rated_or_counted"]),
        ),
        ("players", number(&s["players"]["ids"])),
        ("first ratings", number(&s["players"]["new"])),
        (
            "delisted below the floor",
            number(&s["players"]["delisted"]),
        ),
        ("on the last list", number(&s["players"]["on_last_list"])),
    ];
    for (name, value) in rows {
        let _ = writeln!(
            out,
            "<tr><th>{name}</th><td class=\"label\">{value}</td></tr>"
        );
    }
    out.push_str("</table>\n");
    for era in s["approximate"].as_array().into_iter().flatten() {
        let to = era["to"]
            .as_str()
            .map_or_else(|| "on".into(), |m| format!("to {m}"));
        let _ = writeln!(
            out,
            "<p class=\"note\"><b>Approximate:</b> tournaments starting {} {to}: {}</p>",
            escape(era["from"].as_str().unwrap_or("?")),
            escape(era["why"].as_str().unwrap_or(""))
        );
    }
    let _ = writeln!(
        out,
        "<details><summary>Regulations, era by era</summary><pre>{}</pre></details>\n</div>",
        escape(&run.run.scenario.describe())
    );
    out
}

fn cell_style(value: Option<f64>) -> String {
    match value {
        Some(v) => {
            let colour = diverging(v, 15.0);
            let text = if v.abs() > 9.0 { "#fff" } else { "#000" };
            format!(" style=\"background:{};color:{text}\"", hex(colour))
        }
        None => String::new(),
    }
}

fn crosstable_html(table: &Crosstable, caption: &str) -> String {
    let mut out = String::from("<div class=\"scroll\"><table>");
    let _ = write!(
        out,
        "<caption>{} ({} games)</caption><tr><th>{}</th><th>player</th>",
        escape(caption),
        thousands(table.counts.used),
        escape(&table.window_text())
    );
    for &col in &table.shown {
        let _ = write!(out, "<th>vs.<br>{}</th>", table.label(col));
    }
    out.push_str("</tr>\n");
    for &row in &table.shown {
        let _ = write!(
            out,
            "<tr><td>{}</td><th>{}</th>",
            table.row_text(row),
            table.label(row)
        );
        for &col in &table.shown {
            let cell = table.cell(row, col);
            let value = (row != col && !table.too_few(cell)).then(|| cell.diff());
            let _ = write!(
                out,
                "<td{} title=\"{} games\">{}</td>",
                cell_style(value),
                cell.games,
                table.cell_text(row, col)
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></div>\n");
    out
}

/// The second run's cells minus the first's (B − A, as `compare` subtracts), titled to say so.
fn difference_html(difference: &Difference, name_a: &str, name_b: &str) -> String {
    let shown = difference.groups();
    let label = |g| difference.first.label(g);
    let mut out = format!(
        "<div class=\"scroll\"><table><caption>B − A: {} minus {}, cell by cell (percentage points; positive where {} has the row group outperform more)</caption><tr><th></th>",
        escape(name_b),
        escape(name_a),
        escape(name_b)
    );
    for &col in &shown {
        let _ = write!(out, "<th>vs.<br>{}</th>", label(col));
    }
    out.push_str("</tr>\n");
    for &row in &shown {
        let _ = write!(out, "<tr><th>{}</th>", label(row));
        for &col in &shown {
            let _ = write!(
                out,
                "<td{}>{}</td>",
                cell_style(difference.value(row, col)),
                difference.text(row, col)
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></div>\n");
    out
}

fn first_and_last(run: &RunData) -> Vec<Month> {
    let lists = run.summary["lists"].as_array();
    let month = |v: Option<&Value>| v.and_then(|l| l["month"].as_str()).and_then(Month::parse);
    let first = month(lists.and_then(|l| l.first()));
    let last = month(lists.and_then(|l| l.last()));
    first
        .into_iter()
        .chain(last.filter(|l| Some(*l) != first))
        .collect()
}

fn monthly_html(run: &RunData, caption: &str) -> String {
    let mut out = format!(
        "<div class=\"half scroll\"><table><caption>{}: per list</caption><tr><th>list</th><th>players</th><th>new</th><th>delisted</th><th>games</th></tr>\n",
        escape(caption)
    );
    for list in run.summary["lists"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "<tr><td class=\"label\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(list["month"].as_str().unwrap_or("")),
            number(&list["players"]),
            number(&list["new"]),
            number(&list["delisted"]),
            number(&list["games"])
        );
    }
    out.push_str("</table></div>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_windows_cut_whole_years() {
        let games = GamesWithRatings {
            month: vec![Month::new(2012, 8).unwrap(), Month::new(2020, 11).unwrap()],
            ..GamesWithRatings::default()
        };
        let w: Vec<String> = Era::thirds(&games).iter().map(|e| e.to_string()).collect();
        assert_eq!(w, vec!["2012-2014", "2015-2017", "2018-2020"]);
        let games = GamesWithRatings {
            month: vec![Month::new(2019, 3).unwrap()],
            ..GamesWithRatings::default()
        };
        let w: Vec<String> = Era::thirds(&games).iter().map(|e| e.to_string()).collect();
        assert_eq!(w, vec!["2019"]);
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
