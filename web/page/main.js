// The play page: a person against Sapper in the browser.
//
// Chess, atomic and king of the hill: lichess's chessground (board) and chessops
// (rules). Minesweeper: the page is the referee. It draws the hidden layout, keeps
// the full-information position, and sends Sapper only the public FEN (route 2 of
// docs/site-integration.md); the rules (legal moves, what a move does on the true
// layout, the public view, the end) come from Sapper's own WebAssembly module,
// instantiated here on the page's thread (web/crate/src/rules.rs).
import { Chessground } from 'chessground';
import { parseFen, makeFen } from 'chessops/fen';
import { setupPosition } from 'chessops/variant';
import { chessgroundDests } from 'chessops/compat';
import { parseUci, makeSquare, parseSquare, squareFile } from 'chessops/util';
import { makeSanAndPlay, makeSanVariation } from 'chessops/san';
import { normalizeMove } from 'chessops/chess';
import { SapperEngine } from '../src/engine.js';
import { instantiate, parseAnswer } from '../src/core.js';

const $ = (id) => document.getElementById(id);
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const params = new URLSearchParams(location.search);

const page = {
  engine: null,
  rules: null, // Sapper's rules (WebAssembly), for minesweeper
  game: null,
  errors: [], // illegal engine moves and other faults, for the tests
  movetime: Number(params.get('movetime') || 1000),
};
window.sapperPage = page;

for (let l = 0; l <= 20; l++) {
  const o = document.createElement('option');
  o.value = String(l);
  o.textContent = l === 20 ? '20 (full strength)' : String(l);
  $('level').append(o);
}
$('level').value = params.get('level') || '5';
$('variant').value = params.get('variant') || 'chess';
$('color').value = params.get('color') || 'white';

const cg = Chessground($('board'), { coordinates: true, movable: { free: false, showDests: true }, premovable: { enabled: false } });

// ---- one game ---------------------------------------------------------------

/** The state of the game being played; `rules`-specific parts per variant. */
function newGameState(variant, human, level) {
  const g = { variant, human, level, uci: [], san: [], over: null, thinking: false, events: [], id: Math.random() };
  if (variant === 'minesweeper') {
    g.startFen = parseAnswer(page.rules.rules('layout')).fen[0];
    msRefresh(g);
  } else {
    g.pos = setupPosition(variant, parseFen(START).unwrap()).unwrap();
    g.seen = new Map([[repetitionKey(g.pos), 1]]);
  }
  return g;
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
      // Every promotion piece, not only the queen standardUci picks.
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
    const why = g.variant === 'atomic' ? 'king exploded' : 'king on the hill';
    return `${score(pos.variantOutcome().winner)} ${why}`;
  }
  if (pos.isCheckmate()) return `${score(pos.outcome().winner)} checkmate`;
  if (pos.isStalemate()) return '1/2-1/2 stalemate';
  if (pos.isInsufficientMaterial()) return '1/2-1/2 insufficient material';
  if (repeats >= 3) return '1/2-1/2 threefold repetition';
  if (pos.halfmoves >= 100) return '1/2-1/2 50-move rule';
  return null;
}

/** Asks Sapper's rules for the minesweeper game's current state. */
function msRefresh(g) {
  const moves = g.uci.length ? ` moves ${g.uci.join(' ')}` : '';
  const answer = parseAnswer(page.rules.rules(`state minesweeper fen ${g.startFen}${moves}`));
  if (answer.error) throw new Error(answer.error[0]);
  g.ms = answer;
}

/** What to send the engine: the whole game for the 8x8 variants, the public FEN in minesweeper. */
function enginePosition(g) {
  if (g.variant === 'minesweeper') return { fen: g.ms.public[0], moves: [] };
  return { fen: 'startpos', moves: g.uci.slice() };
}

// ---- the engine's move -------------------------------------------------------

async function engineMove(g) {
  g.thinking = true;
  render();
  const { fen, moves } = enginePosition(g);
  let result;
  try {
    result = await page.engine.bestMove(fen, {
      variant: g.variant,
      level: g.level,
      movetime: page.movetime,
      moves,
      onInfo: (info) => showInfo(g, info),
    });
  } catch (err) {
    page.errors.push(String(err));
    $('engine-status').textContent = `Engine error: ${err.message}`;
    g.thinking = false;
    return;
  }
  g.thinking = false;
  if (page.game !== g) return; // a new game started meanwhile
  const best = result.bestmove;
  if (!best || !isLegal(g, best)) {
    page.errors.push(`illegal engine move ${best} after ${g.uci.join(' ')}`);
    $('engine-status').textContent = `Sapper answered ${best}, which is not legal here.`;
    render();
    return;
  }
  applyMove(g, best);
  render(best);
}

function showInfo(g, info) {
  if (page.game !== g || !info.score) return;
  // Scores come from the side to move's (Sapper's) view; the page shows White's.
  const sign = turn(g) === 'white' ? 1 : -1;
  const s = info.score;
  $('eval').textContent =
    s.mate !== undefined ? `${s.mate * sign > 0 ? 'White' : 'Black'} mates in ${Math.abs(s.mate)}` : `${((s.cp * sign) / 100 >= 0 ? '+' : '')}${((s.cp * sign) / 100).toFixed(2)} (White's view)`;
  $('depth').textContent = `${info.depth}${info.seldepth ? `/${info.seldepth}` : ''}`;
  $('nodes').textContent = `${info.nodes ?? '-'}${info.nps ? ` (${Math.round(info.nps / 1000)}k nodes/s)` : ''}`;
  let line = (info.pv || []).join(' ');
  if (g.variant !== 'minesweeper') {
    try {
      line = makeSanVariation(g.pos, info.pv.map((u) => normalizeMove(g.pos, parseUci(u))));
    } catch {
      /* keep UCI */
    }
  }
  $('pv').textContent = line;
}

// ---- the person's move ----------------------------------------------------------

/** Plays the person's move `uci` if it is legal and it is their turn; true if played. */
page.play = (uci) => {
  const g = page.game;
  if (!g || g.over || g.thinking || turn(g) !== g.human) return false;
  const legal = legalMoves(g);
  const move = legal.includes(uci) ? uci : legal.find((m) => m === `${uci}q`);
  if (!move) return false;
  page.selected = null;
  applyMove(g, move);
  render(move);
  if (!g.over) engineMove(g);
  return true;
};

/** The test driver's view of the game. */
page.info = () => {
  const g = page.game;
  return g && {
    variant: g.variant,
    human: g.human,
    turn: turn(g),
    legal: legalMoves(g),
    uci: g.uci.slice(),
    san: g.san.slice(),
    over: g.over,
    thinking: g.thinking,
    position: enginePosition(g),
    startFen: g.startFen || null,
    errors: page.errors.slice(),
  };
};

// ---- drawing ------------------------------------------------------------------

function render(lastUci) {
  const g = page.game;
  const mine = g.variant === 'minesweeper';
  $('board').hidden = mine;
  $('ms-board').hidden = !mine;
  $('ms-help').hidden = !mine;
  $('mines').hidden = !mine;
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
  const list = $('moves');
  list.innerHTML = '';
  for (let i = 0; i < g.san.length; i += 2) {
    const li = document.createElement('li');
    li.textContent = `${g.san[i]}${g.san[i + 1] ? `  ${g.san[i + 1]}` : ''}`;
    list.append(li);
  }
  if (mine) {
    renderMinesweeper(g, lastUci || g.uci[g.uci.length - 1]);
  } else {
    const last = lastUci || g.uci[g.uci.length - 1];
    cg.set({
      fen: makeFen(g.pos.toSetup()),
      orientation: g.human,
      turnColor: side,
      check: g.pos.isCheck() && !g.over ? side : false,
      lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
      movable: {
        color: g.over || g.thinking ? undefined : g.human,
        dests: g.over || g.thinking || side !== g.human ? new Map() : chessgroundDests(g.pos),
        events: { after: (orig, dest) => page.play(standardUci(g.pos, orig + dest)) || render() },
      },
    });
  }
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

/** The 8x10 board from the public FEN: pieces, fog, numbers, discovered mines. */
function renderMinesweeper(g, last) {
  const fields = g.ms.public[0].split(' ');
  const board = {};
  fields[0].split('/').forEach((row, i) => {
    const rank = 10 - i;
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else board[`${'abcdefgh'[file++]}${rank}`] = ch;
    }
  });
  const field = {};
  fields[6].split('/').forEach((row, i) => {
    [...row].forEach((ch, f) => (field[`${'abcdefgh'[f]}${7 - i}`] = ch));
  });
  const counter = fields[7];
  const found = Object.values(field).filter((c) => c === '*').length;
  $('mines').textContent = `Mines on the board: ${counter} (${found} discovered, ${counter - found} hidden in the fog)`;
  const legal = g.over || g.thinking || turn(g) !== g.human ? [] : legalMoves(g);
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
      const state = field[sq];
      if (state !== undefined) cell.classList.add('zone');
      if (state === '?') cell.classList.add('fog');
      if (state === '*') cell.classList.add('mine');
      const ch = board[sq];
      if (ch) {
        const p = document.createElement('piece');
        p.className = `${ch === ch.toUpperCase() ? 'white' : 'black'} ${PIECES[ch.toLowerCase()]}`;
        cell.append(p);
        cell.classList.add('occupied');
      }
      if (state && /[1-8]/.test(state)) {
        const n = document.createElement('span');
        n.className = `num${ch ? ' has-piece' : ''}`;
        n.textContent = state;
        cell.append(n);
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
}

function msClick(sq) {
  const g = page.game;
  if (!g || g.over || g.thinking || turn(g) !== g.human) return;
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

// ---- setup ---------------------------------------------------------------------

async function startGame() {
  const variant = $('variant').value;
  const human = $('color').value;
  const level = Number($('level').value);
  page.selected = null;
  const g = newGameState(variant, human, level);
  page.game = g;
  for (const id of ['eval', 'depth', 'nodes', 'pv']) $(id).textContent = '-';
  page.engine.send('ucinewgame');
  render();
  if (turn(g) !== human) await engineMove(g);
}

/** Starts a game with these settings (the tests' entry point). */
page.newGame = async ({ variant, color = 'white', level = 5, movetime } = {}) => {
  if (variant) $('variant').value = variant;
  $('color').value = color;
  $('level').value = String(level);
  if (movetime) page.movetime = movetime;
  await startGame();
};

page.ready = (async () => {
  $('engine-status').textContent = 'Loading Sapper...';
  const t0 = performance.now();
  const wasm = fetch(new URL('sapper.wasm', import.meta.url))
    .then((r) => r.arrayBuffer())
    .then((b) => WebAssembly.compile(b));
  page.engine = await SapperEngine.start(new URL('sapper.js', import.meta.url));
  page.rules = instantiate(await wasm);
  page.loadMs = performance.now() - t0;
  $('engine-status').textContent = `Sapper loaded in ${Math.round(page.loadMs)} ms${
    crossOriginIsolated ? '' : ' (page not cross-origin isolated: stopping a search restarts the engine)'
  }.`;
  $('setup').onsubmit = (e) => {
    e.preventDefault();
    startGame();
  };
  await startGame();
})();
