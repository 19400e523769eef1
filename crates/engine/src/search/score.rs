//! Search scores: centipawns, with mate scores near the ends of the range.
//!
//! A mate found `n` plies from the root scores `MATE - n` (mating) or `n - MATE`
//! (being mated), so shorter mates score higher. Transposition-table entries store
//! mate scores relative to the node instead of the root ([`to_tt`], [`from_tt`]).

/// Above every reachable score.
pub const INFINITE: i32 = 32_000;
/// The score of delivering mate at the root itself (never reached; `MATE - 1` is mate in one).
pub const MATE: i32 = 31_000;
/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Scores beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The finite value a mate counts as when outcomes of a chance move are averaged
/// (minesweeper): far above any evaluation, far below mate scores.
pub const WIN_CLAMP: i32 = 20_000;

/// Score for the side to move being mated (or having lost) `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Score for mating (or winning) `ply` plies from the root.
#[inline(always)]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Whether `score` is a mate (or won/lost game) score.
#[inline(always)]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a root-relative score to the node-relative form stored in the table.
#[inline(always)]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored node-relative score back to root-relative.
#[inline(always)]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The UCI form of a score: `cp <centipawns>` or `mate <moves>` (negative when
/// being mated).
pub fn uci(score: i32) -> String {
    match mate_moves(score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {score}"),
    }
}

/// Win, draw and loss expectations per mille for a score (UCI `wdl`). A logistic
/// model: the win chance is `1 / (1 + exp((A - s) / B))` and the loss chance the
/// same for `-s`, with `A` = 150 cp (a score worth an even chance of winning) and
/// `B` = 80 cp, set by hand to fit self-play results roughly; mates are certain.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    if score >= MATE_BOUND {
        return (1000, 0, 0);
    }
    if score <= -MATE_BOUND {
        return (0, 0, 1000);
    }
    const A: f64 = 150.0;
    const B: f64 = 80.0;
    let s = score.clamp(-WIN_CLAMP, WIN_CLAMP) as f64;
    let win = (1000.0 / (1.0 + ((A - s) / B).exp())).round() as u32;
    let loss = (1000.0 / (1.0 + ((A + s) / B).exp())).round() as u32;
    (win, 1000 - win - loss, loss)
}

/// A human form: `+1.25`, `-0.40`, `#3`, `#-2`.
pub fn human(score: i32) -> String {
    match mate_moves(score) {
        Some(n) => format!("#{n}"),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}

/// A mate score's distance in moves for the side to move: `Some(n)` when it mates in
/// `n` moves, `Some(-n)` when it is mated in `n` (`Some(0)`: mated now), `None` for a
/// score that is no mate.
pub fn mate_moves(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-((MATE + score) / 2))
    } else {
        None
    }
}

/// [`human`] of the side to move's `score`, seen from the other side when `flip`
/// (White's view of a Black-to-move score): the pawns negated, a mate's moves
/// counted for the side to move and then given the other sign (`human(-score)`
/// would count a mate's plies from the wrong side: mate in 1 would read `#0`).
pub fn human_from(score: i32, flip: bool) -> String {
    match mate_moves_from(score, flip) {
        Some(n) => format!("#{n}"),
        None if flip => human(-score),
        None => human(score),
    }
}

/// [`mate_moves`] of the side to move's `score`, seen from the other side when
/// `flip`: the moves counted for the side to move, then given the other sign.
pub fn mate_moves_from(score: i32, flip: bool) -> Option<i32> {
    mate_moves(score).map(|n| if flip { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_seen_from_the_other_side_keep_their_distance() {
        assert_eq!(mate_moves(mate_in(1)), Some(1));
        assert_eq!(mate_moves(mated_in(2)), Some(-1));
        assert_eq!(mate_moves(mated_in(0)), Some(0));
        assert_eq!(mate_moves(120), None);
        assert_eq!(human_from(mate_in(1), true), "#-1");
        assert_eq!(human_from(mate_in(3), false), "#2");
        assert_eq!(human_from(mated_in(4), true), "#2");
        assert_eq!(human_from(mated_in(0), true), "#0");
        assert_eq!(human_from(125, true), "-1.25");
        assert_eq!(human_from(-40, false), "-0.40");
    }

    #[test]
    fn mate_scores_in_moves() {
        assert_eq!(uci(mate_in(1)), "mate 1");
        assert_eq!(uci(mate_in(3)), "mate 2");
        assert_eq!(uci(mated_in(2)), "mate -1");
        assert_eq!(uci(mated_in(0)), "mate 0");
        assert_eq!(uci(-35), "cp -35");
        assert_eq!(human(mate_in(5)), "#3");
        assert_eq!(from_tt(to_tt(mate_in(9), 4), 4), mate_in(9));
        assert_eq!(from_tt(to_tt(mated_in(9), 4), 7), mated_in(12));
    }

    #[test]
    fn wdl_is_symmetric_and_sums_to_1000() {
        for s in [-3000, -150, -1, 0, 37, 150, 900] {
            let (w, d, l) = wdl(s);
            assert_eq!(w + d + l, 1000);
            assert_eq!(wdl(-s), (l, d, w));
        }
        assert_eq!(wdl(150).0, 500);
        assert_eq!(wdl(mate_in(3)), (1000, 0, 0));
    }
}
