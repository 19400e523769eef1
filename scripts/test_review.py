"""``sapper review`` read back by python-chess: run with ``python3 -m pytest scripts/``.

The binary is ``$SAPPER_BIN`` or ``target/release/sapper`` (built by ``cargo build
--release`` or ``cargo test --release``). A short game with a hung queen (2... Qg5??,
3. Bxg5) and one that allows scholar's mate (3... Nf6?? 4. Qxf7#) are reviewed at a
small depth; the annotated PGN must parse with ``chess.pgn.read_game``, carry an
``[%eval]`` on every move that ``GameNode.eval()`` reads, mark the blunders with
NAG 4 and a better line as a variation, and leave the opening moves unmarked. A
king-of-the-hill and a three-check game (Black first, from a FEN) must come back on
python-chess's variant boards with the same moves and the blunder marked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import chess.variant
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parent.parent


def sapper() -> Path:
    path = Path(os.environ.get("SAPPER_BIN") or ROOT / "target" / "release" / "sapper")
    if not path.is_file():
        pytest.skip(f"{path}: build it with `cargo build --release` or set SAPPER_BIN")
    return path


def review(tmp_path: Path, pgn: str, *extra: str) -> tuple[str, chess.pgn.Game]:
    """Reviews ``pgn`` at depth 8; returns the printed report and the annotated game."""
    source = tmp_path / "game.pgn"
    source.write_text(pgn)
    out = tmp_path / "annotated.pgn"
    svg = tmp_path / "graph.svg"
    run = subprocess.run(
        [str(sapper()), "review", str(source), "--depth", "8", "--out", str(out), "--svg", str(svg), *extra],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert svg.read_text().startswith("<svg")
    with out.open() as f:
        game = chess.pgn.read_game(f)
    assert game is not None and not game.errors, game and game.errors
    return run.stdout, game


def mainline(game: chess.pgn.Game) -> list[chess.pgn.ChildNode]:
    return list(game.mainline())


HUNG_QUEEN = """[Event "test"]
[White "w"]
[Black "b"]
[Result "1-0"]

1. d4 { a comment } e5 2. dxe5 (2. e4) Qg5 $1 3. Bxg5 Nc6 1-0
"""


def test_a_hung_queen_is_read_back_as_a_blunder_with_evals(tmp_path: Path) -> None:
    report, game = review(tmp_path, HUNG_QUEEN)
    nodes = mainline(game)
    assert [n.san() for n in nodes] == ["d4", "e5", "dxe5", "Qg5", "Bxg5", "Nc6"]
    assert game.headers["Annotator"].startswith("Sapper")
    assert game.headers["Result"] == "1-0"
    # Every move has an evaluation; they are White's and in centipawns.
    evals = [n.eval() for n in nodes]
    assert all(e is not None for e in evals)
    qg5 = nodes[3]
    assert qg5.nags == {chess.pgn.NAG_BLUNDER}
    assert qg5.eval().white().score() is not None and qg5.eval().white().score() > 500
    assert "Blunder." in qg5.comment
    # The better line is a variation starting from the position before Qg5.
    parent = qg5.parent
    assert len(parent.variations) == 2
    better = parent.variations[1]
    assert better.move != qg5.move and parent.board().is_legal(better.move)
    # The first move and the recapture are unmarked (1... e5, the Englund gambit,
    # may be an inaccuracy); the input's NAG, comment and variation are gone.
    for n in (nodes[0], nodes[4]):
        assert not n.nags, n
    assert "a comment" not in nodes[0].comment
    # The input's (2. e4): the node of 1... e5 has the main line only (2. dxe5, the
    # natural recapture, is not marked, so it gets no better line either).
    assert not nodes[2].nags and len(nodes[1].variations) == 1
    assert "blunder" in report and "Black: accuracy" in report


SCHOLAR = """[Event "test"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0
"""


def test_allowing_mate_is_a_blunder_and_mates_are_written_as_mates(tmp_path: Path) -> None:
    _, game = review(tmp_path, SCHOLAR)
    nodes = mainline(game)
    nf6, mate = nodes[5], nodes[6]
    assert nf6.nags == {chess.pgn.NAG_BLUNDER}
    assert nf6.eval().white() == chess.engine.Mate(1)
    assert "Checkmate is now unavoidable." in nf6.comment
    # After the mate: "#0", read by python-chess as the side to move being mated.
    assert mate.board().is_checkmate()
    assert mate.eval().white() == chess.engine.MateGiven
    assert not nodes[0].nags


def test_the_variant_tag_picks_the_rules(tmp_path: Path) -> None:
    pgn = '[Variant "Atomic"]\n[Result "*"]\n\n1. Nf3 f6 2. e4 d5 *\n'
    report, game = review(tmp_path, pgn)
    assert report.startswith("Variant: atomic")
    assert game.headers["Variant"] == "Atomic"
    assert isinstance(game.board(), chess.variant.AtomicBoard)
    assert all(n.eval() is not None for n in mainline(game))


VARIANT_BLUNDERS = [
    # 3... a4?? lets the king onto the hill: 4. Kd4 wins.
    (
        '[Variant "King of the Hill"]\n[Result "1-0"]\n\n1. e4 a6 2. Ke2 a5 3. Kd3 a4 4. Kd4 1-0\n',
        chess.variant.KingOfTheHillBoard,
        ["e4", "a6", "Ke2", "a5", "Kd3", "a4", "Kd4"],
        5,
    ),
    # Black moves first from a FEN (Sapper's "3+3" checks field, python-chess's too);
    # 2... Qg5?? hangs the queen.
    (
        '[Variant "Three-check"]\n[SetUp "1"]\n'
        '[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3+3 0 1"]\n\n'
        "1... e5 2. Nf3 Qg5 3. Nxg5 *\n",
        chess.variant.ThreeCheckBoard,
        ["e5", "Nf3", "Qg5", "Nxg5"],
        2,
    ),
]


@pytest.mark.parametrize(("pgn", "board", "moves", "blunder"), VARIANT_BLUNDERS)
def test_variant_games_read_back_with_the_same_moves_and_the_blunder(
    tmp_path: Path, pgn: str, board: type, moves: list[str], blunder: int
) -> None:
    _, game = review(tmp_path, pgn)
    assert isinstance(game.board(), board)
    nodes = mainline(game)
    assert [n.san().rstrip("+#") for n in nodes] == moves
    assert nodes[blunder].nags == {chess.pgn.NAG_BLUNDER}
    # The blunder's evaluation favours the side that did not move it.
    mover = nodes[blunder].parent.board().turn
    assert nodes[blunder].eval().pov(not mover).score(mate_score=100_000) > 300
    # Every better line is legal in the variant (read_game would record an error).
    better = nodes[blunder].parent.variations[1]
    assert better.move != nodes[blunder].move
    assert all(n.eval() is not None for n in nodes)


def test_minesweeper_without_its_layout_is_refused_not_faked(tmp_path: Path) -> None:
    # A minesweeper game replays only on its mine layout: without a full-information
    # FEN tag its moves' outcomes are unknown, and the review says what it needs.
    source = tmp_path / "mines.pgn"
    source.write_text('[Variant "Minesweeper"]\n\n1. e3 e8 *\n')
    run = subprocess.run(
        [str(sapper()), "review", str(source), "--depth", "2"], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode != 0
    assert "full-information form" in run.stderr
