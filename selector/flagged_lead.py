"""Whether the recommended option's place rests on flagged cells: cells whose evidence includes a claim the
knowledge flags as doubtful. Such a lead is not called robust, and the cells that decide it are named."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from selector import i18n
from selector.decision import vectorised
from selector.decision.scoring import leader_index


@dataclass(frozen=True)
class FlaggedLead:
    """The flagged cells of the recommended option, and who leads with them at their worst plausible value."""

    option: str  # the recommended option's name
    cells: tuple[str, ...]  # "criterion (claim ids: flag kinds)" of its flagged cells
    leader_without: str  # the leader with those cells at their worst
    decides: bool  # True when that changes who leads (the lead rests on them)

    def sentence(self, *, lang: i18n.Language = "en") -> str:
        _ = i18n.translator(lang)
        if self.decides:
            return _(
                "{option}'s lead rests on flagged cells: {cells}. With them at their worst plausible value {leader} "
                "leads, so the lead is not robust."
            ).format(option=self.option, cells="; ".join(self.cells), leader=self.leader_without)
        return _("{option} has flagged cells ({cells}); it leads without them as well.").format(
            option=self.option, cells="; ".join(self.cells)
        )


def check(rec, kb) -> FlaggedLead | None:  # noqa: ANN001 - Recommendation, KnowledgeBase
    """The recommended option's flagged cells and whether its first place rests on them; None when it has none,
    does not lead or is alone. A flagged cell is set to the worst end of its criterion's ``scale`` (or of the
    observed column) and the ranking is scored again under the same method, scaler and weights."""
    m = rec.matrix
    option = rec.recommended
    if option != rec.leader.id or len(m.alternatives) < 2:
        return None
    i = m.alternatives.index(option)
    flagged = [j for j, cell in enumerate(m.cells[i]) if cell.flagged and not cell.imputed]
    if not flagged:
        return None
    values = m.values
    for j in flagged:
        lo, hi = m.scales[j]
        column = np.delete(values[:, j], i)
        low = min(lo, column.min()) if np.isfinite(lo) else column.min()
        high = max(hi, column.max()) if np.isfinite(hi) else column.max()
        values[i, j] = high if m.objectives[j] == "min" else low
        if values[i, j] <= 0 < m.cells[i][j].value:
            values[i, j] = np.where(values[:, j] > 0, values[:, j], np.inf).min() / 2  # keep 1/x and logs finite
    scorer = vectorised.Scorer(rec.problem, values)
    scores = scorer.scores(m.weights[None])[0]
    leader = m.alternatives[leader_index(scores, scorer.spec.higher_is_better)]
    cells = tuple(_cell_text(kb, m.cells[i][j]) for j in flagged)
    return FlaggedLead(rec.leader.name, cells, kb.entity_name(leader), leader != option)


def _cell_text(kb, cell) -> str:  # noqa: ANN001 - KnowledgeBase, Cell
    criterion = kb.criteria[cell.criterion].name_en
    flags = [
        f"{claim_id}: {', '.join(f.kind for f in kb.claims[claim_id].flags)}"
        for claim_id in cell.evidence
        if claim_id in kb.claims and kb.claims[claim_id].flags
    ]
    return f"{criterion} ({'; '.join(flags)})"
