"""Agreement between methods: the ranking under every method, Kendall's tau, what cannot score is skipped."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from selector.decision import scoring
from selector.decision.problem import METHODS, ScoringError
from selector.robustness.agreement import kendall_tau, method_agreement
from tests.problems import problem as make_problem
from tests.robustness.problems import json_roundtrip


def test_method_agreement_reports_every_method_and_disagreement():
    x = [[5.0, 5.0], [10.0, 8.0], [4.0, 3.0]]
    # built for the value model, so the problem carries scales and every method can score it
    ag = method_agreement(make_problem(x, ["max", "min"], [1, 1], "mavt", alternatives=["A1", "A2", "A3"]))
    assert ag.methods == tuple(METHODS)
    for k, method in enumerate(ag.methods):
        ref = scoring.score(make_problem(x, ["max", "min"], [1, 1], method, alternatives=["A1", "A2", "A3"]))
        assert ag.ranks[k].tolist() == ref.ranks.tolist()
        assert ag.leaders[k] == ref.leader
        assert ag.scalers[k] == METHODS[method].default_scaler
    assert len(set(ag.leaders)) > 1
    assert ag.summary.startswith("Methods disagree on the leader")
    np.testing.assert_allclose(np.diag(ag.kendall_tau), 1.0)
    np.testing.assert_allclose(ag.kendall_tau, ag.kendall_tau.T)
    wsm, topsis = ag.methods.index("wsm"), ag.methods.index("topsis")
    assert ag.kendall_tau[wsm, topsis] < 1
    json_roundtrip(ag)


def test_method_agreement_all_agree_and_skips_what_cannot_score():
    x = [[9.0, 0.0], [5.0, 3.0], [1.0, 8.0]]  # A1 dominates; the zero rules out wpm
    ag = method_agreement(make_problem(x, ["max", "min"], [1, 1]))
    assert "wpm" in ag.skipped and "wsm" in ag.skipped  # wsm inverts the zero cost
    assert "mavt" in ag.skipped
    assert set(ag.leaders) == {"A1"}
    assert ag.summary.startswith(f"All {len(ag.methods)} methods rank A1 first")
    assert "Skipped: mavt, wsm, wpm" in ag.summary  # the value model needs scales this problem does not give


def test_method_agreement_refuses_bad_input_instead_of_skipping():
    with pytest.raises(ScoringError, match="negative"):
        method_agreement(make_problem([[1, 2], [2, 1]], ["max", "max"], [1, -1]))


rankings = st.lists(st.integers(min_value=1, max_value=5), min_size=0, max_size=12)


@given(data=st.data(), x=rankings)
def test_kendall_tau_equals_scipys(data, x):
    y = data.draw(st.lists(st.integers(min_value=1, max_value=5), min_size=len(x), max_size=len(x)))
    expected = scipy_stats.kendalltau(x, y).statistic if len(x) > 1 else math.nan
    got = kendall_tau(x, y)
    assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_kendall_tau_of_long_rankings_and_bad_shapes():
    rng = np.random.default_rng(5)
    long_x, long_y = rng.permutation(2500), rng.permutation(2500)  # past the pairwise limit: scipy's own
    assert kendall_tau(long_x, long_y) == pytest.approx(scipy_stats.kendalltau(long_x, long_y).statistic)
    with pytest.raises(ValueError, match="same length"):
        kendall_tau([1, 2, 3], [1, 2])
