"""Tests of selector/uploads/policy.py: what an upload may cite and hold, ranges, and no crash on arbitrary YAML."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from selector.io.yamlio import parse_yaml
from selector.uploads import intake, policy
from tests.conftest import KNOWLEDGE
from tests.examples import examples
from tests.uploads.conftest import BUNDLED, UPLOADS, check, errors


def test_negative_values_are_allowed_where_a_metric_may_be_negative() -> None:
    csv_text = "entity,metric,value,unit\njetson-orin,latency_reduction_pct,-5,%\n"
    result = intake.validate_upload("regression.csv", csv_text.encode(), KNOWLEDGE)
    assert result.ok, [str(i) for i in result.issues]


def test_an_upload_cannot_cite_the_teams_assessment() -> None:
    text = (
        "claims:\n  - id: u-fake-assessment\n    source: assessment\n    tier: assessed\n    kind: rating\n"
        "    text_en: Mine.\n    about: [jetson-orin]\n    rationale: Because.\n    based_on: [c004-orin-tops]\n"
    )
    [issue] = errors(intake.validate_upload("fake.yaml", text.encode(), KNOWLEDGE))
    assert issue.line == 3 and issue.record == "u-fake-assessment"
    assert "not a `user` source of your uploads" in issue.message


def test_a_later_upload_may_cite_the_source_of_an_earlier_one() -> None:
    first = check(UPLOADS / "good_new_chip.yaml")
    text = (
        "claims:\n  - id: u-second\n    source: user-fixture-lab\n    tier: measured\n    kind: benchmark\n"
        "    text_en: Again.\n    about: [fixture-npu]\n    metric: power_w\n    value: 1.5\n    unit: W\n"
        "    conditions: {precision: int8}\n"  # another measurement: the same conditions would state it twice
    )
    second = intake.validate_upload("second.yaml", text.encode(), KNOWLEDGE, others=(first.upload,))
    assert second.ok, [str(i) for i in second.issues]
    alone = intake.validate_upload("second.yaml", text.encode(), KNOWLEDGE)
    assert not alone.ok


def test_a_value_outside_its_criterions_value_scale_is_refused_like_in_the_knowledge() -> None:
    # Dense INT8: the conditions of the TOPS column, so the figure could fill it and its value scale applies.
    csv_text = "entity,metric,value,unit,precision,sparsity\njetson-orin,tops_int8,2750,TOPS,int8,dense\n"
    result = intake.validate_upload("typo.csv", csv_text.encode(), KNOWLEDGE)
    assert not result.ok
    [error] = result.issues
    assert error.level == "ERROR" and error.line == 2
    assert "value 2750 lies outside the value scale [1, 1000] (TOPS) of criterion `tops-int8`" in error.message


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**400), max_value=10**400)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
_claim_keys = st.sampled_from(
    ["id", "source", "tier", "kind", "text_en", "about", "metric", "value", "unit", "overrides", "comparator"]
)
_records = st.dictionaries(_claim_keys | st.text(max_size=6), _values, max_size=8)
_documents = st.dictionaries(
    st.sampled_from(["sources", "entities", "claims", "groups", "rules", "questions"]) | st.text(max_size=6),
    st.lists(_records, max_size=3) | _values,
    max_size=4,
)


@settings(max_examples=examples(300), deadline=None)
@given(_documents)
def test_upload_policy_never_raises_on_arbitrary_yaml(document: dict) -> None:
    raw = yaml.safe_dump(document, allow_unicode=True).encode("utf-8")
    parsed, _ = parse_yaml(raw, "fuzz.yaml")
    if parsed is None:
        return
    for issue in policy.check(parsed, "fuzz.yaml", set(), BUNDLED.metrics):
        assert issue.file == "fuzz.yaml" and len(issue.message) < 1000
    policy.against_knowledge(parsed, "fuzz.yaml", BUNDLED)


def test_upload_bounds_come_from_the_metric_vocabulary(knowledge_copy: Path) -> None:
    negative_price = b"entity,metric,value,unit\nh100,cloud_usd_per_gpu_hour,-2,USD per GPU-hour\n"
    refused = intake.validate_upload("price.csv", negative_price, KNOWLEDGE)
    assert any("`cloud_usd_per_gpu_hour` cannot be negative (got -2)" in i.message for i in errors(refused))
    vocabulary = knowledge_copy / "metrics.yaml"
    text = vocabulary.read_text(encoding="utf-8")
    vocabulary.write_text(
        text.replace("units: [TOPS], better: higher, bounds: positive, max: 1000000", "units: [TOPS]"), "utf-8"
    )
    fixture = UPLOADS / "negative_tops.yaml"
    found = intake.validate_upload(fixture.name, fixture.read_bytes(), knowledge_copy).issues
    assert not any("cannot be negative" in i.message for i in found), [str(i) for i in found]
