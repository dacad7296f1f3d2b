"""Plotly figures of the app and the reports: plain data in, a titled, labelled Figure out; never calls streamlit.

Figures are assembled from plain trace and layout dicts in one constructor call: adding traces and updating the
layout step by step re-validates the figure each time and made a chart cost ~50 ms, most of a slider move. They
are built unvalidated (tests/test_charts.py checks each with validation on) and carry no template: Streamlit's
theme styles them in the app, and :func:`themed` attaches one for the report.
"""

from __future__ import annotations

import html
import textwrap
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.colors
import plotly.graph_objects as go
import plotly.io as pio

from selector.provenance import AGEING_MONTHS

FLAG_COLOUR = "#d62728"
BASE_COLOUR = "#1f77b4"
FRONTIER_COLOUR = "#2ca02c"
TEMPLATE = "plotly_white"
_FONT = {"size": 13}
_MARGIN = {"l": 10, "r": 10, "t": 60, "b": 10}
# Written out as plotly's validators would expand the names: figures are built unvalidated, and plotly.js knows
# "Blues" but not "RdYlGn".
_RATING_SCALE = plotly.colors.get_colorscale("RdYlGn")
_SHARE_SCALE = plotly.colors.get_colorscale("Blues")


def hover_text(text: str | None, width: int = 48) -> str:
    """Text made safe for a plotly hover label: markup escaped, wrapped with ``<br>`` every `width` characters.

    Plotly renders a small HTML subset in labels, so anything from the knowledge (or a user's upload) is
    escaped before the line breaks are added. Newlines are kept; Chinese text has no spaces, so long runs are
    broken at `width`.
    """
    if not text:
        return ""
    lines = []
    for paragraph in str(text).split("\n"):
        lines.extend(textwrap.wrap(paragraph, width=width, break_long_words=True) or [""])
    return "<br>".join(html.escape(line) for line in lines)


def _escaped(values: Sequence) -> list[str]:
    return [html.escape(str(v)) for v in values]


def _figure(traces: list[dict], layout: dict, title: str, height: int) -> go.Figure:
    """Build the figure in one step, unvalidated, with no template of its own.

    Plotly's validators cost half of a chart's time on every slider move and check only what this module
    writes, which is fixed code: tests/test_charts.py rebuilds every chart with validation on and requires the
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
        "margin": _MARGIN,
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


def _vline(x: float, colour: str, dash: str, text: str, row: int = 0) -> tuple[dict, dict]:
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


def _short_number(value: float) -> str:
    """3 significant digits, thousands written out (10,500 rather than 1.05e+04)."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def contribution_bars(
    frame: pd.DataFrame, order: Sequence[str], title: str, x_title: str = "contribution to the score (points)"
) -> go.Figure:
    """Stacked horizontal bars: how much each criterion adds to each alternative's score.

    Parameters
    ----------
    frame
        Long table with columns ``alternative``, ``criterion``, ``dimension``, ``contribution``.
    order
        Alternatives from best to worst; the best is drawn on top.
    """
    # Plain lookups rather than a pandas pivot: this chart is redrawn on every slider move.
    rows = list(zip(frame["alternative"], frame["criterion"], frame["dimension"], frame["contribution"], strict=True))
    criteria = list(dict.fromkeys(c for _, c, _, _ in rows))
    value = {(a, c): float(v) for a, c, _, v in rows}
    dimension_of = {c: d for _, c, d, _ in rows}
    names = _escaped(order)
    traces = [
        {
            "type": "bar",
            "orientation": "h",
            "y": names,
            "x": [value.get((a, criterion), float("nan")) for a in order],
            "name": html.escape(str(criterion)),
            "hovertemplate": f"<b>%{{y}}</b><br>{html.escape(str(criterion))} "
            f"({html.escape(str(dimension_of[criterion]))})<br>contribution %{{x:.3f}}<extra></extra>",
        }
        for criterion in criteria
    ]
    layout = {
        "barmode": "relative",
        "legend": {"orientation": "h", "y": -0.25, "x": 0, "title": {"text": "criterion"}},
        "xaxis": {"title": {"text": x_title}, "zeroline": True, "zerolinecolor": "#888"},
        "yaxis": {"title": {"text": "alternative"}, "autorange": "reversed"},
    }
    return _figure(traces, layout, title, 260 + 38 * len(order))


def restack_contribution_bars(
    fig: go.Figure, contributions: Mapping[str, Sequence[float]], order: Sequence[str]
) -> go.Figure:
    """Redraw, in place, a figure from :func:`contribution_bars` for new contributions of the same criteria.

    `contributions` maps each alternative to its values in the figure's trace (criterion) order; `order` lists
    the alternatives from best to worst. The result is the figure :func:`contribution_bars` would build for the
    same data (tests/test_charts.py compares them): only each trace's bars change, which costs a fifth of
    building the figure anew on every slider move.
    """
    names = _escaped(order)
    for j, trace in enumerate(fig.data):
        trace.x = [float(contributions[a][j]) for a in order]
        trace.y = names
    return fig


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
    rows = _escaped(values.index)
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
    return _figure([trace], layout, title, 260 + 48 * len(rows))


def _bar_marker(flagged: Sequence[bool]) -> dict:
    return {
        "color": [FLAG_COLOUR if f else BASE_COLOUR for f in flagged],
        "pattern": {"shape": ["/" if f else "" for f in flagged]},
    }


def benchmark_bars(frame: pd.DataFrame, title: str, x_title: str, lower_is_better: bool = False) -> go.Figure:
    """Horizontal bars of one comparable set of claims; flagged claims hatched and red, quote on hover.

    `frame` has the columns of :func:`selector.views.frameworks.comparable_frame`.
    """
    frame = frame.sort_values("value", ascending=lower_is_better)
    trace = {
        "type": "bar",
        "orientation": "h",
        "y": _escaped(frame["entity"]),
        "x": frame["value"].tolist(),
        "text": [f"{v:g}" for v in frame["value"]],
        "textposition": "auto",
        "marker": _bar_marker(frame["flagged"]),
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
    return _figure([trace], layout, title, 160 + 44 * len(frame))


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
                "text": _escaped(part["name"]),
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
    return _figure(traces, layout, title, 460)


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
    names = _escaped(frame["name"])
    traces = [
        {
            "type": "bar",
            "orientation": "h",
            "y": names,
            "x": frame["tops_per_w"].tolist(),
            "text": [_short_number(v) for v in frame["tops_per_w"]],
            "textposition": "auto",
            "marker": _bar_marker(frame["flagged"]),
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
    return _figure(traces, layout, title, 260 + 44 * len(frame))


def metric_bars(frame: pd.DataFrame, title: str, x_title: str) -> go.Figure:
    """Bars of one metric per entity (memory, bandwidth...), flagged values hatched, setting and quote on hover.

    `frame` has the columns of :func:`selector.views.accelerators.metric_frame`.
    """
    frame = frame.sort_values("value", ascending=False)
    trace = {
        "type": "bar",
        "orientation": "h",
        "y": _escaped(frame["name"]),
        "x": frame["value"].tolist(),
        "text": [f"{v:g}" for v in frame["value"]],
        "textposition": "auto",
        "marker": _bar_marker(frame["flagged"]),
        "customdata": [
            [hover_text(s) or "none stated", html.escape(c), hover_text(q, 30), hover_text(f) or "none"]
            for s, c, q, f in zip(frame["conditions"], frame["claim"], frame["quote_zh"], frame["flags"], strict=True)
        ],
        "hovertemplate": "<b>%{y}</b>: %{x:g}<br>setting: %{customdata[0]}<br>claim %{customdata[1]}"
        "<br>quote: %{customdata[2]}<br>flags: %{customdata[3]}<extra></extra>",
    }
    layout = {"xaxis": {"title": {"text": x_title}}, "yaxis": {"title": {"text": ""}, "autorange": "reversed"}}
    return _figure([trace], layout, title, 180 + 44 * len(frame))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def acceptability_heatmap(acceptability: np.ndarray, alternatives: Sequence[str], title: str) -> go.Figure:
    """SMAA rank acceptability: the share of sampled weightings that put each alternative at each rank.

    Parameters
    ----------
    acceptability
        m x m array; row i, column r = share (0-1) of samples ranking alternative i at rank r + 1.
    alternatives
        Display names of the rows.
    """
    acc = np.asarray(acceptability, dtype=float)
    trace = {
        "type": "heatmap",
        "z": (acc * 100).tolist(),
        "x": [_ordinal(r + 1) for r in range(acc.shape[1])],
        "y": _escaped(alternatives),
        "text": [[f"{v:.0%}" for v in row] for row in acc],
        "texttemplate": "%{text}",
        "textfont": {"size": 14},
        "colorscale": _SHARE_SCALE,
        "zmin": 0,
        "zmax": 100,
        "xgap": 2,
        "ygap": 2,
        "hovertemplate": "<b>%{y}</b> ranked %{x}: %{z:.1f}% of the sampled weightings<extra></extra>",
        "showscale": False,  # every cell prints its share; a colour bar would only take room
    }
    layout = {
        "xaxis": {"title": {"text": "rank (1st = best)"}, "side": "bottom"},
        "yaxis": {"title": {"text": "alternative"}, "autorange": "reversed"},
    }
    return _figure([trace], layout, title, 200 + 48 * len(alternatives))


def weight_sweep_chart(
    sweep: pd.DataFrame,
    dimension: str,
    current: float,
    tipping: Sequence[float],
    title: str,
    score_title: str = "score",
) -> go.Figure:
    """Each alternative's score as one dimension's weight sweeps 0-100%, with tipping points as vertical lines.

    Parameters
    ----------
    sweep
        Long table with columns ``weight`` (0-1 share of the dimension), ``alternative`` and ``score``.
    dimension
        Display name of the swept dimension (axis title).
    current
        The current share of the dimension (0-1), drawn as a solid line.
    tipping
        Shares (0-1) at which the leader changes.
    score_title
        The y-axis title (say whether higher or lower is better).
    """
    traces = []
    for alternative, part in sweep.groupby("alternative", sort=False):
        name = html.escape(str(alternative))
        traces.append(
            {
                "type": "scatter",
                "x": (part["weight"] * 100).tolist(),
                "y": part["score"].tolist(),
                "mode": "lines",
                "name": name,
                "hovertemplate": f"<b>{name}</b><br>weight %{{x:.0f}}%<br>score %{{y:.3f}}<extra></extra>",
            }
        )
    marks = [_vline(current * 100, "#333333", "solid", f"your weight {current:.0%}")]
    marks += [_vline(share * 100, FLAG_COLOUR, "dash", f"leader changes at {share:.1%}", 1) for share in tipping]
    layout = {
        "shapes": [shape for shape, _ in marks],
        "annotations": [note for _, note in marks],
        "margin": {**_MARGIN, "t": 100},
        "xaxis": {"title": {"text": f"weight of {html.escape(dimension)} (% of the total)"}, "range": [0, 100]},
        "yaxis": {"title": {"text": score_title}},
        "legend": {"orientation": "h", "y": -0.2, "x": 0},
    }
    return _figure(traces, layout, title, 460)


# Vendor colours: plotly's qualitative palette, assigned in the order vendors are listed.
AGEING_NOTE = f"AGEING: older than {AGEING_MONTHS} months"
_VENDOR_COLOURS = plotly.colors.qualitative.Plotly + plotly.colors.qualitative.Dark24


def _axis_hover(prefix: str, unit: str, part: pd.DataFrame) -> list[str]:
    """One axis's value with its provenance, as hover lines (everything from the knowledge escaped).

    Tier and source; the raw row; retrieval and snapshot dates (an ageing snapshot said in capitals); for a
    benchmarked number its footnote (result id, round, division, ...), which a datasheet row does not need.
    """
    lines = []
    for _, row in part.iterrows():
        get = {f: row[f"{prefix}_{f}"] for f in ("value", "note", "tier", "source", "rows", "retrieved", "snapshot")}
        text = f"{html.escape(_short_number(float(get['value'])))} {html.escape(unit)}"
        if get["note"]:
            text += f" ({html.escape(get['note'])})"
        details = [f"{html.escape(get['tier'])}: {hover_text(get['source'], 60)}"]
        if get["rows"]:
            details.append(f"row {hover_text(get['rows'], 60)}")
        dates = []
        if get["retrieved"]:
            dates.append(f"retrieved {html.escape(get['retrieved'])}")
        if get["snapshot"]:
            age = f" ({AGEING_NOTE})" if row[f"{prefix}_ageing"] else ""
            dates.append(f"snapshot {html.escape(get['snapshot'])}{age}")
        if dates:
            details.append(", ".join(dates))
        if get["tier"] == "benchmarked" and row[f"{prefix}_footnote"]:
            details.append(f"footnote: {hover_text(row[f'{prefix}_footnote'], 60)}")
        elif not get["rows"]:
            details.append(f"claims {hover_text(row[f'{prefix}_claims'], 60)}")
        lines.append(text + "<br>  " + "<br>  ".join(details))
    return lines


def spec_scatter(
    pairs: pd.DataFrame,
    x_title: str,
    y_title: str,
    title: str,
    *,
    x_unit: str = "",
    y_unit: str = "",
    log_x: bool = False,
    log_y: bool = False,
) -> go.Figure:
    """Accelerators on two spec columns, one colour per vendor, each point's provenance on hover.

    Parameters
    ----------
    pairs
        Rows of :func:`selector.specs.axis_pairs`: ``name``, ``vendor``, ``segment`` and ``x_*``/``y_*`` values
        with their tier, source, rows, retrieval and snapshot dates, ageing, footnote and note.
    x_title, y_title
        Axis titles (with their unit).
    x_unit, y_unit
        Units shown after the values in the hover label.
    log_x, log_y
        Logarithmic axes (for columns spanning orders of magnitude; positive values only).

    A point resting on a snapshot older than :data:`selector.provenance.AGEING_MONTHS` on either axis is
    drawn hollow and its label says so.
    """
    traces = []
    vendors = sorted(pairs["vendor"].unique(), key=str.casefold) if len(pairs) else []
    for index, vendor in enumerate(vendors):
        part = pairs[pairs["vendor"] == vendor]
        ageing = (part["x_ageing"].astype(bool) | part["y_ageing"].astype(bool)).tolist()
        traces.append(
            {
                "type": "scatter",
                "x": part["x_value"].tolist(),
                "y": part["y_value"].tolist(),
                "mode": "markers+text",
                "text": _escaped(part["name"]),
                "textposition": "top center",
                "cliponaxis": False,
                "name": html.escape(vendor),
                "marker": {
                    "size": 12,
                    "color": _VENDOR_COLOURS[index % len(_VENDOR_COLOURS)],
                    "symbol": ["circle-open" if a else "circle" for a in ageing],
                    "line": {"width": 2},
                },
                "customdata": [
                    [html.escape(s), xh, yh]
                    for s, xh, yh in zip(
                        part["segment"], _axis_hover("x", x_unit, part), _axis_hover("y", y_unit, part), strict=True
                    )
                ],
                "hovertemplate": "<b>%{text}</b> (%{fullData.name}, %{customdata[0]})"
                f"<br><b>{html.escape(x_title)}</b>: %{{customdata[1]}}"
                f"<br><b>{html.escape(y_title)}</b>: %{{customdata[2]}}<extra></extra>",
            }
        )
    layout = {
        "xaxis": {"title": {"text": html.escape(x_title)}, "type": "log" if log_x else "linear"},
        "yaxis": {"title": {"text": html.escape(y_title)}, "type": "log" if log_y else "linear"},
        "legend": {"title": {"text": "vendor"}},
        "hoverlabel": {"align": "left"},
    }
    return _figure(traces, layout, title, 520)
