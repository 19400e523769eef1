//! King of the hill's evaluation terms: the weighted step distance to each hill
//! square, the race, control, blockers and safe hill squares; besides chess's king
//! danger ([`king`]) and classical terms ([`classical`]).

use crate::eval::params::idx;
use crate::eval::{backward, classical, dilate, king, rear_span, Accumulator, SideInfo, VariantEval};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::kingofthehill::hill;
use sapper_rules::variant::KingOfTheHill;

impl VariantEval for KingOfTheHill {
    const EVAL_BLOCKS: &'static [&'static str] = classical::BLOCKS;

    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        hill_terms(pos, info, acc);
        king::king_attack_terms(pos, info, acc);
        classical::classical_terms(pos, info, acc);
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
