//! Static evaluation: a linear model over a flat weight vector, in centipawns from the
//! side to move's point of view.
//!
//! Every term adds `coefficient * weight`, where the coefficient is a count the
//! position gives (pieces on a square, squares a knight attacks, a passed pawn on
//! the sixth rank) and the weight is a `[mg, eg]` pair from [`params::EvalParams`];
//! the two halves are blended by the game phase. The terms are computed once, by
//! [`terms`], into an [`Accumulator`]: [`Scorer`] multiplies by the weights (the fast
//! integer path that search uses) and [`Tracer`] records the sparse coefficients
//! (what the tuner fits and what UCI `eval` prints).
//!
//! Terms: material and piece-square tables, bishop pair, tempo; pawn structure
//! (doubled, isolated, supported, passed by rank, phalanxes, backward pawns: [`pawns`],
//! whose sums the search keeps per structure), mobility by piece type, king safety
//! (pawn shield, attacks on the king zone), rooks on open files, pawn and minor
//! threats; chess, king of the hill, three-check, atomic and minesweeper: king
//! danger from attackers, weak squares and checks ([`king`]), threats by role,
//! hanging pieces, passed pawns' king distances and paths, outposts, space
//! ([`classical`]);
//! atomic: king blast threats, the best blast's net value, pieces next to the own
//! king, connected kings; king of the hill: safe-path distance to the hill, the
//! race, hill control and blockers; minesweeper: pieces that must cross the fog.
//! The variant terms live in the variants' own modules here (`eval/atomic.rs`,
//! `eval/kingofthehill.rs`, `eval/minesweeper.rs`, ...), which add them through
//! [`VariantEval::eval_terms`]; the call is resolved at compile time.
//!
//! The numbers live in `nets/` (embedded at build time) or in a file named by the
//! `EvalFile` UCI option.

mod atomic;
mod chess;
pub mod classical;
pub mod endgame;
pub mod imbalance;
pub mod king;
pub mod kingofthehill;
pub mod minesweeper;
pub mod nnue;
pub mod params;
pub mod pawns;
mod threecheck;
pub mod variant;

pub use variant::{VariantEval, VariantKindEval};

use crate::eval::imbalance::ImbalanceTable;
use crate::eval::nnue::Network;
use crate::eval::pawns::PawnTable;
use once_cell::sync::Lazy;
pub use params::load_params_file;
use params::{block_of, idx, EvalParams, N_PARAMS};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::Geometry;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role, Square};
use sapper_rules::variant::{Variant, VariantKind};
use std::sync::Arc;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/default_nets.rs"));
}

/// Game phase weights of knight, bishop, rook and queen; 24 at the start.
const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the start position (and the most any position counts).
pub const MAX_PHASE: i32 = 24;

/// King-zone attack units per attacked zone square, by attacker role.
const KING_ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Attack units per [`idx::KING_DANGER`] bucket.
const KING_DANGER_STEP: i32 = 3;

static DEFAULTS: Lazy<Vec<(VariantKind, Arc<EvalParams>)>> = Lazy::new(|| {
    embedded::DEFAULT_NETS
        .iter()
        .map(|(variant, name, text)| {
            let kind: VariantKind = variant.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut params = EvalParams::parse_named(name, text, kind)
                .unwrap_or_else(|e| panic!("embedded parameters {name}: {e}"));
            params.nnue = default_nnue(kind);
            (kind, Arc::new(params))
        })
        .collect()
});

static DEFAULT_NNUE: Lazy<Vec<(VariantKind, Arc<Network>)>> = Lazy::new(|| {
    embedded::DEFAULT_NNUE
        .iter()
        .map(|(variant, name, bytes)| {
            let kind: VariantKind = variant.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            let net =
                Network::parse_named(name, bytes).unwrap_or_else(|e| panic!("embedded network {name}: {e}"));
            assert_eq!(
                net.variant, kind,
                "embedded network {name} is for another variant"
            );
            (kind, Arc::new(net))
        })
        .collect()
});

/// The embedded network of `variant`, if it has one.
pub fn default_nnue(variant: VariantKind) -> Option<Arc<Network>> {
    DEFAULT_NNUE
        .iter()
        .find(|(k, _)| *k == variant)
        .map(|(_, n)| Arc::clone(n))
}

/// The file name of the embedded network of `variant`, if it has one.
pub fn default_nnue_name(variant: VariantKind) -> Option<&'static str> {
    embedded::DEFAULT_NNUE
        .iter()
        .find(|(v, _, _)| *v == variant.name())
        .map(|(_, name, _)| *name)
}

/// The embedded parameters of `variant` (chess's if a variant had none).
pub fn default_params(variant: VariantKind) -> Arc<EvalParams> {
    DEFAULTS
        .iter()
        .find(|(k, _)| *k == variant)
        .or_else(|| DEFAULTS.iter().find(|(k, _)| *k == VariantKind::Chess))
        .map(|(_, p)| Arc::clone(p))
        .expect("chess parameters are embedded")
}

/// The file name of the embedded parameters of `variant` (shown by `uci` and `eval`).
pub fn default_params_name(variant: VariantKind) -> &'static str {
    embedded::DEFAULT_NETS
        .iter()
        .find(|(v, _, _)| *v == variant.name())
        .or_else(|| embedded::DEFAULT_NETS.iter().find(|(v, _, _)| *v == "chess"))
        .map(|(_, name, _)| *name)
        .unwrap_or("")
}

/// Middlegame and endgame halves of a score, White's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    /// Middlegame part, centipawns.
    pub mg: i32,
    /// Endgame part, centipawns.
    pub eg: i32,
}

impl std::ops::AddAssign for Tapered {
    fn add_assign(&mut self, o: Tapered) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

/// Blends middlegame and endgame sums by `phase` (0..=24), truncating toward zero.
#[inline(always)]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// Receives the evaluation's terms: `coef` times weight `index`, White's point of
/// view (Black's terms come with negated coefficients).
pub trait Accumulator: Sized {
    /// Adds `coef * weights[index]` (both halves).
    fn add(&mut self, index: usize, coef: i32);

    /// Adds the pawn-structure terms of `pos` ([`pawns::terms`]) and returns each
    /// side's passed pawns. A [`Scorer`] with a [`PawnTable`] replays both from the
    /// table when it knows the structure.
    #[inline(always)]
    fn pawn_structure<V: Variant>(&mut self, pos: &Position<V>) -> pawns::Passed<V> {
        pawns::terms(pos, self)
    }

    /// Adds the material imbalance of White's counts `w` and Black's `b`
    /// ([`imbalance::counts`]). A [`Scorer`] with an [`ImbalanceTable`] replays it from
    /// the table when it knows the material.
    #[inline(always)]
    fn imbalance(&mut self, w: [i32; 6], b: [i32; 6]) {
        imbalance::terms_of_counts(w, b, self);
    }
}

/// The evaluation's caches of one search thread: sums of terms that depend on part
/// of the position only, under one set of parameters ([`EvalTables::clear`] when
/// they may have changed).
#[derive(Default)]
pub struct EvalTables {
    pawns: PawnTable,
    imbalance: ImbalanceTable,
}

impl EvalTables {
    /// Forgets every entry: at the start of a search, whose evaluation parameters
    /// may not be the last search's.
    pub fn clear(&mut self) {
        self.pawns.clear();
        self.imbalance.clear();
    }
}

/// The fast path: sums `coef * weight` in integers, both halves at once in one
/// packed sum ([`params::pack`]).
pub struct Scorer<'a> {
    packed: &'a [i64; N_PARAMS],
    sum: i64,
    /// The caches of sums under these weights, when the caller keeps them.
    tables: Option<&'a mut EvalTables>,
}

impl<'a> Scorer<'a> {
    /// A zero sum over `params`.
    #[inline(always)]
    pub fn new(params: &'a EvalParams) -> Scorer<'a> {
        Scorer {
            packed: params.packed(),
            sum: 0,
            tables: None,
        }
    }

    /// A zero sum over `params` that reads and fills `tables` (whose entries must
    /// all have been summed under `params`).
    #[inline(always)]
    pub fn with_tables(params: &'a EvalParams, tables: &'a mut EvalTables) -> Scorer<'a> {
        Scorer {
            tables: Some(tables),
            ..Scorer::new(params)
        }
    }

    /// Adds the terms `compute` adds and returns what it returns, replayed from
    /// `tables` when `get` finds their packed sum there, else computed and given to
    /// `put` (their sum alone, with what `compute` returned). Without tables,
    /// `compute` runs as it is.
    #[inline(always)]
    fn replay<T: Copy>(
        &mut self,
        get: impl FnOnce(&EvalTables) -> Option<(i64, T)>,
        put: impl FnOnce(&mut EvalTables, i64, T),
        compute: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let Some(tables) = self.tables.take() else {
            return compute(self);
        };
        let out = if let Some((packed, out)) = get(tables) {
            self.sum = self.sum.wrapping_add(packed);
            out
        } else {
            // The terms alone, then added: the packed sum wraps, so the order of
            // the additions does not change the total.
            let before = std::mem::replace(&mut self.sum, 0);
            let out = compute(self);
            put(tables, self.sum, out);
            self.sum = self.sum.wrapping_add(before);
            out
        };
        self.tables = Some(tables);
        out
    }

    /// The `[mg, eg]` sums so far, White's point of view, centipawns.
    #[inline(always)]
    pub fn halves(&self) -> [i32; 2] {
        params::unpack(self.sum)
    }
}

impl Accumulator for Scorer<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, coef: i32) {
        self.sum = self
            .sum
            .wrapping_add((coef as i64).wrapping_mul(self.packed[index]));
    }

    #[inline(always)]
    fn pawn_structure<V: Variant>(&mut self, pos: &Position<V>) -> pawns::Passed<V> {
        if self.tables.is_none() {
            return pawns::terms(pos, self);
        }
        let key = pawns::key(pos);
        self.replay(
            |t| t.pawns.get::<V>(key),
            |t, packed, passed| t.pawns.put::<V>(key, packed, passed),
            |acc| pawns::terms(pos, acc),
        )
    }

    #[inline(always)]
    fn imbalance(&mut self, w: [i32; 6], b: [i32; 6]) {
        // Equal material has no imbalance: nothing to look up.
        if w == b || self.tables.is_none() {
            return imbalance::terms_of_counts(w, b, self);
        }
        let key = imbalance::key(w, b);
        self.replay(
            |t| t.imbalance.get(key).map(|packed| (packed, ())),
            |t, packed, ()| t.imbalance.put(key, packed),
            |acc| imbalance::terms_of_counts(w, b, acc),
        )
    }
}

/// The tracing path: records every `(index, coef)`; [`Tracer::finish`] merges them.
#[derive(Clone, Debug, Default)]
pub struct Tracer {
    /// Recorded `(weight index, coefficient)` pairs, White's point of view.
    pub entries: Vec<(u16, i32)>,
}

impl Accumulator for Tracer {
    #[inline]
    fn add(&mut self, index: usize, coef: i32) {
        if coef != 0 {
            self.entries.push((index as u16, coef));
        }
    }
}

impl Tracer {
    /// The entries sorted by index, equal indices summed, zeros dropped.
    pub fn finish(mut self) -> Vec<(u16, i32)> {
        self.entries.sort_unstable_by_key(|e| e.0);
        let mut out: Vec<(u16, i32)> = Vec::with_capacity(self.entries.len());
        for (i, c) in self.entries {
            match out.last_mut() {
                Some(last) if last.0 == i => last.1 += c,
                _ => out.push((i, c)),
            }
        }
        out.retain(|e| e.1 != 0);
        out
    }
}

/// The linear coefficients of a position: what the tuner fits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coefficients {
    /// `(weight index, coefficient)`, sorted by index, no zeros, White's point of view.
    pub entries: Vec<(u16, i32)>,
    /// Game phase, 0 (bare kings) to 24 (all pieces).
    pub phase: i32,
    /// `+1` when White is to move, `-1` for Black.
    pub side: i32,
}

impl Coefficients {
    /// The evaluation these coefficients give with `params`, White's point of view,
    /// exactly as [`evaluate`] computes it.
    pub fn evaluate_white(&self, params: &EvalParams) -> i32 {
        let mut s = Scorer::new(params);
        for &(i, c) in &self.entries {
            s.add(i as usize, c);
        }
        let [mg, eg] = s.halves();
        taper(mg, eg, self.phase)
    }
}

/// Evaluates `pos` for the side to move, in centipawns: known endgames first, then
/// the network where `params` holds one that fits the board (from scratch; the
/// search updates its own accumulators instead), else the linear evaluation.
#[inline]
pub fn evaluate<V: VariantEval>(pos: &Position<V>, params: &EvalParams) -> i32 {
    if let Some(known) = endgame::known(pos) {
        return known;
    }
    if let Some(net) = params
        .nnue
        .as_deref()
        .filter(|_| crate::eval::nnue::supports::<V>())
    {
        let base = if net.residual {
            evaluate_linear(pos, params)
        } else {
            0
        };
        return net.evaluate(pos) + base;
    }
    evaluate_linear(pos, params)
}

/// The hand-written (linear) evaluation of `pos` for the side to move, centipawns.
#[inline]
pub fn evaluate_linear<V: VariantEval>(pos: &Position<V>, params: &EvalParams) -> i32 {
    score(pos, Scorer::new(params))
}

/// [`evaluate_linear`], with the pawn structure's and the material imbalance's terms
/// read from `tables` when they have them and stored there when not (the search's
/// path). Every entry of `tables` must have been made under `params`:
/// [`EvalTables::clear`] when they change.
#[inline]
pub fn evaluate_linear_with<V: VariantEval>(
    pos: &Position<V>,
    params: &EvalParams,
    tables: &mut EvalTables,
) -> i32 {
    score(pos, Scorer::with_tables(params, tables))
}

#[inline(always)]
fn score<V: VariantEval>(pos: &Position<V>, mut acc: Scorer) -> i32 {
    let phase = terms(pos, &mut acc);
    let [mg, eg] = acc.halves();
    taper(mg, eg, phase) * pos.side_to_move().sign()
}

/// The linear coefficients of `pos` (for the tuner).
pub fn coefficients<V: VariantEval>(pos: &Position<V>) -> Coefficients {
    let mut tracer = Tracer::default();
    let phase = terms(pos, &mut tracer);
    Coefficients {
        entries: tracer.finish(),
        phase,
        side: pos.side_to_move().sign(),
    }
}

/// The evaluation split into its terms (for UCI `eval`).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Each block's contribution, White's point of view, centipawns, blocks with a
    /// non-zero coefficient only, in [`params::SCHEMA`] order.
    pub terms: Vec<(&'static str, Tapered)>,
    /// Game phase, 0 (bare kings) to 24 (all pieces).
    pub phase: i32,
    /// Final score, White's point of view, centipawns (tempo included): the known
    /// endgame's score when [`Trace::endgame`] is set, else the terms' blend.
    pub total_white: i32,
    /// Whether a known endgame ([`endgame::known`]) overrides the terms.
    pub endgame: bool,
}

impl Trace {
    /// A readable table: one line per term with its middlegame and endgame sums and
    /// the blend at this phase, then the total (White's point of view, centipawns).
    pub fn table(&self) -> Vec<String> {
        let mut lines = vec![
            format!("Phase: {} / {MAX_PHASE}", self.phase),
            format!(
                "{:<24} | {:>7} {:>7} {:>7}",
                "Term (White's view)", "MG", "EG", "Blend"
            ),
        ];
        for (name, t) in &self.terms {
            lines.push(format!(
                "{name:<24} | {:>7} {:>7} {:>7}",
                t.mg,
                t.eg,
                taper(t.mg, t.eg, self.phase)
            ));
        }
        if self.endgame {
            lines.push(format!(
                "{:<24} | {:>23}",
                "Known endgame (overrides)", self.total_white
            ));
        }
        lines.push(format!("{:<24} | {:>23}", "Total", self.total_white));
        lines
    }
}

/// Evaluates `pos` and returns the terms (White's point of view).
pub fn trace<V: VariantEval>(pos: &Position<V>, params: &EvalParams) -> Trace {
    let coefficients = coefficients(pos);
    // The entries are sorted by index and the blocks lie in index order, so each
    // block's entries are consecutive: one pass groups them in schema order.
    let mut terms: Vec<(&'static str, Tapered)> = Vec::new();
    for &(i, c) in &coefficients.entries {
        let name = block_of(i as usize).name;
        let [mg, eg] = params.weights()[i as usize];
        let part = Tapered {
            mg: c * mg,
            eg: c * eg,
        };
        match terms.last_mut() {
            Some((last, t)) if *last == name => *t += part,
            _ => terms.push((name, part)),
        }
    }
    let known = endgame::known(pos).map(|v| v * pos.side_to_move().sign());
    Trace {
        total_white: known.unwrap_or_else(|| coefficients.evaluate_white(params)),
        phase: coefficients.phase,
        terms,
        endgame: known.is_some(),
    }
}

/// `sq`'s rank counted from `color`'s side (0 = its back rank).
#[inline(always)]
pub(crate) fn relative_rank<G: Geometry>(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq.rank() as usize,
        Color::Black => (G::RANKS - 1 - sq.rank()) as usize,
    }
}

/// [`relative_rank`] as an index 0..8: a 10-rank board (minesweeper) is squeezed
/// onto 8 ranks, keeping the edges, so that 8-entry by-rank blocks and 64-entry
/// tables serve it too.
#[inline(always)]
pub(crate) fn rank8<G: Geometry>(sq: Square, color: Color) -> usize {
    const { assert!(G::RANKS == 8 || G::RANKS == 10) };
    let rank = relative_rank::<G>(sq, color);
    if G::RANKS == 8 {
        rank
    } else {
        // A table rather than the division: 0.8% of a minesweeper search's
        // instructions went to it (callgrind).
        RANK8_OF_10[rank & 15] as usize
    }
}

/// A 10-rank board's ranks squeezed onto 8, rounded to nearest: `(r * 7 + 4) / 9`;
/// padded to 16 entries so that a lookup needs no bounds check.
const RANK8_OF_10: [u8; 16] = {
    let mut table = [7; 16];
    let mut rank = 0;
    while rank < 10 {
        table[rank] = ((rank * 7 + 4) / 9) as u8;
        rank += 1;
    }
    table
};

/// Index into a 64-entry table for `sq` seen from `color`'s side (ranks are mirrored
/// for Black; a 10-rank board is squeezed onto 8 ranks: [`rank8`]).
#[inline(always)]
fn table_index<G: Geometry>(sq: Square, color: Color) -> usize {
    rank8::<G>(sq, color) * 8 + sq.file() as usize
}

/// `b` shifted one rank toward `color`'s promotion rank.
#[inline(always)]
pub(crate) fn forward<B: BitBoard>(color: Color, b: B) -> B {
    match color {
        Color::White => b.north(),
        Color::Black => b.south(),
    }
}

/// `b` shifted one rank toward `color`'s back rank.
#[inline(always)]
pub(crate) fn backward<B: BitBoard>(color: Color, b: B) -> B {
    forward(!color, b)
}

/// `b` and every square in front of it (toward `color`'s promotion rank).
#[inline(always)]
pub(crate) fn fill_forward<B: BitBoard>(color: Color, b: B) -> B {
    // Kogge-Stone: three (8x8) or four (8x10) shifts; bits pushed past the board are
    // dropped by `from_u128`.
    let mut x = b.to_u128();
    match color {
        Color::White => {
            x |= x << 8;
            x |= x << 16;
            x |= x << 32;
            if B::RANKS > 8 {
                x |= x << 64;
            }
        }
        Color::Black => {
            if B::RANKS > 8 {
                x |= x >> 64;
            }
            x |= x >> 32;
            x |= x >> 16;
            x |= x >> 8;
        }
    }
    B::from_u128(x)
}

/// The squares strictly behind (toward `color`'s back rank) the squares of `b`.
#[inline(always)]
pub(crate) fn rear_span<B: BitBoard>(color: Color, b: B) -> B {
    fill_forward(!color, backward(color, b))
}

/// Squares attacked by `color`'s pawns in `pawns`.
#[inline(always)]
pub(crate) fn pawn_attacks<B: BitBoard>(color: Color, pawns: B) -> B {
    let f = forward(color, pawns);
    f.east() | f.west()
}

/// The squares next to those of `b`, `b` included.
#[inline(always)]
pub(crate) fn dilate<B: BitBoard>(b: B) -> B {
    let v = b | b.north() | b.south();
    v | v.east() | v.west()
}

/// What the evaluation's piece loop learns about one side; variant terms
/// ([`VariantEval::eval_terms`]) read it.
#[derive(Clone, Copy)]
pub struct SideInfo<B> {
    /// Squares attacked by pawns, knights, bishops, rooks, queens, king (index = role).
    pub(crate) by_role: [B; 6],
    /// Squares attacked by anything but the king.
    pub(crate) non_king: B,
    /// Squares attacked by anything.
    pub(crate) all: B,
    /// Squares attacked by at least two of the king, knights, bishops, rooks and
    /// queens (pawn attacks count separately).
    pub(crate) twice: B,
    /// The king zone: the king's square and its neighbours (empty without a king).
    pub(crate) king_zone: B,
    /// This side's knights, bishops, rooks and queens that attack the enemy king
    /// zone ([`king`]'s attacker count).
    pub(crate) zone_attackers: i32,
    /// Their summed [`VariantEval::KING_ATTACKER_WEIGHT`].
    pub(crate) zone_attack_weight: i32,
    /// Their attacks on squares next to the enemy king, one per piece and square.
    pub(crate) ring_attacks: i32,
    /// This side's passed pawns (set by the pawn-structure pass, before
    /// [`VariantEval::eval_terms`] reads it).
    pub(crate) passed: B,
}

impl<B: BitBoard> SideInfo<B> {
    /// Squares attacked by pawns.
    #[inline(always)]
    pub(crate) fn pawn_attacks(&self) -> B {
        self.by_role[Role::Pawn.index()]
    }

    /// Squares attacked at least twice, pawns included (Stockfish's `attackedBy2`).
    #[inline(always)]
    pub(crate) fn twice_with_pawns(&self) -> B {
        let non_pawn =
            self.by_role[1] | self.by_role[2] | self.by_role[3] | self.by_role[4] | self.by_role[5];
        self.twice | (self.pawn_attacks() & non_pawn)
    }

    /// Squares next to the king (empty without a king).
    #[inline(always)]
    pub(crate) fn king_ring(&self) -> B {
        self.by_role[Role::King.index()]
    }
}

/// What one side's pieces aim at: mobility's area (squares neither own nor hit by an
/// enemy pawn) and the enemy king's zone and ring.
struct Targets<B> {
    area: B,
    zone: B,
    ring: B,
}

/// Mobility table and its length (attacked squares counted up to `len - 1`), by role.
const MOBILITY: [(usize, usize); 6] = [
    (0, 1),
    (idx::MOBILITY_KNIGHT, 9),
    (idx::MOBILITY_BISHOP, 14),
    (idx::MOBILITY_ROOK, 15),
    (idx::MOBILITY_QUEEN, 28),
    (0, 1),
];

/// The attacks of `color`'s pieces of role index `R` (a knight, bishop, rook or
/// queen) on `occupied`: adds their mobility terms to `acc` and their attacks and
/// king-zone hits to `side`; returns the king-attack units they give the enemy king.
/// `R` is a constant so that each role gets its own loop with its attack function
/// fixed: one loop over the roles with a `match` inside mispredicted at every piece.
#[inline(always)]
fn piece_terms<V: VariantEval, A: Accumulator, const R: usize>(
    pos: &Position<V>,
    color: Color,
    occupied: Bb<V>,
    targets: &Targets<Bb<V>>,
    side: &mut SideInfo<Bb<V>>,
    acc: &mut A,
) -> i32 {
    type G<V> = <V as Variant>::G;
    let s = color.sign();
    let (table, len) = MOBILITY[R];
    let mut units = 0;
    for sq in pos.pieces(color, Role::ALL[R]).squares() {
        let attacks = match Role::ALL[R] {
            Role::Knight => G::<V>::knight_attacks(sq),
            Role::Bishop => G::<V>::bishop_attacks(sq, occupied),
            Role::Rook => G::<V>::rook_attacks(sq, occupied),
            _ => G::<V>::queen_attacks(sq, occupied),
        };
        let others = &side.by_role;
        side.twice |= attacks & (others[1] | others[2] | others[3] | others[4] | others[5]);
        side.by_role[R] |= attacks;
        let mobility = ((attacks & targets.area).count() as usize).min(len - 1);
        acc.add(table + mobility, s);
        let zone_hits = attacks & targets.zone;
        if zone_hits.any() {
            units += KING_ATTACK_UNITS[R] * zone_hits.count() as i32;
            side.zone_attackers += 1;
            side.zone_attack_weight += V::KING_ATTACKER_WEIGHT[R];
            side.ring_attacks += (attacks & targets.ring).count() as i32;
        }
    }
    units
}

/// Computes every term of `pos` into `acc` (White's point of view) and returns the
/// game phase.
#[inline]
pub fn terms<V: VariantEval, A: Accumulator>(pos: &Position<V>, acc: &mut A) -> i32 {
    type G<V> = <V as Variant>::G;
    let occupied = pos.occupied();
    let stm = pos.side_to_move();
    let mut phase = 0;

    // Material, piece-square tables, bishop pair, phase.
    for color in Color::ALL {
        let s = color.sign();
        for role in Role::ALL {
            let r = role.index();
            let pieces = pos.pieces(color, role);
            let n = pieces.count() as i32;
            phase += PHASE_WEIGHTS[r] * n;
            if role != Role::King {
                acc.add(idx::MATERIAL + r, s * n);
            }
            // The pawns' squares are the pawn structure's (below).
            if role == Role::Pawn {
                continue;
            }
            for sq in pieces.squares() {
                acc.add(idx::PST_PAWN + 64 * r + table_index::<G<V>>(sq, color), s);
            }
        }
        if pos.pieces(color, Role::Bishop).more_than_one() {
            acc.add(idx::BISHOP_PAIR, s);
        }
    }
    acc.add(idx::TEMPO, stm.sign());

    // Attacks, mobility and king-zone attack units.
    let mut info = [SideInfo {
        by_role: [Bb::<V>::EMPTY; 6],
        non_king: Bb::<V>::EMPTY,
        all: Bb::<V>::EMPTY,
        twice: Bb::<V>::EMPTY,
        king_zone: Bb::<V>::EMPTY,
        zone_attackers: 0,
        zone_attack_weight: 0,
        ring_attacks: 0,
        passed: Bb::<V>::EMPTY,
    }; 2];
    for color in Color::ALL {
        let i = &mut info[color.index()];
        i.by_role[Role::Pawn.index()] = pawn_attacks(color, pos.pieces(color, Role::Pawn));
        if let Some(k) = pos.king(color) {
            i.by_role[Role::King.index()] = G::<V>::king_attacks(k);
            i.king_zone = i.king_ring().with(k);
        }
    }
    for (side, passed) in info.iter_mut().zip(acc.pawn_structure(pos)) {
        side.passed = passed;
    }
    let mut danger_units = [0i32; 2];
    for color in Color::ALL {
        let c = color.index();
        let targets = Targets {
            area: !pos.color(color) & !info[1 - c].pawn_attacks(),
            zone: info[1 - c].king_zone,
            ring: info[1 - c].king_ring(),
        };
        const N: usize = Role::Knight.index();
        const B: usize = Role::Bishop.index();
        const R: usize = Role::Rook.index();
        const Q: usize = Role::Queen.index();
        let side = &mut info[c];
        let units = piece_terms::<V, A, N>(pos, color, occupied, &targets, side, acc)
            + piece_terms::<V, A, B>(pos, color, occupied, &targets, side, acc)
            + piece_terms::<V, A, R>(pos, color, occupied, &targets, side, acc)
            + piece_terms::<V, A, Q>(pos, color, occupied, &targets, side, acc);
        danger_units[1 - c] += units;
        let i = &mut info[c];
        i.non_king = i.by_role[0] | i.by_role[1] | i.by_role[2] | i.by_role[3] | i.by_role[4];
        i.all = i.non_king | i.by_role[5];
    }

    // Rooks, threats, king safety.
    for color in Color::ALL {
        let s = color.sign();
        let c = color.index();
        let own = pos.pieces(color, Role::Pawn);
        let theirs = pos.pieces(!color, Role::Pawn);

        for sq in pos.pieces(color, Role::Rook).squares() {
            let file = Bb::<V>::file(sq.file());
            if (file & own).is_empty() {
                let open = (file & theirs).is_empty();
                acc.add(idx::ROOK_FILE + open as usize, s);
            }
        }

        let their_pieces = pos.color(!color) & !pos.role(Role::Pawn) & !pos.role(Role::King);
        acc.add(
            idx::THREATS,
            s * (their_pieces & info[c].pawn_attacks()).count() as i32,
        );
        let their_majors = pos.pieces(!color, Role::Rook) | pos.pieces(!color, Role::Queen);
        let minors = info[c].by_role[Role::Knight.index()] | info[c].by_role[Role::Bishop.index()];
        acc.add(idx::THREATS + 1, s * (their_majors & minors).count() as i32);

        if let Some(k) = pos.king(color) {
            let mut shield = forward(color, Bb::<V>::from_square(k));
            shield |= shield.east() | shield.west();
            acc.add(idx::KING_SHIELD, s * (own & shield).count() as i32);
            acc.add(
                idx::KING_SHIELD + 1,
                s * (own & forward(color, shield)).count() as i32,
            );
            let bucket = (danger_units[c] / KING_DANGER_STEP).min(15) as usize;
            acc.add(idx::KING_DANGER + bucket, s);
        }
    }

    V::eval_terms(pos, &info, acc);
    phase.min(MAX_PHASE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::variant::{Atomic, Chess, KingOfTheHill};

    #[test]
    fn ten_ranks_squeeze_onto_eight_keeping_edges_and_order() {
        use sapper_rules::geometry::{Board8x10, Board8x8};
        for color in Color::ALL {
            let mut squeezed = Vec::new();
            for relative in 0..10u8 {
                let rank = if color == Color::White {
                    relative
                } else {
                    9 - relative
                };
                let r8 = rank8::<Board8x10>(Square::new(3, rank), color);
                // Rounded to nearest, as the by-rank blocks were fitted with.
                assert_eq!(r8, (usize::from(relative) * 7 + 4) / 9, "{color:?} rank {rank}");
                squeezed.push(r8);
            }
            assert_eq!((squeezed[0], squeezed[9]), (0, 7), "the edges stay edges");
            assert!(squeezed.windows(2).all(|w| w[0] <= w[1]), "{squeezed:?}");
            for rank in 0..8u8 {
                let sq = Square::new(5, rank);
                assert_eq!(rank8::<Board8x8>(sq, color), relative_rank::<Board8x8>(sq, color));
            }
        }
    }

    #[test]
    fn embedded_parameters_load_for_every_variant() {
        for v in VariantKind::ALL {
            assert_eq!(default_params(v).variant, v);
        }
    }

    #[test]
    fn residual_network_adds_its_output_to_the_hand_written_evaluation() {
        let net = nnue::Network::random(VariantKind::KingOfTheHill, 11);
        let mut params = (*default_params(VariantKind::KingOfTheHill)).clone();
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2QK2R b KQ - 0 9",
            "4k3/pp3ppp/8/8/8/8/PPP2PPP/4K3 w - - 0 1",
        ];
        for fen in fens {
            let (pos, _) = Position::<KingOfTheHill>::from_fen(fen).unwrap();
            let (out, linear) = (net.evaluate(&pos), evaluate_linear(&pos, &params));
            params.nnue = Some(Arc::new(net.clone()));
            assert_eq!(evaluate(&pos, &params), out, "{fen}: a plain network replaces it");
            params.nnue = Some(Arc::new(net.clone().with_residual(true)));
            assert_eq!(
                evaluate(&pos, &params),
                out + linear,
                "{fen}: a residual one adds"
            );
        }
    }

    #[test]
    fn start_position_is_balanced_and_mirrors() {
        let p = default_params(VariantKind::Chess);
        let start = Position::<Chess>::startpos();
        assert_eq!(
            evaluate(&start, &p),
            taper(p.weights()[idx::TEMPO][0], p.weights()[idx::TEMPO][1], 24)
        );
        let (a, _) =
            Position::<Chess>::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/R1BQKB1R w KQkq - 2 3")
                .unwrap();
        let (b, _) =
            Position::<Chess>::from_fen("r1bqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3")
                .unwrap();
        assert_eq!(evaluate(&a, &p), evaluate(&b, &p));
    }

    fn coef(c: &Coefficients, index: usize) -> i32 {
        c.entries
            .iter()
            .find(|e| e.0 as usize == index)
            .map_or(0, |e| e.1)
    }

    #[test]
    fn atomic_blast_threat_counts_capturable_neighbours_of_the_king() {
        // The knight on b6 attacks d7, the pawn next to Black's king; White to move.
        let (pos, _) = Position::<Atomic>::from_fen("4k3/3p4/1N6/8/8/8/8/4K3 w - - 0 1").unwrap();
        let c = coefficients(&pos);
        assert_eq!(coef(&c, idx::ATOMIC_KING_BLAST), 1);
        assert_eq!(coef(&c, idx::ATOMIC_KING_BLAST + 1), 0);
        // Black's pawn stands next to its own king: a liability.
        assert_eq!(coef(&c, idx::ATOMIC_KING_NEIGHBOURS), -1);
    }

    #[test]
    fn atomic_best_blast_weighs_what_it_takes() {
        // Nxd5 blows up the queen on c6 and the rook on e6 with the knight (the pawn
        // on d5 is the capture): 100 + 800 + 400 - 250 = 1050, bucket 7.
        let (pos, _) = Position::<Atomic>::from_fen("7k/8/2q1r3/3p4/8/4N3/8/K7 w - - 0 1").unwrap();
        let c = coefficients(&pos);
        assert_eq!(coef(&c, idx::ATOMIC_BLAST_GAIN + 7), 1);
    }

    #[test]
    fn hill_distance_charges_attacked_and_occupied_squares() {
        // White: king c3, pawns d4 and e4. d4 is next to the king but the pawn must
        // leave it (2 steps); d5 via c4 (2); e4 via d3 (1 + 2 = 3); e5 via d4 (3).
        // Black, king e8: d5 and e5 are attacked by pawns (each entry costs 3), so
        // e6 + 3 = 5 for both; e4 via f4 around f5 (e8 f7 f6 g5 f4 e4 = 5); d4 is
        // guarded by White's king, and every way in costs more than 6: unreached.
        let (pos, _) = Position::<KingOfTheHill>::from_fen("4k3/8/8/8/3PP3/2K5/8/8 w - - 0 1").unwrap();
        let c = coefficients(&pos);
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 2), 2);
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 3), 2);
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 5), -3);
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 7), -1);
        // White to move, 5 - 2 = 3 steps ahead: race bucket 7.
        assert_eq!(coef(&c, idx::HILL_RACE + 7), 1);
    }

    #[test]
    fn hill_distance_counts_king_moves_to_each_hill_square() {
        let (pos, _) = Position::<KingOfTheHill>::from_fen("4k3/8/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let c = coefficients(&pos);
        // White from a1: d4 in 3, e4, d5, e5 in 4. Black from e8: d5, e5 in 3, d4, e4 in 4.
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 3), 1 - 2);
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 4), 3 - 2);
        let total: i32 = (0..=crate::eval::kingofthehill::HILL_STEPS)
            .map(|d| coef(&c, idx::HILL_DISTANCE + d))
            .sum();
        assert_eq!(total, 0, "four squares a side");
        // Nearest squares equally far: race bucket 4.
        assert_eq!(coef(&c, idx::HILL_RACE + 4), 1);
    }

    #[test]
    fn blocked_own_pawn_is_a_wall_and_pawns_ahead_make_safe_hill_squares() {
        // White, king b3: its d4 pawn is blocked by the knight on d5, so d4 cannot be
        // entered; d5 via c4 (2), e4 via c2-d3 or c4-d5 (3), e5 via d5 (3). Black,
        // king e8: d5 holds its own knight (e6 + 2 = 4), e4 via f5 (4), e5 is attacked
        // by the pawn (2 + 3 = 5), d4 from e4 (5).
        let (pos, _) = Position::<KingOfTheHill>::from_fen("4k3/8/8/3n4/3P4/1K6/8/8 w - - 0 1").unwrap();
        let c = coefficients(&pos);
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 2), 1);
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 3), 2);
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 4), -2);
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 5), -2);
        assert_eq!(coef(&c, idx::HILL_DISTANCE + 7), 1);
        assert_eq!(coef(&c, idx::HILL_RACE + 6), 1);
        // A White pawn on d5 keeps d4 behind it safe from Black's pawns.
        let (pos, _) = Position::<KingOfTheHill>::from_fen("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(coef(&coefficients(&pos), idx::HILL_SAFE), 1);
        let (pos, _) = Position::<KingOfTheHill>::from_fen("4k3/8/4p3/3P4/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(
            coef(&coefficients(&pos), idx::HILL_SAFE),
            1,
            "e6 attacks d5, not d4"
        );
        let (pos, _) = Position::<KingOfTheHill>::from_fen("4k3/8/8/3Pp3/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(coef(&coefficients(&pos), idx::HILL_SAFE), 0, "e5 attacks d4");
    }

    #[test]
    fn pawn_structure_terms() {
        // White: doubled c-pawns (c2, c3), isolated a-pawn, passed d-pawn on d5.
        let (pos, _) = Position::<Chess>::from_fen("4k3/7p/8/3P4/8/2P5/P1P5/4K3 w - - 0 1").unwrap();
        let c = coefficients(&pos);
        assert_eq!(coef(&c, idx::PAWN_DOUBLED), 1);
        // a2 (no b-pawn) is isolated; c2, c3 have the d-pawn beside; h7 is isolated.
        assert_eq!(coef(&c, idx::PAWN_ISOLATED), 0);
        // Passed: a2 (rank 1), c3 (rank 2) and d5 (rank 4) for White; h7 (rank 1) for Black.
        assert_eq!(coef(&c, idx::PAWN_PASSED + 4), 1);
        assert_eq!(coef(&c, idx::PAWN_PASSED + 1), 0);
        assert_eq!(coef(&c, idx::PAWN_PASSED + 2), 1);
        // No pawn is passed at the start.
        let c = coefficients(&Position::<Chess>::startpos());
        assert!(c
            .entries
            .iter()
            .all(|e| !(idx::PAWN_PASSED..idx::PAWN_PASSED + 8).contains(&(e.0 as usize))));
        // e4 and d5 stop each other (neither passed, both on relative rank 3); h2
        // and a7 face no pawn on their own or the neighbouring files (passed, rank 1).
        let (pos, _) = Position::<Chess>::from_fen("4k3/p7/8/3p4/4P3/8/7P/4K3 w - - 0 1").unwrap();
        let c = coefficients(&pos);
        assert_eq!(coef(&c, idx::PAWN_PASSED + 3), 0);
        assert_eq!(coef(&c, idx::PAWN_PASSED + 1), 0, "h2 and a7 cancel");
    }
}
