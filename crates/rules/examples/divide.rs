//! Perft divide, Stockfish style, from the library API (until the UCI `go perft` exists).
//!
//! ```text
//! cargo run --release --example divide -- <variant> <depth> <fen...>
//! ```
//!
//! Prints one `move: count` line per legal root move (UCI notation, sorted), a blank
//! line, and `Nodes searched: N`. The FEN may be given as one argument or as several
//! (its fields); `startpos` stands for the variant's start position. Variants: chess,
//! atomic, kingofthehill. Exit status 2 on bad arguments or a bad FEN.
//!
//! `divide --stdin` reads one `<variant> <depth> <fen>` request a line and answers each
//! as above, or with one `error: ...` line; a `Nodes searched` or `error` line ends
//! each answer. This saves the start-up per position (`scripts/diff_pychess.py` uses it).

use sapper_rules::perft::{divide, perft};
use sapper_rules::position::Position;
use sapper_rules::variant::{Atomic, Chess, KingOfTheHill, Variant};
use std::process::ExitCode;

fn run<V: Variant>(depth: u32, fen: &str) -> Result<(), String> {
    let pos = if fen == "startpos" {
        Position::<V>::startpos()
    } else {
        Position::<V>::from_fen(fen)
            .map_err(|e| format!("bad FEN '{fen}': {e}"))?
            .0
    };
    if depth == 0 {
        println!("\nNodes searched: {}", perft(&pos, 0));
        return Ok(());
    }
    let mut lines: Vec<(String, u64)> = divide(&pos, depth, false)
        .into_iter()
        .map(|(m, n)| (m.to_string(), n))
        .collect();
    lines.sort();
    let total: u64 = lines.iter().map(|(_, n)| n).sum();
    for (m, n) in &lines {
        println!("{m}: {n}");
    }
    println!("\nNodes searched: {total}");
    Ok(())
}

/// Runs one request: `<variant> <depth> <fen...>`.
fn request(args: &[String]) -> Result<(), String> {
    let depth = args[1]
        .parse::<u32>()
        .map_err(|_| format!("bad depth '{}'", args[1]))?;
    let fen = args[2..].join(" ");
    match args[0].as_str() {
        "chess" => run::<Chess>(depth, &fen),
        "atomic" => run::<Atomic>(depth, &fen),
        "kingofthehill" => run::<KingOfTheHill>(depth, &fen),
        other => Err(format!(
            "unknown variant '{other}' (expected chess, atomic or kingofthehill)"
        )),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() == 1 && args[0] == "--stdin" {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            let words: Vec<String> = line.split_whitespace().map(String::from).collect();
            if words.is_empty() {
                continue;
            }
            let result = if words.len() < 3 {
                Err("expected <variant> <depth> <fen>".to_string())
            } else {
                request(&words)
            };
            if let Err(e) = result {
                println!("error: {e}");
            }
        }
        return ExitCode::SUCCESS;
    }
    if args.len() < 3 {
        eprintln!("usage: divide <chess|atomic|kingofthehill> <depth> <fen...>");
        return ExitCode::from(2);
    }
    let result = request(&args);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
