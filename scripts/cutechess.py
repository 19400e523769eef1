#!/usr/bin/env python3
"""A match through cutechess-cli (the runner other engine authors use), summarized
with Sapper's statistics.

Runs ``cutechess-cli`` (``$CUTECHESS`` or ``cutechess-cli`` on the PATH, v1.5.1 was
used) with both colours per opening (``-repeat -games 2``), writes its PGN, and reads
the PGN back: W-D-L and the pentanomial counts of the opening pairs for engine 1,
the Elo and 95 % error bars from ``sapper stats`` (``scripts/stats.py``), and how
games ended (time forfeits counted apart). cutechess-cli adjudicates the variants'
ends by its own rules (atomic, king of the hill, three-check).

    python3 scripts/cutechess.py --engine1 target/release/sapper \\
        --engine2 /path/to/fairy-stockfish --variant atomic --tc 5+0.05 --games 200 \\
        --openings engine-tests/openings/atomic-random.epd --pgn /tmp/atomic.pgn

The last line is one to paste into a table or a changelog:
``atomic tc=5+0.05 sapper vs fairy-stockfish: +12.3 +/- 45.6 (pentanomial), 200 games, W-D-L 80-50-70, 0 time losses``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parent))
import stats  # noqa: E402

CUTECHESS_VARIANTS = {
    "chess": "standard",
    "atomic": "atomic",
    "kingofthehill": "kingofthehill",
    "3check": "3check",
}


def engine_args(cmd: str, name: str, options: list[str]) -> list[str]:
    """cutechess-cli's `-engine` arguments for one engine."""
    parts = shlex.split(cmd)
    out = ["-engine", f"name={name}", f"cmd={parts[0]}"]
    if len(parts) > 1:
        out.append("arg=" + " ".join(parts[1:]))
    out += [f"option.{o}" for o in options]
    return out


def command(args: argparse.Namespace) -> list[str]:
    """The cutechess-cli command line for `args`."""
    exe = os.environ.get("CUTECHESS") or shutil.which("cutechess-cli") or "cutechess-cli"
    rounds = (args.games + 1) // 2
    cmd = [exe]
    cmd += engine_args(args.engine1, args.name1, args.option1)
    cmd += engine_args(args.engine2, args.name2, args.option2)
    each = ["proto=uci", f"timemargin={args.timemargin}"]
    each.append(f"tc={args.tc}" if args.tc else f"nodes={args.nodes}" if args.nodes else f"st={args.movetime / 1000}")
    if args.nodes and not args.tc:
        each[-1] = "tc=inf"
        each.append(f"nodes={args.nodes}")
    cmd += ["-each", *each]
    cmd += ["-variant", CUTECHESS_VARIANTS[args.variant]]
    cmd += ["-openings", f"file={args.openings}", "format=epd", "order=sequential", "policy=round"]
    cmd += ["-repeat", "-games", "2", "-rounds", str(rounds)]
    cmd += ["-concurrency", str(args.concurrency), "-recover", "-ratinginterval", "20"]
    cmd += ["-pgnout", str(args.pgn)]
    return cmd


def score_for(result: str, engine1_is_white: bool) -> float | None:
    """Engine 1's points in a game with PGN result `result`."""
    white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
    if white is None:
        return None
    return white if engine1_is_white else 1.0 - white


def read_pgn(text: str, name1: str) -> dict:
    """W-D-L, pentanomial counts and endings of engine `name1` in a cutechess PGN."""
    wdl = [0, 0, 0]
    endings: Counter[str] = Counter()
    time_losses: Counter[str] = Counter()
    pairs: dict[tuple[str, str], list[float]] = {}
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        h = game.headers
        s = score_for(h.get("Result", "*"), h.get("White") == name1)
        if s is None:
            continue
        wdl[{1.0: 0, 0.5: 1, 0.0: 2}[s]] += 1
        ending = h.get("Termination", "normal")
        # cutechess ends the last move's comment with the reason: "+M1/12 0.01s, Black mates".
        comment = (game.end().comment or "").rsplit(", ", 1)
        reason = comment[1] if len(comment) == 2 else ending
        endings[reason] += 1
        if "time forfeit" in ending or "on time" in reason:
            loser = h["White"] if h["Result"] == "0-1" else h["Black"]
            time_losses[loser] += 1
        pairs.setdefault((h.get("Round", "?"), h.get("FEN", "")), []).append(s)
    complete = [(p[0], p[1]) for p in pairs.values() if len(p) == 2]
    return {
        "wdl": wdl,
        "pentanomial": stats.pentanomial_counts(complete),
        "endings": dict(endings.most_common()),
        "time_losses": dict(time_losses),
    }


def summarize(tally: dict, args: argparse.Namespace) -> dict:
    """`tally` with the statistics of `sapper stats` added."""
    games = sum(tally["wdl"])
    out = dict(tally, games=games, variant=args.variant, engine1=args.name1, engine2=args.name2,
               tc=args.tc or (f"nodes={args.nodes}" if args.nodes else f"movetime={args.movetime}"))
    if games:
        tri = stats.compute(wdl=tally["wdl"])
        out["elo"], out["elo_error95_trinomial"] = tri["elo"], tri["elo_error95"]
        if sum(tally["pentanomial"]):
            penta = stats.compute(pentanomial=tally["pentanomial"])
            out["elo_pentanomial"] = penta["elo_pentanomial"]
            out["elo_error95"] = penta["elo_error95_pentanomial"]
        else:
            out["elo_error95"] = tri["elo_error95"]
    return out


def result_line(s: dict) -> str:
    """The one line of a result."""
    w, d, l = s["wdl"]
    elo = s.get("elo_pentanomial", s.get("elo", float("nan")))
    kind = "pentanomial" if "elo_pentanomial" in s else "trinomial"
    losses = sum(s["time_losses"].values())
    return (f"{s['variant']} tc={s['tc']} {s['engine1']} vs {s['engine2']}: {elo:+.1f} +/- "
            f"{s['elo_error95']:.1f} ({kind}), {s['games']} games, W-D-L {w}-{d}-{l}, {losses} time losses")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine1", required=True)
    ap.add_argument("--engine2", required=True)
    ap.add_argument("--name1")
    ap.add_argument("--name2")
    ap.add_argument("--option1", action="append", default=[], help="NAME=VALUE, repeatable")
    ap.add_argument("--option2", action="append", default=[], help="NAME=VALUE, repeatable")
    ap.add_argument("--variant", choices=sorted(CUTECHESS_VARIANTS), default="chess")
    limit = ap.add_mutually_exclusive_group(required=True)
    limit.add_argument("--tc", help="cutechess time control, e.g. 5+0.05")
    limit.add_argument("--nodes", type=int)
    limit.add_argument("--movetime", type=int, help="milliseconds per move")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--timemargin", type=int, default=50, help="ms an engine may overrun its clock")
    ap.add_argument("--openings", type=Path, required=True, help="EPD/FEN file, one position a line")
    ap.add_argument("--pgn", type=Path, required=True)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--dry-run", action="store_true", help="print the cutechess-cli command only")
    args = ap.parse_args(argv)
    args.name1 = args.name1 or Path(shlex.split(args.engine1)[0]).name
    args.name2 = args.name2 or Path(shlex.split(args.engine2)[0]).name
    if args.name1 == args.name2:
        args.name1, args.name2 = args.name1 + "-1", args.name2 + "-2"
    # cutechess reads `#` lines as positions: hand it the FENs alone.
    fens = [l.strip() for l in args.openings.read_text().splitlines() if l.strip() and not l.startswith("#")]
    plain = args.pgn.with_suffix(".openings.epd")
    plain.write_text("\n".join(fens) + "\n")
    args.openings = plain
    cmd = command(args)
    print(shlex.join(cmd), file=sys.stderr)
    if args.dry_run:
        return 0
    args.pgn.unlink(missing_ok=True)
    done = subprocess.run(cmd, check=False)
    if done.returncode != 0:
        print(f"cutechess-cli exited with {done.returncode}", file=sys.stderr)
    summary = summarize(read_pgn(args.pgn.read_text(), args.name1), args)
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps({k: summary[k] for k in ("endings", "time_losses", "pentanomial")}))
    print(result_line(summary))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
