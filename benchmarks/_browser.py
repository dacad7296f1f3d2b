"""Shared by the browser benchmarks: a timed Streamlit server, Debian chromium, and times taken inside the page.

Not a benchmark itself (the leading underscore keeps `make bench` from running it).

Times are read in the page (``performance.now()``), not around Playwright calls, so the round trips between this
process and the browser are not counted. A step runs from the user's input (the key press or click event, or the
start of the navigation) to the first animation frame at which the page is *drawn*: the script run the input
caused has finished and everything it sent is on screen (the readiness rule of tests/e2e/test_browser.py: no
running indicator, no stale element or skeleton, every visible plotly chart with its SVG, every visible data grid
with its canvas and table), and the page's marker element is there.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import _serve  # a sibling module: benchmarks/ is a folder of scripts, run from there

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
# As tests/e2e/conftest.py launches it: Debian's chromium, sandbox off for containers, nothing phoning home.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
VIEWPORT = {"width": 1440, "height": 1000}
STARTUP_SECONDS = 120
STEP_TIMEOUT_MS = 60_000

# Installed in every page before its own scripts. The page notes the arrival time of every message from the
# server. `arm(marker)` before an input: the next key press or pointer press starts a record, frame by frame, of
# whether the page is drawn and shows `marker`; with LOAD_MARKER set, the record starts with the navigation.
# `settled()` (called once the server has logged the end of the run) resolves with the milliseconds from the input
# (or the start of the navigation) to the first recorded frame, after the last message, at which the page was
# drawn and showed `marker`; it waits for the server to fall quiet first, so no message of the run is still due.
PAGE_CLOCK = """
(() => {
  const bench = {lastMessage: -1};
  window.__bench = bench;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => {
        bench.lastMessage = performance.now();
        bench.firstMessage = bench.firstMessage || bench.lastMessage;
      });
    }
  };
  const drawn = () => {
    const app = document.querySelector('[data-testid=stApp]');
    if (!app || app.dataset.testScriptState !== 'notRunning') return false;
    const busy = "[data-testid=stStatusWidget], [data-testid=stSkeleton], [data-stale=true]";
    if (document.querySelector(busy)) return false;
    const shown = s => [...document.querySelectorAll(s)].filter(e => e.checkVisibility());
    if (!shown('[data-testid=stPlotlyChart]').every(c => c.querySelector('.js-plotly-plot .main-svg'))) return false;
    return shown('[data-testid=stDataFrame]').every(g => {
      const canvas = g.querySelector('canvas');
      return canvas && canvas.getBoundingClientRect().height > 0 && g.querySelector('table');
    });
  };
  const marked = text => [...document.querySelectorAll('h1, h2, h3, p')].some(e => e.textContent.includes(text));
  let record = null;
  const start = (marker, t0) => {
    record = {marker, t0, frames: []};
    const mine = record;
    const frame = () => {
      if (record !== mine) return;
      // Until the server answers the input the page cannot be settled (settled() wants a frame after a message
      // that came after the input), so the DOM is not searched: on a large page the search would take the
      // main thread from the page's own work and count as the app's time.
      const answered = bench.lastMessage > mine.t0;
      mine.frames.push([performance.now(), answered && drawn() && marked(marker)]);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  };
  let armed = null;
  bench.arm = marker => { armed = marker; record = null; };
  const onInput = e => {
    if (armed === null) return;
    start(armed, e.timeStamp);
    armed = null;
  };
  window.addEventListener('keydown', onInput, true);
  window.addEventListener('pointerdown', onInput, true);
  if (window.LOAD_MARKER) start(window.LOAD_MARKER, 0);
  const QUIET_MS = 150;
  bench.settled = () => new Promise((resolve, reject) => {
    const mine = record;
    const limit = performance.now() + STEP_TIMEOUT_MS;
    const check = () => {
      const now = performance.now();
      if (mine && now - bench.lastMessage > QUIET_MS) {
        const hit = mine.frames.find(([t, ok]) => ok && t >= bench.lastMessage && bench.lastMessage > mine.t0);
        if (hit) { record = null; resolve(hit[0] - mine.t0); return; }
      }
      if (now > limit) {
        const shows = mine && marked(mine.marker);
        reject(new Error(`not settled: ${mine && mine.marker} (drawn ${drawn()}, marker shown ${shows}, `
                         + `last message ${bench.lastMessage})`));
        return;
      }
      setTimeout(check, 20);
    };
    check();
  });
})();
""".replace("STEP_TIMEOUT_MS", str(STEP_TIMEOUT_MS))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    """A `streamlit run` of one script, its URL and the script runs it has timed (seconds, "page"/"fragment")."""

    url: str
    process: subprocess.Popen
    run_log: Path
    last_runs: list[tuple[float, str]] = field(default_factory=list)  # the runs of the last step
    _seen: int = field(default=0)

    def runs(self) -> list[tuple[float, str]]:
        lines = self.run_log.read_text(encoding="utf-8").splitlines() if self.run_log.exists() else []
        return [(float(s), kind) for s, kind in (line.split() for line in lines)]

    def new_runs(self) -> list[tuple[float, str]]:
        """The runs timed since the last call."""
        runs = self.runs()
        fresh, self._seen = runs[self._seen :], len(runs)
        return fresh

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError(f"no VmRSS for process {self.process.pid}")


@contextlib.contextmanager
def serve(script: Path | str, *options: str) -> Iterator[Server]:
    """Serve `script` from the repository root (so .streamlit/config.toml applies), timed; stop it at the end.

    The app is served as users get it (serve.py, warmed up), any other script by a plain ``streamlit run``.
    `options` are extra ``--section.option value`` flags for ``streamlit run``.
    """
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="selector-bench-"))
    run_log = folder / "runs.txt"
    how = ["serve"] if (ROOT / script).resolve() == _serve.APP else ["run", str(script)]
    command = [sys.executable, str(ROOT / "benchmarks" / "_timed_streamlit.py"), *how]
    command += ["--server.port", str(port), "--server.headless", "true", "--server.address", "127.0.0.1"]
    command += ["--browser.gatherUsageStats", "false", *options]
    env = {**os.environ, "SELECTOR_RUN_LOG": str(run_log), "PYTHONPATH": str(ROOT)}
    with (folder / "server.log").open("w") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        # polled every 50 ms: the benchmarks start a server per case, and none should wait longer than it must
        _serve.wait_healthy(url, process, f"streamlit (log: {folder / 'server.log'})", 0.05, STARTUP_SECONDS)
        yield Server(url, process, run_log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@contextlib.contextmanager
def browser() -> Iterator[object]:
    """Debian chromium through Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def new_page(chromium: object, load_marker: str | None = None):  # noqa: ANN201 - a Playwright Page
    """A page in a fresh context (a new user: no cookies, no cached files), with the page clock installed.

    With `load_marker`, the clock times the first navigation until the page is drawn and shows that text.
    """
    context = chromium.new_context(viewport=VIEWPORT)
    if load_marker is not None:
        context.add_init_script(f"window.LOAD_MARKER = {json.dumps(load_marker)};")
    context.add_init_script(PAGE_CLOCK)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    return page


def _run_ended(server: Server) -> None:
    deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
    while not (runs := server.new_runs()):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server at {server.url} logged no script run")
        time.sleep(0.01)
    server.last_runs = runs


def opened(chromium: object, server: Server, path: str, marker: str) -> tuple[object, float]:
    """A new user's page at `path` of `server`, and the milliseconds from the start of the navigation until it is
    drawn and shows `marker`."""
    server.new_runs()
    page = new_page(chromium, marker)
    page.goto(server.url + path, wait_until="commit")
    _run_ended(server)
    return page, float(page.evaluate("() => window.__bench.settled()"))


def first_render(chromium: object, server: Server, marker: str) -> float:
    """Milliseconds from the start of a new user's navigation until the page is drawn and shows `marker`."""
    page, ms = opened(chromium, server, "", marker)
    page.context.close()
    return ms


def after_input(page, server: Server, act, marker: str) -> float:  # noqa: ANN001 - Playwright Page, callable
    """Milliseconds from the key press or click that `act()` makes until the page is drawn and shows `marker`."""
    server.new_runs()
    page.evaluate("m => window.__bench.arm(m)", marker)
    act()
    _run_ended(server)
    return float(page.evaluate("() => window.__bench.settled()"))


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")
