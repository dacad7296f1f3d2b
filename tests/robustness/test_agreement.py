"""Agreement between methods: the ranking under every method, Kendall's tau, what cannot score is skipped."""

from __future__ import annotations

import numpy as np
import pytest

from selector import scoring
from selector.problem import METHODS, Problem, ScoringError
from selector.robustness.agreement import method_agreement
from tests.robustness.problems import json_roundtrip


def test_method_agreement_reports_every_method_and_disagreement():
    x = [[5.0, 5.0], [10.0, 8.0], [4.0, 3.0]]
    ag = method_agreement(Problem.of(x, ["max", "min"], [1, 1], alternatives=["A1", "A2", "A3"]))
    assert ag.methods == tuple(METHODS)
    for k, method in enumerate(ag.methods):
        ref = scoring.score(Problem.of(x, ["max", "min"], [1, 1], method, alternatives=["A1", "A2", "A3"]))
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
    ag = method_agreement(Problem.of(x, ["max", "min"], [1, 1]))
    assert "wpm" in ag.skipped and "wsm" in ag.skipped  # wsm inverts the zero cost
    assert set(ag.leaders) == {"A1"}
    assert ag.summary.startswith(f"All {len(ag.methods)} methods rank A1 first")
    assert "Skipped: wsm, wpm" in ag.summary


def test_method_agreement_refuses_bad_input_instead_of_skipping():
    with pytest.raises(ScoringError, match="negative"):
        method_agreement(Problem.of([[1, 2], [2, 1]], ["max", "max"], [1, -1]))
