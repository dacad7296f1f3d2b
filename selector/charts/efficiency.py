"""Energy efficiency of accelerators: TOPS against watts with the Pareto frontier, and TOPS/W bars."""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from selector.charts.base import BASE_COLOUR, FLAG_COLOUR, FRONTIER_COLOUR, bar_marker, figure, short_number
from selector.escape import hover_labels, hover_text


def _log_range(values: pd.Series, pad: float = 0.5) -> list[float]:
    """A log-axis range (in decades, as plotly wants it) around positive `values`, padded by `pad` decades."""
    positive = values[values > 0]
    if positive.empty:
        return [0.0, 1.0]
    return [float(np.log10(positive.min())) - pad, float(np.log10(positive.max())) + pad]


def efficiency_scatter(frame: pd.DataFrame, frontier: np.ndarray, title: str) -> go.Figure:
    """TOPS against watts (log-log) for accelerators with both; Pareto-optimal points joined by a line.

    Parameters
    ----------
    frame
        Columns ``name``, ``tops``, ``watts``, ``tops_per_w``, ``flagged``, ``flags``, ``claims``.
    frontier
        Boolean mask over `frame`'s rows: on the Pareto frontier (most TOPS for the fewest watts).
    """
    frontier = np.asarray(frontier, dtype=bool)
    traces = []
    front = frame[frontier].sort_values("watts")
    if len(front) >= 2:
        traces.append(
            {
                "type": "scatter",
                "x": front["watts"].tolist(),
                "y": front["tops"].tolist(),
                "mode": "lines",
                "line": {"color": FRONTIER_COLOUR, "dash": "dot", "width": 2},
                "name": "Pareto frontier",
                "hoverinfo": "skip",
            }
        )
    for flagged in (False, True):
        rows = np.flatnonzero(frame["flagged"].to_numpy(dtype=bool) == flagged)
        if not len(rows):
            continue
        part = frame.iloc[rows]
        on_front = frontier[rows]
        traces.append(
            {
                "type": "scatter",
                "x": part["watts"].tolist(),
                "y": part["tops"].tolist(),
                "mode": "markers+text",
                "text": hover_labels(part["name"]),
                "textposition": "top center",
                "cliponaxis": False,
                "marker": {
                    "size": 14,
                    "color": FLAG_COLOUR if flagged else BASE_COLOUR,
                    "symbol": "x" if flagged else "circle",
                    "line": {"width": [3 if f else 0 for f in on_front], "color": FRONTIER_COLOUR},
                },
                "name": "flagged claim" if flagged else "unflagged claims",
                "customdata": [
                    [round(float(e), 2), "yes" if f else "no", html.escape(c), hover_text(g) or "none"]
                    for e, f, c, g in zip(part["tops_per_w"], on_front, part["claims"], part["flags"], strict=True)
                ],
                "hovertemplate": "<b>%{text}</b><br>%{y:g} TOPS at %{x:g} W = %{customdata[0]} TOPS/W"
                "<br>on the Pareto frontier: %{customdata[1]}<br>claims: %{customdata[2]}"
                "<br>flags: %{customdata[3]}<extra></extra>",
            }
        )
    layout = {
        "xaxis": {"title": {"text": "power (W, log scale)"}, "type": "log", "range": _log_range(frame["watts"])},
        "yaxis": {
            "title": {"text": "INT8 compute (TOPS, log scale)"},
            "type": "log",
            "range": _log_range(frame["tops"]),
        },
        "legend": {"orientation": "h", "y": -0.2, "x": 0},
    }
    layout["xaxis"]["dtick"] = layout["yaxis"]["dtick"] = 1
    return figure(traces, layout, title, 460)


def efficiency_bars(
    frame: pd.DataFrame, title: str, target: tuple[str, float] | None = None, average: tuple[str, float] | None = None
) -> go.Figure:
    """TOPS/W per accelerator (log scale), flagged values hatched, with the target and the average as lines.

    Parameters
    ----------
    frame
        Columns of :func:`selector.views.accelerators.accelerator_efficiency`.
    target, average
        (label, TOPS/W) of the reference lines, or None to leave one out.
    """
    frame = frame.sort_values("tops_per_w", ascending=False)
    names = hover_labels(frame["name"])
    traces = [
        {
            "type": "bar",
            "orientation": "h",
            "y": names,
            "x": frame["tops_per_w"].tolist(),
            "text": [short_number(v) for v in frame["tops_per_w"]],
            "textposition": "auto",
            "marker": bar_marker(frame["flagged"]),
            "customdata": [
                [html.escape(b), html.escape(c), hover_text(f) or "none"]
                for b, c, f in zip(frame["basis"], frame["claims"], frame["flags"], strict=True)
            ],
            "hovertemplate": "<b>%{y}</b>: %{x:.3g} TOPS/W (%{customdata[0]})<br>claims: %{customdata[1]}"
            "<br>flags: %{customdata[2]}<extra></extra>",
            "name": "TOPS/W (red, hatched: flagged)",
        }
    ]
    for reference, colour, dash in ((target, FRONTIER_COLOUR, "dash"), (average, "#7f7f7f", "dot")):
        if reference is None or not names:
            continue
        # A vertical line drawn as a trace: it joins the legend, and a layout shape on a log axis would need its
        # position given in decades.
        label = html.escape(f"{reference[0]}: {reference[1]:g} TOPS/W")
        traces.append(
            {
                "type": "scatter",
                "x": [reference[1], reference[1]],
                "y": [names[0], names[-1]],
                "mode": "lines",
                "line": {"color": colour, "dash": dash, "width": 3},
                "name": label,
                "hovertemplate": label + "<extra></extra>",
            }
        )
    layout = {
        "xaxis": {"title": {"text": "energy efficiency (TOPS/W, log scale)"}, "type": "log", "dtick": 1},
        "yaxis": {"title": {"text": ""}, "autorange": "reversed"},
        "legend": {"orientation": "h", "y": -0.25, "x": 0},
        "showlegend": True,
    }
    return figure(traces, layout, title, 260 + 44 * len(frame))
