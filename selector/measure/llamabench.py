"""llama.cpp ``llama-bench -o json`` output: prompt-processing and generation speed in tokens per second.

Each entry of the JSON array is one test: ``pp`` (``n_prompt`` tokens, no generation), ``tg`` (``n_gen`` tokens
generated) or both. ``avg_ts`` is the mean tokens per second over the repetitions (``samples_ts``); the quantisation
is the end of ``model_type`` (``qwen2 7B Q4_K - Medium``). The device is ``gpu_info`` when a GPU backend ran the
layers, else ``cpu_info``.
"""

from __future__ import annotations

import json
import math
import re

from selector.issues import Issue
from selector.measure.common import Figure, MeasureError, Run, refuse

_REQUIRED = ("n_prompt", "n_gen", "avg_ts", "model_type", "build_commit")
_QUANT = re.compile(r"\s((?:[A-Z]+\d*_?[A-Z0-9_]*|[a-z]*F\d+|BF16|F16|F32)(?: - \w+)?)$")


def is_llama_bench(text: str) -> bool:
    """True when `text` looks like llama-bench JSON (an array whose objects carry ``avg_ts``)."""
    head = text[:3000]
    return head.lstrip().startswith("[") and '"avg_ts"' in text and '"build_commit"' in head


def _line_of(text: str, index: int) -> int | None:
    """The line of the `index`-th top-level object (the line of its ``{``), found by counting braces."""
    depth, count = 0, -1
    line = 1
    in_string = escape = False
    for char in text:
        if char == "\n":
            line += 1
        if in_string:
            escape = not escape and char == "\\"
            if char == '"' and not escape:
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if char == "{" and depth == 2:
                count += 1
                if count == index:
                    return line
        elif char in "]}":
            depth -= 1
    return None


def read(name: str, text: str) -> Run:
    """Parse llama-bench JSON.

    Raises
    ------
    MeasureError
        When the JSON is malformed or truncated, is not an array of test objects, or an entry lacks a field it needs.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise refuse(
            name, exc.lineno, f"not valid JSON ({exc.msg}); llama-bench -o json writes one array (truncated?)"
        ) from None
    if not isinstance(data, list) or not data or not all(isinstance(e, dict) for e in data):
        raise refuse(name, 1, "expected a JSON array of llama-bench test objects (`llama-bench -o json`)")
    issues = []
    for index, entry in enumerate(data):
        lacking = [k for k in _REQUIRED if k not in entry]
        if lacking:
            issues.append(
                Issue("ERROR", name, _line_of(text, index), None, f"entry {index + 1} lacks {', '.join(lacking)}")
            )
        elif not isinstance(entry["avg_ts"], int | float) or not math.isfinite(entry["avg_ts"]):
            issues.append(Issue("ERROR", name, _line_of(text, index), None, f"entry {index + 1}: avg_ts not a number"))
    if issues:
        raise MeasureError(issues)
    first = data[0]
    builds = {(e.get("build_commit"), e.get("build_number"), e.get("model_type")) for e in data}
    if len(builds) > 1:
        raise refuse(name, 1, "entries come from different builds or models; ingest one llama-bench run per file")
    figures = []
    for index, entry in enumerate(data):
        n_prompt, n_gen = int(entry["n_prompt"]), int(entry["n_gen"])
        depth = int(entry.get("n_depth") or 0)
        if n_prompt and n_gen:
            metric, scope = "tokens_per_second", f"pp{n_prompt}+tg{n_gen}"
        elif n_prompt:
            metric, scope = "prompt_tokens_per_second", f"pp{n_prompt}"
        else:
            metric, scope = "generation_tokens_per_second", f"tg{n_gen}"
        if depth:
            scope += f" @ d{depth}"
        extra = f"batch {entry.get('n_batch')}, threads {entry.get('n_threads')}, ngl {entry.get('n_gpu_layers')}"
        figures.append(
            Figure(
                metric,
                float(entry["avg_ts"]),
                "tokens/s",
                f"avg_ts ({scope}; {extra})",
                _line_of(text, index),
                f"avg_ts {entry['avg_ts']} ± {entry.get('stddev_ts')}",
                scope,
            )
        )
    model_type = str(first["model_type"])
    quant = _QUANT.search(model_type)
    backend = str(first.get("backends") or "")
    device = first.get("gpu_info") if backend and backend.upper() not in ("CPU", "BLAS") else first.get("cpu_info")
    model_file = str(first.get("model_filename") or "").replace("\\", "/").rsplit("/", 1)[-1]
    return Run(
        tool="llama-bench",
        fmt="llama-bench",
        figures=tuple(figures),
        workload=f"{model_type} ({model_file})" if model_file else model_type,
        precision=quant.group(1) if quant else None,
        batch=str(first["n_batch"]) if "n_batch" in first else None,
        versions={"llama.cpp": f"build {first.get('build_number')} ({first['build_commit']})", "backend": backend},
        hardware_names=(str(device).strip(),) if device else (),
        facts={
            "test time": str(first.get("test_time", "?")),
            "KV cache": f"{first.get('type_k')}/{first.get('type_v')}",
        },
    )
