"""Match statistics for the Python match runners (``match.py``, ``ladder.py``).

The statistics themselves are computed by ``sapper stats`` (``crates/tools/src/stats.rs``), the
one implementation that ``sapper referee`` also uses: Elo with trinomial and
pentanomial 95 % error bars and the pentanomial GSPRT of fishtest and OpenBench.
This module only counts game pairs and runs that command.

The binary is ``$SAPPER_BIN`` if set, else ``target/release/sapper`` of this
checkout (``cargo build --release``).

Conventions (those of ``crates/tools/src/stats.rs``):

* A *score* is the expected points per game for the engine of interest, in
  ``[0, 1]`` (win = 1, draw = 0.5, loss = 0); Elo is logistic,
  ``score = 1 / (1 + 10 ** (-elo / 400))``.
* An error bar is the half-width of the 95 % interval obtained by mapping the
  normal interval of the mean score through the Elo formula; it is ``inf`` when
  that interval reaches 0 % or 100 %, and undefined values are ``nan``.
* Pentanomial counts are indexed by the points the engine scored in a game
  *pair* (the same opening played with both colours):
  ``[0, 0.5, 1, 1.5, 2]`` points, i.e. ``[LL, LD, LW+DD, DW, WW]``.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

#: Points per game pair for each pentanomial bucket, in index order.
PENTANOMIAL_PAIR_POINTS: tuple[float, ...] = (0.0, 0.5, 1.0, 1.5, 2.0)

ROOT = Path(__file__).resolve().parent.parent


def sapper_binary() -> Path:
    """The ``sapper`` that computes the statistics: ``$SAPPER_BIN`` or this
    checkout's ``target/release/sapper``."""
    path = Path(os.environ.get("SAPPER_BIN") or ROOT / "target" / "release" / "sapper")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: build it with `cargo build --release` or set SAPPER_BIN")
    return path


def compute(
    *,
    wdl: Sequence[int] | None = None,
    pentanomial: Sequence[int] | None = None,
    score: float | None = None,
    sprt: tuple[float, float] | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    elo_model: str = "logistic",
) -> dict[str, Any]:
    """Run ``sapper stats`` and return its JSON object (see ``report_json`` in
    ``crates/tools/src/stats.rs`` for the keys).

    ``wdl``: wins, draws, losses; ``pentanomial``: five pair counts; ``score``:
    a mean score to convert to Elo; ``sprt``: ``(elo0, elo1)`` over the
    pentanomial counts, in ``elo_model`` Elo (``"logistic"``, as ``match.py``
    has always used, or ``"normalized"``). Raises ``ValueError`` for arguments
    ``sapper stats`` refuses.
    """
    cmd = [str(sapper_binary()), "stats"]
    if wdl is not None:
        cmd += ["--wdl", ",".join(str(int(n)) for n in wdl)]
    if pentanomial is not None:
        cmd += ["--pentanomial", ",".join(str(int(n)) for n in pentanomial)]
    if score is not None:
        cmd += ["--score", repr(float(score))]
    if sprt is not None:
        cmd += [f"--sprt={sprt[0]!r},{sprt[1]!r}", "--elo-model", elo_model,
                "--alpha", repr(alpha), "--beta", repr(beta)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ValueError(done.stderr.strip() or f"{cmd} failed")
    # `sapper stats` writes NaN and +-Infinity as the tokens json reads.
    return json.loads(done.stdout)


def elo_from_score(score: float) -> float:
    """The logistic Elo difference of a mean score (``+-inf`` at 1 and 0)."""
    return float(compute(score=score)["score_elo"])


def trinomial(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """``(score, elo, error95)`` of a W/D/L record, every game an independent
    sample; all ``nan`` without games."""
    r = compute(wdl=(wins, draws, losses))
    return r["score"], r["elo"], r["elo_error95"]


def pentanomial_counts(pair_scores: Iterable[tuple[float, float]]) -> list[int]:
    """Bucket game pairs by the total points the engine scored in them.

    ``pair_scores`` yields, for every complete pair, the engine's score in each
    of the two games (each 0, 0.5 or 1).  Returns the five counts
    ``[LL, LD, LW+DD, DW, WW]`` (pair totals 0, 0.5, 1, 1.5, 2).

    >>> pentanomial_counts([(1, 0), (0.5, 0.5), (1, 1), (0, 0.5)])
    [0, 1, 2, 0, 1]
    """
    counts = [0] * len(PENTANOMIAL_PAIR_POINTS)
    for first, second in pair_scores:
        for s in (first, second):
            if s not in (0.0, 0.5, 1.0):
                raise ValueError(f"game score must be 0, 0.5 or 1, got {s!r}")
        counts[round(2 * (first + second))] += 1
    return counts
