"""Recommend's limits picker through AppTest: a limit typed with its unit is added in the criterion's unit; a limit
that cannot be read is refused beside the field and the limits in force stay."""

from __future__ import annotations

from selector.decision import constraints
from selector.escape import streamlit_md as md
from tests.app.helpers import ok, opened

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


def test_every_limit_the_picker_writes_reads_back_as_a_constraint(kb):
    # the picker's text is the constraint's canonical text: what the link and the profile carry
    for criterion in kb.criteria.values():
        for unit, factor in constraints.allowed_units(criterion.unit).items():
            limit = constraints.parse_limit(f"<= 2.5 {unit}", criterion.id, criterion.unit)
            assert constraints.parse(limit.text) == limit
            assert limit.value == float(f"{2.5 * factor:.12g}")
