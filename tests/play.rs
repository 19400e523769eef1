//! `sapper play` driven over a pipe, as a person types at a terminal.

use std::io::Write;
use std::process::{Command, Stdio};

const SAPPER: &str = env!("CARGO_BIN_EXE_sapper");

/// Runs `sapper play ARGS` with `typed` on stdin; returns stdout.
fn play(args: &[&str], typed: &str) -> String {
    let mut child = Command::new(SAPPER)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sapper play");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(typed.as_bytes())
        .expect("write moves");
    let out = child.wait_with_output().expect("sapper play");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn moves_are_read_in_san_as_well_as_uci() {
    // White plays Nf3 (SAN); the knight stands on f3 in the next position shown.
    let out = play(&["--level", "0", "--movetime", "20"], "Nf3\nquit\n");
    assert!(out.contains("5N2/PPPPPPPP/RNBQKB1R"), "{out}");
    let out = play(&["--level", "0", "--movetime", "20"], "g1f3\nquit\n");
    assert!(out.contains("5N2/PPPPPPPP/RNBQKB1R"), "{out}");
    // A move that is not legal is refused with a hint, and the game goes on.
    let out = play(&["--level", "0", "--movetime", "20"], "Nf6\ne4\nquit\n");
    assert!(out.contains("type 'moves' for the list"), "{out}");
    assert!(out.contains("4P3/8/PPPP1PPP"), "{out}");
}

#[test]
fn the_board_is_shown_without_engine_internals_and_minesweeper_explains_its_marks() {
    let out = play(&["--level", "0", "--movetime", "20"], "quit\n");
    assert!(!out.contains("Key:") && !out.contains("Checkers:"), "{out}");
    let out = play(
        &["-v", "minesweeper", "--level", "0", "--movetime", "20"],
        "quit\n",
    );
    assert!(out.contains("Legend: ? fog"), "{out}");
    assert!(!out.contains("Mine probabilities"), "{out}");
}
