//! The `sapper` command line: clap's derive structs, one per command, and nothing
//! that runs. Each command's body is `commands::<name>::run` (the referee and replay
//! bodies are the library's [`sapper_tools::referee::run`] and
//! [`sapper_tools::referee::run_replay`]).
//!
//! Doc comments here are the `--help` texts, so they read as help, not as
//! documentation of the Rust items. The `--variant` arguments are the exception:
//! their text is built at run time from [`VariantKind::ALL`] by [`variant_help`], so
//! that a new variant appears in every list without editing them.

// The help texts say `nets/<variant>-<hash>.nnue` and `[1], [2]` as a terminal
// shows them; escaping them for rustdoc would show the escapes in `--help`.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]

use clap::{Parser, Subcommand};
use sapper_engine::bench;
use sapper_engine::eval::nnue;
use sapper_rules::variant::VariantKind;
use sapper_rules::with_variant;
use std::path::PathBuf;

/// The parsed command line.
#[derive(Parser)]
#[command(
    name = "sapper",
    version,
    about = "A UCI engine for chess, atomic, king of the hill, minesweeper chess and three-check.\nWithout a command it speaks UCI on stdin/stdout."
)]
pub struct Cli {
    /// The command; `None` (no arguments) speaks UCI, as GUIs start engines.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands. The doc comment of each variant is its line in `sapper --help` and
/// the first line of `sapper <command> --help`.
#[derive(Subcommand)]
pub enum Command {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Play against Sapper in the terminal.
    Play(PlayArgs),
    /// Analyse a position and print each iteration with the line in SAN.
    Analyze(AnalyzeArgs),
    /// Review a PGN game move by move: evaluations, best moves, inaccuracies,
    /// mistakes, blunders and accuracy (lichess's formulas); writes an annotated PGN.
    Review(ReviewArgs),
    /// Count leaf nodes of the legal move tree (move generator test).
    Perft(PerftArgs),
    /// Search the fixed bench positions; prints the node-count signature.
    Bench(BenchArgs),
    /// Self-play games for tuning and network training (docs/datagen-format.md).
    Datagen(DatagenArgs),
    /// Train an NNUE network on datagen files; writes nets/<variant>-<hash>.nnue.
    Train(TrainArgs),
    /// Fit the evaluation's weights to datagen files (Texel's method); writes nets/<variant>-<hash>.eval.
    Tune(TuneArgs),
    /// Play a match between UCI engines (see `sapper referee --help`).
    Referee(sapper_tools::referee::RefereeArgs),
    /// Replay recorded games (see `sapper replay --help`).
    Replay(sapper_tools::referee::ReplayArgs),
    /// Match statistics as one JSON object (the implementation the referee and the
    /// Python match runners share): Elo and error bars, SPRT log-likelihood ratio.
    Stats(StatsArgs),
}

/// The help text of a `--variant` argument that takes any variant:
/// `Variant: chess, atomic, ...`, in [`VariantKind::ALL`]'s order.
pub fn variant_help() -> String {
    variant_help_for(VariantKind::ALL)
}

/// The help text of `train --variant`: the variants whose board fits the network
/// (`train` refuses the others, so listing them would only invite the error).
pub fn network_variant_help() -> String {
    variant_help_for(
        VariantKind::ALL
            .into_iter()
            .filter(|&kind| with_variant!(kind, V => nnue::supports::<V>())),
    )
}

/// `Variant: ` and the `UCI_Variant` names of `kinds`, the names the parser accepts.
fn variant_help_for(kinds: impl IntoIterator<Item = VariantKind>) -> String {
    let names: Vec<&str> = kinds.into_iter().map(VariantKind::name).collect();
    format!("Variant: {}", names.join(", "))
}

/// `sapper play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// The variant (the help text is [`variant_help`]'s, which overrides this line).
    #[arg(long, short, default_value = "chess", help = variant_help())]
    pub variant: VariantKind,
    /// Sapper's level, 0 (weakest) to 20 (full strength).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=20))]
    pub level: u8,
    /// Your colour: white or black.
    #[arg(long, default_value = "white", value_parser = ["white", "black"])]
    pub color: String,
    /// Sapper's thinking time per move, milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Seed of the mine layout and of the weaker levels' choices (default: from
    /// the clock, so each game gets a new layout; told when the game ends).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start from this FEN (minesweeper: full-information form).
    #[arg(long)]
    pub fen: Option<String>,
    /// Write the game's PGN to this file when it ends (or on `quit`).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
}

/// `sapper analyze`.
#[derive(clap::Args)]
pub struct AnalyzeArgs {
    /// The variant (the help text is [`variant_help`]'s, which overrides this line).
    #[arg(long, short, default_value = "chess", help = variant_help())]
    pub variant: VariantKind,
    /// Start from this FEN instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, separated by spaces, in SAN ("e4 e5 Nf3") or UCI
    /// ("e2e4 e7e5 g1f3"); move numbers ("1. e4 e5 2. Nf3") are skipped.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Search depth in plies.
    #[arg(long, short)]
    pub depth: Option<i32>,
    /// Think for this many milliseconds (default 3000 unless --depth or --nodes is
    /// given).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Stop after this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Number of principal variations (labelled [1], [2], ...).
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Playing level 0-20 (below 20: a smaller node budget and a weighted choice
    /// among the best lines, as the game site's opponent plays).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u8).range(0..=20))]
    pub level: u8,
    /// Print scores from White's point of view (default: the side to move's).
    #[arg(long)]
    pub white_pov: bool,
    /// Also write the position as an SVG diagram with the best move as an arrow
    /// (minesweeper: the fog's mine probabilities as a heat map).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Show the threat: the best move of the side not to move, found by searching the
    /// position with the move passed (a null move); printed last as
    /// `threat <move> (<uci>), score ...`. Refused when the side to move is in check.
    #[arg(long)]
    pub threat: bool,
}

/// `sapper review`.
#[derive(clap::Args)]
pub struct ReviewArgs {
    /// The PGN file; its first game is reviewed (its Variant tag picks the variant,
    /// its FEN tag the start position; comments and variations are skipped).
    pub pgn: PathBuf,
    /// Search each position to this depth in plies, 1-127 (default 12 unless --nodes
    /// is given).
    #[arg(long, short, conflicts_with = "nodes", value_parser = clap::value_parser!(i32).range(1..128))]
    pub depth: Option<i32>,
    /// Search each position for this many nodes instead of a depth (a position that
    /// does not finish depth 1 within them is searched to depth 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Write the game annotated: [%eval] comments, ?! ? ?? as $6 $2 $4, the better
    /// line as a variation.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write the evaluation graph as SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// The variant, overriding the PGN's Variant tag (the help text is
    /// [`variant_help`]'s and a note, which override this line).
    #[arg(long, short, help = format!("{}; overrides the PGN's Variant tag", variant_help()))]
    pub variant: Option<VariantKind>,
    /// Transposition table size in MiB (one table for the whole game).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
}

/// `sapper perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// The variant (the help text is [`variant_help`]'s, which overrides this line).
    #[arg(long, short, default_value = "chess", help = variant_help())]
    pub variant: VariantKind,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Count root moves on all cores.
    #[arg(long)]
    pub parallel: bool,
}

/// `sapper bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Depth in plies.
    #[arg(default_value_t = bench::DEFAULT_DEPTH)]
    pub depth: i32,
}

/// `sapper datagen`.
#[derive(clap::Args)]
pub struct DatagenArgs {
    /// The variant (the help text is [`variant_help`]'s, which overrides this line).
    #[arg(long, short, default_value = "chess", help = variant_help())]
    pub variant: VariantKind,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Base seed (game g uses seed + g * 0x9e3779b97f4a7c15).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Random opening plies, MIN-MAX.
    #[arg(long, default_value = "6-10")]
    pub random_plies: String,
    /// Games still running after this many plies are drawn.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Transposition table per worker, MiB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// Play mates out instead of ending the game when the search announces one.
    #[arg(long)]
    pub no_mate_adjudication: bool,
    /// Evaluation for the engine: a `.eval` parameter file or a `.nnue` network (default: the embedded ones).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// Start positions, one FEN or EPD per line; each game draws one before its random plies (default: the variant's start position).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Output file.
    #[arg(long, short)]
    pub out: PathBuf,
}

/// `sapper train`.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// The variant (the help text is [`network_variant_help`]'s, which overrides this line).
    #[arg(long, short, default_value = "chess", help = network_variant_help())]
    pub variant: VariantKind,
    /// Data files (repeatable).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Directory for the network file.
    #[arg(long, default_value = "nets")]
    pub out_dir: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam step size (divided by 10 for the last quarter of the epochs).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Weight of the game result in the target; the rest is the search score.
    #[arg(long, default_value_t = 0.3)]
    pub lambda: f32,
    /// Sigmoid scale, centipawns.
    #[arg(long, default_value_t = 160.0)]
    pub k: f32,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub val_fraction: f64,
    /// Skip positions whose |score| is above this.
    #[arg(long, default_value_t = 3000)]
    pub max_score: i32,
    /// Seed of the split, the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Do not add left-right mirrored copies of positions without castling rights.
    #[arg(long)]
    pub no_mirror: bool,
    /// Network file to start from (fine-tuning; default: random weights).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Train a residual network: it learns the score less the embedded hand-written evaluation, which the engine adds back.
    #[arg(long)]
    pub residual: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `sapper tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// The variant (the help text is [`variant_help`]'s, which overrides this line).
    #[arg(long, short, default_value = "chess", help = variant_help())]
    pub variant: VariantKind,
    /// Data files (repeatable).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Starting parameters (default: the embedded ones).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Directory for the new parameter file.
    #[arg(long, default_value = "nets")]
    pub out_dir: PathBuf,
    /// Weight of the game result in the target; the rest is the search score.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Adam step size, centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub val_fraction: f64,
    /// Skip positions whose |score| is above this.
    #[arg(long, default_value_t = 2000)]
    pub max_score: i32,
    /// Seed of the train/validation split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Blocks to keep as they are, comma-separated.
    #[arg(long, default_value = "")]
    pub freeze: String,
    /// L2 pull toward the starting weights.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Use this K instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `sapper stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// Wins, draws and losses of the engine of interest: W,D,L.
    #[arg(long, value_name = "W,D,L", value_delimiter = ',')]
    pub wdl: Option<Vec<u32>>,
    /// Pentanomial counts of game pairs by the engine's points (0, 1/2, 1, 3/2, 2).
    #[arg(long, value_name = "LL,LD,DD,DW,WW", value_delimiter = ',')]
    pub pentanomial: Option<Vec<u32>>,
    /// A mean score in [0, 1] to convert to Elo.
    #[arg(long)]
    pub score: Option<f64>,
    /// SPRT over the pentanomial counts: H0 elo = ELO0, H1 elo = ELO1.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// The unit of the SPRT's bounds.
    #[arg(long, default_value = "normalized", value_parser = ["normalized", "logistic"])]
    pub elo_model: String,
    /// SPRT type I error (false H1).
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT type II error (false H0).
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        // clap checks conflicting names, bad defaults and the like only when asked.
        Cli::command().debug_assert();
    }

    #[test]
    fn every_variant_is_in_the_help_and_parses_from_it() {
        let help = variant_help();
        let list = help.strip_prefix("Variant: ").expect("the prefix");
        let named: Vec<VariantKind> = list.split(", ").map(|n| n.parse().unwrap()).collect();
        assert_eq!(named, VariantKind::ALL);
    }

    #[test]
    fn train_lists_only_the_variants_on_an_8x8_board() {
        let help = network_variant_help();
        assert!(help.contains("3check"));
        assert!(!help.contains("minesweeper"));
    }
}
