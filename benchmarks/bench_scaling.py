"""Cost that grows with the evidence: validate, rank, sensitivity, the three report formats and the app's first
render on synthetic knowledge bases 1x, 10x and 100x today's (benchmarks/_synthetic.py: claims, entities and group
members multiplied).

Each task runs in a fresh process per size, so that its peak memory (ru_maxrss) is its own; the heavy libraries
(scikit-criteria, WeasyPrint, plotly, Streamlit) are imported before the clock starts, because their import costs
the same at every size. The parsed-file cache (selector.io.parse_cache) starts empty in a scratch folder: validate, the
first task at each size, pays for parsing the YAML, as a first load does; the tasks after it read the cache, as every
later command does. Printed per task: seconds and peak MB at each size, the time ratio 100x/1x (target <= ~100)
and the growth exponent between 10x and 100x (1.0 = linear), plus the PDF at 100x against its one-minute target.

Usage: PYTHONPATH=. python benchmarks/bench_scaling.py [--sizes 1,10,100] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import _synthetic  # noqa: E402  (a sibling module, not a package)

SENSITIVITY_GROUP = "datacenter-accelerators"
_CACHE = "off"  # the parse cache's folder, a scratch one per run (set in main)
TASKS = ("validate", "rank", "sensitivity", "report-md", "report-html", "report-pdf", "app-first-render")


def _cli(argv: list[str]) -> None:
    from selector.__main__ import main

    with open(os.devnull, "w") as sink:
        saved = sys.stdout
        sys.stdout = sink
        try:
            code = main(argv)
        finally:
            sys.stdout = saved
    if code != 0:
        raise RuntimeError(f"python -m selector {' '.join(argv)} exited {code}")


def _prepare(task: str) -> None:
    """Import what the task needs before timing it: imports cost the same at every size."""
    import selector.knowledge.loading  # noqa: F401
    from selector.decision import scoring

    scoring.score  # noqa: B018
    import skcriteria.agg.simple  # noqa: F401

    if task == "report-pdf":
        import weasyprint  # noqa: F401
    if task == "app-first-render":
        from streamlit.testing.v1 import AppTest  # noqa: F401


def _run(task: str, knowledge: Path) -> None:
    common = ["--knowledge", str(knowledge)]
    if task == "validate":
        _cli(["validate", *common])
    elif task == "rank":
        from selector.knowledge import loading as loader

        for group in loader.load(knowledge).groups:
            _cli(["rank", "--group", group, "--format", "json", *common])
    elif task == "sensitivity":
        _cli(["sensitivity", "--group", SENSITIVITY_GROUP, "--samples", "10000", "--seed", "0", *common])
    elif task.startswith("report-"):
        fmt = task.removeprefix("report-")
        with tempfile.TemporaryDirectory() as out:
            _cli(["report", "--group", SENSITIVITY_GROUP, "--format", fmt, "-o", f"{out}/r.{fmt}", *common])
    elif task == "app-first-render":
        from streamlit.testing.v1 import AppTest

        app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600).run()
        if app.exception:
            raise RuntimeError(f"the app raised: {app.exception[0].value}")


def _one(task: str, knowledge: Path) -> None:
    """Child process: time TASK on KNOWLEDGE and print seconds and peak memory as JSON."""
    os.environ["SELECTOR_KNOWLEDGE"] = str(knowledge)
    _prepare(task)
    start = time.perf_counter()
    _run(task, knowledge)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def _measure(task: str, knowledge: Path) -> dict:
    command = [sys.executable, __file__, "--one", task, str(knowledge)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SELECTOR_KNOWLEDGE": str(knowledge), "SELECTOR_CACHE_DIR": _CACHE}
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,100", help="multiples of today's knowledge base (default 1,10,100)")
    parser.add_argument("--tasks", default=",".join(TASKS), help=f"comma-separated, from {', '.join(TASKS)}")
    parser.add_argument("--keep", type=Path, help="write the synthetic knowledge bases here (default: a temp dir)")
    parser.add_argument("--one", nargs=2, metavar=("TASK", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        _one(args.one[0], Path(args.one[1]))
        return 0
    sizes = [int(size) for size in args.sizes.split(",")]
    tasks = args.tasks.split(",")
    global _CACHE
    with tempfile.TemporaryDirectory(prefix="selector-scaling-") as scratch:
        base = args.keep or Path(scratch)
        _CACHE = str(Path(scratch) / "parse-cache")
        results: dict[str, dict[int, dict]] = {task: {} for task in tasks}
        for size in sizes:
            knowledge = _synthetic.generate(size, base / f"kb{size}x")
            for task in tasks:
                results[task][size] = _measure(task, knowledge)
                got = results[task][size]
                shown = got.get("error") or f"{got['seconds']:8.2f} s  peak {got['peak_mb']:6.0f} MB"
                print(f"{task:<17} {size:>4}x  {shown}", flush=True)
    print()
    print(f"{'task':<17}" + "".join(f"{f'{size}x':>11}" for size in sizes) + "   ratio  exponent  peak MB")
    for task in tasks:
        row = results[task]
        if any("error" in row[size] for size in sizes):
            print(f"{task:<17} failed: {next(r['error'] for r in row.values() if 'error' in r)}")
            continue
        times = [row[size]["seconds"] for size in sizes]
        ratio = times[-1] / times[0]
        exponent = math.log(times[-1] / times[-2]) / math.log(sizes[-1] / sizes[-2]) if len(sizes) > 1 else 1.0
        cells = "".join(f"{t:>10.2f}s" for t in times)
        print(f"{task:<17}{cells}  {ratio:6.1f}x  {exponent:8.2f}  {row[sizes[-1]]['peak_mb']:7.0f}")
    if "report-pdf" in tasks and 100 in sizes and "seconds" in results["report-pdf"][100]:
        pdf = results["report-pdf"][100]["seconds"]
        print(f"PDF report at 100x: {pdf:.1f} s ({'within' if pdf < 60 else 'OUTSIDE'} the 60 s target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
