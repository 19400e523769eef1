//! Sapper's rules: the board, the variants and their moves, with nothing of
//! evaluation or search (`docs/architecture.md`).
//!
//! Layers, bottom up: [`types`] (colours, roles, squares) and [`bitboard`];
//! [`geometry`] (attack tables per board shape: 8x8 on `u64` with magic bitboards,
//! 8x10 on `u128`) and [`zobrist`]; [`variant`] (a rule set is a type implementing
//! [`variant::Variant`]: chess, atomic, king of the hill, three-check, and
//! [`variant::minesweeper`] on 8x10); [`position`] (pieces, FEN, making moves) and [`movegen`]
//! (legal moves); [`moves`], [`notation`] (UCI and SAN), [`perft`]; [`game`] (moves
//! played, repetitions; [`game::AnyGame`] picks the variant once) and [`result`].
//!
//! ```
//! use sapper_rules::perft::perft;
//! use sapper_rules::position::Position;
//! use sapper_rules::variant::Atomic;
//!
//! let (pos, _) = Position::<Atomic>::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
//! assert_eq!(pos.legal_moves().len(), 20);
//! assert_eq!(perft(&pos, 3), 8902);
//! ```

pub mod bitboard;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod result;
pub mod types;
pub mod variant;
pub mod zobrist;
