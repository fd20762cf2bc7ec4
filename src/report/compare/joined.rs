//! Two lists joined by id: the players on both, their pair of ratings, and the largest differences
//! among them.

use crate::model::IdMap;

use super::super::run_files::ReportError;
use super::list::List;

/// The players on both lists as their rows on A and on B, in B's order.
pub(super) fn rows_on_both(a: &List, b: &List) -> Result<Vec<(usize, usize)>, ReportError> {
    let index_a: IdMap<&str, usize> = a
        .ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let rows: Vec<(usize, usize)> = b
        .ids
        .iter()
        .enumerate()
        .filter_map(|(j, id)| index_a.get(id.as_str()).map(|&i| (i, j)))
        .collect();
    if rows.is_empty() {
        return Err(ReportError::NotFound(format!(
            "{} and {} have no player in common: are they lists of the same pool, with the same kind of ids?",
            a.label, b.label
        )));
    }
    Ok(rows)
}

/// (rating A, rating B) of each of `rows`.
pub(super) fn pairs(a: &List, b: &List, rows: &[(usize, usize)]) -> Vec<(i32, i32)> {
    rows.iter()
        .map(|&(i, j)| (a.ratings[i], b.ratings[j]))
        .collect()
}

/// Which rows of a list of `len` players are among `on_both`.
pub(super) fn marked(len: usize, on_both: impl Iterator<Item = usize>) -> Vec<bool> {
    let mut marked = vec![false; len];
    for i in on_both {
        marked[i] = true;
    }
    marked
}

/// The `largest` |B − A| among `rows`, largest first, ties by id: (id, A, B).
pub(super) fn largest(
    a: &List,
    b: &List,
    mut rows: Vec<(usize, usize)>,
    largest: usize,
) -> Vec<(String, i32, i32)> {
    // Without sorting everyone: select, then order the few.
    let gap = |(i, j): (usize, usize)| (b.ratings[j] - a.ratings[i]).abs();
    let keep = largest.min(rows.len());
    if keep > 0 && keep < rows.len() {
        rows.select_nth_unstable_by(keep - 1, |x, y| {
            gap(*y).cmp(&gap(*x)).then(a.ids[x.0].cmp(&a.ids[y.0]))
        });
    }
    rows.truncate(keep);
    rows.sort_by(|x, y| gap(*y).cmp(&gap(*x)).then(a.ids[x.0].cmp(&a.ids[y.0])));
    rows.iter()
        .map(|&(i, j)| (a.ids[i].clone(), a.ratings[i], b.ratings[j]))
        .collect()
}
