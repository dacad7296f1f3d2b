"""Weight sampling: uniform on the simplex, within bounds, bounds refused when nothing fits."""

from __future__ import annotations

import numpy as np
import pytest

from selector.decision.problem import ScoringError
from selector.robustness.sampling import resolve_weight_bounds, sample_simplex, sample_weights
from selector.robustness.smaa import smaa
from tests.problems import problem as make_problem


@pytest.mark.parametrize("n", [2, 3, 5])
def test_simplex_samples_are_uniform(n):
    w = sample_simplex(n, 40_000, np.random.default_rng(7))
    assert np.all(w >= 0)
    np.testing.assert_allclose(w.sum(axis=1), 1.0)
    np.testing.assert_allclose(w.mean(axis=0), 1 / n, atol=0.01)
    # the marginal of a uniform simplex is Beta(1, n - 1): P(w1 < 1/2) = 1 - (1/2) ** (n - 1)
    assert (w[:, 0] < 0.5).mean() == pytest.approx(1 - 0.5 ** (n - 1), abs=0.01)


def test_bounded_samples_stay_in_bounds_and_match_rejection_from_the_simplex():
    bounds = np.array([[0.1, 0.5], [0.2, 0.6], [0.0, 0.3]])
    w = sample_weights(3, 20_000, np.random.default_rng(1), bounds)
    np.testing.assert_allclose(w.sum(axis=1), 1.0)
    assert np.all(w >= bounds[:, 0] - 1e-12) and np.all(w <= bounds[:, 1] + 1e-12)
    # reference: uniform simplex samples filtered by the box is uniform on the same region
    ref = sample_simplex(3, 400_000, np.random.default_rng(2))
    ref = ref[np.all((ref >= bounds[:, 0]) & (ref <= bounds[:, 1]), axis=1)]
    np.testing.assert_allclose(w.mean(axis=0), ref.mean(axis=0), atol=0.005)
    np.testing.assert_allclose(w.std(axis=0), ref.std(axis=0), atol=0.005)


def test_weight_bounds_around_current_weights():
    w = np.array([0.4, 0.25, 0.2, 0.15])
    bounds = resolve_weight_bounds(0.05, w, 4, ["a", "b", "c", "d"])
    np.testing.assert_allclose(bounds, [[0.35, 0.45], [0.2, 0.3], [0.15, 0.25], [0.1, 0.2]])
    samples = sample_weights(4, 5000, np.random.default_rng(0), bounds)
    assert np.all(np.abs(samples - w) <= 0.05 + 1e-9)


@pytest.mark.parametrize(
    ("bounds", "message"),
    [
        ([[0.6, 1], [0.6, 1]], "lower weight bounds sum to 1.2"),
        ([[0, 0.3], [0, 0.3]], "upper weight bounds sum to 0.6"),
        ([[0.5, 0.2], [0, 1]], r"criterion 'a' are \[0.5, 0.2\]"),
        ([[0, 1]], "shape"),
    ],
)
def test_infeasible_weight_bounds_are_refused(bounds, message):
    with pytest.raises(ScoringError, match=message):
        resolve_weight_bounds(bounds, None, 2, ["a", "b"])


def test_numeric_bounds_need_weights():
    with pytest.raises(ScoringError, match="give weights"):
        smaa(make_problem([[1, 2], [2, 1]], ["max", "max"]), n_samples=10, weight_bounds=0.1)
