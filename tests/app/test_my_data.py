"""The My data page through AppTest: valid uploads join the session's knowledge, bad ones are kept out; uploads live
in the session only."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from selector.knowledge import Upload
from tests.app.helpers import APP, ROOT, ok


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
