"""Every page of the app runs under AppTest and has a title."""

from __future__ import annotations

import pytest

from tests.app.helpers import PAGES, ok


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs(app, page):
    ok(app.run())
    ok(app.switch_page(f"app_pages/{page}.py").run())
    assert app.title, f"page {page} has a title"
