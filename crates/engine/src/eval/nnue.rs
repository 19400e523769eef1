//! NNUE: an efficiently updatable neural network evaluation for the 8x8 variants.
//!
//! Architecture (the "perspective" net of Stockfish's NNUE and of the open trainers
//! bullet and nnue-pytorch, in its simplest form): 768 inputs per side, one per
//! (own/enemy, role, square) seen from that side (Black's squares flipped vertically);
//! a feature transformer to [`HIDDEN`] values per side; squared clipped ReLU
//! (`clamp(x, 0, 1)^2`); one output neuron over both sides' values, the side to
//! move's first. Integers: the transformer at scale [`QA`], the output weights at
//! [`QB`]; the output is centipawns times [`SCALE`] / (`QA * QB`).
//!
//! The transformer's sums (the accumulator) are kept per ply by the search
//! ([`AccumulatorStack`]) and brought up to date from any earlier position by the
//! difference of the two positions' piece bitboards: a normal move changes two or
//! three features, an atomic explosion several, a null move none; nothing depends on
//! how the move was made.
//!
//! File format (`nets/<variant>-<hash>.nnue`, the hash FNV-1a of the whole file,
//! little-endian): magic `SAPPERNN`, `u32` version 1, `u32` variant code (as in
//! datagen records), `u32` hidden size, then `i16` transformer weights
//! (`768 x HIDDEN`, feature-major), `i16` transformer biases (`HIDDEN`), `i16` output
//! weights (`2 x HIDDEN`), `i32` output bias. `sapper train` writes them. Version 2
//! (a residual network, [`Network::residual`]) is version 1 with a `u32` flags word
//! after the hidden size, bit 0 set; networks without the flag are written as
//! version 1, so their bytes and hashes stay as they were.

use crate::eval::params::{content_hash_bytes, hash_in_name};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::Geometry;
use sapper_rules::position::Position;
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::{Variant, VariantKind};

/// Inputs per side: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Hidden values per side (the transformer's width).
pub const HIDDEN: usize = 128;
/// Quantization of the transformer (weights, biases, accumulator): 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantization of the output weights: 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's raw output.
pub const SCALE: i32 = 400;
/// Largest weight magnitude the trainer allows (keeps the integer sums in range:
/// `2 * HIDDEN * QA^2 * 1.98 * QB < 2^31`).
pub const WEIGHT_CLIP: f32 = 1.98;
/// Largest output weight magnitude a file may hold (`WEIGHT_CLIP * QB`, rounded).
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

const MAGIC: &[u8; 8] = b"SAPPERNN";
const VERSION: u32 = 1;
/// The version with a flags word (bit 0: residual).
const VERSION_FLAGS: u32 = 2;
const HEADER_BYTES: usize = 20;
/// Bit 0 of the flags word: the output is added to the hand-written evaluation.
const FLAG_RESIDUAL: u32 = 1;

/// The size in bytes of a (version 1) network file; version 2 adds 4.
pub const FILE_BYTES: usize = HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// A quantized network. See the module documentation for the shapes.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The variant it was trained for.
    pub variant: VariantKind,
    /// FNV-1a (32 bits, hex) of the file.
    pub hash: String,
    /// Transformer weights, `INPUTS x HIDDEN`, feature-major, scale `QA`.
    ft_weights: Box<[i16]>,
    /// Transformer biases, scale `QA`.
    ft_bias: Box<[i16; HIDDEN]>,
    /// Output weights: the side to move's `HIDDEN`, then the other side's; scale `QB`.
    out_weights: Box<[i16; 2 * HIDDEN]>,
    /// Output bias, scale `QA * QB`.
    out_bias: i32,
    /// A residual network: it was trained on the score less the hand-written
    /// evaluation, and its output is added to that evaluation (the variant's
    /// parameters in use; king of the hill's, whose hill race a network of piece
    /// squares alone does not see).
    pub residual: bool,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({} {}x{}x2{}, hash {})",
            self.variant,
            INPUTS,
            HIDDEN,
            if self.residual { ", residual" } else { "" },
            self.hash
        )
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// Not a `SAPPERNN` file, or a version this build cannot read.
    BadHeader(String),
    /// The file's size does not match its header.
    WrongSize { expected: usize, found: usize },
    /// The hidden size differs from this build's [`HIDDEN`].
    WrongHidden(u32),
    /// The variant code is unknown.
    UnknownVariant(u32),
    /// The file name's hash does not match the content.
    HashMismatch { expected: String, found: String },
    /// An output weight beyond +-[`MAX_OUTPUT_WEIGHT`] (the integer sums would overflow).
    OutputWeightRange(i16),
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkError::BadHeader(why) => {
                write!(f, "not a Sapper network (SAPPERNN version {VERSION}): {why}")
            }
            NetworkError::WrongSize { expected, found } => {
                write!(f, "network file has {found} bytes, expected {expected}")
            }
            NetworkError::WrongHidden(h) => {
                write!(f, "network has {h} hidden values per side, this build {HIDDEN}")
            }
            NetworkError::UnknownVariant(c) => write!(f, "network names unknown variant code {c}"),
            NetworkError::HashMismatch { expected, found } => {
                write!(f, "content hash {found} does not match the name's {expected}")
            }
            NetworkError::OutputWeightRange(w) => {
                write!(f, "output weight {w} is beyond +-{MAX_OUTPUT_WEIGHT}")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// Little-endian reader over a byte slice whose length was checked beforehand.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> u32 {
        let v = u32::from_le_bytes(self.bytes[self.at..self.at + 4].try_into().expect("4 bytes"));
        self.at += 4;
        v
    }
    fn i32(&mut self) -> i32 {
        self.u32() as i32
    }
    fn i16s(&mut self, out: &mut [i16]) {
        for v in out.iter_mut() {
            *v = i16::from_le_bytes([self.bytes[self.at], self.bytes[self.at + 1]]);
            self.at += 2;
        }
    }
}

impl Network {
    /// Parses a network file; `name` (a path or file name) is checked against the
    /// content hash when it carries one (`chess-1a2b3c4d.nnue`).
    ///
    /// # Errors
    /// A [`NetworkError`] saying what is wrong; nothing is loaded.
    pub fn parse_named(name: &str, bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(NetworkError::BadHeader("no SAPPERNN magic".into()));
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32();
        if version != VERSION && version != VERSION_FLAGS {
            return Err(NetworkError::BadHeader(format!("version {version}")));
        }
        let code = r.u32();
        let variant = u8::try_from(code)
            .ok()
            .and_then(VariantKind::from_code)
            .ok_or(NetworkError::UnknownVariant(code))?;
        let hidden = r.u32();
        if hidden as usize != HIDDEN {
            return Err(NetworkError::WrongHidden(hidden));
        }
        let expected = FILE_BYTES + 4 * (version == VERSION_FLAGS) as usize;
        if bytes.len() != expected {
            return Err(NetworkError::WrongSize {
                expected,
                found: bytes.len(),
            });
        }
        let flags = if version == VERSION_FLAGS { r.u32() } else { 0 };
        if flags & !FLAG_RESIDUAL != 0 {
            return Err(NetworkError::BadHeader(format!("unknown flags {flags:#x}")));
        }
        let hash = content_hash_bytes(bytes);
        if let Some(expected) = hash_in_name(name) {
            if !expected.eq_ignore_ascii_case(&hash) {
                return Err(NetworkError::HashMismatch {
                    expected: expected.to_string(),
                    found: hash,
                });
            }
        }
        let mut ft_weights = vec![0i16; INPUTS * HIDDEN].into_boxed_slice();
        let mut ft_bias = Box::new([0i16; HIDDEN]);
        let mut out_weights = Box::new([0i16; 2 * HIDDEN]);
        r.i16s(&mut ft_weights);
        r.i16s(&mut ft_bias[..]);
        r.i16s(&mut out_weights[..]);
        let out_bias = r.i32();
        if let Some(&w) = out_weights.iter().find(|w| w.abs() > MAX_OUTPUT_WEIGHT) {
            return Err(NetworkError::OutputWeightRange(w));
        }
        Ok(Network {
            variant,
            hash,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            residual: flags & FLAG_RESIDUAL != 0,
        })
    }

    /// Builds a network from quantized parts (the trainer's output); the hash is that
    /// of [`Network::to_bytes`].
    ///
    /// # Panics
    /// If `ft_weights` is not `INPUTS * HIDDEN` long.
    pub fn from_parts(
        variant: VariantKind,
        ft_weights: Vec<i16>,
        ft_bias: [i16; HIDDEN],
        out_weights: [i16; 2 * HIDDEN],
        out_bias: i32,
    ) -> Network {
        assert_eq!(ft_weights.len(), INPUTS * HIDDEN, "transformer weights");
        let mut net = Network {
            variant,
            hash: String::new(),
            ft_weights: ft_weights.into_boxed_slice(),
            ft_bias: Box::new(ft_bias),
            out_weights: Box::new(out_weights),
            out_bias,
            residual: false,
        };
        net.hash = content_hash_bytes(&net.to_bytes());
        net
    }

    /// This network marked residual or not ([`Network::residual`]), its hash
    /// recomputed.
    pub fn with_residual(mut self, residual: bool) -> Network {
        self.residual = residual;
        self.hash = content_hash_bytes(&self.to_bytes());
        self
    }

    /// The quantized parts, as [`Network::from_parts`] takes them: transformer
    /// weights (`INPUTS x HIDDEN`, feature-major, scale `QA`), transformer biases
    /// (scale `QA`), output weights (side to move's `HIDDEN`, then the other side's;
    /// scale `QB`) and the output bias (scale `QA * QB`). A trainer starts from them.
    pub fn parts(&self) -> (&[i16], &[i16; HIDDEN], &[i16; 2 * HIDDEN], i32) {
        (&self.ft_weights, &self.ft_bias, &self.out_weights, self.out_bias)
    }

    /// The file bytes (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES + 4);
        out.extend_from_slice(MAGIC);
        let version = if self.residual { VERSION_FLAGS } else { VERSION };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&u32::from(self.variant.code()).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        if self.residual {
            out.extend_from_slice(&FLAG_RESIDUAL.to_le_bytes());
        }
        for v in self
            .ft_weights
            .iter()
            .chain(self.ft_bias.iter())
            .chain(self.out_weights.iter())
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        out
    }

    /// A network of the real shape with small random weights (seeded), for tests and
    /// benchmarks: what they measure depends on the shapes, not the values.
    pub fn random(variant: VariantKind, seed: u64) -> Network {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let ft: Vec<i16> = (0..INPUTS * HIDDEN).map(|_| rng.gen_range(-60..=60)).collect();
        let mut bias = [0i16; HIDDEN];
        bias.iter_mut().for_each(|b| *b = rng.gen_range(0..=120));
        let mut out = [0i16; 2 * HIDDEN];
        out.iter_mut().for_each(|w| *w = rng.gen_range(-126..=126));
        Network::from_parts(variant, ft, bias, out, rng.gen_range(-5000..=5000))
    }

    /// The transformer's weight row of input `feature`.
    #[inline(always)]
    fn row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * HIDDEN..(feature + 1) * HIDDEN]
    }

    /// The evaluation of accumulators `acc`, centipawns for `side` to move.
    #[inline]
    pub fn output(&self, acc: &Accumulator, side: Color) -> i32 {
        let (us, them) = (&acc.values[side.index()], &acc.values[1 - side.index()]);
        let w = &self.out_weights;
        let sum = screlu_dot(us, &w[..HIDDEN]) + screlu_dot(them, &w[HIDDEN..]);
        (sum / QA + self.out_bias) * SCALE / (QA * QB)
    }

    /// The network's output for `pos` from scratch, centipawns for the side to move
    /// (for a [`Network::residual`] one, what it adds to the hand-written evaluation).
    pub fn evaluate<V: Variant>(&self, pos: &Position<V>) -> i32 {
        let mut acc = Accumulator::default();
        acc.refresh(self, &PieceBoards::of(pos));
        self.output(&acc, pos.side_to_move())
    }
}

/// Reads and checks a network file (the `EvalFile` option, `sapper datagen
/// --eval-file`, `sapper train --init`): [`Network::parse_named`] on its bytes, so a
/// hash in the file name (`atomic-1a2b3c4d.nnue`) must match the content. The twin of
/// [`crate::eval::params::load_params_file`].
///
/// # Errors
/// A message naming the file and the problem.
pub fn load_network_file(path: impl AsRef<std::path::Path>) -> Result<Network, String> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Network::parse_named(&path.to_string_lossy(), &bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// `sum clamp(x, 0, QA)^2 * w` over a side's values (scale `QA^2 * QB`).
///
/// `c * w` is formed in 16 bits first (`c <= QA`, `|w| <= 126`: at most 32,130), then
/// widened and multiplied by `c`: the pattern compilers turn into `pmaddwd`, which
/// every x86-64 has (the "lizard" SCReLU trick of the open NNUE engines).
#[inline(always)]
fn screlu_dot(values: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&v, &w) in values.iter().zip(weights) {
        let c = v.clamp(0, QA as i16);
        sum += i32::from(c.wrapping_mul(w)) * i32::from(c);
    }
    sum
}

/// Whether variant `V`'s board fits the network's 64 squares.
#[inline(always)]
pub fn supports<V: Variant>() -> bool {
    V::G::SQUARES == 64
}

/// Input index of a piece of `color` and `role` on square index `sq` (0..64), seen
/// from `perspective`.
#[inline(always)]
pub fn feature(perspective: Color, color: Color, role: Role, sq: usize) -> usize {
    let (side, sq) = match perspective {
        Color::White => (color.index(), sq),
        Color::Black => (1 - color.index(), sq ^ 56),
    };
    side * 384 + role.index() * 64 + sq
}

/// The twelve piece bitboards of an 8x8 position, by `color * 6 + role`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceBoards(pub [u64; 12]);

impl PieceBoards {
    /// The pieces of `pos` (its board must have 64 squares, see [`supports`]).
    #[inline]
    pub fn of<V: Variant>(pos: &Position<V>) -> PieceBoards {
        let mut b = [0u64; 12];
        for color in Color::ALL {
            for role in Role::ALL {
                b[color.index() * 6 + role.index()] = pos.pieces(color, role).to_u128() as u64;
            }
        }
        PieceBoards(b)
    }
}

/// The transformer's output for both perspectives (White's first), scale `QA`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// `[perspective][hidden]`.
    pub values: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            values: [[0; HIDDEN]; 2],
        }
    }
}

impl Accumulator {
    /// Recomputes both perspectives from the biases and every piece of `boards`.
    pub fn refresh(&mut self, net: &Network, boards: &PieceBoards) {
        for p in 0..2 {
            self.values[p] = *net.ft_bias;
        }
        self.apply(net, &PieceBoards::default(), boards);
    }

    /// Moves the accumulator of `from` to that of `to` by their difference.
    #[inline]
    pub fn apply(&mut self, net: &Network, from: &PieceBoards, to: &PieceBoards) {
        for (i, (&old, &new)) in from.0.iter().zip(&to.0).enumerate() {
            if old == new {
                continue;
            }
            let color = if i < 6 { Color::White } else { Color::Black };
            let role = Role::ALL[i % 6];
            let (mut removed, mut added) = (old & !new, new & !old);
            while removed != 0 {
                let sq = removed.trailing_zeros() as usize;
                removed &= removed - 1;
                for p in Color::ALL {
                    sub(&mut self.values[p.index()], net.row(feature(p, color, role, sq)));
                }
            }
            while added != 0 {
                let sq = added.trailing_zeros() as usize;
                added &= added - 1;
                for p in Color::ALL {
                    add(&mut self.values[p.index()], net.row(feature(p, color, role, sq)));
                }
            }
        }
    }
}

#[inline(always)]
fn add(acc: &mut [i16; HIDDEN], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

#[inline(always)]
fn sub(acc: &mut [i16; HIDDEN], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
}

/// Changed pieces beyond which a refresh is cheaper than an update.
const REFRESH_THRESHOLD: u32 = 24;

/// One ply's accumulator and the pieces it was computed for.
#[derive(Clone, Copy)]
struct Slot {
    boards: PieceBoards,
    acc: Accumulator,
    valid: bool,
}

/// The search's accumulators, one per ply (index `ply + 1`; slot 0 is the root's
/// parent). A ply's evaluation starts from the slot above (normally its parent's
/// position) or, failing that, its own slot's previous position, and applies the
/// piece difference; the slot then holds the new position. Correct for any pair of
/// positions, so nothing has to be invalidated when the search backs up.
pub struct AccumulatorStack {
    slots: Vec<Slot>,
}

impl AccumulatorStack {
    /// Room for `plies` plies.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            slots: vec![
                Slot {
                    boards: PieceBoards::default(),
                    acc: Accumulator::default(),
                    valid: false,
                };
                plies + 2
            ],
        }
    }

    /// Forgets every slot (a new network, or a new search).
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            s.valid = false;
        }
    }

    /// The evaluation of `pos` at `ply`, centipawns for the side to move.
    #[inline]
    pub fn evaluate<V: Variant>(&mut self, net: &Network, pos: &Position<V>, ply: usize) -> i32 {
        let i = (ply + 1).min(self.slots.len() - 1);
        let boards = PieceBoards::of(pos);
        let changes = |s: &Slot| -> u32 {
            if !s.valid {
                return u32::MAX;
            }
            s.boards
                .0
                .iter()
                .zip(&boards.0)
                .map(|(a, b)| (a ^ b).count_ones())
                .sum()
        };
        let (parent, own) = (changes(&self.slots[i - 1]), changes(&self.slots[i]));
        if parent <= own && parent <= REFRESH_THRESHOLD {
            let (above, below) = self.slots.split_at_mut(i);
            let base = &above[i - 1];
            let slot = &mut below[0];
            slot.acc = base.acc;
            slot.acc.apply(net, &base.boards, &boards);
        } else if own <= REFRESH_THRESHOLD {
            let slot = &mut self.slots[i];
            let old = slot.boards;
            slot.acc.apply(net, &old, &boards);
        } else {
            self.slots[i].acc.refresh(net, &boards);
        }
        let slot = &mut self.slots[i];
        slot.boards = boards;
        slot.valid = true;
        net.output(&slot.acc, pos.side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use sapper_rules::variant::{Atomic, Chess};

    #[test]
    fn file_round_trips_and_checks_its_hash() {
        let net = Network::random(VariantKind::Chess, 1);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        let name = format!("chess-{}.nnue", net.hash);
        assert_eq!(Network::parse_named(&name, &bytes).as_ref(), Ok(&net));
        let mut corrupt = bytes.clone();
        corrupt[100] ^= 1;
        assert!(matches!(
            Network::parse_named(&name, &corrupt),
            Err(NetworkError::HashMismatch { .. })
        ));
        assert!(matches!(
            Network::parse_named("x.nnue", &bytes[..bytes.len() - 1]),
            Err(NetworkError::WrongSize { .. })
        ));
        assert!(matches!(
            Network::parse_named("x.nnue", b"SAPPEREVAL"),
            Err(NetworkError::BadHeader(_))
        ));
    }

    #[test]
    fn residual_flag_round_trips_in_version_2_and_plain_networks_stay_version_1() {
        let plain = Network::random(VariantKind::KingOfTheHill, 2);
        let residual = plain.clone().with_residual(true);
        assert_ne!(plain.hash, residual.hash);
        let bytes = residual.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES + 4);
        assert_eq!(
            u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
            VERSION_FLAGS
        );
        let name = format!("kingofthehill-{}.nnue", residual.hash);
        let parsed = Network::parse_named(&name, &bytes).expect("parses");
        assert!(parsed.residual);
        assert_eq!(parsed, residual);
        // Unmarking it gives back the version 1 bytes, hash and all.
        assert_eq!(parsed.with_residual(false), plain);
        assert_eq!(
            u32::from_le_bytes(plain.to_bytes()[8..12].try_into().unwrap()),
            VERSION
        );
        // Unknown flags are refused.
        let mut unknown = bytes.clone();
        unknown[20] |= 2;
        assert!(matches!(
            Network::parse_named("x.nnue", &unknown),
            Err(NetworkError::BadHeader(_))
        ));
        // A version 2 header with version 1's length is refused.
        assert!(matches!(
            Network::parse_named("x.nnue", &bytes[..FILE_BYTES]),
            Err(NetworkError::WrongSize { .. })
        ));
    }

    #[test]
    fn colour_flipped_position_scores_the_same_for_the_side_to_move() {
        let net = Network::random(VariantKind::Chess, 2);
        let (a, _) =
            Position::<Chess>::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .expect("fen");
        let (b, _) =
            Position::<Chess>::from_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3")
                .expect("fen");
        assert_eq!(net.evaluate(&a), net.evaluate(&b));
    }

    /// Random walks in chess and atomic (explosions remove several pieces): the
    /// incremental stack must equal a full refresh at every ply, whether it climbs
    /// from the parent or from the slot's previous position.
    #[test]
    fn incremental_updates_match_a_full_refresh() {
        fn walk<V: Variant>(net: &Network, seed: u64) {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let mut stack = AccumulatorStack::new(64);
            for _ in 0..20 {
                let mut pos = Position::<V>::startpos();
                let mut line = vec![pos];
                for _ in 0..60 {
                    assert_eq!(
                        stack.evaluate(net, &pos, line.len() - 1),
                        net.evaluate(&pos),
                        "{pos:?}"
                    );
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    // Sometimes back up a few plies, as the search does.
                    if line.len() > 4 && rng.gen_bool(0.2) {
                        let back = rng.gen_range(1..4);
                        line.truncate(line.len() - back);
                        pos = *line.last().expect("root stays");
                        continue;
                    }
                    pos.play(moves[rng.gen_range(0..moves.len())]);
                    line.push(pos);
                }
            }
        }
        walk::<Chess>(&Network::random(VariantKind::Chess, 3), 4);
        walk::<Atomic>(&Network::random(VariantKind::Atomic, 5), 6);
    }
}
