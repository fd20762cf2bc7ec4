//! Why a player is on one list only, as far as the other list's source knows: a run knows whom it
//! delisted and whose games it rated, a list file only that it may leave inactive players out.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use super::super::run_files::{ReportError, RunFiles};
use super::game_ids::ids_among;
use super::list::List;
use crate::scenario::UnknownPlayers;

/// Why a player is missing from a list, as far as the list's source knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Absence {
    /// The run rated games of theirs but never gave them a rating.
    NeverQualified,
    /// On an earlier list of the run, gone since: fell below the floor.
    Delisted,
    /// Inactive on the other list (list files often leave inactive players out).
    InactiveOnTheOther,
    /// Nothing known.
    Absent,
}

impl Absence {
    pub fn name(self) -> &'static str {
        match self {
            Absence::NeverQualified => "never qualified (played, never rated)",
            Absence::Delisted => "delisted below the floor",
            Absence::InactiveOnTheOther => "inactive (list files may leave inactive players out)",
            Absence::Absent => "absent",
        }
    }
}

/// Players of `present` missing from `other`, counted by the reason `other`'s source knows.
pub(super) fn absences_by_reason(
    present: &List,
    other: &List,
    on_other: &[bool],
) -> Result<BTreeMap<Absence, usize>, ReportError> {
    let missing: Vec<usize> = (0..present.ids.len()).filter(|&i| !on_other[i]).collect();
    let known = match &other.run {
        Some(dir) => {
            let ids: HashSet<&str> = missing.iter().map(|&i| present.ids[i].as_str()).collect();
            run_absences(dir, &other.left, &ids)?
        }
        None => HashMap::new(),
    };
    let mut counts = BTreeMap::new();
    for i in missing {
        // A list file may leave inactive players out; a run lists them, so there it says nothing.
        let file_skips_inactive = other.run.is_none() && present.inactive[i];
        let reason = known
            .get(&present.ids[i])
            .copied()
            .unwrap_or(if file_skips_inactive {
                Absence::InactiveOnTheOther
            } else {
                Absence::Absent
            });
        *counts.entry(reason).or_default() += 1;
    }
    Ok(counts)
}

/// Why each of `missing` is absent from a run's list, `left` being the players of earlier lists
/// not on it: delisted if an earlier list had them, never qualified if the run rated games of
/// theirs, else absent.
fn run_absences(
    dir: &Path,
    left: &[String],
    missing: &HashSet<&str>,
) -> Result<HashMap<String, Absence>, ReportError> {
    let run = RunFiles::open(dir)?;
    let mut why: HashMap<String, Absence> = left
        .iter()
        .filter(|id| missing.contains(id.as_str()))
        .map(|id| (id.clone(), Absence::Delisted))
        .collect();
    for id in played_among(&run, missing)? {
        why.entry(id).or_insert(Absence::NeverQualified);
    }
    Ok(why)
}

/// The players of `missing` the run rated games of. Those of `missing` not delisted from the run's
/// list were never on its lists up to it. Where players on no starting list enter as unrated
/// newcomers (FIDE's rules, the default bootstrap), such a player played only if `periods.parquet`
/// has a row of theirs (their pool, or the rated periods after a first rating listed them), and
/// every row there is of a player who played (both tested in tests/cli/lists.rs). That table has
/// a row a player and list played on, about a quarter of the games' ids at FIDE's size, so it is
/// read there. Seeded players can play with no row (only unrated opponents, their own results not
/// counted), the other systems record no periods and runs of older versions have none: there
/// every game is read.
fn played_among(run: &RunFiles, missing: &HashSet<&str>) -> Result<BTreeSet<String>, ReportError> {
    let mut played = BTreeSet::new();
    let mut periods = 0;
    let newcomers = matches!(
        run.scenario.bootstrap.unknown_players,
        UnknownPlayers::Newcomer
    );
    if newcomers && run.has("periods.parquet") {
        run.visit_row_groups("periods.parquet", &["id"], |rows| {
            periods += rows.height();
            played.extend(ids_among(rows, "id", missing)?);
            Ok(())
        })?;
    }
    if periods == 0 {
        run.visit_row_groups("games.parquet", &["white", "black"], |games| {
            for side in ["white", "black"] {
                played.extend(ids_among(games, side, missing)?);
            }
            Ok(())
        })?;
    }
    Ok(played)
}
