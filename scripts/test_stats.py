"""Unit tests for scripts/stats.py; run with ``python3 -m pytest scripts/``.

stats.py runs ``sapper stats`` (``$SAPPER_BIN`` or ``target/release/sapper``, built
by ``cargo build --release`` or ``cargo test --release``). The statistics'
own tests, with hand-derived and fishtest reference values, are in
``crates/tools/src/stats.rs``; these check that the values reach Python intact and that the
runner's pair counting is right. Expected values here were computed by hand,
e.g. for 10 W / 20 D / 10 L: mean 0.5, per-game variance 0.125, stderr
sqrt(0.125 / 40) = 0.0559017, score interval 0.5 +- 0.1095644, Elo +-77.389.
"""

from __future__ import annotations

import doctest
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import stats


def test_trinomial_values_reach_python() -> None:
    score, elo, error = stats.trinomial(10, 20, 10)
    assert (score, elo) == (0.5, 0.0)
    assert error == pytest.approx(77.3887, abs=1e-3)
    # 30 W / 10 D / 10 L: mean 0.7, 400 log10(7/3) = 147.19 Elo, variance 0.16,
    # stderr 0.0565685, score interval [0.589129, 0.810871] -> Elo [62.59, 252.89].
    score, elo, error = stats.trinomial(30, 10, 10)
    assert score == pytest.approx(0.7)
    assert elo == pytest.approx(400 * math.log10(7 / 3))
    assert error == pytest.approx(95.1390, abs=1e-3)


def test_infinities_and_undefined_values_survive_the_json() -> None:
    assert stats.elo_from_score(1.0) == math.inf
    assert stats.elo_from_score(0.0) == -math.inf
    assert stats.elo_from_score(10 / 11) == pytest.approx(400.0)  # odds 10:1
    assert stats.trinomial(5, 0, 0)[2] == math.inf
    assert all(math.isnan(x) for x in stats.trinomial(0, 0, 0))
    empty = stats.compute(pentanomial=[0, 0, 0, 0, 0])
    assert empty["pairs"] == 0 and math.isnan(empty["elo_pentanomial"])


def test_pentanomial_and_sprt_values_reach_python() -> None:
    # counts 0,2,6,8,4 (20 pairs): mean 0.675, variance 0.050625, stderr
    # 0.0503115, interval [0.576391, 0.773609].
    r = stats.compute(pentanomial=[0, 2, 6, 8, 4])
    assert r["elo_pentanomial"] == pytest.approx(126.9682, abs=1e-3)
    assert r["elo_error95_pentanomial"] == pytest.approx(79.9819, abs=1e-3)
    # fishtest's stat_util self-test sample: LLRcalc.LLR_logistic(-3, 1, counts)
    # = 2.1310678117940807; bounds ln(0.05 / 0.95) = -ln 19.
    r = stats.compute(pentanomial=[10789, 19328, 33806, 19402, 10543], sprt=(-3.0, 1.0))
    assert r["sprt_llr"] == pytest.approx(2.1310678117940807, abs=1e-9)
    assert r["sprt_lower"] == pytest.approx(-math.log(19.0))
    assert r["sprt_upper"] == pytest.approx(math.log(19.0))
    assert r["sprt_decision"] is None
    assert stats.compute(pentanomial=[2, 20, 60, 60, 30], sprt=(0.0, 10.0))["sprt_decision"] == "H1"
    assert stats.compute(pentanomial=[30, 60, 60, 20, 2], sprt=(0.0, 10.0))["sprt_decision"] == "H0"
    r = stats.compute(pentanomial=[0, 0, 0, 0, 0], sprt=(0.0, 10.0), alpha=0.1, beta=0.05)
    assert r["sprt_llr"] == 0.0
    assert r["sprt_lower"] == pytest.approx(math.log(0.05 / 0.9))
    assert r["sprt_upper"] == pytest.approx(math.log(0.95 / 0.1))


def test_refused_arguments_raise() -> None:
    with pytest.raises(ValueError):
        stats.compute(pentanomial=[0, 0, 0, 0, 0], sprt=(0.0, 10.0), alpha=0.0)
    with pytest.raises(ValueError):
        stats.compute(pentanomial=[0, 0, 0, 0, 0], sprt=(10.0, 0.0))
    with pytest.raises(ValueError):
        stats.compute(pentanomial=[1, 2, 3])
    with pytest.raises(ValueError):
        stats.elo_from_score(1.5)


def test_a_missing_binary_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SAPPER_BIN", str(tmp_path / "no-such-sapper"))
    with pytest.raises(FileNotFoundError, match="no-such-sapper"):
        stats.trinomial(1, 0, 0)


def test_pentanomial_counts() -> None:
    pairs = [(1.0, 0.0), (0.5, 0.5), (1.0, 1.0), (0.0, 0.5), (0.0, 0.0), (1.0, 0.5)]
    assert stats.pentanomial_counts(pairs) == [1, 1, 2, 1, 1]
    assert stats.pentanomial_counts([]) == [0, 0, 0, 0, 0]
    with pytest.raises(ValueError):
        stats.pentanomial_counts([(0.3, 0.0)])


def test_docstring_examples() -> None:
    assert doctest.testmod(stats).failed == 0
