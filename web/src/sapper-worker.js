// sapper.js: Sapper as a classic Web Worker with stockfish.js's contract.
//
//   const w = new Worker('sapper.js');
//   w.onmessage = (e) => console.log(e.data);   // one UCI output line per message
//   w.postMessage('uci');                       // one UCI command per message
//
// A WebAssembly search runs on one thread and cannot read messages meanwhile, so
// this outer worker never searches: it forwards each line to an inner worker
// (sapper-engine.js) that runs the engine, and keeps answering. When a command that
// ends a search arrives (stop, quit, go, position, ucinewgame, and setoption of
// Hash, Clear Hash or UCI_Variant, as in the native engine), it bumps a counter in
// a SharedArrayBuffer; the search reads it every 1024 nodes and stops. Shared
// memory needs a cross-origin-isolated page (COOP: same-origin, COEP:
// require-corp). Without it, stopping a search terminates the inner worker,
// answers `bestmove` with the best move reported so far, and starts a fresh inner
// worker that gets the options and position again.
//
// Two commands of the browser build (web/crate/src/commands.rs) travel the same
// way: `pass` (the move passed, for the threat), which is part of the position, and
// `review ...`, a long command like `go` (answered `review stopped` when stopped).

import { wasmFile as chooseWasm } from './core.js';

const base = self.location.href;
const isolated = typeof SharedArrayBuffer !== 'undefined' && self.crossOriginIsolated === true;
const sab = isolated ? new SharedArrayBuffer(4) : null;
const flag = sab ? new Int32Array(sab) : null;

// Commands that end a running search in the native engine (crates/engine/src/engine.rs).
const STOPPERS = new Set(['stop', 'quit', 'go', 'position', 'ucinewgame', 'pass', 'review']);
const STOPPING_OPTION = /^setoption\s+name\s+(hash|clear hash|uci_variant)\s/i;
// Long commands during which `isready` is answered at once, as natively.
const LONG = /^(go|bench|review)\b/;

let epoch = 0;
let module = null;
let inner = null;
const waiting = []; // lines that arrived before the module was compiled
// Commands sent to the inner worker or waiting for an answer, in order:
// {line, silent} for forwarded ones, {ready: true} for a held `isready`.
let queue = [];
// Configuration to give a restarted inner worker (fallback without shared memory).
const options = new Map();
let lastNewGame = false;
let lastPosition = null;
let lastPass = false; // a `pass` followed lastPosition
let bestSoFar = null; // [move, ponder] from the last `info ... pv` of multipv 1

function startInner() {
  const w = new Worker(new URL('sapper-engine.js', base));
  // Messages a replaced worker had already posted are dropped.
  w.onmessage = (e) => {
    if (w === inner) fromInner(e.data);
  };
  w.postMessage({ module, sab });
  inner = w;
}

function send(line, silent = false) {
  queue.push({ line, silent });
  inner.postMessage({ line, epoch });
}

function fromInner(data) {
  const front = queue.find((q) => !q.ready);
  if (typeof data !== 'string') {
    if (data.crashed) {
      if (front && front.silent) {
        // The replayed configuration itself crashes: start from the defaults.
        options.clear();
        lastPosition = null;
        lastPass = false;
      }
      restart();
      return;
    }
    if (data.done) {
      queue.splice(queue.indexOf(front), 1);
      answerReady();
      if (front && /^quit\b/.test(front.line)) {
        inner.terminate();
        self.close();
      }
    }
    return;
  }
  if (front && front.silent) return;
  if (data.startsWith('info') && data.includes(' pv ') && !/ multipv [2-9]/.test(data)) {
    const pv = data.slice(data.indexOf(' pv ') + 4).trim().split(/\s+/);
    bestSoFar = pv;
  } else if (data.startsWith('bestmove')) {
    bestSoFar = null;
  }
  self.postMessage(data);
}

/** Answers every held `isready` that only searches precede. */
function answerReady() {
  let onlyLong = true;
  for (let i = 0; i < queue.length; i++) {
    const q = queue[i];
    if (q.ready) {
      if (onlyLong) {
        queue.splice(i, 1);
        i--;
        self.postMessage('readyok');
      }
    } else if (!LONG.test(q.line)) {
      onlyLong = false;
    }
  }
}

function searching() {
  return queue.some((q) => !q.ready && LONG.test(q.line));
}

/** Stops the running search: through the shared counter, or by restarting. */
function interrupt() {
  epoch++;
  if (flag) {
    Atomics.store(flag, 0, epoch);
    Atomics.notify(flag, 0);
    return;
  }
  // No shared memory: the inner worker cannot be reached while it searches.
  restart();
}

/**
 * Replaces the inner worker by a fresh one that gets the options and position
 * again, and answers the search it was running (if any) with the best move
 * reported so far. Used to stop a search without shared memory, and after a crash
 * (a Rust panic aborts the WebAssembly instance).
 */
function restart() {
  inner.terminate();
  const running = queue.find((q) => !q.ready);
  const wasSearch = running && /^go\b/.test(running.line) && !/^go\s+perft/.test(running.line);
  const wasReview = running && /^review\b/.test(running.line);
  // Commands queued behind the search that the replay below does not cover.
  const lost = queue.filter(
    (q) => !q.ready && !q.silent && q !== running && !/^(setoption|position|ucinewgame|pass)\b/.test(q.line),
  );
  queue = queue.filter((q) => q.ready);
  startInner();
  for (const line of options.values()) send(line, true);
  if (lastNewGame) send('ucinewgame', true);
  if (lastPosition) send(lastPosition, true);
  if (lastPosition && lastPass) send('pass', true);
  if (wasReview) self.postMessage('review stopped');
  if (wasSearch) {
    if (bestSoFar && bestSoFar.length) {
      self.postMessage(`bestmove ${bestSoFar[0]}${bestSoFar[1] ? ` ponder ${bestSoFar[1]}` : ''}`);
    } else {
      // Nothing reported yet: a one-ply search answers instead.
      send('go depth 1');
    }
  }
  for (const q of lost) send(q.line);
  bestSoFar = null;
  answerReady();
}

function handle(line) {
  const cmd = line.split(/\s+/, 1)[0];
  if (STOPPERS.has(cmd) || STOPPING_OPTION.test(line)) {
    if (searching()) interrupt();
  }
  if (cmd === 'setoption') {
    const m = /^setoption\s+name\s+(.*?)(\s+value\s|$)/i.exec(line);
    if (m) options.set(m[1].toLowerCase(), line);
  } else if (cmd === 'ucinewgame') {
    lastNewGame = true;
    lastPosition = null;
    lastPass = false;
  } else if (cmd === 'position') {
    lastPosition = line;
    lastPass = false;
  } else if (cmd === 'pass') {
    lastPass = true;
  }
  if (cmd === 'isready') {
    queue.push({ ready: true });
    answerReady();
    return;
  }
  if (cmd === 'go') bestSoFar = null;
  send(line);
}

self.onmessage = (e) => {
  const line = String(e.data).trim();
  if (!line) return;
  if (module) handle(line);
  else waiting.push(line);
};

// The SIMD build where the browser has WebAssembly SIMD, the plain one elsewhere.
let wasmFile = 'sapper.wasm';
chooseWasm()
  .then((file) => {
    wasmFile = file;
    return fetch(new URL(wasmFile, base));
  })
  .then((r) => {
    if (!r.ok) throw new Error(`${wasmFile}: HTTP ${r.status}`);
    return r.arrayBuffer();
  })
  .then((buf) => WebAssembly.compile(buf))
  .then((m) => {
    module = m;
    startInner();
    for (const line of waiting.splice(0)) handle(line);
  })
  .catch((err) => self.postMessage(`info string error: cannot load ${wasmFile}: ${err.message}`));
