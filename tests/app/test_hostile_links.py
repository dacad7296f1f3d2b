"""Hostile links through AppTest (issue 19): state from the URL is checked before a widget sees it, so a crafted
link shows a message, never an exception box, on every page."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from selector.knowledge import loading as knowledge
from tests.app.helpers import APP, PAGES, opened
from tests.examples import examples

KB = knowledge.load()
DEFAULT_GROUP = next(iter(KB.groups))
CRITERION = KB.groups[DEFAULT_GROUP].criteria[0].criterion


def _open(query: dict[str, str], page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    if page is not None and not at.exception:
        at.switch_page(f"app_pages/{page}.py").run()
    return at


def _messages(at: AppTest) -> str:
    return " ".join(e.value for e in at.error).replace("\\", "")


@pytest.mark.parametrize(
    ("query", "fragment"),
    [
        ({"w": "performance=500"}, "dimension weight `performance` = 500 is outside 0-100"),
        ({"w": "performance=101"}, "dimension weight `performance` = 101 is outside 0-100"),
        ({"w": "performance=1e308"}, "`performance` is 1e+308"),
        ({"cw": f"{CRITERION}=9"}, f"criterion weight `{CRITERION}` = 9 is outside 0-5"),
        ({"w": "performance=-1"}, "negative"),
        ({"w": "performance=inf"}, "finite number"),
        ({"cw": f"{CRITERION}=nan"}, "finite number"),
    ],
)
def test_a_weight_no_slider_can_show_is_refused_with_a_message(query: dict[str, str], fragment: str) -> None:
    at = _open(query)
    assert not at.exception, [e.value for e in at.exception]
    assert fragment in _messages(at)
    assert at.slider(key="w-performance").value == KB.dimensions["performance"].weight, "the defaults are shown"


def test_a_weight_at_the_edge_of_its_slider_is_accepted() -> None:
    at = _open({"w": "performance=100,cost=0", "cw": f"{CRITERION}=5"})
    assert not at.exception and not at.error
    assert at.slider(key="w-performance").value == 100
    assert opened(at, "cw-box").slider(key=f"cw-{CRITERION}").value == 5.0


# Tokens a link could carry: valid ids, numbers at the edges of what the widgets show, and junk.
_NUMBERS = st.sampled_from(["0", "2", "5", "5.5", "9", "100", "101", "500", "1e308", "1e-320", "-3", "nan", "x"])
_IDS = st.sampled_from(
    [*KB.groups, *KB.dimensions, *KB.criteria, *KB.questions, "topsis", "wpm", "vikor", "vector", "none", "minmax"]
)
_JUNK = st.text(max_size=30)


def _pairs(keys: st.SearchStrategy[str], values: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(st.tuples(keys, values), min_size=1, max_size=2).map(
        lambda pairs: ",".join(f"{k}={v}" for k, v in pairs)
    )


_VALUES = {
    "group": st.one_of(st.sampled_from(list(KB.groups)), _JUNK),
    "answers": st.one_of(_pairs(_IDS, _IDS), _JUNK),
    "w": st.one_of(_pairs(st.sampled_from(list(KB.dimensions)), _NUMBERS), _pairs(_IDS, _JUNK)),
    "cw": st.one_of(_pairs(st.sampled_from(list(KB.criteria)), _NUMBERS), _pairs(_IDS, _JUNK)),
    "method": st.one_of(_IDS, _JUNK),
    "scaler": st.one_of(_IDS, _JUNK),
    "missing": st.one_of(st.sampled_from(["impute-median", "exclude-alternative"]), _JUNK),
    "flagged": st.one_of(st.just("exclude"), _JUNK),
    "ev": st.one_of(st.just("eyJ0ZXh0IjpbIlRPUFMiXX0"), _JUNK),
    "data": st.one_of(st.just("eNqLjgUAARUAuQ"), _JUNK),
}
# A link is refused as a whole at its first bad value, so half the examples keep everything valid but the numbers:
# those reach the widgets, where an unchecked value would raise.
_PLAUSIBLE = st.sampled_from(list(KB.groups)).flatmap(
    lambda group: st.fixed_dictionaries(
        {"group": st.just(group)},
        optional={
            "w": _pairs(st.sampled_from(list(KB.dimensions)), _NUMBERS),
            "cw": _pairs(st.sampled_from([gc.criterion for gc in KB.groups[group].criteria]), _NUMBERS),
            "method": st.sampled_from(["wsm", "wpm", "topsis", "vikor", "moora"]),
            "missing": st.sampled_from(["impute-median", "exclude-criterion", "exclude-alternative"]),
        },
    )
)
QUERIES = st.one_of(_PLAUSIBLE, st.fixed_dictionaries({}, optional=_VALUES))


@pytest.mark.parametrize("name", PAGES)
@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=QUERIES)
def test_no_query_string_raises_on_any_page(name: str, query: dict[str, str]) -> None:
    at = _open(query, name)
    assert not at.exception, (query, [e.value for e in at.exception])
