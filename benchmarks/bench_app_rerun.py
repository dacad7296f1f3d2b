"""Server-side cost of one app rerun after a weight change, against the floor of an empty Streamlit script.

Runs the app under AppTest (no browser, no network) and reports, for the median of N reruns, the wall time of
``AppTest.run()`` (the script plus Streamlit's own handling of its messages) and, inside it, the time spent
executing the script itself. Target: the app's rerun at most 3x the empty script's.

A running server compiles each script once and keeps the bytecode in one ScriptCache; AppTest makes a new cache on
every run and so recompiles (and re-parses for "magic") every page each time. The benchmark gives AppTest one
shared cache, for the app and the floor alike, so that the figures are those of a server.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_app_rerun.py [--reruns 20]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from streamlit.runtime.scriptrunner import script_runner
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest, app_test, local_script_runner

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
TARGET_RATIO = 3.0
_SCRIPT_SECONDS: list[float] = []


def _instrument() -> None:
    """Share one ScriptCache between runs (as a server does) and time each script execution."""
    shared = ScriptCache()
    app_test.ScriptCache = lambda: shared
    local_script_runner.ScriptCache = lambda: shared
    run_script = script_runner.exec_func_with_error_handling

    def timed(func: Callable[[], Any], ctx: Any) -> Any:
        start = time.perf_counter()
        try:
            return run_script(func, ctx)
        finally:
            _SCRIPT_SECONDS.append(time.perf_counter() - start)

    script_runner.exec_func_with_error_handling = timed


def _timed(at: AppTest) -> tuple[float, float]:
    """(wall seconds of one AppTest rerun, seconds of script execution inside it)."""
    _SCRIPT_SECONDS.clear()
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"the script raised: {at.exception[0].value}")
    return elapsed, sum(_SCRIPT_SECONDS)


def app_reruns(reruns: int) -> list[tuple[float, float]]:
    """Timings of reruns of the Recommend page, each after moving the performance slider to a new value."""
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()  # cold start: imports, knowledge load, caches
    at.slider(key="w-performance").set_value(39)
    at.run()  # the first scoring call imports scikit-criteria
    times = []
    for step in range(reruns):
        # a value not seen before, so no cached ranking or robustness result can answer it
        at.slider(key="w-performance").set_value(41 + step)
        times.append(_timed(at))
    return times


def empty_reruns(reruns: int) -> list[tuple[float, float]]:
    """Timings of reruns of a script that does nothing: the floor Streamlit itself costs."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "empty.py"
        script.write_text("import streamlit as st  # noqa: F401\n", encoding="utf-8")
        at = AppTest.from_file(str(script), default_timeout=60)
        at.run()
        return [_timed(at) for _ in range(reruns)]


def _median_ms(timings: list[tuple[float, float]], index: int) -> float:
    return statistics.median(t[index] for t in timings) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=20, help="reruns to time (median reported)")
    args = parser.parse_args()
    _instrument()
    app = app_reruns(args.reruns)
    floor = empty_reruns(args.reruns)
    app_wall, app_script = _median_ms(app, 0), _median_ms(app, 1)
    floor_wall, floor_script = _median_ms(floor, 0), _median_ms(floor, 1)
    ratio = app_wall / floor_wall
    print(f"medians over {args.reruns} reruns")
    print(f"app rerun after a weight change: {app_wall:7.1f} ms (script execution {app_script:.1f} ms)")
    print(f"empty script rerun (floor):      {floor_wall:7.1f} ms (script execution {floor_script:.2f} ms)")
    verdict = "within" if ratio <= TARGET_RATIO else "ABOVE"
    print(f"ratio: {ratio:.1f}x ({verdict} the {TARGET_RATIO:g}x target)")


if __name__ == "__main__":
    main()
