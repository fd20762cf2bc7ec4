//! Compressed inputs: every reader reads a file compressed by gzip or zstd (known by its magic
//! bytes), or a zip archive of one file, and finds what it finds in the plain file.

use std::path::Path;

use crate::common::{fixture, gzip, run_files, scratch, succeeds, text, zip_of, zstd};

/// `source`'s bytes written into `dir` as NAME (`name`), NAME.gz, NAME.zst, NAME.zip (deflated)
/// and STEM-stored.EXT.zip (stored); their paths, plain first.
fn compressed_copies(dir: &Path, source: &str, name: &str) -> Vec<String> {
    let bytes = std::fs::read(source).unwrap();
    let (stem, ext) = name.rsplit_once('.').unwrap();
    let copies = [
        (name.to_string(), bytes.clone()),
        (format!("{name}.gz"), gzip(&bytes)),
        (format!("{name}.zst"), zstd(&bytes)),
        (format!("{name}.zip"), zip_of(&[(name, &bytes)], true)),
        (
            format!("{stem}-stored.{ext}.zip"),
            zip_of(&[(name, &bytes)], false),
        ),
    ];
    copies
        .into_iter()
        .map(|(file, bytes)| {
            let path = dir.join(file);
            std::fs::write(&path, bytes).unwrap();
            path.display().to_string()
        })
        .collect()
}

/// `output` with the file name of `copy` written as that of `plain` (reports name their inputs).
fn as_plain(output: &str, copy: &str, plain: &str) -> String {
    let name = |p: &str| {
        Path::new(p)
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string()
    };
    output.replace(&name(copy), &name(plain))
}

/// A replay from compressed games (read whole, and period by period with --stream) and a
/// compressed starting list writes the files the plain inputs give, byte for byte (the inputs'
/// checksums aside: they are the files' own).
#[test]
fn replays_of_compressed_inputs_are_byte_identical() {
    let dir = scratch("compressed-replay");
    let games = compressed_copies(&dir, &fixture("games-2019.csv"), "games.csv");
    let starts = compressed_copies(&dir, &fixture("start-2019.csv"), "start.csv");
    let scenario = fixture("scenario-2019.toml");
    let replay = |name: &str, games: &str, start: &str, extra: &[&str]| {
        let out = dir.join(name);
        let args = [
            &[
                "replay",
                &scenario,
                "--quiet",
                "--csv",
                "--games",
                games,
                "--start-list",
                start,
                "--out",
                out.to_str().unwrap(),
            ][..],
            extra,
        ]
        .concat();
        succeeds(&args);
        // The summary and the resolved scenario name the starting list's file, as given.
        run_files(&out, true)
            .into_iter()
            .map(|(file, bytes)| match file.as_str() {
                "summary.json" | "scenario.resolved.toml" => {
                    let json = as_plain(&text(&bytes), start, "start.csv");
                    (file, json.into_bytes())
                }
                _ => (file, bytes),
            })
            .collect::<Vec<_>>()
    };
    let plain = replay("plain", &games[0], &starts[0], &[]);
    assert!(plain.iter().any(|(name, _)| name == "lists.parquet"));
    for (i, (g, s)) in games.iter().zip(&starts).enumerate().skip(1) {
        assert_eq!(replay(&format!("c{i}"), g, s, &[]), plain, "{g}, {s}");
        let streamed = replay(&format!("s{i}"), g, s, &["--stream"]);
        assert_eq!(
            streamed,
            replay(&format!("p{i}"), &games[0], s, &["--stream"]),
            "{g} --stream"
        );
    }
    // The checksum recorded is the file's as stored.
    let summary = std::fs::read_to_string(dir.join("c2/summary.json")).unwrap();
    let zst = std::fs::read(&games[2]).unwrap();
    let sha: String = {
        use sha2::Digest;
        sha2::Sha256::digest(&zst)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    assert!(summary.contains(&sha), "{summary}");
}

/// PGN through `crosstable` (rated games read line by line): the same table from .pgn, .pgn.gz,
/// .pgn.zst and a zip of the .pgn.
#[test]
fn compressed_pgn_gives_the_same_crosstable() {
    let dir = scratch("compressed-pgn");
    let copies = compressed_copies(&dir, &fixture("tricky.pgn"), "tricky.pgn");
    let table = |pgn: &str| {
        succeeds(&[
            "crosstable",
            pgn,
            "--lowest",
            "2000",
            "--min-games",
            "1",
            "--format",
            "csv",
        ])
    };
    let plain = table(&copies[0]);
    assert!(plain.lines().count() > 2, "{plain}");
    for copy in &copies[1..] {
        assert_eq!(table(copy), plain, "{copy}");
    }
}

/// FIDE's list files, as FIDE's downloads come (zipped) or compressed, read by `compare` and
/// `histogram` as the plain TXT.
#[test]
fn compressed_fide_lists_compare_and_histogram_as_plain() {
    let dir = scratch("compressed-lists");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fide-lists");
    let a = compressed_copies(
        &dir,
        root.join("2007-01.TXT").to_str().unwrap(),
        "2007-01.TXT",
    );
    let b = compressed_copies(
        &dir,
        root.join("2008-01.TXT").to_str().unwrap(),
        "2008-01.TXT",
    );
    // The 2007 list holds a player twice (as FIDE published it).
    let compare =
        |a: &str, b: &str| succeeds(&["compare", a, b, "--format", "json", "--skip-invalid"]);
    let histogram = |a: &str| succeeds(&["histogram", a, "--format", "csv", "--skip-invalid"]);
    let (compared, counted) = (compare(&a[0], &b[0]), histogram(&a[0]));
    assert!(compared.contains("rmse"), "{compared}");
    for (x, y) in a.iter().zip(&b).skip(1) {
        let compared_here = as_plain(&as_plain(&compare(x, y), x, &a[0]), y, &b[0]);
        assert_eq!(compared_here, compared, "{x} against {y}");
        assert_eq!(histogram(x), counted, "{x}");
    }
}

/// A partitioned dataset's CSV parts may be compressed.
#[test]
fn dataset_parts_may_be_compressed() {
    let dir = scratch("compressed-dataset");
    let data = crate::common::games_2019_dataset(&dir);
    let replay = |name: &str| {
        let out = dir.join(name);
        succeeds(&[
            "replay",
            &fixture("scenario-2019.toml"),
            "--quiet",
            "--games",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        run_files(&out, true)
    };
    let plain = replay("plain");
    let mut n = 0;
    for entry in walk(&data) {
        if entry.extension().is_some_and(|e| e == "csv") {
            let bytes = std::fs::read(&entry).unwrap();
            let (name, packed) = if n % 2 == 0 {
                ("gz", gzip(&bytes))
            } else {
                ("zst", zstd(&bytes))
            };
            std::fs::write(entry.with_extension(format!("csv.{name}")), packed).unwrap();
            std::fs::remove_file(&entry).unwrap();
            n += 1;
        }
    }
    assert!(n >= 2);
    assert_eq!(replay("compressed"), plain);
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// A zip made on macOS holds its file beside a directory and `__MACOSX/` resource forks: the one
/// file is still the list.
#[test]
fn a_zips_directories_and_macos_forks_are_passed_over() {
    let dir = scratch("compressed-macos-zip");
    let list = std::fs::read(fixture("start-2019.csv")).unwrap();
    let zip = dir.join("start.zip");
    std::fs::write(
        &zip,
        zip_of(
            &[
                ("lists/", b""),
                ("lists/start.csv", &list),
                ("__MACOSX/lists/._start.csv", b"\0\x05\x16\x07 fork"),
            ],
            true,
        ),
    )
    .unwrap();
    let scenario = fixture("scenario-2019.toml");
    let replay = |start: &str, out: &str| {
        let out = dir.join(out);
        let args = [
            "replay",
            &scenario,
            "--quiet",
            "--csv",
            "--start-list",
            start,
            "--out",
            out.to_str().unwrap(),
        ];
        succeeds(&args);
        std::fs::read_to_string(out.join("lists/2019-04.csv")).unwrap()
    };
    assert_eq!(
        replay(zip.to_str().unwrap(), "zipped"),
        replay(&fixture("start-2019.csv"), "plain")
    );
}

/// FIDE's downloads as FIDE zips them (`standard_jan25frl.zip`, `standard_feb25frl_xml.zip`), and
/// gzip or zstd copies: the TXT and the XML give the histogram of the plain files.
#[test]
fn fide_downloads_zipped_or_compressed_read_as_plain() {
    let dir = scratch("compressed-downloads");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fide-lists-2025");
    let txt = compressed_copies(
        &dir,
        data.join("standard_jan25frl.txt").to_str().unwrap(),
        "standard_jan25frl.txt",
    );
    let xml = compressed_copies(
        &dir,
        data.join("standard_feb25frl_xml.xml").to_str().unwrap(),
        "standard_feb25frl_xml.xml",
    );
    let as_fide_names = |copy: &str, name: &str| {
        let path = dir.join(name);
        std::fs::copy(copy, &path).unwrap();
        path.display().to_string()
    };
    let txt_zip = as_fide_names(&txt[3], "standard_jan25frl.zip");
    let xml_zip = as_fide_names(&xml[3], "standard_feb25frl_xml.zip");
    let histogram =
        |a: &str, b: &str| succeeds(&["histogram", a, b, "--width", "400", "--format", "csv"]);
    let plain = histogram(&txt[0], &xml[0]);
    assert!(
        plain.contains("2025-01,") && plain.contains("2025-02,"),
        "{plain}"
    );
    for (a, b) in txt.iter().zip(&xml).skip(1) {
        assert_eq!(histogram(a, b), plain, "{a}, {b}");
    }
    assert_eq!(histogram(&txt_zip, &xml_zip), plain);
}

/// docs/compare.md's command on the shipped gzip-compressed CSV lists of January and February
/// 2025 runs as written and gives the figures the page shows.
#[test]
fn the_compare_docs_gzip_lists_are_read() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fide-lists-2025");
    let list = |name: &str| data.join(name).display().to_string();
    let compared = succeeds(&[
        "compare",
        &list("standard-2025-01.csv.gz"),
        &list("standard-2025-02.csv.gz"),
    ]);
    let all = compared
        .lines()
        .find(|line| line.starts_with("all "))
        .unwrap_or_else(|| panic!("{compared}"));
    let fields: Vec<&str> = all.split_whitespace().collect();
    assert_eq!(
        fields[1..6],
        ["254,784", "+0.1", "+0.0", "10.5", "2.5"],
        "{compared}"
    );
}
