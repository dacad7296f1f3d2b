"""Recommendations: the shortlist joined with the ranking, the explanation, and the result's provenance."""

from __future__ import annotations

import json

import numpy as np
import pytest

from selector.decision import recommend, scoring
from selector.decision.preferences import Preferences
from selector.decision.problem import Problem
from selector.knowledge import loading as knowledge


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
