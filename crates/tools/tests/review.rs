//! `sapper review` through the real binary: the table, the annotated PGN and the
//! graph written, the limits, and the refusals (a bad move, minesweeper).

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
fn an_illegal_move_is_named_and_minesweeper_is_not_reviewed_yet() {
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
    assert!(
        stderr.contains("minesweeper games is not supported yet"),
        "{stderr}"
    );
}
