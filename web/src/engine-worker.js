// The inner worker (dist/sapper-engine.js): runs Sapper's WebAssembly module on its
// one thread. Started by the outer worker (sapper.js), which sends first
// {module, sab} and then {line, epoch} per UCI command; it answers one message per
// output line and {done: true} after each command.
import { instantiate } from './core.js';

let engine = null;

self.onmessage = (e) => {
  const msg = e.data;
  if (msg.module) {
    const flag = msg.sab ? new Int32Array(msg.sab) : null;
    engine = instantiate(msg.module, { flag, onLine: (line) => self.postMessage(line) });
    return;
  }
  try {
    engine.uci(msg.line, msg.epoch);
  } catch (err) {
    // A trap (a panic in Rust aborts): the instance is unusable from here on.
    self.postMessage(`info string error: the engine stopped: ${err && err.message}`);
    self.postMessage({ crashed: true });
  }
  self.postMessage({ done: true });
};
