//! `sapper analyze` through the real binary: default limit, output for a pipe,
//! MultiPV labels, the scores' point of view, SAN and UCI moves, and finished games.

use std::process::{Command, Output};

const SAPPER: &str = env!("CARGO_BIN_EXE_sapper");

fn analyze(args: &[&str]) -> Output {
    Command::new(SAPPER)
        .arg("analyze")
        .args(args)
        .output()
        .expect("the sapper binary runs")
}

/// Stdout of a run that must succeed.
fn ok(args: &[&str]) -> String {
    let run = analyze(args);
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "{args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    stdout
}

/// Stderr of a run that must fail.
fn refused(args: &[&str]) -> String {
    let run = analyze(args);
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(!run.status.success(), "{args:?} succeeded:\n{stdout}");
    stderr
}

/// The value after `label` on the first line starting with it.
fn field<'a>(stdout: &'a str, label: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no '{label}' line in:\n{stdout}"))
        .trim()
}

/// The score of the `Best move:` line (`+0.25`, `-3.10`, `#2`, `#-1`).
fn best_score(stdout: &str) -> String {
    let best = field(stdout, "Best move:");
    let after = best
        .split("score ")
        .nth(1)
        .unwrap_or_else(|| panic!("no score in '{best}'"));
    after.split(',').next().unwrap_or_default().to_string()
}

#[test]
fn without_a_limit_minesweeper_thinks_for_a_fixed_time_and_a_pipe_gets_no_progress_line() {
    let stdout = ok(&["-v", "minesweeper"]);
    assert_eq!(field(&stdout, "Limit:"), "3000 ms");
    assert!(stdout.contains("Best move: "), "{stdout}");
    // The progress line is redrawn with '\r': only on a terminal, never into a pipe.
    assert!(!stdout.contains('\r'), "{stdout:?}");
    assert!(!stdout.contains("... depth"), "{stdout}");
}

#[test]
fn an_explicit_depth_is_the_only_limit() {
    let stdout = ok(&["-v", "atomic", "--depth", "3"]);
    assert_eq!(field(&stdout, "Limit:"), "depth 3");
    assert!(field(&stdout, "Best move:").contains("depth 3,"), "{stdout}");
}

#[test]
fn multipv_lines_are_labelled_apart_from_mate_scores() {
    let stdout = ok(&["--depth", "3", "--multipv", "3"]);
    for k in 1..=3 {
        assert!(stdout.contains(&format!("[{k}]")), "no line [{k}] in:\n{stdout}");
    }
    // '#' is kept for mate scores; the start position has none at depth 3.
    let iterations: Vec<&str> = stdout.lines().filter(|l| l.contains("s  1. ")).collect();
    assert_eq!(iterations.len(), 9, "{stdout}");
    assert!(iterations.iter().all(|l| !l.contains('#')), "{stdout}");
}

#[test]
fn scores_state_their_point_of_view_and_white_pov_flips_black_to_move() {
    // Black to move against two rooks: bad for Black, good for White.
    let fen = "4k3/8/8/8/8/8/8/R3K2R b - - 0 1";
    let side = ok(&["--fen", fen, "--depth", "2"]);
    assert!(
        field(&side, "Scores:").contains("the side to move's (Black's) point of view"),
        "{side}"
    );
    assert!(best_score(&side).starts_with('-'), "{side}");
    let white = ok(&["--fen", fen, "--depth", "2", "--white-pov"]);
    assert!(
        field(&white, "Scores:").contains("White's point of view"),
        "{white}"
    );
    assert!(best_score(&white).starts_with('+'), "{white}");
    assert_eq!(
        best_score(&white).trim_start_matches('+'),
        best_score(&side).trim_start_matches('-')
    );
}

#[test]
fn moves_may_be_san_uci_or_mixed_with_move_numbers() {
    let uci = ok(&["--moves", "e2e4 e7e5 g1f3 b8c6 f1b5", "--depth", "1"]);
    let fen = field(&uci, "FEN:").to_string();
    for moves in [
        "e4 e5 Nf3 Nc6 Bb5",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5",
        "e4 e7e5 Ng1f3 Nc6 Bb5+",
    ] {
        let san = ok(&["--moves", moves, "--depth", "1"]);
        assert_eq!(field(&san, "FEN:"), fen, "{moves}");
    }
    // Castling and promotion.
    let castled = ok(&["--moves", "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O", "--depth", "1"]);
    assert!(field(&castled, "FEN:").contains("RNBQ1RK1 b kq"), "{castled}");
    let promoted = ok(&[
        "--fen",
        "8/4P3/8/8/8/8/8/k6K w - - 0 1",
        "--moves",
        "e8=N",
        "--depth",
        "1",
    ]);
    assert!(field(&promoted, "FEN:").starts_with("4N3/"), "{promoted}");
}

#[test]
fn a_bad_move_is_named_with_some_legal_moves() {
    let err = refused(&["--moves", "e4 e4"]);
    assert!(err.contains("move 2") && err.contains("'e4'"), "{err}");
    assert!(
        err.contains("Black to move") && err.contains("Nf6") && err.contains("(20 in all)"),
        "{err}"
    );
    let err = refused(&["--moves", "e4 hello"]);
    assert!(err.contains("'hello'") && err.contains("legal moves"), "{err}");
    // Two knights reach d2: the error lists both instead of picking one.
    let err = refused(&["--moves", "d4 d5 Nf3 Nf6 Nd2"]);
    assert!(
        err.contains("ambiguous") && err.contains("Nbd2") && err.contains("Nfd2"),
        "{err}"
    );
}

#[test]
fn a_finished_game_names_the_winner_and_the_rule() {
    let mate = ok(&["--moves", "f3 e5 g4 Qh4#"]);
    assert!(mate.contains("Game over: Black wins (checkmate)."), "{mate}");
    let stalemate = ok(&["--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]);
    assert!(stalemate.contains("Game over: draw (stalemate)."), "{stalemate}");
    let hill = ok(&[
        "-v",
        "kingofthehill",
        "--fen",
        "rnbq1bnr/pppppppp/8/4k3/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
    ]);
    assert!(
        hill.contains("Game over: Black wins (king on the hill)."),
        "{hill}"
    );
    let exploded = ok(&["-v", "atomic", "--moves", "Nf3 a6 Ne5 a5 Nxf7"]);
    assert!(
        exploded.contains("Game over: White wins (king exploded)."),
        "{exploded}"
    );
    for out in [mate, stalemate, hill, exploded] {
        assert!(!out.contains("Best move"), "{out}");
    }
}

#[test]
fn a_draw_by_rule_is_said_before_the_search() {
    let stdout = ok(&["--fen", "8/8/4k3/8/8/3NK3/8/8 w - - 0 1", "--depth", "2"]);
    assert!(
        stdout.contains("drawn by rule (insufficient material)"),
        "{stdout}"
    );
    assert_eq!(best_score(&stdout), "+0.00");
}

#[test]
fn a_draw_by_rule_without_a_depth_is_searched_one_ply_only() {
    // Bare kings in atomic: every line scores 0, so no 127 identical iterations.
    let stdout = ok(&["-v", "atomic", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"]);
    assert!(stdout.contains("Limit:   depth 1 or 3000 ms"), "{stdout}");
    assert!(field(&stdout, "Best move:").contains("depth 1,"), "{stdout}");
    assert!(!stdout.contains("\n  2/"), "{stdout}");
}

#[test]
fn a_forced_move_is_still_analysed_to_the_limit() {
    // One legal move (Kb1); under a time limit the search still goes deeper than one ply.
    let out = ok(&["--fen", "7k/8/8/8/8/8/6r1/K7 w - - 0 1", "--movetime", "300"]);
    let depths: Vec<u32> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|d| d.split('/').next())
        .filter_map(|d| d.parse().ok())
        .collect();
    assert!(depths.iter().any(|&d| d >= 3), "{out}");
}

#[test]
fn svg_shows_the_pieces_the_best_move_and_minesweeper_probabilities() {
    let dir = std::env::temp_dir();
    let chess = dir.join(format!("sapper-analyze-{}-chess.svg", std::process::id()));
    let out = ok(&["--depth", "3", "--svg", chess.to_str().expect("path")]);
    assert!(out.contains("Diagram written to"), "{out}");
    let svg = std::fs::read_to_string(&chess).expect("svg written");
    std::fs::remove_file(&chess).ok();
    assert!(
        svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert_eq!(svg.matches("class=\"piece\"").count(), 32, "{svg}");
    assert_eq!(svg.matches("class=\"best\"").count(), 1, "{svg}");
    assert!(!svg.contains("mine-p"), "{svg}");
    assert!(svg.contains(">White to move; arrow: best move "), "{svg}");
    // The squares' texts come after the arrow, so it never hides them.
    assert!(
        svg.find("class=\"best\"") < svg.find("class=\"caption\""),
        "{svg}"
    );
    // Minesweeper's start: every one of the 32 fog squares gets a heat cell, 4 mines
    // in 32 squares, 12.5% each (printed rounded to a whole percent).
    let ms = dir.join(format!("sapper-analyze-{}-ms.svg", std::process::id()));
    ok(&[
        "-v",
        "minesweeper",
        "--depth",
        "2",
        "--svg",
        ms.to_str().expect("path"),
    ]);
    let svg = std::fs::read_to_string(&ms).expect("svg written");
    std::fs::remove_file(&ms).ok();
    assert_eq!(svg.matches("class=\"mine-p\"").count(), 32, "{svg}");
    assert_eq!(svg.matches(">12%<").count(), 32, "{svg}");
    let arrow = svg.find("class=\"best\"").expect("an arrow");
    assert!(svg.find(">12%<").is_some_and(|label| label > arrow), "{svg}");
    assert!(
        svg.contains(">Red: the chance of a mine under the fog.<"),
        "{svg}"
    );
    assert_eq!(svg.matches("class=\"piece\"").count(), 32, "{svg}");
}

#[test]
fn a_full_information_minesweeper_fen_is_analysed_in_its_public_form() {
    // The hidden mines of a full-information FEN stay hidden from the search: the
    // position analysed (and shown) is the public one.
    let full =
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/?M????M?/M??????M/???????? 4";
    let out = ok(&["-v", "minesweeper", "--fen", full, "--depth", "3"]);
    let fen = field(&out, "FEN:");
    assert!(!fen.contains('M'), "{out}");
    assert!(fen.ends_with("????????/????????/????????/???????? 4"), "{out}");
}

#[test]
fn threat_is_the_best_move_of_the_side_not_to_move() {
    // After 3. Qh5 Black is to move; White threatens Qxf7#.
    let out = ok(&["--moves", "e4 e5 Bc4 Nc6 Qh5", "--threat", "--depth", "4"]);
    assert!(
        field(&out, "Threat:").starts_with("Black passes the move"),
        "{out}"
    );
    // The passed position: White to move, Black's move number kept.
    assert!(field(&out, "FEN:").contains(" w "), "{out}");
    let threat = field(&out, "threat ");
    assert!(threat.starts_with("Qxf7# (h5f7), score #1,"), "{out}");
    assert!(!out.contains("Best move:"), "{out}");
    // After 1. f3 e5 2. g4 Nc6 White is to move; Black threatens Qh4#: mate in 1 for
    // Black, the side that would move, and White mated in 1 from White's view.
    let out = ok(&["--moves", "f3 e5 g4 Nc6", "--threat", "--depth", "4"]);
    assert!(
        field(&out, "Threat:").starts_with("White passes the move"),
        "{out}"
    );
    assert!(
        field(&out, "threat ").starts_with("Qh4# (d8h4), score #1,"),
        "{out}"
    );
    let out = ok(&[
        "--moves",
        "f3 e5 g4 Nc6",
        "--threat",
        "--depth",
        "4",
        "--white-pov",
    ]);
    assert!(
        field(&out, "threat ").starts_with("Qh4# (d8h4), score #-1,"),
        "{out}"
    );
}

#[test]
fn threat_is_refused_in_check() {
    let err = refused(&["--moves", "e4 f5 Qh5+", "--threat", "--depth", "2"]);
    assert!(err.contains("--threat: Black is in check"), "{err}");
}
