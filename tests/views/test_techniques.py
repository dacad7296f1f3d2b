"""selector.views.techniques: the editorial scenario links and the techniques table."""

from __future__ import annotations

import pytest

from selector import knowledge
from selector.views.techniques import (
    SCENARIO_BY_ENTITY,
    SCENARIO_BY_KIND,
    TECHNIQUE_KINDS,
    scenario_links,
    techniques_table,
)


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_editorial_scenario_mapping_names_known_entities_and_options(kb):
    for entity_id, pairs in SCENARIO_BY_ENTITY.items():
        assert entity_id in kb.entities, f"SCENARIO_BY_ENTITY names unknown entity {entity_id}"
        for question, option in pairs:
            assert question in kb.questions
            assert option in {o.id for o in kb.questions[question].options}
    for kind, pairs in SCENARIO_BY_KIND.items():
        assert kind in TECHNIQUE_KINDS
        assert all(q in kb.questions for q, _ in pairs)


def test_techniques_table_filters_by_scenario(kb):
    everything = techniques_table(kb)
    assert set(everything["kind"]) <= set(TECHNIQUE_KINDS)
    edge = techniques_table(kb, scenarios=[("target", "edge")])
    assert 0 < len(edge) < len(everything)
    for entity_id in edge["id"]:
        assert ("target", "edge") in scenario_links(kb, entity_id)
    assert "int8-quantization" in set(edge["id"])
    assert techniques_table(kb, scenarios=[]).empty


def test_scenario_links_ignore_unknown_questions(kb, monkeypatch):
    monkeypatch.setitem(SCENARIO_BY_ENTITY, "lora", (("no-such-question", "x"), ("goal", "research")))
    assert scenario_links(kb, "lora") == [("goal", "research")]
    assert scenario_links(kb, "no-such-entity") == []
