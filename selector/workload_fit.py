"""A stated workload applied to an LLM group: who cannot run it (removed before ranking, with the reason), and the
group's throughput and cost columns replaced by the workload's own (latency-bounded throughput, cost and energy
per million tokens at the stated utilisation), each cell saying which measurement it used.

The matrix calls :func:`exclusions` for its limits and :func:`swap` for its layout; :func:`fit_table` gives the
pages, the command line and the report one plain row per member. Without a workload, :func:`offline_note` says
that the group's throughput columns are offline peaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from selector import engine_support, latency_bound, memory_fit, token_cost
from selector.cells import Cell, Exclusion, impute
from selector.models import Criterion, KnowledgeBase
from selector.preferences import PreferenceError, Preferences
from selector.workload import Workload, WorkloadError, parse

THROUGHPUT = "workload-throughput"
COST = "workload-usd-per-million-tokens"
ENERGY = "workload-kwh-per-million-tokens"
WORKLOAD_CRITERIA = (THROUGHPUT, COST, ENERGY)


def stated(kb: KnowledgeBase, prefs: Preferences) -> Workload | None:
    """The workload of `prefs` with its model checked against the knowledge (None when none is stated).

    Raises
    ------
    PreferenceError
        When the model is neither bundled nor fully described.
    """
    if not prefs.workload:
        return None
    workload = parse(prefs.workload)
    try:
        memory_fit.model_facts(kb, workload)
    except WorkloadError as exc:
        raise PreferenceError(str(exc)) from None
    if workload.engine is not None and workload.engine not in {r.engine for r in kb.support.values()}:
        engines = ", ".join(sorted({r.engine for r in kb.support.values()}))
        raise PreferenceError(
            f"workload: engine `{workload.engine}` has no row in knowledge/support.yaml; use {engines}"
        )
    return workload


def applies(kb: KnowledgeBase, group_id: str) -> bool:
    """Whether `group_id` ranks on an LLM benchmark this module can bound by latency."""
    return any(latency_bound.family_of(kb.criteria[gc.criterion]) for gc in kb.groups[group_id].criteria)


def exclusions(
    kb: KnowledgeBase, group_id: str, workload: Workload | None, keep_unknown: bool
) -> tuple[tuple[str, str], ...]:
    """(member, why) for each member of an LLM group that cannot run the workload: not in memory on 8
    accelerators, or no engine documented at its precision; unknown memory or support removes it unless
    `keep_unknown` (as a hard constraint on an unknown value does)."""
    if workload is None or not applies(kb, group_id):
        return ()
    model = memory_fit.model_facts(kb, workload)
    found = []
    for member in kb.groups[group_id].members:
        fit = memory_fit.fit_on(kb, model, workload, member)
        support = engine_support.runs(kb, member, workload.precision, workload.engine)
        reasons = []
        if fit.fits is False or (fit.fits is None and not keep_unknown):
            reasons.append(
                f"cannot run your workload: {fit.text}" + ("" if fit.fits is False else "; removed as unknown")
            )
        if support.runs is False or (support.runs is None and not keep_unknown):
            reasons.append(
                f"cannot run your workload: {support.text}" + ("" if support.runs is False else "; removed as unknown")
            )
        found.extend((member, why) for why in reasons)
    return tuple(found)


def offline_note(kb: KnowledgeBase, criteria: Sequence[Criterion]) -> tuple[str, ...]:
    """Without a workload: a note that the ranked throughput columns are offline peaks (when there are any)."""
    if not any(latency_bound.family_of(c) for c in criteria):
        return ()
    return (
        "No workload stated: the throughput columns are offline peaks (no latency limit). State a workload "
        "(--workload, the Recommend page's workload form or wl= in a link) to rank on the throughput that meets your "
        "TTFT/TPOT limits and the cost at your load.",
    )


def _replaced(criterion: Criterion) -> str | None:
    """The workload column that replaces `criterion`, None when it stays."""
    if latency_bound.family_of(criterion) is not None:
        return THROUGHPUT
    if criterion.derived is not None:
        return COST if criterion.derived.formula == "usd_per_million_tokens" else ENERGY
    return None


@dataclass(frozen=True)
class Values:
    """One member's workload figures: the latency-bound, the cost at load and the memory fit."""

    bound: latency_bound.Bound
    cost: token_cost.CostAtLoad | None
    fit: memory_fit.Fit
    support: engine_support.Answer

    def cell(self, member: str, column: str) -> Cell:
        b = self.bound
        if column == THROUGHPUT:
            return Cell(member, column, b.value, b.evidence if b.value is not None else (), b.tier, note=b.note)
        if b.value is None or self.cost is None:
            return Cell(member, column, None, (), note=f"no throughput within your limits ({b.note})")
        c = self.cost
        if column == COST:
            if c.rent_per_million_output is None:
                return Cell(member, column, None, (), note="no price per accelerator-hour known")
            note = f"rent {c.rent.said} / ({c.tokens_per_s:,.0f} tokens/s x {c.utilisation:.0%} x 3600) x 10^6"
            return Cell(member, column, c.rent_per_million_output, b.evidence + c.rent.evidence, b.tier, note=note)
        if c.tdp_w is None:
            return Cell(member, column, None, (), note="no TDP known")
        value = c.tdp_w.value / (c.tokens_per_s * c.utilisation) * 1e6 / 3.6e6
        note = f"TDP {c.tdp_w.said} W / ({c.tokens_per_s:,.0f} tokens/s x {c.utilisation:.0%}) x 10^6 / 3.6 x 10^6"
        return Cell(member, column, value, b.evidence + c.tdp_w.evidence, b.tier, note=note)


def values(kb: KnowledgeBase, workload: Workload, member: str, criteria: Sequence[Criterion]) -> Values:
    """The workload figures of `member`, bounded on the benchmark of `criteria` nearest the workload's model."""
    model = memory_fit.model_facts(kb, workload)
    size = model.active_params_b or model.params_b
    chosen = latency_bound.closest(list(criteria), size)
    bound = (
        latency_bound.bound(kb, member, chosen, workload)
        if chosen is not None
        else latency_bound.Bound(None, (), None, "no LLM benchmark column in this group")
    )
    if bound.value is not None and chosen is not None:
        family = latency_bound.family_of(chosen)
        if abs(family.params_b - size) / size > 0.25:
            bound = latency_bound.Bound(
                bound.value,
                bound.evidence,
                bound.tier,
                f"{bound.note}; measured on {family.model}, not {model.name}: a proxy that ranks the accelerators, "
                "not your model's speed",
            )
    cost = token_cost.cost(kb, workload, member, bound.value) if bound.value else None
    fit = memory_fit.fit_on(kb, model, workload, member)
    return Values(bound, cost, fit, engine_support.runs(kb, member, workload.precision, workload.engine))


def swap(kb: KnowledgeBase, workload: Workload, layout, sub: dict[str, float], missing: str) -> dict:  # noqa: ANN001
    """The layout's throughput and cost columns replaced by the workload's, as fields for ``dataclasses.replace``.

    `sub` (criterion -> sub-weight) gains the workload columns: each takes the summed sub-weights of the columns it
    replaces. A workload cell without a value is filled by the missing-value policy like any other (its note keeps
    why it has none); under ``exclude-criterion`` the column is left out, under ``exclude-alternative`` the member.
    """
    criteria = list(layout.criteria)
    group_criteria = [kb.criteria[c.id] for c in criteria]
    kept, replaced = [], {}
    for index, criterion in enumerate(criteria):
        target = _replaced(criterion)
        if target is None:
            kept.append(index)
        else:
            replaced.setdefault(target, []).append(criterion.id)
    if not replaced:
        return {}
    found = {a: values(kb, workload, a, group_criteria) for a in layout.alternatives}
    alternatives = list(layout.alternatives)
    new_criteria = [criteria[i] for i in kept]
    columns = [[row[i] for i in kept] for row in layout.cells]
    excluded_alts, excluded_crits = list(layout.excluded_alternatives), list(layout.excluded_criteria)
    for column_id in WORKLOAD_CRITERIA:
        if column_id not in replaced:
            continue
        criterion = kb.criteria[column_id]
        sub[column_id] = sum(sub[c] for c in replaced[column_id])
        raw = [found[a].cell(a, column_id) for a in alternatives]
        excluded_crits.extend(Exclusion(c, f"replaced by {column_id} (your workload)") for c in replaced[column_id])
        if all(c.value is None for c in raw) or (missing == "exclude-criterion" and any(c.value is None for c in raw)):
            lacking = [c.alternative for c in raw if c.value is None]
            excluded_crits.append(Exclusion(column_id, f"no value within your workload for {', '.join(lacking)}"))
            continue
        filled = impute(raw, criterion, "impute-worst" if missing.startswith("exclude") else missing)
        filled = [
            f if not f.imputed else replace(f, note=f"{r.note}; {f.note}") for f, r in zip(filled, raw, strict=True)
        ]
        new_criteria.append(criterion)
        for row, cell in zip(columns, filled, strict=True):
            row.append(cell)
    if missing == "exclude-alternative":
        lacking = {c.alternative for row in columns for c in row if c.imputed}
        keep = [i for i, a in enumerate(alternatives) if a not in lacking]
        excluded_alts.extend(Exclusion(a, "no value within your workload") for a in alternatives if a in lacking)
        alternatives, columns = [alternatives[i] for i in keep], [columns[i] for i in keep]
    if not alternatives:
        raise PreferenceError(
            "no alternative has a value within your workload; choose a missing-value policy that fills"
        )
    return {
        "alternatives": tuple(alternatives),
        "criteria": tuple(new_criteria),
        "cells": tuple(tuple(row) for row in columns),
        "excluded_alternatives": tuple(excluded_alts),
        "excluded_criteria": tuple(excluded_crits),
        "notes": (
            *layout.notes,
            f"Workload: {workload.text()}; ranked on latency-bounded throughput and cost at your load",
        ),
    }


@dataclass(frozen=True)
class FitRow:
    """One member's answer to "can it run, how fast within my limits, at what cost", in words."""

    id: str
    name: str
    runs: bool | None
    accelerators: int | None
    memory: str
    support: str
    throughput: float | None
    throughput_note: str
    cost: tuple[str, ...]
    evidence: tuple[str, ...]


def fit_table(kb: KnowledgeBase, group_id: str, workload: Workload) -> list[FitRow]:
    """Every member of `group_id` with its memory fit, engine support, latency-bounded throughput and cost."""
    # the group's columns in order of weight, as the ranking would choose among them
    ordered = sorted(kb.groups[group_id].criteria, key=lambda gc: -gc.weight)
    criteria = [kb.criteria[gc.criterion] for gc in ordered]
    rows = []
    for member in kb.groups[group_id].members:
        v = values(kb, workload, member, criteria)
        runs = None if v.fit.fits is None or v.support.runs is None else bool(v.fit.fits and v.support.runs)
        if v.fit.fits is False or v.support.runs is False:
            runs = False
        rows.append(
            FitRow(
                id=member,
                name=kb.entity_name(member),
                runs=runs,
                accelerators=v.fit.count or None,
                memory=v.fit.text + (f" (memory: {', '.join(v.fit.evidence)})" if v.fit.evidence else ""),
                support=v.support.text,
                throughput=v.bound.value,
                throughput_note=v.bound.note,
                cost=tuple(v.cost.lines(workload)) if v.cost else ("no cost: no throughput within your limits",),
                evidence=v.bound.evidence,
            )
        )
    return rows
