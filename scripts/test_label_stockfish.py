"""Tests for label_stockfish.py: a made-up datagen file is relabelled by a fake UCI
engine whose scores are known, and the output is read back (run with
``python3 -m pytest scripts/``)."""

from __future__ import annotations

import struct
import subprocess
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import label_stockfish

SCRIPT = Path(__file__).resolve().parent / "label_stockfish.py"

# The fake engine answers every search with a fixed score for the side to move: a
# lowerbound line first (to be ignored), then cp 37, or mate 3 for a FEN with a queen
# on h5, or mate -2 for one with a queen on a4. It records the options it was given.
FAKE_ENGINE = textwrap.dedent(
    """\
    #!/usr/bin/env python3
    import sys
    fen = ""
    for line in sys.stdin:
        line = line.strip()
        if line == "uci":
            print("id name FakeFish 1", flush=True)
            print("uciok", flush=True)
        elif line == "isready":
            print("readyok", flush=True)
        elif line.startswith("setoption"):
            with open(sys.argv[1], "a") as f:
                f.write(line + "\\n")
        elif line.startswith("position fen "):
            fen = line[len("position fen "):]
        elif line.startswith("go"):
            print("info depth 1 score cp 900 lowerbound", flush=True)
            board = fen.split()[0]
            if board.split("/")[3].endswith("Q"):
                print("info depth 2 score mate 3 pv h5f7", flush=True)
            elif board.split("/")[4].startswith("Q"):
                print("info depth 2 score mate -2 pv a4a5", flush=True)
            else:
                print("info string some text with score in it", flush=True)
                print("info depth 2 score cp 37 pv e2e4", flush=True)
            print("bestmove e2e4", flush=True)
        elif line == "quit":
            break
    """
)


def write_datagen(path: Path, records: list[tuple[int, int, str]]) -> None:
    """A version-1 datagen file of (result, score, fen) records."""
    header = b"variant=chess\n"
    out = bytearray(b"SAPPERDG" + struct.pack("<II", 1, len(header)) + header)
    for game, (result, score, fen) in enumerate(records):
        body = struct.pack("<bbhHIB", 0, result, score, 10 + game, game, len(fen)) + fen.encode()
        out += struct.pack("<H", len(body)) + body
    path.write_bytes(bytes(out))


def test_scores_are_replaced_from_whites_point_of_view(tmp_path: Path) -> None:
    engine = tmp_path / "fake.py"
    engine.write_text(FAKE_ENGINE.replace("sys.argv[1]", repr(str(tmp_path / "options.txt"))))
    engine.chmod(0o755)
    fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3",
        "rnbqkbnr/pppp1ppp/8/4p3/Q3P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2",
    ]
    source = tmp_path / "in.bin"
    write_datagen(source, [(1, 11, fens[0]), (0, -22, fens[1]), (-1, 33, fens[2]), (1, 44, fens[3])])
    out = tmp_path / "out.bin"
    subprocess.run(
        [sys.executable, str(SCRIPT), "--in", str(source), "--out", str(out), "--engine", str(engine),
         "--depth", "3", "--workers", "2", "--option", "UCI_Variant=kingofthehill"],
        check=True,
        capture_output=True,
    )
    version, header, records = label_stockfish.read_file(out)
    assert version == 1
    assert "labels=scores by FakeFish 1, go depth 3" in header
    assert "UCI_Variant=kingofthehill" in header
    assert [fen for _, fen in records] == fens
    scores = [struct.unpack_from("<h", body, 2)[0] for body, _ in records]
    # cp 37 for Black to move is -37 for White, for White +37; White to move and
    # mating is +10000; Black to move and mated (mate -2) is +10000 too.
    assert scores == [-37, 37, 10000, 10000]
    # The other fields are kept: result, ply and game number.
    for n, (body, _) in enumerate(records):
        variant, result, _, ply, game = struct.unpack_from("<bbhHI", body, 0)
        assert (variant, ply, game) == (0, 10 + n, n)
        assert result == [1, 0, -1, 1][n]
    options = (tmp_path / "options.txt").read_text()
    assert "setoption name UCI_Variant value kingofthehill" in options


def test_a_record_cut_short_is_dropped(tmp_path: Path) -> None:
    source = tmp_path / "in.bin"
    write_datagen(source, [(0, 5, "8/8/8/8/8/8/8/K6k w - - 0 1")] * 2)
    data = source.read_bytes()
    source.write_bytes(data[:-3])
    _, _, records = label_stockfish.read_file(source)
    assert len(records) == 1
