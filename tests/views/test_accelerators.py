"""selector.views.accelerators: the Pareto frontier, spec tables, efficiency, metric frames, dataset numbers."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest

from selector.knowledge import loading as knowledge
from selector.knowledge import provenance
from selector.knowledge.models import LOCATED_TIERS
from selector.views.accelerators import (
    accelerator_claims,
    accelerator_efficiency,
    dataset_numbers,
    evidence_labels,
    metric_frame,
    pareto_mask,
    spec_table,
)
from selector.views.labels import SEGMENT_LABELS

# Left to `make test` (marked slow: tests/conftest.py): every number of every accelerator.
pytestmark = pytest.mark.slow

OLD = dt.date(2026, 11, 30)  # the cloud price list (2025-04-21) is 19 months old
YOUNG = dt.date(2025, 12, 31)


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_pareto_drops_a_dominated_point():
    # (TOPS, W): the middle chip gives fewer TOPS than the first for more watts.
    points = np.array([[100.0, 10.0], [50.0, 20.0], [200.0, 60.0], [4.0, 2.0]])
    assert pareto_mask(points, ["max", "min"]).tolist() == [True, False, True, True]


def test_pareto_respects_the_direction_of_each_axis():
    points = np.array([[1.0, 1.0], [2.0, 2.0]])
    assert pareto_mask(points, ["max", "max"]).tolist() == [False, True]
    assert pareto_mask(points, ["min", "min"]).tolist() == [True, False]
    assert pareto_mask(points, ["max", "min"]).tolist() == [True, True]


def test_pareto_keeps_equal_points_and_skips_missing_ones():
    points = np.array([[5.0, 5.0], [5.0, 5.0], [np.nan, 1.0], [1.0, 9.0]])
    assert pareto_mask(points, ["max", "min"]).tolist() == [True, True, False, False]


def test_pareto_refuses_a_shape_that_does_not_match_the_objectives():
    with pytest.raises(ValueError, match="one column per objective"):
        pareto_mask(np.ones((3, 3)), ["max", "min"])
    with pytest.raises(ValueError, match="'max' or 'min'"):
        pareto_mask(np.ones((3, 2)), ["max", "up"])


def test_spec_table_holds_every_accelerator_number_in_its_column(kb):
    claims = accelerator_claims(kb)
    assert set(claims["segment"]) <= set(SEGMENT_LABELS)
    for segment in claims["segment"].unique():
        table = spec_table(claims, segment)
        part = claims[claims["segment"] == segment]
        assert set(table.columns) == set(part["name"])
        for name, own in part.groupby("name"):
            assert table.loc["flagged claims", name] == own["flagged"].sum()
            column = table[name].drop("flagged claims")
            assert column.notna().sum() == own.groupby(["metric", "conditions"]).ngroups
            for _, same in own.groupby(["metric", "conditions"]):
                assert (column == same["value"].median()).any()


def test_efficiency_is_claimed_or_derived_from_tops_and_watts(kb):
    eff = accelerator_efficiency(kb)
    assert len(eff)
    for _, row in eff.iterrows():
        if row["basis"] == "claimed":
            values = [
                kb.claims[c].value for c in row["claims"].split(", ") if kb.claims[c].metric == "efficiency_tops_per_w"
            ]
            assert row["tops_per_w"] == pytest.approx(float(np.median(values)))
        else:
            assert row["tops_per_w"] == pytest.approx(row["tops"] / row["watts"])
        flagged = any(kb.claims[c].flagged for c in row["claims"].split(", "))
        assert row["flagged"] == flagged


def test_efficiency_compares_chips_on_dense_peaks(kb):
    """Orin has a dense datasheet figure and the article's 172 TOPS of unknown sparsity: only the dense one counts."""
    eff = accelerator_efficiency(kb).set_index("entity_id")
    dense = [
        c.value
        for c in kb.claims.values()
        if c.metric == "tops_int8" and c.subject_id == "jetson-orin" and c.conditions.sparsity == "dense"
    ]
    assert dense and eff.loc["jetson-orin", "tops"] == pytest.approx(float(np.median(dense)))
    assert "c004-orin-tops" not in eff.loc["jetson-orin", "claims"].split(", ")


def test_metric_frame_lists_memory_claims(kb):
    frame = metric_frame(kb, "memory_capacity_gb")
    expected = {
        c.id
        for c in kb.claims.values()
        if c.metric == "memory_capacity_gb" and kb.entities[c.subject_id].kind == "accelerator"
    }
    assert set(frame["claim"]) == expected and expected


def test_dataset_numbers_list_only_located_claims_with_their_dates(kb):
    claims = accelerator_claims(kb, today=OLD)
    table = dataset_numbers(kb, claims, "datacenter")
    expected = claims[(claims["segment"] == "datacenter") & claims["tier"].isin(sorted(LOCATED_TIERS))]
    assert len(table) == len(expected) > 0
    assert list(table["claim"]) == list(expected["claim"])
    for _, row in table.iterrows():
        claim = kb.claims[row["claim"]]
        assert row["dataset"] == kb.sources[claim.source].title_en
        assert row["as of"] == kb.sources[claim.source].snapshot_date
        assert row["footnote"] == claim.locator.footnote()
        assert bool(row["ageing"]) == provenance.is_ageing(claim, kb, OLD)


def test_evidence_labels_name_every_claim_once_with_its_full_number(kb):
    claims = accelerator_claims(kb, today=OLD)
    labels = evidence_labels(claims)
    assert sorted(labels.values()) == sorted(claims["claim"]) and len(labels) == len(claims)
    for label, claim_id in labels.items():
        row = claims[claims["claim"] == claim_id].iloc[0]
        assert label.startswith(f"{row['name']} - {row['label']}: ") and label.endswith(f" {row['unit']} ({claim_id})")
        # the number as stated: a benchmark's decimals are kept, a comparator other than "=" is shown
        number = label.rsplit(f" {row['unit']} (", 1)[0].split(": ")[-1]
        assert float(number.removeprefix(row["comparator"]) if row["comparator"] != "=" else number) == row["value"]


def test_efficiency_from_the_claims_the_caller_has_equals_its_own(kb):
    claims = accelerator_claims(kb)
    pd.testing.assert_frame_equal(accelerator_efficiency(kb, claims=claims), accelerator_efficiency(kb))
