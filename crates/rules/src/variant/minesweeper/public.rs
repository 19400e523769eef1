//! Moves on a public position (what a GUI sends with `position fen ... moves`):
//! docs/rules.md, Notation: "a move is applied only if every consistent layout gives the
//! same public result".

use super::inference::layouts;
use super::{MineState, Minesweeper, ZONE_SIZE};
use crate::moves::Move;
use crate::position::Position;

/// The public part of a minefield state: the truth dropped, numbers kept only where
/// shown.
pub fn public_projection(st: &MineState) -> MineState {
    let shown = st.revealed_numbers();
    let mut numbers = [0u8; ZONE_SIZE];
    for (i, n) in numbers.iter_mut().enumerate() {
        if shown & (1 << i) != 0 {
            *n = st.numbers[i];
        }
    }
    MineState {
        numbers,
        mines: 0,
        full: false,
        unseen: 0,
        cleared: 0,
        found_mine: 0,
        found_safe: 0,
        ..*st
    }
    .with_key()
}

/// The position with the public minefield only.
pub fn to_public(pos: &Position<Minesweeper>) -> Position<Minesweeper> {
    let mut public = *pos;
    public.replace_state(public_projection(pos.state()));
    public
}

/// `pos` made full-information with the undiscovered mines of `layout` (zone mask).
pub fn with_layout(pos: &Position<Minesweeper>, layout: u32) -> Position<Minesweeper> {
    let mut full = *pos;
    let mut st = *pos.state();
    st.mines = layout | st.discovered;
    st.full = true;
    st.unseen = 0;
    st.recount();
    full.replace_state(st.with_key());
    full
}

/// Plays `m` on the public position `pos` if its public outcome is the same in every
/// consistent layout; returns the resulting public position.
///
/// # Errors
/// A sentence saying the outcome depends on the hidden mines.
pub fn play_public(pos: &Position<Minesweeper>, m: Move) -> Result<Position<Minesweeper>, String> {
    let mut outcome: Option<Position<Minesweeper>> = None;
    for layout in layouts(&pos.state().public_field()) {
        let mut next = with_layout(pos, layout);
        next.play(m);
        let public = to_public(&next);
        match &outcome {
            None => outcome = Some(public),
            Some(first) if *first == public => {}
            Some(_) => {
                return Err(
                    "its outcome depends on where the hidden mines are; send the position after it as a FEN"
                        .to_string(),
                )
            }
        }
    }
    outcome.ok_or_else(|| "no mine layout is consistent with the position".to_string())
}
