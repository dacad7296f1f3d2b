"""The Evidence screen's views (and any screen showing a claim): a claim as evidence, the claims table, filters."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

import pandas as pd

from selector import i18n
from selector.i18n import N_
from selector.knowledge import provenance, vocabulary
from selector.knowledge.models import Claim, KnowledgeBase
from selector.views.labels import (
    conditions_text,
    document_label,
    flags_text,
    rubric_text,
    section_label,
    value_text,
)


def claim_evidence(kb: KnowledgeBase, claim_id: str, today: dt.date | None = None) -> dict[str, str]:
    """One claim as the evidence a screen shows: document, section, Chinese quote, English text, flags.

    A number from a bundled dataset also carries its ``footnote`` (result id, round, division, category,
    availability, row, retrieval date, licence; "derived" for per-accelerator figures) and its ``age`` (the
    snapshot date, marked ageing when older than :data:`selector.knowledge.provenance.AGEING_MONTHS` at `today`).

    Raises
    ------
    KeyError
        If `claim_id` is not a claim of `kb`.
    """
    claim = kb.claims[claim_id]
    return {
        "id": claim.id,
        "document": document_label(kb, claim.source),
        "section": section_label(kb, claim),
        "tier": claim.tier,
        "quote_zh": claim.quote or "",
        "text_en": claim.text_en,
        "value": value_text(claim),
        "conditions": conditions_text(claim.conditions),
        "flags": flags_text(claim),
        "rationale": claim.rationale or "",
        "rubric": rubric_text(kb, claim),
        "based_on": ", ".join(claim.based_on),
        "note": claim.note or "",
        "location": kb.locations.get(("claims", claim.id), ""),
        "footnote": provenance.footnote(claim, kb),
        "age": provenance.age_text(claim, kb, today),
    }


CLAIM_COLUMNS = (
    "id",
    "quote_zh",
    "text_en",
    "value",
    "unit",
    "flagged",
    "flags",
    "entities",
    "document",
    "section",
    "kind",
    "tier",
    "metric",
    "conditions",
    "snapshot",
    "ageing",
    "footnote",
)


def claims_table(
    kb: KnowledgeBase, claims: Iterable[Claim] | None = None, today: dt.date | None = None
) -> pd.DataFrame:
    """Every claim (or the given ones) as one row each, Chinese quote and English rendering side by side.

    A dataset's number also gives its ``snapshot`` date, whether it is ``ageing`` at `today` (older than
    :data:`selector.knowledge.provenance.AGEING_MONTHS`) and its ``footnote``; these are empty for the other claims.
    """
    rows = []
    for claim in kb.claims.values() if claims is None else claims:
        rows.append(
            {
                "id": claim.id,
                "document": claim.source,
                "section": claim.section or "",
                "entities": ", ".join(kb.entity_name(e) for e in claim.about),
                "kind": claim.kind,
                "tier": claim.tier,
                "metric": claim.metric or "",
                "value": claim.value,
                "unit": claim.unit or "",
                "quote_zh": claim.quote or "",
                "text_en": claim.text_en,
                "flagged": claim.flagged,
                "flags": flags_text(claim),
                "conditions": conditions_text(claim.conditions),
                "snapshot": provenance.snapshot_date(claim, kb),
                "ageing": provenance.is_ageing(claim, kb, today),
                "footnote": provenance.footnote(claim, kb),
            }
        )
    frame = pd.DataFrame(rows, columns=list(CLAIM_COLUMNS))
    return frame.astype({"value": "float64", "flagged": "bool", "ageing": "bool"})


def flag_kinds(claim: Claim) -> str:
    """What a claim is flagged as, e.g. ``inconsistent, outdated`` (the reasons are in :func:`flags_text`)."""
    return ", ".join(flag.kind.replace("_", " ") for flag in claim.flags)


def labelled_claims(kb: KnowledgeBase, table: pd.DataFrame) -> pd.DataFrame:
    """`table` (:func:`claims_table`) as a reader scans it: metrics and documents by name, flags by kind."""
    return table.assign(
        metric=[vocabulary.label(kb, m) if m else "" for m in table["metric"]],
        document=[document_label(kb, d) for d in table["document"]],
        flags=[flag_kinds(kb.claims[c]) for c in table["id"]],
    )


PREVIEW_COLUMNS = ("id", N_("English"), N_("quote (Chinese)"), N_("number"), N_("source"), N_("flagged as"))


def claims_preview(
    kb: KnowledgeBase, claim_ids: Iterable[str], today: dt.date | None = None, lang: i18n.Language = "en"
) -> pd.DataFrame:
    """The claims `claim_ids` in six columns that a static table can show whole: id, English, Chinese quote, the
    number (metric by name, comparator, value, unit), where it comes from (document and section number; for a
    dataset's number its footnote and snapshot date, marked when ageing) and what it is flagged as.

    In Chinese the quote comes before the English rendering and the headers are translated; footnotes keep the
    datasets' own terms."""
    _ = i18n.translator(lang)
    rows = []
    for claim_id in claim_ids:
        claim = kb.claims[claim_id]
        value = value_text(claim)
        # its heading is in the claim's record
        section = _("section {number}").format(number=claim.section) if claim.section else ""
        source = [document_label(kb, claim.source), section]
        source += [provenance.footnote(claim), provenance.age_text(claim, kb, today)]
        metric = vocabulary.label(kb, claim.metric) if claim.metric else ""
        rows.append(
            [
                claim.id,
                claim.text_en,
                claim.quote or "",
                f"{metric}: {value}" if metric and value else value or metric,
                " · ".join(part for part in source if part),
                flag_kinds(claim),
            ]
        )
    frame = pd.DataFrame(rows, columns=[_(c) for c in PREVIEW_COLUMNS])
    if lang == "zh":
        order = [frame.columns[i] for i in (0, 2, 1, 3, 4, 5)]
        frame = frame[order]
    return frame


def _haystack(kb: KnowledgeBase, claim: Claim) -> str:
    parts = [claim.id, claim.quote or "", claim.text_en, claim.note or "", claim.rationale or "", claim.metric or ""]
    for entity_id in claim.about:
        entity = kb.entities.get(entity_id)
        parts.append(entity_id)
        if entity is not None:
            parts.extend([entity.name, entity.name_zh or "", *entity.aliases])
    return "\n".join(parts).casefold()


def filter_claims(
    kb: KnowledgeBase,
    text: str = "",
    documents: Sequence[str] = (),
    entities: Sequence[str] = (),
    kinds: Sequence[str] = (),
    tiers: Sequence[str] = (),
    flagged: bool | None = None,
    datasets: Sequence[str] = (),
) -> list[Claim]:
    """The claims matching every given filter; an empty filter matches everything.

    Parameters
    ----------
    text
        Case-insensitive substring of the Chinese quote, English text, id, note or an entity's names; every
        whitespace-separated word must occur.
    documents, entities, kinds, tiers
        Source ids, entity ids (any of the claim's `about`), claim kinds, tiers.
    flagged
        True: only flagged claims; False: only unflagged ones; None: both.
    datasets
        Dataset source ids. Documents and datasets both say where a claim comes from, so together they match
        a claim from any of them (a union, like the values within one filter).
    """
    words = [w.casefold() for w in text.split()]
    sources = set(documents) | set(datasets)
    found = []
    for claim in kb.claims.values():
        if sources and claim.source not in sources:
            continue
        if entities and not set(entities) & set(claim.about):
            continue
        if kinds and claim.kind not in kinds:
            continue
        if tiers and claim.tier not in tiers:
            continue
        if flagged is not None and claim.flagged != flagged:
            continue
        if words:
            haystack = _haystack(kb, claim)
            if not all(w in haystack for w in words):
                continue
        found.append(claim)
    return found
