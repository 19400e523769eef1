// Measurements for web/README.md (not a test: timings vary with the machine's load).
//   SAPPER_NATIVE=../target/release/sapper node test/measure.mjs [bench depth] [rounds]
// (SAPPER_DIST=folder measures another build's dist/, e.g. a simd128 one.)
// Prints the download size of the page (raw, gzip, brotli), the time from
// `new Worker('sapper.js')` to `uciok` (first and repeated), and `bench` nodes per
// second in chromium against the native binary, alternating rounds.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = process.env.SAPPER_DIST || path.join(here, '..', 'dist');
const depth = process.argv[2] || '13';
const rounds = Number(process.argv[3] || 3);

let total = [0, 0, 0];
// The page loads one engine file: the SIMD one in chromium.
for (const f of ['index.html', 'play.js', 'play.css', 'sapper.js', 'sapper-engine.js', 'sapper-simd.wasm']) {
  const data = fs.readFileSync(path.join(dist, f));
  const gz = zlib.gzipSync(data, { level: 9 }).length;
  const br = zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  total = [total[0] + data.length, total[1] + gz, total[2] + br];
  console.log(`size ${f}: ${data.length} raw, ${gz} gzip, ${br} brotli`);
}
console.log(`size page total: ${total[0]} raw, ${total[1]} gzip, ${total[2]} brotli`);

const server = await serve(dist);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
await page.waitForFunction(() => window.sapperPage && window.sapperPage.game);
console.log(`page: engine and rules loaded ${(await page.evaluate(() => window.sapperPage.loadMs)).toFixed(0)} ms after the script started`);

const inWorker = (cmd, until) =>
  page.evaluate(
    ({ cmd, until }) =>
      new Promise((resolve) => {
        const t0 = performance.now();
        const w = new Worker('sapper.js');
        let tUci = 0;
        w.onmessage = (e) => {
          if (e.data === 'uciok') {
            tUci = performance.now() - t0;
            if (cmd) w.postMessage(cmd);
            else {
              w.terminate();
              resolve({ tUci });
            }
          } else if (cmd && new RegExp(until).test(e.data)) {
            w.terminate();
            resolve({ tUci, line: e.data });
          }
        };
        w.postMessage('uci');
      }),
    { cmd, until },
  );

const starts = [];
for (let i = 0; i < 5; i++) starts.push((await inWorker(null)).tUci);
console.log(`new Worker to uciok: ${starts.map((t) => t.toFixed(0)).join(', ')} ms`);

// CPU seconds (user + system) of the browser's process tree: the machine may be
// shared, so nodes per CPU second compare fairly where wall-clock speed does not.
const ticks = 100; // USER_HZ
function treeCpu(root) {
  const procs = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return { pid: Number(pid), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / ticks };
    } catch {
      return null;
    }
  }).filter(Boolean);
  const inTree = new Set([Number(root)]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of procs) if (!inTree.has(p.pid) && inTree.has(p.ppid)) { inTree.add(p.pid); grew = true; }
  }
  return procs.filter((p) => inTree.has(p.pid)).reduce((a, p) => a + p.cpu, 0);
}
// The browser is this process's child.
const browserPid = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).find((pid) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
  } catch {
    return false;
  }
});

for (let r = 0; r < rounds; r++) {
  const cpu0 = browserPid ? treeCpu(browserPid) : 0;
  const web = await inWorker(`bench ${depth}`, '^\\d+ nodes \\d+ nps$');
  const cpu1 = browserPid ? treeCpu(browserPid) : 0;
  const nodes = Number(web.line.split(' ')[0]);
  console.log(`bench ${depth} browser: ${web.line}; ${(cpu1 - cpu0).toFixed(2)} CPU s, ${Math.round(nodes / (cpu1 - cpu0))} nodes per CPU s`);
  if (process.env.SAPPER_NATIVE) {
    const run = spawnSync('/usr/bin/time', ['-f', '%U %S', process.env.SAPPER_NATIVE, 'bench', depth]);
    const last = run.stdout.toString().trim().split('\n').at(-1);
    const [user, sys] = run.stderr.toString().trim().split('\n').at(-1).split(' ').map(Number);
    const native = `${last}; ${(user + sys).toFixed(2)} CPU s, ${Math.round(Number(last.split(' ')[0]) / (user + sys))} nodes per CPU s`;
    console.log(`bench ${depth} native:  ${native}`);
  }
}
await browser.close();
server.close();
