"""What every figure shares: the one-step unvalidated constructor, the colours, reference lines, the report theme.

Figures are assembled from plain trace and layout dicts in one constructor call: adding traces and updating the
layout step by step re-validates the figure each time, most of a slider move. They are built unvalidated
(tests/charts/ checks each with validation on) and carry no template: Streamlit's theme styles them in the app, and
:func:`themed` attaches one for the report.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import plotly.graph_objects as go
import plotly.io as pio

FLAG_COLOUR = "#d62728"
BASE_COLOUR = "#1f77b4"
FRONTIER_COLOUR = "#2ca02c"
TEMPLATE = "plotly_white"
_FONT = {"size": 13}
MARGIN = {"l": 10, "r": 10, "t": 60, "b": 10}


def figure(traces: list[dict], layout: dict, title: str, height: int) -> go.Figure:
    """Build the figure in one step, unvalidated, with no template of its own.

    Plotly's validators cost half of a chart's time on every slider move and check only what the chart modules
    write, which is fixed code: tests/charts/ rebuilds every chart with validation on and requires the
    same figure, so an invalid property fails there and not in a user's browser.

    Whoever shows the figure styles it: in the app, Streamlit's chart theme replaces the template's layout
    anyway, so attaching plotly's (about 10 kB of JSON per chart) only made every slider move slower; a
    stand-alone rendering (the report's HTML and PDF) attaches one with :func:`themed`. The empty template also
    keeps plotly from attaching its default one while the figure is built.
    """
    base = {
        "title": {"text": html.escape(title), "x": 0, "xanchor": "left"},
        "font": _FONT,
        "height": height,
        "margin": MARGIN,
        "hoverlabel": {"align": "left"},
        "template": {},
    }
    return go.Figure(data=traces, layout={**base, **layout}, _validate=False)


def themed(fig: go.Figure) -> go.Figure:
    """`fig` with the built-in ``TEMPLATE`` attached, for rendering outside Streamlit (HTML, PDF, images).

    Plotly re-validates a template assigned to a layout (~6 ms); like plotly's own default template, a
    built-in one is known to be valid, so it is attached with validation switched off for that one assignment.
    """
    fig.layout._validate = False
    try:
        fig.layout.template = pio.templates[TEMPLATE]
    finally:
        fig.layout._validate = True
    return fig


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
    """3 significant digits, thousands written out (10,500 rather than 1.05e+04)."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def bar_marker(flagged: Sequence[bool]) -> dict:
    """Bar colours and hatching: red and hatched where the claim is flagged."""
    return {
        "color": [FLAG_COLOUR if f else BASE_COLOUR for f in flagged],
        "pattern": {"shape": ["/" if f else "" for f in flagged]},
    }
