"""The Accelerators screen's views: spec tables, dataset numbers, efficiency and the Pareto frontier."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import numpy as np
import pandas as pd

from selector.knowledge import provenance, vocabulary
from selector.knowledge.models import LOCATED_TIERS, KnowledgeBase
from selector.views.labels import conditions_text, flags_text


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
                "label": vocabulary.label(kb, claim.metric),
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


def evidence_labels(claims: pd.DataFrame) -> dict[str, str]:
    """Each row of :func:`accelerator_claims` as a picker label -> its claim id:
    ``"H100 SXM - Memory bandwidth: 3.35 TB/s (c-id)"`` (a comparator other than "=" before the value)."""
    columns = ("name", "label", "comparator", "value", "unit", "claim")
    rows = zip(*(claims[c] for c in columns), strict=True)
    return {
        f"{name} - {label}: {'' if comparator == '=' else comparator}{value:.12g} {unit} ({claim})": claim
        for name, label, comparator, value, unit, claim in rows
    }


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


def _dense_first(kb: KnowledgeBase, rows: list[dict]) -> list[dict]:
    dense = [r for r in rows if kb.claims[r["claim"]].conditions.sparsity == "dense"]
    return dense or rows


def _median(rows: list[dict]) -> float:
    return float(np.median([r["value"] for r in rows])) if rows else np.nan


def accelerator_efficiency(
    kb: KnowledgeBase, use_flagged: bool = True, claims: pd.DataFrame | None = None
) -> pd.DataFrame:
    """TOPS, watts and TOPS/W per accelerator: claimed efficiency where stated, else derived as TOPS / W.

    Only accelerators with an efficiency claim or both a TOPS and a power claim appear. `basis` says which. Where
    an accelerator has dense figures (``conditions.sparsity: dense``), only those are used. `claims`: the frame of
    :func:`accelerator_claims` when the caller has it already (`use_flagged` then does not apply).
    """
    if claims is None:
        claims = accelerator_claims(kb, use_flagged)
    by_entity: dict[str, list[dict]] = {}
    # plain records grouped once: a boolean pandas filter per accelerator and metric cost most of the page's build
    for row in claims.to_dict("records"):
        by_entity.setdefault(row["entity_id"], []).append(row)
    rows = []
    for entity_id, own in by_entity.items():

        def pick(metric: str, own: list[dict] = own) -> list[dict]:
            return [r for r in own if r["metric"] == metric]

        # Peak TOPS are published dense or with 2:4 sparsity (twice as high); where a chip has a dense figure, the
        # chart uses only that, so that chips are compared on one basis.
        tops, watts = _dense_first(kb, pick("tops_int8")), pick("power_w")
        eff = _dense_first(kb, pick("efficiency_tops_per_w"))
        tops_v, watts_v = _median(tops), _median(watts)
        if eff:
            used, value, basis = eff, _median(eff), "claimed"
        elif tops and watts and watts_v > 0:
            used, value, basis = tops + watts, tops_v / watts_v, "derived (TOPS / W)"
        else:
            continue
        used = list({r["claim"]: r for r in (*used, *tops, *watts)}.values())  # each claim once, first kept
        rows.append(
            {
                "entity_id": entity_id,
                "name": own[0]["name"],
                "segment": own[0]["segment"],
                "tops": tops_v,
                "watts": watts_v,
                "tops_per_w": value,
                "basis": basis,
                "claims": ", ".join(r["claim"] for r in used),
                "flagged": any(r["flagged"] for r in used),
                "flags": " | ".join(r["flags"] for r in used if r["flags"]),
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
