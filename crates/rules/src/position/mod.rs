//! The position: pieces, side to move, castling rights, en passant, clocks, the
//! zobrist key, and the variant's own state; and making moves on it.
//!
//! Positions are small `Copy` values: search copies the parent and plays the move on
//! the copy (copy-make), which keeps atomic explosions and minesweeper landings free of
//! undo bookkeeping.

mod fen;

pub use fen::{FenError, FenWarning};

use crate::bitboard::BitBoard;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveKind};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::{Outcome, Variant};
use crate::zobrist;

/// The bitboard type of variant `V`.
pub type Bb<V> = <<V as Variant>::G as Geometry>::BB;

/// The mailbox type of variant `V`: a byte per square of its board. (An alias, so
/// that the derived traits of `Position` ask nothing more of `V` than before.)
type Mailbox<V> = <<V as Variant>::G as Geometry>::Mailbox;

/// Castling-right bits: White king side, White queen side, Black king side, Black queen side.
pub mod castling {
    /// White may castle king side (`K`).
    pub const WHITE_KING: u8 = 1;
    /// White may castle queen side (`Q`).
    pub const WHITE_QUEEN: u8 = 2;
    /// Black may castle king side (`k`).
    pub const BLACK_KING: u8 = 4;
    /// Black may castle queen side (`q`).
    pub const BLACK_QUEEN: u8 = 8;

    use crate::types::Color;

    /// The right of `color` to castle on one side.
    #[inline(always)]
    pub const fn right(color: Color, king_side: bool) -> u8 {
        match (color, king_side) {
            (Color::White, true) => WHITE_KING,
            (Color::White, false) => WHITE_QUEEN,
            (Color::Black, true) => BLACK_KING,
            (Color::Black, false) => BLACK_QUEEN,
        }
    }

    /// Both rights of `color`.
    #[inline(always)]
    pub const fn both(color: Color) -> u8 {
        right(color, true) | right(color, false)
    }
}

const NO_PIECE: u8 = 12;

/// The piece of each mailbox code: `color * 6 + role`, and `None` for [`NO_PIECE`]
/// and above. It has an entry for every `u8`, so that a lookup needs no bounds check.
const MAILBOX_PIECES: [Option<Piece>; 256] = {
    let mut table = [None; 256];
    let mut code = 0;
    while code < NO_PIECE as usize {
        let color = if code < 6 { Color::White } else { Color::Black };
        table[code] = match Role::from_index(code % 6) {
            Some(role) => Some(Piece::new(color, role)),
            None => None,
        };
        code += 1;
    }
    table
};

/// For each square of a board with `ranks` ranks, the castling rights that touching
/// it (moving from, capturing on or exploding it) takes away: the kings' and rooks'
/// starting squares.
const fn rights_lost_table(ranks: u8) -> [u8; 80] {
    let mut table = [0u8; 80];
    let top = (ranks - 1) as usize * 8;
    table[4] = castling::both(Color::White);
    table[0] = castling::right(Color::White, false);
    table[7] = castling::right(Color::White, true);
    table[top + 4] = castling::both(Color::Black);
    table[top] = castling::right(Color::Black, false);
    table[top + 7] = castling::right(Color::Black, true);
    table
}

/// [`rights_lost_table`] of the 8x8 board.
const RIGHTS_LOST_8: [u8; 80] = rights_lost_table(8);
/// [`rights_lost_table`] of the 8x10 board.
const RIGHTS_LOST_10: [u8; 80] = rights_lost_table(10);

/// The back rank of `color` (rank 1 for White, the last rank for Black).
#[inline(always)]
pub const fn back_rank<G: Geometry>(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => G::RANKS - 1,
    }
}

/// A position of variant `V`. See the module documentation.
///
/// A `Copy` value: search copies the parent and plays a move on the copy
/// (copy-make), so no move is ever undone.
///
/// ```
/// use sapper_rules::notation::{parse_uci_move, san};
/// use sapper_rules::position::Position;
/// use sapper_rules::variant::Atomic;
///
/// // Atomic: the knight takes on f7 and the blast removes the black king.
/// let mut pos = Position::<Atomic>::startpos();
/// for uci in ["g1f3", "a7a6", "f3g5", "a6a5"] {
///     let m = parse_uci_move(&pos, uci).unwrap();
///     pos.play(m);
/// }
/// let capture = parse_uci_move(&pos, "g5f7").unwrap();
/// assert_eq!(san(&pos, capture), "Nxf7#");
/// pos.play(capture);
/// assert_eq!(pos.to_fen(), "rnbq3r/1pppp1pp/8/p7/8/8/PPPPPPPP/RNBQKB1R b KQ - 0 3");
/// assert!(pos.special_outcome().is_some());
/// assert!(pos.legal_moves().is_empty());
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position<V: Variant> {
    by_role: [Bb<V>; 6],
    by_color: [Bb<V>; 2],
    mailbox: Mailbox<V>,
    side: Color,
    castling: u8,
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u32,
    key: u64,
    checkers: Bb<V>,
    pinned: Bb<V>,
    /// Variant-specific state (minesweeper's minefield).
    pub(crate) state: V::State,
}

impl<V: Variant> std::fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position<{}>({})", V::NAME, self.to_fen())
    }
}

impl<V: Variant> Position<V> {
    /// An empty board, White to move, no rights; the builder's starting point.
    pub(crate) fn empty() -> Self {
        Position {
            by_role: [Bb::<V>::EMPTY; 6],
            by_color: [Bb::<V>::EMPTY; 2],
            mailbox: V::G::mailbox_filled(NO_PIECE),
            side: Color::White,
            castling: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            checkers: Bb::<V>::EMPTY,
            pinned: Bb::<V>::EMPTY,
            state: V::State::default(),
        }
    }

    /// The variant's start position.
    pub fn startpos() -> Self {
        match Self::from_fen(V::start_fen()) {
            Ok((pos, _)) => pos,
            Err(e) => unreachable!("start FEN of {} is invalid: {e}", V::NAME),
        }
    }

    // ---- queries -------------------------------------------------------------

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The zobrist key: pieces, side, castling rights, en-passant file (only when an
    /// en-passant capture is possible) and the variant's state.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key after the move `m` as if it were a plain one (Stockfish's
    /// `key_after`, for an early prefetch): the side, the piece's two squares, a
    /// piece on the destination, the old en-passant file. Exact for a move that
    /// changes no castling right, creates no en-passant square and touches no
    /// variant state (no blast, no fog); for any other a guess.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let Some(piece) = self.piece_at(m.from()) else {
            return self.key;
        };
        let (from, to) = (m.from().index(), m.to().index());
        let mut key = self.key
            ^ zobrist::SIDE
            ^ zobrist::piece_square(piece.index(), from)
            ^ zobrist::piece_square(piece.index(), to);
        if let Some(victim) = self.piece_at(m.to()) {
            key ^= zobrist::piece_square(victim.index(), to);
        }
        if let Some(ep) = self.ep {
            key ^= zobrist::en_passant(ep.file());
        }
        key
    }

    /// Plies since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The FEN's fullmove number (starts at 1, incremented after Black's move).
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Castling rights as a bitmask of [`castling`] constants.
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The en-passant target square, kept only while a pawn could capture there.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        // A table rather than `code / 6` and `code % 6`: the search asks this for
        // every move it orders and plays (1.4% of `bench`'s instructions, callgrind).
        MAILBOX_PIECES[self.mailbox.as_ref()[sq.index()] as usize]
    }

    /// The role of the piece on `sq`, if any.
    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.piece_at(sq).map(|p| p.role)
    }

    /// All pieces of `role`, both colours.
    #[inline(always)]
    pub fn role(&self, role: Role) -> Bb<V> {
        self.by_role[role.index()]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn color(&self, color: Color) -> Bb<V> {
        self.by_color[color.index()]
    }

    /// Pieces of one colour and role.
    #[inline(always)]
    pub fn pieces(&self, color: Color, role: Role) -> Bb<V> {
        self.by_role[role.index()] & self.by_color[color.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bb<V> {
        self.by_color[0] | self.by_color[1]
    }

    /// The kings of `color` (one, or none in a finished atomic game).
    #[inline(always)]
    pub fn kings_of(&self, color: Color) -> Bb<V> {
        self.pieces(color, Role::King)
    }

    /// The square of `color`'s king, if it has one.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Option<Square> {
        let k = self.kings_of(color);
        if k.is_empty() {
            None
        } else {
            Some(k.lsb())
        }
    }

    /// Enemy pieces giving check to the side to move (atomic: none while the kings touch).
    #[inline(always)]
    pub fn checkers(&self) -> Bb<V> {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Whether playing `m` leaves the opponent in check, by the variant's own
    /// rules: played on a copy, so exact and dearer than a test without playing
    /// (Stockfish's `gives_check`; the search's `CheckInfo` is such a superset test).
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let mut child = *self;
        child.play(m);
        child.in_check()
    }

    /// Pieces of the side to move that stand alone between their king and an enemy
    /// slider (in atomic too, where such a piece may still move when the kings touch
    /// or its capture explodes the slider: pins only mark moves to test).
    #[inline(always)]
    pub(crate) fn pinned(&self) -> Bb<V> {
        self.pinned
    }

    /// The variant's state.
    #[inline(always)]
    pub fn state(&self) -> &V::State {
        &self.state
    }

    /// Every square `by`'s pieces attack, given `occupied` (kings included outside
    /// atomic, where kings attack nothing).
    pub(crate) fn attacked_by(&self, by: Color, occupied: Bb<V>) -> Bb<V> {
        let pawns = self.pieces(by, Role::Pawn);
        let forward = match by {
            Color::White => pawns.north(),
            Color::Black => pawns.south(),
        };
        let mut attacked = forward.east() | forward.west();
        for sq in self.pieces(by, Role::Knight).squares() {
            attacked |= V::G::knight_attacks(sq);
        }
        for sq in (self.pieces(by, Role::Bishop) | self.pieces(by, Role::Queen)).squares() {
            attacked |= V::G::bishop_attacks(sq, occupied);
        }
        for sq in (self.pieces(by, Role::Rook) | self.pieces(by, Role::Queen)).squares() {
            attacked |= V::G::rook_attacks(sq, occupied);
        }
        if V::KINGS_CAPTURE {
            if let Some(k) = self.king(by) {
                attacked |= V::G::king_attacks(k);
            }
        }
        attacked
    }

    /// Pieces of either colour attacking `sq`, given `occupied`. Kings are included;
    /// atomic callers mask them out, since atomic kings never capture.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occupied: Bb<V>) -> Bb<V> {
        type G<V> = <V as Variant>::G;
        let bishops = self.role(Role::Bishop) | self.role(Role::Queen);
        let rooks = self.role(Role::Rook) | self.role(Role::Queen);
        (G::<V>::pawn_attacks(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (G::<V>::pawn_attacks(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
            | (G::<V>::knight_attacks(sq) & self.role(Role::Knight))
            | (G::<V>::king_attacks(sq) & self.role(Role::King))
            | (G::<V>::bishop_attacks(sq, occupied) & bishops)
            | (G::<V>::rook_attacks(sq, occupied) & rooks)
    }

    /// The square of the piece `m` captures: the en-passant victim, or the
    /// destination when an enemy piece stands there; `None` for a non-capture.
    #[inline(always)]
    pub fn captured_square(&self, m: Move) -> Option<Square> {
        match m.kind() {
            MoveKind::EnPassant => Some(m.en_passant_victim()),
            _ if self.color(!self.side).has(m.to()) => Some(m.to()),
            _ => None,
        }
    }

    /// Whether the kings stand on adjacent squares (atomic's connected kings).
    #[inline(always)]
    pub fn kings_touch(&self) -> bool {
        match self.king(Color::White) {
            Some(k) => (V::G::king_attacks(k) & self.kings_of(Color::Black)).any(),
            None => false,
        }
    }

    /// Whether `by` attacks `sq` in the sense that matters for king safety, given
    /// `occupied`: in atomic, kings attack nothing and a square next to `by`'s own
    /// king is never attacked (rule 5, connected kings).
    #[inline(always)]
    pub(crate) fn attacks_for_king_safety(&self, sq: Square, by: Color, occupied: Bb<V>) -> bool {
        let mut attackers = self.attackers_to(sq, occupied) & self.color(by) & occupied;
        if V::KINGS_MAY_TOUCH && (V::G::king_attacks(sq) & self.kings_of(by)).any() {
            return false;
        }
        if !V::KINGS_CAPTURE {
            attackers &= !self.role(Role::King);
        }
        attackers.any()
    }

    /// The game's result if it is over by a rule that needs no move list (an exploded
    /// king, a king on the hill); `None` otherwise. Positions with legal moves that
    /// are drawn by rule are not included; see [`Position::outcome`].
    #[inline(always)]
    pub fn special_outcome(&self) -> Option<Outcome> {
        V::special_outcome(self)
    }

    /// The result of a finished game: a special outcome, checkmate or stalemate, or
    /// `None` while the side to move has a legal move. Draws by rule that leave legal
    /// moves (repetition, 50-move rule, atomic drawn material) are not reported here.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.special_outcome() {
            return Some(o);
        }
        if self.has_legal_move() {
            return None;
        }
        Some(if self.in_check() {
            Outcome::Decisive { winner: !self.side }
        } else {
            Outcome::Draw
        })
    }

    /// Whether the material left is a draw by the variant's rules.
    #[inline]
    pub fn is_drawn_material(&self) -> bool {
        V::is_drawn_material(self)
    }

    /// Whether this is a draw by the 50-move rule, for variants that have it.
    #[inline(always)]
    pub fn is_fifty_move_draw(&self) -> bool {
        V::FIFTY_MOVE_RULE && self.halfmove >= 100
    }

    // ---- board editing (keeps the key) -------------------------------------------

    #[inline(always)]
    pub(crate) fn put_piece(&mut self, piece: Piece, sq: Square) {
        let bb = Bb::<V>::from_square(sq);
        self.by_role[piece.role.index()] |= bb;
        self.by_color[piece.color.index()] |= bb;
        self.mailbox.as_mut()[sq.index()] = piece.index() as u8;
        self.key ^= zobrist::piece_square(piece.index(), sq.index());
    }

    #[inline(always)]
    pub(crate) fn remove_piece(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        let bb = Bb::<V>::from_square(sq);
        self.by_role[piece.role.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.mailbox.as_mut()[sq.index()] = NO_PIECE;
        self.key ^= zobrist::piece_square(piece.index(), sq.index());
        Some(piece)
    }

    #[inline(always)]
    fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let bb = Bb::<V>::from_square(from) | Bb::<V>::from_square(to);
        self.by_role[piece.role.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.mailbox.as_mut()[from.index()] = NO_PIECE;
        self.mailbox.as_mut()[to.index()] = piece.index() as u8;
        self.key ^= zobrist::piece_square(piece.index(), from.index())
            ^ zobrist::piece_square(piece.index(), to.index());
    }

    #[inline(always)]
    fn set_castling(&mut self, rights: u8) {
        if rights != self.castling {
            self.key ^= zobrist::castling(self.castling) ^ zobrist::castling(rights);
            self.castling = rights;
        }
    }

    #[inline(always)]
    fn set_ep(&mut self, ep: Option<Square>) {
        if let Some(old) = self.ep {
            self.key ^= zobrist::en_passant(old.file());
        }
        if let Some(new) = ep {
            self.key ^= zobrist::en_passant(new.file());
        }
        self.ep = ep;
    }

    /// XORs a variant-state component into the key (for `V::State` updates).
    #[inline(always)]
    pub(crate) fn toggle_key(&mut self, k: u64) {
        self.key ^= k;
    }

    /// Replaces the variant state, keeping the key in step.
    pub(crate) fn replace_state(&mut self, state: V::State) {
        let old = V::state_key(self);
        self.state = state;
        self.key ^= old ^ V::state_key(self);
    }

    /// The castling rights that touching `sq` (moving from, capturing on or exploding
    /// it) takes away.
    #[inline(always)]
    pub(crate) fn rights_lost_at(sq: Square) -> u8 {
        // A table rather than a match on file and rank: the match's branches
        // mispredicted at 5% of the minesweeper search's mispredicted branches.
        if V::G::RANKS == 8 {
            RIGHTS_LOST_8[sq.index()]
        } else {
            RIGHTS_LOST_10[sq.index()]
        }
    }

    /// Recomputes checkers and pins for the side to move; called after every change
    /// of the side to move.
    #[inline(always)]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let them = !us;
        let Some(king) = self.king(us) else {
            self.checkers = Bb::<V>::EMPTY;
            self.pinned = Bb::<V>::EMPTY;
            return;
        };
        let occupied = self.occupied();
        self.checkers = if V::KINGS_MAY_TOUCH && (V::G::king_attacks(king) & self.kings_of(them)).any() {
            Bb::<V>::EMPTY
        } else if V::KINGS_CAPTURE {
            self.attackers_to(king, occupied) & self.color(them)
        } else {
            self.attackers_to(king, occupied) & self.color(them) & !self.role(Role::King)
        };
        self.pinned = self.sole_blockers(king, them) & self.color(us);
    }

    /// The pieces of either colour that stand alone between `king` (a square) and a
    /// slider of `snipers`' colour aimed at it (Stockfish's `blockers_for_king`):
    /// the side to move's own among them are pinned when `snipers` is the enemy,
    /// and would uncover a check by leaving when `king` is the enemy's.
    #[inline(always)]
    pub fn sole_blockers(&self, king: Square, snipers: Color) -> Bb<V> {
        let bishops = self.role(Role::Bishop) | self.role(Role::Queen);
        let rooks = self.role(Role::Rook) | self.role(Role::Queen);
        let aimed =
            ((V::G::bishop_rays(king) & bishops) | (V::G::rook_rays(king) & rooks)) & self.color(snipers);
        let occupied = self.occupied();
        let mut blockers = Bb::<V>::EMPTY;
        for sniper in aimed.squares() {
            let between = V::G::between(king, sniper) & occupied;
            if between.any() && !between.more_than_one() {
                blockers |= between;
            }
        }
        blockers
    }

    /// Sets the en-passant square after a double push to `ep`, but only when a pawn of
    /// the side to move next could capture there (so that positions differing only in
    /// an unusable en-passant square share a key, as in Polyglot).
    #[inline(always)]
    fn set_ep_if_capturable(&mut self, ep: Square, mover: Color) {
        let capturers = V::G::pawn_attacks(mover, ep) & self.pieces(!mover, Role::Pawn);
        if capturers.any() {
            self.set_ep(Some(ep));
        }
    }

    // ---- making moves -----------------------------------------------------------

    /// Plays `m`, which must be legal in this position (pseudo-legal suffices for the
    /// board update; the caller guarantees legality). Updates the key incrementally.
    #[inline]
    pub fn play(&mut self, m: Move) {
        self.play_with(m, None);
    }

    /// Plays `m` with a chosen outcome for a move whose result is uncertain
    /// (minesweeper: whether the landing square held a mine). Other variants ignore
    /// `mine`.
    #[inline]
    pub fn play_outcome(&mut self, m: Move, mine: bool) {
        self.play_with(m, Some(mine));
    }

    fn play_with(&mut self, m: Move, mine: Option<bool>) {
        let us = self.side;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let Some(piece) = self.piece_at(from) else {
            debug_assert!(false, "no piece on {from} for {m} in {self:?}");
            return;
        };
        self.halfmove = self.halfmove.saturating_add(1);
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.set_ep(None);
        let mut rights = self.castling;
        if rights != 0 {
            rights &= !(Self::rights_lost_at(from) | Self::rights_lost_at(to));
        }

        match m.kind() {
            MoveKind::Castle => {
                let rank = from.rank();
                let (rook_from, rook_to) = if to.file() > from.file() {
                    (Square::new(7, rank), Square::new(5, rank))
                } else {
                    (Square::new(0, rank), Square::new(3, rank))
                };
                self.move_piece(piece, from, to);
                self.move_piece(Piece::new(us, Role::Rook), rook_from, rook_to);
            }
            MoveKind::EnPassant => {
                self.remove_piece(m.en_passant_victim());
                self.halfmove = 0;
                match V::capture(self, m, rights) {
                    Some(left) => rights = left,
                    None => self.move_piece(piece, from, to),
                }
            }
            MoveKind::Sapper => {
                self.halfmove = 0;
            }
            _ => {
                let captured = self.remove_piece(to);
                let mut done = false;
                if captured.is_some() {
                    self.halfmove = 0;
                    if let Some(left) = V::capture(self, m, rights) {
                        rights = left;
                        done = true;
                    }
                }
                if !done {
                    self.move_piece(piece, from, to);
                    if let Some(promoted) = m.promotion_role() {
                        self.remove_piece(to);
                        self.put_piece(Piece::new(us, promoted), to);
                    }
                }
                if piece.role == Role::Pawn {
                    self.halfmove = 0;
                    if V::EN_PASSANT && from.rank().abs_diff(to.rank()) == 2 {
                        let ep = Square((from.0 + to.0) / 2);
                        self.set_ep_if_capturable(ep, us);
                    }
                }
            }
        }
        self.set_castling(rights);
        V::after_move(self, m, piece, mine);
        self.side = them;
        self.key ^= zobrist::SIDE;
        self.update_check_info();
        V::after_turn(self);
    }

    /// Passes the move to the opponent (null-move pruning). Must not be called in check.
    pub fn play_null(&mut self) {
        self.set_ep(None);
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = !self.side;
        self.key ^= zobrist::SIDE;
        self.update_check_info();
    }

    /// Recomputes the key from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied().squares() {
            if let Some(p) = self.piece_at(sq) {
                key ^= zobrist::piece_square(p.index(), sq.index());
            }
        }
        if self.side == Color::Black {
            key ^= zobrist::SIDE;
        }
        key ^= zobrist::castling(self.castling);
        if let Some(ep) = self.ep {
            key ^= zobrist::en_passant(ep.file());
        }
        key ^ V::state_key(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exactly the kings' and rooks' starting squares take castling rights away, on
    /// both boards: the squares a right needs unmoved and uncaptured.
    #[test]
    fn castling_rights_are_lost_on_the_kings_and_rooks_squares_only() {
        fn check<V: Variant>() {
            let top = back_rank::<V::G>(Color::Black);
            for rank in 0..V::G::RANKS {
                for file in 0..8 {
                    let sq = Square::new(file, rank);
                    let expected = [(0, Color::White), (top, Color::Black)]
                        .iter()
                        .filter(|&&(r, _)| r == rank)
                        .map(|&(_, c)| match file {
                            4 => castling::both(c),
                            0 => castling::right(c, false),
                            7 => castling::right(c, true),
                            _ => 0,
                        })
                        .fold(0, |a, b| a | b);
                    assert_eq!(Position::<V>::rights_lost_at(sq), expected, "{} {sq}", V::NAME);
                }
            }
        }
        check::<crate::variant::Chess>();
        check::<crate::variant::minesweeper::Minesweeper>();
    }

    /// Along random chess games, `key_after` is the child's key for every plain
    /// move (one that changes no castling right and leaves no en-passant square),
    /// and the pins kept by the position are the side to move's sole blockers
    /// against the enemy's sliders.
    #[test]
    fn key_after_is_exact_for_plain_moves_and_pins_are_sole_blockers() {
        use crate::variant::Chess;
        use rand::{rngs::StdRng, Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(71);
        let mut plain = 0;
        for _ in 0..40 {
            let mut pos = Position::<Chess>::startpos();
            for _ in 0..120 {
                let us = pos.side_to_move();
                if let Some(king) = pos.king(us) {
                    assert_eq!(pos.pinned(), pos.sole_blockers(king, !us) & pos.color(us));
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let mut child = pos;
                    child.play(m);
                    if m.kind() == MoveKind::Normal
                        && child.castling_rights() == pos.castling_rights()
                        && child.ep_square().is_none()
                    {
                        plain += 1;
                        assert_eq!(pos.key_after(m), child.key(), "{} {m:?}", pos.to_fen());
                    }
                }
                pos.play(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(plain > 20_000, "{plain}");
    }

    #[test]
    fn the_mailbox_table_inverts_the_piece_index() {
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                assert_eq!(MAILBOX_PIECES[piece.index()], Some(piece), "{piece:?}");
            }
        }
        assert_eq!(MAILBOX_PIECES[NO_PIECE as usize], None);
    }
}
