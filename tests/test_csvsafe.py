"""Tests for selector.csvsafe: formula-looking cells get a leading quote, everything else is untouched."""

from __future__ import annotations

import pandas as pd
import pytest

from selector.csvsafe import neutralise, safe_frame


@pytest.mark.parametrize("value", ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx", '=HYPERLINK("http://x")'])
def test_formula_prefixes_are_quoted(value):
    assert neutralise(value) == "'" + value


@pytest.mark.parametrize("value", ["H200", "", " =not first", "a=b", "'=already", 3, -1.5, None, True])
def test_other_values_are_unchanged(value):
    assert neutralise(value) is value or neutralise(value) == value


def test_safe_frame_neutralises_text_cells_and_labels_only():
    df = pd.DataFrame({"=name": ["=cmd", "ok"], "score": [-0.5, 1.0]}, index=["@a", "b"])
    df.index.name = "+idx"
    out = safe_frame(df)
    assert out["'=name"].tolist() == ["'=cmd", "ok"]
    assert out["score"].tolist() == [-0.5, 1.0]
    assert out.index.tolist() == ["'@a", "b"] and out.index.name == "'+idx"
    assert df.columns.tolist() == ["=name", "score"] and df["=name"].tolist() == ["=cmd", "ok"]  # input untouched
