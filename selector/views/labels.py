"""Labels shared by every screen's views: segment names, conditions, flags, values, documents."""

from __future__ import annotations

from collections.abc import Iterable

from selector import display
from selector.models import Claim, Conditions, KnowledgeBase

SEGMENT_LABELS = {
    "datacenter": "Datacenter",
    "workstation": "Workstation and desktop",
    "edge": "Edge",
    "mobile_client": "Mobile and client",
    "emerging": "Emerging",
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
