#!/usr/bin/env python3
"""Openings the project did not choose: uniformly random plies, kept when balanced.

A second opening set, made by another method than ``make_openings.py`` (which picks
sensible moves and was the set the engine's changes were measured on), so that a
strength figure does not rest on the project's own openings alone. From the
variant's start position ``--min-plies`` to ``--max-plies`` plies are played, each
drawn uniformly among the legal moves (python-chess's rules); the position is kept
when the game is not over, the side to move is not in check, and a judge engine
(Fairy-Stockfish by default) scores it within ``--max-cp`` centipawns of zero at
``--depth``. Duplicates are dropped. The output starts with ``#`` comment lines
recording the command, then one FEN per line, as ``match.py`` and
``scripts/cutechess.py`` read them.

    python3 scripts/random_openings.py --variant atomic --count 200 --seed 7 \\
        --engine /path/to/fairy-stockfish --out engine-tests/openings/atomic-random.epd
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
from pathlib import Path

import chess
import chess.engine
import chess.variant

BOARDS = {
    "chess": chess.Board,
    "atomic": chess.variant.AtomicBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "3check": chess.variant.ThreeCheckBoard,
}


def random_line(board: chess.Board, plies: int, rng: random.Random) -> chess.Board | None:
    """`board` after `plies` uniformly random legal moves, or None if the game ends."""
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        if not moves or board.is_variant_end():
            return None
        board.push(rng.choice(moves))
    if board.is_game_over() or board.is_variant_end() or board.is_check():
        return None
    return board


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", choices=sorted(BOARDS), required=True)
    ap.add_argument("--count", type=int, default=200, help="openings to write")
    ap.add_argument("--min-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=8)
    ap.add_argument("--depth", type=int, default=9, help="the judge's search depth")
    ap.add_argument("--max-cp", type=int, default=80, help="largest |score| kept, centipawns")
    ap.add_argument("--engine", required=True, help="the judge: a UCI engine playing the variant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    seen: set[str] = set()
    fens: list[str] = []
    tried = 0
    try:
        while len(fens) < args.count:
            tried += 1
            plies = rng.randint(args.min_plies, args.max_plies)
            board = random_line(BOARDS[args.variant](), plies, rng)
            if board is None:
                continue
            key = board.epd()
            if key in seen:
                continue
            seen.add(key)
            # python-chess sends UCI_Variant from the board's own variant.
            info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            score = info["score"].relative
            if score.is_mate() or abs(score.score()) > args.max_cp:
                continue
            fens.append(board.fen())
    finally:
        engine.quit()
    header = [
        f"# {len(fens)} openings for {args.variant}: {args.min_plies}-{args.max_plies} uniformly random plies,",
        f"# kept when {Path(shlex.split(args.engine)[0]).name} scores them within {args.max_cp} cp at depth {args.depth}",
        f"# ({tried} lines drawn). Made by: python3 scripts/random_openings.py "
        + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])),
    ]
    args.out.write_text("\n".join(header + fens) + "\n")
    print(f"{args.out}: {len(fens)} openings from {tried} lines", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
