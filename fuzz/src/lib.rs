//! What every fuzz target checks of a position it reaches: the invariants that hold
//! of any position the engine accepts, and of every move it generates.

use sapper_rules::game::AnyGame;
use sapper_rules::movegen::GenType;
use sapper_rules::moves::MoveList;
use sapper_rules::position::Position;
use sapper_rules::variant::{Variant, VariantKind};
use sapper_rules::with_game;

/// Checks `pos` and every position one legal move away:
///
/// * the incremental zobrist key equals the key computed from scratch;
/// * the FEN reads back to the same FEN and key (so the FEN writer and reader agree
///   and the position is one the reader accepts: no king en prise, no pawn on a back
///   rank, ...);
/// * the legal moves are exactly the generated moves that `is_legal` accepts (in any
///   order), every one of them passes `is_legal`, and none appears twice;
/// * after each legal move the side to move has changed, the key is still right,
///   and the FEN of the new position is again accepted by the reader.
///
/// # Panics
/// When an invariant fails (the fuzzer reports the input).
pub fn check_position<V: Variant>(pos: &Position<V>, depth: u32) {
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "incremental key of {}",
        pos.to_fen()
    );
    let fen = pos.to_fen();
    let (back, _) = Position::<V>::from_fen(&fen).unwrap_or_else(|e| panic!("own FEN {fen} refused: {e}"));
    assert_eq!(back.to_fen(), fen, "FEN round trip");
    assert_eq!(back.key(), pos.key(), "key after the FEN round trip of {fen}");

    let legal = pos.legal_moves();
    let mut generated = MoveList::new();
    pos.generate(GenType::All, &mut generated);
    // The same moves; the orders differ (legal generation may put captures first).
    let mut filtered: Vec<String> = generated
        .iter()
        .filter(|&&m| pos.is_legal(m))
        .map(|m| m.to_string())
        .collect();
    let mut listed: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
    filtered.sort();
    listed.sort();
    assert_eq!(listed, filtered, "legal moves of {fen}");
    let mut noisy = MoveList::new();
    pos.generate(GenType::Noisy, &mut noisy);
    let mut quiet = MoveList::new();
    pos.generate(GenType::Quiet, &mut quiet);
    assert_eq!(
        noisy.len() + quiet.len(),
        generated.len(),
        "noisy + quiet = all in {fen}"
    );
    for (i, &m) in legal.iter().enumerate() {
        assert!(
            pos.is_legal(m),
            "{m} generated as legal in {fen} but is_legal refuses it"
        );
        assert!(!legal[..i].contains(&m), "{m} generated twice in {fen}");
        let mut child = *pos;
        // A public minesweeper position does not know what a fogged landing square
        // holds: the move is played as the search plays it, with the mine-free
        // outcome, and its FEN is not a position a GUI could send (the piece stands
        // in the fog), so it is not read back.
        let public = V::KIND == VariantKind::Minesweeper && fen.contains('?');
        if public {
            child.play_outcome(m, false);
        } else {
            child.play(m);
        }
        assert_ne!(child.side_to_move(), pos.side_to_move(), "{m} in {fen}");
        assert_eq!(child.key(), child.compute_key(), "key after {m} in {fen}");
        let child_fen = child.to_fen();
        if !public {
            Position::<V>::from_fen(&child_fen)
                .unwrap_or_else(|e| panic!("{m} in {fen} gives {child_fen}: {e}"));
        }
        if depth > 1 {
            check_position(&child, depth - 1);
        }
    }
}

/// [`check_position`] on the current position of `game`.
pub fn check_game(game: &AnyGame, depth: u32) {
    with_game!(game, g, _V => check_position(&g.position, depth));
}

/// The variant a fuzz input's first byte selects.
pub fn variant_of(byte: u8) -> VariantKind {
    VariantKind::ALL[byte as usize % VariantKind::ALL.len()]
}
