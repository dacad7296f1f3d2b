"""Recommendations: the shortlist joined with the ranking, the explanation, and the result's provenance."""

from __future__ import annotations

import json

import numpy as np
import pytest

from selector import verdict
from selector.decision import matrix, recommend, scoring
from selector.decision.preferences import Preferences
from selector.decision.problem import Problem
from selector.decision.weights import Hierarchy
from selector.errors import SelectorError
from selector.knowledge import loading as knowledge
from tests.hot_path import ONCE, counted_calls


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_ranking_is_the_scorer_applied_to_the_matrix(kb):
    rec = recommend.recommend(kb, Preferences(group="datacenter-accelerators", method="topsis"))
    m = rec.matrix
    direct = scoring.score(Problem.of(m.values, m.objectives, m.weights, method="topsis", alternatives=m.alternatives))
    by_id = {r.id: r for r in rec.ranking}
    for i, alt in enumerate(m.alternatives):
        assert by_id[alt].score == pytest.approx(direct.scores[i])
        assert by_id[alt].rank == direct.ranks[i]
    assert [r.rank for r in rec.ranking] == sorted(r.rank for r in rec.ranking)


def test_recommended_is_the_best_ranked_shortlisted_candidate(kb):
    prefs = Preferences(group="training-frameworks", answers={"goal": "domestic"})
    rec = recommend.recommend(kb, prefs)
    assert [r.id for r in rec.ranking if r.shortlisted] == ["mindspore"]
    assert rec.recommended == "mindspore"
    assert rec.leader.id != "mindspore"


def test_without_a_shortlist_the_leader_is_recommended(kb):
    rec = recommend.recommend(kb, Preferences(group="datacenter-accelerators"))
    assert not any(r.shortlisted for r in rec.ranking)
    assert rec.recommended == rec.leader.id


def test_why_names_the_criteria_that_favour_the_leader(kb):
    rec = recommend.recommend(kb, Preferences(group="edge-accelerators", method="topsis"))
    leader, runner = rec.ranking[0], rec.ranking[1]
    assert rec.why.startswith(f"{leader.name} leads {runner.name} mainly on ")
    m = rec.matrix
    adv = recommend.criterion_advantages(
        m, rec.result, m.alternatives.index(leader.id), m.alternatives.index(runner.id)
    )
    best = kb.criteria[m.criteria[int(np.argmax(adv))]].name_en
    assert best in rec.why
    # Jetson Orin draws 60 W against the Edge TPU's 2 W: power can never be named as Orin's advantage.
    if leader.id == "jetson-orin":
        assert "Power draw (W)" not in rec.why.split("despite")[0]


def test_to_dict_is_json_and_carries_provenance(kb):
    rec = recommend.recommend(kb, Preferences(group="training-frameworks"))
    out = json.loads(json.dumps(rec.to_dict()))
    assert out["data_hash"] == kb.data_hash
    assert out["method"] == "mavt" and out["scaler"] == "value"
    assert out["missing_policy"] == "impute-worst"
    assert {c["alternative"] for c in out["imputed_cells"]} == {"mindspore"}
    assert sum(c["weight"] for c in out["criteria"]) == pytest.approx(1.0)
    contributions = np.array(out["contributions"])
    scores = [next(r["score"] for r in out["ranking"] if r["id"] == alt) for alt in rec.matrix.alternatives]
    assert np.allclose(contributions.sum(axis=1), scores)


def test_one_ranking_checks_resolves_and_normalises_once(kb):
    """What a slider move asks of the core: the new preferences checked (the page's callback), ranked, the
    verdict's local share and the sliders' weights read; each step once (tests/hot_path.py)."""
    prefs = Preferences(group="training-frameworks", dimension_weights={"performance": 57, "cost": 31})
    with counted_calls() as calls:
        prefs.check(kb)
        rec = recommend.recommend(kb, prefs)
        verdict.local_share(rec)
        assert rec.matrix is matrix.build(kb, prefs)  # the page lays out the same ranking: built once
        assert prefs.checked(kb).dimension_weights["performance"] == 57
    assert dict(calls) == ONCE


def _reference_ranking(kb, prefs: Preferences) -> scoring.ScoreResult:
    """The ranking resolved by hand from the knowledge's defaults and scored through a freshly checked problem."""
    dm = recommend.recommend(kb, prefs).matrix
    dims = {d: prefs.dimension_weights.get(d, dim.weight) for d, dim in kb.dimensions.items()}
    defaults = {gc.criterion: gc.weight for gc in kb.groups[prefs.group].criteria}
    sub = [prefs.criterion_weights.get(c, defaults[c]) for c in dm.criteria]
    hierarchy = Hierarchy.of(dm.dimension_of, dims, sub, dm.criteria)
    problem = Problem.of(
        dm.values,
        dm.objectives,
        hierarchy.weights,
        prefs.method,
        prefs.scaler,
        dm.alternatives,
        dm.criteria,
        value_scales=dm.value_scales,
    )
    return scoring.score(problem)


@pytest.mark.parametrize("method", ["mavt", "topsis", "wsm", "vikor", "moora"])
def test_the_ranking_is_bit_for_bit_the_reference_path(kb, method):
    for group in kb.groups:
        for weights in ({}, {"performance": 90, "risk": 3}, {"cost": 80, "ecosystem": 0}):
            prefs = Preferences(group=group, dimension_weights=weights, method=method)
            try:
                rec = recommend.recommend(kb, prefs)
            except SelectorError:
                continue  # a combination the method cannot rank is refused alike either way
            reference = _reference_ranking(kb, prefs)
            assert rec.result.ranks.tolist() == reference.ranks.tolist()
            assert rec.result.scores.tolist() == reference.scores.tolist()
