"""Recommend's requirement-first start through AppTest: the plain-words questions pick the group, set the limits
and sub-weights they imply (what selector.decision.requirement computes), rank, and travel in the link."""

from __future__ import annotations

from selector.decision import requirement
from selector.decision.preferences import Preferences
from selector.decision.requirement import Requirement
from tests.app.helpers import expected_ranking, ok, opened, same_ranking, shown_ranking

ANSWERS = {"req-choosing": "accelerator", "req-task": "serve-llm", "req-where": "cloud"}


def _ask(at, answers: dict, numbers: dict | None = None):
    at = opened(at, "req-box")
    for key, value in answers.items():
        at.selectbox(key=key).set_value(value)
    for key, value in (numbers or {}).items():
        at.number_input(key=key).set_value(value)
    return ok(at.button(key="req-submit").click().run())


def test_a_requirement_picks_the_group_sets_its_limits_and_ranks(app, kb):
    at = ok(app.run())
    at = _ask(at, ANSWERS, {"req-model": 70.0, "req-mtok": 2.0, "req-mem": 141.0})
    req = Requirement(
        choosing="accelerator", task="serve-llm", where="cloud", model_b=70, usd_per_mtok=2, memory_gb=141
    )
    found = requirement.pick(kb, req)
    implied = requirement.implied(kb, req, found.chosen)
    expected = Preferences(
        group=found.chosen,
        constraints=implied.constraints,
        criterion_weights=implied.criterion_weights,
        requirement=req,
    )
    prefs = at.session_state["prefs"]
    assert prefs.group == "llm-inference-accelerators"
    assert prefs.constraints == expected.constraints and "memory-capacity>=141" in prefs.constraints
    assert prefs.criterion_weights == implied.criterion_weights
    assert prefs.requirement == req
    same_ranking(shown_ranking(at), expected_ranking(kb, expected))
    # the requirement in words is the box's title, and it travels in the link
    titles = [e.label for e in at.expander if "Your requirement" in e.label]
    assert titles and "70B" in titles[0] and "141 GB" in titles[0]
    linked = at.query_params["req"]
    assert Requirement.from_param(linked[0] if isinstance(linked, list) else linked) == req


def test_two_groups_that_fit_alike_are_offered_and_the_one_picked_is_ranked(app, kb):
    at = _ask(ok(app.run()), ANSWERS)
    offer = at.radio(key="req-offer")
    assert set(offer.options) == {
        kb.groups[g].name_en
        for g in requirement.pick(kb, Requirement(choosing="accelerator", task="serve-llm", where="cloud")).offered
    }
    offer.set_value("small-llm-inference-accelerators")
    at = ok(at.button(key="req-offer-go").click().run())
    assert at.session_state["prefs"].group == "small-llm-inference-accelerators"
    assert at.session_state["prefs"].requirement.task == "serve-llm"


def test_a_requirement_that_cannot_be_used_says_why_and_changes_nothing(app, kb):
    at = ok(app.run())
    before = at.session_state["prefs"]
    at = _ask(at, {"req-choosing": "accelerator", "req-where": "device", "req-task": "train"})
    assert at.session_state["prefs"] == before
    assert any("no group answers every part" in i.value for i in at.info)
