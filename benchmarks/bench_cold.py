"""Cold paths: whole processes as a user or a script starts them, against `python -c pass` and a bare Streamlit start.

Everything is measured in this one run, in interleaved rounds (each round runs every command once), so the load of
a shared machine weighs on all of them alike; medians are printed.

- the floors: ``python -c pass``, and a bare Streamlit start (``streamlit run`` of a hello-world script until its
  health endpoint answers);
- ``python -m selector validate`` and ``python -m selector report`` as Markdown, HTML and PDF, as whole processes.
  Targets: PDF under 5 s, HTML under 2 s;
- the first page in a real browser on a cold server: from starting the server as users do (``python serve.py``,
  which warms the first page up while Streamlit starts) to Recommend drawn in Debian chromium
  (benchmarks/_browser.py), against ``streamlit run`` of the hello-world script. Target: within 1 s of it;
- which of the heavy libraries each command's own process imports (scikit-criteria, WeasyPrint, kaleido, plotly;
  the PDF's WeasyPrint is imported by its worker process, selector.report.pdf.PdfWorker): each only
  where it is used.

Usage: PYTHONPATH=. .venv/bin/python benchmarks/bench_cold.py [--rounds 3] [--group training-frameworks]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _browser
from _browser import median

ROOT = Path(__file__).resolve().parents[1]
TARGETS_S = {"report pdf": 5.0, "report html": 2.0}
FIRST_PAGE_TARGET_S = 1.0
HEAVY = ("skcriteria", "weasyprint", "kaleido", "plotly")
HELLO = 'import streamlit as st\n\nst.write("Hello, world")\n'
# Prints the heavy libraries a command imported, after running it as `python -m selector` would.
_IMPORTS_OF = (
    "import runpy, sys\n"
    "sys.argv = ['selector', *sys.argv[1:]]\n"
    "try:\n    runpy.run_module('selector', run_name='__main__')\n"
    "except SystemExit:\n    pass\n"
    f"print('IMPORTED', ' '.join(m for m in {HEAVY!r} if m in sys.modules))\n"
)


def _seconds(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": "."})
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr[-2000:]}")
    return elapsed


def _imports(args: list[str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS_OF, *args], cwd=ROOT, capture_output=True, text=True, check=True
    )
    line = next(x for x in done.stdout.splitlines() if x.startswith("IMPORTED"))
    return line.removeprefix("IMPORTED").strip() or "none of them"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--group", default="training-frameworks", help="the group the reports rank")
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        hello = out / "hello.py"
        hello.write_text(HELLO, encoding="utf-8")
        report = [py, "-m", "selector", "report", "--group", args.group, "-o"]
        commands = {
            "python -c pass": [py, "-c", "pass"],
            "validate": [py, "-m", "selector", "validate"],
            "report md": [*report, str(out / "r.md")],
            "report html": [*report, str(out / "r.html")],
            "report pdf": [*report, str(out / "r.pdf")],
        }
        t: dict[str, list[float]] = {}
        with _browser.browser() as chromium:
            for r in range(args.rounds):
                for name, command in commands.items():
                    t.setdefault(name, []).append(_seconds(command))
                pages = (("hello", hello, "Hello, world"), ("app", "app.py", "What matters to you"))
                for name, script, marker in pages:
                    start = time.perf_counter()
                    with _browser.serve(script) as server:
                        started = time.perf_counter() - start
                        drawn_ms = _browser.first_render(chromium, server, marker)
                    t.setdefault(f"start {name}", []).append(started)
                    t.setdefault(f"first page {name}", []).append(started + drawn_ms / 1000)
                print(f"  round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    m = {k: median(v) for k, v in t.items()}
    floor, bare = m["python -c pass"], m["start hello"]
    print(f"medians of {args.rounds} interleaved rounds")
    print(f"{'':<44} {'seconds':>8} {'/ pass':>8} {'/ bare st':>10}")

    def line(label: str, key: str, verdict: str = "") -> None:
        print(f"{label:<44} {m[key]:8.2f} {m[key] / floor:7.1f}x {m[key] / bare:9.2f}x{verdict}")

    line("python -c pass", "python -c pass")
    line("bare Streamlit start (hello world, health)", "start hello")
    line("app server start (health)", "start app")
    for name in ("validate", "report md", "report html", "report pdf"):
        target = TARGETS_S.get(name)
        verdict = "" if target is None else f"  ({'within' if m[name] < target else 'ABOVE'} the {target:g} s target)"
        line(f"python -m selector {name}", name, verdict)
    line("first page drawn, cold server: hello world", "first page hello")
    diff = m["first page app"] - m["first page hello"]
    verdict = "within" if diff <= FIRST_PAGE_TARGET_S else "ABOVE"
    line(
        "first page drawn, cold server: Recommend",
        "first page app",
        f"  (+{diff:.2f} s, {verdict} the +{FIRST_PAGE_TARGET_S:g} s target)",
    )
    print("heavy libraries imported (of " + ", ".join(HEAVY) + "):")
    # into a real file: `report -o /dev/null` is refused (a device) before it ranks, which would import nothing
    with tempfile.TemporaryDirectory() as folder:
        for label, argv in (
            ("validate", ["validate"]),
            ("rank", ["rank", "--group", args.group]),
            *(
                (f"report {fmt}", ["report", "--group", args.group, "-o", str(Path(folder) / f"r.{fmt}")])
                for fmt in ("md", "html", "pdf")
            ),
        ):
            print(f"  {label:<12} {_imports(argv)}")


if __name__ == "__main__":
    main()
