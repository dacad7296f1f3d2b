"""The spec explorer: accelerators on two datasheet columns, one colour per vendor, provenance on hover."""

from __future__ import annotations

import html

import pandas as pd
import plotly.colors
import plotly.graph_objects as go

from selector.charts.base import figure, short_number
from selector.escape import hover_labels, hover_text
from selector.knowledge.provenance import AGEING_MONTHS

# Vendor colours: plotly's qualitative palette, assigned in the order vendors are listed.
AGEING_NOTE = f"AGEING: older than {AGEING_MONTHS} months"
_VENDOR_COLOURS = plotly.colors.qualitative.Plotly + plotly.colors.qualitative.Dark24


def _axis_hover(prefix: str, unit: str, part: list[dict]) -> list[str]:
    """One axis's value with its provenance, as hover lines (everything from the knowledge escaped).

    Tier and source; the raw row; retrieval and snapshot dates (an ageing snapshot said in capitals); for a
    benchmarked number its footnote (result id, round, division, ...), which a datasheet row does not need.
    """
    lines = []
    fields = ("value", "note", "tier", "source", "rows", "retrieved", "snapshot", "ageing", "footnote", "claims")
    for row in part:
        get = {f: row[f"{prefix}_{f}"] for f in fields}
        text = f"{html.escape(short_number(float(get['value'])))} {html.escape(unit)}"
        if get["note"]:
            text += f" ({html.escape(get['note'])})"
        details = [f"{html.escape(get['tier'])}: {hover_text(get['source'], 60)}"]
        if get["rows"]:
            details.append(f"row {hover_text(get['rows'], 60)}")
        dates = []
        if get["retrieved"]:
            dates.append(f"retrieved {html.escape(get['retrieved'])}")
        if get["snapshot"]:
            age = f" ({AGEING_NOTE})" if get["ageing"] else ""
            dates.append(f"snapshot {html.escape(get['snapshot'])}{age}")
        if dates:
            details.append(", ".join(dates))
        if get["tier"] == "benchmarked" and get["footnote"]:
            details.append(f"footnote: {hover_text(get['footnote'], 60)}")
        elif not get["rows"]:
            details.append(f"claims {hover_text(get['claims'], 60)}")
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
        Rows of :func:`selector.decision.specs.axis_pairs`: ``name``, ``vendor``, ``segment`` and ``x_*``/``y_*`` values
        with their tier, source, rows, retrieval and snapshot dates, ageing, footnote and note.
    x_title, y_title
        Axis titles (with their unit).
    x_unit, y_unit
        Units shown after the values in the hover label.
    log_x, log_y
        Logarithmic axes (for columns spanning orders of magnitude; positive values only).

    A point resting on a snapshot older than :data:`selector.knowledge.provenance.AGEING_MONTHS` on either axis is
    drawn hollow and its label says so.
    """
    traces = []
    # plain records grouped once: a pandas filter per vendor and a pandas row per point cost more than the chart
    by_vendor: dict[str, list[dict]] = {}
    for row in pairs.to_dict("records"):
        by_vendor.setdefault(row["vendor"], []).append(row)
    for index, vendor in enumerate(sorted(by_vendor, key=str.casefold)):
        part = by_vendor[vendor]
        ageing = [bool(r["x_ageing"]) or bool(r["y_ageing"]) for r in part]
        traces.append(
            {
                "type": "scatter",
                "x": [r["x_value"] for r in part],
                "y": [r["y_value"] for r in part],
                "mode": "markers+text",
                "text": hover_labels([r["name"] for r in part]),
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
                        [r["segment"] for r in part],
                        _axis_hover("x", x_unit, part),
                        _axis_hover("y", y_unit, part),
                        strict=True,
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
    return figure(traces, layout, title, 520)
