#!/usr/bin/env python3
"""SPSA tuning of the search parameters by game pairs, as fishtest runs it.

Spall's simultaneous perturbation stochastic approximation: at iteration ``k``
every parameter is moved by ``+c_k`` or ``-c_k`` at random (one sign vector for
all), the two resulting engines play a colour-swapped game pair from a random
opening, and each parameter steps toward the side that scored by
``a_k / c_k * (wins - losses) * sign``. The gains follow fishtest's schedule
(Spall's recommended exponents ``alpha = 0.602``, ``gamma = 0.101``, stability
constant ``A`` a tenth of the iterations):

    c_k = c_end * N**gamma / (k + 1)**gamma
    a_k = r_end * c_end**2 * (A + N)**alpha / (A + k + 1)**alpha

so that after ``N`` iterations the perturbation has shrunk to ``c_end`` and the
step per unit of result to ``r_end * c_end``.

The engine must be a ``--features spsa`` build of Sapper: its ``uci`` lists every
search parameter as a spin option with its default and range
(``crates/engine/src/search/params.rs``). Games are played by ``match.py``'s
runner (clocks, forfeits, adjudication); ``--concurrency`` pairs run at once and
update the same parameters as they finish (asynchronous SPSA, as on fishtest).
After every pair the state (iteration, parameters, tallies) is written to
``--state``; run the same command again to resume. The tuned values are printed
as ``--option1 NAME=VALUE`` flags for ``match.py``, which is how a result is
checked at a clock before it is kept.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import re
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import match

#: Spall's exponents, as fishtest uses them.
ALPHA = 0.602
GAMMA = 0.101

#: The parameters tuned by default: those with a range wide enough for a
#: perturbation of a few units to matter. Depth limits and one-ply switches are
#: left out (a step of one ply is a different engine, not a small perturbation),
#: as is minesweeper's `chance_probe_reduction`.
DEFAULT_PARAMS = (
    "rfp_margin",
    "nmp_eval_div",
    "futility_base",
    "futility_per_depth",
    "history_pruning_margin",
    "see_quiet_margin",
    "see_noisy_margin",
    "double_extension_margin",
    "lmr_base",
    "lmr_divisor",
    "lmr_history_div",
    "lmr_deeper_margin",
    "lmr_shallower_margin",
    "probcut_margin",
    "probcut_improving",
    "history_bonus_mul",
    "history_bonus_max",
    "aspiration_delta",
)


#: A UCI spin option: name, default, min, max.
SPIN = re.compile(r"option name (.+?) type spin default (-?\d+) min (-?\d+) max (-?\d+)")


@dataclass
class Param:
    """One tuned parameter: its range, its value now (a real number; the
    engine gets it rounded) and its final perturbation ``c_end``."""

    name: str
    minimum: int
    maximum: int
    theta: float
    c_end: float

    def clamp(self, value: float) -> float:
        return min(max(value, float(self.minimum)), float(self.maximum))


@dataclass(frozen=True)
class Schedule:
    """fishtest's gain sequences for ``iterations`` steps."""

    iterations: int
    r_end: float

    @property
    def stability(self) -> float:
        """Spall's ``A``: a tenth of the iterations."""
        return 0.1 * self.iterations

    def c(self, param: Param, k: int) -> float:
        """Perturbation of ``param`` at iteration ``k`` (0-based)."""
        return param.c_end * self.iterations**GAMMA / (k + 1) ** GAMMA

    def a(self, param: Param, k: int) -> float:
        """Step size of ``param`` at iteration ``k`` (0-based)."""
        a_end = self.r_end * param.c_end**2
        return a_end * (self.stability + self.iterations) ** ALPHA / (self.stability + k + 1) ** ALPHA


def stochastic_round(value: float, rng: random.Random) -> int:
    """``value`` rounded up with probability equal to its fraction, so that the
    engine's integer parameter equals ``value`` on average."""
    low = math.floor(value)
    return low + (rng.random() < value - low)


def perturb(params: list[Param], schedule: Schedule, k: int, rng: random.Random) -> tuple[list[int], dict[str, int], dict[str, int]]:
    """Draw iteration ``k``'s signs and return them with the values of the two
    engines (``theta + c_k * sign`` and ``theta - c_k * sign``, clamped to the
    range, rounded)."""
    signs = [rng.choice((-1, 1)) for _ in params]
    plus, minus = {}, {}
    for param, sign in zip(params, signs):
        step = schedule.c(param, k) * sign
        plus[param.name] = stochastic_round(param.clamp(param.theta + step), rng)
        minus[param.name] = stochastic_round(param.clamp(param.theta - step), rng)
    return signs, plus, minus


def update(params: list[Param], schedule: Schedule, k: int, signs: list[int], result: float) -> None:
    """Step every parameter by iteration ``k``'s pair result (``wins - losses``
    of the ``+`` engine, -2 to 2): ``theta += a_k / c_k * result * sign``."""
    for param, sign in zip(params, signs):
        param.theta = param.clamp(param.theta + schedule.a(param, k) / schedule.c(param, k) * result * sign)


def engine_params(command: list[str], names: list[str] | None) -> list[Param]:
    """The spin options of a ``--features spsa`` build named in ``names`` (all
    of :data:`DEFAULT_PARAMS` when ``None``), starting at their defaults, with
    ``c_end`` a twentieth of the range (at least 1)."""
    out = subprocess.run(command, input="uci\nquit\n", capture_output=True, text=True, timeout=30).stdout
    spins: dict[str, tuple[int, int, int]] = {}
    for line in out.splitlines():
        if found := SPIN.fullmatch(line.strip()):
            spins[found[1]] = (int(found[2]), int(found[3]), int(found[4]))
    wanted = list(names) if names is not None else list(DEFAULT_PARAMS)
    missing = [name for name in wanted if name not in spins]
    if missing:
        raise SystemExit(f"the engine has no spin option {', '.join(missing)}: is it a --features spsa build?")
    return [
        Param(name, spins[name][1], spins[name][2], float(spins[name][0]), max((spins[name][2] - spins[name][1]) / 20, 1.0))
        for name in wanted
    ]


@dataclass
class State:
    """What ``--state`` holds: the next iteration, the parameters and tallies."""

    next_iteration: int
    params: list[Param]
    pairs: int = 0
    plus_points: float = 0.0
    forfeits: int = 0

    def save(self, path: Path) -> None:
        """Write the state beside ``path`` and rename it over ``path``, so that a run
        stopped while writing leaves the previous state whole."""
        staged = path.with_name(path.name + ".tmp")
        staged.write_text(json.dumps(asdict(self), indent=1) + "\n")
        staged.replace(path)

    @staticmethod
    def load(path: Path) -> State:
        data = json.loads(path.read_text())
        data["params"] = [Param(**p) for p in data["params"]]
        return State(**data)


async def play_pair(
    command: list[str], base: dict[str, str], plus: dict[str, int], minus: dict[str, int], fen: str, config: match.MatchConfig
) -> tuple[float, int]:
    """One colour-swapped pair between the ``plus`` and ``minus`` engines from
    ``fen``: the ``plus`` engine's points (0 to 2) and the number of forfeits."""
    engines = [
        match.EngineProcess(match.EngineSpec(name, command, {**base, **{k: str(v) for k, v in values.items()}}), config.board_cls)
        for name, values in (("plus", plus), ("minus", minus))
    ]
    points, forfeits = 0.0, 0
    try:
        for task in match.schedule_games([match.Opening(0, fen)], 2):
            white, black = engines if task.engine1_white else engines[::-1]
            await white.ensure_started()
            await black.ensure_started()
            record = await match.play_game(task, white, black, config)
            points += record.engine1_score
            forfeits += record.forfeited_by is not None
    finally:
        for engine in engines:
            await engine.close()
    return points, forfeits


async def tune(args: argparse.Namespace, state: State, schedule: Schedule) -> None:
    """Run workers until ``schedule.iterations`` pairs have been played."""
    config = match.MatchConfig(
        board_cls=match.VARIANTS[args.variant],
        time_control=match.TimeControl(base_s=args.tc[0], inc_s=args.tc[1], margin_s=args.timemargin / 1000),
        max_plies=args.max_plies,
        event="SPSA",
    )
    openings = match.load_openings(args.openings, config.board_cls)
    base = {"Hash": str(args.hash)}  # python-chess sets UCI_Variant from the board
    rng = random.Random(f"{args.seed}:{state.next_iteration}")

    async def worker() -> None:
        while state.next_iteration < schedule.iterations:
            k = state.next_iteration
            state.next_iteration += 1
            signs, plus, minus = perturb(state.params, schedule, k, rng)
            fen = rng.choice(openings).fen
            points, forfeits = await play_pair(args.engine, base, plus, minus, fen, config)
            update(state.params, schedule, k, signs, 2 * points - 2)
            state.pairs += 1
            state.plus_points += points
            state.forfeits += forfeits
            state.save(args.state)
            if state.pairs % args.report_every == 0:
                print(progress(state), flush=True)

    await asyncio.gather(*(worker() for _ in range(args.concurrency)))


def progress(state: State) -> str:
    values = " ".join(f"{p.name}={p.theta:.1f}" for p in state.params)
    return f"pairs {state.pairs} (iteration {state.next_iteration}), forfeits {state.forfeits}: {values}"


def option_flags(params: list[Param]) -> str:
    """The tuned values as ``match.py`` flags for engine 1."""
    return " ".join(f"--option1 {p.name}={round(p.theta)}" for p in params)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, type=lambda s: s.split(), metavar="CMD", help="a --features spsa build of sapper")
    parser.add_argument("--variant", choices=sorted(match.VARIANTS), default="chess")
    parser.add_argument("--tc", type=match.parse_tc, default=(2.0, 0.02), metavar="BASE+INC", help="default 2+0.02")
    parser.add_argument("--timemargin", type=int, default=50, metavar="MS", help="overrun allowed before a forfeit")
    parser.add_argument("--openings", type=Path, metavar="FILE", help="FEN/EPD start positions; one drawn at random per pair")
    parser.add_argument("--iterations", type=int, default=2000, help="game pairs in all (N of the schedule)")
    parser.add_argument("--params", type=lambda s: s.split(","), metavar="A,B,...", help="parameters to tune")
    parser.add_argument("--r-end", type=float, default=0.002, help="fishtest's r_end (default 0.002)")
    parser.add_argument("--concurrency", type=int, default=2, help="pairs played at once")
    parser.add_argument("--hash", type=int, default=16, help="Hash of each engine in MiB")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report-every", type=int, default=20, metavar="PAIRS")
    parser.add_argument("--state", type=Path, required=True, help="JSON state file, written after every pair and resumed from")
    return parser


def main() -> None:
    args = build_parser().parse_args()
    if args.state.exists():
        state = State.load(args.state)
        print(f"resuming at iteration {state.next_iteration}", flush=True)
    else:
        state = State(0, engine_params(args.engine, args.params))
    schedule = Schedule(args.iterations, args.r_end)
    asyncio.run(tune(args, state, schedule))
    print(progress(state))
    print(option_flags(state.params))


if __name__ == "__main__":
    main()
