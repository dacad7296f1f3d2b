"""selector.closeness: "too close to call" compares the score gap with the range of the method's score scale, so
it works with two alternatives; the range is checked against hand-computed ideal and anti-ideal scores."""

from __future__ import annotations

import numpy as np
import pytest

from selector import closeness
from selector.decision import scoring
from selector.decision.problem import Problem


def test_too_close_compares_the_gap_with_the_scale_range():
    assert closeness.too_close(0.004, 1.0)  # a value model's 0..1 scale: 0.4 % of it
    assert not closeness.too_close(0.02, 1.0)
    assert closeness.too_close(-0.004, 1.0)  # lower-is-better methods give negative gaps
    assert not closeness.too_close(0.004, 0.1)  # the same gap is 4 % of a narrower scale
    with pytest.raises(ValueError, match="positive"):
        closeness.too_close(0.1, 0.0)


def test_two_alternatives_can_be_too_close_to_call():
    """With two alternatives the range of their own scores is the gap (100 %): the scale's range is not."""
    problem = Problem.of([[0.500, 0.5], [0.496, 0.5]], ["max", "max"], [0.5, 0.5], "wsm", "none")
    scores = scoring.score(problem).scores
    gap = float(scores[0] - scores[1])
    scaled = closeness.scale_range(problem, np.array([[0.0, 1.0], [0.0, 1.0]]), gap)
    assert scaled.score_range == pytest.approx(1.0)  # ideal (1, 1) scores 1, anti-ideal (0, 0) scores 0
    assert scaled.share == pytest.approx(0.002)
    assert closeness.too_close(scaled.gap, scaled.score_range)
    assert not closeness.too_close(gap, abs(gap))  # what the scores' own range said: never close


@pytest.mark.parametrize("scaler", ["sum", "vector", "minmax"])
def test_the_range_uses_the_alternatives_normalisation(scaler):
    values = np.array([[30.0, 2.0], [10.0, 4.0], [20.0, 3.0]])
    scales = np.array([[0.0, 50.0], [1.0, 5.0]])
    weights = np.array([0.7, 0.3])
    problem = Problem.of(values, ["max", "min"], weights, "wsm", scaler)
    scaled = closeness.scale_range(problem, scales, 0.01)
    # by hand: the cost column is inverted (1/x), then each column is scaled by what the alternatives fit
    inv = values.copy()
    inv[:, 1] = 1 / inv[:, 1]
    ideal, anti = np.array([50.0, 1 / 1.0]), np.array([0.0, 1 / 5.0])
    if scaler == "sum":
        norm = lambda r: r / inv.sum(axis=0)  # noqa: E731
    elif scaler == "vector":
        norm = lambda r: r / np.sqrt((inv**2).sum(axis=0))  # noqa: E731
    else:
        norm = lambda r: (r - inv.min(axis=0)) / (inv.max(axis=0) - inv.min(axis=0))  # noqa: E731
    expected = float(norm(ideal) @ weights - norm(anti) @ weights)
    assert scaled.score_range == pytest.approx(expected)
    assert scaled.bounded
    # the alternatives' own scores lie inside that range
    scores = scoring.score(problem).scores
    assert float(np.ptp(scores)) <= scaled.score_range + 1e-12


def test_topsis_and_vikor_have_a_fixed_unit_scale():
    problem = Problem.of([[1.0, 2.0], [2.0, 1.0]], ["max", "max"], [0.5, 0.5], "topsis", "vector")
    assert closeness.scale_range(problem, np.full((2, 2), np.nan), 0.003).score_range == 1.0
