//! The csv crate against elosim's hand-written tokenizer (src/ingest/text.rs, compiled in as is)
//! on the same file: every record's fields, the first four parsed as numbers. A Kaggle-layout file
//! of a million games comes from `elosim bench --runs 1 --keep DIR` (DIR/games.csv):
//!
//!     cargo bench --bench csv_tokenizer -- DIR/games.csv
//!
//! The decision in docs/performance.md ("Decisions the measurements made"), its figures in that
//! page's history.

// The readers' own modules, compiled into the bench as they are (`text` uses `super::error` and
// opens files through `super::compressed`, which reads zip archives through `super::zip`).
#[allow(dead_code, reason = "the bench opens plain files only")]
#[path = "../src/ingest/compressed.rs"]
mod compressed;
#[allow(dead_code, reason = "the bench uses only the tokenizer of the module")]
#[path = "../src/ingest/error.rs"]
mod error;
#[allow(dead_code, reason = "the bench uses only the tokenizer of the module")]
#[path = "../src/ingest/text.rs"]
mod text;
#[allow(dead_code, reason = "the bench opens plain files only")]
#[path = "../src/ingest/zip.rs"]
mod zip;
// What `text`'s own tests write into, when clippy checks them here.
#[cfg(test)]
#[path = "../src/testing.rs"]
mod testing;

use std::time::Instant;

fn parse(fields: [&[u8]; 4], sum: &mut u64) {
    for f in fields {
        let s = std::str::from_utf8(f).unwrap();
        *sum += s.trim().parse::<f64>().unwrap_or(0.0) as u64;
    }
}

fn main() {
    let Some(path) = std::env::args().skip(1).find(|a| !a.starts_with("--")) else {
        eprintln!("usage: cargo bench --bench csv_tokenizer -- FILE.csv (a Kaggle-layout file: elosim bench --runs 1 --keep DIR)");
        std::process::exit(2);
    };
    let path = std::path::PathBuf::from(path);
    let runs = 5;
    let mut best = [f64::MAX; 3];
    let mut sums = [0u64; 3];
    let mut lines = [0u32; 3];
    for _ in 0..runs {
        // elosim's tokenizer: read, decode (UTF-8 or Latin-1), sha256, then every record.
        let t = Instant::now();
        let csv = text::Csv::open(&path, "games").unwrap();
        let mut sum = 0;
        let mut last = 0;
        csv.for_each_row(&mut |line, fields| {
            let f = fields.unwrap();
            parse(
                [
                    f[0].as_bytes(),
                    f[1].as_bytes(),
                    f[2].as_bytes(),
                    f[3].as_bytes(),
                ],
                &mut sum,
            );
            last = line;
            Ok(())
        })
        .unwrap();
        best[0] = best[0].min(t.elapsed().as_secs_f64());
        sums[0] = sum;
        lines[0] = last;
        // The csv crate, records as bytes (no UTF-8 check: Latin-1 stays bytes).
        let t = Instant::now();
        let mut reader = csv::ReaderBuilder::new().from_path(&path).unwrap();
        let mut record = csv::ByteRecord::new();
        let mut sum = 0;
        let mut last = 0;
        while reader.read_byte_record(&mut record).unwrap() {
            parse([&record[0], &record[1], &record[2], &record[3]], &mut sum);
            last = record.position().unwrap().line() as u32;
        }
        best[1] = best[1].min(t.elapsed().as_secs_f64());
        sums[1] = sum;
        lines[1] = last;
        // The csv crate, plus the file's SHA-256 as elosim records it (one more pass).
        let t = Instant::now();
        let bytes = std::fs::read(&path).unwrap();
        let _ = text::sha256(&bytes);
        let mut reader = csv::ReaderBuilder::new().from_reader(&bytes[..]);
        let mut sum = 0;
        let mut last = 0;
        while reader.read_byte_record(&mut record).unwrap() {
            parse([&record[0], &record[1], &record[2], &record[3]], &mut sum);
            last = record.position().unwrap().line() as u32;
        }
        best[2] = best[2].min(t.elapsed().as_secs_f64());
        sums[2] = sum;
        lines[2] = last;
    }
    println!("best of {runs}: elosim tokenizer {:.3} s · csv crate {:.3} s · csv crate with the SHA-256 {:.3} s", best[0], best[1], best[2]);
    println!("checksums {:?}, last record's line {:?}", sums, lines);
}
