#!/usr/bin/env python3
"""Draws Sapper's difficulty ladder: Elo per level with 95% error bars, one line per variant.

Reads the JSON that `scripts/ladder.py --json FILE` writes (per variant: `rows` with
`level`, `nodes`, `step`, `step_error`, `wdl`, `elo`, `error`; `anchors`; `offset`,
`scale`) and writes a picture (SVG or PNG, by the file's suffix). The upper panel is
each level's cumulative Elo above level 0 (the self-play scale every variant shares),
with chess's Stockfish `UCI_Elo` scale (offset + scale x ladder Elo) on the right-hand
axis; the lower panel is each step (level L against level L-1) with its own error bar,
which is what the matches measured.

    python3 scripts/plot_ladder.py docs/data/ladder.json --out docs/img/ladder.svg

The ladders in docs/difficulty.md were measured before their JSON was kept;
`--from-readme` rebuilds the JSON from that page's ladder table (per-step Elo and
error, the chess anchors and the fitted line), leaving out what the table does not
hold (W-D-L per step). The option keeps its name from when the table was in README.md
(until version 0.2.0); it reads any Markdown file with the table:

    python3 scripts/plot_ladder.py --from-readme docs/difficulty.md --write-json docs/data/ladder.json
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

LEVELS = 20
VARIANTS = ["chess", "atomic", "kingofthehill", "minesweeper"]
#: The ladder table's column names for each variant (docs/difficulty.md).
TABLE_NAMES = {"chess": "chess", "atomic": "atomic", "king of the hill": "kingofthehill",
               "minesweeper": "minesweeper"}
LABELS = {"chess": "chess", "atomic": "atomic", "kingofthehill": "king of the hill",
          "minesweeper": "minesweeper"}

_VALUE = re.compile(r"^([+-]?\d+(?:\.\d+)?)\s*\+/-\s*(\d+(?:\.\d+)?)$")
_ANCHOR = re.compile(r"level (\d+) vs (?:`UCI_Elo` )?(\d+): ([+-]?\d+) \+/- (\d+)\s*\((?:W-D-L )?(\d+)-(\d+)-(\d+)\)")
_FIT = re.compile(r"Elo = (\d+(?:\.\d+)?) \+ (\d+(?:\.\d+)?) x ladder Elo")


def parse_value(cell: str) -> tuple[float, float] | None:
    """`+161 +/- 85` -> (161.0, 85.0); an empty cell -> None."""
    cell = cell.strip()
    if not cell:
        return None
    m = _VALUE.match(cell)
    if not m:
        raise ValueError(f"not 'VALUE +/- ERROR': {cell!r}")
    return float(m.group(1)), float(m.group(2))


def cumulate(steps: list[tuple[float, float] | None]) -> list[tuple[float, float] | None]:
    """Cumulative Elo and 95% error of levels 1..N from their steps, as ladder.py sums them:
    Elo adds up, variances add up (error = sqrt of the summed squared errors). A step
    without a result leaves every level above it open (None)."""
    out: list[tuple[float, float] | None] = []
    total, var = 0.0, 0.0
    for step in steps:
        if step is None or total is None:
            total = None
            out.append(None)
            continue
        total += step[0]
        var += step[1] ** 2
        out.append((total, math.sqrt(var)))
    return out


def ladder_table(text: str) -> tuple[list[str], list[list[str]]]:
    """The ladder table of a Markdown text (docs/difficulty.md): its header cells and its
    rows' cells (the table whose header starts with `| level | nodes/move |`)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("| level | nodes/move |"):
            header = [c.strip() for c in line.strip().strip("|").split("|")]
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return header, rows
    raise ValueError("no ladder table (a header '| level | nodes/move | ...')")


def from_readme(text: str, source: str = "difficulty.md") -> dict:
    """Rebuilds ladder.py's JSON from a page's ladder section (docs/difficulty.md).

    Each row's `step`/`step_error` are the table's; `elo`/`error` are their cumulative
    sums (ladder.py's rule: the table's chess column shows them mapped through the
    fitted line); `table_elo`/`table_error` keep the table's own Elo column. `wdl` is
    null: the table does not give W-D-L per step. Chess gets the anchors and the
    fitted line (`offset`, `scale`) from the text around the table."""
    header, rows = ladder_table(text)
    columns: dict[str, tuple[int, int]] = {}
    for name, variant in TABLE_NAMES.items():
        if f"{name} step" in header and f"{name} Elo" in header:
            columns[variant] = (header.index(f"{name} step"), header.index(f"{name} Elo"))
    if not columns:
        raise ValueError("the ladder table names no variant ('<variant> step', '<variant> Elo')")
    anchors = [{"level": int(lv), "stockfish_elo": int(sf), "diff": float(d), "error": float(e),
                "wdl": [int(w), int(dr), int(lo)]}
               for lv, sf, d, e, w, dr, lo in _ANCHOR.findall(" ".join(text.split()))]
    fit = _FIT.search(" ".join(text.split()))
    result: dict[str, dict] = {}
    for variant, (step_col, elo_col) in columns.items():
        by_level = {int(r[0]): r for r in rows}
        if sorted(by_level) != list(range(LEVELS + 1)):
            raise ValueError(f"the table's levels are {sorted(by_level)}, not 0..{LEVELS}")
        steps = [parse_value(by_level[lv][step_col]) for lv in range(1, LEVELS + 1)]
        totals = [(0.0, 0.0)] + cumulate(steps)
        out_rows = []
        for lv in range(LEVELS + 1):
            step = steps[lv - 1] if lv else None
            table = parse_value(by_level[lv][elo_col])
            out_rows.append({
                "level": lv, "nodes": by_level[lv][1],
                "step": None if step is None else step[0],
                "step_error": None if step is None else step[1],
                "wdl": None,
                "elo": None if totals[lv] is None else totals[lv][0],
                "error": None if totals[lv] is None else totals[lv][1],
                "table_elo": None if table is None else table[0],
                "table_error": None if table is None else table[1],
            })
        mapped = variant == "chess" and fit is not None
        result[variant] = {
            "rows": out_rows,
            "anchors": anchors if variant == "chess" else [],
            "offset": float(fit.group(1)) if mapped else None,
            "scale": float(fit.group(2)) if mapped else 1.0,
            "source": f"reconstructed by scripts/plot_ladder.py --from-readme from {source}'s ladder "
                      "table (per-step Elo and error as printed, rounded to whole Elo); elo/error are "
                      "their cumulative sums as ladder.py computes them; W-D-L per step was not "
                      "printed there, so wdl is null",
        }
    return result


def series(data: dict) -> list[dict]:
    """Per variant present in `data` (in VARIANTS order), the points to draw: levels with
    a cumulative Elo (`levels`, `elo`, `error`), levels with a step (`step_levels`,
    `step`, `step_error`), and the chess mapping (`offset`, `scale`; offset None when
    the ladder has no anchors)."""
    out = []
    for variant in VARIANTS:
        if not isinstance(data.get(variant), dict):
            continue
        v = data[variant]
        rows = sorted(v["rows"], key=lambda r: r["level"])
        with_elo = [r for r in rows if r.get("elo") is not None]
        with_step = [r for r in rows if r.get("step") is not None]
        out.append({
            "variant": variant,
            "levels": [r["level"] for r in with_elo],
            "elo": [r["elo"] for r in with_elo],
            "error": [r.get("error") or 0.0 for r in with_elo],
            "step_levels": [r["level"] for r in with_step],
            "step": [r["step"] for r in with_step],
            "step_error": [r.get("step_error") or 0.0 for r in with_step],
            "offset": v.get("offset"),
            "scale": v.get("scale") or 1.0,
        })
    if not out:
        raise ValueError(f"no ladder in the JSON (expected a key among {VARIANTS})")
    return out


def plot(data: dict, out: Path) -> None:
    """Draws `data` (ladder.py's JSON) to `out` (.svg or .png)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # Reproducible files: no date, fixed element ids.
    plt.rcParams.update({"svg.hashsalt": "sapper-ladder", "svg.fonttype": "path", "font.size": 9})
    lines = series(data)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7.5), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 2]})
    spread = 0.12  # horizontal offset between variants, so error bars do not overlap
    for i, s in enumerate(lines):
        dx = (i - (len(lines) - 1) / 2) * spread
        label = LABELS[s["variant"]]
        top.errorbar([x + dx for x in s["levels"]], s["elo"], yerr=s["error"], marker="o",
                     markersize=3, capsize=2, linewidth=1.2, elinewidth=0.7, label=label)
        bottom.errorbar([x + dx for x in s["step_levels"]], s["step"], yerr=s["step_error"],
                        marker="o", markersize=3, capsize=2, linewidth=0, elinewidth=0.7, label=label)
    top.set_ylabel("Elo above level 0 (self-play, 95% error)")
    top.set_title("Sapper's difficulty ladder: each level against the one below it")
    top.grid(alpha=0.3)
    top.legend(loc="upper left")
    chess = next((s for s in lines if s["variant"] == "chess" and s["offset"] is not None), None)
    if chess:
        offset, scale = chess["offset"], chess["scale"]
        right = top.secondary_yaxis("right", functions=(lambda y: offset + scale * y,
                                                         lambda e: (e - offset) / scale))
        right.set_ylabel(f"chess: Stockfish UCI_Elo = {offset:.0f} + {scale:.3f} x ladder Elo")
    bottom.axhline(0, color="grey", linewidth=0.8)
    bottom.set_ylabel("step: level L vs L-1, Elo")
    bottom.set_xlabel("Skill Level (node budget 50 x 1.5^level; 20 = full strength)")
    bottom.set_xticks(range(LEVELS + 1))
    bottom.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, metadata={"Date": None} if out.suffix == ".svg" else None)
    plt.close(fig)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("json", nargs="?", help="ladder JSON (scripts/ladder.py --json)")
    p.add_argument("--out", help="picture to write (.svg or .png)")
    p.add_argument("--from-readme", metavar="MARKDOWN",
                   help="rebuild the JSON from this Markdown file's ladder table (docs/difficulty.md)")
    p.add_argument("--write-json", metavar="FILE", help="with --from-readme: write the rebuilt JSON here")
    args = p.parse_args()
    if args.from_readme:
        readme = Path(args.from_readme)
        data = from_readme(readme.read_text(), readme.name)
        if args.write_json:
            Path(args.write_json).write_text(json.dumps(data, indent=2) + "\n")
    elif args.json:
        data = json.loads(Path(args.json).read_text())
    else:
        p.error("give a ladder JSON file or --from-readme docs/difficulty.md")
    if args.out:
        plot(data, Path(args.out))
    elif not args.write_json:
        p.error("nothing to do: give --out (and/or --write-json)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
