"""How much of the ranking rests on evidence: the share of ranked cells per trust tier, and of imputed cells.

Measured on every group of the knowledge base under default preferences, exactly the cells ``python -m selector
rank --group G --format json`` ranks. The targets (issue 12): our own ``assessed`` ratings fill at most 25 % of
ranked cells and imputed cells are at most 5 %.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from selector.decision import matrix
from selector.decision.preferences import PreferenceError, Preferences
from selector.knowledge.models import TIERS, KnowledgeBase

MAX_ASSESSED = 0.25
MAX_IMPUTED = 0.05


@dataclass(frozen=True)
class Shares:
    """Cell counts by tier (``imputed`` for cells without evidence) over the groups measured."""

    groups: tuple[str, ...]
    counts: dict[str, int]
    per_group: dict[str, dict[str, int]] = field(default_factory=dict)
    # group -> tier (or ``imputed``) -> share of the default ranking's weight resting on such cells: each cell
    # weighs its column's weight / the number of alternatives, so low-weight columns cannot dilute the share.
    weighted: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def share(self, key: str) -> float:
        """The fraction of ranked cells that are of tier `key` (or ``imputed``)."""
        return self.counts.get(key, 0) / self.total if self.total else 0.0

    @property
    def meets_targets(self) -> bool:
        return self.share("assessed") <= MAX_ASSESSED and self.share("imputed") <= MAX_IMPUTED

    def summary(self) -> str:
        """One line: each tier's share, the imputed share, and whether the targets hold."""
        parts = [f"{key} {self.share(key):.1%}" for key in (*TIERS, "imputed") if self.counts.get(key)]
        verdict = "meets" if self.meets_targets else "MISSES"
        return (
            f"ranked cells over {len(self.groups)} groups: {self.total} ({', '.join(parts)}); {verdict} the "
            f"targets assessed <= {MAX_ASSESSED:.0%}, imputed <= {MAX_IMPUTED:.0%}"
        )

    def weighted_lines(self) -> list[str]:
        """Per group, the share of the default ranking's weight resting on assessed and on filled-in cells."""
        return [
            f"  {group}: {w.get('assessed', 0.0):.0%} of the ranking's weight on assessed cells, "
            f"{w.get('imputed', 0.0):.0%} on filled-in cells"
            for group, w in self.weighted.items()
        ]

    def to_dict(self) -> dict:
        return {
            "groups": list(self.groups),
            "total": self.total,
            "counts": dict(self.counts),
            "shares": {key: self.share(key) for key in self.counts},
            "per_group": {g: dict(c) for g, c in self.per_group.items()},
            "weighted_per_group": {g: dict(w) for g, w in self.weighted.items()},
            "targets": {"assessed": MAX_ASSESSED, "imputed": MAX_IMPUTED},
            "meets_targets": self.meets_targets,
        }


def cell_shares(kb: KnowledgeBase, groups: tuple[str, ...] | None = None) -> Shares:
    """Count the ranked cells of `groups` (default: every group) by tier under default preferences."""
    groups = tuple(kb.groups) if groups is None else groups
    total: Counter[str] = Counter()
    per_group: dict[str, dict[str, int]] = {}
    weighted: dict[str, dict[str, float]] = {}
    measured = []
    for group_id in groups:
        try:
            m = matrix.build(kb, Preferences(group=group_id))
        except PreferenceError:
            continue  # nothing rankable under default preferences: no cells to count
        counts = Counter("imputed" if c.imputed else (c.tier or "imputed") for row in m.cells for c in row)
        per_group[group_id] = dict(counts)
        weight: Counter[str] = Counter()
        for row in m.cells:
            for j, c in enumerate(row):
                weight["imputed" if c.imputed else (c.tier or "imputed")] += float(m.weights[j]) / len(m.cells)
        weighted[group_id] = dict(weight)
        total.update(counts)
        measured.append(group_id)
    return Shares(tuple(measured), dict(total), per_group, weighted)
