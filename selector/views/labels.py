"""Labels shared by every screen's views: segment names, conditions, flags, values, documents."""

from __future__ import annotations

from collections.abc import Iterable

from selector import display
from selector.i18n import N_
from selector.knowledge.models import Claim, Conditions, KnowledgeBase

SEGMENT_LABELS = {
    "datacenter": N_("Datacenter"),
    "workstation": N_("Workstation and desktop"),
    "edge": N_("Edge"),
    "mobile_client": N_("Mobile and client"),
    "emerging": N_("Emerging"),
}


def conditions_text(conditions: Conditions, skip: Iterable[str] = ()) -> str:
    """The conditions as ``key: value`` pairs joined by ``; `` (empty when none are set)."""
    skipped = set(skip)
    return "; ".join(f"{k}: {v}" for k, v in conditions.key() if k not in skipped)


def flags_text(claim: Claim) -> str:
    """Every flag of a claim as ``kind: reason`` (with its reference), joined by `` | ``."""
    parts = []
    for flag in claim.flags:
        text = f"{flag.kind}: {flag.reason}"
        if flag.reference:
            text += f" (ref: {flag.reference})"
        parts.append(text)
    return " | ".join(parts)


def value_text(claim: Claim) -> str:
    """The claim's number with comparator and unit, e.g. ``>= 50 TOPS/W``; empty for a claim without a value."""
    if claim.value is None:
        return ""
    comparator = "" if claim.comparator == "=" else claim.comparator + " "
    return f"{comparator}{display.number(claim.value, 6)} {claim.unit}"


def document_label(kb: KnowledgeBase, source_id: str) -> str:
    """``doc 004: AI tools compared ...`` for an article, the title alone for an assessment or a user source."""
    source = kb.sources.get(source_id)
    if source is None:
        return source_id
    return f"doc {source.id}: {source.title_en}" if source.kind == "article" else source.title_en


def section_label(kb: KnowledgeBase, claim: Claim) -> str:
    """The cited section as ``id heading_zh (heading_en)``; empty when the claim cites none."""
    source = kb.sources.get(claim.source)
    if source is None or claim.section is None:
        return ""
    for section in source.sections:
        if section.id == claim.section:
            return f"{section.id} {section.heading_zh} ({section.heading_en})"
    return claim.section


def rubric_text(kb: KnowledgeBase, claim: Claim) -> str:
    """For an ``assessed`` rating: the rubric level(s) its value stands on, per criterion reading it; else empty.

    A half step (3.5) names both levels it lies between, so a reader sees what the rating claims without opening
    the criteria file.
    """
    if claim.tier != "assessed" or claim.value is None:
        return ""
    parts = []
    for criterion in kb.criteria.values():
        if not criterion.rubric or not criterion.reads(claim):
            continue
        levels = {r.level: r.text_en for r in criterion.rubric}
        low, high = int(claim.value // 1), int(-(-claim.value // 1))
        if low == high and low in levels:
            parts.append(f"{criterion.name_en}, level {low}: {levels[low]}")
        elif low in levels and high in levels:
            parts.append(f"{criterion.name_en}, between level {low} ({levels[low]}) and level {high} ({levels[high]})")
    return " | ".join(parts)
