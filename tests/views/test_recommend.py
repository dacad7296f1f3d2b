"""selector.views.recommend: the ranking table and Markdown, the marked decision matrix, profiles and footnotes."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from selector import verdict
from selector.decision import matrix, recommend
from selector.decision.preferences import PreferenceError, Preferences
from selector.decision.weights import Hierarchy
from selector.escape import streamlit_md
from selector.knowledge import loading as knowledge
from selector.knowledge import provenance
from selector.views.recommend import (
    FILLED_MARK,
    FLAG_MARK,
    cell_footnotes,
    contributions_frame,
    criterion_profile,
    exclusions_table,
    matrix_display,
    matrix_table,
    ranking_markdown,
    ranking_table,
)

OLD = dt.date(2026, 11, 30)  # the cloud price list (2025-04-21) is 19 months old
YOUNG = dt.date(2025, 12, 31)


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_matrix_table_is_the_decision_matrix_transposed(kb):
    m = matrix.build(kb, Preferences(group="gpu-inference-runtimes"))
    table = matrix_table(kb, m)
    assert table.shape == (len(m.criteria), len(m.alternatives))
    np.testing.assert_array_equal(table.to_numpy(), m.values.T)
    assert sum(cell.imputed for row in m.cells for cell in row) == len(m.imputed_cells)


def test_criterion_profile_gives_the_best_of_a_column_its_weight():
    m = _tiny_matrix([[1.0, 10.0], [3.0, 5.0], [2.0, 5.0]], ["max", "min"], [0.75, 0.25])
    profile = criterion_profile(m)
    np.testing.assert_allclose(profile[:, 0], [0.0, 0.75, 0.375])
    np.testing.assert_allclose(profile[:, 1], [0.0, 0.25, 0.25])


def _tiny_matrix(values, objectives, weights) -> matrix.DecisionMatrix:
    cells = tuple(
        tuple(matrix.Cell(f"a{i}", f"c{j}", v, ("x",)) for j, v in enumerate(row)) for i, row in enumerate(values)
    )
    n = len(objectives)
    return matrix.DecisionMatrix(
        group="g",
        alternatives=tuple(f"a{i}" for i in range(len(values))),
        criteria=tuple(f"c{j}" for j in range(n)),
        objectives=tuple(objectives),
        dimension_of=("performance",) * n,
        cells=cells,
        weights=np.array(weights),
        hierarchy=Hierarchy.of(("performance",) * n, {"performance": 1.0}),
        sub_weights=np.ones(n),
        scales=np.full((n, 2), np.nan),
        missing_policy="impute-worst",
    )


def test_matrix_display_marks_filled_in_and_flagged_cells(kb):
    m = matrix.build(kb, Preferences(group="training-frameworks"))
    shown = matrix_display(kb, m)
    table = matrix_table(kb, m)
    assert shown.shape == table.shape == (len(m.criteria), len(m.alternatives))
    for (i, j), text in np.ndenumerate(shown.to_numpy()):
        cell = m.cells[j][i]  # the table is the matrix transposed: criteria down, alternatives across
        assert text.startswith(f"{table.iat[i, j]:g}")
        assert text.endswith(FILLED_MARK) == cell.imputed
        assert text.endswith(FLAG_MARK) == (cell.flagged and not cell.imputed)
    assert any(cell.imputed for row in m.cells for cell in row)


def test_ranking_table_lists_the_ranking_in_rank_order(kb):
    answers = {"target": "edge", "edge-workload": "static"}
    rec = recommend.recommend(kb, Preferences(group="edge-accelerators", answers=answers))
    table = ranking_table(rec.ranking)
    assert list(table) == ["rank", "name", "score", "shortlisted"]
    assert list(table["name"]) == [r.name for r in rec.ranking]
    assert list(table["score"]) == [r.score for r in rec.ranking]
    assert list(table["rank"]) == [str(r.rank) for r in rec.ranking]
    assert list(table["shortlisted"]) == ["✓" if r.shortlisted else "" for r in rec.ranking]
    assert "✓" in list(table["shortlisted"])


def test_ranking_table_marks_exact_ties(kb):
    marked = 0
    for group in kb.groups:
        for dim in kb.dimensions:
            weights = {d: (100 if d == dim else 0) for d in kb.dimensions}
            try:
                rec = recommend.recommend(kb, Preferences(group=group, dimension_weights=weights))
            except PreferenceError:  # no criterion of that dimension in this group
                continue
            ranks = list(ranking_table(rec.ranking)["rank"])
            for shown, ranked in zip(ranks, rec.ranking, strict=True):
                tied = sum(r.rank == ranked.rank for r in rec.ranking) > 1
                assert shown == (f"{ranked.rank}=" if tied else str(ranked.rank))
                marked += tied
    assert marked, "some one-dimension weighting ties two alternatives"


def test_cell_footnotes_list_every_dataset_claim_behind_the_matrix(kb):
    from selector.decision import matrix
    from selector.decision.preferences import Preferences

    m = matrix.build(kb, Preferences(group="llm-inference-accelerators"))
    table = cell_footnotes(kb, m, OLD)
    located = [
        (c.alternative, i) for row in m.cells for c in row for i in c.evidence if kb.claims[i].locator is not None
    ]
    assert len(table) == len(located) > 0
    assert set(table["claim"]) == {i for _, i in located}
    for _, row in table.iterrows():
        claim = kb.claims[row["claim"]]
        assert row["footnote"] == claim.locator.footnote()
        assert bool(row["ageing"]) == provenance.is_ageing(claim, kb, OLD)
    assert table["footnote"].str.contains("derived").any()
    # The GPU inference engines rank on article 004's table and our ratings, and on PyPI's release history: only
    # the dataset cells have footnotes (the client NPUs have the vendors' datasheets since issue 32's split).
    engines = matrix.build(kb, Preferences(group="gpu-inference-runtimes"))
    notes = cell_footnotes(kb, engines)
    dataset_cells = [c for row in engines.cells for c in row if any(kb.claims[e].locator for e in c.evidence)]
    article_cells = [c for row in engines.cells for c in row if c.tier == "claimed"]
    assert dataset_cells and article_cells
    assert set(notes["claim"]) == {e for c in dataset_cells for e in c.evidence if kb.claims[e].locator}


def test_ranking_table_counts_each_options_filled_in_cells(kb):
    rec = recommend.recommend(kb, Preferences(group="training-frameworks"))
    m = rec.matrix
    counts = {a: sum(c.alternative == a for c in m.imputed_cells) for a in m.alternatives}
    assert any(counts.values()) and not all(counts.values())
    table = ranking_table(rec.ranking, counts)
    assert list(table) == ["rank", "name", "score", "shortlisted", "filled in"]
    assert list(table["filled in"]) == [str(counts[r.id]) if counts[r.id] else "" for r in rec.ranking]


def test_contributions_frame_says_which_parts_were_filled_in(kb):
    rec = recommend.recommend(kb, Preferences(group="training-frameworks"))
    m = rec.matrix
    frame = contributions_frame(kb, m, rec.result.contributions)
    filled = {(kb.entity_name(c.alternative), kb.criteria[c.criterion].name_en) for c in m.imputed_cells}
    assert {(a, c) for a, c, f in zip(frame["alternative"], frame["criterion"], frame["filled"], strict=True) if f} == (
        filled
    )


def _row_of(text: str, name: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.startswith("| ") and f"| {name} |" in line)
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_ranking_markdown_holds_the_verdict_the_ranking_and_its_notes(kb):
    rec = recommend.recommend(kb, Preferences(group="training-frameworks"))
    judged = verdict.judge(rec, local_share=0.8, global_share=0.5, leaders={})
    text = ranking_markdown(rec, judged, "Weighted sum (WSM)")
    assert text.startswith(f"### {streamlit_md(judged.headline)}")
    assert ":green-background[:material/balance: PyTorch\\: first in 80% of 2,000 weightings" in text
    # one row per option, in rank order, with its filled-in cells counted
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    # no option is shortlisted without answers: a column of blanks is left out, so the table fits a phone
    assert not any(r.shortlisted for r in rec.ranking)
    assert rows[0].startswith("| rank | name | score | filled in |")
    assert [_row_of(text, r.name)[1] for r in rec.ranking] == [r.name for r in rec.ranking]
    counts = {a: sum(c.alternative == a for c in rec.matrix.imputed_cells) for a in rec.matrix.alternatives}
    assert [_row_of(text, r.name)[3] for r in rec.ranking] == [str(counts[r.id] or "") for r in rec.ranking]
    # the answer first: the reason comes before the table, the verdict's details after it
    assert text.index(streamlit_md(rec.why)) < text.index("| rank |")
    assert streamlit_md("score: higher is better") in text
    assert "Method **Weighted sum \\(WSM\\)**" in text
    assert f"missing values: **{streamlit_md(rec.matrix.missing_policy)}** · flagged claims used." in text


@pytest.mark.parametrize(
    ("share", "shown"),
    [
        (0.75, ":green-background["),
        (0.74, ":orange-background["),
        (0.5, ":orange-background["),
        (0.49, ":red-background["),
        (None, "Robustness could not be computed for this ranking."),
    ],
)
def test_ranking_markdown_colours_the_badge_by_the_share_around_your_weights(kb, share, shown):
    rec = recommend.recommend(kb, Preferences(group="training-frameworks"))
    judged = verdict.judge(rec, local_share=share, global_share=None, compute=False)
    text = ranking_markdown(rec, judged, "WSM")
    assert shown in text
    assert sum(f":{c}-background[" in text for c in ("green", "orange", "red")) == (share is not None)


def test_ranking_markdown_escapes_what_it_is_given(kb):
    rec = recommend.recommend(kb, Preferences(group="training-frameworks", use_flagged=False))
    judged = verdict.judge(rec, local_share=0.5, global_share=0.5, leaders={})
    text = ranking_markdown(rec, judged, "*bold* [link](x)")
    assert "**\\*bold\\* \\[link\\]\\(x\\)**" in text
    assert "flagged claims left out." in text


def test_the_left_out_table_shows_a_discontinued_member_with_its_successor(kb):
    """As a hard constraint shows its reason, the page's left-out table says why PyTorch Mobile is not ranked."""
    m = matrix.build(kb, Preferences(group="mobile-runtimes"))
    table = exclusions_table(kb, m)
    row = table[table["name"] == "PyTorch Mobile"].iloc[0]
    assert row["what"] == "alternative"
    assert (
        row["why"]
        == "discontinued, not ranked: deprecated since 2024-10; its successor is ExecuTorch (ranked in this group)"
    )
    # a group without a discontinued member shows no such row
    assert (
        not exclusions_table(kb, matrix.build(kb, Preferences(group="ios-runtimes")))["why"]
        .str.startswith("discontinued")
        .any()
    )


def test_the_matrix_tables_are_kept_per_cells_date_and_language(kb):
    # kept: the same object while the matrix, the date and the language are the same; a new date or language is
    # computed anew (an ageing mark depends on the date, the filled-in mark on the language)
    m = matrix.build(kb, Preferences(group="llm-inference-accelerators"))
    # a page run checks new preferences (a new matrix) with another weighting: the cells, and what is kept, are the same
    again = matrix.build(kb, Preferences(group="llm-inference-accelerators", dimension_weights={"performance": 70}))
    assert again is not m and again.cells is m.cells
    assert cell_footnotes(kb, m, OLD) is cell_footnotes(kb, again, OLD)
    later = cell_footnotes(kb, m, dt.date(2031, 1, 1))  # every snapshot of today's knowledge is ageing by then
    assert later is not cell_footnotes(kb, m, OLD)
    assert later["ageing"].all() and not cell_footnotes(kb, m, OLD)["ageing"].all()
    assert matrix_display(kb, m, lang="en") is matrix_display(kb, m, lang="en")
    assert matrix_display(kb, m, lang="zh") is not matrix_display(kb, m, lang="en")
