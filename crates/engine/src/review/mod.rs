//! `sapper review`: a played game judged move by move, as lichess's computer
//! analysis does. Every position of the game is searched once ([`review`], with the
//! analysis search of [`crate::analyze::search_position`]), so the evaluation after
//! move n is the one before move n + 1; each move gets the evaluations before and
//! after it, the best move with its line, the drop in winning chances and a class
//! by lichess's formulas ([`lichess`]), and each side its game accuracy.
//!
//! The game comes from a PGN file ([`pgn`]); the results go out as a table
//! ([`table`]), an annotated PGN ([`annotate`]) and an SVG evaluation graph
//! ([`graph`]).
//!
//! Minesweeper games are judged by what was public when each move was played: a move
//! onto the fog is a gamble whose result (a mine or none) is known only after it, so
//! the position after it holds luck. There the move's score is its expectation over
//! the consistent mine layouts (a second search of the position before, restricted to
//! the move; the search weighs mines by their exact probabilities), not the score of
//! the position that followed: a move onto a 10% square that hit a mine is judged as
//! the gamble it was, one onto a discovered mine as the sure loss it is. Each move
//! also records its landing square's mine chance and whether a mine was there
//! ([`MoveReview::mine`]). The game must be given with its layout (a
//! full-information FEN), so that its moves can be replayed.

pub mod annotate;
pub mod graph;
pub mod lichess;
pub mod pgn;
pub mod table;

use crate::analyze::{analysis_options, search_position};
use crate::eval::default_params;
use crate::host::Instant;
use crate::search::score::{mate_in, mated_in};
use crate::search::timeman::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{SearchContext, SearchShared, Searcher, Silent};
use crate::variant::EngineVariant;
use lichess::{chances_drop, game_accuracy, judge, move_accuracy, win_percent, Advice, Judgement};
use sapper_rules::game::{AnyGame, Game};
use sapper_rules::moves::Move;
use sapper_rules::notation::{san, san_line};
use sapper_rules::position::Position;
use sapper_rules::types::Color;
use sapper_rules::variant::{Outcome, Variant, VariantKind};
use sapper_rules::{with_game, with_variant};
use std::sync::Arc;
use std::time::Duration;

/// The depth each position is searched to when no limit is given: deep enough that a
/// piece left hanging or a mate in one or two allowed is seen in every position (the
/// reply and its consequences are well inside the horizon), shallow enough that a
/// 40-move game takes seconds (docs/cli.md gives a timing).
pub const DEFAULT_DEPTH: i32 = 12;

/// The node limit of each search in a game with hidden mines when no limit is given:
/// a chance search reaches far lower depths than the 8x8 variants' (minesweeper's
/// depth 7 can take minutes), and each position may be searched twice.
pub const DEFAULT_MINE_NODES: u64 = 50_000;

/// The limit of each position's search when none is given: depth
/// [`DEFAULT_DEPTH`], or [`DEFAULT_MINE_NODES`] nodes in a variant with mines.
pub fn default_limits(kind: VariantKind) -> Limits {
    if with_variant!(kind, V => V::MINES) {
        Limits {
            nodes: Some(DEFAULT_MINE_NODES),
            ..Limits::default()
        }
    } else {
        Limits {
            depth: Some(DEFAULT_DEPTH),
            ..Limits::default()
        }
    }
}

/// How each position is searched.
#[derive(Clone, Debug)]
pub struct ReviewSettings {
    /// The limit of each position's search (depth or nodes; a time limit would make
    /// the review depend on the machine's load). A position whose search completes
    /// no iteration within it (a tiny node limit) is searched to depth 1 instead.
    pub limits: Limits,
    /// Transposition table size, MiB (one table for the whole game).
    pub hash_mib: usize,
}

impl Default for ReviewSettings {
    fn default() -> Self {
        ReviewSettings {
            limits: Limits {
                depth: Some(DEFAULT_DEPTH),
                ..Limits::default()
            },
            hash_mib: 64,
        }
    }
}

/// One searched position of the game.
#[derive(Clone, Debug)]
pub struct PositionEval {
    /// The side to move.
    pub side: Color,
    /// Its score for the side to move ([`crate::search::score`]: centipawns, or
    /// mate): the search's, or, where the move played was the search's best move,
    /// the next position's one ply back (see [`review`]).
    pub score: i32,
    /// The score its own search gave.
    pub searched: i32,
    /// The best move ([`Move::NONE`] in a finished position).
    pub best: Move,
    /// The principal variation, best move first (empty in a finished position).
    pub pv: Vec<Move>,
    /// Depth of the last completed iteration (0: not searched, the game is over).
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
}

impl PositionEval {
    /// White's score: `score`, negated when Black is to move (for winning chances;
    /// a mate's distance in moves is read from `score`, see
    /// [`crate::search::score::human_from`]).
    pub fn white(&self) -> i32 {
        self.side.sign() * self.score
    }
}

/// The review of one move.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// Its index among the game's moves (half-moves), from 0.
    pub ply: usize,
    /// The move number as PGN writes it (`12` for `12. Nf3` and `12... Nf6`).
    pub fullmove: u32,
    /// Who played it.
    pub mover: Color,
    /// The move.
    pub played: Move,
    /// It in SAN.
    pub san: String,
    /// The mover's score before it (the position's search) and after it (minus the
    /// next position's score; with hidden mines, the move's expectation from the
    /// position before, see the module documentation), search units.
    pub before: i32,
    /// See `before`.
    pub after: i32,
    /// White's scores before and after ([`PositionEval::white`]).
    pub white_before: i32,
    /// See `white_before`.
    pub white_after: i32,
    /// The best move of the position before, and it in SAN.
    pub best: Move,
    /// See `best`.
    pub best_san: String,
    /// The principal variation from the position before, best move first.
    pub pv: Vec<Move>,
    /// It in SAN with move numbers (`12. Nf3 Nc6 13. O-O`).
    pub pv_san: String,
    /// The drop in the mover's winning chances, on lichess's [-1, 1] scale
    /// (negative: a gain; [`lichess::chances_drop`]).
    pub chances_drop: f64,
    /// The move's accuracy, percent ([`lichess::move_accuracy`]).
    pub accuracy: f64,
    /// Its class, if marked ([`lichess::judge`]).
    pub advice: Option<Advice>,
    /// With hidden mines, for a move landing where a mine could be: the public
    /// chance of a mine there when it was played, and whether there was one.
    pub mine: Option<(f64, bool)>,
}

impl MoveReview {
    /// Its move number as PGN writes it before the move: `12.` for White, `12...`
    /// for Black.
    pub fn number_text(&self) -> String {
        match self.mover {
            Color::White => format!("{}.", self.fullmove),
            Color::Black => format!("{}...", self.fullmove),
        }
    }
}

/// A reviewed game.
#[derive(Clone, Debug)]
pub struct Review {
    /// The variant.
    pub variant: VariantKind,
    /// The start position's FEN.
    pub start_fen: String,
    /// Whether the game started from the variant's start position.
    pub standard_start: bool,
    /// The searches of the positions, the start position first (one more than the
    /// moves).
    pub positions: Vec<PositionEval>,
    /// The moves, in order.
    pub moves: Vec<MoveReview>,
    /// Game accuracy per side, percent, by [`Color::index`] (`None`: no move).
    pub accuracy: [Option<f64>; 2],
    /// The limit each position was searched with.
    pub limits: Limits,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

impl Review {
    /// White's evaluation of position `position` (0: the start, `n`: after the
    /// `n`-th move) as a person reads it: `+0.35`, `#-2`
    /// ([`crate::search::score::human_from`]).
    pub fn white_text(&self, position: usize) -> String {
        let p = &self.positions[position];
        crate::search::score::human_from(p.score, p.side == Color::Black)
    }

    /// `color`'s marks in words: `0 inaccuracies, 1 mistake, 2 blunders`.
    pub fn marks_text(&self, color: Color) -> String {
        let marks: Vec<String> = [Judgement::Inaccuracy, Judgement::Mistake, Judgement::Blunder]
            .iter()
            .map(|&j| table::plural(self.count(color, j), j.name()))
            .collect();
        marks.join(", ")
    }

    /// How many moves of `color` have `judgement`.
    pub fn count(&self, color: Color, judgement: lichess::Judgement) -> usize {
        self.moves
            .iter()
            .filter(|m| m.mover == color && m.advice.is_some_and(|a| a.judgement == judgement))
            .count()
    }
}

/// Whether games of `kind` can be reviewed: every variant can (minesweeper's games
/// given with their layout, see the module documentation).
///
/// # Errors
/// None today; kept for front ends that check before reading a game.
pub fn supported(_kind: VariantKind) -> Result<(), String> {
    Ok(())
}

/// Reviews `game`: its moves from its start position. Each position is searched
/// once; where the move played is the best move of its search, the position takes
/// the next position's score (one ply back), the deeper look along the same line,
/// so the engine's own choice is never marked (not with hidden mines, see the module
/// documentation). `progress(done, total)` is called before each position's search
/// (with hidden mines, also before each move's expectation search: `total` counts
/// both) and once at the end (`done == total`).
///
/// # Errors
/// A message for a variant that cannot be reviewed yet (minesweeper, see the module
/// documentation).
pub fn review(
    game: &AnyGame,
    settings: &ReviewSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, String> {
    with_game!(game, g, _V => review_game(g, settings, progress))
}

fn review_game<V: EngineVariant>(
    game: &Game<V>,
    settings: &ReviewSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, String> {
    supported(V::KIND)?;
    let start = Instant::now();
    // One table for the game (what the search of a position learnt helps the next
    // one), and shared state of each search its own (its node count), as the
    // engine's `go` does.
    let table = Arc::new(TranspositionTable::new(settings.hash_mib.max(1)));
    let params = default_params(V::KIND);
    let options = analysis_options(1);
    let mut searcher = Searcher::<V>::new();
    let count = game.moves.len() + 1;
    let total = if V::MINES { count + game.moves.len() } else { count };
    let mut replay = Game::new(game.start);
    let mut positions = Vec::with_capacity(count);
    for i in 0..count {
        progress(i, total);
        let ctx = SearchContext {
            shared: Arc::new(SearchShared::new(Arc::clone(&table))),
            params: Arc::clone(&params),
        };
        positions.push(evaluate(&mut searcher, &replay, settings, &options, &ctx));
        if let Some(&m) = game.moves.get(i) {
            replay.play(m);
        }
    }
    // With hidden mines, each move not the search's own gets its expectation: the
    // position before searched with only that move (chance nodes weigh the mines).
    let mut expected: Vec<Option<i32>> = vec![None; game.moves.len()];
    if V::MINES {
        let mut replay = Game::new(game.start);
        for (i, &m) in game.moves.iter().enumerate() {
            progress(count + i, total);
            if positions[i].best.is_some() && positions[i].best != m {
                let ctx = SearchContext {
                    shared: Arc::new(SearchShared::new(Arc::clone(&table))),
                    params: Arc::clone(&params),
                };
                let only = crate::search::SearchOptions {
                    searchmoves: vec![m],
                    ..options.clone()
                };
                expected[i] = Some(evaluate(&mut searcher, &replay, settings, &only, &ctx).score);
            }
            replay.play(m);
        }
    }
    progress(total, total);
    // Where the move played is the search's best move, the search after it looked
    // one move deeper along the same line: its score (one ply back) is the
    // position's, so a best move is never marked for what the search before it
    // could not see, and the evaluations still chain. From the end, so the deeper
    // score travels back along a run of best moves.
    // Not with hidden mines: the next position holds the move's luck.
    for (i, &m) in game.moves.iter().enumerate().rev() {
        if !V::MINES && positions[i].best == m {
            positions[i].score = one_ply_back(positions[i + 1].score);
        }
    }

    let mut pos = game.start;
    let mut moves = Vec::with_capacity(game.moves.len());
    for (ply, &m) in game.moves.iter().enumerate() {
        let (here, next) = (&positions[ply], &positions[ply + 1]);
        let mover = pos.side_to_move();
        let before = here.score;
        let after = if V::MINES {
            // The search's own move keeps its score; another its expectation.
            expected[ply].unwrap_or(before)
        } else {
            -next.score
        };
        moves.push(MoveReview {
            ply,
            fullmove: pos.fullmove_number(),
            mover,
            played: m,
            san: san(&pos, m),
            before,
            after,
            white_before: here.white(),
            white_after: next.white(),
            best: here.best,
            best_san: if here.best.is_some() {
                san(&pos, here.best)
            } else {
                String::new()
            },
            pv: here.pv.clone(),
            pv_san: san_line(&pos, &here.pv),
            chances_drop: chances_drop(before, after),
            accuracy: move_accuracy(win_percent(before), win_percent(after)),
            advice: judge(before, after),
            mine: if V::MINES { V::landing_mine(&pos, m) } else { None },
        });
        pos.play(m);
    }
    let whites: Vec<i32> = positions.iter().map(PositionEval::white).collect();
    Ok(Review {
        variant: V::KIND,
        start_fen: game.start.to_fen(),
        standard_start: is_start(&game.start),
        accuracy: game_accuracy(game.start.side_to_move(), &whites),
        nodes: positions.iter().map(|p| p.nodes).sum(),
        positions,
        moves,
        limits: settings.limits.clone(),
        elapsed: start.elapsed(),
    })
}

/// The score of a position from the score of the position after its move: negated,
/// a mate one ply further away.
fn one_ply_back(next: i32) -> i32 {
    use crate::search::score::MATE_BOUND;
    if next <= -MATE_BOUND {
        -next - 1
    } else if next >= MATE_BOUND {
        -next + 1
    } else {
        -next
    }
}

/// Searches the current position of `game` (or scores a finished one by its
/// result: the side to move has lost, or it is a draw).
fn evaluate<V: EngineVariant>(
    searcher: &mut Searcher<V>,
    game: &Game<V>,
    settings: &ReviewSettings,
    options: &crate::search::SearchOptions,
    ctx: &SearchContext,
) -> PositionEval {
    let pos = &game.position;
    if let Some(outcome) = pos.outcome() {
        let score = match outcome {
            Outcome::Decisive { winner } if winner == pos.side_to_move() => mate_in(0),
            Outcome::Decisive { .. } => mated_in(0),
            Outcome::Draw => 0,
        };
        return PositionEval {
            side: pos.side_to_move(),
            score,
            searched: score,
            best: Move::NONE,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
        };
    }
    let search = |searcher: &mut Searcher<V>, limits: &Limits| {
        search_position(searcher, pos, &game.keys, limits, options, ctx, &mut Silent)
    };
    let mut result = search(searcher, &settings.limits);
    if result.depth == 0 {
        // A node limit too small for one iteration leaves no score (0) and an
        // unsearched move: a review must not judge moves by that, so the position
        // gets a complete depth-1 search instead.
        let nodes = result.nodes;
        let floor = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        result = search(searcher, &floor);
        result.nodes += nodes;
    }
    PositionEval {
        side: pos.side_to_move(),
        score: result.score,
        searched: result.score,
        best: result.best,
        pv: result.pv,
        depth: result.depth,
        nodes: result.nodes,
    }
}

/// Whether `pos` is its variant's start position (no `FEN` tag needed).
pub fn is_start<V: Variant>(pos: &Position<V>) -> bool {
    pos.to_fen() == V::start_fen()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::variant::Chess;

    fn reviewed(moves: &str, depth: i32) -> Review {
        let mut game = Game::<Chess>::new(Position::startpos());
        for text in moves.split_whitespace() {
            game.play_typed(text).unwrap();
        }
        let settings = ReviewSettings {
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            hash_mib: 16,
        };
        let mut calls = Vec::new();
        let review = review(&AnyGame::from(game), &settings, &mut |done, total| {
            calls.push((done, total))
        })
        .unwrap();
        // One call per position and one at the end.
        let n = review.moves.len() + 1;
        assert_eq!(calls, (0..=n).map(|i| (i, n)).collect::<Vec<_>>());
        review
    }

    #[test]
    fn a_hung_queen_is_a_blunder_and_a_normal_opening_move_is_not() {
        // 2... Qg5?? leaves the queen to 3. Bxg5.
        let review = reviewed("d4 e5 dxe5 Qg5 Bxg5 Nc6", 8);
        let m = |ply: usize| &review.moves[ply];
        assert_eq!(m(0).san, "d4");
        assert_eq!(m(0).advice, None, "{:?}", m(0));
        assert_eq!(m(3).san, "Qg5");
        assert_eq!(m(3).mover, Color::Black);
        assert_eq!(m(3).fullmove, 2);
        let advice = m(3).advice.expect("Qg5 is marked");
        assert_eq!(advice.judgement, Judgement::Blunder, "{:?}", m(3));
        assert_eq!(advice.reason, lichess::Reason::WinningChances);
        assert!(m(3).chances_drop >= 0.3, "{:?}", m(3));
        assert!(m(3).after < -500, "{:?}", m(3));
        assert_ne!(m(3).best_san, "Qg5");
        assert!(
            m(3).pv_san.starts_with(&format!("2... {}", m(3).best_san)),
            "{:?}",
            m(3)
        );
        // The capture is the best move and no mistake.
        assert_eq!(m(4).san, "Bxg5");
        assert_eq!(m(4).best_san, "Bxg5");
        assert_eq!(m(4).advice, None);
        // The after of a move is the before of the next, from the other side.
        for w in review.moves.windows(2) {
            assert_eq!(w[0].after, -w[1].before);
            assert_eq!(w[0].white_after, w[1].white_before);
        }
        assert_eq!(review.count(Color::Black, Judgement::Blunder), 1);
        assert_eq!(review.count(Color::White, Judgement::Blunder), 0);
        let [white, black] = review.accuracy.map(Option::unwrap);
        assert!(white > black, "{white} {black}");
        assert_eq!(review.positions.len(), 7);
    }

    #[test]
    fn allowing_scholars_mate_is_a_blunder_and_the_mate_scores_as_such() {
        let review = reviewed("e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#", 8);
        let nf6 = &review.moves[5];
        assert_eq!(nf6.san, "Nf6");
        let advice = nf6.advice.expect("Nf6 allows mate");
        assert_eq!(advice.judgement, Judgement::Blunder);
        assert_eq!(advice.reason, lichess::Reason::MateCreated);
        assert_eq!(crate::search::score::uci(-nf6.after), "mate 1");
        let mate = &review.moves[6];
        assert_eq!(mate.san, "Qxf7#");
        assert_eq!(mate.advice, None);
        // The final position is mate: scored, not searched.
        let last = review.positions.last().unwrap();
        assert_eq!((last.score, last.depth, last.best), (mated_in(0), 0, Move::NONE));
        assert_eq!(review.moves[0].advice, None);
    }

    #[test]
    fn a_best_move_played_takes_the_deeper_score() {
        assert_eq!(one_ply_back(35), -35);
        assert_eq!(one_ply_back(mated_in(0)), mate_in(1));
        assert_eq!(one_ply_back(mate_in(3)), mated_in(4));
        let review = reviewed("e4 e5 Nf3 Nc6 Bb5 a6", 6);
        for (m, pair) in review.moves.iter().zip(review.positions.windows(2)) {
            if m.best == m.played {
                assert_eq!(pair[0].score, -pair[1].score);
                assert_eq!(m.advice, None);
                assert_eq!(m.accuracy, 100.0);
            } else {
                assert_eq!(pair[0].score, pair[0].searched);
            }
        }
        let last = review.positions.last().unwrap();
        assert_eq!(last.score, last.searched);
    }

    #[test]
    fn a_node_limit_finishing_no_iteration_falls_back_to_depth_one() {
        let mut game = Game::<Chess>::new(Position::startpos());
        for text in "d4 e5 dxe5 Qg5".split_whitespace() {
            game.play_typed(text).unwrap();
        }
        let settings = ReviewSettings {
            limits: Limits {
                nodes: Some(1),
                ..Limits::default()
            },
            hash_mib: 1,
        };
        let review = review(&AnyGame::from(game), &settings, &mut |_, _| {}).unwrap();
        assert!(review.positions.iter().all(|p| p.depth >= 1), "{review:?}");
        let qg5 = &review.moves[3];
        assert_eq!(
            qg5.advice.map(|a| a.judgement),
            Some(Judgement::Blunder),
            "{qg5:?}"
        );
    }

    /// A minesweeper game from the layout of `mines` (fog-zone indices: a4 = 0, h4 =
    /// 7, a5 = 8, ... h7 = 31) and UCI `moves`, reviewed at `nodes` per search.
    fn minesweeper_review(mines: &[u32], moves: &str, nodes: u64) -> Review {
        use sapper_rules::variant::minesweeper::Minesweeper;
        let layout = mines.iter().fold(0u32, |m, &i| m | 1 << i);
        let mut game = Game::<Minesweeper>::new(Position::start_with_layout(layout));
        for text in moves.split_whitespace() {
            game.play_typed(text).unwrap();
        }
        let settings = ReviewSettings {
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            hash_mib: 16,
        };
        let mut calls = 0;
        let review = review(&AnyGame::from(game), &settings, &mut |done, total| {
            calls += 1;
            assert!(done <= total);
            // Positions and moves: both searches counted.
            assert_eq!(total, 2 * moves.split_whitespace().count() + 1);
        })
        .unwrap();
        assert_eq!(calls, 2 * review.moves.len() + 2);
        review
    }

    #[test]
    fn minesweeper_a_move_onto_a_discovered_mine_is_a_blunder() {
        // e4 reveals the mine on e5; 3. Ne5 walks the knight onto it.
        let review = minesweeper_review(&[12, 16, 25, 31], "e2e4 b10c8 g1f3 g10f8 f3e5", 20_000);
        let ne5 = &review.moves[4];
        assert_eq!(ne5.played.to_string(), "f3e5");
        assert_eq!(ne5.mine, Some((1.0, true)), "{ne5:?}");
        let advice = ne5.advice.expect("a knight onto a proven mine is marked");
        assert_eq!(advice.judgement, Judgement::Blunder, "{ne5:?}");
        // Moves off the fog zone carry no mine chance.
        assert_eq!(review.moves[1].mine, None);
        assert!(review.moves[..4]
            .iter()
            .all(|m| m.advice.map(|a| a.judgement) != Some(Judgement::Blunder)));
    }

    #[test]
    fn minesweeper_a_square_the_numbers_prove_mined_is_a_blunder_too() {
        // After d4 and Nf3, f4 shows 1 and e4, e5 show 0: only g5 is left for the
        // mine, and 3. Ng5 loses the knight for sure.
        let review = minesweeper_review(&[14, 16, 25, 31], "d2d4 b10c8 g1f3 g10f8 f3g5", 20_000);
        let ng5 = &review.moves[4];
        assert_eq!(ng5.mine, Some((1.0, true)), "{ng5:?}");
        assert_eq!(
            ng5.advice.map(|a| a.judgement),
            Some(Judgement::Blunder),
            "{ng5:?}"
        );
    }

    #[test]
    fn minesweeper_an_unlucky_step_into_the_fog_is_no_blunder() {
        // 1. e4 lands on a fogged square that one layout in eight mines, and this
        // layout does: the pawn is lost, but the gamble was no blunder.
        let review = minesweeper_review(&[4, 16, 25, 31], "e2e4 b10c8", 20_000);
        let e4 = &review.moves[0];
        assert_eq!(e4.mine, Some((0.125, true)), "{e4:?}");
        // Judged by its expectation (the search preferred another move), which is
        // well above what the position after it turned out to be.
        assert_ne!(e4.best, e4.played, "{e4:?}");
        assert!(e4.after > e4.white_after + 40, "{e4:?}");
        assert_eq!(e4.advice, None, "{e4:?}");
        // The position after it shows the loss (the graph's luck), the judgement not.
        assert!(e4.white_after < e4.white_before - 50, "{e4:?}");
        assert!(e4.chances_drop < 0.1, "{e4:?}");
    }
}
