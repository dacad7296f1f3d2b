"""Recommend's "Help me weigh" box (app_pages/_weigh.py) through AppTest: each flow fills the sliders with what
selector.decision.elicitation computes, records the answers in the link, and the ranking follows."""

from __future__ import annotations

import pytest

from selector.decision import elicitation
from selector.decision.preferences import Preferences
from tests.app.helpers import DIMENSIONS, expected_ranking, ok, opened, same_ranking, shown_ranking

PAIRS = [
    ("performance", "cost"),
    ("performance", "ecosystem"),
    ("performance", "risk"),
    ("cost", "ecosystem"),
    ("cost", "risk"),
    ("ecosystem", "risk"),
]


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption).replace("\\", "")  # the Markdown escapes removed


def test_the_box_is_closed_and_a_plain_link_has_no_record(app):
    at = ok(app.run())
    assert not [s for s in at.slider if s.key and s.key.startswith("swing-")]
    assert "el" not in at.query_params
    assert "These weights come from" not in _captions(at)


def test_swing_weighting_fills_the_sliders_and_the_link(app, kb):
    at = opened(ok(app.run()), "weigh-box")
    # the questions start from the weights in force (40/25/20/15): performance first, the others in proportion
    assert at.selectbox(key="swing-first").value == "performance"
    assert at.slider(key="swing-cost").value == round(100 * 25 / 40)
    at.selectbox(key="swing-first").set_value("cost")
    ok(at.run())
    at.slider(key="swing-performance").set_value(80)
    at.slider(key="swing-ecosystem").set_value(40)
    at.slider(key="swing-risk").set_value(0)
    ok(at.run())
    ok(at.button(key="swing-apply").click().run())
    expected = elicitation.percentages({"performance": 80, "cost": 100, "ecosystem": 40, "risk": 0})
    assert [at.slider(key=f"w-{d}").value for d in DIMENSIONS] == [expected[d] for d in DIMENSIONS]
    assert at.query_params["el"] == "swing:performance=80,cost=100,ecosystem=40,risk=0"
    group = at.selectbox(key="group").value
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=group, dimension_weights=expected)))
    assert "These weights come from swing weighting: Performance: 80 (80 % of the first swing)" in _captions(at)


def test_swing_questions_show_the_groups_scales_and_evidence(app):
    at = opened(ok(app.run()), "weigh-box")
    text = "\n".join(m.value for m in at.markdown)
    # the first group (training frameworks): its criteria's 1-5 scales and the frameworks at each end
    assert "worst to best" in text
    assert "from 1 to 5" in text and "this group" in text


def test_pairwise_comparisons_fill_the_sliders_and_show_the_ratio(app, kb):
    at = opened(ok(app.run()), "weigh-box")
    at.radio(key="weigh-method").set_value("pairwise")
    ok(at.run())
    values = {"performance/cost": "3", "performance/ecosystem": "5", "performance/risk": "5"}
    values |= {"cost/ecosystem": "2", "cost/risk": "3", "ecosystem/risk": "1"}
    for a, b in PAIRS:
        at.select_slider(key=f"ahp-{a}-{b}").set_value(values[f"{a}/{b}"])
    ok(at.run())
    result = elicitation.pairwise(
        list(DIMENSIONS), [elicitation.parse_judgement(f"{k}={v}") for k, v in values.items()]
    )
    assert result.acceptable
    assert f"Consistency ratio {result.consistency_ratio:.3f}: acceptable" in _captions(at)
    ok(at.button(key="ahp-apply").click().run())
    expected = elicitation.percentages(result.weights)
    assert [at.slider(key=f"w-{d}").value for d in DIMENSIONS] == [expected[d] for d in DIMENSIONS]
    assert at.query_params["el"].startswith("pairwise:performance/cost=3,")
    # moving a slider by hand drops the record: the weights are no longer the elicited ones
    ok(at.slider(key="w-risk").set_value(30).run())
    assert "el" not in at.query_params
    assert "These weights come from" not in _captions(at)


def test_an_inconsistent_set_is_flagged_and_can_be_revised(app):
    at = opened(ok(app.run()), "weigh-box")
    at.radio(key="weigh-method").set_value("pairwise")
    ok(at.run())
    values = {"performance/cost": "3", "performance/ecosystem": "5", "performance/risk": "5"}
    values |= {"cost/ecosystem": "2", "cost/risk": "3", "ecosystem/risk": "1/5"}
    for a, b in PAIRS:
        at.select_slider(key=f"ahp-{a}-{b}").set_value(values[f"{a}/{b}"])
    ok(at.run())
    warning = "\n".join(w.value for w in at.warning).replace("\\", "")
    assert "above 0.10" in warning
    assert "The most inconsistent: Risk is strongly more important than Ecosystem (5)" in warning
    ok(at.button(key="ahp-revise").click().run())
    assert at.select_slider(key="ahp-ecosystem-risk").value == "1/2"
    assert not [w for w in at.warning if "above 0.10" in w.value]
    assert "acceptable" in _captions(at)


@pytest.mark.parametrize("el", ["swing:performance=100,cost=50,ecosystem=50,risk=0"])
def test_a_link_with_an_elicitation_opens_with_its_answers(app, el):
    weights = elicitation.percentages({"performance": 100, "cost": 50, "ecosystem": 50, "risk": 0})
    app.query_params["w"] = ",".join(f"{d}={weights[d]:g}" for d in DIMENSIONS)
    app.query_params["el"] = el
    at = ok(app.run())
    assert [at.slider(key=f"w-{d}").value for d in DIMENSIONS] == [weights[d] for d in DIMENSIONS]
    assert "These weights come from swing weighting" in _captions(at)
    at = opened(at, "weigh-box")
    assert at.selectbox(key="swing-first").value == "performance"
    assert at.slider(key="swing-cost").value == 50


def test_a_link_whose_weights_contradict_its_elicitation_is_refused(app):
    app.query_params["w"] = "performance=90"
    app.query_params["el"] = "swing:performance=100,cost=50,ecosystem=50,risk=0"
    at = ok(app.run())
    assert any("not those the recorded swing answers give" in e.value for e in at.error)
    assert [at.slider(key=f"w-{d}").value for d in DIMENSIONS] == [40, 25, 20, 15]


def test_a_hostile_elicitation_in_a_link_is_refused_and_shown_escaped(app):
    app.query_params["el"] = "pairwise:<img src=x onerror=alert(1)>/cost=3"
    at = ok(app.run())
    errors = [e.value for e in at.error]
    assert any("is not of the form A/B=V" in e.replace("\\", "") for e in errors)
    assert all("<img" not in e.replace("\\<", "") for e in errors)  # every < escaped for Markdown
    assert [at.slider(key=f"w-{d}").value for d in DIMENSIONS] == [40, 25, 20, 15]
