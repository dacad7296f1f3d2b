"""The ranking as spreadsheet files: CSV and XLSX bytes, every text cell neutralised against formula injection.

Both carry one row per ranked alternative (rank, name, id, score, shortlisted, then the value and the contribution
of each criterion) and say how the ranking was made: method, scaler, missing-value policy, flagged-claims choice,
weights and the knowledge data hash (CSV: ``#`` comment lines before the header; XLSX: an "About" sheet).

Numeric cells keep full precision in both (a script reads them back exactly); the workbook shows each value cell
with thousands separators and the significant digits of :func:`selector.display.number`, the score and the
contributions with four decimals.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from selector import display
from selector.decision.recommend import Recommendation
from selector.escape import neutralise
from selector.knowledge.models import KnowledgeBase
from selector.verdict import Verdict, judge

COLUMNS = ("rank", "name", "id", "score", "shortlisted", "filled_in")


def _provenance(rec: Recommendation, kb: KnowledgeBase) -> list[tuple[str, str]]:
    """Each benchmarked or reference number's footnote, and each bundled dataset's licence and attribution."""
    from selector.knowledge import provenance

    rows = []
    for claim_id in rec.matrix.evidence_ids():
        claim = kb.claims.get(claim_id)
        if claim is not None and claim.locator is not None:
            rows.append((f"footnote {claim_id}", provenance.footnote(claim)))
    for data in provenance.datasets(kb):
        rows.append((f"dataset {data.id}", f"{data.title}; licence {data.licence}; {data.attribution}"))
    return rows


def _about(
    rec: Recommendation, verdict: Verdict | None = None, kb: KnowledgeBase | None = None
) -> list[tuple[str, str]]:
    """How the ranking was made, as (key, value) pairs; numbers as text so both formats show them the same.

    With `kb`, the footnotes of the benchmarked and reference numbers and the datasets' licences follow.
    """
    m, result = rec.matrix, rec.result
    rows = []
    if verdict is not None:
        rows.append(("verdict", verdict.headline))
        rows += [("verdict detail", d) for d in verdict.details]
        rows.append(("robustness", verdict.badge))
    rows += [
        ("group", m.group),
        ("method", result.method),
        ("scaler", result.scaler),
        ("score", "higher is better" if result.higher_is_better else "lower is better"),
        ("missing-value policy", m.missing_policy),
        ("flagged claims", "included" if rec.prefs.use_flagged else "excluded"),
        ("dimension weights (share)", ", ".join(f"{d}={display.number(w)}" for d, w in m.dimension_weights.items())),
        (
            "criterion weights (share)",
            ", ".join(
                f"{c}={display.number(w)} ({o})" for c, w, o in zip(m.criteria, m.weights, m.objectives, strict=True)
            ),
        ),
        ("recommended", rec.recommended),
        ("data hash", rec.data_hash),
    ]
    if rec.prefs.elicitation is not None:
        rows.insert(rows.index(("recommended", rec.recommended)), _elicited(rec.prefs.elicitation))
    imputed = [f"{c.alternative}/{c.criterion}" for c in m.imputed_cells]
    if imputed:
        rows.append(("imputed cells", ", ".join(imputed)))
    excluded = [f"{e.id} ({e.reason})" for e in (*m.excluded_alternatives, *m.excluded_criteria)]
    if excluded:
        rows.append(("left out", "; ".join(excluded)))
    if rec.result.contributions is None:
        rows.append(("contributions", f"not defined for {result.method} (the score is not a sum of parts)"))
    if kb is not None:
        rows.extend(_provenance(rec, kb))
    return rows


def _elicited(record) -> tuple[str, str]:  # noqa: ANN001 - selector.decision.elicitation.Elicitation
    """How the dimension weights were elicited: the method, the answers as the command line takes them and, for
    comparisons, the consistency ratio (which does not depend on the order of the dimensions)."""
    from selector.decision import elicitation

    text = f"{elicitation.METHOD_LABELS[record.method]}: {', '.join(record.answers)}"
    if record.method == "pairwise":
        judgements = [elicitation.parse_judgement(a) for a in record.answers]
        items = list(dict.fromkeys(n for j in judgements for n in (j.better, j.worse)))
        text += f"; consistency ratio {elicitation.pairwise(items, judgements).consistency_ratio:.3f}"
    return ("weights elicited by", text)


def _header(rec: Recommendation) -> list[str]:
    columns = list(COLUMNS) + [f"value:{c}" for c in rec.matrix.criteria]
    if rec.result.contributions is not None:
        columns += [f"contribution:{c}" for c in rec.matrix.criteria]
    return columns


def _rows(rec: Recommendation) -> Iterator[list[object]]:
    """One row per ranked alternative, in rank order; numbers stay numbers, text is neutralised."""
    m = rec.matrix
    values = m.values
    for ranked in rec.ranking:
        i = m.alternatives.index(ranked.id)
        row: list[object] = [ranked.rank, neutralise(ranked.name), neutralise(ranked.id), ranked.score]
        row.append("yes" if ranked.shortlisted else "no")
        row.append(neutralise(" ".join(c.criterion for c in m.cells[i] if c.imputed)))
        row += [float(v) for v in values[i]]
        if rec.result.contributions is not None:
            row += [float(v) for v in rec.result.contributions[i]]
        yield row


def ranking_csv(rec: Recommendation, verdict: Verdict | None = None, kb: KnowledgeBase | None = None) -> bytes:
    """The ranking as UTF-8 CSV: ``#`` comment lines saying how it was made, then a header row and one row each.

    Parameters
    ----------
    rec
        The recommendation to export.
    verdict
        Its verdict (:func:`selector.verdict.judge`); judged here when not given.
    kb
        The knowledge it was ranked on; given, each benchmarked or reference number's footnote (result id, round,
        division, category, availability, retrieval date, licence) and the datasets' licences are added.

    Returns
    -------
    bytes
        Read it back with ``pandas.read_csv(..., comment="#")``.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for key, value in _about(rec, verdict or judge(rec), kb):
        # Written raw, not as a quoted CSV cell, so that `comment="#"` readers skip it; one line each, and a line
        # opening with "#" is never a formula.
        out.write(f"# {key}: {' '.join(str(value).split())}\n")
    writer.writerow([neutralise(c) for c in _header(rec)])
    writer.writerows(_rows(rec))
    return out.getvalue().encode("utf-8")


def _format_columns(sheet, header: list[str]) -> None:  # noqa: ANN001 - an openpyxl worksheet
    """Column widths, and number formats: four decimals for scores and contributions; each value cell as the page
    and the report write it (selector.display), its full precision kept in the cell."""
    for column, title in zip(sheet.iter_cols(min_row=1, max_row=sheet.max_row), header, strict=True):
        width = max(len(str(c.value)) for c in column if c.value is not None)
        sheet.column_dimensions[column[0].column_letter].width = min(max(width, len(str(title))) + 2, 48)
        if title == "score" or str(title).startswith("contribution:"):
            for cell in column[1:]:
                cell.number_format = "0.0000"
        elif str(title).startswith("value:"):
            for cell in column[1:]:
                cell.number_format = display.excel_format(cell.value)


def ranking_xlsx(rec: Recommendation, verdict: Verdict | None = None, kb: KnowledgeBase | None = None) -> bytes:
    """The ranking as an Excel workbook: sheet "Ranking" (header row frozen) and sheet "About".

    Filled-in values (no evidence) and their contributions have a pink background and a note saying so, and the
    row's ``filled_in`` column names them.

    Parameters
    ----------
    rec
        The recommendation to export.
    verdict
        Its verdict (:func:`selector.verdict.judge`); judged here when not given.
    kb
        The knowledge it was ranked on; given, each benchmarked or reference number's footnote (result id, round,
        division, category, availability, retrieval date, licence) and the datasets' licences are added.

    Returns
    -------
    bytes
        The .xlsx file.
    """
    from openpyxl import Workbook
    from openpyxl.comments import Comment
    from openpyxl.styles import Font, PatternFill

    book = Workbook()
    sheet = book.active
    sheet.title = "Ranking"
    header = [neutralise(c) for c in _header(rec)]
    sheet.append(header)
    for row in _rows(rec):
        sheet.append(row)
    filled = PatternFill("solid", fgColor="FDECEA")
    first_value = len(COLUMNS) + 1
    # a contribution computed from a filled-in value is no more evidence than the value itself
    offsets = (0, len(rec.matrix.criteria)) if rec.result.contributions is not None else (0,)
    for r, ranked in enumerate(rec.ranking, start=2):
        i = rec.matrix.alternatives.index(ranked.id)
        for j, cell in enumerate(rec.matrix.cells[i]):
            if cell.imputed:
                for offset in offsets:
                    marked = sheet.cell(row=r, column=first_value + offset + j)
                    marked.fill = filled
                    marked.comment = Comment(f"filled in: {cell.note or 'no evidence'}", "AI Stack Selector")
    bold = Font(bold=True, color="FFFFFF")
    fill = PatternFill("solid", fgColor="1F4E79")
    for cell in sheet[1]:
        cell.font, cell.fill = bold, fill
    sheet.freeze_panes = "A2"
    _format_columns(sheet, header)

    about = book.create_sheet("About")
    about.append(["key", "value"])
    for key, value in _about(rec, verdict or judge(rec), kb):
        about.append([neutralise(key), neutralise(value)])
    for cell in about[1]:
        cell.font, cell.fill = bold, fill
    about.column_dimensions["A"].width = 28
    about.column_dimensions["B"].width = 100
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
