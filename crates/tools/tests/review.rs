//! `sapper review` through the real binary: the table, the annotated PGN and the
//! graph written, the limits, the refusals (a bad move, a minesweeper game without
//! its layout) and a minesweeper game's review.

use std::path::PathBuf;
use std::process::{Command, Output};

const SAPPER: &str = env!("CARGO_BIN_EXE_sapper");

/// A scratch file named for this test process and `name`.
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("sapper-review-{}-{name}", std::process::id()))
}

fn review(pgn: &str, name: &str, args: &[&str]) -> Output {
    let path = scratch(name);
    std::fs::write(&path, pgn).expect("write the PGN");
    let run = Command::new(SAPPER)
        .arg("review")
        .arg(&path)
        .args(args)
        .output()
        .expect("the sapper binary runs");
    std::fs::remove_file(&path).ok();
    run
}

const HUNG_QUEEN: &str = "[Event \"t\"]\n[Result \"1-0\"]\n\n1. d4 e5 2. dxe5 Qg5 3. Bxg5 Nc6 1-0\n";

#[test]
fn a_hung_queen_is_a_blunder_in_the_table_and_the_annotated_pgn() {
    let (out, svg) = (scratch("out.pgn"), scratch("graph.svg"));
    let run = review(
        HUNG_QUEEN,
        "queen.pgn",
        &[
            "--depth",
            "8",
            "--out",
            out.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("Limit:   depth 8 per position"), "{stdout}");
    let line = |san: &str| {
        stdout
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(san))
            .unwrap_or_else(|| panic!("no {san} line in:\n{stdout}"))
    };
    assert!(line("Qg5").contains("blunder"), "{stdout}");
    assert!(
        !line("d4").contains("blunder") && !line("d4").contains("inaccuracy"),
        "{stdout}"
    );
    assert!(stdout.contains("Black: accuracy"), "{stdout}");
    assert!(!stdout.contains('\r'), "a pipe gets no progress line");
    let pgn = std::fs::read_to_string(&out).expect("annotated PGN written");
    let graph = std::fs::read_to_string(&svg).expect("graph written");
    std::fs::remove_file(&out).ok();
    std::fs::remove_file(&svg).ok();
    assert!(pgn.contains("[Annotator \"Sapper "), "{pgn}");
    assert!(pgn.lines().all(|l| l.len() < 80), "{pgn}");
    // Lines are wrapped; the movetext is checked with its whitespace collapsed.
    let pgn = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(pgn.contains("2... Qg5 $4 { [%eval "), "{pgn}");
    assert!(pgn.contains("Blunder."), "{pgn}");
    assert!(pgn.contains("1. d4 { [%eval "), "{pgn}");
    assert!(pgn.trim_end().ends_with("1-0"), "{pgn}");
    assert_eq!(graph.matches("class=\"blunder\"").count(), 1, "{graph}");
}

#[test]
fn a_node_limit_replaces_the_depth_and_both_are_refused() {
    let run = review(HUNG_QUEEN, "nodes.pgn", &["--nodes", "2000"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}");
    assert!(stdout.contains("Limit:   2000 nodes per position"), "{stdout}");
    let run = review(HUNG_QUEEN, "both.pgn", &["--nodes", "2000", "--depth", "3"]);
    assert!(!run.status.success());
}

#[test]
fn an_illegal_move_is_named_and_minesweeper_needs_its_layout() {
    let run = review("1. e4 e5 2. Ke3 *", "bad.pgn", &["--depth", "2"]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("move 2. Ke3: illegal move"), "{stderr}");
    let run = review(
        "[Variant \"Minesweeper\"]\n\n1. e3 e8 *",
        "mines.pgn",
        &["--depth", "2"],
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("full-information form"), "{stderr}");
}

#[test]
fn a_minesweeper_game_with_its_layout_is_reviewed_by_what_was_public() {
    // Mines on e4, a6, b7 and h7: 1. e4 steps on one (a 1 in 8 gamble, no mark).
    let pgn = "[Variant \"Minesweeper\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ?M?????M/M???????/????????/????M??? 4\"]\n\n1. e4 Nc8 2. Nf3 Nf8 *";
    let run = review(pgn, "mines-full.pgn", &["--nodes", "5000"]);
    let out = succeeded(&run);
    assert!(out.contains("Variant: minesweeper"), "{out}");
    assert!(out.contains("mine 12%: hit"), "{out}");
    assert!(out.contains("Mines at the start: b7, h7, a6, e4"), "{out}");
}

/// `run`'s standard output, after asserting that it succeeded (its standard error
/// in the message otherwise).
fn succeeded(run: &Output) -> String {
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}\n{stderr}");
    stdout
}

/// The SAN moves of the table's lines, in order (the second word of each line that
/// starts with a move number).
fn table_moves(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let number = words.next()?;
            let is_number = number.ends_with('.') && number.trim_end_matches('.').parse::<u32>().is_ok();
            is_number.then(|| words.next().map(str::to_string)).flatten()
        })
        .collect()
}

/// The table line of the move `san` (the first such).
fn line_of<'a>(stdout: &'a str, san: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(san))
        .unwrap_or_else(|| panic!("no {san} line in:\n{stdout}"))
}

#[test]
fn the_annotated_pgn_reads_back_as_the_same_game() {
    // The annotated PGN (comments, NAGs, variations) is itself a game `review`
    // reads: the same moves come back, and the blunder is found again.
    let out = scratch("roundtrip.pgn");
    let first = review(
        HUNG_QUEEN,
        "roundtrip-in.pgn",
        &["--depth", "6", "--out", out.to_str().unwrap()],
    );
    let a = succeeded(&first);
    let annotated = std::fs::read_to_string(&out).expect("annotated PGN written");
    std::fs::remove_file(&out).ok();
    assert!(annotated.contains("( 2..."), "the better line:\n{annotated}");
    let b = succeeded(&review(&annotated, "roundtrip-again.pgn", &["--depth", "6"]));
    assert_eq!(table_moves(&a), ["d4", "e5", "dxe5", "Qg5", "Bxg5", "Nc6"], "{a}");
    assert_eq!(table_moves(&a), table_moves(&b), "{b}");
    assert!(line_of(&b, "Qg5").contains("blunder"), "{b}");
}

#[test]
fn a_missing_file_an_empty_one_and_a_broken_tag_are_clean_errors() {
    let missing = scratch("no-such-game.pgn");
    let run = Command::new(SAPPER)
        .arg("review")
        .arg(&missing)
        .output()
        .expect("the sapper binary runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains("no-such-game.pgn"),
        "{stderr}"
    );
    for (pgn, name, message) in [
        ("", "empty.pgn", "no game in the PGN text"),
        ("[Event \"open\n1. e4 *\n", "tag.pgn", "malformed PGN tag pair"),
        (
            "1. e4 e5 2. Qxf7 *\n",
            "illegal.pgn",
            "move 2. Qxf7: illegal move",
        ),
        (
            "[Variant \"Crazyhouse\"]\n\n1. e4 *\n",
            "variant.pgn",
            "unknown Variant tag",
        ),
    ] {
        let run = review(pgn, name, &["--depth", "2"]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains(message), "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(run.stdout.is_empty(), "{name}: no table for a game not read");
    }
    // A depth below 1 is refused by the argument parser.
    let run = review(HUNG_QUEEN, "depth0.pgn", &["--depth", "0"]);
    assert!(!run.status.success());
}

#[test]
fn a_node_limit_too_small_for_one_iteration_still_gives_real_scores() {
    // One node finishes no iteration: without a depth-1 search instead, every
    // position read 0.00 with an unsearched move, and the blunder went unmarked.
    let stdout = succeeded(&review(HUNG_QUEEN, "one-node.pgn", &["--nodes", "1"]));
    assert!(line_of(&stdout, "Qg5").contains("blunder"), "{stdout}");
}

#[test]
fn king_of_the_hill_allowing_the_hill_is_a_blunder_and_the_win_scores_as_mate() {
    // 3... a4?? lets 4. Kd4 reach the hill (3... e5 or c5 guards d4).
    let pgn = "[Variant \"King of the Hill\"]\n\n1. e4 a6 2. Ke2 a5 3. Kd3 a4 4. Kd4 1-0\n";
    let stdout = succeeded(&review(pgn, "koth.pgn", &["--depth", "4"]));
    assert!(stdout.starts_with("Variant: kingofthehill"), "{stdout}");
    let a4: Vec<&str> = line_of(&stdout, "a4").split_whitespace().collect();
    // White's view: White mates in 1 after 3... a4; the hill is the end (#0).
    assert_eq!((a4[3], a4[5]), ("#1", "blunder"), "{stdout}");
    let kd4: Vec<&str> = line_of(&stdout, "Kd4#").split_whitespace().collect();
    assert_eq!((kd4[2], kd4[3], kd4[4]), ("#1", "#0", "="), "{stdout}");
}

#[test]
fn three_check_from_a_fen_with_black_to_move_judges_black_first() {
    // Black moves first; 2... Qg5?? leaves the queen to 3. Nxg5. The evaluations
    // are White's: after the blunder White is far ahead.
    let pgn = "[Variant \"Three-check\"]\n[SetUp \"1\"]\n\
        [FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3+3 0 1\"]\n\n\
        1... e5 2. Nf3 Qg5 3. Nxg5 *\n";
    let stdout = succeeded(&review(pgn, "3check.pgn", &["--depth", "6"]));
    assert!(stdout.contains("FEN:     rnbqkbnr/"), "{stdout}");
    assert_eq!(table_moves(&stdout), ["e5", "Nf3", "Qg5", "Nxg5"], "{stdout}");
    assert!(
        stdout.lines().any(|l| l.trim_start().starts_with("1...  e5")),
        "{stdout}"
    );
    let qg5: Vec<&str> = line_of(&stdout, "Qg5").split_whitespace().collect();
    assert_eq!(qg5[0], "2...", "{stdout}");
    assert_eq!(qg5[5], "blunder", "{stdout}");
    let after: f64 = qg5[3].parse().expect("a centipawn score");
    assert!(after > 5.0, "White is far ahead after Qg5: {stdout}");
    assert!(!line_of(&stdout, "Nxg5").contains("blunder"), "{stdout}");
}

#[test]
fn a_latin1_file_is_read() {
    // ISO 8859-1 is PGN's own character set: "Müller" with the byte 0xfc.
    let path = scratch("latin1.pgn");
    std::fs::write(&path, b"[White \"M\xfcller\"]\n\n1. e4 e5 *\n").unwrap();
    let run = Command::new(SAPPER)
        .arg("review")
        .arg(&path)
        .args(["--depth", "2"])
        .output()
        .expect("the sapper binary runs");
    std::fs::remove_file(&path).ok();
    let stdout = succeeded(&run);
    assert_eq!(table_moves(&stdout), ["e4", "e5"], "{stdout}");
}
