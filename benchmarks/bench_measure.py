"""Benchmark: ingesting the 12 real MLPerf LoadGen runs (summary + detail log each) as measured claims.

Run from the repository root: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_measure.py`` (or ``make bench``).
It prints, measured in one run so that the machine's load cancels out of the ratios:

* in process: the time to read, check and convert the 12 runs (``selector.measure.ingest``), median of 20, and
  the time to validate the resulting file as an upload (what the CLI does before writing), median of 5;
* end to end: ``python -m selector measure ingest`` on the 12 summaries (each reads its detail log) against
  ``python -c pass`` (an interpreter that does nothing), median of 5 each, and their ratio.

Target: ingesting the 12 runs takes well under a second. Nothing is asserted: the figures are printed.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "fixtures" / "measure" / "loadgen"


def _median(fn, repeat: int) -> float:  # noqa: ANN001
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print the timings."""
    from selector import measure
    from selector.io import yamlio
    from selector.knowledge import loading as knowledge
    from selector.uploads import intake

    summaries = sorted(SAMPLES.glob("*.mlperf_log_summary.txt"))
    files = []
    for summary in summaries:
        detail = Path(measure.detail_name(str(summary)))
        files += [(str(summary), summary.read_bytes()), (str(detail), detail.read_bytes())]
    size = sum(len(data) for _, data in files)
    kb = knowledge.load()
    options = measure.Options(entity="h200")
    document = measure.ingest(files, options, kb).document
    t_ingest = _median(lambda: measure.ingest(files, options, kb), 20)
    text = yamlio.dump_yaml(document).encode()
    t_validate = _median(lambda: intake.validate_upload("measured.yaml", text), 5)
    print(f"load: {os.getloadavg()[0]:.2f} (1-minute average) on {os.cpu_count()} CPUs")
    print(f"{len(summaries)} LoadGen runs, {len(files)} files, {size / 1e6:.2f} MB -> {len(document['claims'])} claims")
    print(f"in process: ingest {t_ingest * 1e3:8.1f} ms   validate as an upload {t_validate * 1e3:8.1f} ms")

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "measured.yaml"
        command = [sys.executable, "-m", "selector", "measure", "ingest", *map(str, summaries), "--entity", "h200"]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}

        def cli() -> None:
            subprocess.run([*command, "-o", str(out)], cwd=ROOT, env=env, check=True, capture_output=True)

        def nothing() -> None:
            subprocess.run([sys.executable, "-c", "pass"], check=True, capture_output=True)

        t_cli, t_pass = [], []
        for _ in range(5):  # interleaved, so that load changes hit both alike
            t_cli.append(_median(cli, 1))
            t_pass.append(_median(nothing, 1))
        cli_s, pass_s = statistics.median(t_cli), statistics.median(t_pass)
    print(
        f"end to end: measure ingest {cli_s:6.2f} s   python -c pass {pass_s:6.3f} s   "
        f"ratio {cli_s / pass_s:5.1f}x   (ingest alone: {t_ingest / pass_s:4.2f}x python -c pass)"
    )
    print("target: ingest of the 12 runs well under 1 s:", "ok" if t_ingest < 1.0 else "SLOW")


if __name__ == "__main__":
    main()
