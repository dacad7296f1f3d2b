"""ONNX graphs with the architecture of ResNet-50 and BERT-base, built locally with random weights.

Nothing is downloaded: the probe times the architecture (its operators, shapes and FLOPs), not trained weights, and
a runtime's speed does not depend on the weight values. Batch normalisation is folded into the convolutions, as
deployment converters do; BERT's GELU is written with ``Erf`` (the form exporters emit and ONNX Runtime fuses).
"""

from __future__ import annotations

import math

import numpy as np

#: Probe model -> (workload wording the criteria use, input description).
MODELS = {
    "resnet50-like": ("resnet-50 image classification", "float32 [batch, 3, 224, 224]"),
    "bert-like": ("bert-base question answering, sequence 128", "int64 token ids [batch, 128]"),
}
OPSET = 17


class _Graph:
    """A tiny graph builder: unique names, random initialisers, nodes in order."""

    def __init__(self, seed: int) -> None:
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.rng = np.random.default_rng(seed)
        self.nodes: list = []
        self.inits: list = []
        self.count = 0

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}_{self.count}"

    def weight(self, shape: tuple[int, ...], fan_in: int) -> str:
        data = self.rng.standard_normal(shape, dtype=np.float32) * np.float32(math.sqrt(2.0 / fan_in))
        return self.const(data)

    def const(self, data: np.ndarray) -> str:
        name = self.name("w")
        self.inits.append(self.numpy_helper.from_array(np.ascontiguousarray(data), name))
        return name

    def op(self, op_type: str, inputs: list[str], **attrs: object) -> str:
        out = self.name(op_type.lower())
        self.nodes.append(self.helper.make_node(op_type, inputs, [out], **attrs))
        return out


def _conv(g: _Graph, x: str, cin: int, cout: int, k: int, stride: int = 1, relu: bool = True) -> str:
    w = g.weight((cout, cin, k, k), cin * k * k)
    b = g.const(np.zeros(cout, dtype=np.float32))
    y = g.op("Conv", [x, w, b], kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4)
    return g.op("Relu", [y]) if relu else y


def resnet50(seed: int = 0):  # noqa: ANN201 - returns onnx.ModelProto (onnx is imported lazily)
    """ResNet-50 v1.5: 7x7 stem, bottleneck stages of 3, 4, 6, 3 blocks, global pooling, 1000-way classifier."""
    from onnx import TensorProto

    g = _Graph(seed)
    x = _conv(g, "input", 3, 64, 7, 2)
    x = g.op("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    cin = 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for block in range(blocks):
            s = stride if block == 0 else 1
            y = _conv(g, x, cin, width, 1)
            y = _conv(g, y, width, width, 3, s)
            y = _conv(g, y, width, width * 4, 1, relu=False)
            shortcut = _conv(g, x, cin, width * 4, 1, s, relu=False) if block == 0 else x
            x = g.op("Relu", [g.op("Add", [y, shortcut])])
            cin = width * 4
    x = g.op("GlobalAveragePool", [x])
    x = g.op("Flatten", [x], axis=1)
    logits = g.op("Gemm", [x, g.weight((1000, 2048), 2048), g.const(np.zeros(1000, np.float32))], transB=1)
    return _model(g, "input", TensorProto.FLOAT, ["batch", 3, 224, 224], logits, ["batch", 1000], "resnet50-like")


def bert_base(seed: int = 0, layers: int = 12, hidden: int = 768, heads: int = 12, seq: int = 128):  # noqa: ANN201
    """BERT-base encoder: embeddings, 12 layers of 12-head self-attention and a 3072-wide GELU MLP."""
    from onnx import TensorProto

    g = _Graph(seed)
    head = hidden // heads
    words = g.weight((30522, hidden), hidden)
    positions = g.weight((1, seq, hidden), hidden)
    x = g.op("Add", [g.op("Gather", [words, "input_ids"], axis=0), positions])
    x = _layer_norm(g, x, hidden)
    split = g.const(np.array([0, 0, heads, head], dtype=np.int64))
    merge = g.const(np.array([0, 0, hidden], dtype=np.int64))
    scale = g.const(np.array(1.0 / math.sqrt(head), dtype=np.float32))
    for _ in range(layers):

        def heads_of(t: str) -> str:
            return g.op("Transpose", [g.op("Reshape", [t, split])], perm=[0, 2, 1, 3])

        q, k, v = (heads_of(_linear(g, x, hidden, hidden)) for _ in range(3))
        scores = g.op("Mul", [g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])]), scale])
        context = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        context = g.op("Reshape", [g.op("Transpose", [context], perm=[0, 2, 1, 3]), merge])
        x = _layer_norm(g, g.op("Add", [x, _linear(g, context, hidden, hidden)]), hidden)
        h = _linear(g, x, hidden, 4 * hidden)
        half, root2, one = (g.const(np.array(v, dtype=np.float32)) for v in (0.5, math.sqrt(2.0), 1.0))
        h = g.op("Mul", [g.op("Mul", [h, half]), g.op("Add", [g.op("Erf", [g.op("Div", [h, root2])]), one])])
        x = _layer_norm(g, g.op("Add", [x, _linear(g, h, 4 * hidden, hidden)]), hidden)
    return _model(g, "input_ids", TensorProto.INT64, ["batch", seq], x, ["batch", seq, hidden], "bert-like")


def _linear(g: _Graph, x: str, cin: int, cout: int) -> str:
    y = g.op("MatMul", [x, g.weight((cin, cout), cin)])
    return g.op("Add", [y, g.const(np.zeros(cout, dtype=np.float32))])


def _layer_norm(g: _Graph, x: str, width: int) -> str:
    gamma, beta = g.const(np.ones(width, np.float32)), g.const(np.zeros(width, np.float32))
    return g.op("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=1e-12)


def _model(g: _Graph, name: str, elem: int, shape: list, out: str, out_shape: list, graph_name: str):  # noqa: ANN202
    from onnx import TensorProto, helper

    inputs = [helper.make_tensor_value_info(name, elem, shape)]
    outputs = [helper.make_tensor_value_info(out, TensorProto.FLOAT, out_shape)]
    graph = helper.make_graph(g.nodes, graph_name, inputs, outputs, g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="ai-stack-selector")
    model.ir_version = 8
    return model


def build(name: str):  # noqa: ANN201 - onnx.ModelProto
    """The probe model `name` (a key of ``MODELS``)."""
    if name == "resnet50-like":
        return resnet50()
    if name == "bert-like":
        return bert_base()
    raise ValueError(f"unknown probe model `{name}`; choose one of {', '.join(MODELS)}")
