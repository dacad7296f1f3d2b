"""The My data page through AppTest: valid uploads join the session's knowledge, hostile and bad ones are kept out
and the page keeps running; profiles load; uploads live in the session only."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from selector import profile
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from tests.app.helpers import APP, ROOT, markdown_tables, ok
from tests.uploads.conftest import HOSTILE, UPLOADS, check


def test_valid_uploads_join_the_knowledge_and_bad_ones_are_kept_out(app):
    fixture = ROOT / "tests" / "fixtures" / "valid_extra.yaml"
    app.session_state["uploads"] = [Upload("mine.yaml", fixture.read_bytes())]
    at = ok(app.run())
    assert at.radio(key="q-fix-q").value is None
    assert any("your files" in c.value for c in at.sidebar.caption)
    at.session_state["uploads"] = [Upload("bad.yaml", b"claims: [{id: x}]")]
    at = ok(at.run())
    assert at.session_state["upload_issues"]
    assert not any("your files" in c.value for c in at.sidebar.caption)


def test_my_data_says_before_any_upload_that_files_live_in_the_session():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at = at.switch_page("app_pages/my_data.py").run()
    assert not at.exception
    notes = [info.value for info in at.info]
    assert any("this browser session only" in note and "decision profile" in note for note in notes), notes


def _page():
    app = AppTest.from_file(APP, default_timeout=60)
    app.run()
    app.switch_page("app_pages/my_data.py").run()
    assert not app.exception, app.exception
    return app


def _upload(app, name: str, data: bytes) -> None:
    mime = "text/csv" if name.endswith(".csv") else "application/x-yaml"
    app.file_uploader(key="my-data-upload").set_value((name, data, mime)).run()
    assert not app.exception, app.exception


def _shown_text(app) -> str:
    parts = [e.value for e in (*app.error, *app.success, *app.warning, *app.info)]
    for frame in app.dataframe:
        parts.extend(frame.value.astype(str).to_numpy().ravel())
    # messages are in Markdown tables, each cell escaped (read as the reader sees them: escapes resolved)
    for table in markdown_tables(app):
        parts.extend(table.to_numpy().ravel())
    return "\n".join(str(p) for p in parts)


def test_page_refuses_every_hostile_file_and_keeps_running() -> None:
    app = _page()
    for name, fragment in HOSTILE:
        _upload(app, name, (UPLOADS / name).read_bytes())
        assert app.session_state["uploads"] == [], f"{name} must not be merged"
        assert app.error, f"{name}: the page must say the file was refused"
        shown = _shown_text(app)
        assert fragment in shown, (name, shown[:2000])
        assert not any("<script>" in m.value for m in app.markdown), "markup must never be rendered"


def test_page_accepts_valid_files_shows_conflicts_and_removes_them() -> None:
    app = _page()
    _upload(app, "good_orin_override.csv", (UPLOADS / "good_orin_override.csv").read_bytes())
    assert [u.name for u in app.session_state["uploads"]] == ["good_orin_override.csv"]
    assert app.success
    shown = _shown_text(app)
    assert "u-orin-tops" in shown and "c004-orin-tops" in shown
    app.button(key="my-data-remove-0").click().run()
    assert not app.exception, app.exception
    assert app.session_state["uploads"] == []


def test_page_loads_a_profile_with_its_uploads_and_preferences() -> None:
    result = check(UPLOADS / "good_new_chip.yaml")
    prefs = Preferences(group="my-edge-accelerators", method="topsis", dimension_weights={"performance": 70})
    text = profile.dump(profile.make(prefs, {"tiers": ["measured"]}, [result.original]))
    app = _page()
    app.file_uploader(key="my-data-profile").set_value(("p.yaml", text.encode(), "application/x-yaml")).run()
    assert not app.exception, app.exception
    assert [u.name for u in app.session_state["uploads"]] == ["good_new_chip.yaml"]
    assert app.session_state["prefs"] == prefs
    assert app.query_params["group"] == "my-edge-accelerators"
    assert app.session_state["ev-tiers"] == ["measured"]


def test_page_reports_a_broken_profile_without_failing() -> None:
    app = _page()
    bomb = (UPLOADS / "alias_bomb.yaml").read_bytes()
    app.file_uploader(key="my-data-profile").set_value(("p.yaml", bomb, "application/x-yaml")).run()
    assert not app.exception, app.exception
    assert app.error and "more than 50 aliases" in _shown_text(app)


def test_a_refused_files_issues_are_listed_whole_in_a_static_table() -> None:
    app = _page()
    data = (UPLOADS / "negative_tops.yaml").read_bytes()
    _upload(app, "negative_tops.yaml", data)
    _, ok_, issues, _ = app.session_state["my-data-last-result"]
    assert not ok_ and issues
    (shown,) = [t for t in markdown_tables(app) if "message" in t.columns]
    assert list(shown["message"]) == [" ".join(i.message.split()) for i in issues]  # on one line
    assert list(shown["file"]) == [i.file for i in issues]
    assert not app.dataframe and not app.table


def _recheck_report() -> bytes:
    from selector.knowledge import loading as knowledge
    from selector.report import build, render

    built = build.build_report(knowledge.load(), Preferences(group="edge-accelerators"), samples=100)
    return render.render_markdown(built).encode("utf-8")


def test_recheck_shows_that_a_decision_holds_with_a_link_to_todays_ranking() -> None:
    app = _page()
    app.file_uploader(key="my-data-recheck").set_value(("r.md", _recheck_report(), "text/markdown")).run()
    assert not app.exception, app.exception
    assert [s.value.replace("\\", "") for s in app.success] == [
        "The decision holds: NVIDIA Jetson AGX Orin 64GB is still recommended and leads the ranking, "
        "on the same evidence."
    ]
    shown = "\n".join(m.value for m in app.markdown)
    assert "No ranked cell, option or decision rule changed." in shown
    assert "[Open today's ranking for these settings](./?group=edge-accelerators)" in shown


def test_recheck_with_a_session_file_shows_the_changed_cell_and_the_files_that_differ() -> None:
    from selector import recheck, record
    from selector.knowledge import loading as knowledge
    from selector.uploads import intake

    report = _recheck_report()
    app = _page()
    _upload(app, "good_orin_power.csv", (UPLOADS / "good_orin_power.csv").read_bytes())
    app.file_uploader(key="my-data-recheck").set_value(("r.md", report, "text/markdown")).run()
    assert not app.exception, app.exception
    # the same comparison as the pure module makes with the same knowledge
    upload = intake.validate_upload(
        "good_orin_power.csv", (UPLOADS / "good_orin_power.csv").read_bytes(), ROOT / "knowledge"
    ).upload
    kb, _ = knowledge.collect(ROOT / "knowledge", extra=[upload])
    expected = recheck.recheck(record.read(report, "r.md"), kb, name="r.md")
    assert expected.cells
    table = next(t for t in markdown_tables(app) if "criterion" in t.columns)
    assert table.to_dict("records") == expected.cell_rows()
    shown = "\n".join(m.value for m in app.markdown)
    assert "your files differ" in shown.replace("\\", "")


def test_recheck_refuses_a_report_of_the_previous_format_clearly() -> None:
    old = _recheck_report().split(b"\n## Decision record")[0]
    app = _page()
    app.file_uploader(key="my-data-recheck").set_value(("old.md", old, "text/markdown")).run()
    assert not app.exception, app.exception
    assert any("cannot be re-checked" in e.value and "carries no decision record" in e.value for e in app.error)


def test_recheck_applies_the_recorded_settings_on_request() -> None:
    from selector.knowledge import loading as knowledge
    from selector.report import build, render

    prefs = Preferences(group="edge-accelerators", method="topsis", dimension_weights={"performance": 70})
    built = build.build_report(knowledge.load(), prefs, samples=0)
    app = _page()
    data = render.render_markdown(built).encode("utf-8")
    app.file_uploader(key="my-data-recheck").set_value(("r.md", data, "text/markdown")).run()
    assert not app.exception, app.exception
    assert app.session_state["prefs"] != prefs
    app.button(key="my-data-recheck-apply").click().run()
    assert not app.exception, app.exception
    assert app.session_state["prefs"] == prefs
    assert app.query_params["method"] == "topsis"


def _claim_count(app) -> int:
    [line] = [c.value for c in app.sidebar.caption if " claims · " in c.value]
    return int(line.split(" claims · ")[0].rsplit("· ", 1)[-1].replace(",", ""))


def test_the_sidebar_counts_the_claims_of_a_file_as_soon_as_it_is_added():
    # issue 34: after an upload the sidebar still showed the old claim count until the next click
    app = _page()
    before = _claim_count(app)
    _upload(app, "good_orin_override.csv", (UPLOADS / "good_orin_override.csv").read_bytes())
    merged = knowledge.load(extra=list(app.session_state["uploads"]))
    assert _claim_count(app) == len(merged.claims) > before
