//! What every topic's tests share: running the binary, scratch directories, fixtures.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn elosim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_elosim"))
        .args(args)
        .output()
        .expect("the elosim binary runs")
}

/// Runs elosim expecting success; returns its standard output.
pub fn succeeds(args: &[&str]) -> String {
    let r = elosim(args);
    assert!(
        r.status.success(),
        "elosim {}: {}",
        args.join(" "),
        text(&r.stderr)
    );
    text(&r.stdout)
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[path = "../../src/testing.rs"]
mod testing;

/// A scratch directory per test, empty.
pub fn scratch(name: &str) -> PathBuf {
    let dir = testing::scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn write(dir: &Path, name: &str, contents: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

pub fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

/// A path in the repository, as text.
pub fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

pub fn history() -> String {
    repo("scenarios/fide-historical.toml")
}

/// Runs a replay expected to fail: non-zero exit, every `expected` fragment in the message, no
/// output directory left behind.
pub fn fails(name: &str, args: &[&str], expected: &[&str]) {
    let dir = scratch(name);
    let out = dir.join("run");
    let mut all = vec!["replay", "--quiet", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let result = elosim(&all);
    let stderr = text(&result.stderr);
    assert!(
        !result.status.success(),
        "{name}: expected a failure, got success"
    );
    for e in expected {
        assert!(stderr.contains(e), "{name}: {e:?} not in:\n{stderr}");
    }
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    assert!(!out.exists(), "{name}: a failed run left {}", out.display());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name() != "games.csv"
                && !e.file_name().to_string_lossy().ends_with(".toml")
                && !e.file_name().to_string_lossy().ends_with(".csv")
        })
        .collect();
    assert!(leftovers.is_empty(), "{name}: left {leftovers:?}");
}

/// A scenario over the small 2019 world with the given extra TOML.
pub fn scenario_with(dir: &Path, extra: &str) -> String {
    write(
        dir,
        "s.toml",
        &format!(
            "extends = {:?}\n[run]\nfrom = \"2019-03\"\n{extra}",
            history()
        ),
    )
}

/// Reads every file of a run, with `summary.json` stripped of its timing (and optionally of the
/// input checksums), for byte comparisons.
pub fn run_files(dir: &Path, drop_inputs: bool) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            let mut bytes = std::fs::read(&path).unwrap();
            if name == "summary.json" {
                let mut json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                json.as_object_mut().unwrap().remove("timing");
                if drop_inputs {
                    json.as_object_mut().unwrap().remove("inputs");
                }
                bytes = serde_json::to_vec(&json).unwrap();
            }
            if name == "scenario.resolved.toml" && drop_inputs {
                bytes = text(&bytes)
                    .lines()
                    .filter(|l| !l.starts_with("games =") && !l.starts_with("# Resolved"))
                    .collect::<Vec<_>>()
                    .join("\n")
                    .into_bytes();
            }
            files.push((name, bytes));
        }
    }
    files.sort();
    files
}

/// Writes `games-2019.csv` as a dataset partitioned by period, hive style (no period column),
/// with the games of a period split over two files; returns the dataset's directory.
pub fn games_2019_dataset(dir: &Path) -> PathBuf {
    let games = std::fs::read_to_string(fixture("games-2019.csv")).unwrap();
    let data = dir.join("games");
    let mut lines = games.lines();
    let header = lines.next().unwrap().split_once(',').unwrap().1.to_string();
    for (i, line) in lines.enumerate() {
        let (period, rest) = line.split_once(',').unwrap();
        let partition = data.join(format!("period={period}"));
        std::fs::create_dir_all(&partition).unwrap();
        let file = partition.join(format!("part-{}.csv", i % 2));
        let mut text = std::fs::read_to_string(&file).unwrap_or_else(|_| format!("{header}\n"));
        text += &format!("{rest}\n");
        std::fs::write(&file, text).unwrap();
    }
    // What data tools leave beside their tables is passed over.
    std::fs::write(data.join("_SUCCESS"), "").unwrap();
    data
}

/// The small 2019 fixture replayed into `dir/run`; the run's path.
pub fn replayed_fixture(dir: &Path) -> String {
    let run = dir.join("run").display().to_string();
    succeeds(&[
        "replay",
        &fixture("scenario-2019.toml"),
        "--quiet",
        "--out",
        &run,
    ]);
    run
}

/// Replays a shipped scenario (`scenarios/NAME.toml`) into `out`, quietly.
pub fn replay_shipped(name: &str, out: &Path) {
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(format!("{name}.toml"));
    succeeds(&[
        "replay",
        scenario.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
}

/// Replays `games` under the shipped history from the starting list `start`, the lists from
/// `from` on, into `out`, with `extra` arguments; returns what it printed.
pub fn replay_history(games: &str, start: &str, from: &str, out: &Path, extra: &[&str]) -> String {
    let out = out.to_str().unwrap();
    let history = history();
    let args = [
        "replay",
        &history,
        "--games",
        games,
        "--start-list",
        start,
        "--from",
        from,
        "--out",
        out,
    ];
    succeeds(&[&args[..], extra].concat())
}

/// A CSV file in `dir`: its header, then one line per row; returns its path.
pub fn write_csv(
    dir: &Path,
    name: &str,
    header: &str,
    rows: impl IntoIterator<Item = String>,
) -> String {
    let mut text = format!("{header}\n");
    for row in rows {
        text.push_str(&row);
        text.push('\n');
    }
    write(dir, name, &text)
}

/// `elosim explain RUN --player PLAYER --period PERIOD`, expected to succeed; what it printed.
pub fn explain(run: &Path, player: &str, period: &str) -> String {
    let run = run.to_str().unwrap();
    succeeds(&["explain", run, "--player", player, "--period", period])
}

/// `bytes` compressed by gzip.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// `bytes` compressed by zstd.
pub fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

/// A zip archive of `members` (name, bytes), each deflated or stored, as APPNOTE.TXT §4.3 lays
/// it out: local headers and data, the central directory, its end record.
pub fn zip_of(members: &[(&str, &[u8])], deflate: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut directory = Vec::new();
    for (name, bytes) in members {
        let data = if deflate {
            use std::io::Write;
            let mut e =
                flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        } else {
            bytes.to_vec()
        };
        let mut crc = flate2::Crc::new();
        crc.update(bytes);
        let method: u16 = if deflate { 8 } else { 0 };
        let common = [
            &20u16.to_le_bytes()[..],
            &0u16.to_le_bytes(),
            &method.to_le_bytes(),
            &0u32.to_le_bytes(),
            &crc.sum().to_le_bytes(),
            &(data.len() as u32).to_le_bytes(),
            &(bytes.len() as u32).to_le_bytes(),
            &(name.len() as u16).to_le_bytes(),
            &0u16.to_le_bytes(),
        ]
        .concat();
        let offset = out.len() as u32;
        out.extend_from_slice(b"PK\x03\x04");
        out.extend_from_slice(&common);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&data);
        directory.extend_from_slice(b"PK\x01\x02");
        directory.extend_from_slice(&20u16.to_le_bytes());
        directory.extend_from_slice(&common);
        directory.extend_from_slice(&[0; 10]);
        directory.extend_from_slice(&offset.to_le_bytes());
        directory.extend_from_slice(name.as_bytes());
    }
    let directory_at = out.len() as u32;
    out.extend_from_slice(&directory);
    out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    let count = (members.len() as u16).to_le_bytes();
    out.extend_from_slice(&[count, count].concat());
    out.extend_from_slice(&(directory.len() as u32).to_le_bytes());
    out.extend_from_slice(&directory_at.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// A CSV's rows as maps from column name to value.
pub fn csv_rows(csv: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    lines
        .map(|line| {
            header
                .iter()
                .zip(line.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}
