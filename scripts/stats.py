"""Match statistics for engine-vs-engine testing.

Pure functions only (no I/O, no global state), so they can be unit-tested in
isolation: Elo estimates with error bars and the pentanomial GSPRT
(:func:`llr_pentanomial`) that ``match.py --sprt`` uses as a stopping rule.

Conventions used throughout:

* A *score* is the expected points per game for the engine of interest, in
  ``[0, 1]`` (win = 1, draw = 0.5, loss = 0).
* Elo values use the standard logistic model
  ``score = 1 / (1 + 10 ** (-elo / 400))``.
* Error bars are reported as the half-width of a two-sided confidence interval
  on the Elo difference.  The interval is obtained by mapping the normal
  confidence interval of the mean score through :func:`elo_from_score`, and the
  half-width is ``(elo_high - elo_low) / 2`` (the same convention cutechess-cli
  uses).  Bounds that fall outside ``(0, 1)`` yield an infinite error.
* Pentanomial counts are indexed by the points the engine scored in a game
  *pair* (the same opening played with both colours):
  ``[0, 0.5, 1, 1.5, 2]`` points, i.e. ``[LL, LD, LW+DD, DW, WW]``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist

#: Points per game pair for each pentanomial bucket, in index order.
PENTANOMIAL_PAIR_POINTS: tuple[float, ...] = (0.0, 0.5, 1.0, 1.5, 2.0)


def elo_from_score(score: float) -> float:
    """Return the logistic Elo difference corresponding to an expected score.

    ``score`` must lie in ``[0, 1]``; 0 and 1 map to ``-inf`` and ``+inf``.

    >>> elo_from_score(0.5)
    0.0
    >>> round(elo_from_score(0.75), 3)
    190.849
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must be in [0, 1], got {score!r}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_from_elo(elo: float) -> float:
    """Return the expected score of a player ``elo`` points stronger (inverse of
    :func:`elo_from_score`).

    >>> score_from_elo(0.0)
    0.5
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def z_value(confidence: float = 0.95) -> float:
    """Return the two-sided standard-normal quantile for ``confidence``
    (about 1.959964 for 0.95)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return float(NormalDist().inv_cdf(0.5 + confidence / 2.0))


def score_from_wdl(wins: int, draws: int, losses: int) -> float:
    """Return the mean score of a win/draw/loss record (``nan`` if empty)."""
    games = wins + draws + losses
    if games == 0:
        return math.nan
    return (wins + 0.5 * draws) / games


def mean_and_variance(values: Sequence[float], counts: Sequence[int]) -> tuple[float, float]:
    """Return the mean and the (population) variance of a discrete
    distribution given as outcome ``values`` observed ``counts`` times.

    Both are ``nan`` when the total count is zero.
    """
    if len(values) != len(counts):
        raise ValueError("values and counts must have the same length")
    total = sum(counts)
    if total == 0:
        return math.nan, math.nan
    mean = sum(v * c for v, c in zip(values, counts, strict=True)) / total
    variance = sum(c * (v - mean) ** 2 for v, c in zip(values, counts, strict=True)) / total
    return mean, variance


def elo_error(mean: float, stderr: float, confidence: float = 0.95) -> float:
    """Return the half-width of the Elo confidence interval for a mean score
    ``mean`` whose standard error is ``stderr``.

    The score interval ``mean +- z * stderr`` is converted to Elo bounds and the
    result is ``(elo_high - elo_low) / 2``.  Returns ``inf`` if either bound
    leaves the open interval ``(0, 1)`` and ``nan`` if ``mean`` is ``nan``.
    """
    if math.isnan(mean) or math.isnan(stderr):
        return math.nan
    delta = z_value(confidence) * stderr
    low, high = mean - delta, mean + delta
    if low <= 0.0 or high >= 1.0:
        return math.inf
    return (elo_from_score(high) - elo_from_score(low)) / 2.0


def elo_error_trinomial(wins: int, draws: int, losses: int, confidence: float = 0.95) -> float:
    """Return the Elo error bar from a game-level (trinomial) W/D/L record.

    Every game is treated as an independent sample with outcome 1, 0.5 or 0.
    The standard error of the mean score is ``sqrt(var / n)`` with ``var`` the
    per-game variance of the observed W/D/L distribution.
    """
    games = wins + draws + losses
    if games == 0:
        return math.nan
    mean, variance = mean_and_variance((1.0, 0.5, 0.0), (wins, draws, losses))
    return elo_error(mean, math.sqrt(variance / games), confidence)


def pentanomial_counts(pair_scores: Iterable[tuple[float, float]]) -> list[int]:
    """Bucket game pairs by the total points the engine scored in them.

    ``pair_scores`` yields, for every complete pair, the engine's score in each
    of the two games (each 0, 0.5 or 1).  Returns the five counts
    ``[LL, LD, LW+DD, DW, WW]`` (pair totals 0, 0.5, 1, 1.5, 2).

    >>> pentanomial_counts([(1, 0), (0.5, 0.5), (1, 1), (0, 0.5)])
    [0, 1, 2, 0, 1]
    """
    counts = [0] * len(PENTANOMIAL_PAIR_POINTS)
    for first, second in pair_scores:
        for score in (first, second):
            if score not in (0.0, 0.5, 1.0):
                raise ValueError(f"game score must be 0, 0.5 or 1, got {score!r}")
        counts[round(2 * (first + second))] += 1
    return counts


def pentanomial_mean_and_variance(counts: Sequence[int]) -> tuple[float, float]:
    """Return the mean per-game score and the variance of the per-pair mean
    score (pair total / 2) for pentanomial ``counts``."""
    if len(counts) != len(PENTANOMIAL_PAIR_POINTS):
        raise ValueError("pentanomial counts must have five entries")
    return mean_and_variance([p / 2.0 for p in PENTANOMIAL_PAIR_POINTS], counts)


def elo_from_pentanomial(counts: Sequence[int]) -> float:
    """Return the Elo difference implied by pentanomial ``counts``
    (``nan`` when there are no pairs)."""
    mean, _ = pentanomial_mean_and_variance(counts)
    return math.nan if math.isnan(mean) else elo_from_score(mean)


def elo_error_pentanomial(counts: Sequence[int], confidence: float = 0.95) -> float:
    """Return the Elo error bar from pentanomial ``counts``.

    Each game pair is one sample (its mean score, 0 to 1 in steps of 0.25), so
    the correlation between the two games of a pair, which is usually
    positive with balanced openings, is accounted for.  This is generally
    narrower and more accurate than :func:`elo_error_trinomial`.
    """
    pairs = sum(counts)
    if pairs == 0:
        return math.nan
    mean, variance = pentanomial_mean_and_variance(counts)
    return elo_error(mean, math.sqrt(variance / pairs), confidence)


# --------------------------------------------------------------------------
# Sequential probability ratio test (pentanomial GSPRT, logistic Elo)

#: Count substituted for an empty pentanomial bucket before the LLR is computed
#: (fishtest's ``LLRcalc.regularize``), so that the MLE and the variance exist.
PENTANOMIAL_REGULARIZATION = 1e-3

#: Outcome values of the pentanomial buckets on the per-game scale
#: (pair points / 2): ``0, 0.25, 0.5, 0.75, 1``.
PENTANOMIAL_PAIR_SCORES: tuple[float, ...] = tuple(p / 2.0 for p in PENTANOMIAL_PAIR_POINTS)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Return Wald's stopping bounds ``(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))``.

    ``alpha`` is the probability of accepting H1 when H0 holds, ``beta`` that
    of accepting H0 when H1 holds.

    >>> [round(b, 4) for b in sprt_bounds(0.05, 0.05)]
    [-2.9444, 2.9444]
    """
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise ValueError(f"need 0 < alpha, beta and alpha + beta < 1, got {alpha!r}, {beta!r}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_decision(llr: float, lower: float, upper: float) -> str | None:
    """Return ``"H0"`` if ``llr`` is at or below ``lower``, ``"H1"`` if it is at
    or above ``upper``, else ``None`` (keep playing)."""
    if llr <= lower:
        return "H0"
    if llr >= upper:
        return "H1"
    return None


def _regularized_pentanomial(counts: Sequence[int]) -> tuple[float, list[float]]:
    """Return ``(N, probabilities)`` of pentanomial ``counts`` after replacing
    empty buckets by :data:`PENTANOMIAL_REGULARIZATION` (fishtest's
    ``results_to_pdf``); ``N`` is the regularized number of pairs."""
    if len(counts) != len(PENTANOMIAL_PAIR_POINTS):
        raise ValueError("pentanomial counts must have five entries")
    if any(c < 0 for c in counts):
        raise ValueError(f"pentanomial counts must be non-negative, got {list(counts)!r}")
    regularized = [float(c) if c > 0 else PENTANOMIAL_REGULARIZATION for c in counts]
    total = sum(regularized)
    return total, [c / total for c in regularized]


def _secular_root(values: Sequence[float], probs: Sequence[float]) -> float:
    """Solve ``sum_i p_i a_i / (1 + x a_i) = 0`` for ``x`` (fishtest's ``secular``).

    The ``a_i`` must take both signs.  The left-hand side decreases strictly
    in ``x`` on the interval ``(-1 / max a, -1 / min a)`` where all
    denominators are positive, so bisection to machine precision finds the
    unique root (fishtest uses ``scipy.optimize.brentq``; the results agree
    to about 1e-12).
    """
    low, high = -1.0 / max(values), -1.0 / min(values)
    if not low < high:
        raise ValueError("secular equation needs values of both signs")

    def f(x: float) -> float:
        return sum(p * a / (1.0 + x * a) for a, p in zip(values, probs, strict=True))

    for _ in range(200):
        middle = (low + high) / 2.0
        if middle in (low, high):
            break
        if f(middle) > 0.0:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def pentanomial_mle(counts: Sequence[int], score: float) -> list[float]:
    """Return the maximum-likelihood pentanomial distribution whose expected
    per-game score is ``score``, given observed (regularized) ``counts``.

    This is fishtest's ``LLRcalc.MLE_expected``: maximising
    ``sum_i phat_i log p_i`` subject to ``sum_i p_i = 1`` and
    ``sum_i p_i a_i = score`` (``a_i = 0, 0.25, ..., 1``) gives
    ``p_i = phat_i / (1 + x (a_i - score))`` with ``x`` the root of the
    secular equation ``sum_i phat_i (a_i - score) / (1 + x (a_i - score)) = 0``
    (Van den Bergh, "A note on the MLE of a multinomial distribution with a
    constrained mean", https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf,
    Proposition 1.1).
    """
    if not 0.0 < score < 1.0:
        raise ValueError(f"score must be in (0, 1), got {score!r}")
    _, probs = _regularized_pentanomial(counts)
    shifted = [a - score for a in PENTANOMIAL_PAIR_SCORES]
    x = _secular_root(shifted, probs)
    return [p / (1.0 + x * a) for a, p in zip(shifted, probs, strict=True)]


def llr_pentanomial(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """Return the pentanomial GSPRT log-likelihood ratio of H1 (``elo1``)
    against H0 (``elo0``), both in logistic Elo, exactly as fishtest computes
    it for ``elo_model="logistic"`` tests.

    Source: fishtest ``server/fishtest/stats/LLRcalc.py``, ``LLR_logistic``
    (called by ``stat_util.update_SPRT``), by Michel Van den Bergh; see
    https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf.

    With ``N`` (regularized) game pairs, observed pair-outcome frequencies
    ``phat_i`` on the per-game scale ``a_i = 0, 0.25, 0.5, 0.75, 1``, and
    ``s_k = 1 / (1 + 10 ** (-elo_k / 400))`` the expected score under H_k::

        LLR = N * sum_i phat_i * (log p1_i - log p0_i)

    where ``p_k`` is the maximum-likelihood distribution with mean ``s_k``
    (:func:`pentanomial_mle`).  This is the *generalized* LLR: the nuisance
    parameters (draw rate, pair correlation) are profiled out.  Empty buckets
    count as :data:`PENTANOMIAL_REGULARIZATION` pairs.  For small Elo
    differences it is close to :func:`llr_pentanomial_normal`.

    Fishtest additionally corrects the bounds for the expected overshoot
    ("dynamic overshoot"); that correction is not applied here.  Returns 0.0
    when there are no pairs.
    """
    if sum(counts) == 0:
        return 0.0
    total, probs = _regularized_pentanomial(counts)
    p0, p1 = (pentanomial_mle(counts, score_from_elo(elo)) for elo in (elo0, elo1))
    return total * sum(p * (math.log(q1) - math.log(q0)) for p, q0, q1 in zip(probs, p0, p1, strict=True))


def llr_pentanomial_normal(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """Return the normal (Brownian) approximation of :func:`llr_pentanomial`::

        LLR ~= N / 2 * (s1 - s0) * (2 * mu - s0 - s1) / var

    with ``mu`` and ``var`` the mean and variance of the per-pair mean score
    (regularized as in :func:`llr_pentanomial`), ``N`` the number of pairs and
    ``s_k`` the expected scores of ``elo0``/``elo1``.  This is fishtest's
    ``LLRcalc.LLR_alt2`` times ``N`` (also the drift used by its ``sprt``
    class), from Van den Bergh, "A simple approximation of the GSPRT",
    https://www.cantate.be/Fishtest/GSPRT_approximation.pdf.  Returns 0.0 when
    there are no pairs.
    """
    if sum(counts) == 0:
        return 0.0
    total, probs = _regularized_pentanomial(counts)
    mu = sum(a * p for a, p in zip(PENTANOMIAL_PAIR_SCORES, probs, strict=True))
    var = sum(p * (a - mu) ** 2 for a, p in zip(PENTANOMIAL_PAIR_SCORES, probs, strict=True))
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return total / 2.0 * (s1 - s0) * (2.0 * mu - s0 - s1) / var
