//! King of the hill's evaluation terms: the weighted step distance to each hill
//! square, the race, control, blockers and safe hill squares; besides chess's king
//! danger ([`king`]), classical terms ([`classical`]) and the material imbalance
//! ([`imbalance`]; Multi-Variant Stockfish keeps tables of its own for the variant).

use crate::eval::params::idx;
use crate::eval::{
    backward, classical, dilate, imbalance, king, rear_span, Accumulator, SideInfo, VariantEval,
};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::kingofthehill::hill;
use sapper_rules::variant::KingOfTheHill;

impl VariantEval for KingOfTheHill {
    const EVAL_BLOCKS: &'static [&'static str] = classical::classical_blocks!("imbalance");

    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        hill_terms(pos, info, acc);
        king::king_attack_terms(pos, info, acc);
        classical::classical_terms(pos, info, acc);
        imbalance::imbalance_terms(pos, acc);
    }
}

/// King of the hill: weighted king distances, [`HILL_STEPS`] layers by Dial's
/// algorithm on bitboards. `cost[k]` holds the squares that take `k + 1` steps to
/// enter; squares in none of them cannot be entered. Returns `layers[d]`, the squares
/// first reached after `d` steps (`layers[0]` = the king).
#[inline]
fn hill_layers<B: BitBoard>(king: B, cost: &[B; 4]) -> [B; HILL_STEPS] {
    let mut layers = [B::EMPTY; HILL_STEPS];
    layers[0] = king;
    let mut reached = king;
    for d in 1..HILL_STEPS {
        let mut next = B::EMPTY;
        for (k, entering) in cost.iter().enumerate() {
            if d > k {
                next |= dilate(layers[d - 1 - k]) & *entering;
            }
        }
        layers[d] = next & !reached;
        reached |= next;
    }
    layers
}

/// Distances up to this are told apart; farther counts as [`HILL_STEPS`].
pub(crate) const HILL_STEPS: usize = 7;

/// King of the hill: the distance to each hill square, the race, control,
/// blockers and safe hill squares.
#[inline]
fn hill_terms<A: Accumulator>(
    pos: &Position<KingOfTheHill>,
    info: &[SideInfo<Bb<KingOfTheHill>>; 2],
    acc: &mut A,
) {
    let hill = hill();
    let mut dist = [HILL_STEPS; 2];
    let occupied = pos.occupied();
    for color in Color::ALL {
        let s = color.sign();
        let c = color.index();
        let kings = pos.kings_of(color);
        if kings.is_empty() {
            continue;
        }
        let enemy = &info[1 - c];
        let own_pawns = pos.pieces(color, Role::Pawn);
        let blocked = own_pawns & backward(color, occupied);
        let own = pos.color(color) & !kings;
        let heavy = enemy.pawn_attacks() | enemy.twice;
        let extra1 = enemy.all & !heavy;
        let passable = !blocked;
        // Extra steps: attacks (0-2) plus one for an own piece in the way.
        let cost = [
            passable & !own & !enemy.all,
            passable & ((own & !enemy.all) | (!own & extra1)),
            passable & ((own & extra1) | (!own & heavy)),
            passable & own & heavy,
        ];
        let layers = hill_layers(kings, &cost);
        let mut unreached = hill;
        for (d, layer) in layers.iter().enumerate() {
            let n = (*layer & hill).count() as i32;
            if n > 0 {
                dist[c] = dist[c].min(d);
                acc.add(idx::HILL_DISTANCE + d, s * n);
            }
            unreached &= !*layer;
        }
        acc.add(idx::HILL_DISTANCE + HILL_STEPS, s * unreached.count() as i32);
        acc.add(idx::HILL_CONTROL, s * (hill & info[c].all).count() as i32);
        acc.add(
            idx::HILL_BLOCKERS,
            s * (hill & pos.color(color) & !kings).count() as i32,
        );
        let defended = hill & pos.color(!color) & enemy.all;
        acc.add(idx::HILL_BLOCKERS + 1, s * defended.count() as i32);
        let safe = hill & rear_span(color, own_pawns) & !enemy.pawn_attacks();
        acc.add(idx::HILL_SAFE, s * safe.count() as i32);
    }
    if dist[0] < HILL_STEPS || dist[1] < HILL_STEPS {
        let stm = pos.side_to_move();
        let diff = dist[1 - stm.index()] as i32 - dist[stm.index()] as i32;
        acc.add(idx::HILL_RACE + (diff + 4).clamp(0, 8) as usize, stm.sign());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use sapper_rules::bitboard::Bb64;
    use sapper_rules::types::Square;

    /// Steps to each square by Dijkstra over single squares: entering a square of
    /// `cost[k]` takes `k + 1` steps, a king step to any of the 8 neighbours.
    fn dijkstra(king: Square, cost: &[Bb64; 4]) -> [Option<usize>; 64] {
        let entry = |sq: Square| (0..4).find(|&k| cost[k].has(sq)).map(|k| k + 1);
        let mut dist = [None; 64];
        dist[king.index()] = Some(0);
        let mut done = [false; 64];
        while let Some(i) = (0..64)
            .filter(|&i| !done[i] && dist[i].is_some())
            .min_by_key(|&i| dist[i])
        {
            done[i] = true;
            let from = Square::new(i as u8 % 8, i as u8 / 8);
            for to in dilate(Bb64::from_square(from)).squares() {
                if let Some(step) = entry(to) {
                    let via = dist[i].unwrap() + step;
                    if dist[to.index()].is_none_or(|d| via < d) {
                        dist[to.index()] = Some(via);
                    }
                }
            }
        }
        dist
    }

    #[test]
    fn hill_layers_give_each_goal_square_its_weighted_distance() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(29);
        let goal = hill();
        for _ in 0..2000 {
            // Disjoint cost classes, with some squares in none of them.
            let mut cost = [Bb64::EMPTY; 4];
            for i in 0..64u8 {
                let class = rng.gen_range(0..6);
                if class < 4 {
                    cost[class] |= Bb64::from_square(Square::new(i % 8, i / 8));
                }
            }
            let king = Square::new(rng.gen_range(0..8), rng.gen_range(0..8));
            let layers = hill_layers(Bb64::from_square(king), &cost);
            let reference = dijkstra(king, &cost);
            for sq in goal.squares() {
                let found = layers.iter().position(|layer| layer.has(sq));
                let expected = reference[sq.index()].filter(|&d| d < HILL_STEPS);
                assert_eq!(found, expected, "{sq:?} from {king:?}");
            }
        }
    }
}
