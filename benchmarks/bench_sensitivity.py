"""Benchmark: SMAA with 10,000 samples (vectorised, selector.batch) against looping scoring.score.

Run from the repository root: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_sensitivity.py``. For a 5 x 8 and a
10 x 10 matrix it prints the time of ``sensitivity.smaa`` with 10,000 weight samples (target < 0.1 s) and the
speed-up per sample over calling ``scoring.score`` (scikit-criteria) on a subset of the same samples (target
>= 100x). All figures come from this one run; nothing is asserted.
"""

from __future__ import annotations

import time

import numpy as np

N_SAMPLES = 10_000
LOOP_SUBSET = 300


def main() -> None:
    """Print SMAA time and the per-sample ratio against scikit-criteria, per matrix size and method."""
    from selector import scoring, sensitivity

    scoring.score([[1.0, 2.0], [2.0, 1.0]], ["max", "min"], [1, 1])  # pay the scikit-criteria import up front
    rng = np.random.default_rng(0)
    for m, n in ((5, 8), (10, 10)):
        x = rng.uniform(1, 100, size=(m, n))
        obj = ["max", "min"] * (n // 2) + ["max"] * (n % 2)
        samples = sensitivity.sample_simplex(n, N_SAMPLES, np.random.default_rng(1))
        print(f"\n{m} x {n} matrix, {N_SAMPLES:,} samples")
        for method in scoring.METHODS:
            sensitivity.smaa(x, obj, None, method, n_samples=100)  # warm-up
            start = time.perf_counter()
            sensitivity.smaa(x, obj, None, method, weight_samples=samples)
            t_smaa = time.perf_counter() - start
            start = time.perf_counter()
            for w in samples[:LOOP_SUBSET]:
                scoring.score(x, obj, w, method)
            t_loop = time.perf_counter() - start
            ratio = (t_loop / LOOP_SUBSET) / (t_smaa / N_SAMPLES)
            print(
                f"  {method:<7} smaa {t_smaa * 1000:7.1f} ms | scoring.score loop {t_loop / LOOP_SUBSET * 1000:6.3f} ms"
                f"/sample (over {LOOP_SUBSET}) -> {ratio:7.0f}x faster per sample"
            )


if __name__ == "__main__":
    main()
