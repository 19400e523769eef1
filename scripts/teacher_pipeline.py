#!/usr/bin/env python3
"""Positions from Sapper, scores from a stronger engine, weights fitted to them: the
evaluation tuning pipeline, in shards, resumable.

For each shard ``k`` (seed ``seed + k``) it runs

1. ``sapper datagen`` (self-play at a low node count from random openings) into
   ``DATA/shard-<seed>.bin``,
2. ``scripts/label_stockfish.py`` (the teacher's score of every position at a fixed
   depth) into ``DATA/shard-<seed>-<tag>.bin``,

skipping a step whose output exists (each is written to ``.tmp`` and renamed when
complete, so an interrupted run leaves no half file behind), and then

3. ``sapper tune --lambda 0`` over every labelled shard, or with ``--fit nnue``
   ``sapper train`` (an NNUE network, docs/nnue.md) over them; ``--no-tune`` skips it;
4. with ``--match GAMES``, ``scripts/match.py``: the file just written (``EvalFile``)
   against the embedded evaluation, at ``--match-tc`` on ``--openings``, with an SPRT
   of [0, 10] Elo that may stop it early (a net is kept on a clock, not on its loss).

Run it again with more ``--shards`` to add data; a folder that survived a stopped
run picks up where it stopped. ``--dry-run`` prints the commands.

    python3 scripts/teacher_pipeline.py --variant atomic --shards 4 --games 6000 \\
        --teacher /path/to/multi-variant-stockfish --tag mv8 --depth 8 \\
        --init nets/atomic-00ef1902.eval --data data/atomic

    python3 scripts/teacher_pipeline.py --variant chess --fit nnue --shards 2 --games 30000 \\
        --teacher /usr/games/stockfish --tag sf6 --depth 6 --data data/chess
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent


def shard_paths(data: Path, seed: int, tag: str) -> tuple[Path, Path]:
    """The positions file of shard ``seed`` and its labelled copy."""
    return data / f"shard-{seed}.bin", data / f"shard-{seed}-{tag}.bin"


def plan(args: argparse.Namespace) -> list[tuple[Path | None, list[str]]]:
    """The commands still to run, each with the file it completes (renamed from
    ``.tmp`` once it succeeds; ``None`` for the tune, which writes its own file)."""
    data = Path(args.data)
    steps: list[tuple[Path | None, list[str]]] = []
    labelled = []
    for k in range(args.shards):
        seed = args.seed + k
        positions, labels = shard_paths(data, seed, args.tag)
        labelled.append(labels)
        if not labels.exists():
            if not positions.exists():
                steps.append(
                    (
                        positions,
                        [args.sapper, "datagen", "-v", args.variant, "--games", str(args.games)]
                        + ["--nodes", str(args.nodes), "--seed", str(seed), "--threads", str(args.threads)]
                        + ["--out", f"{positions}.tmp"],
                    )
                )
            cmd = [sys.executable, str(SCRIPTS / "label_stockfish.py"), "--engine", args.teacher]
            cmd += ["--depth", str(args.depth), "--workers", str(args.threads)]
            for option in [f"UCI_Variant={args.variant}"] + args.teacher_option:
                cmd += ["--option", option]
            cmd += ["--in", str(positions), "--out", f"{labels}.tmp"]
            steps.append((labels, cmd))
    if not args.no_tune:
        nnue = args.fit == "nnue"
        cmd = [args.sapper, "train" if nnue else "tune", "-v", args.variant, "--lambda", f"{args.lambda_:g}"]
        cmd += ["--epochs", str(args.epochs or (30 if nnue else 1000))]
        if nnue:
            cmd += ["--threads", str(args.threads)]
            if args.k:
                cmd += ["--k", f"{args.k:g}"]
            if args.residual:
                cmd += ["--residual"]
        if args.init:
            cmd += ["--init", args.init]
        cmd += ["--out-dir", args.out_dir]
        for labels in labelled:
            cmd += ["--data", str(labels)]
        steps.append((None, cmd))
    return steps


def written_file(fit_stdout: str) -> str:
    """The file a ``sapper tune`` or ``sapper train`` run wrote: its last stdout line
    begins with it, ``<file>: <losses>``."""
    lines = [line for line in fit_stdout.splitlines() if ": " in line]
    if not lines:
        raise SystemExit("the fit printed no file")
    return lines[-1].split(": ", 1)[0]


def match_command(args: argparse.Namespace, file: str) -> list[str]:
    """``scripts/match.py``: ``file`` loaded by ``EvalFile`` against the embedded
    evaluation, both in the same binary."""
    sapper = str(Path(args.sapper).resolve())
    openings = args.openings or str(SCRIPTS.parent / "engine-tests" / "openings" / f"{args.variant}-random.epd")
    cmd = [sys.executable, str(SCRIPTS / "match.py"), "--engine1", sapper, "--name1", Path(file).stem]
    cmd += ["--option1", f"EvalFile={Path(file).resolve()}", "--engine2", sapper, "--name2", "embedded"]
    cmd += ["--variant", args.variant, "--tc", args.match_tc, "--concurrency", str(args.threads)]
    cmd += ["--openings", openings, "--shuffle-seed", str(args.seed), "--games", str(args.match)]
    cmd += ["--sprt", "0,10"]
    return cmd


def parser() -> argparse.ArgumentParser:
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--teacher", required=True, help="UCI engine that scores the positions")
    ap.add_argument("--teacher-option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--tag", required=True, help="names the labelled files, e.g. mv8")
    ap.add_argument("--depth", type=int, default=8, help="the teacher's search depth")
    ap.add_argument("--shards", type=int, default=1)
    ap.add_argument("--games", type=int, default=6000, help="self-play games per shard")
    ap.add_argument("--nodes", type=int, default=1500, help="Sapper's nodes per move in self-play")
    ap.add_argument("--seed", type=int, default=1, help="seed of shard 0 (shard k: seed + k)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--data", required=True, help="folder of the shards (git-ignored)")
    ap.add_argument(
        "--fit",
        choices=["eval", "nnue"],
        default="eval",
        help="what the labels fit: the hand-written evaluation's weights (sapper tune) or a network (sapper train)",
    )
    ap.add_argument("--lambda", dest="lambda_", type=float, default=0.0, help="weight of the game result in the target")
    ap.add_argument("--k", type=float, help="sigmoid scale of the network's loss, centipawns (sapper train --k)")
    ap.add_argument("--init", help="file to start from: a .eval for the tune, a .nnue for the network")
    ap.add_argument(
        "--residual",
        action="store_true",
        help="--fit nnue: the network learns the score less the hand-written evaluation (sapper train --residual)",
    )
    ap.add_argument("--epochs", type=int, help="default 1000 for --fit eval, 30 for --fit nnue")
    ap.add_argument("--out-dir", default="nets")
    ap.add_argument("--no-tune", action="store_true")
    ap.add_argument("--match", type=int, default=0, metavar="GAMES", help="then play the new file against the embedded one")
    ap.add_argument("--match-tc", default="5+0.05", help="the match's clock, seconds (default 5+0.05)")
    ap.add_argument("--openings", help="the match's openings (default engine-tests/openings/VARIANT-random.epd)")
    ap.add_argument("--sapper", default="target/release/sapper")
    ap.add_argument("--dry-run", action="store_true")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    if args.residual and args.fit != "nnue":
        # The hand-written evaluation's tune has no residual form: silently fitting
        # the whole score would make a file the user did not ask for.
        ap.error("--residual needs --fit nnue")

    Path(args.data).mkdir(parents=True, exist_ok=True)
    for done, cmd in plan(args):
        print("+", shlex.join(cmd), flush=True)
        if args.dry_run:
            if done is None and args.match:
                print("+", shlex.join(match_command(args, "FILE")), flush=True)
            continue
        if done is not None:
            subprocess.run(cmd, check=True)
            os.replace(f"{done}.tmp", done)
            continue
        fit = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True)
        print(fit.stdout, end="", flush=True)
        if args.match:
            match = match_command(args, written_file(fit.stdout))
            print("+", shlex.join(match), flush=True)
            subprocess.run(match, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
