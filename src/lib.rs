//! Sapper: a UCI engine for chess, atomic, king of the hill and minesweeper chess.
//!
//! Layers, bottom up (see `docs/architecture.md`): [`types`] and [`bitboard`];
//! [`geometry`] (attack tables per board shape); [`variant`] (rule sets as types);
//! [`position`] and [`movegen`] (rules); [`perft`].

pub mod analyze;
pub mod bench;
pub mod bitboard;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod game;
pub mod geometry;
mod magic;
pub mod minesweeper;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod play;
pub mod position;
pub mod referee;
pub mod search;
pub mod skill;
pub mod stats;
pub mod train;
pub mod tune;
pub mod types;
pub mod uci;
pub mod values;
pub mod variant;
pub mod zobrist;
