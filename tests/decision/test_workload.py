"""selector.decision.workload: the stated workload read from the compact form, a file and a link, each refusal naming
its
field."""

from __future__ import annotations

from pathlib import Path

import pytest

from selector.decision import preferences, workload
from selector.decision.preferences import Preferences
from selector.decision.workload import Workload, WorkloadError
from tests.refusals import said_in_both

ISSUE_EXAMPLE = (
    "model=llama-3.1-70b,precision=fp8,context=8192,output=1024,concurrency=32,ttft-ms=2000,tpot-ms=50,"
    "utilisation=0.5,power-price=0.12,api-price=0.6"
)


def test_the_issues_example_reads_field_by_field() -> None:
    w = workload.parse(ISSUE_EXAMPLE)
    assert (w.model, w.precision, w.context, w.output, w.concurrency) == ("llama-3.1-70b", "fp8", 8192, 1024, 32)
    assert (w.ttft_ms, w.tpot_ms, w.utilisation, w.power_price, w.api_price) == (2000, 50, 0.5, 0.12, 0.6)
    assert w.tokens_per_sequence == 9216
    # FP8 weights keep a BF16 KV cache unless the workload says otherwise
    assert w.cache_precision == "bf16"
    assert workload.parse(ISSUE_EXAMPLE + ",kv-precision=fp8").cache_precision == "fp8"


def test_the_compact_form_round_trips_and_leaves_out_defaults() -> None:
    w = workload.parse(ISSUE_EXAMPLE)
    assert workload.parse(w.text()) == w
    assert "utilisation" not in w.text()  # 0.5 is the default
    assert workload.parse("model=llama-3.1-8b").text() == "model=llama-3.1-8b"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("model=x,contxt=5", "unknown field `contxt`"),
        ("model=x,utilisation=1.5", "`utilisation`"),
        ("model=x,concurrency=2.5", "`concurrency`"),
        ("model=x,precision=fp4", "`precision` is 'fp4'"),
        ("model=x,ttft-ms=fast", "`ttft-ms`"),
        ("precision=fp8", "no `model`"),
        ("model=x,model=y", "`model` is given twice"),
        ("model=x,context", "`context` is not of the form field=value"),
        ("model=<b>", "`model`"),
    ],
)
def test_each_refusal_names_its_field(text: str, names: str) -> None:
    with pytest.raises(WorkloadError, match=None) as caught:
        workload.parse(text)
    assert names in str(caught.value)


def test_a_workload_file_is_read_through_the_guarded_reader_and_errors_name_the_line(tmp_path: Path) -> None:
    good = tmp_path / "w.yaml"
    good.write_text("model: llama-3.1-8b\nprecision: bf16\nconcurrency: 8\n", encoding="utf-8")
    assert workload.read(str(good)) == Workload(model="llama-3.1-8b", concurrency=8)
    bad = tmp_path / "bad.yaml"
    bad.write_text("model: llama-3.1-8b\nprecision: bf16\nconcurrency: many\n", encoding="utf-8")
    with pytest.raises(WorkloadError) as caught:
        workload.read(str(bad))
    assert "bad.yaml, line 3" in str(caught.value) and "`concurrency`" in str(caught.value)
    alias = tmp_path / "bomb.yaml"
    alias.write_text("a: &a [x, x]\nb: &b [*a, *a]\nmodel: *b\n", encoding="utf-8")
    with pytest.raises(WorkloadError):
        workload.read(str(alias))


def test_preferences_keep_the_canonical_workload_and_the_link_carries_it() -> None:
    prefs = Preferences(group="llm-inference-accelerators", workload=" " + ISSUE_EXAMPLE.replace(",", ", ") + " ")
    assert prefs.workload == workload.parse(ISSUE_EXAMPLE).text()
    query = preferences.to_query(prefs)
    assert query["wl"] == prefs.workload
    assert preferences.from_query(query, "x") == prefs
    with pytest.raises(ValueError, match="utilisation"):
        Preferences(group="g", workload="model=x,utilisation=0")


# A refusal keeps its English text and is said in Chinese with the user's values (issue 36)
@pytest.mark.parametrize(
    ("text", "english", "values"),
    [
        (
            "model=x,context=many",
            "workload: `context` (input (prompt) tokens per request): `many` is not a number; expected a number in "
            "digits, e.g. 275, 2.5, 1.2e+08",
            ("`context`", "`many`"),
        ),
        (
            "model=x,colour=red",
            "workload: unknown field `colour`; known fields: " + ", ".join(workload._KEYS),
            ("`colour`", "kv-precision, context"),
        ),
        (
            "model=x,precision=fp3",
            "workload: `precision` is 'fp3'; choose one of fp16, bf16, fp8, int8, int4",
            ("'fp3'",),
        ),
        (
            "model=x,layers=2.5",
            "workload: `layers` (your model's layers) must be a whole number, not 2.5",
            ("`layers`", "2.5"),
        ),
        ("zzz", "workload: `zzz` is not of the form field=value (e.g. model=llama-3.1-8b)", ("`zzz`",)),
    ],
)
def test_a_refusal_is_english_as_before_and_chinese_with_the_same_values(text, english, values):
    with pytest.raises(WorkloadError) as refused:
        workload.parse(text)
    said_in_both(refused.value, english, values)
