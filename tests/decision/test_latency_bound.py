"""selector.decision.latency_bound: the best throughput whose measured p99 latencies meet the limits, checked against
the raw
AccelMark result files read directly (an independent reference), and no silent fallback to the offline peak."""

from __future__ import annotations

import json

import pytest

from selector.decision import latency_bound, workload
from selector.knowledge import loading as knowledge
from tests.conftest import KNOWLEDGE

RESULTS = KNOWLEDGE / "imports" / "raw" / "accelmark" / "results"
SUITE_A = "accelmark-suite-a"


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _raw_best(run_folders: list[str], ttft: float, tpot: float) -> float | None:
    """Straight from the result files: the median over runs of each run's highest achieved rate meeting both."""
    best = []
    for folder in run_folders:
        data = json.loads((RESULTS / "verified" / folder / "result.json").read_text(encoding="utf-8"))
        rates = [
            r["achieved_qps"]
            for r in data["metrics"]["online"]["results_by_qps"]
            if r["ttft_ms_p99"] <= ttft and r["tpot_ms_p99"] <= tpot
        ]
        if rates:
            best.append(max(rates))
    if not best:
        return None
    best.sort()
    mid = len(best) // 2
    return best[mid] if len(best) % 2 else (best[mid - 1] + best[mid]) / 2


@pytest.mark.parametrize(("ttft", "tpot"), [(200, 50), (2000, 200), (100, 20), (500, 30), (50, 5)])
@pytest.mark.parametrize(
    ("accelerator", "folders"),
    [
        ("h100", ["nvidia_h100_80gb_hbm3x1_suite_A_nvidia_vllm_47f5d58e_831c95a7"]),
        (
            "a100",
            [
                "nvidia_a100_sxm4_80gbx1_suite_A_nvidia_vllm020_0f6c56e4_8f83bfab",
                "nvidia_a100_sxm4_80gbx1_suite_A_nvidia_vllm_47f5d58e_ed4b0557",
            ],
        ),
    ],
)
def test_accelmark_bound_matches_the_raw_files(kb, accelerator, folders, ttft, tpot) -> None:
    w = workload.parse(f"model=llama-3.1-8b,ttft-ms={ttft},tpot-ms={tpot}")
    found = latency_bound.bound(kb, accelerator, kb.criteria[SUITE_A], w)
    expected = _raw_best(folders, ttft, tpot)
    if expected is None:
        assert found.value is None and found.evidence == ()
        assert "offline peak is not used" in found.note
    else:
        assert found.value == pytest.approx(expected * 310)  # suite A's median output length
        # the evidence is the online rows (requests/s, TTFT, TPOT), never the offline claim
        assert found.evidence and all("-online-" in e for e in found.evidence)
        assert found.note.startswith("latency-bounded: AccelMark Llama-3-8B online")


def test_without_limits_the_offline_peak_is_used_and_said(kb) -> None:
    found = latency_bound.bound(kb, "h100", kb.criteria[SUITE_A], workload.parse("model=llama-3.1-8b"))
    offline = [c for c in kb.numeric_claims[("tokens_per_s_per_chip", "h100")] if kb.criteria[SUITE_A].reads(c)]
    assert found.value == pytest.approx(offline[0].value)
    assert found.evidence == (offline[0].id,) and "no latency limit stated: the offline peak" in found.note


def test_mlperf_server_counts_only_when_its_bounds_lie_within_the_limits(kb) -> None:
    offline = kb.criteria["mlperf-llama2-70b-offline"]
    server = kb.criteria["mlperf-llama2-70b-server"]
    loose = latency_bound.bound(kb, "h200", offline, workload.parse("model=llama-3.1-70b,ttft-ms=3000,tpot-ms=250"))
    server_claims = [c for c in kb.numeric_claims[(server.metric, "h200")] if server.reads(c)]
    assert set(loose.evidence) == {c.id for c in server_claims} and "MLPerf Server" in loose.note
    # 50 ms per token is tighter than MLPerf's 200 ms Server bound: no MLPerf result shows it is met
    tight = latency_bound.bound(kb, "h200", offline, workload.parse("model=llama-3.1-70b,ttft-ms=2000,tpot-ms=50"))
    assert tight.value is None and "Offline peak is not used" in tight.note
    peak = latency_bound.bound(kb, "h200", offline, workload.parse("model=llama-3.1-70b"))
    assert {kb.claims[e].conditions.scenario for e in peak.evidence} == {"Offline"}


def test_the_benchmark_nearest_the_model_is_chosen(kb) -> None:
    group = [kb.criteria[gc.criterion] for gc in kb.groups["llm-serving-single-accelerator"].criteria]
    assert latency_bound.closest(group, 8.0).id == SUITE_A
    assert latency_bound.closest(group, 0.5).id == "accelmark-suite-f"
    assert latency_bound.closest(group, 70.0).id == SUITE_A
    assert latency_bound.closest([kb.criteria["memory-capacity"]], 8.0) is None
