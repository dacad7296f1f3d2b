"""Every page of the app runs under AppTest and has a title."""

from __future__ import annotations

import pytest

from tests.app.helpers import PAGES, ok


@pytest.mark.parametrize("name", PAGES)
def test_every_page_runs(app, name):
    ok(app.run())
    ok(app.switch_page(f"app_pages/{name}.py").run())
    assert app.title, f"page {name} has a title"
