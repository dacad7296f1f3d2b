"""Rendering the report: the Markdown decision record and the self-contained HTML page, escaped and cited."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html.parser import HTMLParser

from markdown_it import MarkdownIt

from selector.charts.svg import FILLED_NOTE
from selector.decision.preferences import Preferences
from selector.escape import md_escape
from selector.report import build, render
from tests.report.conftest import ADR_HEADINGS, HOSTILE, NOW


def _md() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def test_markdown_has_the_adr_headings_in_order(markdown):
    tokens = _md().parse(markdown)
    h2 = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    assert [h for h in h2 if h in ADR_HEADINGS] == ADR_HEADINGS
    assert h2.index("Evidence Appendix") > h2.index("More Information")
    assert h2.index("Appendix A: Scenario and Decision Path") == h2.index("More Information") + 1
    assert sum(1 for t in tokens if t.type == "heading_open" and t.tag == "h1") == 1


def _cells(line: str) -> int:
    """Cells of a Markdown table row: unescaped pipes split cells; the outer pipes do not count."""
    bare = re.sub(r"\\.", "", line.strip())
    return bare.strip("|").count("|") + 1


def _table_widths(text: str) -> list[list[int]]:
    lines = text.splitlines()
    return [[_cells(line) for line in lines[t.map[0] : t.map[1]]] for t in _md().parse(text) if t.type == "table_open"]


def test_markdown_tables_have_consistent_column_counts(markdown, hostile):
    tables = _table_widths(markdown)
    assert len(tables) >= 6  # scenario, dimensions, criteria, ranking, contributions, matrix, ...
    for widths in tables + _table_widths(render.render_markdown(hostile)):
        assert len(set(widths)) == 1, f"rows with different column counts: {widths}"


def test_markdown_cites_numbers_with_links_to_the_appendix(built, markdown):
    anchors = set(re.findall(r'<a id="(ev-[^"]+)"></a>', markdown))
    links = set(re.findall(r"\]\(#(ev-[^)]+)\)", markdown))
    assert anchors == {render.anchor(e.id) for e in built.evidence}
    assert links and links <= anchors
    first = built.options[0]
    claim = first.cells[0].evidence[0]
    assert f"[[{md_escape(claim)}]](#{render.anchor(claim)})" in markdown


def test_markdown_is_reproducible(kb, prefs, markdown):
    again = build.build_report(kb, prefs, samples=500, seed=1, now=NOW)
    assert render.render_markdown(again) == markdown
    later = build.build_report(kb, prefs, samples=500, seed=1, now=datetime(2026, 1, 1, tzinfo=UTC))
    assert render.render_markdown(later) != markdown


def test_markdown_shows_a_hostile_name_as_text(hostile):
    text = render.render_markdown(hostile)
    assert "<img" not in text
    rendered = _md().render(text)
    assert "<img" not in rendered and "javascript:" not in rendered.split('href="')[-1][:20]
    assert "&lt;img src=x onerror=alert(1)&gt;" in rendered
    assert "<em>bold</em>" not in rendered and "<code>tick</code>" not in rendered


class _Collect(HTMLParser):
    """Every tag with its attributes, and the page's text outside scripts and styles."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):  # noqa: ANN001
        self.tags.append((tag, dict(attrs)))
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):  # noqa: ANN001
        self._skip -= tag in ("script", "style")

    def handle_data(self, data):  # noqa: ANN001
        if not self._skip:
            self.text.append(data)


def _parse(page: str) -> _Collect:
    parser = _Collect()
    parser.feed(page)
    return parser


def test_html_fetches_nothing_from_outside(html_page):
    parser = _parse(html_page)
    fetched = [
        value
        for tag, attrs in parser.tags
        for name, value in attrs.items()
        if (tag, name) in {("script", "src"), ("link", "href"), ("img", "src"), ("iframe", "src"), ("source", "src")}
    ]
    assert not [v for v in fetched if v and re.match(r"(https?:)?//", v.strip(), re.IGNORECASE)]
    assert not [t for t, _ in parser.tags if t == "link"]  # CSS is inline


def test_html_draws_every_chart_inline_as_svg_without_scripts(built, html_page):
    parser = _parse(html_page)
    # nothing runs: the charts are drawings; the one script element is the decision record, JSON data a browser
    # never executes (no src, type application/json)
    scripts = [a for t, a in parser.tags if t == "script"]
    assert scripts == [{"type": "application/json", "id": "decision-record"}]
    figures = {attrs.get("id"): i for i, (tag, attrs) in enumerate(parser.tags) if tag == "figure"}
    assert set(figures) == {"chart-weights", "chart-scores", "chart-acceptability"}
    assert built.robustness.acceptability
    for start in figures.values():
        assert parser.tags[start + 2][0] == "svg"  # figure > figcaption, then the drawing itself
    # every option's name is in the scores chart and the acceptability grid, every criterion in the weights chart
    svgs = re.findall(r"<svg .*?</svg>", html_page, re.S)
    assert len(svgs) == 3
    weights, scores, acceptability = svgs
    assert all(f"<title>{c.name}</title>" in weights for c in built.criteria)
    assert all(
        f"<title>{o.name}</title>" in scores and f"<title>{o.name}</title>" in acceptability for o in built.options
    )


def test_html_citations_point_at_appendix_entries(built, html_page):
    parser = _parse(html_page)
    ids = {attrs.get("id") for _, attrs in parser.tags}
    links = {attrs["href"][1:] for tag, attrs in parser.tags if tag == "a" and (attrs.get("href") or "")[:4] == "#ev-"}
    assert links and links <= ids
    assert {render.anchor(e.id) for e in built.evidence} <= ids
    sections = [attrs.get("id") for tag, attrs in parser.tags if tag == "section"]
    assert sections == [s for s, _ in render.SECTIONS]


def test_html_shows_a_hostile_name_as_text(hostile):
    page = render.render_html(hostile)
    parser = _parse(page)
    assert not [attrs for tag, attrs in parser.tags if tag == "img" or "onerror" in attrs]
    assert HOSTILE in "".join(parser.text)
    assert not [a for tag, a in parser.tags if tag == "a" and (a.get("href") or "").startswith("javascript")]


def test_html_contains_the_chinese_quotes(built, html_page):
    text = "".join(_parse(html_page).text)
    quotes = [e.quote_zh for e in built.evidence if e.quote_zh]
    assert quotes and all(q in text for q in quotes)


def test_every_report_names_each_dataset_with_its_licence_and_attribution(kb, markdown, html_page):
    from markupsafe import escape

    from selector.knowledge import provenance

    datasets = provenance.datasets(kb)
    assert {d.id for d in datasets} >= {"mlperf-inference-v5.1", "epoch-ml-hardware", "fsdl-cloud-gpus", "accelmark"}
    assert "## Data Sources and Licences" in markdown and "Data Sources and Licences</h2>" in html_page
    text = MarkdownIt().render(markdown)
    for data in datasets:
        assert data.id in text and f"licence {data.licence}" in text
        assert str(escape(data.attribution)) in html_page


def test_the_report_chart_marks_filled_in_contributions(kb):
    # training frameworks: MindSpore has cells without evidence; the weighted sum's chart hatches their parts
    filled = build.build_report(kb, Preferences(group="training-frameworks"), samples=0, now=NOW)
    assert any(cell.imputed for option in filled.options for cell in option.cells)
    assert FILLED_NOTE in render.render_html(filled)
    # (the mobile runtimes have a filled-in cell since PyTorch Mobile has no package release history, and the edge
    # modules one since Hailo-8L's power is not on its page, issue 32; LLM inference has every cell)
    evidenced = build.build_report(kb, Preferences(group="llm-inference-accelerators"), samples=0, now=NOW)
    assert not any(cell.imputed for option in evidenced.options for cell in option.cells)
    assert FILLED_NOTE not in render.render_html(evidenced)


def test_markdown_lists_each_bundled_dataset_as_its_own_item(built, markdown):
    # a line ending in a Jinja block tag loses its newline (trim_blocks): the items once ran into one paragraph
    items = [line for line in markdown.splitlines() if line.startswith("- **") and "): licence " in line]
    assert len(items) == len(built.data_sources) >= 2
    assert all(line.count("): licence ") == 1 for line in items)


def test_an_assessed_rating_shows_its_rubric_level_in_both_renderings(built):
    """Issue 32: a rating that stays assessed shows its rubric (and its rationale) where the report cites it."""
    assessed = [e for e in built.evidence if e.tier == "assessed" and e.rubric]
    assert assessed, "the GPU inference engines' report cites assessed ratings"
    markdown, html = render.render_markdown(built), render.render_html(built)
    for e in assessed:
        assert e.rationale
        assert f"- Rubric: {md_escape(e.rubric)}" in markdown or f"- Rubric: {e.rubric}" in markdown
        assert "Rubric</span>" in html
