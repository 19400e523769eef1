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
  /** `chess` (default), `atomic`, `kingofthehill`, `minesweeper` or `3check`. */
  variant?: Variant;
  /** `Skill Level`, 0 (weakest) to 20 (full strength, the default). */
  level?: number;
  /** `Opening Variety`: at level 20, a random choice among near-equal moves in the first 10 moves (default false). */
  variety?: boolean;
  /** Thinking time, milliseconds (default 1000 unless depth or nodes is given). */
  movetime?: number;
  depth?: number;
  nodes?: number;
  /** UCI moves played after `fen`. */
  moves?: string[];
  /** Only these moves are searched (UCI `searchmoves`): the score of one move. */
  searchmoves?: string[];
  /** Called for every `info ... pv` line while the engine thinks. */
  onInfo?: (info: Info) => void;
}

export type Variant = 'chess' | 'atomic' | 'kingofthehill' | 'minesweeper' | '3check';

/** A game to review: the variant, the start FEN (minesweeper: full information) and UCI moves. */
export interface ReviewGame {
  variant?: Variant;
  /** 'startpos' (default) or a FEN. */
  fen?: string;
  moves?: string[];
}

export interface ReviewOptions {
  /** Depth of each position's search (default 12; minesweeper: 50,000 nodes). */
  depth?: number;
  /** Or a node limit per position. */
  nodes?: number;
  /** Called before each position's search and at the end (`done === total`). */
  onProgress?: (done: number, total: number) => void;
}

/** One searched position of a reviewed game (the start position first). */
export interface ReviewPosition {
  /** The side to move. */
  side: 'white' | 'black';
  /** White's evaluation as a person reads it: `+0.35`, `#-2`. */
  eval: string;
  /** White's winning chances in [-1, 1] (lichess's curve; what the graph plots). */
  chances: number;
  /** Mate in n moves from White's view (negative: White is mated), or null. */
  mate: number | null;
  /** The best move (UCI), null in a finished position. */
  best: string | null;
  depth: number;
}

/** One reviewed move. */
export interface ReviewMove {
  /** Index among the moves (half-moves), from 0. */
  ply: number;
  /** `12.` or `12...`. */
  number: string;
  mover: 'white' | 'black';
  uci: string;
  san: string;
  /** White's evaluation before and after the move (`+0.35`, `#3`). */
  before: string;
  after: string;
  /** The best move there (UCI and SAN) and its line in SAN with move numbers. */
  best: string | null;
  bestSan: string;
  pv: string;
  /** The drop in the mover's winning chances ([-1, 1] scale; negative: a gain). */
  drop: number;
  /** The move's accuracy, percent. */
  accuracy: number;
  /** The mark, if any, and lichess's sentence (`Blunder`, `Checkmate is now unavoidable`). */
  judgement: 'inaccuracy' | 'mistake' | 'blunder' | null;
  advice: string | null;
  /**
   * Minesweeper, a move landing where a mine could be: the public chance of a mine
   * there when it was played (the move is judged by its expectation, not by luck),
   * and whether there was one.
   */
  mine: { chance: number; hit: boolean } | null;
}

/** A reviewed game (the engine crate's `review::Review`). */
export interface Review {
  variant: Variant;
  startFen: string;
  /** The search limit of each position, in words (`depth 12`). */
  limit: string;
  nodes: number;
  /** Milliseconds the review took. */
  ms: number;
  /** Game accuracy of White and Black, percent (null: no move). */
  accuracy: [number | null, number | null];
  positions: ReviewPosition[];
  moves: ReviewMove[];
  /** The game as an annotated PGN (`[%eval ...]` comments, NAGs, better lines). */
  pgn: string;
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
  /** The best move at full strength (level 20, no variety), whatever level the game is played at. */
  hint(
    fen: string,
    options?: BestMoveOptions,
  ): Promise<{ bestmove: string | null; ponder: string | null; info: Info | null }>;
  /**
   * The threat: the move the side not to move would play if it could move again
   * (a search with the move passed). `threat` is null, with a reason, when the side
   * to move is in check or the game is over.
   */
  threat(fen: string, options?: BestMoveOptions): Promise<{ threat: string | null; reason?: string; info: Info | null }>;
  /**
   * Reviews a game move by move (lichess's formulas). `game` is a PGN text or
   * {variant, fen, moves}. Rejects with the engine's message for a bad game, and
   * with `stopped` after stop().
   */
  review(game: string | ReviewGame, options?: ReviewOptions): Promise<Review>;
  /** Ends a running search or review; a search's bestMove resolves with the best move so far. */
  stop(): void;
  /** Ends the worker. */
  terminate(): void;
}

export declare function parseInfo(line: string): Info;
