"""Conflict detection over claims: disagreement, corroboration, derived checks and non-comparable settings."""

from __future__ import annotations

import pytest

from selector.knowledge import conflicts
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload


def _user_claims(*claims: str) -> Upload:
    body = "\n".join(claims)
    return Upload("extra.yaml", f"sources:\n  - {{id: user-t, kind: user, title_en: T}}\nclaims:\n{body}\n".encode())


def _claim(cid: str, value: float, subject: str = "tensorrt", metric: str = "throughput", unit: str = "img/s") -> str:
    return (
        f"  - {{id: {cid}, source: user-t, tier: measured, kind: benchmark, text_en: x, about: [{subject}], "
        f"metric: {metric}, value: {value}, unit: {unit}, "
        "conditions: {workload: resnet-50 image classification, hardware: a100, task: inference}}"
    )


@pytest.fixture(scope="module")
def bundled():
    return conflicts.detect(knowledge.load())


def test_article_004_throughput_gain_agrees_with_its_own_table(bundled):
    found = [c for c in bundled if "c004-tensorrt-throughput-gain" in c.claims]
    assert len(found) == 1
    assert found[0].kind == "derived-agreement"
    assert "c004-bench-pytorch-throughput" in found[0].claims


def test_jax_speedups_on_different_hardware_are_not_comparable(bundled):
    found = [c for c in bundled if c.subject == "jax" and c.kind == "not-comparable"]
    assert found and {"c000-jax-v100-throughput", "c003-jax-tpu-speedup"} <= set(found[0].claims)


def test_disagreeing_comparable_claims_are_reported():
    kb = knowledge.load(extra=[_user_claims(_claim("u-trt", 4000))])
    found = [c for c in conflicts.detect(kb) if c.kind == "disagreement"]
    assert len(found) == 1
    assert set(found[0].claims) == {"u-trt", "c004-bench-tensorrt-throughput"}
    assert "disagree by 20%" in found[0].message
    assert found[0].is_problem


def test_close_values_corroborate():
    kb = knowledge.load(extra=[_user_claims(_claim("u-trt", 3250))])
    kinds = {c.kind for c in conflicts.detect(kb) if "u-trt" in c.claims}
    assert kinds == {"corroboration"}


def test_a_relative_claim_far_from_the_absolute_figures_is_a_mismatch():
    gain = (
        "  - {id: u-gain, source: user-t, tier: measured, kind: speedup, text_en: x, about: [onnxruntime], "
        "metric: speedup, value: 2.0, unit: x, conditions: {workload: resnet-50 image classification, "
        "hardware: a100, task: inference, baseline_entity: pytorch}}"
    )
    kb = knowledge.load(extra=[_user_claims(gain)])
    found = [c for c in conflicts.detect(kb) if "u-gain" in c.claims and c.kind.startswith("derived")]
    assert [c.kind for c in found] == ["derived-mismatch"]
    # 2500 / 2800 = 0.893x, nowhere near the stated 2x
    assert "0.893x" in found[0].message


def test_problems_are_listed_first():
    kb = knowledge.load(extra=[_user_claims(_claim("u-trt", 4000))])
    found = conflicts.detect(kb)
    assert found[0].is_problem
    assert all(not c.is_problem for c in found[1:])


def test_results_of_one_dataset_spread_instead_of_conflicting(bundled):
    spread = [c for c in bundled if c.kind == "spread" and c.subject == "b200"]
    assert spread and all(not c.is_problem for c in spread)
    assert not [c for c in bundled if c.kind == "disagreement" and all(i.startswith("mlperf-") for i in c.claims)]


def test_an_article_number_meets_the_dataset_number_for_the_same_quantity(bundled):
    found = [c for c in bundled if "c003-mi300x-memory" in c.claims]
    assert [c.kind for c in found] == ["corroboration"]
    assert "epoch-mi300x-memory" in found[0].claims


def test_a_number_disagreeing_with_a_dataset_is_listed_with_both_sources():
    claim = (
        "  - {id: u-mi300x-mem, source: user-t, tier: measured, kind: spec, text_en: x, about: [mi300x], "
        "metric: memory_capacity_gb, value: 128, unit: GB}"
    )
    kb = knowledge.load(extra=[_user_claims(claim)])
    found = [c for c in conflicts.detect(kb) if "u-mi300x-mem" in c.claims]
    assert [c.kind for c in found] == ["disagreement"]
    assert {"epoch-mi300x-memory", "c003-mi300x-memory"} <= set(found[0].claims)
    assert "epoch-ml-hardware (reference)" in found[0].message and "user-t (measured)" in found[0].message


def _derived_by_scanning(kb) -> list:
    """The derived check as it was, scanning every throughput per relative claim: the reference for the index."""

    def same(a, b) -> bool:
        return (
            a.conditions.hardware == b.conditions.hardware
            and (a.conditions.workload or "").lower() == (b.conditions.workload or "").lower()
            and (a.conditions.task or "") == (b.conditions.task or "")
        )

    found = []
    numeric = conflicts._numeric(kb)
    absolute = [c for c in numeric if c.metric == "throughput"]
    for claim in numeric:
        if claim.metric not in conflicts._RELATIVE_METRICS or claim.unit != conflicts._RELATIVE_METRICS[claim.metric]:
            continue
        own = [c for c in absolute if c.subject_id == claim.subject_id and same(c, claim)]
        baselines = [
            c.id
            for c in absolute
            if c.subject_id != claim.subject_id
            and same(c, claim)
            and claim.conditions.baseline_entity in (None, c.subject_id)
        ]
        if own and baselines:
            found.append((claim.id, own[0].id, baselines))
    return found


def test_the_derived_check_looks_up_the_same_throughputs_as_a_scan_of_every_claim():
    gains = [
        "  - {id: u-gain, source: user-t, tier: measured, kind: speedup, text_en: x, about: [onnxruntime], "
        "metric: speedup, value: 2.0, unit: x, conditions: {workload: ResNet-50 image classification, "
        "hardware: a100, task: inference, baseline_entity: pytorch}}",
        "  - {id: u-any, source: user-t, tier: measured, kind: speedup, text_en: x, about: [onnxruntime], "
        "metric: speedup, value: 1.1, unit: x, conditions: {workload: resnet-50 image classification, "
        "hardware: a100, task: inference}}",
        _claim("u-onnx", 2500, subject="onnxruntime"),
    ]
    kb = knowledge.load(extra=[_user_claims(*gains)])
    expected = _derived_by_scanning(kb)
    assert {"u-gain", "u-any"} <= {claim for claim, _, _ in expected}
    got = [c for c in conflicts._derived(kb)]
    assert [c.claims[:2] for c in got] == [(claim, own) for claim, own, _ in expected]
    for conflict, (_, _, baselines) in zip(got, expected, strict=True):
        assert conflict.claims[2] in baselines
        assert all(f"vs {kb.claims[b].subject_id}:" in conflict.message for b in baselines if b != conflict.claims[2])
