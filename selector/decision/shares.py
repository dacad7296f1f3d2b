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
# Issue 32's targets, by weight, for the groups whose criteria include one of our assessed ratings (ranked or
# stored): the groups that come from the articles, where our ratings stood in for evidence. Each such group at
# most 40 % assessed and 5 % filled in; pooled over them (each group counting once) at most 30 % assessed. The
# evidence-rich groups that never had ratings are left out of the pool, so they cannot dilute it.
MAX_ASSESSED_GROUP = 0.40
MAX_IMPUTED_GROUP = 0.05
MAX_ASSESSED_POOLED = 0.30


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

    def pooled(self, groups: tuple[str, ...], key: str = "assessed") -> float:
        """The mean over `groups` (each measured group counting once) of the weight resting on `key` cells."""
        measured = [g for g in groups if g in self.weighted]
        return sum(self.weighted[g].get(key, 0.0) for g in measured) / len(measured) if measured else 0.0

    def rating_group_misses(self, groups: tuple[str, ...]) -> list[str]:
        """Each way the groups in `groups` miss issue 32's targets (empty when every target holds)."""
        misses = []
        for g in (g for g in groups if g in self.weighted):
            if self.weighted[g].get("assessed", 0.0) > MAX_ASSESSED_GROUP:
                misses.append(f"{g} assessed {self.weighted[g]['assessed']:.0%}")
            if self.weighted[g].get("imputed", 0.0) > MAX_IMPUTED_GROUP:
                misses.append(f"{g} filled in {self.weighted[g]['imputed']:.0%}")
        if self.pooled(groups) > MAX_ASSESSED_POOLED:
            misses.append(f"pooled assessed {self.pooled(groups):.0%}")
        return misses

    def pooled_line(self, groups: tuple[str, ...]) -> str:
        """One line: the pooled shares over the groups that rank or store our ratings, and whether the targets hold."""
        measured = tuple(g for g in groups if g in self.weighted)
        misses = self.rating_group_misses(measured)
        verdict = "meets" if not misses else f"MISSES ({'; '.join(misses)})"
        return (
            f"groups that rank or store our assessed ratings ({len(measured)}: {', '.join(measured)}): pooled "
            f"{self.pooled(measured):.0%} of the weight on assessed cells, {self.pooled(measured, 'imputed'):.0%} "
            f"on filled-in cells; {verdict} the targets per group assessed <= {MAX_ASSESSED_GROUP:.0%}, filled in "
            f"<= {MAX_IMPUTED_GROUP:.0%}, pooled assessed <= {MAX_ASSESSED_POOLED:.0%}"
        )

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


def rating_groups(kb: KnowledgeBase) -> tuple[str, ...]:
    """The groups with a criterion our assessed ratings fill (it has a rubric), ranked or stored at weight 0."""
    return tuple(g.id for g in kb.groups.values() if any(kb.criteria[c.criterion].rubric for c in g.criteria))


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
