// The review time of one game, natively (`sapper review`) and in chromium
// (`engine.review()` through the worker), for web/README.md (not a test: timings
// vary with the machine's load). Rounds alternate between the two.
//   SAPPER_NATIVE=../target/release/sapper node test/measure-review.mjs [depth] [rounds]
// The game: D. Byrne - R. Fischer, New York 1956, 41 moves (83 positions).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const depth = Number(process.argv[2] || 12);
const rounds = Number(process.argv[3] || 2);
const PGN = `[Event "Third Rosenwald Trophy"]
[Site "New York"]
[Date "1956.10.17"]
[White "Donald Byrne"]
[Black "Robert James Fischer"]
[Result "0-1"]

1. Nf3 Nf6 2. c4 g6 3. Nc3 Bg7 4. d4 O-O 5. Bf4 d5 6. Qb3 dxc4 7. Qxc4 c6 8. e4 Nbd7
9. Rd1 Nb6 10. Qc5 Bg4 11. Bg5 Na4 12. Qa3 Nxc3 13. bxc3 Nxe4 14. Bxe7 Qb6 15. Bc4
Nxc3 16. Bc5 Rfe8+ 17. Kf1 Be6 18. Bxb6 Bxc4+ 19. Kg1 Ne2+ 20. Kf1 Nxd4+ 21. Kg1 Ne2+
22. Kf1 Nc3+ 23. Kg1 axb6 24. Qb4 Ra4 25. Qxb6 Nxd1 26. h3 Rxa2 27. Kh2 Nxf2 28. Re1
Rxe1 29. Qd8+ Bf8 30. Nxe1 Bd5 31. Nf3 Ne4 32. Qb8 b5 33. h4 h5 34. Ne5 Kg7 35. Kg1
Bc5+ 36. Kf1 Ng3+ 37. Ke1 Bb4+ 38. Kd1 Bb3+ 39. Kc1 Ne2+ 40. Kb1 Nc3+ 41. Kc1 Rc2# 0-1
`;

const file = path.join(os.tmpdir(), 'sapper-byrne-fischer.pgn');
fs.writeFileSync(file, PGN);
const server = await serve(dist);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
await page.waitForFunction(() => window.sapperPage && window.sapperPage.game);
for (let round = 1; round <= rounds; round++) {
  if (process.env.SAPPER_NATIVE) {
    const t0 = performance.now();
    const run = spawnSync(process.env.SAPPER_NATIVE, ['review', file, '--depth', String(depth)], { encoding: 'utf8' });
    const ms = performance.now() - t0;
    const summary = run.stdout.trim().split('\n').at(-1);
    console.log(`round ${round} native: ${(ms / 1000).toFixed(2)} s wall (${summary})`);
  }
  const r = await page.evaluate(
    async ({ pgn, depth }) => {
      const { SapperEngine } = await import('./engine.js');
      const engine = await SapperEngine.start();
      const t0 = performance.now();
      const review = await engine.review(pgn, { depth });
      const ms = performance.now() - t0;
      engine.terminate();
      return { ms, positions: review.positions.length, nodes: review.nodes, inside: review.ms };
    },
    { pgn: PGN, depth },
  );
  console.log(`round ${round} browser: ${(r.ms / 1000).toFixed(2)} s wall (${r.positions} positions, ${r.nodes} nodes, ${(r.inside / 1000).toFixed(2)} s inside the engine)`);
}
await browser.close();
server.close();
