"""Preferences: weight parsing and checking, defaults, and the URL round trip."""

from __future__ import annotations

import copy
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector.decision import preferences
from selector.decision.elicitation import Elicitation, percentages
from selector.decision.preferences import (
    MISSING_POLICIES,
    PreferenceError,
    Preferences,
    check_slider_ranges,
    from_query,
    parse_pairs,
    parse_weights,
    to_query,
)
from selector.knowledge import loading as knowledge
from tests.hot_path import counted_calls
from tests.refusals import said_in_both


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_default_dimension_weights_come_from_the_knowledge(kb):
    weights = dict(Preferences(group="training-frameworks").checked(kb).dimension_weights)
    assert weights == {"performance": 40, "cost": 25, "ecosystem": 20, "risk": 15}


@pytest.mark.parametrize(
    ("weights", "fragment"),
    [
        ({"cost": -1}, "negative"),
        ({"cost": math.nan}, "finite"),
        ({"cost": math.inf}, "finite"),
    ],
)
def test_bad_weights_are_refused(weights, fragment):
    with pytest.raises(ValueError, match=fragment):
        Preferences(group="training-frameworks", dimension_weights=weights)


def test_all_zero_weights_are_refused(kb):
    zero = {d: 0 for d in kb.dimensions}
    with pytest.raises(PreferenceError, match="all dimension weights are zero"):
        Preferences(group="training-frameworks", dimension_weights=zero).check(kb)


def test_unknown_ids_are_refused_with_the_known_ones(kb):
    with pytest.raises(PreferenceError, match="known groups"):
        Preferences(group="nope").check(kb)
    with pytest.raises(PreferenceError, match="unknown dimension"):
        Preferences(group="training-frameworks", dimension_weights={"speed": 1}).check(kb)
    with pytest.raises(PreferenceError, match="not in group"):
        Preferences(group="training-frameworks", criterion_weights={"power-w": 1}).check(kb)


def test_checked_preferences_carry_the_weights_resolved_by_hand(kb):
    """Independent reference: the knowledge's defaults, overridden by what the preferences give."""
    group = "datacenter-accelerators"
    first = kb.groups[group].criteria[0].criterion
    prefs = Preferences(group=group, dimension_weights={"cost": 70, "risk": 0}, criterion_weights={first: 2.5})
    checked = prefs.checked(kb)
    assert checked.prefs is prefs and checked.kb is kb
    expected = {d: dim.weight for d, dim in kb.dimensions.items()} | {"cost": 70, "risk": 0}
    assert list(checked.dimension_weights.items()) == list(expected.items())  # knowledge order
    assert dict(checked.criterion_weights) == {gc.criterion: gc.weight for gc in kb.groups[group].criteria} | {
        first: 2.5
    }
    assert checked.elicited is None
    with pytest.raises(TypeError):
        checked.dimension_weights["cost"] = 1  # shared by every reader: read-only


def test_preferences_are_checked_once_per_object_and_knowledge_base(kb):
    prefs = Preferences(group="training-frameworks", dimension_weights={"performance": 61})
    with counted_calls() as calls:
        first = prefs.checked(kb)
        assert prefs.check(kb) is prefs
        assert prefs.checked(kb) is first
    assert calls["check"] == 1
    # a copy with other weights is other preferences (a slider move): checked afresh, with its own weights
    moved = prefs.model_copy(update={"dimension_weights": {"performance": 62}})
    with counted_calls() as calls:
        assert moved.checked(kb).dimension_weights["performance"] == 62
    assert calls["check"] == 1
    # another knowledge base (an upload merged in) is checked afresh, against itself
    other = copy.copy(kb)
    with counted_calls() as calls:
        assert prefs.checked(other).kb is other
    assert calls["check"] == 1


def test_a_kept_check_is_a_fresh_check_and_a_refusal_is_never_kept(kb):
    for prefs in (
        Preferences(group="training-frameworks"),
        Preferences(group="edge-accelerators", dimension_weights={"cost": 0, "risk": 3}, method="topsis"),
        _elicited(SWING, kb),
    ):
        kept, fresh = prefs.checked(kb), preferences._check(prefs, kb)
        assert kept is not fresh
        assert (dict(kept.dimension_weights), dict(kept.criterion_weights), kept.elicited) == (
            dict(fresh.dimension_weights),
            dict(fresh.criterion_weights),
            fresh.elicited,
        )
    refused = Preferences(group="training-frameworks", dimension_weights=dict.fromkeys(kb.dimensions, 0))
    for _ in range(2):
        with counted_calls() as calls, pytest.raises(PreferenceError, match="all dimension weights are zero"):
            refused.checked(kb)
        assert calls["check"] == 1


def test_parse_pairs_and_weights():
    assert parse_pairs("a=1, b = x ,", "t") == {"a": "1", "b": "x"}
    assert parse_weights("performance=40,cost=25.5", "w") == {"performance": 40.0, "cost": 25.5}
    with pytest.raises(PreferenceError, match="not of the form key=value"):
        parse_pairs("a", "t")
    with pytest.raises(PreferenceError, match="is not a number"):
        parse_weights("cost=lots", "w")
    with pytest.raises(PreferenceError, match="negative"):
        parse_weights("cost=-3", "w")


def test_defaults_give_a_short_link():
    assert to_query(Preferences(group="training-frameworks")) == {"group": "training-frameworks"}


_ids = st.sampled_from(["performance", "cost", "ecosystem", "risk"])
_weights = st.dictionaries(_ids, st.integers(0, 100).map(float), max_size=4)


@given(
    dims=_weights,
    method=st.sampled_from(["wsm", "wpm", "topsis"]),
    missing=st.sampled_from(MISSING_POLICIES),
    flagged=st.booleans(),
    goal=st.sampled_from([None, "research", "domestic"]),
)
def test_url_round_trip(dims, method, missing, flagged, goal):
    prefs = Preferences(
        group="edge-accelerators",
        answers={"goal": goal} if goal else {},
        dimension_weights=dims,
        method=method,
        missing=missing,
        use_flagged=flagged,
    )
    assert from_query(to_query(prefs), default_group="x") == prefs


def test_malformed_link_is_a_clear_error():
    with pytest.raises(PreferenceError, match="missing-value policy"):
        from_query({"group": "g", "missing": "guess"}, default_group="g")
    with pytest.raises(PreferenceError, match="not a number"):
        from_query({"group": "g", "w": "cost=abc"}, default_group="g")


def test_weights_a_slider_cannot_show_are_refused_with_their_range() -> None:
    from selector.decision.preferences import check_slider_ranges

    ok = Preferences(group="g", dimension_weights={"performance": 100, "cost": 0}, criterion_weights={"c": 5})
    assert check_slider_ranges(ok) is ok
    with pytest.raises(PreferenceError) as caught:
        check_slider_ranges(Preferences(group="g", dimension_weights={"performance": 500}, criterion_weights={"c": 9}))
    message = str(caught.value)
    assert "dimension weight `performance` = 500 is outside 0-100" in message
    assert "criterion weight `c` = 9 is outside 0-5" in message


# ----------------------------------------------------------------------------------------------------------
# The record of how the dimension weights were elicited (selector.decision.elicitation)

SWING = Elicitation(method="swing", answers=("performance=100", "cost=60", "ecosystem=30", "risk=10"))


def _elicited(record: Elicitation, kb) -> Preferences:
    weights = record.result(list(kb.dimensions)).weights
    return Preferences(group="training-frameworks", dimension_weights=percentages(weights), elicitation=record)


def test_a_link_without_elicitation_reads_exactly_as_before(kb):
    prefs = Preferences(group="training-frameworks", dimension_weights={"cost": 70})
    assert to_query(prefs) == {"group": "training-frameworks", "w": "cost=70"}
    assert from_query({"group": "training-frameworks", "w": "cost=70"}, "x") == prefs
    assert prefs.elicitation is None and prefs.checked(kb).elicited is None


def test_an_elicited_link_carries_the_answers_and_round_trips(kb):
    prefs = _elicited(SWING, kb)
    query = to_query(prefs)
    assert query["el"] == "swing:performance=100,cost=60,ecosystem=30,risk=10"
    assert query["w"] == "cost=30,ecosystem=15,performance=50,risk=5"
    again = from_query(query, "x")
    assert again == prefs
    assert again.checked(kb).elicited.weights == pytest.approx(
        {"performance": 0.5, "cost": 0.3, "ecosystem": 0.15, "risk": 0.05}
    )


def test_weights_that_the_answers_do_not_give_are_refused(kb):
    prefs = _elicited(SWING, kb).model_copy(update={"dimension_weights": {"performance": 40}})
    with pytest.raises(PreferenceError, match=r"not those the recorded swing answers give \(performance 50 %"):
        prefs.check(kb)


@pytest.mark.parametrize(
    ("el", "message"),
    [
        ("swing:performance=100,cost=60", "missing: ecosystem, risk"),
        ("pairwise:performance/cost=3", "5 comparison(s) missing"),
        ("swing:performance=100,speed=1,cost=1,ecosystem=1,risk=1", "unknown dimension(s) `speed`"),
    ],
)
def test_an_elicitation_that_does_not_fit_the_dimensions_is_refused(kb, el, message):
    prefs = from_query({"group": "training-frameworks", "el": el}, "x")
    with pytest.raises(PreferenceError, match=re.escape(message)):
        prefs.check(kb)


@pytest.mark.parametrize("el", ["ahp:a/b=3", "pairwise:performance/cost=12", "swing:performance=much"])
def test_a_malformed_elicitation_parameter_is_a_preference_error(el):
    with pytest.raises(PreferenceError):
        from_query({"group": "training-frameworks", "el": el}, "x")


@pytest.mark.parametrize(("text", "key"), [("performance=40,performance=10", "performance"), ("a=1, a=2", "a")])
def test_a_key_given_twice_with_different_values_is_refused(text: str, key: str) -> None:
    with pytest.raises(PreferenceError, match=f"`{key}` is given twice"):
        parse_pairs(text, "t")
    assert parse_pairs("a=1,a=1", "t") == {"a": "1"}  # the same value twice says one thing


def test_a_weight_that_is_not_a_finite_number_is_refused() -> None:
    for text in ("cost=1e400", "cost=nan", "cost=1_0", "cost=0x10"):
        with pytest.raises(PreferenceError, match="cost"):
            parse_weights(text, "w")


def test_an_accelerator_given_as_a_vendor_is_refused_not_ignored() -> None:
    from selector.knowledge import loading as knowledge

    kb = knowledge.load()
    with pytest.raises(PreferenceError, match="cannot exclude vendor `h100`: it is accelerator"):
        Preferences(group="accelerator-datasheets", exclude_vendors=("h100",)).check(kb)
    Preferences(group="accelerator-datasheets", exclude_vendors=("nvidia",)).check(kb)


# ----------------------------------------------------------------------------------------------------------
# A refusal keeps its English text and is said in Chinese with the user's values (issue 36)


@pytest.mark.parametrize(
    ("query", "english", "values"),
    [
        (
            {"w": "performance=abc"},
            "dimension weights: weight `performance=abc` is not a number (`abc` is not a number; expected a number "
            "in digits, e.g. 275, 2.5, 1.2e+08)",
            ("`performance=abc`", "`abc`", "275、2.5、1.2e+08"),
        ),
        (
            {"cw": "tdp-w=-2"},
            "criterion weights weight `tdp-w` is negative (-2.0); weights must be >= 0",
            ("`tdp-w`", "-2.0", ">= 0"),
        ),
        (
            {"w": "cost=1,cost=2"},
            "dimension weights: `cost` is given twice (`1` and `2`); give each key once",
            ("`cost`", "`1`", "`2`"),
        ),
        (
            {"missing": "guess"},
            "missing-value policy `guess` unknown; use one of impute-worst, impute-column-worst, impute-median, "
            "exclude-criterion, exclude-alternative",
            ("`guess`", "impute-worst, impute-column-worst"),
        ),
        (
            {"must": "power-w<=1e999"},
            "constraint `power-w<=1e999`: the limit `1e999` is not a finite number",
            ("`power-w<=1e999`", "`1e999`"),
        ),
    ],
)
def test_a_link_refusal_is_english_as_before_and_chinese_with_the_same_values(query, english, values):
    with pytest.raises(PreferenceError) as refused:
        from_query(query, "training-frameworks")
    said_in_both(refused.value, english, values)


def test_a_check_refusal_is_english_as_before_and_chinese_with_the_same_values(kb):
    with pytest.raises(PreferenceError) as refused:
        Preferences(group="nope").check(kb)
    said_in_both(refused.value, f"unknown group `nope`; known groups: {', '.join(kb.groups)}", ("`nope`", *kb.groups))
    with pytest.raises(PreferenceError) as refused:
        check_slider_ranges(Preferences(group="training-frameworks", dimension_weights={"cost": 500}))
    said_in_both(
        refused.value,
        "dimension weight `cost` = 500 is outside 0-100, the range of its slider (weights are relative: divide them "
        "all by the same number to bring them in range)",
        ("`cost`", "500", "0-100"),
    )
