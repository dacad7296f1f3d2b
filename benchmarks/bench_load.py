"""Load test: K concurrent real-browser sessions on one server, the same through two replicas behind nginx, and
memory over many sequential sessions.

Each session is a Playwright context in Debian chromium that does what a user does first: open Recommend, move a
dimension weight, switch to three other pages (each as it opens: a page with one tab per section shows its first)
and download the Markdown report. A step's *settle time* runs from the
action to the page being drawn (no script running, no stale or skeleton element, every visible chart and grid drawn).

The load model is that of a load-testing tool (Locust, k6): users arrive over a ramp-up (``--ramp`` seconds for the
K sessions) and think between steps (``--think`` seconds on average, drawn uniformly from half to one and a half
times it, seeded), and every session stays open until the last has finished, so all K are connected at once. Think
time is not counted in a settle time. With ``--stress`` the same K sessions also run in lockstep (all at once, no
think time): not a model of users but of the CPU bound, printed for comparison. On this machine the browsers share
the server's two cores, so the stress figure measures the load generator as much as the app.

The browsers run at a lower CPU priority than the servers (``nice``; ``--same-priority`` turns that off): in use
each browser runs on its user's machine, and here a load generator that takes the server's CPU would measure itself.
They still share the two cores with each other, so a settle time includes the wait of a browser for its turn.

Printed, measured in this run:
- errors, median and p95 settle time for 1 session and for K concurrent sessions; p95 ratio K/1 (target <= 3x);
- the servers' own time per script run (the run and Streamlit's work after it, benchmarks/_timed_streamlit.py),
  median and p95 for 1 session and for K: what the server adds to a settle time, without the browsers' turns;
- the same K sessions through nginx in front of two replicas (sticky by cookie; deploy/nginx/sticky.conf.template);
- server memory: the process after start, after one warm-up session, and the increase per open session;
- memory over N sequential sessions (each closed before the next opens): RSS every 10 sessions and the growth over
  the second half, which levels off when closed sessions are released (target: < 5 % of the first half's RSS);
- with ``--downloads N``: N clicks on Export's Markdown button while three other sessions move a slider as fast as
  their pages redraw, and how many downloads arrived (a file made on the click was once swept away by the other
  sessions' runs before the browser fetched it: app_pages/_cached.py).

Usage: PYTHONPATH=. python benchmarks/bench_load.py [--sessions 20] [--think 5] [--ramp 10] [--stress]
       [--sequential 100] [--skip-replicas] [--same-priority] [--downloads 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _serve
from playwright.async_api import Browser, async_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
TIMEOUT_MS = 120_000
PAGES = ("Frameworks", "Accelerators", "Evidence")
STEPS = ("open Recommend", "move a weight", *(f"open {name}" for name in PAGES), "open Export", "download Markdown")

# Same readiness rule as tests/e2e/test_browser.py: drawn, not just delivered.
RENDERED = """() => {
    const app = document.querySelector('[data-testid=stApp]');
    if (!app || app.dataset.testScriptState !== 'notRunning') return false;
    const busy = "[data-testid=stStatusWidget], [data-testid=stSkeleton], [data-stale=true]";
    if (document.querySelector(busy)) return false;
    const shown = s => [...document.querySelectorAll(s)].filter(e => e.checkVisibility());
    if (!shown('[data-testid=stPlotlyChart]').every(c => c.querySelector('.js-plotly-plot .main-svg'))) return false;
    return shown('[data-testid=stDataFrame]').every(g => g.querySelector('canvas') && g.querySelector('table'));
}"""


async def _settled(page) -> None:
    # Twice, 300 ms apart: a rerun's first message can arrive just after the previous state looked settled.
    for _ in range(2):
        await page.wait_for_timeout(300)
        await page.wait_for_function(RENDERED, timeout=TIMEOUT_MS)


async def _timed(steps: list[float], page, action) -> None:
    start = time.perf_counter()
    await action()
    await _settled(page)
    # the two 300 ms confirmation pauses are the harness's, not the app's
    steps.append(time.perf_counter() - start - 0.6)


@dataclass(frozen=True)
class Model:
    """How users arrive and pause: sessions start `ramp` seconds apart in all, and think ~`think` s between steps."""

    think: float = 0.0
    ramp: float = 0.0
    seed: int = 0

    def describe(self, count: int) -> str:
        if not self.think and not self.ramp:
            return f"{count} sessions in lockstep (all at once, no think time)"
        return (
            f"{count} sessions arriving over {self.ramp:g} s, thinking {self.think / 2:g}-{self.think * 1.5:g} s "
            "between steps, all open until the last finishes"
        )


async def session(
    browser: Browser, url: str, *, barrier: asyncio.Barrier | None = None, model: Model = Model(), index: int = 0
) -> tuple[list[float], str]:
    """One user's first minute; returns the settle time of each step and an error text ('' when none)."""
    rng = random.Random(model.seed * 1_000 + index)

    async def think() -> None:
        if model.think:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * model.think)

    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    # every wait, the first navigation's included (Playwright's default is 30 s), is the load test's own limit
    context.set_default_timeout(TIMEOUT_MS)
    page = await context.new_page()
    steps: list[float] = []
    try:
        await _timed(steps, page, lambda: page.goto(url))
        slider = page.get_by_test_id("stMain").get_by_role("slider").first

        async def move_weight() -> None:
            await slider.focus()
            await slider.press("ArrowRight")

        await think()
        await _timed(steps, page, move_weight)
        for name in PAGES:
            await think()
            await _timed(steps, page, lambda name=name: page.get_by_role("link", name=name).first.click())
        await think()
        await _timed(steps, page, lambda: page.get_by_role("link", name="Export").first.click())
        await think()
        start = time.perf_counter()
        async with page.expect_download(timeout=TIMEOUT_MS) as download:
            await page.get_by_role("button", name="Markdown").first.click()
        if "# " not in Path(await (await download.value).path()).read_text(encoding="utf-8"):
            return steps, "the Markdown report is empty"
        steps.append(time.perf_counter() - start)
        if await page.get_by_test_id("stException").count():
            return steps, "an exception box is shown"
        return steps, ""
    except Exception as exc:  # a load test counts failures instead of stopping at the first
        return steps, f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
    finally:
        # sessions stay open until every one has finished its steps, so that memory is read with all of them open
        if barrier is not None:
            await barrier.wait()
        await context.close()


async def downloads_while_busy(browser: Browser, url: str, clicks: int) -> tuple[int, list[str]]:
    """`clicks` Markdown downloads on Export while three other sessions rerun without pause; (arrived, errors)."""
    busy = []
    for _ in range(3):
        page = await (await browser.new_context()).new_page()
        page.set_default_timeout(TIMEOUT_MS)
        await page.goto(url)
        await _settled(page)
        busy.append(page)
    done = asyncio.Event()

    async def move(page) -> None:  # noqa: ANN001 - a Playwright Page
        slider = page.get_by_test_id("stMain").get_by_role("slider").first
        await slider.focus()
        step = 0
        while not done.is_set():
            await page.keyboard.press("ArrowRight" if step % 2 == 0 else "ArrowLeft")
            step += 1
            await asyncio.sleep(0.02)

    movers = [asyncio.create_task(move(page)) for page in busy]
    page = await (await browser.new_context()).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    arrived, errors = 0, []
    try:
        await page.goto(url + "/export")
        await _settled(page)
        for _ in range(clicks):
            try:
                async with page.expect_download() as download:
                    await page.get_by_role("button", name="Markdown").first.click()
                await (await download.value).path()
                arrived += 1
            except Exception as exc:  # counted, as the load test counts failures
                errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
            await asyncio.sleep(0.3)
    finally:
        done.set()
        await asyncio.gather(*movers, return_exceptions=True)
        for each in (*busy, page):
            await each.context.close()
    return arrived, errors


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18] if len(values) > 1 else values[0]


async def concurrent(browser: Browser, served: _serve.Served, count: int, model: Model) -> dict:
    """COUNT sessions under `model`; memory is read while all of them are still open."""
    barrier = asyncio.Barrier(count + 1)
    before = sum(_serve.rss_mb(pid) for pid in served.pids)

    async def arriving(index: int) -> tuple[list[float], str]:
        await asyncio.sleep(model.ramp * index / count)
        return await session(browser, served.url, barrier=barrier, model=model, index=index)

    server_cpu = sum(_serve.cpu_seconds(pid) for pid in served.pids)
    browser_cpu = _serve.browser_cpu_seconds()
    runs_before = len(served.run_seconds())
    wall = time.perf_counter()
    tasks = [asyncio.create_task(arriving(i)) for i in range(count)]
    await barrier.wait()
    during = sum(_serve.rss_mb(pid) for pid in served.pids)
    # CPU used while the sessions ran, by the server processes and by the browsers (they share this machine's cores)
    server_cpu = sum(_serve.cpu_seconds(pid) for pid in served.pids) - server_cpu
    browser_cpu = _serve.browser_cpu_seconds() - browser_cpu
    wall = time.perf_counter() - wall
    runs = served.run_seconds()[runs_before:]
    results = await asyncio.gather(*tasks)
    settle = [t for steps, _ in results for t in steps]
    by_step = {name: [steps[i] for steps, _ in results if len(steps) > i] for i, name in enumerate(STEPS)}
    return {
        "by_step": {name: statistics.median(times) for name, times in by_step.items() if times},
        "errors": [error for _, error in results if error],
        "median": statistics.median(settle),
        "p95": _p95(settle),
        "per_session_mb": (during - before) / count,
        "cpu": (server_cpu, browser_cpu, wall),
        "runs": runs,
        "model": model.describe(count),
    }


async def sequential(browser: Browser, served: _serve.Served, count: int) -> list[tuple[int, float]]:
    samples = [(0, _serve.rss_mb(served.pids[0]))]
    for done in range(1, count + 1):
        _, error = await session(browser, served.url)
        if error:
            print(f"  session {done}: {error}")
        if done % 10 == 0:
            samples.append((done, _serve.rss_mb(served.pids[0])))
            print(f"  after {done:3d} sessions: {samples[-1][1]:7.1f} MB", flush=True)
    return samples


def _report(label: str, single: dict, many: dict, count: int) -> None:
    ratio = many["p95"] / single["p95"]
    verdict = "within" if ratio <= 3 and not many["errors"] else "OUTSIDE"
    print(f"{label}: {many['model']}; {len(many['errors'])} errors")
    for error in many["errors"][:5]:
        print(f"  error: {error}")
    print(f"  settle time  1 session: median {single['median']:.2f} s, p95 {single['p95']:.2f} s")
    print(f"  settle time {count:2d} sessions: median {many['median']:.2f} s, p95 {many['p95']:.2f} s")
    print(f"  p95 ratio {count}/1: {ratio:.2f}x ({verdict} the 3x target)")
    one, all_runs = single["runs"], many["runs"]
    if one and all_runs:
        print(
            f"  server time per script run: 1 session median {statistics.median(one) * 1000:.0f} ms, "
            f"p95 {_p95(one) * 1000:.0f} ms; {count} sessions median {statistics.median(all_runs) * 1000:.0f} ms, "
            f"p95 {_p95(all_runs) * 1000:.0f} ms ({len(all_runs)} runs; p95 ratio {_p95(all_runs) / _p95(one):.2f}x)"
        )
    print(f"  server memory per open session: {many['per_session_mb']:.1f} MB")
    server_cpu, browser_cpu, wall = many["cpu"]
    print(
        f"  CPU over the {wall:.0f} s run ({os.cpu_count()} cores): server {server_cpu:.1f} s, browsers "
        f"{browser_cpu:.1f} s ({browser_cpu / max(server_cpu + browser_cpu, 1e-9):.0%} of the two)"
    )
    steps = ", ".join(f"{name} {many['by_step'][name]:.2f}" for name in STEPS if name in many["by_step"])
    print(f"  median settle by step, {count} sessions (s): {steps}")


def _low_priority_chromium(folder: Path) -> str:
    """A launcher that runs Debian chromium at nice 19, so that the servers get the CPU first when both want it.

    The lowest priority, because twenty browser pages are dozens of processes against one server process. It shields
    the server only in part: its p95 time per run still rose 3x to 6x with 20 sessions (1x once), against the
    settle times' 30x to 50x."""
    launcher = folder / "chromium"
    launcher.write_text(f'#!/bin/sh\nexec nice -n 19 {CHROMIUM} "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    return str(launcher)


async def main(args: argparse.Namespace) -> int:
    users = Model(think=args.think, ramp=args.ramp)
    with tempfile.TemporaryDirectory(prefix="selector-load-") as folder:
        executable = CHROMIUM if args.same_priority else _low_priority_chromium(Path(folder))
        print(f"browsers: {'same priority as the servers' if args.same_priority else 'nice 19 (servers first)'}")
        await _run(args, users, executable)
    return 0


async def _run(args: argparse.Namespace, users: Model, executable: str) -> None:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=executable, headless=True, args=ARGS)
        with _serve.streamlit(session_ttl=5, timed=True) as served:
            started = _serve.rss_mb(served.pids[0])
            await session(browser, served.url)  # warm-up: caches, first imports
            warm = _serve.rss_mb(served.pids[0])
            print(f"server memory: {started:.0f} MB after start, {warm:.0f} MB after one session")
            single = await concurrent(browser, served, 1, users)
            _report("one server", single, await concurrent(browser, served, args.sessions, users), args.sessions)
            if args.stress:
                lockstep = await concurrent(browser, served, args.sessions, Model())
                _report("one server, stress (not a user model)", single, lockstep, args.sessions)
            if args.downloads:
                arrived, errors = await downloads_while_busy(browser, served.url, args.downloads)
                print(f"downloads while three sessions rerun: {arrived} of {args.downloads} arrived")
                for error in errors[:5]:
                    print(f"  error: {error}")
            if args.sequential:
                print(f"memory over {args.sequential} sequential sessions (closed sessions kept 5 s for reconnects):")
                samples = await sequential(browser, served, args.sequential)
                half = samples[len(samples) // 2][1]
                growth = samples[-1][1] - half
                verdict = "levels off" if growth < 0.05 * half else "KEEPS GROWING"
                print(f"  second-half growth: {growth:+.1f} MB ({growth / half:+.1%} of {half:.0f} MB): {verdict}")
        if not args.skip_replicas:
            with _serve.replicas(2, session_ttl=5, timed=True) as served:
                # each replica warmed up through its own address: through nginx both could land on one of them
                for backend in served.backends:
                    await session(browser, backend)
                single = await concurrent(browser, served, 1, users)
                many = await concurrent(browser, served, args.sessions, users)
                _report("two replicas behind nginx", single, many, args.sessions)
        await browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20, help="concurrent sessions (default 20)")
    parser.add_argument("--think", type=float, default=5.0, help="mean think time between steps, s (default 5)")
    parser.add_argument("--ramp", type=float, default=10.0, help="the sessions arrive over this many s (default 10)")
    parser.add_argument("--stress", action="store_true", help="also run the sessions in lockstep (no think time)")
    parser.add_argument("--sequential", type=int, default=100, help="sequential sessions for the leak check")
    parser.add_argument("--skip-replicas", action="store_true", help="skip the two-replica nginx run")
    parser.add_argument(
        "--downloads", type=int, default=30, help="Markdown downloads while three sessions rerun (default 30)"
    )
    parser.add_argument(
        "--same-priority", action="store_true", help="run the browsers at the servers' CPU priority (no nice)"
    )
    sys.exit(asyncio.run(main(parser.parse_args())))
