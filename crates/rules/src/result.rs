//! A game's result in PGN notation, shared by `play`'s PGN and the referee's records
//! (where, with the feature `tools`, it is serialised as the same string).

use crate::types::Color;
use std::fmt;

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GameResult {
    /// White won.
    #[cfg_attr(feature = "serde", serde(rename = "1-0"))]
    WhiteWins,
    /// Black won.
    #[cfg_attr(feature = "serde", serde(rename = "0-1"))]
    BlackWins,
    /// A draw.
    #[cfg_attr(feature = "serde", serde(rename = "1/2-1/2"))]
    Draw,
}

impl GameResult {
    /// A win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The points `color` scored: 1, 1/2 or 0.
    pub fn score_for(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }

    /// PGN notation.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
