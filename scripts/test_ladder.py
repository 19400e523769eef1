"""Unit tests for scripts/ladder.py (no engine is run: matches are replaced by fixed
records); run with ``python3 -m pytest scripts/``."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ladder
import stats


def fake_matches(monkeypatch: pytest.MonkeyPatch, record: tuple[int, int, int]) -> list[list[str]]:
    """Every match returns `record`; returns the list of engine-1 options played."""
    played: list[list[str]] = []

    def run_match(args, variant, opts1, opts2, engine2=None, names=None):  # noqa: ANN001
        played.append(opts1)
        w, d, l = record
        summary = {"wins": w, "draws": d, "losses": l, "games": w + d + l}
        if names:
            # The higher level loses one piece to a mine a match, the lower level's
            # losses count its level number.
            level = int(opts1[0].split("=")[1])
            summary["mine_losses"] = {names[0]: 1, names[1]: level - 1}
        return summary

    monkeypatch.setattr(ladder, "run_match", run_match)
    return played


def test_elo_and_error_matches_stats_and_caps_sweeps() -> None:
    elo, err = ladder.elo_and_error(9, 0, 7)
    assert elo == pytest.approx(400 * math.log10(9 / 7))
    assert err == pytest.approx(stats.trinomial(9, 0, 7)[2])
    elo, err = ladder.elo_and_error(16, 0, 0)
    assert elo == pytest.approx(400 * math.log10(31))  # 15.5 of 16
    assert err == 400.0
    elo, _ = ladder.elo_and_error(0, 0, 16)
    assert elo == pytest.approx(-400 * math.log10(31))


def test_partial_run_pools_with_earlier_games(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    earlier = {"atomic": {"rows": [{"level": 0}] + [
        {"level": lv, "wdl": [6, 0, 10] if lv == 5 else [10, 0, 6]} for lv in range(1, 21)]}}
    before = tmp_path / "before.json"
    before.write_text(json.dumps(earlier))
    after = tmp_path / "after.json"
    played = fake_matches(monkeypatch, (30, 4, 14))
    monkeypatch.setattr(sys, "argv", ["ladder.py", "--variant", "atomic", "--levels", "4", "5",
                                      "--add", str(before), "--json", str(after)])
    assert ladder.main() == 0
    assert played == [["Skill Level=4"], ["Skill Level=5"]]
    rows = json.loads(after.read_text())["atomic"]["rows"]
    assert rows[3]["wdl"] == [10, 0, 6]  # not played: taken over
    assert rows[4]["wdl"] == [40, 4, 20]
    assert rows[5]["wdl"] == [36, 4, 24]
    assert rows[5]["step"] == pytest.approx(400 * math.log10(38 / 26))
    assert rows[20]["elo"] == pytest.approx(sum(r["step"] for r in rows[1:]))
    assert "| 5 | 380 |" in capsys.readouterr().out


def test_steps_without_games_leave_the_scale_open(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_matches(monkeypatch, (5, 0, 3))
    rows = ladder.ladder(argparse.Namespace(levels=[1, 2]), "kingofthehill", None)
    assert rows[2]["elo"] is not None
    assert rows[3]["wdl"] is None and rows[3]["elo"] is None and rows[20]["elo"] is None


def test_chess_anchors_map_the_scale(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    fake_matches(monkeypatch, (10, 0, 10))  # every step, and every anchor, even
    monkeypatch.setattr(sys, "argv", ["ladder.py", "--variant", "chess", "--games", "20",
                                      "--anchor", "8:1350", "--anchor", "14:2000"])
    assert ladder.main() == 0
    out = capsys.readouterr().out
    # All levels at ladder Elo 0 and both anchors even: the fit has no spread in x, so
    # the scale stays 1 and the offset is the mean anchor, 1675.
    assert "chess (Stockfish UCI_Elo)" in out
    assert "| 20 | unlimited | +0 +/- " in out and "| 1675 +/- 0 |" in out


def test_minesweeper_counts_mine_losses_per_level(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    fake_matches(monkeypatch, (4, 2, 4))
    rows = ladder.ladder(argparse.Namespace(levels=[1, 20]), "minesweeper", None)
    # Level 0 plays one match (10 games, no mine lost as level 0); level 5 plays step
    # 5 (1 loss) and step 6 (5 losses); level 20 plays step 20 only (1 loss).
    assert rows[0]["mine_losses_per_game"] == 0.0
    assert rows[5]["mine_losses_per_game"] == pytest.approx(6 / 20)
    assert rows[20]["mine_losses_per_game"] == pytest.approx(1 / 10)
    rows = ladder.ladder(argparse.Namespace(levels=[1, 20]), "atomic", None)
    assert "mine_losses_per_game" not in rows[5]
