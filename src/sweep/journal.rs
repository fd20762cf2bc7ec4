//! A study's journal: a header line saying which study, elosim version, worlds and shard it belongs
//! to, then one line per (world, candidate, seed) as each arrives (and one per (world, seed)'s
//! world generated), appended and flushed line by line to `results.partial.jsonl`, renamed
//! `results.jsonl` when every row is in.
//! An interrupted sweep resumes from the partial journal (`--resume`); a finished shard's journal
//! is its results, which `--merge` joins. Numbers are written so that they read back bit
//! for bit (an infinite factor as "inf").

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Number, Value as Json};
use toml::Value;

use crate::keys::{Domain, KeyValue};

/// Which study, elosim version, settings and shard a journal belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub elosim: String,
    pub study: String,
    /// The study file as it was given.
    pub file: String,
    pub fingerprint: String,
    /// The worlds' names, in the study's order (none for one history of real games).
    pub worlds: Vec<String>,
    /// The scale and seeds in force (the command line's overrides included).
    pub scale: Option<f64>,
    pub seeds: Vec<u64>,
    /// (index from 1, count).
    pub shard: (u32, u32),
    pub parameters: Vec<String>,
    pub columns: Vec<String>,
}

/// One (world, candidate, seed) evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The world's name (empty for one history of real games).
    pub world: String,
    pub candidate: u32,
    pub seed: u64,
    pub label: String,
    /// The candidate's value of each parameter.
    pub values: Vec<Option<KeyValue>>,
    /// One per column.
    pub figures: Vec<Option<f64>>,
    /// Seconds of the replay (the measures included), and of the measures alone.
    pub seconds: f64,
    pub measure_seconds: f64,
}

/// One world generated on one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldLine {
    /// The world's name.
    pub world: String,
    pub seed: u64,
    pub games: u64,
    pub seconds: f64,
}

/// A journal's rows read back (its header read and checked by `header`).
#[derive(Debug)]
pub struct Read {
    pub rows: Vec<Row>,
    pub worlds: Vec<WorldLine>,
    /// The number of a last line cut short by an interruption, left out.
    pub cut_short: Option<usize>,
}

#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot create the directory {}", path.display())]
    Directory {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}, line {line}: {problem}; this is not a study's journal as elosim writes it", path.display())]
    Line {
        path: PathBuf,
        line: usize,
        problem: String,
    },
}

pub const FILE: &str = "results.jsonl";

/// The journal of a run still going on (or interrupted): `results.partial.jsonl` beside the
/// `results.jsonl` it becomes when every row is in, so that no file is half-written under its final
/// name.
pub fn partial(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".jsonl").unwrap_or(&name);
    path.with_file_name(format!("{stem}.partial.jsonl"))
}

fn number(x: f64) -> Json {
    match Number::from_f64(x) {
        Some(n) => Json::Number(n),
        None if x.is_nan() => Json::Null,
        None if x > 0.0 => Json::String("inf".into()),
        None => Json::String("-inf".into()),
    }
}

fn figure(j: &Json) -> Option<Option<f64>> {
    match j {
        Json::Null => Some(None),
        Json::Number(n) => n.as_f64().map(Some),
        Json::String(s) if s == "inf" => Some(Some(f64::INFINITY)),
        Json::String(s) if s == "-inf" => Some(Some(f64::NEG_INFINITY)),
        _ => None,
    }
}

/// A parameter's value as JSON: numbers as numbers (bit for bit), names and months as text; read
/// back by `value_of` with the parameter's domain.
pub fn value_json(v: &Option<KeyValue>) -> Json {
    match v {
        None => Json::Null,
        Some(KeyValue::Whole(i)) => json!(i),
        Some(KeyValue::Number(f)) => number(*f),
        Some(KeyValue::Boolean(b)) => json!(b),
        Some(text) => Json::String(text.to_string()),
    }
}

/// A value written by `value_json`, typed by its parameter's domain.
fn value_of(j: &Json, domain: &Domain) -> Option<Option<KeyValue>> {
    let toml = match j {
        Json::Null => return Some(None),
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) if n.is_i64() => Value::Integer(n.as_i64()?),
        Json::String(_) if matches!(domain, Domain::Number { .. }) => Value::Float(figure(j)??),
        Json::Number(n) => Value::Float(n.as_f64()?),
        Json::String(s) => Value::String(s.clone()),
        _ => return None,
    };
    domain.read(&toml).ok().map(Some)
}

impl Header {
    /// What differs between two runs' headers, by name; the study file's path as typed and the
    /// study's name aside (the fingerprint holds the study's content).
    pub fn differences(&self, other: &Header) -> Vec<&'static str> {
        [
            (self.elosim != other.elosim, "elosim versions"),
            (
                self.fingerprint != other.fingerprint,
                "study files or inputs (their fingerprints)",
            ),
            (self.worlds != other.worlds, "worlds"),
            (self.scale != other.scale, "scales"),
            (self.seeds != other.seeds, "seeds"),
            (self.shard != other.shard, "shards"),
            (self.parameters != other.parameters, "parameters"),
            (self.columns != other.columns, "figures"),
        ]
        .into_iter()
        .filter_map(|(differs, what)| differs.then_some(what))
        .collect()
    }

    fn json(&self) -> Json {
        json!({
            "elosim": self.elosim,
            "study": self.study,
            "file": self.file,
            "fingerprint": self.fingerprint,
            "worlds": self.worlds,
            "scale": self.scale.map(number),
            "seeds": self.seeds,
            "shard": [self.shard.0, self.shard.1],
            "parameters": self.parameters,
            "columns": self.columns,
        })
    }

    fn from_json(j: &Json) -> Option<Header> {
        let text = |k: &str| j.get(k)?.as_str().map(String::from);
        let texts = |k: &str| -> Option<Vec<String>> {
            j.get(k)?
                .as_array()?
                .iter()
                .map(|v| v.as_str().map(String::from))
                .collect()
        };
        let shard = j.get("shard")?.as_array()?;
        Some(Header {
            elosim: text("elosim")?,
            study: text("study")?,
            file: text("file")?,
            fingerprint: text("fingerprint")?,
            worlds: texts("worlds")?,
            scale: figure(j.get("scale")?)?,
            seeds: j
                .get("seeds")?
                .as_array()?
                .iter()
                .map(Json::as_u64)
                .collect::<Option<_>>()?,
            shard: (
                u32::try_from(shard.first()?.as_u64()?).ok()?,
                u32::try_from(shard.get(1)?.as_u64()?).ok()?,
            ),
            parameters: texts("parameters")?,
            columns: texts("columns")?,
        })
    }
}

impl Row {
    fn json(&self) -> Json {
        // After the candidate: a line that begins with "world" is a world generated.
        json!({
            "candidate": self.candidate,
            "world": self.world,
            "seed": self.seed,
            "label": self.label,
            "values": self.values.iter().map(value_json).collect::<Vec<_>>(),
            "figures": self.figures.iter().map(|f| f.map_or(Json::Null, number)).collect::<Vec<_>>(),
            "seconds": number(self.seconds),
            "measure_seconds": number(self.measure_seconds),
        })
    }

    /// A row whose values are typed by the study's parameters' domains, one each.
    fn from_json(j: &Map<String, Json>, domains: &[Domain]) -> Option<Row> {
        let values = j.get("values")?.as_array()?;
        if values.len() != domains.len() {
            return None;
        }
        Some(Row {
            world: j.get("world")?.as_str()?.to_string(),
            candidate: u32::try_from(j.get("candidate")?.as_u64()?).ok()?,
            seed: j.get("seed")?.as_u64()?,
            label: j.get("label")?.as_str()?.to_string(),
            values: values
                .iter()
                .zip(domains)
                .map(|(v, d)| value_of(v, d))
                .collect::<Option<_>>()?,
            figures: j
                .get("figures")?
                .as_array()?
                .iter()
                .map(figure)
                .collect::<Option<_>>()?,
            seconds: j.get("seconds")?.as_f64()?,
            measure_seconds: j.get("measure_seconds")?.as_f64()?,
        })
    }
}

impl WorldLine {
    fn from_json(j: &Json) -> Option<WorldLine> {
        Some(WorldLine {
            world: j.get("world")?.as_str()?.to_string(),
            seed: j.get("seed")?.as_u64()?,
            games: j.get("games")?.as_u64()?,
            seconds: j.get("seconds")?.as_f64()?,
        })
    }
}

/// A journal being appended to; each line is written whole and flushed.
pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Starts a journal afresh with its header.
    pub fn create(path: &Path, header: &Header) -> Result<Journal, JournalError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| JournalError::Directory {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let file = File::create(path).map_err(|source| JournalError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        let mut journal = Journal {
            path: path.to_path_buf(),
            file,
        };
        journal.line(&header.json())?;
        Ok(journal)
    }

    /// Appends to a journal read back (a line cut short is cut off first).
    pub fn append(path: &Path, keep_bytes: u64) -> Result<Journal, JournalError> {
        let io = |source| JournalError::Write {
            path: path.to_path_buf(),
            source,
        };
        let file = OpenOptions::new().write(true).open(path).map_err(io)?;
        file.set_len(keep_bytes).map_err(io)?;
        let file = OpenOptions::new().append(true).open(path).map_err(io)?;
        Ok(Journal {
            path: path.to_path_buf(),
            file,
        })
    }

    fn line(&mut self, j: &Json) -> Result<(), JournalError> {
        let mut text = j.to_string();
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|source| JournalError::Write {
                path: self.path.clone(),
                source,
            })
    }

    pub fn row(&mut self, row: &Row) -> Result<(), JournalError> {
        self.line(&row.json())
    }

    pub fn world(&mut self, w: &WorldLine) -> Result<(), JournalError> {
        self.line(&json!({"world": w.world, "seed": w.seed, "games": w.games, "seconds": number(w.seconds)}))
    }
}

/// A journal's header, and how many rows follow it: enough to tell whose journal it is before
/// its rows are typed by the study's parameters (`read`).
pub fn header(path: &Path) -> Result<(Header, usize), JournalError> {
    let (mut header, mut rows) = (None, 0);
    scan(path, |n, j| {
        match &header {
            None => header = Some(header_of(path, n, &j)?),
            Some(_) if !is_world_line(&j) => rows += 1,
            Some(_) => {}
        }
        Ok(())
    })?;
    Ok((header.ok_or_else(|| empty(path))?, rows))
}

/// Reads a journal, each row's values typed by the study's parameters' `domains`; also the length
/// of its complete lines (where appending resumes). Whose journal it is, is the caller's to check
/// on its `header` first: another study's rows may not fit these domains.
pub fn read(path: &Path, domains: &[Domain]) -> Result<(Read, u64), JournalError> {
    let (mut header, mut rows, mut worlds) = (None, Vec::new(), Vec::new());
    let (kept, cut_short) = scan(path, |n, j| {
        if header.is_none() {
            header = Some(header_of(path, n, &j)?);
        } else if is_world_line(&j) {
            let line = WorldLine::from_json(&j).ok_or_else(|| {
                bad(
                    path,
                    n,
                    "expected a world generated: world, seed, games, seconds",
                )
            })?;
            worlds.push(line);
        } else {
            let row = j
                .as_object()
                .and_then(|j| Row::from_json(j, domains))
                .ok_or_else(|| {
                    bad(
                        path,
                        n,
                        "expected a row: candidate, world, seed, label, values (one per parameter, each of the parameter's kind), figures, seconds",
                    )
                })?;
            rows.push(row);
        }
        Ok(())
    })?;
    header.ok_or_else(|| empty(path))?;
    Ok((
        Read {
            rows,
            worlds,
            cut_short,
        },
        kept,
    ))
}

fn bad(path: &Path, line: usize, problem: &str) -> JournalError {
    JournalError::Line {
        path: path.to_path_buf(),
        line,
        problem: problem.to_string(),
    }
}

fn empty(path: &Path) -> JournalError {
    bad(path, 1, "empty: no header")
}

/// After the candidate: a line that names a world and no candidate is a world generated.
fn is_world_line(j: &Json) -> bool {
    j.get("candidate").is_none() && j.get("world").is_some()
}

fn header_of(path: &Path, n: usize, j: &Json) -> Result<Header, JournalError> {
    if j.get("study").is_some() && j.get("worlds").is_none() {
        // Written before a study's rows named their world.
        return Err(bad(
            path,
            n,
            "a journal of an earlier elosim, whose rows name no world: run the study again",
        ));
    }
    Header::from_json(j).ok_or_else(|| bad(path, n, "expected the header"))
}

/// Each complete line of a journal as JSON, with its number from 1; the length of the complete
/// lines and the number of a last line cut short (an interrupted run's, left out).
fn scan(
    path: &Path,
    mut each: impl FnMut(usize, Json) -> Result<(), JournalError>,
) -> Result<(u64, Option<usize>), JournalError> {
    let io = |source| JournalError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut reader = BufReader::new(File::open(path).map_err(io)?);
    let (mut kept, mut n) = (0u64, 0usize);
    let mut text = String::new();
    loop {
        text.clear();
        let read = reader.read_line(&mut text).map_err(io)?;
        if read == 0 {
            return Ok((kept, None));
        }
        n += 1;
        if !text.ends_with('\n') {
            return Ok((kept, Some(n)));
        }
        let j: Json = serde_json::from_str(&text).map_err(|e| bad(path, n, &e.to_string()))?;
        each(n, j)?;
        kept += read as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_back_bit_for_bit() {
        let dir = crate::testing::scratch("journal");
        let path = dir.join(FILE);
        let header = Header {
            elosim: "0.1.0".into(),
            study: "s".into(),
            file: "s.toml".into(),
            fingerprint: "f".into(),
            worlds: vec!["fide-2001-2025".into(), "fewer-upsets".into()],
            scale: Some(0.1),
            seeds: vec![1, 2],
            shard: (1, 1),
            parameters: vec![
                "revision[2017-01].factor".into(),
                "event[compression 2024-03].list".into(),
            ],
            columns: vec!["a.x".into(), "a.y".into(), "a.z".into()],
        };
        let row = Row {
            world: "fewer-upsets".into(),
            candidate: 3,
            seed: 2,
            label: "point".into(),
            values: vec![
                Some(KeyValue::Number(0.1 + 0.2)),
                Some(KeyValue::Month(crate::model::Month::new(2017, 1).unwrap())),
            ],
            figures: vec![Some(1.0 / 3.0), None, Some(f64::INFINITY)],
            seconds: 1.5,
            measure_seconds: 0.25,
        };
        let world = WorldLine {
            world: "fewer-upsets".into(),
            seed: 2,
            games: 4_000,
            seconds: 0.5,
        };
        let mut journal = Journal::create(&path, &header).unwrap();
        journal.world(&world).unwrap();
        journal.row(&row).unwrap();
        drop(journal);
        // An interrupted line at the end is left out, and appending starts where it began.
        let whole = std::fs::metadata(&path).unwrap().len();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"candidate\":4,\"se")
            .unwrap();
        let domains = [Domain::whole(0, 1), Domain::Month];
        assert_eq!(super::header(&path).unwrap(), (header.clone(), 1));
        let (read, kept) = read(&path, &domains).unwrap();
        assert_eq!(read.rows, std::slice::from_ref(&row));
        assert_eq!(read.worlds, [world]);
        assert_eq!(read.cut_short, Some(4));
        assert_eq!(kept, whole);
        let mut journal = Journal::append(&path, kept).unwrap();
        journal
            .row(&Row {
                candidate: 4,
                ..row.clone()
            })
            .unwrap();
        let (again, _) = super::read(&path, &domains).unwrap();
        assert_eq!(again.rows.len(), 2);
        assert_eq!(again.cut_short, None);
    }

    #[test]
    fn a_journal_whose_rows_name_no_world_is_refused_saying_so() {
        let dir = crate::testing::scratch("journal-old");
        let path = dir.join(FILE);
        std::fs::write(
            &path,
            "{\"elosim\":\"0.1.0\",\"study\":\"s\",\"file\":\"s.toml\",\"fingerprint\":\"f\",\"scale\":0.1,\"seeds\":[1],\"shard\":[1,1],\"parameters\":[],\"columns\":[]}\n{\"world\":1,\"games\":5,\"seconds\":0.1}\n",
        )
        .unwrap();
        let e = read(&path, &[]).unwrap_err().to_string();
        assert!(
            e.contains("line 1: a journal of an earlier elosim, whose rows name no world"),
            "{e}"
        );
    }
}
