"""The Accelerators, Evidence and Frameworks pages' tables are shared by every session (``st.cache_resource``, not
copied per visit): a visit of every tab, in both languages, must leave them exactly as they were built."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt

import pandas as pd
import pytest

from app_pages import _cached
from selector import i18n
from tests.app.helpers import ok, opened

TODAY = "2026-11-30"
FRAMEWORK_TABS = ("Feature matrix", "Benchmarks", "Evidence of a value")
ACCELERATOR_TABS = ("Spec explorer", "By segment", "Energy efficiency", "Memory and bandwidth", "Evidence of a number")


def _same(a: object, b: object) -> None:
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b)
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    elif dataclasses.is_dataclass(a):
        _same(dataclasses.astuple(a), dataclasses.astuple(b))
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _same(a[key], b[key])
    else:
        assert a == b


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_visiting_every_tab_leaves_the_shared_tables_as_built(app, kb, monkeypatch, lang):
    monkeypatch.setenv("SELECTOR_TODAY", TODAY)
    today = dt.date.fromisoformat(TODAY)
    _cached.accelerator_tables.clear()
    _cached.evidence_tables.clear()
    _cached.claim_labels.clear()
    _cached.framework_tables.clear()

    def tables() -> tuple:
        return (
            _cached.accelerator_tables(kb, kb.data_hash, today),
            _cached.evidence_tables(kb, kb.data_hash, today),
            _cached.claim_labels(kb, kb.data_hash, today, lang),
            _cached.framework_tables(kb, kb.data_hash, lang),
        )

    # built here, before any page runs, and copied: what every later caller must still find
    shared = tables()
    built = copy.deepcopy(shared)
    app.query_params["lang"] = lang
    ok(app.run())
    at = ok(app.switch_page("app_pages/accelerators.py").run())
    for tab in ACCELERATOR_TABS:
        at = opened(at, "acc-section", _tab(lang, tab))
    at = ok(at.switch_page("app_pages/evidence.py").run())
    at.session_state["ev-more"] = True
    at.session_state["ev-claim"] = next(iter(kb.claims))
    at = ok(at.run())
    at = ok(at.switch_page("app_pages/frameworks.py").run())
    at.session_state["fw-show-heatmap"] = True
    for tab in FRAMEWORK_TABS:
        at = opened(at, "fw-section", _tab(lang, tab))
    ok(at.switch_page("app_pages/accelerators.py").run())
    after = tables()
    assert all(a is s for a, s in zip(after, shared, strict=True))  # the pages were given these very objects
    _same(after, built)


def _tab(lang: str, english: str) -> str:
    return i18n.translator(lang)(english)  # a tab is opened by its label, in the session's language
