"""Provenance for display: the bundled datasets with their licences, each claim's footnote, and how old numbers are.

Plain functions over the knowledge base for the app, the report and the exports (which must name every dataset
and its licence, and render a benchmarked number with its footnote).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from selector import i18n, memo
from selector.i18n import N_
from selector.knowledge.locators import CONVERSIONS, RAW_DIR
from selector.knowledge.models import TIERS, Claim, KnowledgeBase

# Numbers from a snapshot older than this are marked as ageing wherever shown.
AGEING_MONTHS = 18

#: Each tier's name as the interface shows it (the ids stay English in files, links and exports).
TIER_NAMES = {
    "measured": N_("measured"),
    "benchmarked": N_("benchmarked"),
    "reference": N_("reference"),
    "claimed": N_("claimed"),
    "assessed": N_("assessed"),
}
TIER_DESCRIPTIONS = {
    "measured": N_("your own measurement (My data or --extra)"),
    "benchmarked": N_("third-party runs with public logs (MLPerf closed/open, AccelMark verified/community)"),
    "reference": N_("datasheet and spec databases (Epoch AI hardware data, cloud price lists)"),
    "claimed": N_("an article says so (verbatim quote kept)"),
    "assessed": N_("our rating, with a written rationale and the claims it rests on"),
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


# every page's footer names the datasets: counted once per knowledge base, not on every run
_DATASETS = memo.PerKnowledge(4)


def datasets(kb: KnowledgeBase) -> tuple[DatasetInfo, ...]:
    """Every dataset source of `kb`, sorted by id, with how many claims cite it."""
    return _DATASETS.get(kb, "datasets", lambda: tuple(_datasets(kb)))


def _datasets(kb: KnowledgeBase) -> list[DatasetInfo]:
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


def footnote(claim: Claim, kb: KnowledgeBase | None = None) -> str:
    """The footnote a number renders with: for a located claim its result id, round, division, category,
    availability, retrieval date and licence; for a fact claim citing a document (given `kb`), the document's
    address and retrieval date; empty for other tiers (their quote or rationale speaks for them)."""
    if claim.locator is not None:
        return claim.locator.footnote()
    source = kb.sources.get(claim.source) if kb is not None else None
    if source is not None and source.kind == "document":
        return f"{source.title_en}; {source.url}; retrieved {source.retrieved}"
    return ""


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


# ----------------------------------------------------------------------------------------------------------
# A number's age and the licences' own texts, for the app's tables, hover labels and "Data sources" page

AGEING_LABEL = N_("ageing")

# The licences the bundled datasets use, with the canonical text a reader can follow (CC BY 4.0 asks for a link
# to the licence). Fixed addresses, never taken from the knowledge files.
LICENCE_URLS = {
    "CC-BY-4.0": "https://creativecommons.org/licenses/by/4.0/",
    "Apache-2.0": "https://www.apache.org/licenses/LICENSE-2.0",
    "MIT": "https://opensource.org/license/mit",
    "PyPI Terms of Use": "https://policies.python.org/pypi.org/Terms-of-Use/",
}
#: Datasets of facts (counts read from public git histories, figures transcribed from vendors' pages) under no
#: licence of their own: nothing to link to; their NOTICE files say where each row comes from.
FACT_DATASETS = frozenset({"repo-history", "vendor-datasheets"})

# A NOTICE file is shown in full; one larger than this is cut (bundled files are a few kB).
MAX_NOTICE_CHARS = 20_000


def snapshot_date(claim: Claim, kb: KnowledgeBase) -> str:
    """The snapshot date of the dataset `claim` comes from; empty for an article's, our or a user's claim."""
    source = kb.sources.get(claim.source)
    if source is None or source.kind != "dataset":
        return ""
    return source.snapshot_date or ""


def age_text(claim: Claim, kb: KnowledgeBase, today: dt.date | None = None) -> str:
    """``as of 2025-04-21`` beside a dataset's number, with ``, ageing (19 months old)`` past
    :data:`AGEING_MONTHS`; empty for claims that do not come from a dataset snapshot."""
    date = snapshot_date(claim, kb)
    if not date:
        return ""
    if is_ageing(claim, kb, today):
        return f"as of {date}, {AGEING_LABEL} ({months_old(date, today)} months old)"
    return f"as of {date}"


def dataset_age_text(info: DatasetInfo, today: dt.date | None = None, lang: i18n.Language = "en") -> str:
    """A dataset's snapshot date and age in months, marked ageing past :data:`AGEING_MONTHS`, in `lang`."""
    _ = i18n.translator(lang)
    if not info.snapshot_date:
        return _("snapshot date not stated")
    months = months_old(info.snapshot_date, today)
    if months < 0:  # a report dated before the snapshot (reproducible test dates): no age to state
        return _("snapshot {date}").format(date=info.snapshot_date)
    if months > AGEING_MONTHS:
        text = _("snapshot {date} ({months} months old; {ageing}, older than {limit} months)")
        return text.format(date=info.snapshot_date, months=months, ageing=_(AGEING_LABEL), limit=AGEING_MONTHS)
    return _("snapshot {date} ({months} months old)").format(date=info.snapshot_date, months=months)


def conversions_used(kb: KnowledgeBase, dataset_id: str, *, lang: i18n.Language = "en") -> list[str]:
    """What was changed in the dataset's numbers on import, in words in `lang` (CC BY 4.0 asks to indicate changes).

    One entry per unit conversion its claims' locators name, e.g. ``bytes / 10^9 = GB``; a dataset whose
    numbers are kept as they stand gives ``the raw number unchanged``.
    """
    used = sorted({c.locator.conversion for c in kb.claims.values() if c.locator and c.locator.dataset == dataset_id})
    return [i18n.stored(CONVERSIONS[name][1], lang) for name in used if name in CONVERSIONS]


def notices(info: DatasetInfo, knowledge_dir: Path) -> list[tuple[str, str]]:
    """The NOTICE files bundled with a dataset, as (path under ``imports/raw/``, text).

    Apache-2.0 asks that a NOTICE shipped with a work be reproduced wherever its attribution notices appear;
    the app's "Data sources and licences" section shows them. A file that cannot be read is named with the
    reason instead of its text.
    """
    found = []
    root = (Path(knowledge_dir) / RAW_DIR).resolve()
    for name in info.licence_files:
        if not Path(name).name.upper().startswith("NOTICE"):
            continue
        path = (root / name).resolve()
        try:
            path.relative_to(root)
            with path.open("rb") as handle:
                data = handle.read(MAX_NOTICE_CHARS * 4)
        except (OSError, ValueError) as exc:
            found.append((name, f"(not readable: {getattr(exc, 'strerror', None) or exc})"))
            continue
        text = data.decode("utf-8", errors="replace")
        found.append((name, text[:MAX_NOTICE_CHARS] + ("\n[...]" if len(text) > MAX_NOTICE_CHARS else "")))
    return found
