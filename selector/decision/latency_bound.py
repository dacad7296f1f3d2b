"""Latency-bounded throughput: for one accelerator, the best measured throughput whose latencies meet the stated
time-to-first-token and time-per-output-token limits, with the rows it came from.

Two kinds of measurement qualify:

- AccelMark online runs: Poisson arrivals at each of a suite's request rates, with the p99 TTFT and TPOT measured at
  each (three claims per rate, ``selector.knowledge.importers.accelmark``). A rate qualifies when both p99 latencies are
  within the limits; its output tokens/s are the achieved requests/s x the suite's median output length (the
  suite's ``request_distribution.output_tokens_p50``: an estimate, AccelMark reports requests/s online).
- MLPerf Inference Server results: every result meets MLPerf's p99 bounds for its benchmark (llama2-70b: TTFT
  2,000 ms, TPOT 200 ms; llama3.1-8b: TTFT 2,000 ms, TPOT 100 ms; MLCommons LoadGen's mlperf.conf), so a
  Server result qualifies when the user's limits are at least as loose as those bounds. Offline results carry no
  latency and qualify only when no limit is stated.

When nothing meets the limits, the answer says so and has no value: it never falls back to the offline peak.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from selector.decision.workload import Workload
from selector.i18n import N_, Phrase, joined
from selector.knowledge.models import Claim, Criterion, KnowledgeBase

ACCELMARK_SUITES_URL = (
    "FreedomIntelligence/AccelMark@5797fc42745be2494e6213938d9e5afa0c6c5bef:suites/<suite>/suite.json"
)
# LoadGen's settings: `llama2-70b.Server.ttft_latency = 2000`, `llama2-70b.Server.tpot_latency = 200`
MLPERF_RULES_URL = "https://github.com/mlcommons/inference/blob/master/loadgen/mlperf.conf"


@dataclass(frozen=True)
class Family:
    """What one benchmark measures: its model's size, and how its latency is bounded."""

    model: str
    params_b: float
    kind: str  # "accelmark" or "mlperf"
    output_tokens: int | None = None  # AccelMark: the suite's median output length
    server_bounds: tuple[float, float] | None = None  # MLPerf: Server p99 (TTFT ms, TPOT ms)


# the criteria's `conditions.workload` -> the benchmark
FAMILIES = {
    "AccelMark suite_A: meta-llama/Meta-Llama-3-8B-Instruct": Family("Llama-3-8B", 8.0, "accelmark", 310),
    "AccelMark suite_F: Qwen/Qwen2.5-0.5B-Instruct": Family("Qwen2.5-0.5B", 0.5, "accelmark", 150),
    "llama2-70b-99": Family("Llama-2-70B", 70.0, "mlperf", server_bounds=(2000.0, 200.0)),
    "llama2-70b-99.9": Family("Llama-2-70B", 70.0, "mlperf", server_bounds=(2000.0, 200.0)),
    "llama3.1-8b": Family("Llama-3.1-8B", 8.0, "mlperf", server_bounds=(2000.0, 100.0)),
}
THROUGHPUT_METRICS = ("tokens_per_s_per_chip", "tokens_per_s_per_accelerator")

# What a bound says, marked for the catalogs (a Phrase keeps the fields, so a page says it in the reader's language)
BOTH_LIMITS = N_("{first} and {second}")
NO_LIMIT = N_("no latency limit")
NO_ONLINE = N_(
    "no AccelMark online measurement meets {limits} ({tried} rate(s) measured); the offline peak is not used"
)
ONLINE_POINT = N_("p99 TTFT {ttft} ms, p99 TPOT {tpot} ms, run {run}")
ONLINE = N_(
    "latency-bounded: AccelMark {model} online, {qps} requests/s within {limits} ({shown}) x {tokens} output tokens "
    "per request (the suite's median)"
)
NO_SERVER = N_(
    "no MLPerf measurement meets {limits}: Server results are bounded at p99 TTFT {ttft} ms and TPOT {tpot} ms "
    "({rules}), looser than your limits; the Offline peak is not used"
)
NO_MLPERF = N_("no MLPerf {model} {scenario} result for this accelerator")
OFFLINE_PEAK = N_("no latency limit stated: the Offline peak")
WITHIN_SERVER = N_("MLPerf Server, whose p99 bounds (TTFT {ttft} ms, TPOT {tpot} ms) are within {limits}")
MLPERF = N_("{why}; {model}, median of {count} result(s) per accelerator")
NOT_READ = N_("{criterion} is not a benchmark this module reads")
NO_OFFLINE = N_("no AccelMark {model} offline run for this accelerator")
OFFLINE = N_("no latency limit stated: the offline peak, AccelMark {model}, median of {count} run(s)")


@dataclass(frozen=True)
class Bound:
    """The throughput one accelerator gives within the limits (None: no measurement meets them), and why."""

    value: float | None
    evidence: tuple[str, ...]
    tier: str | None
    note: str


def family_of(criterion: Criterion) -> Family | None:
    """The benchmark a throughput criterion reads, None for any other criterion."""
    if criterion.metric not in THROUGHPUT_METRICS or criterion.derived is not None:
        return None
    return FAMILIES.get(criterion.conditions.workload or "")


def closest(criteria: list[Criterion], params_b: float) -> Criterion | None:
    """Of the throughput `criteria` (given in order of preference), the one whose benchmark model is nearest
    `params_b` in size (log scale); among equally near ones, the first given."""
    known = [(i, c) for i, c in enumerate(criteria) if family_of(c) is not None]
    if not known:
        return None
    return min(known, key=lambda ic: (abs(math.log(family_of(ic[1]).params_b / params_b)), ic[0]))[1]


def _limits_text(workload: Workload) -> str:
    parts = [f"TTFT <= {workload.ttft_ms:g} ms" if workload.ttft_ms is not None else ""]
    parts.append(f"TPOT <= {workload.tpot_ms:g} ms" if workload.tpot_ms is not None else "")
    parts = [p for p in parts if p]
    return joined(parts, BOTH_LIMITS) or Phrase(NO_LIMIT)


def _within(workload: Workload, ttft: float, tpot: float) -> bool:
    return (workload.ttft_ms is None or ttft <= workload.ttft_ms) and (
        workload.tpot_ms is None or tpot <= workload.tpot_ms
    )


def _online_points(kb: KnowledgeBase, accelerator: str, criterion: Criterion) -> dict[tuple, dict[str, Claim]]:
    """(run, rate) -> metric -> claim, for the AccelMark online rows of the suite and precision `criterion` reads."""
    want = criterion.conditions
    points: dict[tuple, dict[str, Claim]] = {}
    for metric in ("queries_per_second", "ttft_p99_ms", "tpot_p99_ms"):
        for claim in kb.numeric_claims.get((metric, accelerator), ()):
            c = claim.conditions
            if (
                c.workload != want.workload
                or c.precision != want.precision
                or not (c.scenario or "").startswith("online")
            ):
                continue
            key = (claim.locator.result_id if claim.locator else claim.id, c.scenario)
            points.setdefault(key, {})[metric] = claim
    return {k: v for k, v in points.items() if len(v) == 3}


def _accelmark(kb: KnowledgeBase, accelerator: str, criterion: Criterion, workload: Workload) -> Bound:
    family = family_of(criterion)
    points = _online_points(kb, accelerator, criterion)
    best_per_run: dict[str, tuple[float, dict[str, Claim]]] = {}
    for (run, _), point in points.items():
        qps = point["queries_per_second"].value
        fast = _within(workload, point["ttft_p99_ms"].value, point["tpot_p99_ms"].value)
        if fast and (run not in best_per_run or qps > best_per_run[run][0]):
            best_per_run[run] = (qps, point)
    limits = _limits_text(workload)
    if not best_per_run:
        tried = len(points)
        return Bound(None, (), None, Phrase(NO_ONLINE, limits=limits, tried=str(tried)))
    qps = statistics.median(q for q, _ in best_per_run.values())
    chosen = [p for _, p in best_per_run.values()]
    evidence = tuple(c.id for p in chosen for c in p.values())
    shown = joined(
        [
            Phrase(
                ONLINE_POINT,
                ttft=f"{p['ttft_p99_ms'].value:,.0f}",
                tpot=f"{p['tpot_p99_ms'].value:,.1f}",
                run=p["queries_per_second"].id.rsplit("-", 1)[-1],
            )
            for p in chosen
        ]
    )
    note = Phrase(
        ONLINE, model=family.model, qps=f"{qps:g}", limits=limits, shown=shown, tokens=str(family.output_tokens)
    )
    return Bound(qps * family.output_tokens, evidence, "benchmarked", note)


def _mlperf(kb: KnowledgeBase, accelerator: str, offline: Criterion, workload: Workload) -> Bound:
    family = family_of(offline)
    limits = _limits_text(workload)
    scenario = "Offline" if not workload.has_limits else "Server"
    if workload.has_limits:
        ttft, tpot = family.server_bounds
        if not _within(workload, ttft, tpot):
            why = Phrase(NO_SERVER, limits=limits, ttft=f"{ttft:g}", tpot=f"{tpot:g}", rules=MLPERF_RULES_URL)
            return Bound(None, (), None, why)
    claims = [
        c
        for c in kb.numeric_claims.get((offline.metric, accelerator), ())
        if c.conditions.workload == offline.conditions.workload
        and c.conditions.version == offline.conditions.version
        and (c.conditions.scenario or "") == scenario
    ]
    if not claims:
        return Bound(None, (), None, Phrase(NO_MLPERF, model=family.model, scenario=scenario))
    value = statistics.median(c.value for c in claims)
    why = (
        Phrase(OFFLINE_PEAK)
        if scenario == "Offline"
        else Phrase(
            WITHIN_SERVER, ttft=f"{family.server_bounds[0]:g}", tpot=f"{family.server_bounds[1]:g}", limits=limits
        )
    )
    note = Phrase(MLPERF, why=why, model=family.model, count=str(len(claims)))
    return Bound(float(value), tuple(c.id for c in claims), claims[0].tier, note)


def bound(kb: KnowledgeBase, accelerator: str, criterion: Criterion, workload: Workload) -> Bound:
    """The best throughput of `accelerator` on `criterion`'s benchmark within the workload's limits.

    Without limits it is the offline peak (said so); with limits, only a measurement taken under latency that
    meets them, else a :class:`Bound` without a value that says why.
    """
    family = family_of(criterion)
    if family is None:
        return Bound(None, (), None, Phrase(NOT_READ, criterion=criterion.id))
    if family.kind == "mlperf":
        return _mlperf(kb, accelerator, criterion, workload)
    if not workload.has_limits:
        claims = [c for c in kb.numeric_claims.get((criterion.metric, accelerator), ()) if criterion.reads(c)]
        if not claims:
            return Bound(None, (), None, Phrase(NO_OFFLINE, model=family.model))
        value = statistics.median(c.value for c in claims)
        note = Phrase(OFFLINE, model=family.model, count=str(len(claims)))
        return Bound(float(value), tuple(c.id for c in claims), claims[0].tier, note)
    return _accelmark(kb, accelerator, criterion, workload)
