"""Benchmark outputs -> ``measured`` claims: one reader per tool, the hardware table, and the claim builder.

Supported: MLPerf LoadGen summaries (with their detail logs), trtexec and onnxruntime_perf_test console output and
llama-bench JSON; the local probe (:mod:`selector.measure.probe`) writes knowledge YAML directly. A file is
recognised by its content, not its name. Every refusal names the file, the line and what was expected, and nothing
is produced when any file is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from selector.io import limits, rawtext
from selector.issues import Issue
from selector.knowledge.models import KnowledgeBase
from selector.measure import hardware, llamabench, loadgen, ortperf, trtexec
from selector.measure.common import MeasureError, Options, Run, build_document

FORMATS = {
    "loadgen": "MLPerf LoadGen mlperf_log_summary.txt (+ mlperf_log_detail.txt)",
    "trtexec": "TensorRT trtexec console output",
    "llama-bench": "llama.cpp llama-bench -o json",
    "ort-perf-test": "ONNX Runtime onnxruntime_perf_test console output",
}
MAX_BYTES = 5_000_000

__all__ = ["FORMATS", "MeasureError", "Options", "detect", "ingest", "is_benchmark_output"]


def _text(name: str, data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise MeasureError([Issue("ERROR", name, None, None, f"{len(data):,} bytes; the limit is {MAX_BYTES:,}")])
    try:
        return rawtext.decode(name, data)
    except rawtext.RawTextError as exc:
        raise MeasureError(exc.issues) from None


def detect(name: str, data: bytes) -> str | None:
    """The format id of a benchmark output (``loadgen``, ``loadgen-detail``, ``trtexec``, ``llama-bench``,
    ``ort-perf-test``) or None."""
    head = data[:4000].decode("utf-8", "replace")
    if loadgen.is_summary(head):
        return "loadgen"
    if loadgen.is_detail(head):
        return "loadgen-detail"
    if trtexec.is_trtexec(head):
        return "trtexec"
    if ortperf.is_ort_perf_test(head):
        return "ort-perf-test"
    if llamabench.is_llama_bench(data[:200_000].decode("utf-8", "replace")):
        return "llama-bench"
    return None


def is_benchmark_output(name: str, data: bytes) -> bool:
    """True when `data` is one of the supported benchmark outputs."""
    return detect(name, data) is not None


def _unknown(name: str) -> Issue:
    expected = "; ".join(FORMATS.values())
    return Issue("ERROR", name, 1, None, f"not a benchmark output this tool reads; expected one of: {expected}")


def detail_name(summary: str) -> str:
    """The detail log's name beside a summary (``...mlperf_log_summary.txt`` -> ``...mlperf_log_detail.txt``)."""
    path = PurePath(summary)
    return str(path.with_name(path.name.replace("mlperf_log_summary", "mlperf_log_detail")))


@dataclass(frozen=True)
class Ingested:
    """What :func:`ingest` produced: the knowledge document and, per file, how its hardware was chosen."""

    document: dict[str, Any]
    runs: tuple[tuple[str, Run, str, str], ...]  # (file, run, hardware entity, how it was chosen)


def ingest(files: Sequence[tuple[str, bytes]], options: Options, kb: KnowledgeBase) -> Ingested:
    """Read benchmark outputs and build one knowledge document of ``measured`` claims.

    Parameters
    ----------
    files
        (name, bytes) of each file. A LoadGen detail log is paired with the summary of the same run (same folder,
        or same prefix before ``mlperf_log_``) and read with it; a detail log without its summary is refused.
    options
        What the user says (hardware entity, model, precision, ...).
    kb
        The knowledge the claims must resolve in (entities).

    Returns
    -------
    Ingested

    Raises
    ------
    MeasureError
        With every problem of every file; nothing is built when any file is refused.
    """
    issues: list[Issue] = []
    parsed: list[tuple[str, bytes, Run]] = []
    names = {name for name, _ in files}
    details = {name: data for name, data in files if detect(name, data) == "loadgen-detail"}
    if options.entity is not None and options.entity not in kb.entities:
        issues.append(
            Issue("ERROR", "--entity", None, options.entity, f"entity `{options.entity}` is not in the knowledge")
        )
    for name, data in files:
        if name in details:
            summary = name.replace("mlperf_log_detail", "mlperf_log_summary")
            if summary not in names:
                issues.append(
                    Issue("ERROR", name, 1, None, f"a LoadGen detail log is read with its summary; give {summary} too")
                )
            continue
        try:
            parsed.append((name, data, _read(name, data, details, options)))
        except MeasureError as exc:
            issues.extend(exc.issues)
    chosen: list[tuple[str, str]] = []
    for name, _, run in parsed:
        entity, how, problems = _hardware(name, run, options, kb)
        chosen.append((entity, how))
        issues.extend(problems)
    issues.extend(_subject_issues(parsed, options, kb))
    if issues:
        # the same cap as every check of a user's file: a list of thousands of problems takes a page minutes to draw
        raise MeasureError(limits.capped(list(dict.fromkeys(issues))))
    names_by_id = {e.id: e.name for e in kb.entities.values()}
    document = build_document(parsed, options, names_by_id, [entity for entity, _ in chosen])
    runs = tuple((name, run, entity, how) for (name, _, run), (entity, how) in zip(parsed, chosen, strict=True))
    return Ingested(document, runs)


def _read(name: str, data: bytes, details: dict[str, bytes], options: Options) -> Run:
    """The run in one file, read by its format's reader; a LoadGen summary is read with its detail log if given."""
    text = _text(name, data)
    fmt = detect(name, data)
    if fmt == "loadgen":
        run = loadgen.read_summary(name, text)
        detail = detail_name(name)
        if detail in details:
            run = loadgen.with_detail(run, name, detail, _text(detail, details[detail]))
        return run
    if fmt == "trtexec":
        return trtexec.read(name, text)
    if fmt == "llama-bench":
        return llamabench.read(name, text)
    if fmt == "ort-perf-test":
        return ortperf.read(name, text, options.batch)
    raise MeasureError([_unknown(name)])


def _hardware(name: str, run: Run, options: Options, kb: KnowledgeBase) -> tuple[str, str, list[Issue]]:
    """(entity, how it was chosen, problems) for one run: the problems say when the hardware or the model is unknown."""
    issues = []
    if options.entity:
        entity, how = options.entity, "chosen by the user"
    else:
        entity, how = hardware.resolve(run.hardware_names, kb.entities)
        if entity is None:
            issues.append(Issue("ERROR", name, None, None, f"{how}; say which entity the run was on (--entity ID)"))
    if not (options.workload or run.workload):
        message = "the file does not name the model; say which (--model NAME)"
        issues.append(Issue("ERROR", name, None, None, message))
    return entity or "", how, issues


def _subject_issues(parsed: list[tuple[str, bytes, Run]], options: Options, kb: KnowledgeBase) -> list[Issue]:
    """The subject (the runtime measured) must be an entity, whether the user names it or the tool does."""
    issues = []
    subject = options.subject
    if subject is not None and subject not in kb.entities:
        issues.append(Issue("ERROR", "--subject", None, subject, f"entity `{subject}` is not in the knowledge"))
    for name, _, run in parsed:
        if run.subject and run.subject not in kb.entities and not subject:
            message = f"entity `{run.subject}` (the tool's runtime) is not defined"
            issues.append(Issue("ERROR", name, None, None, message))
    return issues
