//! How the front ends draw a position: the board as Stockfish's `d` prints it, and
//! what a variant shows besides the pieces (minesweeper's fog, numbers and mine
//! probabilities). Only the front ends (`uci`, `play`, `analyze`, the referee's
//! replay) call these hooks; the rules, the evaluation and the search never do.

use sapper_rules::game::AnyGame;
use sapper_rules::moves::Move;
use sapper_rules::position::Position;
use sapper_rules::types::Square;
use sapper_rules::variant::minesweeper::inference::infer;
use sapper_rules::variant::minesweeper::{public, zone_index, zone_square, Minesweeper, ZONE_SIZE};
use sapper_rules::variant::{Atomic, Chess, KingOfTheHill, ThreeCheck, Variant};

/// What a front end shows of a variant's state beyond the pieces. Each hook has a
/// default that shows nothing.
pub trait VariantDisplay: Variant {
    /// What `d` shows on an empty square (minesweeper: fog, numbers, mines).
    fn square_marker(_pos: &Position<Self>, _sq: Square) -> char {
        ' '
    }

    /// Lines `d` adds after the standard ones (minesweeper: counter, probabilities).
    fn describe_state(_pos: &Position<Self>) -> String {
        String::new()
    }

    /// For a review: the chance, on the public information of `pos`, that move
    /// `m`'s landing square holds a mine, and whether it did (`pos` being the
    /// full-information position before the move). `None` where no mine can be
    /// (every variant without mines; a landing square outside the fog).
    fn landing_mine(_pos: &Position<Self>, _m: Move) -> Option<(f64, bool)> {
        None
    }
}

impl VariantDisplay for Chess {}
impl VariantDisplay for Atomic {}
impl VariantDisplay for KingOfTheHill {}
impl VariantDisplay for ThreeCheck {}

impl VariantDisplay for Minesweeper {
    fn square_marker(pos: &Position<Self>, sq: Square) -> char {
        let Some(i) = zone_index(sq) else { return ' ' };
        let st = pos.state();
        let bit = 1u32 << i;
        if st.fog & bit != 0 {
            if st.swept & bit != 0 {
                '-'
            } else {
                '?'
            }
        } else if st.discovered & bit != 0 {
            '*'
        } else if st.unseen & bit != 0 {
            ' '
        } else if st.numbers[i] == 0 {
            '.'
        } else {
            (b'0' + st.numbers[i]) as char
        }
    }

    /// `d`'s minesweeper lines (UCI.md): counter, the probability of a mine on every
    /// fogged unswept square (6 decimals), and the number of consistent layouts.
    fn describe_state(pos: &Position<Self>) -> String {
        let st = pos.state();
        let inference = infer(&public::public_projection(st).public_field());
        let mut out = format!(
            "Mine counter: {} ({} discovered)\nMine probabilities:",
            st.counter,
            st.discovered.count_ones()
        );
        let unknown = st.fog & !st.swept;
        for i in (0..ZONE_SIZE).filter(|i| unknown & (1 << i) != 0) {
            out.push_str(&format!(" {}={:.6}", zone_square(i), inference.probability(i)));
        }
        out.push_str(&format!("\nConsistent layouts: {}\n", inference.layouts));
        out
    }

    /// A discovered mine is a certain one; a fogged, unswept square has its public
    /// probability (a sapper action lands nowhere).
    fn landing_mine(pos: &Position<Self>, m: Move) -> Option<(f64, bool)> {
        if m.from() == m.to() {
            return None;
        }
        let i = zone_index(m.to())?;
        let st = pos.state();
        let bit = 1u32 << i;
        if st.discovered & bit != 0 {
            return Some((1.0, true));
        }
        if st.fog & !st.swept & bit == 0 {
            return None;
        }
        let chance = infer(&public::public_projection(st).public_field()).probability(i);
        Some((chance, st.mines().is_some_and(|mines| mines & bit != 0)))
    }
}

/// The board as Stockfish's `d` prints it, then `Fen:`, `Key:` and `Checkers:`.
pub fn board_text(game: &AnyGame) -> String {
    let mut s = board_diagram(game);
    sapper_rules::with_game!(game, g, V => {
        use sapper_rules::bitboard::BitBoard;
        let pos = &g.position;
        s.push_str(&format!("Fen: {}\n", pos.to_fen()));
        s.push_str(&format!("Key: {:016X}\n", pos.key()));
        let checkers: Vec<String> = pos.checkers().squares().map(|sq| sq.to_string()).collect();
        s.push_str(&format!("Checkers: {}\n", checkers.join(" ")));
        s.push_str(&V::describe_state(pos));
    });
    s
}

/// The board as a grid, rank 8 (or 10) at the top, White's pieces in capitals;
/// minesweeper's fog and numbers on the empty squares of the mined zone.
pub fn board_diagram(game: &AnyGame) -> String {
    sapper_rules::with_game!(game, g, V => {
        use sapper_rules::geometry::Geometry;
        use sapper_rules::types::Square;
        let pos = &g.position;
        let ranks = <V as Variant>::G::RANKS;
        let border = " +---+---+---+---+---+---+---+---+\n";
        let mut s = String::from("\n");
        s.push_str(border);
        for rank in (0..ranks).rev() {
            for file in 0..8 {
                let sq = Square::new(file, rank);
                let c = pos.piece_at(sq).map_or_else(|| V::square_marker(pos, sq), |p| p.fen_char());
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(" | {}\n", rank + 1));
            s.push_str(border);
        }
        s.push_str("   a   b   c   d   e   f   g   h\n\n");
        s
    })
}
