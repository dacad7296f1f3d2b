"""selector.views.techniques: the editorial scenario links and the techniques table."""

from __future__ import annotations

from pathlib import Path

import pytest

from selector.knowledge import loading as knowledge
from selector.views.techniques import TECHNIQUE_KINDS, scenario_links, techniques_table


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_every_kind_with_a_default_link_is_shown_on_the_page(kb):
    kinds = {link.kind for link in kb.scenario_links.values() if link.kind is not None}
    assert kinds and kinds <= set(TECHNIQUE_KINDS)


def test_techniques_table_filters_by_scenario(kb):
    everything = techniques_table(kb)
    assert set(everything["kind"]) <= set(TECHNIQUE_KINDS)
    edge = techniques_table(kb, scenarios=[("target", "edge")])
    assert 0 < len(edge) < len(everything)
    for entity_id in edge["id"]:
        assert ("target", "edge") in scenario_links(kb, entity_id)
    assert "int8-quantization" in set(edge["id"])
    assert techniques_table(kb, scenarios=[]).empty


def test_scenario_links_come_from_the_knowledge(kb, knowledge_copy: Path):
    """An entity's own link (knowledge/scenario_links.yaml) replaces its kind's; without one the kind's applies."""
    assert scenario_links(kb, "dynamic-quantization") == [
        ("target", "edge"),
        ("target", "mobile"),
        ("edge-workload", "adjusting"),
    ]
    assert scenario_links(kb, "lora") == [("goal", "research")]
    links = knowledge_copy / "scenario_links.yaml"
    text = links.read_text(encoding="utf-8")
    links.write_text(text.replace("  - {entity: lora, serves: {goal: [research]}}\n", ""), encoding="utf-8")
    assert scenario_links(knowledge.load(knowledge_copy), "lora") == [("goal", "industrial")]
    assert scenario_links(kb, "no-such-entity") == []
