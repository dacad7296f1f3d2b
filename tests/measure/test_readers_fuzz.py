"""Every benchmark-output reader under mutations of the real files (hypothesis): a read either gives figures that are
finite and within their metric's bounds, or refuses with a MeasureError naming the file; never another exception."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from selector import measure
from selector.knowledge import loading as knowledge
from selector.knowledge import vocabulary
from tests.conftest import FIXTURES
from tests.examples import examples

KB = knowledge.load()
FILES = {
    "llama-bench": FIXTURES / "measure" / "llama_bench_rtx4080.json",
    "trtexec": FIXTURES / "measure" / "trtexec_h100_fp32.log",
    "loadgen": sorted((FIXTURES / "measure" / "loadgen").glob("*resnet50__Offline*.mlperf_log_summary.txt"))[0],
    "ort": FIXTURES / "measure" / "ort_perf_test_c1pro_sme2.txt",
}
TEXTS = {name: path.read_text(encoding="utf-8") for name, path in FILES.items()}
# what hostile edits put into a number's place or around it
REPLACEMENTS = [
    "",
    "1e",
    ".",
    "abc",
    "null",
    "true",
    "-5",
    "0",
    "1e400",
    "9" * 400,
    "700,5",
    "[" * 300,
    "{",
    '"',
    "\x00",
]


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(sorted(TEXTS)))
    text = TEXTS[name]
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(text)))
        length = draw(st.integers(0, 12))
        insert = draw(st.sampled_from(REPLACEMENTS) | st.text(max_size=8))
        text = text[:start] + insert + text[start + length :]
    return name, text


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_benchmark_output_is_read_within_bounds_or_refused(case: tuple[str, str]) -> None:
    name, text = case
    path = FILES[name]
    try:
        ingested = measure.ingest([(path.name, text.encode("utf-8"))], measure.Options(entity="h100", workload="m"), KB)
    except measure.MeasureError as exc:
        assert exc.issues and all(i.file for i in exc.issues)
        return
    for claim in ingested.document["claims"]:
        value = claim["value"]
        assert isinstance(value, float) and math.isfinite(value)
        assert vocabulary.bound_problem(KB.metrics, claim["metric"], value, str(value)) is None
