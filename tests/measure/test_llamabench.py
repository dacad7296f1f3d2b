"""Tests of selector/measure/llamabench.py on llama.cpp's own documented ``-o json`` output: tokens per second equal
each entry's ``avg_ts``, pp and tg are told apart, and malformed or truncated JSON is refused with its line."""

from __future__ import annotations

import json

import pytest

from selector import measure
from selector.knowledge import loading as knowledge
from selector.measure import llamabench
from tests.conftest import FIXTURES

JSON = FIXTURES / "measure" / "llama_bench_rtx4080.json"
KB = knowledge.load()


def test_tokens_per_second_equal_avg_ts_of_each_entry() -> None:
    entries = json.loads(JSON.read_text())
    run = llamabench.read(JSON.name, JSON.read_text())
    assert [f.value for f in run.figures] == [e["avg_ts"] for e in entries]
    assert [f.metric for f in run.figures] == ["prompt_tokens_per_second", "generation_tokens_per_second"]
    assert [f.scope for f in run.figures] == [f"pp{entries[0]['n_prompt']}", f"tg{entries[1]['n_gen']}"]
    assert run.precision == "Q4_K - Medium"
    assert run.hardware_names == (entries[0]["gpu_info"],)
    assert run.versions["llama.cpp"] == f"build {entries[0]['build_number']} ({entries[0]['build_commit']})"
    text = JSON.read_text().split("\n")
    assert [text[f.line - 1].strip() for f in run.figures] == ["{", "{"]


def test_an_unknown_gpu_needs_the_users_entity() -> None:
    files = [(JSON.name, JSON.read_bytes())]
    with pytest.raises(measure.MeasureError) as caught:
        measure.ingest(files, measure.Options(), KB)
    assert "RTX 4080" in caught.value.issues[0].message
    claims = measure.ingest(files, measure.Options(entity="h200"), KB).document["claims"]
    assert {c["subject"] for c in claims} == {"h200"}
    assert {c["unit"] for c in claims} == {"tokens/s"}


def test_truncated_and_malformed_json_is_refused_with_its_line() -> None:
    text = JSON.read_text()
    cut = text[: len(text) // 2]
    with pytest.raises(measure.MeasureError) as caught:
        llamabench.read("bench.json", cut)
    issue = caught.value.issues[0]
    assert issue.file == "bench.json" and issue.line == cut.count("\n") + 1 and "truncated" in issue.message
    entries = json.loads(text)
    del entries[1]["avg_ts"]
    with pytest.raises(measure.MeasureError) as caught:
        llamabench.read("bench.json", json.dumps(entries, indent=2))
    assert "entry 2 lacks avg_ts" in caught.value.issues[0].message


def test_detect_tells_formats_by_content_not_name() -> None:
    assert measure.detect("x.txt", JSON.read_bytes()) == "llama-bench"
    assert measure.detect("x.json", b'{"a": 1}') is None
    assert measure.detect("mlperf_log_summary.txt", b"hello") is None
