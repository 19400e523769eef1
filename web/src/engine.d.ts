/** Parsed UCI `info` line. */
export interface Info {
  depth?: number;
  seldepth?: number;
  multipv?: number;
  score?: { cp?: number; mate?: number };
  wdl?: [number, number, number];
  nodes?: number;
  nps?: number;
  time?: number;
  hashfull?: number;
  pv?: string[];
  string?: string;
}

export interface BestMoveOptions {
  /** `chess` (default), `atomic`, `kingofthehill` or `minesweeper`. */
  variant?: 'chess' | 'atomic' | 'kingofthehill' | 'minesweeper';
  /** `Skill Level`, 0 (weakest) to 20 (full strength, the default). */
  level?: number;
  /** Thinking time, milliseconds (default 1000 unless depth or nodes is given). */
  movetime?: number;
  depth?: number;
  nodes?: number;
  /** UCI moves played after `fen`. */
  moves?: string[];
  /** Called for every `info ... pv` line while the engine thinks. */
  onInfo?: (info: Info) => void;
}

export declare class SapperEngine {
  /** Starts the worker (sapper.js; sapper-engine.js and sapper.wasm beside it) and waits for `uciok`. */
  static start(url?: string | URL): Promise<SapperEngine>;
  constructor(worker: Worker);
  /** Sends one raw UCI line. */
  send(line: string): void;
  /** Calls `f` for every output line; returns a function that unsubscribes. */
  onLine(f: (line: string) => void): () => void;
  /** The engine's move; `bestmove` is null when the side to move has no legal move. */
  bestMove(
    fen: string,
    options?: BestMoveOptions,
  ): Promise<{ bestmove: string | null; ponder: string | null; info: Info | null }>;
  /** Ends a running search; its bestMove resolves with the best move so far. */
  stop(): void;
  /** Ends the worker. */
  terminate(): void;
}

export declare function parseInfo(line: string): Info;
