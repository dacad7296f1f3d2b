"""The Frameworks screen's views: the feature matrix of ratings and the benchmark sets measured alike."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from selector import display, i18n
from selector.decision.matrix import claims_for_cell
from selector.knowledge import vocabulary
from selector.knowledge.models import Claim, KnowledgeBase
from selector.memo import PerObject
from selector.views.evidence import claim_evidence
from selector.views.labels import document_label, flags_text

# Benchmark metrics the Frameworks page charts; each chart holds only claims measured under the same conditions.
BENCHMARK_METRICS = ("throughput", "latency_ms", "gpu_memory_gb")
# `version` names which release of the subject was measured, not the setting it was measured in, so two
# claims that differ only in version still describe the same experiment (article 004's table states PyTorch's).
_NOT_A_SETTING = frozenset({"version"})


@dataclass(frozen=True)
class FeatureMatrix:
    """Ratings of entities (rows) on rating criteria (columns), with the claims behind each cell."""

    values: pd.DataFrame  # entity name x criterion name -> rating (NaN where no claim)
    claim_ids: pd.DataFrame  # same shape -> tuple of claim ids behind the cell
    objectives: tuple[str, ...]  # per column, "max" or "min"
    entity_ids: tuple[str, ...]
    criterion_ids: tuple[str, ...]


def feature_matrix(
    kb: KnowledgeBase, kind: str = "framework", use_flagged: bool = True, lang: i18n.Language = "en"
) -> FeatureMatrix:
    """Every rating (article 003's stars and every assessed rating) of entities of `kind`, as a matrix.

    Columns are the criteria whose metric is a rating (``rating_*``), in knowledge order; rows are the entities
    of `kind` with at least one rating, in knowledge order. A cell holds the value the decision matrix would use.
    Names are in `lang` where the knowledge has them (the other language otherwise).
    """
    criteria = [c for c in kb.criteria.values() if c.metric.startswith("rating_")]
    entities = [e for e in kb.entities.values() if e.kind == kind]
    values: dict[str, dict[str, float]] = {}
    ids: dict[str, dict[str, tuple[str, ...]]] = {}
    for entity in entities:
        for criterion in criteria:
            claims = claims_for_cell(kb, criterion, entity.id, use_flagged)
            if not claims:
                continue
            used = [c for c in claims if c.tier == claims[0].tier]
            values.setdefault(entity.id, {})[criterion.id] = float(statistics.median(c.value for c in used))
            ids.setdefault(entity.id, {})[criterion.id] = tuple(c.id for c in used)
    rows = [e for e in entities if e.id in values]
    cols = [c for c in criteria if any(c.id in values[e.id] for e in rows)]
    names = [i18n.pick(lang, e.name, e.name_zh) for e in rows]
    col_names = [i18n.pick(lang, c.name_en, c.name_zh) for c in cols]
    value_frame = pd.DataFrame(
        [[values[e.id].get(c.id, np.nan) for c in cols] for e in rows], index=names, columns=col_names, dtype=float
    )
    id_frame = pd.DataFrame([[ids[e.id].get(c.id, ()) for c in cols] for e in rows], index=names, columns=col_names)
    return FeatureMatrix(
        value_frame,
        id_frame,
        tuple(c.objective for c in cols),
        tuple(e.id for e in rows),
        tuple(c.id for c in cols),
    )


def rating_table(fm: FeatureMatrix, lang: i18n.Language = "en") -> pd.DataFrame:
    """The ratings as a table to read: one row per criterion (its name saying "(lower is better)" where a low
    rating is the good one), one column per entity after the first column of criteria; unrated cells are NaN.

    Criteria go down the rows so the table fits a laptop's width: their names are long, the entities' short.
    """
    _ = i18n.translator(lang)
    names = [
        _("{criterion} (lower is better)").format(criterion=column) if objective == "min" else column
        for column, objective in zip(fm.values.columns, fm.objectives, strict=True)
    ]
    table = fm.values.set_axis(names, axis="columns").T
    table.columns.name = None
    return table.rename_axis(_("criterion")).reset_index()


# Per shared feature matrix and language: the Frameworks page shows the same table on every visit of every session.
_RATING_TEXT = PerObject(16)


def rating_text(fm: FeatureMatrix, lang: i18n.Language = "en") -> pd.DataFrame:
    """:func:`rating_table` as the page reads it: each rating written as :func:`selector.display.number` writes it,
    an unrated cell empty. Kept per matrix and language; shared, so read-only."""

    def text(value: object) -> object:
        return "" if pd.isna(value) else value if isinstance(value, str) else display.number(value)

    return _RATING_TEXT.get(fm, lang, lambda: rating_table(fm, lang).map(text))


def feature_hover(kb: KnowledgeBase, fm: FeatureMatrix) -> pd.DataFrame:
    """Plain text per cell of a feature matrix: each claim's id and tier, document and section, quote or rationale,
    and for an assessed rating the rubric level it stands on."""

    def describe(ids: tuple[str, ...]) -> str:
        parts = []
        for claim_id in ids:
            ev = claim_evidence(kb, claim_id)
            lines = [f"{claim_id} ({ev['tier']})", ev["document"]]
            if ev["section"]:
                lines.append(f"section {ev['section']}")
            lines.append(f"“{ev['quote_zh']}”" if ev["quote_zh"] else ev["rationale"])
            if ev["rubric"]:
                lines.append(f"rubric: {ev['rubric']}")
            if ev["flags"]:
                lines.append(f"flags: {ev['flags']}")
            parts.append("\n".join(lines))
        return "\n".join(parts) or "no claim"

    return fm.claim_ids.map(describe)


@dataclass(frozen=True)
class ComparableSet:
    """Claims of one metric and unit measured under the same conditions: the only numbers one chart may hold."""

    metric: str
    unit: str
    conditions: tuple[tuple[str, str], ...]
    claims: tuple[Claim, ...]
    label: str  # the metric's name (knowledge/metrics.yaml)

    @property
    def subjects(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.subject_id for c in self.claims))

    @property
    def title(self) -> str:
        setting = "; ".join(f"{k}: {v}" for k, v in self.conditions) or "no conditions stated"
        return f"{self.label} ({self.unit}) - {setting}"


def comparable_sets(
    kb: KnowledgeBase, metrics: Sequence[str] = BENCHMARK_METRICS, use_flagged: bool = True
) -> tuple[list[ComparableSet], list[ComparableSet]]:
    """Group the numeric claims of `metrics` by (metric, unit, conditions).

    Returns
    -------
    comparable, not_comparable
        Sets with claims about at least two different subjects (one chart each), and the sets that hold a single
        subject (nothing measured alongside them), in metric order then by size.
    """
    groups: dict[tuple, list[Claim]] = defaultdict(list)
    for claim in kb.claims.values():
        if claim.metric not in metrics or claim.value is None or (claim.flagged and not use_flagged):
            continue
        setting = tuple((k, v) for k, v in claim.conditions.key() if k not in _NOT_A_SETTING)
        groups[(claim.metric, claim.unit, setting)].append(claim)
    comparable, alone = [], []
    for (metric, unit, setting), claims in groups.items():
        found = ComparableSet(metric, unit, setting, tuple(claims), vocabulary.label(kb, metric))
        (comparable if len(found.subjects) >= 2 else alone).append(found)

    def order(s: ComparableSet) -> tuple:
        return (list(metrics).index(s.metric), -len(s.claims), s.title)

    return sorted(comparable, key=order), sorted(alone, key=order)


def comparable_frame(kb: KnowledgeBase, found: ComparableSet) -> pd.DataFrame:
    """One row per claim of a comparable set: what a benchmark chart draws and shows on hover."""
    rows = []
    for claim in found.claims:
        version = claim.conditions.version
        rows.append(
            {
                "entity": kb.entity_name(claim.subject_id) + (f" {version}" if version else ""),
                "value": float(claim.value),
                "unit": claim.unit,
                "claim": claim.id,
                "document": document_label(kb, claim.source),
                "quote_zh": claim.quote or "",
                "text_en": claim.text_en,
                "flagged": claim.flagged,
                "flags": flags_text(claim),
            }
        )
    return pd.DataFrame(rows)
