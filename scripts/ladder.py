#!/usr/bin/env python3
"""Measures Sapper's difficulty ladder: level L+1 against level L, for every L.

Each step is a match (scripts/match.py, or `sapper referee` for minesweeper) between
neighbouring `Skill Level`s under one node cap per move (level 20's limit; lower levels
stop at their own budgets), so results do not depend on the machine's load and every
step has its own error bar;
the cumulative sum places every level on one scale, level 0 = 0. In chess, anchor
matches against Stockfish at `UCI_LimitStrength`/`UCI_Elo` fix the scale's offset and
its stretch (see fit_anchors), so the numbers read as Stockfish's `UCI_Elo`.

Usage:
    python3 scripts/ladder.py --variant chess atomic --games 30 --concurrency 2
    python3 scripts/ladder.py --variant chess --anchor 8:1350 --stockfish /usr/games/stockfish

Prints a Markdown table per variant (and writes JSON with --json).
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import stats

ROOT = Path(__file__).resolve().parent.parent
LEVELS = 20


def node_budget(level: int) -> str:
    """The node budget of a level, as crates/engine/src/skill.rs defines it."""
    return "unlimited" if level >= LEVELS else str(round(50 * 1.5**level))


def run_match(args: argparse.Namespace, variant: str, opts1: list[str], opts2: list[str],
              engine2: str | None = None, names: tuple[str, str] | None = None) -> dict:
    """Plays one match; returns the summary JSON (Elo of engine 1).

    `names` name the two sides in the summary (minesweeper: its `mine_losses` are
    keyed by them)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = tmp.name
    if variant == "minesweeper":
        cmd = [args.engine, "referee", "--engine1", args.engine, "--engine2", engine2 or args.engine,
               "--games", str(args.games), "--concurrency", str(args.concurrency),
               "--nodes", str(args.nodes), "--seed", str(args.seed), "--json", out]
        if names:
            cmd += ["--name1", names[0], "--name2", names[1]]
        for o in opts1:
            cmd += ["--option1", o]
        for o in opts2:
            cmd += ["--option2", o]
    else:
        cmd = [sys.executable, str(ROOT / "scripts/match.py"), "--engine1", args.engine,
               "--engine2", engine2 or args.engine, "--variant", variant, "--games", str(args.games),
               "--concurrency", str(args.concurrency), "--nodes", str(args.nodes),
               "--seed", str(args.seed), "--openings", str(ROOT / f"engine-tests/openings/{variant}.epd"), "--json", out]
        for o in opts1:
            cmd += ["--option1", o]
        for o in opts2:
            cmd += ["--option2", o]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    summary = json.loads(Path(out).read_text())
    Path(out).unlink()
    return summary


def elo_and_error(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """Elo of the side with `wins` and its 95% error (trinomial), capped when one-sided.

    Needs at least one game."""
    n = wins + draws + losses
    score, elo, err = stats.trinomial(wins, draws, losses)
    if not 0.0 < score < 1.0 or not math.isfinite(err):
        # A clean sweep (or a lopsided record) has no finite error bar: count a sweep
        # as half a game short of one, with a wide error bar.
        score = min(max(score, 0.5 / n), 1 - 0.5 / n)
        return stats.elo_from_score(score), 400.0
    return elo, err


def fit_anchors(rows: list[dict], anchors: list[dict]) -> tuple[float, float]:
    """Maps the self-play scale onto Stockfish's: Elo = offset + scale * ladder Elo.

    Each anchor says Elo(level) = stockfish_elo + diff. With anchors at two or more
    levels, offset and scale are a least-squares line through them (self-play ladders
    overstate differences between versions of one engine, so the scale comes out below
    1); with one level, the scale stays 1 and the offset is the mean implied one.
    """
    xs = [rows[a["level"]]["elo"] for a in anchors]
    ys = [a["stockfish_elo"] + a["diff"] for a in anchors]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return my - mx, 1.0
    scale = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - scale * mx, scale


def ladder(args: argparse.Namespace, variant: str, earlier: list[dict] | None) -> list[dict]:
    """Plays the steps in `args.levels` and pools them with `earlier` rows (same step)."""
    first, last = args.levels
    rows = [{"level": 0, "nodes": node_budget(0), "step": None, "elo": 0.0, "error": 0.0}]
    total, total_var = 0.0, 0.0
    # Minesweeper: pieces each level lost to mines, and its games, over both steps it
    # played in (this run's games only).
    mines = {level: [0, 0] for level in range(LEVELS + 1)}
    for level in range(1, LEVELS + 1):
        wdl = [0, 0, 0]
        if earlier and earlier[level].get("wdl"):
            wdl = list(earlier[level]["wdl"])
        if first <= level <= last:
            names = (f"level {level}", f"level {level - 1}")
            summary = run_match(args, variant, [f"Skill Level={level}"], [f"Skill Level={level - 1}"],
                                names=names)
            for lvl, name in zip((level, level - 1), names):
                mines[lvl][0] += summary.get("mine_losses", {}).get(name, 0)
                mines[lvl][1] += summary["games"]
            new = [summary["wins"], summary["draws"], summary["losses"]]
            wdl = [a + b for a, b in zip(wdl, new)]
            print(f"{variant} level {level} vs {level - 1}: W-D-L {'-'.join(map(str, new))} now, "
                  f"{'-'.join(map(str, wdl))} in all", flush=True)
        row = {"level": level, "nodes": node_budget(level), "step": None, "step_error": None,
               "wdl": wdl if sum(wdl) else None, "elo": None, "error": None}
        if sum(wdl):
            step, err = elo_and_error(*wdl)
            row.update(step=step, step_error=err)
            if total is not None:
                total += step
                total_var += (err / 1.96) ** 2
        else:
            total = None  # a step without games: no cumulative Elo above it
        if total is not None:
            row.update(elo=total, error=1.96 * math.sqrt(total_var))
        rows.append(row)
    if variant == "minesweeper":
        for row in rows:
            lost, games = mines[row["level"]]
            row["mine_losses_per_game"] = lost / games if games else None
    return rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", default=str(ROOT / "target/release/sapper"))
    p.add_argument("--variant", nargs="+", default=["chess"],
                   choices=["chess", "atomic", "kingofthehill", "minesweeper"])
    p.add_argument("--games", type=int, default=30, help="games per step (pairs of openings)")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--nodes", type=int, default=250_000,
                   help="node cap per move for every level (level 20's limit; lower levels have smaller budgets)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    p.add_argument("--anchor", action="append", default=[],
                   help="LEVEL:ELO: play Sapper at LEVEL against Stockfish at UCI_Elo ELO (chess)")
    p.add_argument("--levels", nargs=2, type=int, metavar=("FIRST", "LAST"), default=[1, LEVELS],
                   help="play only steps FIRST..LAST (step L is level L against level L-1)")
    p.add_argument("--add", help="an earlier --json file: its games are pooled with this run's, "
                   "step by step, and steps not played now are taken from it")
    p.add_argument("--json", help="write all results here")
    args = p.parse_args()
    earlier = json.loads(Path(args.add).read_text()) if args.add else {}

    results: dict[str, dict] = {}
    for variant in args.variant:
        before = earlier.get(variant, {})
        rows = ladder(args, variant, before.get("rows"))
        offset, scale = None, 1.0
        anchors = [] if args.anchor else list(before.get("anchors", []))
        if variant == "chess":
            for spec in args.anchor:
                level, sf_elo = (int(x) for x in spec.split(":"))
                summary = run_match(args, variant, [f"Skill Level={level}"],
                                    ["UCI_LimitStrength=true", f"UCI_Elo={sf_elo}"], engine2=args.stockfish)
                diff, err = elo_and_error(summary["wins"], summary["draws"], summary["losses"])
                anchors.append({"level": level, "stockfish_elo": sf_elo, "diff": diff, "error": err,
                                "wdl": [summary["wins"], summary["draws"], summary["losses"]]})
                print(f"anchor: level {level} vs Stockfish UCI_Elo {sf_elo}: {diff:+.0f} +/- {err:.0f}", flush=True)
            if anchors and all(rows[a["level"]]["elo"] is not None for a in anchors):
                offset, scale = fit_anchors(rows, anchors)
        results[variant] = {"rows": rows, "anchors": anchors, "offset": offset, "scale": scale}
        label = "Stockfish UCI_Elo" if offset is not None else "Elo relative to level 0"
        print(f"\n### {variant} ({label})\n")
        mined = any(r.get("mine_losses_per_game") is not None for r in rows)
        print("| level | nodes/move | step vs level below | W-D-L | Elo |" + (" pieces lost to mines per game |" if mined else ""))
        print("|---|---|---|---|---|" + ("---|" if mined else ""))
        for r in rows:
            step = "" if r["step"] is None else f"{r['step']:+.0f} +/- {r['step_error']:.0f}"
            games = "" if r.get("wdl") is None else "-".join(map(str, r["wdl"]))
            elo = "" if r["elo"] is None else \
                f"{(offset or 0) + scale * r['elo']:.0f} +/- {scale * r['error']:.0f}"
            lost = r.get("mine_losses_per_game")
            extra = "" if not mined else (" |" if lost is None else f" {lost:.2f} |")
            print(f"| {r['level']} | {r['nodes']} | {step} | {games} | {elo} |{extra}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
