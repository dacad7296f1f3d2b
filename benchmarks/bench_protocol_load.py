"""Load without browsers: K concurrent sessions speaking Streamlit's own websocket protocol (benchmarks/_protocol.py)
against one server and against two replicas behind the bundled nginx (sticky by cookie, benchmarks/_serve.py).

A browser costs about 14 CPU-seconds per session on this kind of machine, so real browsers measure themselves
waiting for a core long before the server saturates; a protocol client costs a small fraction of that. Each
session does what a user does first, one step after another, with a think time between steps (drawn uniformly
from half to one and a half times ``--think``, seeded; not counted in a step's time), and users arrive over
``--ramp`` seconds:

open Recommend; move a dimension weight (the fragment reruns alone, as in the browser); open the limits box and
add a limit; open
Frameworks, Accelerators and Evidence; open Export and download the Markdown report.

Printed for each load (1, 10, 50 and 100 sessions by default) on one server and on two replicas:
- errors (an exception element, a run that did not finish, a failed download, a lost connection);
- the median and p95 of every step's time and the p95 as a ratio to one session's (target: within 3x for 50
  sessions on one server and 100 on two replicas; a line says MET or NOT MET and names the slowest step);
- the offered load in steps per second (what the sessions and their think time ask of the servers);
- server memory per session: the servers' RSS with every session open, less the RSS after one warm-up session,
  divided by the sessions;
- server CPU per step: the servers' CPU seconds over the load, divided by the steps taken;
- the machine's load average and core count, since the figures depend on what else runs on it;
- with ``--rounds N``, each load of more than one session runs N times (seeds ``--seed`` to ``--seed + N - 1``) and
  its steps are pooled: a step's p95 over 50 sessions is its third slowest time in one round, and swings with the
  few bursts a round's think times happen to make, so a pooled p95 is the steadier figure;
- after the measured loads, a witness round: ``--browsers-at`` protocol sessions (10) with ``--browsers`` real
  browsers (3; chromium through Playwright, benchmarks/_alongside.py) opening the same pages at the same time, and
  a protocol session opening them in the browsers' state: errors, and whether every page a browser drew showed the
  headings the server sent the protocol client (the protocol clients see the same pages). It is a round of its own
  because a browser costs about 14 CPU-s: inside a measured round it would measure itself.

Usage: PYTHONPATH=. python benchmarks/bench_protocol_load.py [--sessions 1,10,50,100] [--think 2] [--ramp 10]
       [--skip-replicas] [--skip-single] [--seed 0] [--baseline 5] [--rounds 1] [--browsers 3]
       [--browsers-at 10]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _alongside
import _serve
from _protocol import Session, Step

STEPS = (
    "open Recommend",
    "move a weight",
    "open the limits",
    "add a limit",
    "open Frameworks",
    "open Accelerators",
    "open Evidence",
    "open Export",
    "download Markdown",
)


def _limit() -> str:
    """A limit every member of the default group passes (so the ranking stays whole), as typed into the limits
    picker for the criterion it offers first (app_pages/_limits.py: the first quantity, neither a rating nor stars):
    at or below ten times the largest scale end."""
    from selector.knowledge import loading as knowledge

    kb = knowledge.load()
    group = next(iter(kb.groups.values()))
    for member in group.criteria:
        criterion = kb.criteria[member.criterion]
        if criterion.scale and not criterion.unit.startswith(("rating", "stars")):
            return f"<= {criterion.scale[1] * 10:g}"
    return ""


async def user(url: str, think: float, rng: random.Random, limit: str) -> list[Step]:
    """One session through every step; a failure ends it with the step that failed."""
    session = Session(url)
    steps: list[Step] = []

    async def pause() -> None:
        if think > 0:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))

    try:
        await session.connect()
        actions: list[tuple[str, Callable]] = [
            ("open Recommend", lambda: session.rerun("open Recommend", page="")),
            ("move a weight", lambda: session.set_slider("move a weight", "w-performance", 70)),
            ("open the limits", lambda: session.open_box("open the limits", "must-box")),
            ("add a limit", lambda: session.submit_form("add a limit", {"limit-text": limit}, "limit-add")),
            ("open Frameworks", lambda: session.rerun("open Frameworks", page="frameworks")),
            ("open Accelerators", lambda: session.rerun("open Accelerators", page="accelerators")),
            ("open Evidence", lambda: session.rerun("open Evidence", page="evidence")),
            ("open Export", lambda: session.rerun("open Export", page="export")),
            ("download Markdown", lambda: session.download("download Markdown", "export-md")),
        ]
        for index, (name, action) in enumerate(actions):
            if index:
                await pause()
            try:
                steps.append(await action())
            except (KeyError, OSError, TimeoutError, websockets_errors()) as exc:
                steps.append(Step(name, float("nan"), [f"{type(exc).__name__}: {exc}"[:300]]))
                break
        return steps
    finally:
        await session.close()


def websockets_errors() -> type[Exception]:
    import websockets.exceptions

    return websockets.exceptions.WebSocketException


@dataclass
class Load:
    """What one load produced: every step of every session, and the servers' memory and CPU."""

    sessions: int
    steps: list[Step]
    rss_open_mb: float
    cpu_s: float
    wall_s: float
    loadavg: float = 0.0  # the machine's 1-minute load average with every session open
    client_cpu_s: float = 0.0  # this process's CPU: the protocol clients share the server's cores
    witness: _alongside.Witness | None = None  # the real browsers alongside, when any ran


async def _drive(
    url: str, count: int, think: float, ramp: float, seed: int, limit: str, hold: Callable, browsers: int = 0
) -> Load:
    rngs = [random.Random(seed * 1000 + i) for i in range(count)]
    barrier = asyncio.Event()
    finished = 0

    async def one(i: int) -> list[Step]:
        nonlocal finished
        await asyncio.sleep(ramp * i / max(count, 1))
        steps = await user(url, think, rngs[i], limit)
        finished += 1
        await barrier.wait()  # every session stays open until the last has finished, so all K are open at once
        return steps

    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    witness = asyncio.create_task(_alongside.witness(url, browsers)) if browsers else None
    while finished < count:
        await asyncio.sleep(0.2)
    rss, cpu = hold()
    barrier.set()
    results = await asyncio.gather(*tasks)
    load = Load(count, [s for steps in results for s in steps], rss, cpu, 0.0)
    load.witness = await witness if witness is not None else None
    return load


def measure(served: _serve.Served, count: int, args: argparse.Namespace, limit: str) -> Load:
    """COUNT sessions at once, ``--rounds`` times; one session is run ``--baseline`` times in a row, so that its p95
    is one of several."""
    cpu_before = sum(_serve.cpu_seconds(p) for p in served.pids)
    client_before = time.process_time()
    start = time.perf_counter()
    loadavg: list[float] = []

    def hold() -> tuple[float, float]:
        loadavg.append(os.getloadavg()[0])
        return sum(_serve.rss_mb(p) for p in served.pids), sum(_serve.cpu_seconds(p) for p in served.pids)

    rounds = args.baseline if count == 1 else args.rounds
    ramp = args.ramp if count > 1 else 0
    loads = [
        asyncio.run(_drive(served.url, count, args.think, ramp, args.seed + r, limit, hold)) for r in range(rounds)
    ]
    load = Load(count, [s for one in loads for s in one.steps], max(x.rss_open_mb for x in loads), 0.0, 0.0)
    load.cpu_s = loads[-1].cpu_s - cpu_before
    load.wall_s = time.perf_counter() - start
    load.client_cpu_s = time.process_time() - client_before
    load.loadavg = max(loadavg)
    return load


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else float("nan")


TARGET_RATIO = 3.0


def report(title: str, loads: list[Load], baseline_rss: float, target_sessions: int) -> None:
    print(f"\n== {title}")
    one = {name: p95([s.seconds for s in loads[0].steps if s.name == name and not s.errors]) for name in STEPS}
    for load in loads:
        errors = [e for s in load.steps for e in s.errors]
        taken = [s for s in load.steps if not s.errors]
        per_session = (load.rss_open_mb - baseline_rss) / load.sessions
        print(
            f"{load.sessions:4d} sessions: {len(errors)} errors, {len(taken)} steps in {load.wall_s:.0f} s; "
            f"server memory {load.rss_open_mb:.0f} MB with all open ({per_session:+.1f} MB per session); "
            f"server CPU {load.cpu_s / max(len(taken), 1) * 1000:.0f} ms per step; machine load {load.loadavg:.1f}"
        )
        busy = (load.cpu_s + load.client_cpu_s) / max(load.wall_s, 1e-9)
        print(
            f"      load generator CPU {load.client_cpu_s / max(len(taken), 1) * 1000:.0f} ms per step; server and "
            f"generator together kept {busy:.2f} of the machine's {os.cpu_count()} cores busy over the round"
        )
        for error in sorted(set(errors))[:5]:
            print(f"      error: {error}")
        every = [s.seconds / one[s.name] for s in taken if one.get(s.name)]
        if every and load.sessions > 1:
            print(f"      every step, as a ratio to one session's p95 of that step: p95 {p95(every):.1f}x")
        print(f"      offered load: {len(taken) / max(load.wall_s, 1e-9):.1f} steps per second")
        ratios = {
            name: p95([s.seconds for s in taken if s.name == name]) / one[name] for name in STEPS if one.get(name)
        }
        ratios = {name: r for name, r in ratios.items() if r == r}  # a step no session reached has no ratio
        if load.sessions == target_sessions and ratios:
            worst = max(ratios, key=ratios.get)
            held = "MET" if ratios[worst] <= TARGET_RATIO and not errors else "NOT MET"
            print(
                f"      target ({target_sessions} sessions: no error, every step's p95 within {TARGET_RATIO:g}x one "
                f"session's): {held}; the slowest step is {worst!r} at {ratios[worst]:.1f}x"
            )
        if load.sessions > 1:
            print(f"      {_queueing(taken, one)}")
        for name in STEPS:
            times = [s.seconds for s in taken if s.name == name]
            if not times:
                continue
            high = p95(times)
            print(
                f"      {name:18s} median {statistics.median(times) * 1000:7.0f} ms   p95 {high * 1000:7.0f} ms"
                f"   p95 / 1 session {high / one[name]:5.1f}x"
            )


QUEUE_CLASSES = ((0, 1), (2, 4), (5, None))  # other steps in flight when a step was sent


def _queueing(steps: list[Step], one: dict[str, float]) -> str:
    """Where the slow steps come from: each step's time as a ratio to one session's p95 of that step, by how many
    other sessions' steps the server was still running when it was sent (one interpreter runs one at a time). Think
    times make the arrivals random, so a few bursts of requests land within a few milliseconds in every round."""
    spans = sorted((s.started, s.started + s.seconds) for s in steps)
    starts = [start for start, _ in spans]

    def running(step: Step) -> int:
        # spans that began before this step and had not ended when it was sent (itself excluded)
        return sum(1 for _, end in spans[: bisect.bisect_left(starts, step.started)] if end > step.started)

    measured = [(running(s), s.seconds / one[s.name]) for s in steps if one.get(s.name)]
    parts = []
    for low, high in QUEUE_CLASSES:
        ratios = [ratio for others, ratio in measured if others >= low and (high is None or others <= high)]
        label = f"{low}+" if high is None else f"{low}-{high}"
        parts.append(f"{label}: {len(ratios)} steps, p95 {p95(ratios):.1f}x" if ratios else f"{label}: no step")
    return "steps by other steps in flight when sent: " + "; ".join(parts)


def witnessed(served: _serve.Served, args: argparse.Namespace, limit: str) -> None:
    """A round outside the figures: ``--browsers-at`` protocol sessions with ``--browsers`` real browsers alongside
    (a browser costs about 14 CPU-s, so in a measured round it would measure itself), and what they saw."""
    count = args.browsers_at
    load = asyncio.run(
        _drive(served.url, count, args.think, args.ramp, args.seed, limit, lambda: (0.0, 0.0), args.browsers)
    )
    errors = [e for s in load.steps for e in s.errors]
    print(f"   witness round (not in the figures above): {count} protocol sessions, {len(errors)} errors")
    _report_browsers(load.witness)


def _report_browsers(witness: _alongside.Witness) -> None:
    matched, compared, differences = _alongside.compare(witness.browsers, witness.protocol)
    errors = [e for seen in witness.browsers for e in seen.errors] + witness.protocol_errors
    longest = max(seen.seconds for seen in witness.browsers)
    print(
        f"      {len(witness.browsers)} real browsers alongside: {len(errors)} errors; {matched} of {compared} pages "
        f"showed the headings a protocol client received in the same state ({longest:.0f} s for the slowest "
        f"browser's {len(_alongside.PAGES)} pages)"
    )
    for line in (errors + differences)[:5]:
        print(f"      browser: {line}")


def warm(served: _serve.Served, limit: str) -> float:
    """One session through every step on each server (caches filled), then the servers' RSS."""
    for url in served.backends or (served.url,):
        steps = asyncio.run(user(url, 0, random.Random(0), limit))
        problems = [e for s in steps for e in s.errors]
        if problems:
            raise RuntimeError(f"the warm-up session failed at {url}: {problems[:3]}")
    return sum(_serve.rss_mb(p) for p in served.pids)


def run(
    title: str, context: Callable, counts: list[int], args: argparse.Namespace, limit: str, target_sessions: int
) -> None:
    with context() as served:
        baseline = warm(served, limit)
        loads = [measure(served, count, args, limit) for count in counts]
        report(title, loads, baseline, target_sessions)
        if args.browsers:
            witnessed(served, args, limit)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", default="1,10,50,100", help="comma-separated session counts (1 first)")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time between steps, seconds")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which the sessions arrive")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", type=int, default=5, help="one-session runs for the baseline p95 (5)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="runs of each load of more than one session, seeds --seed on, their steps pooled (1)",
    )
    parser.add_argument("--browsers", type=int, default=3, help="real browsers in the witness round (0: none)")
    parser.add_argument("--browsers-at", type=int, default=10, help="protocol sessions in the witness round")
    parser.add_argument("--skip-single", action="store_true", help="only the two replicas behind nginx")
    parser.add_argument("--skip-replicas", action="store_true", help="only the single server")
    args = parser.parse_args()
    counts = sorted({int(c) for c in args.sessions.split(",")} | {1})
    limit = _limit()
    load1, load5, load15 = os.getloadavg()
    print(
        f"machine: {os.cpu_count()} cores, load average {load1:.1f} {load5:.1f} {load15:.1f} at start; "
        f"think {args.think:g} s, ramp {args.ramp:g} s, limit `{limit}`"
    )
    if not args.skip_single:
        run("one server (serve.py)", _serve.streamlit, counts, args, limit, target_sessions=50)
    if not args.skip_replicas:
        run("two replicas behind nginx (sticky)", lambda: _serve.replicas(2), counts, args, limit, target_sessions=100)
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
