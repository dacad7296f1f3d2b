"""Benchmark: time scoring.score (scikit-criteria) per method on a 1,000 x 12 matrix and on a 10 x 10 matrix.

Run from the repository root: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_scoring.py``. Prints measured
figures only (no assertions): the app calls ``score`` on every slider move (target < 5 ms for 10 x 10).

Two figures per method: a new matrix on every call (scikit-criteria inverts and scales it), and the same matrix
with new weights on every call (a slider move: the normalisation is kept per matrix and only the aggregation
runs), with their ratio measured in the same run.
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


def _caller(fn, calls: list[tuple]):
    """A function that makes the next of `calls` each time it is called."""
    pending = iter(calls)
    return lambda: fn(*next(pending))


def _score(*parts):
    """One call as a caller makes it: the problem checked, then scored."""
    from selector.decision import scoring
    from selector.decision.problem import Problem

    return scoring.score(Problem.of(*parts))


def main() -> None:
    """Print the import time, then per-method timings for both matrix sizes."""
    start = time.perf_counter()
    from selector.decision import scoring
    from selector.decision.problem import METHODS, Problem

    scoring.score(Problem.of([[1.0, 2.0], [2.0, 1.0]], ["max", "min"], [1, 1], "topsis"))
    print(f"first call incl. import of scikit-criteria: {time.perf_counter() - start:.2f} s")

    rng = np.random.default_rng(0)
    for m, n, repeat in ((1000, 12, 20), (10, 10, 200)):
        x = rng.uniform(1, 100, size=(m, n))
        obj = ["max", "min", "max"] * (n // 3) + ["max"] * (n % 3)
        w = rng.uniform(0.1, 1, size=n)
        print(f"\n{m} x {n} matrix, mean of {repeat} calls: new matrix each call | new weights each call")
        for method, spec in METHODS.items():
            matrices = [x * rng.uniform(0.5, 2) for _ in range(repeat + 1)]
            weightings = [rng.uniform(0.1, 1, size=n) for _ in range(repeat + 1)]
            cold = _per_call(_caller(_score, [(xi, obj, w, method) for xi in matrices]), repeat)
            warm = _per_call(_caller(_score, [(x, obj, wi, method) for wi in weightings]), repeat)
            print(
                f"  {method:<7} ({spec.default_scaler:<6}) {cold * 1000:8.2f} ms | {warm * 1000:6.2f} ms"
                f"  ({cold / warm:4.1f}x faster when only the weights change)"
            )


if __name__ == "__main__":
    main()
