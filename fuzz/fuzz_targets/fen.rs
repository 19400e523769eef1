//! FEN parsing: any text, read as a FEN of the variant the first byte selects, is
//! refused with an error or gives a position that passes `check_position` (its
//! legal moves each checked with `is_legal`, played, and read back).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sapper_fuzz::{check_game, variant_of};
use sapper_rules::game::AnyGame;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(fen) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok((game, _warnings)) = AnyGame::from_spec(variant_of(first), Some(fen), &[]) {
        check_game(&game, 1);
    }
});
