"""selector.views.labels: the words every screen uses for segments, conditions, flags, values, documents and
sections."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from selector.knowledge.models import Claim, Conditions, KnowledgeBase, Segment
from selector.knowledge.sources import Source
from selector.views.labels import (
    SEGMENT_LABELS,
    conditions_text,
    document_label,
    flags_text,
    rubric_text,
    section_label,
    value_text,
)

ARTICLE = Source(
    id="004",
    file="004.txt",
    title_zh="工具",
    title_en="AI tools compared",
    sections=[{"id": "2.1", "heading_zh": "框架", "heading_en": "Frameworks", "lines": (1, 5)}],
)
ASSESSMENT = Source(id="assessment", kind="assessment", title_en="Our assessment")


def kb_of(*sources: Source) -> KnowledgeBase:
    empty = MappingProxyType({})
    tables = dict.fromkeys(
        ("entities", "claims", "dimensions", "criteria", "groups", "questions", "rules", "metrics", "scenario_links"),
        empty,
    )
    return KnowledgeBase(
        sources=MappingProxyType({s.id: s for s in sources}),
        **tables,
        texts=empty,
        locations=empty,
        data_hash="test",
    )


def claim(**changes: object) -> Claim:
    fields = {
        "id": "c1",
        "source": "004",
        "kind": "benchmark",
        "section": "2.1",
        "quote": "50 TOPS/W",
        "text_en": "50 TOPS per watt",
        "about": ["orin"],
    }
    return Claim.model_validate(fields | changes)


def test_every_segment_has_a_label():
    assert set(SEGMENT_LABELS) == set(Segment.__args__)
    assert all(label and label[0].isupper() for label in SEGMENT_LABELS.values())


def test_conditions_are_sorted_pairs_without_the_unset_or_skipped_ones():
    conditions = Conditions(workload="resnet50", precision="int8", batch="8")
    assert conditions_text(conditions) == "batch: 8; precision: int8; workload: resnet50"
    assert conditions_text(conditions, skip=["precision", "scenario"]) == "batch: 8; workload: resnet50"
    assert conditions_text(Conditions()) == ""


def test_flags_are_kind_and_reason_with_a_reference_where_given():
    flagged = claim(
        flags=[
            {"kind": "implausible", "reason": "above the datasheet peak"},
            {"kind": "unverifiable", "reason": "no public run", "reference": "https://example.org/x"},
        ]
    )
    assert flags_text(flagged) == (
        "implausible: above the datasheet peak | unverifiable: no public run (ref: https://example.org/x)"
    )
    assert flags_text(claim()) == ""


@pytest.mark.parametrize(
    ("comparator", "value", "expected"),
    [
        ("=", 50, "50 TOPS/W"),
        (">=", 50, ">= 50 TOPS/W"),
        ("~", 0.125, "~ 0.125 TOPS/W"),
        ("<", 1e-6, "< 0.000001 TOPS/W"),
        ("=", 12934, "12,934 TOPS/W"),
    ],
)
def test_a_value_has_its_comparator_unless_equal_and_its_unit(comparator, value, expected):
    numeric = claim(value=value, comparator=comparator, unit="TOPS/W", metric="efficiency")
    assert value_text(numeric) == expected


def test_a_claim_without_a_value_has_no_value_text():
    assert value_text(claim()) == ""


def test_an_article_is_labelled_doc_with_its_id_other_sources_by_title():
    kb = kb_of(ARTICLE, ASSESSMENT)
    assert document_label(kb, "004") == "doc 004: AI tools compared"
    assert document_label(kb, "assessment") == "Our assessment"
    assert document_label(kb, "unknown") == "unknown"


def test_a_section_is_labelled_with_both_headings():
    kb = kb_of(ARTICLE, ASSESSMENT)
    assert section_label(kb, claim()) == "2.1 框架 (Frameworks)"


def test_a_section_the_source_lacks_shows_its_id_and_none_shows_nothing():
    kb = kb_of(ARTICLE, ASSESSMENT)
    assert section_label(kb, claim(section="9.9")) == "9.9"
    uncited = claim(tier="assessed", section=None, quote=None, rationale="rests on outside facts")
    assert section_label(kb, uncited) == ""
    assert section_label(kb, claim(source="unknown")) == ""


ASSESSED = {"source": "assessment", "tier": "assessed", "kind": "rating", "rationale": "why", "based_on": ["c0"]}


def _rated_kb() -> KnowledgeBase:
    from selector.knowledge.models import Criterion

    rubric = [{"level": n, "text_en": f"meaning {n}"} for n in range(1, 6)]
    crit = Criterion.model_validate(
        {
            "id": "rating-x",
            "dimension": "risk",
            "name_en": "X (assessed)",
            "objective": "max",
            "unit": "rating 1-5",
            "metric": "rating_x",
            "scale": [1, 5],
            "rubric": rubric,
        }
    )
    return kb_of(ASSESSMENT).model_copy(update={"criteria": MappingProxyType({crit.id: crit})})


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (4, "X (assessed), level 4: meaning 4"),
        (3.5, "X (assessed), between level 3 (meaning 3) and level 4 (meaning 4)"),
    ],
)
def test_an_assessed_rating_names_the_rubric_level_it_stands_on(value, expected):
    rated = claim(**ASSESSED, metric="rating_x", value=value, unit="rating 1-5")
    assert rubric_text(_rated_kb(), rated) == expected


def test_a_claim_that_is_not_an_assessed_rating_has_no_rubric():
    other = claim(tier="claimed", metric="rating_x", value=4, unit="rating 1-5")
    assert rubric_text(_rated_kb(), other) == ""
    assert rubric_text(_rated_kb(), claim(**ASSESSED)) == ""
