"""Bars of comparable claims (benchmarks, one metric per entity), flagged claims hatched, quotes on hover."""

from __future__ import annotations

import html

import pandas as pd
import plotly.graph_objects as go

from selector.charts.base import bar_marker, figure
from selector.escape import hover_labels, hover_text


def benchmark_bars(frame: pd.DataFrame, title: str, x_title: str, lower_is_better: bool = False) -> go.Figure:
    """Horizontal bars of one comparable set of claims; flagged claims hatched and red, quote on hover.

    `frame` has the columns of :func:`selector.views.frameworks.comparable_frame`.
    """
    frame = frame.sort_values("value", ascending=lower_is_better)
    trace = {
        "type": "bar",
        "orientation": "h",
        "y": hover_labels(frame["entity"]),
        "x": frame["value"].tolist(),
        "text": [f"{v:g}" for v in frame["value"]],
        "textposition": "auto",
        "marker": bar_marker(frame["flagged"]),
        "customdata": [
            [html.escape(c), hover_text(d), hover_text(q, 30), hover_text(e), hover_text(f) or "none"]
            for c, d, q, e, f in zip(
                frame["claim"], frame["document"], frame["quote_zh"], frame["text_en"], frame["flags"], strict=True
            )
        ],
        "hovertemplate": "<b>%{y}</b>: %{x}<br>claim %{customdata[0]}<br>%{customdata[1]}"
        "<br>quote: %{customdata[2]}<br>%{customdata[3]}<br>flags: %{customdata[4]}<extra></extra>",
    }
    better = "lower is better" if lower_is_better else "higher is better"
    layout = {
        "xaxis": {"title": {"text": f"{x_title} ({better})"}},
        "yaxis": {"title": {"text": ""}, "autorange": "reversed"},
    }
    return figure([trace], layout, title, 160 + 44 * len(frame))


def metric_bars(frame: pd.DataFrame, title: str, x_title: str) -> go.Figure:
    """Bars of one metric per entity (memory, bandwidth...), flagged values hatched, setting and quote on hover.

    `frame` has the columns of :func:`selector.views.accelerators.metric_frame`.
    """
    frame = frame.sort_values("value", ascending=False)
    trace = {
        "type": "bar",
        "orientation": "h",
        "y": hover_labels(frame["name"]),
        "x": frame["value"].tolist(),
        "text": [f"{v:g}" for v in frame["value"]],
        "textposition": "auto",
        "marker": bar_marker(frame["flagged"]),
        "customdata": [
            [hover_text(s) or "none stated", html.escape(c), hover_text(q, 30), hover_text(f) or "none"]
            for s, c, q, f in zip(frame["conditions"], frame["claim"], frame["quote_zh"], frame["flags"], strict=True)
        ],
        "hovertemplate": "<b>%{y}</b>: %{x:g}<br>setting: %{customdata[0]}<br>claim %{customdata[1]}"
        "<br>quote: %{customdata[2]}<br>flags: %{customdata[3]}<extra></extra>",
    }
    layout = {"xaxis": {"title": {"text": x_title}}, "yaxis": {"title": {"text": ""}, "autorange": "reversed"}}
    return figure([trace], layout, title, 180 + 44 * len(frame))
