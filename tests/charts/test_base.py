"""What every figure shares: the built-in template attached for stand-alone rendering (the report)."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from selector import knowledge, recommend
from selector.charts.base import themed
from selector.charts.contributions import contribution_bars
from selector.preferences import Preferences
from selector.views.recommend import contributions_frame


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_themed_attaches_the_built_in_template_for_stand_alone_rendering(kb):
    rec = recommend.recommend(kb, Preferences(group="gpu-inference-runtimes", method="wsm"))
    frame = contributions_frame(kb, rec.matrix, rec.result.contributions)
    fig = contribution_bars(frame, [r.name for r in rec.ranking], "t")
    plain = len(fig.to_json())
    assert themed(fig) is fig
    assert fig.layout.template.layout.plot_bgcolor == "white"
    assert len(fig.to_json()) > plain + 5_000  # the template is what made every in-app chart heavier
    go.Figure(fig.to_dict())  # still valid plotly, although attached without validation
