"""Plain-data views of the knowledge base for the app's screens: pandas tables and small records, no streamlit."""

from __future__ import annotations

import datetime as dt
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from selector import provenance
from selector.matrix import DecisionMatrix, claims_for_cell
from selector.models import LOCATED_TIERS, Claim, Conditions, KnowledgeBase

# ----------------------------------------------------------------------------------------------------------
# Labels

METRIC_LABELS = {
    "throughput": "Throughput",
    "latency_ms": "Latency",
    "gpu_memory_gb": "GPU memory used",
    "tops_int8": "INT8 compute",
    "tflops_fp8": "FP8 compute",
    "power_w": "Power",
    "efficiency_tops_per_w": "Energy efficiency",
    "memory_capacity_gb": "Memory capacity",
    "bandwidth_tbps": "Bandwidth",
    "speedup": "Speed-up",
    "cost_reduction_pct": "Cost reduction",
    "latency_reduction_pct": "Latency reduction",
    "sparsity_pct": "Sparsity",
    "energy_reduction_factor": "Energy reduction",
    "generation": "Generation",
}
SEGMENT_LABELS = {
    "datacenter": "Datacenter",
    "workstation": "Workstation and desktop",
    "edge": "Edge",
    "mobile_client": "Mobile and client",
    "emerging": "Emerging",
}
# Metrics where a smaller number is the better one (for chart axis titles and sort order).
LOWER_IS_BETTER = frozenset({"latency_ms", "gpu_memory_gb", "power_w"})
# Benchmark metrics the Frameworks page charts; each chart holds only claims measured under the same conditions.
BENCHMARK_METRICS = ("throughput", "latency_ms", "gpu_memory_gb")
# `version` names which release of the subject was measured, not the setting it was measured in, so two
# claims that differ only in version still describe the same experiment (article 004's table states PyTorch's).
_NOT_A_SETTING = frozenset({"version"})


def metric_label(metric: str, kb: KnowledgeBase | None = None) -> str:
    """A readable name for a metric id: a known label, else the name of a criterion on it, else the id spaced."""
    if metric in METRIC_LABELS:
        return METRIC_LABELS[metric]
    if kb is not None:
        for criterion in kb.criteria.values():
            if criterion.metric == metric and not criterion.conditions.key():
                return criterion.name_en
    return metric.replace("_", " ")


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
    return f"{comparator}{claim.value:g} {claim.unit}"


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


# ----------------------------------------------------------------------------------------------------------
# Claims


def claim_evidence(kb: KnowledgeBase, claim_id: str, today: dt.date | None = None) -> dict[str, str]:
    """One claim as the evidence a screen shows: document, section, Chinese quote, English text, flags.

    A number from a bundled dataset also carries its ``footnote`` (result id, round, division, category,
    availability, row, retrieval date, licence; "derived" for per-accelerator figures) and its ``age`` (the
    snapshot date, marked ageing when older than :data:`selector.provenance.AGEING_MONTHS` at `today`).

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
        "based_on": ", ".join(claim.based_on),
        "note": claim.note or "",
        "location": kb.locations.get(("claims", claim.id), ""),
        "footnote": provenance.footnote(claim),
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
    :data:`selector.provenance.AGEING_MONTHS`) and its ``footnote``; these are empty for the other claims.
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
                "footnote": provenance.footnote(claim),
            }
        )
    frame = pd.DataFrame(rows, columns=list(CLAIM_COLUMNS))
    return frame.astype({"value": "float64", "flagged": "bool", "ageing": "bool"})


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


# ----------------------------------------------------------------------------------------------------------
# Frameworks: feature matrix and comparable benchmarks


@dataclass(frozen=True)
class FeatureMatrix:
    """Ratings of entities (rows) on rating criteria (columns), with the claims behind each cell."""

    values: pd.DataFrame  # entity name x criterion name -> rating (NaN where no claim)
    claim_ids: pd.DataFrame  # same shape -> tuple of claim ids behind the cell
    objectives: tuple[str, ...]  # per column, "max" or "min"
    entity_ids: tuple[str, ...]
    criterion_ids: tuple[str, ...]


def feature_matrix(kb: KnowledgeBase, kind: str = "framework", use_flagged: bool = True) -> FeatureMatrix:
    """Every rating (article 003's stars and every assessed rating) of entities of `kind`, as a matrix.

    Columns are the criteria whose metric is a rating (``rating_*``), in knowledge order; rows are the entities
    of `kind` with at least one rating, in knowledge order. A cell holds the value the decision matrix would use.
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
    names = [e.name for e in rows]
    col_names = [c.name_en for c in cols]
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


def feature_hover(kb: KnowledgeBase, fm: FeatureMatrix) -> pd.DataFrame:
    """Plain text per cell of a feature matrix: each claim's id and tier, document and section, quote or rationale."""

    def describe(ids: tuple[str, ...]) -> str:
        parts = []
        for claim_id in ids:
            ev = claim_evidence(kb, claim_id)
            lines = [f"{claim_id} ({ev['tier']})", ev["document"]]
            if ev["section"]:
                lines.append(f"section {ev['section']}")
            lines.append(f"“{ev['quote_zh']}”" if ev["quote_zh"] else ev["rationale"])
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

    @property
    def subjects(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.subject_id for c in self.claims))

    @property
    def title(self) -> str:
        setting = "; ".join(f"{k}: {v}" for k, v in self.conditions) or "no conditions stated"
        return f"{metric_label(self.metric)} ({self.unit}) - {setting}"


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
        found = ComparableSet(metric, unit, setting, tuple(claims))
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


# ----------------------------------------------------------------------------------------------------------
# Accelerators


def accelerator_claims(kb: KnowledgeBase, use_flagged: bool = True, today: dt.date | None = None) -> pd.DataFrame:
    """Every numeric claim whose subject is an accelerator, one row each (long form).

    A dataset's number also gives its ``source``, ``snapshot`` date, whether it is ``ageing`` at `today` and its
    ``footnote`` (empty for the articles' and our claims).
    """
    rows = []
    for claim in kb.claims.values():
        entity = kb.entities.get(claim.subject_id)
        if claim.value is None or entity is None or entity.kind != "accelerator":
            continue
        if claim.flagged and not use_flagged:
            continue
        rows.append(
            {
                "entity_id": entity.id,
                "name": entity.name,
                "segment": entity.segment,
                "metric": claim.metric,
                "label": metric_label(claim.metric, kb),
                "value": float(claim.value),
                "comparator": claim.comparator,
                "unit": claim.unit,
                "conditions": conditions_text(claim.conditions),
                "claim": claim.id,
                "tier": claim.tier,
                "flagged": claim.flagged,
                "flags": flags_text(claim),
                "quote_zh": claim.quote or "",
                "text_en": claim.text_en,
                "source": claim.source,
                "snapshot": provenance.snapshot_date(claim, kb),
                "ageing": provenance.is_ageing(claim, kb, today),
                "footnote": provenance.footnote(claim),
            }
        )
    columns = [
        "entity_id",
        "name",
        "segment",
        "metric",
        "label",
        "value",
        "comparator",
        "unit",
        "conditions",
        "claim",
        "tier",
        "flagged",
        "flags",
        "quote_zh",
        "text_en",
        "source",
        "snapshot",
        "ageing",
        "footnote",
    ]
    return pd.DataFrame(rows, columns=columns).astype({"ageing": "bool"})


def dataset_numbers(kb: KnowledgeBase, claims: pd.DataFrame, segment: str | None = None) -> pd.DataFrame:
    """The rows of :func:`accelerator_claims` that come from a bundled dataset, for reading: accelerator,
    quantity, value, unit, setting, tier, dataset, snapshot date, ageing, footnote and claim id."""
    frame = claims[claims["tier"].isin(sorted(LOCATED_TIERS))]
    if segment is not None:
        frame = frame[frame["segment"] == segment]
    titles = {s.id: s.title_en for s in kb.sources.values()}
    return pd.DataFrame(
        {
            "accelerator": frame["name"],
            "quantity": frame["label"],
            "value": frame["value"],
            "unit": frame["unit"],
            "setting": frame["conditions"],
            "tier": frame["tier"],
            "dataset": [titles.get(s, s) for s in frame["source"]],
            "as of": frame["snapshot"],
            "ageing": frame["ageing"],
            "footnote": frame["footnote"],
            "claim": frame["claim"],
        }
    ).reset_index(drop=True)


def short_setting(conditions: str) -> str:
    """A compact form of a :func:`conditions_text` string for column labels: ``vs A100, inference``."""
    pairs = dict(part.split(": ", 1) for part in conditions.split("; ") if ": " in part)
    parts = []
    if "baseline" in pairs:
        parts.append(f"vs {pairs['baseline']}")
    parts += [pairs[k] for k in ("workload", "scope", "precision", "task", "scenario") if k in pairs]
    return ", ".join(parts)


def _column_label(metric: str, label: str, unit: str) -> str:
    if unit == metric or unit.casefold() == label.casefold() or f"({unit})" in label:
        return label
    return f"{label} ({unit})"


def spec_table(claims: pd.DataFrame, segment: str | None = None) -> pd.DataFrame:
    """The accelerator claims pivoted: one column per accelerator, one row per metric (unit and setting).

    A metric stated under several settings gets one row per setting, so unlike numbers never share a row.
    Where one accelerator has several claims in a cell their median is shown. Flagged values are kept (the
    Evidence page says why they are flagged); a last row counts each accelerator's flagged claims.
    """
    frame = claims if segment is None else claims[claims["segment"] == segment]
    if frame.empty:
        return pd.DataFrame(index=pd.Index([], name="metric"))
    labels = {}
    for metric, part in frame.groupby("metric", sort=False):
        settings = list(dict.fromkeys(part["conditions"]))
        short = [short_setting(s) for s in settings]
        # Short labels are used only when they still tell every setting apart.
        if len(settings) > 1 and len(set(short)) == len(short):
            names = short
        elif len(settings) > 1:
            names = settings
        else:
            names = [""]
        for setting, name in zip(settings, names, strict=True):
            base = _column_label(metric, part["label"].iloc[0], part["unit"].iloc[0])
            labels[(metric, setting)] = f"{base} [{name}]" if name else base
    frame = frame.assign(column=[labels[(m, s)] for m, s in zip(frame["metric"], frame["conditions"], strict=True)])
    table = frame.pivot_table(index="column", columns="name", values="value", aggfunc="median", sort=False)
    table.loc["flagged claims"] = frame.groupby("name", sort=False)["flagged"].sum().reindex(table.columns)
    table.index.name = "metric"
    table.columns.name = None
    return table


def _dense_first(kb: KnowledgeBase, rows: pd.DataFrame) -> pd.DataFrame:
    dense = rows[[kb.claims[c].conditions.sparsity == "dense" for c in rows["claim"]]]
    return dense if len(dense) else rows


def accelerator_efficiency(kb: KnowledgeBase, use_flagged: bool = True) -> pd.DataFrame:
    """TOPS, watts and TOPS/W per accelerator: claimed efficiency where stated, else derived as TOPS / W.

    Only accelerators with an efficiency claim or both a TOPS and a power claim appear. `basis` says which. Where
    an accelerator has dense figures (``conditions.sparsity: dense``), only those are used.
    """
    claims = accelerator_claims(kb, use_flagged)
    rows = []
    for entity_id, own in claims.groupby("entity_id", sort=False):

        def pick(metric: str, own: pd.DataFrame = own) -> pd.DataFrame:
            return own[own["metric"] == metric]

        # Peak TOPS are published dense or with 2:4 sparsity (twice as high); where a chip has a dense figure, the
        # chart uses only that, so that chips are compared on one basis.
        tops, watts, eff = (
            _dense_first(kb, pick("tops_int8")),
            pick("power_w"),
            _dense_first(kb, pick("efficiency_tops_per_w")),
        )
        tops_v = float(tops["value"].median()) if len(tops) else np.nan
        watts_v = float(watts["value"].median()) if len(watts) else np.nan
        if len(eff):
            used, value, basis = eff, float(eff["value"].median()), "claimed"
        elif len(tops) and len(watts) and watts_v > 0:
            used, value, basis = pd.concat([tops, watts]), tops_v / watts_v, "derived (TOPS / W)"
        else:
            continue
        used = pd.concat([used, tops, watts]).drop_duplicates("claim")
        first = own.iloc[0]
        rows.append(
            {
                "entity_id": entity_id,
                "name": first["name"],
                "segment": first["segment"],
                "tops": tops_v,
                "watts": watts_v,
                "tops_per_w": value,
                "basis": basis,
                "claims": ", ".join(used["claim"]),
                "flagged": bool(used["flagged"].any()),
                "flags": " | ".join(f for f in used["flags"] if f),
            }
        )
    columns = ["entity_id", "name", "segment", "tops", "watts", "tops_per_w", "basis", "claims", "flagged", "flags"]
    return pd.DataFrame(rows, columns=columns)


def metric_frame(kb: KnowledgeBase, metric: str, kind: str = "accelerator", use_flagged: bool = True) -> pd.DataFrame:
    """Every claim of `metric` about an entity of `kind`: name, value, unit, setting, claim, flags, quote."""
    rows = []
    for claim in kb.claims.values():
        entity = kb.entities.get(claim.subject_id)
        if claim.metric != metric or claim.value is None or entity is None or entity.kind != kind:
            continue
        if claim.flagged and not use_flagged:
            continue
        rows.append(
            {
                "name": entity.name,
                "value": float(claim.value),
                "unit": claim.unit,
                "conditions": conditions_text(claim.conditions),
                "claim": claim.id,
                "flagged": claim.flagged,
                "flags": flags_text(claim),
                "quote_zh": claim.quote or "",
                "tier": claim.tier,
            }
        )
    columns = ["name", "value", "unit", "conditions", "claim", "flagged", "flags", "quote_zh", "tier"]
    return pd.DataFrame(rows, columns=columns)


def pareto_mask(points: np.ndarray, objectives: Sequence[str]) -> np.ndarray:
    """Which points no other point dominates (at least as good on every axis and better on one).

    Parameters
    ----------
    points
        n x k array; rows with a NaN are never on the frontier.
    objectives
        ``"max"`` or ``"min"`` per column.

    Returns
    -------
    numpy.ndarray
        Boolean mask of length n; equal points do not dominate each other, so both stay on the frontier.
    """
    pts = np.asarray(points, dtype=float)
    if pts.ndim != 2 or pts.shape[1] != len(objectives):
        raise ValueError(f"points must be n x {len(objectives)} (one column per objective), got shape {pts.shape}")
    bad = [o for o in objectives if o not in ("max", "min")]
    if bad:
        raise ValueError(f"objectives must be 'max' or 'min', got {bad}")
    sign = np.array([1.0 if o == "max" else -1.0 for o in objectives])
    gain = pts * sign
    valid = ~np.isnan(gain).any(axis=1)
    mask = valid.copy()
    for i in np.flatnonzero(valid):
        others = gain[valid]
        dominated = np.any(np.all(others >= gain[i], axis=1) & np.any(others > gain[i], axis=1))
        mask[i] = not dominated
    return mask


# ----------------------------------------------------------------------------------------------------------
# Recommendation screen


def ranking_table(ranking: Iterable) -> pa.Table:
    """The ranking as rank ("2=" when tied), name, score, shortlisted (✓ or blank), in rank order.

    An Arrow table, the format Streamlit sends to the browser: it is redrawn on every slider move, and a pandas
    frame, which Streamlit converts to Arrow, made the table about three times dearer to draw (0.9 ms, against
    0.3 ms, measured in the app's script thread).
    """
    ranking = list(ranking)
    shared = {r.rank for r in ranking if sum(o.rank == r.rank for o in ranking) > 1}
    return pa.table(
        {
            # "1=": an exact tie, stated in the table as in the heading
            "rank": pa.array([f"{r.rank}=" if r.rank in shared else str(r.rank) for r in ranking], pa.string()),
            "name": pa.array([r.name for r in ranking], pa.string()),
            "score": pa.array([r.score for r in ranking], pa.float64()),
            "shortlisted": pa.array(["✓" if r.shortlisted else "" for r in ranking], pa.string()),
        }
    )


def matrix_table(kb: KnowledgeBase, m: DecisionMatrix) -> pd.DataFrame:
    """The decision matrix for reading: one row per criterion (name, unit, direction), one column per alternative.

    Criteria are the rows because their names are long and they outnumber the alternatives.
    """
    index = pd.Index(
        [
            f"{kb.criteria[c].name_en} [{kb.criteria[c].unit}, {'higher' if o == 'max' else 'lower'} is better]"
            for c, o in zip(m.criteria, m.objectives, strict=True)
        ],
        name="criterion",
    )
    columns = [kb.entity_name(a) for a in m.alternatives]
    return pd.DataFrame(m.values.T, index=index, columns=columns)


def matrix_status(m: DecisionMatrix) -> pd.DataFrame:
    """Per cell of :func:`matrix_table` (same shape): "imputed", "flagged" or "", for styling and legends."""
    return pd.DataFrame(
        [["imputed" if c.imputed else "flagged" if c.flagged else "" for c in row] for row in m.cells]
    ).T


FILLED_MARK = "(filled in)"
FLAG_MARK = "⚑"


def matrix_display(kb: KnowledgeBase, m: DecisionMatrix) -> pd.DataFrame:
    """:func:`matrix_table` as text, each value marked when it was filled in or rests on a flagged claim."""
    table = matrix_table(kb, m)
    marks = {"imputed": f" {FILLED_MARK}", "flagged": f" {FLAG_MARK}", "": ""}
    text = [
        [f"{cell.value:g}{marks['imputed' if cell.imputed else 'flagged' if cell.flagged else '']}" for cell in column]
        for column in zip(*m.cells, strict=True)
    ]
    return pd.DataFrame(text, index=table.index, columns=table.columns)


def cell_choices(kb: KnowledgeBase, m: DecisionMatrix) -> dict[str, tuple[int, int]]:
    """``"alternative - criterion"`` labels of every cell -> (row, column) index into the matrix."""
    return {
        f"{kb.entity_name(a)} - {kb.criteria[c].name_en}": (i, j)
        for i, a in enumerate(m.alternatives)
        for j, c in enumerate(m.criteria)
    }


def cell_footnotes(kb: KnowledgeBase, m: DecisionMatrix, today: dt.date | None = None) -> pd.DataFrame:
    """The footnotes of the matrix's numbers that come from a bundled dataset, one row per (cell, claim):
    alternative, criterion, the claim's value and tier, its footnote, snapshot date and whether it is ageing.

    A cell resting on several claims (a median, or a derived cost per million tokens) lists each.
    """
    rows = []
    for row in m.cells:
        for cell in row:
            for claim_id in cell.evidence:
                claim = kb.claims.get(claim_id)
                if claim is None or claim.locator is None:
                    continue
                rows.append(
                    {
                        "alternative": kb.entity_name(cell.alternative),
                        "criterion": kb.criteria[cell.criterion].name_en,
                        "value": value_text(claim),
                        "tier": claim.tier,
                        "footnote": provenance.footnote(claim),
                        "as of": provenance.snapshot_date(claim, kb),
                        "ageing": provenance.is_ageing(claim, kb, today),
                        "claim": claim.id,
                    }
                )
    columns = ["alternative", "criterion", "value", "tier", "footnote", "as of", "ageing", "claim"]
    return pd.DataFrame(rows, columns=columns).astype({"ageing": "bool"})


def imputed_table(kb: KnowledgeBase, m: DecisionMatrix) -> pd.DataFrame:
    """The cells filled by the missing-value policy, with the value used."""
    rows = [
        {
            "alternative": kb.entity_name(c.alternative),
            "criterion": kb.criteria[c.criterion].name_en,
            "value used": c.value,
            "why": c.note,
        }
        for c in m.imputed_cells
    ]
    return pd.DataFrame(rows, columns=["alternative", "criterion", "value used", "why"])


def exclusions_table(kb: KnowledgeBase, m: DecisionMatrix) -> pd.DataFrame:
    """Alternatives and criteria left out of the ranking, and why."""
    rows = [{"what": "alternative", "name": kb.entity_name(e.id), "why": e.reason} for e in m.excluded_alternatives]
    rows += [
        {"what": "criterion", "name": kb.criteria[e.id].name_en if e.id in kb.criteria else e.id, "why": e.reason}
        for e in m.excluded_criteria
    ]
    return pd.DataFrame(rows, columns=["what", "name", "why"])


def contributions_frame(kb: KnowledgeBase, m: DecisionMatrix, contributions: np.ndarray) -> pd.DataFrame:
    """Long form of an m x n contribution array: alternative, criterion, dimension, contribution."""
    rows = []
    for i, alternative in enumerate(m.alternatives):
        for j, criterion in enumerate(m.criteria):
            rows.append(
                {
                    "alternative": kb.entity_name(alternative),
                    "criterion": kb.criteria[criterion].name_en,
                    "dimension": kb.dimensions[m.dimension_of[j]].name_en
                    if m.dimension_of[j] in kb.dimensions
                    else m.dimension_of[j],
                    "contribution": float(contributions[i, j]),
                }
            )
    return pd.DataFrame(rows, columns=["alternative", "criterion", "dimension", "contribution"])


# ----------------------------------------------------------------------------------------------------------
# Techniques, cases and resources linked to scenarios

# The app's editorial grouping, not a statement of the articles: which scenario answers (question id, option id)
# an item mainly serves, so that someone who answered that way finds the techniques, cases and resources that
# matter to them. Entity ids override their kind's default; ids or options missing from the knowledge are ignored.
SCENARIO_BY_KIND: dict[str, tuple[tuple[str, str], ...]] = {
    "dataset": (("goal", "research"),),
    "resource": (("goal", "research"),),
    "model": (("goal", "research"), ("goal", "industrial")),
    "tool": (("goal", "industrial"),),
    "technique": (("goal", "industrial"),),
    "system": (("goal", "industrial"),),
}
SCENARIO_BY_ENTITY: dict[str, tuple[tuple[str, str], ...]] = {
    # compression: what makes a model fit an edge device or a phone
    "int8-quantization": (("target", "edge"), ("target", "mobile")),
    "dynamic-quantization": (("target", "edge"), ("target", "mobile"), ("edge-workload", "adjusting")),
    "quantization-aware-training": (("target", "edge"), ("target", "mobile")),
    "structured-pruning": (("target", "edge"), ("target", "mobile")),
    "knowledge-distillation": (("target", "edge"), ("target", "mobile")),
    "tflite-flex-delegate": (("target", "mobile"),),
    "heterogeneous-computing": (("organisation", "edge-vendor"), ("edge-workload", "adjusting")),
    # training at scale
    "mixed-precision": (("goal", "research"),),
    "fp8": (("goal", "research"),),
    "gradient-checkpointing": (("goal", "research"),),
    "zero-3": (("goal", "research"),),
    "lora": (("goal", "research"),),
    "sparse-training": (("goal", "research"),),
    "ema-weights": (("goal", "research"),),
    "hybrid-attention": (("goal", "research"),),
    "lm-eval-harness": (("goal", "research"), ("organisation", "research-institute")),
    # serving on servers
    "dynamic-batching": (("target", "cloud"), ("organisation", "cloud-provider")),
    "cuda-graph": (("target", "cloud"), ("graphs", "static")),
    "operator-fusion": (("target", "cloud"), ("graphs", "static")),
    "constant-folding": (("graphs", "static"),),
    "shape-inference": (("graphs", "static"), ("lock-in", "avoid")),
    "cuda-unified-memory": (("target", "cloud"),),
    "gpu-direct-rdma": (("target", "cloud"),),
    "double-buffering": (("target", "cloud"),),
    "nsight-systems": (("target", "cloud"),),
    "automated-model-optimisation": (("goal", "industrial"),),
    "nemo-tuner": (("goal", "industrial"),),
    # portability between stacks
    "jax2tf": (("goal", "industrial"), ("lock-in", "avoid")),
    "cross-platform-migration-case": (("goal", "industrial"), ("lock-in", "avoid")),
    # emerging hardware paradigms
    "spiking-neural-network": (("goal", "scientific"),),
    "photonic-computing": (("goal", "scientific"),),
    "in-memory-computing": (("goal", "scientific"),),
    "neural-symbolic": (("goal", "scientific"), ("goal", "research")),
    # case studies
    "tesla-fsd-v12": (("target", "edge"), ("edge-workload", "complex")),
    "ant-risk-control": (("goal", "industrial"), ("target", "cloud")),
    "medical-multimodal-case": (("goal", "industrial"), ("target", "cloud")),
    "multi-task-learning": (("edge-workload", "complex"),),
}
TECHNIQUE_KINDS = ("technique", "system", "tool", "model", "dataset", "resource")
KIND_LABELS = {
    "technique": "Techniques",
    "system": "Case studies",
    "tool": "Tools",
    "model": "Models and model zoos",
    "dataset": "Datasets",
    "resource": "Learning resources",
}


def scenario_links(kb: KnowledgeBase, entity_id: str) -> list[tuple[str, str]]:
    """The (question id, option id) scenarios an entity serves under the app's editorial grouping.

    Pairs naming a question or option the knowledge does not define are left out.
    """
    entity = kb.entities.get(entity_id)
    if entity is None:
        return []
    pairs = SCENARIO_BY_ENTITY.get(entity_id, SCENARIO_BY_KIND.get(entity.kind, ()))
    return [(q, o) for q, o in pairs if q in kb.questions and any(opt.id == o for opt in kb.questions[q].options)]


def scenario_label(kb: KnowledgeBase, question_id: str, option_id: str, short: bool = False) -> str:
    """``"Where will the models run? -> Edge devices"``, or with `short` ``"target: Edge devices"``."""
    question = kb.questions[question_id]
    option = next(o for o in question.options if o.id == option_id)
    return f"{question.id}: {option.label_en}" if short else f"{question.text_en} -> {option.label_en}"


def techniques_table(
    kb: KnowledgeBase,
    kinds: Sequence[str] = TECHNIQUE_KINDS,
    scenarios: Iterable[tuple[str, str]] | None = None,
) -> pd.DataFrame:
    """Techniques, cases, tools, models, datasets and resources with their claim count and scenarios.

    With `scenarios` (pairs of question id, option id) only the items linked to at least one of them are listed.
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
                "scenarios": "; ".join(scenario_label(kb, q, o, short=True) for q, o in links),
                "description": entity.description_en or (claims[0].text_en if claims else ""),
            }
        )
    columns = ["id", "name", "name_zh", "kind", "claims", "flagged claims", "scenarios", "description"]
    return pd.DataFrame(rows, columns=columns)


def central_weights_table(
    kb: KnowledgeBase,
    alternatives: Sequence[str],
    criteria: Sequence[str],
    central_weights: Sequence[Sequence[float] | None],
    dimension_of: Sequence[str] | None = None,
) -> pd.DataFrame:
    """SMAA central weights: one row per alternative, one column per criterion or, with `dimension_of`, per dimension.

    Parameters
    ----------
    alternatives, criteria
        Row names and criterion ids of the SMAA result.
    central_weights
        Per alternative, the mean weight vector (one share per criterion) of the samples that rank it first, or
        None when it never ranks first (its row is then NaN).
    dimension_of
        The dimension of each criterion: the criterion shares are summed per dimension (columns in first-seen
        order), which is what the weights of a dimension-space analysis were drawn for.
    """
    rows = np.array(
        [np.full(len(criteria), np.nan) if w is None else np.asarray(w, dtype=float) for w in central_weights],
        dtype=float,
    ).reshape(len(alternatives), len(criteria))
    index = pd.Index(list(alternatives), name="alternative")
    if dimension_of is None:
        columns = [kb.criteria[c].name_en if c in kb.criteria else c for c in criteria]
        return pd.DataFrame(rows, index=index, columns=columns)
    dimensions = list(dict.fromkeys(dimension_of))
    of = np.asarray(dimension_of)
    summed = {kb.dimensions[d].name_en if d in kb.dimensions else d: rows[:, of == d].sum(axis=1) for d in dimensions}
    return pd.DataFrame(summed, index=index)


def sweep_frame(names: Sequence[str], grid: np.ndarray, scores: np.ndarray) -> pd.DataFrame:
    """Long table of a weight sweep: weight share, alternative name, score (one row per grid point and name)."""
    rows = [
        {"weight": float(t), "alternative": name, "score": float(scores[k, i])}
        for i, name in enumerate(names)
        for k, t in enumerate(grid)
    ]
    return pd.DataFrame(rows, columns=["weight", "alternative", "score"])


def criterion_profile(m: DecisionMatrix) -> np.ndarray:
    """Weighted min-max performance per cell: ``w_j * (x_ij - worst_j) / (best_j - worst_j)``.

    What a criterion adds to a weighted sum under min-max scaling (1 = best in its column, 0 = worst; a
    column without spread gives 0). Drawn for methods whose score is not a sum (TOPSIS, VIKOR), where it shows
    the profile behind the score rather than parts of it.
    """
    values = m.values
    sign = np.array([1.0 if o == "max" else -1.0 for o in m.objectives])
    oriented = values * sign
    worst, best = oriented.min(axis=0), oriented.max(axis=0)
    spread = best - worst
    share = np.divide(oriented - worst, spread, out=np.zeros_like(oriented), where=spread > 0)
    return share * m.weights
