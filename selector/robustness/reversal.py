"""Rank reversal: does the order of the alternatives depend on which other alternatives are present?"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from selector import i18n
from selector.decision import scoring
from selector.decision.problem import Problem
from selector.decision.scoring import FrozenDict, to_jsonable

#: At most this many alternatives, the best-ranked, are removed in turn: each removal re-scores the group, so removing
#: every one of m alternatives costs m scorings of m rows, which grows as m squared.
REMOVAL_LIMIT = 20


@dataclass(frozen=True)
class Perturbation:
    """One change to the set of alternatives and what it did to the order of the original ones.

    ``kind`` is ``"remove"`` (``subject`` left out) or ``"add_copy"`` (a copy of ``subject``, the worst
    alternative, added). ``swapped_pairs`` lists (a, b) where a was strictly ahead of b and now b is strictly
    ahead; ``tie_changes`` lists pairs that became tied or stopped being tied.
    """

    kind: str
    subject: str
    ranks: Mapping[str, int]
    swapped_pairs: tuple[tuple[str, str], ...]
    tie_changes: tuple[tuple[str, str], ...]

    @property
    def changed(self) -> bool:
        """Whether the relative order of the remaining original alternatives changed at all."""
        return bool(self.swapped_pairs or self.tie_changes)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict."""
        return to_jsonable(
            {
                "kind": self.kind,
                "subject": self.subject,
                "ranks": dict(self.ranks),
                "changed": self.changed,
                "swapped_pairs": self.swapped_pairs,
                "tie_changes": self.tie_changes,
            }
        )


@dataclass(frozen=True)
class RankReversalReport:
    """Rank-reversal check: the order of the other alternatives after removing each one, and after adding a copy
    of the worst one."""

    method: str
    scaler: str
    alternatives: tuple[str, ...]
    baseline_ranks: tuple[int, ...]
    perturbations: tuple[Perturbation, ...]
    removals_omitted: int = 0  # alternatives not removed in turn (past REMOVAL_LIMIT, the worst-ranked)

    @property
    def any_reversal(self) -> bool:
        """Whether any perturbation changed the relative order of the original alternatives."""
        return any(p.changed for p in self.perturbations)

    @property
    def summary(self) -> str:
        """One sentence for a report."""
        return self.text()

    def text(self, *, lang: i18n.Language = "en") -> str:
        """:attr:`summary` in `lang`."""
        _ = i18n.translator(lang)
        label = f"{self.method}/{self.scaler}"
        removed = (
            _("removing any of the {count} best-ranked alternatives (the other {omitted} were not tried)").format(
                count=len(self.alternatives) - self.removals_omitted, omitted=self.removals_omitted
            )
            if self.removals_omitted
            else _("removing any alternative")
        )
        if not self.any_reversal:
            return _(
                "No rank reversal under {label}: {removed} or adding a copy of the worst keeps the order of the others."
            ).format(label=label, removed=removed)
        parts = []
        for p in self.perturbations:
            if not p.changed:
                continue
            pairs = ", ".join(i18n.join_names((a, b), lang=lang) for a, b in p.swapped_pairs or p.tie_changes)
            if p.kind == "remove":
                what = _("removing {subject} swaps {pairs}") if p.swapped_pairs else None
                what = what or _("removing {subject} changes ties between {pairs}")
            else:
                what = _("adding a copy of {subject} swaps {pairs}") if p.swapped_pairs else None
                what = what or _("adding a copy of {subject} changes ties between {pairs}")
            parts.append(what.format(subject=p.subject, pairs=pairs))
        tried = (
            " " + _("(tried: {removed} and adding a copy of the worst)").format(removed=removed)
            if self.removals_omitted
            else ""
        )
        return _("Rank reversal under {label}: {parts}").format(label=label, parts="; ".join(parts)) + tried + "."

    def to_dict(self, *, lang: i18n.Language = "en") -> dict[str, Any]:
        """Return a JSON-safe dict (the summary in `lang`)."""
        return to_jsonable(
            {
                "method": self.method,
                "scaler": self.scaler,
                "alternatives": self.alternatives,
                "baseline_ranks": self.baseline_ranks,
                "any_reversal": self.any_reversal,
                "summary": self.text(lang=lang),
                "perturbations": [p.to_dict() for p in self.perturbations],
                "removals_omitted": self.removals_omitted,
            }
        )


def _compare_orders(
    names: Sequence[str], before: Mapping[str, int], after: Mapping[str, int]
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    # every pair's order before and after at once (pairs a, b with a listed first, in the order of `names`)
    b = np.array([before[n] for n in names])
    a = np.array([after[n] for n in names])
    old = np.sign(b[:, None] - b[None, :])
    new = np.sign(a[:, None] - a[None, :])
    swapped, ties = [], []
    for i, j in zip(*np.nonzero(np.triu(old != new, k=1)), strict=True):
        first, second = names[i], names[j]
        if old[i, j] != 0 and new[i, j] == -old[i, j]:
            swapped.append((first, second) if old[i, j] < 0 else (second, first))
        else:
            ties.append((first, second))
    return tuple(swapped), tuple(ties)


def rank_reversal(problem: Problem) -> RankReversalReport:
    """Check whether the order of the alternatives depends on which other alternatives are present.

    Removes each alternative in turn (the ``REMOVAL_LIMIT`` best-ranked when there are more), then adds a copy of
    the worst one (last in input order among tied worst), re-scores with ``scoring.score`` and compares the order
    of the original alternatives that remain.

    Parameters
    ----------
    problem : Problem
        The decision problem, with its weights.

    Returns
    -------
    RankReversalReport
    """
    base = scoring.score(problem)
    alts = base.alternatives
    before = dict(zip(alts, (int(r) for r in base.ranks), strict=True))
    perturbations: list[Perturbation] = []
    m = len(alts)
    removed = set(sorted(range(m), key=lambda k: (base.ranks[k], k))[:REMOVAL_LIMIT]) if m > 1 else set()
    if m > 1:
        for i in sorted(removed):
            res = scoring.score(problem.with_rows([k for k in range(m) if k != i]))
            after = dict(zip(res.alternatives, (int(r) for r in res.ranks), strict=True))
            swapped, ties = _compare_orders(res.alternatives, before, after)
            perturbations.append(Perturbation("remove", alts[i], FrozenDict(after), swapped, ties))
    worst = max(range(m), key=lambda k: (base.ranks[k], k))
    copy_name = f"copy of {alts[worst]}"
    while copy_name in alts:
        copy_name += "'"
    res = scoring.score(problem.with_rows([*range(m), worst], [*alts, copy_name]))
    after = dict(zip(res.alternatives, (int(r) for r in res.ranks), strict=True))
    swapped, ties = _compare_orders(alts, before, after)
    perturbations.append(Perturbation("add_copy", alts[worst], FrozenDict(after), swapped, ties))
    return RankReversalReport(
        method=base.method,
        scaler=base.scaler,
        alternatives=alts,
        baseline_ranks=tuple(int(r) for r in base.ranks),
        perturbations=tuple(perturbations),
        removals_omitted=m - len(removed) if m > 1 else 0,
    )
