"""Users' values beside the bundled ones (conflicts, comparison rows) and which ranking reads each value."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from selector.knowledge.models import Claim, Conditions, Criterion, Entity, KnowledgeBase


@dataclass(frozen=True)
class UserConflict:
    """A user's value beside a bundled claim of the same metric and entity, and how far apart they are."""

    user_claim: str
    other_claim: str
    other_tier: str
    subject: str
    metric: str
    user_value: float
    other_value: float
    user_unit: str
    other_unit: str
    relative_difference: float | None  # (user - other) / |other|; None when the other value is 0
    comparable: bool  # same unit and no condition set in both with different values
    overrides: bool  # the user claim replaces this one in the decision matrix
    other_flagged: bool
    differing_conditions: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def user_source_ids(kb: KnowledgeBase) -> tuple[str, ...]:
    """The ids of every ``user`` source in `kb` (the uploads' sources)."""
    return tuple(s.id for s in kb.sources.values() if s.kind == "user")


def _differing(a: Conditions, b: Conditions) -> tuple[str, ...]:
    left, right = a.model_dump(), b.model_dump()
    return tuple(
        k
        for k in left
        if left[k] is not None
        and right[k] is not None
        and str(left[k]).strip().casefold() != str(right[k]).strip().casefold()
    )


def user_vs_article_conflicts(kb: KnowledgeBase, user_source_ids: Iterable[str]) -> list[UserConflict]:
    """For each numeric user claim, the bundled claims with the same metric and subject, and the difference.

    Parameters
    ----------
    kb
        The merged knowledge (bundled + uploads).
    user_source_ids
        Sources whose claims count as the user's (see :func:`user_source_ids`).

    Returns
    -------
    list of UserConflict
        Ordered by user claim, then the largest difference first.
    """
    mine = set(user_source_ids)
    bundled: dict[tuple[str, str], list[Claim]] = {}
    for claim in kb.claims.values():
        if claim.value is not None and claim.source not in mine:
            bundled.setdefault((claim.metric, claim.subject_id), []).append(claim)
    found = []
    for claim in (c for c in kb.claims.values() if c.source in mine and c.value is not None):
        for other in bundled.get((claim.metric, claim.subject_id), ()):
            differing = _differing(claim.conditions, other.conditions)
            same_unit = claim.unit.strip().casefold() == other.unit.strip().casefold()
            found.append(
                UserConflict(
                    user_claim=claim.id,
                    other_claim=other.id,
                    other_tier=other.tier,
                    subject=claim.subject_id,
                    metric=claim.metric,
                    user_value=claim.value,
                    other_value=other.value,
                    user_unit=claim.unit,
                    other_unit=other.unit,
                    relative_difference=None if other.value == 0 else (claim.value - other.value) / abs(other.value),
                    comparable=same_unit and not differing,
                    overrides=claim.overrides == other.id,
                    other_flagged=other.flagged,
                    differing_conditions=differing,
                )
            )
    return sorted(found, key=lambda f: (f.user_claim, -abs(f.relative_difference or 0.0), f.other_claim))


def user_entities(kb: KnowledgeBase, upload_names: Iterable[str]) -> list[Entity]:
    """The entities that the named uploads define (a chip the articles never mention)."""
    names = set(upload_names)
    return [
        entity
        for entity in kb.entities.values()
        if kb.locations.get(("entities", entity.id), "").rpartition(":")[0] in names
    ]


def _read_by(kb: KnowledgeBase, criterion: Criterion) -> tuple[Criterion, ...]:
    """The criteria whose claims fill `criterion`'s cells: itself, or a derived one's two inputs (price or power, and
    throughput)."""
    if criterion.derived is None:
        return (criterion,)
    return tuple(kb.criteria[target] for _, target in criterion.derived.inputs)


def ranked_metrics(kb: KnowledgeBase) -> dict[str, tuple[str, ...]]:
    """metric -> the names of the groups whose ranking it feeds (a criterion of the group with a positive weight,
    or an input of such a derived criterion)."""
    found: dict[str, list[str]] = {}
    for group in kb.groups.values():
        for gc in group.criteria:
            if gc.weight > 0:
                for source in _read_by(kb, kb.criteria[gc.criterion]):
                    found.setdefault(source.metric, []).append(group.name_en)
    return {m: tuple(dict.fromkeys(g)) for m, g in sorted(found.items())}


def ranking_use(kb: KnowledgeBase, claim: Claim) -> str:
    """Where a claim feeds a ranking ("ranked: group (criterion)"), or "stored, not ranked" and why.

    A claim is ranked where it is evidence of a cell: its metric and conditions are a weighted criterion's (or an
    input's of a weighted derived criterion: a price feeds the cost per million tokens), its entity is a member of
    the group, and no claim of a better tier fills the same cell.
    """
    from selector.decision.matrix import claims_for_cell, price_claims

    uses = []
    for group in kb.groups.values():
        if claim.subject_id not in group.members:
            continue
        for gc in group.criteria:
            criterion = kb.criteria[gc.criterion]
            if gc.weight <= 0:
                continue
            for source in _read_by(kb, criterion):
                if source.metric != claim.metric:
                    continue
                is_price = criterion.derived is not None and source.id == criterion.derived.price
                found = (price_claims if is_price else claims_for_cell)(kb, source, claim.subject_id)
                if found and claim.id in {c.id for c in found if c.tier == found[0].tier}:
                    uses.append(f"{group.name_en} ({criterion.name_en})")
    if uses:
        return "ranked: " + "; ".join(uses)
    return "stored, not ranked (ranked metrics: " + ", ".join(ranked_metrics(kb)) + ")"


def comparison_rows(kb: KnowledgeBase, user_source_ids: Iterable[str]) -> list[dict[str, Any]]:
    """Each user claim with a value, followed by the bundled claims of the same entity and metric.

    Returns
    -------
    list of dict
        Keys: entity, metric, origin (``yours``, ``article``, ``assessment``), tier, claim, value, unit,
        conditions, ranking (:func:`ranking_use`), flagged.
    """
    mine = set(user_source_ids)
    overridden = {c.overrides: c.id for c in kb.claims.values() if c.overrides}
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()

    def row(claim: Claim) -> dict[str, Any]:
        source = kb.sources.get(claim.source)
        origin = "yours" if claim.source in mine else (source.kind if source else "unknown")
        return {
            "entity": kb.entity_name(claim.subject_id),
            "metric": claim.metric,
            "origin": origin,
            "tier": claim.tier,
            "claim": claim.id,
            "value": claim.value,
            "unit": claim.unit,
            "conditions": "; ".join(f"{k}: {v}" for k, v in claim.conditions.key()),
            "ranking": (f"replaced by {overridden[claim.id]}" if claim.id in overridden else ranking_use(kb, claim)),
            "flagged": claim.flagged,
        }

    bundled: dict[tuple[str, str], list[Claim]] = {}
    for claim in kb.claims.values():
        if claim.value is not None and claim.source not in mine:
            bundled.setdefault((claim.metric, claim.subject_id), []).append(claim)
    users = (c for c in kb.claims.values() if c.value is not None and c.source in mine)
    for claim in sorted(users, key=lambda c: (c.subject_id, c.metric, c.id)):
        rows.append(row(claim))
        for other in bundled.get((claim.metric, claim.subject_id), ()):
            if other.id not in seen:
                seen.add(other.id)
                rows.append(row(other))
    return rows
