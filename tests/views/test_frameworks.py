"""selector.views.frameworks: the feature matrix and the benchmark sets measured alike."""

from __future__ import annotations

import math

import numpy as np
import pytest

from selector import display
from selector.decision import matrix
from selector.knowledge import loading as knowledge
from selector.views.frameworks import (
    BENCHMARK_METRICS,
    comparable_frame,
    comparable_sets,
    feature_hover,
    feature_matrix,
    rating_table,
    rating_text,
)


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_feature_matrix_cells_are_the_values_the_decision_matrix_uses(kb):
    fm = feature_matrix(kb)
    assert not fm.values.empty
    for row, entity_id in enumerate(fm.entity_ids):
        for col, criterion_id in enumerate(fm.criterion_ids):
            value = fm.values.iat[row, col]
            claims = matrix.claims_for_cell(kb, kb.criteria[criterion_id], entity_id)
            if not claims:
                assert math.isnan(value)
                continue
            best = [c.value for c in claims if c.tier == claims[0].tier]
            assert value == pytest.approx(float(np.median(best)))
            assert set(fm.claim_ids.iat[row, col]) == {c.id for c in claims if c.tier == claims[0].tier}


def test_article_003_stars_are_in_the_feature_matrix(kb):
    fm = feature_matrix(kb)
    column = kb.criteria["stars-debugging"].name_en
    assert fm.values.loc["PyTorch", column] == kb.claims["c003-stars-pytorch-debugging"].value
    hover = feature_hover(kb, fm)
    assert "c003-stars-pytorch-debugging" in hover.loc["PyTorch", column]
    assert kb.claims["c003-stars-pytorch-debugging"].quote in hover.loc["PyTorch", column]


def test_comparable_sets_share_metric_unit_and_conditions(kb):
    comparable, alone = comparable_sets(kb)
    seen = []
    for found in comparable + alone:
        for claim in found.claims:
            assert claim.metric == found.metric and claim.unit == found.unit
            setting = tuple((k, v) for k, v in claim.conditions.key() if k != "version")
            assert setting == found.conditions
            seen.append(claim.id)
    assert all(len(s.subjects) >= 2 for s in comparable)
    assert all(len(s.subjects) == 1 for s in alone)
    numeric = [c.id for c in kb.claims.values() if c.metric in BENCHMARK_METRICS and c.value is not None]
    assert sorted(seen) == sorted(numeric)


def test_article_004_table_forms_one_comparable_throughput_chart(kb):
    comparable, _ = comparable_sets(kb, metrics=("throughput",))
    a100 = [s for s in comparable if ("hardware", "a100") in s.conditions]
    assert len(a100) == 1
    assert set(a100[0].subjects) >= {"tensorrt", "pytorch", "onnxruntime"}
    frame = comparable_frame(kb, a100[0])
    assert "PyTorch 2.0+Triton" in set(frame["entity"])


def test_flagged_claims_can_be_left_out_of_the_benchmarks(kb):
    comparable, alone = comparable_sets(kb, use_flagged=False)
    assert not any(c.flagged for s in comparable + alone for c in s.claims)


def test_rating_table_has_a_row_per_criterion_and_marks_where_lower_is_better(kb):
    fm = feature_matrix(kb)
    table = rating_table(fm)
    assert list(table.columns) == ["criterion", *fm.values.index]
    for row, (name, objective) in enumerate(zip(fm.values.columns, fm.objectives, strict=True)):
        assert table["criterion"].iat[row] == (f"{name} (lower is better)" if objective == "min" else name)
        shown = table.iloc[row, 1:].to_numpy(dtype=float)
        assert np.array_equal(shown, fm.values[name].to_numpy(), equal_nan=True)
    assert any(o == "min" for o in fm.objectives), "the bundled ratings include a lower-is-better criterion"


def test_the_rating_text_writes_each_rating_as_the_pages_do_once_per_matrix_and_language(kb):
    fm = feature_matrix(kb)
    text = rating_text(fm)
    assert rating_text(fm) is text, "kept per matrix and language"
    assert rating_text(fm, "zh") is not text and rating_text(fm, "zh").columns[0] != text.columns[0]
    numbers = rating_table(fm)
    for row in range(len(numbers)):
        for column in numbers.columns[1:]:
            value = numbers[column].iat[row]
            assert text[column].iat[row] == ("" if np.isnan(value) else display.number(value)), (row, column)
    assert (text["criterion"] == numbers["criterion"]).all()
    assert (text.iloc[:, 1:] == "").any().any(), "some criterion is unrated for some framework"


def test_an_assessed_rating_in_the_feature_matrix_shows_its_rationale_and_rubric(kb):
    """Issue 32: the phone runtimes' ratings are kept at weight 0, so this matrix is where a reader meets them."""
    fm = feature_matrix(kb)
    column = kb.criteria["rating-mobile-acceleration"].name_en
    hover = feature_hover(kb, fm)
    (claim_id,) = fm.claim_ids.loc["TensorFlow Lite", column]
    claim = kb.claims[claim_id]
    assert claim.tier == "assessed" and claim.rationale in hover.loc["TensorFlow Lite", column]
    assert "rubric: " + kb.criteria["rating-mobile-acceleration"].name_en in hover.loc["TensorFlow Lite", column]
