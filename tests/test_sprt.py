"""The sequential test on pair scores (``grader.play.sprt``): Wald's bounds, the variance
floor, and that decisions over increasing thresholds never contradict each other or the
observed share (property tests over every sequence of pair shares)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.play import sprt

pair_shares = st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), min_size=0, max_size=40)
thresholds = st.lists(st.floats(min_value=0.01, max_value=1.0), min_size=1, max_size=6)
margins = st.floats(min_value=0.01, max_value=0.2)


def test_wald_s_bounds_for_five_percent_errors_are_plus_and_minus_ln_19():
    test = sprt.Test()
    assert test.upper == pytest.approx(math.log(19))
    assert test.lower == pytest.approx(-math.log(19))


def test_all_equal_pairs_have_the_floor_variance_not_an_infinite_ratio():
    assert sprt.variance([1.0, 1.0, 1.0]) == sprt.VARIANCE_FLOOR == 1 / 16
    # four won pairs against a threshold of 45 %: 2 * 0.05 * 16 * (4 - 1.8) = 3.52 >= ln 19
    assert sprt.llr([1.0] * 4, 0.45) == pytest.approx(3.52)
    assert sprt.decide([1.0] * 4, 0.45) == sprt.ABOVE
    assert sprt.decide([1.0] * 3, 0.45) == sprt.OPEN         # 2.64 < ln 19 = 2.94


def test_a_spread_above_the_floor_is_the_sample_variance():
    shares = [0.0, 1.0, 0.0, 1.0]
    assert sprt.variance(shares) == pytest.approx(1 / 3)     # (4 * 0.25) / 3


def test_no_decision_before_the_minimum_of_pairs():
    assert sprt.decide([0.0], 0.95) == sprt.OPEN
    # two lost pairs against 95 %: 0.1 * 16 * (0 - 1.9) = -3.04 <= -ln 19
    assert sprt.decide([0.0, 0.0], 0.95) == sprt.BELOW
    assert sprt.decide([0.0, 0.0], 0.95, sprt.Test(min_pairs=3)) == sprt.OPEN
    assert sprt.decide([0.0, 0.0], 0.9) == sprt.OPEN        # -2.88: not yet


def test_a_borderline_student_stays_open():
    shares = [0.5, 0.25, 0.75, 0.5, 0.5, 0.25, 0.75, 0.5]   # mean 0.5 exactly
    assert sprt.decide(shares, 0.5) == sprt.OPEN
    assert not sprt.settled(shares, [0.1, 0.5])


def test_settings_out_of_range_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="margin"):
        sprt.Test(margin=0.6)
    with pytest.raises(ValueError, match="min_pairs"):
        sprt.Test(min_pairs=1)


@settings(max_examples=300, deadline=None)
@given(pair_shares, thresholds, margins)
def test_decisions_over_increasing_thresholds_are_consistent(shares, raw, margin):
    """Above: a lowest block; below: a highest block; open between (LLR falls as t rises)."""
    test = sprt.Test(margin=margin)
    ordered = sorted(set(raw))
    found = sprt.decisions(shares, ordered, test)
    rank = {sprt.ABOVE: 0, sprt.OPEN: 1, sprt.BELOW: 2}
    assert [rank[d] for d in found] == sorted(rank[d] for d in found)
    ratios = [sprt.llr(shares, t, margin) for t in ordered]
    assert all(a >= b for a, b in zip(ratios, ratios[1:]))


@settings(max_examples=300, deadline=None)
@given(pair_shares, thresholds)
def test_a_decision_never_contradicts_the_observed_share(shares, raw):
    for threshold, decision in zip(raw, sprt.decisions(shares, raw)):
        if decision == sprt.ABOVE:
            assert sum(shares) > len(shares) * threshold
        elif decision == sprt.BELOW:
            assert sum(shares) < len(shares) * threshold
