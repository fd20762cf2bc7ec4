//! A games file in the Kaggle 2010 layout for benchmarks: `players` players of normally distributed
//! strength (mean 2200, SD 200) meeting opponents of similar strength, results drawn from the
//! logistic curve with a third of the games drawn, spread evenly over `months` months.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use rayon::prelude::*;

use super::SplitMix64;
use crate::model::Month;

pub struct Shape {
    pub games: usize,
    pub players: usize,
    pub months: u32,
    pub seed: u64,
}

pub fn write(path: &Path, shape: &Shape) -> io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    writeln!(
        out,
        "\"Month #\",\"White Player #\",\"Black Player #\",\"Score\""
    )?;
    each_month(shape, |month, games| {
        for (white, black, score) in games {
            writeln!(out, "{},{white},{black},{score}", month + 1)?;
        }
        Ok(())
    })?;
    out.flush()
}

/// The same games as a dataset partitioned by rating period (`DIR/period=YYYY-MM/`), month 1 being
/// `first`, each month's games in `pieces` files of consecutive games (`part-000.csv` …) with the
/// columns `white,black,score`: the pieces of a list rated piece by piece, in the list's order.
pub fn write_pieces(dir: &Path, shape: &Shape, first: Month, pieces: usize) -> io::Result<()> {
    each_month(shape, |month, games| {
        let partition = dir.join(format!("period={}", first.plus(month as i32)));
        std::fs::create_dir_all(&partition)?;
        let per_piece = games.len().div_ceil(pieces.max(1)).max(1);
        for (i, piece) in games.chunks(per_piece).enumerate() {
            let file = partition.join(format!("part-{i:03}.csv"));
            let mut out = BufWriter::new(std::fs::File::create(file)?);
            writeln!(out, "white,black,score")?;
            for (white, black, score) in piece {
                writeln!(out, "{white},{black},{score}")?;
            }
            out.flush()?;
        }
        Ok(())
    })
}

/// Draws the games month by month and hands each month's, sorted by players, to `write`.
fn each_month(
    shape: &Shape,
    mut write: impl FnMut(usize, &[(usize, usize, &'static str)]) -> io::Result<()>,
) -> io::Result<()> {
    let mut rng = SplitMix64::new(shape.seed);
    let n = shape.players.max(2);
    let mut strength: Vec<(f64, usize)> = (0..n)
        .map(|i| (2200.0 + 200.0 * rng.normal(), i + 1))
        .collect();
    // Players sorted by strength, so that near indices are similar opponents.
    strength.sort_by(|a, b| a.0.total_cmp(&b.0));
    let months = shape.months.max(1) as usize;
    let mut month_games: Vec<(usize, usize, &'static str)> = Vec::new();
    for month in 0..months {
        let count = shape.games / months + usize::from(month < shape.games % months);
        month_games.clear();
        for _ in 0..count {
            let a = rng.below(n as u64) as usize;
            let offset = 1 + rng.below(200) as usize;
            let b = if a + offset < n {
                a + offset
            } else {
                a.saturating_sub(offset)
            };
            let (white, black) = if rng.below(2) == 0 { (a, b) } else { (b, a) };
            let expected =
                1.0 / (1.0 + 10f64.powf((strength[black].0 - strength[white].0) / 400.0));
            let u = rng.unit();
            let score = if u < 1.0 / 3.0 {
                "0.5"
            } else if rng.unit() < expected {
                "1"
            } else {
                "0"
            };
            month_games.push((strength[white].1, strength[black].1, score));
        }
        month_games.par_sort_unstable();
        write(month, &month_games)?;
    }
    Ok(())
}
