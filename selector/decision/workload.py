"""The workload a user states: which model they serve, at what precision, context and load, within which limits.

Written as ``model=llama-3.1-70b,precision=fp8,context=8192,output=1024,concurrency=32,ttft-ms=2000,tpot-ms=50,
utilisation=0.5,power-price=0.12,api-price=0.6`` (command line ``--workload``, the link's ``wl=``, a profile) or
as a YAML mapping with the same keys (``--workload FILE``). Every value is checked here, and a refusal names the
field and what it accepts; whether the model is known is checked against the knowledge (``selector.llm_fit``).

A user's own model is stated with its facts (``params-b``, ``layers``, ``kv-heads``, ``head-dim``, or for
multi-head latent attention ``attention=mla``, ``kv-lora-rank`` and ``rope-dim``); facts given beside a bundled
model's id replace the bundled ones.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from selector.errors import SelectorError
from selector.i18n import N_, Phrase
from selector.io import numbers, pairs
from selector.io.fileio import read_bytes
from selector.io.yamlio import parse_yaml

PRECISIONS = ("fp16", "bf16", "fp8", "int8", "int4")
# Bytes one stored value takes at each precision (int4 packs two values in a byte; its group scales are overhead).
BYTES_PER_VALUE = {"fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5}
ATTENTION = ("gqa", "mla")
MAX_FILE_BYTES = 16_384
MAX_TEXT = 1_000


class WorkloadError(SelectorError, ValueError):
    """A workload that cannot be read; the message names the field and what it accepts."""


def _number(low: float, high: float, integer: bool = False) -> tuple[float, float, bool]:
    return (low, high, integer)


# key -> (lowest, highest, whole number); the text keys are the attribute names with '-' for '_'.
_NUMBERS = {
    "context": _number(1, 10_000_000, True),
    "output": _number(1, 1_000_000, True),
    "concurrency": _number(1, 1_000_000, True),
    "rate": _number(1e-6, 1e7),
    "ttft_ms": _number(1e-3, 1e7),
    "tpot_ms": _number(1e-3, 1e6),
    "utilisation": _number(1e-3, 1.0),
    "power_price": _number(0, 100),
    "api_price": _number(0, 10_000),
    "api_input_price": _number(0, 10_000),
    "api_output_price": _number(0, 10_000),
    "price": _number(0, 10_000),
    "overhead": _number(0, 0.9),
    "years": _number(0.1, 30),
    "params_b": _number(1e-3, 100_000),
    "active_params_b": _number(1e-3, 100_000),
    "layers": _number(1, 10_000, True),
    "kv_heads": _number(1, 10_000, True),
    "head_dim": _number(1, 100_000, True),
    "kv_lora_rank": _number(1, 100_000, True),
    "rope_dim": _number(0, 100_000, True),
}
_CHOICES = {"precision": PRECISIONS, "kv_precision": PRECISIONS, "attention": ATTENTION}
_IDS = ("model", "engine")
# what each field means, for the messages and the README (marked: a refusal says it in the reader's language)
MEANING = {
    "model": N_("model id from knowledge/llm_models.yaml, or your own id with its facts"),
    "precision": Phrase(N_("weight precision: {choices}"), choices=", ".join(PRECISIONS)),
    "kv_precision": N_(
        "KV-cache precision (default: bf16, or fp16 for fp16 weights; engines keep the cache at the "
        "activation type unless told otherwise)"
    ),
    "context": N_("input (prompt) tokens per request"),
    "output": N_("output tokens per request"),
    "concurrency": N_("requests served at once (their KV caches are held together)"),
    "rate": N_("requests per second to serve (optional): how many accelerators serve it"),
    "ttft_ms": N_("time-to-first-token limit, ms (p99)"),
    "tpot_ms": N_("time-per-output-token limit, ms (p99)"),
    "utilisation": N_("share of the paid hours doing work, 0-1"),
    "power_price": N_("electricity price, USD per kWh"),
    "api_price": N_("API price to compare with, USD per million tokens (input and output alike)"),
    "api_input_price": N_("API price per million input tokens, USD"),
    "api_output_price": N_("API price per million output tokens, USD"),
    "price": N_("your price per accelerator-hour, USD (replaces the bundled cloud price)"),
    "engine": N_("serving engine id (vllm, sglang, tensorrt-llm, ...); default: any engine the support table lists"),
    "overhead": N_(
        "share of accelerator memory the runtime keeps for itself (default 0.1: vLLM's gpu_memory_utilization 0.9)"
    ),
    "years": N_("period over which an owned accelerator's price is spread (default 3)"),
    "params_b": N_("your model's parameters, billions"),
    "active_params_b": N_("parameters active per token (mixture of experts), billions"),
    "layers": N_("your model's layers"),
    "kv_heads": N_("your model's key-value heads (GQA)"),
    "head_dim": N_("your model's head size"),
    "attention": N_("attention layout: gqa (grouped-query, also multi-head) or mla (multi-head latent)"),
    "kv_lora_rank": N_("MLA: compressed latent size per layer"),
    "rope_dim": N_("MLA: decoupled rotary key size per layer"),
}

#: How a refusal of the compact form (a link's `wl=`, the page's form) opens.
WHERE = Phrase(N_("workload: "))


def _meaning(key: str) -> str:
    meaning = MEANING[key]
    return meaning if isinstance(meaning, Phrase) else Phrase(meaning)


@dataclass(frozen=True)
class Workload:
    """A stated workload; None means "not stated" (defaults are applied where the value is used, and said)."""

    model: str
    precision: str = "bf16"
    kv_precision: str | None = None
    context: int = 4096
    output: int = 512
    concurrency: int = 1
    rate: float | None = None
    ttft_ms: float | None = None
    tpot_ms: float | None = None
    utilisation: float = 0.5
    power_price: float | None = None
    api_price: float | None = None
    api_input_price: float | None = None
    api_output_price: float | None = None
    price: float | None = None
    engine: str | None = None
    overhead: float = 0.1
    years: float = 3.0
    params_b: float | None = None
    active_params_b: float | None = None
    layers: int | None = None
    kv_heads: int | None = None
    head_dim: int | None = None
    attention: str | None = None
    kv_lora_rank: int | None = None
    rope_dim: int | None = None

    @property
    def cache_precision(self) -> str:
        """The KV cache's precision: stated, else the activation type (fp16 weights keep fp16, others bf16)."""
        return self.kv_precision or ("fp16" if self.precision == "fp16" else "bf16")

    @property
    def tokens_per_sequence(self) -> int:
        """Tokens whose keys and values one request holds at its end: its prompt and its output."""
        return self.context + self.output

    @property
    def has_limits(self) -> bool:
        return self.ttft_ms is not None or self.tpot_ms is not None

    def own_facts(self) -> dict[str, object]:
        """The model facts stated in the workload (they replace a bundled model's)."""
        keys = ("params_b", "active_params_b", "layers", "kv_heads", "head_dim", "attention", "kv_lora_rank")
        facts = {k: getattr(self, k) for k in (*keys, "rope_dim")}
        return {k: v for k, v in facts.items() if v is not None}

    def text(self) -> str:
        """The canonical compact form: every field that differs from its default, in field order."""
        default = Workload(model=self.model)
        parts = [f"model={self.model}"]
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "model" or value == getattr(default, f.name):
                continue
            shown = f"{value:g}" if isinstance(value, float) else str(value)
            parts.append(f"{f.name.replace('_', '-')}={shown}")
        return ",".join(parts)

    def to_dict(self) -> dict[str, object]:
        return {k.replace("_", "-"): v for k, v in asdict(self).items() if v is not None}


def _field_value(key: str, raw: object, where: str) -> object:
    """One field's value checked, or a :class:`WorkloadError` naming it."""
    text = str(raw).strip() if not isinstance(raw, bool) else ""
    shown = key.replace("_", "-")
    if key in _NUMBERS:
        low, high, integer = _NUMBERS[key]
        try:
            number = numbers.parse_number(text, low=low, high=high)
        except numbers.NumberRefused as exc:
            raise WorkloadError(
                Phrase(
                    N_("{where}`{field}` ({meaning}): {error}"),
                    where=where,
                    field=shown,
                    meaning=_meaning(key),
                    error=exc.message,
                )
            ) from None
        if integer:
            if number != math.floor(number):
                raise WorkloadError(
                    Phrase(
                        N_("{where}`{field}` ({meaning}) must be a whole number, not {text}"),
                        where=where,
                        field=shown,
                        meaning=_meaning(key),
                        text=text,
                    )
                )
            return int(number)
        return number
    lowered = text.lower()
    if key in _CHOICES:
        if lowered not in _CHOICES[key]:
            raise WorkloadError(
                Phrase(
                    N_("{where}`{field}` is {text}; choose one of {choices}"),
                    where=where,
                    field=shown,
                    text=repr(text),
                    choices=", ".join(_CHOICES[key]),
                )
            )
        return lowered
    if not lowered or len(lowered) > 80 or not all(c.isalnum() or c in "-._" for c in lowered):
        raise WorkloadError(
            Phrase(
                N_("{where}`{field}` is {text}; write an id of letters, digits, '-', '.' or '_'"),
                where=where,
                field=shown,
                text=repr(text),
            )
        )
    return lowered


_KEYS = {f.name.replace("_", "-"): f.name for f in fields(Workload)}


def of(mapping: dict[str, object], where: str = WHERE) -> Workload:
    """A :class:`Workload` from field -> value (keys with '-' or '_'); every problem raises with the field's name.

    Raises
    ------
    WorkloadError
        An unknown field, a value out of range or of the wrong kind, no model, or an incoherent set of facts.
    """
    values: dict[str, object] = {}
    for key, raw in mapping.items():
        name = _KEYS.get(str(key).strip().lower().replace("_", "-"))
        if name is None:
            raise WorkloadError(
                Phrase(
                    N_("{where}unknown field `{key}`; known fields: {known}"),
                    where=where,
                    key=str(key),
                    known=", ".join(_KEYS),
                )
            )
        if raw is None:
            continue
        values[name] = _field_value(name, raw, where)
    if "model" not in values:
        raise WorkloadError(
            Phrase(
                N_("{where}no `model`; give model=<id> (e.g. model=llama-3.1-70b) or your own model's facts"),
                where=where,
            )
        )
    workload = Workload(**values)
    if workload.attention == "mla" and workload.kv_lora_rank is None and workload.kv_heads is not None:
        raise WorkloadError(
            Phrase(
                N_("{where}`attention=mla` caches a latent per layer: give `kv-lora-rank` (and `rope-dim`)"),
                where=where,
            )
        )
    if workload.active_params_b and workload.params_b and workload.active_params_b > workload.params_b:
        raise WorkloadError(
            Phrase(
                N_("{where}`active-params-b` ({value}) exceeds `params-b`"),
                where=where,
                value=f"{workload.active_params_b:g}",
            )
        )
    return workload


def parse(text: str) -> Workload:
    """Read the compact form ``model=...,precision=...``.

    Raises
    ------
    WorkloadError
        A malformed pair, a key given twice, or any problem :func:`of` finds.
    """
    if len(text or "") > MAX_TEXT:
        raise WorkloadError(
            Phrase(
                N_("workload: {count} characters; at most {most} are accepted"),
                count=f"{len(text):,}",
                most=f"{MAX_TEXT:,}",
            )
        )
    given = pairs.parse_pairs(
        text,
        Phrase(N_("workload")),
        WorkloadError,
        form=Phrase(N_("field=value (e.g. model=llama-3.1-8b)")),
        noun=Phrase(N_("field")),
        strict=True,
        key=lambda name: name.lower().replace("_", "-"),
    )
    return of(given)


def load(path: Path) -> Workload:
    """Read a workload file: a YAML mapping of the same fields (read through the guarded YAML reader).

    Raises
    ------
    WorkloadError
        The file cannot be read or parsed, is not a mapping, or a field is wrong (the message names file and line).
    """
    raw, problem = read_bytes(Path(path), MAX_FILE_BYTES)
    if problem is not None:
        raise WorkloadError(f"workload file {path}: {problem.message}")
    parsed, issues = parse_yaml(raw, str(path), MAX_FILE_BYTES)
    if parsed is None:
        first = issues[0]
        raise WorkloadError(f"workload file {path}, line {first.line}: {first.message}")
    if not isinstance(parsed.data, dict):
        raise WorkloadError(f"workload file {path}: expected a mapping of fields (model: ..., precision: ...)")
    for key in parsed.data:
        line = parsed.line_of((key,))
        try:
            of({"model": "x", key: parsed.data[key]}, where="")
        except WorkloadError as exc:
            raise WorkloadError(f"workload file {path}, line {line}: {exc}") from None
    return of(parsed.data, where=f"workload file {path}: ")


def read(text_or_path: str) -> Workload:
    """The command line's ``--workload``: a file when one exists by that name, else the compact form."""
    candidate = Path(text_or_path)
    if ("=" not in text_or_path and candidate.suffix in {".yaml", ".yml"}) or candidate.is_file():
        return load(candidate)
    return parse(text_or_path)


def normalise(text: str | None) -> str | None:
    """The canonical compact form of `text` (None stays None); raises :class:`WorkloadError`."""
    return None if text is None or not text.strip() else parse(text).text()


def with_model_facts(workload: Workload, **facts: object) -> Workload:
    """`workload` with its model facts filled in where it states none (the stated ones win)."""
    return replace(workload, **{k: v for k, v in facts.items() if getattr(workload, k) is None})
