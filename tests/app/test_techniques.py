"""The Techniques and cases page (AppTest): one static table per kind of item, each row with what the articles
say and the scenarios it serves, following the scenario picked."""

from __future__ import annotations

import pytest

from selector.escape import streamlit_md
from selector.views.techniques import KIND_LABELS, TECHNIQUE_KINDS, techniques_table
from tests.app.helpers import ok

SERVES = streamlit_md("serves (app's grouping)")


@pytest.fixture
def screen(app):
    ok(app.run())
    at = ok(app.switch_page("app_pages/techniques.py").run())
    at.selectbox(key="tech-scenario").set_value("all").run()
    return ok(at)


def _rows(at) -> list[str]:
    return [line for m in at.markdown for line in m.value.splitlines() if line.startswith("| ")]


def test_every_item_is_a_row_of_its_kinds_table_without_a_data_grid(screen, kb):
    assert not screen.dataframe, "no data grid (issue 18)"
    expected = techniques_table(kb)
    kinds = [k for k in TECHNIQUE_KINDS if (expected["kind"] == k).any()]
    assert [t.label for t in screen.tabs] == [f"{KIND_LABELS[k]} ({(expected['kind'] == k).sum()})" for k in kinds]
    for tab, kind in zip(screen.tabs, kinds, strict=True):
        (table,) = [m.value for m in tab.markdown if m.value.startswith("| ")]
        header, _, *rows = table.splitlines()
        assert header.endswith(f"| {SERVES} | what the articles say |")
        items = expected[expected["kind"] == kind]
        assert len(rows) == len(items)
        for row, item in zip(rows, items.itertuples(), strict=True):
            assert row.startswith(f"| {streamlit_md(item.id)} | {streamlit_md(item.name)} |")
            assert f"| {streamlit_md(' '.join(item.description.split()))} |" in row


def test_a_scenario_narrows_the_tables_to_what_serves_it(screen, kb):
    screen.selectbox(key="tech-scenario").set_value("target=edge").run()
    ok(screen)
    expected = techniques_table(kb, scenarios=[("target", "edge")])
    assert 0 < len(expected) < len(techniques_table(kb))
    assert len(_rows(screen)) - len(screen.tabs) == len(expected)  # less a header per table


def test_before_any_answer_your_scenario_shows_everything_not_an_empty_page(app, kb):
    # issue 34: the page was empty ("Nothing ... linked") until a question was answered on Recommend
    ok(app.run())
    at = ok(app.switch_page("app_pages/techniques.py").run())
    assert at.selectbox(key="tech-scenario").value == "yours"
    assert not [i for i in at.info if "Nothing" in i.value]
    assert len(_rows(at)) > len(TECHNIQUE_KINDS)
    assert any("everything is shown" in c.value for c in at.caption)
