"""Benchmark: SMAA with 10,000 samples (vectorised, selector.decision.vectorised) against looping scoring.score.

Run from the repository root: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_smaa.py``. For a 5 x 8 and a
10 x 10 matrix it prints the time of ``robustness.smaa.smaa`` with 10,000 weight samples (target < 0.1 s) and the
speed-up per sample over calling ``scoring.score`` (scikit-criteria) on a subset of the same samples (target
>= 100x).

Then the growth in the number of alternatives: SMAA with 10,000 samples of 8 criteria at 4, 40 and 400
alternatives per method, and the exponent b of time ~ m**b fitted from 40 to 400 (target: 400 alternatives under
2 s, b close to 1: ranks come from sorting each sample's scores and first place from one comparison with the
maximum, not from comparing every pair). All figures come from this one run; nothing is asserted.
"""

from __future__ import annotations

import time

import numpy as np

N_SAMPLES = 10_000
LOOP_SUBSET = 300
ALTERNATIVES = (4, 40, 400)
GROWTH_TARGET_SECONDS = 2.0


def main() -> None:
    """Print SMAA time and the per-sample ratio against scikit-criteria, per matrix size and method."""
    from selector.decision import scoring
    from selector.decision.problem import METHODS, Problem
    from selector.robustness.sampling import sample_simplex
    from selector.robustness.smaa import smaa

    scoring.score(
        Problem.of([[1.0, 2.0], [2.0, 1.0]], ["max", "min"], [1, 1])
    )  # pay the scikit-criteria import up front
    rng = np.random.default_rng(0)
    for m, n in ((5, 8), (10, 10)):
        x = rng.uniform(1, 100, size=(m, n))
        obj = ["max", "min"] * (n // 2) + ["max"] * (n % 2)
        samples = sample_simplex(n, N_SAMPLES, np.random.default_rng(1))
        print(f"\n{m} x {n} matrix, {N_SAMPLES:,} samples")
        for method in METHODS:
            smaa(Problem.of(x, obj, None, method), n_samples=100)  # warm-up
            start = time.perf_counter()
            smaa(Problem.of(x, obj, None, method), weight_samples=samples)
            t_smaa = time.perf_counter() - start
            start = time.perf_counter()
            for w in samples[:LOOP_SUBSET]:
                scoring.score(Problem.of(x, obj, w, method))
            t_loop = time.perf_counter() - start
            ratio = (t_loop / LOOP_SUBSET) / (t_smaa / N_SAMPLES)
            print(
                f"  {method:<7} smaa {t_smaa * 1000:7.1f} ms | scoring.score loop {t_loop / LOOP_SUBSET * 1000:6.3f} ms"
                f"/sample (over {LOOP_SUBSET}) -> {ratio:7.0f}x faster per sample"
            )


def growth() -> None:
    """Print SMAA time at 4, 40 and 400 alternatives per method and the fitted exponent in the alternatives."""
    from selector.decision.problem import METHODS, Problem
    from selector.robustness.sampling import sample_simplex
    from selector.robustness.smaa import smaa

    n = 8
    obj = ["max", "min"] * (n // 2)
    samples = sample_simplex(n, N_SAMPLES, np.random.default_rng(2))
    print(f"\ngrowth in alternatives: {N_SAMPLES:,} samples, {n} criteria (best of 2 runs)")
    print(f"  {'method':<7}" + "".join(f"{f'm={m}':>11}" for m in ALTERNATIVES) + "   exponent 40->400")
    for method in METHODS:
        seconds = []
        for m in ALTERNATIVES:
            x = np.random.default_rng(m).uniform(1, 100, size=(m, n))
            runs = []
            for _ in range(2):
                start = time.perf_counter()
                smaa(Problem.of(x, obj, None, method), weight_samples=samples)
                runs.append(time.perf_counter() - start)
            seconds.append(min(runs))
        exponent = np.log(seconds[2] / seconds[1]) / np.log(ALTERNATIVES[2] / ALTERNATIVES[1])
        verdict = "within" if seconds[2] < GROWTH_TARGET_SECONDS else "ABOVE"
        print(
            f"  {method:<7}"
            + "".join(f"{t * 1000:9.1f}ms" for t in seconds)
            + f"   {exponent:5.2f}  (400 alternatives {verdict} the {GROWTH_TARGET_SECONDS:g} s target)"
        )


if __name__ == "__main__":
    main()
    growth()
