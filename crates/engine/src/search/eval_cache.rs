//! A per-thread cache of static evaluations keyed by the position's zobrist key.
//!
//! The transposition table keeps the evaluation of the nodes it stores, but
//! quiescence nodes that stand pat and cut store nothing, and the same leaves come
//! back in every re-search (PVS and LMR re-searches, aspiration windows, the next
//! iteration). Engines with a costly hand-written evaluation cache it apart from
//! the table (Crafty's eval hash, Stockfish 1.x-6's `EvalInfo` cache and its pawn
//! and material tables); the search reads the same numbers either way, so it
//! searches the same tree.

/// Entries in the cache (a power of two): 65,536 entries of 8 bytes, 512 KiB, which
/// stays in the processor's second-level cache.
const SIZE: usize = 1 << 16;
/// The low bits of the key index the entry; an entry keeps the rest.
const INDEX_BITS: u32 = SIZE.trailing_zeros();
const TAG_MASK: u64 = !((1 << INDEX_BITS) - 1);
/// An entry holds the key's bits above the index and the evaluation in the bits the
/// index took: every bit of the key is checked.
const EVAL_MASK: u64 = !TAG_MASK;

/// Evaluations in centipawns, found by key. Direct-mapped: a new entry replaces the
/// old one at its index.
pub struct EvalCache {
    entries: Vec<u64>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            entries: vec![0; SIZE],
        }
    }
}

impl EvalCache {
    /// Forgets every entry: at the start of a search, whose evaluation parameters
    /// may not be the last search's.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = 0);
    }

    #[inline(always)]
    fn index(key: u64) -> usize {
        key as usize & (SIZE - 1)
    }

    /// The evaluation stored for `key`, centipawns, if any.
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<i32> {
        let e = self.entries[Self::index(key)];
        // An empty entry (0) matches no key whose upper bits are not all zero.
        (e & TAG_MASK == key & TAG_MASK && e != 0).then_some((e & EVAL_MASK) as u16 as i16 as i32)
    }

    /// Stores `eval` (centipawns, within `i16`) for `key`.
    #[inline(always)]
    pub fn put(&mut self, key: u64, eval: i32) {
        debug_assert!(i16::try_from(eval).is_ok(), "evaluation {eval} out of range");
        self.entries[Self::index(key)] = (key & TAG_MASK) | (eval as i16 as u16 as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_what_was_stored_for_the_same_key_only() {
        let mut c = EvalCache::default();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(c.get(key), None);
        c.put(key, -321);
        assert_eq!(c.get(key), Some(-321));
        // Same index, other tag: a miss; then it replaces the entry.
        let other = key ^ (1 << 40);
        assert_eq!(c.get(other), None);
        c.put(other, 17);
        assert_eq!(c.get(other), Some(17));
        assert_eq!(c.get(key), None);
        // Other index, same tag: a miss.
        assert_eq!(c.get(other ^ 1), None);
        c.put(key, i16::MIN as i32);
        assert_eq!(c.get(key), Some(i16::MIN as i32));
        c.clear();
        assert_eq!(c.get(key), None);
    }
}
