"""The Recommend screen's views: the ranking (its table and the Markdown with the verdict), the decision matrix with
its marks, footnotes and contributions."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from selector import display, i18n, memo, verdict
from selector.decision import workload_fit
from selector.decision.matrix import DecisionMatrix, emptied_note
from selector.decision.recommend import Recommendation
from selector.escape import streamlit_md as md
from selector.escape import streamlit_table
from selector.i18n import N_
from selector.knowledge import provenance
from selector.knowledge.models import KnowledgeBase
from selector.robustness import figure
from selector.views.labels import value_text
from selector.views.robustness import SPACE_LABELS


def ranking_table(ranking: Iterable, filled: Mapping[str, int] | None = None) -> dict[str, list]:
    """The ranking as rank ("2=" when tied), name, score, shortlisted (✓ or blank), in rank order.

    With `filled` (alternative id -> number of its cells filled in by the missing-value policy), a ``filled in``
    column counts them ("" for none), so that no score reads as if it rested on evidence alone.

    Column name -> values (plain lists, not a DataFrame: the table is redrawn on every slider move).
    """
    ranking = list(ranking)
    shared = {r.rank for r in ranking if sum(o.rank == r.rank for o in ranking) > 1}
    columns = {
        # "1=": an exact tie, stated in the table as in the heading
        "rank": [f"{r.rank}=" if r.rank in shared else str(r.rank) for r in ranking],
        "name": [r.name for r in ranking],
        "score": [float(r.score) for r in ranking],
        "shortlisted": ["✓" if r.shortlisted else "" for r in ranking],
    }
    if filled is not None:
        columns["filled in"] = [str(filled.get(r.id, 0) or "") for r in ranking]
    return columns


RANKING_LEGEND = N_(
    "score: {direction} · “2=” marks an exact tie · shortlisted: by the decision path · filled in: criteria without "
    "evidence for this option, filled in by the missing-value policy (listed under the ranking)"
)
#: The ranking's column headings for people (the table's keys stay the data's words).
COLUMN_WORDS = {
    "rank": N_("rank"),
    "name": N_("name"),
    "score": N_("score"),
    "shortlisted": N_("shortlisted"),
    "filled in": N_("filled in"),
}
# The tooltip of the robustness badge: how its two shares were sampled (badge_help gives it in a language).
BADGE_LEVELS = N_("Levels (the badge's colour): {levels}.")
BADGE_HELP = (
    f"{verdict.SAMPLES:,} weightings of {SPACE_LABELS['dimensions']} drawn uniformly within ±10 percentage points of "
    f"yours, and {verdict.SAMPLES:,} anywhere on the whole weight simplex (every split of 100%); cells without "
    f"evidence drawn across their plausible range; seed {verdict.SEED}. The Robustness page shows the same two "
    f"figures. "
) + BADGE_LEVELS.format(levels=figure.levels())


DIMENSION_SPACE = SPACE_LABELS["dimensions"]


def badge_help(*, lang: i18n.Language = "en") -> str:
    """:data:`BADGE_HELP` in `lang`."""
    if lang == i18n.SOURCE_LANGUAGE:
        return BADGE_HELP
    _ = i18n.translator(lang)
    return (
        _(
            "{samples} weightings of {space} drawn uniformly within ±10 percentage points of yours, and {samples} "
            "anywhere on the whole weight simplex (every split of 100%); cells without evidence drawn across their "
            "plausible range; seed {seed}. The Robustness page shows the same two figures."
        ).format(samples=f"{verdict.SAMPLES:,}", space=_(DIMENSION_SPACE), seed=verdict.SEED)
        + _(BADGE_LEVELS).format(levels=figure.levels(lang=lang))  # Chinese sentences follow without a space
    )


def ranking_markdown(
    rec: Recommendation, judged: verdict.Verdict, method_label: str, *, lang: i18n.Language = "en"
) -> str:
    """The verdict with its robustness badge, the ranking and its notes, as one Streamlit Markdown text in `lang`
    (the verdict is worded by :func:`selector.verdict.judge` with the same `lang`).

    One text rather than several elements: the Recommend page redraws it on every slider move, and in the browser
    each element costs milliseconds. Everything taken from data is escaped.
    """
    _ = i18n.translator(lang)
    result, m = rec.result, rec.matrix
    direction = _("higher is better") if result.higher_is_better else _("lower is better")
    filled = {a: 0 for a in m.alternatives}
    for cell in m.imputed_cells:
        filled[cell.alternative] += 1
    flagged = _("flagged claims used") if rec.prefs.use_flagged else _("flagged claims left out")
    notes = [
        _("Weights: defaults 40/25/20/15 from article 004, section 5; the sidebar refines each dimension."),
        _("Method **{method}** · scaler **{scaler}** · missing values: **{missing}** · {flagged}.").format(
            method=md(method_label), scaler=md(result.scaler), missing=md(m.missing_policy), flagged=md(flagged)
        ),
        # which measurement each workload cell used is listed in the workload box, not under the ranking
        *(md(_note(rec.kb, m, note, lang)) for note in m.notes if not note.startswith(workload_fit.MEASUREMENT_NOTE)),
    ]
    # The answer first, for the first screen of a laptop and a phone: the recommended option, its badge, the reason,
    # then the ranking (without the columns that say nothing here, so that it fits a phone), then the details.
    table = {
        _(COLUMN_WORDS.get(k, k)): v for k, v in ranking_table(rec.ranking, filled).items() if k in _ALWAYS or any(v)
    }
    why = rec.why_in(lang)
    return (
        _verdict_text(judged, lang)
        + f"\n\n:material/lightbulb: {md(why)}"
        + "\n\n"
        + streamlit_table(table, formats={_("score"): ".4f"})
        + f"\n\n{_small(md(_(RANKING_LEGEND).format(direction=direction)))}"
        + "".join(f"\n\n{_small(md(detail))}" for detail in judged.details)
        + "".join(f"\n\n{_small(note)}" for note in notes)
    )


_ALWAYS = ("rank", "name", "score")


def _small(text: str) -> str:
    """Already escaped Markdown `text` as a caption inside a Markdown element (small, grey)."""
    return f":small[:gray[{text}]]"


def _verdict_text(judged: verdict.Verdict, lang: i18n.Language = "en") -> str:
    """The headline, the robustness badge of the recommended option (share of weightings around the user's that
    keep it first, and over any weighting; red when its lead rests on flagged cells)."""
    _ = i18n.translator(lang)
    parts = [f"### {md(judged.headline)}"]
    if judged.local_share is None:
        parts.append(_small(_("Robustness could not be computed for this ranking.")))
    else:
        # a lead resting on flagged claims is not robust, whatever the share
        colour = figure.COLOURS[figure.level(judged.local_share, rests_on_flags=judged.rests_on_flags)]
        # highlighted text rather than st.badge: a badge keeps to one line and cut this one short on a laptop
        parts.append(f":{colour}-background[:material/balance: {md(judged.badge)}]")
    return "\n\n".join(parts)


HIGHER_IS_BETTER = N_("{unit}, higher is better")
LOWER_IS_BETTER = N_("{unit}, lower is better")


def _criterion_row(kb: KnowledgeBase, criterion_id: str, objective: str, lang: i18n.Language) -> str:
    """``name [unit, higher is better]`` in `lang`."""
    criterion = kb.criteria[criterion_id]
    direction = i18n.stored(HIGHER_IS_BETTER if objective == "max" else LOWER_IS_BETTER, lang)
    unit = i18n.pick(lang, criterion.unit, criterion.unit_zh)
    return f"{i18n.pick(lang, criterion.name_en, criterion.name_zh)} [{direction.format(unit=unit)}]"


def _note(kb: KnowledgeBase | None, m: DecisionMatrix, note: str, lang: i18n.Language) -> str:
    """A note of the matrix in `lang`: an emptied dimension's note worded again, a marked note translated."""
    emptied = {} if kb is None else {emptied_note(kb, d): emptied_note(kb, d, lang) for d in m.hierarchy.emptied}
    return emptied.get(note) or i18n.stored(note, lang)


def matrix_table(kb: KnowledgeBase, m: DecisionMatrix, *, lang: i18n.Language = "en") -> pd.DataFrame:
    """The decision matrix for reading: one row per criterion (name, unit, direction in `lang`), one column per
    alternative.

    Criteria are the rows because their names are long and they outnumber the alternatives.
    """
    index = pd.Index(
        [_criterion_row(kb, c, o, lang) for c, o in zip(m.criteria, m.objectives, strict=True)], name=N_("criterion")
    )
    columns = [kb.entity_name(a) for a in m.alternatives]
    return pd.DataFrame(m.values.T, index=index, columns=columns)


FILLED_MARK = N_("(filled in)")
FLAG_MARK = "⚑"


# Kept per matrix cells: the Recommend page draws these tables on every run of the page (each run checks its
# preferences anew, so each has a new matrix, but one layout's cells are one object, kept per knowledge base in
# selector.decision.matrix); they depend on the cells alone. Read-only for callers (shared, as every memo value).
_PER_CELLS = memo.PerObject(64)


def matrix_display(kb: KnowledgeBase, m: DecisionMatrix, *, lang: i18n.Language = "en") -> pd.DataFrame:
    """:func:`matrix_table` as text in `lang`, each value marked when it was filled in or rests on a flagged claim."""
    return _PER_CELLS.get(m.cells, ("display", kb.data_hash, lang), lambda: _matrix_display(kb, m, lang))


def _matrix_display(kb: KnowledgeBase, m: DecisionMatrix, lang: i18n.Language) -> pd.DataFrame:
    table = matrix_table(kb, m, lang=lang)
    marks = {"imputed": f" {i18n.stored(FILLED_MARK, lang)}", "flagged": f" {FLAG_MARK}", "": ""}
    text = [
        [
            f"{display.number(cell.value)}{marks['imputed' if cell.imputed else 'flagged' if cell.flagged else '']}"
            for cell in column
        ]
        for column in zip(*m.cells, strict=True)
    ]
    return pd.DataFrame(text, index=table.index, columns=table.columns)


def cell_choices(kb: KnowledgeBase, m: DecisionMatrix) -> dict[str, tuple[int, int]]:
    """``"alternative - criterion"`` labels of every cell -> (row, column) index into the matrix."""
    return {
        f"{kb.entity_name(a)} - {kb.criteria[c].name_en}": (i, j)
        for i, a in enumerate(m.alternatives)
        for j, c in enumerate(m.criteria)
    }


def cell_footnotes(kb: KnowledgeBase, m: DecisionMatrix, today: dt.date | None = None) -> pd.DataFrame:
    """The footnotes of the matrix's numbers that come from a bundled dataset, one row per (cell, claim):
    alternative, criterion, the claim's value and tier, its footnote, snapshot date and whether it is ageing.

    A cell resting on several claims (a median, or a derived cost per million tokens) lists each.
    """
    day = today or dt.datetime.now(dt.UTC).date()  # the date ages are counted to is part of what is kept
    return _PER_CELLS.get(m.cells, ("footnotes", kb.data_hash, day), lambda: _cell_footnotes(kb, m, day))


def _cell_footnotes(kb: KnowledgeBase, m: DecisionMatrix, today: dt.date) -> pd.DataFrame:
    rows = []
    for row in m.cells:
        for cell in row:
            for claim_id in cell.evidence:
                claim = kb.claims.get(claim_id)
                if claim is None or claim.locator is None:
                    continue
                rows.append(
                    {
                        "alternative": kb.entity_name(cell.alternative),
                        "criterion": kb.criteria[cell.criterion].name_en,
                        "value": value_text(claim),
                        "tier": claim.tier,
                        "footnote": provenance.footnote(claim, kb),
                        "as of": provenance.snapshot_date(claim, kb),
                        "ageing": provenance.is_ageing(claim, kb, today),
                        "claim": claim.id,
                    }
                )
    # the heads are marked for the catalogs: the pages say them in the reader's language (app_pages/_widgets.py)
    columns = [
        N_("alternative"),
        N_("criterion"),
        N_("value"),
        N_("tier"),
        N_("footnote"),
        N_("as of"),
        N_("ageing"),
        N_("claim"),
    ]
    return pd.DataFrame(rows, columns=columns).astype({"ageing": "bool"})


def imputed_table(kb: KnowledgeBase, m: DecisionMatrix, *, lang: i18n.Language = "en") -> pd.DataFrame:
    """The cells filled by the missing-value policy, with the value used and why in `lang`."""
    rows = [
        {
            "alternative": kb.entity_name(c.alternative),
            "criterion": i18n.pick(lang, kb.criteria[c.criterion].name_en, kb.criteria[c.criterion].name_zh),
            "value used": c.value,
            "why": i18n.stored(c.note, lang),
        }
        for c in m.imputed_cells
    ]
    return pd.DataFrame(rows, columns=[N_("alternative"), N_("criterion"), N_("value used"), N_("why")])


def exclusions_table(kb: KnowledgeBase, m: DecisionMatrix, *, lang: i18n.Language = "en") -> pd.DataFrame:
    """Alternatives and criteria left out of the ranking, and why in `lang` (a reason the catalog does not hold, such
    as a rule's own wording, stays as the data writes it)."""
    rows = [
        {"what": i18n.stored(N_("alternative"), lang), "name": kb.entity_name(e.id), "why": i18n.stored(e.reason, lang)}
        for e in m.excluded_alternatives
    ]
    rows += [
        {
            "what": i18n.stored(N_("criterion"), lang),
            "name": i18n.pick(lang, kb.criteria[e.id].name_en, kb.criteria[e.id].name_zh)
            if e.id in kb.criteria
            else e.id,
            "why": i18n.stored(e.reason, lang),
        }
        for e in m.excluded_criteria
    ]
    return pd.DataFrame(rows, columns=[N_("what"), N_("name"), N_("why")])


def contributions_frame(kb: KnowledgeBase, m: DecisionMatrix, contributions: np.ndarray) -> pd.DataFrame:
    """Long form of an m x n contribution array: alternative, criterion, dimension, contribution, and ``filled``
    (the cell had no evidence and was filled in by the missing-value policy)."""
    rows = []
    for i, alternative in enumerate(m.alternatives):
        for j, criterion in enumerate(m.criteria):
            rows.append(
                {
                    "alternative": kb.entity_name(alternative),
                    "criterion": kb.criteria[criterion].name_en,
                    "dimension": kb.dimensions[m.dimension_of[j]].name_en
                    if m.dimension_of[j] in kb.dimensions
                    else m.dimension_of[j],
                    "contribution": float(contributions[i, j]),
                    "filled": m.cells[i][j].imputed,
                }
            )
    return pd.DataFrame(rows, columns=["alternative", "criterion", "dimension", "contribution", "filled"])


def criterion_profile(m: DecisionMatrix) -> np.ndarray:
    """Weighted min-max performance per cell: ``w_j * (x_ij - worst_j) / (best_j - worst_j)``.

    What a criterion adds to a weighted sum under min-max scaling (1 = best in its column, 0 = worst; a
    column without spread gives 0). Drawn for methods whose score is not a sum (TOPSIS, VIKOR), where it shows
    the profile behind the score rather than parts of it.
    """
    values = m.values
    sign = np.array([1.0 if o == "max" else -1.0 for o in m.objectives])
    oriented = values * sign
    worst, best = oriented.min(axis=0), oriented.max(axis=0)
    spread = best - worst
    share = np.divide(oriented - worst, spread, out=np.zeros_like(oriented), where=spread > 0)
    return share * m.weights
