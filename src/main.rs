//! The `sapper` binary: UCI on stdin/stdout when started without arguments, plus
//! command-line tools (analyze, perft, bench).

use clap::{Parser, Subcommand};
use sapper::analyze::{self, AnalyzeRequest};
use sapper::game::AnyGame;
use sapper::perft::divide;
use sapper::play::{self, PlaySettings};
use sapper::search::timeman::Limits;
use sapper::types::Color;
use sapper::uci::{Output, Uci};
use sapper::variant::VariantKind;
use sapper::{bench, with_game};
use std::io::Write;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "sapper",
    version,
    about = "A UCI engine for chess, atomic, king of the hill and minesweeper chess.\nWithout a command it speaks UCI on stdin/stdout."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Play against Sapper in the terminal.
    Play {
        /// Variant: chess, atomic, kingofthehill, minesweeper.
        #[arg(long, short, default_value = "chess")]
        variant: VariantKind,
        /// Sapper's level, 0 (weakest) to 20 (full strength).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=20))]
        level: u8,
        /// Your colour: white or black.
        #[arg(long, default_value = "white", value_parser = ["white", "black"])]
        color: String,
        /// Sapper's thinking time per move, milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        /// Seed of the mine layout and of the weaker levels' choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start from this FEN (minesweeper: full-information form).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Analyse a position and print each iteration with the line in SAN.
    Analyze {
        /// Variant: chess, atomic, kingofthehill, minesweeper.
        #[arg(long, short, default_value = "chess")]
        variant: VariantKind,
        /// Start from this FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// UCI moves to play first, separated by spaces ("e2e4 e7e5").
        #[arg(long, default_value = "")]
        moves: String,
        /// Search depth in plies (default 12 unless --movetime or --nodes is given).
        #[arg(long, short)]
        depth: Option<i32>,
        /// Think for this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        /// Stop after this many nodes.
        #[arg(long)]
        nodes: Option<u64>,
        /// Number of principal variations.
        #[arg(long, default_value_t = 1)]
        multipv: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Count leaf nodes of the legal move tree (move generator test).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Variant: chess, atomic, kingofthehill, minesweeper.
        #[arg(long, short, default_value = "chess")]
        variant: VariantKind,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Count root moves on all cores.
        #[arg(long)]
        parallel: bool,
    },
    /// Search the fixed bench positions; prints the node-count signature.
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: i32,
    },
    /// Play a match between UCI engines (see `sapper referee --help`).
    Referee(sapper::referee::RefereeArgs),
    /// Replay recorded games (see `sapper replay --help`).
    Replay(sapper::referee::ReplayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Uci) => {
            let out: Output = Arc::new(Mutex::new(std::io::stdout()));
            let mut uci = Uci::new(out);
            uci.run(std::io::stdin().lock());
            ExitCode::SUCCESS
        }
        Some(Command::Analyze {
            variant,
            fen,
            moves,
            depth,
            movetime,
            nodes,
            multipv,
            hash,
        }) => {
            let moves: Vec<&str> = moves.split_whitespace().collect();
            let game = match AnyGame::from_spec(variant, fen.as_deref(), &moves) {
                Ok((game, warnings)) => {
                    for w in warnings {
                        eprintln!("warning: {w}");
                    }
                    game
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let depth = depth.or(if movetime.is_none() && nodes.is_none() {
                Some(12)
            } else {
                None
            });
            let request = AnalyzeRequest {
                game,
                limits: Limits {
                    depth,
                    movetime,
                    nodes,
                    ..Limits::default()
                },
                multipv: multipv.max(1),
                hash_mib: hash.max(1),
            };
            let mut stdout = std::io::stdout().lock();
            match analyze::run(&request, &mut stdout) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
        Some(Command::Perft {
            depth,
            variant,
            fen,
            divide: show,
            parallel,
        }) => {
            let game = match AnyGame::from_spec(variant, fen.as_deref(), &[]) {
                Ok((game, _)) => game,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let start = Instant::now();
            let lines = with_game!(&game, g, _V => divide(&g.position, depth, parallel));
            let total: u64 = lines.iter().map(|(_, n)| n).sum();
            let mut out = std::io::stdout().lock();
            if show {
                for (m, n) in &lines {
                    let _ = writeln!(out, "{m}: {n}");
                }
                let _ = writeln!(out);
            }
            let secs = start.elapsed().as_secs_f64();
            let _ = writeln!(out, "Nodes searched: {total}");
            let _ = writeln!(
                out,
                "Time: {:.3} s ({:.1} Mnps)",
                secs,
                total as f64 / secs.max(1e-9) / 1e6
            );
            ExitCode::SUCCESS
        }
        Some(Command::Play {
            variant,
            level,
            color,
            movetime,
            seed,
            fen,
        }) => {
            let settings = PlaySettings {
                variant,
                human: if color == "black" {
                    Color::Black
                } else {
                    Color::White
                },
                level,
                movetime,
                seed,
                fen,
            };
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let mut out = std::io::stdout();
            match play::run(&settings, &mut input, &mut out) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Bench { depth }) => {
            let report = bench::run(depth.clamp(1, 30));
            for (&(variant, fen), nodes) in bench::POSITIONS.iter().zip(&report.nodes) {
                println!("{variant:<14} {nodes:>10}  {fen}");
            }
            println!("Total time (ms) : {}", report.elapsed.as_millis());
            println!("{} nodes {} nps", report.total_nodes, report.nps());
            ExitCode::SUCCESS
        }
        Some(Command::Referee(args)) => sapper::referee::run(&args),
        Some(Command::Replay(args)) => sapper::referee::run_replay(&args),
    }
}
