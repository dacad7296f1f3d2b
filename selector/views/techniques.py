"""The Techniques and cases screen's views: items linked to the scenarios they serve."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from selector.models import KnowledgeBase

# The app's editorial grouping, not a statement of the articles: which scenario answers (question id, option id)
# an item mainly serves, so that someone who answered that way finds the techniques, cases and resources that
# matter to them. Entity ids override their kind's default; ids or options missing from the knowledge are ignored.
SCENARIO_BY_KIND: dict[str, tuple[tuple[str, str], ...]] = {
    "dataset": (("goal", "research"),),
    "resource": (("goal", "research"),),
    "model": (("goal", "research"), ("goal", "industrial")),
    "tool": (("goal", "industrial"),),
    "technique": (("goal", "industrial"),),
    "system": (("goal", "industrial"),),
}
SCENARIO_BY_ENTITY: dict[str, tuple[tuple[str, str], ...]] = {
    # compression: what makes a model fit an edge device or a phone
    "int8-quantization": (("target", "edge"), ("target", "mobile")),
    "dynamic-quantization": (("target", "edge"), ("target", "mobile"), ("edge-workload", "adjusting")),
    "quantization-aware-training": (("target", "edge"), ("target", "mobile")),
    "structured-pruning": (("target", "edge"), ("target", "mobile")),
    "knowledge-distillation": (("target", "edge"), ("target", "mobile")),
    "tflite-flex-delegate": (("target", "mobile"),),
    "heterogeneous-computing": (("organisation", "edge-vendor"), ("edge-workload", "adjusting")),
    # training at scale
    "mixed-precision": (("goal", "research"),),
    "fp8": (("goal", "research"),),
    "gradient-checkpointing": (("goal", "research"),),
    "zero-3": (("goal", "research"),),
    "lora": (("goal", "research"),),
    "sparse-training": (("goal", "research"),),
    "ema-weights": (("goal", "research"),),
    "hybrid-attention": (("goal", "research"),),
    "lm-eval-harness": (("goal", "research"), ("organisation", "research-institute")),
    # serving on servers
    "dynamic-batching": (("target", "cloud"), ("organisation", "cloud-provider")),
    "cuda-graph": (("target", "cloud"), ("graphs", "static")),
    "operator-fusion": (("target", "cloud"), ("graphs", "static")),
    "constant-folding": (("graphs", "static"),),
    "shape-inference": (("graphs", "static"), ("lock-in", "avoid")),
    "cuda-unified-memory": (("target", "cloud"),),
    "gpu-direct-rdma": (("target", "cloud"),),
    "double-buffering": (("target", "cloud"),),
    "nsight-systems": (("target", "cloud"),),
    "automated-model-optimisation": (("goal", "industrial"),),
    "nemo-tuner": (("goal", "industrial"),),
    # portability between stacks
    "jax2tf": (("goal", "industrial"), ("lock-in", "avoid")),
    "cross-platform-migration-case": (("goal", "industrial"), ("lock-in", "avoid")),
    # emerging hardware paradigms
    "spiking-neural-network": (("goal", "scientific"),),
    "photonic-computing": (("goal", "scientific"),),
    "in-memory-computing": (("goal", "scientific"),),
    "neural-symbolic": (("goal", "scientific"), ("goal", "research")),
    # case studies
    "tesla-fsd-v12": (("target", "edge"), ("edge-workload", "complex")),
    "ant-risk-control": (("goal", "industrial"), ("target", "cloud")),
    "medical-multimodal-case": (("goal", "industrial"), ("target", "cloud")),
    "multi-task-learning": (("edge-workload", "complex"),),
}
TECHNIQUE_KINDS = ("technique", "system", "tool", "model", "dataset", "resource")
KIND_LABELS = {
    "technique": "Techniques",
    "system": "Case studies",
    "tool": "Tools",
    "model": "Models and model zoos",
    "dataset": "Datasets",
    "resource": "Learning resources",
}


def scenario_links(kb: KnowledgeBase, entity_id: str) -> list[tuple[str, str]]:
    """The (question id, option id) scenarios an entity serves under the app's editorial grouping.

    Pairs naming a question or option the knowledge does not define are left out.
    """
    entity = kb.entities.get(entity_id)
    if entity is None:
        return []
    pairs = SCENARIO_BY_ENTITY.get(entity_id, SCENARIO_BY_KIND.get(entity.kind, ()))
    return [(q, o) for q, o in pairs if q in kb.questions and any(opt.id == o for opt in kb.questions[q].options)]


def scenario_label(kb: KnowledgeBase, question_id: str, option_id: str, short: bool = False) -> str:
    """``"Where will the models run? -> Edge devices"``, or with `short` ``"target: Edge devices"``."""
    question = kb.questions[question_id]
    option = next(o for o in question.options if o.id == option_id)
    return f"{question.id}: {option.label_en}" if short else f"{question.text_en} -> {option.label_en}"


def techniques_table(
    kb: KnowledgeBase,
    kinds: Sequence[str] = TECHNIQUE_KINDS,
    scenarios: Iterable[tuple[str, str]] | None = None,
) -> pd.DataFrame:
    """Techniques, cases, tools, models, datasets and resources with their claim count and scenarios.

    With `scenarios` (pairs of question id, option id) only the items linked to at least one of them are listed.
    """
    wanted = None if scenarios is None else set(scenarios)
    rows = []
    for entity in kb.entities.values():
        if entity.kind not in kinds:
            continue
        links = scenario_links(kb, entity.id)
        if wanted is not None and not wanted & set(links):
            continue
        claims = kb.claims_about(entity.id)
        rows.append(
            {
                "id": entity.id,
                "name": entity.name,
                "name_zh": entity.name_zh or "",
                "kind": entity.kind,
                "claims": len(claims),
                "flagged claims": sum(c.flagged for c in claims),
                "scenarios": "; ".join(scenario_label(kb, q, o, short=True) for q, o in links),
                "description": entity.description_en or (claims[0].text_en if claims else ""),
            }
        )
    columns = ["id", "name", "name_zh", "kind", "claims", "flagged claims", "scenarios", "description"]
    return pd.DataFrame(rows, columns=columns)
