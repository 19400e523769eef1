// Tests of dist/sapper.wasm in Node (no browser): the UCI loop answers as the
// native engine does, every variant searches and returns a legal move, the rules
// requests, bad input. With SAPPER_NATIVE=path/to/sapper, also checks that a
// fixed-depth bench visits exactly as many nodes as the native binary (same search).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { test } from 'node:test';
import { instantiate, parseAnswer } from '../src/core.js';

const wasm = new URL('../dist/sapper.wasm', import.meta.url);
const module = new WebAssembly.Module(fs.readFileSync(wasm));

function engine(compiled = module) {
  const out = [];
  const e = instantiate(compiled, { onLine: (l) => out.push(l), flag: new Int32Array(new SharedArrayBuffer(4)) });
  return {
    run(line) {
      out.length = 0;
      e.uci(line);
      return out.slice();
    },
    rules: e.rules,
  };
}

test('uci lists the options and answers isready', () => {
  const e = engine();
  const lines = e.run('uci');
  assert.equal(lines.at(-1), 'uciok');
  for (const name of ['Hash', 'MultiPV', 'Skill Level', 'UCI_LimitStrength', 'UCI_Elo', 'UCI_ShowWDL', 'UCI_Variant']) {
    assert.ok(lines.some((l) => l.startsWith(`option name ${name} `)), name);
  }
  assert.ok(lines.includes('option name Threads type spin default 1 min 1 max 1'), 'one thread');
  assert.deepEqual(e.run('isready'), ['readyok']);
});

for (const variant of ['chess', 'atomic', 'kingofthehill', 'minesweeper']) {
  test(`${variant}: go depth, nodes, movetime and clocks return legal moves`, () => {
    const e = engine();
    e.run(`setoption name UCI_Variant value ${variant}`);
    e.run('setoption name UCI_ShowWDL value true');
    e.run('setoption name MultiPV value 2');
    e.run('position startpos');
    const legal = parseAnswer(e.rules(`state ${variant} startpos`)).legal[0].split(' ');
    for (const go of ['go depth 5', 'go nodes 3000', 'go movetime 150', 'go wtime 2000 btime 2000 winc 10 binc 10']) {
      const lines = e.run(go);
      const best = lines.at(-1).split(' ');
      assert.equal(best[0], 'bestmove', `${go}: ${lines.at(-1)}`);
      assert.ok(legal.includes(best[1]), `${go}: ${best[1]} legal`);
      assert.ok(lines.some((l) => / multipv 2 /.test(l)), `${go}: MultiPV 2`);
      assert.ok(lines.some((l) => / wdl \d+ \d+ \d+ /.test(l)), `${go}: wdl`);
    }
  });
}

test('Skill Level and UCI_Elo weaken play within the node budget', () => {
  const e = engine();
  e.run('setoption name Skill Level value 0');
  const lines = e.run('go movetime 5000');
  const last = lines.filter((l) => l.startsWith('info depth')).at(-1);
  const nodes = Number(/ nodes (\d+)/.exec(last)[1]);
  assert.ok(nodes <= 60, `level 0 searched ${nodes} nodes`);
  e.run('setoption name UCI_LimitStrength value true');
  e.run('setoption name UCI_Elo value 1000');
  assert.match(e.run('go movetime 5000').at(-1), /^bestmove \S+/);
});

test('d, eval, Hash and bad input', () => {
  const e = engine();
  assert.ok(e.run('d').some((l) => l.startsWith('Fen: rnbqkbnr')));
  assert.ok(e.run('eval').length > 0);
  assert.deepEqual(e.run('setoption name Hash value 64'), []);
  // Beyond what a 32-bit module can address: refused, the table stays.
  assert.match(e.run('setoption name Hash value 4096')[0], /^info string error: setoption: /);
  assert.ok(e.run('uci').includes('option name Hash type spin default 16 min 1 max 2048'));
  const bad = e.run('position fen this is no fen');
  assert.match(bad[0], /^info string error: position: /);
  assert.ok(e.run('d').some((l) => l.startsWith('Fen: rnbqkbnr')), 'position unchanged');
  assert.match(e.run('frobnicate')[0], /^Unknown command: 'frobnicate'/);
  assert.match(e.run('go perft 3').at(-1), /Nodes searched: 8902/);
});

test('pass searches the threat; review reports progress and a JSON review', () => {
  const e = engine();
  // After 1. f3 e5 2. g4 Nc6 White passes: Black's threat is Qh4#.
  e.run('position startpos moves f2f3 e7e5 g2g4 b8c6');
  assert.deepEqual(e.run('pass'), []);
  assert.equal(e.run('go depth 4').at(-1).split(' ')[1], 'd8h4');
  // In check there is no move to pass; the position stays.
  e.run('position startpos moves e2e4 f7f6 d1h5');
  assert.match(e.run('pass')[0], /^info string error: pass: .*check/);
  assert.ok(e.run('d').some((l) => / b KQkq /.test(l) && l.startsWith('Fen: ')), 'Black still to move');
  // A review: one progress line per position, then the result.
  const lines = e.run('review depth 6 atomic startpos moves g1f3 f7f6 f3g5 f6g5');
  assert.deepEqual(lines.filter((l) => l.startsWith('review progress')), [0, 1, 2, 3, 4, 5].map((i) => `review progress ${Math.min(i, 5)} 5`).slice(0, 6));
  const review = JSON.parse(lines.at(-1).replace(/^review result /, ''));
  assert.equal(review.variant, 'atomic');
  assert.equal(review.positions.length, 5);
  assert.deepEqual(review.moves.map((m) => m.san), ['Nf3', 'f6', 'Ng5', 'fxg5']);
  assert.ok(review.moves.every((m) => m.accuracy >= 0 && m.accuracy <= 100));
  assert.match(review.pgn, /\[Variant "Atomic"\]/);
  assert.match(e.run('review depth 3 chess startpos moves e2e5').at(-1), /^review error /);
  // The same through PGN text with newlines.
  const pgn = e.run('review depth 3 pgn\n[Variant "King of the Hill"]\n\n1. e4 e5 2. Ke2 *\n').at(-1);
  assert.equal(JSON.parse(pgn.replace(/^review result /, '')).moves[2].san, 'Ke2');
});

test('the rules referee a minesweeper game on the hidden layout', () => {
  const e = engine();
  const start = parseAnswer(e.rules('layout')).fen[0];
  assert.equal((start.match(/M/g) || []).length, 4);
  let moves = [];
  for (let i = 0; i < 30; i++) {
    const s = parseAnswer(e.rules(`state minesweeper fen ${start}${moves.length ? ` moves ${moves.join(' ')}` : ''}`));
    assert.ok(!s.public[0].includes('M'), 'the public FEN hides the mines');
    if (s.result[0] !== '*') break;
    e.run(`setoption name UCI_Variant value minesweeper`);
    e.run(`position fen ${s.public[0]}`);
    const best = e.run('go nodes 500').at(-1).split(' ')[1];
    assert.ok(s.legal[0].split(' ').includes(best), `${best} legal`);
    moves = [...moves, best];
  }
  assert.ok(moves.length >= 10);
  assert.match(parseAnswer(e.rules('state minesweeper fen nonsense')).error[0], /FEN/i);
});

for (const file of ['sapper.wasm', 'sapper-simd.wasm']) {
  test(`${file}: bench visits as many nodes as the native binary`, { skip: !process.env.SAPPER_NATIVE }, () => {
    const depth = '7';
    const native = execFileSync(process.env.SAPPER_NATIVE, ['bench', depth]).toString().trim().split('\n').at(-1);
    const e = engine(new WebAssembly.Module(fs.readFileSync(new URL(`../dist/${file}`, import.meta.url))));
    const ours = e.run(`bench ${depth}`).at(-1);
    assert.equal(ours.split(' ')[0], native.split(' ')[0], `${file} "${ours}" vs native "${native}"`);
  });
}

test("the play page's level strengths are docs/difficulty.md's ladder", async () => {
  const { LADDER, levelLabel } = await import('../page/levels.js');
  const doc = fs.readFileSync(new URL('../../docs/difficulty.md', import.meta.url), 'utf8');
  // | level | nodes/move | chess step | chess Elo | atomic step | atomic Elo | ... |
  const rows = doc
    .split('\n')
    .filter((l) => /^\| \d+ \|/.test(l))
    .map((l) => l.slice(1, -1).split('|').map((c) => c.trim()))
    .filter((cells) => cells.length === 10);
  assert.equal(rows.length, 21, 'levels 0..20');
  const column = { chess: 3, atomic: 5, kingofthehill: 7, minesweeper: 9 };
  for (const [variant, c] of Object.entries(column)) {
    assert.deepEqual(LADDER[variant], rows.map((r) => Number(r[c].split(' ')[0])), variant);
  }
  assert.equal(levelLabel('chess', 5), `5, about ${LADDER.chess[5]} Elo`);
  assert.equal(levelLabel('atomic', 20), `20 (full strength), +${LADDER.atomic[20]} over level 0`);
  assert.equal(levelLabel('3check', 7), '7', 'no ladder measured');
});
