"""The Export page through AppTest: its figures are the report's, and each download holds what the report builder,
renderers and spreadsheet writers make of the preferences in force, under the group's file names."""

from __future__ import annotations

import datetime as dt
import re
from datetime import datetime

from app_pages import _cached
from selector import profile
from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.decision.problem import METHODS
from selector.errors import SelectorError
from selector.report import build, render, spreadsheet
from selector.report.model import ReportError
from tests.app.helpers import downloads, ok

GROUP = "edge-accelerators"
# dated file names: the record's date (UTC), so successive records of one decision never overwrite each other
STEM = f"ai-stack-{GROUP}-{dt.datetime.now(dt.UTC).date().isoformat()}"


def export_page(app, **params: str):
    app.query_params.update({"group": GROUP, **params})
    at = ok(app.run())
    return ok(at.switch_page("app_pages/export.py").run())


def unescaped(text: str) -> str:
    return text.replace("\\", "")


def test_export_page_shows_the_reports_figures_and_offers_what_the_builders_make(app, kb, media):
    at = export_page(app, method="topsis")
    files = downloads(at, media[-1])
    assert {key: name for key, (name, _, _) in files.items()} == {
        "md": f"{STEM}.md",
        "html": f"{STEM}.html",
        "csv": f"{STEM}-ranking.csv",
        "xlsx": f"{STEM}-ranking.xlsx",
        "profile": f"{STEM}-profile.yaml",
    }
    assert files["md"][1] == "text/markdown" and files["csv"][1] == "text/csv"
    # the profile holds the preferences in force: the link's group and method
    prefs = profile.load(files["profile"][2]).preferences
    assert (prefs.group, prefs.method) == (GROUP, "topsis")
    assert prefs == Preferences(group=GROUP, method="topsis")
    # the report, built again for the same preferences at the same moment, is the one offered
    markdown = files["md"][2].decode("utf-8")
    moment = datetime.fromisoformat(re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", markdown).group())
    built = build.build_report(kb, prefs, samples=_cached.REPORT_SAMPLES, seed=_cached.REPORT_SEED, now=moment)
    assert markdown == render.render_markdown(built)
    assert files["html"][2].decode("utf-8") == render.render_html(built)
    rec = recommend.recommend(kb, prefs)
    assert files["csv"][2] == spreadsheet.ranking_csv(rec, kb=kb)
    assert files["xlsx"][2][:2] == b"PK"  # a workbook is a zip archive
    # the figures above the buttons
    assert unescaped(at.subheader[0].value) == unescaped(built.verdict)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {
        "Recommended": built.recommended,
        "Method": "TOPSIS",
        "Score leader first in": f"{built.robustness.leader_acceptability:.0%}",
        "Claims cited": str(len(built.evidence)),
    }
    (method,) = [m for m in at.metric if m.label == "Method"]
    assert method.proto.help == f"{METHODS['topsis'].label}, vector scaling"  # the full name in its tooltip
    link = f"[link that reproduces this ranking]({built.reproduce_url})"
    assert any(link in c.value for c in at.caption)
    assert built.reproduce_url.startswith("?")  # no base address set nor known: a relative link, never localhost
    assert f"group={GROUP}" in built.reproduce_url and "method=topsis" in built.reproduce_url
    # what goes into the report: the requirement, the weights and the limits in force
    shown = "\n".join(unescaped(m.value) for m in at.markdown)
    for line in built.requirement:
        assert unescaped(line) in shown
    assert "Weights (share of the total): Performance" in shown and "No must-have limits" in shown


def test_the_reproduce_link_uses_the_address_the_browser_sees(app):
    app.context["url"] = "https://selector.example.org:8443/export"
    at = export_page(app)
    (caption,) = [c.value for c in at.caption if "link that reproduces" in c.value]
    assert f"(https://selector.example.org:8443/?group={GROUP}" in caption


def test_a_browser_address_on_this_machine_gives_a_relative_link(app):
    app.context["url"] = "http://127.0.0.1:8501/export"
    at = export_page(app)
    (caption,) = [c.value for c in at.caption if "link that reproduces" in c.value]
    assert f"(?group={GROUP}" in caption and "127.0.0.1" not in caption


def test_the_configured_address_wins_over_the_browsers(app, monkeypatch):
    monkeypatch.setenv("AI_STACK_SELECTOR_URL", "https://decisions.example.com")
    app.context["url"] = "https://other.example.org/export"
    at = export_page(app)
    (caption,) = [c.value for c in at.caption if "link that reproduces" in c.value]
    assert f"(https://decisions.example.com/?group={GROUP}" in caption


def test_front_matter_fields_go_into_the_report_the_profile_and_the_link(app, media):
    at = export_page(app)
    at.text_input(key="export-title").set_value("Edge module for the line cameras")
    at.selectbox(key="export-status").set_value("accepted")
    at.text_input(key="export-deciders").set_value("Ana Ruiz, Bo Chen")
    at.text_input(key="export-consulted").set_value("Ops")
    at.date_input(key="export-review-by").set_value(dt.date(2028, 3, 31))
    at = ok(at.run())
    files = downloads(at, media[-1])
    markdown = files["md"][2].decode("utf-8")
    assert markdown.startswith("# Edge module for the line cameras\n")
    for line in ("- Status: accepted", "- Deciders: Ana Ruiz, Bo Chen", "- Consulted: Ops", "- Review by: 2028-03-31"):
        assert line in markdown
    saved = profile.load(files["profile"][2]).decision
    assert (saved.status, saved.deciders, saved.review_by) == (
        "accepted",
        ("Ana Ruiz", "Bo Chen"),
        dt.date(2028, 3, 31),
    )
    assert at.query_params["deciders"] == "Ana Ruiz, Bo Chen" and at.query_params["adr_status"] == "accepted"


def test_a_front_matter_field_that_cannot_be_used_says_why_and_keeps_the_previous_value(app, media):
    at = export_page(app)
    at.text_input(key="export-deciders").set_value("Ana")
    at = ok(at.run())
    at.text_input(key="export-deciders").set_value("x" * 101)
    at = at.run()
    assert any("deciders" in e.value and "100 characters" in e.value for e in at.error)
    assert "- Deciders: Ana\n" in downloads(at, media[-1])["md"][2].decode("utf-8")


def test_a_link_carries_the_front_matter(app, media):
    at = export_page(app, deciders="Ana, Bo", adr_status="accepted")
    markdown = downloads(at, media[-1])["md"][2].decode("utf-8")
    assert "- Status: accepted" in markdown and "- Deciders: Ana, Bo" in markdown


def test_the_pdf_is_typeset_when_asked_and_then_offered(app, monkeypatch, media):
    typeset = []

    def fake_pdf(report) -> bytes:
        typeset.append(report.group_id)
        return b"%PDF-1.7 test"

    monkeypatch.setattr("selector.report.pdf.render_pdf", fake_pdf)
    at = export_page(app)
    assert "pdf" not in downloads(at, media[-1]) and typeset == []  # nothing typeset before it is asked for
    ok(at.button(key="export-pdf-build").click().run())
    assert typeset == [GROUP]
    assert downloads(at, media[-1])["pdf"] == (f"{STEM}.pdf", "application/pdf", b"%PDF-1.7 test")
    assert not [b for b in at.button if b.key == "export-pdf-build"]
    ok(at.run())
    assert typeset == [GROUP]  # kept for the same knowledge and preferences, not typeset again


def test_a_pdf_that_cannot_be_typeset_says_what_to_do(app, monkeypatch):
    def no_pdf(report) -> bytes:
        raise ReportError("PDF needs WeasyPrint's system libraries; install libpango-1.0-0")

    monkeypatch.setattr("selector.report.pdf.render_pdf", no_pdf)
    at = export_page(app)
    ok(at.button(key="export-pdf-build").click().run())
    assert [unescaped(e.value) for e in at.error] == ["PDF needs WeasyPrint's system libraries; install libpango-1.0-0"]
    assert at.button(key="export-pdf-build")  # still offered, to try again


def test_settings_that_cannot_be_reported_say_so_and_offer_no_download(app, monkeypatch):
    def refuse(kb, prefs):
        raise SelectorError("every criterion of the group is excluded")

    monkeypatch.setattr(recommend, "recommend", refuse)
    at = export_page(app)
    assert [unescaped(e.value) for e in at.error] == [
        "These settings cannot be reported: every criterion of the group is excluded. Change them on the Recommend "
        "page."
    ]
    assert not at.get("download_button") and not at.metric


def test_the_reports_and_the_profile_offered_carry_a_decision_record_that_rechecks(app, kb, media):
    from selector import recheck, record

    files = downloads(export_page(app), media[-1])
    report = record.read(files["md"][2], "r.md")
    saved = recheck.read_file(files["profile"][2], "p.yaml", kb_dir=build_kb_dir())
    assert report.recommended == saved.record.recommended and report.cells == saved.record.cells
    assert report.robustness == saved.record.robustness  # sampled alike: same samples, seed and share
    assert report.knowledge.data_hash == kb.data_hash and report.uploads.digest == ""
    result = recheck.recheck(saved.record, kb, name="p.yaml")
    assert result.holds and not result.evidence_changed


def build_kb_dir():
    from selector.knowledge.loading import DEFAULT_KNOWLEDGE

    return DEFAULT_KNOWLEDGE


def test_the_report_speaks_the_interface_language_unless_another_is_chosen(app, media):
    at = export_page(app, lang="zh")
    choice = at.button_group(key="export-lang")
    assert choice.value == "zh"  # the interface's language by default
    markdown = downloads(at, media[-1])["md"][2].decode("utf-8")
    assert "## 背景与问题陈述" in markdown and "## 决策结果" in markdown
    assert at.subheader[0].value.startswith("推荐：")  # the page's verdict in the interface's language
    # an English report from the Chinese interface: the files change, the page does not
    ok(choice.set_value("en").run())
    markdown = downloads(at, media[-1])["md"][2].decode("utf-8")
    assert "## Context and Problem Statement" in markdown and "背景与问题陈述" not in markdown
    assert at.subheader[0].value.startswith("推荐：")
    assert at.button_group(key="export-lang").value == "en"
