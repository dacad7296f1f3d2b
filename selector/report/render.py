"""The report model as a Markdown decision record and as one self-contained HTML page, through Jinja2 templates.

Both templates escape by default: the HTML environment autoescapes, and the Markdown environment passes every
expression through :func:`selector.escape.md_escape` unless a filter marked it :class:`selector.escape.MdSafe`.
"""

from __future__ import annotations

import base64
import datetime as dt
import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from selector import i18n
from selector.adr import STATUS_WORDS
from selector.charts.report import Criterion, FigureData, Option, report_figures
from selector.escape import MdSafe, md_escape
from selector.i18n import N_
from selector.report import formats
from selector.report.formats import number, percent, score, tau
from selector.report.model import Report

TEMPLATES = Path(__file__).resolve().parent / "templates"

# The sections of every rendering, in order (id, title): the decision document (MADR 4's headings, with the risks
# and how to re-check), then the appendix, which starts on a new page in the PDF.
SECTIONS: tuple[tuple[str, str], ...] = (
    ("context", N_("Context and Problem Statement")),
    ("drivers", N_("Decision Drivers")),
    ("options", N_("Considered Options")),
    ("outcome", N_("Decision Outcome")),
    ("consequences", N_("Consequences")),
    ("risks", N_("Risks")),
    ("confirmation", N_("Confirmation: How to Re-check")),
    ("more", N_("More Information")),
    ("scenario", N_("Appendix A: Scenario and Decision Path")),
    ("weights", N_("Appendix B: Weights and Criteria")),
    ("ranking", N_("Appendix C: Ranking, Matrix and Robustness")),
    ("pros-cons", N_("Appendix D: Pros and Cons of the Options")),
    ("evidence", N_("Evidence Appendix")),
    ("data-sources", N_("Data Sources and Licences")),
)
#: The first section of the appendix: the decision document is the sections before it (1-2 pages).
APPENDIX_START = "scenario"
#: Options the decision document lists by rank and score (the appendix ranks them all).
TOP_OPTIONS = 5


class _MdMessage(MdSafe):
    """A translated message of a Markdown template: written as it is (the catalog is ours), while the values that
    :meth:`format` puts into it are escaped like any other expression."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> MdSafe:
        escaped = {key: md_escape(value) for key, value in kwargs.items()}
        return MdSafe(str.format(self, *map(md_escape, args), **escaped))


def template_context(report: Report, *, markdown: bool = False) -> dict[str, Any]:
    """What every template gets besides its own extras: the report, the sections and their titles by id in the
    report's language, ``_`` that translates a template's words into it, and ``day`` that writes a date its way.

    A template's own words are trusted text, as they were before they went through the catalog: ``_`` returns them
    as :class:`MdSafe` or :class:`Markup`, whose ``format`` escapes the values it fills in.
    """
    lang = i18n.check_language(report.lang)
    translate = i18n.translator(lang)
    kind = _MdMessage if markdown else Markup

    def _(message: str) -> str:
        return kind(translate(message))

    sections = tuple((key, _(title)) for key, title in SECTIONS)
    return {
        "report": report,
        "sections": sections,
        "heads": dict(sections),
        "appendix_start": APPENDIX_START,
        "top": TOP_OPTIONS,
        "_": _,
        "lang": lang,
        "verdict_word": lambda v: _(_VERDICTS[v]),
        # in HTML the word is tagged (its colour), in Markdown it is the word
        "verdict_tag": (lambda v: _(_VERDICTS[v])) if markdown else (lambda v: _VERDICT_TAG.format(_(_VERDICTS[v]))),
        "scaling": formats.scaling(report.scaler, lang=lang),
        "status": translate(STATUS_WORDS.get(report.status, report.status)),
        "day": functools.partial(_day, lang=lang),
    }


def _day(iso: str, lang: i18n.Language) -> str:
    """A YYYY-MM-DD date as the report writes it: ISO in English (the record's own form), the locale's in Chinese."""
    if lang == i18n.SOURCE_LANGUAGE or not iso:
        return iso
    return i18n.format_date(dt.date.fromisoformat(iso), lang)


_VERDICTS = {"good": N_("Good"), "bad": N_("Bad"), "neutral": N_("Neutral")}
_VERDICT_TAG = Markup('<span class="verdict">{}</span>')
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


_COMMON_FILTERS = {"num": number, "pct": percent, "score": score, "tau": tau}


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
    return environment(markdown=True).get_template("report.md.j2").render(**template_context(report, markdown=True))


def figure_data(report: Report) -> FigureData:
    """What the report's figures show, as the plain data :mod:`selector.charts.report` draws (values formatted)."""
    return FigureData(
        criteria=tuple(Criterion(c.name, c.dimension, c.weight, percent(c.weight, 1)) for c in report.criteria),
        options=tuple(
            Option(o.name, o.score, score(o.score), o.contributions, tuple(cell.imputed for cell in o.cells))
            for o in report.options
        ),
        higher_is_better=report.higher_is_better,
        method=f"{report.method_label}, {formats.scaling(report.scaler, lang=report.lang)}",
        acceptability=report.robustness.acceptability,
        samples=report.robustness.samples,
        lang=i18n.check_language(report.lang),
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
