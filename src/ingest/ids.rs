//! Player ids as read, and their interning into dense [`PlayerId`]s in sorted order of the
//! original ids, so that the dense ids do not depend on the order of input rows.

use std::collections::HashMap;

use rayon::slice::ParallelSliceMut;

use crate::model::{IdMap, PlayerId, PlayerIds};

/// One column of ids as read: numbers while every id is a plain decimal number, else text.
#[derive(Debug)]
pub enum RawIds {
    Numbers(Vec<u64>),
    Text(Vec<String>),
}

impl Default for RawIds {
    fn default() -> Self {
        RawIds::Numbers(Vec::new())
    }
}

/// A plain decimal number without leading zeros ("007" stays text, so it cannot merge with "7").
fn plain_number(text: &str) -> Option<u64> {
    let plain = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    plain.then(|| text.parse().ok()).flatten()
}

impl RawIds {
    pub fn push(&mut self, id: &str) {
        match self {
            RawIds::Numbers(numbers) => match plain_number(id) {
                Some(n) => numbers.push(n),
                None => {
                    let mut text: Vec<String> = numbers.iter().map(u64::to_string).collect();
                    text.push(id.to_string());
                    *self = RawIds::Text(text);
                }
            },
            RawIds::Text(text) => text.push(id.to_string()),
        }
    }

    pub fn as_text(&self) -> Vec<String> {
        match self {
            RawIds::Numbers(v) => v.iter().map(u64::to_string).collect(),
            RawIds::Text(v) => v.clone(),
        }
    }
}

/// Numbers players as their ids come, over ids read in several blocks: "7" is one player whether
/// its block read ids as numbers or as text. Dense, but in order of appearance, not of the ids.
#[derive(Default)]
pub struct Numbering {
    numbers: HashMap<u64, u32>,
    text: HashMap<String, u32>,
}

impl Numbering {
    /// The number of the `i`th id of `ids`.
    pub fn number(&mut self, ids: &RawIds, i: usize) -> u32 {
        let next = (self.numbers.len() + self.text.len()) as u32;
        match ids {
            RawIds::Numbers(numbers) => *self.numbers.entry(numbers[i]).or_insert(next),
            RawIds::Text(text) => match plain_number(&text[i]) {
                Some(n) => *self.numbers.entry(n).or_insert(next),
                None => match self.text.get(&text[i]) {
                    Some(&n) => n,
                    None => {
                        self.text.insert(text[i].clone(), next);
                        next
                    }
                },
            },
        }
    }
}

/// Ids below this are told apart with a bit per possible id (16 MB at most) instead of sorting
/// every occurrence: FIDE's ids, Kaggle's numbers and the generator's all fall below it.
const BITSET_IDS: u64 = 1 << 27;

/// The distinct ids of the columns, sorted.
fn distinct_numbers(columns: &[&Vec<u64>]) -> Vec<u64> {
    let all = || columns.iter().flat_map(|v| v.iter().copied());
    let max = all().max().unwrap_or(0);
    if max < BITSET_IDS {
        let mut seen = vec![0u64; max as usize / 64 + 1];
        for id in all() {
            seen[id as usize / 64] |= 1 << (id % 64);
        }
        let mut unique = Vec::new();
        for (word, &bits) in seen.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                unique.push(word as u64 * 64 + u64::from(bits.trailing_zeros()));
                bits &= bits - 1;
            }
        }
        return unique;
    }
    let mut unique: Vec<u64> = all().collect();
    unique.par_sort_unstable();
    unique.dedup();
    unique
}

/// Interns every column; returns the ids and each column's dense ids, in the columns' order.
pub fn intern(columns: &[&RawIds]) -> (PlayerIds, Vec<Vec<PlayerId>>) {
    if columns.iter().all(|c| matches!(c, RawIds::Numbers(_))) {
        let numbers: Vec<&Vec<u64>> = columns
            .iter()
            .map(|c| match c {
                RawIds::Numbers(v) => v,
                RawIds::Text(_) => unreachable!(),
            })
            .collect();
        let unique = distinct_numbers(&numbers);
        let max = unique.last().copied().unwrap_or(0);
        let dense: Vec<Vec<PlayerId>> = if max < 1 << 24 {
            let mut table = vec![0u32; max as usize + 1];
            for (i, &id) in unique.iter().enumerate() {
                table[id as usize] = i as u32;
            }
            numbers
                .iter()
                .map(|v| v.iter().map(|&id| table[id as usize]).collect())
                .collect()
        } else {
            let map: IdMap<u64, u32> = unique
                .iter()
                .enumerate()
                .map(|(i, &id)| (id, i as u32))
                .collect();
            numbers
                .iter()
                .map(|v| v.iter().map(|id| map[id]).collect())
                .collect()
        };
        return (PlayerIds::Numbers(unique), dense);
    }
    let text: Vec<Vec<String>> = columns.iter().map(|c| c.as_text()).collect();
    let mut unique: Vec<&str> = text
        .iter()
        .flat_map(|v| v.iter().map(String::as_str))
        .collect();
    unique.par_sort_unstable();
    unique.dedup();
    let map: HashMap<&str, u32> = unique
        .iter()
        .enumerate()
        .map(|(i, &id)| (id, i as u32))
        .collect();
    let dense = text
        .iter()
        .map(|v| v.iter().map(|id| map[id.as_str()]).collect())
        .collect();
    (
        PlayerIds::Text(unique.into_iter().map(str::to_string).collect()),
        dense,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(values: &[&str]) -> RawIds {
        let mut r = RawIds::default();
        values.iter().for_each(|v| r.push(v));
        r
    }

    /// Blocks read their ids as numbers or as text by what else they hold: "7" is one player
    /// either way, "007" another.
    #[test]
    fn numbering_tells_players_apart_across_blocks() {
        let mut numbering = Numbering::default();
        let (numbers, text) = (ids(&["7", "12"]), ids(&["x", "7", "007", "12"]));
        assert!(matches!(text, RawIds::Text(_)));
        let first: Vec<u32> = (0..2).map(|i| numbering.number(&numbers, i)).collect();
        let second: Vec<u32> = (0..4).map(|i| numbering.number(&text, i)).collect();
        assert_eq!((first, second), (vec![0, 1], vec![2, 0, 3, 1]));
    }

    #[test]
    fn dense_ids_follow_the_sorted_original_ids() {
        let (players, dense) = intern(&[&ids(&["30", "10"]), &ids(&["20", "30"])]);
        assert_eq!(players, PlayerIds::Numbers(vec![10, 20, 30]));
        assert_eq!(dense, [vec![2, 0], vec![1, 2]]);
        let (players, dense) = intern(&[&ids(&["4000000000", "7"]), &ids(&["7"])]);
        assert_eq!(players, PlayerIds::Numbers(vec![7, 4_000_000_000]));
        assert_eq!(dense, [vec![1, 0], vec![0]]);
    }

    #[test]
    fn distinct_ids_are_the_same_below_and_above_the_bitset_bound() {
        let small = vec![5, 64, 63, 0, 5, 128, 64];
        assert_eq!(distinct_numbers(&[&small]), [0, 5, 63, 64, 128]);
        let big = vec![BITSET_IDS + 3, 7, BITSET_IDS + 3, 7];
        assert_eq!(
            distinct_numbers(&[&small, &big]),
            [0, 5, 7, 63, 64, 128, BITSET_IDS + 3]
        );
        assert!(distinct_numbers(&[&Vec::new()]).is_empty());
    }

    #[test]
    fn any_text_id_makes_all_ids_text() {
        let (players, dense) = intern(&[&ids(&["7", "alice"]), &ids(&["007"])]);
        assert_eq!(
            players,
            PlayerIds::Text(vec!["007".into(), "7".into(), "alice".into()])
        );
        assert_eq!(dense, [vec![1, 2], vec![0]]);
        assert_eq!(players.find("alice"), Some(2));
    }
}
