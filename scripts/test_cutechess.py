"""Tests of cutechess.py's reading of cutechess-cli's PGN and of its command line."""

from __future__ import annotations

import argparse
from pathlib import Path

import cutechess

PGN = """
[Round "1"]
[White "new"]
[Black "old"]
[Result "1-0"]
[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]

1. Ka2 {+1.00/5 0.1s, White mates} 1-0

[Round "1"]
[White "old"]
[Black "new"]
[Result "1/2-1/2"]
[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]

1. Ka2 {0.00/5 0.1s, Draw by 3-fold repetition} 1/2-1/2

[Round "2"]
[White "new"]
[Black "old"]
[Result "0-1"]
[Termination "time forfeit"]
[FEN "8/8/8/8/8/8/8/K5k1 w - - 0 1"]

1. Ka2 {White loses on time} 0-1
"""


def test_read_pgn_counts_engine_one_and_pairs_openings() -> None:
    tally = cutechess.read_pgn(PGN, "new")
    assert tally["wdl"] == [1, 1, 1]
    # One complete pair (round 1: a win and a draw, 1.5 points); round 2 is unpaired.
    assert tally["pentanomial"] == [0, 0, 0, 1, 0]
    assert tally["time_losses"] == {"new": 1}
    assert tally["endings"]["White mates"] == 1


def test_command_plays_both_colours_per_opening() -> None:
    args = argparse.Namespace(
        engine1="a --x", engine2="b", name1="a", name2="b", option1=["Hash=16"], option2=[],
        tc="5+0.05", nodes=None, movetime=None, variant="kingofthehill", games=9, concurrency=2,
        timemargin=50, openings=Path("o.epd"), pgn=Path("g.pgn"),
    )
    cmd = cutechess.command(args)
    assert cmd[cmd.index("-rounds") + 1] == "5"
    assert "-repeat" in cmd and cmd[cmd.index("-games") + 1] == "2"
    assert "option.Hash=16" in cmd and "arg=--x" in cmd
    assert cmd[cmd.index("-variant") + 1] == "kingofthehill"
