"""Tests of ``compare_blunders.py``: run with ``python3 -m pytest scripts/``.

The lichess rules mirrored from ``crates/engine/src/review/lichess.rs`` are checked on
hand-made score pairs (the Rust tests' own figures), the mapping of engine scores and
finished positions, and the counting. One run of the script on a chess game with a
hung queen and a king-of-the-hill game that ends on the hill uses the same binary,
``$SAPPER_BIN`` or ``target/release/sapper``, as the reviewer and as the reference
engine (no Fairy-Stockfish needed), at depth 5 for both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import chess
import chess.engine
import chess.variant
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare_blunders as cb  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(__file__).resolve().parent / "compare_blunders.py"


def test_winning_chances_follow_the_lichess_curve() -> None:
    assert cb.winning_chances(100) == pytest.approx(0.182_051_794_383_225_6, abs=1e-12)
    assert cb.winning_chances(-100) == pytest.approx(-0.182_051_794_383_225_6, abs=1e-12)
    assert cb.winning_chances(300) == pytest.approx(0.502_251_001_876_696_8, abs=1e-12)
    assert cb.winning_chances(1000) == pytest.approx(0.950_894_872_682_864_5, abs=1e-12)
    # Clamped at 1000 cp; a mate counts as 1000 with its sign.
    assert cb.winning_chances(5000) == cb.winning_chances(1000)
    assert cb.winning_chances(cb.mate_in(3)) == cb.winning_chances(1000)
    assert cb.winning_chances(cb.mated_in(0)) == cb.winning_chances(-1000)


@pytest.mark.parametrize(("before", "after", "expected"), [
    # The drop thresholds (lichess.rs: thresholds_on_the_drop_in_winning_chances).
    (0, -50, cb.NONE),            # drop 0.0918
    (0, -60, cb.INACCURACY),      # 0.1100
    (0, -110, cb.INACCURACY),     # 0.1998
    (0, -120, cb.MISTAKE),        # 0.2174
    (0, -160, cb.MISTAKE),        # 0.2863
    (0, -170, cb.BLUNDER),        # 0.3031
    (900, 800, cb.NONE),          # far ahead, a pawn is little
    (-300, 200, cb.NONE),         # a gain
    (2000, 1000, cb.NONE),        # both beyond the ceiling
    (1500, 0, cb.BLUNDER),
    # A mate against the mover appears (mates_follow_lichess_mate_rules).
    (0, cb.mated_in(2), cb.BLUNDER),
    (-700, cb.mated_in(2), cb.BLUNDER),
    (-800, cb.mated_in(2), cb.MISTAKE),
    (-999, cb.mated_in(2), cb.MISTAKE),
    (-1500, cb.mated_in(2), cb.INACCURACY),
    # The mover's mate vanishes (a mate against it now counts as 0 cp).
    (cb.mate_in(3), 200, cb.BLUNDER),
    (cb.mate_in(3), 800, cb.MISTAKE),
    (cb.mate_in(3), 1200, cb.INACCURACY),
    (cb.mate_in(3), cb.mated_in(4), cb.BLUNDER),
    # A slower mate, a mate against the mover that stays or goes, a mate gained.
    (cb.mate_in(1), cb.mate_in(5), cb.NONE),
    (cb.mated_in(4), cb.mated_in(2), cb.NONE),
    (cb.mated_in(4), -300, cb.NONE),
    (0, cb.mate_in(3), cb.NONE),
])
def test_judge_mirrors_lichess_rs(before: int, after: int, expected: int) -> None:
    assert cb.judge(before, after) == expected, (before, after)


def test_engine_scores_map_to_centipawns_and_signed_mates() -> None:
    assert cb.from_engine(chess.engine.Cp(35)) == 35
    assert cb.from_engine(chess.engine.Cp(-2500)) == -2500
    mate3, mated2 = cb.from_engine(chess.engine.Mate(3)), cb.from_engine(chess.engine.Mate(-2))
    assert cb.is_mate(mate3) and mate3 > 0 and cb.score_text(mate3) == "#3"
    assert cb.is_mate(mated2) and mated2 < 0 and cb.score_text(mated2) == "#-2"
    # python-chess's Mate(-0) is the side to move mated, MateGiven the side that mated.
    assert cb.from_engine(chess.engine.Mate(0)) == cb.mated_in(0)
    assert cb.from_engine(chess.engine.MateGiven) == cb.mate_in(0)
    assert not cb.is_mate(cb.from_engine(chess.engine.Cp(9999)))
    # A reply that allows mate in one from +0.50 is a blunder; +M2 -> +8.00 a mistake.
    assert cb.judge(50, -cb.from_engine(chess.engine.Mate(1))) == cb.BLUNDER
    assert cb.judge(cb.from_engine(chess.engine.Mate(2)), 800) == cb.MISTAKE


def test_finished_positions_are_scored_by_their_result() -> None:
    mated = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert cb.terminal_score(mated) == cb.mated_in(0)
    stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert cb.terminal_score(stalemate) == 0
    hill = chess.variant.KingOfTheHillBoard("4k3/8/8/8/3K4/8/8/8 b - - 0 1")
    assert cb.terminal_score(hill) == cb.mated_in(0)
    exploded = chess.variant.AtomicBoard("8/8/8/8/8/8/8/4K3 b - - 0 1")
    assert cb.terminal_score(exploded) == cb.mated_in(0)
    assert cb.terminal_score(chess.Board()) is None


def test_counts_from_the_matrix() -> None:
    # counts[reference][Sapper]: none, inaccuracy, mistake, blunder.
    counts = [[50, 4, 1, 2],
              [3, 5, 1, 0],
              [1, 2, 3, 1],
              [2, 0, 1, 6]]
    s = cb.summarize(counts)
    assert s["moves"] == 82 and s["same_class"] == 64
    assert s["blunder"] == {"reference": 9, "sapper_same_or_worse": 6, "sapper": 9, "sapper_only": 3}
    assert s["mistake"] == {"reference": 7, "sapper_same_or_worse": 4, "sapper": 6, "sapper_only": 2}
    assert s["inaccuracy"] == {"reference": 9, "sapper_same_or_worse": 6, "sapper": 11, "sapper_only": 4}
    assert s["any"] == {"reference": 25, "sapper_same_or_worse": 19, "sapper": 26, "sapper_only": 7}


GAMES = """[Event "test"]
[White "w"]
[Black "b"]
[Result "1-0"]

1. d4 e5 2. dxe5 Qg5 3. Bxg5 Nc6 1-0

[Event "test"]
[White "w"]
[Black "b"]
[Variant "King of the Hill"]
[Result "1-0"]

1. e3 e6 2. Ke2 Ke7 3. Kd3 Kd6 4. Kd4 1-0
"""


def parse_score(text: str) -> int:
    """``score_text`` read back."""
    if text.startswith("#-"):
        return cb.mated_in(int(text[2:]))
    if text.startswith("#"):
        return cb.mate_in(int(text[1:]))
    return int(text)


def test_a_run_with_sapper_as_both_engines(tmp_path: Path) -> None:
    sapper = Path(os.environ.get("SAPPER_BIN") or ROOT / "target" / "release" / "sapper")
    if not sapper.is_file():
        pytest.skip(f"{sapper}: build it with `cargo build --release` or set SAPPER_BIN")
    pgn, out = tmp_path / "games.pgn", tmp_path / "out.json"
    pgn.write_text(GAMES)
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(pgn), "--sapper", str(sapper), "--review-depth", "5",
         "--engine", str(sapper), "--depth", "5", "--option", "Hash=16", "--json", str(out),
         "--annotated", str(tmp_path / "annotated")],
        capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert "| blunder |" in run.stdout and "| reference \\ Sapper |" in run.stdout
    data = json.loads(out.read_text())
    assert data["review_limit"] == "depth 5" and data["reference_depth"] == 5
    assert len(list((tmp_path / "annotated").glob("*.annotated.pgn"))) == 2
    games = data["games"]
    assert [len(g["moves"]) for g in games] == [6, 7]
    assert [g["variant"] for g in games] == ["chess", "kingofthehill"]
    moves = [m for g in games for m in g["moves"]]

    # The reference's classes are the rule's on its own scores; the scores chain
    # (after a move is minus before the next); the game ends on the hill: "#0".
    for g in games:
        for m, n in zip(g["moves"], g["moves"][1:]):
            assert parse_score(m["ref_after"]) == -parse_score(n["ref_before"]), (m, n)
        for m in g["moves"]:
            expected = cb.judge(parse_score(m["ref_before"]), parse_score(m["ref_after"]))
            assert m["ref_class"] == cb.CLASSES[expected], m
    assert games[1]["moves"][-1]["ref_after"] == "#0"
    assert games[1]["moves"][-1]["ref_best"] is not None

    # The hung queen is a blunder for both; the recapture for neither.
    qg5, bxg5 = games[0]["moves"][3], games[0]["moves"][4]
    assert (qg5["san"], qg5["ref_class"], qg5["sapper_class"]) == ("Qg5", "blunder", "blunder")
    assert (bxg5["san"], bxg5["ref_class"], bxg5["sapper_class"]) == ("Bxg5", "none", "none")

    # The counts add up: the matrix holds every move once, the per-game summaries
    # add to the total, and each class's figures are the moves' own.
    matrix = data["matrix"]
    s = data["summary"]
    assert sum(map(sum, matrix)) == s["moves"] == len(moves) == 13
    for name in cb.CLASSES[1:]:
        rank = cb.CLASSES.index(name)
        row = s[name]
        assert row["reference"] == sum(m["ref_class"] == name for m in moves)
        assert row["sapper"] == sum(m["sapper_class"] == name for m in moves)
        assert row["sapper_same_or_worse"] == sum(
            m["ref_class"] == name and cb.CLASSES.index(m["sapper_class"]) >= rank for m in moves)
        assert row["sapper_only"] == sum(
            m["sapper_class"] == name and cb.CLASSES.index(m["ref_class"]) < rank for m in moves)
        assert sum(g["summary"][name]["reference"] for g in games) == row["reference"]
        assert row["sapper_same_or_worse"] <= row["reference"] and row["sapper_only"] <= row["sapper"]
    assert s["blunder"]["sapper_same_or_worse"] >= 1


def test_an_unsupported_variant_is_refused(tmp_path: Path) -> None:
    pgn = tmp_path / "zh.pgn"
    pgn.write_text('[Variant "Crazyhouse"]\n\n1. e4 d5 *\n')
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(pgn), "--sapper", sys.executable, "--engine", sys.executable],
        capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode != 0 and "crazyhouse is not compared" in run.stderr
