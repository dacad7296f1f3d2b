"""SMAA-2: rank acceptability, central weights, confidence, pairwise winning and uncertain cells."""

from __future__ import annotations

import numpy as np
import pytest

from selector.decision import scoring
from selector.decision.problem import ScoringError
from selector.robustness.sampling import sample_simplex
from selector.robustness.smaa import smaa
from tests.problems import problem as make_problem
from tests.robustness.problems import ALL_COMBOS, OBJ8, json_roundtrip, random_problem


@pytest.mark.parametrize(("method", "scaler"), ALL_COMBOS)
def test_smaa_acceptability_rows_sum_to_one_and_result_is_json_safe(method, scaler):
    x, w = random_problem(3)
    res = smaa(make_problem(x, OBJ8, w, method, scaler), n_samples=2000, seed=4)
    np.testing.assert_allclose(res.acceptability.sum(axis=1), 1.0)
    assert res.n_samples == 2000 and res.method == method and res.scaler == scaler
    for i, cw in enumerate(res.central_weights):
        if res.first_rank_acceptability[i] == 0:
            assert cw is None and res.confidence[i] is None
        else:
            assert cw is not None and sum(cw) == pytest.approx(1.0)
            assert 0 <= res.confidence[i] <= 1
    d = json_roundtrip(res)
    assert d["acceptability"] == res.acceptability.tolist()
    assert len(d["reference_ranks"]) == 5


def test_smaa_is_reproducible_with_the_same_seed():
    x, w = random_problem(5)
    a = smaa(make_problem(x, OBJ8, w), n_samples=3000, seed=11, cell_ranges={(0, 0): (1, 10)})
    b = smaa(make_problem(x, OBJ8, w), n_samples=3000, seed=11, cell_ranges={(0, 0): (1, 10)})
    c = smaa(make_problem(x, OBJ8, w), n_samples=3000, seed=12, cell_ranges={(0, 0): (1, 10)})
    assert np.array_equal(a.acceptability, b.acceptability)
    assert a.central_weights == b.central_weights and a.confidence == b.confidence
    assert not np.array_equal(a.acceptability, c.acceptability)


@pytest.mark.parametrize(("method", "scaler"), ALL_COMBOS)
def test_dominating_alternative_is_always_first(method, scaler):
    x, _ = random_problem(8)
    signs = np.where(np.array(OBJ8) == "max", 1, -1)
    x[2] = np.where(signs > 0, x.max(axis=0) * 1.2, x.min(axis=0) / 1.2)
    res = smaa(make_problem(x, OBJ8, None, method, scaler), n_samples=3000, seed=0)
    assert res.acceptability[2, 0] == 1.0
    assert res.confidence[2] == 1.0
    assert all(res.central_weights[i] is None for i in range(5) if i != 2)


@pytest.mark.parametrize(("method", "scaler"), [("topsis", "vector"), ("wsm", "sum"), ("vikor", "none")])
def test_smaa_equals_brute_force_scoring_on_the_same_samples(method, scaler):
    x, _ = random_problem(21, m=4, n=8)
    samples = sample_simplex(8, 300, np.random.default_rng(5))
    res = smaa(make_problem(x, OBJ8, None, method, scaler), weight_samples=samples)
    counts = np.zeros((4, 4))
    firsts = np.zeros((4, 8))
    for w in samples:
        ranks = scoring.score(make_problem(x, OBJ8, w, method, scaler)).ranks
        counts[np.arange(4), ranks - 1] += 1
        firsts[ranks == 1] += w
    np.testing.assert_allclose(res.acceptability, counts / 300)
    for i in range(4):
        if counts[i, 0]:
            np.testing.assert_allclose(res.central_weights[i], firsts[i] / counts[i, 0])


@pytest.mark.parametrize(("method", "scaler"), ALL_COMBOS)
def test_smaa_at_many_alternatives_equals_scikit_criteria_rank_for_rank(method, scaler):
    # Sorting ranks and the max comparison for first place must give scikit-criteria's ranks, sample by sample,
    # also where many alternatives are close (a sixth of them are copies: exact ties).
    rng = np.random.default_rng(31)
    x = rng.uniform(1, 10, size=(60, 8))
    x[50:] = x[:10]
    samples = sample_simplex(8, 25, np.random.default_rng(6))
    res = smaa(make_problem(x, OBJ8, None, method, scaler), weight_samples=samples)
    for k, w in enumerate(samples):
        ranks = scoring.score(make_problem(x, OBJ8, w, method, scaler)).ranks
        np.testing.assert_array_equal(res.sample_ranks[k], ranks)
    np.testing.assert_allclose(res.acceptability.sum(axis=1), 1.0)


def test_pairwise_winning_counts_each_pair_over_the_samples():
    x, w = random_problem(9, m=6, n=8)
    res = smaa(make_problem(x, OBJ8, w, "wsm"), n_samples=500, seed=2)
    r = res.sample_ranks
    expected = np.array([[np.mean(r[:, i] < r[:, j]) for j in range(6)] for i in range(6)])
    np.testing.assert_allclose(res.pairwise_winning, expected)
    assert json_roundtrip(res)["pairwise_winning"] == expected.tolist()


def test_uncertain_cell_gives_the_analytic_acceptability():
    """A = 5 for sure, B uniform in [4, 8]: B ranks first with probability 3/4, whatever the weights."""
    res = smaa(
        make_problem([[5.0], [np.nan]], ["max"], None, "wsm", None, ["A", "B"], ["perf"], allow_missing=True),
        n_samples=20_000,
        seed=3,
        cell_ranges={("B", "perf"): (4, 8)},
    )
    assert res.acceptability[1, 0] == pytest.approx(0.75, abs=0.012)
    assert res.acceptability[0, 0] == pytest.approx(0.25, abs=0.012)
    assert res.confidence[1] == pytest.approx(0.75, abs=0.012)
    assert res.uncertain_cells == (("B", "perf", 4.0, 8.0),)


def test_cell_ranges_as_array_with_nan_for_certain_cells():
    ranges = np.full((2, 1, 2), np.nan)
    ranges[1, 0] = (4, 8)
    a = smaa(make_problem([[5.0], [6.0]], ["max"], None, "wsm"), n_samples=4000, seed=1, cell_ranges=ranges)
    b = smaa(make_problem([[5.0], [6.0]], ["max"], None, "wsm"), n_samples=4000, seed=1, cell_ranges={(1, 0): (4, 8)})
    assert np.array_equal(a.acceptability, b.acceptability)


def test_missing_cell_without_range_is_named():
    with pytest.raises(ScoringError, match=r"alternative 'B', criterion 'cost'\) is missing"):
        smaa(
            make_problem(
                [[1, 2], [3, np.nan]],
                ["max", "min"],
                alternatives=["A", "B"],
                criteria=["perf", "cost"],
                allow_missing=True,
            ),
            n_samples=5,
        )


def test_cell_range_bounds_are_checked_against_the_method():
    with pytest.raises(ScoringError, match="logarithms"):
        smaa(make_problem([[1, 2], [3, 4]], ["max", "max"], method="wpm"), n_samples=5, cell_ranges={(0, 0): (-1, 2)})


def test_confidence_is_kept_for_the_alternatives_most_often_first_and_says_how_many_it_left_out(monkeypatch):
    from selector.robustness import smaa as module

    x, w = random_problem(3, m=6)
    problem = make_problem(x, OBJ8, w)
    full = smaa(problem, n_samples=2000, seed=4, cell_ranges={(0, 0): (1, 10)})
    owners = [i for i, cw in enumerate(full.central_weights) if cw is not None]
    assert len(owners) >= 3, "the case needs three alternatives that rank first somewhere"
    monkeypatch.setattr(module, "CONFIDENCE_LIMIT", 2)
    capped = smaa(problem, n_samples=2000, seed=4, cell_ranges={(0, 0): (1, 10)})
    kept = sorted(owners, key=lambda i: (-full.first_rank_acceptability[i], i))[:2]
    for i in range(6):
        assert capped.confidence[i] == (full.confidence[i] if i in kept else None)
    assert capped.confidence_omitted == len(owners) - 2
    assert json_roundtrip(capped)["confidence_omitted"] == len(owners) - 2
    assert full.confidence_omitted == 0


def test_confidence_is_computed_once_and_a_pickled_result_carries_it():
    import pickle

    x, w = random_problem(5)
    res = smaa(make_problem(x, OBJ8, w), n_samples=500, seed=1, cell_ranges={(0, 0): (1, 10)})
    first = res.confidence
    assert res._confidence_of() == ()  # the inputs are let go once it is computed
    copy = pickle.loads(pickle.dumps(res))
    assert copy.confidence == first
