//! The `sapper` binary: UCI on stdin/stdout when started without arguments, plus
//! command-line tools (analyze, perft, bench, play; with the feature `tools`, which
//! this binary needs: datagen, tune, train, referee, replay, stats).

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
use std::io::{IsTerminal, Write};
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
        /// Seed of the mine layout and of the weaker levels' choices (default: from
        /// the clock, so each game gets a new layout; told when the game ends).
        #[arg(long)]
        seed: Option<u64>,
        /// Start from this FEN (minesweeper: full-information form).
        #[arg(long)]
        fen: Option<String>,
        /// Write the game's PGN to this file when it ends (or on `quit`).
        #[arg(long)]
        pgn: Option<std::path::PathBuf>,
    },
    /// Analyse a position and print each iteration with the line in SAN.
    Analyze {
        /// Variant: chess, atomic, kingofthehill, minesweeper.
        #[arg(long, short, default_value = "chess")]
        variant: VariantKind,
        /// Start from this FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, separated by spaces, in SAN ("e4 e5 Nf3") or UCI
        /// ("e2e4 e7e5 g1f3"); move numbers ("1. e4 e5 2. Nf3") are skipped.
        #[arg(long, default_value = "")]
        moves: String,
        /// Search depth in plies.
        #[arg(long, short)]
        depth: Option<i32>,
        /// Think for this many milliseconds (default 3000 unless --depth or --nodes is
        /// given).
        #[arg(long)]
        movetime: Option<u64>,
        /// Stop after this many nodes.
        #[arg(long)]
        nodes: Option<u64>,
        /// Number of principal variations (labelled [1], [2], ...).
        #[arg(long, default_value_t = 1)]
        multipv: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Playing level 0-20 (below 20: a smaller node budget and a weighted choice
        /// among the best lines, as the game site's opponent plays).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u8).range(0..=20))]
        level: u8,
        /// Print scores from White's point of view (default: the side to move's).
        #[arg(long)]
        white_pov: bool,
        /// Also write the position as an SVG diagram with the best move as an arrow
        /// (minesweeper: the fog's mine probabilities as a heat map).
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
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
    /// Self-play games for tuning and network training (docs/datagen-format.md).
    Datagen {
        /// Variant: chess, atomic, kingofthehill, minesweeper.
        #[arg(long, short, default_value = "chess")]
        variant: VariantKind,
        /// Number of games.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Nodes per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Base seed (game g uses seed + g * 0x9e3779b97f4a7c15).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Random opening plies, MIN-MAX.
        #[arg(long, default_value = "6-10")]
        random_plies: String,
        /// Games still running after this many plies are drawn.
        #[arg(long, default_value_t = 400)]
        max_plies: u32,
        /// Transposition table per worker, MiB.
        #[arg(long, default_value_t = 8)]
        hash: usize,
        /// Play mates out instead of ending the game when the search announces one.
        #[arg(long)]
        no_mate_adjudication: bool,
        /// Evaluation for the engine: a `.eval` parameter file or a `.nnue` network (default: the embedded ones).
        #[arg(long)]
        eval_file: Option<std::path::PathBuf>,
        /// Output file.
        #[arg(long, short)]
        out: std::path::PathBuf,
    },
    /// Train an NNUE network on datagen files; writes nets/<variant>-<hash>.nnue.
    Train {
        /// Variant: chess, atomic, kingofthehill.
        #[arg(long, short, default_value = "chess")]
        variant: VariantKind,
        /// Data files (repeatable).
        #[arg(long, required = true)]
        data: Vec<std::path::PathBuf>,
        /// Directory for the network file.
        #[arg(long, default_value = "nets")]
        out_dir: std::path::PathBuf,
        /// Passes over the training positions.
        #[arg(long, default_value_t = 30)]
        epochs: usize,
        /// Positions per Adam step.
        #[arg(long, default_value_t = 4096)]
        batch: usize,
        /// Adam step size (divided by 10 for the last quarter of the epochs).
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// Weight of the game result in the target; the rest is the search score.
        #[arg(long, default_value_t = 0.3)]
        lambda: f32,
        /// Sigmoid scale, centipawns.
        #[arg(long, default_value_t = 160.0)]
        k: f32,
        /// Fraction of games held out for validation.
        #[arg(long, default_value_t = 0.1)]
        val_fraction: f64,
        /// Skip positions whose |score| is above this.
        #[arg(long, default_value_t = 3000)]
        max_score: i32,
        /// Seed of the split, the initial weights and the shuffles.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Do not add left-right mirrored copies of positions without castling rights.
        #[arg(long)]
        no_mirror: bool,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Fit the evaluation's weights to datagen files (Texel's method); writes nets/<variant>-<hash>.eval.
    Tune {
        /// Variant: chess, atomic, kingofthehill, minesweeper.
        #[arg(long, short, default_value = "chess")]
        variant: VariantKind,
        /// Data files (repeatable).
        #[arg(long, required = true)]
        data: Vec<std::path::PathBuf>,
        /// Starting parameters (default: the embedded ones).
        #[arg(long)]
        init: Option<std::path::PathBuf>,
        /// Directory for the new parameter file.
        #[arg(long, default_value = "nets")]
        out_dir: std::path::PathBuf,
        /// Weight of the game result in the target; the rest is the search score.
        #[arg(long, default_value_t = 0.5)]
        lambda: f64,
        /// Full-batch Adam steps.
        #[arg(long, default_value_t = 400)]
        epochs: usize,
        /// Adam step size, centipawns.
        #[arg(long, default_value_t = 1.0)]
        lr: f64,
        /// Fraction of games held out for validation.
        #[arg(long, default_value_t = 0.1)]
        val_fraction: f64,
        /// Skip positions whose |score| is above this.
        #[arg(long, default_value_t = 2000)]
        max_score: i32,
        /// Seed of the train/validation split.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Blocks to keep as they are, comma-separated.
        #[arg(long, default_value = "")]
        freeze: String,
        /// L2 pull toward the starting weights.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
        /// Use this K instead of fitting it.
        #[arg(long)]
        k: Option<f64>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Play a match between UCI engines (see `sapper referee --help`).
    Referee(sapper::referee::RefereeArgs),
    /// Replay recorded games (see `sapper replay --help`).
    Replay(sapper::referee::ReplayArgs),
    /// Match statistics as one JSON object (the implementation the referee and the
    /// Python match runners share): Elo and error bars, SPRT log-likelihood ratio.
    Stats {
        /// Wins, draws and losses of the engine of interest: W,D,L.
        #[arg(long, value_name = "W,D,L", value_delimiter = ',')]
        wdl: Option<Vec<u32>>,
        /// Pentanomial counts of game pairs by the engine's points (0, 1/2, 1, 3/2, 2).
        #[arg(long, value_name = "LL,LD,DD,DW,WW", value_delimiter = ',')]
        pentanomial: Option<Vec<u32>>,
        /// A mean score in [0, 1] to convert to Elo.
        #[arg(long)]
        score: Option<f64>,
        /// SPRT over the pentanomial counts: H0 elo = ELO0, H1 elo = ELO1.
        #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
        sprt: Option<String>,
        /// The unit of the SPRT's bounds.
        #[arg(long, default_value = "normalized", value_parser = ["normalized", "logistic"])]
        elo_model: String,
        /// SPRT type I error (false H1).
        #[arg(long, default_value_t = 0.05)]
        alpha: f64,
        /// SPRT type II error (false H0).
        #[arg(long, default_value_t = 0.05)]
        beta: f64,
    },
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
            level,
            white_pov,
            svg,
        }) => {
            let game = match analyze::build_game(variant, fen.as_deref(), &moves) {
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
            // Without a limit, a time limit: a fixed depth can take minutes in
            // minesweeper.
            let movetime =
                movetime.or((depth.is_none() && nodes.is_none()).then_some(analyze::DEFAULT_MOVETIME_MS));
            let mut stdout = std::io::stdout();
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
                level,
                white_pov,
                // The progress line is redrawn with '\r': for a person, not a pipe.
                progress: stdout.is_terminal(),
                svg,
            };
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
            pgn,
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
                seed: seed.unwrap_or_else(play::clock_seed),
                fen,
                pgn,
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
        Some(Command::Datagen {
            variant,
            games,
            nodes,
            seed,
            threads,
            random_plies,
            max_plies,
            hash,
            no_mate_adjudication,
            eval_file,
            out,
        }) => {
            let plies = random_plies
                .split_once('-')
                .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
                .or_else(|| random_plies.trim().parse().ok().map(|n| (n, n)));
            let Some(random_plies) = plies else {
                eprintln!("error: --random-plies wants MIN-MAX, got '{random_plies}'");
                return ExitCode::FAILURE;
            };
            let settings = sapper::datagen::DatagenSettings {
                variant,
                games,
                nodes: nodes.max(1),
                seed,
                threads: threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                random_plies,
                max_plies,
                hash_mib: hash.max(1),
                adjudicate_mates: !no_mate_adjudication,
                eval_file,
                out,
            };
            match sapper::datagen::run(&settings, &mut std::io::stderr()) {
                Ok(r) => {
                    println!(
                        "{} games, {} positions in {:.1} s: {:.0} positions/hour ({} threads, {} nodes per move); W-D-L {}-{}-{}",
                        r.games,
                        r.positions,
                        r.seconds,
                        r.positions_per_hour(),
                        settings.threads,
                        settings.nodes,
                        r.wdl[0],
                        r.wdl[1],
                        r.wdl[2]
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Tune {
            variant,
            data,
            init,
            out_dir,
            lambda,
            epochs,
            lr,
            val_fraction,
            max_score,
            seed,
            freeze,
            l2,
            k,
            threads,
        }) => {
            use_threads(threads);
            let settings = sapper::tune::TuneSettings {
                variant,
                data,
                init,
                out_dir,
                lambda: lambda.clamp(0.0, 1.0),
                epochs,
                lr,
                val_fraction: val_fraction.clamp(0.0, 1.0),
                max_score,
                seed,
                freeze: freeze
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
                l2,
                k,
            };
            match sapper::tune::run(&settings, &mut std::io::stderr()) {
                Ok(r) => {
                    println!(
                        "{}: K {:.1}, {} training / {} validation positions, loss train {:.6} -> {:.6}, validation {:.6} -> {:.6}",
                        r.file.display(),
                        r.k,
                        r.train,
                        r.val,
                        r.train_loss.0,
                        r.train_loss.1,
                        r.val_loss.0,
                        r.val_loss.1
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Train {
            variant,
            data,
            out_dir,
            epochs,
            batch,
            lr,
            lambda,
            k,
            val_fraction,
            max_score,
            seed,
            no_mirror,
            threads,
        }) => {
            use_threads(threads);
            let settings = sapper::train::TrainSettings {
                mirror: !no_mirror,
                variant,
                data,
                out_dir,
                epochs,
                batch,
                lr,
                lambda: lambda.clamp(0.0, 1.0),
                k,
                val_fraction: val_fraction.clamp(0.0, 1.0),
                max_score,
                seed,
            };
            match sapper::train::run(&settings, &mut std::io::stderr()) {
                Ok(r) => {
                    println!(
                        "{}: {} training / {} validation positions, validation loss {:.6} (quantized {:.6}; hand-written evaluation {:.6}), {:.0} s",
                        r.file.display(),
                        r.train,
                        r.val,
                        r.val_loss,
                        r.val_loss_quantized,
                        r.val_loss_linear,
                        r.seconds
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Referee(args)) => sapper::referee::run(&args),
        Some(Command::Replay(args)) => sapper::referee::run_replay(&args),
        Some(Command::Stats {
            wdl,
            pentanomial,
            score,
            sprt,
            elo_model,
            alpha,
            beta,
        }) => stats(wdl, pentanomial, score, sprt, &elo_model, alpha, beta),
    }
}

/// `sapper stats`: checks the arguments and prints [`sapper::stats::report_json`].
fn stats(
    wdl: Option<Vec<u32>>,
    pentanomial: Option<Vec<u32>>,
    score: Option<f64>,
    sprt: Option<String>,
    elo_model: &str,
    alpha: f64,
    beta: f64,
) -> ExitCode {
    use sapper::stats::{EloModel, StatsQuery};
    let fail = |message: String| {
        eprintln!("error: {message}");
        ExitCode::FAILURE
    };
    if score.is_some_and(|s| !(0.0..=1.0).contains(&s)) {
        return fail(format!(
            "--score must be in [0, 1], got {}",
            score.unwrap_or_default()
        ));
    }
    if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
        return fail(format!(
            "need 0 < alpha, beta and alpha + beta < 1, got {alpha}, {beta}"
        ));
    }
    let sprt = match sprt.as_deref().map(sapper::referee::parse_sprt).transpose() {
        Ok(bounds) => bounds,
        Err(e) => return fail(e),
    };
    let model = if elo_model == "logistic" {
        EloModel::Logistic
    } else {
        EloModel::Normalized
    };
    let wdl = match wdl.map(<[u32; 3]>::try_from).transpose() {
        Ok(wdl) => wdl,
        Err(v) => return fail(format!("--wdl wants W,D,L, got {} numbers", v.len())),
    };
    let pentanomial = match pentanomial.map(<[u32; 5]>::try_from).transpose() {
        Ok(counts) => counts,
        Err(v) => return fail(format!("--pentanomial wants five counts, got {}", v.len())),
    };
    let query = StatsQuery {
        wdl,
        pentanomial,
        score,
        sprt: sprt.map(|(elo0, elo1)| (elo0, elo1, model, alpha, beta)),
    };
    println!("{}", sapper::stats::report_json(&query));
    ExitCode::SUCCESS
}

/// Sizes rayon's global pool (`--threads`; all cores when `None`).
fn use_threads(threads: Option<usize>) {
    if let Some(n) = threads {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global();
    }
}
