//! The UCI loop: a sequence of command lines (the fuzz input, one command a line) is
//! fed to `Uci::handle_line` as a GUI would send it. No line may panic the loop or
//! hang it; after every `position`, `setoption` or `ucinewgame` the engine's
//! position must pass `check_position`. Searches are cut short: `go` lines get a
//! node limit in front of their own arguments, and `stop` follows the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sapper_engine::uci::{Output, Uci};
use sapper_fuzz::check_game;
use std::sync::{Arc, Mutex};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let out: Output = Arc::new(Mutex::new(std::io::sink()));
    let mut uci = Uci::new(out);
    for line in text.lines().take(32) {
        let trimmed = line.trim_start();
        // Bound the work of one input: a search or perft that the input does not stop
        // would run until the final `stop`, and `bench` searches many positions.
        if trimmed.starts_with("bench") || trimmed.contains("perft") || trimmed.contains("infinite") {
            continue;
        }
        let line = match trimmed.strip_prefix("go") {
            Some(rest) => format!("go nodes 2000 {rest}"),
            None => line.to_string(),
        };
        if !uci.handle_line(&line) {
            return;
        }
        if ["position", "setoption", "ucinewgame"]
            .iter()
            .any(|c| trimmed.starts_with(c))
        {
            uci.handle_line("isready");
            check_game(uci.engine().game(), 1);
        }
    }
    uci.handle_line("stop");
    uci.handle_line("quit");
});
