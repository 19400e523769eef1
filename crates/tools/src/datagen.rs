//! `sapper datagen`: self-play games for tuning and for network training.
//!
//! Each game starts from the variant's start position (minesweeper: a random mine
//! layout, full information kept by the generator, the engine searching the public
//! position) or from a position drawn from an openings file, plays a seeded random
//! opening of a few legal plies, then lets Sapper play both sides at a fixed node
//! count with [`Searcher`] directly. Quiet positions (side to move not in check, best
//! move not a capture or queen promotion) are recorded with the search score and,
//! once the game is over, its result. Games run in parallel (rayon), each from its
//! own seed and with a cleared table, so a file is reproducible from its header
//! whatever the thread count. The file format is described in
//! `docs/datagen-format.md`; [`read_file`] reads it back.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use sapper_engine::eval::nnue::load_network_file;
use sapper_engine::eval::params::EvalParams;
use sapper_engine::eval::{default_nnue_name, default_params, default_params_name, load_params_file};
use sapper_engine::search::ordering::is_noisy;
use sapper_engine::search::score::is_mate;
use sapper_engine::search::timeman::Limits;
use sapper_engine::search::tt::TranspositionTable;
use sapper_engine::search::VariantSearch;
use sapper_engine::search::{SearchContext, SearchOptions, SearchShared, Searcher, Silent};
use sapper_rules::game::Game;
use sapper_rules::position::Position;
use sapper_rules::variant::minesweeper::{random_layout, Minesweeper};
use sapper_rules::variant::{Outcome, VariantKind};
use sapper_rules::with_variant;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The first eight bytes of a data file.
pub const MAGIC: &[u8; 8] = b"SAPPERDG";
/// The format version after the magic.
pub const VERSION: u32 = 1;
/// Scores are clamped to +-this (mate scores included).
pub const SCORE_CLAMP: i32 = 10_000;
/// The per-game seed is `seed + game * SEED_STEP` (wrapping), fed to `StdRng::seed_from_u64`.
pub const SEED_STEP: u64 = 0x9E37_79B9_7F4A_7C15;

/// What `sapper datagen` does.
#[derive(Clone, Debug)]
pub struct DatagenSettings {
    /// The variant.
    pub variant: VariantKind,
    /// Number of games.
    pub games: u64,
    /// Nodes per move.
    pub nodes: u64,
    /// Base seed; game `g` uses `seed + g * SEED_STEP`.
    pub seed: u64,
    /// Worker threads (each plays its own games, one search thread per game).
    pub threads: usize,
    /// Random opening length, plies, inclusive range.
    pub random_plies: (u32, u32),
    /// Games still running after this many plies are drawn.
    pub max_plies: u32,
    /// Transposition table per worker, MiB (cleared before every game).
    pub hash_mib: usize,
    /// End a game when the search announces a mate (not in minesweeper, whose
    /// mates may hang on a mine).
    pub adjudicate_mates: bool,
    /// Parameters file for the engine (embedded ones when `None`).
    pub eval_file: Option<PathBuf>,
    /// Start positions, one FEN or EPD per line (`#` comments): each game draws one
    /// (seeded) before its random plies. `None`: the variant's start position.
    pub openings: Option<PathBuf>,
    /// Output file.
    pub out: PathBuf,
}

/// One recorded position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The variant.
    pub variant: VariantKind,
    /// The game's result, White's point of view: 1 win, 0 draw, -1 loss.
    pub result: i8,
    /// The search score, White's point of view, centipawns, clamped to +-[`SCORE_CLAMP`].
    pub score: i16,
    /// Plies played since the start position.
    pub ply: u16,
    /// The game's index in the file (0-based).
    pub game: u32,
    /// The position (minesweeper: the public FEN the engine searched).
    pub fen: String,
}

/// Summary of a finished run.
#[derive(Clone, Debug, Default)]
pub struct DatagenReport {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// White wins, draws, Black wins.
    pub wdl: [u64; 3],
    /// Wall time, seconds.
    pub seconds: f64,
}

impl DatagenReport {
    /// Positions per hour of wall time.
    pub fn positions_per_hour(&self) -> f64 {
        self.positions as f64 * 3600.0 / self.seconds.max(1e-9)
    }
}

/// Writes the file header: magic, version, length-prefixed UTF-8 text.
pub fn write_header(out: &mut impl Write, text: &str) -> io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())?;
    out.write_all(&(text.len() as u32).to_le_bytes())?;
    out.write_all(text.as_bytes())
}

/// Writes one record (little-endian; see `docs/datagen-format.md`).
pub fn write_record(out: &mut impl Write, r: &Record) -> io::Result<()> {
    let fen = r.fen.as_bytes();
    let fen_len = u8::try_from(fen.len()).map_err(|_| io::Error::other("FEN longer than 255 bytes"))?;
    let len = 11 + fen.len() as u16;
    out.write_all(&len.to_le_bytes())?;
    out.write_all(&[r.variant.code(), r.result as u8])?;
    out.write_all(&r.score.to_le_bytes())?;
    out.write_all(&r.ply.to_le_bytes())?;
    out.write_all(&r.game.to_le_bytes())?;
    out.write_all(&[fen_len])?;
    out.write_all(fen)
}

/// Reads a data file: its header text and every record.
///
/// # Errors
/// I/O errors, a wrong magic or version, or a malformed record.
pub fn read_file(path: &Path) -> io::Result<(String, Vec<Record>)> {
    let mut bytes = Vec::new();
    BufReader::new(File::open(path)?).read_to_end(&mut bytes)?;
    parse_bytes(&bytes)
}

/// Parses a whole data file held in memory.
///
/// # Errors
/// A wrong magic or version, or a malformed record.
pub fn parse_bytes(bytes: &[u8]) -> io::Result<(String, Vec<Record>)> {
    let bad = |why: &str| io::Error::new(io::ErrorKind::InvalidData, why.to_string());
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(bad("not a sapper datagen file (magic)"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(bad(&format!("unsupported version {version}")));
    }
    let hlen = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let header = bytes
        .get(16..16 + hlen)
        .ok_or_else(|| bad("truncated header"))
        .and_then(|h| String::from_utf8(h.to_vec()).map_err(|_| bad("header is not UTF-8")))?;
    let mut records = Vec::new();
    let mut at = 16 + hlen;
    while at < bytes.len() {
        let len = u16::from_le_bytes(
            bytes
                .get(at..at + 2)
                .ok_or_else(|| bad("truncated record"))?
                .try_into()
                .expect("2 bytes"),
        ) as usize;
        let body = bytes
            .get(at + 2..at + 2 + len)
            .ok_or_else(|| bad("truncated record"))?;
        if len < 11 {
            return Err(bad("record too short"));
        }
        let fen_len = body[10] as usize;
        if 11 + fen_len > len {
            return Err(bad("FEN runs past its record"));
        }
        records.push(Record {
            variant: VariantKind::from_code(body[0]).ok_or_else(|| bad("unknown variant code"))?,
            result: body[1] as i8,
            score: i16::from_le_bytes([body[2], body[3]]),
            ply: u16::from_le_bytes([body[4], body[5]]),
            game: u32::from_le_bytes([body[6], body[7], body[8], body[9]]),
            fen: String::from_utf8(body[11..11 + fen_len].to_vec()).map_err(|_| bad("FEN is not UTF-8"))?,
        });
        at += 2 + len;
    }
    Ok((header, records))
}

/// The header text of a run: every setting needed to reproduce it, `key=value` lines.
pub fn header_text(s: &DatagenSettings, params: &EvalParams, params_name: &str) -> String {
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!(
        "generator=sapper {version} datagen\n\
         variant={variant}\n\
         games={games}\n\
         nodes={nodes}\n\
         seed={seed}\n\
         game_seed=seed + game * {step:#x} (wrapping), rand 0.8 StdRng::seed_from_u64\n\
         openings={openings}\n\
         random_plies={lo}-{hi}\n\
         max_plies={max}\n\
         threads={threads}\n\
         hash_mib={hash}\n\
         adjudicate_mates={adj}\n\
         eval={params_name} (hash {phash})\n\
         record=quiet positions: not in check, best move not a capture or queen promotion\n\
         score=search score, White's view, centipawns, clamped to +-{clamp}\n\
         result=White's view: 1 win, 0 draw, -1 loss\n\
         started_unix={started}\n",
        version = env!("CARGO_PKG_VERSION"),
        variant = s.variant.name(),
        games = s.games,
        nodes = s.nodes,
        seed = s.seed,
        step = SEED_STEP,
        openings = s
            .openings
            .as_ref()
            .map_or("the variant's start position".to_string(), |p| p
                .display()
                .to_string()),
        lo = s.random_plies.0,
        hi = s.random_plies.1,
        max = s.max_plies,
        threads = s.threads,
        hash = s.hash_mib,
        adj = s.adjudicate_mates,
        phash = params.hash,
        clamp = SCORE_CLAMP,
    )
}

/// Per-worker search state.
struct Worker<V: VariantSearch> {
    searcher: Searcher<V>,
    tt: Arc<TranspositionTable>,
}

/// The FENs of an openings file: one per line, `#` comments and blank lines skipped,
/// EPD operations (after the fourth field, from the first `;` or opcode) dropped.
///
/// # Errors
/// An unreadable file, or no positions in it.
pub fn read_openings(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let fens: Vec<String> = text
        .lines()
        .map(|line| line.split(';').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            // A FEN's clocks are numbers; an EPD's fifth field onward is an opcode.
            let fields: Vec<&str> = line.split_whitespace().collect();
            let clocks = fields[4.min(fields.len())..]
                .iter()
                .take_while(|f| f.parse::<u32>().is_ok())
                .count();
            fields[..fields.len().min(4 + clocks)].join(" ")
        })
        .collect();
    if fens.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    Ok(fens)
}

/// Checks that every opening is a position of `V` with the game still running (a
/// finished one would leave the game loop nothing to play).
fn check_openings<V: VariantSearch>(fens: &[String]) -> Result<(), String> {
    if V::MINES {
        return Err("minesweeper games start from random minefields, not an openings file".into());
    }
    for (n, fen) in fens.iter().enumerate() {
        let (pos, _) = Position::<V>::from_fen(fen).map_err(|e| format!("opening {}: {e}: {fen}", n + 1))?;
        if Game::new(pos).result().is_some() {
            return Err(format!("opening {}: the game is already over: {fen}", n + 1));
        }
    }
    Ok(())
}

/// A game's start position: one of `openings` drawn by `rng` where there are any
/// (checked by [`check_openings`]), else the variant's, or (minesweeper) a random
/// minefield drawn from `rng`, in full-information form.
fn start_position<V: VariantSearch>(rng: &mut StdRng, openings: &[String]) -> Position<V> {
    if !openings.is_empty() {
        let fen = &openings[rng.gen_range(0..openings.len())];
        Position::<V>::from_fen(fen)
            .expect("openings are checked before play")
            .0
    } else if V::MINES {
        let full = Position::<Minesweeper>::start_with_layout(random_layout(rng));
        Position::<V>::from_fen(&full.to_fen())
            .expect("a full-information start position parses")
            .0
    } else {
        Position::<V>::startpos()
    }
}

/// Plays game `index`; returns its records (result filled in) and the result.
fn play_game<V: VariantSearch>(
    index: u64,
    s: &DatagenSettings,
    openings: &[String],
    params: &Arc<EvalParams>,
    worker: &mut Worker<V>,
) -> (Vec<Record>, i8) {
    let mut rng = StdRng::seed_from_u64(s.seed.wrapping_add(index.wrapping_mul(SEED_STEP)));
    worker.tt.clear();
    worker.searcher.clear();
    // A random opening that leaves the game running (retried otherwise).
    let mut game = loop {
        let mut game = Game::new(start_position::<V>(&mut rng, openings));
        let plies = rng.gen_range(s.random_plies.0..=s.random_plies.1.max(s.random_plies.0));
        for _ in 0..plies {
            if game.result().is_some() {
                break;
            }
            let moves = game.position.legal_moves();
            let m = moves[rng.gen_range(0..moves.len())];
            game.play(m);
        }
        if game.result().is_none() {
            break game;
        }
    };
    let limits = Limits {
        nodes: Some(s.nodes),
        ..Limits::default()
    };
    let options = SearchOptions::default();
    let mut records = Vec::new();
    let result: i8 = loop {
        if let Some((outcome, _)) = game.result() {
            break match outcome {
                Outcome::Decisive { winner } => winner.sign() as i8,
                Outcome::Draw => 0,
            };
        }
        if game.moves.len() as u32 >= s.max_plies {
            break 0;
        }
        let root = V::hide_private(&game.position);
        let ctx = SearchContext {
            shared: Arc::new(SearchShared::new(Arc::clone(&worker.tt))),
            params: Arc::clone(params),
        };
        let r = worker
            .searcher
            .search(&root, &game.keys, &limits, &options, &ctx, &mut Silent);
        if r.best.is_none() {
            break 0;
        }
        let stm = root.side_to_move().sign();
        if !root.in_check() && !is_noisy(&root, r.best) {
            records.push(Record {
                variant: V::KIND,
                result: 0,
                score: (r.score * stm).clamp(-SCORE_CLAMP, SCORE_CLAMP) as i16,
                ply: game.moves.len().min(u16::MAX as usize) as u16,
                game: index as u32,
                fen: root.to_fen(),
            });
        }
        if s.adjudicate_mates && !V::MINES && is_mate(r.score) {
            break (if r.score > 0 { stm } else { -stm }) as i8;
        }
        game.play(r.best);
    };
    for rec in &mut records {
        rec.result = result;
    }
    (records, result)
}

fn run_variant<V: VariantSearch>(
    s: &DatagenSettings,
    openings: &[String],
    params: &Arc<EvalParams>,
    out: &mut impl Write,
    log: &mut dyn Write,
) -> io::Result<DatagenReport> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(s.threads.max(1))
        .build()
        .map_err(io::Error::other)?;
    let start = Instant::now();
    let mut report = DatagenReport::default();
    let chunk = (s.threads.max(1) as u64 * 4).max(8);
    let mut next = 0u64;
    while next < s.games {
        let end = (next + chunk).min(s.games);
        let results: Vec<(Vec<Record>, i8)> = pool.install(|| {
            (next..end)
                .into_par_iter()
                .map_init(
                    || Worker::<V> {
                        searcher: Searcher::new(),
                        tt: Arc::new(TranspositionTable::new(s.hash_mib.max(1))),
                    },
                    |w, g| play_game::<V>(g, s, openings, params, w),
                )
                .collect()
        });
        for (records, result) in results {
            report.games += 1;
            report.wdl[(1 - result as i32) as usize] += 1;
            for r in &records {
                write_record(out, r)?;
            }
            report.positions += records.len() as u64;
        }
        out.flush()?;
        next = end;
        report.seconds = start.elapsed().as_secs_f64();
        writeln!(
            log,
            "games {}/{}  positions {}  W-D-L {}-{}-{}  {:.0} s  {:.0} positions/hour",
            report.games,
            s.games,
            report.positions,
            report.wdl[0],
            report.wdl[1],
            report.wdl[2],
            report.seconds,
            report.positions_per_hour()
        )?;
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Runs `sapper datagen`: plays the games and writes the file, logging progress to
/// `log`.
///
/// # Errors
/// A bad parameter file, a bad openings file, or I/O errors.
pub fn run(s: &DatagenSettings, log: &mut dyn Write) -> Result<DatagenReport, String> {
    let openings = match &s.openings {
        Some(path) => {
            let fens = read_openings(path)?;
            with_variant!(s.variant, V => check_openings::<V>(&fens))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            fens
        }
        None => Vec::new(),
    };
    let (params, name) = match &s.eval_file {
        Some(path) if path.extension().is_some_and(|e| e == "nnue") => {
            // A network: it evaluates, with the embedded hand-written parameters
            // behind it (minesweeper, known endgames).
            let net = load_network_file(path)?;
            if net.variant != s.variant {
                return Err(format!(
                    "{}: a network for {}, not {}",
                    path.display(),
                    net.variant,
                    s.variant
                ));
            }
            let mut p = default_params(s.variant).as_ref().clone();
            p.nnue = Some(Arc::new(net));
            (Arc::new(p), path.display().to_string())
        }
        Some(path) => {
            let mut p = load_params_file(path, s.variant)?;
            p.nnue = None;
            (Arc::new(p), path.display().to_string())
        }
        None => {
            let p = default_params(s.variant);
            let name = match (&p.nnue, default_nnue_name(s.variant)) {
                (Some(_), Some(net)) => format!("{} + {net}", default_params_name(s.variant)),
                _ => default_params_name(s.variant).to_string(),
            };
            (p, name)
        }
    };
    if let Some(dir) = s.out.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
    }
    let file = File::create(&s.out).map_err(|e| format!("{}: {e}", s.out.display()))?;
    let mut out = BufWriter::new(file);
    let header = header_text(s, &params, &name);
    write_header(&mut out, &header).map_err(|e| e.to_string())?;
    let io = |e: io::Error| e.to_string();
    let report =
        with_variant!(s.variant, V => run_variant::<V>(s, &openings, &params, &mut out, log)).map_err(io)?;
    out.flush().map_err(io)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let records = vec![
            Record {
                variant: VariantKind::Atomic,
                result: -1,
                score: -123,
                ply: 17,
                game: 3,
                fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string(),
            },
            Record {
                variant: VariantKind::Minesweeper,
                result: 1,
                score: 10_000,
                ply: 300,
                game: 70_000,
                fen: "x".repeat(200),
            },
        ];
        let mut bytes = Vec::new();
        write_header(&mut bytes, "variant=atomic\n").unwrap();
        for r in &records {
            write_record(&mut bytes, r).unwrap();
        }
        let (header, back) = parse_bytes(&bytes).unwrap();
        assert_eq!(header, "variant=atomic\n");
        assert_eq!(back, records);
        assert!(parse_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(parse_bytes(b"NOTSAPPER").is_err());
    }

    #[test]
    fn openings_files_read_fens_and_epds_and_skip_comments() {
        let dir = std::env::temp_dir().join(format!("sapper-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("o.epd");
        std::fs::write(
            &path,
            "# a comment\n\n4k3/8/8/8/8/8/8/R3K3 w Q - 3 9\n4k3/8/8/8/8/8/8/4K2R b K - bm Kd7; id \"x\";\n",
        )
        .unwrap();
        assert_eq!(
            read_openings(&path).unwrap(),
            ["4k3/8/8/8/8/8/8/R3K3 w Q - 3 9", "4k3/8/8/8/8/8/8/4K2R b K -"]
        );
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(read_openings(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Games start from the file's positions: from a rook ending, no record holds a
    /// pawn or a minor piece; a file with a bad FEN or a finished game is refused.
    #[test]
    fn games_start_from_the_openings_file() {
        let dir = std::env::temp_dir().join(format!("sapper-datagen-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let openings = dir.join("rooks.epd");
        std::fs::write(
            &openings,
            "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1\n4k3/r7/8/8/8/8/7R/4K3 b - - 0 1\n",
        )
        .unwrap();
        let s = DatagenSettings {
            variant: VariantKind::Chess,
            games: 4,
            nodes: 200,
            seed: 3,
            threads: 1,
            random_plies: (0, 2),
            max_plies: 40,
            hash_mib: 1,
            adjudicate_mates: true,
            eval_file: None,
            openings: Some(openings.clone()),
            out: dir.join("out.bin"),
        };
        run(&s, &mut io::sink()).unwrap();
        let (header, records) = read_file(&s.out).unwrap();
        assert!(header.contains(&format!("openings={}", openings.display())));
        assert!(!records.is_empty());
        for r in &records {
            let board = r.fen.split(' ').next().unwrap();
            assert!(board.chars().all(|c| "rRkK/12345678".contains(c)), "{}", r.fen);
        }
        // A side to move that is no colour; a checkmate.
        for bad in [
            "4k3/r7/8/8/8/8/7R/4K3 x - - 0 1",
            "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",
        ] {
            std::fs::write(&openings, format!("{bad}\n")).unwrap();
            assert!(run(&s, &mut io::sink()).is_err(), "{bad}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_tiny_run_is_reproducible() {
        for variant in VariantKind::ALL {
            let dir = std::env::temp_dir().join(format!(
                "sapper-datagen-{}-{}",
                std::process::id(),
                variant.name()
            ));
            let run_once = |threads: usize, name: &str| {
                let s = DatagenSettings {
                    variant,
                    games: 3,
                    nodes: 300,
                    seed: 5,
                    threads,
                    random_plies: (6, 10),
                    max_plies: 60,
                    hash_mib: 1,
                    adjudicate_mates: true,
                    eval_file: None,
                    openings: None,
                    out: dir.join(name),
                };
                let report = run(&s, &mut io::sink()).unwrap();
                let (header, records) = read_file(&s.out).unwrap();
                assert!(header.contains(&format!("variant={}", variant.name())));
                assert_eq!(report.positions as usize, records.len());
                assert!(records.iter().all(|r| r.variant == variant && r.ply >= 6));
                records
            };
            let a = run_once(1, "a.bin");
            let b = run_once(2, "b.bin");
            assert!(!a.is_empty());
            assert_eq!(a, b, "{variant}: same seeds, same games");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
