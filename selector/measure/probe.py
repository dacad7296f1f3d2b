"""The local probe: time ONNX Runtime on a locally built ResNet-50- or BERT-like model and describe the machine.

The probe measures the machine it runs on: throughput (samples per second over the timed window) and the latency
of each batch (median, p90, p99), with ONNX Runtime's best execution provider present (CUDA, ROCm, DirectML,
CoreML, OpenVINO before the CPU). The result is knowledge YAML of ``measured`` claims about the hardware entity:
the one the user names, or a new entity describing this machine (CPU model, cores, memory), which can join a
comparison group. The command line writes it; the app only reads such a file.
"""

from __future__ import annotations

import os
import platform
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from selector.measure.common import PER_DEVICE
from selector.measure.models import MODELS

#: Execution providers tried before the CPU, best first. Azure's provider calls a remote endpoint: never used.
PREFERRED_PROVIDERS = (
    "TensorrtExecutionProvider",
    "CUDAExecutionProvider",
    "ROCMExecutionProvider",
    "MIGraphXExecutionProvider",
    "OpenVINOExecutionProvider",
    "DmlExecutionProvider",
    "CoreMLExecutionProvider",
    "QNNExecutionProvider",
    "CPUExecutionProvider",
)
WARMUP_RUNS = 3


@dataclass(frozen=True)
class Machine:
    """What the probe ran on."""

    cpu: str
    logical_cores: int
    usable_cores: int
    memory_gb: float
    system: str
    python: str
    libraries: dict[str, str]

    def describe(self) -> str:
        libraries = ", ".join(f"{k} {v}" for k, v in self.libraries.items())
        return (
            f"CPU {self.cpu}; {self.usable_cores} of {self.logical_cores} logical cores usable; "
            f"{self.memory_gb:.1f} GB memory; {self.system}; Python {self.python}; {libraries}"
        )


@dataclass(frozen=True)
class ProbeResult:
    """One timed run: the model, batch, provider, per-batch latencies and the machine."""

    model: str
    batch: int
    provider: str
    seconds: float
    latencies_ms: tuple[float, ...]
    machine: Machine
    started: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def runs(self) -> int:
        return len(self.latencies_ms)

    @property
    def throughput(self) -> float:
        """Samples per second over the timed window (batches x batch size / wall time)."""
        return self.runs * self.batch / self.seconds

    def percentile(self, q: float) -> float:
        return float(np.percentile(np.array(self.latencies_ms), q))


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, else the platform's own words)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return re.sub(r"\s+", " ", line.split(":", 1)[1]).strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def memory_gb() -> float:
    """Physical memory in GB (0 when the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1e9
    except (ValueError, OSError, AttributeError):
        return 0.0


def machine() -> Machine:
    """Facts about this machine and the libraries the probe uses."""
    import onnx
    import onnxruntime

    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    return Machine(
        cpu=cpu_model(),
        logical_cores=os.cpu_count() or 1,
        usable_cores=usable,
        memory_gb=memory_gb(),
        system=platform.platform(),
        python=platform.python_version(),
        libraries={"onnxruntime": onnxruntime.__version__, "onnx": onnx.__version__, "numpy": np.__version__},
    )


def choose_provider(available: list[str]) -> str:
    """The best execution provider among `available` (CPU when nothing better is present)."""
    for provider in PREFERRED_PROVIDERS:
        if provider in available:
            return provider
    return "CPUExecutionProvider"


def _inputs(model: str, batch: int) -> np.ndarray:
    rng = np.random.default_rng(1)
    if model == "resnet50-like":
        return rng.standard_normal((batch, 3, 224, 224), dtype=np.float32)
    return rng.integers(0, 30522, size=(batch, 128), dtype=np.int64)


def run(
    model: str = "resnet50-like",
    batch: int = 1,
    seconds: float = 10.0,
    provider: str | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> ProbeResult:
    """Build `model`, warm up, then run batches for `seconds` and time each one.

    Parameters
    ----------
    model
        ``resnet50-like`` or ``bert-like`` (see :data:`selector.measure.models.MODELS`).
    batch
        Samples per inference (at least 1).
    seconds
        Length of the timed window (at least one batch runs).
    provider
        An ONNX Runtime execution provider; default the best one present.
    progress
        Called with a line of progress about once a second.

    Returns
    -------
    ProbeResult
    """
    import onnxruntime as ort

    from selector.measure import models

    if model not in MODELS:
        raise ValueError(f"unknown probe model `{model}`; choose one of {', '.join(MODELS)}")
    if batch < 1 or not seconds > 0:
        raise ValueError("batch must be at least 1 and seconds positive")
    chosen = provider or choose_provider(ort.get_available_providers())
    facts = machine()
    progress(f"building {model} (architecture only, random weights) ...")
    graph = models.build(model).SerializeToString()
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(graph, options, providers=[chosen])
    used = session.get_providers()[0]
    feed = {session.get_inputs()[0].name: _inputs(model, batch)}
    progress(f"warming up on {used} ({WARMUP_RUNS} batches of {batch}) ...")
    for _ in range(WARMUP_RUNS):
        session.run(None, feed)
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    latencies: list[float] = []
    begin = time.perf_counter()
    next_report = begin + 1.0
    while True:
        t0 = time.perf_counter()
        session.run(None, feed)
        t1 = time.perf_counter()
        latencies.append((t1 - t0) * 1e3)
        if t1 >= next_report:
            elapsed = t1 - begin
            rate = len(latencies) * batch / elapsed
            progress(f"{elapsed:5.1f}/{seconds:g} s  {len(latencies)} batches  {rate:.1f} samples/s")
            next_report = t1 + 1.0
        if t1 - begin >= seconds:
            break
    total = time.perf_counter() - begin
    return ProbeResult(model, batch, used, total, tuple(latencies), facts, started)


def machine_entity_id(facts: Machine) -> str:
    """An entity id for this machine: ``machine-`` and the CPU model, e.g. ``machine-intel-r-xeon-r-processor``."""
    slug = re.sub(r"[^a-z0-9]+", "-", facts.cpu.lower()).strip("-")[:60].rstrip("-")
    return f"machine-{slug or 'unknown'}-{facts.usable_cores}c"


def document(
    result: ProbeResult,
    entity: str | None = None,
    entity_name: str | None = None,
    segment: str = "datacenter",
    groups: tuple[str, ...] = (),
    user: str = "user",
) -> dict[str, Any]:
    """The knowledge YAML (plain data) of a probe result: source, optional machine entity, measured claims.

    Parameters
    ----------
    result
        What :func:`run` returned.
    entity
        An existing hardware entity the run was on; None declares a new entity for this machine.
    entity_name
        Name of the new entity (default: the CPU model and core count).
    segment
        Segment of the new entity (accelerators need one).
    groups
        Comparison groups the new entity joins.
    user
        Who ran it.
    """
    facts = result.machine
    stamp = re.sub(r"[^0-9]", "", result.started)[:14]
    source_id = f"user-probe-{stamp}"
    subject = entity or machine_entity_id(facts)
    doc: dict[str, Any] = {
        "sources": [
            {
                "id": source_id,
                "kind": "user",
                "title_en": f"ONNX Runtime probe, {result.model}, batch {result.batch}, {result.started}",
                "language": "en",
                "author": user,
            }
        ]
    }
    if entity is None:
        doc["entities"] = [_machine_entity(subject, facts, entity_name, segment, groups)]
    doc["claims"] = _claims(result, subject, source_id, stamp)
    return doc


def _machine_entity(
    entity_id: str, facts: Machine, name: str | None, segment: str, groups: tuple[str, ...]
) -> dict[str, Any]:
    """The entity record that describes this machine, for a run on hardware the knowledge does not have."""
    record: dict[str, Any] = {
        "id": entity_id,
        "name": (name or f"{facts.cpu} ({facts.usable_cores} cores)")[:200],
        "kind": "accelerator",
        "segment": segment,
        "description_en": f"The machine the probe ran on: {facts.describe()}."[:4000],
        # the Chinese twin, so that the file the probe writes loads without a missing-translation warning
        "description_zh": f"探测程序运行所在的机器：{facts.describe()}。"[:4000],
    }
    if groups:
        record["groups"] = list(groups)
    return record


def _claims(result: ProbeResult, subject: str, source_id: str, stamp: str) -> list[dict[str, Any]]:
    """The measured claims of a probe run: throughput and the median, p90 and p99 latency per batch."""
    facts = result.machine
    workload, inputs = MODELS[result.model]
    version = f"onnxruntime {facts.libraries.get('onnxruntime', '?')} {result.provider}"
    conditions = {
        "workload": workload,
        "task": "inference",
        "hardware": subject,
        "precision": "fp32",
        "batch": str(result.batch),
        "version": version[:200],
    }
    note = (
        f"ONNX Runtime probe (python -m selector measure run): {result.model} built locally with random weights, "
        f"input {inputs}; {result.runs} batches timed over {result.seconds:.2f} s after {WARMUP_RUNS} warm-up "
        f"batches, started {result.started}. Machine: {facts.describe()}."
    )
    figures = [
        ("throughput" if result.model == "resnet50-like" else "samples_per_second", result.throughput, PER_DEVICE),
        ("latency_ms", result.percentile(50), "median latency per batch"),
        ("latency_p90_ms", result.percentile(90), None),
        ("latency_p99_ms", result.percentile(99), None),
    ]
    units = {"throughput": "img/s", "samples_per_second": "samples/s"}
    claims = []
    for metric, value, scope in figures:
        unit = units.get(metric, "ms")
        claims.append(
            {
                "id": f"m-probe-{stamp}-{metric.replace('_', '-')}",
                "source": source_id,
                "tier": "measured",
                "kind": "latency" if unit == "ms" else "benchmark",
                "text_en": f"Your ONNX Runtime probe ({result.model}, batch {result.batch}, {result.provider}): "
                f"{metric} = {value:.6g} {unit}.",
                "about": [subject],
                "subject": subject,
                "metric": metric,
                "value": round(float(value), 6),
                "unit": unit,
                "conditions": {**conditions, **({"scope": scope} if scope else {})},
                "note": note[:4000],
            }
        )
    return claims
