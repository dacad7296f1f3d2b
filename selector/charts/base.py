"""What every figure shares: the one-step unvalidated constructor, the colours, reference lines, rank labels.

Figures are assembled from plain trace and layout dicts in one constructor call: adding traces and updating the
layout step by step re-validates the figure each time, most of a slider move. They are built unvalidated
(tests/charts/ checks each with validation on) and carry no template: Streamlit's theme styles them in the app.
plotly is imported where a figure is built, so the report's SVG figures (:mod:`selector.charts.svg`) can use the
rest of this module without it.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from selector import display

if TYPE_CHECKING:
    import plotly.graph_objects as go

FLAG_COLOUR = "#d62728"
BASE_COLOUR = "#1f77b4"
FRONTIER_COLOUR = "#2ca02c"
_FONT = {"size": 13}
MARGIN = {"l": 10, "r": 10, "t": 60, "b": 10}


def figure(traces: list[dict], layout: dict, title: str, height: int) -> go.Figure:
    """Build the figure in one step, unvalidated, with no template of its own.

    Plotly's validators would run on every slider move and check only what the chart modules write, which is
    fixed code: tests/charts/ rebuilds every chart with validation on and requires the
    same figure, so an invalid property fails there and not in a user's browser.

    Whoever shows the figure styles it: in the app, Streamlit's chart theme replaces the template's layout
    anyway, so attaching plotly's (about 10 kB of JSON per chart) would only slow every slider move. The empty
    template also keeps plotly from attaching its default one while the figure is built.
    """
    import plotly.graph_objects as go

    base = {
        "title": {"text": html.escape(title), "x": 0, "xanchor": "left"},
        "font": _FONT,
        "height": height,
        "margin": MARGIN,
        "hoverlabel": {"align": "left"},
        "template": {},
    }
    return go.Figure(data=traces, layout={**base, **layout}, _validate=False)


def vline(x: float, colour: str, dash: str, text: str, row: int = 0) -> tuple[dict, dict]:
    """A vertical line across the plot at data `x` (linear axis, 0-100) and its label above the plot.

    Labels sit in rows above the plot area (`row` 0 just above it, 1 above that), so that two lines close
    together keep readable labels; a label near either edge is anchored inwards so it is not cut off.
    """
    shape = {
        "type": "line",
        "xref": "x",
        "yref": "paper",
        "x0": x,
        "x1": x,
        "y0": 0,
        "y1": 1,
        "line": {"color": colour, "dash": dash, "width": 2},
    }
    note = {
        "x": x,
        "xref": "x",
        "yref": "paper",
        "y": 1,
        "yanchor": "bottom",
        "yshift": 2 + 17 * row,
        "xanchor": "left" if x < 15 else "right" if x > 85 else "center",
        "text": html.escape(text),
        "showarrow": False,
        "font": {"size": 11, "color": colour},
    }
    return shape, note


def short_number(value: float) -> str:
    """3 significant digits, thousands written out (10,500 rather than 1.05e+04): :func:`selector.display.number`."""
    return display.number(value, 3)


def bar_marker(flagged: Sequence[bool]) -> dict:
    """Bar colours and hatching: red and hatched where the claim is flagged."""
    return {
        "color": [FLAG_COLOUR if f else BASE_COLOUR for f in flagged],
        "pattern": {"shape": ["/" if f else "" for f in flagged]},
    }


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``: a rank as the figures label it."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
