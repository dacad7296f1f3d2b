"""Tests of selector/measure/models.py and selector/measure/probe.py: the locally built graphs have the named
architecture and run in ONNX Runtime, and a short probe gives consistent figures and a valid upload."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from selector.io import yamlio
from selector.measure import models, probe
from selector.uploads import intake
from tests.conftest import KNOWLEDGE


@pytest.fixture(scope="module")
def resnet() -> onnx.ModelProto:
    return models.resnet50()


def test_resnet50_like_has_resnet50s_layers_and_parameters(resnet: onnx.ModelProto) -> None:
    onnx.checker.check_model(resnet)
    ops = [n.op_type for n in resnet.graph.node]
    assert ops.count("Conv") == 53  # 1 stem + 16 blocks x 3 + 4 projection shortcuts
    assert ops.count("Gemm") == 1
    parameters = sum(int(np.prod(t.dims)) for t in resnet.graph.initializer)
    assert 25_000_000 < parameters < 26_000_000  # ResNet-50 has 25.6 M (batch norm folded here)


@pytest.mark.slow
def test_bert_like_is_twelve_attention_layers() -> None:
    model = models.bert_base(layers=2)
    onnx.checker.check_model(model)
    ops = [n.op_type for n in model.graph.node]
    assert ops.count("Softmax") == 2 and ops.count("LayerNormalization") == 1 + 2 * 2
    assert models.bert_base().graph.node[-1].op_type == "LayerNormalization"


def test_provider_choice_prefers_an_accelerator_and_never_azure() -> None:
    assert probe.choose_provider(["AzureExecutionProvider", "CPUExecutionProvider"]) == "CPUExecutionProvider"
    assert probe.choose_provider(["CPUExecutionProvider", "CUDAExecutionProvider"]) == "CUDAExecutionProvider"


@pytest.mark.slow
def test_a_short_probe_gives_consistent_figures_and_a_valid_upload() -> None:
    lines: list[str] = []
    result = probe.run("resnet50-like", batch=1, seconds=0.3, progress=lines.append)
    assert result.runs >= 1 and result.provider == "CPUExecutionProvider"
    assert result.throughput == pytest.approx(result.runs / result.seconds)
    assert min(result.latencies_ms) <= result.percentile(50) <= result.percentile(99) <= max(result.latencies_ms)
    assert any("warming up" in line for line in lines)
    document = probe.document(result, groups=("edge-accelerators",), segment="edge")
    (entity,) = document["entities"]
    assert entity["id"] == probe.machine_entity_id(result.machine) and entity["groups"] == ["edge-accelerators"]
    assert result.machine.cpu in entity["description_en"] and result.machine.cpu in entity["description_zh"]
    values = {c["metric"]: c["value"] for c in document["claims"]}
    assert values["throughput"] == pytest.approx(result.throughput, rel=1e-6)
    assert values["latency_ms"] == pytest.approx(result.percentile(50), rel=1e-6)
    data = yamlio.dump_yaml(document).encode()
    checked = intake.validate_upload("probe.yaml", data, KNOWLEDGE)
    assert checked.ok, [str(i) for i in checked.issues]
    assert not [str(i) for i in checked.issues if "twin" in i.message]  # written in both languages
