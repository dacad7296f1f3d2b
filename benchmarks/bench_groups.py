"""Benchmark: ranking and robustness of the bundled knowledge's default groups, measured in one run.

Run from the repository root: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_groups.py`` (or ``make bench``).
For every group with default preferences it prints

* the time to rank it (matrix + scoring + decision tree, median of 20), after scikit-criteria is imported;
* the time of SMAA with 10,000 samples (target < 0.1 s) and the per-sample ratio to looping ``scoring.score``
  (scikit-criteria) over the first 200 of the same weight samples (target >= 100x);
* the time of the whole robustness analysis (SMAA + tipping points + method agreement + rank reversal).

Nothing is asserted: these machines are noisy, so the figures that matter are the ratios within this run.
"""

from __future__ import annotations

import statistics
import time

N_SAMPLES = 10_000
LOOP_SUBSET = 200


def _median_time(fn, repeat: int) -> float:  # noqa: ANN001
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print the timings per group and method."""
    from selector.decision import recommend, scoring
    from selector.decision.preferences import Preferences
    from selector.decision.problem import Problem
    from selector.knowledge import loading as knowledge
    from selector.robustness import analysis
    from selector.robustness.smaa import smaa

    kb = knowledge.load()
    scoring.score(
        Problem.of([[1.0, 2.0], [2.0, 1.0]], ["max", "min"], [1, 1])
    )  # pay the scikit-criteria import up front
    print(f"{N_SAMPLES:,} SMAA samples per group; loop ratio over the first {LOOP_SUBSET} of the same samples\n")
    header = f"{'group':<26}{'method':<8}{'rank':>9}{'smaa':>10}{'target':>8}{'loop/sample':>13}{'ratio':>9}{'all':>9}"
    print(header)
    for group in kb.groups:
        for method in ("wsm", "topsis"):
            prefs = Preferences(group=group, method=method)
            t_rank = _median_time(lambda p=prefs: recommend.recommend(kb, p), 20)
            rec = recommend.recommend(kb, prefs)
            m = rec.matrix
            samples = analysis._weight_samples(rec, N_SAMPLES, seed=0, spread=None)
            start = time.perf_counter()
            smaa(rec.problem, weight_samples=samples)
            t_smaa = time.perf_counter() - start
            start = time.perf_counter()
            for w in samples[:LOOP_SUBSET]:
                scoring.score(Problem.of(m.values, m.objectives, w, method))
            t_loop = (time.perf_counter() - start) / LOOP_SUBSET
            ratio = t_loop / (t_smaa / N_SAMPLES)
            start = time.perf_counter()
            analysis.analyse(rec, samples=N_SAMPLES)
            t_all = time.perf_counter() - start
            verdict = "ok" if t_smaa < 0.1 else "SLOW"
            print(
                f"{group:<26}{method:<8}{t_rank * 1000:>7.1f}ms{t_smaa * 1000:>8.1f}ms{verdict:>8}"
                f"{t_loop * 1000:>11.3f}ms{ratio:>8.0f}x{t_all * 1000:>7.0f}ms"
            )


if __name__ == "__main__":
    main()
