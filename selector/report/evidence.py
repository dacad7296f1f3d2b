"""The report's evidence: every claim behind a number, rule or default weight, and the datasets it names."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from selector import i18n
from selector.knowledge import provenance
from selector.knowledge.locators import RAW_DIR
from selector.knowledge.models import KnowledgeBase
from selector.report.model import DataSource, Evidence
from selector.views.labels import rubric_text, section_label, value_text


def uses(kb: KnowledgeBase, report_parts: dict[str, Any], lang: i18n.Language = "en") -> dict[str, list[str]]:
    """Claim id -> what in the report it supports (in `lang`), in first-use order."""
    _ = i18n.translator(lang)
    uses: dict[str, list[str]] = {}

    def add(claim_id: str, use: str) -> None:
        uses.setdefault(claim_id, [])
        if use not in uses[claim_id]:
            uses[claim_id].append(use)

    for dim in report_parts["dimensions"]:
        for claim_id in dim.claims:
            add(claim_id, _("default weight of {dimension}").format(dimension=i18n.pick(lang, dim.name, dim.name_zh)))
    for rule in report_parts["rules"]:
        for claim_id in rule.claims:
            add(claim_id, _("decision rule {rule}").format(rule=rule.id))
    criteria = report_parts["criteria"]
    for option in report_parts["options"]:
        for crit, cell in zip(criteria, option.cells, strict=True):
            for claim_id in cell.evidence:
                add(claim_id, f"{option.name}: {crit.name}")
    # Assessed claims rest on others; those are evidence too, so follow `based_on` to the bottom.
    queue = list(uses)
    while queue:
        claim = kb.claims.get(queue.pop(0))
        for basis in claim.based_on if claim else ():
            if basis not in uses:
                queue.append(basis)
            add(basis, _("basis of {claim}").format(claim=claim.id))
    return uses


def claims(kb: KnowledgeBase, uses: Mapping[str, list[str]], today: date | None = None) -> tuple[Evidence, ...]:
    rows = []
    for claim_id in sorted(uses):
        claim = kb.claims.get(claim_id)
        if claim is None:  # the loader refuses dangling references; keep the report honest if one slips through
            rows.append(Evidence(claim_id, "", "", "", "", "", "claim not found in the knowledge base", "", "", ()))
            continue
        source = kb.sources.get(claim.source)
        rows.append(
            Evidence(
                id=claim.id,
                document_id=claim.source,
                document_title_en=source.title_en if source else claim.source,
                document_title_zh=(source.title_zh or "") if source else "",
                section=section_label(kb, claim),
                quote_zh=claim.quote or "",
                text_en=claim.text_en,
                value=value_text(claim),
                tier=claim.tier,
                flags=tuple(
                    f"{f.kind}: {f.reason}" + (f" (ref: {f.reference})" if f.reference else "") for f in claim.flags
                ),
                rationale=claim.rationale or "",
                based_on=tuple(claim.based_on),
                note=claim.note or "",
                used_for=tuple(uses[claim_id]),
                footnote=provenance.footnote(claim, kb),
                age=provenance.age_text(claim, kb, today),
                rubric=rubric_text(kb, claim),
            )
        )
    return tuple(rows)


def data_sources(kb: KnowledgeBase, today: date | None = None, *, lang: i18n.Language = "en") -> tuple[DataSource, ...]:
    """The bundled datasets as the report names them, each snapshot's age worded in `lang`."""
    return tuple(
        DataSource(
            d.id,
            d.title,
            d.licence,
            d.attribution,
            d.snapshot_date,
            "; ".join(d.upstream),
            age=provenance.dataset_age_text(d, today, lang),
            licence_url=provenance.LICENCE_URLS.get(d.licence, ""),
            changes="; ".join(provenance.conversions_used(kb, d.id, lang=lang)),
            notices=", ".join(f"knowledge/{RAW_DIR}/{f}" for f in d.licence_files if "NOTICE" in f.upper()),
        )
        for d in provenance.datasets(kb)
    )
