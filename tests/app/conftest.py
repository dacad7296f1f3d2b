"""Fixtures of the AppTest tests: the bundled knowledge, a fresh app per test and the files its runs offer."""

from __future__ import annotations

import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from selector.knowledge import loading as knowledge
from tests.app.helpers import APP


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture
def app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60)


@pytest.fixture
def media(monkeypatch) -> list[MediaFileManager]:
    """The media file managers of the app's runs, so a test reads what a download button would send."""
    made: list[MediaFileManager] = []

    class Recording(MediaFileManager):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(app_test_module, "MediaFileManager", Recording)
    return made
