"""Fixtures of the AppTest tests: the bundled knowledge and a fresh app per test."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from selector import knowledge
from tests.app.helpers import APP


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture
def app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60)
