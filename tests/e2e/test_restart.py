"""A server restart in the middle of a session: the open page reconnects by itself and the link restores the
preferences, because they live in the URL and not in the server process."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from playwright.sync_api import Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import _serve

pytestmark = pytest.mark.e2e
TIMEOUT_MS = 60_000


def _connected_and_idle(page: Page) -> None:
    """The page talks to a live server and its last script run is drawn (a restart first shows it disconnected).

    Checked twice, a second apart: right after reconnecting the page looks idle until the new server's first run
    starts, and a key pressed in that moment is overtaken by that run.
    """
    for _ in range(2):
        page.wait_for_timeout(1000)
        page.wait_for_function(
            """() => {
                const app = document.querySelector('[data-testid=stApp]');
                return app && app.dataset.testConnectionState === 'CONNECTED'
                    && app.dataset.testScriptState === 'notRunning'
                    && !document.querySelector('[data-testid=stStatusWidget]');
            }""",
            timeout=TIMEOUT_MS,
        )


def _performance_slider(page: Page):
    return page.get_by_test_id("stMain").get_by_role("slider").first


def test_the_page_reconnects_after_a_restart_and_keeps_the_preferences(page: Page):
    with _serve.streamlit() as served:
        port = served.url.rsplit(":", 1)[1]
        page.goto(f"{served.url}/?w=performance%3D70")
        expect(_performance_slider(page)).to_have_attribute("aria-valuetext", "70", timeout=TIMEOUT_MS)
        _connected_and_idle(page)
    # the server is gone; the tab stays open while a new server starts on the same port
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stApp]')?.dataset.testConnectionState !== 'CONNECTED'",
        timeout=TIMEOUT_MS,
    )
    with _serve.streamlit(port=int(port)):
        _connected_and_idle(page)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        expect(page).to_have_url(re.compile(rf"127\.0\.0\.1:{port}/\?w=performance%3D70"))
        # Streamlit skips a rerun of a fragment the new server has not seen, so the four weight sliders (a fragment)
        # wake up with the next full run; a reload is one, and the link alone restores the preferences.
        page.reload()
        _connected_and_idle(page)
        slider = _performance_slider(page)
        expect(slider).to_have_attribute("aria-valuetext", "70", timeout=TIMEOUT_MS)
        slider.focus()
        slider.press("ArrowRight")
        expect(page).to_have_url(re.compile(rf"127\.0\.0\.1:{port}/\?.*w=performance%3D71"), timeout=TIMEOUT_MS)
