"""Unit tests for match.py's statistics and SPRT bookkeeping (no engine is run:
games are made-up records); run with ``python3 -m pytest scripts/``. The numbers
come from ``sapper stats`` (see test_stats.py)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import chess
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import match


def record(number: int, engine1_score: float) -> match.GameRecord:
    """Game ``number`` (1-based; engine 1 is White in odd games) that engine 1 scored
    ``engine1_score`` in."""
    white = number % 2 == 1
    white_score = engine1_score if white else 1.0 - engine1_score
    result = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[white_score]
    task = match.GameTask(number, match.Opening(0, chess.STARTING_FEN), white)
    return match.GameRecord(task, "w", "b", result, "checkmate", chess.Board(), [])


ENGINES = (match.EngineSpec("one", ["one"], {}), match.EngineSpec("two", ["two"], {}))


def test_summary_counts_pairs_and_takes_the_shared_statistics() -> None:
    # Pairs: (1, 0) -> 1 point, (0.5, 0.5) -> 1, (1, 1) -> 2; one unpaired game.
    scores = [1.0, 0.0, 0.5, 0.5, 1.0, 1.0, 0.0]
    records = [record(i + 1, s) for i, s in enumerate(scores)]
    summary = match.summarize(records, ENGINES, sprt=match.SprtConfig(0.0, 10.0))
    assert (summary["wins"], summary["draws"], summary["losses"]) == (3, 2, 2)
    assert summary["pentanomial"] == [0, 0, 2, 0, 1]
    assert summary["pairs"] == 3
    assert summary["score"] == pytest.approx(4 / 7)
    assert summary["elo"] == pytest.approx(400 * math.log10(4 / 3))
    # Pair means 0.5, 0.5, 1: mean 2/3.
    assert summary["elo_pentanomial"] == pytest.approx(400 * math.log10(2))
    assert summary["sprt_lower"] == pytest.approx(-math.log(19))
    assert summary["sprt_decision"] is None
    assert "nan" not in match.summary_json(summary).lower()


def test_sprt_tracker_updates_once_a_pair_is_complete() -> None:
    tracker = match.SprtTracker(match.SprtConfig(0.0, 10.0))
    assert (tracker.lower, tracker.upper) == pytest.approx((-math.log(19), math.log(19)))
    assert not tracker.add(record(1, 1.0))
    assert tracker.llr == 0.0
    assert tracker.add(record(2, 1.0))
    assert tracker.pairs == 1 and tracker.llr > 0.0
    # Every pair won twice: the LLR rises by about ln(s1 / s0) = 0.029 a pair until H1.
    pair = 1
    while tracker.decision is None:
        assert not tracker.add(record(2 * pair + 1, 1.0))
        assert tracker.add(record(2 * pair + 2, 1.0))
        pair += 1
        assert pair < 200
    assert 50 < tracker.pairs < 200
    assert tracker.decision == "H1"
    assert tracker.llr >= tracker.upper
    assert "SPRT [0,10]" in tracker.status_line()
