"""Can the model run: weights at the stated precision plus the KV cache of every request held at once, against an
accelerator's memory less the runtime's share, on 1, 2, 4 or 8 accelerators (tensor parallel).

Weights take ``parameters x bytes per value`` (a mixture of experts keeps every expert). The KV cache per token is
``2 x layers x kv_heads x head_dim x bytes`` for grouped-query attention and ``layers x (kv_lora_rank + rope_dim)
x bytes`` for multi-head latent attention; a request holds its prompt and its output. Under tensor parallelism the
weights split evenly; a grouped-query cache splits by KV head (a rank holds at least one head, so beyond
``kv_heads`` ranks the heads are copied), and a latent cache is copied on every rank (it has no heads to split:
vLLM and SGLang keep the whole latent on each tensor-parallel rank). Activations, CUDA graphs and fragmentation are
the stated runtime overhead (default 10 %: vLLM's ``gpu_memory_utilization`` default of 0.9).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from selector.decision.workload import BYTES_PER_VALUE, Workload, WorkloadError
from selector.i18n import N_, Phrase
from selector.knowledge.models import TIERS, KnowledgeBase

TENSOR_PARALLEL = (1, 2, 4, 8)
# Where an accelerator's memory is read from, best first: the datasheet figure, then what an AccelMark run reported.
MEMORY_METRICS = ("memory_capacity_gb", "device_memory_gb")
_TIER = {tier: rank for rank, tier in enumerate(TIERS)}


@dataclass(frozen=True)
class ModelFacts:
    """The architecture the fit uses: a bundled model's facts, with the workload's own facts over them."""

    id: str
    name: str
    params_b: float
    layers: int
    attention: str
    kv_heads: int | None
    head_dim: int | None
    kv_lora_rank: int | None
    rope_dim: int | None
    active_params_b: float | None
    source: str  # the config.json URL, or "your workload's facts"


def model_facts(kb: KnowledgeBase, workload: Workload) -> ModelFacts:
    """The model of `workload`: the bundled record of its id with the stated facts replacing its own.

    Raises
    ------
    WorkloadError
        When the id is not bundled and the workload does not state every fact the fit needs.
    """
    bundled = kb.llm_models.get(workload.model)
    base = bundled.model_dump() if bundled is not None else {"id": workload.model, "name": workload.model}
    own = workload.own_facts()
    facts = {**base, **own}
    facts.setdefault("attention", "gqa")
    needed = ("params_b", "layers") + (("kv_heads", "head_dim") if facts["attention"] == "gqa" else ("kv_lora_rank",))
    lacking = [k.replace("_", "-") for k in needed if facts.get(k) is None]
    if lacking:
        known = ", ".join(sorted(kb.llm_models))
        raise WorkloadError(
            Phrase(
                N_(
                    "workload: model `{model}` is not in knowledge/llm_models.yaml and its facts are incomplete "
                    "(missing {lacking}); choose one of {known} or state the missing facts"
                ),
                model=workload.model,
                lacking=", ".join(lacking),
                known=known,
            )
        )
    source = "your workload's facts" if bundled is None else bundled.config_url + (" and your facts" if own else "")
    return ModelFacts(
        id=workload.model,
        name=str(facts["name"]),
        params_b=float(facts["params_b"]),
        layers=int(facts["layers"]),
        attention=str(facts["attention"]),
        kv_heads=facts.get("kv_heads"),
        head_dim=facts.get("head_dim"),
        kv_lora_rank=facts.get("kv_lora_rank"),
        rope_dim=facts.get("rope_dim") or 0,
        active_params_b=facts.get("active_params_b"),
        source=source,
    )


def kv_bytes_per_token(model: ModelFacts, precision: str) -> float:
    """Bytes of KV cache one token takes over all layers, for the model's attention layout."""
    size = BYTES_PER_VALUE[precision]
    if model.attention == "mla":
        return model.layers * (model.kv_lora_rank + (model.rope_dim or 0)) * size
    return 2 * model.layers * model.kv_heads * model.head_dim * size


def weights_gb(model: ModelFacts, precision: str) -> float:
    return model.params_b * BYTES_PER_VALUE[precision]


def kv_gb(model: ModelFacts, workload: Workload) -> float:
    """The KV cache of `concurrency` requests of `context + output` tokens each, in GB (10^9 bytes)."""
    per_token = kv_bytes_per_token(model, workload.cache_precision)
    return per_token * workload.tokens_per_sequence * workload.concurrency / 1e9


def kv_share(model: ModelFacts, total_gb: float, ranks: int) -> float:
    """The part of the KV cache one of `ranks` tensor-parallel accelerators holds."""
    if model.attention == "mla":
        return total_gb
    heads = model.kv_heads
    return total_gb * math.ceil(heads / ranks) / heads


@dataclass(frozen=True)
class Fit:
    """The memory fit of one workload on one accelerator; ``count`` 0: not on 8, None: memory unknown."""

    accelerator: str
    memory_gb: float | None
    evidence: tuple[str, ...]
    usable_gb: float | None
    weights_gb: float
    kv_gb: float
    count: int | None
    per_accelerator_gb: float | None
    text: str

    @property
    def fits(self) -> bool | None:
        return None if self.count is None else self.count > 0


def memory_of(kb: KnowledgeBase, accelerator: str) -> tuple[float | None, tuple[str, ...]]:
    """The accelerator's memory in GB and the claim it comes from (the datasheet first, the best tier first)."""
    for metric in MEMORY_METRICS:
        claims = sorted(kb.numeric_claims.get((metric, accelerator), ()), key=lambda c: (_TIER[c.tier], c.id))
        if claims:
            return float(claims[0].value), (claims[0].id,)
    return None, ()


def _gb(value: float) -> str:
    return f"{value:,.1f} GB" if value < 1000 else f"{value:,.0f} GB"


NEED = N_(
    "{model} at {precision}: {weights} weights + {cache} KV cache ({cache_precision}) for {requests} x {tokens} tokens"
)
UNKNOWN = N_("{need}: {name}'s memory is unknown")
ROOM = N_("{memory}, {usable} usable after {overhead} runtime overhead")
ONE = N_("one {name}")
SEVERAL = N_("{ranks} x {name} (tensor parallel {ranks})")
FITS = N_("{need}: fits on {where} ({room}; {per} on each)")
TOO_BIG = N_("{need}: does not fit on 8 x {name} ({room}; {per} needed on each)")


def fit(model: ModelFacts, workload: Workload, accelerator: str, name: str, memory_gb: float | None) -> Fit:
    """How many of `accelerator` (1, 2, 4 or 8, tensor parallel) hold `workload`, explained in one sentence."""
    weights, cache = weights_gb(model, workload.precision), kv_gb(model, workload)
    need = Phrase(
        NEED,
        model=model.name,
        precision=workload.precision.upper(),
        weights=_gb(weights),
        cache=_gb(cache),
        cache_precision=workload.cache_precision.upper(),
        requests=f"{workload.concurrency:,}",
        tokens=f"{workload.tokens_per_sequence:,}",
    )
    if memory_gb is None:
        return Fit(accelerator, None, (), None, weights, cache, None, None, Phrase(UNKNOWN, need=need, name=name))
    usable = memory_gb * (1 - workload.overhead)
    room = Phrase(ROOM, memory=_gb(memory_gb), usable=_gb(usable), overhead=f"{workload.overhead:.0%}")
    for ranks in TENSOR_PARALLEL:
        per = weights / ranks + kv_share(model, cache, ranks)
        if per <= usable:
            where = Phrase(ONE, name=name) if ranks == 1 else Phrase(SEVERAL, ranks=str(ranks), name=name)
            text = Phrase(FITS, need=need, where=where, room=room, per=_gb(per))
            return Fit(accelerator, memory_gb, (), usable, weights, cache, ranks, per, text)
    per = weights / TENSOR_PARALLEL[-1] + kv_share(model, cache, TENSOR_PARALLEL[-1])
    text = Phrase(TOO_BIG, need=need, name=name, room=room, per=_gb(per))
    return Fit(accelerator, memory_gb, (), usable, weights, cache, 0, per, text)


def fit_on(kb: KnowledgeBase, model: ModelFacts, workload: Workload, accelerator: str) -> Fit:
    """:func:`fit` with the accelerator's memory read from the knowledge, naming the claim it came from."""
    memory, evidence = memory_of(kb, accelerator)
    found = fit(model, workload, accelerator, kb.entity_name(accelerator), memory)
    return Fit(**{**found.__dict__, "evidence": evidence})
