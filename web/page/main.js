// The play page: a person against Sapper in the browser.
//
// Chess, atomic, king of the hill and three-check: lichess's chessground (board) and
// chessops (rules). Minesweeper: the page is the referee. It draws the hidden
// layout, keeps the full-information position, and sends Sapper only the public FEN
// (route 2 of docs/site-integration.md); the rules (legal moves, what a move does on
// the true layout, the public view and its mine probabilities, the end) come from
// Sapper's own WebAssembly module, instantiated here on the page's thread
// (web/crate/src/rules.rs).
//
// For the person practising: a hint and the threat as arrows, takeback, a blunder
// check before a move is sent, an evaluation bar, minesweeper's mine
// probabilities, the game kept in localStorage (a reload resumes it; a list of past
// games), PGN export and import, and after the game a review (the engine crate's,
// through the worker): an evaluation graph that jumps to a move when clicked, and
// the marked moves.
import { Chessground } from 'chessground';
import { parseFen, makeFen } from 'chessops/fen';
import { setupPosition } from 'chessops/variant';
import { chessgroundDests } from 'chessops/compat';
import { parseUci, makeSquare, parseSquare, squareFile } from 'chessops/util';
import { makeSanAndPlay, makeSanVariation } from 'chessops/san';
import { normalizeMove } from 'chessops/chess';
import { SapperEngine } from '../src/engine.js';
import { instantiate, parseAnswer, wasmFile } from '../src/core.js';
import { reviewGraph, winningChances } from './review.js';
import { levelLabel } from './levels.js';

const $ = (id) => document.getElementById(id);
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const params = new URLSearchParams(location.search);
const STORE = 'sapper.games';
const CURRENT = 'sapper.current';
const SETTINGS = 'sapper.settings';
/** Past games kept in localStorage, newest first. */
const KEEP = 40;
/** A drop in winning chances from which the blunder check asks (lichess's blunder). */
const BLUNDER_DROP = 0.3;
const VARIANT_TAGS = { chess: 'Standard', atomic: 'Atomic', kingofthehill: 'King of the Hill', '3check': 'Three-check', minesweeper: 'Minesweeper' };
const VARIANT_NAMES = { chess: 'Chess', atomic: 'Atomic', kingofthehill: 'King of the hill', '3check': 'Three-check', minesweeper: 'Minesweeper chess' };

const page = {
  engine: null,
  rules: null, // Sapper's rules (WebAssembly)
  game: null,
  view: null, // the ply shown instead of the current position, or null
  errors: [], // illegal engine moves and other faults, for the tests
  movetime: Number(params.get('movetime') || 1000),
  hinttime: Number(params.get('hinttime') || 1000),
  reviewDepth: Number(params.get('reviewdepth') || 12),
  reviewNodes: Number(params.get('reviewnodes') || 0),
  shapes: [], // the hint and threat arrows: {orig, dest, brush}
  lastEval: null, // White's latest score: {cp} or {mate}
};
window.sapperPage = page;

/** The level select's options, each with its measured strength in `variant` (levels.js). */
function fillLevels(variant) {
  const chosen = $('level').value;
  $('level').replaceChildren();
  for (let l = 0; l <= 20; l++) {
    const o = document.createElement('option');
    o.value = String(l);
    o.textContent = levelLabel(variant, l);
    $('level').append(o);
  }
  if (chosen) $('level').value = chosen;
}
$('variant').value = params.get('variant') || 'chess';
fillLevels($('variant').value);
$('level').value = params.get('level') || '5';
$('variant').addEventListener('change', () => fillLevels($('variant').value));
$('color').value = params.get('color') || 'white';

const cg = Chessground($('board'), {
  coordinates: true,
  movable: { free: false, showDests: true },
  premovable: { enabled: false },
  drawable: { enabled: true },
});

// ---- storage -------------------------------------------------------------------

function readJson(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

function settings() {
  return readJson(SETTINGS, {});
}

function saveSettings() {
  const s = {
    blunder: $('opt-blunder').checked,
    evalbar: $('opt-evalbar').checked,
    prob: $('opt-prob').checked,
    variety: $('opt-variety').checked,
  };
  localStorage.setItem(SETTINGS, JSON.stringify(s));
}

/** The saved games, newest first. */
function savedGames() {
  const list = readJson(STORE, []);
  return Array.isArray(list) ? list : [];
}

/** What of a game is kept: enough to rebuild it. */
function record(g) {
  return {
    id: g.id,
    variant: g.variant,
    human: g.human,
    level: g.level,
    startFen: g.startFen,
    uci: g.uci,
    san: g.san,
    over: g.over,
    date: g.date,
    tags: g.tags || null,
    review: g.review || null,
  };
}

/** Saves the game and marks it current. */
function save(g) {
  const list = savedGames().filter((r) => r.id !== g.id);
  list.unshift(record(g));
  try {
    localStorage.setItem(STORE, JSON.stringify(list.slice(0, KEEP)));
  } catch {
    // Full: keep fewer games, without their reviews.
    const slim = list.slice(0, KEEP / 2).map((r, i) => (i === 0 ? r : { ...r, review: null }));
    localStorage.setItem(STORE, JSON.stringify(slim));
  }
  localStorage.setItem(CURRENT, g.id);
  renderGames();
}

// ---- one game ---------------------------------------------------------------

/** A game from its record (new, saved or imported); replays its moves. */
function gameFrom(r) {
  const g = {
    id: r.id || `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    variant: r.variant,
    human: r.human,
    level: r.level,
    startFen: r.startFen || null,
    uci: [],
    san: [],
    over: null,
    date: r.date || new Date().toISOString(),
    tags: r.tags || null,
    review: r.review || null,
    thinking: false,
    events: [],
    gen: 0, // bumped on takeback: a search started before it is ignored
  };
  if (g.variant === 'minesweeper') {
    if (!g.startFen) g.startFen = parseAnswer(page.rules.rules('layout')).fen[0];
  } else {
    g.pos = setupPosition(g.variant, parseFen(g.startFen || START).unwrap()).unwrap();
  }
  resetTo(g, r.uci || []);
  // A saved result (a resignation, an imported game's) stands.
  if (r.over) g.over = r.over;
  return g;
}

/** Replays `moves` from the game's start. */
function resetTo(g, moves) {
  g.uci = [];
  g.san = [];
  g.over = null;
  g.events = [];
  if (g.variant === 'minesweeper') {
    g.uci = moves.slice();
    msRefresh(g);
    g.san = sanOf(g);
    const r = g.ms.result[0];
    if (r !== '*') g.over = r;
    g.events = g.ms.event || [];
  } else {
    g.pos = setupPosition(g.variant, parseFen(g.startFen || START).unwrap()).unwrap();
    g.seen = new Map([[repetitionKey(g.pos), 1]]);
    for (const m of moves) applyMove(g, m);
  }
}

/** Minesweeper: the SAN of every move (one rules request per move). */
function sanOf(g) {
  const out = [];
  for (let i = 1; i <= g.uci.length; i++) {
    const a = parseAnswer(page.rules.rules(`state minesweeper fen ${g.startFen} moves ${g.uci.slice(0, i).join(' ')}`));
    out.push(a.san ? a.san[0] : g.uci[i - 1]);
  }
  return out;
}

/** Board, side, castling and en passant: positions that repeat. */
function repetitionKey(pos) {
  return makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
}

function turn(g) {
  return g.variant === 'minesweeper' ? (g.ms.turn[0] === 'w' ? 'white' : 'black') : g.pos.turn;
}

/** Legal moves in UCI (castling as the king's two-square move). */
function legalMoves(g) {
  if (g.variant === 'minesweeper') return g.ms.legal[0] ? g.ms.legal[0].split(' ') : [];
  const out = [];
  for (const [from, tos] of chessgroundDests(g.pos)) {
    for (const to of tos) {
      const uci = standardUci(g.pos, from + to);
      // Every promotion piece, not only the one standardUci picks.
      if (uci.length === 5) for (const p of 'qrbn') out.push(uci.slice(0, 4) + p);
      else out.push(uci);
    }
  }
  return [...new Set(out)];
}

/** Whether `uci` is legal now (by chessops, or Sapper's rules in minesweeper). */
function isLegal(g, uci) {
  if (g.variant === 'minesweeper') return legalMoves(g).includes(uci);
  const move = parseUci(uci);
  return move !== undefined && g.pos.isLegal(normalizeMove(g.pos, move));
}

/** `uci` as Sapper and UCI GUIs write it: castling e1g1, not e1h1; a promotion without a piece gets the one the "Promote to" control names. */
function standardUci(pos, uci) {
  const from = parseSquare(uci.slice(0, 2));
  const to = parseSquare(uci.slice(2, 4));
  const piece = pos.board.get(from);
  const target = pos.board.get(to);
  if (piece && piece.role === 'king' && target && target.role === 'rook' && target.color === piece.color) {
    const file = squareFile(to) < squareFile(from) ? 2 : 6;
    return uci.slice(0, 2) + makeSquare((from & ~7) | file);
  }
  if (piece && piece.role === 'pawn' && uci.length === 4 && (uci[3] === '8' || uci[3] === '1')) {
    return `${uci}${$('promotion').value}`;
  }
  return uci;
}

/** Plays `uci` (legal, checked by the caller) and records it. */
function applyMove(g, uci) {
  if (g.variant === 'minesweeper') {
    g.uci.push(uci);
    msRefresh(g);
    g.san.push(g.ms.san[0]);
    g.events = g.ms.event || [];
    const r = g.ms.result[0];
    if (r !== '*') g.over = r;
  } else {
    const move = normalizeMove(g.pos, parseUci(uci));
    g.san.push(makeSanAndPlay(g.pos, move));
    g.uci.push(uci);
    g.events = [];
    const key = repetitionKey(g.pos);
    g.seen.set(key, (g.seen.get(key) || 0) + 1);
    g.over = chessopsResult(g, g.seen.get(key));
  }
}

/** The game's end by chessops' rules, as "1-0 checkmate" etc., or null. */
function chessopsResult(g, repeats) {
  const pos = g.pos;
  const score = (winner) => (winner === 'white' ? '1-0' : winner === 'black' ? '0-1' : '1/2-1/2');
  if (pos.isVariantEnd()) {
    const why = { atomic: 'king exploded', kingofthehill: 'king on the hill', '3check': 'three checks' }[g.variant] || 'variant end';
    return `${score(pos.variantOutcome().winner)} ${why}`;
  }
  if (pos.isCheckmate()) return `${score(pos.outcome().winner)} checkmate`;
  if (pos.isStalemate()) return '1/2-1/2 stalemate';
  if (pos.isInsufficientMaterial()) return '1/2-1/2 insufficient material';
  if (repeats >= 3) return '1/2-1/2 threefold repetition';
  if (pos.halfmoves >= 100) return '1/2-1/2 50-move rule';
  return null;
}

/** Asks Sapper's rules for the minesweeper game's state after `ply` moves (all by default). */
function msState(g, ply = g.uci.length) {
  const moves = ply ? ` moves ${g.uci.slice(0, ply).join(' ')}` : '';
  const answer = parseAnswer(page.rules.rules(`state minesweeper fen ${g.startFen}${moves}`));
  if (answer.error) throw new Error(answer.error[0]);
  return answer;
}

function msRefresh(g) {
  g.ms = msState(g);
}

/** What to send the engine: the game for the 8x8 variants, the public FEN in minesweeper. */
function enginePosition(g) {
  if (g.variant === 'minesweeper') return { fen: g.ms.public[0], moves: [] };
  return { fen: g.startFen || 'startpos', moves: g.uci.slice() };
}

// ---- the engine's move -------------------------------------------------------

async function engineMove(g) {
  g.thinking = true;
  const gen = g.gen;
  render();
  const { fen, moves } = enginePosition(g);
  let result;
  try {
    result = await page.engine.bestMove(fen, {
      variant: g.variant,
      level: g.level,
      variety: $('opt-variety').checked,
      movetime: page.movetime,
      moves,
      onInfo: (info) => page.game === g && g.gen === gen && showInfo(g, info, turn(g)),
    });
  } catch (err) {
    page.errors.push(String(err));
    $('engine-status').textContent = `Engine error: ${err.message}`;
    g.thinking = false;
    return;
  }
  if (page.game !== g || g.gen !== gen) return; // a new game or a takeback meanwhile
  g.thinking = false;
  const best = result.bestmove;
  if (!best || !isLegal(g, best)) {
    page.errors.push(`illegal engine move ${best} after ${g.uci.join(' ')}`);
    $('engine-status').textContent = `Sapper answered ${best}, which is not legal here.`;
    render();
    return;
  }
  applyMove(g, best);
  save(g);
  render(best);
}

/** White's view of a score `s` ({cp} or {mate}) given for `side`. */
function whiteScore(s, side) {
  const sign = side === 'white' ? 1 : -1;
  return s.mate !== undefined ? { mate: s.mate * sign } : { cp: s.cp * sign };
}

function scoreText(w) {
  if (w.mate !== undefined) return w.mate === 0 ? 'mate' : `#${w.mate}`;
  return `${w.cp >= 0 ? '+' : ''}${(w.cp / 100).toFixed(2)}`;
}

/** Shows a search's line; `side` is the side the search moved for. */
function showInfo(g, info, side) {
  if (!info.score) return;
  const w = whiteScore(info.score, side);
  page.lastEval = w;
  $('eval').textContent =
    w.mate !== undefined ? `${w.mate > 0 ? 'White' : 'Black'} mates in ${Math.abs(w.mate)}` : `${scoreText(w)} (White's view)`;
  $('depth').textContent = `${info.depth}${info.seldepth ? `/${info.seldepth}` : ''}`;
  $('nodes').textContent = `${info.nodes ?? '-'}${info.nps ? ` (${Math.round(info.nps / 1000)}k nodes/s)` : ''}`;
  let line = (info.pv || []).join(' ');
  if (g.variant !== 'minesweeper' && side === turn(g)) {
    try {
      line = makeSanVariation(g.pos, info.pv.map((u) => normalizeMove(g.pos, parseUci(u))));
    } catch {
      /* keep UCI */
    }
  }
  $('pv').textContent = line;
  renderEvalBar();
}

// ---- the person's move ----------------------------------------------------------

/** Whether the person may act now (their turn, no search, no dialog, not viewing the past). */
function personsTurn(g) {
  return g && !g.over && !g.thinking && !page.pending && page.view === null && turn(g) === g.human;
}

/**
 * Plays the person's move `uci` if it is legal and it is their turn. With the
 * blunder check on, the move waits for the check (and, if it looks like a blunder,
 * for the person's answer). Returns true if the move was accepted (played or held).
 */
page.play = (uci) => {
  const g = page.game;
  if (!personsTurn(g)) return false;
  const legal = legalMoves(g);
  const move = legal.includes(uci) ? uci : legal.find((m) => m === `${uci}q`);
  if (!move) return false;
  page.selected = null;
  if ($('opt-blunder').checked) {
    page.pending = move;
    blunderCheck(g, move);
    return true;
  }
  commit(g, move);
  return true;
};

/** Plays the person's `move` and lets Sapper answer. */
function commit(g, move) {
  page.shapes = [];
  $('advice').textContent = '';
  applyMove(g, move);
  save(g);
  render(move);
  if (!g.over) engineMove(g);
}

/**
 * The blunder check: the position's best score and the score of `move` (a search
 * restricted to it, so minesweeper's chance is weighed as the search weighs it), both
 * at full strength; if the mover's winning chances drop by a blunder's margin, the
 * person is asked.
 */
async function blunderCheck(g, move) {
  page.checking = true;
  render();
  $('advice').textContent = 'Checking your move...';
  const { fen, moves } = enginePosition(g);
  const side = turn(g);
  const half = Math.max(100, Math.round(page.hinttime / 2));
  let best;
  let mine;
  try {
    best = await page.engine.hint(fen, { variant: g.variant, moves, movetime: half });
    mine = await page.engine.hint(fen, { variant: g.variant, moves, movetime: half, searchmoves: [move] });
  } catch (err) {
    page.errors.push(String(err));
  }
  page.checking = false;
  if (page.game !== g || page.pending !== move) return;
  const chances = (info) => (info && info.score ? winningChances(info.score) : null);
  const before = chances(best && best.info);
  const after = chances(mine && mine.info);
  const mateAgainst = mine && mine.info && mine.info.score && mine.info.score.mate < 0 && !(best.info.score.mate < 0);
  if (before !== null && after !== null && (before - after >= BLUNDER_DROP || mateAgainst) && best.bestmove !== move) {
    const w = whiteScore(mine.info.score, side);
    $('blunder-text').textContent = `${sanFor(g, move)} looks like a blunder: after it Sapper sees ${scoreText(w)} (White's view). ${sanFor(g, best.bestmove)} was better.`;
    $('blunder-dialog').hidden = false;
    $('advice').textContent = '';
    render();
    return;
  }
  page.pending = null;
  commit(g, move);
}

/** `uci` in SAN in the game's current position. */
function sanFor(g, uci) {
  if (!uci) return '';
  if (g.variant === 'minesweeper') {
    const a = parseAnswer(page.rules.rules(`state minesweeper fen ${g.startFen} moves ${[...g.uci, uci].join(' ')}`));
    return a.san ? a.san[0] : uci;
  }
  try {
    const pos = g.pos.clone();
    return makeSanAndPlay(pos, normalizeMove(pos, parseUci(uci)));
  } catch {
    return uci;
  }
}

function answerBlunder(play) {
  const g = page.game;
  const move = page.pending;
  page.pending = null;
  $('blunder-dialog').hidden = true;
  if (play && move) commit(g, move);
  else render();
}

/** The test driver's view of the game. */
page.info = () => {
  const g = page.game;
  return g && {
    id: g.id,
    variant: g.variant,
    human: g.human,
    level: g.level,
    turn: turn(g),
    legal: legalMoves(g),
    uci: g.uci.slice(),
    san: g.san.slice(),
    over: g.over,
    thinking: g.thinking,
    pending: page.pending || null,
    checking: Boolean(page.checking),
    dialog: !$('blunder-dialog').hidden,
    shapes: page.shapes.slice(),
    position: enginePosition(g),
    startFen: g.startFen || null,
    reviewed: Boolean(g.review),
    view: page.view,
    errors: page.errors.slice(),
  };
};

// ---- hint, threat, takeback, resign ------------------------------------------------

/** The best move for the person, as a green arrow. */
page.hint = async () => {
  const g = page.game;
  if (!personsTurn(g)) return null;
  $('advice').textContent = 'Looking for a hint...';
  const { fen, moves } = enginePosition(g);
  const side = turn(g);
  const r = await page.engine.hint(fen, { variant: g.variant, moves, movetime: page.hinttime });
  if (page.game !== g || turn(g) !== side) return null;
  if (r.info) showInfo(g, r.info, side);
  page.shapes = page.shapes.filter((s) => s.brush !== 'green');
  if (r.bestmove) page.shapes.push(shape(r.bestmove, 'green'));
  $('advice').textContent = r.bestmove ? `Hint: ${sanFor(g, r.bestmove)}` : 'No move to hint.';
  render();
  return r.bestmove;
};

/** What Sapper threatens (its best move were it to move now), as a red arrow. */
page.threat = async () => {
  const g = page.game;
  if (!personsTurn(g)) return null;
  $('advice').textContent = 'Looking for the threat...';
  const { fen, moves } = enginePosition(g);
  const side = turn(g);
  const r = await page.engine.threat(fen, { variant: g.variant, moves, movetime: page.hinttime });
  if (page.game !== g || turn(g) !== side) return null;
  page.shapes = page.shapes.filter((s) => s.brush !== 'red');
  if (r.threat) {
    page.shapes.push(shape(r.threat, 'red'));
    $('advice').textContent = `Threat: ${threatSan(g, r.threat)}`;
  } else {
    $('advice').textContent = `No threat to show: ${r.reason || 'nothing to pass'}`;
  }
  render();
  return r.threat || null;
};

/** The threat in SAN: the move in the position with the move passed. */
function threatSan(g, uci) {
  if (g.variant === 'minesweeper') return uci;
  try {
    const setup = g.pos.toSetup();
    setup.turn = setup.turn === 'white' ? 'black' : 'white';
    setup.epSquare = undefined;
    const passed = setupPosition(g.variant, setup).unwrap();
    return makeSanAndPlay(passed, normalizeMove(passed, parseUci(uci)));
  } catch {
    return uci;
  }
}

function shape(uci, brush) {
  const m = /^([a-h]\d+)([a-h]\d+)/.exec(uci);
  return { orig: m[1], dest: m[2], brush };
}

/** Takes back the person's last move and Sapper's reply (a running search is dropped). */
page.takeback = () => {
  const g = page.game;
  if (!g || page.pending || page.view !== null) return false;
  const moves = g.uci.slice();
  const mover = (i) => {
    // Whose move the i-th was: the start's side to move alternates.
    const first = g.variant === 'minesweeper' ? msState(g, 0).turn[0] : (g.startFen || START).split(' ')[1];
    const white = (first === 'w') === (i % 2 === 0);
    return white ? 'white' : 'black';
  };
  let n = moves.length;
  while (n > 0 && mover(n - 1) !== g.human) n--;
  if (n === 0) return false;
  n--;
  if (g.thinking) page.engine.stop();
  g.gen++;
  g.thinking = false;
  g.review = null;
  resetTo(g, moves.slice(0, n));
  page.shapes = [];
  $('advice').textContent = 'Move taken back.';
  save(g);
  render();
  return true;
};

page.resign = () => {
  const g = page.game;
  if (!g || g.over) return false;
  if (g.thinking) page.engine.stop();
  g.gen++;
  g.thinking = false;
  g.over = `${g.human === 'white' ? '0-1' : '1-0'} resignation`;
  save(g);
  render();
  return true;
};

// ---- review --------------------------------------------------------------------

/** Reviews the game (finished or not) in the worker; the graph and marks appear. */
page.review = async () => {
  const g = page.game;
  if (!g || g.thinking || !g.uci.length) return null;
  $('review-start').disabled = true;
  $('review-progress').hidden = false;
  $('review-status').textContent = 'Reviewing...';
  // Minesweeper's chance search: the engine's default node limit unless the page says.
  const opts = page.reviewNodes ? { nodes: page.reviewNodes } : g.variant === 'minesweeper' ? {} : { depth: page.reviewDepth };
  const t0 = performance.now();
  try {
    g.review = await page.engine.review(
      { variant: g.variant, fen: g.startFen || 'startpos', moves: g.uci },
      {
        ...opts,
        onProgress: (done, total) => {
          $('review-progress').max = total;
          $('review-progress').value = done;
          $('review-status').textContent = `Reviewing: position ${Math.min(done + 1, total)} of ${total}...`;
        },
      },
    );
    page.reviewMs = performance.now() - t0;
  } catch (err) {
    $('review-status').textContent = `No review: ${err.message}`;
    $('review-progress').hidden = true;
    $('review-start').disabled = false;
    return null;
  }
  $('review-progress').hidden = true;
  if (page.game === g) {
    save(g);
    render();
  }
  return g.review;
};

function renderReview(g) {
  const panel = $('review-panel');
  panel.hidden = !(g.over || g.review);
  if (panel.hidden) return;
  const r = g.review;
  $('review-start').hidden = Boolean(r);
  $('review-start').disabled = false;
  const graph = $('review-graph');
  const marks = $('review-marks');
  if (!r) {
    graph.innerHTML = '';
    marks.innerHTML = '';
    $('review-accuracy').textContent = '';
    if (!$('review-status').textContent.startsWith('No review')) $('review-status').textContent = '';
    return;
  }
  $('review-status').textContent = `Sapper's review, ${r.limit} per position (${r.moves.length} moves, ${(r.ms / 1000).toFixed(1)} s).`;
  graph.innerHTML = reviewGraph(r, page.view);
  graph.querySelector('svg').onclick = (e) => {
    const box = e.currentTarget.getBoundingClientRect();
    const vb = e.currentTarget.viewBox.baseVal;
    const x = ((e.clientX - box.left) / box.width) * vb.width;
    const ply = Math.round(((x - Number(e.currentTarget.dataset.left)) / Number(e.currentTarget.dataset.plotWidth)) * (r.positions.length - 1));
    page.showPly(Math.max(0, Math.min(r.positions.length - 1, ply)));
  };
  const acc = (i, who) => {
    const a = r.accuracy[i];
    const counts = ['inaccuracy', 'mistake', 'blunder'].map((j) => r.moves.filter((m) => m.mover === who && m.judgement === j).length);
    const words = ['inaccuracy', 'mistake', 'blunder'].map((j, i) => `${counts[i]} ${counts[i] === 1 ? j : j === 'inaccuracy' ? 'inaccuracies' : `${j}s`}`);
    return `${cap(who)}: ${a === null ? '-' : `${a.toFixed(1)}%`} accuracy, ${words.join(', ')}`;
  };
  $('review-accuracy').innerHTML = `${acc(0, 'white')}<br>${acc(1, 'black')}`;
  marks.innerHTML = '';
  for (const m of r.moves.filter((x) => x.judgement)) {
    const li = document.createElement('li');
    li.className = `mark ${m.judgement}`;
    li.dataset.ply = String(m.ply + 1);
    const glyph = { inaccuracy: '?!', mistake: '?', blunder: '??' }[m.judgement];
    const better = m.best && m.best !== m.uci ? ` ${m.bestSan} was best.` : '';
    li.innerHTML = `<b>${m.number} ${escapeHtml(m.san)}${glyph}</b> ${escapeHtml(m.advice)}.${escapeHtml(better)} <span class="small">(${m.before} → ${m.after})</span>`;
    li.onclick = () => page.showPly(m.ply + 1);
    marks.append(li);
  }
  if (!marks.children.length) marks.innerHTML = '<li class="small">No inaccuracy, mistake or blunder.</li>';
  // Minesweeper: every gamble on a square that might hold a mine, judged by its odds.
  for (const m of r.moves.filter((x) => x.mine)) {
    const li = document.createElement('li');
    li.className = `gamble${m.mine.hit ? ' hit' : ''}`;
    li.dataset.ply = String(m.ply + 1);
    const pct = Math.round(m.mine.chance * 100);
    const luck = m.mine.hit
      ? pct >= 100
        ? 'a certain mine: the piece was lost for nothing.'
        : `it hit one: bad luck${m.judgement ? '' : ', not a mistake'}.`
      : pct > 0
        ? 'no mine there.'
        : 'a safe square.';
    li.innerHTML = `<b>${m.number} ${escapeHtml(m.san)}</b> onto a square with a ${pct}% chance of a mine: ${luck}`;
    li.onclick = () => page.showPly(m.ply + 1);
    marks.append(li);
  }
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

/** Shows the position after `ply` moves (review), or the game again (null). */
page.showPly = (ply) => {
  const g = page.game;
  if (!g) return;
  // The last position is the game's own: no need to leave it.
  page.view = ply === null || ply === undefined || ply >= g.uci.length ? null : Math.max(0, ply);
  render();
};

// ---- PGN ----------------------------------------------------------------------

/** The game as PGN: the review's annotated PGN once reviewed, else the moves. */
page.exportPgn = () => {
  const g = page.game;
  if (!g) return '';
  if (g.review && g.review.moves.length === g.uci.length) return withResult(g.review.pgn, g);
  const result = g.over ? g.over.split(' ')[0] : '*';
  const date = g.date.slice(0, 10).replace(/-/g, '.');
  const sapper = `Sapper level ${g.level}`;
  const tags = [
    ['Event', 'Casual game on the Sapper play page'],
    ['Site', location.origin],
    ['Date', date],
    ['White', g.human === 'white' ? 'You' : sapper],
    ['Black', g.human === 'black' ? 'You' : sapper],
    ['Result', result],
    ['Variant', VARIANT_TAGS[g.variant]],
  ];
  if (g.startFen) {
    // Minesweeper: the full-information start, so that the game can be replayed.
    tags.push(['SetUp', '1'], ['FEN', g.startFen]);
  }
  if (g.over) tags.push(['Termination', g.over.split(' ').slice(1).join(' ')]);
  const head = tags.map(([k, v]) => `[${k} "${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`).join('\n');
  const first = g.variant === 'minesweeper' ? g.startFen.split(' ')[1] : (g.startFen || START).split(' ')[1];
  const startMove = Number((g.startFen || START).split(' ')[5]) || 1;
  const words = [];
  g.san.forEach((san, i) => {
    const white = (first === 'w') === (i % 2 === 0);
    const number = startMove + Math.floor((i + (first === 'w' ? 0 : 1)) / 2);
    if (white) words.push(`${number}. ${san}`);
    else words.push(i === 0 ? `${number}... ${san}` : san);
  });
  words.push(result);
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + w.length + 1 > 79) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  lines.push(line);
  return `${head}\n\n${lines.join('\n')}\n`;
};

/** The review's PGN with the game's result (a resignation is not in the moves). */
function withResult(pgn, g) {
  const result = g.over ? g.over.split(' ')[0] : '*';
  return pgn.replace(/(\s)\*\s*$/, `$1${result}\n`).replace(/\[Result "[^"]*"\]/, `[Result "${result}"]`);
}

/**
 * Imports the first game of a PGN text (read by Sapper's rules): a finished game is
 * shown for review; an unfinished one continues, the person playing the side to move.
 */
page.importPgn = (text) => {
  const a = parseAnswer(page.rules.rules(`pgn\n${text}`));
  if (a.error) throw new Error(a.error[0]);
  const variant = a.variant[0];
  const start = a.fen[0];
  const moves = a.moves[0] ? a.moves[0].split(' ') : [];
  const standard = variant !== 'minesweeper' && start === START;
  if (variant !== 'minesweeper') {
    // chessops must read the start too (Sapper's FEN of a standard variant).
    const setup = parseFen(start);
    if (setup.isErr) throw new Error(`cannot set up ${start}`);
  }
  const tags = Object.fromEntries((a.tag || []).map((t) => [t.slice(0, t.indexOf(' ')), t.slice(t.indexOf(' ') + 1)]));
  if (variant === 'minesweeper' && !/M|\*/.test(start.split(' ')[6] || '')) {
    throw new Error('a minesweeper game needs its mines: a FEN tag in the full-information form (with M)');
  }
  const probe = gameFrom({ variant, human: 'white', level: Number($('level').value), startFen: standard ? null : start, uci: moves });
  const result = a.result[0];
  const over = probe.over || (result && result !== '*' ? `${result} ${tags.Termination || 'as recorded'}` : null);
  const human = over ? (tags.Black === 'You' ? 'black' : 'white') : turn(probe);
  const g = gameFrom({ ...record(probe), id: undefined, human, over, tags });
  startWith(g);
  return page.info();
};

// ---- drawing ------------------------------------------------------------------

function render(lastUci) {
  const g = page.game;
  const mine = g.variant === 'minesweeper';
  $('board').hidden = mine;
  $('ms-board').hidden = !mine;
  $('ms-help').hidden = !mine;
  $('mines').hidden = !mine;
  $('opt-prob-label').hidden = !mine;
  // Minesweeper promotes to a queen only (docs/rules.md).
  $('promotion').disabled = mine;
  const side = turn(g);
  const dot = `<span class="dot ${side}"></span>`;
  if (g.over) {
    $('turn').innerHTML = `${dot} Game over`;
  } else if (g.thinking) {
    $('turn').innerHTML = `${dot} ${cap(side)} to move: Sapper is thinking...`;
  } else {
    $('turn').innerHTML = `${dot} ${cap(side)} to move: ${side === g.human ? 'your move' : 'Sapper'}`;
  }
  $('info-title').textContent = g.thinking ? 'Sapper thinks' : "Sapper's last search";
  $('outcome').hidden = !g.over;
  if (g.over) $('outcome').textContent = describeResult(g);
  $('events').textContent = g.events.join(' ');
  const yours = personsTurn(g) && !page.checking;
  $('hint').disabled = !yours;
  $('threat').disabled = !yours;
  $('takeback').disabled = Boolean(page.pending) || page.view !== null || g.uci.length === 0;
  $('resign').disabled = Boolean(g.over);
  const list = $('moves');
  list.innerHTML = '';
  for (let i = 0; i < g.san.length; i += 2) {
    const li = document.createElement('li');
    for (const j of [i, i + 1]) {
      if (j >= g.san.length) continue;
      const span = document.createElement('span');
      span.className = `move${page.view === j + 1 ? ' current' : ''}`;
      const m = g.review && g.review.moves[j];
      span.textContent = `${g.san[j]}${m && m.judgement ? { inaccuracy: '?!', mistake: '?', blunder: '??' }[m.judgement] : ''}`;
      if (m && m.judgement) span.classList.add(m.judgement);
      span.onclick = () => page.showPly(j + 1);
      li.append(span);
    }
    list.append(li);
  }
  renderView(g);
  renderEvalBar();
  renderReview(g);
  renderMineReport(g);
  if (mine) {
    renderMinesweeper(g, lastUci);
  } else {
    renderChessground(g, lastUci);
  }
}

function renderView(g) {
  $('view-bar').hidden = page.view === null;
  if (page.view === null) return;
  const ply = page.view;
  const m = g.review && ply > 0 ? g.review.moves[ply - 1] : null;
  const what = ply === 0 ? 'the start position' : `after ${m ? `${m.number} ${m.san}` : g.san[ply - 1]}`;
  const ev = g.review && g.review.positions[ply] ? `, Sapper: ${g.review.positions[ply].eval}` : '';
  $('view-text').textContent = `Showing ${what}${ev}`;
}

function renderChessground(g, lastUci) {
  let pos = g.pos;
  let last = lastUci || g.uci[g.uci.length - 1];
  let shapes = page.shapes;
  if (page.view !== null) {
    pos = setupPosition(g.variant, parseFen(g.startFen || START).unwrap()).unwrap();
    for (const u of g.uci.slice(0, page.view)) pos.play(normalizeMove(pos, parseUci(u)));
    last = page.view > 0 ? g.uci[page.view - 1] : undefined;
    // In the review, the better move where one was marked.
    const m = g.review && g.review.moves[page.view];
    shapes = m && m.best && m.judgement ? [shape(m.best, 'blue')] : [];
  }
  const side = pos.turn;
  const live = page.view === null;
  const movable = live && personsTurn(g) && !page.checking;
  cg.set({
    fen: makeFen(pos.toSetup()),
    orientation: g.human,
    turnColor: side,
    check: pos.isCheck() && !(live && g.over) ? side : false,
    lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
    movable: {
      color: movable ? g.human : undefined,
      dests: movable ? chessgroundDests(pos) : new Map(),
      events: { after: (orig, dest) => page.play(standardUci(g.pos, orig + dest)) || render() },
    },
  });
  cg.setAutoShapes(shapes.map((s) => ({ orig: s.orig, dest: s.dest, brush: s.brush })));
}

/** The evaluation bar: White's winning chances of the latest score (review: of the position shown). */
function renderEvalBar() {
  const bar = $('evalbar');
  bar.hidden = !$('opt-evalbar').checked;
  const g = page.game;
  let w = page.lastEval;
  let text = w ? scoreText(w) : '';
  let chances = w ? winningChances(w) : 0;
  if (g && page.view !== null && g.review && g.review.positions[page.view]) {
    const p = g.review.positions[page.view];
    chances = p.chances;
    text = p.eval;
  }
  const pct = 50 + 50 * chances;
  $('evalbar-white').style.height = `${pct.toFixed(1)}%`;
  $('evalbar-text').textContent = text;
  bar.dataset.white = pct.toFixed(1);
  bar.classList.toggle('flipped', Boolean(g) && g.human === 'black');
}

function cap(s) {
  return s[0].toUpperCase() + s.slice(1);
}

function describeResult(g) {
  const [score, ...why] = g.over.split(' ');
  const reason = why.join(' ');
  const winner = score === '1-0' ? 'white' : score === '0-1' ? 'black' : null;
  if (!winner) return `Draw (${reason}).`;
  const who = winner === g.human ? 'You win' : 'Sapper wins';
  return `${who}: ${cap(winner)} wins by ${reason} (${score}).`;
}

const PIECES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

/** Minesweeper after the game: where the mines were at the start and what became of them. */
function renderMineReport(g) {
  const el = $('mine-report');
  el.hidden = !(g.variant === 'minesweeper' && g.over);
  if (el.hidden) return;
  const field = g.startFen.split(' ')[6].split('/');
  const mines = [];
  field.forEach((row, i) => [...row].forEach((ch, f) => ch === 'M' && mines.push(`${'abcdefgh'[f]}${7 - i}`)));
  const now = g.ms.fen[0].split(' ')[6].split('/');
  const left = [];
  now.forEach((row, i) => [...row].forEach((ch, f) => (ch === 'M' || ch === '*') && left.push(`${'abcdefgh'[f]}${7 - i}`)));
  const gone = mines.filter((s) => !left.includes(s));
  el.textContent = `Where the mines were: ${mines.join(', ')}.${gone.length ? ` Set off or swept during the game: ${gone.join(', ')}.` : ''}${
    left.length ? ` Still on the board at the end: ${left.join(', ')} (shown on the board).` : ''
  }`;
}

/** The 8x10 board from the public FEN: pieces, fog, numbers, discovered mines (after the game: every mine). */
function renderMinesweeper(g, lastUci) {
  const live = page.view === null;
  const state = live ? g.ms : msState(g, page.view);
  const last = live ? lastUci || g.uci[g.uci.length - 1] : page.view > 0 ? g.uci[page.view - 1] : null;
  const fields = state.public[0].split(' ');
  const board = {};
  fields[0].split('/').forEach((row, i) => {
    const rank = 10 - i;
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else board[`${'abcdefgh'[file++]}${rank}`] = ch;
    }
  });
  const readField = (text) => {
    const out = {};
    text.split('/').forEach((row, i) => [...row].forEach((ch, f) => (out[`${'abcdefgh'[f]}${7 - i}`] = ch)));
    return out;
  };
  const field = readField(fields[6]);
  // The hidden layout, shown only once the game is over.
  const hidden = g.over ? readField(state.fen[0].split(' ')[6]) : {};
  const probs = {};
  if ($('opt-prob').checked && state.probabilities && state.probabilities[0]) {
    for (const item of state.probabilities[0].split(' ')) {
      const [sq, p] = item.split('=');
      probs[sq] = Number(p);
    }
  }
  const counter = fields[7];
  const found = Object.values(field).filter((c) => c === '*').length;
  $('mines').textContent = `Mines on the board: ${counter} (${found} discovered, ${counter - found} hidden in the fog)`;
  const legal = live && personsTurn(g) && !page.checking ? legalMoves(g) : [];
  const sel = page.selected;
  const dests = new Set(legal.filter((m) => sel && m.startsWith(sel)).map((m) => m.slice(sel.length).replace(/q$/, '')));
  const el = $('ms-board');
  el.innerHTML = '';
  const ranks = g.human === 'white' ? [10, 9, 8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const files = g.human === 'white' ? [...'abcdefgh'] : [...'hgfedcba'];
  for (const r of ranks) {
    const label = document.createElement('div');
    label.className = 'rank-label';
    label.textContent = String(r);
    el.append(label);
    for (const f of files) {
      const sq = `${f}${r}`;
      const cell = document.createElement('div');
      const light = ('abcdefgh'.indexOf(f) + r) % 2 === 0;
      cell.className = `cell ${light ? 'light' : 'dark'}`;
      cell.dataset.square = sq;
      const st = field[sq];
      if (st !== undefined) cell.classList.add('zone');
      if (st === '?' || st === '-') cell.classList.add('fog');
      if (st === '-') cell.classList.add('swept');
      if (st === '*') cell.classList.add('mine');
      if (hidden[sq] === 'M') cell.classList.add('hidden-mine');
      const ch = board[sq];
      if (ch) {
        const p = document.createElement('piece');
        p.className = `${ch === ch.toUpperCase() ? 'white' : 'black'} ${PIECES[ch.toLowerCase()]}`;
        cell.append(p);
        cell.classList.add('occupied');
      }
      if (st && /[1-8]/.test(st)) {
        const n = document.createElement('span');
        n.className = `num${ch ? ' has-piece' : ''}`;
        n.textContent = st;
        cell.append(n);
      }
      if (probs[sq] !== undefined && st === '?') {
        const p = document.createElement('span');
        p.className = 'prob';
        p.textContent = `${Math.round(probs[sq] * 100)}%`;
        p.style.setProperty('--p', String(probs[sq]));
        cell.append(p);
      }
      if (sel === sq) cell.classList.add('selected');
      if (dests.has(sq)) cell.classList.add(sq === sel ? 'sapper' : 'dest');
      cell.onclick = () => msClick(sq);
      el.append(cell);
    }
  }
  const corner = document.createElement('div');
  el.append(corner);
  for (const f of files) {
    const label = document.createElement('div');
    label.className = 'file-label';
    label.textContent = f;
    el.append(label);
  }
  if (last) {
    const m = /^([a-h]\d+)([a-h]\d+)/.exec(last);
    if (m) {
      for (const sq of [m[1], m[2]]) {
        const c = el.querySelector(`[data-square="${sq}"]`);
        if (c) c.classList.add('last');
      }
    }
  }
  let shapes = page.shapes;
  if (!live) {
    const m = g.review && g.review.moves[page.view];
    shapes = m && m.best && m.judgement ? [shape(m.best, 'blue')] : [];
  }
  drawArrows(el, shapes);
}

const BRUSH = { green: '#15781b', red: '#882020', blue: '#003088' };

/** Arrows over the minesweeper board (chessground draws its own): an SVG over the cells. */
function drawArrows(el, shapes) {
  if (!shapes.length) return;
  const box = el.getBoundingClientRect();
  const centre = (sq) => {
    const c = el.querySelector(`[data-square="${sq}"]`).getBoundingClientRect();
    return [c.left - box.left + c.width / 2, c.top - box.top + c.height / 2, c.width];
  };
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('class', 'arrows');
  svg.setAttribute('width', String(box.width));
  svg.setAttribute('height', String(box.height));
  let defs = '';
  let body = '';
  for (const s of shapes) {
    const colour = BRUSH[s.brush] || '#15781b';
    const [x1, y1, size] = centre(s.orig);
    const [x2, y2] = centre(s.dest);
    const id = `head-${s.brush}`;
    defs += `<marker id="${id}" orient="auto" markerWidth="4" markerHeight="4" refX="2.05" refY="2"><path d="M0,0 V4 L3,2 Z" fill="${colour}"/></marker>`;
    if (s.orig === s.dest) {
      // The sapper action: a ring on the pawn.
      body += `<circle data-move="${s.orig}${s.dest}" cx="${x1}" cy="${y1}" r="${size * 0.42}" fill="none" stroke="${colour}" stroke-width="${size * 0.1}" opacity="0.8"/>`;
      continue;
    }
    const len = Math.hypot(x2 - x1, y2 - y1);
    const shorten = size * 0.3;
    const ex = x2 - ((x2 - x1) / len) * shorten;
    const ey = y2 - ((y2 - y1) / len) * shorten;
    body += `<line data-move="${s.orig}${s.dest}" x1="${x1}" y1="${y1}" x2="${ex}" y2="${ey}" stroke="${colour}" stroke-width="${size * 0.16}" stroke-linecap="round" marker-end="url(#${id})" opacity="0.8"/>`;
  }
  svg.innerHTML = `<defs>${defs}</defs>${body}`;
  el.append(svg);
}

function msClick(sq) {
  const g = page.game;
  if (!personsTurn(g) || page.checking) return;
  const legal = legalMoves(g);
  const sel = page.selected;
  if (sel) {
    const move = legal.find((m) => m === sel + sq || m === `${sel}${sq}q`);
    if (move) {
      page.play(move);
      return;
    }
  }
  const fromHere = legal.some((m) => /^([a-h]\d+)/.exec(m)[1] === sq);
  page.selected = fromHere && sel !== sq ? sq : null;
  renderMinesweeper(g);
}

// ---- saved games ---------------------------------------------------------------

function renderGames() {
  const list = $('games');
  list.innerHTML = '';
  for (const r of savedGames()) {
    const li = document.createElement('li');
    const when = new Date(r.date).toLocaleString();
    const result = r.over ? r.over.split(' ')[0] : 'unfinished';
    li.innerHTML = `<button type="button">Open</button> ${escapeHtml(VARIANT_NAMES[r.variant] || r.variant)}, you ${r.human}, level ${r.level}, ${
      Math.ceil(r.uci.length / 2)
    } moves, ${escapeHtml(result)}${r.review ? ', reviewed' : ''} <span class="small">${escapeHtml(when)}</span>`;
    li.dataset.id = r.id;
    if (page.game && page.game.id === r.id) li.classList.add('current');
    li.querySelector('button').onclick = () => page.open(r.id);
    list.append(li);
  }
  if (!list.children.length) list.innerHTML = '<li class="small">No game yet.</li>';
}

/** Opens a saved game: an unfinished one goes on, a finished one is shown for review. */
page.open = (id) => {
  const r = savedGames().find((x) => x.id === id);
  if (!r) return false;
  startWith(gameFrom(r));
  return true;
};

page.savedGames = () => savedGames().map((r) => ({ id: r.id, variant: r.variant, moves: r.uci.length, over: r.over, reviewed: Boolean(r.review) }));

// ---- setup ---------------------------------------------------------------------

/** Makes `g` the game on the board; Sapper moves if it is its turn. */
function startWith(g) {
  if (page.game && page.game.thinking) page.engine.stop();
  page.selected = null;
  page.pending = null;
  page.view = null;
  page.shapes = [];
  page.lastEval = null;
  $('blunder-dialog').hidden = true;
  $('advice').textContent = '';
  $('review-status').textContent = '';
  $('variant').value = g.variant;
  fillLevels(g.variant);
  $('color').value = g.human;
  $('level').value = String(g.level);
  page.game = g;
  for (const id of ['eval', 'depth', 'nodes', 'pv']) $(id).textContent = '-';
  page.engine.send('ucinewgame');
  save(g);
  render();
  if (!g.over && turn(g) !== g.human) return engineMove(g);
  return undefined;
}

async function startGame() {
  const g = gameFrom({ variant: $('variant').value, human: $('color').value, level: Number($('level').value) });
  await startWith(g);
}

/** Starts a game with these settings (the tests' entry point). */
page.newGame = async ({ variant, color = 'white', level = 5, movetime } = {}) => {
  if (variant) $('variant').value = variant;
  $('color').value = color;
  $('level').value = String(level);
  if (movetime) page.movetime = movetime;
  await startGame();
};

function wire() {
  const s = settings();
  if (s.blunder !== undefined) $('opt-blunder').checked = s.blunder;
  if (s.evalbar !== undefined) $('opt-evalbar').checked = s.evalbar;
  if (s.prob !== undefined) $('opt-prob').checked = s.prob;
  if (s.variety !== undefined) $('opt-variety').checked = s.variety;
  for (const id of ['opt-blunder', 'opt-evalbar', 'opt-prob', 'opt-variety']) {
    $(id).onchange = () => {
      saveSettings();
      if (page.game) render();
    };
  }
  $('setup').onsubmit = (e) => {
    e.preventDefault();
    startGame();
  };
  $('hint').onclick = () => page.hint();
  $('threat').onclick = () => page.threat();
  $('takeback').onclick = () => page.takeback();
  $('resign').onclick = () => page.resign();
  $('blunder-play').onclick = () => answerBlunder(true);
  $('blunder-cancel').onclick = () => answerBlunder(false);
  $('review-start').onclick = () => page.review();
  $('view-exit').onclick = () => page.showPly(null);
  $('view-prev').onclick = () => page.showPly(Math.max(0, (page.view ?? page.game.uci.length) - 1));
  $('view-next').onclick = () => {
    const next = (page.view ?? page.game.uci.length) + 1;
    page.showPly(next > page.game.uci.length ? null : next);
  };
  $('pgn-export').onclick = () => {
    const text = page.exportPgn();
    $('pgn-text').value = text;
    const link = $('pgn-download');
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
    link.hidden = false;
    $('pgn-status').textContent = '';
  };
  $('pgn-import').onclick = () => {
    try {
      const info = page.importPgn($('pgn-text').value);
      $('pgn-status').textContent = `Imported: ${VARIANT_NAMES[info.variant]}, ${info.uci.length} half-moves${info.over ? ', finished' : ', you play on'}.`;
    } catch (err) {
      $('pgn-status').textContent = `Cannot import: ${err.message}`;
    }
  };
  window.addEventListener('resize', () => page.game && page.game.variant === 'minesweeper' && render());
}

page.ready = (async () => {
  $('engine-status').textContent = 'Loading Sapper...';
  const t0 = performance.now();
  // The same file as the engine's worker loads, so the browser fetches it once.
  const wasm = wasmFile()
    .then((file) => fetch(new URL(file, import.meta.url)))
    .then((r) => r.arrayBuffer())
    .then((b) => WebAssembly.compile(b));
  page.engine = await SapperEngine.start(new URL('sapper.js', import.meta.url));
  page.rules = instantiate(await wasm);
  page.loadMs = performance.now() - t0;
  $('engine-status').textContent = `Sapper loaded in ${Math.round(page.loadMs)} ms${
    crossOriginIsolated ? '' : ' (page not cross-origin isolated: stopping a search restarts the engine)'
  }.`;
  wire();
  // A reload resumes the current game (finished ones are shown with their review).
  const current = localStorage.getItem(CURRENT);
  const saved = current && !params.get('variant') && savedGames().find((r) => r.id === current);
  let resumed = null;
  if (saved) {
    try {
      resumed = gameFrom(saved);
    } catch (err) {
      page.errors.push(`cannot resume the saved game: ${err}`);
    }
  }
  renderGames();
  if (resumed) await startWith(resumed);
  else await startGame();
})();
