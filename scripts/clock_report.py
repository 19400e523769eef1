#!/usr/bin/env python3
"""Time use per engine from a PGN with `[%clk H:MM:SS.mmm]` comments (match.py and
cutechess-cli write them): moves, mean and median time per move, the clock left at
the end of each game, and losses on time.

    python3 scripts/clock_report.py games.pgn [--tc 5+0.05]

Time per move is the clock before the move, plus the increment, minus the clock
after it. Requires python-chess.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections import defaultdict

import chess.pgn

CLK = re.compile(r"\[%clk (\d+):(\d+):(\d+(?:\.\d+)?)\]")


def clock_seconds(comment: str) -> float | None:
    """The `%clk` value of a move comment, in seconds, or None."""
    m = CLK.search(comment)
    if not m:
        return None
    h, mnt, s = m.groups()
    return int(h) * 3600 + int(mnt) * 60 + float(s)


def parse_tc(tc: str) -> tuple[float, float]:
    """`BASE+INC` in seconds (cutechess style) as (base, increment)."""
    base, _, inc = tc.partition("+")
    return float(base), float(inc or 0)


def report(path: str, tc: str | None) -> dict[str, dict[str, float]]:
    per_move: dict[str, list[float]] = defaultdict(list)
    end_clock: dict[str, list[float]] = defaultdict(list)
    time_losses: dict[str, int] = defaultdict(int)
    games = 0
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            base, inc = parse_tc(tc or game.headers.get("TimeControl", "0+0"))
            names = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
            last = {chess.WHITE: base, chess.BLACK: base}
            board = game.board()
            for node in game.mainline():
                side = board.turn
                clk = clock_seconds(node.comment)
                if clk is not None:
                    per_move[names[side]].append(last[side] + inc - clk)
                    last[side] = clk
                board.push(node.move)
            for side in (chess.WHITE, chess.BLACK):
                end_clock[names[side]].append(last[side])
            term = game.headers.get("Termination", "")
            if "time" in term.lower():
                loser = chess.BLACK if game.headers.get("Result") == "1-0" else chess.WHITE
                time_losses[names[loser]] += 1
    out = {}
    for name in sorted(per_move):
        t = per_move[name]
        out[name] = {
            "moves": len(t),
            "mean_ms": 1000 * statistics.fmean(t),
            "median_ms": 1000 * statistics.median(t),
            "end_clock_s": statistics.fmean(end_clock[name]),
            "time_losses": time_losses[name],
        }
    print(f"{games} games")
    print(f"{'engine':<24} {'moves':>6} {'mean ms':>8} {'median ms':>9} {'clock left at end s':>20} {'time losses':>11}")
    for name, r in out.items():
        print(
            f"{name:<24} {r['moves']:>6} {r['mean_ms']:>8.0f} {r['median_ms']:>9.0f}"
            f" {r['end_clock_s']:>20.2f} {r['time_losses']:>11}"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn")
    ap.add_argument("--tc", help="override the TimeControl header, e.g. 5+0.05")
    args = ap.parse_args(argv)
    report(args.pgn, args.tc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
