"""Tests of selector/knowledge/vocabulary.py: the metric vocabulary of knowledge/metrics.yaml, looked up in one
place."""

from __future__ import annotations

from pathlib import Path

import pytest

from selector.knowledge import loading as knowledge
from selector.knowledge import vocabulary
from selector.knowledge.models import Metric
from selector.measure.common import METRICS as MEASURED_METRICS


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_a_metric_is_found_by_its_id_or_its_family(kb) -> None:
    assert vocabulary.find(kb.metrics, "tops_int8").units == ("TOPS",)
    assert vocabulary.find(kb.metrics, "rating_vendor_lock_in").id == "rating_"
    assert vocabulary.find(kb.metrics, "tops_int_8") is None
    families = {
        "rating_": Metric(id="rating_", family=True),
        "rating_star": Metric(id="rating_star", family=True, bounds="non_negative"),
    }
    assert vocabulary.find(families, "rating_stars").id == "rating_star", "the longest prefix wins"
    assert vocabulary.find(families, "ratings") is None


def test_labels_come_from_the_vocabulary_then_the_criteria(kb) -> None:
    assert vocabulary.label(kb, "tops_int8") == "INT8 compute"
    assert vocabulary.label(kb, "tdp_w") == kb.criteria["tdp-w"].name_en  # no label: the criterion's name
    assert vocabulary.label(kb, "doubling_months") == "doubling months"


def test_a_label_changed_in_the_yaml_changes_what_is_shown(knowledge_copy: Path) -> None:
    path = knowledge_copy / "metrics.yaml"
    path.write_text(path.read_text().replace("label_en: INT8 compute", "label_en: Dense INT8"), encoding="utf-8")
    assert vocabulary.label(knowledge.load(knowledge_copy), "tops_int8") == "Dense INT8"


def test_which_way_is_better(kb) -> None:
    assert vocabulary.lower_is_better(kb, "latency_ms") and vocabulary.lower_is_better(kb, "power_w")
    assert not vocabulary.lower_is_better(kb, "throughput")
    assert not vocabulary.lower_is_better(kb, "rating_vendor_lock_in"), "each rating criterion says which way"
    assert not vocabulary.lower_is_better(kb, "no_such_metric")


@pytest.mark.parametrize(
    ("metric", "value", "fragment"),
    [
        ("tops_int8", -4, "`tops_int8` cannot be negative (got -4)"),
        ("rating_fixture", -1, "`rating_fixture` cannot be negative"),
        ("utilisation_pct", 140, "`utilisation_pct` is a share of a whole: 0 to 100 (got 140)"),
        ("utilisation_pct", -1, "cannot be negative"),
        ("latency_reduction_pct", -30, None),
        ("tops_int8", 0, "`tops_int8` cannot be zero"),  # a magnitude no chip has at 0 (bounds: positive)
        ("tdp_w", 0, "`tdp_w` cannot be zero"),
        ("tdp_w", 1e-300, None),  # compared as stored, never rounded
        ("tops_int8", 1e6, None),
        ("tops_int8", 1e296, "above 1e+06 TOPS"),
        ("count", 0, None),
        ("utilisation_pct", 100, None),
        ("no_such_metric", -1, None),
    ],
)
def test_bounds(kb, metric: str, value: float, fragment: str | None) -> None:
    problem = vocabulary.bound_problem(kb.metrics, metric, value, f"{value:g}")
    assert problem is None if fragment is None else fragment in problem


def test_every_metric_a_benchmark_reader_emits_is_in_the_vocabulary_with_its_unit_and_direction(kb) -> None:
    for metric, (unit, objective) in MEASURED_METRICS.items():
        found = vocabulary.find(kb.metrics, metric)
        assert found is not None, metric
        assert unit in found.units, (metric, unit, found.units)
        assert found.better == {"max": "higher", "min": "lower"}[objective], metric
