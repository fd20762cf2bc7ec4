//! One list to compare: where it comes from (a run's list of a month, or a list file) and the
//! list read from there, with what its run knows of the players it lacks.

use std::path::{Path, PathBuf};

use crate::ingest::{read_list_ratings, Skips};
use crate::model::Month;

use super::super::run_files::{ReportError, RunFiles};
use super::super::run_lists::{Columns, RunLists};

/// Where a list comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListSource {
    /// A run directory and one of its lists (the last when `None`).
    Run(PathBuf, Option<Month>),
    File(PathBuf),
}

impl ListSource {
    /// `RUN@YYYY-MM`, `RUN` (a directory: its last list) or a list file.
    pub fn parse(text: &str) -> Result<ListSource, String> {
        if let Some((dir, month)) = text.rsplit_once('@') {
            let month = Month::parse(month)
                .ok_or_else(|| format!("{text}: expected RUN@YYYY-MM, got the month {month:?}"))?;
            return Ok(ListSource::Run(PathBuf::from(dir), Some(month)));
        }
        let path = PathBuf::from(text);
        Ok(if path.is_dir() {
            ListSource::Run(path, None)
        } else {
            ListSource::File(path)
        })
    }
}

/// One list, loaded.
#[derive(Debug)]
pub struct List {
    pub label: String,
    pub month: Option<Month>,
    pub ids: Vec<String>,
    pub ratings: Vec<i32>,
    pub inactive: Vec<bool>,
    /// The run it belongs to, to explain absences.
    pub(super) run: Option<PathBuf>,
    /// Players of the run who were on an earlier list and are not on this one.
    pub(super) left: Vec<String>,
}

impl List {
    pub fn load(source: &ListSource, skip_invalid: bool) -> Result<List, ReportError> {
        match source {
            ListSource::File(path) => {
                let mut skips = Skips::new(skip_invalid);
                let mut list = read_list_ratings(path, &mut skips)?;
                let dropped = list.keep_first_entries(&mut skips)?;
                if skips.total() > 0 {
                    eprintln!(
                        "{}: {} left out (--skip-invalid), {} of them ids listed twice",
                        path.display(),
                        crate::numbers::counted(skips.total() as u64, "row"),
                        crate::numbers::thousands(dropped as u64)
                    );
                }
                Ok(List {
                    label: file_name(path),
                    month: list.month,
                    ids: list.ids,
                    ratings: list.ratings,
                    inactive: list.inactive,
                    run: None,
                    left: Vec::new(),
                })
            }
            ListSource::Run(dir, month) => load_run_list(dir, *month),
        }
    }
}

pub(super) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

pub(super) fn load_run_list(dir: &Path, month: Option<Month>) -> Result<List, ReportError> {
    let run = RunFiles::open(dir)?;
    let lists = RunLists::read(&run, month, Columns::Ratings)?;
    let month = lists.months[lists.len() - 1];
    let list = lists.last();
    let players: Vec<u32> = list.players().collect();
    Ok(List {
        label: format!("{}@{month}", run.scenario.name),
        month: Some(month),
        ids: players.iter().map(|&p| lists.ids.label(p)).collect(),
        ratings: players
            .iter()
            .map(|&p| list.rating(p).unwrap_or(0))
            .collect(),
        inactive: players.iter().map(|&p| list.is_inactive(p)).collect(),
        run: Some(dir.to_path_buf()),
        left: (0..lists.ids.len() as u32)
            .filter(|&p| list.ever_listed(p) && list.rating(p).is_none())
            .map(|p| lists.ids.label(p))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse() {
        assert_eq!(
            ListSource::parse("output/run@2023-12").unwrap(),
            ListSource::Run("output/run".into(), Month::new(2023, 12))
        );
        assert!(ListSource::parse("output/run@2023-13").is_err());
        assert_eq!(
            ListSource::parse("lists/JAN01FRL.TXT").unwrap(),
            ListSource::File("lists/JAN01FRL.TXT".into())
        );
    }
}
