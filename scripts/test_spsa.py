"""Unit tests for spsa.py's schedule, perturbation, update and state file (no engine
is run); run with ``python3 -m pytest scripts/``."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import spsa


def param(theta: float = 100.0) -> spsa.Param:
    return spsa.Param("margin", 50, 150, theta, 5.0)


def test_schedule_ends_at_c_end_and_r_end() -> None:
    schedule = spsa.Schedule(iterations=1000, r_end=0.002)
    p = param()
    last = schedule.iterations - 1
    assert schedule.c(p, last) == pytest.approx(5.0, rel=1e-3)
    assert schedule.a(p, last) / schedule.c(p, last) ** 2 == pytest.approx(0.002, rel=1e-3)
    # Both shrink as the run goes on.
    assert schedule.c(p, 0) > schedule.c(p, 500) > schedule.c(p, last)
    assert schedule.a(p, 0) > schedule.a(p, 500) > schedule.a(p, last)


def test_stochastic_rounding_is_unbiased_and_exact_on_integers() -> None:
    rng = random.Random(1)
    assert all(spsa.stochastic_round(7.0, rng) == 7 for _ in range(100))
    draws = [spsa.stochastic_round(7.25, rng) for _ in range(20000)]
    assert set(draws) == {7, 8}
    assert sum(draws) / len(draws) == pytest.approx(7.25, abs=0.02)


def test_perturbation_is_symmetric_and_clamped() -> None:
    schedule = spsa.Schedule(iterations=100, r_end=0.002)
    low, mid = spsa.Param("low", 50, 150, 50.0, 5.0), param()
    signs, plus, minus = spsa.perturb([low, mid], schedule, 99, random.Random(3))
    assert all(s in (-1, 1) for s in signs)
    # theta + 5 and theta - 5 (whole numbers, so no rounding), mirrored by the sign.
    assert {plus["margin"], minus["margin"]} == {95, 105}
    assert (plus["margin"] > minus["margin"]) == (signs[1] == 1)
    # At the bottom of the range the lower engine is clamped there.
    assert min(plus["low"], minus["low"]) == 50


def test_update_steps_toward_the_winning_side() -> None:
    schedule = spsa.Schedule(iterations=100, r_end=0.002)
    up, down = param(), param()
    # The + engine won the pair 2-0; it had `up` raised and `down` lowered.
    spsa.update([up, down], schedule, 99, [1, -1], 2.0)
    step = schedule.a(up, 99) / schedule.c(up, 99) * 2.0
    assert up.theta == pytest.approx(100.0 + step)
    assert down.theta == pytest.approx(100.0 - step)
    # A drawn pair (result 0) moves nothing.
    before = up.theta
    spsa.update([up], schedule, 99, [1], 0.0)
    assert up.theta == before


def test_update_stays_in_range() -> None:
    schedule = spsa.Schedule(iterations=10, r_end=100.0)
    p = param(149.0)
    spsa.update([p], schedule, 0, [1], 2.0)
    assert p.theta == 150.0


def test_state_round_trips(tmp_path: Path) -> None:
    state = spsa.State(12, [param(101.5)], pairs=12, plus_points=11.5, forfeits=1)
    path = tmp_path / "state.json"
    state.save(path)
    assert spsa.State.load(path) == state


def test_option_flags_round_values() -> None:
    assert spsa.option_flags([param(101.6), spsa.Param("b", 0, 9, 3.2, 1.0)]) == "--option1 margin=102 --option1 b=3"


def test_spin_options_parse_with_spaces_in_names() -> None:
    found = spsa.SPIN.fullmatch("option name Skill Level type spin default 20 min 0 max 20")
    assert found is not None and found.groups() == ("Skill Level", "20", "0", "20")
    found = spsa.SPIN.fullmatch("option name rfp_margin type spin default 80 min 30 max 160")
    assert found is not None and found.groups() == ("rfp_margin", "80", "30", "160")
