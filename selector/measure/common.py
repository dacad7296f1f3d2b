"""What every benchmark-output reader returns, and how a parsed run becomes ``measured`` knowledge records.

A reader (one module per tool) turns a file into a :class:`Run`: the figures it states, each with the line it came
from, and the conditions the file itself gives (model, precision, batch, scenario, software versions, hardware it
names). :func:`build_document` adds what only the user can say (which entity the run was on, when the file does not
name it) and writes the knowledge YAML an upload or ``--extra`` reads: one ``user`` source per file (named by its
sha256) and one ``measured`` claim per figure.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from selector.errors import SelectorError
from selector.io import numbers
from selector.issues import Issue


class MeasureError(SelectorError):
    """A benchmark output that cannot be used; ``issues`` say which file, which line and what was expected."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        self.issues = tuple(issues)
        super().__init__("; ".join(str(i) for i in self.issues))


def refuse(file: str, line: int | None, message: str) -> MeasureError:
    """A :class:`MeasureError` with one ERROR issue."""
    return MeasureError([Issue("ERROR", file, line, None, message)])


@dataclass(frozen=True)
class Figure:
    """One number a benchmark output states, converted once to the unit the knowledge uses.

    Attributes
    ----------
    metric
        The metric id (see ``METRICS``).
    value
        The value in ``unit`` (latencies in ns or s converted to ms; nothing else is converted).
    unit
        The unit of ``value``.
    label
        What the file calls it, e.g. ``Samples per second`` or ``90.0th percentile latency (ns)``.
    line
        The 1-based line of the file it was read from (None for JSON entries without lines).
    raw
        The figure as written in the file, before any conversion.
    scope
        What the figure covers when the metric alone does not say (``p90 per query``, ``tg128``).
    """

    metric: str
    value: float
    unit: str
    label: str
    line: int | None
    raw: str
    scope: str | None = None


@dataclass(frozen=True)
class Run:
    """A parsed benchmark output: the tool, its figures and the conditions the file states.

    Attributes
    ----------
    tool
        Human name of the tool (``MLPerf LoadGen``, ``trtexec``, ``llama-bench``).
    fmt
        The format id (``loadgen``, ``trtexec``, ``llama-bench``).
    figures
        The numbers, in file order.
    workload
        The model/workload as the file (or its path) names it; None when the user must say.
    precision, batch, scenario
        As the file states them, else None.
    versions
        Software and its version (``LoadGen``: ``5.1.0 @ 091d51f041``).
    hardware_names
        Device names the file gives (``NVIDIA H100 PCIe``), matched against entities by ``hardware.py``.
    subject
        The entity the figures belong to when the tool measures one runtime (``tensorrt`` for trtexec); None when
        the figures describe the system (LoadGen, llama-bench), whose entity the user names.
    facts
        Other stated conditions worth keeping with the claim (test parameters, validity, dates).
    """

    tool: str
    fmt: str
    figures: tuple[Figure, ...]
    workload: str | None = None
    precision: str | None = None
    batch: str | None = None
    scenario: str | None = None
    versions: Mapping[str, str] = field(default_factory=dict)
    hardware_names: tuple[str, ...] = ()
    subject: str | None = None
    facts: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Options:
    """What the user says about a run that the file may not.

    Attributes
    ----------
    entity
        The hardware entity the run was on (required when the file names no device the knowledge knows).
    subject
        The entity the figures belong to, when not the tool's runtime or the hardware (rarely needed).
    workload, precision, batch
        Override or supply what the file does not state.
    accelerators
        Accelerators in the system (a LoadGen result is per system); adds derived per-accelerator figures.
    user
        Who measured (named in the source record).
    """

    entity: str | None = None
    subject: str | None = None
    workload: str | None = None
    precision: str | None = None
    batch: str | None = None
    accelerators: int | None = None
    user: str = "user"


#: Every metric a reader may emit, with its unit and whether larger is better. Metrics a criterion reads use that
#: criterion's unit (``throughput`` img/s, ``latency_ms`` ms).
METRICS: Mapping[str, tuple[str, str]] = {
    "throughput": ("img/s", "max"),
    "samples_per_second": ("samples/s", "max"),
    "tokens_per_second": ("tokens/s", "max"),
    "queries_per_second": ("queries/s", "max"),
    "prompt_tokens_per_second": ("tokens/s", "max"),
    "generation_tokens_per_second": ("tokens/s", "max"),
    "latency_ms": ("ms", "min"),
    "latency_mean_ms": ("ms", "min"),
    "latency_p50_ms": ("ms", "min"),
    "latency_p90_ms": ("ms", "min"),
    "latency_p95_ms": ("ms", "min"),
    "latency_p99_ms": ("ms", "min"),
    "ttft_p50_ms": ("ms", "min"),
    "ttft_p99_ms": ("ms", "min"),
    "tpot_p50_ms": ("ms", "min"),
    "tpot_p99_ms": ("ms", "min"),
    "gpu_compute_median_ms": ("ms", "min"),
    "tokens_per_s_per_accelerator": ("tokens/s per accelerator (derived)", "max"),
}
#: Throughput metrics: a LoadGen result is per system, so these are scoped ``system``, or ``per device`` when
#: the user gives the accelerator count (a derived figure: system result / count).
RATES = frozenset({"throughput", "samples_per_second", "tokens_per_second", "queries_per_second"})
PER_DEVICE = "per device"
#: Rates whose per-device share has a metric of its own (that of the MLPerf import).
PER_DEVICE_METRICS: Mapping[str, tuple[str, str]] = {
    "tokens_per_second": ("tokens_per_s_per_accelerator", "tokens/s per accelerator (derived)"),
}

#: Image workloads whose samples are images: their throughput is ``throughput`` in img/s, as the criteria read it.
_IMAGE_WORKLOAD = re.compile(r"resnet|retinanet|mobilenet|efficientnet|stable[- ]?diffusion|yolo|image", re.I)


def throughput_metric(workload: str | None) -> str:
    """``throughput`` (img/s) for an image workload, else ``samples_per_second``."""
    return "throughput" if workload and _IMAGE_WORKLOAD.search(workload) else "samples_per_second"


def sha256(data: bytes) -> str:
    """The hex sha256 of `data`."""
    return hashlib.sha256(data).hexdigest()


def number(text: str) -> float:
    """A figure as written in a benchmark output (``92.1544``, ``1.29477e+08``) as a float.

    Raises
    ------
    selector.io.numbers.NumberRefused
        (a ValueError) For what is not a finite number in range, a negative one, or one written with a comma.
    """
    return numbers.parse_number(text, low=0)


def figure_number(name: str, line: int | None, key: str, text: str, unit: str = "") -> float:
    """:func:`number` of the value of line `key`, or a refusal naming the file, the line and what was expected."""
    try:
        return number(text)
    except numbers.NumberRefused as exc:
        expected = f"a number{' of ' + unit if unit else ''} from 0 up"
        raise refuse(name, line, f"`{key}`: {exc}; expected {expected}") from None


def stated_once(
    name: str, entries: Iterable[tuple[int, str, str]], checked: Collection[str] | None = None
) -> dict[str, tuple[int, str]]:
    """key -> (line, value) of `entries` (line, key, value), the first line of each key kept.

    A key of `checked` (every key when None) written again with a different value makes the file ambiguous (which
    one was measured?): it is refused at the second line, naming the first. The same value twice is kept.

    Raises
    ------
    MeasureError
        For a checked key stated twice with different values.
    """
    found: dict[str, tuple[int, str]] = {}
    for line, key, value in entries:
        first = found.setdefault(key, (line, value))
        if first[1] != value and (checked is None or key in checked):
            raise refuse(
                name,
                line,
                f"`{key[:40]}` is stated twice with different values (`{first[1][:30]}` on line {first[0]}, "
                f"`{value[:30]}` here); give the tool's output as it wrote it, one run per file",
            )
    return found


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _short(value: float) -> str:
    return f"{value:.6g}"


def build_document(
    runs: Sequence[tuple[str, bytes, Run]],
    options: Options,
    entity_names: Mapping[str, str],
    hardware: Sequence[str],
) -> dict[str, Any]:
    """The knowledge YAML (as plain data) for parsed runs: a ``user`` source per file, a ``measured`` claim per figure.

    Parameters
    ----------
    runs
        (file name, file bytes, parsed run) for each file.
    options
        What the user said (see :class:`Options`).
    entity_names
        Entity id -> name, for the sentences.
    hardware
        The hardware entity id of each run (resolved by the caller: the user's, or detected).

    Returns
    -------
    dict
        ``{"sources": [...], "claims": [...]}`` in the knowledge schema.
    """
    sources: list[dict[str, Any]] = []
    claims: list[dict[str, Any]] = []
    for (name, data, run), entity in zip(runs, hardware, strict=True):
        measured = _measured(name, data, run, entity, options)
        sources.append(
            {
                "id": measured.source_id,
                "kind": "user",
                "title_en": f"{run.tool} output {measured.base} (sha256 {measured.digest})",
                "language": "en",
                "author": options.user,
            }
        )
        used: dict[str, int] = {}
        for figure in _figures(run, measured.workload, options.accelerators):
            key = figure.metric + (f"-{_slug(figure.scope)}" if figure.scope else "")
            used[key] = used.get(key, 0) + 1
            claim_id = f"m-{measured.digest[:12]}-{key}" + (f"-{used[key]}" if used[key] > 1 else "")
            claims.append(_claim(measured, figure, claim_id, entity_names.get(entity, entity)))
    return {"sources": sources, "claims": claims}


@dataclass(frozen=True)
class _Measured:
    """What every claim of one file shares: the file, the run, and the conditions the file and the user state."""

    run: Run
    base: str  # the file name without its folders
    digest: str
    entity: str
    subject: str
    workload: str | None
    precision: str | None
    conditions: Mapping[str, str | None]
    facts: str

    @property
    def source_id(self) -> str:
        return f"user-measured-{self.digest[:12]}"


def _measured(name: str, data: bytes, run: Run, entity: str, options: Options) -> _Measured:
    """The user's word where given, else the file's."""
    workload = options.workload or run.workload
    precision = options.precision or run.precision
    version = "; ".join(f"{k} {v}" for k, v in run.versions.items()) or None
    conditions = {
        "workload": workload,
        "task": "inference",
        "hardware": entity,
        "precision": precision,
        "batch": options.batch or run.batch,
        "version": version[:200] if version else None,
        "scenario": run.scenario,
    }
    return _Measured(
        run=run,
        base=name.replace("\\", "/").rsplit("/", 1)[-1],
        digest=sha256(data),
        entity=entity,
        subject=options.subject or run.subject or entity,
        workload=workload,
        precision=precision,
        conditions=conditions,
        facts="; ".join(f"{k}: {v}" for k, v in run.facts.items()),
    )


def _figures(run: Run, workload: str | None, accelerators: int | None) -> list[Figure]:
    """The run's figures as stored: metric by workload, rates scoped, and per-device shares of a multi-chip run."""
    figures = [_scoped(_for_workload(f, workload), run, accelerators) for f in run.figures]
    if run.fmt == "loadgen" and accelerators and accelerators > 1:
        figures += [_per_device(f, accelerators) for f in run.figures if f.metric in RATES]
    return figures


def _claim(measured: _Measured, figure: Figure, claim_id: str, entity_name: str) -> dict[str, Any]:
    """The ``measured`` claim of one figure: a sentence, and a note that says where in the file the number is."""
    run, workload, entity, subject = measured.run, measured.workload, measured.entity, measured.subject
    where = f"line {figure.line}" if figure.line else "entry"
    text = (
        f"Your {run.tool} run on {entity_name}"
        + (f" ({workload})" if workload else "")
        + f": {figure.label.replace(' (ns)', '').removesuffix(' (s)')} = {_short(figure.value)} {figure.unit}."
    )
    note = (
        f"Measured: {measured.base} (sha256 {measured.digest}), {where}: `{figure.raw}`"
        + (" (ns converted to ms)" if "(ns)" in figure.label else "")
        + (" (s converted to ms)" if figure.label.endswith("(s)") else "")
        + (f". {measured.facts}" if measured.facts else "")
        + ("" if measured.precision else ". The file does not state the precision.")
    )
    return {
        "id": claim_id[:80],
        "source": measured.source_id,
        "tier": "measured",
        "kind": "latency" if figure.metric.endswith("_ms") else "benchmark",
        "text_en": text[:4000],
        "about": [subject] + ([entity] if entity != subject else []),
        "subject": subject,
        "metric": figure.metric,
        "value": figure.value,
        "unit": figure.unit,
        "conditions": {
            k: v
            for k, v in {**measured.conditions, "scope": figure.scope}.items()
            if v is not None and str(v).strip() != ""
        },
        "note": note[:4000],
    }


def _for_workload(figure: Figure, workload: str | None) -> Figure:
    """A throughput under the metric its workload calls for (img/s for images), once the user has named the model."""
    if figure.metric not in ("throughput", "samples_per_second"):
        return figure
    metric = throughput_metric(workload)
    return Figure(metric, figure.value, METRICS[metric][0], figure.label, figure.line, figure.raw, figure.scope)


def _scoped(figure: Figure, run: Run, accelerators: int | None) -> Figure:
    """A LoadGen rate scoped to what it covers: the system, or one device when the system has one."""
    if run.fmt != "loadgen" or figure.metric not in RATES or figure.scope:
        return figure
    scope = PER_DEVICE if accelerators == 1 else "system"
    return Figure(figure.metric, figure.value, figure.unit, figure.label, figure.line, figure.raw, scope)


def _per_device(figure: Figure, count: int) -> Figure:
    """A system rate divided by the accelerator count: a derived figure, said so in its label.

    LLM tokens per second per accelerator use the metric and unit of the MLPerf import
    (``tokens_per_s_per_accelerator``), so that a user's run meets the published figures of the same chip.
    """
    label = f"{figure.label} / {count} accelerators (derived per-device figure, not a LoadGen result)"
    metric, unit = PER_DEVICE_METRICS.get(figure.metric, (figure.metric, figure.unit))
    return Figure(metric, figure.value / count, unit, label, figure.line, figure.raw, PER_DEVICE)
