"""Time to produce the recommendation report in each format, against the targets (HTML < 2 s, PDF < 5 s).

"Produce" is build_report (ranking + robustness with 2000 samples) plus rendering. The first PDF of a process also
loads WeasyPrint and its fonts, so it is reported separately ("pdf (cold)"). Wall time is what a user waits; CPU
time of this process is steadier on a busy machine.
Run from the repository root: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_report.py``.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.report import build, pdf, render

GROUPS = ("gpu-inference-runtimes", "datacenter-accelerators")
TARGETS = {"markdown": None, "html": 2.0, "pdf (cold)": 5.0, "pdf": 5.0}
REPEATS = 3


def _timed(action: Callable[[], object]) -> tuple[float, float, object]:
    """(wall seconds, CPU seconds of this process, result)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main() -> None:
    kb = knowledge.load()
    first_build, _, _ = _timed(lambda: build.build_report(kb, Preferences(group=GROUPS[0])))
    print(f"first build_report of the process (imports scikit-criteria, scipy): {first_build:.2f} s")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall times grow with it)")
    cold_pdf_done = False
    for group in GROUPS:
        prefs = Preferences(group=group, answers={"goal": "industrial"})
        wall: dict[str, list[float]] = {name: [] for name in TARGETS}
        cpu: dict[str, list[float]] = {name: [] for name in TARGETS}
        sizes: dict[str, int] = {}
        for _ in range(REPEATS):
            build_wall, build_cpu, built = _timed(lambda prefs=prefs: build.build_report(kb, prefs))
            for name, draw in (
                ("markdown", render.render_markdown),
                ("html", render.render_html),
                ("pdf", pdf.render_pdf),
            ):
                seconds, cpu_seconds, output = _timed(lambda draw=draw, built=built: draw(built))
                key = name
                if name == "pdf" and not cold_pdf_done:
                    key, cold_pdf_done = "pdf (cold)", True
                wall[key].append(build_wall + seconds)
                cpu[key].append(build_cpu + cpu_seconds)
                sizes[name] = len(output)
        print(f"\n{group}: {len(built.options)} options, {len(built.criteria)} criteria, {len(built.evidence)} claims")
        print(f"{'format':<12}{'wall s':>8}{'cpu s':>8}{'target s':>10}{'ratio':>8}  size")
        for name, values in wall.items():
            if not values:
                continue
            median = statistics.median(values)
            target = TARGETS[name]
            ratio = f"{median / target:.2f}" if target else "-"
            size = f"{sizes[name.split(' ')[0]]:,} bytes"
            target_text = f"{target:.1f}" if target else "-"
            print(f"{name:<12}{median:>8.2f}{statistics.median(cpu[name]):>8.2f}{target_text:>10}{ratio:>8}  {size}")


if __name__ == "__main__":
    main()
