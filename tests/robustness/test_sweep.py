"""Weight sweeps: the scores along one dimension's share."""

from __future__ import annotations

import numpy as np
import pytest

from selector.decision import scoring
from selector.decision.problem import ScoringError
from selector.decision.weights import Hierarchy
from selector.robustness.sweep import weight_sweep
from tests.problems import problem as make_problem
from tests.robustness.problems import DIM_WEIGHTS, DIMS, OBJ8, json_roundtrip, random_problem


def test_weight_sweep_matches_scoring_at_grid_points():
    x, _ = random_problem(9)
    sweep = weight_sweep(make_problem(x, OBJ8, None, "topsis"), Hierarchy.of(DIMS, DIM_WEIGHTS), "cost", n_points=11)
    assert sweep.scores.shape == (11, 5) and sweep.grid[0] == 0 and sweep.grid[-1] == 1
    assert sweep.current_weight == pytest.approx(0.25)
    for g in (0, 4, 10):
        h = Hierarchy.of(DIMS, DIM_WEIGHTS)
        [w] = h.at(h.index("cost"), sweep.grid[g])
        ref = scoring.score(make_problem(x, OBJ8, w, "topsis"))
        np.testing.assert_allclose(sweep.scores[g], ref.scores, atol=1e-12)
        assert sweep.leaders[g] == ref.leader
    assert json_roundtrip(sweep)["leaders"] == list(sweep.leaders)


def test_weight_sweep_needs_two_dimensions():
    with pytest.raises(ScoringError, match="nothing to trade off"):
        weight_sweep(
            make_problem([[1.0, 2.0], [2.0, 1.0]], ["max", "max"], None), Hierarchy.of(["p", "p"], {"p": 1}), "p"
        )
