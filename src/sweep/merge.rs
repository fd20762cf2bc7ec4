//! Joining shards (`elosim sweep --merge DIR...`): each shard's journal must belong to this study
//! (the same files, scale, seeds and elosim version: its fingerprint) and to one cutting of it into
//! shards; together they must hold every (world, candidate, seed) triple exactly once. The rows are
//! then the rows a single machine would have written, and the files written from them the same
//! bytes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::candidates::{self, Candidate, Kind};
use super::error::{MergeError, SweepError};
use super::journal::{self, Header, Row, WorldLine};
use super::study::{Design, Study};

/// A finished shard's journal: a directory holding `results.jsonl`, or the file itself. A shard
/// that has not finished has only its partial journal, and is refused.
pub fn journal_path(dir: &Path) -> Result<PathBuf, SweepError> {
    let path = if dir.is_dir() {
        dir.join(journal::FILE)
    } else {
        dir.to_path_buf()
    };
    let partial = journal::partial(&path);
    if !path.exists() && partial.exists() {
        return Err(MergeError::Unfinished {
            dir: dir.to_path_buf(),
            partial,
        }
        .into());
    }
    Ok(path)
}

/// The header of the first shard: which study file, scale and seeds to load.
pub fn first_header(dirs: &[PathBuf]) -> Result<Header, SweepError> {
    let dir = dirs.first().ok_or(MergeError::NoShards)?;
    Ok(journal::header(&journal_path(dir)?)?.0)
}

/// The shards joined: the study's candidates, every row by world (in the study's order), then
/// candidate, then seed, and the worlds generated.
pub struct Merged {
    pub candidates: Vec<Candidate>,
    pub rows: Vec<Row>,
    pub worlds: Vec<WorldLine>,
}

/// Every row of the shards, checked.
pub fn merge(study: &Study, dirs: &[PathBuf]) -> Result<Merged, SweepError> {
    let refuse = |e: MergeError| Err(SweepError::Merge(e));
    let (mut candidates, _) = candidates::all(study);
    let mut shards: BTreeMap<u32, PathBuf> = BTreeMap::new();
    let mut count = None;
    let names = study.input.world_names();
    let domains = study.domains();
    let mut rows: BTreeMap<(usize, u32, u64), (Row, PathBuf)> = BTreeMap::new();
    let mut worlds = Vec::new();
    for dir in dirs {
        let path = journal_path(dir)?;
        let (h, _) = journal::header(&path)?;
        if h.elosim != env!("CARGO_PKG_VERSION") {
            return refuse(MergeError::OtherVersion {
                path,
                version: h.elosim.clone(),
            });
        }
        if h.fingerprint != study.fingerprint {
            return refuse(MergeError::OtherStudy {
                path,
                study: h.study.clone(),
                file: h.file.clone(),
            });
        }
        if *count.get_or_insert(h.shard.1) != h.shard.1 {
            return refuse(MergeError::OtherCutting {
                path,
                index: h.shard.0,
                count: h.shard.1,
                others: count.unwrap_or(0),
            });
        }
        if let Some(other) = shards.insert(h.shard.0, path.clone()) {
            return refuse(MergeError::SameShard {
                first: other,
                second: path,
                index: h.shard.0,
                count: h.shard.1,
            });
        }
        let (read, _) = journal::read(&path, &domains)?;
        if let Some(line) = read.cut_short {
            return refuse(MergeError::CutShort { path, line });
        }
        for r in read.rows {
            let Some(world) = names.iter().position(|n| *n == r.world) else {
                return refuse(MergeError::OtherWorld {
                    path,
                    row: triple(&r.world, r.candidate, r.seed),
                    worlds: names,
                });
            };
            let key = (world, r.candidate, r.seed);
            if let Some((_, first)) = rows.get(&key) {
                return refuse(MergeError::RowTwice {
                    row: triple(&r.world, r.candidate, r.seed),
                    first: first.clone(),
                    second: path,
                });
            }
            rows.insert(key, (r, path.clone()));
        }
        worlds.extend(read.worlds);
    }
    if let Design::Optimise { .. } = study.design {
        // The optimiser's points are the ones its journal holds, in the order it chose them.
        let mut chosen: Vec<&Row> = rows
            .values()
            .map(|(r, _)| r)
            .filter(|r| r.candidate as usize >= candidates.len())
            .collect();
        chosen.sort_by_key(|r| r.candidate);
        for r in chosen {
            if r.candidate as usize == candidates.len() {
                candidates.push(Candidate {
                    id: r.candidate,
                    kind: Kind::Point,
                    values: r.values.clone(),
                });
            }
        }
    }
    let count = count.unwrap_or(0);
    let missing_shards: Vec<u32> = (1..=count).filter(|i| !shards.contains_key(i)).collect();
    if !missing_shards.is_empty() {
        return refuse(MergeError::MissingShards {
            missing: missing_shards,
            count,
        });
    }
    let seeds = study.input.seeds();
    let mut missing = Vec::new();
    for (w, name) in names.iter().enumerate() {
        for c in &candidates {
            for &s in &seeds {
                match rows.get(&(w, c.id, s)) {
                    None => missing.push(triple(name, c.id, s)),
                    Some((r, path)) if r.values != c.values || r.label != c.label() => {
                        return refuse(MergeError::OtherCandidate {
                            path: path.clone(),
                            candidate: c.id,
                            found: r.label.clone(),
                            wanted: c.label(),
                        })
                    }
                    Some(_) => {}
                }
            }
        }
    }
    if !missing.is_empty() {
        return refuse(MergeError::MissingRows { rows: missing });
    }
    let known = |c: u32| candidates.iter().any(|k| k.id == c);
    if let Some((r, path)) = rows.values().find(|(r, _)| !known(r.candidate)) {
        return refuse(MergeError::UnknownCandidate {
            path: path.clone(),
            row: triple(&r.world, r.candidate, r.seed),
            candidates: candidates.len(),
        });
    }
    if let Some((r, path)) = rows.values().find(|(r, _)| !seeds.contains(&r.seed)) {
        return refuse(MergeError::OtherSeed {
            path: path.clone(),
            row: triple(&r.world, r.candidate, r.seed),
            seeds,
        });
    }
    // Each (world, seed)'s generation once, in the study's order of worlds.
    let place = |w: &WorldLine| (names.iter().position(|n| *n == w.world), w.seed);
    worlds.sort_by_key(place);
    worlds.dedup_by_key(|w| place(w));
    Ok(Merged {
        candidates,
        rows: rows.into_values().map(|(r, _)| r).collect(),
        worlds,
    })
}

/// "candidate 3 on seed 2", and "of fewer-upsets" where the row is a world's.
fn triple(world: &str, candidate: u32, seed: u64) -> String {
    if world.is_empty() {
        format!("candidate {candidate} on seed {seed}")
    } else {
        format!("candidate {candidate} on seed {seed} of {world}")
    }
}

/// The header of the verification's journal in a study's directory, where there is one: the
/// scale and seeds it ran.
pub fn verify_header(dir: &Path) -> Option<Header> {
    Some(journal::header(&dir.join(super::verify::JOURNAL)).ok()?.0)
}

/// The rows of a verification (`verify.jsonl`) of this study, and its candidates among the
/// search's; `None` when the directory has none or one of another study.
pub fn verified(study: &Study, dir: &Path, search: &[Candidate]) -> Option<Merged> {
    let path = dir.join(super::verify::JOURNAL);
    if journal::header(&path).ok()?.0.fingerprint != study.fingerprint {
        return None;
    }
    let (read, _) = journal::read(&path, &study.domains()).ok()?;
    let mut ids: Vec<u32> = read.rows.iter().map(|r| r.candidate).collect();
    ids.sort_unstable();
    ids.dedup();
    let candidates = ids
        .iter()
        .filter_map(|id| search.iter().find(|c| c.id == *id).cloned())
        .collect();
    let names = study.input.world_names();
    let mut rows = read.rows;
    rows.sort_by_key(|r| {
        (
            names.iter().position(|n| *n == r.world),
            r.candidate,
            r.seed,
        )
    });
    Some(Merged {
        candidates,
        rows,
        worlds: read.worlds,
    })
}

/// Writes the joined rows as one machine's journal would hold them (`results.jsonl`), so that the
/// merged study's directory is a study's directory (`elosim report DIR`, `--resume`).
pub fn write_journal(dir: &Path, header: &Header, merged: &Merged) -> Result<(), SweepError> {
    let path = dir.join(journal::FILE);
    let partial = journal::partial(&path);
    let mut journal = journal::Journal::create(&partial, header)?;
    for w in &merged.worlds {
        journal.world(w)?;
    }
    for r in &merged.rows {
        journal.row(r)?;
    }
    drop(journal);
    std::fs::rename(&partial, &path).map_err(|source| journal::JournalError::Write {
        path: path.clone(),
        source,
    })?;
    Ok(())
}
