//! Sapper's engine: evaluation, search and the front ends (UCI, analysis, play,
//! bench), over the rules of [`sapper_rules`] (`docs/architecture.md`).
//!
//! Layers, bottom up: [`values`] (piece values outside the tuned evaluation);
//! [`eval`] (the linear evaluation whose weights live in `nets/`, and [`eval::nnue`]),
//! with [`eval::VariantEval`], what it asks of a variant; [`search`] (iterative
//! deepening, PVS, transposition table, quiescence, chance nodes), with
//! [`search::VariantSearch`]; [`skill`] and [`host`]; [`engine`] (protocol-free:
//! game, options, table, search thread); the front ends [`uci`], [`analyze`],
//! [`review`], [`play`] and [`bench`](mod@bench), which draw positions with [`display`].
//!
//! The crate has no dependency beyond once_cell, smallvec, arrayvec and rand
//! (without its OS random source), and builds for wasm32-unknown-unknown, where
//! [`host`] replaces the clock and the stop request.
//!
//! ```
//! use sapper_engine::engine::Engine;
//! use sapper_rules::variant::VariantKind;
//!
//! let mut engine = Engine::new();
//! engine.set_variant(VariantKind::KingOfTheHill);
//! ```

pub mod analyze;
pub mod bench;
pub mod display;
pub mod engine;
pub mod eval;
pub mod host;
pub mod play;
pub mod review;
pub mod search;
pub mod skill;
pub mod uci;
pub mod values;
pub mod variant;
