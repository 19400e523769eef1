//! Differential tests against shakmaty 0.30.1 (lichess's rules library), for chess,
//! atomic and king of the hill; and checks of the incremental zobrist key.
//!
//! # Positions
//!
//! For each variant, random playouts (seeded `StdRng`, so every run sees the same
//! positions) start from the start position and from a few seed FENs, and are played
//! in Sapper and in shakmaty side by side: each chosen move is matched by its UCI
//! string, so the shakmaty position is derived by shakmaty's own rules and never from
//! a FEN that Sapper wrote. Positions are sampled at every ply with some probability
//! (and always at the end of a playout, which may be a finished game) until at least
//! [`TARGET`] distinct positions (by zobrist key) are collected. Moves are chosen from
//! the legal moves sorted by UCI code, so the positions depend only on the rules and
//! the seed, not on Sapper's move-generation order.
//!
//! Each playout has a style that biases the move choice, so that the sample holds
//! enough of the positions where rules are subtle: captures and checks (in atomic,
//! captures next to kings, hence explosions near them), king walks (connected kings in
//! atomic, the hill in king of the hill), pawn storms (double pushes for en passant,
//! promotions and underpromotions; seed FENs with advanced pawns help too) and
//! castle-keeping (king and rook moves are strongly discouraged early, so castling
//! rights survive into the middlegame). En-passant captures and promotions are favoured
//! in every style. The test counts these features and requires a minimum of each.
//!
//! # What is compared, per sampled position
//!
//! - **Legal moves**: the sets of legal moves, as UCI codes, at the root and at every
//!   node of the depth-2 tree below it (every child and grandchild, reached by playing
//!   the matched moves in both libraries). Equal sets at every node of the depth-2 tree
//!   imply equal perft 1, 2 and 3 (perft 3 is the sum of the move counts of the depth-2
//!   nodes), and the comparison is stronger than the sums: it can't be fooled by
//!   compensating errors, and a failure names the node and the moves. It costs about
//!   one perft 3 per library (shakmaty's atomic perft 3, which plays every
//!   pseudo-legal move to test it, is the slow part).
//! - **Perft 2 and 3** by the two libraries' own `perft` functions (both count in bulk
//!   at depth 1), to test Sapper's `perft` itself as well.
//! - **Game status** at every node of the tree: Sapper's `special_outcome()` against
//!   shakmaty's `is_variant_end()` / `variant_outcome()` (an exploded king, a king on
//!   the hill), and, where the game is not over that way, whether the side to move is
//!   in check. At the root, `Position::outcome()` against shakmaty's outcome *without*
//!   its insufficient-material draws: docs/rules.md's atomic drawn-material rule differs from
//!   lichess's insufficient material, and draws by rule are claims that neither
//!   `outcome()` reports, so draw claims are not compared.
//! - **FEN**: the FEN Sapper writes must equal, character for character, the FEN
//!   shakmaty writes for its own position with `EnPassantMode::PseudoLegal`; it must
//!   parse in shakmaty to the same board, side, castling rights (as rook squares),
//!   clocks and en-passant square; and it must parse in Sapper back to an identical
//!   position (key included).
//!
//!   En passant: Sapper keeps an en-passant square only while a pawn of the side to
//!   move stands next to the double-pushed pawn (a *pseudo-legal* capture exists), as
//!   Polyglot does; shakmaty's [`EnPassantMode::PseudoLegal`] has exactly these
//!   semantics, so the square is compared exactly with it. shakmaty's
//!   `EnPassantMode::Legal` square (a legal en-passant capture exists) is a subset:
//!   Sapper may write a square where the capture is pinned or, in atomic, would explode
//!   the mover's king; the test checks only that a legal square is always written.
//!
//! Mismatches are collected (with the FEN, the path from the sampled position, and the
//! moves only one library generates) and the test fails at the end, after printing
//! them all.
//!
//! Run time: about 15 s for the whole file with `cargo test --release` on 2 cores
//! (3,000 positions per variant), about 20 s with plain `cargo test`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sapper_rules::moves::{Move, MoveKind};
use sapper_rules::position::Position;
use sapper_rules::types::{Color, Piece, Role, Square};
use sapper_rules::variant::{Atomic, Chess, KingOfTheHill, Outcome, ThreeCheck, Variant, VariantKind};
use shakmaty as sk;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// Distinct positions sampled per variant.
const TARGET: usize = 3_000;

/// Mismatches printed in full; the rest are counted.
const PRINT_LIMIT: usize = 40;

const CHESS_SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete: castling both ways, pins, en passant after ...c5 / ...e5 style pushes.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // CPW position 3: en passant along the rank of the king (horizontal pin).
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // CPW position 4: promotions, castling, checks.
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    // CPW position 5.
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // Promotions and underpromotions on both sides.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // En passant available at once.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Bare castling corridors with rooks.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    // Advanced pawns both ways, double pushes into the enemy pawns.
    "4k3/1P2pp2/8/2pP4/5Pp1/8/4PP1p/4K3 w - c6 0 2",
    // Pawns waiting beside the double-push squares: en passant both ways.
    "rnbqkbnr/pppppppp/8/1P1P1P1P/8/8/P1P1P1P1/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/p1p1p1p1/8/8/1p1p1p1p/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Pawns one step from promotion on both sides.
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
    // Mating material against a bare king: checkmates and stalemates.
    "8/8/8/4k3/8/8/8/R3K2R w KQ - 0 1",
    "8/8/2k5/8/8/8/8/3QK3 w - - 0 1",
    "7k/8/6Q1/8/8/8/8/K7 w - - 0 1",
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
];

const ATOMIC_SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
    "rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq - 0 1",
    "r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1",
    // Explosions next to the king available at once.
    "rnbqk2r/pp1p2pp/2p3Nn/5p2/1b2P1PP/8/PPP2P2/R1BQKB1R w KQkq - 0 1",
    // Kings already touching, pieces around them.
    "8/8/8/3kK3/2r2R2/8/8/8 w - - 0 1",
    // Castling corridors under fire, the rules' examples' material.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/pp3ppp/8/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 1",
    // Advanced pawns: promotions and captures on the back ranks.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // Pawns waiting beside the double-push squares: en passant both ways.
    "rnbqkbnr/pppppppp/8/1P1P1P1P/8/8/P1P1P1P1/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/p1p1p1p1/8/8/1p1p1p1p/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Pawns one step from promotion on both sides.
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
];

const KOTH_SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/5k2/1pp2p2/8/3P1PP1/P3K3/1P6/8 b - - 0 1",
    "rnb2b1r/ppp2ppp/3k4/8/1PKp1pn1/3Pq3/PBP1P2P/RN1Q1B1R w - - 0 1",
    // Kings one step from the hill, hill squares attacked.
    "8/8/2k5/8/8/4K3/3r4/8 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // Pawns waiting beside the double-push squares: en passant both ways.
    "rnbqkbnr/pppppppp/8/1P1P1P1P/8/8/P1P1P1P1/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/p1p1p1p1/8/8/1p1p1p1p/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Pawns one step from promotion on both sides.
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
];

// ---- moves as codes ----------------------------------------------------------------

/// A move as `from | to << 6 | promotion << 12` (squares a1 = 0 .. h8 = 63 in both
/// libraries; promotion 0 none, 1 n, 2 b, 3 r, 4 q), castling as king from-to.
type Code = u16;

fn promo_code(c: Option<char>) -> Code {
    match c {
        None => 0,
        Some('n') => 1,
        Some('b') => 2,
        Some('r') => 3,
        Some('q') => 4,
        Some(_) => 5,
    }
}

fn our_code(m: Move) -> Code {
    m.from().index() as Code
        | (m.to().index() as Code) << 6
        | promo_code(m.promotion_role().map(Role::char)) << 12
}

fn their_code(m: &sk::Move) -> Code {
    match m.to_uci(sk::CastlingMode::Standard) {
        sk::uci::UciMove::Normal { from, to, promotion } => {
            from.to_u32() as Code
                | (to.to_u32() as Code) << 6
                | promo_code(promotion.map(sk::Role::char)) << 12
        }
        other => panic!("unexpected shakmaty move {other}"),
    }
}

fn code_uci(c: Code) -> String {
    let sq = |i: Code| format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1);
    let promo = match c >> 12 {
        0 => "",
        1 => "n",
        2 => "b",
        3 => "r",
        4 => "q",
        _ => "?",
    };
    format!("{}{}{promo}", sq(c & 63), sq((c >> 6) & 63))
}

/// Sapper's legal moves, sorted by code.
fn ours_sorted<V: Variant>(pos: &Position<V>) -> Vec<(Code, Move)> {
    let mut v: Vec<_> = pos.legal_moves().into_iter().map(|m| (our_code(m), m)).collect();
    v.sort_unstable_by_key(|p| p.0);
    v
}

/// shakmaty's legal moves, sorted by code.
fn theirs_sorted<P: sk::Position>(pos: &P) -> Vec<(Code, sk::Move)> {
    let mut v: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (their_code(&m), m))
        .collect();
    v.sort_unstable_by_key(|p| p.0);
    v
}

/// A description of two differing move sets, or `None` when they are equal.
fn diff_moves(ours: &[(Code, Move)], theirs: &[(Code, sk::Move)]) -> Option<String> {
    let a: Vec<Code> = ours.iter().map(|p| p.0).collect();
    let b: Vec<Code> = theirs.iter().map(|p| p.0).collect();
    if a == b {
        return None;
    }
    let sa: HashSet<Code> = a.iter().copied().collect();
    let sb: HashSet<Code> = b.iter().copied().collect();
    let mut only_ours: Vec<String> = a
        .iter()
        .filter(|c| !sb.contains(c))
        .map(|&c| code_uci(c))
        .collect();
    let mut only_theirs: Vec<String> = b
        .iter()
        .filter(|c| !sa.contains(c))
        .map(|&c| code_uci(c))
        .collect();
    only_ours.sort();
    only_theirs.sort();
    let dups = a.len() - sa.len();
    Some(format!(
        "only Sapper: [{}]; only shakmaty: [{}]{}",
        only_ours.join(" "),
        only_theirs.join(" "),
        if dups > 0 {
            format!("; Sapper generates {dups} duplicate(s)")
        } else {
            String::new()
        }
    ))
}

// ---- status -------------------------------------------------------------------------

fn our_color(c: sk::Color) -> Color {
    match c {
        sk::Color::White => Color::White,
        sk::Color::Black => Color::Black,
    }
}

/// shakmaty's outcome without insufficient-material draws (see the module docs).
fn their_outcome<P: sk::Position>(pos: &P, no_moves: bool) -> Option<Outcome> {
    if let sk::Outcome::Known(o) = pos.variant_outcome() {
        return Some(match o {
            sk::KnownOutcome::Decisive { winner } => Outcome::Decisive {
                winner: our_color(winner),
            },
            sk::KnownOutcome::Draw => Outcome::Draw,
        });
    }
    if no_moves {
        return Some(if pos.is_check() {
            Outcome::Decisive {
                winner: our_color(!pos.turn()),
            }
        } else {
            Outcome::Draw
        });
    }
    None
}

fn our_castling_squares<V: Variant>(pos: &Position<V>) -> u64 {
    use sapper_rules::position::castling::*;
    let mut bb = 0u64;
    let r = pos.castling_rights();
    for (bit, sq) in [
        (WHITE_KING, 7),
        (WHITE_QUEEN, 0),
        (BLACK_KING, 63),
        (BLACK_QUEEN, 56),
    ] {
        if r & bit != 0 {
            bb |= 1 << sq;
        }
    }
    bb
}

// ---- the comparison -------------------------------------------------------------------

/// A mismatch report: the sampled position's FEN, and what differs.
fn report<V: Variant>(root: &Position<V>, origin: &str, what: String) -> String {
    format!("[{}] {} ({origin}): {what}", V::NAME, root.to_fen())
}

/// Compares the move sets (and status) at every node of the tree of `depth` plies below
/// the pair; pushes at most one mismatch (the first) and returns whether all agreed.
fn walk<V: Variant, P: sk::Position + Clone>(
    ours: &Position<V>,
    theirs: &P,
    depth: u32,
    path: &mut Vec<String>,
    what: &mut Option<String>,
) -> bool {
    let a = ours_sorted(ours);
    let b = theirs_sorted(theirs);
    let at = || {
        if path.is_empty() {
            "at the root".to_string()
        } else {
            format!("after {} (FEN {})", path.join(" "), ours.to_fen())
        }
    };
    if let Some(d) = diff_moves(&a, &b) {
        *what = Some(format!("legal moves differ {}: {d}", at()));
        return false;
    }
    let special = ours.special_outcome();
    let theirs_special = their_outcome(theirs, false);
    if special.is_some() != theirs.is_variant_end() || special != theirs_special {
        *what = Some(format!(
            "variant end differs {}: Sapper {special:?}, shakmaty {theirs_special:?}",
            at()
        ));
        return false;
    }
    if special.is_none() && ours.in_check() != theirs.is_check() {
        *what = Some(format!(
            "check differs {}: Sapper {}, shakmaty {}",
            at(),
            ours.in_check(),
            theirs.is_check()
        ));
        return false;
    }
    if depth == 0 {
        return true;
    }
    for ((_, m), (_, tm)) in a.iter().zip(b.iter()) {
        let mut child = *ours;
        child.play(*m);
        let mut tchild = theirs.clone();
        tchild.play_unchecked(*tm);
        path.push(m.to_string());
        let ok = walk(&child, &tchild, depth - 1, path, what);
        path.pop();
        if !ok {
            return false;
        }
    }
    true
}

/// Every comparison of the module docs for one sampled position.
fn compare<V: Variant, P: sk::Position + sk::FromSetup + Clone>(
    ours: &Position<V>,
    theirs: &P,
    origin: &str,
    out: &mut Vec<String>,
) {
    // Move sets at every node of the depth-2 tree: perft 1-3 agree.
    let mut what = None;
    if !walk(ours, theirs, 2, &mut Vec::new(), &mut what) {
        out.push(report(ours, origin, what.unwrap()));
        return;
    }

    // The perft functions themselves.
    for depth in [2, 3] {
        let a = sapper_rules::perft::perft(ours, depth);
        let b = sk::perft(theirs, depth);
        if a != b {
            out.push(report(
                ours,
                origin,
                format!("perft {depth}: Sapper {a}, shakmaty {b}"),
            ));
        }
    }

    // Outcome at the root.
    let ours_outcome = ours.outcome();
    let theirs_outcome = their_outcome(theirs, theirs.legal_moves().is_empty());
    if ours_outcome != theirs_outcome {
        out.push(report(
            ours,
            origin,
            format!("outcome: Sapper {ours_outcome:?}, shakmaty {theirs_outcome:?}"),
        ));
    }

    // Move text: Display is UCI.
    for m in ours.legal_moves() {
        if m.to_string() != code_uci(our_code(m)) {
            out.push(report(
                ours,
                origin,
                format!("move {m} displays unlike its UCI {}", code_uci(our_code(m))),
            ));
        }
    }

    // FEN.
    let fen = ours.to_fen();
    let their_fen = sk::fen::Fen::from_position(theirs, sk::EnPassantMode::PseudoLegal).to_string();
    if fen != their_fen {
        out.push(report(
            ours,
            origin,
            format!("FEN text: Sapper `{fen}`, shakmaty `{their_fen}`"),
        ));
    }
    match sk::fen::Fen::from_ascii(fen.as_bytes())
        .map_err(|e| e.to_string())
        .and_then(|f| {
            f.into_position::<P>(sk::CastlingMode::Standard)
                .map_err(|e| e.to_string())
        }) {
        Err(e) => out.push(report(ours, origin, format!("shakmaty rejects our FEN: {e}"))),
        Ok(parsed) => {
            let mut diffs = Vec::new();
            if parsed.board() != theirs.board() {
                diffs.push("board".to_string());
            }
            if parsed.turn() != theirs.turn() {
                diffs.push("turn".to_string());
            }
            let rights = theirs.castles().castling_rights().0;
            if parsed.castles().castling_rights().0 != rights || our_castling_squares(ours) != rights {
                diffs.push(format!(
                    "castling (ours {:#x}, parsed {:#x}, shakmaty {rights:#x})",
                    our_castling_squares(ours),
                    parsed.castles().castling_rights().0
                ));
            }
            let our_ep = ours.ep_square().map(|s| s.index() as u32);
            let pseudo = theirs.pseudo_legal_ep_square().map(sk::Square::to_u32);
            let parsed_pseudo = parsed.pseudo_legal_ep_square().map(sk::Square::to_u32);
            if our_ep != pseudo || parsed_pseudo != pseudo {
                diffs.push(format!(
                    "en passant (ours {our_ep:?}, parsed {parsed_pseudo:?}, shakmaty pseudo-legal {pseudo:?})"
                ));
            }
            let legal = theirs.legal_ep_square();
            if parsed.legal_ep_square() != legal || (legal.is_some() && our_ep.is_none()) {
                diffs.push(format!("legal en passant (shakmaty {legal:?})"));
            }
            if parsed.halfmoves() != theirs.halfmoves()
                || u32::from(ours.halfmove_clock()) != theirs.halfmoves()
                || parsed.fullmoves() != theirs.fullmoves()
                || ours.fullmove_number() != theirs.fullmoves().get()
            {
                diffs.push("clocks".to_string());
            }
            if !diffs.is_empty() {
                out.push(report(
                    ours,
                    origin,
                    format!("FEN read by shakmaty differs in: {}", diffs.join(", ")),
                ));
            }
        }
    }
    match Position::<V>::from_fen(&fen) {
        Ok((back, warnings)) => {
            if back != *ours || back.key() != ours.key() || !warnings.is_empty() {
                out.push(report(
                    ours,
                    origin,
                    format!("our FEN does not read back identically (warnings {warnings:?})"),
                ));
            }
        }
        Err(e) => out.push(report(ours, origin, format!("Sapper rejects its own FEN: {e}"))),
    }
}

// ---- playouts -----------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Style {
    Uniform,
    Aggressive,
    CastleKeeper,
    PawnStorm,
    KingWalk,
}

const STYLES: [Style; 5] = [
    Style::Uniform,
    Style::Aggressive,
    Style::CastleKeeper,
    Style::PawnStorm,
    Style::KingWalk,
];

/// The weight of `m` in a playout of `style` at `ply`.
fn weight<V: Variant>(pos: &Position<V>, m: Move, style: Style, ply: usize) -> f64 {
    let us = pos.side_to_move();
    let role = pos.role_at(m.from());
    let capture = m.kind() == MoveKind::EnPassant || pos.piece_at(m.to()).is_some();
    let their_king = pos.king(!us);
    let near_their_king = their_king.is_some_and(|k| m.to().distance(k) <= 2);
    let castle = m.kind() == MoveKind::Castle;
    let promotion = m.promotion_role().is_some();
    let pawn = role == Some(Role::Pawn);
    // A double push landing beside an enemy pawn offers an en-passant capture.
    let double_push = pawn && m.from().rank().abs_diff(m.to().rank()) == 2;
    let beside_enemy_pawn = [-1i32, 1].iter().any(|df| {
        let f = m.to().file() as i32 + df;
        (0..8).contains(&f)
            && pos.piece_at(Square::new(f as u8, m.to().rank())) == Some(Piece::new(!us, Role::Pawn))
    });
    let mut w = 1.0;
    if m.kind() == MoveKind::EnPassant {
        w *= 8.0;
    }
    if double_push && beside_enemy_pawn {
        w *= 4.0;
    }
    if promotion {
        w *= 3.0;
    }
    match style {
        Style::Uniform => {}
        Style::Aggressive => {
            if capture {
                w *= 5.0;
            }
            if near_their_king {
                w *= if V::KIND == VariantKind::Atomic { 4.0 } else { 2.0 };
            }
            let mut child = *pos;
            child.play(m);
            if child.in_check() {
                w *= 5.0;
            }
            // Finished games: checkmate, stalemate, an exploded king, the hill.
            if child.outcome().is_some() {
                w *= 30.0;
            }
        }
        Style::CastleKeeper => {
            if ply < 40 {
                if castle {
                    w *= 0.5;
                } else if role == Some(Role::King) {
                    w *= 0.02;
                } else if role == Some(Role::Rook) {
                    w *= 0.05;
                }
            }
            if capture {
                w *= 2.0;
            }
        }
        Style::PawnStorm => {
            if pawn {
                w *= 4.0;
                if double_push {
                    w *= 3.0;
                }
            }
            if promotion {
                w *= 8.0;
            }
        }
        Style::KingWalk => {
            if role == Some(Role::King) && !castle {
                w *= 4.0;
                let centre = |s: Square| {
                    let f = s.file() as i32;
                    let r = s.rank() as i32;
                    (2 * f - 7).abs().max((2 * r - 7).abs())
                };
                if (V::KIND == VariantKind::KingOfTheHill) && centre(m.to()) < centre(m.from()) {
                    w *= 3.0;
                }
                if let Some(k) = their_king {
                    if (V::KIND == VariantKind::Atomic) && m.to().distance(k) < m.from().distance(k) {
                        w *= 3.0;
                    }
                }
            }
        }
    }
    w
}

fn pick(rng: &mut StdRng, weights: &[f64]) -> usize {
    let total: f64 = weights.iter().sum();
    let mut x = rng.gen::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    weights.len() - 1
}

struct Sample<V: Variant, P> {
    ours: Position<V>,
    theirs: P,
    origin: String,
}

fn parse_pair<V: Variant, P: sk::Position + sk::FromSetup>(fen: &str) -> (Position<V>, P) {
    let (ours, warnings) = Position::<V>::from_fen(fen).unwrap_or_else(|e| panic!("seed {fen}: {e}"));
    assert!(warnings.is_empty(), "seed {fen}: {warnings:?}");
    let theirs = sk::fen::Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position::<P>(sk::CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty rejects seed {fen}: {e}"));
    (ours, theirs)
}

/// Random playouts played in both libraries; returns the sampled positions. Root move
/// sets are compared at every ply on the way (a mismatch ends the playout).
fn generate<V: Variant, P: sk::Position + sk::FromSetup + Clone>(
    seeds: &[&str],
    rng: &mut StdRng,
    out: &mut Vec<String>,
) -> Vec<Sample<V, P>> {
    let mut samples = Vec::new();
    let mut seen = HashSet::new();
    let mut playout = 0usize;
    while samples.len() < TARGET {
        assert!(playout < 20 * TARGET, "cannot find enough distinct positions");
        // The start position (seed 0) seeds every other playout.
        let seed_index = if playout.is_multiple_of(2) {
            0
        } else {
            rng.gen_range(0..seeds.len())
        };
        let style = STYLES[rng.gen_range(0..STYLES.len())];
        let max_plies = rng.gen_range(4..=120);
        let sample_rate = rng.gen_range(0.05..0.25);
        let (mut ours, mut theirs) = parse_pair::<V, P>(seeds[seed_index]);
        let mut line = Vec::new();
        for ply in 0..=max_plies {
            let a = ours_sorted(&ours);
            let b = theirs_sorted(&theirs);
            let origin = || {
                format!(
                    "playout {playout} from seed {seed_index} ({style:?}), ply {ply}: {}",
                    line.join(" ")
                )
            };
            if let Some(d) = diff_moves(&a, &b) {
                out.push(report(&ours, &origin(), format!("legal moves differ: {d}")));
                break;
            }
            let last = a.is_empty() || ply == max_plies;
            // Positions with en passant, promotions, castling or check are sampled more.
            let interesting = ours.in_check()
                || a.iter().any(|(_, m)| {
                    matches!(m.kind(), MoveKind::EnPassant | MoveKind::Castle) || m.promotion_role().is_some()
                });
            let rate = if interesting { 0.5 } else { sample_rate };
            if (last || rng.gen_bool(rate)) && seen.insert(ours.key()) {
                samples.push(Sample {
                    ours,
                    theirs: theirs.clone(),
                    origin: origin(),
                });
            }
            if last {
                break;
            }
            let weights: Vec<f64> = a.iter().map(|&(_, m)| weight(&ours, m, style, ply)).collect();
            let i = pick(rng, &weights);
            ours.play(a[i].1);
            theirs.play_unchecked(b[i].1);
            line.push(a[i].1.to_string());
        }
        playout += 1;
    }
    samples
}

/// Features of the sample, counted to make sure the biases work.
#[derive(Default, Debug)]
struct Features {
    in_check: usize,
    en_passant: usize,
    castling_moves: usize,
    castling_rights: usize,
    promotions: usize,
    underpromotions: usize,
    king_explosions: usize,
    kings_touch: usize,
    hill_moves: usize,
    finished: usize,
}

fn features<V: Variant>(samples: &[Position<V>]) -> Features {
    let mut f = Features::default();
    let hill = [27usize, 28, 35, 36];
    for pos in samples {
        let moves = pos.legal_moves();
        f.in_check += pos.in_check() as usize;
        f.en_passant += moves.iter().any(|m| m.kind() == MoveKind::EnPassant) as usize;
        f.castling_moves += moves.iter().any(|m| m.kind() == MoveKind::Castle) as usize;
        f.castling_rights += (pos.castling_rights() != 0) as usize;
        f.promotions += moves.iter().any(|m| m.promotion_role().is_some()) as usize;
        f.underpromotions += moves
            .iter()
            .any(|m| matches!(m.promotion_role(), Some(r) if r != Role::Queen))
            as usize;
        let their_king = pos.king(!pos.side_to_move());
        f.king_explosions += ((V::KIND == VariantKind::Atomic)
            && moves.iter().any(|m| {
                (m.kind() == MoveKind::EnPassant || pos.piece_at(m.to()).is_some())
                    && their_king.is_some_and(|k| m.to().distance(k) <= 1)
            })) as usize;
        f.kings_touch += pos.kings_touch() as usize;
        f.hill_moves += ((V::KIND == VariantKind::KingOfTheHill)
            && moves
                .iter()
                .any(|m| pos.role_at(m.from()) == Some(Role::King) && hill.contains(&m.to().index())))
            as usize;
        f.finished += moves.is_empty() as usize;
    }
    f
}

fn run<V: Variant, P: sk::Position + sk::FromSetup + Clone>(seeds: &[&str], seed: u64) {
    let start = std::time::Instant::now();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut mismatches = Vec::new();
    let samples = generate::<V, P>(seeds, &mut rng, &mut mismatches);
    for s in &samples {
        compare(&s.ours, &s.theirs, &s.origin, &mut mismatches);
    }
    let positions: Vec<Position<V>> = samples.iter().map(|s| s.ours).collect();
    let f = features(&positions);
    eprintln!(
        "{}: {} positions compared in {:.1?}; {f:?}",
        V::NAME,
        samples.len(),
        start.elapsed()
    );

    // The sample must hold enough of each kind of subtle position.
    let mut thin = Vec::new();
    let mut need = |name: &str, got: usize, min: usize| {
        if got < min {
            thin.push(format!("{name}: {got} < {min}"));
        }
    };
    need("in check", f.in_check, 100);
    need("en passant", f.en_passant, 40);
    need("castling moves", f.castling_moves, 100);
    need("promotions", f.promotions, 60);
    need("underpromotions", f.underpromotions, 60);
    need("finished games", f.finished, 15);
    if V::KIND == VariantKind::Atomic {
        need("explosions next to a king", f.king_explosions, 100);
        need("touching kings", f.kings_touch, 20);
    }
    if V::KIND == VariantKind::KingOfTheHill {
        need("king moves onto the hill", f.hill_moves, 100);
    }
    assert!(thin.is_empty(), "sample too thin: {thin:?}");

    if !mismatches.is_empty() {
        let mut text = String::new();
        for m in mismatches.iter().take(PRINT_LIMIT) {
            let _ = writeln!(text, "{m}");
        }
        if mismatches.len() > PRINT_LIMIT {
            let _ = writeln!(text, "... and {} more", mismatches.len() - PRINT_LIMIT);
        }
        panic!(
            "{} mismatch(es) against shakmaty in {}:\n{text}",
            mismatches.len(),
            V::NAME
        );
    }
}

/// Found by this test: after a capture that explodes the enemy king while the mover's
/// own king stays in check (legal: docs/rules.md atomic 6), the FEN `to_fen()` writes must
/// read back (atomic 9: one king missing is a finished game), as shakmaty accepts it.
#[test]
fn atomic_fen_after_king_explosion_reads_back() {
    // White, in check from the bishop on b4, plays Qxd7: the explosion removes the
    // black king on e8, and the white king on e1 stays in check (legal: atomic 6).
    let before = "rnb1kb1r/pp1p2pp/2p3Nn/q4p2/1b2P1PP/8/PPP2P2/R1BQKB1R w KQkq - 0 1";
    let (pos, _) = Position::<Atomic>::from_fen(before).unwrap();
    let after = play_line(&pos, "d1d7");
    assert!(after.king(Color::Black).is_none() && after.outcome().is_some());
    let fen = after.to_fen();
    match Position::<Atomic>::from_fen(&fen) {
        Ok((back, _)) => assert_eq!(back, after),
        Err(e) => panic!("{fen}: {e}"),
    }
}

#[test]
fn differential_chess() {
    run::<Chess, sk::Chess>(CHESS_SEEDS, 0x005a_99e7_0001);
}

#[test]
fn differential_atomic() {
    run::<Atomic, sk::variant::Atomic>(ATOMIC_SEEDS, 0x005a_99e7_0002);
}

#[test]
fn differential_kingofthehill() {
    run::<KingOfTheHill, sk::variant::KingOfTheHill>(KOTH_SEEDS, 0x005a_99e7_0003);
}

#[test]
fn differential_threecheck() {
    run::<ThreeCheck, sk::variant::ThreeCheck>(CHESS_SEEDS, 0x005a_99e7_0004);
}

// ---- zobrist -------------------------------------------------------------------------------

/// The FEN without its clocks: what the key must distinguish.
fn identity<V: Variant>(pos: &Position<V>) -> String {
    pos.to_fen()
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays `line` (UCI moves, each of which must be legal) from `pos`.
fn play_line<V: Variant>(pos: &Position<V>, line: &str) -> Position<V> {
    let mut pos = *pos;
    for text in line.split_whitespace() {
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == text)
            .unwrap_or_else(|| panic!("{text} is not legal in {}", pos.to_fen()));
        pos.play(m);
        assert_eq!(pos.key(), pos.compute_key(), "after {text}: {}", pos.to_fen());
    }
    pos
}

/// Random playouts checking the incremental key after every move; random transposition
/// trials (moves a, b, c against c, b, a: equal positions must have equal keys,
/// different ones different keys); and hand-picked lines.
fn zobrist_check<V: Variant>(seeds: &[&str], seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut errors = Vec::new();
    let mut by_identity: HashMap<String, u64> = HashMap::new();
    let mut by_key: HashMap<u64, String> = HashMap::new();
    let (mut moves_checked, mut transpositions, mut distinct) = (0usize, 0usize, 0usize);
    let mut note = |pos: &Position<V>, errors: &mut Vec<String>| {
        let id = identity(pos);
        if let Some(&k) = by_identity.get(&id) {
            if k != pos.key() {
                errors.push(format!("{id}: keys {k:#x} and {:#x}", pos.key()));
            }
        }
        if let Some(other) = by_key.get(&pos.key()) {
            if *other != id {
                errors.push(format!("key collision: {other} and {id}"));
            }
        }
        by_identity.insert(id.clone(), pos.key());
        by_key.insert(pos.key(), id);
    };
    for playout in 0..300 {
        let fen = seeds[playout % seeds.len()];
        let (mut pos, _) = Position::<V>::from_fen(fen).unwrap();
        note(&pos, &mut errors);
        let style = STYLES[rng.gen_range(0..STYLES.len())];
        for ply in 0..rng.gen_range(10..100) {
            let moves = ours_sorted(&pos);
            if moves.is_empty() {
                break;
            }
            // A transposition trial from here.
            if moves.len() >= 2 {
                let a = moves[rng.gen_range(0..moves.len())].1;
                let c = moves[rng.gen_range(0..moves.len())].1;
                let mut x = pos;
                x.play(a);
                let replies = x.legal_moves();
                if a != c && !replies.is_empty() {
                    let b = replies[rng.gen_range(0..replies.len())];
                    x.play(b);
                    let mut y = pos;
                    y.play(c);
                    if x.legal_moves().contains(&c) && y.legal_moves().contains(&b) {
                        x.play(c);
                        y.play(b);
                        if y.legal_moves().contains(&a) {
                            y.play(a);
                            if identity(&x) == identity(&y) {
                                transpositions += 1;
                                if x.key() != y.key() {
                                    errors.push(format!(
                                        "{}: {a} {b} {c} and {c} {b} {a} transpose, keys differ",
                                        pos.to_fen()
                                    ));
                                }
                            } else {
                                distinct += 1;
                                if x.key() == y.key() {
                                    errors.push(format!(
                                        "{}: {a} {b} {c} and {c} {b} {a} differ, keys equal",
                                        pos.to_fen()
                                    ));
                                }
                            }
                            for p in [&x, &y] {
                                if p.key() != p.compute_key() {
                                    errors.push(format!("incremental key wrong: {}", p.to_fen()));
                                }
                            }
                        }
                    }
                }
            }
            let weights: Vec<f64> = moves.iter().map(|&(_, m)| weight(&pos, m, style, ply)).collect();
            let m = moves[pick(&mut rng, &weights)].1;
            pos.play(m);
            moves_checked += 1;
            if pos.key() != pos.compute_key() {
                errors.push(format!(
                    "incremental key {:#x} != computed {:#x} after {m}: {}",
                    pos.key(),
                    pos.compute_key(),
                    pos.to_fen()
                ));
            }
            note(&pos, &mut errors);
        }
    }

    // Hand-picked lines, legal in all three variants.
    let start = Position::<V>::startpos();
    let same = [
        ("g1f3 g8f6 b1c3", "b1c3 g8f6 g1f3"),
        // The last double push leaves no usable en-passant square: same key.
        ("e2e4 g8f6 b1c3", "b1c3 g8f6 e2e4"),
        ("e2e4 e7e5 g1f3 b8c6", "g1f3 b8c6 e2e4 e7e5"),
        ("g1f3 g8f6 f3g1 f6g8", ""),
    ];
    for (l1, l2) in same {
        let (x, y) = (play_line(&start, l1), play_line(&start, l2));
        if x.key() != y.key() || identity(&x) != identity(&y) {
            errors.push(format!("`{l1}` and `{l2}` should transpose"));
        }
    }
    let different = [
        // Same board; castling rights lost.
        ("g1f3 g8f6 h1g1 f6g8 g1h1 g8f6", "g1f3 g8f6"),
        // Same board; a usable en-passant square in one of them.
        ("e2e4 g8f6 e4e5 d7d5", "e2e4 g8f6 e4e5 d7d5 f1e2 f6g8 e2f1 g8f6"),
    ];
    for (l1, l2) in different {
        let (x, y) = (play_line(&start, l1), play_line(&start, l2));
        if x.to_fen().split(' ').next() != y.to_fen().split(' ').next() {
            errors.push(format!("`{l1}` and `{l2}` should reach the same board"));
        }
        if x.key() == y.key() {
            errors.push(format!("`{l1}` and `{l2}` should have different keys"));
        }
    }
    // Same board; side to move differs.
    let mut passed = start;
    passed.play_null();
    if passed.key() == start.key() || passed.key() != passed.compute_key() {
        errors.push("the side to move is not keyed".to_string());
    }

    eprintln!(
        "{} zobrist: {moves_checked} moves, {transpositions} transpositions, {distinct} non-transpositions",
        V::NAME
    );
    assert!(
        errors.is_empty(),
        "zobrist errors in {}:\n{}",
        V::NAME,
        errors.join("\n")
    );
    assert!(moves_checked > 5_000 && transpositions > 500 && distinct > 100);
}

#[test]
fn zobrist_incremental_and_transpositions() {
    zobrist_check::<Chess>(CHESS_SEEDS, 11);
    zobrist_check::<Atomic>(ATOMIC_SEEDS, 12);
    zobrist_check::<KingOfTheHill>(KOTH_SEEDS, 13);
}
