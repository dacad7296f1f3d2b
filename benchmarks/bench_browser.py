"""What a user feels, in a real server and browser: the app against a trivial Streamlit app measured in the same run.

Both are served by `streamlit run` on loopback ports (benchmarks/_timed_streamlit.py, which also times every
script run on the server) from the repository root, so .streamlit/config.toml applies to both, and driven by
Playwright in Debian chromium (launched as tests/e2e/conftest.py launches it). The trivial app has two pages in
the same top navigation as the app: "Hello" (``st.write("Hello, world")``) and "Slider" (a title, one slider and
a line of text). Steps alternate between the two apps, so the machine's load weighs on both; times are taken in
the page (benchmarks/_browser.py): from the key press, click or start of navigation to the first frame at which
everything the run sent is drawn.

Printed, each with its ratio or difference to the trivial app:

- weight change: an arrow key on the Recommend page's performance-weight slider (a fragment rerun) until the page
  is drawn, against the same key on the trivial slider (a whole rerun of its page). Target: within 2x.
- the server's run time of that rerun (the script plus Streamlit's work after it, post-run collection included).
- first render of Recommend for a new user (fresh browser context, nothing cached), on a warm server: the server
  has served a session before. Target: within 1.5 s of the trivial Hello page.
- the same on a cold server: the first session after the server starts (script imports, knowledge load).
- page switch: a click on each other page in the top navigation (and back to Recommend) until the new page is
  drawn, against switching between the trivial app's two pages. Target: median within 2x. A page with one tab per
  section (Frameworks, Accelerators, Robustness) is drawn as it opens: its first tab; the others are drawn when
  opened, each a rerun of its page.

With ``--memory N`` it measures instead the server's memory over N sequential sessions (each opens Recommend,
moves a weight and closes), with Streamlit's post-run garbage collection on (its default) and off (this app's
.streamlit/config.toml), alternating between the two servers; without a leak the second half adds little.

Usage: PYTHONPATH=. .venv/bin/python benchmarks/bench_browser.py [--rounds 5] [--cold 2] [--app app.py]
       PYTHONPATH=. .venv/bin/python benchmarks/bench_browser.py --memory 100
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _browser
from _browser import median

WEIGHT_RATIO_TARGET = 2.0
FIRST_RENDER_TARGET_MS = 1500.0
SWITCH_RATIO_TARGET = 2.0

TRIVIAL_APP = """
import streamlit as st


def hello():
    st.write("Hello, world")


def slider():
    st.title("Slider")
    value = st.slider("weight", 0, 100, 40, key="w")
    st.write(f"weight {value}")


st.navigation([st.Page(hello, title="Hello", default=True), st.Page(slider, title="Slider")], position="top").run()
"""

HELLO = "Hello, world"
# A heading of Recommend beside the ranking; with every grid drawn (the readiness rule), the answer is on screen.
RECOMMEND = "What matters to you"
# The app's other pages and a title each shows (their marker once drawn)
PAGES = {
    "Frameworks": "Frameworks and runtimes",
    "Accelerators": "Accelerators",
    "Evidence": "Evidence",
    "Techniques and cases": "Techniques, cases and resources",
    "Robustness": "How robust is the ranking?",
    "My data": "My data",
    "Export": "Export",
}


def _nav(page, title: str):  # noqa: ANN001, ANN202 - a Playwright Page; returns the click
    link = page.get_by_test_id("stTopNavLink").filter(has_text=title).first
    return link.click


def _press(page, key: str):  # noqa: ANN001, ANN202 - a Playwright Page; returns the key press
    slider = page.get_by_test_id("stMain").get_by_role("slider").first
    slider.focus()
    return lambda: page.keyboard.press(key)


def _run_ms(server: _browser.Server) -> float:
    return server.last_runs[-1][0] * 1000


def measure(app_script: str, rounds: int, cold: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}

    def add(key: str, value: float) -> None:
        out.setdefault(key, []).append(value)

    with tempfile.TemporaryDirectory() as folder, _browser.browser() as chromium:
        trivial = Path(folder) / "trivial.py"
        trivial.write_text(TRIVIAL_APP, encoding="utf-8")
        for _ in range(cold):
            with _browser.serve(trivial) as t:
                add("cold trivial", _browser.first_render(chromium, t, HELLO))
            with _browser.serve(app_script) as a:
                add("cold app", _browser.first_render(chromium, a, RECOMMEND))
        with _browser.serve(app_script) as a, _browser.serve(trivial) as t:
            _browser.first_render(chromium, a, RECOMMEND)  # the warm-up sessions
            _browser.first_render(chromium, t, HELLO)
            app_page, _ = _browser.opened(chromium, a, "", RECOMMEND)
            trivial_page, _ = _browser.opened(chromium, t, "/slider", "Slider")
            for r in range(rounds):
                add("first app", _browser.first_render(chromium, a, RECOMMEND))
                add("first app run", _run_ms(a))
                add("first trivial", _browser.first_render(chromium, t, HELLO))
                add("first trivial run", _run_ms(t))
                for step in range(4):
                    key = "ArrowRight" if step % 2 == 0 else "ArrowLeft"
                    add("weight app", _browser.after_input(app_page, a, _press(app_page, key), RECOMMEND))
                    add("run app", _run_ms(a))
                    add("weight trivial", _browser.after_input(trivial_page, t, _press(trivial_page, key), "Slider"))
                    add("run trivial", _run_ms(t))
                for title, marker in (*PAGES.items(), ("Recommend", RECOMMEND)):
                    add(f"switch {title}", _browser.after_input(app_page, a, _nav(app_page, title), marker))
                    add(f"switch {title} run", _run_ms(a))
                    add("switch app", out[f"switch {title}"][-1])
                    add("switch trivial", _browser.after_input(trivial_page, t, _nav(trivial_page, "Hello"), HELLO))
                    add("switch trivial run", _run_ms(t))
                    add("switch trivial", _browser.after_input(trivial_page, t, _nav(trivial_page, "Slider"), "Slider"))
                print(f"  round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
            out["rss app MB"] = [a.rss_mb()]
    return out


def memory(app_script: str, sessions: int) -> None:
    """Server memory over `sessions` sequential new sessions, with Streamlit's post-run collection on and off.

    Two servers of the app, one with ``--runner.postScriptGC true`` (Streamlit's default), one as configured
    (off); each session opens Recommend, moves a weight, and closes, alternating between the two servers.
    """
    configs = {"postScriptGC on": ("--runner.postScriptGC", "true"), "postScriptGC off": ()}
    rss: dict[str, list[float]] = {name: [] for name in configs}
    with _browser.browser() as chromium, contextlib.ExitStack() as stack:
        servers = {name: stack.enter_context(_browser.serve(app_script, *flags)) for name, flags in configs.items()}
        for name, server in servers.items():
            rss[name].append(server.rss_mb())
        for n in range(1, sessions + 1):
            for name, server in servers.items():
                page, _ = _browser.opened(chromium, server, "", RECOMMEND)
                _browser.after_input(page, server, _press(page, "ArrowRight"), RECOMMEND)
                page.context.close()
                if n % 10 == 0:
                    rss[name].append(server.rss_mb())
            if n % 10 == 0:
                print(f"  {n}/{sessions} sessions", file=sys.stderr, flush=True)
    print(f"server memory (RSS, MB) after every 10 of {sessions} sequential sessions:")
    for name, values in rss.items():
        half = len(values) // 2
        growth = values[-1] - values[half]
        print(f"  {name:<17} " + " ".join(f"{v:4.0f}" for v in values))
        print(f"  {'':<17} second half: {growth:+.0f} MB ({growth / values[half]:+.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds on the warm servers")
    parser.add_argument("--cold", type=int, default=2, help="cold starts of each server")
    parser.add_argument("--app", default="app.py", help="the app script (default app.py)")
    parser.add_argument(
        "--memory", type=int, default=0, metavar="N", help="instead: memory over N sessions, post-run gc on and off"
    )
    args = parser.parse_args()
    if args.memory:
        memory(args.app, args.memory)
        return
    t = measure(args.app, args.rounds, args.cold)
    m = {k: median(v) for k, v in t.items()}

    def ratio_line(label: str, app: str, floor: str, target: float | None = None) -> None:
        ratio = m[app] / m[floor]
        verdict = "" if target is None else f"  ({'within' if ratio <= target else 'ABOVE'} the {target:g}x target)"
        print(f"{label:<44} {m[app]:8.1f} ms vs {m[floor]:7.1f} ms trivial  {ratio:5.2f}x{verdict}")

    def diff_line(label: str, app: str, floor: str, target: float | None = None) -> None:
        diff = m[app] - m[floor]
        verdict = "" if target is None else f"  ({'within' if diff <= target else 'ABOVE'} the +{target:g} ms target)"
        print(
            f"{label:<44} {m[app]:8.1f} ms vs {m[floor]:7.1f} ms trivial  +{diff:6.0f} ms"
            f" {m[app] / m[floor]:5.2f}x{verdict}"
        )

    print(f"medians: {args.rounds} rounds on warm servers, {args.cold} cold starts")
    ratio_line("weight change, key press to page drawn", "weight app", "weight trivial", WEIGHT_RATIO_TARGET)
    ratio_line("  server run time of that rerun", "run app", "run trivial")
    diff_line("first render of Recommend, warm server", "first app", "first trivial", FIRST_RENDER_TARGET_MS)
    ratio_line("  server run time of that first run", "first app run", "first trivial run")
    diff_line("first render of Recommend, cold server", "cold app", "cold trivial")
    ratio_line("page switch (median over the pages)", "switch app", "switch trivial", SWITCH_RATIO_TARGET)
    for title in ("Recommend", *PAGES):
        ratio_line(f"  to {title}", f"switch {title}", "switch trivial")
        ratio_line("    server run time", f"switch {title} run", "switch trivial run")
    print(f"app server memory after the run: {m['rss app MB']:.0f} MB")


if __name__ == "__main__":
    main()
