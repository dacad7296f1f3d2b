"""Real-browser fixtures: the app served as users get it (serve.py, `streamlit run app.py` warmed up) on a free port,
and Debian's chromium for Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
STARTUP_SECONDS = 60


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict:
    """Launch Debian's chromium (never a downloaded browser), sandbox off for containers, nothing phoning home."""
    return {
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    """A desktop-sized window, so the sidebar and the two-column layouts show as users see them."""
    return {**browser_context_args, "viewport": {"width": 1440, "height": 1000}}


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """Serve app.py through serve.py on a free port; wait for its health endpoint; stop it at the end."""
    port = _free_port()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log = (ARTIFACTS / "server.log").open("w")
    command = [
        sys.executable,
        "serve.py",
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--server.address",
        "127.0.0.1",
        "--browser.gatherUsageStats",
        "false",
    ]
    server = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"streamlit exited with code {server.returncode}; see {ARTIFACTS / 'server.log'}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not answer /_stcore/health within {STARTUP_SECONDS} s")
            time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
