"""Runs time_to_depth.py against the release build at a small depth (run with
``python3 -m pytest scripts/`` after ``cargo build --release``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import time_to_depth

ENGINE = Path(__file__).resolve().parent.parent / "target" / "release" / "sapper"


@pytest.mark.skipif(not ENGINE.exists(), reason="needs target/release/sapper")
def test_every_position_reaches_the_depth_and_counts_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    assert time_to_depth.main(["--depth", "4", "--variant", "atomic", str(ENGINE)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3, out
    assert all("nodes" in line for line in out)
    total = out[-1]
    assert "to depth 4" in total
    nodes = int(total.split(", ")[1].split()[0])
    assert nodes > 0


@pytest.mark.skipif(not ENGINE.exists(), reason="needs target/release/sapper")
def test_a_search_reports_the_last_node_count() -> None:
    r = time_to_depth.search(str(ENGINE), "kingofthehill", "startpos", 3, 16)
    assert r.nodes > 0 and r.seconds > 0


@pytest.mark.skipif(not ENGINE.exists(), reason="needs target/release/sapper")
def test_two_threads_reach_the_depth_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert time_to_depth.main(["--depth", "5", "--variant", "chess", "--threads", "2", str(ENGINE)]) == 0
    total = capsys.readouterr().out.splitlines()[-1]
    assert "to depth 5" in total and total.endswith("2 thread(s)"), total


@pytest.mark.skipif(not ENGINE.exists(), reason="needs target/release/sapper")
def test_movetime_gives_each_positions_speed(capsys: pytest.CaptureFixture[str]) -> None:
    assert time_to_depth.main(["--movetime", "200", "--variant", "3check", str(ENGINE)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3, out
    assert all(line.endswith("nps") for line in out[:2]), out
    assert "200 ms a position" in out[-1]
    assert int(out[0].split(", ")[-1].split()[0]) > 0
