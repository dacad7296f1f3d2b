"""No evidence counts twice in one ranking: a claim may fill, or be cited by a rating that fills, one criterion of
a group only. Otherwise a single sentence of an article (or of our own) would move an alternative through several
columns at once."""

from __future__ import annotations

from collections import defaultdict

import pytest

from selector.decision import matrix
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from selector.knowledge.models import KnowledgeBase


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return knowledge.load()


def evidence_by_claim(kb: KnowledgeBase, group_id: str) -> dict[str, set[str]]:
    """Claim id -> the criteria of the group it is evidence for: the claims that may fill a cell (flagged ones
    included, since they are used by default) and, for assessed ones, the claims their rating rests on."""
    group = kb.groups[group_id]
    used: dict[str, set[str]] = defaultdict(set)
    for entry in group.criteria:
        criterion = kb.criteria[entry.criterion]
        for member in group.members:
            for claim in matrix.claims_for_cell(kb, criterion, member, use_flagged=True):
                used[claim.id].add(criterion.id)
                for basis in claim.based_on:
                    used[basis].add(criterion.id)
    return used


def counted_twice(kb: KnowledgeBase, group_id: str) -> dict[str, list[str]]:
    return {claim: sorted(crits) for claim, crits in evidence_by_claim(kb, group_id).items() if len(crits) > 1}


def test_every_group_counts_each_claim_in_one_criterion_only(kb: KnowledgeBase) -> None:
    twice = {group: found for group in kb.groups if (found := counted_twice(kb, group))}
    assert twice == {}, f"claims used as evidence in two criteria of one group: {twice}"


def test_every_bundled_group_is_checked(kb: KnowledgeBase) -> None:
    """The check above must see real evidence in every group, or it would pass on empty columns."""
    for group in kb.groups:
        assert evidence_by_claim(kb, group), group


def test_a_claim_cited_by_two_criteria_is_found(kb: KnowledgeBase) -> None:
    """A user's rating that rests on the same power measurement as the power column is caught."""
    extra = b"""
sources:
  - {id: user-lab, kind: user, title_en: Our lab}
entities:
  - {id: chip-x, name: Chip X, kind: accelerator, segment: edge}
claims:
  - {id: u-x-power, source: user-lab, tier: measured, kind: benchmark, text_en: Chip X draws 5 W.,
     about: [chip-x], metric: power_w, value: 5, unit: W}
  - {id: u-x-risk, source: user-lab, tier: assessed, kind: rating, text_en: Chip X risk 2.,
     about: [chip-x], metric: rating_technology_risk, value: 2, unit: rating 1-5,
     rationale: It draws little power., based_on: [u-x-power]}
groups:
  - id: g-x
    name_en: Chip X and the Edge TPU
    members: [chip-x, edge-tpu]
    criteria: [{criterion: power-w}, {criterion: rating-technology-risk}]
"""
    merged = knowledge.load(extra=[Upload("x.yaml", extra)])
    assert counted_twice(merged, "g-x") == {"u-x-power": ["power-w", "rating-technology-risk"]}
