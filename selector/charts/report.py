"""The report's figures, drawn as SVG from plain data: effective weights, scores (or contributions), rank
acceptability.

The same drawings go into the HTML page (inline) and the PDF (WeasyPrint draws them), so writing a report needs
neither plotly nor a browser. The report gives its numbers as :class:`FigureData` (selector.report.render builds it),
with every shown value already formatted: charts never import the report, so the two packages form no cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from selector import i18n
from selector.charts import svg
from selector.charts.base import ordinal


@dataclass(frozen=True)
class Criterion:
    """One criterion as the weights chart draws it."""

    name: str
    dimension: str
    weight: float  # share of the total, 0..1
    weight_text: str  # as shown, e.g. "12.5%"


@dataclass(frozen=True)
class Option:
    """One option as the scores chart draws it (``contributions`` per criterion for an additive method, else None)."""

    name: str
    score: float
    score_text: str
    contributions: tuple[float, ...] | None
    filled: tuple[bool, ...]  # per criterion: filled in (no evidence)


@dataclass(frozen=True)
class FigureData:
    """What the report's figures show, as plain data."""

    criteria: tuple[Criterion, ...]
    options: tuple[Option, ...]
    higher_is_better: bool
    method: str  # e.g. "Weighted sum (WSM), min-max scaling"
    acceptability: tuple[tuple[float, ...], ...] = ()  # options x ranks; () when robustness was not computed
    samples: int = 0
    lang: i18n.Language = "en"  # the language of the titles and captions


def _weights(data: FigureData) -> str:
    """One bar per criterion, its effective weight (% of the total), coloured by its dimension."""
    _ = i18n.translator(data.lang)
    dimensions = list(dict.fromkeys(c.dimension for c in data.criteria))
    series = [
        svg.Series(
            dimension,
            tuple(100 * c.weight if c.dimension == dimension else 0.0 for c in data.criteria),
            svg.PALETTE[k % len(svg.PALETTE)],
        )
        for k, dimension in enumerate(dimensions)
    ]
    return svg.bars(
        [c.name for c in data.criteria],
        series,
        x_title=_("effective weight (share of the total, %)"),
        label=_("Effective weight of each criterion"),
        value_text=[c.weight_text for c in data.criteria],
        legend_title=_("dimension"),
        value_format="{:.1f}%",
    )


def _scores(data: FigureData) -> str:
    """Each criterion's contribution stacked per option (additive methods), else one bar of score per option."""
    _ = i18n.translator(data.lang)
    names = [o.name for o in data.options]
    if all(o.contributions is not None for o in data.options):
        series = [
            svg.Series(
                c.name,
                tuple(o.contributions[j] for o in data.options),
                svg.PALETTE[j % len(svg.PALETTE)],
                filled=tuple(o.filled[j] for o in data.options),
            )
            for j, c in enumerate(data.criteria)
        ]
        return svg.bars(
            names,
            series,
            x_title=_("contribution to the score (points)"),
            label=_("Contribution of each criterion to each option's score"),
            value_text=[o.score_text for o in data.options],
            legend_title=_("criterion"),
        )
    return svg.bars(
        names,
        [svg.Series(_("score"), tuple(o.score for o in data.options), svg.PALETTE[0])],
        x_title=_("score (higher is better)") if data.higher_is_better else _("score (lower is better)"),
        label=_("Score of each option"),
        value_text=[o.score_text for o in data.options],
    )


def _acceptability(data: FigureData) -> str:
    _ = i18n.translator(data.lang)
    ranks = range(1, len(data.acceptability[0]) + 1)
    # "1st", "2nd" in English; the catalog's "rank N" in another language (ordinal suffixes are English)
    columns = [ordinal(r) if data.lang == i18n.SOURCE_LANGUAGE else _("Rank {rank}").format(rank=r) for r in ranks]
    return svg.heatmap(
        [o.name for o in data.options],
        columns,
        data.acceptability,
        x_title=_("rank (1st = best)"),
        label=_("Rank acceptability of each option"),
    )


def report_figures(data: FigureData) -> dict[str, tuple[str, str]]:
    """The report's charts by key (weights, scores, acceptability), each as (caption, SVG element).

    The caption is printed by the page, not inside the chart. Acceptability is left out when robustness was not
    computed.
    """
    _ = i18n.translator(data.lang)
    contributions = all(o.contributions is not None for o in data.options)
    shown = _("Contribution of each criterion to the score") if contributions else _("Score of each option")
    figures = {
        "weights": (_("Effective weight of each criterion, coloured by dimension"), _weights(data)),
        "scores": (f"{shown} ({data.method})", _scores(data)),
    }
    if data.acceptability:
        figures["acceptability"] = (
            _(
                "Rank acceptability: share of {samples} sampled weightings that put each option at each rank (SMAA)"
            ).format(samples=data.samples),
            _acceptability(data),
        )
    return figures
