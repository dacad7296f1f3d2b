"""Benchmark: time scoring.score (scikit-criteria) per method on a 1,000 x 12 matrix and on a 10 x 10 matrix.

Run from the repository root: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_scoring.py``. Prints measured
figures only (no assertions): the app calls ``score`` on every slider move (target < 5 ms for 10 x 10).
"""

from __future__ import annotations

import time

import numpy as np


def _per_call(fn, repeat: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    """Print the import time, then per-method timings for both matrix sizes."""
    start = time.perf_counter()
    from selector import scoring

    scoring.score([[1.0, 2.0], [2.0, 1.0]], ["max", "min"], [1, 1], "topsis")
    print(f"first call incl. import of scikit-criteria: {time.perf_counter() - start:.2f} s")

    rng = np.random.default_rng(0)
    for m, n, repeat in ((1000, 12, 20), (10, 10, 200)):
        x = rng.uniform(1, 100, size=(m, n))
        obj = ["max", "min", "max"] * (n // 3) + ["max"] * (n % 3)
        w = rng.uniform(0.1, 1, size=n)
        print(f"\n{m} x {n} matrix, mean of {repeat} calls")
        for method, spec in scoring.METHODS.items():
            t = _per_call(lambda x=x, obj=obj, w=w, method=method: scoring.score(x, obj, w, method), repeat)
            print(f"  {method:<7} ({spec.default_scaler:<6}) {t * 1000:8.2f} ms per call")


if __name__ == "__main__":
    main()
