"""selector.views.robustness: SMAA central weights and weight-sweep tables."""

from __future__ import annotations

import numpy as np
import pytest

from selector.knowledge import loading as knowledge
from selector.views.robustness import central_weights_table, sweep_frame


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_central_weights_sum_per_dimension_and_leave_never_first_blank(kb):
    criteria = ("rating-training-speed", "stars-distributed", "rating-cost-efficiency")
    central = [(0.5, 0.25, 0.25), None]
    by_criterion = central_weights_table(kb, ["A", "B"], criteria, central)
    assert list(by_criterion.columns) == [kb.criteria[c].name_en for c in criteria]
    assert by_criterion.loc["A"].tolist() == [0.5, 0.25, 0.25]
    assert by_criterion.loc["B"].isna().all()
    by_dimension = central_weights_table(
        kb, ["A", "B"], criteria, central, dimension_of=("performance", "performance", "cost")
    )
    names = [kb.dimensions[d].name_en for d in ("performance", "cost")]
    assert list(by_dimension.columns) == names
    assert by_dimension.loc["A"].tolist() == [0.75, 0.25]
    assert by_dimension.loc["B"].isna().all()


def test_sweep_frame_is_long_form():
    grid = np.linspace(0, 1, 5)
    scores = np.arange(10, dtype=float).reshape(5, 2)
    frame = sweep_frame(["A", "B"], grid, scores)
    assert len(frame) == 10
    assert frame[frame["alternative"] == "B"]["score"].tolist() == scores[:, 1].tolist()
