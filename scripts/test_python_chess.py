#!/usr/bin/env python3
"""Checks that python-chess's UCI driver works with Sapper (shared/spec/UCI.md).

Drives the engine through ``chess.engine.SimpleEngine.popen_uci``, as python-chess
users and lichess-bot do, for chess, atomic and king of the hill (python-chess sets
``UCI_Variant`` itself from the board class):

* self-play games at a fast limit, every move checked against python-chess's own
  rules (bestmove and ponder move legal, ``None`` only when the game is over); every
  other game with ``ponder=True``, so python-chess pondering and its ``stop`` are used;
* ``engine.analyse(..., multipv=3)`` returns three lines with distinct, legal PVs,
  and ``engine.analysis`` (``go infinite``, then ``stop``) ends with a legal move;
* finished positions (checkmate, an exploded king, a king on the hill, stalemate)
  give ``move=None``.

Usage::

    python3 scripts/test_python_chess.py [ENGINE] [--games N] [--nodes N | --movetime MS]

ENGINE defaults to ``target/release/sapper``. Prints a short summary; exits non-zero
on any failure.
"""

from __future__ import annotations

import argparse
import shlex
import logging
import signal
import sys
import time
from dataclasses import dataclass, field

import chess
import chess.engine
import chess.variant

VARIANTS: dict[str, type[chess.Board]] = {
    "chess": chess.Board,
    "atomic": chess.variant.AtomicBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "3check": chess.variant.ThreeCheckBoard,
}

# Finished positions: (variant, FEN, what it is). The side to move has no move.
FINISHED = [
    ("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "checkmate"),
    ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
    ("atomic", "rnbqkbnr/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 4", "exploded king"),
    ("kingofthehill", "4k3/8/8/8/4K3/8/8/8 b - - 0 1", "king on the hill"),
    ("3check", "r1bq1bnr/ppp2kpp/2n5/3Bp3/4P3/8/PPPP1PPP/RNB1K1NR b KQ - 0+3 0 5", "third check"),
]

# Positions to analyse besides the start position: (variant, FEN).
ANALYSE = [
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("atomic", "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1"),
    ("kingofthehill", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
]


class WarningCounter(logging.Handler):
    """Collects python-chess's warnings and errors about engine output."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@dataclass
class Tally:
    games: int = 0
    plies: int = 0
    ponder_games: int = 0
    analyses: int = 0
    finished: int = 0
    results: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def check_pv(board: chess.Board, pv: list[chess.Move]) -> str | None:
    """Returns why `pv` is not a legal line from `board`, or None."""
    b = board.copy(stack=False)
    for move in pv:
        if move not in b.legal_moves:
            return f"illegal pv move {move.uci()} in {b.fen()}"
        b.push(move)
    return None


def play_game(
    engine: chess.engine.SimpleEngine,
    variant: str,
    limit: chess.engine.Limit,
    max_plies: int,
    ponder: bool,
    game_id: object,
    tally: Tally,
) -> None:
    board = VARIANTS[variant]()
    while not board.is_game_over() and board.ply() < max_plies:
        result = engine.play(board, limit, ponder=ponder, game=game_id, info=chess.engine.INFO_ALL)
        move = result.move
        if move is None:
            tally.failures.append(f"{variant}: no move in unfinished position {board.fen()}")
            return
        if move not in board.legal_moves:
            tally.failures.append(f"{variant}: illegal move {move.uci()} in {board.fen()}")
            return
        if result.ponder is not None:
            after = board.copy(stack=False)
            after.push(move)
            if result.ponder not in after.legal_moves:
                tally.failures.append(
                    f"{variant}: illegal ponder move {result.ponder.uci()} after {move.uci()} in {board.fen()}"
                )
                return
        pv = result.info.get("pv")
        if pv:
            why = check_pv(board, pv)
            if why:
                tally.failures.append(f"{variant}: {why}")
                return
        board.push(move)
        tally.plies += 1
    outcome = board.outcome()
    key = outcome.result() if outcome else "*"
    tally.results[key] = tally.results.get(key, 0) + 1
    tally.games += 1
    tally.ponder_games += int(ponder)


def check_analyse(engine: chess.engine.SimpleEngine, board: chess.Board, limit: chess.engine.Limit, tally: Tally) -> None:
    name = type(board).uci_variant
    infos = engine.analyse(board, limit, multipv=3)
    if len(infos) != 3:
        tally.failures.append(f"{name}: analyse multipv=3 returned {len(infos)} lines for {board.fen()}")
        return
    firsts = set()
    for k, info in enumerate(infos, start=1):
        pv = info.get("pv")
        if not pv:
            tally.failures.append(f"{name}: analyse line {k} has no pv for {board.fen()}")
            return
        why = check_pv(board, pv)
        if why:
            tally.failures.append(f"{name}: analyse line {k}: {why}")
            return
        if info.get("multipv") != k or "score" not in info:
            tally.failures.append(f"{name}: analyse line {k} lacks multipv/score: {info}")
            return
        firsts.add(pv[0])
    if len(firsts) != 3:
        tally.failures.append(f"{name}: analyse lines share a first move for {board.fen()}")
        return
    tally.analyses += 1


def check_infinite(engine: chess.engine.SimpleEngine, board: chess.Board, tally: Tally) -> None:
    """`go infinite` until depth 3 is reported, then `stop`: a legal best move."""
    name = type(board).uci_variant
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 3:
                break
        analysis.stop()
        best = analysis.wait()
    if best.move is None or best.move not in board.legal_moves:
        tally.failures.append(f"{name}: go infinite + stop gave {best.move} in {board.fen()}")


def check_finished(engine: chess.engine.SimpleEngine, tally: Tally) -> None:
    for variant, fen, what in FINISHED:
        board = VARIANTS[variant](fen)
        result = engine.play(board, chess.engine.Limit(depth=3))
        if result.move is not None:
            tally.failures.append(f"{variant}: {what} {fen}: engine played {result.move.uci()}")
        else:
            tally.finished += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", nargs="?", default="target/release/sapper", help="engine command")
    parser.add_argument("--games", type=int, default=2, help="self-play games per variant (default 2)")
    parser.add_argument("--plies", type=int, default=80, help="plies per game at most (default 80)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--nodes", type=int, default=2000, help="nodes per move (default 2000)")
    group.add_argument("--movetime", type=int, help="milliseconds per move instead of --nodes")
    parser.add_argument("--timeout", type=int, default=600, help="give up after this many seconds")
    parser.add_argument("--verbose", action="store_true", help="log the UCI traffic")
    args = parser.parse_args()

    if args.verbose:
        logging.basicConfig(level=logging.DEBUG)
    warnings = WarningCounter()
    logging.getLogger("chess.engine").addHandler(warnings)
    if hasattr(signal, "alarm"):
        def on_alarm(_signum: int, _frame: object) -> None:
            print(f"FAIL: no result after {args.timeout} s", file=sys.stderr)
            sys.exit(2)

        signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(args.timeout)

    if args.movetime is not None:
        limit = chess.engine.Limit(time=args.movetime / 1000)
    else:
        limit = chess.engine.Limit(nodes=args.nodes)

    start = time.monotonic()
    tallies = {name: Tally() for name in VARIANTS}
    finished = Tally()
    fatal: list[str] = []
    try:
        engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    except (OSError, chess.engine.EngineError) as e:
        print(f"FAIL: cannot start {args.engine}: {e}", file=sys.stderr)
        return 1
    try:
        opt = engine.options.get("UCI_Variant")
        if opt is None or opt.default != "chess" or not set(VARIANTS) <= set(opt.var):
            fatal.append(f"UCI_Variant option not as UCI.md says: {opt}")
        # One engine for every variant: python-chess switches UCI_Variant between them.
        for name, cls in VARIANTS.items():
            tally = tallies[name]
            try:
                for g in range(args.games):
                    play_game(engine, name, limit, args.plies, g % 2 == 1, (name, g), tally)
                check_analyse(engine, cls(), chess.engine.Limit(depth=4), tally)
                check_analyse(engine, cls(), chess.engine.Limit(nodes=3000), tally)
                check_infinite(engine, cls(), tally)
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
                tally.failures.append(f"{name}: engine error: {e}")
        for variant, fen in ANALYSE:
            try:
                check_analyse(engine, VARIANTS[variant](fen), chess.engine.Limit(depth=4), tallies[variant])
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
                tallies[variant].failures.append(f"{variant}: engine error: {e}")
        try:
            check_finished(engine, finished)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            fatal.append(f"finished positions: engine error: {e}")
        fatal.extend(finished.failures)
    finally:
        try:
            engine.quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
            fatal.append("engine did not quit cleanly")

    failures = fatal + [f for t in tallies.values() for f in t.failures]
    failures += [f"python-chess logged: {m}" for m in warnings.messages]
    for name, t in tallies.items():
        results = ", ".join(f"{k}: {v}" for k, v in sorted(t.results.items())) or "none"
        print(
            f"{name:<14} games {t.games} ({t.ponder_games} pondering), plies {t.plies}, "
            f"multipv=3 analyses {t.analyses}, results {results}"
        )
    print(f"finished positions answered with no move: {finished.finished}/{len(FINISHED)}")
    print(f"time {time.monotonic() - start:.1f} s, limit {limit}")
    if failures:
        sys.stdout.flush()
        for f in failures:
            print(f"FAIL: {f}", file=sys.stderr)
        print(f"{len(failures)} failure(s)")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
