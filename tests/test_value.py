"""Value functions on fixed scales (selector.value) and the additive value model that scores with them.

The model is checked against a hand-computed example, against scikit-criteria's own weighted-sum pipeline on the
value-transformed matrix, and by the properties that make it defensible: dominance, independence of who else is
ranked, invariance to the units a quantity is written in, and swing weights that mean what they say.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector.decision import scoring, vectorised
from selector.decision.problem import Problem, ScoringError
from selector.value import ValueScaleError, ValueScales, check_bounds, outside_message

# --- the value functions


def test_linear_values_map_the_worst_end_to_0_and_the_best_to_1():
    scales = ValueScales.of([(0, 100), (1, 5)], ["linear", "linear"], ["a", "b"])
    x = np.array([[0.0, 5.0], [100.0, 1.0], [25.0, 2.0]])
    # column a is maximised, column b (a rating of lock-in, say) minimised
    v = scales.values(x, np.array([1, -1]))
    assert v.tolist() == [[0.0, 0.0], [1.0, 1.0], [0.25, 0.75]]


def test_logarithmic_values_count_equal_ratios_alike():
    scales = ValueScales.of([(1, 10_000)], ["log"], ["throughput"])
    v = scales.values(np.array([[1.0], [10.0], [100.0], [10_000.0]]), np.array([1]))[:, 0]
    assert v == pytest.approx([0.0, 0.25, 0.5, 1.0])
    # a cost on a log scale: halving it gains the same value wherever it starts
    cost = ValueScales.of([(0.01, 10)], ["log"], ["usd"])
    c = cost.values(np.array([[0.1], [0.05], [2.0], [1.0]]), np.array([-1]))[:, 0]
    assert c[1] - c[0] == pytest.approx(c[3] - c[2])


@pytest.mark.parametrize(
    ("lo", "hi", "shape", "words"),
    [
        (5, 1, "linear", "lower one first"),
        (1, 1, "linear", "lower one first"),
        (0, 10, "log", "above 0"),
        (1, math.inf, "linear", "two finite bounds"),
        (1, 5, "cubic", "not one of"),
    ],
)
def test_unusable_scales_are_refused_with_the_reason(lo, hi, shape, words):
    with pytest.raises(ValueScaleError, match=words):
        check_bounds(lo, hi, shape, "criterion `x`")


def test_a_value_outside_its_scale_is_refused_naming_criterion_value_and_bounds():
    scales = ValueScales.of([(0, 2000)], ["linear"], ["tdp-w"])
    with pytest.raises(ScoringError) as caught:
        Problem.of([[700.0], [2500.0]], ["min"], [1], "mavt", None, ["h100", "odd"], ["tdp-w"], value_scales=scales)
    message = str(caught.value)
    assert "'odd'" in message and "2500" in message and "[0, 2000]" in message and "tdp-w" in message
    assert outside_message("tdp-w", 2500, 0, 2000) in message


def test_the_value_scaler_needs_scales():
    with pytest.raises(ScoringError, match="fixed scale"):
        Problem.of([[1.0], [2.0]], ["max"], [1], "mavt")


# --- the additive value model against independent references


def test_a_hand_computed_example():
    """Three options, three criteria (max on 0-100, min on 0-10, a 1-5 rating), weights 0.5 / 0.3 / 0.2.

    v: A = (0.8, 0.7, 0.5), B = (0.6, 0.9, 1.0), C = (1.0, 0.2, 0.0)
    score: A = 0.4 + 0.21 + 0.1 = 0.71; B = 0.3 + 0.27 + 0.2 = 0.77; C = 0.5 + 0.06 + 0 = 0.56
    """
    scales = ValueScales.of([(0, 100), (0, 10), (1, 5)], ["linear"] * 3, ["perf", "cost", "eco"])
    p = Problem.of(
        [[80, 3, 3], [60, 1, 5], [100, 8, 1]],
        ["max", "min", "max"],
        [5, 3, 2],
        "mavt",
        alternatives=["A", "B", "C"],
        value_scales=scales,
    )
    result = scoring.score(p)
    assert result.scores == pytest.approx([0.71, 0.77, 0.56])
    assert result.ranks.tolist() == [2, 1, 3]
    assert result.contributions.sum(axis=1) == pytest.approx(result.scores)
    assert (result.method, result.scaler) == ("mavt", "value")


@given(
    st.integers(2, 6),
    st.integers(1, 5),
    st.integers(0, 2**32 - 1),
)
def test_equals_scikit_criteria_weighted_sum_on_the_value_matrix(m, n, seed):
    rng = np.random.default_rng(seed)
    lo = rng.uniform(0.1, 10, n)
    hi = lo + rng.uniform(0.5, 1000, n)
    shapes = rng.choice(["linear", "log"], n).tolist()
    x = rng.uniform(lo, hi, (m, n))
    signs = rng.choice([-1, 1], n)
    w = rng.uniform(0.01, 1, n)
    scales = ValueScales.of(np.column_stack([lo, hi]), shapes, [f"c{j}" for j in range(n)])
    p = Problem.of(x, ["max" if s > 0 else "min" for s in signs], w, "mavt", value_scales=scales)
    ours = scoring.score(p).scores

    import skcriteria as skc
    from skcriteria.agg.simple import WeightedSumModel

    v = scales.values(x, signs)
    reference = WeightedSumModel().evaluate(skc.mkdm(v, ["max"] * n, weights=w / w.sum())).e_.score
    assert ours == pytest.approx(np.asarray(reference), abs=1e-12)
    assert vectorised.scores(p)[0] == pytest.approx(ours, abs=1e-12)


# --- properties


def _random_problem(seed: int, m: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, ValueScales]:
    rng = np.random.default_rng(seed)
    lo = rng.uniform(0.5, 5, n)
    hi = lo * rng.uniform(2, 1000, n)
    shapes = rng.choice(["linear", "log"], n).tolist()
    scales = ValueScales.of(np.column_stack([lo, hi]), shapes, [f"c{j}" for j in range(n)])
    return rng.uniform(lo, hi, (m, n)), rng.choice([-1, 1], n), rng.dirichlet(np.ones(n)), scales


def _objectives(signs: np.ndarray) -> list[str]:
    return ["max" if s > 0 else "min" for s in signs]


@given(st.integers(0, 2**32 - 1), st.integers(2, 7), st.integers(1, 6))
def test_an_option_at_least_as_good_everywhere_ranks_at_least_as_high_at_any_weights(seed, m, n):
    x, signs, w, scales = _random_problem(seed, m, n)
    rng = np.random.default_rng(seed + 1)
    # option 0 is made at least as good as option 1 on every criterion (direction-aware), within the scales
    better = np.where(signs > 0, np.maximum(x[0], x[1]), np.minimum(x[0], x[1]))
    x[0] = better
    for weights in (w, rng.dirichlet(np.ones(n)), np.eye(n)[rng.integers(n)] + 1e-9):
        result = scoring.score(Problem.of(x, _objectives(signs), weights, "mavt", value_scales=scales))
        assert result.scores[0] >= result.scores[1] - 1e-12
        assert result.ranks[0] <= result.ranks[1]


@given(st.integers(0, 2**32 - 1), st.integers(3, 8), st.integers(1, 6))
def test_adding_or_removing_an_option_never_changes_another_ones_score(seed, m, n):
    x, signs, w, scales = _random_problem(seed, m, n)
    full = scoring.score(Problem.of(x, _objectives(signs), w, "mavt", value_scales=scales)).scores
    drop = seed % m
    keep = [i for i in range(m) if i != drop]
    fewer = scoring.score(Problem.of(x[keep], _objectives(signs), w, "mavt", value_scales=scales)).scores
    assert fewer == pytest.approx(full[keep], abs=1e-12)
    # the order of the others is kept, which data-dependent scaling does not promise
    assert np.argsort(-fewer, kind="stable").tolist() == np.argsort(-full[keep], kind="stable").tolist()


@given(st.integers(0, 2**32 - 1), st.integers(2, 6), st.integers(1, 5), st.floats(1e-3, 1e3))
def test_scores_do_not_depend_on_the_unit_a_quantity_is_written_in(seed, m, n, factor):
    x, signs, w, scales = _random_problem(seed, m, n)
    base = scoring.score(Problem.of(x, _objectives(signs), w, "mavt", value_scales=scales)).scores
    j = seed % n
    x2 = x.copy()
    x2[:, j] *= factor  # e.g. W -> kW, GB -> MB
    b = scales.bounds.copy()
    b[j] *= factor
    shapes = ["log" if flag else "linear" for flag in scales.log]
    moved = ValueScales.of(b, shapes, [f"c{k}" for k in range(n)])
    again = scoring.score(Problem.of(x2, _objectives(signs), w, "mavt", value_scales=moved)).scores
    assert again == pytest.approx(base, abs=1e-9)


def test_a_swing_weight_is_the_worth_of_the_whole_swing():
    """An option at the best end of one criterion and the worst of the others scores exactly that weight."""
    scales = ValueScales.of([(0, 10), (0, 10), (1, 5)], ["linear"] * 3, ["a", "b", "c"])
    x = [[10, 10, 5], [10, 10, 1], [0, 10, 5]]
    weights = [0.5, 0.3, 0.2]
    result = scoring.score(Problem.of(x, ["max", "min", "min"], weights, "mavt", value_scales=scales))
    # option 1: a best (0.5), b worst (0), c best (0.2); option 2: a worst, b worst, c worst
    assert result.scores.tolist() == pytest.approx([0.5, 0.7, 0.0])
