"""Tests for selector.decision.weights: normalisation of one weighting and of a batch, and the dimension hierarchy."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from selector.decision import weights
from selector.decision.weights import Hierarchy, WeightError
from tests.refusals import said_in_both


def test_normalise_accepts_any_scale():
    np.testing.assert_allclose(weights.normalise([40, 25, 20, 15]), [0.4, 0.25, 0.2, 0.15])
    np.testing.assert_allclose(weights.normalise([0, 3]), [0, 1])


def test_weights_of_1e308_are_scaled_before_they_are_summed() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        w = weights.normalise([1e308, 1e308, 1e308, 1e308])
    assert w.tolist() == [0.25, 0.25, 0.25, 0.25]


def test_batch_weights_of_1e308_are_scaled_before_they_are_summed() -> None:
    w = weights.normalise_rows(np.full((2, 4), 1e308), 4)
    assert np.allclose(w, 0.25)


DIMS = ["perf", "perf", "perf", "cost", "cost", "eco", "eco", "risk"]
DIM_WEIGHTS = {"perf": 40, "cost": 25, "eco": 20, "risk": 15}


def test_dimension_weights_keep_the_other_proportions():
    h = Hierarchy.of(DIMS, DIM_WEIGHTS, [2, 1, 1, 1, 1, 1, 1, 1])
    [w] = h.at(h.index("cost"), 0.5)
    np.testing.assert_allclose(w.sum(), 1.0)
    np.testing.assert_allclose(w[3] + w[4], 0.5)
    # perf : eco : risk stay 40 : 20 : 15 and perf's sub-weights stay 2 : 1 : 1
    np.testing.assert_allclose([w[:3].sum(), w[5:7].sum(), w[7]], np.array([40, 20, 15]) / 75 * 0.5)
    np.testing.assert_allclose(w[:3] / w[:3].sum(), [0.5, 0.25, 0.25])
    # at its current share the weights are the current ones
    h = Hierarchy.of(DIMS, DIM_WEIGHTS)
    [current] = h.at(h.index("perf"), 0.4)
    np.testing.assert_allclose(current, [0.4 / 3] * 3 + [0.125] * 2 + [0.1] * 2 + [0.15])


def test_a_hierarchy_refuses_what_it_cannot_share_out():
    with pytest.raises(WeightError, match="dimension 'cost', which dimension_weights does not weight"):
        Hierarchy.of(["perf", "cost"], {"perf": 1})
    with pytest.raises(WeightError, match="every criterion of dimension 'cost' has sub-weight 0"):
        Hierarchy.of(["perf", "cost"], {"perf": 1, "cost": 1}, [1, 0])
    with pytest.raises(WeightError, match="negative"):
        Hierarchy.of(["perf", "cost"], {"perf": 1, "cost": -1})
    # a dimension that holds all the weight: the others share the rest evenly when it shrinks
    [w] = Hierarchy.of(["a", "b", "c"], {"a": 1, "b": 0, "c": 0}).at(0, 0.4)
    np.testing.assert_allclose(w, [0.4, 0.3, 0.3])


# A refusal keeps its English text and is said in Chinese with the user's values (issue 36)
@pytest.mark.parametrize(
    ("given", "english", "values"),
    [
        (
            [1, -2],
            "weight 2 ('b') is negative (-2); weights must be >= 0 (use 0 to ignore a criterion)",
            ("2", "'b'", "-2"),
        ),
        ([0, 0], "all weights are zero; give at least one criterion a positive weight", ()),
    ],
)
def test_a_refusal_is_english_as_before_and_chinese_with_the_same_values(given, english, values):
    with pytest.raises(WeightError) as refused:
        weights.normalise(given, ["a", "b"])
    said_in_both(refused.value, english, values)
