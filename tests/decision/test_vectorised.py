"""Tests for selector.decision.vectorised: the vectorised methods equal scoring.score (scikit-criteria) sample by
sample."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from selector.decision import scoring, vectorised
from selector.decision.problem import METHODS, ScoringError
from tests.examples import examples
from tests.problems import enclosing_scales
from tests.problems import problem as make_problem

ALL_COMBOS = [(m, s) for m, spec in METHODS.items() for s in spec.scalers]


@st.composite
def problems(draw):
    """A random positive matrix, sometimes with a duplicated row or a constant column, plus weight samples."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    m = draw(st.integers(1, 7))
    n = draw(st.integers(1, 6))
    x = rng.uniform(0.1, 50, size=(m, n))
    if m > 1 and draw(st.booleans()):
        x[-1] = x[0]  # duplicate alternative: must tie in both implementations
    if draw(st.booleans()):
        x[:, rng.integers(n)] = rng.uniform(0.1, 50)  # constant column
    obj = list(rng.choice(["max", "min"], size=n))
    k = draw(st.integers(1, 12))
    w = rng.uniform(0, 1, size=(k, n))
    w[:, rng.integers(n)] += 0.05  # keep every row's sum positive
    if n > 1 and draw(st.booleans()):
        w[:, 0] = 0.0  # a zero weight
    return x, obj, w


SETTINGS = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(problem=problems(), combo=st.sampled_from(ALL_COMBOS))
def test_batch_equals_scoring_on_the_same_weight_samples(problem, combo):
    x, obj, w = problem
    method, scaler = combo
    scores = vectorised.scores(make_problem(x, obj, None, method, scaler), w)
    ranks = scoring.rank_scores(scores, METHODS[method].higher_is_better)
    assert scores.shape == ranks.shape == (w.shape[0], x.shape[0])
    for k in range(w.shape[0]):
        ref = scoring.score(make_problem(x, obj, w[k], method, scaler))
        np.testing.assert_allclose(scores[k], ref.scores, rtol=0, atol=1e-9)
        assert ranks[k].tolist() == ref.ranks.tolist(), (k, scores[k], ref.scores)


@SETTINGS
@given(problem=problems(), combo=st.sampled_from(ALL_COMBOS), seed=st.integers(0, 1000))
def test_batch_of_matrices_equals_scoring(problem, combo, seed):
    x, obj, w = problem
    method, scaler = combo
    rng = np.random.default_rng(seed)
    mats = x[None] * rng.uniform(0.8, 1.25, size=(w.shape[0], *x.shape))
    scales = enclosing_scales(mats)  # one scale for every matrix of the batch, as a group has
    scores = vectorised.scores(make_problem(mats[0], obj, None, method, scaler, value_scales=scales), w, mats)
    ranks = scoring.rank_scores(scores, METHODS[method].higher_is_better)
    for k in range(w.shape[0]):
        ref = scoring.score(make_problem(mats[k], obj, w[k], method, scaler, value_scales=scales))
        np.testing.assert_allclose(scores[k], ref.scores, rtol=0, atol=1e-9)
        assert ranks[k].tolist() == ref.ranks.tolist()


def test_one_weight_vector_is_shared_by_every_matrix():
    rng = np.random.default_rng(1)
    mats = rng.uniform(1, 5, size=(4, 3, 2))
    out = vectorised.scores(make_problem(mats[0], ["max", "min"], [0.3, 0.7], "topsis"), matrices=mats)
    assert out.shape == (4, 3)
    for k in range(4):
        np.testing.assert_allclose(
            out[k], scoring.score(make_problem(mats[k], ["max", "min"], [0.3, 0.7])).scores, atol=1e-12
        )


def test_weight_rows_are_normalised_independently():
    x = np.array([[1.0, 4.0], [3.0, 2.0]])
    a = vectorised.scores(make_problem(x, ["max", "max"], None, "wsm"), [[1, 3], [10, 30]])
    np.testing.assert_allclose(a[0], a[1])


def test_bad_weight_row_is_named():
    with pytest.raises(ScoringError, match="weight vector 1: weight 2 is negative"):
        vectorised.scores(make_problem([[1, 2], [3, 4]], ["max", "max"]), [[1, 1], [1, -1]])
    with pytest.raises(ScoringError, match="weight vector 0: all weights are zero"):
        vectorised.scores(make_problem([[1, 2], [3, 4]], ["max", "max"]), [[0, 0]])
    with pytest.raises(ScoringError, match="shape"):
        vectorised.scores(make_problem([[1, 2], [3, 4]], ["max", "max"]), [1, 1, 1])


def test_batch_refuses_what_scoring_refuses():
    with pytest.raises(ScoringError, match="logarithms"):
        vectorised.scores(make_problem([[1, 2], [3, 4]], ["max", "max"], [1, 1], "wpm"), matrices=[[[1, 0], [3, 4]]])
    with pytest.raises(ScoringError, match="finite"):
        vectorised.scores(make_problem([[1, 2], [3, 4]], ["max", "max"], [1, 1]), matrices=[[[1, np.nan], [3, 4]]])
    with pytest.raises(ScoringError, match="matrices"):
        vectorised.scores(make_problem(np.ones((2, 2)), ["max", "max"]), np.ones((2, 2)), np.ones((3, 2, 2)))


@pytest.mark.parametrize("method", list(METHODS))
def test_batch_scores_a_huge_column_like_the_single_scorer(method: str) -> None:
    x = np.array([[1.0e308, 1.0, 9.0], [2.0, 5.0, 3.0], [1.0, 4.0, 3.0]])
    objectives = ["max", "max", "min"]
    expected = scoring.score(make_problem(x, objectives, [4, 1, 1], method)).scores
    got = vectorised.scores(make_problem(x, objectives, None, method), [[4, 1, 1]])[0]
    assert np.argmax(got) == 0 if METHODS[method].higher_is_better else np.argmin(got) == 0
    assert np.all(np.isfinite(got))
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)
