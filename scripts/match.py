#!/usr/bin/env python3
"""Engine-vs-engine match runner for UCI engines.

Plays ``--games`` games between two UCI engines in standard chess, atomic or
king of the hill, ``--concurrency`` games at a time, and prints a summary
(W/D/L, Elo with 95 % error bars, forfeit counts) from the point of view of
engine 1.  With ``--sprt ELO0,ELO1`` the match is a pentanomial GSPRT
(``sapper stats`` via ``stats.py``, as fishtest computes it) that stops as soon as H0
or H1 is accepted.  Built on python-chess's asyncio engine driver; see
``scripts/README.md`` for usage.

Layout:

* :class:`TimeControl`   -- search limits sent to engines and forfeit rules.
* :func:`load_openings`, :func:`schedule_games` -- what is played.
* :class:`EngineProcess` -- one engine process, (re)started on demand.
* :func:`play_game`      -- plays a single game, returns a :class:`GameRecord`.
* :func:`run_match`      -- runs workers over a task list, reporting each
  finished game to a callback, which may stop the match.
* :class:`SprtTracker`   -- the SPRT stopping rule, updated per game pair.
* :func:`summarize`      -- statistics over finished games (``sapper stats`` via ``stats.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import math
import random
import shlex
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess
import chess.engine
import chess.pgn
import chess.variant

sys.path.insert(0, str(Path(__file__).resolve().parent))

import stats

#: Board class for each supported ``--variant`` (keys are UCI_Variant names).
VARIANTS: dict[str, type[chess.Board]] = {
    "chess": chess.Board,
    "atomic": chess.variant.AtomicBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
}

# Termination labels of games lost by an engine's misbehaviour.  They are
# written to the PGN "Termination" header and counted in the summary.
ILLEGAL_MOVE = "illegal move"
TIME_FORFEIT = "time forfeit"
CRASH = "crash"
NO_MOVE = "no move"
#: Draw adjudicated because the game reached ``--max-moves`` plies.
MAX_MOVES = "max moves"

#: Time allowed, on top of the move's own budget, for the ``ucinewgame`` /
#: ``isready`` handshake python-chess performs before ``go``.  Move times are
#: measured from ``go``, so this only matters for detecting hung engines.
HANDSHAKE_ALLOWANCE_S = 2.0
#: Time allowed for an engine to start up and answer ``uci``/``isready``.
STARTUP_TIMEOUT_S = 10.0
#: Time allowed for an engine to exit after ``quit`` before it is killed.
QUIT_TIMEOUT_S = 2.0
#: Default ``--games`` (the maximum) for an SPRT.
SPRT_DEFAULT_GAMES = 20000


#: Termination text for variant-specific wins, by UCI_Variant name.
VARIANT_WIN_LABELS: dict[str, str] = {"atomic": "king exploded", "kingofthehill": "king of the hill"}


def termination_label(termination: chess.Termination, board_cls: type[chess.Board]) -> str:
    """Return the Termination header text for a python-chess outcome, e.g.
    ``"checkmate"``, ``"threefold repetition"`` or, for a variant win,
    ``"king exploded"``."""
    if termination in (chess.Termination.VARIANT_WIN, chess.Termination.VARIANT_LOSS):
        return VARIANT_WIN_LABELS.get(board_cls.uci_variant or "", "variant end")
    return termination.name.lower().replace("_", " ")


# --------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True)
class EngineSpec:
    """How to launch and configure one engine."""

    name: str
    command: list[str]
    options: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TimeControl:
    """Search limit for every move: a clock (base + increment), a fixed node
    count, or a fixed move time.  Exactly one of ``base_s``, ``nodes`` and
    ``movetime_s`` is set.

    ``margin_s`` is how far an engine may overrun its clock (or the move time)
    before it forfeits; ``move_timeout_s`` bounds a single move in ``nodes``
    mode, where there is no clock.
    """

    base_s: float | None = None
    inc_s: float = 0.0
    nodes: int | None = None
    movetime_s: float | None = None
    margin_s: float = 0.05
    move_timeout_s: float = 60.0

    @property
    def uses_clock(self) -> bool:
        """Whether each side has a running game clock."""
        return self.base_s is not None

    def limit(self, clocks: dict[chess.Color, float]) -> chess.engine.Limit:
        """Return the ``go`` parameters for the next move given both clocks."""
        if self.nodes is not None:
            return chess.engine.Limit(nodes=self.nodes)
        if self.movetime_s is not None:
            return chess.engine.Limit(time=self.movetime_s)
        return chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=self.inc_s,
            black_inc=self.inc_s,
        )

    def allowed_time(self, remaining_s: float) -> float:
        """Return the longest a move may take (measured from ``go``) before
        the side to move forfeits on time, given its remaining clock."""
        if self.uses_clock:
            return remaining_s + self.margin_s
        if self.movetime_s is not None:
            return self.movetime_s + self.margin_s
        return self.move_timeout_s

    def pgn_header(self) -> str:
        """Return the PGN ``TimeControl`` value (``"-"`` without a clock)."""
        if self.base_s is None:
            return "-"
        return f"{self.base_s:g}+{self.inc_s:g}" if self.inc_s else f"{self.base_s:g}"

    def describe(self) -> str:
        """Return a short human-readable description, e.g. ``tc=5+0.05``."""
        if self.nodes is not None:
            return f"nodes={self.nodes}"
        if self.movetime_s is not None:
            return f"movetime={self.movetime_s * 1000:g}ms"
        return f"tc={self.base_s:g}+{self.inc_s:g}"


@dataclass(frozen=True)
class MatchConfig:
    """Settings shared by all games of a match."""

    board_cls: type[chess.Board]
    time_control: TimeControl
    max_plies: int
    event: str


@dataclass(frozen=True)
class SprtConfig:
    """Hypotheses and error rates of a pentanomial GSPRT: H0 is
    ``elo = elo0``, H1 is ``elo = elo1`` (logistic Elo of engine 1 over
    engine 2); ``alpha``/``beta`` are the false-H1/false-H0 probabilities."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def test(self, counts: Sequence[int]) -> dict[str, Any]:
        """``sapper stats`` over pentanomial ``counts``: ``sprt_llr``,
        ``sprt_lower``/``sprt_upper`` (``ln(beta / (1 - alpha))``,
        ``ln((1 - beta) / alpha)``), ``sprt_decision`` and the pentanomial Elo."""
        return stats.compute(pentanomial=counts, sprt=(self.elo0, self.elo1), alpha=self.alpha, beta=self.beta)

    def describe(self) -> str:
        """Return the hypotheses as ``[ELO0,ELO1]``, e.g. ``[0,10]``."""
        return f"[{self.elo0:g},{self.elo1:g}]"


# --------------------------------------------------------------------------
# Openings and scheduling


@dataclass(frozen=True)
class Opening:
    """A start position; ``index`` is its 0-based position in the file."""

    index: int
    fen: str


@dataclass(frozen=True)
class GameTask:
    """One game to play: the opening and which engine has White."""

    number: int  # 1-based
    opening: Opening
    engine1_white: bool

    @property
    def pair(self) -> int:
        """0-based index of the colour-swapped game pair this game is in."""
        return (self.number - 1) // 2


def parse_position(line: str, board_cls: type[chess.Board]) -> chess.Board:
    """Parse a FEN (4 to 6 fields) or an EPD line (operations are ignored)
    into a board of ``board_cls``; raises ``ValueError`` if it is invalid or
    the game is already over."""
    fields = line.split()
    if 4 <= len(fields) <= 6 and all(f.isdigit() for f in fields[4:]):
        board = board_cls(" ".join(fields))
    else:
        board, _ = board_cls.from_epd(line)
    if not board.is_valid():
        raise ValueError(f"invalid position ({board.status()!r})")
    if board.is_game_over():
        raise ValueError("game is already over in this position")
    return board


def load_openings(path: Path | None, board_cls: type[chess.Board]) -> list[Opening]:
    """Read start positions, one FEN/EPD per line; blank lines and lines
    starting with ``#`` are skipped.  Without a file, the variant's initial
    position is the only opening."""
    if path is None:
        return [Opening(0, board_cls().fen())]
    openings: list[Opening] = []
    for line_number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            board = parse_position(line, board_cls)
        except ValueError as err:
            raise ValueError(f"{path}:{line_number}: {err}") from err
        openings.append(Opening(len(openings), board.fen()))
    if not openings:
        raise ValueError(f"{path}: no positions found")
    return openings


def schedule_games(openings: Sequence[Opening], games: int) -> list[GameTask]:
    """Return ``games`` tasks: game pair ``p`` uses opening ``p`` (cycling),
    engine 1 has White in the first game of a pair and Black in the second."""
    return [
        GameTask(number=n + 1, opening=openings[(n // 2) % len(openings)], engine1_white=n % 2 == 0)
        for n in range(games)
    ]


# --------------------------------------------------------------------------
# Engines


class EngineStartError(RuntimeError):
    """An engine could not be started or configured; the match is aborted."""


class MoveTimeout(Exception):
    """An engine did not answer ``go`` in time and was killed."""


class TimedUciProtocol(chess.engine.UciProtocol):
    """python-chess UCI protocol that remembers when ``go`` was last sent, so
    move times exclude the ``ucinewgame``/``isready`` handshake."""

    go_sent_at: float | None = None

    def send_line(self, line: str) -> None:
        if line.startswith("go"):
            self.go_sent_at = time.perf_counter()
        super().send_line(line)


class EngineProcess:
    """One engine process, started lazily and restarted after a failure.

    A worker keeps one instance per engine and reuses it across games;
    python-chess sends ``ucinewgame`` whenever the ``game`` token changes.
    """

    def __init__(self, spec: EngineSpec, board_cls: type[chess.Board]) -> None:
        self.spec = spec
        self.board_cls = board_cls
        self._transport: asyncio.SubprocessTransport | None = None
        self._protocol: TimedUciProtocol | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    async def ensure_started(self) -> None:
        """Start and configure the engine unless it is already running."""
        if self._protocol is not None and not self._protocol.returncode.done():
            return
        await self.kill()
        try:
            # Own process group, so Ctrl-C reaches only the runner, which then
            # shuts the engines down itself.
            self._transport, self._protocol = await TimedUciProtocol.popen(self.spec.command, setpgrp=True)
            await asyncio.wait_for(self._protocol.initialize(), STARTUP_TIMEOUT_S)
            self._check_variant_support()
            await asyncio.wait_for(self._protocol.configure(self.spec.options), STARTUP_TIMEOUT_S)
        except (OSError, TimeoutError, chess.engine.EngineError) as err:
            await self.kill()
            raise EngineStartError(f"{self.name}: cannot start {shlex.join(self.spec.command)!r}: {err}") from err

    def _check_variant_support(self) -> None:
        variant = self.board_cls.uci_variant
        assert self._protocol is not None and variant is not None
        if variant == "chess":
            return
        option = self._protocol.options.get("UCI_Variant")
        if option is None or variant not in [v.lower() for v in option.var or []]:
            raise chess.engine.EngineError(f"no UCI_Variant option offering {variant!r}")

    async def play(
        self, board: chess.Board, limit: chess.engine.Limit, game: object, timeout_s: float
    ) -> tuple[chess.engine.PlayResult, float]:
        """Ask for a move; return it with the seconds elapsed since ``go``.

        Raises :class:`MoveTimeout` (after killing the engine) if no answer
        arrives within ``timeout_s`` plus the handshake allowance, and
        ``chess.engine.EngineError`` for crashes and protocol errors (python-chess
        reports an illegal ``bestmove`` as an ``EngineError`` wrapping the
        ``ValueError`` of the move parser).
        """
        assert self._protocol is not None, "engine not started"
        self._protocol.go_sent_at = None
        called_at = time.perf_counter()
        try:
            result = await asyncio.wait_for(
                self._protocol.play(board, limit, game=game), timeout_s + HANDSHAKE_ALLOWANCE_S
            )
        except TimeoutError:
            await self.kill()
            raise MoveTimeout from None
        elapsed = time.perf_counter() - (self._protocol.go_sent_at or called_at)
        return result, elapsed

    async def kill(self) -> None:
        """Terminate the process immediately (no-op if not running)."""
        transport, protocol = self._transport, self._protocol
        self._transport = self._protocol = None
        if transport is None or protocol is None:
            return
        if not protocol.returncode.done():
            with contextlib.suppress(ProcessLookupError, TimeoutError):
                transport.kill()
                await asyncio.wait_for(asyncio.shield(protocol.returncode), QUIT_TIMEOUT_S)
        transport.close()

    async def close(self) -> None:
        """Ask the engine to quit, killing it if it does not exit promptly."""
        protocol = self._protocol
        if protocol is not None and not protocol.returncode.done():
            with contextlib.suppress(TimeoutError, chess.engine.EngineError):
                await asyncio.wait_for(protocol.quit(), QUIT_TIMEOUT_S)
        await self.kill()


# --------------------------------------------------------------------------
# Playing games


@dataclass(frozen=True)
class Forfeit:
    """A game lost by the side to move: ``termination`` is one of
    ILLEGAL_MOVE, TIME_FORFEIT, CRASH or NO_MOVE; ``note`` explains it."""

    termination: str
    note: str


@dataclass
class GameRecord:
    """A finished game."""

    task: GameTask
    white: str
    black: str
    result: str  # "1-0", "0-1" or "1/2-1/2"
    termination: str
    #: Final position; its move stack holds the game from the opening.
    board: chess.Board
    #: Mover's remaining clock after each move (empty without a clock).
    clocks: list[float]
    #: 1 or 2 if that engine forfeited (illegal move, crash, ...), else None.
    forfeited_by: int | None = None
    #: Explanation of a forfeit, stored as a comment after the last move.
    note: str = ""

    @property
    def plies(self) -> int:
        """Number of moves played from the opening position."""
        return len(self.board.move_stack)

    @property
    def engine1_score(self) -> float:
        """Points engine 1 scored in this game (1, 0.5 or 0)."""
        white_score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[self.result]
        return white_score if self.task.engine1_white else 1.0 - white_score

    def pgn(self, config: MatchConfig) -> chess.pgn.Game:
        """Return the game as PGN, with ``[%clk]`` comments when clocked."""
        game = chess.pgn.Game()
        game.setup(self.board.root())  # FEN/SetUp and Variant for non-standard starts
        game.headers["Event"] = config.event
        game.headers["Site"] = "?"
        game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
        game.headers["Round"] = str(self.task.number)
        game.headers["White"] = self.white
        game.headers["Black"] = self.black
        game.headers["Result"] = self.result
        game.headers.setdefault("Variant", "Standard")
        game.headers["TimeControl"] = config.time_control.pgn_header()
        game.headers["Termination"] = self.termination
        game.headers["PlyCount"] = str(self.plies)
        node: chess.pgn.GameNode = game
        for ply, move in enumerate(self.board.move_stack):
            node = node.add_variation(move)
            if ply < len(self.clocks):
                node.set_clock(self.clocks[ply])
        if self.note:
            node.comment = f"{node.comment} {self.note}".strip()
        return game


def adjudicate(board: chess.Board, plies: int, max_plies: int) -> tuple[str, str] | None:
    """Return ``(result, termination)`` if the game is over, else ``None``.

    Uses python-chess's rules for the board's variant (checkmate, stalemate,
    insufficient material, variant wins), and additionally ends the game as a
    draw on a threefold repetition, the fifty-move rule, or ``max_plies``.
    """
    outcome = board.outcome(claim_draw=False)
    if outcome is not None:
        return outcome.result(), termination_label(outcome.termination, type(board))
    if board.is_repetition(3):
        return "1/2-1/2", termination_label(chess.Termination.THREEFOLD_REPETITION, type(board))
    if board.is_fifty_moves():
        return "1/2-1/2", termination_label(chess.Termination.FIFTY_MOVES, type(board))
    if plies >= max_plies:
        return "1/2-1/2", MAX_MOVES
    return None


def forfeit_result(board: chess.Board, loser: chess.Color, termination: str) -> str:
    """Return the result when ``loser`` forfeits.  A time forfeit is a draw if
    the opponent could never win (insufficient material for the variant)."""
    if termination == TIME_FORFEIT and board.has_insufficient_material(not loser):
        return "1/2-1/2"
    return "0-1" if loser == chess.WHITE else "1-0"


async def request_move(
    engine: EngineProcess, board: chess.Board, limit: chess.engine.Limit, allowed_s: float, game: object
) -> tuple[chess.Move, float] | Forfeit:
    """Ask ``engine`` for a move in ``board``; return the move and the seconds
    it took, or the :class:`Forfeit` of the side to move.

    The move is checked against ``board.legal_moves``.  An engine whose state
    is unknown afterwards (hung, protocol error) is killed, so that the next
    game restarts it.
    """
    colour = chess.COLOR_NAMES[board.turn].capitalize()
    try:
        played, elapsed = await engine.play(board, limit, game, allowed_s)
    except MoveTimeout:
        return Forfeit(TIME_FORFEIT, f"{colour} did not move within {allowed_s:.3f}s")
    except chess.engine.EngineTerminatedError as err:
        return Forfeit(CRASH, f"{colour} crashed: {err}")
    except chess.engine.EngineError as err:
        if err.args and isinstance(err.args[0], ValueError):
            return Forfeit(ILLEGAL_MOVE, f"{colour} sent {err.args[0]}")
        await engine.kill()
        return Forfeit(CRASH, f"{colour} protocol error: {err}")
    if elapsed > allowed_s:
        return Forfeit(TIME_FORFEIT, f"{colour} used {elapsed:.3f}s of {allowed_s:.3f}s")
    if not played.move:  # None for "bestmove (none)", a null move for "0000"
        return Forfeit(NO_MOVE, f"{colour} returned no move")
    if played.move not in board.legal_moves:
        return Forfeit(ILLEGAL_MOVE, f"{colour} played illegal move {played.move.uci()}")
    return played.move, elapsed


async def play_game(task: GameTask, white: EngineProcess, black: EngineProcess, config: MatchConfig) -> GameRecord:
    """Play one game between two started engines and return its record.

    An engine that crashes, hangs, overruns its time or replies with an
    unusable move loses the game (see :func:`request_move`).
    """
    tc = config.time_control
    board = config.board_cls(task.opening.fen)
    engines = {chess.WHITE: white, chess.BLACK: black}
    clocks = {chess.WHITE: tc.base_s or 0.0, chess.BLACK: tc.base_s or 0.0}
    record = GameRecord(task, white.name, black.name, "*", "", board, [])
    game_token = object()  # a new token makes python-chess send ucinewgame

    while (ended := adjudicate(board, len(board.move_stack), config.max_plies)) is None:
        side = board.turn
        reply = await request_move(engines[side], board, tc.limit(clocks), tc.allowed_time(clocks[side]), game_token)
        if isinstance(reply, Forfeit):
            record.result = forfeit_result(board, side, reply.termination)
            record.termination, record.note = reply.termination, reply.note
            record.forfeited_by = 1 if (side == chess.WHITE) == task.engine1_white else 2
            return record
        move, elapsed = reply
        if tc.uses_clock:
            clocks[side] = max(clocks[side] - elapsed, 0.0) + tc.inc_s
            record.clocks.append(clocks[side])
        board.push(move)

    record.result, record.termination = ended
    return record


# --------------------------------------------------------------------------
# Scheduling


class _StopMatch(Exception):
    """Raised by a worker whose ``on_record`` callback asked to stop."""


async def run_match(
    engines: tuple[EngineSpec, EngineSpec],
    tasks: Iterable[GameTask],
    config: MatchConfig,
    concurrency: int,
    on_record: Callable[[GameRecord], bool],
) -> None:
    """Play ``tasks`` with ``concurrency`` workers, each owning one process
    per engine, and call ``on_record`` as each game finishes (in completion
    order).  If ``on_record`` returns ``True`` the match stops: no new game
    starts and games in progress are abandoned (not reported).  Raises
    :class:`EngineStartError` if an engine cannot be (re)started; games in
    progress are then abandoned too."""
    queue = deque(tasks)

    async def worker() -> None:
        processes = (EngineProcess(engines[0], config.board_cls), EngineProcess(engines[1], config.board_cls))
        try:
            while queue:
                task = queue.popleft()
                white, black = processes if task.engine1_white else processes[::-1]
                await white.ensure_started()
                await black.ensure_started()
                if on_record(await play_game(task, white, black, config)):
                    queue.clear()
                    raise _StopMatch
        finally:
            for process in processes:
                await process.close()

    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(concurrency):
                group.create_task(worker())
    except* _StopMatch:
        pass
    except* EngineStartError as errors:
        raise errors.exceptions[0] from None


class SprtTracker:
    """Incremental pentanomial GSPRT over the finished game pairs.

    :meth:`add` is fed every finished game; when it completes a pair the
    pentanomial counts and the LLR (``sapper stats``, logistic Elo) are
    updated and checked against the bounds.
    """

    def __init__(self, config: SprtConfig) -> None:
        self.config = config
        self.counts = [0] * len(stats.PENTANOMIAL_PAIR_POINTS)
        self._state = config.test(self.counts)
        self.lower, self.upper = self._state["sprt_lower"], self._state["sprt_upper"]
        self.llr = 0.0
        self.decision: str | None = None
        self._half_pairs: dict[int, float] = {}

    @property
    def pairs(self) -> int:
        """Number of complete game pairs counted so far."""
        return sum(self.counts)

    def add(self, record: GameRecord) -> bool:
        """Count a finished game; return ``True`` if it completed a pair (the
        LLR and :attr:`decision` are then up to date)."""
        pair = record.task.pair
        other = self._half_pairs.pop(pair, None)
        if other is None:
            self._half_pairs[pair] = record.engine1_score
            return False
        self.counts[round(2 * (other + record.engine1_score))] += 1
        self._state = self.config.test(self.counts)
        self.llr = self._state["sprt_llr"]
        self.decision = self._state["sprt_decision"]
        return True

    def status_line(self) -> str:
        """One stderr line with the current LLR, e.g. ``SPRT [0,10] after 20
        pairs: LLR 0.52 (-2.94, 2.94), pentanomial [...], Elo +3.1 +/- 20.0``."""
        elo = format_elo(self._state["elo_pentanomial"], self._state["elo_error95_pentanomial"])
        return (
            f"SPRT {self.config.describe()} after {self.pairs} pairs: LLR {self.llr:.2f} "
            f"({self.lower:.2f}, {self.upper:.2f}), pentanomial {self.counts}, Elo {elo}"
        )


# --------------------------------------------------------------------------
# Statistics and reporting


def summarize(
    records: Sequence[GameRecord],
    engines: tuple[EngineSpec, EngineSpec],
    config: MatchConfig | None = None,
    sprt: SprtConfig | None = None,
) -> dict[str, Any]:
    """Return the match summary from engine 1's point of view.

    This is the structure written by ``--json`` (see :func:`summary_json`);
    Elo values may be ``nan`` (no games) or infinite (a 0 % or 100 % score).
    ``config`` adds the variant and search limit, ``sprt`` the SPRT state over
    the complete pairs (``sprt_decision`` is ``"H0"``, ``"H1"`` or ``None``).
    """
    scores = [r.engine1_score for r in records]
    wins, draws, losses = scores.count(1.0), scores.count(0.5), scores.count(0.0)
    by_pair: dict[int, dict[int, float]] = {}
    for record in records:
        by_pair.setdefault(record.task.pair, {})[record.task.number] = record.engine1_score
    pairs = [(games[min(games)], games[max(games)]) for games in by_pair.values() if len(games) == 2]
    penta = stats.pentanomial_counts(pairs)
    computed = stats.compute(
        wdl=(wins, draws, losses),
        pentanomial=penta,
        **({"sprt": (sprt.elo0, sprt.elo1), "alpha": sprt.alpha, "beta": sprt.beta} if sprt else {}),
    )
    score = computed["score"]
    forfeits = {f"engine{i}": dict(Counter(r.termination for r in records if r.forfeited_by == i)) for i in (1, 2)}

    def forfeit_count(termination: str) -> int:
        return sum(f.get(termination, 0) for f in forfeits.values())

    summary: dict[str, Any] = {
        "engine1": engines[0].name,
        "engine2": engines[1].name,
        "variant": config.board_cls.uci_variant if config else None,
        "limit": config.time_control.describe() if config else None,
        "games": len(records),
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": score,
        "elo": computed["elo"],
        "elo_error95": computed["elo_error95"],
        "pairs": len(pairs),
        "pentanomial": penta,
        "elo_pentanomial": computed["elo_pentanomial"],
        "elo_error95_pentanomial": computed["elo_error95_pentanomial"],
        "illegal": forfeit_count(ILLEGAL_MOVE),
        "crashes": forfeit_count(CRASH),
        "no_move": forfeit_count(NO_MOVE),
        "time_losses": forfeit_count(TIME_FORFEIT),
        "forfeits": forfeits,
        "terminations": dict(Counter(r.termination for r in records).most_common()),
    }
    if sprt is not None:
        summary.update(
            sprt_elo0=sprt.elo0,
            sprt_elo1=sprt.elo1,
            sprt_alpha=sprt.alpha,
            sprt_beta=sprt.beta,
            sprt_llr=computed["sprt_llr"],
            sprt_lower=computed["sprt_lower"],
            sprt_upper=computed["sprt_upper"],
            sprt_decision=computed["sprt_decision"],
        )
    return summary


def summary_json(summary: dict[str, Any]) -> str:
    """Serialize a :func:`summarize` result as strict JSON: floats are
    rounded and non-finite ones (undefined or infinite Elo) become ``null``."""

    def clean(value: Any) -> Any:
        if isinstance(value, float):
            return round(value, 4) if math.isfinite(value) else None
        return value

    return json.dumps({key: clean(value) for key, value in summary.items()}, indent=2, allow_nan=False)


def format_elo(elo: float, error: float) -> str:
    """Format an Elo estimate with its error bar, e.g. ``+12.3 +/- 45.6``."""
    value = "n/a" if math.isnan(elo) else f"{elo:+.1f}"
    margin = "n/a" if math.isnan(error) else f"{error:.1f}"
    return f"{value} +/- {margin}"


def format_summary(summary: dict[str, Any]) -> str:
    """Render :func:`summarize` output as the text printed after a match."""
    score = "n/a" if math.isnan(summary["score"]) else f"{100 * summary['score']:.1f}%"
    terminations = ", ".join(f"{k} {v}" for k, v in summary["terminations"].items()) or "none"
    forfeits = "; ".join(
        f"{summary[key]}: " + (", ".join(f"{k} {v}" for k, v in summary["forfeits"][key].items()) or "none")
        for key in ("engine1", "engine2")
    )
    return "\n".join(
        [
            (
                f"Score of {summary['engine1']} vs {summary['engine2']}: "
                f"{summary['wins']} - {summary['draws']} - {summary['losses']} (W-D-L) "
                f"[{score}] in {summary['games']} games"
            ),
            f"Elo difference: {format_elo(summary['elo'], summary['elo_error95'])} (95%, trinomial)",
            (
                f"Pentanomial [0, 0.5, 1, 1.5, 2]: {summary['pentanomial']} over {summary['pairs']} pairs, "
                f"Elo {format_elo(summary['elo_pentanomial'], summary['elo_error95_pentanomial'])} (95%)"
            ),
            (
                f"Forfeits: illegal moves {summary['illegal']}, crashes {summary['crashes']}, "
                f"no move {summary['no_move']}, time losses {summary['time_losses']} ({forfeits})"
            ),
            f"Terminations: {terminations}",
            *([sprt_summary_line(summary)] if "sprt_llr" in summary else []),
            f"Result: {result_line(summary)}",
        ]
    )


def sprt_summary_line(summary: dict[str, Any]) -> str:
    """The SPRT line of the summary, e.g. ``SPRT [0,10] (alpha 0.05, beta
    0.05): LLR 2.97 (-2.94, 2.94) over 200 pairs, H1 accepted``."""
    return (
        f"SPRT [{summary['sprt_elo0']:g},{summary['sprt_elo1']:g}] "
        f"(alpha {summary['sprt_alpha']:g}, beta {summary['sprt_beta']:g}): "
        f"LLR {summary['sprt_llr']:.2f} ({summary['sprt_lower']:.2f}, {summary['sprt_upper']:.2f}) "
        f"over {summary['pairs']} pairs, {decision_text(summary['sprt_decision'])}"
    )


def decision_text(decision: str | None) -> str:
    """``"H0 accepted"``, ``"H1 accepted"`` or ``"no decision"``."""
    return f"{decision} accepted" if decision else "no decision"


def result_line(summary: dict[str, Any]) -> str:
    """One line for CHANGELOG.md, e.g. ``chess nodes=5000: Elo +23.4 +/- 12.1,
    LLR 2.96 (-2.94, 2.94) [0,10], 1234 games, W-D-L 400-500-334, H1 accepted``.

    The Elo is the pentanomial estimate (trinomial if no pair is complete).
    """
    if summary["pairs"]:
        elo = format_elo(summary["elo_pentanomial"], summary["elo_error95_pentanomial"])
    else:
        elo = format_elo(summary["elo"], summary["elo_error95"])
    where = " ".join(str(summary[key]) for key in ("variant", "limit") if summary.get(key))
    parts = [f"{where + ': ' if where else ''}Elo {elo}"]
    if "sprt_llr" in summary:
        parts.append(
            f"LLR {summary['sprt_llr']:.2f} ({summary['sprt_lower']:.2f}, {summary['sprt_upper']:.2f}) "
            f"[{summary['sprt_elo0']:g},{summary['sprt_elo1']:g}]"
        )
    parts.append(f"{summary['games']} games, W-D-L {summary['wins']}-{summary['draws']}-{summary['losses']}")
    if "sprt_llr" in summary:
        parts.append(decision_text(summary["sprt_decision"]))
    return ", ".join(parts)


def progress_line(record: GameRecord, total: int, tally: Counter[float]) -> str:
    """One stderr line per finished game; ``tally`` counts engine 1's scores
    so far (including this game)."""
    task = record.task
    return (
        f"game {task.number}/{total} opening {task.opening.index}: {record.white} - {record.black} "
        f"{record.result} ({record.termination}, {record.plies} plies) "
        f"[engine1 W-D-L {tally[1.0]}-{tally[0.5]}-{tally[0.0]}]"
    )


# --------------------------------------------------------------------------
# Command line


def parse_tc(text: str) -> tuple[float, float]:
    """Parse a cutechess-style time control ``BASE[+INC]`` in seconds."""
    base, _, inc = text.partition("+")
    try:
        base_s, inc_s = float(base), float(inc or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid time control {text!r}, expected BASE[+INC] in seconds") from None
    if base_s <= 0 or inc_s < 0:
        raise argparse.ArgumentTypeError(f"invalid time control {text!r}")
    return base_s, inc_s


def parse_sprt(text: str) -> tuple[float, float]:
    """Parse SPRT hypotheses ``ELO0,ELO1`` (logistic Elo, ``ELO0 < ELO1``)."""
    try:
        elo0, elo1 = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid SPRT bounds {text!r}, expected ELO0,ELO1") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1):
        raise argparse.ArgumentTypeError(f"invalid SPRT bounds {text!r}, need finite ELO0 < ELO1")
    return elo0, elo1


def parse_option(text: str) -> tuple[str, str]:
    """Parse ``NAME=VALUE`` (the name may contain spaces)."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"invalid engine option {text!r}, expected NAME=VALUE")
    return name.strip(), value.strip()


def engine_options(pairs: Sequence[tuple[str, str]], which: str) -> dict[str, str]:
    """Collect UCI options, dropping (with a warning) those python-chess
    manages itself, such as UCI_Variant, which it sets from the board."""
    options: dict[str, str] = {}
    for name, value in pairs:
        if name.lower() in chess.engine.MANAGED_OPTIONS:
            print(f"warning: ignoring {which} option {name!r}: managed by python-chess", file=sys.stderr)
        else:
            options[name] = value
    return options


def default_names(command1: list[str], command2: list[str]) -> tuple[str, str]:
    """Derive engine names from the executables, disambiguating self-play."""
    name1, name2 = Path(command1[0]).name, Path(command2[0]).name
    return (f"{name1} (1)", f"{name2} (2)") if name1 == name2 else (name1, name2)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="Play a match between two UCI engines and report Elo from engine 1's point of view.",
    )
    engines = parser.add_argument_group("engines")
    engines.add_argument("--engine1", required=True, metavar="CMD", help="command line of engine 1")
    engines.add_argument("--engine2", required=True, metavar="CMD", help="command line of engine 2")
    engines.add_argument("--name1", help="name of engine 1 (default: executable name)")
    engines.add_argument("--name2", help="name of engine 2 (default: executable name)")
    for i in (1, 2):
        engines.add_argument(
            f"--option{i}",
            type=parse_option,
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help=f"UCI option for engine {i} (repeatable)",
        )

    limits = parser.add_argument_group("search limits (exactly one)")
    mode = limits.add_mutually_exclusive_group(required=True)
    mode.add_argument("--tc", type=parse_tc, metavar="BASE+INC", help="clock in seconds, e.g. 5+0.05")
    mode.add_argument("--nodes", type=int, metavar="N", help="fixed nodes per move")
    mode.add_argument("--movetime", type=int, metavar="MS", help="fixed time per move in milliseconds")
    limits.add_argument(
        "--timemargin",
        type=int,
        default=50,
        metavar="MS",
        help="overrun of the clock (or movetime) tolerated before a time forfeit (default: 50)",
    )
    limits.add_argument(
        "--move-timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="with --nodes, a move taking longer than this is a time forfeit (default: 60)",
    )

    games = parser.add_argument_group("games")
    games.add_argument("--variant", choices=sorted(VARIANTS), default="chess", help="default: chess")
    games.add_argument(
        "--games",
        type=int,
        metavar="N",
        help=f"total (with --sprt: maximum) number of games (default: 2, with --sprt: {SPRT_DEFAULT_GAMES})",
    )
    games.add_argument("--concurrency", type=int, default=2, metavar="K", help="games played at once (default: 2)")
    games.add_argument("--openings", type=Path, metavar="FILE", help="FEN/EPD start positions, one per line")
    games.add_argument(
        "--shuffle-seed",
        "--seed",
        dest="shuffle_seed",
        type=int,
        metavar="S",
        help="shuffle the openings with this seed (default: file order)",
    )
    games.add_argument(
        "--max-moves",
        "--max-plies",
        dest="max_plies",
        type=int,
        default=400,
        metavar="PLIES",
        help="adjudicate a draw after this many plies (default: 400)",
    )

    sprt = parser.add_argument_group("SPRT (pentanomial GSPRT, logistic Elo, as in fishtest)")
    sprt.add_argument(
        "--sprt",
        type=parse_sprt,
        metavar="ELO0,ELO1",
        help="stop as soon as H0 (elo = ELO0) or H1 (elo = ELO1) is accepted, e.g. 0,10",
    )
    sprt.add_argument("--alpha", type=float, default=0.05, help="probability of a false H1 (default: 0.05)")
    sprt.add_argument("--beta", type=float, default=0.05, help="probability of a false H0 (default: 0.05)")
    sprt.add_argument(
        "--sprt-every",
        type=int,
        default=10,
        metavar="PAIRS",
        help="print the LLR every PAIRS completed game pairs (default: 10)",
    )

    output = parser.add_argument_group("output")
    output.add_argument("--pgn", type=Path, metavar="FILE", help="append games to this PGN file")
    output.add_argument("--json", type=Path, metavar="FILE", help="write the summary as JSON")
    output.add_argument("--event", help="PGN Event header (default: 'NAME1 vs NAME2')")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a match from command-line arguments; returns the exit status
    (0 finished, 1 aborted because an engine failed to start, 130 interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games is None:
        args.games = SPRT_DEFAULT_GAMES if args.sprt else 2
    if args.games < 1 or args.concurrency < 1 or args.max_plies < 1 or args.sprt_every < 1:
        parser.error("--games, --concurrency, --max-moves and --sprt-every must be positive")
    sprt = SprtConfig(args.sprt[0], args.sprt[1], args.alpha, args.beta) if args.sprt else None
    sprt_text = ""
    if sprt is not None:
        try:
            start = sprt.test([0] * len(stats.PENTANOMIAL_PAIR_POINTS))
        except (ValueError, FileNotFoundError) as err:
            parser.error(f"--sprt/--alpha/--beta: {err}")
        lower, upper = start["sprt_lower"], start["sprt_upper"]
        sprt_text = (
            f", SPRT {sprt.describe()} alpha {sprt.alpha:g} beta {sprt.beta:g} (LLR bounds {lower:.2f}, {upper:.2f})"
        )
    if (args.nodes is not None and args.nodes < 1) or (args.movetime is not None and args.movetime < 1):
        parser.error("--nodes and --movetime must be positive")

    board_cls = VARIANTS[args.variant]
    command1, command2 = shlex.split(args.engine1), shlex.split(args.engine2)
    name1, name2 = default_names(command1, command2)
    engines = (
        EngineSpec(args.name1 or name1, command1, engine_options(args.option1, "engine1")),
        EngineSpec(args.name2 or name2, command2, engine_options(args.option2, "engine2")),
    )
    time_control = TimeControl(
        base_s=args.tc[0] if args.tc else None,
        inc_s=args.tc[1] if args.tc else 0.0,
        nodes=args.nodes,
        movetime_s=args.movetime / 1000 if args.movetime else None,
        margin_s=args.timemargin / 1000,
        move_timeout_s=args.move_timeout,
    )
    config = MatchConfig(
        board_cls, time_control, args.max_plies, args.event or f"{engines[0].name} vs {engines[1].name}"
    )
    try:
        openings = load_openings(args.openings, board_cls)
    except (OSError, ValueError) as err:
        parser.error(str(err))
    if args.shuffle_seed is not None:
        random.Random(args.shuffle_seed).shuffle(openings)
    tasks = schedule_games(openings, args.games)

    print(
        f"{engines[0].name} vs {engines[1].name}: {args.variant}, {time_control.describe()}, "
        f"{args.games} games, {len(openings)} openings, concurrency {args.concurrency}{sprt_text}",
        file=sys.stderr,
    )
    records: list[GameRecord] = []
    tally: Counter[float] = Counter()
    tracker = SprtTracker(sprt) if sprt is not None else None

    def on_record(record: GameRecord) -> bool:
        if tracker is not None and tracker.decision is not None:
            return True  # a game that finished after the decision is not counted
        records.append(record)
        tally[record.engine1_score] += 1
        print(progress_line(record, args.games, tally), file=sys.stderr, flush=True)
        if args.pgn:
            with args.pgn.open("a") as pgn_file:
                print(record.pgn(config), end="\n\n", file=pgn_file)
        if tracker is None or not tracker.add(record):
            return False
        if tracker.decision is not None or tracker.pairs % args.sprt_every == 0:
            print(tracker.status_line(), file=sys.stderr, flush=True)
        if tracker.decision is not None:
            print(
                f"SPRT: {decision_text(tracker.decision)} after {tracker.pairs} pairs ({len(records)} games)",
                file=sys.stderr,
                flush=True,
            )
            return True
        return False

    status = 0
    try:
        asyncio.run(run_match(engines, tasks, config, min(args.concurrency, args.games), on_record))
    except EngineStartError as err:
        print(f"error: {err}; match aborted", file=sys.stderr)
        status = 1
    except KeyboardInterrupt:
        print(f"interrupted after {len(records)} finished games", file=sys.stderr)
        status = 130

    if records:
        summary = summarize(sorted(records, key=lambda r: r.task.number), engines, config, sprt)
        print(format_summary(summary))
        if args.json:
            args.json.write_text(summary_json(summary) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
