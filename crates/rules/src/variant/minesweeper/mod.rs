//! Minesweeper chess (docs/rules.md, section minesweeper): chess on 8 files x 10 ranks
//! with four hidden mines in a fogged zone (ranks 4-7).
//!
//! The rule logic lives here as [`Variant`] hooks of [`Minesweeper`]; move
//! generation, search and UCI stay generic. The minefield is kept as 32-bit masks
//! over the fog zone (bit `i` is square `24 + i`: a4 = 0, ..., h7 = 31), both what
//! everybody sees (fog, swept squares, numbers, discovered mines, counter) and, in a
//! full-information position, where the mines really are.

pub mod inference;
pub mod public;

use crate::bitboard::BitBoard;
use crate::geometry::Board8x10;
use crate::movegen::GenType;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{FenError, Position};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::{Variant, VariantKind};
use crate::zobrist;
use inference::{infer, Inference, PublicField};

/// Number of fog-zone squares.
pub const ZONE_SIZE: usize = 32;
/// The fog zone's first square (a4).
pub const ZONE_FIRST: u8 = 24;
/// Mines at the start of a game.
pub const MAX_MINES: u8 = 4;

/// The fog-zone index of a board square, if it lies in the zone.
#[inline(always)]
pub const fn zone_index(sq: Square) -> Option<usize> {
    if sq.0 >= ZONE_FIRST && sq.0 < ZONE_FIRST + ZONE_SIZE as u8 {
        Some((sq.0 - ZONE_FIRST) as usize)
    } else {
        None
    }
}

/// The board square of fog-zone index `i`.
#[inline(always)]
pub const fn zone_square(i: usize) -> Square {
    Square(ZONE_FIRST + i as u8)
}

/// The part of an 8x10 bitboard that lies in the fog zone, as a zone mask.
#[inline(always)]
pub const fn to_zone(bb: u128) -> u32 {
    (bb >> ZONE_FIRST) as u32
}

/// The board bitboard of a zone mask.
#[inline(always)]
pub const fn from_zone(mask: u32) -> u128 {
    (mask as u128) << ZONE_FIRST
}

const fn king_ring_10(sq: usize) -> u128 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut out = 0u128;
    let mut df = -1;
    while df <= 1 {
        let mut dr = -1;
        while dr <= 1 {
            let (nf, nr) = (f + df, r + dr);
            if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 10 {
                out |= 1u128 << (nr * 8 + nf);
            }
            dr += 1;
        }
        df += 1;
    }
    out
}

/// For each zone square, its neighbours inside the zone.
pub const ZONE_NEIGHBOURS: [u32; ZONE_SIZE] = {
    let mut t = [0u32; ZONE_SIZE];
    let mut i = 0;
    while i < ZONE_SIZE {
        t[i] = to_zone(king_ring_10(ZONE_FIRST as usize + i));
        i += 1;
    }
    t
};

/// For each board square, the zone squares a landing there reveals: itself (when in
/// the zone) and its neighbours (rule 4).
const REVEAL_RING: [u32; 80] = {
    let mut t = [0u32; 80];
    let mut sq = 0;
    while sq < 80 {
        t[sq] = to_zone(king_ring_10(sq) | 1u128 << sq);
        sq += 1;
    }
    t
};

/// The minefield: public information and, when known, the truth.
///
/// Its zobrist component is cached in the state: code outside this module may read
/// and set the fields, but a state it stores in a position must come from this
/// module's constructors and moves (`parse_state`, `after_move`, [`public`]'s
/// projections), which keep the cache in step; debug builds check it at every read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MineState {
    /// Fogged squares.
    pub fog: u32,
    /// Fogged squares known to be mine-free (swept by a sapper action).
    pub swept: u32,
    /// Revealed mines.
    pub discovered: u32,
    /// Numbers shown on revealed mine-free squares (meaningless elsewhere).
    pub numbers: [u8; ZONE_SIZE],
    /// The mine counter: mines still on the board.
    pub counter: u8,
    /// Every mine on the board, when `full` (full-information positions).
    pub mines: u32,
    /// Whether `mines` is the truth. Public positions (what an engine is given) know
    /// only the public fields.
    pub full: bool,
    /// Search below a public root: squares revealed there whose content the search
    /// cannot know (the numbers they show depend on the unknown layout).
    pub unseen: u32,
    /// Search below a public root: squares known to be mine-free without a recorded
    /// outcome (a king or a sapper action cleared them, or a mine was removed).
    pub cleared: u32,
    /// Search below a public root: landing squares where the line found a mine.
    pub found_mine: u32,
    /// Search below a public root: landing squares where the line found none.
    pub found_safe: u32,
    /// [`MineState::computed_key`], kept in step: correction history reads it at
    /// every node, and the full key costs 32 table lookups behind branches that
    /// mispredicted 7% of the minesweeper search's branches.
    key: u64,
}

impl Default for MineState {
    /// No fog, no mines, every number 0.
    fn default() -> Self {
        MineState {
            fog: 0,
            swept: 0,
            discovered: 0,
            numbers: [0; ZONE_SIZE],
            counter: 0,
            mines: 0,
            full: false,
            unseen: 0,
            cleared: 0,
            found_mine: 0,
            found_safe: 0,
            key: 0,
        }
        .with_key()
    }
}

impl MineState {
    /// Revealed, mine-free squares: those showing a number.
    #[inline(always)]
    pub fn revealed_numbers(&self) -> u32 {
        !self.fog & !self.discovered & !self.unseen
    }

    /// What both players see, for inference.
    pub fn public_field(&self) -> PublicField {
        PublicField {
            unknown: self.fog & !self.swept,
            discovered: self.discovered,
            revealed: self.revealed_numbers(),
            numbers: self.numbers,
            counter: self.counter,
        }
    }

    /// The mine counter.
    pub fn counter(&self) -> u8 {
        self.counter
    }

    /// Fogged squares (zone mask).
    pub fn fog(&self) -> u32 {
        self.fog
    }

    /// Discovered mines (zone mask).
    pub fn discovered(&self) -> u32 {
        self.discovered
    }

    /// Swept squares (zone mask).
    pub fn swept(&self) -> u32 {
        self.swept
    }

    /// The true mines (zone mask), if this is a full-information position.
    pub fn mines(&self) -> Option<u32> {
        self.full.then_some(self.mines)
    }

    /// The number shown on zone square `i`, if it shows one.
    pub fn number(&self, i: usize) -> Option<u8> {
        (self.revealed_numbers() & (1 << i) != 0).then_some(self.numbers[i])
    }

    /// Recomputes every shown number from the true mines (full information).
    fn recount(&mut self) {
        for (n, neighbours) in self.numbers.iter_mut().zip(ZONE_NEIGHBOURS) {
            *n = (neighbours & self.mines).count_ones() as u8;
        }
    }

    /// Removes a mine known to be on zone square `i`. The numbers around it drop
    /// (rule 5); in a public position the square's own number depends on hidden
    /// mines, so it becomes unseen (and known to be empty).
    fn remove_mine(&mut self, i: usize) {
        let bit = 1u32 << i;
        self.mines &= !bit;
        self.discovered &= !bit;
        self.counter = self.counter.saturating_sub(1);
        if self.full {
            self.recount();
        } else {
            let mut shown = ZONE_NEIGHBOURS[i] & self.revealed_numbers();
            while shown != 0 {
                let j = shown.trailing_zeros() as usize;
                self.numbers[j] = self.numbers[j].saturating_sub(1);
                shown &= shown - 1;
            }
            self.unseen |= bit;
            self.cleared |= bit;
        }
    }

    /// Squares the search knows to be empty of mines below a public root.
    #[inline(always)]
    pub fn known_empty(&self) -> u32 {
        self.cleared | self.found_mine | self.found_safe
    }

    /// Lifts the fog from the zone squares in `ring` (rule 4).
    fn reveal(&mut self, ring: u32) {
        let lifted = ring & self.fog;
        self.fog &= !lifted;
        self.swept &= !lifted;
        if self.full {
            self.discovered |= lifted & self.mines;
        } else {
            self.unseen |= lifted;
        }
    }

    /// Rule 7: once every mine on the board is discovered, the remaining fog lifts.
    fn lift_fog_if_all_found(&mut self) {
        if self.full && self.mines & !self.discovered == 0 {
            self.fog = 0;
            self.swept = 0;
        }
    }

    /// The zobrist component of the public minefield: the counter and every zone
    /// square's public state. What a search line learned of the mines
    /// (`found_mine`, `found_safe`) is left out on purpose: lines that reach the
    /// same public position share their table entries, although the probabilities
    /// below them differ slightly (issue 10: with the masks in the key, chance
    /// outcomes split the table and no two lines ever transposed).
    fn computed_key(&self) -> u64 {
        let mut key = zobrist::mine_counter(self.counter);
        for i in 0..ZONE_SIZE {
            key ^= self.square_key(i);
        }
        key
    }

    /// The zobrist component of zone square `i`.
    #[inline(always)]
    fn square_key(&self, i: usize) -> u64 {
        let bit = 1u32 << i;
        let sq = ZONE_FIRST as usize + i;
        let state = if self.fog & bit != 0 {
            if self.swept & bit != 0 {
                11
            } else {
                10
            }
        } else if self.discovered & bit != 0 {
            9
        } else if self.unseen & bit != 0 {
            12
        } else {
            self.numbers[i] as usize
        };
        let mut key = zobrist::minefield(sq, state);
        if self.cleared & bit != 0 {
            key ^= zobrist::minefield(sq, 15);
        }
        key
    }

    /// The zobrist component, cached (see [`MineState::computed_key`]).
    #[inline(always)]
    fn key(&self) -> u64 {
        debug_assert_eq!(self.key, self.computed_key(), "stale minefield key: {self:?}");
        self.key
    }

    /// The state with its cached key computed afresh, after its fields were set.
    pub(crate) fn with_key(mut self) -> Self {
        self.key = self.computed_key();
        self
    }

    /// `self.computed_key() ^ other.computed_key()`, computed from the squares that
    /// differ only (a move changes a few squares; the full key costs 32 table
    /// lookups).
    ///
    /// `numbers_may_differ` false (no mine was removed between the two states, the
    /// only change that rewrites numbers) skips comparing the 32 numbers.
    fn key_delta(&self, other: &MineState, numbers_may_differ: bool) -> u64 {
        let mut changed = (self.fog ^ other.fog)
            | (self.swept ^ other.swept)
            | (self.discovered ^ other.discovered)
            | (self.unseen ^ other.unseen)
            | (self.cleared ^ other.cleared);
        if numbers_may_differ {
            for (i, (a, b)) in self.numbers.iter().zip(&other.numbers).enumerate() {
                changed |= u32::from(a != b) << i;
            }
        }
        let mut delta = 0;
        if self.counter != other.counter {
            delta ^= zobrist::mine_counter(self.counter) ^ zobrist::mine_counter(other.counter);
        }
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            delta ^= self.square_key(i) ^ other.square_key(i);
            changed &= changed - 1;
        }
        delta
    }
}

/// Minesweeper chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Minesweeper;

impl Minesweeper {
    /// Whether a move that is not a sapper action leaves the minefield as it is: a
    /// castling (its corridor is outside the zone and its rings do not reach the fog),
    /// or a move landing outside the zone whose ring lifts no fog, when rule 7 has
    /// nothing (more) to lift. `after_move` then has nothing to do; most moves of a
    /// search are such moves, and copying and comparing the whole state for them took
    /// a tenth of the time on the 8x10 board.
    #[inline(always)]
    fn leaves_minefield_alone(st: &MineState, m: Move) -> bool {
        if m.kind() == MoveKind::Castle {
            return true;
        }
        let to = m.to();
        let rule_7_pending = st.full && st.mines & !st.discovered == 0 && (st.fog | st.swept) != 0;
        zone_index(to).is_none() && REVEAL_RING[to.index()] & st.fog == 0 && !rule_7_pending
    }
}

impl Variant for Minesweeper {
    type G = Board8x10;
    type State = MineState;
    const NAME: &'static str = "minesweeper";
    const KIND: VariantKind = VariantKind::Minesweeper;
    const EN_PASSANT: bool = false;
    const UNDERPROMOTION: bool = false;
    const FIFTY_MOVE_RULE: bool = false;
    const MINES: bool = true;
    const PGN_VARIANT: Option<&'static str> = Some("Minesweeper");
    const EVASIONS_NEED_EXTRA_TEST: bool = true;
    const EXTRA_FEN_FIELDS: usize = 2;
    const FEN_FIELDS_TEXT: &'static str = "8";

    fn start_fen() -> &'static str {
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/????????/???????? 4"
    }

    fn parse_state(pos: &mut Position<Self>, fields: &[&str]) -> Result<(), FenError> {
        let state = parse_minefield(fields)?;
        let occupied = to_zone(pos.occupied().0);
        if occupied & state.fog != 0 {
            let sq = zone_square((occupied & state.fog).trailing_zeros() as usize);
            return Err(minefield_error(format!("piece on fogged square {sq}")));
        }
        if occupied & state.discovered != 0 {
            let sq = zone_square((occupied & state.discovered).trailing_zeros() as usize);
            return Err(minefield_error(format!("piece on discovered mine {sq}")));
        }
        if state.fog != 0 && state.counter as u32 == state.discovered.count_ones() {
            return Err(minefield_error(
                "fog remains although every mine on the board is discovered (rule 7)".into(),
            ));
        }
        if state.full {
            if state.counter as u32 != state.mines.count_ones() {
                return Err(minefield_error(format!(
                    "counter {} but {} mines marked M or *",
                    state.counter,
                    state.mines.count_ones()
                )));
            }
            let mut truth = state;
            truth.recount();
            let revealed = state.revealed_numbers();
            if let Some(i) =
                (0..ZONE_SIZE).find(|&i| revealed & (1 << i) != 0 && truth.numbers[i] != state.numbers[i])
            {
                return Err(minefield_error(format!(
                    "{} shows {} but {} mines touch it",
                    zone_square(i),
                    state.numbers[i],
                    truth.numbers[i]
                )));
            }
            pos.state = truth.with_key();
        } else if infer(&state.public_field()).layouts == 0 {
            return Err(minefield_error(
                "no mine layout is consistent with the minefield".into(),
            ));
        } else {
            pos.state = state.with_key();
        }
        Ok(())
    }

    fn write_state(pos: &Position<Self>, out: &mut String) {
        write_minefield(&pos.state, pos.state.full, out);
    }

    #[inline]
    fn state_key(pos: &Position<Self>) -> u64 {
        pos.state.key()
    }

    fn generate_extra(pos: &Position<Self>, gen: GenType, list: &mut MoveList) {
        // Rule 11: every pawn may sap while its side is not in check.
        if gen == GenType::Noisy || pos.in_check() {
            return;
        }
        for sq in pos.pieces(pos.side_to_move(), Role::Pawn).squares() {
            list.push(Move::new(sq, sq, MoveKind::Sapper));
        }
    }

    /// A sapper action: a pawn of the side to move, out of check, staying put
    /// (what [`Variant::generate_extra`] pushes, rule 11).
    #[inline]
    fn is_extra_pseudo_legal(pos: &Position<Self>, m: Move) -> bool {
        m.kind() == MoveKind::Sapper
            && m.from() == m.to()
            && !pos.in_check()
            && pos.pieces(pos.side_to_move(), Role::Pawn).has(m.from())
    }

    #[inline]
    fn extra_legality(pos: &Position<Self>, m: Move) -> bool {
        if m.kind() == MoveKind::Sapper {
            return !pos.in_check();
        }
        let us = pos.side_to_move();
        if pos.role_at(m.from()) == Some(Role::King) || pos.color(!us).has(m.to()) {
            return true;
        }
        // Rule 13: the move must also be safe were the piece destroyed on landing.
        // Out of check, only a pinned piece's disappearance can expose the king.
        if !pos.in_check() && !pos.pinned().has(m.from()) {
            return true;
        }
        let Some(king) = pos.king(us) else { return true };
        let vanished = pos.occupied().without(m.from());
        !pos.attacks_for_king_safety(king, !us, vanished) || !may_hold_mine(pos, m.to())
    }

    fn hide_private(pos: &Position<Self>) -> Position<Self> {
        public::to_public(pos)
    }

    fn play_given(pos: &mut Position<Self>, m: Move) -> Result<(), String> {
        if pos.state.full {
            pos.play(m);
            return Ok(());
        }
        *pos = public::play_public(pos, m)?;
        Ok(())
    }

    fn after_move(pos: &mut Position<Self>, m: Move, mover: Piece, mine: Option<bool>) {
        if m.kind() != MoveKind::Sapper && Self::leaves_minefield_alone(&pos.state, m) {
            return;
        }
        let old = pos.state;
        let mut st = pos.state;
        // Numbers change only where a mine is removed (`remove_mine`).
        let mut removed = false;
        if m.kind() == MoveKind::Sapper {
            if let Some(i) = zone_index(sapped_square(m.from(), mover.color)) {
                let bit = 1u32 << i;
                if (st.full && st.mines & bit != 0) || st.discovered & bit != 0 {
                    st.remove_mine(i);
                    removed = true;
                }
                if st.fog & bit != 0 {
                    st.swept |= bit;
                }
                if !st.full {
                    // Below a public root the search cannot know what was there; it
                    // is mine-free now.
                    st.cleared |= bit;
                }
                st.lift_fog_if_all_found();
            }
        } else {
            let landings: &[Square] = if m.kind() == MoveKind::Castle {
                // The corridor is on the back rank, outside the zone: no mine, and
                // the rings reach rank 2/9 at most.
                &[]
            } else {
                &[m.to()]
            };
            for &to in landings {
                if let Some(i) = zone_index(to) {
                    let bit = 1u32 << i;
                    let discovered = st.discovered & bit != 0;
                    let mined = if st.full {
                        st.mines & bit != 0
                    } else {
                        mine.unwrap_or(discovered)
                    };
                    // A chance move's outcome conditions the search's belief (only
                    // squares whose content was uncertain to it).
                    let uncertain = (st.fog & !st.swept | st.unseen) & !st.known_empty() & bit != 0;
                    if !st.full && mine.is_some() && mover.role != Role::King && uncertain && !discovered {
                        if mined {
                            st.found_mine |= bit;
                        } else {
                            st.found_safe |= bit;
                        }
                    }
                    if mined {
                        if mover.role != Role::King {
                            pos.remove_piece(to);
                        }
                        st.remove_mine(i);
                        removed = true;
                    } else if !st.full && mover.role == Role::King {
                        // A king removes any mine silently: the square is empty now.
                        st.cleared |= bit;
                    }
                }
                st.reveal(REVEAL_RING[to.index()]);
                st.lift_fog_if_all_found();
            }
        }
        let delta = old.key_delta(&st, removed);
        st.key ^= delta;
        pos.state = st;
        pos.toggle_key(delta);
    }

    /// docs/rules.md minesweeper 14 (resolved): bare kings or a single minor piece.
    fn is_drawn_material(pos: &Position<Self>) -> bool {
        crate::variant::lone_minor_at_most(pos)
    }
}

/// The square a sapper action by `color`'s pawn on `pawn` sweeps: the one in front
/// of it (rule 11).
pub fn sapped_square(pawn: Square, color: Color) -> Square {
    match color {
        Color::White => pawn.offset(8),
        Color::Black => pawn.offset(-8),
    }
}

/// Whether `sq` may hold a mine in the sense of rule 13: a discovered mine, or a
/// fogged unswept square that some consistent layout mines. Below a public root
/// (search), squares revealed there count as possibly mined.
pub fn may_hold_mine(pos: &Position<Minesweeper>, sq: Square) -> bool {
    let Some(i) = zone_index(sq) else {
        return false;
    };
    let st = pos.state();
    let bit = 1u32 << i;
    if st.discovered & bit != 0 {
        return true;
    }
    if st.known_empty() & bit != 0 {
        return false;
    }
    if st.unseen & bit != 0 {
        return true;
    }
    if st.fog & !st.swept & bit == 0 {
        return false;
    }
    infer(&st.public_field()).mine_layouts[i] > 0
}

/// A random layout of the four mines on the fog zone (docs/rules.md rule 2), as a zone mask.
pub fn random_layout(rng: &mut impl rand::Rng) -> u32 {
    let mut layout = 0u32;
    while layout.count_ones() < MAX_MINES as u32 {
        layout |= 1 << rng.gen_range(0..ZONE_SIZE);
    }
    layout
}

impl Position<Minesweeper> {
    /// The start position with the mines of `layout` (a zone mask), full information.
    pub fn start_with_layout(layout: u32) -> Position<Minesweeper> {
        public::with_layout(&Position::startpos(), layout)
    }

    /// Exact inference on the public information (see [`inference`]).
    pub fn mine_inference(&self) -> Inference {
        infer(&self.state().public_field())
    }

    /// The FEN with the public minefield only (`?` for every fogged square), as sent
    /// to an engine.
    pub fn to_public_fen(&self) -> String {
        let fen = self.to_fen();
        let cut = fen.rsplitn(3, ' ').last().unwrap_or(&fen).to_string();
        let mut out = cut;
        write_minefield(self.state(), false, &mut out);
        out
    }
}

fn minefield_error(text: String) -> FenError {
    FenError::VariantField(format!("minefield: {text}"))
}

/// Parses the minefield and counter fields (docs/rules.md, Notation).
fn parse_minefield(fields: &[&str]) -> Result<MineState, FenError> {
    let [field, counter] = fields else {
        return Err(minefield_error(
            "expected the minefield and counter fields".into(),
        ));
    };
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 4 {
        return Err(minefield_error(format!(
            "expected 4 ranks (7 to 4), found {}",
            ranks.len()
        )));
    }
    let mut st = MineState::default();
    let full = field.contains('M');
    st.full = full;
    for (k, rank) in ranks.iter().enumerate() {
        // The field lists rank 7 first; zone rank 0 is rank 4.
        let zone_rank = 3 - k;
        if rank.chars().count() != 8 {
            return Err(minefield_error(format!("rank {} must have 8 characters", 7 - k)));
        }
        for (file, c) in rank.chars().enumerate() {
            let i = zone_rank * 8 + file;
            let bit = 1u32 << i;
            match c {
                '?' => st.fog |= bit,
                '-' => {
                    st.fog |= bit;
                    st.swept |= bit;
                }
                'M' => {
                    st.fog |= bit;
                    st.mines |= bit;
                }
                '*' => {
                    st.discovered |= bit;
                    st.mines |= bit;
                }
                '0'..='8' => st.numbers[i] = c as u8 - b'0',
                _ => return Err(minefield_error(format!("invalid character '{c}'"))),
            }
        }
    }
    st.counter = match counter.parse::<u8>() {
        Ok(n) if n <= MAX_MINES && counter.len() == 1 => n,
        _ => {
            return Err(minefield_error(format!(
                "counter '{counter}' is not a number from 0 to 4"
            )))
        }
    };
    if !full {
        st.mines = 0;
    }
    Ok(st)
}

/// Appends ` <minefield> <counter>`; `full` writes fogged mines as `M`.
fn write_minefield(st: &MineState, full: bool, out: &mut String) {
    out.push(' ');
    for zone_rank in (0..4).rev() {
        for file in 0..8 {
            let i = zone_rank * 8 + file;
            let bit = 1u32 << i;
            let c = if st.fog & bit != 0 {
                if st.swept & bit != 0 {
                    '-'
                } else if full && st.full && st.mines & bit != 0 {
                    'M'
                } else {
                    '?'
                }
            } else if st.discovered & bit != 0 {
                '*'
            } else if st.unseen & bit != 0 {
                '?'
            } else {
                (b'0' + st.numbers[i]) as char
            };
            out.push(c);
        }
        if zone_rank > 0 {
            out.push('/');
        }
    }
    out.push_str(&format!(" {}", st.counter));
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The key a move leaves (updated from the squares it changed) must equal the key
    /// computed from scratch: in full-information games, and below a public root
    /// where the search picks each chance move's outcome.
    #[test]
    fn incremental_minefield_key_matches_a_full_recount() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for game in 0..60 {
            let full = Position::<Minesweeper>::start_with_layout(random_layout(&mut rng));
            let mut pos = if game % 2 == 0 {
                full
            } else {
                public::to_public(&full)
            };
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.special_outcome().is_some() {
                    break;
                }
                let m = moves[rng.gen_range(0..moves.len())];
                if pos.state.full {
                    pos.play(m);
                } else {
                    pos.play_outcome(m, rng.gen_bool(0.2));
                }
                assert_eq!(pos.key(), pos.compute_key(), "after {m}: {}", pos.to_fen());
                // `compute_key` reads the state's cached key; the cache itself must
                // match the 32 squares.
                assert_eq!(
                    pos.state.key,
                    pos.state.computed_key(),
                    "after {m}: {}",
                    pos.to_fen()
                );
            }
        }
    }
}
