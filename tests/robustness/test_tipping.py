"""Tipping points: exact for additive methods, bisected otherwise, and every one a real change of leader."""

from __future__ import annotations

import pytest

from selector.decision import scoring
from selector.decision.problem import METHODS
from selector.decision.weights import Hierarchy
from selector.robustness.sweep import weight_sweep
from selector.robustness.tipping import tipping_points
from tests.problems import problem as make_problem
from tests.robustness.problems import ALL_COMBOS, DIM_WEIGHTS, DIMS, OBJ8, json_roundtrip, random_problem


def test_wsm_tipping_point_closed_form_and_sentences():
    """A = (1, 0), B = (0, 1): with share t on perf, A scores t and B 1 - t, so the leader flips at exactly 50%."""
    x = [[1.0, 0.0], [0.0, 1.0]]
    tps = tipping_points(
        make_problem(x, ["max", "max"], None, "wsm", "none", ["H200", "MI300X"]),
        Hierarchy.of(["perf", "cost"], {"perf": 60, "cost": 40}),
    )
    assert [(t.dimension, t.before, t.after, t.exact) for t in tps] == [
        ("perf", "MI300X", "H200", True),
        ("cost", "H200", "MI300X", True),
    ]
    assert tps[0].weight == pytest.approx(0.5, abs=1e-12) and tps[1].weight == pytest.approx(0.5, abs=1e-12)
    assert tps[0].current_weight == pytest.approx(0.6)
    assert tps[0].sentence == "MI300X overtakes H200 when perf weight falls below 50.0%"
    assert tps[1].sentence == "MI300X overtakes H200 when cost weight exceeds 50.0%"
    assert json_roundtrip(tps[1])["sentence"] == tps[1].sentence


@pytest.mark.parametrize(("method", "scaler"), ALL_COMBOS)
def test_leader_really_changes_at_each_tipping_point(method, scaler):
    found = 0
    for seed in range(6):
        x, _ = random_problem(100 + seed, m=5)
        tps = tipping_points(make_problem(x, OBJ8, None, method, scaler), Hierarchy.of(DIMS, DIM_WEIGHTS))
        for tp in tps:
            neighbours = [o.weight for o in tps if o.dimension == tp.dimension and o is not tp]
            eps = 1e-6
            if any(abs(o - tp.weight) < 3 * eps for o in neighbours) or not eps < tp.weight < 1 - eps:
                continue
            h = Hierarchy.of(DIMS, DIM_WEIGHTS)
            below, above = h.at(h.index(tp.dimension), [tp.weight - eps, tp.weight + eps])
            assert scoring.score(make_problem(x, OBJ8, below, method, scaler)).leader == tp.before, tp
            assert scoring.score(make_problem(x, OBJ8, above, method, scaler)).leader == tp.after, tp
            found += 1
    assert found > 0, "no tipping point found in six random problems; the search is broken"


@pytest.mark.parametrize(("method", "scaler"), [(m, METHODS[m].default_scaler) for m in METHODS])
def test_no_leader_change_is_missed_on_a_fine_grid(method, scaler):
    x, _ = random_problem(7, m=6)
    tps = tipping_points(make_problem(x, OBJ8, None, method, scaler), Hierarchy.of(DIMS, DIM_WEIGHTS))
    for dim in DIM_WEIGHTS:
        sweep = weight_sweep(
            make_problem(x, OBJ8, None, method, scaler), Hierarchy.of(DIMS, DIM_WEIGHTS), dim, n_points=1001
        )
        reported = [t.weight for t in tps if t.dimension == dim]
        for g in range(len(sweep.grid) - 1):
            if sweep.leaders[g] != sweep.leaders[g + 1]:
                assert any(sweep.grid[g] - 1e-9 <= t <= sweep.grid[g + 1] + 1e-9 for t in reported), (dim, g)


def test_tipping_points_edge_cases():
    x = [[1.0, 2.0], [2.0, 1.0]]
    assert tipping_points(make_problem(x, ["max", "max"], None), Hierarchy.of(["perf", "perf"], {"perf": 1})) == []
