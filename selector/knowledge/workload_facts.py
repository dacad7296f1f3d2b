"""The schema of the workload facts in the knowledge: LLM architectures (``llm_models``) and which serving engine
runs which accelerator at which precision (``support``), each record citing where its facts are published.

The records load with the rest of the knowledge (same file/line errors); :func:`check` is the cross-record rule
(engines and accelerators must be entities of that kind). The arithmetic lives in ``selector.decision.memory_fit``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from selector.knowledge.fields import Count, Id, IsoDate, Name, Number, Record, ShortText, Text

Precision = Literal["fp16", "bf16", "fp8", "int8", "int4"]
Attention = Literal["gqa", "mla"]


class LlmModel(Record):
    """One open model's architecture facts, as its published ``config.json`` and model card state them.

    ``gqa`` (grouped-query attention; multi-head attention is the case kv_heads = heads) caches a key and a
    value of ``head_dim`` per KV head per layer; ``mla`` (multi-head latent attention, DeepSeek-V2/V3) caches one
    compressed latent of ``kv_lora_rank`` plus a decoupled rotary key of ``rope_dim`` per layer.
    """

    id: Id
    name: Name
    params_b: Number  # total parameters, billions (every expert of a mixture of experts)
    active_params_b: Number | None = None  # parameters active per token (mixture of experts)
    layers: Count
    attention: Attention = "gqa"
    kv_heads: Count | None = None
    head_dim: Count | None = None
    kv_lora_rank: Count | None = None
    rope_dim: Count | None = None
    config_url: ShortText
    quote: Text  # the config.json fields as published
    card_url: ShortText  # the model card stating the parameter count
    card_quote: ShortText
    recorded: IsoDate
    note_en: Text | None = None

    @model_validator(mode="after")
    def _layout_facts(self) -> LlmModel:
        if self.attention == "gqa" and (self.kv_heads is None or self.head_dim is None):
            raise ValueError("a gqa model needs `kv_heads` and `head_dim`")
        if self.attention == "mla" and (self.kv_lora_rank is None or self.rope_dim is None):
            raise ValueError("an mla model needs `kv_lora_rank` and `rope_dim`")
        if self.params_b <= 0 or (self.active_params_b is not None and not 0 < self.active_params_b <= self.params_b):
            raise ValueError("`params_b` must be positive and `active_params_b` at most `params_b`")
        return self


class Support(Record):
    """An engine runs these accelerators at these precisions, as the engine's own documentation says."""

    id: Id
    engine: Id
    accelerators: tuple[Id, ...]
    precisions: tuple[Precision, ...]
    url: ShortText
    says_en: Text  # what the page says, in short (a paraphrase unless quoted)
    recorded: IsoDate
    note_en: Text | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> Support:
        if not self.accelerators or not self.precisions:
            raise ValueError("a support row needs at least one accelerator and one precision")
        return self


def check(checker, kinds: dict[str, str]) -> None:  # noqa: ANN001 - selector.knowledge.crosscheck.Checker (a layer above)
    """Every support row names a framework entity as engine and accelerator entities (file/line of each)."""
    for row, loaded, index in checker.records("support"):
        if kinds.get(row.engine) != "framework":
            what = "is not defined" if row.engine not in kinds else f"is of kind {kinds[row.engine]}, not a framework"
            checker.error(loaded, "support", index, row.id, f"engine `{row.engine}` {what}", "engine")
        for position, acc in enumerate(row.accelerators):
            if kinds.get(acc) != "accelerator":
                what = "is not defined" if acc not in kinds else f"is of kind {kinds[acc]}, not an accelerator"
                message = f"accelerator `{acc}` {what}; use an accelerator id of the entities"
                checker.error(loaded, "support", index, row.id, message, "accelerators", position)
