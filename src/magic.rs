//! "Fancy" magic bitboards for sliding attacks on the 8x8 board.
//!
//! Technique: Pradu Kannan's and Lasse Hansen's magic hashing as described on the
//! Chess Programming Wiki ("Magic Bitboards"): for each square, the relevant
//! occupancy is masked, multiplied by a magic number and shifted to index a
//! per-square slice of one shared attack table. The magic numbers are found at start-up
//! by a seeded random search (deterministic, about a millisecond in release builds)
//! instead of being pasted in from elsewhere.

use crate::geometry::{slide, RAY_DIRS};
use once_cell::sync::Lazy;

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct Tables {
    rook: Vec<Magic>,
    bishop: Vec<Magic>,
    attacks: Vec<u64>,
}

static TABLES: Lazy<Tables> = Lazy::new(build);

/// Rook attacks from square index `sq` (0..64) given the occupied squares.
#[inline(always)]
pub fn rook_attacks(sq: usize, occupied: u64) -> u64 {
    let t = &*TABLES;
    let m = &t.rook[sq];
    t.attacks[m.offset + ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Bishop attacks from square index `sq` (0..64) given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(sq: usize, occupied: u64) -> u64 {
    let t = &*TABLES;
    let m = &t.bishop[sq];
    t.attacks[m.offset + ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

fn attacks_slow(sq: usize, occupied: u64, dirs: &[(i8, i8)]) -> u64 {
    dirs.iter()
        .map(|&d| slide(sq, d, occupied as u128, 8) as u64)
        .fold(0, |a, b| a | b)
}

/// The relevant-occupancy mask: the rays without their last square, since a piece
/// on the board's edge blocks nothing further.
fn relevant_mask(sq: usize, dirs: &[(i8, i8)]) -> u64 {
    let mut mask = 0;
    for &d in dirs {
        let ray = slide(sq, d, 0, 8) as u64;
        if ray != 0 {
            let last = if (d.1 > 0) || (d.1 == 0 && d.0 > 0) {
                63 - ray.leading_zeros()
            } else {
                ray.trailing_zeros()
            };
            mask |= ray & !(1u64 << last);
        }
    }
    mask
}

/// xorshift64*: small, seeded, good enough to find magics.
struct Prng(u64);

impl Prng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find_magics(dirs: &[(i8, i8)], attacks: &mut Vec<u64>, rng: &mut Prng) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    let mut occupancies = Vec::with_capacity(4096);
    let mut reference = Vec::with_capacity(4096);
    let mut epoch = vec![0u32; 4096];
    let mut used = vec![0u64; 4096];
    let mut attempt = 0u32;
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        occupancies.clear();
        reference.clear();
        // Carry-Rippler enumeration of every subset of the mask.
        let mut subset = 0u64;
        loop {
            occupancies.push(subset);
            reference.push(attacks_slow(sq, subset, dirs));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let magic = loop {
            let candidate = rng.sparse();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for (occ, att) in occupancies.iter().zip(&reference) {
                let idx = (occ.wrapping_mul(candidate) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    used[idx] = *att;
                } else if used[idx] != *att {
                    ok = false;
                    break;
                }
            }
            if ok {
                break candidate;
            }
        };
        let offset = attacks.len();
        attacks.resize(offset + size, 0);
        for (occ, att) in occupancies.iter().zip(&reference) {
            attacks[offset + (occ.wrapping_mul(magic) >> shift) as usize] = *att;
        }
        magics.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    magics
}

fn build() -> Tables {
    let mut rng = Prng(0x5a9e_7b3c_d1f0_4e21);
    let mut attacks = Vec::with_capacity(102_400 + 5_248);
    let rook = find_magics(&RAY_DIRS[..4], &mut attacks, &mut rng);
    let bishop = find_magics(&RAY_DIRS[4..], &mut attacks, &mut rng);
    Tables {
        rook,
        bishop,
        attacks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_the_expected_size() {
        // 102,400 rook entries and 5,248 bishop entries: the sizes of plain fancy magics.
        assert_eq!(TABLES.attacks.len(), 102_400 + 5_248);
    }
}
