"""Provenance for display: the bundled datasets with their licences, each claim's footnote, and how old numbers are.

Plain functions over the knowledge base for the app, the report and the exports (which must name every dataset
and its licence, and render a benchmarked number with its footnote).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from selector.models import TIERS, Claim, KnowledgeBase

# Numbers from a snapshot older than this are marked as ageing wherever shown.
AGEING_MONTHS = 18

TIER_DESCRIPTIONS = {
    "measured": "your own measurement (My data or --extra)",
    "benchmarked": "third-party runs with public logs (MLPerf closed/open, AccelMark verified/community)",
    "reference": "datasheet and spec databases (Epoch AI hardware data, cloud price lists)",
    "claimed": "an article says so (verbatim quote kept)",
    "assessed": "our rating, with a written rationale and the claims it rests on",
}


@dataclass(frozen=True)
class DatasetInfo:
    """A bundled dataset as the 'Data sources and licences' section shows it."""

    id: str
    title: str
    licence: str
    attribution: str
    upstream: tuple[str, ...]
    snapshot_date: str
    licence_files: tuple[str, ...]
    url: str | None
    claims: int

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "licence": self.licence,
            "attribution": self.attribution,
            "upstream": list(self.upstream),
            "snapshot_date": self.snapshot_date,
            "licence_files": list(self.licence_files),
            "url": self.url,
            "claims": self.claims,
        }


def datasets(kb: KnowledgeBase) -> list[DatasetInfo]:
    """Every dataset source of `kb`, sorted by id, with how many claims cite it."""
    counts: dict[str, int] = {}
    for claim in kb.claims.values():
        counts[claim.source] = counts.get(claim.source, 0) + 1
    found = []
    for source in sorted(kb.sources.values(), key=lambda s: s.id):
        if source.kind != "dataset":
            continue
        found.append(
            DatasetInfo(
                id=source.id,
                title=source.title_en,
                licence=source.licence or "",
                attribution=" ".join((source.attribution or "").split()),
                upstream=tuple(source.upstream),
                snapshot_date=source.snapshot_date or "",
                licence_files=tuple(source.licence_files),
                url=source.url,
                claims=counts.get(source.id, 0),
            )
        )
    return found


def footnote(claim: Claim) -> str:
    """The footnote a number renders with: for a located claim its result id, round, division, category,
    availability, retrieval date and licence; empty for other tiers (their quote or rationale speaks for them)."""
    return claim.locator.footnote() if claim.locator is not None else ""


def months_old(date: str, today: dt.date | None = None) -> int:
    """Whole months between ISO `date` and `today` (default: now, UTC)."""
    then = dt.date.fromisoformat(date)
    today = today or dt.datetime.now(dt.UTC).date()
    return (today.year - then.year) * 12 + (today.month - then.month) - (1 if today.day < then.day else 0)


def is_ageing(claim: Claim, kb: KnowledgeBase, today: dt.date | None = None) -> bool:
    """True when `claim` comes from a dataset snapshot older than :data:`AGEING_MONTHS`."""
    source = kb.sources.get(claim.source)
    if source is None or source.kind != "dataset" or not source.snapshot_date:
        return False
    return months_old(source.snapshot_date, today) > AGEING_MONTHS


def tier_order() -> tuple[str, ...]:
    """The trust tiers, strongest first (the matrix fills a cell from the strongest tier present)."""
    return TIERS


def evidence_entries(
    kb: KnowledgeBase, claim_ids: tuple[str, ...] | list[str], today: dt.date | None = None
) -> list[dict]:
    """What a cell's evidence is, claim by claim: tier, source, locator (or None), footnote, snapshot age."""
    entries = []
    for claim_id in claim_ids:
        claim = kb.claims[claim_id]
        source = kb.sources.get(claim.source)
        entries.append(
            {
                "claim": claim.id,
                "tier": claim.tier,
                "source": claim.source,
                "value": claim.value,
                "unit": claim.unit,
                "locator": None if claim.locator is None else claim.locator.model_dump(exclude_none=True),
                "footnote": footnote(claim),
                "snapshot_date": source.snapshot_date if source is not None else None,
                "ageing": is_ageing(claim, kb, today),
            }
        )
    return entries
