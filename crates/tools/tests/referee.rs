//! `sapper referee` and `sapper replay` through the real binary: two short games of
//! the engine against itself at a fixed node count, then the records are replayed.

use sapper_rules::moves::MoveKind;
use sapper_rules::position::Position;
use sapper_rules::types::Color;
use sapper_rules::variant::minesweeper::Minesweeper;
use sapper_tools::referee::record::{load, replay, GameRecord, GameResult, Termination};
use std::path::PathBuf;
use std::process::Command;

const SAPPER: &str = env!("CARGO_BIN_EXE_sapper");

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("sapper-referee-{}-{name}", std::process::id()))
}

/// Pieces each engine (0 = engine 1) lost to mines in `records`, recounted by
/// replaying them: a move other than a sapper action after which the counter
/// dropped and the landing square is empty (docs/rules.md minesweeper 10).
fn recount_mine_losses(records: &[GameRecord]) -> [u64; 2] {
    let mut lost = [0; 2];
    for r in records {
        let mut before: Option<Position<Minesweeper>> = None;
        replay(r, |g| {
            if let (Some(b), Some(&m)) = (&before, g.moves.last()) {
                let white_moved = b.side_to_move() == Color::White;
                let engine = usize::from(white_moved != (r.white_engine == 1));
                if m.kind() != MoveKind::Sapper
                    && g.position.state().counter() < b.state().counter()
                    && g.position.piece_at(m.to()).is_none()
                {
                    lost[engine] += 1;
                }
            }
            before = Some(g.position);
        })
        .unwrap_or_else(|e| panic!("game {}: {e}", r.game));
    }
    lost
}

#[test]
fn two_games_play_out_and_replay() {
    let out = temp_path("games.jsonl");
    let json = temp_path("summary.json");
    let run = Command::new(SAPPER)
        .args([
            "referee",
            "--games",
            "2",
            "--nodes",
            "300",
            "--max-plies",
            "120",
            "--seed",
            "7",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("the referee runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("Score of sapper (1) vs sapper (2):"), "{stdout}");
    assert!(stdout.contains("Pentanomial"), "{stdout}");
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{stderr}"
    );

    let records = load(&out).expect("the records load");
    assert_eq!(records.len(), 2);
    let mut games: Vec<u32> = records.iter().map(|r| r.game).collect();
    games.sort_unstable();
    assert_eq!(games, [1, 2]);
    let mut engine1_points = 0.0;
    for r in &records {
        // Both games of the pair share the layout, with colours swapped.
        assert_eq!(r.pair, 1);
        assert_eq!(r.layout, records[0].layout);
        assert_eq!(r.white_engine, if r.game == 1 { 1 } else { 2 });
        assert_eq!(r.layout.len(), 4);
        assert!(
            !r.termination.is_forfeit(),
            "game {}: {} ({:?})",
            r.game,
            r.termination,
            r.detail
        );
        assert!(r.moves.len() <= 120);
        assert_eq!(r.times_ms.len(), r.moves.len());
        // Replaying checks every move's legality and the result.
        let game = replay(r, |_| {}).unwrap_or_else(|e| panic!("game {}: {e}", r.game));
        assert_eq!(game.moves.len(), r.moves.len());
        if r.termination == Termination::Checkmate {
            assert_ne!(r.result, GameResult::Draw);
        } else {
            assert_eq!(r.result, GameResult::Draw);
        }
        let engine1 = if r.white_engine == 1 {
            Color::White
        } else {
            Color::Black
        };
        engine1_points += r.result.score_for(engine1);
    }

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("the summary is JSON");
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["pairs"], 1);
    assert_eq!(summary["illegal"], 0);
    assert_eq!(summary["crashes"], 0);
    assert_eq!(summary["time_losses"], 0);
    let wins = summary["wins"].as_f64().unwrap();
    let draws = summary["draws"].as_f64().unwrap();
    assert_eq!(wins + draws / 2.0, engine1_points);
    let lost = recount_mine_losses(&records);
    assert_eq!(
        summary["mine_losses"]["sapper (1)"].as_u64(),
        Some(lost[0]),
        "{summary}"
    );
    assert_eq!(
        summary["mine_losses"]["sapper (2)"].as_u64(),
        Some(lost[1]),
        "{summary}"
    );

    let replayed = Command::new(SAPPER)
        .args(["replay", "--game", "2", "--file"])
        .arg(&out)
        .output()
        .expect("replay runs");
    let text = String::from_utf8_lossy(&replayed.stdout);
    assert!(
        replayed.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&replayed.stderr)
    );
    assert!(text.contains("Game 2 (pair 1)"), "{text}");
    assert!(text.contains("Fen: "), "{text}");
    assert!(text.contains("record consistent"), "{text}");

    // A tampered record is refused with a clear message.
    let mut bad = records[0].clone();
    bad.result = match bad.result {
        GameResult::Draw => GameResult::WhiteWins,
        _ => GameResult::Draw,
    };
    let bad_path = temp_path("bad.jsonl");
    std::fs::write(&bad_path, serde_json::to_string(&bad).unwrap() + "\n").unwrap();
    let refused = Command::new(SAPPER)
        .args(["replay", "--file"])
        .arg(&bad_path)
        .output()
        .expect("replay runs");
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("recorded result"), "{err}");

    for p in [out, json, bad_path] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn an_oracle_that_knows_the_mines_never_loses_a_piece_to_one() {
    // Engine 1 is told the layout and uses it; engine 2 treats the fog as safe.
    let out = temp_path("oracle.jsonl");
    let json = temp_path("oracle.json");
    let run = Command::new(SAPPER)
        .args([
            "referee",
            "--games",
            "4",
            "--nodes",
            "400",
            "--max-plies",
            "80",
            "--seed",
            "11",
            "--reveal1",
            "--option1",
            "Mine Knowledge=full",
            "--option2",
            "Mine Knowledge=ignore",
            "--name1",
            "oracle",
            "--name2",
            "blind",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("the referee runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let records = load(&out).expect("the records load");
    assert_eq!(records.len(), 4);
    for r in &records {
        // The oracle accepted the full-information position and its moves.
        assert!(!r.termination.is_forfeit(), "game {}: {:?}", r.game, r.detail);
    }
    let lost = recount_mine_losses(&records);
    assert_eq!(lost[0], 0, "the oracle stepped on a mine it was told of");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("the summary is JSON");
    assert_eq!(summary["mine_losses"]["oracle"].as_u64(), Some(0));
    assert_eq!(summary["mine_losses"]["blind"].as_u64(), Some(lost[1]));
    assert!(stdout.contains("Pieces destroyed by mines: "), "{stdout}");
    for p in [out, json] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn an_engine_that_cannot_start_aborts_the_match() {
    let run = Command::new(SAPPER)
        .args([
            "referee",
            "--games",
            "2",
            "--nodes",
            "100",
            "--engine2",
            "/nonexistent/engine",
        ])
        .output()
        .expect("the referee runs");
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("cannot start engine"), "{err}");
}

#[test]
fn a_broken_engine_forfeits() {
    // An engine that speaks UCI but plays nonsense, as a shell script.
    let script = temp_path("bad-engine.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
         uci) echo 'option name UCI_Variant type combo default chess var chess var minesweeper'; echo uciok;;\n\
         isready) echo readyok;;\n\
         go*) echo 'bestmove a1a8';;\n\
         quit) exit 0;;\n\
         esac; done\n",
    )
    .unwrap();
    let run = Command::new(SAPPER)
        .args([
            "referee",
            "--games",
            "2",
            "--nodes",
            "100",
            "--concurrency",
            "1",
            "--engine2",
        ])
        .arg(format!("sh {}", script.display()))
        .output()
        .expect("the referee runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}\n{stderr}");
    // Engine 1 wins both games: the script's move is illegal on its first turn.
    assert!(stdout.contains(": 2 - 0 - 0 (W-D-L)"), "{stdout}");
    assert!(stdout.contains("illegal moves 2"), "{stdout}");
    let _ = std::fs::remove_file(script);
}
