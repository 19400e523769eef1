//! Sapper: a UCI engine for chess, atomic, king of the hill and minesweeper chess.
//!
//! Layers, bottom up (see `docs/architecture.md`): [`types`] and [`bitboard`];
//! [`geometry`] (attack tables per board shape); [`variant`] (rule sets as types);
//! [`position`] and [`movegen`] (rules); [`perft`].
//!
//! The feature `tools` (on by default) adds what is not the engine: the match
//! runner ([`referee`]), the match statistics ([`stats`]), self-play data
//! ([`datagen`]) and the fitting of parameters and networks ([`tune`], [`train`]),
//! with their dependencies (clap, serde, rayon). Without it the library is the
//! engine a GUI, a game site or a browser build embeds.

// First, with its macros: the registration list there generates `with_variant!`
// and `with_game!`, which the modules below use without a `use` line (a macro a
// macro generates cannot be named by path inside its own crate).
#[macro_use]
pub mod variant;

pub mod analyze;
pub mod bench;
pub mod bitboard;
#[cfg(feature = "tools")]
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod host;
mod magic;
pub mod minesweeper;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod play;
pub mod position;
#[cfg(feature = "tools")]
pub mod referee;
pub mod result;
pub mod search;
pub mod skill;
#[cfg(feature = "tools")]
pub mod stats;
#[cfg(feature = "tools")]
pub mod train;
#[cfg(feature = "tools")]
pub mod tune;
pub mod types;
pub mod uci;
pub mod values;
pub mod zobrist;
