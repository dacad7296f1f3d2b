"""Entity facts (vendor and its jurisdiction, form factor, export control, lifecycle, platforms): reading them,
selecting entities by them, and checking that every stated fact is sourced.

A decision rule selects by facts (``{vendor_jurisdiction: CN}``) rather than by naming ids, so that one rule acts
correctly in every group; :mod:`selector.decision.decision_tree` asks this module which members match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from selector.knowledge.fact_types import FORM_FACTORS, VENDOR_KINDS, ExportStatus, FactKey, Lifecycle, Platform
from selector.knowledge.models import Entity, Segment

FACT_LABELS: dict[str, str] = {
    "vendor": "vendor",
    "vendor_jurisdiction": "vendor's jurisdiction",
    "form_factor": "form factor",
    "export_control": "export-control status",
    "lifecycle": "lifecycle",
    "platforms": "platform",
    "segment": "segment",
    "kind": "kind",
    "roles": "role",
}
_VOCABULARY: dict[str, tuple[str, ...]] = {
    "form_factor": FORM_FACTORS,
    "export_control": ExportStatus.__args__,
    "lifecycle": Lifecycle.__args__,
    "platforms": Platform.__args__,
    "segment": Segment.__args__,
    "kind": Entity.model_fields["kind"].annotation.__args__,
    "roles": Entity.model_fields["roles"].annotation.__args__[0].__args__,
}
if set(FACT_LABELS) != set(FactKey.__args__):  # a new fact key needs a label here
    raise ImportError(f"selector.knowledge.facts: FACT_LABELS lacks {set(FactKey.__args__) - set(FACT_LABELS)}")


def values(entities: Mapping[str, Entity], entity_id: str, key: str) -> tuple[str, ...]:
    """The values entity `entity_id` has for fact `key` (empty when unknown or not stated)."""
    entity = entities.get(entity_id)
    if entity is None:
        return ()
    if key == "vendor_jurisdiction":
        vendor = entities.get(entity.vendor) if entity.vendor else None
        return (vendor.jurisdiction,) if vendor is not None and vendor.jurisdiction else ()
    if key == "export_control":
        return (entity.export_control.status,) if entity.export_control else ()
    if key in ("platforms", "roles"):
        return tuple(getattr(entity, key))
    value = getattr(entity, key)
    return (value,) if value else ()


def matches(entities: Mapping[str, Entity], entity_id: str, where: Mapping[str, Sequence[str]]) -> bool:
    """Whether the entity has, for every fact of `where`, one of the listed values (an unknown fact never matches)."""
    return bool(where) and all(set(values(entities, entity_id, k)) & set(wanted) for k, wanted in where.items())


def select(entities: Mapping[str, Entity], members: Sequence[str], where: Mapping[str, Sequence[str]]) -> tuple:
    """The members matching `where`, in order; none for an empty selection."""
    return tuple(m for m in members if matches(entities, m, where))


def describe(where: Mapping[str, Sequence[str]]) -> str:
    """``vendor's jurisdiction is CN and form factor is laptop or datacenter``."""
    return " and ".join(f"{FACT_LABELS[k]} is {' or '.join(v)}" for k, v in where.items())


def successor_text(entities: Mapping[str, Entity], entity_id: str, members: Sequence[str]) -> str | None:
    """``deprecated since 2024-10; its successor is ExecuTorch (ranked in this group)``, or None for an entity
    that is not deprecated (its `lifecycle` fact, sourced by its fact claims)."""
    entity = entities.get(entity_id)
    if entity is None or entity.lifecycle != "deprecated":
        return None
    successor = entities.get(entity.successor or "")
    name = successor.name if successor is not None else entity.successor
    where = "ranked in this group" if entity.successor in members else "not ranked in this group"
    return f"deprecated since {entity.lifecycle_since}; its successor is {name} ({where})"


def discontinued_reason(entities: Mapping[str, Entity], entity_id: str, members: Sequence[str]) -> str | None:
    """Why a group's member is not ranked on its lifecycle fact, or None when it may be ranked.

    The one place the rule lives (the brief: no recommendation of a discontinued product): a deprecated member
    stays listed with its claims, but no ranking, shortlist or score offers it."""
    successor = successor_text(entities, entity_id, members)
    if successor is None:
        return None
    return f"discontinued, not ranked: {successor}"


def vendors(entities: Mapping[str, Entity]) -> tuple[str, ...]:
    """The ids of the organizations that make some framework or accelerator, sorted."""
    return tuple(
        sorted({e.vendor for e in entities.values() if e.kind in VENDOR_KINDS and e.vendor and e.vendor in entities})
    )


# ----------------------------------------------------------------------------------------------------------
# Validation (called by selector.knowledge.crosscheck.Checker, which owns the records and the issue list)


def check_entity(checker: Any, entity: Entity, loaded: Any, index: int) -> None:
    """A bundled framework or accelerator names its vendor (an accelerator its form factor); every stated fact
    is sourced by a fact claim about the entity; a successor and a vendor are entities of the right kind.

    A user's upload may add a chip without facts: it is ranked, but no fact rule selects it.
    """
    here = (loaded, "entities", index, entity.id)
    if not loaded.user and entity.kind in VENDOR_KINDS and not entity.vendor:
        checker.error(*here, f"a {entity.kind} names its `vendor` (an organization entity)", "vendor")
    if not loaded.user and entity.kind == "accelerator" and entity.form_factor is None:
        checker.error(*here, f"an accelerator states its `form_factor` ({', '.join(FORM_FACTORS)})", "form_factor")
    _check_vendor(checker, entity, here)
    if entity.successor:
        found = checker.by_id["entities"].get(entity.successor)
        if found is None:
            checker.ref(*here, "entities", entity.successor, "successor", "successor")
        elif found[0].kind != entity.kind:
            checker.error(
                *here, f"successor `{entity.successor}` is a {found[0].kind}, not a {entity.kind}", "successor"
            )
    stated = entity.fact_fields
    if stated and not entity.fact_claims:
        checker.error(
            *here,
            f"the facts {', '.join(stated)} need `fact_claims`: the claims (a `reference` claim citing a document, "
            "or an article's claim) that source them",
            "fact_claims",
        )
    for claim_id in entity.fact_claims:
        _check_fact_claim(checker, here, entity.id, claim_id, "fact_claims")
    if entity.export_control is not None:
        for claim_id in entity.export_control.claims:
            _check_fact_claim(checker, here, entity.id, claim_id, "export_control")


def _check_vendor(checker: Any, entity: Entity, here: tuple) -> None:
    found = checker.by_id["entities"].get(entity.vendor) if entity.vendor else None
    if found is not None and entity.kind in VENDOR_KINDS and found[0].kind != "organization":
        checker.error(*here, f"vendor `{entity.vendor}` is a {found[0].kind}, not an organization", "vendor")


def _check_fact_claim(checker: Any, here: tuple, entity_id: str, claim_id: str, field: str) -> None:
    found = checker.by_id["claims"].get(claim_id)
    if found is None:
        checker.ref(*here, "claims", claim_id, "fact claim", field)
        return
    claim = found[0]
    if claim.kind != "fact" or claim.tier not in ("reference", "claimed"):
        checker.error(
            *here,
            f"fact claim `{claim_id}` must be of kind `fact` and tier `reference` (a document) or `claimed` (an "
            f"article); it is a `{claim.tier}` `{claim.kind}` claim",
            field,
        )
    elif entity_id not in claim.about:
        checker.error(
            *here, f"fact claim `{claim_id}` is not about `{entity_id}`; add it to the claim's `about`", field
        )


def check_rule(checker: Any, rule: Any, here: tuple) -> None:
    """A rule's fact selections use known values: vendors that are organizations, listed form factors, ..."""
    for field in ("recommend_where", "exclude_where"):
        for key, wanted in getattr(rule, field).items():
            for value in wanted:
                problem = _value_problem(checker, key, value)
                if problem:
                    checker.error(*here, f"{field}.{key}: {problem}", field)


def _value_problem(checker: Any, key: str, value: str) -> str | None:
    if key == "vendor":
        found = checker.by_id["entities"].get(value)
        if found is None or found[0].kind != "organization":
            return f"`{value}` is not an organization entity"
        return None
    if key == "vendor_jurisdiction":
        return None if len(value) == 2 and value.isupper() else f"`{value}` is not an ISO 3166-1 alpha-2 code (US, CN)"
    known = _VOCABULARY[key]
    return None if value in known else f"`{value}` is not one of {', '.join(known)}"
