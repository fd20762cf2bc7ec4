//! The layers of the crate, checked: each module imports only from the modules below it (test code
//! aside), and no two sibling files of a module import each other, directly or round a circle
//! (docs/architecture.md).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Bottom first. The helpers (`numbers`, `named`) serve every layer; `keys` every reader of TOML
/// files (it reads months, so it sits above `model`).
const LAYERS: &[&str] = &[
    "numbers",
    "named",
    "model",
    "keys",
    "rules",
    "systems",
    "scenario",
    "ingest",
    "replay",
    "generate",
    "output",
    "plot",
    "report",
    "simulate",
    "calibrate",
    "sweep",
    "pipeline",
    "bench",
    "cli",
];

/// The source of every `.rs` file under `dir`, test modules cut off, by path.
fn sources(dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if name == "tests" || name.ends_with("_tests") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap().to_string();
            out.insert(path, code);
        }
    }
}

/// The names that follow `prefix` in `code`: `crate::` gives the modules used.
fn names_after<'a>(code: &'a str, prefix: &str) -> BTreeSet<&'a str> {
    code.match_indices(prefix)
        .map(|(at, _)| {
            let rest = &code[at + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn every_module_imports_only_from_below() {
    let rank = |m: &str| LAYERS.iter().position(|&l| l == m);
    let mut files = BTreeMap::new();
    sources(&src(), &mut files);
    let mut upward = Vec::new();
    for (path, code) in &files {
        let relative = path.strip_prefix(src()).unwrap();
        let top = relative.iter().next().unwrap().to_string_lossy();
        let Some(own) = rank(top.trim_end_matches(".rs")) else {
            continue;
        };
        for used in names_after(code, "crate::") {
            if rank(used).is_some_and(|r| r > own) {
                upward.push(format!("{} uses {used}", relative.display()));
            }
        }
    }
    assert!(upward.is_empty(), "imports against the layers: {upward:#?}");
    let mut listed: Vec<&str> = LAYERS.to_vec();
    listed.sort_unstable();
    for (path, _) in files.iter().filter(|(p, _)| p.parent() == Some(&src())) {
        let name = path.file_stem().unwrap().to_string_lossy();
        // The entry points, and the modules compiled for tests alone.
        let known = ["lib", "main", "layers", "testing"].contains(&name.as_ref());
        assert!(
            known || listed.contains(&name.as_ref()),
            "{name} has no layer"
        );
    }
}

#[test]
fn sibling_files_do_not_import_each_other_in_a_circle() {
    let mut files = BTreeMap::new();
    sources(&src(), &mut files);
    // Each file's sibling imports (`super::name`), mod.rs aside: a module's root declares its files
    // and may use them, and they use the vocabulary it declares.
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (path, code) in &files {
        if path.file_name().is_some_and(|n| n == "mod.rs") {
            continue;
        }
        let dir = path.parent().unwrap();
        for used in names_after(code, "super::") {
            let sibling = dir.join(format!("{used}.rs"));
            if files.contains_key(&sibling) && sibling != *path {
                edges.entry(path.clone()).or_default().insert(sibling);
            }
        }
    }
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&PathBuf> = edges[start].iter().collect();
        while let Some(next) = stack.pop() {
            assert!(
                next != start,
                "{} imports itself round a circle of sibling files",
                start.display()
            );
            if seen.insert(next) {
                stack.extend(edges.get(next).into_iter().flatten());
            }
        }
    }
}
