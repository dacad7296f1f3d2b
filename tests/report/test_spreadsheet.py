"""The ranking as a spreadsheet: CSV and XLSX carry the ranking, say how it was made, and never hold a live formula."""

from __future__ import annotations

import csv
import dataclasses
import io

import pandas as pd
import pytest
from openpyxl import load_workbook

from selector.decision.elicitation import Elicitation, percentages
from selector.decision.preferences import Preferences
from selector.decision.recommend import recommend
from selector.escape import FORMULA_PREFIXES
from selector.knowledge import loading as knowledge
from selector.report import build, spreadsheet
from tests.conftest import ROOT

HOSTILE = '=HYPERLINK("http://evil.example","click")'


HOSTILE = '=HYPERLINK("http://evil.example","click")'


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture(scope="module")
def rec(kb):
    return recommend(kb, Preferences(group="edge-accelerators", dimension_weights={"performance": 50}))


@pytest.fixture(scope="module")
def hostile(rec):
    """The ranking with the leader renamed to a formula (as a user's upload could name an entity)."""
    first = dataclasses.replace(rec.ranking[0], name=HOSTILE)
    last = dataclasses.replace(rec.ranking[-1], name="-2+3")
    return dataclasses.replace(rec, ranking=(first, *rec.ranking[1:-1], last))


def _comments(data: bytes) -> dict[str, str]:
    lines = [line[2:] for line in data.decode("utf-8").splitlines() if line.startswith("# ")]
    return dict(line.split(": ", 1) for line in lines)


def test_csv_holds_the_ranking_in_rank_order(rec):
    data = spreadsheet.ranking_csv(rec)
    frame = pd.read_csv(io.BytesIO(data), comment="#")
    criteria = list(rec.matrix.criteria)
    assert list(frame.columns) == [
        *spreadsheet.COLUMNS,
        *(f"value:{c}" for c in criteria),
        *(f"contribution:{c}" for c in criteria),
    ]
    assert list(frame["id"]) == [r.id for r in rec.ranking]
    assert list(frame["rank"]) == [r.rank for r in rec.ranking]
    assert frame["score"].to_numpy() == pytest.approx([r.score for r in rec.ranking])
    assert list(frame["shortlisted"]) == ["yes" if r.shortlisted else "no" for r in rec.ranking]
    first = rec.matrix.alternatives.index(rec.ranking[0].id)
    assert frame.loc[0, [f"value:{c}" for c in criteria]].to_numpy(dtype=float) == pytest.approx(
        rec.matrix.values[first]
    )
    contributions = frame[[f"contribution:{c}" for c in criteria]].sum(axis=1)
    assert contributions.to_numpy() == pytest.approx(frame["score"].to_numpy())  # wsm: parts add up to the score


def test_csv_says_how_the_ranking_was_made(rec):
    about = _comments(spreadsheet.ranking_csv(rec))
    assert about["method"] == rec.result.method and about["scaler"] == rec.result.scaler
    assert about["data hash"] == rec.data_hash
    assert about["missing-value policy"] == rec.matrix.missing_policy
    assert "performance=" in about["dimension weights (share)"]
    share = rec.matrix.dimension_weights["performance"]
    assert f"performance={share:.4g}" in about["dimension weights (share)"]
    if rec.matrix.imputed_cells:
        assert "imputed cells" in about


def test_csv_neutralises_formulas(hostile):
    rows = list(csv.reader(io.StringIO(spreadsheet.ranking_csv(hostile).decode("utf-8"))))
    cells = [cell for row in rows for cell in row]
    assert "'" + HOSTILE in cells and "'-2+3" in cells
    for cell in cells:
        if cell.startswith(FORMULA_PREFIXES):
            float(cell)  # only numbers (a negative contribution) may start like a formula


def test_methods_without_contributions_export_values_only(kb):
    rec = recommend(kb, Preferences(group="gpu-inference-runtimes", method="topsis"))
    data = spreadsheet.ranking_csv(rec)
    frame = pd.read_csv(io.BytesIO(data), comment="#")
    assert not [c for c in frame.columns if c.startswith("contribution:")]
    assert "not defined for topsis" in _comments(data)["contributions"]


def test_xlsx_has_the_ranking_and_the_about_sheet(rec):
    book = load_workbook(io.BytesIO(spreadsheet.ranking_xlsx(rec)))
    assert book.sheetnames == ["Ranking", "About"]
    rows = list(book["Ranking"].iter_rows(values_only=True))
    assert rows[0][: len(spreadsheet.COLUMNS)] == spreadsheet.COLUMNS
    assert [r[2] for r in rows[1:]] == [r.id for r in rec.ranking]
    assert [r[3] for r in rows[1:]] == pytest.approx([r.score for r in rec.ranking])
    about = dict(book["About"].iter_rows(min_row=2, values_only=True))
    assert about["method"] == rec.result.method and about["data hash"] == rec.data_hash
    assert about["scaler"] == rec.result.scaler


def test_xlsx_neutralises_formulas(hostile):
    book = load_workbook(io.BytesIO(spreadsheet.ranking_xlsx(hostile)))
    cells = [cell for row in book["Ranking"].iter_rows() for cell in row]
    names = [c for c in cells if c.column == 2 and c.row > 1]
    assert names[0].value == "'" + HOSTILE and names[0].data_type == "s"
    assert names[-1].value == "'-2+3"
    assert not [c for c in cells if c.data_type == "f"]
    for cell in cells:
        if isinstance(cell.value, str):
            assert not cell.value.startswith(FORMULA_PREFIXES), cell.coordinate


@pytest.mark.app
def test_export_page_offers_every_download_and_builds_the_pdf_on_request():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("app_pages/export.py")
    at.run()
    assert not at.exception
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == [
        "Markdown (decision record)",
        "HTML (self-contained, works offline)",
        "CSV",
        "Excel (XLSX)",
        "Decision profile (YAML)",
    ]
    kb = knowledge.load()
    default = build.build_report(kb, Preferences(group=next(iter(kb.groups))), samples=0)
    assert at.metric[0].value == default.recommended  # the page reports the settings in force (the defaults)
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError):
        return  # the button is there; building needs WeasyPrint
    at.button(key="export-pdf-build").click().run(timeout=120)
    assert not at.exception and not at.error
    assert "PDF (A4, print)" in [b.proto.label for b in at.get("download_button")]


def test_exports_carry_footnotes_of_benchmarked_numbers_and_dataset_licences(kb):
    llm = recommend(kb, Preferences(group="llm-inference-accelerators"))
    data = spreadsheet.ranking_csv(llm, kb=kb)
    comments = _comments(data)
    footnotes = {k: v for k, v in comments.items() if k.startswith("footnote mlperf-")}
    assert footnotes and all(
        "round v5.1" in v and "division closed" in v and "retrieved" in v for v in footnotes.values()
    )
    assert "licence Apache-2.0" in comments["dataset mlperf-inference-v5.1"]
    assert "CC BY 4.0" in comments["dataset epoch-ml-hardware"]
    assert not [k for k in _comments(spreadsheet.ranking_csv(llm)) if k.startswith(("footnote", "dataset"))]
    about = load_workbook(io.BytesIO(spreadsheet.ranking_xlsx(llm, kb=kb)))["About"]
    keys = [row[0].value for row in about.iter_rows(min_row=2)]
    assert any(str(k).startswith("footnote mlperf-") for k in keys) and "dataset accelmark" in keys


def test_xlsx_marks_every_filled_in_value_and_its_contribution(kb):
    marked = recommend(kb, Preferences(group="training-frameworks"))
    m = marked.matrix
    assert m.imputed_cells, "MindSpore has cells without evidence"
    sheet = load_workbook(io.BytesIO(spreadsheet.ranking_xlsx(marked)))["Ranking"]
    header = [c.value for c in sheet[1]]
    names = [sheet.cell(row=r, column=header.index("id") + 1).value for r in range(2, sheet.max_row + 1)]
    filled = {(c.alternative, c.criterion) for c in m.imputed_cells}
    for r, alternative in enumerate(names, start=2):
        for criterion in m.criteria:
            for column in (f"value:{criterion}", f"contribution:{criterion}"):
                cell = sheet.cell(row=r, column=header.index(column) + 1)
                pink = cell.fill.fgColor.rgb.endswith("FDECEA")
                assert pink == ((alternative, criterion) in filled), (alternative, column)
                assert (cell.comment is not None and "filled in" in cell.comment.text) == pink


def test_csv_and_xlsx_say_how_the_weights_were_elicited(kb, rec):
    assert "weights elicited by" not in _comments(spreadsheet.ranking_csv(rec))
    answers = (
        "performance/cost=3",
        "performance/ecosystem=5",
        "performance/risk=5",
        "cost/ecosystem=2",
        "cost/risk=3",
        "ecosystem/risk=1/5",
    )
    record = Elicitation(method="pairwise", answers=answers)
    result = record.result(list(kb.dimensions))
    prefs = Preferences(group="edge-accelerators", dimension_weights=percentages(result.weights), elicitation=record)
    elicited = recommend(kb, prefs)
    line = _comments(spreadsheet.ranking_csv(elicited))["weights elicited by"]
    assert line == f"pairwise comparisons (AHP): {', '.join(answers)}; consistency ratio {result.consistency_ratio:.3f}"
    sheet = load_workbook(io.BytesIO(spreadsheet.ranking_xlsx(elicited)))["About"]
    assert ["weights elicited by", line] in [[c.value for c in row][:2] for row in sheet.iter_rows()]
