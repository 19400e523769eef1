//! Move parsing: from one of a few start positions (the first byte picks it), each
//! further line is read as a move in SAN or UCI (`Game::play_typed`, what `analyze`
//! and `play` use) and then as UCI (`Game::play_uci`, what `position ... moves` uses).
//! A move either is refused, leaving the game as it was, or is one of the legal moves
//! (checked against `is_legal`) and leads to a position that passes `check_position`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sapper_fuzz::check_game;
use sapper_rules::game::AnyGame;
use sapper_rules::variant::VariantKind;
use sapper_rules::with_game;

/// Start positions: each variant's initial position and a few with en passant,
/// castling, promotions, explosions and mines to hand.
const STARTS: &[(VariantKind, &str)] = &[
    (
        VariantKind::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        VariantKind::Chess,
        "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPpP/R3K2R w KQkq - 0 1",
    ),
    (VariantKind::Chess, "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1"),
    (
        VariantKind::Atomic,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        VariantKind::Atomic,
        "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
    ),
    (
        VariantKind::KingOfTheHill,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (VariantKind::KingOfTheHill, "8/8/8/2k5/8/5K2/8/8 w - - 0 1"),
    (
        VariantKind::Minesweeper,
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 M??????M/????????/????????/?M????M? 4",
    ),
    (
        VariantKind::Minesweeper,
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/????????/???????? 4",
    ),
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (variant, fen) = STARTS[first as usize % STARTS.len()];
    let Ok((mut game, _)) = AnyGame::from_spec(variant, Some(fen), &[]) else {
        panic!("start position {fen} refused");
    };
    for (i, line) in text.lines().take(64).enumerate() {
        let before = game.fen();
        let legal = with_game!(&game, g, _V => g.position.legal_moves().iter().copied().collect::<Vec<_>>());
        let played = with_game!(&mut game, g, _V => {
            let pos = g.position;
            let result = if i % 2 == 0 { g.play_typed(line) } else { g.play_uci(line) };
            result.ok().inspect(|&m| {
                assert!(pos.is_legal(m), "{line:?} gave {m}, which is_legal refuses in {before}");
            })
        });
        match played {
            Some(m) => {
                assert!(
                    legal.contains(&m),
                    "{line:?} gave {m}, not a legal move of {before}"
                );
                check_game(&game, 1);
            }
            None => assert_eq!(game.fen(), before, "refused {line:?} changed the game"),
        }
    }
});
