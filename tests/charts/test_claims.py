"""Bars of claims: flagged claims marked, which way is better said, the setting kept on hover."""

from __future__ import annotations

import pandas as pd
import pytest

from selector.charts.base import FLAG_COLOUR
from selector.charts.claims import benchmark_bars, metric_bars
from selector.escape import hover_text
from selector.knowledge import loading as knowledge
from selector.views.accelerators import metric_frame
from tests.charts.figures import EVIL, all_text, titled


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_benchmark_bars_mark_flagged_claims_and_say_which_way_is_better():
    frame = pd.DataFrame(
        {
            "entity": ["A", "B"],
            "value": [1.2, 1.8],
            "unit": ["ms", "ms"],
            "claim": ["c1", "c2"],
            "document": ["doc", "doc"],
            "quote_zh": ["引用", EVIL],
            "text_en": ["a", "b"],
            "flagged": [False, True],
            "flags": ["", "implausible: too good"],
        }
    )
    fig = benchmark_bars(frame, "Latency", "ms", lower_is_better=True)
    titled(fig)
    bar = fig.data[0]
    assert list(bar.x) == [1.2, 1.8]
    assert bar.marker.color[1] == FLAG_COLOUR and bar.marker.color[0] != FLAG_COLOUR
    assert "lower is better" in fig.layout.xaxis.title.text
    assert EVIL not in all_text(fig)


def test_metric_bars_keep_the_setting_on_hover(kb):
    frame = metric_frame(kb, "bandwidth_tbps")
    if frame.empty:
        pytest.skip("no bandwidth claim in the knowledge")
    fig = metric_bars(frame, "Bandwidth", "bandwidth (TB/s)")
    titled(fig)
    ordered = frame.sort_values("value", ascending=False)
    customdata = [list(row) for row in fig.data[0].customdata]
    assert [row[1] for row in customdata] == list(ordered["claim"])
    assert [row[0] for row in customdata] == [hover_text(c) or "none stated" for c in ordered["conditions"]]
