"""What each dimension weight ranks in one group: its criteria with their shares, and what a proxy stands in for.

A slider called "Cost" means nothing until the user knows which columns it moves: in one group it is the price per
million tokens, in another the thermal design power because no price is known for most members. Every screen, the
command line and the report say it with the same words from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from selector import i18n
from selector.decision.matrix import ZERO_WEIGHT, DecisionMatrix
from selector.knowledge.models import KnowledgeBase


@dataclass(frozen=True)
class DimensionBasis:
    """One dimension of a ranking: its share and the criteria it ranks (name, share of the dimension)."""

    dimension: str
    name: str
    share: float
    criteria: tuple[tuple[str, float], ...]
    stored: tuple[str, ...] = ()  # criteria of the dimension shown beside the ranking at weight 0
    lang: i18n.Language = "en"  # the language of the names and words (selector.i18n)

    @property
    def ranks(self) -> str:
        """What the dimension's weight moves, without its share: "ranks Energy per million tokens (100%); ..."."""
        _ = i18n.translator(self.lang)
        if not self.criteria:
            return _("has no criterion in this group (its weight was shared out proportionally)")
        text = _("ranks {criteria}").format(
            criteria=", ".join(f"{name} ({share:.0%})" for name, share in self.criteria)
        )
        if self.stored:
            text += _("; shown, not ranked (weight 0): {criteria}").format(criteria=", ".join(self.stored))
        return text

    @property
    def equals(self) -> str:
        """What the weight ranks, short, for beside its slider: "Cost = Energy per million tokens (100%)"."""
        if not self.criteria:
            _ = i18n.translator(self.lang)
            return f"{self.name} = " + _("nothing here (its weight is shared out)")
        return f"{self.name} = " + ", ".join(f"{name} ({share:.0%})" for name, share in self.criteria)

    @property
    def text(self) -> str:
        """E.g. "Cost (25%) ranks Energy per million tokens (100%); shown, not ranked (weight 0): TDP"."""
        if not self.criteria:
            return f"{self.name} {self.ranks}"
        return f"{self.name} ({self.share:.0%}) {self.ranks}"

    def to_dict(self) -> dict:
        return {
            "dimension": self.dimension,
            "name": self.name,
            "share": self.share,
            "criteria": [{"name": n, "share_of_dimension": s} for n, s in self.criteria],
            "stored": list(self.stored),
            "text": self.text,
            "ranks": self.ranks,
            "equals": self.equals,
        }


def dimension_basis(kb: KnowledgeBase, dm: DecisionMatrix, *, lang: i18n.Language = "en") -> tuple[DimensionBasis, ...]:
    """Each dimension of the knowledge, in its order, with what it ranks in ``dm``'s group; named and worded in
    `lang`."""

    def named(criterion_id: str) -> str:
        return i18n.pick(lang, kb.criteria[criterion_id].name_en, kb.criteria[criterion_id].name_zh)

    shares = dm.dimension_weights
    zero = {e.id for e in dm.excluded_criteria if e.reason == ZERO_WEIGHT}
    out = []
    for dim in kb.dimensions.values():
        columns = [j for j, d in enumerate(dm.dimension_of) if d == dim.id]
        total = float(sum(dm.weights[j] for j in columns))
        criteria = tuple((named(dm.criteria[j]), float(dm.weights[j]) / total if total > 0 else 0.0) for j in columns)
        stored = tuple(
            named(gc.criterion)
            for gc in kb.groups[dm.group].criteria
            if gc.criterion in zero and kb.criteria[gc.criterion].dimension == dim.id
        )
        name = i18n.pick(lang, dim.name_en, dim.name_zh)
        out.append(DimensionBasis(dim.id, name, float(shares.get(dim.id, 0.0)), criteria, stored, lang))
    return tuple(out)
