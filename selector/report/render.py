"""The report model as a Markdown decision record and as one self-contained HTML page, through Jinja2 templates.

Both templates escape by default: the HTML environment autoescapes, and the Markdown environment passes every
expression through :func:`selector.escape.md_escape` unless a filter marked it :class:`selector.escape.MdSafe`.
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from selector.charts.report import Criterion, FigureData, Option, report_figures
from selector.escape import MdSafe, md_escape
from selector.report.formats import number, percent, score, tau
from selector.report.model import Report

TEMPLATES = Path(__file__).resolve().parent / "templates"

# The sections of every rendering, in order (id, title): the decision document (MADR 4's headings, with the risks
# and how to re-check), then the appendix, which starts on a new page in the PDF.
SECTIONS: tuple[tuple[str, str], ...] = (
    ("context", "Context and Problem Statement"),
    ("drivers", "Decision Drivers"),
    ("options", "Considered Options"),
    ("outcome", "Decision Outcome"),
    ("consequences", "Consequences"),
    ("risks", "Risks"),
    ("confirmation", "Confirmation: How to Re-check"),
    ("more", "More Information"),
    ("scenario", "Appendix A: Scenario and Decision Path"),
    ("weights", "Appendix B: Weights and Criteria"),
    ("ranking", "Appendix C: Ranking, Matrix and Robustness"),
    ("pros-cons", "Appendix D: Pros and Cons of the Options"),
    ("evidence", "Evidence Appendix"),
    ("data-sources", "Data Sources and Licences"),
)
#: The first section of the appendix: the decision document is the sections before it (1-2 pages).
APPENDIX_START = "scenario"
#: Options the decision document lists by rank and score (the appendix ranks them all).
TOP_OPTIONS = 5


def template_context(report: Report) -> dict[str, Any]:
    """What every template gets besides its own extras: the report, the sections, their titles by id."""
    return {
        "report": report,
        "sections": SECTIONS,
        "heads": dict(SECTIONS),
        "appendix_start": APPENDIX_START,
        "top": TOP_OPTIONS,
    }


_VERDICTS = {"good": "Good", "bad": "Bad", "neutral": "Neutral"}
FIGURE = Markup('<figure class="chart-box" id="{}"><figcaption>{}</figcaption>{}</figure>')


def anchor(claim_id: str) -> str:
    """The id of a claim's entry in the evidence appendix, for links to it."""
    return "ev-" + quote(str(claim_id), safe="")


def _md_cite(ids: Sequence[str]) -> MdSafe:
    return MdSafe(" ".join(f"[[{md_escape(i)}]](#{anchor(i)})" for i in ids))


def _html_cite(ids: Sequence[str]) -> Markup:
    return Markup(" ").join(Markup('<a class="cite" href="#{}">[{}]</a>').format(anchor(i), i) for i in ids)


def _md_url(url: str) -> MdSafe:
    return MdSafe("<" + quote(url, safe=":/?&=%#,+;@!$'*()-._~") + ">")


_COMMON_FILTERS = {"num": number, "pct": percent, "score": score, "tau": tau, "verdict": lambda v: _VERDICTS[v]}


def _record_markup(text: str) -> Markup:
    # selector.record.to_text escapes <, > and &: the JSON cannot end the element that holds it.
    if any(c in text for c in "<>&"):
        raise ValueError("a decision record must come from selector.record.to_text (it escapes <, > and &)")
    return Markup(text)


def _md_finalize(value: object) -> str:
    return "" if value is None else md_escape(value)


@functools.lru_cache(maxsize=2)
def environment(markdown: bool) -> Environment:
    """The Jinja2 environment: Markdown escapes every expression by default, HTML autoescapes."""
    options: dict[str, Any] = {
        "loader": FileSystemLoader(TEMPLATES),
        "undefined": StrictUndefined,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": True,
    }
    if markdown:
        env = Environment(autoescape=False, finalize=_md_finalize, **options)
        env.filters.update(
            _COMMON_FILTERS, cite=_md_cite, url=_md_url, anchor=lambda i: MdSafe(anchor(i)), record=MdSafe
        )
    else:
        env = Environment(autoescape=select_autoescape(["html", "j2"]), **options)
        env.filters.update(_COMMON_FILTERS, cite=_html_cite, anchor=anchor, record=_record_markup)
    return env


def render_markdown(report: Report) -> str:
    """The report as a Markdown architecture decision record (MADR headings, evidence appendix, footer).

    Every value from the knowledge is escaped, so a name cannot inject Markdown or HTML.

    Parameters
    ----------
    report
        From :func:`selector.report.build.build_report`.

    Returns
    -------
    str
        CommonMark with GitHub tables; numbers cite their claims as links to anchors of the appendix.
    """
    return environment(markdown=True).get_template("report.md.j2").render(**template_context(report))


def figure_data(report: Report) -> FigureData:
    """What the report's figures show, as the plain data :mod:`selector.charts.report` draws (values formatted)."""
    return FigureData(
        criteria=tuple(Criterion(c.name, c.dimension, c.weight, percent(c.weight, 1)) for c in report.criteria),
        options=tuple(
            Option(o.name, o.score, score(o.score), o.contributions, tuple(cell.imputed for cell in o.cells))
            for o in report.options
        ),
        higher_is_better=report.higher_is_better,
        method=f"{report.method_label}, {report.scaling}",
        acceptability=report.robustness.acceptability,
        samples=report.robustness.samples,
    )


def figures(report: Report, *, inline: bool) -> dict[str, Markup]:
    """The report's charts as figure blocks by key: inline SVG for a page, or SVG images (data URIs) for print.

    The drawings come from :func:`selector.charts.report.report_figures`, which escapes every text it writes.
    """
    blocks = {}
    for key, (caption, drawing) in report_figures(figure_data(report)).items():
        if inline:
            chart = Markup(drawing)
        else:
            data = base64.b64encode(drawing.encode("utf-8")).decode("ascii")
            chart = Markup('<img class="chart" alt="{}" src="data:image/svg+xml;base64,{}">').format(caption, data)
        blocks[key] = FIGURE.format(f"chart-{key}", caption, chart)
    return blocks


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page: CSS inline, charts as inline SVG (values on hover).

    Opened offline it requests nothing: no script, stylesheet or image comes from another address.

    Parameters
    ----------
    report
        From :func:`selector.report.build.build_report`.

    Returns
    -------
    str
        The page.
    """
    css = Markup((TEMPLATES / "report.css").read_text(encoding="utf-8"))
    return (
        environment(markdown=False)
        .get_template("report.html.j2")
        .render(**template_context(report), charts=figures(report, inline=True), css=css)
    )
