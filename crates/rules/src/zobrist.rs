//! Zobrist keys (Zobrist 1970, "A New Hashing Method with Application for Game
//! Playing"), generated at compile time from a fixed seed so that keys, and hence
//! `bench` signatures and opening-book style lookups, are identical across builds.

/// SplitMix64's output for one step from `x` (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", 2014): a cheap, well-mixed 64-bit hash used for
/// zobrist keys, seeded layouts and data splits.
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One SplitMix64 step: the next state and the output.
const fn splitmix(state: u64) -> (u64, u64) {
    (state.wrapping_add(0x9e37_79b9_7f4a_7c15), splitmix64(state))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

/// Largest board: 80 squares.
const SQUARES: usize = 80;

static PIECE_SQUARE: [u64; 12 * SQUARES] = keys(0x5a99_e125_0001);
/// Index 0 (no rights) is zero, so a position without rights needs no castling term.
static CASTLING: [u64; 16] = {
    let mut k = keys(0x5a99_e125_0002);
    k[0] = 0;
    k
};
static EN_PASSANT_FILE: [u64; 8] = keys(0x5a99_e125_0003);
/// Per square, one key for each public minefield state (see [`minefield`]).
static MINEFIELD: [u64; SQUARES * 16] = keys(0x5a99_e125_0004);
static MINE_COUNTER: [u64; 8] = keys(0x5a99_e125_0005);

/// XORed in when Black is to move.
pub const SIDE: u64 = 0x1b87_3593_c9e1_2f4d;

/// Key of piece `piece_index` (0..12, [`crate::types::Piece::index`]) on square `sq`.
#[inline(always)]
pub fn piece_square(piece_index: usize, sq: usize) -> u64 {
    PIECE_SQUARE[piece_index * SQUARES + sq]
}

/// Key of a castling-rights bitmask (0..16).
#[inline(always)]
pub fn castling(rights: u8) -> u64 {
    CASTLING[rights as usize]
}

/// Key of an en-passant file (0..8).
#[inline(always)]
pub fn en_passant(file: u8) -> u64 {
    EN_PASSANT_FILE[file as usize]
}

/// Key of public minefield state `state` (0..16) on square `sq` (minesweeper only).
#[inline(always)]
pub fn minefield(sq: usize, state: usize) -> u64 {
    MINEFIELD[sq * 16 + state]
}

/// Key of the minesweeper mine counter (0..8).
#[inline(always)]
pub fn mine_counter(count: u8) -> u64 {
    MINE_COUNTER[count as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct() {
        let mut all: HashSet<u64> = HashSet::new();
        for k in PIECE_SQUARE
            .iter()
            .chain(&CASTLING[1..])
            .chain(&EN_PASSANT_FILE)
            .chain(&MINEFIELD)
            .chain(&MINE_COUNTER)
        {
            assert!(all.insert(*k), "duplicate key {k:#x}");
        }
        assert!(!all.contains(&SIDE));
    }
}
