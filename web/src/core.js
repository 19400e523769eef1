// The glue between Sapper's WebAssembly module (web/crate) and JavaScript: the
// imports the module needs and a small wrapper around its exports. Shared by the
// engine worker, the page (for the minesweeper rules) and the Node tests.

import { simd } from 'wasm-feature-detect';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The engine file this JavaScript engine should load: `sapper-simd.wasm` where it
 * validates WebAssembly SIMD code (Chrome 91, Firefox 89, Safari 16.4 and later;
 * detected by wasm-feature-detect), else `sapper.wasm`. Both search node for node
 * alike; the SIMD one is faster where networks evaluate (web/README.md).
 * @returns {Promise<string>}
 */
export async function wasmFile() {
  return (await simd()) ? 'sapper-simd.wasm' : 'sapper.wasm';
}

/**
 * Instantiates Sapper.
 * @param {WebAssembly.Module} module the compiled `sapper.wasm`
 * @param {object} host
 * @param {(line: string) => void} [host.onLine] receives each UCI output line
 * @param {Int32Array|null} [host.flag] shared stop counter (on a SharedArrayBuffer)
 *   that the outer worker bumps on `stop`; null where the page is not
 *   cross-origin isolated
 * @returns {{uci: (line: string, epoch?: number) => boolean, rules: (request: string) => string}}
 */
export function instantiate(module, host = {}) {
  const onLine = host.onLine || (() => {});
  const flag = host.flag || null;
  // The value of the stop counter when the running command was sent: the search
  // stops as soon as the counter differs from it.
  let epoch = 0;
  let memory = null;
  const bytes = (ptr, len) => new Uint8Array(memory.buffer, ptr, len);
  const imports = {
    sapper: {
      emit: (ptr, len) => onLine(decoder.decode(bytes(ptr, len))),
      random: (ptr, len) => {
        // getRandomValues refuses more than 65536 bytes at once.
        for (let off = 0; off < len; off += 65536) {
          crypto.getRandomValues(bytes(ptr + off, Math.min(65536, len - off)));
        }
      },
      now_ms: () => performance.now(),
      stop_requested: () => (flag !== null && Atomics.load(flag, 0) !== epoch ? 1 : 0),
      sleep_ms: (ms) => {
        if (flag !== null) {
          // Wakes early when the outer worker bumps the counter (Atomics.notify).
          Atomics.wait(flag, 0, epoch, ms);
        } else {
          // No shared memory: nobody can stop us anyway; do not spin hot forever.
          const end = performance.now() + ms;
          while (performance.now() < end) { /* wait */ }
        }
      },
    },
  };
  const instance = new WebAssembly.Instance(module, imports);
  const ex = instance.exports;
  memory = ex.memory;
  const put = (text) => {
    const data = encoder.encode(text);
    const ptr = ex.sapper_buffer(data.length);
    bytes(ptr, data.length).set(data);
    return data.length;
  };
  return {
    /** Runs one UCI line; false after `quit`. */
    uci(line, lineEpoch = 0) {
      epoch = lineEpoch;
      return ex.sapper_uci(put(line)) !== 0;
    },
    /** Answers a rules request (web/crate/src/rules.rs). */
    rules(request) {
      const len = ex.sapper_rules(put(request));
      return decoder.decode(bytes(ex.sapper_result(), len).slice());
    },
  };
}

/** Parses a rules answer into {key: [values...]}. */
export function parseAnswer(text) {
  const out = {};
  for (const line of text.split('\n')) {
    if (!line) continue;
    const sp = line.indexOf(' ');
    const key = sp < 0 ? line : line.slice(0, sp);
    const value = sp < 0 ? '' : line.slice(sp + 1);
    (out[key] ||= []).push(value);
  }
  return out;
}
