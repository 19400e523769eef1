//! Perft: counting the leaf nodes of the legal move tree, the standard test of a
//! move generator (Chess Programming Wiki, "Perft").

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::variant::Variant;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Leaf nodes `depth` plies below `pos`. Depth 0 counts the position itself.
/// Uses bulk counting: at depth 1 the number of legal moves is the answer.
pub fn perft<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate_legal(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play(m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Per-root-move counts at `depth` (Stockfish's `go perft` "divide"), in generation
/// order. With `parallel`, root moves are counted on rayon's thread pool.
pub fn divide<V: Variant>(pos: &Position<V>, depth: u32, parallel: bool) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let count = |m: &Move| {
        let mut child = *pos;
        child.play(*m);
        (*m, perft(&child, depth.saturating_sub(1)))
    };
    if parallel {
        moves.par_iter().map(count).collect()
    } else {
        moves.iter().map(count).collect()
    }
}

/// [`perft`] that gives up when `stop` is set (checked at every interior node):
/// `None` if stopped.
pub fn perft_until<V: Variant>(pos: &Position<V>, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 1 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) || crate::host::stop_requested() {
        return None;
    }
    let mut moves = MoveList::new();
    pos.generate_legal(&mut moves);
    let mut total = 0;
    for &m in moves.iter() {
        let mut child = *pos;
        child.play(m);
        total += perft_until(&child, depth - 1, stop)?;
    }
    Some(total)
}

/// [`divide`] on rayon's thread pool that gives up when `stop` is set: `None` if
/// stopped.
pub fn divide_until<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    pos.legal_moves()
        .par_iter()
        .map(|&m| {
            let mut child = *pos;
            child.play(m);
            perft_until(&child, depth.saturating_sub(1), stop).map(|n| (m, n))
        })
        .collect()
}
