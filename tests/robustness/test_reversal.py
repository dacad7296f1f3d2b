"""Rank reversal: removing an alternative or adding a copy of the worst."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from selector import scoring
from selector.problem import Problem
from selector.robustness.reversal import rank_reversal
from tests.robustness.problems import json_roundtrip


def test_topsis_rank_reversal_is_found_and_real():
    """TOPSIS with vector scaling: removing the third alternative swaps the top two (vector norms change)."""
    x = np.array([[5.0, 9.0, 1.0], [8.0, 7.0, 1.0], [7.0, 1.0, 8.0]])
    w = [0.6, 0.9, 0.2]
    rep = rank_reversal(Problem.of(x, ["max"] * 3, w, "topsis"))
    assert rep.any_reversal
    removal = next(p for p in rep.perturbations if p.kind == "remove" and p.subject == "A3")
    assert removal.swapped_pairs
    full = scoring.score(Problem.of(x, ["max"] * 3, w, "topsis"))
    part = scoring.score(Problem.of(x[:2], ["max"] * 3, w, "topsis", alternatives=["A1", "A2"]))
    for a, b in removal.swapped_pairs:
        ia, ib = int(a[1]) - 1, int(b[1]) - 1
        assert full.ranks[ia] < full.ranks[ib]
        assert part.ranks[ia] > part.ranks[ib]
    assert "removing A3 swaps" in rep.summary
    assert json_roundtrip(rep)["any_reversal"] is True


def test_add_copy_of_worst_is_reported():
    x = np.array([[5.0, 9.0, 1.0], [8.0, 7.0, 1.0], [7.0, 1.0, 8.0]])
    rep = rank_reversal(Problem.of(x, ["max"] * 3, [1, 1, 1], "wsm", "none"))
    added = rep.perturbations[-1]
    assert added.kind == "add_copy"
    worst = rep.alternatives[int(np.argmax(rep.baseline_ranks))]
    assert added.subject == worst and f"copy of {worst}" in added.ranks
    assert added.ranks[f"copy of {worst}"] == added.ranks[worst]  # a copy ties with its original


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_wsm_without_scaling_never_reverses(seed):
    """Raw weighted sums do not depend on the other alternatives, so no perturbation can reorder them."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 10, size=(rng.integers(2, 6), 3))
    rep = rank_reversal(Problem.of(x, ["max"] * 3, rng.uniform(0.1, 1, 3), "wsm", "none"))
    assert not rep.any_reversal
    assert rep.summary.startswith("No rank reversal under wsm/none")
