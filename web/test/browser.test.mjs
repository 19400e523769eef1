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
