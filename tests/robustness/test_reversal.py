"""Rank reversal: removing an alternative or adding a copy of the worst."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from selector.decision import scoring
from selector.robustness.reversal import rank_reversal
from tests.examples import examples
from tests.problems import problem as make_problem
from tests.robustness.problems import json_roundtrip


def test_topsis_rank_reversal_is_found_and_real():
    """TOPSIS with vector scaling: removing the third alternative swaps the top two (vector norms change)."""
    x = np.array([[5.0, 9.0, 1.0], [8.0, 7.0, 1.0], [7.0, 1.0, 8.0]])
    w = [0.6, 0.9, 0.2]
    rep = rank_reversal(make_problem(x, ["max"] * 3, w, "topsis"))
    assert rep.any_reversal
    removal = next(p for p in rep.perturbations if p.kind == "remove" and p.subject == "A3")
    assert removal.swapped_pairs
    full = scoring.score(make_problem(x, ["max"] * 3, w, "topsis"))
    part = scoring.score(make_problem(x[:2], ["max"] * 3, w, "topsis", alternatives=["A1", "A2"]))
    for a, b in removal.swapped_pairs:
        ia, ib = int(a[1]) - 1, int(b[1]) - 1
        assert full.ranks[ia] < full.ranks[ib]
        assert part.ranks[ia] > part.ranks[ib]
    assert "removing A3 swaps" in rep.summary
    assert json_roundtrip(rep)["any_reversal"] is True


def test_add_copy_of_worst_is_reported():
    x = np.array([[5.0, 9.0, 1.0], [8.0, 7.0, 1.0], [7.0, 1.0, 8.0]])
    rep = rank_reversal(make_problem(x, ["max"] * 3, [1, 1, 1], "wsm", "none"))
    added = rep.perturbations[-1]
    assert added.kind == "add_copy"
    worst = rep.alternatives[int(np.argmax(rep.baseline_ranks))]
    assert added.subject == worst and f"copy of {worst}" in added.ranks
    assert added.ranks[f"copy of {worst}"] == added.ranks[worst]  # a copy ties with its original


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_wsm_without_scaling_never_reverses(seed):
    """Raw weighted sums do not depend on the other alternatives, so no perturbation can reorder them."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 10, size=(rng.integers(2, 6), 3))
    rep = rank_reversal(make_problem(x, ["max"] * 3, rng.uniform(0.1, 1, 3), "wsm", "none"))
    assert not rep.any_reversal
    assert rep.summary.startswith("No rank reversal under wsm/none")


def test_compare_orders_equals_the_pair_by_pair_comparison():
    import itertools

    from selector.robustness.reversal import _compare_orders

    rng = np.random.default_rng(7)
    names = [f"A{i}" for i in range(9)]
    for _ in range(50):
        before = dict(zip(names, rng.integers(1, 5, 9).tolist(), strict=True))
        after = dict(zip(names, rng.integers(1, 5, 9).tolist(), strict=True))
        swapped, ties = [], []
        for a, b in itertools.combinations(names, 2):
            old, new = np.sign(before[a] - before[b]), np.sign(after[a] - after[b])
            if old == new:
                continue
            if old != 0 and new == -old:
                swapped.append((a, b) if old < 0 else (b, a))
            else:
                ties.append((a, b))
        assert _compare_orders(names, before, after) == (tuple(swapped), tuple(ties))


def test_past_the_limit_only_the_best_ranked_are_removed_and_the_summary_says_so(monkeypatch):
    from selector.robustness import reversal as module

    x = np.array([[5.0, 9.0, 1.0], [8.0, 7.0, 1.0], [7.0, 1.0, 8.0], [1.0, 1.0, 1.0]])
    problem = make_problem(x, ["max"] * 3, [0.6, 0.9, 0.2], "topsis")
    full = rank_reversal(problem)
    assert full.removals_omitted == 0
    monkeypatch.setattr(module, "REMOVAL_LIMIT", 2)
    capped = rank_reversal(problem)
    best = sorted(range(4), key=lambda k: (full.baseline_ranks[k], k))[:2]
    removals = [p for p in capped.perturbations if p.kind == "remove"]
    assert [p.subject for p in removals] == [full.alternatives[k] for k in sorted(best)]
    assert removals == [
        p for p in full.perturbations if p.kind == "remove" and p.subject in {r.subject for r in removals}
    ]
    assert capped.perturbations[-1] == full.perturbations[-1]  # the copy of the worst is still added
    assert capped.removals_omitted == 2 and json_roundtrip(capped)["removals_omitted"] == 2
    assert "the 2 best-ranked alternatives (the other 2 were not tried)" in capped.summary
