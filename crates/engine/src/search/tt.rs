//! The transposition table: a lock-free hash table shared by search threads.
//!
//! Each entry is two atomic 64-bit words, `key ^ data` and `data` (Hyatt and Mann's
//! "lockless transposition table", ICCA Journal 2002): a torn write by another thread
//! makes the XOR check fail, so a probe sees either a whole entry or a miss. Entries
//! come in clusters of four, one cache line; replacement prefers shallow and old
//! entries.

use sapper_rules::moves::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (all moves failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    /// The exact score (a PV node).
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound settles a search of the window
    /// (`alpha`, `beta`) (centipawns, already converted with `from_tt`): exact always,
    /// a lower bound at or above `beta`, an upper bound at or below `alpha`.
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// A probe's result. Scores are as stored: convert mate scores with
/// [`crate::search::score::from_tt`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// The best or refuting move found, possibly [`Move::NONE`].
    pub mv: Move,
    /// Search score, centipawns or ply-relative mate score.
    pub score: i32,
    /// Static evaluation of the position, centipawns.
    pub eval: i32,
    /// Depth of the search that produced the score, plies.
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
    /// Whether the position was on a principal variation when stored, or had been
    /// before (Stockfish's `ttPv`): such positions are searched with more care.
    pub pv: bool,
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

const CLUSTER: usize = 4;
const GENERATION_BITS: u64 = 5;
const GENERATION_MASK: u8 = (1 << GENERATION_BITS) - 1;
/// Entries are 16 bytes.
const ENTRY_BYTES: usize = 16;

/// The data word: move (17 bits), score and evaluation (16 each), depth (7, below
/// `MAX_PLY`), the PV flag (1), bound (2) and generation (5).
fn pack(hit: &TtHit, generation: u8) -> u64 {
    (hit.mv.raw() as u64)
        | ((hit.score as i16 as u16 as u64) << 17)
        | ((hit.eval as i16 as u16 as u64) << 33)
        | ((hit.depth.clamp(0, 127) as u64) << 49)
        | ((hit.pv as u64) << 56)
        | ((hit.bound as u64) << 57)
        | (((generation & GENERATION_MASK) as u64) << 59)
}

fn unpack(data: u64) -> Option<(TtHit, u8)> {
    let bound = match (data >> 57) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some((
        TtHit {
            mv: Move::from_raw((data & 0x1_ffff) as u32),
            score: (data >> 17) as u16 as i16 as i32,
            eval: (data >> 33) as u16 as i16 as i32,
            depth: ((data >> 49) & 0x7f) as i32,
            bound,
            pv: (data >> 56) & 1 != 0,
        },
        ((data >> 59) as u8) & GENERATION_MASK,
    ))
}

/// Four entries on one 64-byte cache line: a probe or a store touches one line
/// only (an unaligned cluster could straddle two and cost two misses).
#[derive(Default)]
#[repr(C, align(64))]
struct Cluster([Entry; CLUSTER]);

/// A shared transposition table. All methods take `&self`; threads share it by `Arc`.
pub struct TranspositionTable {
    clusters: Box<[Cluster]>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one cluster).
    pub fn new(mib: usize) -> TranspositionTable {
        Self::try_new(mib).unwrap_or_else(|| Self::try_new(1).expect("a 1 MiB table"))
    }

    /// A table of about `mib` MiB, or `None` if the memory cannot be reserved.
    pub fn try_new(mib: usize) -> Option<TranspositionTable> {
        let n = (mib.max(1) << 20) / (ENTRY_BYTES * CLUSTER);
        let mut clusters: Vec<Cluster> = Vec::new();
        clusters.try_reserve_exact(n).ok()?;
        super::large_pages::advise(clusters.spare_capacity_mut());
        clusters.extend((0..n).map(|_| Cluster::default()));
        Some(TranspositionTable {
            clusters: clusters.into_boxed_slice(),
            generation: AtomicU8::new(0),
        })
    }

    /// Size in MiB.
    pub fn size_mib(&self) -> usize {
        (self.clusters.len() * CLUSTER * ENTRY_BYTES) >> 20
    }

    /// Empties the table.
    pub fn clear(&self) {
        for e in self.clusters.iter().flat_map(|c| &c.0) {
            e.key_xor_data.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GENERATION_MASK, Ordering::Relaxed);
    }

    /// The cluster of `key`: Lemire's multiply-shift maps the key onto
    /// 0..clusters without a division.
    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.clusters.len() as u128) >> 64) as usize
    }

    /// Asks the processor to bring `key`'s cluster into the cache, so that the
    /// probe a moment later does not wait for memory (Stockfish's `prefetch` after
    /// `do_move`). No effect where the target has no prefetch instruction.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let line = &self.clusters[self.index(key)] as *const Cluster as *const i8;
            // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has; a
            // prefetch only hints the cache and never faults, and `line` points
            // into the table besides.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &[Entry] {
        &self.clusters[self.index(key)].0
    }

    /// Looks `key` up. Returns the entry if one with this exact key is stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in self.cluster(key) {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return unpack(data).map(|(hit, _)| hit);
            }
        }
        None
    }

    /// Stores a search result for `key`. `entry.score` must already be converted with
    /// [`crate::search::score::to_tt`]. An existing entry for the same key keeps its
    /// move when the new result has none. Replacement prefers shallow, old and
    /// non-PV entries.
    #[inline]
    pub fn store(&self, key: u64, entry: TtHit) {
        let TtHit { depth, bound, .. } = entry;
        let generation = self.generation.load(Ordering::Relaxed);
        let cluster = self.cluster(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in cluster.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            let stored_key = e.key_xor_data.load(Ordering::Relaxed) ^ data;
            let Some((old, old_gen)) = unpack(data) else {
                victim = i;
                victim_worth = i32::MIN;
                continue;
            };
            if stored_key == key {
                // Keep a deeper result of the same search unless the new one is exact.
                if bound != Bound::Exact && old_gen == generation && old.depth > depth + 3 {
                    return;
                }
                let mv = if entry.mv.is_none() { old.mv } else { entry.mv };
                write(e, key, pack(&TtHit { mv, ..entry }, generation));
                return;
            }
            let age = (generation.wrapping_sub(old_gen) & GENERATION_MASK) as i32;
            let worth = old.depth - 8 * age + 2 * i32::from(old.pv);
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        write(&cluster[victim], key, pack(&entry, generation));
    }

    /// Per mille of sampled entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = (self.clusters.len() * CLUSTER).min(1000);
        let used = self
            .clusters
            .iter()
            .flat_map(|c| &c.0)
            .take(sample)
            .filter_map(|e| unpack(e.data.load(Ordering::Relaxed)))
            .filter(|(_, g)| *g == generation)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[inline(always)]
fn write(e: &Entry, key: u64, data: u64) {
    e.key_xor_data.store(key ^ data, Ordering::Relaxed);
    e.data.store(data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::types::Square;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let mv = Move::normal(Square(12), Square(79));
        let entry = TtHit {
            mv,
            score: -31_000,
            eval: -32_000,
            depth: 127,
            bound: Bound::Lower,
            pv: true,
        };
        tt.store(0xdead_beef, entry);
        assert_eq!(tt.probe(0xdead_beef), Some(entry));
        let shallow = TtHit {
            depth: 0,
            pv: false,
            bound: Bound::Upper,
            ..entry
        };
        // A much shallower result of the same search does not replace it...
        tt.store(0xdead_beef, shallow);
        assert_eq!(tt.probe(0xdead_beef), Some(entry));
        // ...one of a later search does.
        tt.new_search();
        tt.store(0xdead_beef, shallow);
        assert_eq!(tt.probe(0xdead_beef), Some(shallow));
        assert!(tt.probe(0xdead_bef0).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef).is_none());
    }

    #[test]
    fn size_follows_the_hash_option() {
        assert_eq!(TranspositionTable::new(16).size_mib(), 16);
    }
}
