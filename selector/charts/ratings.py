"""The feature matrix as a heatmap of ratings, coloured by how good each is."""

from __future__ import annotations

import html
import textwrap
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.colors
import plotly.graph_objects as go

from selector.charts.base import figure
from selector.escape import hover_labels, hover_text

# Written out as plotly's validators would expand the name: figures are built unvalidated, and plotly.js does not
# know "RdYlGn".
_RATING_SCALE = plotly.colors.get_colorscale("RdYlGn")


def feature_heatmap(
    values: pd.DataFrame,
    objectives: Sequence[str],
    hover: pd.DataFrame,
    title: str,
    scale: tuple[float, float] = (1, 5),
) -> go.Figure:
    """Ratings as a heatmap, each value written in its cell; colour says how good (inverted for "lower is better").

    Parameters
    ----------
    values
        Entities (rows) x criteria (columns) ratings, NaN where unrated.
    objectives
        ``"max"`` or ``"min"`` per column: a rating where lower is better is coloured by its mirror image.
    hover
        Same shape as `values`: plain text shown on hover (claim ids, sources, quotes); escaped and wrapped here.
    scale
        The rating range, for the colour scale.
    """
    lo, hi = scale
    flip = np.array([o == "min" for o in objectives])
    raw = values.to_numpy(dtype=float)
    goodness = np.where(flip, lo + hi - raw, raw)
    columns = [
        "<br>".join(html.escape(line) for line in textwrap.wrap(c + (" (lower is better)" if f else ""), 13))
        for c, f in zip(values.columns, flip, strict=True)
    ]
    rows = hover_labels(values.index)
    trace = {
        "type": "heatmap",
        "z": [[None if np.isnan(v) else float(v) for v in row] for row in goodness],
        "x": columns,
        "y": rows,
        "text": [["" if np.isnan(v) else f"{v:g}" for v in row] for row in raw],
        "texttemplate": "%{text}",
        "textfont": {"size": 15},
        "customdata": hover.map(hover_text).to_numpy(dtype=object).tolist(),
        "hovertemplate": "<b>%{y}</b> - %{x}<br>rating %{text}<br>%{customdata}<extra></extra>",
        "colorscale": _RATING_SCALE,
        "zmin": lo,
        "zmax": hi,
        "xgap": 2,
        "ygap": 2,
        "colorbar": {"tickvals": [lo, hi], "ticktext": ["worse", "better"], "thickness": 14},
    }
    layout = {
        "xaxis": {
            "title": {"text": "criterion (rating, 1-5)"},
            "side": "bottom",
            "tickangle": 0,
            "tickfont": {"size": 11},
        },
        "yaxis": {"title": {"text": ""}, "autorange": "reversed"},
    }
    return figure([trace], layout, title, 260 + 48 * len(rows))
