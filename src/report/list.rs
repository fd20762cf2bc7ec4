//! One list of a run whole (`elosim list`): every player on the list in force that month, with
//! `lists.parquet`'s columns. The run's table holds each list's changes; this is the list a reader
//! of FIDE's files expects.

use std::path::Path;

use serde::Serialize;

use crate::model::{Month, PlayerIds};
use crate::numbers::thousands;
use crate::output::tables::{csv_field, write_list_parquet, STATUS};
use crate::output::{pretty_json, OutputError};
use crate::replay::ListRows;

use super::crosstable::Format;
use super::run_files::{ReportError, RunFiles};
use super::run_lists::{Columns, RunLists};
use super::TextTable;

/// One list of a run, whole.
pub struct WholeList {
    /// The run's scenario.
    pub run: String,
    pub month: Month,
    /// The run's lists, and this one's index among them.
    months: Vec<Month>,
    t: usize,
    ids: PlayerIds,
    /// In player order (ids sorted), or by rating after `top`.
    pub rows: ListRows,
    ranked: bool,
}

impl WholeList {
    /// The list of `month` (the run's last list when `None`).
    pub fn read(dir: &Path, month: Option<Month>) -> Result<WholeList, ReportError> {
        let run = RunFiles::open(dir)?;
        let lists = RunLists::read(&run, month, Columns::All)?;
        let t = lists.len() - 1;
        let mut rows = ListRows::default();
        lists.last().whole(&mut rows);
        Ok(WholeList {
            run: run.scenario.name.clone(),
            month: lists.months[t],
            months: lists.months,
            t,
            ids: lists.ids,
            rows,
            ranked: false,
        })
    }

    /// Keeps the `n` highest rated, in rating order (equal ratings in id order).
    pub fn top(&mut self, n: usize) {
        let rows = &self.rows;
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(rows.rating[i]), rows.player[i]));
        order.truncate(n);
        self.rows = rows.select(&order);
        self.ranked = true;
    }

    /// Writes the list as Parquet, with `lists.parquet`'s columns.
    pub fn write_parquet(&self, path: &Path) -> Result<(), OutputError> {
        let months: Vec<String> = self.months.iter().map(Month::to_string).collect();
        let months: Vec<&str> = months.iter().map(String::as_str).collect();
        write_list_parquet(path, &self.ids, &self.rows, (&months, self.t))
    }

    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Csv => self.csv(),
            Format::Json => pretty_json(&ListJson {
                run: &self.run,
                month: self.month.to_string(),
                players: self.rows.len(),
                rows: (0..self.rows.len()).map(|i| self.row_json(i)).collect(),
            }),
            Format::Text | Format::Md => self.table(format),
        }
    }

    /// The columns: `lists.parquet`'s, `rating_exact` and `rd` where the system gives them.
    fn header(&self) -> Vec<&'static str> {
        let mut header = vec![
            "id",
            "rating",
            "k",
            "games",
            "total_games",
            "status",
            "new",
            "change",
        ];
        if self.rows.with_exact {
            header.push("rating_exact");
        }
        if self.rows.with_deviation {
            header.push("rd");
        }
        header
    }

    fn cells(&self, i: usize) -> Vec<String> {
        let r = &self.rows;
        let mut cells = vec![
            self.ids.label(r.player[i]),
            r.rating[i].to_string(),
            r.k[i].to_string(),
            r.games[i].to_string(),
            r.total_games[i].to_string(),
            status(r.inactive[i]).to_string(),
            r.new[i].to_string(),
            r.change[i].map(|c| c.to_string()).unwrap_or_default(),
        ];
        if r.with_exact {
            cells.push(r.exact[i].to_string());
        }
        if r.with_deviation {
            cells.push(r.deviation[i].to_string());
        }
        cells
    }

    fn csv(&self) -> String {
        let mut out = self.header().join(",");
        out.push('\n');
        for i in 0..self.rows.len() {
            let mut cells = self.cells(i);
            cells[0] = csv_field(&cells[0]);
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    fn table(&self, format: Format) -> String {
        let title = format!(
            "{}: the {} list, {} players{}",
            self.run,
            self.month,
            thousands(self.rows.len() as u64),
            if self.ranked { ", highest rated" } else { "" }
        );
        let mut table = TextTable::default();
        let mut header: Vec<String> = self.header().iter().map(|h| h.to_string()).collect();
        if self.ranked {
            header.insert(0, "#".into());
        }
        table.push(header);
        for i in 0..self.rows.len() {
            let mut cells = self.cells(i);
            if self.ranked {
                cells.insert(0, (i + 1).to_string());
            }
            table.push(cells);
        }
        let id = usize::from(self.ranked);
        if format == Format::Text {
            return format!("{title}\n\n{}", table.render(&[id]));
        }
        format!("**{title}**\n\n{}", table.markdown(&[id]))
    }

    fn row_json(&self, i: usize) -> RowJson {
        let r = &self.rows;
        let p = r.player[i];
        RowJson {
            id: match &self.ids {
                PlayerIds::Numbers(v) => serde_json::Value::from(v[p as usize]),
                PlayerIds::Text(v) => serde_json::Value::from(v[p as usize].as_str()),
            },
            rating: r.rating[i],
            k: r.k[i],
            games: r.games[i],
            total_games: r.total_games[i],
            status: status(r.inactive[i]),
            new: r.new[i],
            change: r.change[i],
            rating_exact: r.with_exact.then(|| r.exact[i]),
            rd: r.with_deviation.then(|| r.deviation[i]),
        }
    }
}

fn status(inactive: bool) -> &'static str {
    STATUS[usize::from(inactive)]
}

#[derive(Serialize)]
struct ListJson<'a> {
    run: &'a str,
    month: String,
    players: usize,
    rows: Vec<RowJson>,
}

#[derive(Serialize)]
struct RowJson {
    id: serde_json::Value,
    rating: i32,
    k: u8,
    games: u32,
    total_games: u32,
    status: &'static str,
    new: bool,
    change: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating_exact: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rd: Option<f64>,
}
