"""The Techniques and cases screen's views: items linked to the scenarios they serve."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from selector import i18n
from selector.i18n import N_
from selector.knowledge.models import Claim, Entity, KnowledgeBase

TECHNIQUE_KINDS = ("technique", "system", "tool", "model", "dataset", "resource")
KIND_LABELS = {
    "technique": N_("Techniques"),
    "system": N_("Case studies"),
    "tool": N_("Tools"),
    "model": N_("Models and model zoos"),
    "dataset": N_("Datasets"),
    "resource": N_("Learning resources"),
}


def scenario_links(kb: KnowledgeBase, entity_id: str) -> list[tuple[str, str]]:
    """The (question id, option id) scenarios an entity serves under the app's editorial grouping.

    The links are knowledge (knowledge/scenario_links.yaml, validated on load): the entity's own, else its kind's.
    """
    entity = kb.entities.get(entity_id)
    if entity is None:
        return []
    link = kb.scenario_links.get(entity_id) or next(
        (link for link in kb.scenario_links.values() if link.kind == entity.kind), None
    )
    return [] if link is None else [(q, o) for q, options in link.serves.items() for o in options]


def scenario_label(
    kb: KnowledgeBase, question_id: str, option_id: str, short: bool = False, lang: i18n.Language = "en"
) -> str:
    """``"Where will the models run? -> Edge devices"``, or with `short` ``"target: Edge devices"``, in `lang`."""
    question = kb.questions[question_id]
    option = next(o for o in question.options if o.id == option_id)
    answer = i18n.pick(lang, option.label_en, option.label_zh)
    return f"{question.id}: {answer}" if short else f"{i18n.pick(lang, question.text_en, question.text_zh)} -> {answer}"


def techniques_table(
    kb: KnowledgeBase,
    kinds: Sequence[str] = TECHNIQUE_KINDS,
    scenarios: Iterable[tuple[str, str]] | None = None,
    lang: i18n.Language = "en",
) -> pd.DataFrame:
    """Techniques, cases, tools, models, datasets and resources with their claim count and scenarios.

    With `scenarios` (pairs of question id, option id) only the items linked to at least one of them are listed.
    Scenarios and descriptions are in `lang` where the knowledge has them (a Chinese description falls back to
    the first claim's Chinese quote, then to the English text).
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
                "scenarios": "; ".join(scenario_label(kb, q, o, short=True, lang=lang) for q, o in links),
                "description": _description(entity, claims, lang),
            }
        )
    columns = ["id", "name", "name_zh", "kind", "claims", "flagged claims", "scenarios", "description"]
    return pd.DataFrame(rows, columns=columns)


def _description(entity: Entity, claims: Sequence[Claim], lang: i18n.Language) -> str:
    english = entity.description_en or (claims[0].text_en if claims else "")
    chinese = entity.description_zh or (claims[0].quote if claims else None)
    return i18n.pick(lang, english, chinese)
