// A promise-based wrapper around the sapper.js worker, for pages that would rather
// not speak UCI:
//
//   import { SapperEngine } from 'sapper-engine';
//   const engine = await SapperEngine.start('/sapper/sapper.js');
//   const { bestmove } = await engine.bestMove(fen, { variant: 'atomic', level: 5, movetime: 500 });
//   const { bestmove: hint } = await engine.hint(fen, { variant: 'atomic', movetime: 500 });
//   const { threat } = await engine.threat(fen, { variant: 'atomic', movetime: 500 });
//   const review = await engine.review({ variant: 'atomic', moves: ['g1f3', 'f7f6'] }, { onProgress });
//
// Commands go out in order; each request waits for the previous one.

const VARIANTS = ['chess', 'atomic', 'kingofthehill', 'minesweeper', '3check'];

export class SapperEngine {
  /**
   * Starts the worker and waits for `uciok`.
   * @param {string|URL} [url] where sapper.js is served (sapper-engine.js and
   *   sapper.wasm and sapper-simd.wasm lie beside it)
   */
  static async start(url = new URL('./sapper.js', import.meta.url)) {
    const engine = new SapperEngine(new Worker(url));
    await engine.#until('uci', (l) => l === 'uciok');
    return engine;
  }

  #worker;
  #listeners = new Set();
  #chain = Promise.resolve();
  #variant = 'chess';
  #level = null;
  #variety = false;

  constructor(worker) {
    this.#worker = worker;
    worker.onmessage = (e) => {
      for (const f of [...this.#listeners]) f(String(e.data));
    };
  }

  /** Sends one raw UCI line. */
  send(line) {
    this.#worker.postMessage(line);
  }

  /** Calls `f(line)` for every output line; returns a function that unsubscribes. */
  onLine(f) {
    this.#listeners.add(f);
    return () => this.#listeners.delete(f);
  }

  /** Sends `line` and resolves with the lines up to the one `last` accepts. */
  #until(line, last) {
    return new Promise((resolve) => {
      const seen = [];
      const off = this.onLine((l) => {
        seen.push(l);
        if (last(l)) {
          off();
          resolve(seen);
        }
      });
      this.send(line);
    });
  }

  /** Runs `task` after every earlier request. */
  #queue(task) {
    const next = this.#chain.then(task);
    this.#chain = next.catch(() => {});
    return next;
  }

  /**
   * The engine's move in `fen` (or 'startpos'), after `options.moves` if given.
   * @param {string} fen a FEN (minesweeper: the public FEN, never the layout)
   * @param {{variant?: string, level?: number, variety?: boolean, movetime?: number,
   *   depth?: number, nodes?: number, moves?: string[], searchmoves?: string[],
   *   onInfo?: (info: object) => void}} [options]
   *   level 0-20 (`Skill Level`, 20 = full strength); variety: `Opening Variety`
   *   (a random choice among near-equal moves in the first moves; off by default);
   *   movetime in milliseconds (default 1000 unless depth or nodes is given);
   *   searchmoves: only these moves are searched (the score of one move)
   * @returns {Promise<{bestmove: string|null, ponder: string|null, info: object|null}>}
   *   bestmove null when the side to move has no legal move; info is the last
   *   parsed `info` line
   */
  bestMove(fen, options = {}) {
    return this.#queue(() => this.#search(fen, options, false));
  }

  /**
   * A hint: the best move at full strength (level 20, no opening variety), whatever
   * level the game is played at. Same options as bestMove (level and variety are
   * ignored); default movetime 1000.
   */
  hint(fen, options = {}) {
    return this.#queue(() => this.#search(fen, { ...options, level: 20, variety: false }, false));
  }

  /**
   * The threat: the move the side NOT to move would play if it could move again
   * (the position searched with the move passed, a null move; `sapper analyze
   * --threat`). Resolves with {threat: null, reason} when the side to move is in
   * check (nothing to pass: the check is the threat) or the game is over.
   * @returns {Promise<{threat: string|null, reason?: string, info: object|null}>}
   */
  threat(fen, options = {}) {
    return this.#queue(async () => {
      try {
        const r = await this.#search(fen, { ...options, level: 20, variety: false }, true);
        return { threat: r.bestmove, info: r.info };
      } catch (err) {
        if (/pass: /.test(err.message)) return { threat: null, reason: err.message.replace(/^.*pass: /, ''), info: null };
        throw err;
      }
    });
  }

  /**
   * Reviews a game move by move as lichess's computer analysis does (the engine
   * crate's review: each position searched to `depth`, or for `nodes`; by default
   * depth 12, in minesweeper 50,000 nodes, each move judged by what was public when
   * it was played).
   * @param {string|{variant?: string, fen?: string, moves?: string[]}} game a PGN
   *   text, or the variant, start FEN (minesweeper: the full-information FEN) and
   *   UCI moves
   * @param {{depth?: number, nodes?: number, onProgress?: (done: number, total: number) => void}} [options]
   * @returns {Promise<object>} the review (engine.d.ts `Review`); rejects with the
   *   engine's message for a bad game, and with 'review stopped' after stop()
   */
  review(game, options = {}) {
    return this.#queue(async () => {
      let limit = '';
      if (options.depth) limit += ` depth ${options.depth}`;
      if (options.nodes) limit += ` nodes ${options.nodes}`;
      let spec;
      if (typeof game === 'string') {
        spec = `pgn\n${game}`;
      } else {
        const variant = game.variant || 'chess';
        if (!VARIANTS.includes(variant)) throw new Error(`unknown variant ${variant}`);
        const pos = !game.fen || game.fen === 'startpos' ? 'startpos' : `fen ${game.fen}`;
        const moves = game.moves && game.moves.length ? ` moves ${game.moves.join(' ')}` : '';
        spec = `${variant} ${pos}${moves}`;
      }
      const last = await new Promise((resolve) => {
        const off = this.onLine((l) => {
          if (l.startsWith('review progress ')) {
            const [, , done, total] = l.split(' ');
            if (options.onProgress) options.onProgress(Number(done), Number(total));
          } else if (/^review (result|error|stopped)/.test(l)) {
            off();
            resolve(l);
          }
        });
        this.send(`review${limit} ${spec}`);
      });
      if (last.startsWith('review result ')) return JSON.parse(last.slice('review result '.length));
      throw new Error(last.replace(/^review (error )?/, ''));
    });
  }

  /** Sends the variant and options that changed, the position, `pass` if asked, `isready`; then `go` and its lines. */
  async #search(fen, options, pass) {
    const variant = options.variant || 'chess';
    if (!VARIANTS.includes(variant)) throw new Error(`unknown variant ${variant}`);
    if (variant !== this.#variant) {
      this.send(`setoption name UCI_Variant value ${variant}`);
      this.#variant = variant;
    }
    const level = options.level ?? 20;
    if (level !== this.#level) {
      this.send(`setoption name Skill Level value ${level}`);
      this.#level = level;
    }
    const variety = Boolean(options.variety);
    if (variety !== this.#variety) {
      this.send(`setoption name Opening Variety value ${variety}`);
      this.#variety = variety;
    }
    const pos = fen === 'startpos' || !fen ? 'startpos' : `fen ${fen}`;
    const moves = options.moves && options.moves.length ? ` moves ${options.moves.join(' ')}` : '';
    this.send(`position ${pos}${moves}`);
    if (pass) this.send('pass');
    // A bad FEN or move is answered before `readyok` (docs/site-integration.md).
    const errors = (await this.#until('isready', (l) => l === 'readyok')).filter((l) =>
      l.startsWith('info string error'),
    );
    if (errors.length) throw new Error(errors.join('\n'));
    let go = 'go';
    if (options.depth) go += ` depth ${options.depth}`;
    if (options.nodes) go += ` nodes ${options.nodes}`;
    if (options.movetime || (!options.depth && !options.nodes)) go += ` movetime ${options.movetime || 1000}`;
    if (options.searchmoves && options.searchmoves.length) go += ` searchmoves ${options.searchmoves.join(' ')}`;
    let info = null;
    const lines = await new Promise((resolve) => {
      const seen = [];
      const off = this.onLine((l) => {
        seen.push(l);
        // The first line only: weakened levels and opening variety search several.
        if (l.startsWith('info') && l.includes(' pv ') && !/ multipv ([2-9]|\d\d+) /.test(l)) {
          info = parseInfo(l);
          if (options.onInfo) options.onInfo(info);
        }
        if (l.startsWith('bestmove')) {
          off();
          resolve(seen);
        }
      });
      this.send(go);
    });
    const [, best, , ponder] = lines[lines.length - 1].split(/\s+/);
    return { bestmove: best === '(none)' ? null : best, ponder: ponder || null, info };
  }

  /** Ends a running search now (its bestMove resolves with the best move so far). */
  stop() {
    this.send('stop');
  }

  /** Ends the worker. */
  terminate() {
    this.send('quit');
    this.#worker.terminate();
  }
}

/** Parses a UCI `info` line into {depth, seldepth, multipv, score: {cp|mate}, nodes, nps, time, pv: []}. */
export function parseInfo(line) {
  const t = line.split(/\s+/);
  const info = {};
  for (let i = 1; i < t.length; i++) {
    const k = t[i];
    if (k === 'pv') {
      info.pv = t.slice(i + 1);
      break;
    }
    if (k === 'score') {
      info.score = { [t[i + 1]]: Number(t[i + 2]) };
      i += 2;
      while (t[i + 1] === 'lowerbound' || t[i + 1] === 'upperbound') i++;
    } else if (k === 'wdl') {
      info.wdl = [Number(t[i + 1]), Number(t[i + 2]), Number(t[i + 3])];
      i += 3;
    } else if (k === 'string') {
      info.string = t.slice(i + 1).join(' ');
      break;
    } else if (i + 1 < t.length) {
      info[k] = Number(t[i + 1]);
      i++;
    }
  }
  return info;
}
