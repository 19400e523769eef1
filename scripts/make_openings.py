#!/usr/bin/env python3
"""Generate a file of short, roughly balanced opening positions for match.py.

Each opening is reached by playing a random number of plies from the
variant's initial position, every ply chosen at random among "sensible"
moves, and is kept only if the final position looks balanced.  Two judges of
"sensible" and "balanced" are available:

* ``--engine CMD``: a UCI engine (e.g. Stockfish for chess, Fairy-Stockfish
  for king of the hill).  Moves are drawn from the engine's ``--multipv``
  best moves within ``--spread`` centipawns of the best at ``--move-depth``;
  a position is kept if its evaluation at ``--depth`` is within
  ``--max-cp`` of zero.
* no engine: a small material-only alpha-beta search over python-chess
  boards (used for atomic, which the available engines do not play).  Moves
  must not lose material within ``--move-depth`` plies and are, where
  possible, developing moves (centre pawns, knights, bishops); a position is
  kept if neither side (the side to move, nor its opponent if it were to
  move) can win more than ``--max-cp`` of material or the game within
  ``--depth`` plies.

Positions where the side to move is in check, and duplicates, are dropped.
The output starts with ``#`` comment lines recording the command and
settings, followed by one FEN per line.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import chess
import chess.engine
import chess.variant

VARIANTS: dict[str, type[chess.Board]] = {
    "chess": chess.Board,
    "atomic": chess.variant.AtomicBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
}

PIECE_VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0}
#: Score of a won game in the material search, larger than any material sum.
WIN_SCORE = 100_000


class Judge(Protocol):
    """Chooses candidate moves and decides whether a position is balanced."""

    def candidate_moves(self, board: chess.Board) -> list[chess.Move]:
        """Return the moves a sensible player might choose (never empty
        unless the game is over)."""
        ...

    def is_balanced(self, board: chess.Board) -> bool:
        """Whether ``board`` is a reasonable, roughly level start position."""
        ...

    def describe(self) -> str:
        """One line describing the judge and its settings."""
        ...


class EngineJudge:
    """Judge backed by a UCI engine."""

    def __init__(
        self, engine: chess.engine.SimpleEngine, multipv: int, spread: int, move_depth: int, depth: int, max_cp: int
    ) -> None:
        self.engine = engine
        self.engine_name = engine.id.get("name", "?")
        self.multipv, self.spread, self.move_depth = multipv, spread, move_depth
        self.depth, self.max_cp = depth, max_cp

    def candidate_moves(self, board: chess.Board) -> list[chess.Move]:
        infos = self.engine.analyse(board, chess.engine.Limit(depth=self.move_depth), multipv=self.multipv)
        scored = [(info["score"].relative.score(mate_score=WIN_SCORE), info["pv"][0]) for info in infos if "pv" in info]
        best = max(score for score, _ in scored)
        return [move for score, move in scored if score >= best - self.spread]

    def is_balanced(self, board: chess.Board) -> bool:
        score = self.engine.analyse(board, chess.engine.Limit(depth=self.depth))["score"].white()
        return not score.is_mate() and abs(score.score() or 0) <= self.max_cp

    def describe(self) -> str:
        return (
            f"engine {self.engine_name}: moves among multipv {self.multipv} within "
            f"{self.spread} cp of best at depth {self.move_depth}; "
            f"kept if |eval| <= {self.max_cp} cp at depth {self.depth}"
        )


class MaterialJudge:
    """Judge backed by a material-only alpha-beta search (any variant)."""

    def __init__(self, move_depth: int, depth: int, max_cp: int) -> None:
        self.move_depth, self.depth, self.max_cp = move_depth, depth, max_cp

    def candidate_moves(self, board: chess.Board) -> list[chess.Move]:
        scored = []
        for move in board.legal_moves:
            board.push(move)
            scored.append((-search(board, self.move_depth - 1, -WIN_SCORE, WIN_SCORE), move))
            board.pop()
        best = max(score for score, _ in scored)
        safe = [move for score, move in scored if score >= best]
        return [move for move in safe if is_developing(board, move)] or safe

    def is_balanced(self, board: chess.Board) -> bool:
        if abs(search(board, self.depth, -WIN_SCORE, WIN_SCORE)) > self.max_cp:
            return False
        board.push(chess.Move.null())  # threats: what if the opponent moved now?
        try:
            return abs(search(board, self.depth, -WIN_SCORE, WIN_SCORE)) <= self.max_cp
        finally:
            board.pop()

    def describe(self) -> str:
        return (
            "material search: developing moves (centre pawns, minor pieces off the back rank) "
            f"that keep the best material balance at depth {self.move_depth}; "
            f"kept if neither side can gain more than {self.max_cp} cp or win within {self.depth} plies"
        )


def is_developing(board: chess.Board, move: chess.Move) -> bool:
    """Crude opening sense: centre pawn pushes (c- to f-file), and knights or
    bishops leaving the back rank for a square off the a- and h-files."""
    piece = board.piece_type_at(move.from_square)
    to_file = chess.square_file(move.to_square)
    if piece == chess.PAWN:
        return 2 <= to_file <= 5
    back_rank = 0 if board.turn == chess.WHITE else 7
    return (
        piece in (chess.KNIGHT, chess.BISHOP) and chess.square_rank(move.from_square) == back_rank and 1 <= to_file <= 6
    )


def material(board: chess.Board) -> int:
    """Material balance in centipawns from the side to move's view."""
    return sum(
        PIECE_VALUES[piece.piece_type] * (1 if piece.color == board.turn else -1)
        for piece in board.piece_map().values()
    )


def search(board: chess.Board, depth: int, alpha: int, beta: int) -> int:
    """Negamax alpha-beta over material, honouring variant wins and losses."""
    if board.is_variant_end():
        if board.is_variant_win():
            return WIN_SCORE
        return -WIN_SCORE if board.is_variant_loss() else 0
    moves = list(board.legal_moves)
    if not moves:
        return -WIN_SCORE if board.is_check() else 0
    if depth == 0:
        return material(board)
    moves.sort(key=board.is_capture, reverse=True)
    for move in moves:
        board.push(move)
        score = -search(board, depth - 1, -beta, -alpha)
        board.pop()
        if score >= beta:
            return score
        alpha = max(alpha, score)
    return alpha


def generate(
    board_cls: type[chess.Board], judge: Judge, count: int, min_plies: int, max_plies: int, rng: random.Random
) -> list[str]:
    """Return ``count`` distinct balanced FENs (gives up after many misses)."""
    fens: list[str] = []
    seen: set[str] = set()
    attempts = 0
    while len(fens) < count:
        attempts += 1
        if attempts > 50 * count:
            raise RuntimeError(f"found only {len(fens)} positions in {attempts} attempts")
        board = board_cls()
        for _ in range(rng.randint(min_plies, max_plies)):
            if board.is_game_over():
                break
            board.push(rng.choice(judge.candidate_moves(board)))
        if board.is_game_over() or board.is_check() or board.epd() in seen:
            continue
        if judge.is_balanced(board):
            seen.add(board.epd())
            fens.append(board.fen())
            print(f"{len(fens)}/{count} (attempt {attempts}): {board.fen()}", file=sys.stderr)
    return fens


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="chess")
    parser.add_argument("--engine", metavar="CMD", help="UCI engine command (default: material search)")
    parser.add_argument("--count", type=int, default=50, help="number of positions (default: 50)")
    parser.add_argument("--min-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=8)
    parser.add_argument("--multipv", type=int, default=5, help="engine: candidate moves per ply (default: 5)")
    parser.add_argument("--spread", type=int, default=40, help="engine: max cp below the best move (default: 40)")
    parser.add_argument("--move-depth", type=int, default=6, help="search depth for choosing moves (default: 6)")
    parser.add_argument("--depth", type=int, default=10, help="search depth for the final check (default: 10)")
    parser.add_argument("--max-cp", type=int, default=60, help="max |evaluation| kept, in cp (default: 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--output", type=Path, help="output file (default: stdout)")
    args = parser.parse_args(argv)

    board_cls = VARIANTS[args.variant]
    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine)) if args.engine else None
    try:
        judge: Judge = (
            EngineJudge(engine, args.multipv, args.spread, args.move_depth, args.depth, args.max_cp)
            if engine
            else MaterialJudge(args.move_depth, args.depth, args.max_cp)
        )
        fens = generate(board_cls, judge, args.count, args.min_plies, args.max_plies, rng)
    finally:
        if engine:
            engine.quit()

    command = shlex.join(["scripts/make_openings.py", *(argv if argv is not None else sys.argv[1:])])
    header = [
        f"# {args.variant} openings for scripts/match.py: {len(fens)} positions, one FEN per line.",
        f"# Generated by: {command}",
        f"# {args.min_plies}-{args.max_plies} random plies from the initial position; {judge.describe()}.",
    ]
    text = "\n".join(header + fens) + "\n"
    if args.output:
        args.output.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
