"""One cell of a decision matrix and where it came from, an alternative or criterion left out and why, and how a
missing-value policy fills an empty cell."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from selector.i18n import N_, Phrase
from selector.knowledge.models import Criterion


@dataclass(frozen=True)
class Cell:
    """One value of the matrix and where it came from."""

    alternative: str
    criterion: str
    value: float | None
    evidence: tuple[str, ...]
    tier: str | None = None
    flagged: bool = False
    imputed: bool = False
    note: str = ""

    def to_dict(self) -> dict:
        return {
            "alternative": self.alternative,
            "criterion": self.criterion,
            "value": self.value,
            "evidence": list(self.evidence),
            "tier": self.tier,
            "flagged": self.flagged,
            "imputed": self.imputed,
            "note": self.note,
        }


@dataclass(frozen=True)
class Exclusion:
    """An alternative or criterion left out of the ranking, and why."""

    id: str
    reason: str

    def to_dict(self) -> dict:
        return {"id": self.id, "reason": self.reason}


#: What an imputed cell's note says, per way of filling it (marked for the catalogs: a report translates the note).
IMPUTED_NOTES = {
    "median": Phrase(N_("no evidence; imputed column median")),
    "column-worst": Phrase(N_("no evidence; imputed column worst")),
    "scale-worst": Phrase(N_("no evidence; imputed scale's worst end")),
}


def impute(column: list[Cell], criterion: Criterion, policy: str) -> list[Cell]:
    """`column` with each empty cell filled under missing-value `policy`, marked imputed and saying how."""
    known = [c.value for c in column if c.value is not None]
    if policy == "impute-median":
        fill, note = statistics.median(known), IMPUTED_NOTES["median"]
    elif policy == "impute-column-worst":
        fill = min(known) if criterion.objective == "max" else max(known)
        note = IMPUTED_NOTES["column-worst"]
    else:
        # no credit without evidence, and no dependence on who else is ranked: the scale's worst end
        lo, hi = criterion.scale
        fill = lo if criterion.objective == "max" else hi
        note = IMPUTED_NOTES["scale-worst"]
    return [
        c if c.value is not None else Cell(c.alternative, c.criterion, float(fill), (), imputed=True, note=note)
        for c in column
    ]
