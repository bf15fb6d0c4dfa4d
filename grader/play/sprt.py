"""Early stopping for a series of paired games: a sequential probability ratio test (SPRT) on
the pairs' scores, per threshold of a ``match`` check (issue 13).

Why: a student far above or far below a threshold shows it after a few pairs; playing the
whole series for them only spends the submission's CPU budget and the batch's time.  Wald's
SPRT decides as soon as the evidence is strong enough, with error rates fixed in advance.

**The observations** are the pairs' shares ``x_i = pair points / 2``, in
``{0, 1/4, 1/2, 3/4, 1}``: the seat-swapped pair, not the single game, is the unit, because
its two games are not independent (the same opening, the seats swapped) and its share varies
less than a game's (``grader.play.referee``: why pairs).

**The test** for a threshold ``t`` (a share) compares ``H0: mean = t - margin`` with
``H1: mean = t + margin`` under a normal approximation of the pairs' shares with a common
variance ``s2``; the log-likelihood ratio after ``n`` pairs is::

    LLR = (mu1 - mu0) / s2 * (sum x - n (mu0 + mu1) / 2)
        = 2 margin / s2 * (sum x - n t)

``s2`` is the sample variance of the shares seen so far (``n - 1`` in the denominator), but
never below ``VARIANCE_FLOOR`` = 1/16: the variance of pair shares that lie one step of their
grid (1/4, half a point of a pair) either side of their mean.  Without a floor, pairs that
all came out the same (a student winning every game) have a sample variance of 0 and an
infinite LLR after two pairs; the scores move in steps of 1/4, so a spread below one step is
not something a handful of pairs can show.  (The largest possible variance of a share in
[0, 1] is 1/4: the floor is a quarter of it.)

Wald's bounds for error rates ``alpha`` (deciding "above" when the mean is ``t - margin``)
and ``beta`` (deciding "below" when it is ``t + margin``): "above" once
``LLR >= A = ln((1 - beta) / alpha)``, "below" once ``LLR <= B = ln(beta / (1 - alpha))``,
else still open; no decision before ``min_pairs`` pairs.  ``alpha = beta = 0.05`` gives
``A = -B = ln 19 ≈ 2.94``.

**Consistency over thresholds.** For the same pairs ``LLR`` falls as ``t`` rises (``s2`` does
not depend on ``t``), so the thresholds decided "above" are always the lowest ones, those
decided "below" the highest, and the open ones lie between.  And "above" needs
``sum x > n t``, "below" ``sum x < n t``: a decision never contradicts the observed share of
the pairs played, so a series stopped once every threshold is decided earns what its share
gives, as a full series does (``grader.checks.match``).

Pure arithmetic: no games, no processes.  ``bench/sprt_games.py`` measures how many games it
saves and how often it decides otherwise than the full series.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

ABOVE, BELOW, OPEN = "above", "below", "open"
VARIANCE_FLOOR = 1 / 16     # one grid step (1/4) either side of the mean, squared
DEFAULT_MARGIN = 0.05
DEFAULT_ALPHA = DEFAULT_BETA = 0.05
MIN_PAIRS = 2


@dataclass(frozen=True)
class Test:
    """The settings of the sequential test: the half-width ``margin`` of the zone around a
    threshold where either answer is acceptable, the error rates and the pairs needed before
    any decision."""

    margin: float = DEFAULT_MARGIN
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA
    min_pairs: int = MIN_PAIRS

    def __post_init__(self):
        if not 0 < self.margin < 0.5:
            raise ValueError(f"the margin is a share between 0 and 0.5, not {self.margin!r}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("the error rates alpha and beta lie between 0 and 0.5")
        if self.min_pairs < 2:
            raise ValueError("a variance needs at least two pairs: min_pairs >= 2")

    @property
    def upper(self) -> float:
        """Wald's bound A: at or above it, the threshold is decided "above"."""
        return math.log((1 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        """Wald's bound B: at or below it, the threshold is decided "below"."""
        return math.log(self.beta / (1 - self.alpha))


def variance(shares: Sequence[float]) -> float:
    """The sample variance of the pairs' shares, at least ``VARIANCE_FLOOR``."""
    n = len(shares)
    if n < 2:
        return VARIANCE_FLOOR
    mean = sum(shares) / n
    spread = sum((x - mean) ** 2 for x in shares) / (n - 1)
    return max(spread, VARIANCE_FLOOR)


def llr(shares: Sequence[float], threshold: float, margin: float = DEFAULT_MARGIN) -> float:
    """The log-likelihood ratio of "mean = threshold + margin" against "mean = threshold -
    margin" after the pairs' ``shares`` (module docstring)."""
    return 2 * margin / variance(shares) * (sum(shares) - len(shares) * threshold)


def decide(shares: Sequence[float], threshold: float, test: Test = Test()) -> str:
    """``above``, ``below`` or ``open``: what the pairs so far say about ``threshold``."""
    if len(shares) < test.min_pairs:
        return OPEN
    ratio = llr(shares, threshold, test.margin)
    if ratio >= test.upper:
        return ABOVE
    if ratio <= test.lower:
        return BELOW
    return OPEN


def decisions(shares: Sequence[float], thresholds: Iterable[float],
              test: Test = Test()) -> list[str]:
    """Each threshold's decision, in the order given."""
    return [decide(shares, threshold, test) for threshold in thresholds]


def settled(shares: Sequence[float], thresholds: Iterable[float], test: Test = Test()) -> bool:
    """Whether every threshold is decided: the series may stop here."""
    return all(d != OPEN for d in decisions(shares, thresholds, test))
