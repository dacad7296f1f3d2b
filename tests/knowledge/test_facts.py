"""selector.knowledge.facts and the fact schema: the facts of the bundled entities, selection by facts, and validation
of
sourced facts (each problem named with file, line and record, nothing loaded)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from selector.knowledge import facts
from selector.knowledge import loading as knowledge
from selector.knowledge.fact_types import VENDOR_KINDS


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_every_bundled_framework_and_accelerator_has_sourced_facts(kb):
    for entity in kb.entities.values():
        if entity.kind not in VENDOR_KINDS:
            continue
        assert entity.vendor and kb.entities[entity.vendor].kind == "organization", entity.id
        assert entity.fact_claims, entity.id
        for claim_id in entity.fact_claims:
            claim = kb.claims[claim_id]
            assert claim.kind == "fact" and entity.id in claim.about, (entity.id, claim_id)
            source = kb.sources[claim.source]
            assert source.kind == "document" and source.url.startswith("https://") and source.retrieved
        if entity.kind == "accelerator":
            assert entity.form_factor, entity.id
        else:
            assert entity.platforms, entity.id


def test_export_control_is_dated_and_cited(kb):
    ranked = {m for g in kb.groups.values() for m in g.members if kb.entities[m].kind == "accelerator"}
    assert all(kb.entities[m].export_control is not None for m in ranked), ranked
    controlled = [e for e in kb.entities.values() if e.export_control is not None]
    for entity in controlled:
        assert entity.export_control.as_of[:2] == "20"
        assert all(entity.id in kb.claims[c].about for c in entity.export_control.claims)
    assert kb.entities["ascend-910b"].export_control.status == "domestic-cn"
    assert kb.entities["h200"].export_control.status == "license-required-cn"
    assert kb.entities["rtx-4090d"].export_control.status == "unrestricted"


def test_facts_are_read_and_selected(kb):
    assert facts.values(kb.entities, "ascend-910b", "vendor_jurisdiction") == ("CN",)
    assert facts.values(kb.entities, "amd-xdna", "form_factor") == ("laptop",)
    assert facts.values(kb.entities, "onnxruntime", "platforms")[:2] == ("linux", "windows")
    assert facts.values(kb.entities, "lightmatter-envise", "export_control") == ()  # not stated: unknown
    members = kb.groups["llm-serving-single-accelerator"].members
    chinese = facts.select(kb.entities, members, {"vendor_jurisdiction": ("CN",)})
    # independently: the members whose vendor record says CN
    assert set(chinese) == {m for m in members if kb.entities[kb.entities[m].vendor].jurisdiction == "CN"}
    assert set(chinese) == {"ascend-910b2", "ascend-910", "mtt-s4000"}
    both = facts.select(kb.entities, members, {"vendor": ("nvidia",), "export_control": ("unrestricted",)})
    assert set(both) == {"rtx-a6000", "rtx-3090", "rtx-4090d"}
    assert facts.select(kb.entities, members, {}) == ()
    assert facts.describe({"form_factor": ("laptop", "datacenter")}) == "form factor is laptop or datacenter"


def test_the_deprecated_product_names_its_successor(kb):
    mobile = kb.entities["pytorch-mobile"]
    assert (mobile.lifecycle, mobile.successor, mobile.lifecycle_since) == ("deprecated", "executorch", "2024-10")
    assert kb.entities["executorch"].lifecycle == "active"


def _load(tmp_path: Path, base: Path, text: str) -> list[str]:
    (base / "entities" / "zz_test.yaml").write_text(textwrap.dedent(text))
    kb, issues = knowledge.collect(base)
    assert kb is None
    return [str(i) for i in issues if i.level == "ERROR"]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            "{id: zz-chip, name: ZZ chip, kind: accelerator, segment: edge, form_factor: phone}",
            "a accelerator names its `vendor`",
        ),
        (
            "{id: zz-chip, name: ZZ chip, kind: accelerator, segment: edge, vendor: nvidia}",
            "an accelerator states its `form_factor`",
        ),
        (
            "{id: zz-chip, name: ZZ chip, kind: accelerator, segment: edge, vendor: nvidia, form_factor: phone}",
            "the facts vendor, form_factor need `fact_claims`",
        ),
        (
            "{id: zz-chip, name: ZZ chip, kind: accelerator, segment: edge, vendor: h200, form_factor: phone, "
            "fact_claims: [fact-h200]}",
            "vendor `h200` is a accelerator, not an organization",
        ),
        (
            "{id: zz-chip, name: ZZ chip, kind: accelerator, segment: edge, vendor: nvidia, form_factor: phone, "
            "fact_claims: [fact-h200]}",
            "fact claim `fact-h200` is not about `zz-chip`",
        ),
        (
            "{id: zz-chip, name: ZZ chip, kind: accelerator, segment: edge, vendor: nvidia, form_factor: phone, "
            "fact_claims: [c000-vulkan-gpu-lead]}",
            "must be of kind `fact`",
        ),
        (
            "{id: zz-fw, name: ZZ, kind: framework, roles: [library], vendor: nvidia, lifecycle: deprecated, "
            "successor: h200, lifecycle_since: '2024-01', platforms: [linux], fact_claims: [fact-h200]}",
            "successor `h200` is a accelerator, not a framework",
        ),
    ],
)
def test_unsourced_or_wrong_facts_are_refused_with_file_line_and_record(knowledge_copy, tmp_path, record, message):
    errors = _load(tmp_path, knowledge_copy, f"entities:\n  - {record}\n")
    found = [e for e in errors if "zz_test.yaml:2" in e]
    assert any(message.replace("a accelerator", "an accelerator") in e or message in e for e in found), errors


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("{id: zz, name: ZZ, kind: tool, jurisdiction: US}", "only an organization has a `jurisdiction`"),
        ("{id: zz, name: ZZ, kind: organization, jurisdiction: usa}", "jurisdiction"),
        ("{id: zz, name: ZZ, kind: framework, roles: [library], form_factor: phone}", "only accelerators"),
        ("{id: zz, name: ZZ, kind: framework, roles: [library], lifecycle: deprecated}", "names its `successor`"),
        ("{id: zz, name: ZZ, kind: framework, roles: [library], platforms: [linux, linux]}", "each platform once"),
        ("{id: zz, name: ZZ, kind: framework, roles: [library], platforms: [beos]}", "platforms"),
    ],
)
def test_the_schema_refuses_malformed_facts(knowledge_copy, tmp_path, record, message):
    errors = _load(tmp_path, knowledge_copy, f"entities:\n  - {record}\n")
    assert any("zz_test.yaml:2" in e and message in e for e in errors), errors


def test_a_rule_selecting_by_unknown_fact_values_is_refused(knowledge_copy, tmp_path):
    (knowledge_copy / "zz_rules.yaml").write_text(
        textwrap.dedent(
            """\
            rules:
              - id: zz-rule
                tree: test
                when: {goal: [domestic]}
                recommend_where: {vendor: [h200], form_factor: [tablet]}
                rationale_en: test
                claims: [fact-h200]
            """
        )
    )
    kb, issues = knowledge.collect(knowledge_copy)
    errors = [str(i) for i in issues]
    assert kb is None
    assert any("zz_rules.yaml:5" in e and "`h200` is not an organization" in e for e in errors), errors
    assert any("form_factor: `tablet` is not one of phone, laptop" in e for e in errors), errors


def test_a_fact_claim_citing_a_dataset_without_a_locator_is_refused(knowledge_copy, tmp_path):
    (knowledge_copy / "zz_claims.yaml").write_text(
        "claims:\n  - {id: zz-fact, source: epoch-ml-hardware, tier: reference, kind: fact, about: [h200], "
        "text_en: x}\n"
    )
    kb, issues = knowledge.collect(knowledge_copy)
    assert kb is None
    assert any("must cite a source of kind `document`" in str(i) for i in issues)
