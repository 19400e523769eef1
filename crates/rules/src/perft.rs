//! Perft: counting the leaf nodes of the legal move tree, the standard test of a
//! move generator (Chess Programming Wiki, "Perft").

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::variant::Variant;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Leaf nodes `depth` plies below `pos`. Depth 0 counts the position itself.
/// Uses bulk counting: at depth 1 the number of legal moves is the answer.
///
/// ```
/// use sapper_rules::perft::perft;
/// use sapper_rules::position::Position;
/// use sapper_rules::variant::{Chess, KingOfTheHill};
///
/// // Kiwipete (Chess Programming Wiki, "Perft Results").
/// let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// let (kiwipete, _) = Position::<Chess>::from_fen(fen).unwrap();
/// assert_eq!(perft(&kiwipete, 2), 2039);
/// // King of the hill is chess until a king reaches the centre.
/// assert_eq!(perft(&Position::<KingOfTheHill>::startpos(), 4), 197_281);
/// ```
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
/// order. With `parallel`, root moves are counted on all cores ([`par_map`]).
pub fn divide<V: Variant>(pos: &Position<V>, depth: u32, parallel: bool) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let count = |m: &Move| {
        let mut child = *pos;
        child.play(*m);
        (*m, perft(&child, depth.saturating_sub(1)))
    };
    if parallel {
        par_map(&moves, count)
    } else {
        moves.iter().map(count).collect()
    }
}

/// [`perft`] that gives up when `stop()` says so (asked at every interior node):
/// `None` if stopped. The engine's `go perft` passes its stop flag and, in the
/// browser, the outside stop request.
pub fn perft_until<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    stop: &(impl Fn() -> bool + Sync),
) -> Option<u64> {
    if depth <= 1 {
        return Some(perft(pos, depth));
    }
    if stop() {
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

/// [`divide`] on all cores ([`par_map`]) that gives up when `stop()` says so:
/// `None` if stopped.
pub fn divide_until<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    stop: &(impl Fn() -> bool + Sync),
) -> Option<Vec<(Move, u64)>> {
    par_map(&pos.legal_moves(), |&m| {
        let mut child = *pos;
        child.play(m);
        perft_until(&child, depth.saturating_sub(1), stop).map(|n| (m, n))
    })
    .into_iter()
    .collect()
}

/// `items.iter().map(f).collect()`, computed on `available_parallelism` scoped
/// threads that take the next item from a shared counter (root moves differ a lot
/// in subtree size, so a fixed split would leave threads idle). Results keep the
/// order of `items`. The engine library has no thread pool of its own; perft is the
/// only data-parallel job in it.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return mine;
                        };
                        mine.push((i, f(item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn par_map_keeps_the_order_of_uneven_items() {
        // Items of very different cost, as root moves are.
        let items: Vec<u64> = (0..200).map(|i| (i * 7919) % 5000).collect();
        let slow = |&n: &u64| (0..n).fold(n, |a, b| a.wrapping_mul(31).wrapping_add(b));
        assert_eq!(par_map(&items, slow), items.iter().map(slow).collect::<Vec<_>>());
        assert!(par_map(&[] as &[u64], slow).is_empty());
    }
}
