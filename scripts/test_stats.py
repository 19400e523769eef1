"""Unit tests for scripts/stats.py; run with ``python3 -m pytest scripts/``.

Expected values were computed by hand from the formulas documented in
stats.py (z = 1.959964 for 95 % confidence), e.g. for 10 W / 20 D / 10 L:
mean 0.5, per-game variance (10*0.25 + 10*0.25) / 40 = 0.125,
stderr sqrt(0.125 / 40) = 0.0559017, score interval 0.5 +- 0.1095644,
Elo interval +-77.389.
"""

from __future__ import annotations

import doctest
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import stats


def test_elo_from_score_known_values() -> None:
    assert stats.elo_from_score(0.5) == 0.0
    assert stats.elo_from_score(0.75) == pytest.approx(190.848501, abs=1e-5)  # 400*log10(3)
    assert stats.elo_from_score(0.25) == pytest.approx(-190.848501, abs=1e-5)
    assert stats.elo_from_score(10 / 11) == pytest.approx(400.0)  # odds 10:1
    assert stats.elo_from_score(1.0) == math.inf
    assert stats.elo_from_score(0.0) == -math.inf


def test_elo_from_score_rejects_out_of_range() -> None:
    with pytest.raises(ValueError):
        stats.elo_from_score(1.5)


def test_score_from_elo_is_inverse() -> None:
    for elo in (-500.0, -35.5, 0.0, 12.0, 190.0, 800.0):
        assert stats.elo_from_score(stats.score_from_elo(elo)) == pytest.approx(elo)


def test_z_value() -> None:
    assert stats.z_value(0.95) == pytest.approx(1.959964, abs=1e-6)


def test_score_from_wdl() -> None:
    assert stats.score_from_wdl(3, 2, 1) == pytest.approx(4 / 6)
    assert math.isnan(stats.score_from_wdl(0, 0, 0))


def test_trinomial_error_symmetric_record() -> None:
    assert stats.elo_error_trinomial(10, 20, 10) == pytest.approx(77.3887, abs=1e-3)


def test_trinomial_error_asymmetric_record() -> None:
    # 30 W / 10 D / 10 L: mean 0.7 (147.19 Elo), variance
    # (30*0.09 + 10*0.04 + 10*0.49) / 50 = 0.16, stderr 0.0565685,
    # score interval [0.589129, 0.810871] -> Elo [62.59, 252.89].
    assert stats.elo_from_score(stats.score_from_wdl(30, 10, 10)) == pytest.approx(147.1907, abs=1e-3)
    assert stats.elo_error_trinomial(30, 10, 10) == pytest.approx(95.1390, abs=1e-3)


def test_trinomial_error_degenerate_records() -> None:
    assert stats.elo_error_trinomial(0, 10, 0) == 0.0  # zero variance
    assert stats.elo_error_trinomial(5, 0, 0) == math.inf  # score 1.0
    assert math.isnan(stats.elo_error_trinomial(0, 0, 0))


def test_pentanomial_counts() -> None:
    pairs = [(1.0, 0.0), (0.5, 0.5), (1.0, 1.0), (0.0, 0.5), (0.0, 0.0), (1.0, 0.5)]
    assert stats.pentanomial_counts(pairs) == [1, 1, 2, 1, 1]
    assert stats.pentanomial_counts([]) == [0, 0, 0, 0, 0]
    with pytest.raises(ValueError):
        stats.pentanomial_counts([(0.3, 0.0)])


def test_pentanomial_symmetric_counts() -> None:
    # Pair means 0, .25, .5, .75, 1 with counts 1,2,3,2,1: mean 0.5,
    # variance (0.25 + 2*0.0625 + 2*0.0625 + 0.25) / 9 = 0.083333,
    # stderr sqrt(0.083333 / 9) = 0.096225, interval 0.5 +- 0.188597.
    counts = [1, 2, 3, 2, 1]
    assert stats.elo_from_pentanomial(counts) == 0.0
    assert stats.elo_error_pentanomial(counts) == pytest.approx(137.8574, abs=1e-3)


def test_pentanomial_asymmetric_counts() -> None:
    # counts 0,2,6,8,4 (20 pairs): mean 13.5 / 20 = 0.675 (126.97 Elo),
    # variance 0.050625, stderr 0.0503115, interval [0.576391, 0.773609].
    counts = [0, 2, 6, 8, 4]
    assert stats.elo_from_pentanomial(counts) == pytest.approx(126.9682, abs=1e-3)
    assert stats.elo_error_pentanomial(counts) == pytest.approx(79.9819, abs=1e-3)


def test_pentanomial_error_accounts_for_pair_correlation() -> None:
    # Perfectly correlated pairs (every pair is 1-0 + 0-1) carry no
    # information about a strength difference: error 0, whereas the same
    # games viewed as independent have the maximum per-game variance.
    assert stats.elo_error_pentanomial([0, 0, 10, 0, 0]) == 0.0
    assert stats.elo_error_trinomial(10, 0, 10) > 100.0
    assert math.isnan(stats.elo_error_pentanomial([0, 0, 0, 0, 0]))
    assert math.isnan(stats.elo_from_pentanomial([0, 0, 0, 0, 0]))


def test_docstring_examples() -> None:
    assert doctest.testmod(stats).failed == 0


# --------------------------------------------------------------------------
# Pentanomial GSPRT
#
# Reference values below were derived independently of stats.py:
# * bounds: ln(0.05 / 0.95) = -ln(19) = -2.944439;
# * the normal approximation by hand from its formula;
# * the exact GSPRT through the dual problem: the maximum of
#   sum_i phat_i log q_i over distributions q with mean s equals
#   sum_i phat_i log phat_i - max_x g(x), g(x) = sum_i phat_i log(1 + x (a_i - s)),
#   where g is concave, so a golden-section search finds the maximum (stats.py
#   instead solves g'(x) = 0 by bisection and evaluates the MLE distribution);
# * one value produced by fishtest's own LLRcalc.LLR_logistic (scipy 1.17).

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def elo_to_score(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def regularize(counts: list[int]) -> tuple[float, list[float]]:
    """Empty buckets count 1e-3 pairs (fishtest's regularize)."""
    filled = [c if c else 1e-3 for c in counts]
    return sum(filled), [c / sum(filled) for c in filled]


def max_log_likelihood(probs: list[float], score: float) -> float:
    """max sum p log q over q with mean ``score``, via the concave dual."""
    shifted = [a - score for a in PAIR_SCORES]
    low, high = -1.0 / max(shifted) + 1e-12, -1.0 / min(shifted) - 1e-12

    def g(x: float) -> float:
        return sum(p * math.log(1.0 + x * a) for a, p in zip(shifted, probs))

    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(300):
        left, right = high - ratio * (high - low), low + ratio * (high - low)
        if g(left) < g(right):
            low = left
        else:
            high = right
    return sum(p * math.log(p) for p in probs) - g((low + high) / 2.0)


def reference_llr(counts: list[int], elo0: float, elo1: float) -> float:
    total, probs = regularize(counts)
    return total * (max_log_likelihood(probs, elo_to_score(elo1)) - max_log_likelihood(probs, elo_to_score(elo0)))


def test_sprt_bounds() -> None:
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19.0))
    assert upper == pytest.approx(math.log(19.0))
    assert upper == pytest.approx(2.944439, abs=1e-6)
    lower, upper = stats.sprt_bounds(0.1, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.9))
    assert upper == pytest.approx(math.log(0.95 / 0.1))
    with pytest.raises(ValueError):
        stats.sprt_bounds(0.0, 0.05)


def test_sprt_decision() -> None:
    assert stats.sprt_decision(-3.0, -2.94, 2.94) == "H0"
    assert stats.sprt_decision(2.94, -2.94, 2.94) == "H1"
    assert stats.sprt_decision(0.5, -2.94, 2.94) is None


@pytest.mark.parametrize("counts", [[1, 2, 3, 2, 1], [10, 40, 100, 40, 10], [0, 5, 20, 5, 0]])
def test_llr_symmetric_sample_favours_h0(counts: list[int]) -> None:
    # Mean score exactly 0.5 = elo0: the H0 MLE is the sample itself, so H0 fits better.
    assert stats.llr_pentanomial(counts, 0.0, 5.0) < 0.0
    assert stats.llr_pentanomial_normal(counts, 0.0, 5.0) < 0.0


def test_llr_normal_approximation_by_hand() -> None:
    # [1, 2, 3, 2, 1]: N = 9, mu = 0.5, var = 1/12 (see test_pentanomial_symmetric_counts);
    # s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) = 0.5 + d, d = 0.00719508:
    # LLR = 9/2 * d * (1 - 1 - d) * 12 = -54 d^2 = -0.00279554.
    d = elo_to_score(5.0) - 0.5
    assert d == pytest.approx(0.00719508, abs=1e-8)
    assert stats.llr_pentanomial_normal([1, 2, 3, 2, 1], 0.0, 5.0) == pytest.approx(-54 * d * d, rel=1e-12)
    assert stats.llr_pentanomial_normal([1, 2, 3, 2, 1], 0.0, 5.0) == pytest.approx(-0.00279554, abs=1e-8)
    # [0, 2, 6, 8, 4] with elo 0..5: regularized N = 20.002, mean and variance
    # of the regularized pair scores computed directly.
    total, probs = regularize([0, 2, 6, 8, 4])
    mu = sum(a * p for a, p in zip(PAIR_SCORES, probs))
    var = sum(p * (a - mu) ** 2 for a, p in zip(PAIR_SCORES, probs))
    assert total == pytest.approx(20.001)
    s0, s1 = 0.5, elo_to_score(5.0)
    expected = total / 2 * (s1 - s0) * (2 * mu - s0 - s1) / var
    assert stats.llr_pentanomial_normal([0, 2, 6, 8, 4], 0.0, 5.0) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1"),
    [
        ([1, 2, 3, 2, 1], 0.0, 5.0),
        ([0, 2, 6, 8, 4], 0.0, 5.0),
        ([3, 40, 120, 60, 9], 0.0, 10.0),
        ([5, 30, 100, 25, 4], -3.0, 1.0),
        ([0, 0, 100, 0, 0], 0.0, 10.0),
        ([12, 0, 0, 0, 1], -5.0, 5.0),
    ],
)
def test_llr_matches_independent_derivation(counts: list[int], elo0: float, elo1: float) -> None:
    assert stats.llr_pentanomial(counts, elo0, elo1) == pytest.approx(reference_llr(counts, elo0, elo1), abs=1e-7)


def test_llr_matches_fishtest() -> None:
    # fishtest server/fishtest/stats/stat_util.py self-test sample, elo0=-3, elo1=1;
    # LLRcalc.LLR_logistic(-3, 1, counts) = 2.1310678117940807 (scipy brentq).
    counts = [10789, 19328, 33806, 19402, 10543]
    assert stats.llr_pentanomial(counts, -3.0, 1.0) == pytest.approx(2.1310678117940807, abs=1e-9)
    # ... and there the normal approximation is close (LLR_alt2: 2.1312448707048293).
    assert stats.llr_pentanomial_normal(counts, -3.0, 1.0) == pytest.approx(2.1312448707048293, abs=1e-9)


def test_pentanomial_mle_has_requested_mean_and_is_optimal() -> None:
    counts = [3, 40, 120, 60, 9]
    _, probs = regularize(counts)
    score = elo_to_score(10.0)
    mle = stats.pentanomial_mle(counts, score)
    assert sum(mle) == pytest.approx(1.0, abs=1e-12)
    assert sum(a * q for a, q in zip(PAIR_SCORES, mle)) == pytest.approx(score, abs=1e-12)

    def log_likelihood(q: list[float]) -> float:
        return sum(p * math.log(x) for p, x in zip(probs, q))

    # Moving along directions that keep both the total and the mean fixed
    # must not increase the likelihood.
    for direction in ([1, -2, 1, 0, 0], [0, 1, -2, 1, 0], [0, 0, 1, -2, 1], [1, -1, -1, 1, 0]):
        assert sum(direction) == 0 and sum(a * d for a, d in zip(PAIR_SCORES, direction)) == 0
        for step in (1e-4, -1e-4):
            moved = [q + step * d for q, d in zip(mle, direction)]
            assert log_likelihood(moved) <= log_likelihood(mle)


def test_llr_signs_and_decisions() -> None:
    lower, upper = stats.sprt_bounds()
    strong = [2, 20, 60, 60, 30]  # mean 0.6125, about +79 Elo
    assert stats.llr_pentanomial(strong, 0.0, 10.0) > upper
    weak = strong[::-1]
    assert stats.llr_pentanomial(weak, 0.0, 10.0) < lower
    # Identical self-play (every pair 1-1) slowly accepts H0.
    assert lower < stats.llr_pentanomial([0, 0, 10, 0, 0], 0.0, 10.0) < 0.0
    assert stats.llr_pentanomial([0, 0, 110, 0, 0], 0.0, 10.0) < lower
    assert stats.llr_pentanomial([0, 0, 0, 0, 0], 0.0, 10.0) == 0.0
    with pytest.raises(ValueError):
        stats.llr_pentanomial([1, 2, 3], 0.0, 10.0)
