//! A fast hash map for player ids and other keys no adversary chooses.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiplicative hasher for ids: they are not chosen by an adversary, and SipHash would dominate
/// the time of interning millions of games or joining lists of half a million players.
#[derive(Default)]
pub struct IdHasher(u64);

/// A hash map keyed by player ids.
pub type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// Values numbered 0, 1, … in order of first appearance: numbers and texts in one sequence, kept
/// apart (the number 7 and the text "7" are different values). Ids and event names are numbered so.
#[derive(Debug)]
pub struct FirstSeen<N> {
    numbers: IdMap<N, u32>,
    text: HashMap<String, u32>,
}

impl<N> Default for FirstSeen<N> {
    fn default() -> Self {
        FirstSeen {
            numbers: IdMap::default(),
            text: HashMap::new(),
        }
    }
}

impl<N: std::hash::Hash + Eq> FirstSeen<N> {
    pub fn len(&self) -> usize {
        self.numbers.len() + self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of `v`, a new one if it was not seen.
    pub fn number(&mut self, v: N) -> u32 {
        let next = self.len() as u32;
        *self.numbers.entry(v).or_insert(next)
    }

    /// The number of the text `v`, a new one if it was not seen (the text copied only then).
    pub fn text(&mut self, v: &str) -> u32 {
        if let Some(&i) = self.text.get(v) {
            return i;
        }
        let next = self.len() as u32;
        self.text.insert(v.to_string(), next);
        next
    }

    pub fn find_number(&self, v: &N) -> Option<u32> {
        self.numbers.get(v).copied()
    }

    pub fn find_text(&self, v: &str) -> Option<u32> {
        self.text.get(v).copied()
    }

    /// Every value seen, written as text, with its number.
    pub fn into_names(self) -> impl Iterator<Item = (String, u32)>
    where
        N: ToString,
    {
        let numbers = self.numbers.into_iter().map(|(k, v)| (k.to_string(), v));
        self.text.into_iter().chain(numbers)
    }
}

impl Hasher for IdHasher {
    /// The multiply carries a key's low bits up but never its high bits down, and hash tables
    /// pick buckets from the low bits: text ids like "10352312" differ in their high bytes, so the
    /// state is folded (MurmurHash3's finaliser) before use.
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_numbered_in_order_of_first_appearance_numbers_and_texts_apart() {
        let mut seen = FirstSeen::<u64>::default();
        assert_eq!(
            [
                seen.number(7),
                seen.text("7"),
                seen.number(3),
                seen.number(7),
                seen.text("7")
            ],
            [0, 1, 2, 0, 1]
        );
        assert_eq!((seen.find_number(&3), seen.find_text("3")), (Some(2), None));
        let mut names: Vec<(String, u32)> = seen.into_names().collect();
        names.sort();
        assert_eq!(names, [("3".into(), 2), ("7".into(), 0), ("7".into(), 1)]);
    }
}
