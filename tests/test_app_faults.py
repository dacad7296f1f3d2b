"""Faults a user meets on the My data page: the page says up front that uploads live in the session only."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def test_my_data_says_before_any_upload_that_files_live_in_the_session():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at = at.switch_page("app_pages/my_data.py").run()
    assert not at.exception
    notes = [info.value for info in at.info]
    assert any("this browser session only" in note and "decision profile" in note for note in notes), notes
