"""Robustness of knowledge-base rankings: hierarchical weight sampling, tipping points checked by re-ranking."""

from __future__ import annotations

import numpy as np
import pytest

from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.robustness import analysis


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _rec(kb, group="datacenter-accelerators", **kw):
    return recommend.recommend(kb, Preferences(group=group, **kw))


def test_weight_samples_keep_sub_weights_inside_each_dimension(kb):
    rec = _rec(kb, group="training-frameworks")
    samples = analysis._weight_samples(rec, 500, seed=1, spread=None)
    m = rec.matrix
    assert samples.shape == (500, len(m.criteria))
    assert np.allclose(samples.sum(axis=1), 1.0)
    speed, distributed = m.criteria.index("rating-training-speed"), m.criteria.index("stars-distributed")
    assert m.dimension_of[speed] == m.dimension_of[distributed] == "performance"
    # group weights 2 : 1 inside performance, whatever the sampled share of performance
    assert np.allclose(samples[:, speed], 2 * samples[:, distributed])


def test_zero_spread_reproduces_the_current_ranking(kb):
    rec = _rec(kb, method="topsis")
    result = analysis.analyse(rec, samples=200, spread=0.0, sample_missing=False)
    assert result.leader_share == 1.0
    leader = result.smaa.alternatives.index(rec.leader.name)
    assert result.smaa.acceptability[leader, 0] == 1.0


def test_acceptability_is_a_distribution_and_seeded(kb):
    rec = _rec(kb, group="edge-accelerators")
    a = analysis.analyse(rec, samples=2000, seed=7)
    b = analysis.analyse(rec, samples=2000, seed=7)
    c = analysis.analyse(rec, samples=2000, seed=8)
    assert np.allclose(a.smaa.acceptability.sum(axis=1), 1.0)
    assert np.allclose(a.smaa.acceptability.sum(axis=0), 1.0)
    assert np.array_equal(a.smaa.acceptability, b.smaa.acceptability)
    assert not np.array_equal(a.smaa.acceptability, c.smaa.acceptability)
    assert a.badge == f"first in {a.leader_share:.0%} of 2,000 weightings anywhere on the weight simplex"


def test_missing_cells_are_sampled_over_the_criterion_scale(kb):
    rec = _rec(kb)
    ranges = analysis.cell_ranges(rec)
    imputed = {(c.alternative, c.criterion) for c in rec.matrix.imputed_cells}
    assert set(ranges) == imputed
    # Epoch AI gives no TDP for TPU v5p: its energy per peta-operation is filled in, and sampled over its scale.
    assert ranges[("tpu-v5p", "joules-per-pflop-bf16")] == tuple(kb.criteria["joules-per-pflop-bf16"].scale)


@pytest.mark.parametrize("method", ["wsm", "topsis"])
@pytest.mark.parametrize("group", ["datacenter-accelerators", "edge-accelerators", "training-frameworks"])
def test_every_tipping_point_really_changes_the_leader(kb, group, method):
    rec = _rec(kb, group=group, method=method)
    result = analysis.analyse(rec, samples=100)
    dims = rec.matrix.dimension_weights
    for tip in result.tipping_points:
        for share, expected in ((tip.weight - 0.002, tip.before), (tip.weight + 0.002, tip.after)):
            rest = sum(w for d, w in dims.items() if d != tip.dimension)
            weights = {d: (share if d == tip.dimension else (1 - share) * w / rest) for d, w in dims.items()}
            moved = _rec(kb, group=group, method=method, dimension_weights=weights)
            assert moved.leader.name == expected, tip.sentence


def test_acceptability_alone_equals_the_full_analysis(kb):
    rec = _rec(kb, group="training-frameworks", method="topsis")
    alone = analysis.acceptability(rec, samples=1500, seed=4)
    full = analysis.analyse(rec, samples=1500, seed=4)
    assert np.array_equal(alone.acceptability, full.smaa.acceptability)


def test_a_full_analysis_carries_its_confidence_factors_into_a_pickled_copy():
    import pickle

    from selector.decision import recommend
    from selector.decision.preferences import Preferences
    from selector.knowledge import loading as knowledge
    from selector.robustness import analysis

    rec = recommend.recommend(knowledge.load(), Preferences(group="datacenter-accelerators"))
    result = analysis.analyse(rec, samples=300, seed=0)
    assert "confidence" in vars(result.smaa)  # computed before any cache pickles it
    assert pickle.loads(pickle.dumps(result)).smaa.confidence == result.smaa.confidence
