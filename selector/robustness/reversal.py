"""Rank reversal: does the order of the alternatives depend on which other alternatives are present?"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from selector import scoring
from selector.problem import Problem
from selector.scoring import FrozenDict, to_jsonable


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

    @property
    def any_reversal(self) -> bool:
        """Whether any perturbation changed the relative order of the original alternatives."""
        return any(p.changed for p in self.perturbations)

    @property
    def summary(self) -> str:
        """One sentence for a report."""
        label = f"{self.method}/{self.scaler}"
        if not self.any_reversal:
            return (
                f"No rank reversal under {label}: removing any alternative or adding a copy of the worst keeps "
                "the order of the others."
            )
        parts = []
        for p in self.perturbations:
            if not p.changed:
                continue
            what = f"removing {p.subject}" if p.kind == "remove" else f"adding a copy of {p.subject}"
            pairs = p.swapped_pairs or p.tie_changes
            verb = "swaps" if p.swapped_pairs else "changes ties between"
            parts.append(f"{what} {verb} " + ", ".join(f"{a} and {b}" for a, b in pairs))
        return f"Rank reversal under {label}: " + "; ".join(parts) + "."

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict."""
        return to_jsonable(
            {
                "method": self.method,
                "scaler": self.scaler,
                "alternatives": self.alternatives,
                "baseline_ranks": self.baseline_ranks,
                "any_reversal": self.any_reversal,
                "summary": self.summary,
                "perturbations": [p.to_dict() for p in self.perturbations],
            }
        )


def _compare_orders(
    names: Sequence[str], before: Mapping[str, int], after: Mapping[str, int]
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    swapped, ties = [], []
    for a, b in itertools.combinations(names, 2):
        old = int(np.sign(before[a] - before[b]))
        new = int(np.sign(after[a] - after[b]))
        if old == new:
            continue
        if old != 0 and new == -old:
            swapped.append((a, b) if old < 0 else (b, a))
        else:
            ties.append((a, b))
    return tuple(swapped), tuple(ties)


def rank_reversal(problem: Problem) -> RankReversalReport:
    """Check whether the order of the alternatives depends on which other alternatives are present.

    Removes each alternative in turn, then adds a copy of the worst one (last in input order among tied
    worst), re-scores with ``scoring.score`` and compares the order of the original alternatives that remain.

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
    if m > 1:
        for i in range(m):
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
    )
