"""selector.decision.engine_support and the support table's checks: what the engines' documentation says runs, and a
table
naming an unknown engine or accelerator refused with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from selector.decision import engine_support
from selector.knowledge import loading as knowledge


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_documented_undocumented_and_unknown(kb) -> None:
    yes = engine_support.runs(kb, "h100", "fp8")
    assert yes.runs is True and "vllm-nvidia-hopper-ada" in yes.rows and "FP8" in yes.text
    # Ampere: FP8 compute is not in vLLM's, SGLang's or TensorRT-LLM's table for it
    no = engine_support.runs(kb, "a100", "fp8")
    assert no.runs is False and "not FP8" in no.text and "vllm-nvidia-ampere" in no.text
    assert engine_support.runs(kb, "a100", "fp8", engine="llama-cpp").runs is False
    unknown = engine_support.runs(kb, "loihi-2", "bf16")
    assert unknown.runs is None and unknown.rows == () and "documents no" in unknown.text
    # one engine only: MLX has no row for an NVIDIA part
    assert engine_support.runs(kb, "h100", "bf16", engine="mlx").runs is None


def test_every_row_cites_the_engines_page(kb) -> None:
    assert {r.engine for r in kb.support.values()} >= {"vllm", "sglang", "tensorrt-llm", "llama-cpp", "lmdeploy"}
    for row in kb.support.values():
        assert row.url.startswith("https://") and row.says_en


def _with_row(knowledge_copy: Path, row: str) -> list:
    path = knowledge_copy / "support.yaml"
    path.write_text(path.read_text(encoding="utf-8") + row, encoding="utf-8")
    kb, issues = knowledge.collect(knowledge_copy)
    assert kb is None
    return [i for i in issues if i.level == "ERROR"]


ROW = """  - id: bad-row
    engine: {engine}
    accelerators: [h100, {accelerator}]
    precisions: [{precision}]
    url: https://example.org
    says_en: x
    recorded: "2026-12-02"
"""


@pytest.mark.slow
def test_an_unknown_accelerator_is_refused_with_file_and_line(knowledge_copy: Path) -> None:
    lines = (knowledge_copy / "support.yaml").read_text(encoding="utf-8").count("\n")
    errors = _with_row(knowledge_copy, ROW.format(engine="vllm", accelerator="h1000", precision="bf16"))
    assert len(errors) == 1
    assert errors[0].file.endswith("support.yaml") and errors[0].line == lines + 3
    assert "accelerator `h1000` is not defined" in errors[0].message and errors[0].record == "bad-row"


@pytest.mark.slow
def test_an_engine_that_is_not_a_framework_and_an_unknown_precision_are_refused(knowledge_copy: Path) -> None:
    errors = _with_row(knowledge_copy, ROW.format(engine="h200", accelerator="b200", precision="bf16"))
    assert any("engine `h200` is of kind accelerator, not a framework" in e.message for e in errors)
    errors = _with_row(knowledge_copy, ROW.format(engine="vllm", accelerator="b200", precision="fp4"))
    assert any("support.yaml" in e.file for e in errors)
