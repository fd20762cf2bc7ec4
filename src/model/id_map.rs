//! A fast hash map for player ids and other keys no adversary chooses.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiplicative hasher for ids: they are not chosen by an adversary, and SipHash would dominate
/// the time of interning millions of games or joining lists of half a million players.
#[derive(Default)]
pub struct IdHasher(u64);

/// A hash map keyed by player ids.
pub type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

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
