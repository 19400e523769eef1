//! Minesweeper chess's evaluation terms: king danger ([`king`]) and the terms after
//! Stockfish's classical evaluation ([`classical`]), as in chess (by-rank blocks see
//! the 10-rank board squeezed onto 8 ranks), the material imbalance ([`imbalance`],
//! as the variants fitted to a teacher have it), and pieces that must still cross
//! the fog, times the public mine density.

use crate::eval::params::idx;
use crate::eval::{classical, imbalance, king, Accumulator, SideInfo, VariantEval};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::{Board8x10, Geometry};
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::minesweeper::Minesweeper;

impl VariantEval for Minesweeper {
    const EVAL_BLOCKS: &'static [&'static str] = classical::classical_blocks!("imbalance");

    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        king::king_attack_terms(pos, info, acc);
        classical::classical_terms(pos, info, acc);
        imbalance::imbalance_terms(pos, acc);
        mine_terms(pos, acc);
    }
}

/// Undiscovered mines per fogged, unswept square (0 with no such square): what a
/// piece crossing the fog risks per step, by the public information alone.
pub fn mine_density(pos: &Position<Minesweeper>) -> f32 {
    let st = pos.state();
    let unknown = (st.fog & !st.swept).count_ones();
    let hidden = (st.counter as u32).saturating_sub(st.discovered.count_ones());
    if unknown == 0 {
        0.0
    } else {
        hidden as f32 / unknown as f32
    }
}

/// Minesweeper: pieces (knights to queens) that must still cross the fog, times the
/// public mine density in percent.
#[inline]
fn mine_terms<A: Accumulator>(pos: &Position<Minesweeper>, acc: &mut A) {
    let percent = (mine_density(pos) * 100.0).round() as i32;
    if percent == 0 {
        return;
    }
    for color in Color::ALL {
        let s = color.sign();
        // Behind the fog: ranks 1-3 for White, the last three for Black.
        let behind = match color {
            Color::White => {
                Bb::<Minesweeper>::rank(0) | Bb::<Minesweeper>::rank(1) | Bb::<Minesweeper>::rank(2)
            }
            Color::Black => {
                let top = Board8x10::RANKS - 1;
                Bb::<Minesweeper>::rank(top)
                    | Bb::<Minesweeper>::rank(top - 1)
                    | Bb::<Minesweeper>::rank(top - 2)
            }
        };
        for (k, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .enumerate()
        {
            let n = (pos.pieces(color, role) & behind).count() as i32;
            acc.add(idx::MINE_RISK + k, s * n * percent);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The coefficients of `fen` in the block `imbalance`, by offset.
    fn imbalance_coefficients(fen: &str) -> Vec<(usize, i32)> {
        let (pos, _) = Position::<Minesweeper>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let block = idx::IMBALANCE..idx::IMBALANCE + imbalance::LEN;
        crate::eval::coefficients(&pos)
            .entries
            .iter()
            .filter(|e| block.contains(&(e.0 as usize)) && e.1 != 0)
            .map(|e| (e.0 as usize - idx::IMBALANCE, e.1))
            .collect()
    }

    #[test]
    fn the_imbalance_is_read_on_the_8x10_board() {
        let fog = "????????/????????/????????/???????? 4";
        let start = format!("rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {fog}");
        assert!(imbalance_coefficients(&start).is_empty());
        // White's queen's knight for Black's a-, b- and c-pawns.
        let traded = format!("rnbqkbnr/3ppppp/8/8/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1 {fog}");
        let c = imbalance_coefficients(&traded);
        let (pawn, knight) = (1, 2);
        // Our knights with our pawns: White 1 x 8, Black 2 x 5.
        assert!(c.contains(&(imbalance::ours(knight, pawn), 8 - 10)), "{c:?}");
        // Our knights against their pawns: White 1 x 5, Black 2 x 8.
        assert!(c.contains(&(imbalance::theirs(knight, pawn), 5 - 16)), "{c:?}");
    }
}
