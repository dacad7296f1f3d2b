"""The default ranking of the bundled knowledge against orderings an engineer would sign, and against the
property that makes a ranking defensible: removing one option never reorders the others."""

from __future__ import annotations

import pytest

from selector.decision.preferences import Preferences
from selector.decision.recommend import recommend
from selector.io.yamlio import parse_yaml
from selector.knowledge.loading import bundled
from tests.conftest import FIXTURES

_PARSED, _ISSUES = parse_yaml((FIXTURES / "expert_orderings.yaml").read_bytes(), "expert_orderings.yaml")
assert not _ISSUES, _ISSUES
ORDERINGS = _PARSED.data
GROUPS = tuple(bundled().groups)


@pytest.mark.parametrize("fact", ORDERINGS, ids=lambda f: f"{f['group']}:{f['better']}>{f['worse']}")
def test_the_default_ranking_respects_an_expert_ordering(fact):
    rec = recommend(bundled(), Preferences(group=fact["group"]))
    rank = {r.id: r.rank for r in rec.ranking}
    if fact["worse"] not in rank:  # a discontinued option is not ranked at all, which the ordering also holds to
        reasons = {e.id: e.reason for e in rec.matrix.excluded_alternatives}
        assert fact["better"] in rank and reasons[fact["worse"]].startswith("discontinued, not ranked")
        return
    assert rank[fact["better"]] < rank[fact["worse"]], (
        f"{fact['better']} should rank above {fact['worse']}: {fact['reason']}"
    )


@pytest.mark.parametrize("group", GROUPS)
def test_removing_any_option_keeps_the_others_in_the_same_order(group):
    kb = bundled()
    base = recommend(kb, Preferences(group=group))
    order = [r.id for r in base.ranking]
    scores = {r.id: r.score for r in base.ranking}
    for gone in order:
        rec = recommend(kb, Preferences(group=group, exclude=(gone,)))
        assert [r.id for r in rec.ranking] == [a for a in order if a != gone], f"excluding {gone}"
        assert {r.id: r.score for r in rec.ranking} == pytest.approx({a: scores[a] for a in order if a != gone})
