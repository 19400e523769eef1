//! Static evaluation: a tapered (middlegame/endgame) sum of material, piece-square
//! tables and variant terms, in centipawns from the side to move's point of view.
//!
//! The numbers live in [`params::EvalParams`], loaded from `nets/` (embedded at build
//! time) or from a file named by the `EvalFile` UCI option.

pub mod params;

use crate::bitboard::BitBoard;
use crate::geometry::Geometry;
use crate::position::{hill, Position};
use crate::types::{Color, Role, Square};
use crate::variant::{Variant, VariantKind};
use once_cell::sync::Lazy;
use params::EvalParams;
use std::sync::Arc;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/default_nets.rs"));
}

/// Game phase weights of knight, bishop, rook and queen; 24 at the start.
const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

static DEFAULTS: Lazy<Vec<(VariantKind, Arc<EvalParams>)>> = Lazy::new(|| {
    embedded::DEFAULT_NETS
        .iter()
        .map(|(variant, name, text)| {
            let kind: VariantKind = variant.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            let params = EvalParams::parse_named(name, text, kind)
                .unwrap_or_else(|e| panic!("embedded parameters {name}: {e}"));
            (kind, Arc::new(params))
        })
        .collect()
});

/// The embedded parameters of `variant` (chess's if a variant had none).
pub fn default_params(variant: VariantKind) -> Arc<EvalParams> {
    DEFAULTS
        .iter()
        .find(|(k, _)| *k == variant)
        .or_else(|| DEFAULTS.iter().find(|(k, _)| *k == VariantKind::Chess))
        .map(|(_, p)| Arc::clone(p))
        .expect("chess parameters are embedded")
}

/// The file name of the embedded parameters of `variant` (shown by `uci` and `eval`).
pub fn default_params_name(variant: VariantKind) -> &'static str {
    embedded::DEFAULT_NETS
        .iter()
        .find(|(v, _, _)| *v == variant.name())
        .or_else(|| embedded::DEFAULT_NETS.iter().find(|(v, _, _)| *v == "chess"))
        .map(|(_, name, _)| *name)
        .unwrap_or("")
}

/// Middlegame and endgame halves of a score, White's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    /// Middlegame part, centipawns.
    pub mg: i32,
    /// Endgame part, centipawns.
    pub eg: i32,
}

impl std::ops::AddAssign for Tapered {
    fn add_assign(&mut self, o: Tapered) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::Sub for Tapered {
    type Output = Tapered;
    fn sub(self, o: Tapered) -> Tapered {
        Tapered {
            mg: self.mg - o.mg,
            eg: self.eg - o.eg,
        }
    }
}

/// The evaluation split into its terms, each White minus Black (for `eval`).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Material and piece-square tables.
    pub psqt: Tapered,
    /// Bishop pair.
    pub bishop_pair: Tapered,
    /// Atomic blast threats.
    pub blast_threats: Tapered,
    /// King of the hill distance.
    pub hill: Tapered,
    /// Minesweeper: expected losses of pieces that must cross the fog.
    pub mine_risk: Tapered,
    /// Game phase, 0 (bare kings) to 24 (all pieces).
    pub phase: i32,
    /// Final score, White's point of view, centipawns (tempo included).
    pub total_white: i32,
}

/// Index into a 64-entry table for `sq` seen from `color`'s side (ranks are mirrored
/// for Black; a 10-rank board is squeezed onto 8 ranks, keeping the edges).
#[inline(always)]
fn table_index<G: Geometry>(sq: Square, color: Color) -> usize {
    let rank = match color {
        Color::White => sq.rank(),
        Color::Black => G::RANKS - 1 - sq.rank(),
    };
    let rank8 = if G::RANKS == 8 {
        rank
    } else {
        ((rank as u32 * 7 + (G::RANKS as u32 - 1) / 2) / (G::RANKS as u32 - 1)) as u8
    };
    (rank8 * 8 + sq.file()) as usize
}

/// Evaluates `pos` for the side to move, in centipawns.
#[inline]
pub fn evaluate<V: Variant>(pos: &Position<V>, params: &EvalParams) -> i32 {
    let white = evaluate_white(pos, params, None);
    white * pos.side_to_move().sign()
}

/// Evaluates `pos` and returns the terms (White's point of view).
pub fn trace<V: Variant>(pos: &Position<V>, params: &EvalParams) -> Trace {
    let mut trace = Trace::default();
    trace.total_white = evaluate_white(pos, params, Some(&mut trace));
    trace
}

fn evaluate_white<V: Variant>(pos: &Position<V>, p: &EvalParams, trace: Option<&mut Trace>) -> i32 {
    let mut psqt = [Tapered::default(); 2];
    let mut pair = [Tapered::default(); 2];
    let mut blast = [Tapered::default(); 2];
    let mut hill_term = [Tapered::default(); 2];
    let mut mine = [Tapered::default(); 2];
    let mut phase = 0;
    for color in Color::ALL {
        let c = color.index();
        for role in Role::ALL {
            let r = role.index();
            let pieces = pos.pieces(color, role);
            phase += PHASE_WEIGHTS[r] * pieces.count() as i32;
            for sq in pieces.squares() {
                let i = table_index::<V::G>(sq, color);
                psqt[c] += Tapered {
                    mg: p.material_mg[r] + p.pst_mg[r][i],
                    eg: p.material_eg[r] + p.pst_eg[r][i],
                };
            }
        }
        if pos.pieces(color, Role::Bishop).more_than_one() {
            pair[c] = Tapered {
                mg: p.bishop_pair[0],
                eg: p.bishop_pair[1],
            };
        }
        if V::EXPLOSIONS {
            let threats = blast_threats(pos, color) as i32;
            blast[c] = Tapered {
                mg: threats * p.atomic_blast_threat[0],
                eg: threats * p.atomic_blast_threat[1],
            };
        }
        if V::MINES {
            mine[c] = mine_risk(pos, p, color);
        }
        if V::HILL {
            if let Some(d) = hill_distance(pos, color) {
                hill_term[c] = Tapered {
                    mg: p.hill_distance_mg[d],
                    eg: p.hill_distance_eg[d],
                };
            }
        }
    }
    let phase = phase.min(MAX_PHASE);
    let mut sum = psqt[0] - psqt[1];
    sum += pair[0] - pair[1];
    sum += blast[0] - blast[1];
    sum += hill_term[0] - hill_term[1];
    sum += mine[0] - mine[1];
    let tapered = (sum.mg * phase + sum.eg * (MAX_PHASE - phase)) / MAX_PHASE;
    let total = tapered + p.tempo * pos.side_to_move().sign();
    if let Some(t) = trace {
        t.psqt = psqt[0] - psqt[1];
        t.bishop_pair = pair[0] - pair[1];
        t.blast_threats = blast[0] - blast[1];
        t.hill = hill_term[0] - hill_term[1];
        t.mine_risk = mine[0] - mine[1];
        t.phase = phase;
    }
    total
}

/// Atomic: enemy pieces next to the enemy king that `us` attacks on a square not next
/// to its own king. Capturing one explodes the enemy king (RULES.md atomic 1, 7).
fn blast_threats<V: Variant>(pos: &Position<V>, us: Color) -> u32 {
    let (Some(their_king), Some(our_king)) = (pos.king(!us), pos.king(us)) else {
        return 0;
    };
    let targets = V::G::king_attacks(their_king) & pos.color(!us) & !V::G::king_attacks(our_king);
    let occupied = pos.occupied();
    let attackers = pos.color(us) & !pos.role(Role::King);
    targets
        .squares()
        .filter(|&sq| (pos.attackers_to(sq, occupied) & attackers).any())
        .count() as u32
}

/// Minesweeper: minus the expected loss of `color`'s pieces (knights to queens)
/// that have not yet crossed the fog zone, scaled by `mine_risk` percent. The
/// expected loss of a crossing is the public mine density times the piece's value.
fn mine_risk<V: Variant>(pos: &Position<V>, p: &EvalParams, color: Color) -> Tapered {
    let density = V::mine_density(pos);
    if density == 0.0 {
        return Tapered::default();
    }
    // Behind the fog: ranks 1-3 for White, 8-10 for Black.
    type B<V> = crate::position::Bb<V>;
    let behind = match color {
        Color::White => B::<V>::rank(0) | B::<V>::rank(1) | B::<V>::rank(2),
        Color::Black => {
            let top = V::G::RANKS - 1;
            B::<V>::rank(top) | B::<V>::rank(top - 1) | B::<V>::rank(top - 2)
        }
    };
    let (mut mg, mut eg) = (0.0f32, 0.0f32);
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let n = (pos.pieces(color, role) & behind).count() as f32;
        mg += n * p.material_mg[role.index()] as f32;
        eg += n * p.material_eg[role.index()] as f32;
    }
    Tapered {
        mg: -(density * mg * p.mine_risk[0] as f32 / 100.0) as i32,
        eg: -(density * eg * p.mine_risk[1] as f32 / 100.0) as i32,
    }
}

/// King of the hill: king steps from `color`'s king to the nearest hill square not
/// occupied by its own pieces.
fn hill_distance<V: Variant>(pos: &Position<V>, color: Color) -> Option<usize> {
    let king = pos.king(color)?;
    (hill::<V::G>() & !pos.color(color))
        .squares()
        .map(|sq| king.distance(sq) as usize)
        .min()
        .map(|d| d.min(7))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Atomic, Chess, KingOfTheHill};

    #[test]
    fn embedded_parameters_load_for_every_variant() {
        for v in [
            VariantKind::Chess,
            VariantKind::Atomic,
            VariantKind::KingOfTheHill,
        ] {
            assert_eq!(default_params(v).variant, v);
        }
    }

    #[test]
    fn start_position_is_balanced_and_mirrors() {
        let p = default_params(VariantKind::Chess);
        let start = Position::<Chess>::startpos();
        assert_eq!(evaluate(&start, &p), p.tempo);
        let (a, _) =
            Position::<Chess>::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let (b, _) =
            Position::<Chess>::from_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3")
                .unwrap();
        assert_eq!(evaluate(&a, &p), evaluate(&b, &p));
    }

    #[test]
    fn atomic_blast_threat_counts_capturable_neighbours_of_the_king() {
        let p = default_params(VariantKind::Atomic);
        // The knight on b6 attacks d7, the pawn next to Black's king.
        let (pos, _) = Position::<Atomic>::from_fen("4k3/3p4/1N6/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(blast_threats(&pos, Color::White), 1);
        assert_eq!(blast_threats(&pos, Color::Black), 0);
        assert!(evaluate(&pos, &p) > 0);
    }

    #[test]
    fn hill_distance_counts_free_squares_only() {
        let (pos, _) = Position::<KingOfTheHill>::from_fen("4k3/8/8/8/3PP3/2K5/8/8 w - - 0 1").unwrap();
        // d4 and e4 hold White pawns; d5 is two steps from c3.
        assert_eq!(hill_distance(&pos, Color::White), Some(2));
        assert_eq!(hill_distance(&pos, Color::Black), Some(3));
    }
}
