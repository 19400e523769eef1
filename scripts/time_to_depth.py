#!/usr/bin/env python3
"""Time to a fixed depth and nodes per second of UCI engines on the same positions.

Each engine searches each position with ``go depth N`` (one thread unless
``--threads``, a fresh process per position so no table
carries over) and the script prints
the seconds and nodes per position and in all. Run it on a quiet machine, one engine
at a time: the figures are wall-clock times.

    python3 scripts/time_to_depth.py --depth 16 target/release/sapper /path/to/old-sapper

With ``--movetime MS`` each search is ``go movetime MS`` instead, and each line
gives the position's nodes per second: the table of issue 31, Sapper next to
Fairy-Stockfish and Multi-Variant Stockfish (whose variant names are the same):

    python3 scripts/time_to_depth.py --movetime 3000 --hash 32 \
        target/release/sapper /path/to/fairy-stockfish /path/to/mv-stockfish

The positions are the start positions of chess, atomic, king of the hill and
three-check and a quiet middlegame of each (``POSITIONS``); ``--variant`` keeps one
variant's.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from dataclasses import dataclass

ITALIAN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
# Atomic: an English-like opening with the knights home (the Italian is lost for
# Black there, Bxf7+, and so was the closed queen's pawn game this list had until
# 2026-12: White wins at once with Ne5, and every engine stops in 10 ms).
ATOMIC_QUIET = "r1bqkbnr/pppnpppp/3p4/8/2P5/5P2/PP1PP1PP/RNBQKBNR b KQkq - 0 3"

# Three-check: the profile's opening (the Italian is won there by Bxf7+, checks to
# the end: a mate search, not a middlegame).
THREE_CHECK_QUIET = "rnbqkb1r/p1ppp1pp/5n2/1p3p2/P6P/5P2/1PPPP1P1/RNBQKBNR w KQkq - 3+3 1 4"

POSITIONS: list[tuple[str, str]] = [
    ("chess", "startpos"),
    ("chess", f"fen {ITALIAN}"),
    ("atomic", "startpos"),
    ("atomic", f"fen {ATOMIC_QUIET}"),
    ("kingofthehill", "startpos"),
    ("kingofthehill", f"fen {ITALIAN}"),
    ("3check", "startpos"),
    ("3check", f"fen {THREE_CHECK_QUIET}"),
]


@dataclass
class Result:
    """One search: wall seconds from ``go`` to ``bestmove``, and the last ``info``
    line's node count."""

    seconds: float
    nodes: int


def search(
    engine: str, variant: str, position: str, depth: int, hash_mb: int, threads: int = 1, movetime: int | None = None
) -> Result:
    """Searches ``position`` (a UCI ``position`` argument) to ``depth``, or for
    ``movetime`` milliseconds when given, in a fresh process of ``engine`` with
    ``threads`` search threads (UCI ``Threads``)."""
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def wait_for(prefix: str) -> list[str]:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"{engine} ended before {prefix!r}")

    send("uci")
    wait_for("uciok")
    if variant != "chess":
        send(f"setoption name UCI_Variant value {variant}")
    send(f"setoption name Hash value {hash_mb}")
    if threads != 1:
        send(f"setoption name Threads value {threads}")
    send("isready")
    wait_for("readyok")
    send(f"position {position}")
    start = time.perf_counter()
    send(f"go movetime {movetime}" if movetime is not None else f"go depth {depth}")
    lines = wait_for("bestmove")
    seconds = time.perf_counter() - start
    send("quit")
    proc.wait(timeout=10)
    nodes = 0
    for line in lines:
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words:
            nodes = int(words[words.index("nodes") + 1])
    return Result(seconds, nodes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engines", nargs="+", help="engine executables")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--hash", type=int, default=64, help="Hash in MB (default: 64)")
    ap.add_argument("--variant", choices=sorted({v for v, _ in POSITIONS}))
    ap.add_argument("--threads", type=int, default=1, help="UCI Threads (default: 1)")
    ap.add_argument("--movetime", type=int, help="search each position this many ms instead of to --depth")
    args = ap.parse_args(argv)
    positions = [(v, p) for v, p in POSITIONS if args.variant in (None, v)]
    for engine in args.engines:
        seconds = nodes = 0.0
        for variant, position in positions:
            r = search(engine, variant, position, args.depth, args.hash, args.threads, args.movetime)
            seconds += r.seconds
            nodes += r.nodes
            rate = f", {r.nodes / r.seconds:.0f} nps" if args.movetime is not None and r.seconds > 0 else ""
            print(f"{engine} {variant} {position[:24]}: {r.seconds:.2f} s, {r.nodes} nodes{rate}", flush=True)
        nps = nodes / seconds if seconds > 0 else 0.0
        limit = f"{args.movetime} ms a position" if args.movetime is not None else f"to depth {args.depth}"
        print(
            f"{engine}: {seconds:.2f} s {limit}, {int(nodes)} nodes, {nps:.0f} nps,"
            f" {args.threads} thread(s)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
