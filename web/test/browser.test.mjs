// Tests in a real browser: Debian's chromium, headless, driven by playwright-core,
// against dist/ served on localhost (test/server.mjs, cross-origin isolated; the
// /plain/ prefix without isolation). Screenshots go to ../target/web-screenshots/.
//   CHROMIUM=/usr/bin/chromium node test/browser.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { parseFen } from 'chessops/fen';
import { setupPosition } from 'chessops/variant';
import { parseUci } from 'chessops/util';
import { normalizeMove } from 'chessops/chess';
import { instantiate, parseAnswer } from '../src/core.js';
import { serve } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const shots = path.join(here, '..', '..', 'target', 'web-screenshots');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
let server;
let browser;
let base;

before(async () => {
  server = await serve(dist);
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  fs.mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function openPage(prefix = '', query = '') {
  const page = await browser.newPage({ viewport: { width: 1100, height: 820 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  // Any console error (a failed request such as a missing favicon included).
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  await page.goto(`${base}${prefix}/index.html${query}`);
  await page.waitForFunction(() => window.sapperPage && window.sapperPage.engine && window.sapperPage.game);
  return { page, problems };
}

/** In the page: a fresh worker; lines from it; milliseconds until a line matches. */
const WORKER_HELPERS = `
  window.__w = new Worker('sapper.js');
  window.__lines = [];
  window.__w.onmessage = (e) => window.__lines.push([performance.now(), e.data]);
  window.__waitFor = (re, from = 0, timeout = 20000) => new Promise((resolve, reject) => {
    const t0 = performance.now();
    const poll = () => {
      const hit = window.__lines.slice(from).find(([, l]) => re.test(l));
      if (hit) return resolve(hit);
      if (performance.now() - t0 > timeout) return reject(new Error('timeout waiting for ' + re));
      setTimeout(poll, 1);
    };
    poll();
  });
`;

async function stopWithin100ms(page) {
  return page.evaluate(async (helpers) => {
    eval(helpers);
    const t0 = performance.now();
    window.__w.postMessage('uci');
    const [tUciok] = await window.__waitFor(/^uciok$/);
    window.__w.postMessage('isready');
    await window.__waitFor(/^readyok$/);
    window.__w.postMessage('position startpos moves e2e4');
    window.__w.postMessage('go infinite');
    await window.__waitFor(/^info depth 6 /);
    // isready is answered while the search runs.
    let from = window.__lines.length;
    let t = performance.now();
    window.__w.postMessage('isready');
    const [tReady] = await window.__waitFor(/^readyok$/, from);
    const readyMs = tReady - t;
    await new Promise((r) => setTimeout(r, 300));
    from = window.__lines.length;
    t = performance.now();
    window.__w.postMessage('stop');
    const [tBest, best] = await window.__waitFor(/^bestmove /, from);
    const stopMs = tBest - t;
    // The engine goes on working after the stop.
    from = window.__lines.length;
    window.__w.postMessage('go depth 4');
    const [, again] = await window.__waitFor(/^bestmove /, from);
    window.__w.terminate();
    return { uciokMs: tUciok - t0, readyMs, stopMs, best, again, isolated: crossOriginIsolated };
  }, WORKER_HELPERS);
}

test('chromium, which has WebAssembly SIMD, loads the SIMD build only', async () => {
  server.requests.length = 0;
  const { page, problems } = await openPage();
  await page.evaluate(() => window.sapperPage.ready);
  const wasm = server.requests.filter((u) => u.endsWith('.wasm'));
  assert.ok(wasm.length >= 1, `no engine file requested: ${server.requests}`);
  assert.ok(wasm.every((u) => u === '/sapper-simd.wasm'), `requested ${wasm}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the worker answers uci and isready, and stop ends go infinite within 100 ms (cross-origin isolated)', async () => {
  const { page, problems } = await openPage();
  const r = await stopWithin100ms(page);
  console.log(`# isolated: uciok after ${r.uciokMs.toFixed(0)} ms, readyok during search ${r.readyMs.toFixed(1)} ms, stop answered in ${r.stopMs.toFixed(1)} ms`);
  assert.equal(r.isolated, true);
  assert.ok(r.stopMs < 100, `stop took ${r.stopMs} ms`);
  assert.ok(r.readyMs < 100, `isready took ${r.readyMs} ms`);
  assert.match(r.best, /^bestmove [a-h][1-8][a-h][1-8]/);
  assert.match(r.again, /^bestmove [a-h][1-8][a-h][1-8]/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('without cross-origin isolation stop still ends go infinite within 100 ms (restart fallback)', async () => {
  const { page, problems } = await openPage('/plain');
  const r = await stopWithin100ms(page);
  console.log(`# not isolated: uciok after ${r.uciokMs.toFixed(0)} ms, stop answered in ${r.stopMs.toFixed(1)} ms`);
  assert.equal(r.isolated, false);
  assert.ok(r.stopMs < 100, `stop took ${r.stopMs} ms`);
  assert.match(r.best, /^bestmove [a-h][1-8][a-h][1-8]/);
  assert.match(r.again, /^bestmove [a-h][1-8][a-h][1-8]/);
  assert.deepEqual(problems, []);
  await page.close();
});

/** Replays `moves` with chessops (8x8) or Sapper's rules (minesweeper); throws on an illegal one. */
function checkLegal(variant, moves, startFen) {
  if (variant === 'minesweeper') {
    const rules = instantiate(new WebAssembly.Module(fs.readFileSync(path.join(dist, 'sapper.wasm'))));
    for (let i = 1; i <= moves.length; i++) {
      const before = parseAnswer(rules.rules(`state minesweeper fen ${startFen}${i > 1 ? ` moves ${moves.slice(0, i - 1).join(' ')}` : ''}`));
      assert.ok(before.legal[0].split(' ').includes(moves[i - 1]), `move ${i} ${moves[i - 1]} legal`);
    }
    return;
  }
  const pos = setupPosition(variant, parseFen(START).unwrap()).unwrap();
  moves.forEach((uci, i) => {
    const move = normalizeMove(pos, parseUci(uci));
    assert.ok(pos.isLegal(move), `move ${i + 1} ${uci} legal in ${variant}`);
    pos.play(move);
  });
}

for (const variant of ['chess', 'atomic', 'kingofthehill', 'minesweeper']) {
  test(`${variant}: 20 moves on the page against level 1, every engine move legal`, async () => {
    const { page, problems } = await openPage('', `?variant=${variant}`);
    let best = null;
    // Atomic games between weak sides often end early (a game in 4 or 5 reached
    // 20 moves in trials): up to 20 games, each checked, about a second each.
    for (let attempt = 0; attempt < 20 && !(best && best.uci.length >= 40); attempt++) {
      const color = attempt % 2 ? 'black' : 'white';
      const game = page.evaluate(
        async ({ variant, color }) => {
          const p = window.sapperPage;
          await p.newGame({ variant, color, level: 1, movetime: 300 });
          // The person's side is played by a second engine through the module API.
          const { SapperEngine } = await import('./engine.js');
          const helper = window.__helper || (window.__helper = await SapperEngine.start());
          const idle = () => new Promise((r) => {
            const poll = () => (p.info().thinking ? setTimeout(poll, 5) : r());
            poll();
          });
          let shot = false;
          await idle();
          while (!p.info().over && p.info().uci.length < 40) {
            const info = p.info();
            if (info.turn === info.human) {
              const { bestmove } = await helper.bestMove(info.position.fen, { variant, level: 2, nodes: 300, moves: info.position.moves });
              if (!p.play(bestmove)) throw new Error(`the page refused the helper's move ${bestmove}`);
            }
            await idle();
            if (!shot && p.info().uci.length >= (variant === 'minesweeper' ? 6 : 12)) {
              shot = true;
              window.__shotNow = true;
              await new Promise((r) => {
                const poll = () => (window.__shotNow ? setTimeout(poll, 5) : r());
                poll();
              });
            }
            if (p.info().errors.length) break;
          }
          return p.info();
        },
        { variant, color },
      ).catch((e) => ({ error: String(e) }));
      // Mid-game (move 7; minesweeper move 4, while fog remains), the page waits while a screenshot is taken.
      let done = false;
      game.then(() => (done = true));
      while (!done) {
        if (await page.evaluate(() => window.__shotNow === true).catch(() => false)) {
          await page.screenshot({ path: path.join(shots, `${variant}${attempt ? `-${attempt}` : ''}.png`) });
          await page.evaluate(() => (window.__shotNow = false));
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      const played = await game;
      assert.ok(!played.error, played.error);
      assert.deepEqual(played.errors, [], 'the page found no illegal engine move');
      checkLegal(variant, played.uci, played.startFen);
      console.log(`# ${variant} game ${attempt + 1} (person ${color}): ${played.uci.length} plies, ${played.over || 'unfinished'}`);
      if (!best || played.uci.length > best.uci.length) best = played;
    }
    assert.ok(best.uci.length >= 40, `a game of 20 moves (${best.uci.length} plies, ${best.over})`);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('a person moves by clicking: chessground in chess, the page board (and the sapper action) in minesweeper', async () => {
  const { page, problems } = await openPage('', '?variant=chess&level=0');
  await page.evaluate(() => window.sapperPage.newGame({ variant: 'chess', color: 'white', level: 0, movetime: 100 }));
  const box = await page.locator('#board cg-board').boundingBox();
  const at = (file, rank) => [box.x + (file + 0.5) * (box.width / 8), box.y + (7.5 - rank) * (box.height / 8)];
  await page.mouse.click(...at(4, 1)); // e2
  await page.mouse.click(...at(4, 3)); // e4
  await page.waitForFunction(() => window.sapperPage.info().uci.length >= 2);
  assert.equal((await page.evaluate(() => window.sapperPage.info().uci))[0], 'e2e4');

  await page.evaluate(() => window.sapperPage.newGame({ variant: 'minesweeper', color: 'white', level: 0, movetime: 100 }));
  await page.click('[data-square="d2"]');
  await page.click('[data-square="d2"]'); // the pawn again: its sapper action (sweeps d3)
  await page.waitForFunction(() => window.sapperPage.info().uci.length >= 2);
  assert.equal((await page.evaluate(() => window.sapperPage.info().uci))[0], 'd2d2');
  await page.click('[data-square="g1"]');
  await page.click('[data-square="f3"]');
  await page.waitForFunction(() => window.sapperPage.info().uci.length >= 4);
  assert.equal((await page.evaluate(() => window.sapperPage.info().uci))[2], 'g1f3');
  // Not the person's piece, or not legal: nothing happens.
  await page.click('[data-square="a1"]');
  await page.click('[data-square="a5"]');
  assert.equal((await page.evaluate(() => window.sapperPage.info().uci)).length, 4);
  assert.deepEqual(problems, []);
  await page.close();
});

/** In the page: waits until Sapper is not thinking and no move is being checked. */
const IDLE = `window.__idle = () => new Promise((r) => {
  const poll = () => {
    const i = window.sapperPage.info();
    return i.thinking || i.checking ? setTimeout(poll, 10) : r(i);
  };
  poll();
});`;

/** The threat `uci` is a legal move of the side not to move in the position after `moves` (8x8, chessops). */
function threatIsLegal(variant, moves, uci) {
  const pos = setupPosition(variant, parseFen(START).unwrap()).unwrap();
  for (const m of moves) pos.play(normalizeMove(pos, parseUci(m)));
  const setup = pos.toSetup();
  setup.turn = setup.turn === 'white' ? 'black' : 'white';
  setup.epSquare = undefined;
  const passed = setupPosition(variant, setup).unwrap();
  return passed.isLegal(normalizeMove(passed, parseUci(uci)));
}

for (const variant of ['chess', 'atomic', 'kingofthehill', '3check', 'minesweeper']) {
  test(`${variant}: hint and threat arrows, takeback, a reload resumes, resign, review`, async () => {
    const query = '?movetime=200&hinttime=300&reviewdepth=8&reviewnodes=' + (variant === 'minesweeper' ? '3000' : '0');
    const { page, problems } = await openPage('', query);
    await page.evaluate(IDLE);
    await page.evaluate((variant) => window.sapperPage.newGame({ variant, color: 'white', level: 1, movetime: 200 }), variant);
    await page.evaluate(() => window.__idle());
    let arrows = 0;
    for (let i = 0; i < 4; i++) {
      const info = await page.evaluate(() => window.__idle());
      if (info.over) break;
      const hint = await page.evaluate(() => window.sapperPage.hint());
      assert.ok(info.legal.includes(hint), `hint ${hint} is legal`);
      let shapes = (await page.evaluate(() => window.sapperPage.info())).shapes;
      assert.deepEqual(shapes.filter((s) => s.brush === 'green').map((s) => s.orig + s.dest), [hint.slice(0, 4).replace(/q$/, '')]);
      const threat = await page.evaluate(() => window.sapperPage.threat());
      shapes = (await page.evaluate(() => window.sapperPage.info())).shapes;
      if (threat) {
        assert.ok(shapes.some((s) => s.brush === 'red' && threat.startsWith(s.orig + s.dest)), `red arrow for ${threat}`);
        if (variant !== 'minesweeper') assert.ok(threatIsLegal(variant, info.uci, threat), `threat ${threat} legal after passing`);
      }
      // The arrows are drawn: chessground's SVG shapes, or the page's over the 8x10 board.
      const drawn = await page.evaluate((ms) => document.querySelectorAll(ms ? '#ms-board svg.arrows line, #ms-board svg.arrows circle' : '#board svg.cg-shapes g').length, variant === 'minesweeper');
      assert.ok(drawn >= shapes.length, `${drawn} arrows drawn for ${shapes.length} shapes`);
      arrows += drawn;
      if (i === 1 && variant !== 'minesweeper') await page.screenshot({ path: path.join(shots, `${variant}-hint-threat.png`) });
      if (i === 1 && variant === 'minesweeper') {
        // The mine probabilities over the fog, on request.
        await page.click('#opt-prob');
        const probs = await page.evaluate(() => [...document.querySelectorAll('#ms-board .prob')].map((e) => e.textContent));
        assert.ok(probs.length > 0 && probs.every((p) => /^\d+%$/.test(p)), `probabilities ${probs.slice(0, 5)}`);
        await page.screenshot({ path: path.join(shots, 'minesweeper-hint-threat.png') });
      }
      assert.ok(await page.evaluate((m) => window.sapperPage.play(m), hint), `the page plays the hint ${hint}`);
      await page.evaluate(() => window.__idle());
    }
    assert.ok(arrows > 0);
    // Takeback: the person's move and Sapper's reply.
    let info = await page.evaluate(() => window.__idle());
    if (!info.over) {
      const before = info.uci.length;
      assert.equal(await page.evaluate(() => window.sapperPage.takeback()), true);
      info = await page.evaluate(() => window.sapperPage.info());
      assert.equal(info.uci.length, before - 2);
      assert.equal(info.turn, 'white');
    }
    // A reload resumes the game where it was.
    await page.reload();
    await page.waitForFunction(() => window.sapperPage && window.sapperPage.game);
    await page.evaluate(IDLE);
    const resumed = await page.evaluate(() => window.__idle());
    assert.equal(resumed.id, info.id);
    assert.equal(resumed.variant, variant);
    assert.deepEqual(resumed.uci, info.uci);
    if (!resumed.over) {
      // It goes on: one more move each.
      assert.ok(await page.evaluate((m) => window.sapperPage.play(m), resumed.legal[0]));
      const after = await page.evaluate(() => window.__idle());
      assert.ok(after.uci.length >= resumed.uci.length + 1);
      // The engine's reply may end the game (an atomic blast): resign only a live one.
      if (!after.over) {
        assert.equal(await page.evaluate(() => window.sapperPage.resign()), true);
      }
    }
    info = await page.evaluate(() => window.sapperPage.info());
    assert.ok(info.over, 'the game is over');
    const saved = await page.evaluate(() => window.sapperPage.savedGames());
    assert.ok(saved.some((g) => g.id === info.id && g.over === info.over), 'the finished game is in the list');
    // The review: a graph and the marks; a click on the graph shows that move's position.
    assert.equal(await page.isVisible('#review-start'), true);
    await page.click('#review-start');
    await page.waitForFunction(() => window.sapperPage.info().reviewed || /No review/.test(document.getElementById('review-status').textContent), null, { timeout: 120000 });
    const status = await page.textContent('#review-status');
    assert.ok(!/No review/.test(status), status);
    const r = await page.evaluate(() => window.sapperPage.game.review);
    assert.equal(r.positions.length, info.uci.length + 1);
    assert.deepEqual(r.moves.map((m) => m.uci), info.uci);
    assert.ok(r.positions.every((p) => p.chances >= -1 && p.chances <= 1));
    assert.ok(await page.isVisible('#review-graph svg'));
    assert.match(await page.textContent('#review-accuracy'), /White: .*accuracy/);
    const box = await page.locator('#review-graph svg').boundingBox();
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
    const view = await page.evaluate(() => window.sapperPage.info().view);
    const expected = Math.round(((box.width * 0.5 * (656 / box.width) - 8) / 640) * info.uci.length);
    assert.ok(Math.abs(view - expected) <= 1, `view ${view}, expected about ${expected}`);
    assert.equal(await page.isVisible('#view-bar'), true);
    await page.waitForTimeout(400); // chessground's animation to the position shown
    await page.screenshot({ path: path.join(shots, `${variant}-review.png`), fullPage: true });
    // The saved game keeps its review.
    assert.ok((await page.evaluate(() => window.sapperPage.savedGames())).find((g) => g.id === info.id).reviewed);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('PGN import and export, and the blunder check asks before a blunder is sent', async () => {
  const { page, problems } = await openPage('', '?hinttime=600&movetime=200');
  await page.evaluate(IDLE);
  const imported = await page.evaluate(() => window.sapperPage.importPgn('[Event "test"]\n\n1. e4 d5 *\n'));
  assert.deepEqual(imported.uci, ['e2e4', 'd7d5']);
  assert.equal(imported.human, 'white');
  assert.equal(imported.over, null);
  await page.click('#opt-blunder');
  // 2. Qg4?? leaves the queen to Bxg4: the page asks and does not send the move.
  assert.equal(await page.evaluate(() => window.sapperPage.play('d1g4')), true);
  let info = await page.evaluate(() => window.__idle());
  assert.equal(info.dialog, true, 'the blunder dialog is shown');
  assert.match(await page.textContent('#blunder-text'), /Qg4 looks like a blunder/);
  await page.screenshot({ path: path.join(shots, 'chess-blunder-check.png') });
  await page.click('#blunder-cancel');
  info = await page.evaluate(() => window.sapperPage.info());
  assert.deepEqual(info.uci, ['e2e4', 'd7d5']);
  assert.equal(info.dialog, false);
  // An ordinary move goes through the check and Sapper answers.
  assert.equal(await page.evaluate(() => window.sapperPage.play('b1c3')), true);
  info = await page.evaluate(() => window.__idle());
  assert.equal(info.dialog, false);
  assert.equal(info.uci.length, 4);
  assert.equal(info.uci[2], 'b1c3');
  // Export, then import the export: the same game.
  await page.click('#pgn-panel summary');
  await page.click('#pgn-export');
  const pgn = await page.inputValue('#pgn-text');
  assert.match(pgn, /\[Variant "Standard"\]/);
  assert.match(pgn, /^1\. e4 d5 2\. Nc3 \S+ \*$/m);
  const again = await page.evaluate((t) => window.sapperPage.importPgn(t), pgn);
  assert.deepEqual(again.uci, info.uci);
  // A bad PGN is refused with the reason.
  await page.fill('#pgn-text', '1. e4 e5 2. Ke3 *');
  await page.click('#pgn-import');
  assert.match(await page.textContent('#pgn-status'), /Cannot import: .*Ke3/);
  assert.deepEqual(problems, []);
  await page.close();
});
