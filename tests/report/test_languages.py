"""The report in Chinese and in English: the same decision, its headings and sentences in the chosen language, the
same numbers in both (Markdown, HTML and the PDF's text)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from selector import i18n
from selector.decision.preferences import Preferences
from selector.decision.requirement import Requirement
from selector.report import build, pdf, render
from tests.report.conftest import ADR_HEADINGS, NOW
from tests.report.test_pdf import needs_pdf

HAN = re.compile(r"[\u4e00-\u9fff]")
# The decision document's headings in Chinese (MADR 4's sections, as the catalog words them).
ZH_HEADINGS = ["背景与问题陈述", "决策驱动因素", "备选方案", "决策结果", "影响", "风险", "验证：如何复核", "更多信息"]
CITATION = re.compile(r"\[\[[^\]]*\]\]\([^)]*\)")  # a claim id may hold digits: not a number of the report
TAG = re.compile(r"[(（][^)）]*[)）]")  # "(imputed)", "（补值）": the words beside a number
NUMBER = re.compile(r"^-?\d[\d,]*(\.\d+)?%?$")


@pytest.fixture(scope="module")
def reports(kb, prefs):
    """The same ranking reported in both languages (same sampling, same date)."""
    return {lang: build.build_report(kb, prefs, samples=300, seed=1, now=NOW, lang=lang) for lang in i18n.LANGUAGES}


def table_numbers(markdown: str) -> list[str]:
    """Every table cell of a Markdown report that is a number (citations and bracketed tags removed), in order."""
    found = []
    for line in markdown.splitlines():
        if not line.startswith("|"):
            continue
        for cell in line.strip("|").split("|"):
            text = TAG.sub("", CITATION.sub("", cell)).replace("*", "").strip()
            if NUMBER.match(text):
                found.append(text)
    return found


def test_the_chinese_markdown_report_has_chinese_headings_and_the_english_numbers(reports):
    zh, en = (render.render_markdown(reports[lang]) for lang in ("zh", "en"))
    for heading in ZH_HEADINGS:
        assert f"## {heading}\n" in zh
    for heading in ADR_HEADINGS:
        assert f"## {heading}\n" in en and f"## {heading}\n" not in zh
    assert "## 附录 C：排名、决策矩阵与稳健性" in zh and "## 证据附录" in zh
    assert "选定方案：" in zh and "Chosen option:" not in zh
    # the same numbers, cell for cell: ranks, scores, weights, values, shares, Kendall's tau
    numbers = table_numbers(en)
    assert len(numbers) > 50
    assert table_numbers(zh) == numbers
    # and the numbers the sentences state: the robustness share and the sample count
    share = f"{reports['en'].robustness.recommended_acceptability:.0%}"
    assert share in zh and share in en and "300" in zh


def test_the_chinese_report_states_its_date_the_chinese_way(reports):
    zh = render.render_markdown(reports["zh"])
    assert "- 日期: 2025年1月2日" in zh and "- 复审日期: 2025年7月2日" in zh
    assert "- Date: 2025-01-02" in render.render_markdown(reports["en"])  # the record's own form in English


def test_the_verdict_and_the_sentences_follow_the_language(reports):
    zh, en = reports["zh"], reports["en"]
    assert zh.verdict.startswith("推荐：") and en.verdict.startswith("Recommended: ")
    assert zh.recommended == en.recommended and zh.recommended_id == en.recommended_id  # names stay as they are
    assert HAN.search(zh.why) and not HAN.search(en.why)
    assert all(HAN.search(p.text) for p in zh.consequences)
    assert all(HAN.search(p.text) for p in zh.risks)
    assert all(HAN.search(step) for step in zh.recheck)
    assert [o.score for o in zh.options] == [o.score for o in en.options]
    assert zh.robustness.acceptability == en.robustness.acceptability
    # the decision record inside is the same data in both languages (its own timestamps aside)
    assert zh.decision_record == en.decision_record


def test_the_chinese_html_report_is_marked_chinese_and_keeps_the_numbers(reports):
    zh, en = (render.render_html(reports[lang]) for lang in ("zh", "en"))
    assert '<html lang="zh-Hans">' in zh and '<html lang="en">' in en
    for heading in ZH_HEADINGS:
        assert f"<h2>{heading}</h2>" in zh
    cells = re.compile(r'<td class="num[^"]*">([^<]*)<')
    assert cells.findall(zh) == cells.findall(en) != []


def test_an_unknown_report_language_is_refused(kb, prefs):
    with pytest.raises(i18n.LanguageError, match="use one of en, zh"):
        build.build_report(kb, prefs, samples=0, now=NOW, lang="fr")


def pdf_texts(reports: dict, folder: Path) -> tuple[str, str]:
    """The Chinese and the English report rendered to PDF and read back as text (pdftotext), in that order."""
    texts = {}
    for lang, report in reports.items():
        path = folder / f"report-{lang}.pdf"
        path.write_bytes(pdf.render_pdf(report))
        texts[lang] = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return texts["zh"], texts["en"]


@pytest.mark.subprocess
@needs_pdf
def test_the_chinese_pdf_has_chinese_headings_and_the_english_numbers(reports, tmp_path):
    zh, en = pdf_texts(reports, tmp_path)
    for heading in ZH_HEADINGS:
        assert heading in zh  # a CJK font is found offline: pdftotext reads the characters back
    assert "Decision Outcome" in en and "Decision Outcome" not in zh
    assert re.search(r"第 1 页，共 \d+ 页", zh) and re.search(r"Page 1 of \d+", en)  # the page furniture too
    scores = [f"{o.score:.3f}" for o in reports["en"].options]
    for text in (zh, en):
        assert all(score in text for score in scores)
    share = f"{reports['en'].robustness.recommended_acceptability:.0%}"
    assert share in zh and share in en


# The LLM group with a workload and a requirement: the workload fit's notes (memory, engines, latency-bounded
# throughput, cost at load), the filled-in cells' notes and the requirement sentence are the report's longest
# composed sentences.
LLM_GROUP = "llm-serving-single-accelerator"
LLM_WORKLOAD = "model=llama-3.1-8b,context=2048,ttft-ms=200,tpot-ms=50"
LLM_REQUIREMENT = Requirement(choosing="accelerator", task="serve-llm", model_b=8, where="cloud", usd_per_mtok=2)


@pytest.fixture(scope="module")
def workload_reports(kb):
    prefs = Preferences(group=LLM_GROUP, workload=LLM_WORKLOAD, requirement=LLM_REQUIREMENT)
    return {lang: build.build_report(kb, prefs, samples=100, seed=1, now=NOW, lang=lang) for lang in i18n.LANGUAGES}


def without_renderings(markdown: str) -> str:
    """The report without the claims' English renderings (a data value the Chinese report shows after the quote)."""
    return "\n".join(line for line in markdown.splitlines() if not line.startswith("- 英文："))


def test_the_chinese_workload_report_has_no_english_sentence_and_the_english_numbers(kb, workload_reports):
    from tests.app.test_language import english_found, unmarked_english

    zh, en = (render.render_markdown(workload_reports[lang]) for lang in ("zh", "en"))
    assert "Workload cells of" in en and "的工作负载单元格" in zh  # the measurement notes, in each language
    assert "latency-bounded: AccelMark" in en and "满足延迟上限：AccelMark" in zh
    shown = without_renderings(zh)
    assert not english_found(shown), english_found(shown)[:3]
    assert set(unmarked_english(shown)) <= {"AI Stack Selector 0.1.0"}  # the product's name and version
    numbers = table_numbers(en)
    assert len(numbers) > 50 and table_numbers(zh) == numbers
    # the requirement sentence, in the report's language
    assert LLM_REQUIREMENT.words(kb, "zh") in zh and LLM_REQUIREMENT.words(kb) in en
    assert LLM_REQUIREMENT.words(kb) not in zh
    # the same checks find the English report's sentences (they can fail)
    assert len(english_found(en)) >= 20


@pytest.mark.subprocess
@needs_pdf
def test_the_chinese_workload_pdf_has_chinese_text_and_the_english_scores(workload_reports, tmp_path):
    zh, en = pdf_texts(workload_reports, tmp_path)
    for heading in ZH_HEADINGS:
        assert heading in zh
    # the workload's notes in each language (pdftotext may break a line inside a sentence: the start is enough)
    assert "的工作负载单元格" in zh and "Workload cells of" in en and "Workload cells of" not in zh
    scores = [f"{o.score:.3f}" for o in workload_reports["en"].options]
    for text in (zh, en):
        assert all(score in text for score in scores)
