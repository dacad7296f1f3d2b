"""Knowledge + preferences -> decision matrix: alternatives x criteria, every cell pointing at its evidence.

A cell is filled only by claims whose metric is the criterion's and whose conditions agree with the criterion's,
so numbers measured under different conditions never share a column. Missing cells stay explicit until the
chosen missing-value policy deals with them, and every imputed cell is listed.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from selector import i18n
from selector.arrays import read_only
from selector.decision import constraints as hard
from selector.decision import decision_tree, workload_fit
from selector.decision.cells import Cell, Exclusion, impute
from selector.decision.preferences import Checked, PreferenceError, Preferences
from selector.decision.problem import Problem, criterion_weights
from selector.decision.weights import Hierarchy, WeightError
from selector.i18n import N_, Phrase
from selector.knowledge import facts
from selector.knowledge.models import TIERS, Claim, Criterion, KnowledgeBase
from selector.knowledge.provenance import TIER_NAMES
from selector.memo import PerKnowledge, PerObject
from selector.value import ValueScales

_TIER_ORDER = {tier: rank for rank, tier in enumerate(TIERS)}
ZERO_WEIGHT = N_("its weight is zero")
#: Why a criterion no option of the group has evidence for is left out (marked: a report translates it).
NO_EVIDENCE = N_("no alternative of the group has evidence for it")
#: Why a member is removed before ranking (Phrases: a page or report says them, and their join, in its language).
VENDOR_EXCLUDED = N_("vendor {name} is excluded")
EXCLUDED_BY_YOU = N_("excluded by you")
#: How a cell's value was drawn from several claims (a Phrase: said in the reader's language where shown).
MEDIAN_OF = N_("median of {count} {tier} claims")
LOWER_TIER_UNUSED = N_("{count} lower-tier claim(s) not used")


# The checked problem of each matrix layout, without weights: every weighting of a layout shares its cells object
# (see _LAYOUTS), so a slider move checks only the new weights, not the values again.
_PROBLEMS = PerObject(64)


@dataclass(frozen=True)
class DecisionMatrix:
    """The matrix a method scores, with its evidence, weights and everything that was left out or filled in."""

    group: str
    alternatives: tuple[str, ...]
    criteria: tuple[str, ...]
    objectives: tuple[str, ...]
    dimension_of: tuple[str, ...]
    cells: tuple[tuple[Cell, ...], ...]
    weights: np.ndarray  # effective column weights, checked and normalised to sum 1 (read-only)
    hierarchy: Hierarchy  # how the dimension shares reach the columns (for every other weighting of them)
    sub_weights: np.ndarray  # relative weight of each column inside its dimension
    scales: np.ndarray  # n x 2 fixed value scale per criterion (the value model's bounds; SMAA samples within)
    missing_policy: str
    shapes: tuple[str, ...] = ()  # the value function's shape per criterion (linear or log)
    excluded_alternatives: tuple[Exclusion, ...] = ()
    excluded_criteria: tuple[Exclusion, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def dimension_weights(self) -> dict[str, float]:
        """Dimension -> share (summing to 1) after redistribution, for the dimensions with columns."""
        return self.hierarchy.dimension_weights

    @property
    def values(self) -> np.ndarray:
        return np.array([[c.value for c in row] for row in self.cells], dtype=float)

    @property
    def imputed_cells(self) -> list[Cell]:
        return [c for row in self.cells for c in row if c.imputed]

    @property
    def missing_mask(self) -> np.ndarray:
        """True where the value was imputed (no evidence of its own)."""
        return np.array([[c.imputed for c in row] for row in self.cells], dtype=bool)

    def problem(self, method: str, scaler: str | None = None) -> Problem:
        """The decision problem `method` scores: these values, objectives, weights and names, checked once.

        Raises
        ------
        ScoringError
            An unknown method, a scaler it does not allow, or values they cannot handle.
        """
        unweighted = _PROBLEMS.get(
            self.cells,
            (self.alternatives, self.criteria, self.objectives, method, scaler),
            lambda: Problem.of(
                self.values,
                self.objectives,
                None,
                method,
                scaler,
                self.alternatives,
                self.criteria,
                value_scales=self.value_scales,
            ),
        )
        return unweighted.with_checked_weights(self.weights)

    @property
    def value_scales(self) -> ValueScales:
        """Each criterion's fixed scale and shape, as the value model reads them."""
        return ValueScales.of(self.scales, self.shapes or ("linear",) * len(self.criteria), self.criteria)

    def evidence_ids(self) -> list[str]:
        """Every claim id behind a cell, in order of first use."""
        seen: dict[str, None] = {}
        for row in self.cells:
            for cell in row:
                for claim_id in cell.evidence:
                    seen[claim_id] = None
        return list(seen)


def _conditions_match(criterion: Criterion, claim: Claim) -> bool:
    return criterion.reads(claim)


def claims_for_cell(kb: KnowledgeBase, criterion: Criterion, entity_id: str, use_flagged: bool = True) -> list[Claim]:
    """The claims that may fill (entity, criterion), best tier first; overridden claims are left out."""
    found = [
        c
        for c in kb.numeric_claims.get((criterion.metric, entity_id), ())
        if (use_flagged or not c.flags) and _conditions_match(criterion, c)
    ]
    return sorted(found, key=lambda c: (_TIER_ORDER[c.tier], c.id))


def _weaker(a: str, b: str) -> str:
    return a if _TIER_ORDER[a] >= _TIER_ORDER[b] else b


def _dates(kb: KnowledgeBase, claim_ids: tuple[str, ...]) -> str:
    dates = sorted({kb.sources[kb.claims[i].source].snapshot_date or "" for i in claim_ids} - {""})
    return f", as of {' / '.join(dates)}" if dates else ""


def _basis(kb: KnowledgeBase, claim_ids: tuple[str, ...]) -> str:
    """The price basis the claims state (``conditions.scope``: on demand, provider class), for a derived cell."""
    scopes = sorted({kb.claims[i].conditions.scope or "" for i in claim_ids} - {""})
    return f"; {' / '.join(scopes)}" if scopes else ""


def price_claims(kb: KnowledgeBase, criterion: Criterion, entity_id: str, use_flagged: bool = True) -> list[Claim]:
    """The claims that fill a derived criterion's price input `criterion` for `entity_id`, best first.

    A price criterion's conditions keep bundled price lists of different dates and provider classes apart; a
    price the user measured is the user's own basis and replaces them whatever it states (README, "Price is a
    cost"), so the user's measured prices of the metric come first, else the criterion's own claims.
    """
    own = [
        c
        for c in kb.numeric_claims.get((criterion.metric, entity_id), ())
        if c.tier == "measured" and (use_flagged or not c.flags)
    ]
    return sorted(own, key=lambda c: c.id) or claims_for_cell(kb, criterion, entity_id, use_flagged)


def _own_price(kb: KnowledgeBase, criterion: Criterion, entity_id: str, use_flagged: bool) -> Cell | None:
    """The cell of the user's own price for a derived criterion's price input, None when there is none."""
    own = [c for c in price_claims(kb, criterion, entity_id, use_flagged) if c.tier == "measured"]
    if not own:
        return None
    return Cell(
        entity_id,
        criterion.id,
        float(statistics.median(c.value for c in own)),
        tuple(c.id for c in own),
        tier="measured",
        flagged=any(c.flags for c in own),
        note="your own price",
    )


def _derived_cell(kb: KnowledgeBase, criterion: Criterion, entity_id: str, use_flagged: bool) -> Cell:
    """A cell computed from two other criteria's cells; its evidence and weaker tier are theirs."""
    how = criterion.derived
    (role, first_id), (_, throughput_id) = how.inputs
    first = _cell(kb, kb.criteria[first_id], entity_id, use_flagged)
    if role == "price":  # the user's own price wins over the bundled basis (see _own_price)
        first = _own_price(kb, kb.criteria[first_id], entity_id, use_flagged) or first
    throughput = _cell(kb, kb.criteria[throughput_id], entity_id, use_flagged)
    if first.value is None or throughput.value is None or throughput.value <= 0:
        lacking = [c.criterion for c in (first, throughput) if c.value is None or c.value <= 0]
        return Cell(entity_id, criterion.id, None, (), note=f"no evidence for {', '.join(lacking)}")
    rate = f"{throughput.value:,.1f} {kb.criteria[throughput_id].unit} ({throughput_id}, {throughput.tier})"
    watts = f"{first.value:g} W ({first_id}, {first.tier})"
    if role == "price":
        value = first.value / (throughput.value * 3600) * 1e6
        note = (
            f"derived: USD {first.value:g} per accelerator-hour ({first_id}, {first.tier}{_dates(kb, first.evidence)}"
            f"{_basis(kb, first.evidence)}) "
            f"/ ({rate} x 3600) x 10^6"
        )
    elif how.formula == "kwh_per_million_tokens":
        value = first.value / throughput.value * 1e6 / 3.6e6
        note = f"derived: {watts} / {rate} x 10^6 / 3.6 x 10^6 J per kWh"
    else:
        value = first.value / throughput.value * 1e3
        note = f"derived: {watts} / {rate} x 1,000 TFLOP per PFLOP"
    return Cell(
        entity_id,
        criterion.id,
        float(value),
        first.evidence + throughput.evidence,
        tier=_weaker(first.tier, throughput.tier),
        flagged=first.flagged or throughput.flagged,
        note=note,
    )


def _is_price_input(kb: KnowledgeBase, criterion_id: str) -> bool:
    """True when a derived criterion divides `criterion_id` as its price (its own column then takes the user's too)."""
    return any(
        c.derived is not None and dict(c.derived.inputs).get("price") == criterion_id for c in kb.criteria.values()
    )


def _cell(kb: KnowledgeBase, criterion: Criterion, entity_id: str, use_flagged: bool) -> Cell:
    if criterion.derived is not None:
        return _derived_cell(kb, criterion, entity_id, use_flagged)
    if _is_price_input(kb, criterion.id):
        # the user's own price replaces a dated price basis here as in the cost per token it feeds (price_claims)
        own = _own_price(kb, criterion, entity_id, use_flagged)
        if own is not None:
            return own
    claims = claims_for_cell(kb, criterion, entity_id, use_flagged)
    if not claims:
        return Cell(entity_id, criterion.id, None, ())
    best_tier = claims[0].tier
    used = [c for c in claims if c.tier == best_tier]
    value = statistics.median(c.value for c in used)
    parts = [Phrase(MEDIAN_OF, count=str(len(used)), tier=Phrase(TIER_NAMES[best_tier]))] if len(used) > 1 else []
    if len(claims) > len(used):
        parts.append(Phrase(LOWER_TIER_UNUSED, count=str(len(claims) - len(used))))
    note = i18n.joined(parts)
    return Cell(
        entity_id,
        criterion.id,
        float(value),
        tuple(c.id for c in used),
        tier=best_tier,
        flagged=any(c.flags for c in used),
        note=note,
    )


# A weight change rebuilds the weights only: the evidence and what is ranked are kept (see selector.memo).
_GRIDS = PerKnowledge(32)
_LAYOUTS = PerKnowledge(64)


def _evidence_grid(kb: KnowledgeBase, group_id: str, use_flagged: bool) -> dict[str, dict[str, Cell]]:
    """alternative -> criterion -> the cell its claims give (before imputation), for every member and criterion.

    Depends on the knowledge, the group and whether flagged claims count, not on weights or the missing-value
    policy.
    """

    def compute() -> dict[str, dict[str, Cell]]:
        group = kb.groups[group_id]
        criteria = [kb.criteria[gc.criterion] for gc in group.criteria]
        return {a: {c.id: _cell(kb, c, a, use_flagged) for c in criteria} for a in group.members}

    return _GRIDS.get(kb, (group_id, use_flagged), compute)


def unranked_cells(kb: KnowledgeBase, dm: DecisionMatrix, use_flagged: bool = True) -> list[Cell]:
    """The cells of the group's criteria left out of `dm` for a zero weight: stored and shown, not ranked.

    A price known for a few chips only is kept this way by default, rather than imputed for the rest.
    """
    grid = _evidence_grid(kb, dm.group, use_flagged)
    zero = [e.id for e in dm.excluded_criteria if e.reason == ZERO_WEIGHT]
    return [grid[a][c] for c in zero for a in kb.groups[dm.group].members if a in grid]


@dataclass(frozen=True)
class _Layout:
    """What is ranked: the alternatives and criteria left, their cells after imputation, and what was left out."""

    alternatives: tuple[str, ...]
    criteria: tuple[Criterion, ...]
    cells: tuple[tuple[Cell, ...], ...]
    excluded_alternatives: tuple[Exclusion, ...]
    excluded_criteria: tuple[Exclusion, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Limits:
    """The hard constraints of a preference set, hashable (the layout cache keys on it)."""

    constraints: tuple[str, ...] = ()
    exclude_vendors: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    keep_unknown: bool = False
    # (member, why) for the members the decision rules exclude (selector.decision.decision_tree.DecisionPath.exclusions)
    rule_exclusions: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, prefs: Preferences, rule_exclusions: tuple[tuple[str, str], ...] = ()) -> Limits:
        return cls(prefs.constraints, prefs.exclude_vendors, prefs.exclude, prefs.keep_unknown, rule_exclusions)


def _evidence_text(kb: KnowledgeBase, cell: Cell) -> str:
    criterion = kb.criteria[cell.criterion]
    return f"{criterion.name_en} is {cell.value:g} {criterion.unit} (evidence: {', '.join(cell.evidence)})"


def apply_limits(
    kb: KnowledgeBase, group_id: str, use_flagged: bool, limits: Limits
) -> tuple[list[str], list[Exclusion], list[str]]:
    """The members of `group_id` that pass every hard constraint, those removed with why, and notes.

    Each constraint is checked on the alternative's own evidence for the criterion (the cell its claims give,
    never a filled-in value). An alternative without evidence is removed as "unknown" unless
    ``limits.keep_unknown``. A constraint on a criterion that no member has evidence for is not applied, and a
    note says so.
    """
    group = kb.groups[group_id]
    reasons = _exclusion_reasons(kb, group.members, limits)
    notes = _exclusions_removing_nothing(kb, group.members, limits)
    for text in limits.constraints:
        failures, note = _constraint_failures(kb, group.members, text, use_flagged, limits.keep_unknown)
        for alt, why in failures:
            reasons[alt].append(why)
        if note is not None:
            notes.append(note)
    kept = [a for a in group.members if not reasons[a]]
    removed = [Exclusion(a, i18n.joined(r)) for a, r in reasons.items() if r]
    if not kept:
        lines = "; ".join(f"{kb.entity_name(e.id)} ({e.reason})" for e in removed)
        raise PreferenceError(
            f"the hard constraints and the rules your answers fire remove every alternative of group `{group_id}`: "
            f"{lines}. Relax a constraint, keep alternatives whose value is unknown, remove an exclusion, change an "
            "answer or choose another group."
        )
    return kept, removed, notes


def _exclusion_reasons(kb: KnowledgeBase, members: tuple[str, ...], limits: Limits) -> dict[str, list[str]]:
    """Member -> why it is excluded before any constraint (discontinued, its vendor, you, a rule your answers fire);
    [] if not."""
    reasons: dict[str, list[str]] = {a: [] for a in members}
    for alt in members:
        discontinued = facts.discontinued_reason(kb.entities, alt, members)
        if discontinued is not None:
            reasons[alt].append(discontinued)
        vendor = kb.entities[alt].vendor
        if vendor and vendor in limits.exclude_vendors:
            reasons[alt].append(Phrase(VENDOR_EXCLUDED, name=kb.entity_name(vendor)))
        if alt in limits.exclude:
            reasons[alt].append(Phrase(EXCLUDED_BY_YOU))
    for alt, why in limits.rule_exclusions:
        if alt in reasons:
            reasons[alt].append(why)
    return reasons


def _constraint_failures(
    kb: KnowledgeBase, members: tuple[str, ...], text: str, use_flagged: bool, keep_unknown: bool
) -> tuple[list[tuple[str, str]], str | None]:
    """The (member, why) pairs that fail hard constraint `text` on their own evidence, and a note instead when no
    member has evidence for its criterion (the constraint is then not applied)."""
    rule = hard.parse(text)
    criterion = kb.criteria[rule.criterion]
    cells = {a: _cell(kb, criterion, a, use_flagged) for a in members}
    if all(c.value is None for c in cells.values()):
        return [], f"constraint {text} not applied: no member of this group has evidence for {criterion.name_en}"
    failures: list[tuple[str, str]] = []
    for alt, cell in cells.items():
        if cell.value is None:
            if not keep_unknown:
                failures.append((alt, f"fails {text}: {criterion.name_en} unknown (no evidence); removed as unknown"))
        elif not rule.holds(cell.value):
            failures.append((alt, f"fails {text}: {_evidence_text(kb, cell)}"))
    return failures, None


def _exclusions_removing_nothing(kb: KnowledgeBase, members: tuple[str, ...], limits: Limits) -> list[str]:
    """A note for each vendor or alternative you exclude that this group does not hold: it removes nothing."""
    vendors = {kb.entities[a].vendor for a in members}
    notes = [
        f"excluding vendor {kb.entity_name(v)} removes nothing here: no member of this group is made by it"
        for v in limits.exclude_vendors
        if v not in vendors
    ]
    notes.extend(
        f"excluding {kb.entity_name(e)} removes nothing here: it is not a member of this group"
        for e in limits.exclude
        if e not in members
    )
    return notes


def _ranked_criteria(
    kb: KnowledgeBase, group_id: str, grid: dict[str, dict[str, Cell]], pool: Sequence[str], zero: frozenset[str]
) -> tuple[list[Criterion], list[Exclusion]]:
    """The group's criteria that some alternative of `pool` has evidence for and that have a weight, and those left
    out with why."""
    criteria, excluded = [], []
    for gc in kb.groups[group_id].criteria:
        crit = kb.criteria[gc.criterion]
        if not any(grid[a][crit.id].value is not None for a in pool):
            excluded.append(Exclusion(crit.id, NO_EVIDENCE))
        elif crit.id in zero:
            excluded.append(Exclusion(crit.id, ZERO_WEIGHT))
        else:
            criteria.append(crit)
    return criteria, excluded


def _exclude_missing(
    missing: str,
    grid: dict[str, dict[str, Cell]],
    alternatives: list[str],
    criteria: list[Criterion],
    excluded_alts: list[Exclusion],
    excluded_crits: list[Exclusion],
) -> None:
    """The two exclusion policies: drop each criterion (`exclude-criterion`) or each alternative
    (`exclude-alternative`) with a missing cell, saying why; the lists are changed in place."""
    if missing == "exclude-criterion":
        for crit in list(criteria):
            lacking = [a for a in alternatives if grid[a][crit.id].value is None]
            if lacking:
                criteria.remove(crit)
                excluded_crits.append(Exclusion(crit.id, f"missing for {', '.join(lacking)}"))
    elif missing == "exclude-alternative":
        for alt in list(alternatives):
            lacking = [c.id for c in criteria if grid[alt][c.id].value is None]
            if lacking:
                alternatives.remove(alt)
                excluded_alts.append(Exclusion(alt, f"no evidence for {', '.join(lacking)}"))


def _layout(
    kb: KnowledgeBase,
    group_id: str,
    use_flagged: bool,
    missing: str,
    zero: frozenset[str],
    limits: Limits = Limits(),
) -> _Layout:
    """The alternatives and criteria ranked under policy `missing`, criteria in `zero` (weight 0) left out.

    The hard constraints in `limits` remove alternatives first. Depends on no weight beyond which criteria have
    none, so it is kept per knowledge base (see ``_LAYOUTS``).

    Raises
    ------
    PreferenceError
        When too little is left to rank.
    """
    group = kb.groups[group_id]
    alternatives, excluded_alts, limit_notes = apply_limits(kb, group_id, use_flagged, limits)
    grid = _evidence_grid(kb, group_id, use_flagged)
    # Under the default (the scale's worst end) which criteria rank is decided over every member, not only those the
    # limits keep, so that it does not depend on who is ranked; the column policies fill from the ranked
    # alternatives' own values, so a column needs evidence among them.
    pool = group.members if missing == "impute-worst" else alternatives
    criteria, excluded_crits = _ranked_criteria(kb, group_id, grid, pool, zero)

    _exclude_missing(missing, grid, alternatives, criteria, excluded_alts, excluded_crits)
    if not criteria:
        raise PreferenceError(
            f"no criterion of group `{group.id}` is left to rank on under policy `{missing}`; "
            "choose another missing-value policy or give a criterion a positive weight"
        )
    if len(alternatives) < 1:
        raise PreferenceError(
            f"no alternative of group `{group.id}` has evidence for every criterion; "
            "choose the policy impute-worst or impute-median"
        )

    columns = {c.id: impute([grid[a][c.id] for a in alternatives], c, missing) for c in criteria}
    cells = tuple(tuple(columns[c.id][i] for c in criteria) for i in range(len(alternatives)))
    return _Layout(
        tuple(alternatives), tuple(criteria), cells, tuple(excluded_alts), tuple(excluded_crits), tuple(limit_notes)
    )


# The matrix of each checked preferences object: a page that lays out the ranking and then draws it, or a report
# that ranks and then judges, builds it once (the preferences are frozen, the knowledge base immutable).
_MATRICES = PerObject(64)


def build(kb: KnowledgeBase, prefs: Preferences) -> DecisionMatrix:
    """Build the decision matrix of ``prefs.group`` under ``prefs``'s weights and missing-value policy.

    Kept per checked preferences (:meth:`Preferences.checked`): the same preferences object ranked twice on the
    same knowledge base gets the same matrix.

    Raises
    ------
    PreferenceError
        When the preferences do not fit the knowledge, or too little is left to rank.
    """
    checked = prefs.checked(kb)
    return _MATRICES.get(checked, None, lambda: _build(kb, checked))


def _build(kb: KnowledgeBase, checked: Checked) -> DecisionMatrix:
    prefs = checked.prefs
    group = kb.groups[prefs.group]
    dim_weights = checked.dimension_weights
    sub = checked.criterion_weights
    zero = frozenset(c for c, w in sub.items() if w == 0)
    workload = workload_fit.stated(kb, prefs)
    cannot_run = workload_fit.exclusions(kb, group.id, workload, prefs.keep_unknown)
    rules = decision_tree.evaluate(kb, prefs.answers, prefs.use_flagged).exclusions(group.id)
    limits = Limits.of(prefs, rules + cannot_run)
    layout = _LAYOUTS.get(
        kb,
        (group.id, prefs.use_flagged, prefs.missing, zero, limits),
        lambda: _layout(kb, group.id, prefs.use_flagged, prefs.missing, zero, limits),
    )
    # a stated workload's columns replace the LLM groups' throughput and cost columns (selector.decision.workload_fit)
    sub = dict(sub)
    changes, workload_notes = workload_fit.adapt(kb, workload, layout, sub, prefs.missing)
    layout = replace(layout, **changes)
    criteria = layout.criteria
    notes: list[str] = [*layout.notes, *workload_notes]

    names = tuple(c.id for c in criteria)
    dimension_of = tuple(c.dimension for c in criteria)
    sub_arr = read_only([sub[c] for c in names], float, copy=False)
    hierarchy = _hierarchy(kb, dimension_of, dim_weights, sub_arr, names, notes)

    return DecisionMatrix(
        group=group.id,
        alternatives=layout.alternatives,
        criteria=names,
        objectives=tuple(c.objective for c in criteria),
        dimension_of=dimension_of,
        cells=layout.cells,
        # the columns' weights checked and normalised here, once: the problem each method scores takes them as they are
        weights=read_only(criterion_weights(hierarchy.weights, names), copy=False),
        hierarchy=hierarchy,
        sub_weights=sub_arr,
        scales=read_only([c.scale or (np.nan, np.nan) for c in criteria], float, copy=False),
        shapes=tuple(c.shape for c in criteria),
        missing_policy=prefs.missing,
        excluded_alternatives=layout.excluded_alternatives,
        excluded_criteria=layout.excluded_criteria,
        notes=tuple(notes),
    )


def _hierarchy(
    kb: KnowledgeBase,
    dimension_of: tuple[str, ...],
    dimension_weights: Mapping[str, float],
    sub_weights: np.ndarray,
    names: tuple[str, ...],
    notes: list[str],
) -> Hierarchy:
    """The dimension weights shared out to the ranked columns; a dimension left without a column is noted."""
    try:
        hierarchy = Hierarchy.of(dimension_of, dimension_weights, sub_weights, names)
    except WeightError as exc:
        raise PreferenceError(str(exc)) from None
    notes.extend(emptied_note(kb, d) for d in hierarchy.emptied)
    return hierarchy


#: The note on a dimension that no ranked criterion of the group belongs to.
EMPTIED = N_("the {dimension} dimension has no criterion in this group; its weight was shared out proportionally")


def emptied_note(kb: KnowledgeBase, dimension: str, lang: i18n.Language = "en") -> str:
    """The note on `dimension` left without a criterion, in `lang` (``notes`` keeps the Phrase: English as text)."""
    found = kb.dimensions.get(dimension)
    name = Phrase.twin(found.name_en, found.name_zh) if found is not None else dimension
    return Phrase(EMPTIED, dimension=name).in_(lang) if lang != "en" else Phrase(EMPTIED, dimension=name)
