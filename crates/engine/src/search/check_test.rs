//! Whether a quiet move can give check, told without playing it (Stockfish's
//! `Position::gives_check`, here a superset test): move-count, futility, history and
//! SEE pruning spare checks, and a move they drop need not be played first.

use super::VariantSearch;
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::Geometry;
use sapper_rules::moves::{Move, MoveKind};
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::Role;
use sapper_rules::variant::Variant;

/// What [`CheckInfo::may_give_check`] needs to know of a node, computed once for
/// all its moves (Stockfish's `StateInfo::checkSquares` and `blockersForKing`):
/// the squares from which each role would attack the enemy king, and the side to
/// move's pieces whose leaving may uncover a check.
pub struct CheckInfo<V: Variant> {
    /// `false` when every move may check: the variant has no test
    /// ([`VariantSearch::QUIET_CHECK_TEST`]) or the enemy has no king.
    active: bool,
    /// The side to move's pieces that stand alone between one of its sliders and
    /// the enemy king (a discovered check when they leave the line).
    discoverers: Bb<V>,
    /// By [`Role::index`]: where a piece of that role attacks the enemy king, with
    /// the occupancy of the node (the king's own entry is empty: a king move is
    /// always a candidate).
    squares: [Bb<V>; 6],
}

impl<V: VariantSearch> CheckInfo<V> {
    /// The node's check squares and discoverers.
    #[inline]
    pub fn new(pos: &Position<V>) -> CheckInfo<V> {
        type G<V> = <V as Variant>::G;
        let us = pos.side_to_move();
        let empty = CheckInfo {
            active: false,
            discoverers: Bb::<V>::EMPTY,
            squares: [Bb::<V>::EMPTY; 6],
        };
        let Some(king) = pos.king(!us).filter(|_| V::QUIET_CHECK_TEST) else {
            return empty;
        };
        let occupied = pos.occupied();
        let discoverers = pos.sole_blockers(king, us) & pos.color(us);
        let diagonal = G::<V>::bishop_attacks(king, occupied);
        let straight = G::<V>::rook_attacks(king, occupied);
        CheckInfo {
            active: true,
            discoverers,
            squares: [
                G::<V>::pawn_attacks(!us, king),
                G::<V>::knight_attacks(king),
                diagonal,
                straight,
                diagonal | straight,
                Bb::<V>::EMPTY,
            ],
        }
    }

    /// Whether the legal move `m`, whose outcome is certain, may give check or
    /// (king of the hill) threaten to win next move: `false` only when it surely
    /// does neither, so that `pos.after(m).in_check()` and
    /// `V::threatens_win(pos.after(m))` are `false` whenever this is. `true` for
    /// every move of a variant without the test, for king moves (a king uncovers a
    /// check when it leaves an atomic king's side, and steps toward the hill),
    /// castling, promotions and en passant; `false` for the sapper action, which
    /// moves no piece; else `true` when the
    /// piece attacks the enemy king from its destination, or leaves a line between
    /// that king and an own slider where it stood alone (a discovered check), or
    /// for a capture in atomic (whose blast may uncover a line), or when the
    /// variant says it may leave a threat to win ([`VariantSearch::may_threaten_win`]).
    ///
    /// The check squares hold with the node's occupancy, not the one after `m`:
    /// they differ only where the moving piece stood between the king and its
    /// destination on one line, and a slider there either attacked the king
    /// already (no legal position, or atomic's touching kings, where nothing is
    /// check) or was blocked nearer the king, as it stays.
    #[inline]
    pub fn may_give_check(&self, pos: &Position<V>, m: Move) -> bool {
        // Minesweeper's sapper action moves no piece (rule 11), so it checks
        // nothing; every pawn has one, and playing each only to find no check cost
        // quiescence's first ply a tenth of its time.
        if m.kind() == MoveKind::Sapper {
            return false;
        }
        if !self.active || m.kind() != MoveKind::Normal || V::may_threaten_win(pos, m) {
            return true;
        }
        let (from, to) = (m.from(), m.to());
        // A capture explodes in atomic: told only by playing it. Elsewhere the
        // capturer stands on `to` as a quiet move's piece would.
        if !V::CAPTURE_WINS_ONLY_THE_VICTIM && pos.occupied().has(to) {
            return true;
        }
        let Some(role) = pos.role_at(from) else {
            return true;
        };
        role == Role::King || self.discoverers.has(from) || self.squares[role.index()].has(to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::variant::minesweeper::Minesweeper;
    use sapper_rules::variant::{Atomic, Chess, KingOfTheHill, ThreeCheck};

    /// Every legal move of every position along random games (eight from each
    /// start): where the test says no, the move gives no check and threatens no win.
    fn never_misses<V: VariantSearch>(fens: &[&str]) {
        let mut rng = Rng(7);
        let mut cleared = 0usize;
        for (fen, _walk) in fens.iter().flat_map(|f| (0..8).map(move |w| (f, w))) {
            let (mut pos, _) = Position::<V>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                let info = CheckInfo::new(&pos);
                for &m in &moves {
                    let mut child = pos;
                    child.play(m);
                    if !info.may_give_check(&pos, m) {
                        cleared += 1;
                        assert!(
                            !child.in_check() && !V::threatens_win(&child),
                            "{} {m:?}: missed",
                            pos.to_fen()
                        );
                    }
                }
                pos.play(moves[rng.below(moves.len())]);
            }
        }
        // The test must clear something, or it saves nothing.
        assert!(cleared > 10_000, "only {cleared} moves cleared");
    }

    /// A small xorshift generator: the walk is the same on every run.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    const FENS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];

    #[test]
    fn chess_checks_are_never_missed() {
        never_misses::<Chess>(FENS);
    }

    #[test]
    fn atomic_checks_are_never_missed() {
        never_misses::<Atomic>(FENS);
    }

    #[test]
    fn king_of_the_hill_checks_and_threats_are_never_missed() {
        never_misses::<KingOfTheHill>(FENS);
    }

    /// Full-information minefields (`M` marks the hidden mines), so that playing a
    /// move settles whether the piece survives: a piece destroyed on a mine gives
    /// no check itself, and its leaving uncovers the same lines as a move.
    #[test]
    fn minesweeper_checks_are_never_missed() {
        never_misses::<Minesweeper>(&[
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/??????M?/?M??????/???M??M? 4",
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 M???M???/????????/??M?????/?M?????? 4",
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/M???????/???????M/??M?M??? 4",
        ]);
    }

    #[test]
    fn three_check_checks_are_never_missed() {
        // Three-check's FEN gives the checks left after the en-passant square.
        let fens: Vec<String> = FENS
            .iter()
            .map(|f| {
                let mut fields: Vec<&str> = f.split(' ').collect();
                fields.insert(4, "3+3");
                fields.join(" ")
            })
            .collect();
        let refs: Vec<&str> = fens.iter().map(String::as_str).collect();
        never_misses::<ThreeCheck>(&refs);
    }
}
