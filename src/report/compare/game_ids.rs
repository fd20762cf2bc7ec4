//! Which of a set of ids a column holds: the pass over a run's periods or games that tells why
//! players are missing from its list.

use std::collections::{BTreeSet, HashSet};

use polars::prelude::*;

use crate::model::IdMap;

/// The ids of a number or text column that are among `wanted`, each once.
pub(super) fn ids_among(
    df: &DataFrame,
    name: &str,
    wanted: &HashSet<&str>,
) -> PolarsResult<Vec<String>> {
    let column = df.column(name)?;
    if column.dtype() == &DataType::Int64 {
        let mut numbers: Vec<i64> = wanted.iter().filter_map(|w| w.parse().ok()).collect();
        numbers.sort_unstable();
        let found = numbers_among(column.i64()?, &WantedNumbers::new(&numbers));
        return Ok(found.into_iter().map(|v| v.to_string()).collect());
    }
    let text = column.cast(&DataType::String)?;
    let found: BTreeSet<&str> = text
        .str()?
        .iter()
        .flatten()
        .filter(|v| wanted.contains(v))
        .collect();
    Ok(found.into_iter().map(str::to_string).collect())
}

/// The numbers of `column` that are wanted, each once, in order. Tens of millions of rows against
/// a few thousand ids: array by array, not through polars' row iterator.
fn numbers_among(column: &Int64Chunked, wanted: &WantedNumbers) -> Vec<i64> {
    let mut seen = WantedNumbers::new(&[]);
    for array in column.downcast_iter() {
        for (row, &v) in array.values().iter().enumerate() {
            if wanted.contains(v) && array.validity().is_none_or(|valid| valid.get_bit(row)) {
                seen.insert(v);
            }
        }
    }
    let mut found: Vec<i64> = seen.into_numbers();
    found.sort_unstable();
    found
}

/// A set of numbers: a bitset over their span when that is at most 2³² wide (ids are numbered
/// densely), else a fast hash.
enum WantedNumbers {
    Bits { low: i64, bits: Vec<u64> },
    Hash(IdMap<i64, ()>),
}

impl WantedNumbers {
    /// The set of `sorted`; an empty one grows as a hash.
    fn new(sorted: &[i64]) -> WantedNumbers {
        let (Some(&low), Some(&high)) = (sorted.first(), sorted.last()) else {
            return WantedNumbers::Hash(Default::default());
        };
        let span = high.abs_diff(low);
        if span >= 1 << 32 {
            return WantedNumbers::Hash(sorted.iter().map(|&v| (v, ())).collect());
        }
        let mut set = WantedNumbers::Bits {
            low,
            bits: vec![0; (span as usize + 1).div_ceil(64)],
        };
        for &v in sorted {
            set.insert(v);
        }
        set
    }

    fn index(low: i64, bits: &[u64], v: i64) -> Option<usize> {
        let i = v.wrapping_sub(low) as u64 as usize;
        (i < bits.len() * 64).then_some(i)
    }

    fn contains(&self, v: i64) -> bool {
        match self {
            WantedNumbers::Bits { low, bits } => {
                Self::index(*low, bits, v).is_some_and(|i| bits[i / 64] & (1 << (i % 64)) != 0)
            }
            WantedNumbers::Hash(set) => set.contains_key(&v),
        }
    }

    /// Adds `v`; a bitset takes only numbers within its span (those it was made with).
    fn insert(&mut self, v: i64) {
        match self {
            WantedNumbers::Bits { low, bits } => {
                if let Some(i) = Self::index(*low, bits, v) {
                    bits[i / 64] |= 1 << (i % 64);
                }
            }
            WantedNumbers::Hash(set) => {
                set.insert(v, ());
            }
        }
    }

    fn into_numbers(self) -> Vec<i64> {
        match self {
            WantedNumbers::Bits { low, bits } => (0..bits.len() * 64)
                .filter(|i| bits[i / 64] & (1 << (i % 64)) != 0)
                .map(|i| low + i as i64)
                .collect(),
            WantedNumbers::Hash(set) => set.into_keys().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids among those wanted that a games column holds, each once, whether the wanted span a
    /// bitset or a hash; a null row (whose value slot holds 0) is not an id.
    #[test]
    fn game_ids_are_found_among_the_wanted_ones() {
        let column = Int64Chunked::from_iter_options(
            "white".into(),
            [Some(7), Some(12), None, Some(7), Some(40), Some(1 << 40)].into_iter(),
        );
        let dense = WantedNumbers::new(&[0, 7, 9, 40]);
        assert!(matches!(dense, WantedNumbers::Bits { .. }));
        assert_eq!(numbers_among(&column, &dense), vec![7, 40]);
        let wide = WantedNumbers::new(&[0, 7, 1 << 40]);
        assert!(matches!(wide, WantedNumbers::Hash(_)));
        assert_eq!(numbers_among(&column, &wide), vec![7, 1 << 40]);
        assert!(numbers_among(&column, &WantedNumbers::new(&[])).is_empty());
    }
}
