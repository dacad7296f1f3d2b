"""Recommend's limits picker through AppTest: a limit typed with its unit is added in the criterion's unit; a limit
that cannot be read is refused beside the field and the limits in force stay."""

from __future__ import annotations

from selector.decision import constraints
from selector.decision.preferences import Preferences
from selector.escape import streamlit_md as md
from tests.app import fragment_rerun
from tests.app.helpers import expected_ranking, ok, opened, same_ranking, shown_ranking

GROUP = "datacenter-accelerators"


def _type(at, criterion: str, text: str, op: str = ">="):
    at.selectbox(key="limit-criterion").set_value(criterion)
    at.selectbox(key="limit-op").set_value(op)
    at.text_input(key="limit-text").set_value(text)
    return ok(at.button(key="limit-add").click().run())


def _page(app):
    app.query_params["group"] = GROUP
    return opened(ok(app.run()), "must-box")


def test_a_limit_with_its_unit_is_added_in_the_criterions_unit(app, kb):
    at = _type(_page(app), "memory-capacity", ">= 141 GB")
    assert at.session_state["prefs"].constraints == ("memory-capacity>=141",)
    assert at.query_params["must"] in ("memory-capacity>=141", ["memory-capacity>=141"])
    # shown by name with its unit, not as an id
    assert md(f"{kb.criteria['memory-capacity'].name_en} ≥ 141 GB") in [m.value for m in at.markdown]
    # another unit of the same quantity is converted: 1 TB is 1,000 GB and replaces the limit on the same side
    at = _type(at, "memory-capacity", "1 TB")
    assert at.session_state["prefs"].constraints == ("memory-capacity>=1000",)


def test_a_wrong_unit_is_refused_beside_the_field_and_the_limit_in_force_stays(app):
    at = _type(_page(app), "tdp-w", "<= 700 W")
    assert at.session_state["prefs"].constraints == ("tdp-w<=700",)
    for bad in ("700 GB", "abc", "1,5 kW", ">= "):
        at = _type(at, "tdp-w", bad)
        assert at.session_state["prefs"].constraints == ("tdp-w<=700",), bad
        [error] = [e.value for e in at.error if "Not added" in e.value]
        assert "the limits in force stay" in error
        assert at.text_input(key="limit-text").value == bad, "the text typed stays to be corrected"
    assert "W or mW or kW" in _type(at, "tdp-w", "700 GB").error[0].value


def test_a_limit_is_removed_by_its_button(app):
    at = _type(_page(app), "tdp-w", "700", op="<=")
    at = _type(at, "memory-capacity", "80")
    assert set(at.session_state["prefs"].constraints) == {"tdp-w<=700", "memory-capacity>=80"}
    at = ok(at.button(key="limit-rm-0").click().run())
    assert at.session_state["prefs"].constraints == ("memory-capacity>=80",)


def test_a_refused_limit_reruns_the_box_alone_and_an_added_one_the_whole_page(app, kb):
    """The box is a fragment: a refusal beside its field needs no new ranking, so nothing outside the box runs
    again; a limit put in force changes the ranking, the box's title and the link, so the whole page runs."""
    at = _page(app)
    with fragment_rerun.fragment_reruns(at, at.text_input(key="limit-text")):
        at = _type(at, "tdp-w", "700 GB")
        assert [e.value for e in at.error if "Not added" in e.value]
        assert not at.radio and not at.slider, "the scenario and the weights, outside the box, were not drawn again"
        assert at.session_state["prefs"].constraints == ()
        at = _type(at, "tdp-w", "700", op="<=")
    assert at.radio and at.slider, "the limit in force made the whole page run"
    assert at.session_state["prefs"].constraints == ("tdp-w<=700",)
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=GROUP, constraints=("tdp-w<=700",))))
    assert any("(hard constraints: 1)" in box.label for box in at.expander)
    assert at.query_params["must"] in ("tdp-w<=700", ["tdp-w<=700"])


def test_a_weight_moved_in_its_fragment_leaves_opening_the_box_to_the_box(app, kb):
    """The weights' fragment changes the preferences without a run of the page: the box must not take that for a
    change of its own (which would rerun the page on every opening after a weight move)."""
    at = _page(app)
    box = fragment_rerun.fragment_of(at, at.text_input(key="limit-text"))
    at.session_state["must-box"] = False
    ok(at.run())
    with fragment_rerun.fragment_reruns(at, at.slider(key="w-cost")):
        ok(at.slider(key="w-cost").set_value(70).run())
    with fragment_rerun.fragment_reruns(at, box):
        at = opened(at, "must-box")
        assert at.text_input(key="limit-text"), "the box opened"
        assert not at.radio and not at.slider, "only the box ran"
    assert at.session_state["prefs"].dimension_weights == {"cost": 70}
    at = ok(at.run())
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=GROUP, dimension_weights={"cost": 70})))


def test_every_limit_the_picker_writes_reads_back_as_a_constraint(kb):
    # the picker's text is the constraint's canonical text: what the link and the profile carry
    for criterion in kb.criteria.values():
        for unit, factor in constraints.allowed_units(criterion.unit).items():
            limit = constraints.parse_limit(f"<= 2.5 {unit}", criterion.id, criterion.unit)
            assert constraints.parse(limit.text) == limit
            assert limit.value == float(f"{2.5 * factor:.12g}")
