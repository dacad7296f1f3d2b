"""A stated workload applied to an LLM group: who cannot run it (removed before ranking, with the reason), and the
group's throughput and cost columns replaced by the workload's own (latency-bounded throughput, cost and energy
per million tokens at the stated utilisation), each cell saying which measurement it used.

The matrix calls :func:`exclusions` for its limits and :func:`swap` for its layout; :func:`fit_table` gives the
pages, the command line and the report one plain row per member. Without a workload, :func:`offline_note` says
that the group's throughput columns are offline peaks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from selector.decision import engine_support, latency_bound, memory_fit, token_cost
from selector.decision.cells import Cell, Exclusion, impute
from selector.decision.preferences import PreferenceError, Preferences
from selector.decision.workload import Workload, WorkloadError, parse
from selector.i18n import N_, Language, Phrase, joined, stored
from selector.knowledge.models import TIERS, Criterion, KnowledgeBase

THROUGHPUT = "workload-throughput"
COST = "workload-usd-per-million-tokens"
ENERGY = "workload-kwh-per-million-tokens"
WORKLOAD_CRITERIA = (THROUGHPUT, COST, ENERGY)
#: How the notes on which measurement each workload cell used begin (Recommend shows them in its workload box).
MEASUREMENT_NOTE = "Workload cells of "
MEASURED = N_("Workload cells of {name}: {used}")
USED = N_("{criterion}: {value} ({note})")
# The notes of the workload's cells and exclusions, marked for the catalogs: each is kept as a Phrase, which the
# matrix stores as its English text and a page, the command line or a report says in its reader's language.
CANNOT_RUN = N_("cannot run your workload: {why}")
CANNOT_RUN_UNKNOWN = N_("cannot run your workload: {why}; removed as unknown")
NO_THROUGHPUT = N_("no throughput within your limits ({why})")
NO_PRICE = N_("no price per accelerator-hour known")
RENT_FORMULA = N_("rent {price} / ({speed} tokens/s x {utilisation} x 3600) x 10^6")
NO_TDP = N_("no TDP known")
POWER_FORMULA = N_("TDP {tdp} W / ({speed} tokens/s x {utilisation}) x 10^6 / 3.6 x 10^6")
NO_COLUMN = N_("no LLM benchmark column in this group")
PROXY = N_("{note}; measured on {measured}, not {model}: a proxy that ranks the accelerators, not your model's speed")
RANKED_ON = N_("Workload: {workload}; ranked on latency-bounded throughput and cost at load")
REPLACED = N_("replaced by {column} (your workload)")
LACKING = N_("no value within your workload for {lacking}")
NO_VALUE = N_("no value within your workload")
NO_COST = N_("no cost: no throughput within your limits")
SERVED = N_(
    "for {rate} requests/s x {output} output tokens: {needed} accelerator(s) ({replicas} replica(s) of {group}) at "
    "{speed} tokens/s each"
)
MEMORY_FROM = N_("{fit} (memory: {claims})")


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
        raise PreferenceError(exc.message) from None
    if workload.engine is not None and workload.engine not in {r.engine for r in kb.support.values()}:
        engines = ", ".join(sorted({r.engine for r in kb.support.values()}))
        raise PreferenceError(
            Phrase(
                N_("workload: engine `{engine}` has no row in knowledge/support.yaml; use {engines}"),
                engine=workload.engine,
                engines=engines,
            )
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
            reasons.append(Phrase(CANNOT_RUN if fit.fits is False else CANNOT_RUN_UNKNOWN, why=fit.text))
        if support.runs is False or (support.runs is None and not keep_unknown):
            reasons.append(Phrase(CANNOT_RUN if support.runs is False else CANNOT_RUN_UNKNOWN, why=support.text))
        found.extend((member, why) for why in reasons)
    return tuple(found)


#: Stored in English in the matrix (shared by every session); shown through the catalog in the reader's language.
OFFLINE_NOTE = N_(
    "No workload stated: the throughput columns are offline peaks (no latency limit). State a workload "
    "(--workload, the Recommend page's workload form or wl= in a link) to rank on the throughput that meets your "
    "TTFT/TPOT limits and the cost at your load."
)


def offline_note(kb: KnowledgeBase, criteria: Sequence[Criterion]) -> tuple[str, ...]:
    """Without a workload: a note that the ranked throughput columns are offline peaks (when there are any)."""
    if not any(latency_bound.family_of(c) for c in criteria):
        return ()
    return (OFFLINE_NOTE,)


def _replaced(criterion: Criterion) -> str | None:
    """The workload column that replaces `criterion`, None when it stays."""
    if latency_bound.family_of(criterion) is not None:
        return THROUGHPUT
    if criterion.derived is not None:
        return COST if criterion.derived.formula == "usd_per_million_tokens" else ENERGY
    return None


def _weaker(first: str, second: str) -> str:
    """The weaker of two evidence tiers: a figure computed from two is as strong as its weaker input."""
    return max(first, second, key=TIERS.index)


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
            return Cell(member, column, None, (), note=Phrase(NO_THROUGHPUT, why=b.note))
        c = self.cost
        if column == COST:
            if c.rent_per_million_output is None:
                return Cell(member, column, None, (), note=Phrase(NO_PRICE))
            note = Phrase(
                RENT_FORMULA, price=c.rent.said, speed=f"{c.tokens_per_s:,.0f}", utilisation=f"{c.utilisation:.0%}"
            )
            tier = _weaker(b.tier, c.rent.tier)
            return Cell(member, column, c.rent_per_million_output, b.evidence + c.rent.evidence, tier, note=note)
        if c.tdp_w is None:
            return Cell(member, column, None, (), note=Phrase(NO_TDP))
        value = c.tdp_w.value / (c.tokens_per_s * c.utilisation) * 1e6 / 3.6e6
        speed, utilisation = f"{c.tokens_per_s:,.0f}", f"{c.utilisation:.0%}"
        note = Phrase(POWER_FORMULA, tdp=c.tdp_w.said, speed=speed, utilisation=utilisation)
        return Cell(member, column, value, b.evidence + c.tdp_w.evidence, _weaker(b.tier, c.tdp_w.tier), note=note)


def values(kb: KnowledgeBase, workload: Workload, member: str, criteria: Sequence[Criterion]) -> Values:
    """The workload figures of `member`, bounded on the benchmark of `criteria` nearest the workload's model."""
    model = memory_fit.model_facts(kb, workload)
    size = model.active_params_b or model.params_b
    chosen = latency_bound.closest(list(criteria), size)
    bound = (
        latency_bound.bound(kb, member, chosen, workload)
        if chosen is not None
        else latency_bound.Bound(None, (), None, Phrase(NO_COLUMN))
    )
    if bound.value is not None and chosen is not None:
        family = latency_bound.family_of(chosen)
        if abs(family.params_b - size) / size > 0.25:
            bound = latency_bound.Bound(
                bound.value,
                bound.evidence,
                bound.tier,
                Phrase(PROXY, note=bound.note, measured=family.model, model=model.name),
            )
    cost = token_cost.cost(kb, workload, member, bound.value) if bound.value else None
    fit = memory_fit.fit_on(kb, model, workload, member)
    return Values(bound, cost, fit, engine_support.runs(kb, member, workload.precision, workload.engine))


def adapt(
    kb: KnowledgeBase,
    workload: Workload | None,
    layout,
    sub: dict[str, float],
    missing: str,  # noqa: ANN001
) -> tuple[dict, tuple[str, ...]]:
    """What the workload changes in a matrix layout (fields for ``dataclasses.replace``) and the notes it adds.

    Without a workload: nothing, and a note when the ranked throughput columns are offline peaks.
    """
    if workload is None:
        return {}, offline_note(kb, layout.criteria)
    changes = swap(kb, workload, layout, sub, missing)
    return changes, ()


def _split(criteria) -> tuple[list[int], dict[str, list[str]]]:  # noqa: ANN001 - Criterion sequence
    """The indexes of the columns that stay, and workload column -> the ids it replaces."""
    kept, replaced = [], {}
    for index, criterion in enumerate(criteria):
        target = _replaced(criterion)
        if target is None:
            kept.append(index)
        else:
            replaced.setdefault(target, []).append(criterion.id)
    return kept, replaced


def _column(criterion: Criterion, raw: list[Cell], missing: str) -> list[Cell] | None:
    """The workload column's cells filled by the missing-value policy (a filled cell keeps why it had no value);
    None when the column is left out (no value at all, or any missing under ``exclude-criterion``)."""
    if all(c.value is None for c in raw) or (missing == "exclude-criterion" and any(c.value is None for c in raw)):
        return None
    filled = impute(raw, criterion, "impute-worst" if missing.startswith("exclude") else missing)
    return [f if not f.imputed else replace(f, note=joined([r.note, f.note])) for f, r in zip(filled, raw, strict=True)]


def swap(kb: KnowledgeBase, workload: Workload, layout, sub: dict[str, float], missing: str) -> dict:  # noqa: ANN001
    """The layout's throughput and cost columns replaced by the workload's, as fields for ``dataclasses.replace``.

    `sub` (criterion -> sub-weight) gains the workload columns: each takes the summed sub-weights of the columns it
    replaces. A workload cell without a value is filled by the missing-value policy like any other (its note keeps
    why it has none); under ``exclude-criterion`` the column is left out, under ``exclude-alternative`` the member.
    """
    kept, replaced = _split(layout.criteria)
    if not replaced:
        return {}
    criteria = [layout.criteria[i] for i in kept]
    rows = [[row[i] for i in kept] for row in layout.cells]
    left_out = list(layout.excluded_criteria)
    for criterion, cells in _workload_columns(kb, workload, layout, sub, missing, replaced, left_out):
        criteria.append(criterion)
        for row, cell in zip(rows, cells, strict=True):
            row.append(cell)
    alternatives, removed = _without_lacking(list(layout.alternatives), rows, missing)
    if not alternatives or not criteria:
        raise PreferenceError(
            Phrase(
                N_(
                    "no accelerator of this group has a measurement within your workload's limits ({workload}), and "
                    "nothing else is left to rank on: loosen the TTFT/TPOT limits, choose a missing-value policy "
                    "that fills, or choose another group"
                ),
                workload=workload.text(),
            )
        )
    return {
        "alternatives": tuple(alternatives),
        "criteria": tuple(criteria),
        "cells": tuple(tuple(rows[layout.alternatives.index(a)]) for a in alternatives),
        "excluded_alternatives": (*layout.excluded_alternatives, *removed),
        "excluded_criteria": tuple(left_out),
        "notes": (
            *layout.notes,
            Phrase(RANKED_ON, workload=workload.text()),
            *_measurement_notes(
                kb, alternatives, [rows[layout.alternatives.index(a)] for a in alternatives], len(criteria) - len(kept)
            ),
        ),
    }


def _measurement_notes(kb: KnowledgeBase, alternatives: list[str], rows: list[list[Cell]], added: int) -> list[str]:
    """Which measurement each workload cell with a value used, one note per member (filled-in cells are listed
    with the other filled-in cells)."""
    notes = []
    for alternative, row in zip(alternatives, rows, strict=True):
        used = [
            Phrase(USED, criterion=_name(kb.criteria[c.criterion]), value=f"{c.value:,.4g}", note=c.note)
            for c in row[-added:]
            if not c.imputed
        ]
        if added and used:
            notes.append(Phrase(MEASURED, name=kb.entity_name(alternative), used=joined(used)))
    return notes


def _name(criterion: Criterion) -> str:
    """A criterion's name in both languages (the knowledge keeps each)."""
    return Phrase.twin(criterion.name_en, criterion.name_zh)


def _workload_columns(kb, workload, layout, sub, missing, replaced, left_out) -> list:  # noqa: ANN001
    """(criterion, cells) of each workload column that ranks; `sub` gains their sub-weights, `left_out` the
    columns they replace and those left out for want of values."""
    group_criteria = [kb.criteria[c.id] for c in layout.criteria]
    found = {a: values(kb, workload, a, group_criteria) for a in layout.alternatives}
    columns = []
    for column_id in (c for c in WORKLOAD_CRITERIA if c in replaced):
        sub[column_id] = sum(sub[c] for c in replaced[column_id])
        left_out.extend(Exclusion(c, Phrase(REPLACED, column=column_id)) for c in replaced[column_id])
        raw = [found[a].cell(a, column_id) for a in layout.alternatives]
        cells = _column(kb.criteria[column_id], raw, missing)
        if cells is None:
            lacking = ", ".join(c.alternative for c in raw if c.value is None)
            left_out.append(Exclusion(column_id, Phrase(LACKING, lacking=lacking)))
        else:
            columns.append((kb.criteria[column_id], cells))
    return columns


def _without_lacking(alternatives: list[str], rows: list[list[Cell]], missing: str) -> tuple[list[str], list]:
    """Under ``exclude-alternative``: the members without a workload value removed, with why; else all kept."""
    if missing != "exclude-alternative":
        return alternatives, []
    lacking = [a for a, row in zip(alternatives, rows, strict=True) if any(c.imputed for c in row)]
    return [a for a in alternatives if a not in lacking], [Exclusion(a, Phrase(NO_VALUE)) for a in lacking]


def _cost_lines(v: Values, workload: Workload) -> tuple[str, ...]:
    """The cost lines of one member and, for a stated request rate, how many accelerators serve it."""
    if v.cost is None:
        return (Phrase(NO_COST),)
    lines = v.cost.lines(workload)
    if workload.rate is not None:
        group = v.fit.count or 1  # accelerators per replica (tensor parallel)
        needed = math.ceil(workload.rate * workload.output / (v.bound.value * group)) * group
        lines.append(
            Phrase(
                SERVED,
                rate=f"{workload.rate:g}",
                output=f"{workload.output:,}",
                needed=str(needed),
                replicas=str(needed // group),
                group=str(group),
                speed=f"{v.bound.value:,.0f}",
            )
        )
    return tuple(lines)


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

    def in_(self, lang: Language) -> FitRow:
        """The row with its sentences in `lang` (names, numbers and claim ids as they are)."""
        return replace(
            self,
            memory=stored(self.memory, lang),
            support=stored(self.support, lang),
            throughput_note=stored(self.throughput_note, lang),
            cost=tuple(stored(line, lang) for line in self.cost),
        )


def fit_table(kb: KnowledgeBase, group_id: str, workload: Workload, lang: Language = "en") -> list[FitRow]:
    """Every member of `group_id` with its memory fit, engine support, latency-bounded throughput and cost, its
    sentences in `lang`."""
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
                memory=Phrase(MEMORY_FROM, fit=v.fit.text, claims=", ".join(v.fit.evidence))
                if v.fit.evidence
                else v.fit.text,
                support=v.support.text,
                throughput=v.bound.value,
                throughput_note=v.bound.note,
                cost=_cost_lines(v, workload),
                evidence=v.bound.evidence,
            ).in_(lang)
        )
    return rows
