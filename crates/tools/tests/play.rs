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
    assert!(
        out.contains("Mines on the board: 4 (0 discovered, 4 hidden in the fog)."),
        "{out}"
    );
}

#[test]
fn the_screen_says_whose_move_it_is_and_whose_evaluation_sapper_gives() {
    let out = play(
        &["--level", "0", "--movetime", "20", "--color", "black"],
        "quit\n",
    );
    // Sentences are wrapped at 80 columns.
    let flat = out.replace('\n', " ");
    assert!(flat.contains("upper case letters are White's pieces"), "{out}");
    assert!(out.contains("White to move (Sapper is thinking)."), "{out}");
    assert!(
        out.contains("pawns for Sapper.\n") || out.contains("it expects to"),
        "{out}"
    );
    assert!(out.contains("Black to move (you)."), "{out}");
}

#[test]
fn each_minesweeper_game_gets_its_own_layout_and_names_its_seed_at_the_end() {
    let args = ["-v", "minesweeper", "--level", "0", "--movetime", "20"];
    let out = play(&[&args[..], &["--seed", "7"]].concat(), "quit\n");
    assert!(
        out.contains("Mine layout seed 7: --seed 7 plays this layout again."),
        "{out}"
    );
    // Without --seed the seed comes from the clock: two games, two seeds.
    let seed = |out: &str| {
        out.split("Mine layout seed ")
            .nth(1)
            .and_then(|rest| rest.split(':').next())
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no seed line in {out}"))
    };
    let (first, second) = (play(&args, "quit\n"), play(&args, "quit\n"));
    assert_ne!(seed(&first), seed(&second));
}

#[test]
fn a_move_says_what_it_destroyed_and_the_game_can_be_saved_as_pgn() {
    // Atomic: Qxg4 explodes the queen and the bishop it takes.
    let out = play(
        &[
            "-v",
            "atomic",
            "--level",
            "0",
            "--movetime",
            "20",
            "--fen",
            "rn1qkbnr/ppp1pppp/3p4/8/3PP1b1/8/PPP2PPP/RNBQKBNR w KQkq - 1 3",
        ],
        "Qxg4\npgn\nquit\n",
    );
    assert!(
        out.replace('\n', " ")
            .contains("Explosion on g4 removes the capturing white queen (from d1), black bishop (g4)."),
        "{out}"
    );
    assert!(
        out.contains("[Variant \"Atomic\"]") && out.contains("3. Qxg4"),
        "{out}"
    );
    // Minesweeper with a known layout: d4 holds a mine; the pawn stepping on it is
    // destroyed, and the mines the landing discovers are named.
    let fen =
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/M???????/???M???M 3";
    let dir = std::env::temp_dir().join(format!("sapper-play-{}.pgn", std::process::id()));
    let path = dir.to_str().expect("temp path");
    let out = play(
        &[
            "-v",
            "minesweeper",
            "--level",
            "0",
            "--movetime",
            "20",
            "--fen",
            fen,
            "--pgn",
            path,
        ],
        "d4\nquit\n",
    );
    assert!(
        out.replace('\n', " ")
            .contains("Boom! The white pawn landing on d4 hit a mine and is destroyed (2 mines left)."),
        "{out}"
    );
    assert!(out.contains("Mine probability on the fog, percent"), "{out}");
    let pgn = std::fs::read_to_string(&dir).expect("pgn written");
    std::fs::remove_file(&dir).ok();
    assert!(
        pgn.contains("[Variant \"Minesweeper\"]") && pgn.contains(&format!("[FEN \"{fen}\"]")),
        "{pgn}"
    );
    assert!(pgn.contains("1. d4"), "{pgn}");
}
