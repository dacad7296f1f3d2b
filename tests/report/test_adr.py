"""The report as an ADR (MADR 4): every format carries the same headings, front matter and numbers (issue 34, 7)."""

from __future__ import annotations

import dataclasses
import html
import re
import subprocess

import pytest

from selector import adr, display
from selector.decision.preferences import Preferences
from selector.escape import md_escape
from selector.report import build, decision, pdf, render
from selector.report.model import ReportError
from tests.report.conftest import ADR_HEADINGS, FRONT_MATTER, NOW
from tests.report.test_pdf import needs_pdf

META = adr.make(
    title="Serve a 70B model in the cloud",
    status="accepted",
    deciders=("Ana Ruiz", "Bo Chen"),
    consulted=("Platform team",),
    informed=("Finance",),
    review_by="2025-06-30",
)


@pytest.fixture(scope="module")
def adr_report(kb):
    prefs = Preferences(group="llm-inference-accelerators", constraints=("memory-capacity >= 141",))
    return build.build_report(kb, prefs, samples=300, seed=2, now=NOW, meta=META, app_url="https://ai.example.org")


@pytest.fixture(scope="module")
def texts(adr_report, tmp_path_factory):
    """The report's text as a reader sees it: the Markdown, the HTML without tags, the PDF through pdftotext."""
    page = render.render_html(adr_report)
    plain = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)))
    out = {"md": html.unescape(render.render_markdown(adr_report)), "html": plain}
    try:
        path = tmp_path_factory.mktemp("adr") / "adr.pdf"
        path.write_bytes(pdf.render_pdf(adr_report))
        out["pdf"] = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout
    except (ImportError, OSError, subprocess.CalledProcessError, ReportError):  # needs_pdf skips the PDF checks
        pass
    return out


def _flat(text: str) -> str:
    # pdftotext breaks lines (and a hyphenated word with U+2010) where the page does; the Markdown escapes
    return re.sub(r"\s+", " ", text.replace("\u2010\n", "").replace("\\", ""))


def _numbers(report) -> list[str]:
    """The decision document's figures as every format must print them."""
    rb = report.robustness
    figures = [o.score for o in report.options[: render.TOP_OPTIONS]]
    found = [render.score(v) for v in figures]
    found.append(display.percent(rb.recommended_acceptability))
    found += [f"{display.number(rb.samples)} sampled weightings"]
    return found


@pytest.mark.parametrize("fmt", ["md", "html", pytest.param("pdf", marks=[needs_pdf, pytest.mark.subprocess])])
def test_every_format_carries_the_adr_headings_front_matter_and_numbers(adr_report, texts, fmt):
    text = _flat(texts[fmt])
    positions = [text.find(h) for h in ADR_HEADINGS]
    assert all(p >= 0 for p in positions), [h for h, p in zip(ADR_HEADINGS, positions, strict=True) if p < 0]
    assert positions == sorted(positions), "the ADR headings are out of order"
    for label in FRONT_MATTER:
        assert label in text, label
    for value in ("accepted", "Ana Ruiz, Bo Chen", "Platform team", "Finance", "2025-06-30", "2025-01-02"):
        assert value in text, value
    assert "Serve a 70B model in the cloud" in text
    for number in _numbers(adr_report):
        assert number in text, number
    # the constraints line and the robustness badge (issue 34: the PDF dropped both)
    assert "Hard constraints (applied before weighting): memory-capacity>=141" in text
    assert _flat(adr_report.verdict_badge) in text
    for risk in adr_report.risks:
        assert _flat(risk.text)[:60] in text
    assert "python -m selector recheck FILE" in text
    assert "https://ai.example.org/?group=llm-inference-accelerators" in text
    assert "127.0.0.1" not in text and "localhost" not in text


@needs_pdf
@pytest.mark.subprocess
def test_the_pdf_breaks_no_word_without_a_hyphen(adr_report, texts):
    """A word split across lines ends the line with a hyphen (U+2010 from hyphenation, or the word's own dash);
    every criterion name of the report reads whole once line breaks and hyphens are undone."""
    text = texts["pdf"]
    words = {w for c in adr_report.criteria for w in re.findall(r"[A-Za-z]{6,}", c.name)}
    words |= {w for o in adr_report.options for w in re.findall(r"[A-Za-z]{6,}", o.name)}
    words |= {"Performance", "Robustness", "Consequences", "Confirmation"}
    for word in sorted(words):
        for k in range(2, len(word) - 1):
            # "Performa" at a line's end and "nce" on the next: the break the issue saw
            assert f"{word[:k]}\n{word[k:]}" not in text, f"{word} broken as {word[:k]}/{word[k:]}"


def test_risks_name_missing_prices_flags_and_filled_in_leaders(kb):
    # the datacenter group stores prices it cannot rank on one basis and cites flagged article claims (issue 32)
    prefs = Preferences(group="datacenter-accelerators")
    report = build.build_report(kb, prefs, samples=0, now=NOW)
    texts = [r.text for r in report.risks]
    assert any(t.startswith("Missing prices: Release price") for t in texts), texts
    assert any(t.startswith("Flagged evidence:") for t in texts), texts
    # ranked on power alone, the edge modules' leader depends on Hailo-8L's power cell, filled in (its page gave none
    # the maintainers could confirm); the Android group's filled-in cells left with the discontinued PyTorch Mobile
    power = {"performance": 0, "cost": 100, "ecosystem": 0, "risk": 0}
    modules = build.build_report(
        kb, Preferences(group="edge-accelerators", dimension_weights=power), samples=0, now=NOW
    )
    assert any("depends on filled-in cells" in r.text and "Hailo-8L" in r.text for r in modules.risks)


def test_a_report_without_any_risk_says_so(kb, built):
    parts = {
        "options": built.options,
        "criteria": built.criteria,
        "evidence": (),
        "judged": dataclasses.make_dataclass("J", [("gaps", object)])(None),
    }
    clean = tuple(
        dataclasses.replace(o, cells=tuple(dataclasses.replace(c, imputed=False) for c in o.cells))
        for o in built.options
    )
    parts["options"] = clean
    from selector.decision.recommend import recommend

    rec = recommend(kb, Preferences(group=built.group_id))
    rec_clean = dataclasses.replace(rec, matrix=dataclasses.replace(rec.matrix, excluded_criteria=()))
    rec_clean = dataclasses.replace(rec_clean, recommended=built.recommended_id)
    risks = decision.risks(kb, rec_clean, parts)
    assert [r.verdict for r in risks] == ["good"]


def test_front_matter_defaults_review_by_six_months_on(built):
    assert built.status == "proposed" and built.decided_on == "2025-01-02" and built.review_by == "2025-07-02"
    assert built.deciders == () and "Deciders: not recorded" in render.render_markdown(built)


def test_the_requirement_first_start_is_the_first_sentence_of_the_context(kb):
    from selector.decision.requirement import Requirement

    req = Requirement(choosing="accelerator", memory_gb=141)
    prefs = Preferences(group="llm-inference-accelerators", requirement=req, constraints=("memory-capacity >= 141",))
    built = build.build_report(kb, prefs, samples=200, seed=2, now=NOW)
    assert built.requirement[0] == req.words(kb) and not built.requirement[0].endswith("..")
    assert req.words(kb) in render.render_markdown(built)
    # settings made by hand: the context starts with the group
    plain = build.build_report(kb, Preferences(group="llm-inference-accelerators"), samples=200, seed=2, now=NOW)
    assert plain.requirement[0].startswith("Choosing among the")


# ----------------------------------------------------------------------------------------------------------------
# The decision document is one or two pages (issue 34, point 7), for every group, with the front matter filled in


FULL_META = adr.make(
    title="Which stack do we adopt for the next platform release? (architecture board)",
    status="accepted",
    deciders=("Ana Ruiz", "Bo Chen", "Carla Diaz"),
    consulted=("Platform team", "Security office"),
    informed=("Finance", "Procurement"),
    review_by="2025-06-30",
)
SENTENCE = "Choosing for the next platform release; at most the budget agreed with finance; no vendor lock-in."


def decision_pages(text: str) -> int:
    """How many pages of pdftotext's `text` come before the contents that open the appendix (on a new page)."""
    pages = text.split("\f")
    found = [i for i, page in enumerate(pages) if re.search(r"^Contents\s*$", page, re.M)]
    assert found, "the PDF has no contents page opening the appendix"
    return found[0]


def _pdf_text(report, tmp_path, decision_only: bool = False) -> str:
    """pdftotext of the report's PDF; `decision_only` lays out the decision document and the contents page alone.

    The contents start on a new page (report_print.css), so the pages before them are laid out the same without
    the 10-30 pages of appendix after them: the walk-through test checks that both count the same pages.
    """
    page = pdf.print_page(report)
    if decision_only:
        page = page[: page.index('<nav class="toc print-toc"')] + (
            '<nav class="toc print-toc"><h2 class="toc-title">Contents</h2>'
            '<p id="ranking"></p></nav></main></body></html>'
        )
    path = tmp_path / "adr.pdf"
    path.write_bytes(pdf.page_to_pdf(page))
    return subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout


def _assert_fits(text: str) -> int:
    count = decision_pages(text)
    document = _flat("\f".join(text.split("\f")[:count]))
    # the whole decision document is on those pages: every heading, to the last line of More Information
    assert all(h in document for h in ADR_HEADINGS), [h for h in ADR_HEADINGS if h not in document]
    assert "Its parameters: group" in document
    return count


@needs_pdf
@pytest.mark.slow
@pytest.mark.subprocess
def test_every_groups_decision_document_fits_two_pages(kb, tmp_path):
    pages = {}
    for group in sorted(kb.groups):
        report = build.build_report(kb, Preferences(group=group), now=NOW, meta=FULL_META, requirement=SENTENCE)
        pages[group] = _assert_fits(_pdf_text(report, tmp_path, decision_only=True))
    assert all(1 <= n <= 2 for n in pages.values()), pages


@needs_pdf
@pytest.mark.subprocess
def test_the_walk_through_requirements_decision_document_fits_two_pages(kb, tmp_path):
    """The new user's walk (tests/e2e/test_walkthrough_browser.py): a requirement, the limits it implies and four
    options left out by them (their names in one line, the reasons in Appendix C). It took three pages."""
    from selector.decision import requirement
    from selector.decision.requirement import Requirement

    req = Requirement(
        choosing="accelerator", task="serve-llm", where="cloud", model_b=70, usd_per_mtok=2, memory_gb=141
    )
    implied = requirement.implied(kb, req, "llm-inference-accelerators")
    prefs = Preferences(
        group="llm-inference-accelerators",
        constraints=implied.constraints,
        criterion_weights=implied.criterion_weights,
        requirement=req,
    )
    report = build.build_report(kb, prefs, now=NOW, meta=FULL_META)
    assert len(report.excluded_alternatives) >= 3, "the case needs options left out by the limits"
    whole = _pdf_text(report, tmp_path)
    assert _assert_fits(whole) == _assert_fits(_pdf_text(report, tmp_path, decision_only=True)) <= 2
    text = _flat(whole)
    assert req.words(kb) in text and req.words(kb) + "." not in text  # one full stop, not two
    for name, why in report.excluded_alternatives:
        assert name in text and _flat(why)[:40] in text  # the name up front, the reason in the appendix


def test_the_drivers_are_short_and_the_appendix_keeps_every_weight_0_column(kb):
    report = build.build_report(kb, Preferences(group="llm-inference-accelerators"), samples=0, now=NOW)
    stored = [line for line in report.dimension_basis if "shown, not ranked (weight 0)" in line]
    assert stored, "this group shows columns at weight 0"
    assert not any("shown, not ranked (weight 0): " in line for line in report.drivers[:-1])
    assert any(line.endswith("shown, not ranked (weight 0): Appendix B") for line in report.drivers)
    assert sum(1 for line in report.drivers if "no criterion in this group" in line) == 1  # Ecosystem and Risk
    markdown = render.render_markdown(report)
    document, _, appendix = markdown.partition("## " + dict(render.SECTIONS)[render.APPENDIX_START])
    for line in report.drivers:
        assert md_escape(line) in document
    for line in stored:
        assert md_escape(line) in appendix and md_escape(line) not in document
