//! The engine without its protocol: the current game, the options, the
//! transposition table, and the search thread. UCI, the command line and tests drive
//! it; it never reads or writes a stream itself.

use crate::eval::nnue::Network;
use crate::eval::{default_nnue, default_nnue_name, default_params, default_params_name, params::EvalParams};
use crate::search::timeman::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::SearchContext;
use crate::search::VariantSearch;
use crate::search::{Reporter, SearchOptions, SearchResult, SearchShared, Searcher, Silent};
use crate::skill::{Skill, Variety};
use rand::SeedableRng;
use sapper_rules::game::{AnyGame, PositionError};
use sapper_rules::moves::Move;
use sapper_rules::notation::{parse_uci_move, MoveError};
use sapper_rules::variant::{Variant, VariantKind};
use sapper_rules::with_game;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Receives the search's output and, at the end, its result.
pub trait SearchListener: Reporter + Send {
    /// Called once when the search has finished.
    fn done(&mut self, result: &SearchResult);
}

/// Engine settings that UCI options set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size, MiB.
    pub hash_mib: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication lag.
    pub move_overhead: u64,
    /// Minesweeper: what the search may know of the mines.
    pub mine_knowledge: MineKnowledge,
    /// `Skill Level`, 0-20.
    pub skill_level: u8,
    /// `UCI_LimitStrength`: play at `elo` instead of `skill_level`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// `UCI_AnalyseMode`.
    pub analyse_mode: bool,
    /// `Use NNUE`: evaluate with the variant's network where it has one.
    pub use_nnue: bool,
    /// `Opening Variety`: vary full-strength play among near-equal opening moves.
    pub variety: Variety,
}

impl EngineOptions {
    /// The playing level the options ask for.
    pub fn skill(&self) -> Skill {
        if self.limit_strength {
            Skill::from_elo(self.elo)
        } else {
            Skill::new(self.skill_level)
        }
    }
}

/// What a minesweeper search may know of the mines (UCI `Mine Knowledge`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MineKnowledge {
    /// Public information only, with exact mine probabilities (the default).
    #[default]
    Public,
    /// The true layout of a full-information FEN (analysis).
    Full,
    /// Public information, but fogged squares count as safe (a baseline for
    /// measuring what the probabilities are worth).
    Ignore,
}

impl MineKnowledge {
    /// The option's values.
    pub const NAMES: [&'static str; 3] = ["public", "full", "ignore"];

    /// Parses an option value.
    pub fn from_name(s: &str) -> Option<MineKnowledge> {
        match s {
            "public" => Some(MineKnowledge::Public),
            "full" => Some(MineKnowledge::Full),
            "ignore" => Some(MineKnowledge::Ignore),
            _ => None,
        }
    }
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mib: 16,
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            mine_knowledge: MineKnowledge::Public,
            skill_level: crate::skill::MAX_LEVEL,
            limit_strength: false,
            elo: crate::skill::ELO_MAX,
            analyse_mode: false,
            use_nnue: true,
            variety: Variety::default(),
        }
    }
}
/// Each variant's searchers, made when the variant is first searched and kept
/// across searches so that histories carry over: the main thread's and, with
/// `Threads` above 1, the Lazy SMP helpers' (Stockfish keeps every thread's
/// histories between moves too).
#[derive(Default)]
pub struct Searchers {
    slots: Vec<Box<dyn AnySearcher>>,
}

/// One variant's searchers: the main thread's, then one per helper thread.
struct Pool<V: VariantSearch> {
    main: Searcher<V>,
    helpers: Vec<Searcher<V>>,
}

/// A variant's [`Pool`], as [`Searchers`] holds it.
trait AnySearcher: Send {
    fn clear(&mut self);
    fn as_any(&mut self) -> &mut dyn std::any::Any;
}

impl<V: VariantSearch> AnySearcher for Pool<V> {
    fn clear(&mut self) {
        self.main.clear();
        self.helpers.iter_mut().for_each(Searcher::clear);
    }

    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

impl Searchers {
    /// The searchers of variant `V`, made on first use.
    fn pool<V: VariantSearch>(&mut self) -> &mut Pool<V> {
        let found = self.slots.iter_mut().position(|s| s.as_any().is::<Pool<V>>());
        let i = found.unwrap_or_else(|| {
            self.slots.push(Box::new(Pool::<V> {
                main: Searcher::new(),
                helpers: Vec::new(),
            }));
            self.slots.len() - 1
        });
        match self.slots[i].as_any().downcast_mut::<Pool<V>>() {
            Some(pool) => pool,
            None => unreachable!("slot {i} holds the searchers of {}", V::NAME),
        }
    }

    /// The main searcher of variant `V` and `helpers` helper searchers: the ones
    /// kept from earlier searches first, new ones made and surplus ones dropped.
    pub fn threads<V: VariantSearch>(&mut self, helpers: usize) -> (&mut Searcher<V>, &mut [Searcher<V>]) {
        let pool = self.pool::<V>();
        pool.helpers.truncate(helpers);
        pool.helpers.resize_with(helpers, Searcher::new);
        (&mut pool.main, &mut pool.helpers)
    }

    fn clear(&mut self) {
        for s in &mut self.slots {
            s.clear();
        }
    }
}

#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
struct Running {
    shared: Arc<SearchShared>,
    handle: JoinHandle<()>,
}

/// Why a `go` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// A `searchmoves` entry is not a legal move.
    SearchMove(MoveError),
}

impl std::fmt::Display for GoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoError::SearchMove(e) => write!(f, "searchmoves: {e}"),
        }
    }
}

impl std::error::Error for GoError {}

/// The engine. See the module documentation.
///
/// ```
/// use sapper_engine::engine::{Engine, SearchListener};
/// use sapper_engine::search::timeman::Limits;
/// use sapper_engine::search::{Reporter, SearchResult};
/// use sapper_rules::variant::VariantKind;
/// use std::sync::mpsc;
///
/// /// Hands the result over to the thread that started the search.
/// struct Done(mpsc::Sender<SearchResult>);
/// impl Reporter for Done {}
/// impl SearchListener for Done {
///     fn done(&mut self, result: &SearchResult) {
///         let _ = self.0.send(result.clone());
///     }
/// }
///
/// let mut engine = Engine::new();
/// engine.set_variant(VariantKind::KingOfTheHill).unwrap();
/// // White's king on d3 steps onto the hill: a win in one.
/// engine.set_position(Some("4k3/8/8/8/8/3K4/8/8 w - - 0 1"), &[]).unwrap();
/// let (tx, rx) = mpsc::channel();
/// let limits = Limits { depth: Some(4), ..Limits::default() };
/// engine.go(limits, &[], Box::new(Done(tx))).unwrap();
/// let result = rx.recv().unwrap();
/// assert!(["d3d4", "d3e4"].contains(&result.best.to_string().as_str()));
/// ```
pub struct Engine {
    game: AnyGame,
    variant: VariantKind,
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    searchers: Arc<Mutex<Searchers>>,
    running: Option<Running>,
    /// Parameters loaded through `EvalFile`, per variant.
    params_override: Vec<(VariantKind, Arc<EvalParams>)>,
    /// Networks loaded through `EvalFile`, per variant.
    nnue_override: Vec<(VariantKind, Arc<Network>)>,
    /// Random per engine instance, so weakened play differs between sessions.
    salt: u64,
    /// Searches started, mixed into the weakened choice.
    searches: u64,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// An engine set up for chess from the start position, with default options.
    pub fn new() -> Engine {
        let options = EngineOptions::default();
        Engine {
            game: AnyGame::new(VariantKind::Chess).unwrap_or_else(|e| unreachable!("{e}")),
            variant: VariantKind::Chess,
            tt: Arc::new(TranspositionTable::new(options.hash_mib)),
            options,
            searchers: Arc::new(Mutex::new(Searchers::default())),
            running: None,
            params_override: Vec::new(),
            nnue_override: Vec::new(),
            salt: random_salt(),
            searches: 0,
        }
    }

    /// The current game.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The selected variant.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The evaluation parameters in use for the selected variant.
    pub fn params(&self) -> Arc<EvalParams> {
        let params = self
            .params_override
            .iter()
            .find(|(v, _)| *v == self.variant)
            .map_or_else(|| default_params(self.variant), |(_, p)| Arc::clone(p));
        let net = self.network();
        let same = match (&params.nnue, &net) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if same {
            return params;
        }
        let mut p = params.as_ref().clone();
        p.nnue = net;
        Arc::new(p)
    }

    /// The network the current variant evaluates with: `None` with `Use NNUE` off or
    /// where the variant has none.
    pub fn network(&self) -> Option<Arc<Network>> {
        if !self.options.use_nnue {
            return None;
        }
        self.nnue_override
            .iter()
            .find(|(v, _)| *v == self.variant)
            .map(|(_, n)| Arc::clone(n))
            .or_else(|| default_nnue(self.variant))
    }

    /// The name of the parameters [`Engine::params`] starts from: the embedded
    /// file's name, or `<variant>-<hash>.eval (EvalFile)` for a loaded one.
    pub fn params_name(&self) -> String {
        self.params_override
            .iter()
            .find(|(v, _)| *v == self.variant)
            .map_or_else(
                || default_params_name(self.variant).to_string(),
                |(v, p)| format!("{}-{}.eval (EvalFile)", v.name(), p.hash),
            )
    }

    /// The name of the network [`Engine::network`] returns: the loaded file's path
    /// or the embedded file's name.
    pub fn network_name(&self) -> Option<String> {
        self.network()?;
        self.nnue_override
            .iter()
            .find(|(v, _)| *v == self.variant)
            .map(|(_, n)| format!("{}-{}.nnue (EvalFile)", n.variant.name(), n.hash))
            .or_else(|| default_nnue_name(self.variant).map(str::to_string))
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.handle.is_finished())
    }

    /// Selects a variant and resets the game to its start position.
    ///
    /// # Errors
    /// [`PositionError::Unsupported`] if this build cannot play `variant`; nothing changes.
    pub fn set_variant(&mut self, variant: VariantKind) -> Result<(), PositionError> {
        self.stop();
        let game = AnyGame::new(variant)?;
        self.variant = variant;
        self.game = game;
        Ok(())
    }

    /// Resizes the transposition table (clearing it).
    ///
    /// # Errors
    /// The memory cannot be reserved; the old table stays.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        self.stop();
        // Free the old table first so its memory can be reused.
        self.tt = Arc::new(TranspositionTable::new(1));
        match TranspositionTable::try_new(mib) {
            Some(tt) => {
                self.tt = Arc::new(tt);
                self.options.hash_mib = mib;
                Ok(())
            }
            None => {
                self.tt = Arc::new(TranspositionTable::new(self.options.hash_mib));
                Err(format!(
                    "cannot allocate {mib} MiB; keeping {} MiB",
                    self.options.hash_mib
                ))
            }
        }
    }

    /// Sets the number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        // wasm32 has one thread: helpers could not be started there.
        self.options.threads = if cfg!(target_arch = "wasm32") {
            1
        } else {
            threads.max(1)
        };
    }

    /// Sets the number of principal variations.
    pub fn set_multipv(&mut self, lines: usize) {
        self.options.multipv = lines.max(1);
    }

    /// Sets what a minesweeper search may know of the mines.
    pub fn set_mine_knowledge(&mut self, knowledge: MineKnowledge) {
        self.options.mine_knowledge = knowledge;
    }

    /// Sets `Skill Level` (0-20).
    pub fn set_skill_level(&mut self, level: u8) {
        self.options.skill_level = level.min(crate::skill::MAX_LEVEL);
    }

    /// Sets `UCI_LimitStrength`.
    pub fn set_limit_strength(&mut self, on: bool) {
        self.options.limit_strength = on;
    }

    /// Sets `UCI_Elo`.
    pub fn set_elo(&mut self, elo: u32) {
        self.options.elo = elo;
    }

    /// Sets `Use NNUE`.
    pub fn set_use_nnue(&mut self, on: bool) {
        self.options.use_nnue = on;
    }

    /// Sets `Opening Variety`.
    pub fn set_variety(&mut self, on: bool) {
        self.options.variety = Variety { enabled: on };
    }

    /// Sets `UCI_AnalyseMode`.
    pub fn set_analyse_mode(&mut self, on: bool) {
        self.options.analyse_mode = on;
    }

    /// Loads evaluation parameters from `path` for the variant the file names
    /// (`EvalFile`); `<embedded>` or an empty value returns to the embedded ones.
    /// Returns a line to show the user.
    ///
    /// # Errors
    /// The file cannot be read, names an unknown variant, or fails validation.
    pub fn set_eval_file(&mut self, path: &str) -> Result<Option<String>, String> {
        let path = path.trim();
        if path.is_empty() || path == "<embedded>" {
            self.params_override.clear();
            self.nnue_override.clear();
            return Ok(Some("EvalFile: embedded parameters and networks".to_string()));
        }
        if path.ends_with(".nnue") {
            let net = crate::eval::nnue::load_network_file(path)?;
            let variant = net.variant;
            let line = format!(
                "EvalFile: network {path} loaded for {variant} (hash {})",
                net.hash
            );
            self.nnue_override.retain(|(v, _)| *v != variant);
            self.nnue_override.push((variant, Arc::new(net)));
            return Ok(Some(line));
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let variant = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .find(|l| !l.is_empty())
            .and_then(|header| header.split_whitespace().nth(2))
            .ok_or_else(|| {
                format!(
                    "{path}: no 'sapper-eval {} <variant>' header",
                    crate::eval::params::FORMAT_VERSION
                )
            })?
            .parse::<VariantKind>()
            .map_err(|e| e.to_string())?;
        let params = EvalParams::parse_named(path, &text, variant).map_err(|e| format!("{path}: {e}"))?;
        let line = format!("EvalFile: {path} loaded for {variant} (hash {})", params.hash);
        self.params_override.retain(|(v, _)| *v != variant);
        self.params_override.push((variant, Arc::new(params)));
        Ok(Some(line))
    }

    /// Sets the move overhead, milliseconds.
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.options.move_overhead = ms;
    }

    /// Empties the transposition table.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.tt.clear();
    }

    /// Starts a new game: clears the table and the search statistics. Keeps the variant.
    pub fn new_game(&mut self) {
        self.stop();
        self.tt.clear();
        if let Ok(mut s) = self.searchers.lock() {
            s.clear();
        }
        if let Ok(game) = AnyGame::new(self.variant) {
            self.game = game;
        }
    }

    /// Sets the position from a FEN (or the start position) and moves. Returns
    /// warnings about repaired FEN fields.
    ///
    /// # Errors
    /// [`PositionError`]; the previous position stays.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<Vec<String>, PositionError> {
        self.stop();
        let (game, warnings) = AnyGame::from_spec(self.variant, fen, moves)?;
        self.game = game;
        Ok(warnings)
    }

    /// Replaces the current game by `game` (a position `set_position` cannot
    /// describe, such as one after a null move: `sapper_engine::analyze::pass_move`).
    ///
    /// # Errors
    /// A message when `game` is not of the selected variant; the game stays.
    pub fn set_game(&mut self, game: AnyGame) -> Result<(), String> {
        if game.variant() != self.variant {
            return Err(format!(
                "the game is {}, the engine plays {}",
                game.variant(),
                self.variant
            ));
        }
        self.stop();
        self.game = game;
        Ok(())
    }

    /// Starts searching the current position on its own thread. The listener gets
    /// the progress and, at the end, the result.
    ///
    /// # Errors
    /// [`GoError`] if a `searchmoves` entry is not legal; no search starts.
    pub fn go(
        &mut self,
        limits: Limits,
        searchmoves: &[&str],
        listener: Box<dyn SearchListener>,
    ) -> Result<(), GoError> {
        self.stop();
        with_game!(&self.game, g, V => {
            let moves = searchmoves
                .iter()
                .map(|s| parse_uci_move(&g.position, s))
                .collect::<Result<Vec<Move>, _>>()
                .map_err(GoError::SearchMove)?;
            self.spawn::<V>(g.clone(), limits, moves, listener);
        });
        Ok(())
    }

    fn spawn<V: VariantSearch>(
        &mut self,
        game: sapper_rules::game::Game<V>,
        limits: Limits,
        searchmoves: Vec<Move>,
        mut listener: Box<dyn SearchListener>,
    ) {
        let shared = Arc::new(SearchShared::new(Arc::clone(&self.tt)));
        shared.pondering.store(limits.ponder, Ordering::Relaxed);
        let knowledge = self.options.mine_knowledge;
        let skill = self.options.skill();
        // Opening variety: never in analysis, nor where the caller restricts or
        // aims the search.
        let variety = self.options.variety;
        let vary = variety.applies(skill, game.position.fullmove_number())
            && !self.options.analyse_mode
            && !limits.infinite
            && !limits.ponder
            && limits.mate.is_none()
            && searchmoves.is_empty();
        let variety_lines = if vary { crate::skill::VARIETY_LINES } else { 1 };
        let mut limits = limits;
        if let Some(budget) = skill.node_limit() {
            limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
        }
        let mut game = game;
        if knowledge != MineKnowledge::Full {
            // The engine never looks at undiscovered mines unless told to (issue #3).
            game.position = V::hide_private(&game.position);
        }
        let options = SearchOptions {
            multipv: self.options.multipv.max(skill.multipv()).max(variety_lines),
            analysis: self.options.analyse_mode,
            move_overhead: self.options.move_overhead,
            searchmoves: skill.root_moves(&game.position, searchmoves),
            mine_chance: knowledge != MineKnowledge::Ignore,
            mine_naivety: skill.mine_naivety(),
            thread: 0,
        };
        let params = self.params();
        let searchers = Arc::clone(&self.searchers);
        let thread_shared = Arc::clone(&shared);
        let threads = self.options.threads;
        // Weaker levels (and opening variety) vary their choices from game to game.
        self.searches = self.searches.wrapping_add(1);
        let salt = self.salt ^ self.searches;
        self.start(shared, move || {
            let mut guard = match searchers.lock() {
                Ok(g) => g,
                Err(poisoned) => poisoned.into_inner(),
            };
            let (searcher, helpers) = guard.threads::<V>(threads.saturating_sub(1));
            // Lazy SMP: helper threads search the same root and share only the
            // transposition table; the main thread decides when to stop and what to play.
            // A bug that panics in the search must not leave the GUI without a
            // `bestmove`: the first legal move is played instead.
            let position = game.position;
            let mut result = guarded(
                || fallback_result(&position),
                std::panic::AssertUnwindSafe(|| {
                    std::thread::scope(|scope| {
                        // Helpers stop when the main search ends (the guard drops before
                        // the scope joins them), also when it ends by a panic.
                        let _stop_helpers = StopOnDrop(&thread_shared.stop);
                        for (i, helper) in helpers.iter_mut().enumerate() {
                            let thread = i + 1;
                            let (game, limits) = (&game, &limits);
                            let ctx = SearchContext {
                                shared: Arc::clone(&thread_shared),
                                params: Arc::clone(&params),
                            };
                            let options = SearchOptions {
                                thread,
                                multipv: 1,
                                ..options.clone()
                            };
                            scope.spawn(move || {
                                helper.search(
                                    &game.position,
                                    &game.keys,
                                    limits,
                                    &options,
                                    &ctx,
                                    &mut Silent,
                                );
                            });
                        }
                        let ctx = SearchContext {
                            shared: Arc::clone(&thread_shared),
                            params: Arc::clone(&params),
                        };
                        searcher.search(
                            &game.position,
                            &game.keys,
                            &limits,
                            &options,
                            &ctx,
                            &mut *listener,
                        )
                    })
                }),
            );
            if skill.is_limited() {
                // A weaker level picks among the best lines (see `skill`).
                let seed = game.position.key() ^ salt;
                let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
                if let Some(m) = skill.pick(&result.lines, &mut rng) {
                    if m != result.best {
                        result.best = m;
                        result.ponder = Move::NONE;
                    }
                }
            } else if vary {
                let mut rng = rand::rngs::StdRng::seed_from_u64(game.position.key() ^ salt);
                if let Some(m) = variety.pick(&result.lines, &mut rng) {
                    if m != result.best {
                        result.best = m;
                        result.ponder = Move::NONE;
                    }
                }
            }
            listener.done(&result);
        });
    }

    /// Runs a search's `work`: natively on its own thread, so the caller can go on
    /// reading commands and `stop` it.
    #[cfg(not(target_arch = "wasm32"))]
    fn start(&mut self, shared: Arc<SearchShared>, work: impl FnOnce() + Send + 'static) {
        let handle = std::thread::spawn(work);
        self.running = Some(Running { shared, handle });
    }

    /// Runs a search's `work` on wasm32, which has one thread: here, to its end. A
    /// `stop` reaches it through [`crate::host::stop_requested`].
    #[cfg(target_arch = "wasm32")]
    fn start(&mut self, shared: Arc<SearchShared>, work: impl FnOnce() + Send + 'static) {
        drop(shared);
        work();
    }

    /// Stops a running search and waits for it (its listener still gets `done`).
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.shared.stop.store(true, Ordering::Relaxed);
            r.shared.pondering.store(false, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }

    /// `ponderhit`: the expected move was played; the search goes on, now on the clock.
    pub fn ponderhit(&mut self) {
        if let Some(r) = &self.running {
            r.shared.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Waits until a running search ends by itself.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }
}

/// Sets the flag when dropped (also while unwinding).
struct StopOnDrop<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `search`; if it panics, returns `fallback()` instead (the panic message has
/// already gone to stderr through the panic hook).
fn guarded<R>(fallback: impl FnOnce() -> R, search: impl FnOnce() -> R + std::panic::UnwindSafe) -> R {
    std::panic::catch_unwind(search).unwrap_or_else(|_| fallback())
}

/// What to play when the search failed: the first legal move, if any.
fn fallback_result<V: Variant>(pos: &sapper_rules::position::Position<V>) -> SearchResult {
    let best = pos.legal_moves().first().copied().unwrap_or(Move::NONE);
    SearchResult {
        best,
        ponder: Move::NONE,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: if best.is_none() { Vec::new() } else { vec![best] },
        lines: if best.is_none() {
            Vec::new()
        } else {
            vec![(best, 0)]
        },
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A seed that differs from engine to engine (the weaker levels' choices must not
/// repeat across games): std's per-process random hash keys, which need no OS
/// random source of the library's own (rand's `getrandom`), so the engine also
/// builds where there is none.
/// On wasm32-unknown-unknown std's keys are constant, so the salt comes from
/// getrandom there, whose source the browser build supplies (`crypto.getRandomValues`).
fn random_salt() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        let mut bytes = [0u8; 8];
        if getrandom::getrandom(&mut bytes).is_ok() {
            return u64::from_le_bytes(bytes);
        }
    }
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(0u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::position::Position;
    use sapper_rules::variant::Chess;

    /// Hands the result to the test.
    struct Done(std::sync::mpsc::Sender<SearchResult>);
    impl Reporter for Done {}
    impl SearchListener for Done {
        fn done(&mut self, result: &SearchResult) {
            let _ = self.0.send(result.clone());
        }
    }

    /// The moves a depth-`depth` search plays from `fen` (start: `None`) for each
    /// engine salt in `salts`, with `Opening Variety` on or off.
    fn first_moves(variety: bool, fen: Option<&str>, depth: i32, salts: std::ops::Range<u64>) -> Vec<String> {
        salts
            .map(|salt| {
                let mut engine = Engine::new();
                engine.salt = salt;
                engine.set_variety(variety);
                engine.set_position(fen, &[]).unwrap();
                let (tx, rx) = std::sync::mpsc::channel();
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                engine.go(limits, &[], Box::new(Done(tx))).unwrap();
                rx.recv().unwrap().best.to_string()
            })
            .collect()
    }

    #[test]
    fn opening_variety_varies_the_opening_and_nothing_else() {
        let distinct = |moves: &[String]| moves.iter().collect::<std::collections::HashSet<_>>().len();
        // Off (the default): the same move whatever the salt.
        let off = first_moves(false, None, 7, 0..8);
        assert_eq!(distinct(&off), 1, "{off:?}");
        // On: several moves from the start position (the search is deterministic
        // for a given salt, so this does not depend on luck).
        let on = first_moves(true, None, 7, 0..8);
        assert!(distinct(&on) >= 2, "{on:?}");
        // After move 10 it no longer applies.
        let late = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 11";
        let late_moves = first_moves(true, Some(late), 6, 0..8);
        assert_eq!(distinct(&late_moves), 1, "{late_moves:?}");
    }

    #[test]
    fn helper_searchers_are_kept_between_searches() {
        let mut searchers = Searchers::default();
        let (_, helpers) = searchers.threads::<Chess>(3);
        assert_eq!(helpers.len(), 3);
        let first: Vec<*const Searcher<Chess>> = helpers.iter().map(|h| h as *const _).collect();
        // The same number again: the same searchers, with what they learned.
        let (_, helpers) = searchers.threads::<Chess>(3);
        let again: Vec<*const Searcher<Chess>> = helpers.iter().map(|h| h as *const _).collect();
        assert_eq!(first, again);
        // Fewer threads keep the first ones; one thread has no helper.
        let (_, helpers) = searchers.threads::<Chess>(2);
        assert_eq!(helpers.len(), 2);
        assert_eq!(helpers.as_ptr(), first[0]);
        assert!(searchers.threads::<Chess>(0).1.is_empty());
        // Another variant has its own.
        assert_eq!(searchers.threads::<sapper_rules::variant::Atomic>(1).1.len(), 1);
        assert_eq!(searchers.slots.len(), 2);
    }

    #[test]
    fn a_panicking_search_still_yields_a_legal_move() {
        let pos = Position::<Chess>::startpos();
        let result = guarded(
            || fallback_result(&pos),
            || -> SearchResult { panic!("search bug") },
        );
        assert!(pos.legal_moves().contains(&result.best));
        assert_eq!(result.pv, vec![result.best]);
        // Without a panic the search's own result is kept.
        let ok = guarded(
            || fallback_result(&pos),
            || SearchResult {
                depth: 7,
                ..fallback_result(&pos)
            },
        );
        assert_eq!(ok.depth, 7);
        // No legal move: none to play.
        let (mated, _) = Position::<Chess>::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(fallback_result(&mated).best.is_none());
    }
}
