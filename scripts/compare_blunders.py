#!/usr/bin/env python3
"""Sapper's review against a reference engine's scores of the same moves.

For every game of a PGN file (variants chess, atomic, kingofthehill, 3check, from
the ``Variant`` tag) the script runs ``sapper review`` and reads its annotated PGN
(``--out``) back with python-chess: each move's class is its NAG (``$6`` inaccuracy,
``$2`` mistake, ``$4`` blunder). Separately, a reference UCI engine (Fairy-Stockfish
by default: ``$FAIRY_STOCKFISH`` or ``fairy-stockfish`` on the PATH; ``--engine``)
searches every position of the game to ``--depth`` (16) in one process, with
``UCI_Variant`` set from the game, and each move is classed from the mover's scores
before and after it by the same lichess rules Sapper uses
(``crates/engine/src/review/lichess.rs``, mirrored in ``judge``): winning chances
``2 / (1 + exp(-0.00368208 * cp)) - 1`` with cp clamped to +-1000 and a mate counted
as +-1000, a drop of 0.1 / 0.2 / 0.3 an inaccuracy / mistake / blunder, and lila's
mate rules when a mate appears or vanishes. A finished position (mate, a king
exploded or on the hill, stalemate, too little material) is scored by its result,
as Sapper's review does, not searched.

The reference scores every position once, as lichess's analysis does; Sapper's review
also gives a position where the move played was its own best move the score of the
position after it (one ply back, ``crates/engine/src/review/mod.rs``). The JSON
records, per move, whether the move played was the reference's best move.

It prints Markdown tables: per class, how many moves the reference marks, how many
of those Sapper marks the same or worse, and how many Sapper marks that the reference
marks milder or not at all; the full matrix of classes; and the agreement per game.

    python3 scripts/compare_blunders.py /work/blunders/games.pgn \\
        --engine /path/to/fairy-stockfish --depth 16 --json /tmp/blunders.json

``--sapper`` names the reviewer (``$SAPPER_BIN`` or ``target/release/sapper``),
``--review-depth``/``--review-nodes`` its limit (Sapper's default when absent),
``--annotated DIR`` keeps its annotated PGNs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import chess.variant

from match import parse_option

ROOT = Path(__file__).resolve().parent.parent

#: The variants compared (python-chess's ``uci_variant`` names).
VARIANTS = ("chess", "atomic", "kingofthehill", "3check")

#: Class indices: 0 unmarked, then lichess's classes, worst last (as ``Judgement``).
CLASSES = ("none", "inaccuracy", "mistake", "blunder")
NONE, INACCURACY, MISTAKE, BLUNDER = range(4)

#: The NAG of each marked class (``Judgement::nag``).
NAG_CLASS = {chess.pgn.NAG_DUBIOUS_MOVE: INACCURACY, chess.pgn.NAG_MISTAKE: MISTAKE, chess.pgn.NAG_BLUNDER: BLUNDER}

# lichess.rs's constants.
CP_CEILING = 1000
WINNING_CHANCES_SLOPE = 0.00368208
THRESHOLDS = ((0.3, BLUNDER), (0.2, MISTAKE), (0.1, INACCURACY))

#: Scores are integers as Sapper's search writes them: centipawns, or a mate as
#: +-(MATE - moves) (a mate's distance does not change a class, only its sign).
MATE = 32000
MATE_BOUND = MATE - 1000


def mate_in(moves: int) -> int:
    """The score of the side to move mating in ``moves`` moves (0: it has mated)."""
    return MATE - moves


def mated_in(moves: int) -> int:
    """The score of the side to move mated in ``moves`` moves (0: it is mated)."""
    return -MATE + moves


def is_mate(score: int) -> bool:
    return abs(score) >= MATE_BOUND


def from_engine(score: chess.engine.Score) -> int:
    """A python-chess score (one side's view) as an integer score: centipawns, or a
    mate as +-(MATE - moves); ``Mate(-0)`` (mated) is ``-MATE``, ``MateGiven`` ``MATE``."""
    value = score.score(mate_score=MATE)
    assert value is not None
    return value


def score_text(score: int) -> str:
    """``+35``, ``-120``, ``#3``, ``#-2`` (a mate in moves, ``#-0``: mated)."""
    if is_mate(score):
        return f"#{MATE - score}" if score > 0 else f"#-{MATE + score}"
    return f"{score:+d}"


def ceiled_cp(score: int) -> int:
    """Centipawns clamped to +-1000: a mate counts as 1000 with its sign."""
    return max(-CP_CEILING, min(CP_CEILING, score))


def winning_chances(score: int) -> float:
    """lichess's winning chances in [-1, 1] of the side whose score it is."""
    cp = ceiled_cp(score)
    return max(-1.0, min(1.0, 2.0 / (1.0 + math.exp(-WINNING_CHANCES_SLOPE * cp)) - 1.0))


def chances_drop(before: int, after: int) -> float:
    """The drop in the mover's winning chances (negative: a gain)."""
    return winning_chances(before) - winning_chances(after)


def judge(before: int, after: int) -> int:
    """The class of a move from the mover's scores before and after it, as
    ``lichess::judge`` (lila's ``Advice.scala``): two centipawn scores by the drop in
    winning chances; a mate against the mover that appears is a blunder (a mistake
    from below -700 cp, an inaccuracy from below -999); the mover's own mate that
    vanishes is a blunder (a mistake above 700 cp, an inaccuracy above 999; a mate
    against it now counts as 0 cp). A slower mate, or a mate against the mover that
    stays or goes, is no mark."""
    mate_before, mate_after = is_mate(before), is_mate(after)
    if not mate_before and not mate_after:
        drop = chances_drop(before, after)
        return next((c for threshold, c in THRESHOLDS if drop >= threshold), NONE)
    if not mate_before and mate_after and after < 0:
        return INACCURACY if before < -999 else MISTAKE if before < -700 else BLUNDER
    if mate_before and before > 0 and (not mate_after or after < 0):
        cp = 0 if mate_after else after
        return INACCURACY if cp > 999 else MISTAKE if cp > 700 else BLUNDER
    return NONE


@dataclass
class MoveResult:
    """One move: the reference's scores (the mover's view), best move and class, and
    Sapper's class and evaluation after the move (White's, as in ``[%eval]``)."""

    ply: int
    san: str
    mover: str
    ref_before: str
    ref_after: str
    ref_drop: float
    ref_best: str | None
    ref_class: str
    sapper_class: str
    sapper_eval: str | None


@dataclass
class GameResult:
    index: int
    variant: str
    white: str
    black: str
    result: str
    moves: list[MoveResult] = field(default_factory=list)


def terminal_score(board: chess.Board) -> int | None:
    """The side to move's score of a finished position by its result (as the
    review scores it), or None when the game goes on. Draws by repetition or the
    fifty-move rule are left to the search."""
    if not (board.is_variant_end() or board.is_checkmate() or board.is_stalemate()
            or board.is_insufficient_material()):
        return None
    outcome = board.outcome(claim_draw=False)
    if outcome is None or outcome.winner is None:
        return 0
    return mate_in(0) if outcome.winner == board.turn else mated_in(0)


def reference_scores(engine: chess.engine.SimpleEngine, game: chess.pgn.Game, limit: chess.engine.Limit,
                     key: object) -> list[tuple[int, chess.Move | None]]:
    """Each position's score for its side to move and its best move, the start
    position first (one more than the moves)."""
    board = game.board()
    out = []
    moves = list(game.mainline_moves())
    for i in range(len(moves) + 1):
        score = terminal_score(board)
        best = None
        if score is None:
            info = engine.analyse(board, limit, game=key)
            if "score" not in info:
                raise SystemExit(f"the reference gave no score for {board.fen()}")
            score = from_engine(info["score"].pov(board.turn))
            best = (info.get("pv") or [None])[0]
        out.append((score, best))
        if i < len(moves):
            board.push(moves[i])
    return out


def sapper_review(sapper: str, game: chess.pgn.Game, limit_args: list[str], work: Path,
                  name: str) -> chess.pgn.Game:
    """``sapper review`` of one game; its annotated PGN read back."""
    source, out = work / f"{name}.pgn", work / f"{name}.annotated.pgn"
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
    source.write_text(game.accept(exporter) + "\n")
    run = subprocess.run([sapper, "review", str(source), "--out", str(out), *limit_args],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise SystemExit(f"sapper review {source} failed: {run.stderr.strip()}")
    with out.open() as f:
        annotated = chess.pgn.read_game(f)
    if annotated is None or annotated.errors:
        raise SystemExit(f"{out}: unreadable annotated PGN: {annotated and annotated.errors}")
    return annotated


def sapper_classes(annotated: chess.pgn.Game) -> list[tuple[int, str | None]]:
    """Each move's class from its NAG, and its ``[%eval]`` (White's view) as text."""
    out = []
    for node in annotated.mainline():
        marks = [NAG_CLASS[n] for n in node.nags if n in NAG_CLASS]
        pov = node.eval()
        out.append((max(marks, default=NONE), None if pov is None else str(pov.white())))
    return out


def compare_game(index: int, game: chess.pgn.Game, annotated: chess.pgn.Game,
                 scores: list[tuple[int, chess.Move | None]]) -> GameResult:
    """The moves of one game with both classes."""
    moves = list(game.mainline_moves())
    if list(annotated.mainline_moves()) != moves:
        raise SystemExit(f"game {index + 1}: the review's moves differ from the game's")
    sapper = sapper_classes(annotated)
    h = game.headers
    out = GameResult(index + 1, type(game.board()).uci_variant, h.get("White", "?"), h.get("Black", "?"),
                     h.get("Result", "*"))
    board = game.board()
    for ply, move in enumerate(moves):
        (before, best), (next_score, _) = scores[ply], scores[ply + 1]
        after = -next_score
        out.moves.append(MoveResult(
            ply=ply, san=board.san(move), mover="white" if board.turn == chess.WHITE else "black",
            ref_before=score_text(before), ref_after=score_text(after),
            ref_drop=round(chances_drop(before, after), 4), ref_best=best.uci() if best else None,
            ref_class=CLASSES[judge(before, after)], sapper_class=CLASSES[sapper[ply][0]],
            sapper_eval=sapper[ply][1]))
        board.push(move)
    return out


def matrix(moves: list[MoveResult]) -> list[list[int]]:
    """counts[reference class][Sapper class]."""
    counts = [[0] * len(CLASSES) for _ in CLASSES]
    for m in moves:
        counts[CLASSES.index(m.ref_class)][CLASSES.index(m.sapper_class)] += 1
    return counts


def summarize(counts: list[list[int]]) -> dict:
    """Per marked class: ``reference`` (moves the reference gives that class),
    ``sapper_same_or_worse`` (of those, Sapper marks that class or worse),
    ``sapper`` (moves Sapper gives that class) and ``sapper_only`` (of those, the
    reference marks milder or not at all); ``any`` counts any mark."""
    out = {}
    n = len(CLASSES)
    for c in range(1, n):
        out[CLASSES[c]] = {
            "reference": sum(counts[c]),
            "sapper_same_or_worse": sum(counts[c][c:]),
            "sapper": sum(counts[r][c] for r in range(n)),
            "sapper_only": sum(counts[r][c] for r in range(c)),
        }
    out["any"] = {
        "reference": sum(sum(row) for row in counts[1:]),
        "sapper_same_or_worse": sum(sum(row[1:]) for row in counts[1:]),
        "sapper": sum(counts[r][c] for r in range(n) for c in range(1, n)),
        "sapper_only": sum(counts[0][1:]),
    }
    moves = sum(map(sum, counts))
    out["moves"] = moves
    out["same_class"] = sum(counts[c][c] for c in range(n))
    return out


def percent(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.0f}%)" if whole else f"{part}"


def tables(games: list[GameResult], header: str) -> str:
    """The Markdown report: per class, the matrix, and per game."""
    all_moves = [m for g in games for m in g.moves]
    counts = matrix(all_moves)
    s = summarize(counts)
    lines = [header, "",
             "| class | reference marks | Sapper marks those the same or worse | Sapper marks | "
             "of those, reference milder or none |",
             "|---|---:|---:|---:|---:|"]
    for name in (*CLASSES[1:], "any"):
        row = s[name]
        lines.append(f"| {name} | {row['reference']} | {percent(row['sapper_same_or_worse'], row['reference'])} | "
                     f"{row['sapper']} | {percent(row['sapper_only'], row['sapper'])} |")
    lines += ["", f"Same class (unmarked included): {percent(s['same_class'], s['moves'])} of {s['moves']} moves.",
              "", "| reference \\ Sapper | " + " | ".join(CLASSES) + " |",
              "|---|" + "---:|" * len(CLASSES)]
    for r, row in enumerate(counts):
        lines.append(f"| {CLASSES[r]} | " + " | ".join(map(str, row)) + " |")
    lines += ["", "| game | variant | White - Black | result | moves | reference i/m/b | Sapper i/m/b | "
              "marked by both / either | same class | blunders both/ref/Sapper |",
              "|---:|---|---|---|---:|---|---|---:|---:|---|"]
    for g in games:
        gs = summarize(matrix(g.moves))
        ref = "/".join(str(gs[c]["reference"]) for c in CLASSES[1:])
        sap = "/".join(str(gs[c]["sapper"]) for c in CLASSES[1:])
        both = sum(1 for m in g.moves if m.ref_class != "none" and m.sapper_class != "none")
        either = sum(1 for m in g.moves if m.ref_class != "none" or m.sapper_class != "none")
        b = sum(1 for m in g.moves if m.ref_class == "blunder" and m.sapper_class == "blunder")
        lines.append(f"| {g.index} | {g.variant} | {g.white} - {g.black} | {g.result} | {len(g.moves)} | {ref} | "
                     f"{sap} | {both}/{either} | {percent(gs['same_class'], gs['moves'])} | "
                     f"{b}/{gs['blunder']['reference']}/{gs['blunder']['sapper']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", type=Path, help="PGN file of games (Variant tag: chess, atomic, kingofthehill, 3check)")
    ap.add_argument("--sapper", default=os.environ.get("SAPPER_BIN") or str(ROOT / "target" / "release" / "sapper"),
                    help="the reviewer (default: $SAPPER_BIN or target/release/sapper)")
    limit = ap.add_mutually_exclusive_group()
    limit.add_argument("--review-depth", type=int, help="sapper review --depth (default: the review's own)")
    limit.add_argument("--review-nodes", type=int, help="sapper review --nodes")
    ap.add_argument("--engine", default=os.environ.get("FAIRY_STOCKFISH") or shutil.which("fairy-stockfish"),
                    help="reference UCI engine (default: $FAIRY_STOCKFISH or fairy-stockfish on the PATH)")
    ap.add_argument("--depth", type=int, default=16, help="the reference's depth per position (default 16)")
    ap.add_argument("--option", action="append", type=parse_option, default=[],
                    help="NAME=VALUE, a UCI option of the reference, repeatable (UCI_Variant is set per game)")
    ap.add_argument("--games", type=int, help="compare only the first N games")
    ap.add_argument("--annotated", type=Path, help="keep Sapper's annotated PGNs in this folder")
    ap.add_argument("--json", type=Path, help="write the counts and every move's classes here")
    args = ap.parse_args(argv)
    if not args.engine:
        ap.error("no reference engine: give --engine PATH (or set $FAIRY_STOCKFISH)")
    if not Path(args.sapper).is_file():
        ap.error(f"{args.sapper}: no such file (cargo build --release, or --sapper PATH)")

    games = []
    with args.pgn.open(encoding="utf-8-sig", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            if game.errors:
                raise SystemExit(f"{args.pgn}: game {len(games) + 1}: {game.errors[0]}")
            variant = type(game.board()).uci_variant
            if variant not in VARIANTS:
                raise SystemExit(f"{args.pgn}: game {len(games) + 1}: variant {variant} is not compared")
            games.append(game)
            if args.games is not None and len(games) >= args.games:
                break
    limit_args = (["--depth", str(args.review_depth)] if args.review_depth
                  else ["--nodes", str(args.review_nodes)] if args.review_nodes else [])
    review_limit = "?"

    results = []
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    try:
        engine.configure(dict(args.option))
        name = engine.id.get("name", Path(args.engine).name)
        with tempfile.TemporaryDirectory() as tmp:
            work = args.annotated or Path(tmp)
            work.mkdir(parents=True, exist_ok=True)
            for i, game in enumerate(games):
                if not any(True for _ in game.mainline_moves()):
                    continue
                start = time.perf_counter()
                annotated = sapper_review(args.sapper, game, limit_args, work, f"game{i + 1:03d}")
                # "Sapper 0.2.0 review, depth 12": the limit the review used.
                review_limit = annotated.headers.get("Annotator", "?").rpartition(", ")[2]
                reviewed = time.perf_counter()
                scores = reference_scores(engine, game, chess.engine.Limit(depth=args.depth), i)
                results.append(compare_game(i, game, annotated, scores))
                print(f"game {i + 1}/{len(games)} ({results[-1].variant}, {len(results[-1].moves)} plies): "
                      f"review {reviewed - start:.1f}s, reference {time.perf_counter() - reviewed:.1f}s",
                      file=sys.stderr)
    finally:
        engine.quit()

    header = (f"{len(results)} games, Sapper review ({review_limit}) against {name} at depth "
              f"{args.depth} ({args.pgn.name})")
    print(tables(results, header))
    if args.json:
        counts = matrix([m for g in results for m in g.moves])
        args.json.write_text(json.dumps({
            "pgn": str(args.pgn), "reference": name, "reference_depth": args.depth,
            "review_limit": review_limit, "classes": list(CLASSES), "summary": summarize(counts),
            "matrix": counts,
            "games": [dict(asdict(g), summary=summarize(matrix(g.moves))) for g in results],
        }, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
