"""Large groups: past a number of options the report details the best-ranked ones and lists the rest."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from selector.decision.matrix import Cell
from selector.report.model import OptionRow, RobustnessInfo, Summarised

# A report is read, and a PDF laid out, row by row: past this many options the matrix, the robustness tables and the
# evidence appendix (whose size grows with options x criteria, and options x ranks) cover the best-ranked ones and
# the recommended one; the rest are listed by rank and score, and the report says so.
DETAILED_OPTIONS = 12


def detailed(options: tuple[OptionRow, ...], recommended_id: str) -> list[int]:
    """Which options (indices, best first) the report details: the best-ranked ones, and the recommended one in place
    of the last of them when it ranks below."""
    shown = list(range(min(DETAILED_OPTIONS, len(options))))
    chosen = next(i for i, o in enumerate(options) if o.id == recommended_id)
    if chosen not in shown:
        shown[-1] = chosen
    return shown


def trim_robustness(rb: RobustnessInfo, rows: list[int]) -> RobustnessInfo:
    """The robustness of the detailed options only: their rows, and the first len(rows) ranks of each."""
    if not rb.acceptability:
        return rb
    ranks = len(rows)
    return replace(
        rb,
        acceptability=tuple(rb.acceptability[i][:ranks] for i in rows),
        first_share=tuple(rb.first_share[i] for i in rows),
        confidence=tuple(rb.confidence[i] for i in rows),
        methods=tuple(replace(m, ranks=tuple(m.ranks[i] for i in rows)) for m in rb.methods),
    )


def summarise(
    options: tuple[OptionRow, ...],
    recommended_id: str,
    robustness: RobustnessInfo,
    imputed_cells: Sequence[Cell],
) -> tuple[tuple[OptionRow, ...], RobustnessInfo, tuple[Cell, ...], Summarised | None]:
    """The options, robustness and imputed cells the report details, and the options it lists by rank and score
    only (None when it details every option)."""
    if len(options) <= DETAILED_OPTIONS:
        return options, robustness, tuple(imputed_cells), None
    rows = detailed(options, recommended_id)
    shown = {options[i].id for i in rows}
    kept = tuple(c for c in imputed_cells if c.alternative in shown)
    summarised = Summarised(
        detailed=len(rows),
        ranked=len(options),
        rows=tuple((o.rank, o.name, o.score, o.shortlisted) for o in options if o.id not in shown),
        imputed_cells=len(imputed_cells) - len(kept),
    )
    return tuple(options[i] for i in rows), trim_robustness(robustness, rows), kept, summarised
