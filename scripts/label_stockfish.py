#!/usr/bin/env python3
"""Relabel a `sapper datagen` file with another engine's search scores.

Reads a datagen file (docs/datagen-format.md), searches every record's FEN with a
UCI engine (Stockfish by default) to a fixed depth, and writes a file of the same
format whose score field is that engine's score, White's point of view, centipawns
(mates and larger scores clamped to +-10000). The game result and the other fields
are kept. `sapper tune --lambda 0` then fits the evaluation to the engine's scores
instead of Sapper's own (distillation, as engines have long tuned on positions
labelled by a stronger engine).

The records are split over `--workers` engine processes; the output keeps the input
order. Standard library only.

    python3 scripts/label_stockfish.py --engine /usr/games/stockfish --depth 8 \
        --in data/chess-s201.bin --out data/chess-s201-sf8.bin --workers 2
"""

import argparse
import struct
import subprocess
import sys
import time
from multiprocessing import Pool

MAGIC = b"SAPPERDG"
CLAMP = 10000


def read_file(path):
    """Returns (version, header text, list of raw records: (fixed fields, fen))."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MAGIC:
        raise SystemExit(f"{path}: not a sapper datagen file")
    version, hlen = struct.unpack_from("<II", data, 8)
    header = data[16 : 16 + hlen].decode()
    pos = 16 + hlen
    records = []
    while pos + 2 <= len(data):
        (length,) = struct.unpack_from("<H", data, pos)
        body = data[pos + 2 : pos + 2 + length]
        if len(body) < length:
            break  # a record cut short by a stopped generator
        flen = body[10]
        fen = body[11 : 11 + flen].decode()
        records.append((body, fen))
        pos += 2 + length
    return version, header, records


class Engine:
    """One UCI engine process searching positions to a fixed limit."""

    def __init__(self, path, limit, hash_mb, options=()):
        self.limit = limit
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("setoption name Threads value 1")
        for option in options:
            name, _, value = option.partition("=")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(word):
                return line

    def score(self, fen):
        """The last reported score of a search of `fen`, side to move's view, cp."""
        self.send("position fen " + fen)
        self.send("go " + self.limit)
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith("bestmove"):
                return score
            tokens = line.split()
            if tokens[:1] == ["info"] and "string" not in tokens and "score" in tokens:
                i = tokens.index("score")
                kind, value = tokens[i + 1], int(tokens[i + 2])
                if "lowerbound" in tokens or "upperbound" in tokens:
                    continue
                if kind == "cp":
                    score = max(-CLAMP, min(CLAMP, value))
                else:  # mate N: positive, the side to move mates
                    score = CLAMP if value > 0 else -CLAMP


_engine = None


def _init(path, limit, hash_mb, options):
    global _engine
    _engine = Engine(path, limit, hash_mb, options)


def _label(fen):
    s = _engine.score(fen)
    if s is None:
        return None
    white_to_move = fen.split()[1] == "w"
    return s if white_to_move else -s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--in", dest="inp", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--hash", type=int, default=16, help="MiB per engine")
    ap.add_argument("--limit", type=int, default=0, help="label only the first N records")
    ap.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="UCI option (repeatable)"
    )
    args = ap.parse_args()

    version, header, records = read_file(args.inp)
    if args.limit:
        records = records[: args.limit]
    limit = f"depth {args.depth}"
    engine_name = subprocess.run(
        [args.engine], input="uci\nquit\n", capture_output=True, text=True
    ).stdout
    name = next(
        (l[8:].strip() for l in engine_name.splitlines() if l.startswith("id name ")),
        args.engine,
    )
    options = "".join(f", {o}" for o in args.option)
    header += f"\nlabels=scores by {name}, go {limit}, one thread, hash {args.hash} MiB{options} ({args.inp})\n"

    t0 = time.time()
    out = bytearray(MAGIC + struct.pack("<II", version, len(header.encode())) + header.encode())
    kept = 0
    with Pool(args.workers, initializer=_init, initargs=(args.engine, limit, args.hash, args.option)) as pool:
        fens = [fen for _, fen in records]
        for n, (score, (body, _)) in enumerate(
            zip(pool.imap(_label, fens, chunksize=64), records), 1
        ):
            if score is not None:
                body = bytearray(body)
                struct.pack_into("<h", body, 2, score)
                out += struct.pack("<H", len(body)) + body
                kept += 1
            if n % 20000 == 0:
                rate = n / (time.time() - t0)
                print(f"{n}/{len(records)} labelled, {rate:.0f}/s", file=sys.stderr, flush=True)
    with open(args.out, "wb") as f:
        f.write(out)
    print(f"{kept} records written to {args.out} in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
