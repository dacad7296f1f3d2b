"""The report's figures, drawn as SVG from its model: effective weights, scores (or contributions), rank acceptability.

The same drawings go into the HTML page (inline) and the PDF (WeasyPrint draws them), so writing a report needs
neither plotly nor a browser.
"""

from __future__ import annotations

from selector.charts import svg
from selector.charts.base import ordinal
from selector.report.formats import percent, score
from selector.report.model import Report


def _weights(report: Report) -> str:
    """One bar per criterion, its effective weight (% of the total), coloured by its dimension."""
    dimensions = list(dict.fromkeys(c.dimension for c in report.criteria))
    series = [
        svg.Series(
            dimension,
            tuple(100 * c.weight if c.dimension == dimension else 0.0 for c in report.criteria),
            svg.PALETTE[k % len(svg.PALETTE)],
        )
        for k, dimension in enumerate(dimensions)
    ]
    return svg.bars(
        [c.name for c in report.criteria],
        series,
        x_title="effective weight (% of the total)",
        label="Effective weight of each criterion",
        value_text=[percent(c.weight, 1) for c in report.criteria],
        legend_title="dimension",
        value_format="{:.1f}%",
    )


def _scores(report: Report) -> str:
    """Each criterion's contribution stacked per option (additive methods), else one bar of score per option."""
    names = [o.name for o in report.options]
    if all(o.contributions is not None for o in report.options):
        series = [
            svg.Series(
                c.name,
                tuple(o.contributions[j] for o in report.options),
                svg.PALETTE[j % len(svg.PALETTE)],
                filled=tuple(o.cells[j].imputed for o in report.options),
            )
            for j, c in enumerate(report.criteria)
        ]
        return svg.bars(
            names,
            series,
            x_title="contribution to the score (points)",
            label="Contribution of each criterion to each option's score",
            value_text=[score(o.score) for o in report.options],
            legend_title="criterion",
        )
    better = "higher" if report.higher_is_better else "lower"
    return svg.bars(
        names,
        [svg.Series("score", tuple(o.score for o in report.options), svg.PALETTE[0])],
        x_title=f"score ({better} is better)",
        label="Score of each option",
        value_text=[score(o.score) for o in report.options],
    )


def _acceptability(report: Report) -> str:
    acceptability = report.robustness.acceptability
    columns = [ordinal(r + 1) for r in range(len(acceptability[0]))]
    return svg.heatmap(
        [o.name for o in report.options],
        columns,
        acceptability,
        x_title="rank (1st = best)",
        label="Rank acceptability of each option",
    )


def report_figures(report: Report) -> dict[str, tuple[str, str]]:
    """The report's charts by key (weights, scores, acceptability), each as (caption, SVG element).

    The caption is printed by the page, not inside the chart. Acceptability is left out when robustness was not
    computed.
    """
    contributions = all(o.contributions is not None for o in report.options)
    figures = {
        "weights": ("Effective weight of each criterion, coloured by dimension", _weights(report)),
        "scores": (
            f"{'Contribution of each criterion to the score' if contributions else 'Score of each option'} "
            f"({report.method_label}, {report.scaling})",
            _scores(report),
        ),
    }
    if report.robustness.acceptability:
        figures["acceptability"] = (
            f"Rank acceptability: share of {report.robustness.samples} sampled weightings that put each option at "
            "each rank (SMAA)",
            _acceptability(report),
        )
    return figures
