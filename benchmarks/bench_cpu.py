"""CPU seconds (user + sys of the whole process tree) of the command line's cold paths, for a shared, loaded machine.

On a machine other people load, a command's wall time measures them as much as this code; its CPU time moves far
less. Each command runs as a user starts it (``python -m selector ...``, a new process), and the CPU it and every
process it waited for used (the PDF worker included) is read from ``resource.getrusage(RUSAGE_CHILDREN)``. Rounds are
interleaved (each round runs every command once), and medians are printed.

``--against DIR`` measures another checkout in the same rounds (each command alternates between the two), for a
before/after figure: e.g. ``git archive <commit> | tar -x -C DIR`` and a ``.venv`` link in DIR. Both share one cache
folder (``SELECTOR_CACHE_DIR``), warmed by a first ``validate`` of each, as a user's second command finds it.

Usage: PYTHONPATH=. .venv/bin/python benchmarks/bench_cpu.py [--rounds 4] [--group training-frameworks] [--against DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cpu(tree: Path, args: list[str], env: dict[str, str]) -> float:
    """User + sys seconds of ``python -m selector ARGS`` run in `tree` (and of every process it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    python = tree / ".venv" / "bin" / "python"
    done = subprocess.run(
        [str(python if python.exists() else sys.executable), "-m", "selector", *args],
        cwd=tree,
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(tree)},
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: selector {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--group", default="training-frameworks", help="the group the reports rank")
    parser.add_argument("--against", type=Path, default=None, help="another checkout, measured in the same rounds")
    args = parser.parse_args()
    trees = {"this": ROOT} if args.against is None else {"this": ROOT, "against": args.against.resolve()}
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        env = {**os.environ, "SELECTOR_CACHE_DIR": str(out / "cache")}
        commands = {
            "validate": ["validate"],
            **{
                f"report {fmt}": ["report", "--group", args.group, "-o", str(out / f"r.{fmt}")]
                for fmt in ("md", "html", "pdf")
            },
        }
        for tree in trees.values():
            _cpu(tree, ["validate"], env)  # fills the cache folder, as any earlier command would have
        seconds: dict[tuple[str, str], list[float]] = {}
        for r in range(args.rounds):
            for name, command in commands.items():
                for label, tree in trees.items():
                    seconds.setdefault((label, name), []).append(_cpu(tree, command, env))
            print(f"  round {r + 1}/{args.rounds} done (load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"CPU seconds (user + sys, whole process tree), medians of {args.rounds} interleaved rounds; load {load}")
    header = f"{'python -m selector':<24} {'this':>8}"
    if args.against is not None:
        header += f" {'against':>8} {'change':>8}"
    print(header)
    for name in commands:
        mine = statistics.median(seconds[("this", name)])
        line = f"{name:<24} {mine:8.2f}"
        if args.against is not None:
            theirs = statistics.median(seconds[("against", name)])
            line += f" {theirs:8.2f} {(mine / theirs - 1) * 100:+7.0f}%"
        print(line)


if __name__ == "__main__":
    main()
