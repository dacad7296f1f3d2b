"""The Frameworks page (AppTest): one tab per section, only the open one drawn; every rating in a static table, the
heatmap only when asked for, the benchmark charts, and each number that has nothing comparable listed with its quote
and conditions."""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from selector import i18n
from selector.escape import streamlit_md
from selector.views.frameworks import comparable_sets, feature_matrix, rating_table
from tests.app.helpers import APP, ok, opened


@pytest.fixture
def screen(app):
    ok(app.run())
    return ok(app.switch_page("app_pages/frameworks.py").run())


def _shown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_every_rating_is_in_the_ratings_table_without_a_data_grid(screen, kb):
    assert not screen.dataframe, "no data grid on the first screen (issue 18)"
    (table,) = screen.table
    expected = rating_table(feature_matrix(kb))
    shown = table.value.reset_index(drop=True)
    assert list(shown.columns) == list(expected.columns)
    assert list(shown["criterion"].str.replace("\\", "")) == list(expected["criterion"])
    for column in expected.columns[1:]:
        numbers = pd.to_numeric(shown[column].str.replace("\\", "").replace("", None))
        assert numbers.tolist() == pytest.approx(expected[column].tolist(), nan_ok=True)


def test_a_session_in_chinese_after_one_in_english_gets_the_ratings_table_in_chinese(screen, kb):
    # the tables are made and escaped once and kept (per knowledge, frame and language): a session in Chinese after
    # one in English, in the same server process, still gets its own heads
    english = screen.table[0].value.columns[0]
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = "zh"
    ok(at.run())
    chinese = ok(at.switch_page("app_pages/frameworks.py").run()).table[0].value.columns[0]
    assert english == "criterion"
    assert chinese == i18n.translator("zh")("criterion") != english


def test_the_heatmap_is_drawn_only_when_asked_for(screen, kb):
    def heatmaps(at) -> list:
        return [c for c in at.get("plotly_chart") if '"heatmap"' in c.proto.spec]

    assert not heatmaps(screen)
    screen.toggle(key="fw-show-heatmap").set_value(True).run()
    ok(screen)
    (chart,) = heatmaps(screen)
    # each cell's hover names its claims
    ids = {i for cell in feature_matrix(kb).claim_ids.to_numpy().ravel() for i in cell}
    assert ids and all(i in chart.proto.spec for i in ids)
    assert any("Ratings of frameworks" in m.value for m in screen.markdown)


def test_the_page_opens_on_the_feature_matrix_and_draws_only_the_open_tab(screen):
    assert [t.label for t in screen.tabs] == ["Feature matrix", "Benchmarks", "Evidence of a value"]
    assert screen.table and not screen.get("plotly_chart") and not screen.selectbox
    benchmarks = opened(screen, "fw-section", "Benchmarks")
    assert benchmarks.get("plotly_chart") and not benchmarks.table and not benchmarks.selectbox
    evidence = opened(screen, "fw-section", "Evidence of a value")
    assert evidence.selectbox and not evidence.table and not evidence.get("plotly_chart")


def test_each_benchmark_set_has_its_chart(screen, kb):
    comparable, _ = comparable_sets(kb)
    bars = [c for c in opened(screen, "fw-section", "Benchmarks").get("plotly_chart") if '"bar"' in c.proto.spec]
    assert len(bars) == len(comparable) >= 1


def test_numbers_without_a_comparable_are_listed_with_value_conditions_and_quote(screen, kb):
    _, alone = comparable_sets(kb)
    claims = [c for s in alone for c in s.claims]
    assert claims
    text = _shown(opened(screen, "fw-section", "Benchmarks"))
    for claim in claims:
        item = next(line for line in text.split("\n- ") if f"**{streamlit_md(claim.id)}**" in line)
        assert f"**{streamlit_md(format(claim.value, '.12g'))} " in item or f"**{claim.value:.12g} " in item
        if claim.quote:
            assert streamlit_md(" ".join(claim.quote.split())) in item


def test_every_rating_and_benchmark_number_can_be_picked_for_its_evidence(screen, kb):
    features = feature_matrix(kb)
    comparable, _ = comparable_sets(kb)
    rated = sum(bool(ids) for ids in features.claim_ids.to_numpy().ravel())
    options = opened(screen, "fw-section", "Evidence of a value").selectbox(key="fw-value").options
    assert len(options) == rated + sum(len(s.claims) for s in comparable)
    name, column = features.values.index[0], features.values.columns[0]
    assert f"{name} - {column}: {features.values.at[name, column]:g}" in options
