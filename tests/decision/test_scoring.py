"""Tests for selector.decision.scoring: published worked examples, scikit-criteria itself, properties, degenerate
input."""

from __future__ import annotations

import json
import warnings
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from selector.decision import scoring
from selector.decision.problem import METHODS, ScoringError
from selector.decision.scoring import score
from tests.examples import examples
from tests.problems import enclosing_scales, problem

ALL_COMBOS = [(m, s) for m, spec in METHODS.items() for s in spec.scalers]

# ----------------------------------------------------------------------------------------------------------
# (a) Published worked examples
# ----------------------------------------------------------------------------------------------------------

TZENG_MATRIX = [[5, 8, 4], [7, 6, 8], [8, 8, 6], [7, 4, 6]]


def test_topsis_tzeng_huang_2011():
    """TOPSIS with vector normalisation.

    Tzeng, G.-H. & Huang, J.-J. (2011), Multiple Attribute Decision Making: Methods and Applications, CRC Press;
    example as reproduced in scikit-criteria's tests/agg/test_topsis.py: weights 0.3/0.4/0.3, all benefit,
    closeness 0.5037, 0.6581, 0.7482, 0.3340, ranking A3 > A2 > A1 > A4.
    """
    r = score(problem(TZENG_MATRIX, ["max"] * 3, [0.3, 0.4, 0.3], "topsis", "vector"))
    np.testing.assert_allclose(r.scores, [0.5037, 0.6581, 0.7482, 0.3340], atol=1e-4)
    assert r.ranks.tolist() == [3, 2, 1, 4]
    assert r.leader == "A3"
    assert r.higher_is_better


def test_wsm_wikipedia_triantaphyllou_example_with_tie():
    """Weighted sum on data already in one unit (scaler none).

    Wikipedia "Weighted sum model" example (after Triantaphyllou 2000): weights 0.20/0.15/0.40/0.25,
    A1 = 25,20,15,30 -> 21.50; A2 = 10,30,20,30 -> 22.00; A3 = 30,10,30,10 -> 22.00.
    A2 and A3 tie, so both get rank 1 and A1 rank 3 ("min" ranking).
    """
    m = [[25, 20, 15, 30], [10, 30, 20, 30], [30, 10, 30, 10]]
    r = score(problem(m, ["max"] * 4, [0.20, 0.15, 0.40, 0.25], "wsm", "none", alternatives=["A1", "A2", "A3"]))
    np.testing.assert_allclose(r.scores, [21.50, 22.00, 22.00], atol=1e-12)
    assert r.ranks.tolist() == [3, 1, 1]
    assert r.leader == "A2"  # first in input order among the tied leaders
    np.testing.assert_allclose(r.contributions.sum(axis=1), r.scores)


KRACKA = [
    [33.95, 23.78, 11.45, 39.97, 29.44, 167.10, 3.852],
    [38.9, 4.17, 6.32, 0.01, 4.29, 132.52, 25.184],
    [37.59, 9.36, 8.23, 4.35, 10.22, 136.71, 10.845],
    [30.44, 37.59, 13.91, 74.08, 45.10, 198.34, 2.186],
    [36.21, 14.79, 9.17, 17.77, 17.06, 148.3, 6.610],
    [37.8, 8.55, 7.97, 2.35, 9.25, 134.83, 11.935],
]
KRACKA_OBJ = ["min", "min", "min", "min", "max", "min", "max"]


def test_moora_ratio_system_kracka_brauers_zavadskas_2010():
    """MOORA ratio system with vector normalisation, equal weights.

    Kracka, M., Brauers, W.K.M. & Zavadskas, E.K. (2010), Ranking heating losses in a building by applying the
    MULTIMOORA method, Inzinerine Ekonomika 21(4) 352-359: ratio-system ranking A2 > A6 > A3 > A5 > A1 > A4.
    Scores as reproduced in scikit-criteria's tests/agg/test_moora.py with unit weights (-1.62447867, ...);
    our weights are normalised to 1/7 each, so our scores are those divided by 7.
    """
    r = score(problem(KRACKA, KRACKA_OBJ, [1] * 7, "moora", "vector"))
    published = np.array([-1.62447867, -0.25233889, -0.84635037, -2.23363519, -1.18698242, -0.77456208])
    np.testing.assert_allclose(r.scores, published / 7, atol=1e-8)
    assert r.ranks.tolist() == [5, 1, 3, 6, 4, 2]


def test_wsm_default_pipeline_kracka_inverted_sum_scaled():
    """WSM default pipeline = scikit-criteria's InvertMinimize + SumScaler + WeightedSumModel.

    Data: Kracka et al. (2010) as above; expected scores from scikit-criteria's tests/agg/test_simple.py
    (0.12040426, 0.3458235, 0.13838192, 0.12841246, 0.12346084, 0.14351701; ranks 6 1 3 4 5 2).
    """
    r = score(problem(KRACKA, KRACKA_OBJ, [20] * 7, "wsm"))
    assert r.scaler == "sum"
    np.testing.assert_allclose(
        r.scores, [0.12040426, 0.3458235, 0.13838192, 0.12841246, 0.12346084, 0.14351701], atol=1e-8
    )
    assert r.ranks.tolist() == [6, 1, 3, 4, 5, 2]


def test_wpm_wikipedia_example():
    """Weighted product on the Wikipedia "Weighted product model" example (after Triantaphyllou 2000).

    Same data as the WSM example, weights 20/15/40/25; A1 > A2 > A3. Log10 scores with sum scaling as in
    scikit-criteria's tests/agg/test_simple.py: -0.50128589, -0.50448471, -0.52947246. The ratio
    P(A1/A2) = prod (a1j / a2j) ** wj is recomputed from the definition.
    """
    m = np.array([[25, 20, 15, 30], [10, 30, 20, 30], [30, 10, 30, 10]], dtype=float)
    w = np.array([20, 15, 40, 25]) / 100
    r = score(problem(m, ["max"] * 4, [20, 15, 40, 25], "wpm"))
    np.testing.assert_allclose(r.scores, [-0.50128589, -0.50448471, -0.52947246], atol=1e-8)
    assert r.ranks.tolist() == [1, 2, 3]
    ratio = np.prod((m[0] / m[1]) ** w)
    assert 10 ** (r.scores[0] - r.scores[1]) == pytest.approx(ratio, rel=1e-12)
    np.testing.assert_allclose(r.extra["product"], 10**r.scores)


def test_vikor_opricovic_tzeng_2004():
    """VIKOR, Opricovic, S. & Tzeng, G.-H. (2004), Compromise solution by MCDM methods: a comparative analysis
    of VIKOR and TOPSIS, EJOR 156(2) 445-455: risk (min) and altitude (max), weights 0.5/0.5.
    S = 0.5, 0.375, 0.5; R = 0.5, 0.25, 0.5; Q = 1, 0, 1; A2 is the compromise solution.
    """
    r = score(
        problem([[1, 3000], [2, 3750], [5, 4500]], ["min", "max"], [0.5, 0.5], "vikor", alternatives=["A1", "A2", "A3"])
    )
    np.testing.assert_allclose(r.extra["s_k"], [0.5, 0.375, 0.5])
    np.testing.assert_allclose(r.extra["r_k"], [0.5, 0.25, 0.5])
    np.testing.assert_allclose(r.scores, [1.0, 0.0, 1.0])
    assert r.ranks.tolist() == [2, 1, 2]
    assert not r.higher_is_better
    assert r.extra["compromise_set"] == ["A2"]
    assert r.extra["acceptable_advantage"] and r.extra["acceptable_stability"]


def test_vikor_opricovic_tzeng_2007_equal_weights():
    """VIKOR, Opricovic & Tzeng (2007), Extended VIKOR method in comparison with outranking methods,
    EJOR 178(2) 514-529, hydro-power example with equal weights (W1): Q = 0.991, 1.0, 0.473, 0.670, 0.0, 0.578
    (published to three decimals), ranking A5 > A3 > A6 > A4 > A1 > A2.
    """
    m = [
        [4184.3, 2914.0, 407.2, 251.0, 195, 244, 15, 2.41],
        [5211.9, 3630.0, 501.7, 308.3, 282, 346, 21, 1.41],
        [5021.3, 3920.5, 504.0, 278.6, 12, 56, 3, 4.42],
        [5566.1, 3957.9, 559.5, 335.3, 167, 268, 16, 3.36],
        [5060.5, 3293.5, 514.1, 284.2, 69, 90, 7, 4.04],
        [4317.9, 2925.9, 432.8, 239.3, 12, 55, 3, 4.36],
    ]
    obj = ["max", "min", "max", "max", "min", "min", "min", "max"]
    r = score(problem(m, obj, [1] * 8, "vikor"))
    np.testing.assert_allclose(r.scores, [0.991, 1.0, 0.473, 0.670, 0.0, 0.578], atol=1.5e-3)
    np.testing.assert_allclose(r.extra["s_k"], [0.692, 0.7, 0.29, 0.423, 0.28, 0.346], atol=1.5e-3)
    assert r.ranks.tolist() == [5, 6, 2, 4, 1, 3]


# ----------------------------------------------------------------------------------------------------------
# (b) Against scikit-criteria directly
# ----------------------------------------------------------------------------------------------------------


def _skcriteria_reference(x, obj, w, method, scaler):
    """Scores through a plain scikit-criteria pipeline, written independently of scoring.py."""
    import skcriteria as skc
    from skcriteria.agg.moora import RatioMOORA
    from skcriteria.agg.simple import WeightedProductModel, WeightedSumModel
    from skcriteria.agg.topsis import TOPSIS
    from skcriteria.agg.vikor import VIKOR
    from skcriteria.pipelines import mkpipe
    from skcriteria.preprocessing.invert_objectives import InvertMinimize
    from skcriteria.preprocessing.scalers import MinMaxScaler, SumScaler, VectorScaler

    if method == "mavt":
        # the value model: each column's linear value on its scale, then scikit-criteria's plain weighted sum
        scales = enclosing_scales(x)
        lo, hi = scales.lo, scales.hi
        up = (np.asarray(x, dtype=float) - lo) / (hi - lo)
        x = np.where(np.array(obj) == "max", up, 1 - up)
        obj, method = ["max"] * len(obj), "wsm-on-values"
    steps = []
    if method in ("wsm", "wpm"):
        steps.append(InvertMinimize())
    if scaler not in ("none", "value"):
        steps.append({"sum": SumScaler, "vector": VectorScaler, "minmax": MinMaxScaler}[scaler](target="matrix"))
    agg = {
        "wsm-on-values": WeightedSumModel(),
        "wsm": WeightedSumModel(),
        "wpm": WeightedProductModel(),
        "topsis": TOPSIS(),
        "vikor": VIKOR(use_compromise_set=False),
        "moora": RatioMOORA(),
    }[method]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dm = skc.mkdm(x, obj, weights=w)
        res = mkpipe(*steps, agg).evaluate(dm) if steps else agg.evaluate(dm)
    key = {"topsis": "similarity", "vikor": "q_k"}.get(method, "score")
    return np.asarray(res.e_[key], dtype=float), np.asarray(res.values)


@pytest.mark.parametrize(("method", "scaler"), ALL_COMBOS)
def test_matches_scikit_criteria_on_random_matrices(method, scaler):
    # crc32, not hash(): str hashes change per process (PYTHONHASHSEED), and a test must draw the same data each run
    rng = np.random.default_rng(zlib.crc32(f"{method}/{scaler}".encode()))
    for _ in range(15):
        m, n = rng.integers(2, 9), rng.integers(1, 7)
        x = rng.uniform(0.5, 100, size=(m, n))
        obj = list(rng.choice(["max", "min"], size=n))
        w = rng.uniform(0.01, 1, size=n)
        ours = score(problem(x, obj, w, method, scaler))
        ref_scores, ref_ranks = _skcriteria_reference(x, obj, w / w.sum(), method, scaler)
        np.testing.assert_allclose(ours.scores, ref_scores, rtol=1e-12, atol=1e-12)
        # scikit-criteria ranks ties densely and we rank them by the minimum; VIKOR can tie on continuous data (Q
        # clips at the ideal), so ranks are compared where the reference scores do not tie
        if len(np.unique(np.round(ref_scores, 12))) == len(ref_scores):
            assert ours.ranks.tolist() == ref_ranks.tolist()


# The value model's normalisation is its value functions on fixed scales: nothing to keep per matrix.
@pytest.mark.parametrize(("method", "scaler"), [(m, s) for m, s in ALL_COMBOS if s != "value"])
def test_a_weight_change_reuses_the_normalisation_and_still_matches_scikit_criteria(method, scaler):
    """The normalisation is memoised per matrix (it never reads the weights): the second weighting must hit that
    memo and still give what a fresh scikit-criteria pipeline gives, and a changed cell must not hit it."""
    rng = np.random.default_rng(7)
    x = rng.uniform(0.5, 100, size=(6, 4))
    obj = ["max", "min", "max", "min"]
    first, second = rng.uniform(0.01, 1, size=4), rng.uniform(0.01, 1, size=4)
    scoring._normalised.cache_clear()  # methods sharing an inversion and a scaler share entries
    score(problem(x, obj, first, method, scaler))
    before = scoring._normalised.cache_info()
    ours = score(problem(x, obj, second, method, scaler))
    after = scoring._normalised.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
    ref_scores, _ = _skcriteria_reference(x, obj, second / second.sum(), method, scaler)
    np.testing.assert_allclose(ours.scores, ref_scores, rtol=1e-12, atol=1e-12)
    assert not ours.normalised.flags.writeable

    changed = x.copy()
    changed[2, 1] *= 3
    moved = score(problem(changed, obj, second, method, scaler))
    assert scoring._normalised.cache_info().misses == after.misses + 1
    ref_scores, _ = _skcriteria_reference(changed, obj, second / second.sum(), method, scaler)
    np.testing.assert_allclose(moved.scores, ref_scores, rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------------------------------------
# (c) Properties
# ----------------------------------------------------------------------------------------------------------

positive_matrices = st.integers(2, 6).flatmap(
    lambda m: st.integers(1, 5).flatmap(
        lambda n: st.tuples(
            arrays(np.float64, (m, n), elements=st.floats(0.5, 1000, allow_nan=False)),
            st.lists(st.sampled_from(["max", "min"]), min_size=n, max_size=n),
            arrays(np.float64, (n,), elements=st.floats(0.01, 10, allow_nan=False)),
        )
    )
)
PROPS = settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(data=positive_matrices, k=st.floats(0.001, 1000), combo=st.sampled_from(ALL_COMBOS))
def test_scaling_weights_changes_nothing(data, k, combo):
    x, obj, w = data
    a = score(problem(x, obj, w, *combo))
    b = score(problem(x, obj, w * k, *combo))
    np.testing.assert_allclose(a.scores, b.scores, rtol=1e-9, atol=1e-12)
    assert a.ranks.tolist() == b.ranks.tolist()


@PROPS
@given(data=positive_matrices, seed=st.integers(0, 2**31), combo=st.sampled_from(ALL_COMBOS))
def test_permuting_alternatives_permutes_scores(data, seed, combo):
    x, obj, w = data
    perm = np.random.default_rng(seed).permutation(x.shape[0])
    a = score(problem(x, obj, w, *combo))
    b = score(problem(x[perm], obj, w, *combo))
    np.testing.assert_allclose(b.scores, a.scores[perm], rtol=1e-9, atol=1e-12)


@PROPS
@given(data=positive_matrices, combo=st.sampled_from(ALL_COMBOS), row=st.integers(0, 100))
def test_dominating_alternative_ranks_first(data, combo, row):
    x, obj, w = data
    i = row % x.shape[0]
    signs = np.where(np.array(obj) == "max", 1, -1)
    dominated = x.copy()
    # make row i strictly better than everyone on every criterion
    best = np.where(signs > 0, x.max(axis=0) * 1.5, x.min(axis=0) / 1.5)
    dominated[i] = best
    r = score(problem(dominated, obj, w, *combo))
    assert r.ranks[i] == 1
    assert r.leader == r.alternatives[i]
    assert all(r.ranks[j] > 1 for j in range(len(r.ranks)) if j != i)


@PROPS
@given(data=positive_matrices, combo=st.sampled_from(ALL_COMBOS))
def test_duplicate_alternatives_tie(data, combo):
    x, obj, w = data
    dup = np.vstack([x, x[0]])
    r = score(problem(dup, obj, w, *combo))
    assert r.ranks[0] == r.ranks[-1]
    assert r.scores[0] == pytest.approx(r.scores[-1], rel=1e-12, abs=1e-12)


@PROPS
@given(data=positive_matrices, scaler=st.sampled_from(METHODS["topsis"].scalers))
def test_topsis_closeness_in_unit_interval(data, scaler):
    x, obj, w = data
    r = score(problem(x, obj, w, "topsis", scaler))
    assert np.all((r.scores >= 0) & (r.scores <= 1))
    denom = r.extra["d_ideal"] + r.extra["d_anti_ideal"]
    if np.all(denom > 0):
        np.testing.assert_allclose(r.scores, r.extra["d_anti_ideal"] / denom)
    else:  # every weighted column constant: documented convention
        assert r.scores.tolist() == [1.0] * len(r.scores)


@PROPS
@given(data=positive_matrices, method=st.sampled_from(["wsm", "moora", "wpm"]))
def test_contributions_sum_to_score(data, method):
    x, obj, w = data
    r = score(problem(x, obj, w, method))
    np.testing.assert_allclose(r.contributions.sum(axis=1), r.scores, rtol=1e-9, atol=1e-12)


def test_min_ranking_skips_after_ties():
    assert scoring.rank_scores(np.array([0.5, 0.9, 0.9, 0.1])).tolist() == [3, 1, 1, 4]
    assert scoring.rank_scores(np.array([0.5, 0.9, 0.9, 0.1]), higher_is_better=False).tolist() == [2, 3, 3, 1]
    # floating-point noise is a tie, a real difference is not
    assert scoring.rank_scores(np.array([22.0, 22.0 + 4e-15, 21.9])).tolist() == [1, 1, 3]
    assert scoring.rank_scores(np.array([22.0, 22.0 + 1e-9])).tolist() == [2, 1]


def _ranks_by_every_pair(s: np.ndarray) -> np.ndarray:
    # the definition: 1 + the number of scores above this one by more than the tie tolerance
    tol = scoring.TIE_RTOL * np.maximum(1.0, np.abs(s).max(axis=-1, keepdims=True))
    return 1 + (s[..., None, :] > s[..., :, None] + tol[..., None]).sum(axis=-1)


@pytest.mark.parametrize("seed", range(6))
def test_ranks_by_sorting_equal_the_pairwise_definition_with_ties_and_noise(seed):
    rng = np.random.default_rng(seed)
    for m in (1, 2, 7, 40):
        # few distinct values, then noise below, at and above the tolerance: chains of near-ties
        s = rng.integers(0, 4, size=(50, m)) * rng.choice([1e-13, 0.3, 1e5])
        s = s + rng.choice([0.0, 1e-13, 4e-13, 2e-12], size=s.shape) * rng.choice([1.0, 1e5])
        for higher in (True, False):
            expected = _ranks_by_every_pair(s if higher else -s)
            np.testing.assert_array_equal(scoring.rank_scores(s, higher), expected)
            np.testing.assert_array_equal(scoring.rank_scores(s[0], higher), expected[0])
            np.testing.assert_array_equal(scoring.first_ranked(s, higher), expected == 1)
            np.testing.assert_array_equal(scoring.first_ranked(s[0], higher), expected[0] == 1)
            np.testing.assert_array_equal(
                scoring.first_ranked(s.reshape(5, 10, m), higher), (expected == 1).reshape(5, 10, m)
            )
            # the first alternative ranked first, picked in plain Python for one row
            assert [scoring.leader_index(row, higher) for row in s] == np.argmax(expected == 1, axis=1).tolist()


def test_cost_criterion_is_inverted_for_wsm_like_invert_minimize():
    x = np.array([[2.0, 10.0], [4.0, 5.0]])
    r = score(problem(x, ["max", "min"], [1, 1], "wsm", "none"))
    np.testing.assert_allclose(r.normalised, [[2.0, 0.1], [4.0, 0.2]])
    np.testing.assert_allclose(r.scores, [1.05, 2.1])


def test_topsis_takes_min_as_ideal_for_cost():
    r = score(problem([[1.0, 10.0], [2.0, 5.0]], ["max", "min"], [1, 1], "topsis", "none"))
    np.testing.assert_allclose(r.extra["ideal"], [1.0, 2.5])
    np.testing.assert_allclose(r.extra["anti_ideal"], [0.5, 5.0])


# ----------------------------------------------------------------------------------------------------------
# (d) Degenerate input and errors
# ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "scaler"), ALL_COMBOS)
def test_single_alternative_is_rank_one_without_nan(method, scaler):
    r = score(problem([[3.0, 4.0, 5.0]], ["max", "min", "max"], [1, 2, 3], method, scaler))
    assert r.ranks.tolist() == [1]
    assert np.isfinite(r.scores).all()
    if method == "topsis":
        assert r.scores[0] == 1.0
    if method == "vikor":
        assert r.scores[0] == 0.0


@pytest.mark.parametrize(("method", "scaler"), ALL_COMBOS)
@pytest.mark.parametrize("column_value", [7.0, 0.0])
def test_constant_or_zero_column_cannot_change_ranking(method, scaler, column_value):
    base = np.array([[3.0, 1.0], [2.0, 5.0], [4.0, 2.0]])
    with_col = np.column_stack([base, np.full(3, column_value)])
    if column_value == 0.0 and method == "wpm":
        with pytest.raises(ScoringError, match="logarithms"):
            score(problem(with_col, ["max", "min", "max"], [1, 1, 1], method, scaler))
        return
    a = score(problem(base, ["max", "min"], [1, 1], method, scaler))
    b = score(problem(with_col, ["max", "min", "max"], [1, 1, 1], method, scaler))
    assert np.isfinite(b.scores).all() and np.isfinite(b.normalised).all()
    assert a.ranks.tolist() == b.ranks.tolist()


def test_all_columns_constant_topsis_ties_everyone_at_one():
    r = score(problem([[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]], ["max", "min"], [1, 1], "topsis"))
    assert r.scores.tolist() == [1.0, 1.0, 1.0]
    assert r.ranks.tolist() == [1, 1, 1]
    assert "degenerate" in r.extra


def test_zero_weight_on_only_varying_column_is_degenerate_not_nan():
    r = score(problem([[1.0, 2.0], [1.0, 9.0]], ["max", "max"], [1, 0], "topsis"))
    assert r.ranks.tolist() == [1, 1]


def test_negative_values_fine_where_meaningful():
    r = score(problem([[1, -2], [2, 3]], ["max", "max"], [1, 1], "wsm", "minmax"))
    assert r.leader == "A2"
    r = score(problem([[1, -2], [2, 3]], ["max", "min"], [1, 1], "topsis", "vector"))
    assert np.isfinite(r.scores).all()


def test_objectives_accept_signs_and_builtins():
    a = score(problem(TZENG_MATRIX, ["max", "min", "max"], [1, 1, 1]))
    b = score(problem(TZENG_MATRIX, [1, -1, 1], [1, 1, 1]))
    c = score(problem(TZENG_MATRIX, [max, min, max], [1, 1, 1]))
    assert a.scores.tolist() == b.scores.tolist() == c.scores.tolist()
    assert a.objectives == ("max", "min", "max")


# ----------------------------------------------------------------------------------------------------------
# Result object
# ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "scaler"), ALL_COMBOS)
def test_to_dict_is_json_safe_and_complete(method, scaler):
    r = score(problem(TZENG_MATRIX, ["max", "min", "max"], [3, 4, 3], method, scaler, alternatives=list("WXYZ")))
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert d["method"] == method and d["scaler"] == scaler
    assert d["ranks"] == r.ranks.tolist()
    assert d["leader"] == r.leader
    assert (d["contributions"] is None) == (method in ("topsis", "vikor"))
    assert [row["name"] for row in r.ranking()] == [r.alternatives[i] for i in r.order]


def test_result_is_immutable():
    r = score(problem(TZENG_MATRIX, ["max"] * 3, [1, 1, 1]))
    with pytest.raises(ValueError):
        r.scores[0] = 5
    with pytest.raises(AttributeError):
        r.method = "wsm"  # type: ignore[misc]


def test_dataframe_names_are_used():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(TZENG_MATRIX, index=["a", "b", "c", "d"], columns=["x", "y", "z"])
    r = score(problem(df, ["max"] * 3, [0.3, 0.4, 0.3]))
    assert r.alternatives == ("a", "b", "c", "d") and r.criteria == ("x", "y", "z")
    assert r.leader == "c"


def test_result_pickles_and_extra_is_read_only():
    """Streamlit's st.cache_data pickles return values; the result must survive that and stay read-only."""
    import pickle

    r = score(problem(TZENG_MATRIX, ["max", "min", "max"], [1, 1, 1], "vikor"))
    back = pickle.loads(pickle.dumps(r))
    assert back.to_dict() == r.to_dict()
    with pytest.raises(TypeError):
        r.extra["q_k"] = None  # type: ignore[index]


def _in_a_fresh_process(code: str) -> str:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.subprocess
def test_scoring_leaves_scikit_criteria_plotting_stack_unloaded():
    code = (
        "import sys; from selector.decision import scoring; from selector.decision.problem import Problem; "
        "r = scoring.score(Problem.of([[1.0, 2.0], [2.0, 1.0], [3.0, 3.0]], ['max', 'min'], [1, 1], 'topsis')); "
        "assert 'skcriteria' in sys.modules; "
        "[scoring.score(Problem.of([[1.0, 2.0], [2.0, 1.0]], ['max', 'min'], [1, 1], m)) for m in "
        "('wsm', 'wpm', 'moora', 'vikor')]; "
        "print(r.ranks.tolist(), [m for m in ('seaborn', 'matplotlib', 'networkx', 'scipy.stats', 'sklearn') "
        "if type(sys.modules.get(m)).__name__ == 'module'])"
    )
    assert _in_a_fresh_process(code) == "[3, 1, 2] []"


@pytest.mark.subprocess
def test_a_deferred_module_loads_when_used():
    # after scoring, the deferred modules still work for anyone who uses them (and become the real modules)
    code = (
        "import sys; from selector.decision import scoring; from selector.decision.problem import Problem; "
        "scoring.score(Problem.of([[1.0], [2.0]], ['max'], [1], 'wsm')); "
        "import networkx, seaborn; from scipy.stats import kendalltau; "
        "print(networkx.complete_graph(3).number_of_edges(), bool(seaborn.__version__), "
        "type(sys.modules['networkx']).__name__, type(sys.modules['seaborn']).__name__, "
        "kendalltau([1, 2], [1, 2]).statistic, type(sys.modules['scipy.stats']).__name__)"
    )
    assert _in_a_fresh_process(code) == "3 True module module 1.0 module"


@pytest.mark.subprocess
def test_the_min_max_scaler_loads_scikit_learn_when_chosen():
    # scikit-learn is deferred with its preprocessing package; choosing min-max scaling loads both, package first
    x = [[1.0, 2.0, 7.0], [2.0, 1.0, 4.0], [3.0, 3.0, 5.0]]
    code = (
        "import sys; from selector.decision import scoring; from selector.decision.problem import Problem; "
        f"p = Problem.of({x}, ['max', 'min', 'max'], [2, 1, 1], 'topsis', 'minmax'); "
        "kinds = lambda: [type(sys.modules.get(m)).__name__ for m in ('sklearn', 'sklearn.preprocessing')]; "
        "scoring._skcriteria(); before = kinds(); r = scoring.score(p); "
        "print(before, kinds(), r.scores.round(12).tolist())"
    )
    expected = score(problem(x, ["max", "min", "max"], [2, 1, 1], "topsis", "minmax")).scores.round(12).tolist()
    assert _in_a_fresh_process(code) == f"['Deferred', 'Deferred'] ['module', 'module'] {expected}"


# ----------------------------------------------------------------------------------------------------------
# Numbers at the edge of floating point (issue 19): results stay finite and no RuntimeWarning escapes

HUGE_COLUMN = np.array([[1.0e308, 1.0, 9.0], [2.0, 5.0, 3.0], [1.0, 4.0, 3.0]])  # row 0 leads on column 0 alone


@pytest.mark.parametrize("method", list(METHODS))
def test_a_huge_value_ranks_like_its_scaled_column(method: str) -> None:
    """1e308 overflows a vector norm unless the column is scaled first; scaled, the ranking is that of 1e300."""
    objectives = ["max", "max", "min"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        huge = score(problem(HUGE_COLUMN, objectives, [4, 1, 1], method))
    reference = HUGE_COLUMN.copy()
    reference[0, 0] = 1.0e10  # the same order: a scale-free scaler cannot tell the two apart beyond rounding
    assert np.all(np.isfinite(huge.scores)) and np.all(np.isfinite(huge.normalised))
    if METHODS[method].default_scaler != "none":
        assert list(huge.ranks) == list(score(problem(reference, objectives, [4, 1, 1], method)).ranks)
    assert huge.ranks[0] == 1, "raising the leader's benefit value must not lower its rank"


def test_scale_columns_leaves_ordinary_columns_bit_for_bit() -> None:
    x = np.array([[1.0e-120, 3.5, 2.0e120], [2.0e-120, 7.0, 1.0e120]])
    scaled = scoring.scale_columns(x)
    assert scaled[:, 1].tolist() == [3.5, 7.0]
    assert scaled[:, 0].tolist() == pytest.approx([0.5, 1.0]) and scaled[:, 2].tolist() == pytest.approx([1.0, 0.5])
    ordinary = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert scoring.scale_columns(ordinary) is ordinary


@pytest.mark.parametrize("method", list(METHODS))
@pytest.mark.parametrize("matrix", [TZENG_MATRIX, [[5, 8, 4]]], ids=["four", "single"])
def test_a_result_explains_what_its_method_declares(method, matrix):
    spec = METHODS[method]
    r = score(problem(matrix, ["max", "min", "max"], [3, 4, 3], method))
    assert set(r.extra) - {"degenerate"} == set(spec.intermediates)
    assert (r.contributions is None) == (spec.contributions is None)
    if r.contributions is not None:
        np.testing.assert_allclose(
            r.contributions.sum(axis=1), np.log10(r.extra["product"]) if method == "wpm" else r.scores
        )


@pytest.mark.subprocess
def test_a_walk_over_the_modules_leaves_the_deferred_ones_unloaded():
    # Streamlit's first element in a process walks sys.modules with inspect (env_util.is_repl): a server warmed up
    # before its first page must not pay the plotting stack there
    code = (
        "import inspect, sys; from selector.decision import scoring; scoring._skcriteria(); "
        "inspect.stack(); "
        "print([m for m in ('seaborn', 'matplotlib') if type(sys.modules.get(m)).__name__ == 'module'])"
    )
    assert _in_a_fresh_process(code) == "[]"
