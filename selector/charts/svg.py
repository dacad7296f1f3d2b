"""Static charts written as SVG text: horizontal bars (stacked by series) and a heatmap with a value in each cell.

The report draws its figures with these, from its frozen model: an HTML page shows them inline (a browser shows
each bar's ``<title>`` on hover) and WeasyPrint draws them in the PDF, so neither plotly nor a browser is needed to
write a report. Every piece of text is XML-escaped; sizes are in CSS pixels and the drawing scales to its box.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from selector import display
from selector.escape import xml_text

WIDTH = 760
FONT_FAMILY = '"Noto Sans CJK SC", "Noto Sans", "DejaVu Sans", sans-serif'
# plotly's default colour sequence, so the report's bars keep the colours they had as plotly charts.
PALETTE = ("#636efa", "#ef553b", "#00cc96", "#ab63fa", "#ffa15a", "#19d3f3", "#ff6692", "#b6e880", "#ff97ff", "#fecb52")
# ColorBrewer's "Blues", light to dark, for shares from 0 to 1.
BLUES = ("#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b")
_FONT_SIZE = 12
_ROW = 28  # height of one bar's row
_LABEL_MAX = 260  # widest label column before names are shortened (the full name stays in the hover title)
_GRID = "#e5e5e5"
_INK = "#2a3f5f"


FILLED_NOTE = "pale with a dashed edge: filled in by the missing-value policy (no evidence)"


@dataclass(frozen=True)
class Series:
    """One colour of a bar chart: its name (legend), one value per row (0 draws nothing) and, optionally, per row
    whether the value was filled in without evidence (drawn pale with a dashed edge, never as if it were data)."""

    name: str
    values: tuple[float, ...]
    colour: str
    filled: tuple[bool, ...] = ()


def text_width(text: str, size: float = _FONT_SIZE) -> float:
    """An estimate of `text`'s width in pixels: wide (CJK) characters count as one em, others as ~0.55 em."""
    wide = sum(1 for c in text if unicodedata.east_asian_width(c) in "WF")
    return size * (wide + 0.55 * (len(text) - wide))


def _fit(text: str, width: float, size: float = _FONT_SIZE) -> str:
    """`text` shortened with an ellipsis to fit `width` pixels."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _row_label(name: str, right: float, baseline: float, width: float) -> str:
    """A row's name, right-aligned at `right` and shortened to `width`; the whole name shows on hover."""
    return (
        f'<text x="{right:.1f}" y="{baseline:.1f}" text-anchor="end"><title>{xml_text(name)}</title>'
        f"{xml_text(_fit(name, width))}</text>"
    )


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values covering [low, high] (steps of 1, 2, 2.5 or 5 times a power of ten)."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [0.0, 1.0]
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(k * power for k in (1, 2, 2.5, 5, 10) if k * power >= raw)
    ticks = [math.floor(low / step) * step]
    while ticks[-1] < high - 1e-9 * step:
        ticks.append(ticks[-1] + step)
    return [round(v, 12) for v in ticks]


def _tick_label(value: float) -> str:
    return display.number(value)


def _svg(width: float, height: float, body: list[str], label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="{xml_text(label)}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
        f'font-family="{xml_text(FONT_FAMILY)}" font-size="{_FONT_SIZE}" fill="{_INK}">' + "".join(body) + "</svg>"
    )


def _legend(series: Sequence[Series], title: str, top: float, left: float, width: float) -> tuple[list[str], float]:
    """Legend entries in rows under the plot; returns the elements and the height they take."""
    body = [f'<text x="{left:.1f}" y="{top + 12:.1f}" font-weight="600">{xml_text(title)}</text>'] if title else []
    x, y = left + (text_width(title) + 12 if title else 0), top
    for s in series:
        item = 18 + text_width(s.name) + 14
        if x + item > left + width and x > left:
            x, y = left, y + 18
        body.append(f'<rect x="{x:.1f}" y="{y + 2:.1f}" width="12" height="12" fill="{s.colour}"/>')
        body.append(f'<text x="{x + 16:.1f}" y="{y + 12:.1f}">{xml_text(s.name)}</text>')
        x += item
    return body, y - top + 22


@dataclass(frozen=True)
class _Scale:
    """The value axis of a bar chart: `low`..`high` drawn over `width` pixels from `left`."""

    left: float
    width: float
    low: float
    high: float

    def x(self, value: float) -> float:
        return self.left + (value - self.low) / (self.high - self.low) * self.width


def _grid(scale: _Scale, ticks: Sequence[float], top: float, height: float) -> list[str]:
    """Vertical grid lines at the ticks (the zero line darker) and their labels under the plot."""
    body = []
    for tick in ticks:
        x = scale.x(tick)
        colour = "#888" if tick == 0 else _GRID
        body.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + height}" stroke="{colour}" stroke-width="1"/>'
        )
        body.append(f'<text x="{x:.1f}" y="{top + height + 14}" text-anchor="middle">{_tick_label(tick)}</text>')
    return body


def _stack(
    name: str, parts: Sequence[tuple[str, float, str, bool]], scale: _Scale, y: float, value_format: str
) -> tuple[list[str], float]:
    """One row's bars: (series name, value, colour, filled in) parts stacked from zero, positive ones to the right
    and negative ones to the left; returns the elements and where the positive stack ends."""
    body = []
    ahead, behind = 0.0, 0.0
    for part, value, colour, filled in parts:
        if value == 0 or not math.isfinite(value):
            continue
        start = ahead if value > 0 else behind + value
        if value > 0:
            ahead += value
        else:
            behind += value
        tip = f"{name}: {part + ' ' if part else ''}{value_format.format(value)}" + (
            " (filled in: no evidence)" if filled else ""
        )
        # plain attributes rather than an SVG pattern, which not every renderer of the PDF draws
        look = f'fill-opacity="0.35" stroke="{colour}" stroke-dasharray="3 2"' if filled else ""
        body.append(
            f'<rect x="{scale.x(start):.2f}" y="{y + 4}" width="{scale.x(start + abs(value)) - scale.x(start):.2f}" '
            f'height="{_ROW - 8}" fill="{colour}" {look}><title>{xml_text(tip)}</title></rect>'
        )
    return body, ahead


def bars(
    rows: Sequence[str],
    series: Sequence[Series],
    *,
    x_title: str,
    label: str,
    value_text: Sequence[str] | None = None,
    legend_title: str = "",
    value_format: str = "{:.3g}",
) -> str:
    """Horizontal bars, one row per name (first on top), each row's series stacked (negative values to the left).

    Parameters
    ----------
    rows
        The row names, drawn top to bottom.
    series
        The stacked parts, each with one value per row; a legend names them when there are several.
    x_title
        The axis title under the plot.
    label
        What the chart shows, for screen readers.
    value_text
        Text written at the end of each row's bar (e.g. its total), or None.
    legend_title
        A title before the legend's entries.
    value_format
        How a part's value is written in its hover title.

    Returns
    -------
    str
        One ``<svg>`` element.
    """
    label_width = min(_LABEL_MAX, max((text_width(r) for r in rows), default=0) + 8)
    right = 24 + (max((text_width(t) for t in value_text), default=0) if value_text else 0)
    positive = [sum(max(s.values[i], 0.0) for s in series) for i in range(len(rows))]
    negative = [sum(min(s.values[i], 0.0) for s in series) for i in range(len(rows))]
    ticks = nice_ticks(min([0.0, *negative]), max([0.0, *positive]))
    scale = _Scale(label_width + 8, WIDTH - label_width - 8 - right, ticks[0], ticks[-1])
    top, plot_height = 10, _ROW * len(rows)
    body = _grid(scale, ticks, top, plot_height)
    for i, name in enumerate(rows):
        y = top + i * _ROW
        body.append(_row_label(name, scale.left - 8, y + _ROW / 2 + 4, label_width))
        stacked = [
            (s.name if len(series) > 1 else "", s.values[i], s.colour, bool(s.filled and s.filled[i])) for s in series
        ]
        parts, end = _stack(name, stacked, scale, y, value_format)
        body += parts
        if value_text:
            body.append(f'<text x="{scale.x(end) + 4:.1f}" y="{y + _ROW / 2 + 4:.1f}">{xml_text(value_text[i])}</text>')
    left, plot_width = scale.left, scale.width
    axis_y = top + plot_height + 32
    body.append(f'<text x="{left + plot_width / 2:.1f}" y="{axis_y}" text-anchor="middle">{xml_text(x_title)}</text>')
    height = axis_y + 10
    if len(series) > 1:
        legend, used = _legend(series, legend_title, height, 8, WIDTH - 16)
        body += legend
        height += used
    if any(any(s.filled) for s in series):
        body.append(f'<text x="8" y="{height + 12:.1f}">{xml_text(FILLED_NOTE)}</text>')
        height += 20
    return _svg(WIDTH, height, body, label)


def share_colour(share: float) -> str:
    """The "Blues" colour of a share in [0, 1]."""
    share = min(max(share, 0.0), 1.0) if math.isfinite(share) else 0.0
    return BLUES[round(share * (len(BLUES) - 1))]


def heatmap(
    rows: Sequence[str], columns: Sequence[str], shares: Sequence[Sequence[float]], *, x_title: str, label: str
) -> str:
    """A grid of shares (0-1), each cell coloured by its share and labelled with it as a percentage.

    Parameters
    ----------
    rows, columns
        Names of the rows (top to bottom) and the columns (left to right).
    shares
        One row of shares per row name, one share per column.
    x_title
        The axis title under the grid.
    label
        What the chart shows, for screen readers.

    Returns
    -------
    str
        One ``<svg>`` element.
    """
    label_width = min(_LABEL_MAX, max((text_width(r) for r in rows), default=0) + 8)
    left, top = label_width + 8, 10
    cell_width = (WIDTH - left - 10) / max(len(columns), 1)
    cell_height = 30
    body = []
    for j, column in enumerate(columns):
        x = left + (j + 0.5) * cell_width
        body.append(f'<text x="{x:.1f}" y="{top + 12}" text-anchor="middle">{xml_text(column)}</text>')
    top += 20
    for i, name in enumerate(rows):
        y = top + i * cell_height
        body.append(_row_label(name, left - 8, y + cell_height / 2 + 4, label_width))
        for j, share in enumerate(shares[i]):
            cx = left + j * cell_width
            ink = "#ffffff" if share > 0.5 else _INK
            tip = f"{name} ranked {columns[j]}: {100 * share:.1f}%"
            body.append(
                f'<rect x="{cx + 1:.2f}" y="{y + 1}" width="{cell_width - 2:.2f}" height="{cell_height - 2}" '
                f'fill="{share_colour(share)}"><title>{xml_text(tip)}</title></rect>'
            )
            body.append(
                f'<text x="{cx + cell_width / 2:.1f}" y="{y + cell_height / 2 + 4:.1f}" text-anchor="middle" '
                f'fill="{ink}">{share:.0%}</text>'
            )
    axis_y = top + len(rows) * cell_height + 20
    body.append(
        f'<text x="{left + (WIDTH - left - 10) / 2:.1f}" y="{axis_y}" text-anchor="middle">{xml_text(x_title)}</text>'
    )
    return _svg(WIDTH, axis_y + 10, body, label)
