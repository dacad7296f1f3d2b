"""llama.cpp ``llama-bench -o json`` output: prompt-processing and generation speed in tokens per second.

Each entry of the JSON array is one test: ``pp`` (``n_prompt`` tokens, no generation), ``tg`` (``n_gen`` tokens
generated) or both. ``avg_ts`` is the mean tokens per second over the repetitions (``samples_ts``); the quantisation
is the end of ``model_type`` (``qwen2 7B Q4_K - Medium``). The device is ``gpu_info`` when a GPU backend ran the
layers, else ``cpu_info``.
"""

from __future__ import annotations

import re

from selector.io import numbers, rawtext
from selector.issues import Issue
from selector.measure.common import Figure, MeasureError, Run, refuse

_REQUIRED = ("n_prompt", "n_gen", "avg_ts", "model_type", "build_commit")
#: Above any token rate a single machine reaches (the bound is physical plausibility, not a record).
MAX_TOKENS_PER_S = 10_000_000
_QUANT = re.compile(r"\s((?:[A-Z]+\d*_?[A-Z0-9_]*|[a-z]*F\d+|BF16|F16|F32)(?: - \w+)?)$")


def _field_issues(name: str, line: int | None, index: int, entry: dict) -> list[Issue]:
    """What is wrong with an entry's numbers: ``avg_ts`` a positive finite rate, token counts whole numbers."""
    issues = []
    checks = [("avg_ts", lambda v: numbers.json_number(v, low=0, high=MAX_TOKENS_PER_S), "a rate in tokens/s")]
    checks += [(key, numbers.json_count, "a whole number of tokens") for key in ("n_prompt", "n_gen", "n_depth")]
    for key, check, expected in checks:
        if key not in entry or (key == "n_depth" and entry[key] is None):
            continue
        try:
            check(entry[key])
        except numbers.NumberRefused as exc:
            issues.append(Issue("ERROR", name, line, None, f"entry {index + 1}: `{key}` {exc}; expected {expected}"))
    if not issues and not entry["n_prompt"] and not entry["n_gen"]:
        issues.append(Issue("ERROR", name, line, None, f"entry {index + 1}: n_prompt and n_gen are both 0"))
    return issues


def is_llama_bench(text: str) -> bool:
    """True when `text` looks like llama-bench JSON (an array whose objects carry ``avg_ts``)."""
    head = text[:3000]
    return head.lstrip().startswith("[") and '"avg_ts"' in text and '"build_commit"' in head


def read(name: str, text: str) -> Run:
    """Parse llama-bench JSON.

    Raises
    ------
    MeasureError
        When the JSON is malformed, truncated or nested too deep, is not an array of test objects, or an entry
        lacks a field it needs or holds a value that is not a number in range (``avg_ts: true``, ``"12"``, 1e300).
    """
    try:
        data = rawtext.load_json(name, text, hint="; llama-bench -o json writes one array (truncated?)")
    except rawtext.RawTextError as exc:
        raise MeasureError(exc.issues) from None
    if not isinstance(data, list) or not data or not all(isinstance(e, dict) for e in data):
        raise refuse(name, 1, "expected a JSON array of llama-bench test objects (`llama-bench -o json`)")
    lines = rawtext.entry_lines(text)
    issues = []
    for index, entry in enumerate(data):
        line = lines[index] if index < len(lines) else None
        lacking = [k for k in _REQUIRED if k not in entry]
        if lacking:
            issues.append(Issue("ERROR", name, line, None, f"entry {index + 1} lacks {', '.join(lacking)}"))
            continue
        issues.extend(_field_issues(name, line, index, entry))
    if issues:
        raise MeasureError(issues)
    first = data[0]
    builds = {(e.get("build_commit"), e.get("build_number"), e.get("model_type")) for e in data}
    if len(builds) > 1:
        raise refuse(name, 1, "entries come from different builds or models; ingest one llama-bench run per file")
    figures = []
    for index, entry in enumerate(data):
        n_prompt, n_gen = numbers.json_count(entry["n_prompt"]), numbers.json_count(entry["n_gen"])
        depth = numbers.json_count(entry.get("n_depth") or 0)
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
                numbers.json_number(entry["avg_ts"]),
                "tokens/s",
                f"avg_ts ({scope}; {extra})",
                lines[index] if index < len(lines) else None,
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
