"""The recommendation report: model contents, Markdown decision record, self-contained HTML, PDF, escaping."""

from __future__ import annotations

import dataclasses
import io
import re
import shutil
import subprocess
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml

from selector import knowledge, report
from selector.preferences import Preferences, to_query

NOW = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
HOSTILE = "<img src=x onerror=alert(1)> | *bold* _it_ [link](javascript:alert(1)) `tick` & #1"
ADR_HEADINGS = [
    "Context and Problem Statement",
    "Decision Drivers",
    "Considered Options",
    "Decision Outcome",
    "Pros and Cons of the Options",
    "Consequences",
]


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture(scope="module")
def prefs() -> Preferences:
    return Preferences(
        group="gpu-inference-runtimes",
        answers={"goal": "industrial"},
        dimension_weights={"performance": 40, "cost": 25, "ecosystem": 20, "risk": 15},
    )


@pytest.fixture(scope="module")
def built(kb, prefs) -> report.Report:
    return report.build_report(kb, prefs, samples=500, seed=1, now=NOW)


@pytest.fixture(scope="module")
def hostile(built) -> report.Report:
    """The built report with the first option renamed to markup: the schema refuses such a name, the renderer must
    still show it as text (a report model can come from elsewhere, e.g. a future upload path)."""
    first = dataclasses.replace(built.options[0], name=HOSTILE)
    pros = (dataclasses.replace(built.pros_cons[0], option=HOSTILE), *built.pros_cons[1:])
    return dataclasses.replace(
        built,
        options=(first, *built.options[1:]),
        pros_cons=pros,
        recommended=HOSTILE,
        leader=HOSTILE,
        title=HOSTILE,
        why=HOSTILE,
    )


@pytest.fixture(scope="module")
def markdown(built) -> str:
    return report.render_markdown(built)


@pytest.fixture(scope="module")
def html_page(built) -> str:
    return report.render_html(built)


# ----------------------------------------------------------------------------------------------------------
# The model


def test_report_follows_the_recommendation(kb, prefs, built):
    from selector.recommend import recommend

    rec = recommend(kb, prefs)
    assert [o.id for o in built.options] == [r.id for r in rec.ranking]
    assert [o.score for o in built.options] == pytest.approx([r.score for r in rec.ranking])
    assert built.recommended_id == rec.recommended
    assert built.method == rec.result.method and built.scaler == rec.result.scaler
    assert [c.id for c in built.criteria] == list(rec.matrix.criteria)
    assert sum(c.weight for c in built.criteria) == pytest.approx(1.0)
    for option in built.options:
        assert len(option.cells) == len(built.criteria)
        if option.contributions is not None:  # an additive method explains its score exactly
            assert sum(option.contributions) == pytest.approx(option.score)


def test_every_number_has_its_claim_in_the_appendix(kb, built):
    cited = {claim for option in built.options for cell in option.cells for claim in cell.evidence}
    cited |= {claim for d in built.dimensions for claim in d.claims}
    cited |= {claim for rule in built.rules for claim in rule.claims}
    assert cited, "the report cites nothing: the test would prove nothing"
    assert {c for d in built.dimensions for c in d.claims} >= {
        "c004-weight-performance",
        "c004-weight-cost",
        "c004-weight-ecosystem",
        "c004-weight-risk",
    }
    assert cited <= built.evidence_ids
    for evidence in built.evidence:
        claim = kb.claims[evidence.id]
        assert set(claim.based_on) <= built.evidence_ids, f"{evidence.id} rests on claims missing from the appendix"
        assert evidence.used_for, f"{evidence.id} is listed but supports nothing"
        if claim.tier == "claimed":
            assert evidence.quote_zh == claim.quote and evidence.section
        assert evidence.document_title_en == kb.sources[claim.source].title_en
        assert len(evidence.flags) == len(claim.flags)


def test_robustness_is_reported(built):
    rb = built.robustness
    assert rb.samples == 500 and rb.seed == 1
    assert len(rb.acceptability) == len(built.options)
    for row in rb.acceptability:
        assert sum(row) == pytest.approx(1.0)
    assert rb.leader_acceptability == pytest.approx(rb.acceptability[0][0])
    assert rb.methods and all(len(m.ranks) == len(built.options) for m in rb.methods)
    chosen = next(m for m in rb.methods if m.method == built.method)
    if chosen.scaler == built.scaler:
        assert chosen.tau == pytest.approx(1.0)
    assert rb.rank_reversal


def test_samples_zero_skips_robustness(kb, prefs):
    quick = report.build_report(kb, prefs, samples=0, now=NOW)
    assert quick.robustness.acceptability == () and quick.robustness.samples == 0
    assert "Not computed" in report.render_markdown(quick)


def test_footer_and_reproduce_link(kb, prefs, built, markdown, html_page):
    url = "http://127.0.0.1:8501/?" + urlencode(to_query(prefs))
    assert built.reproduce_url == url
    assert built.generated_at == "2025-01-02T03:04:05Z"
    assert built.data_hash == kb.data_hash
    import selector

    assert built.app_version == str(getattr(selector, "__version__", "unknown"))
    for text in (markdown, html_page):
        assert kb.data_hash in text and "2025-01-02T03:04:05Z" in text and built.app_version in text
    assert f"[Reproduce this ranking in the app](<{url}>)" in markdown
    assert f'href="{url.replace("&", "&amp;")}"' in html_page


def test_app_url_must_be_http(kb, prefs):
    with pytest.raises(ValueError, match="http"):
        report.build_report(kb, prefs, samples=0, app_url="javascript:alert(1)")


def test_custom_weights_are_stated(kb):
    prefs = Preferences(group="edge-accelerators", dimension_weights={"performance": 70, "cost": 10})
    custom = report.build_report(kb, prefs, samples=0, now=NOW)
    performance = next(d for d in custom.dimensions if d.id == "performance")
    assert (performance.given, performance.default) == (70, 40)
    assert performance.share == pytest.approx(70 / (70 + 10 + 20 + 15))
    assert re.search(r"\| Performance \(性能\) \| 70 \| 40 \| 60\.9% \|", report.render_markdown(custom))


# ----------------------------------------------------------------------------------------------------------
# Markdown


def _md() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def test_markdown_has_the_adr_headings_in_order(markdown):
    tokens = _md().parse(markdown)
    h2 = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    assert [h for h in h2 if h in ADR_HEADINGS] == ADR_HEADINGS
    assert h2.index("Evidence Appendix") > h2.index("Consequences")
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
    for widths in tables + _table_widths(report.render_markdown(hostile)):
        assert len(set(widths)) == 1, f"rows with different column counts: {widths}"


def test_markdown_cites_numbers_with_links_to_the_appendix(built, markdown):
    anchors = set(re.findall(r'<a id="(ev-[^"]+)"></a>', markdown))
    links = set(re.findall(r"\]\(#(ev-[^)]+)\)", markdown))
    assert anchors == {report._anchor(e.id) for e in built.evidence}
    assert links and links <= anchors
    first = built.options[0]
    claim = first.cells[0].evidence[0]
    assert f"[[{report.md_escape(claim)}]](#{report._anchor(claim)})" in markdown


def test_markdown_is_reproducible(kb, prefs, markdown):
    again = report.build_report(kb, prefs, samples=500, seed=1, now=NOW)
    assert report.render_markdown(again) == markdown
    later = report.build_report(kb, prefs, samples=500, seed=1, now=datetime(2026, 1, 1, tzinfo=UTC))
    assert report.render_markdown(later) != markdown


def test_markdown_shows_a_hostile_name_as_text(hostile):
    text = report.render_markdown(hostile)
    assert "<img" not in text
    rendered = _md().render(text)
    assert "<img" not in rendered and "javascript:" not in rendered.split('href="')[-1][:20]
    assert "&lt;img src=x onerror=alert(1)&gt;" in rendered
    assert "<em>bold</em>" not in rendered and "<code>tick</code>" not in rendered


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 .<>&|*_[]()#!`~\\-+=:\n\t中\u00a0\"'")), max_size=30))
def test_md_escape_renders_as_the_text_itself(text):
    shown = " ".join(text.split())
    expected = f"<p>{escapeHtml(shown)}</p>\n" if shown else ""
    assert _md().render(report.md_escape(text)) == expected
    # In a table cell the text stays in its cell (extra cells would be dropped silently, so compare the content).
    table = _md().render(f"| h |\n| --- |\n| {report.md_escape(text)} |\n")
    assert f"<td>{escapeHtml(shown)}</td>" in table


# ----------------------------------------------------------------------------------------------------------
# HTML


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


def test_html_embeds_plotly_once_and_draws_every_chart(built, html_page):
    assert html_page.count("plotly.js v") == 1
    charts = 3 if built.robustness.acceptability else 2
    assert html_page.count("Plotly.newPlot(") == charts
    # outside Streamlit nobody else styles the charts: each carries the white template
    assert html_page.count('"plot_bgcolor":"white"') >= charts
    ids = {attrs.get("id") for _, attrs in _parse(html_page).tags}
    assert {"chart-weights", "chart-scores", "chart-acceptability"} <= ids


def test_html_citations_point_at_appendix_entries(built, html_page):
    parser = _parse(html_page)
    ids = {attrs.get("id") for _, attrs in parser.tags}
    links = {attrs["href"][1:] for tag, attrs in parser.tags if tag == "a" and (attrs.get("href") or "")[:4] == "#ev-"}
    assert links and links <= ids
    assert {report._anchor(e.id) for e in built.evidence} <= ids
    sections = [attrs.get("id") for tag, attrs in parser.tags if tag == "section"]
    assert sections == [s for s, _ in report.SECTIONS]


def test_html_shows_a_hostile_name_as_text(hostile):
    page = report.render_html(hostile)
    parser = _parse(page)
    assert not [attrs for tag, attrs in parser.tags if tag == "img" or "onerror" in attrs]
    assert HOSTILE in "".join(parser.text)
    assert not [a for tag, a in parser.tags if tag == "a" and (a.get("href") or "").startswith("javascript")]


def test_html_contains_the_chinese_quotes(built, html_page):
    text = "".join(_parse(html_page).text)
    quotes = [e.quote_zh for e in built.evidence if e.quote_zh]
    assert quotes and all(q in text for q in quotes)


# ----------------------------------------------------------------------------------------------------------
# PDF


def _weasyprint_missing() -> str | None:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        return f"WeasyPrint or its system libraries (libpango) are missing: {exc}"
    if not shutil.which("pdftotext") or not shutil.which("pdftoppm"):
        return "poppler-utils (pdftotext, pdftoppm) is not installed"
    return None


needs_pdf = pytest.mark.skipif(_weasyprint_missing() is not None, reason=str(_weasyprint_missing()))


@pytest.fixture(scope="module")
def pdf_file(built, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "report.pdf"
    path.write_bytes(report.render_pdf(built))
    return path


def _pdftotext(path: Path, *options: str) -> str:
    return subprocess.run(["pdftotext", *options, str(path), "-"], check=True, capture_output=True, text=True).stdout


@needs_pdf
def test_pdf_is_a4_with_page_numbers_and_contents(pdf_file):
    assert pdf_file.read_bytes()[:5] == b"%PDF-"
    info = subprocess.run(["pdfinfo", str(pdf_file)], check=True, capture_output=True, text=True).stdout
    assert "(A4)" in info
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    assert pages >= 3
    text = _pdftotext(pdf_file, "-layout")
    assert f"Page 1 of {pages}" in text and f"Page {pages} of {pages}" in text
    contents = text.split("Contents", 1)[1].split("Page 1 of", 1)[0]
    for title in [*ADR_HEADINGS, "Evidence Appendix"]:
        # each entry ends with the page it starts on (target-counter), a number between 2 and the last page
        match = re.search(re.escape(title) + r"\s*\.?\s*(\d+)\s*$", contents, re.MULTILINE)
        assert match and 2 <= int(match.group(1)) <= pages, f"contents entry for {title!r}"


@needs_pdf
def test_pdf_text_has_the_leader_the_weights_and_a_chinese_quote(built, pdf_file):
    text = _pdftotext(pdf_file, "-layout")
    assert built.leader in text and built.recommended in text
    for name, weight in (("Performance", 40), ("Cost", 25), ("Ecosystem", 20), ("Risk", 15)):
        assert re.search(rf"{name} \S+\s+{weight}\s+{weight}\s+{weight}\.0%", text), f"{name} weight row"
    flat = "".join(text.split())
    quotes = sorted((e.quote_zh for e in built.evidence if re.search(r"[\u4e00-\u9fff]", e.quote_zh)), key=len)
    assert quotes and "".join(quotes[0].split()) in flat
    assert "".join(quotes[-1].split()) in flat


@needs_pdf
def test_pdf_first_page_is_not_blank(pdf_file, tmp_path):
    from PIL import Image

    subprocess.run(
        ["pdftoppm", "-r", "50", "-png", "-f", "1", "-l", "1", str(pdf_file), str(tmp_path / "page")], check=True
    )
    (png,) = tmp_path.glob("page*.png")
    image = Image.open(io.BytesIO(png.read_bytes())).convert("L")
    dark = sum(image.histogram()[:200])  # pixels clearly darker than the white page
    assert dark / (image.width * image.height) > 0.01


@needs_pdf
def test_pdf_of_a_hostile_name_renders_it_as_text(hostile, tmp_path):
    path = tmp_path / "hostile.pdf"
    path.write_bytes(report.render_pdf(dataclasses.replace(hostile, robustness=report.Robustness(0, 0))))
    assert "<img src=x onerror=alert(1)>" in _pdftotext(path)


def test_pdf_without_weasyprint_says_what_to_install(built, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def refuse(name, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        if name == "weasyprint":
            raise OSError("cannot load library 'libpango-1.0-0'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    with pytest.raises(report.ReportError, match="libpango"):
        report.render_pdf(built)


def test_every_report_names_each_dataset_with_its_licence_and_attribution(kb, markdown, html_page):
    from markupsafe import escape

    from selector import provenance

    datasets = provenance.datasets(kb)
    assert {d.id for d in datasets} >= {"mlperf-inference-v5.1", "epoch-ml-hardware", "fsdl-cloud-gpus", "accelmark"}
    assert "## Data Sources and Licences" in markdown and "Data Sources and Licences</h2>" in html_page
    text = MarkdownIt().render(markdown)
    for data in datasets:
        assert data.id in text and f"licence {data.licence}" in text
        assert str(escape(data.attribution)) in html_page


def test_benchmarked_numbers_carry_their_footnote_in_the_report(kb):
    built = report.build_report(kb, Preferences(group="llm-inference-accelerators"), samples=0, seed=1, now=NOW)
    located = [e for e in built.evidence if e.tier == "benchmarked"]
    assert located
    for e in located:
        for part in ("result 5.1-", "round v5.1", "division closed", "category datacenter", "availability available"):
            assert part in e.footnote, (e.id, e.footnote)
        assert "retrieved 2025-09-09" in e.footnote and "derived" in e.footnote
    text = report.render_markdown(built)
    assert f"- Footnote: {located[0].footnote}".replace("_", "\\_")[:60] in text
