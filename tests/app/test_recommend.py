"""The Recommend page through AppTest: the ranking is what selector.decision.recommend computes, the widgets follow the
link, the weights' fragment reruns alone, the robustness badge is the verdict's."""

from __future__ import annotations

import json

import numpy as np
import pytest

from selector import verdict
from selector.decision import recommend
from selector.decision.preferences import Preferences, from_query, to_query
from selector.robustness import analysis
from tests.app import fragment_rerun
from tests.app.helpers import (
    DIMENSIONS,
    expected_ranking,
    ok,
    opened,
    pref_params,
    same_ranking,
    shown_badges,
    shown_ranking,
)
from tests.hot_path import ONCE, counted_calls


def test_default_ranking_is_the_pure_recommendation(app, kb):
    at = ok(app.run())
    default = Preferences(group=next(iter(kb.groups)))
    same_ranking(shown_ranking(at), expected_ranking(kb, default))
    assert at.slider(key="w-performance").value == 40
    assert [at.slider(key=f"w-{d}").value for d in DIMENSIONS] == [40, 25, 20, 15]
    assert not pref_params(at)


def test_moving_a_weight_slider_reranks_exactly_as_recommend_does(app, kb):
    at = ok(app.run())
    before = shown_ranking(at)
    group = at.selectbox(key="group").value
    ok(at.slider(key="w-performance").set_value(90).run())
    after = shown_ranking(at)
    same_ranking(after, expected_ranking(kb, Preferences(group=group, dimension_weights={"performance": 90})))
    assert after != before
    assert at.query_params["w"] == "performance=90"


def test_a_weight_slider_reruns_only_its_fragment_and_ranks_as_recommend_does(app, kb):
    """What the browser triggers: a dimension slider sits in a fragment, so its move reruns the fragment alone.

    The fragment must read the new weights itself (the page around it is not rerun), redraw the ranking exactly
    as ``recommend()`` computes it, and put the weights in the URL; the decision path is not redrawn.
    """
    at = ok(app.run())
    group = at.selectbox(key="group").value
    with fragment_rerun.fragment_reruns(at, at.slider(key="w-cost")):
        # the chart waits until asked for (it would load plotly's script with the first screen)
        assert not at.get("plotly_chart")
        ok(at.toggle(key="show-contribution-chart").set_value(True).run())
        assert len(at.get("plotly_chart")) == 1
        ok(at.slider(key="w-cost").set_value(70).run())
        same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=group, dimension_weights={"cost": 70})))
        assert not at.radio, "the scenario questions are outside the fragment and are not rerun"
        ok(at.slider(key="w-performance").set_value(5).run())
        weights = {"cost": 70, "performance": 5}
        same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=group, dimension_weights=weights)))
        # the chart kept by the session was restacked: bars in the new rank order, each adding up to the score
        rec = recommend.recommend(kb, Preferences(group=group, dimension_weights=weights))
        (chart,) = at.get("plotly_chart")
        traces = json.loads(chart.proto.spec)["data"]
        assert all(t["y"] == [r.name for r in rec.ranking] for t in traces)
        totals = np.sum([t["x"] for t in traces], axis=0)
        np.testing.assert_allclose(totals, [r.score for r in rec.ranking], rtol=1e-12)
    assert dict(pair.split("=") for pair in at.query_params["w"].split(",")) == {"cost": "70", "performance": "5"}
    # the next full run (any other control) keeps the weights the fragment set
    ok(at.run())
    assert [at.slider(key=f"w-{d}").value for d in DIMENSIONS] == [5, 70, 20, 15]
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=group, dimension_weights=weights)))


def test_sub_criterion_weight_and_method_follow_the_pure_call(app, kb):
    at = ok(app.run())
    group = kb.groups[at.selectbox(key="group").value]
    criterion = group.criteria[0].criterion
    ok(opened(at, "cw-box").slider(key=f"cw-{criterion}").set_value(4.5).run())
    ok(at.selectbox(key="method").set_value("topsis").run())
    prefs = Preferences(group=group.id, criterion_weights={criterion: 4.5}, method="topsis")
    same_ranking(shown_ranking(at), expected_ranking(kb, prefs))
    assert at.query_params["method"] == "topsis"
    assert at.query_params["cw"] == f"{criterion}=4.5"


def test_link_parameters_set_the_widgets_and_the_ranking(app, kb):
    query = {"group": "gpu-inference-runtimes", "w": "cost=60", "method": "topsis", "answers": "target=edge"}
    for key, value in query.items():
        app.query_params[key] = value
    at = ok(app.run())
    assert at.selectbox(key="group").value == "gpu-inference-runtimes"
    assert at.slider(key="w-cost").value == 60
    assert at.selectbox(key="method").value == "topsis"
    assert at.radio(key="q-target").value == "edge"
    same_ranking(shown_ranking(at), expected_ranking(kb, from_query(query, "training-frameworks")))
    # changing a widget keeps the rest of the link and adds the change
    ok(at.radio(key="q-goal").set_value("industrial").run())
    assert at.query_params["answers"] == "goal=industrial,target=edge"
    assert at.query_params["w"] == "cost=60" and at.query_params["group"] == "gpu-inference-runtimes"


def test_a_malformed_link_says_why_and_shows_the_defaults(app, kb):
    app.query_params["w"] = "performance=lots"
    at = ok(app.run())
    assert any("not a number" in e.value for e in at.error)
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=next(iter(kb.groups)))))
    assert at.slider(key="w-performance").value == 40


def test_an_unknown_group_in_the_link_is_reported(app):
    app.query_params["group"] = "quantum-abacus"
    at = ok(app.run())
    assert any("quantum-abacus" in e.value.replace("\\", "") for e in at.error)


def test_markup_in_a_link_is_shown_as_text_not_rendered(app):
    app.query_params["group"] = "[click me](http://evil.example)"
    at = ok(app.run())
    messages = [e.value for e in at.error]
    assert messages and not any("[click me](" in m for m in messages)
    assert any("\\[click me\\]\\(http" in m for m in messages)


def test_reset_restores_the_defaults(app, kb):
    at = ok(app.run())
    at.slider(key="w-risk").set_value(70).run()
    at.radio(key="q-goal").set_value("domestic").run()
    at.toggle(key="use-flagged").set_value(False).run()
    assert pref_params(at) and at.query_params.get("flagged") == "exclude"
    ok(at.button(key="reset").click().run())
    assert not pref_params(at) and "flagged" not in at.query_params
    assert at.slider(key="w-risk").value == 15
    assert at.radio(key="q-goal").value is None  # unanswered: no default that looks like advice
    assert at.toggle(key="use-flagged").value is True
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=next(iter(kb.groups)))))


def test_all_weights_zero_is_refused_and_the_ranking_kept(app):
    at = ok(app.run())
    for dim in DIMENSIONS[:-1]:
        at.slider(key=f"w-{dim}").set_value(0).run()
    kept = shown_ranking(at)
    ok(at.slider(key="w-risk").set_value(0).run())
    assert any("zero" in e.value for e in at.error)
    assert at.slider(key="w-risk").value == 15
    assert shown_ranking(at) == kept


def test_answer_fires_its_rule_and_shows_its_quote(app, kb):
    at = ok(app.run())
    ok(at.radio(key="q-goal").set_value("industrial").run())
    shown = " ".join(m.value for m in at.markdown)
    rule = kb.rules["tree000-industrial"]
    assert rule.rationale_en in shown.replace("\\", "")
    quote = kb.claims[rule.claims[0]].quote
    assert quote in shown.replace("\\", "")


def test_changing_group_resets_its_sub_weights(app, kb):
    at = ok(app.run())
    first = kb.groups[at.selectbox(key="group").value]
    opened(at, "cw-box").slider(key=f"cw-{first.criteria[0].criterion}").set_value(3.0).run()
    ok(at.selectbox(key="group").set_value("edge-accelerators").run())
    assert "cw" not in at.query_params
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group="edge-accelerators")))


@pytest.mark.parametrize(
    "query",
    [{}, {"group": "edge-accelerators", "w": "cost=70"}, {"group": "datacenter-accelerators", "method": "topsis"}],
)
def test_robustness_badge_is_the_verdicts_local_and_whole_simplex_shares(app, kb, query):
    for key, value in query.items():
        app.query_params[key] = value
    at = ok(app.run())
    prefs = from_query(query, next(iter(kb.groups)))
    rec = recommend.recommend(kb, prefs)
    local, whole = verdict.shares(rec)
    # the whole-simplex share is the Robustness page's SMAA with the badge's sample count and seed
    expected = analysis.analyse(rec, samples=verdict.SAMPLES, seed=verdict.SEED)
    assert whole == expected.leader_share
    badges = shown_badges(at)
    assert len(badges) == 1
    assert f"first in {local:.0%} of 2,000 weightings within ±10 points of yours" in badges[0].value
    assert f"{whole:.0%} anywhere on the weight simplex" in badges[0].value
    help_text = badges[0].proto.help
    for part in ("2,000 weightings", "the four dimension weights", "whole weight simplex", "seed 0"):
        assert part in help_text


def test_robustness_badge_moves_with_the_weights(app, kb):
    def local(group: str, cost: int) -> float:
        return verdict.local_share(recommend.recommend(kb, Preferences(group=group, dimension_weights={"cost": cost})))

    group = next((g for g in kb.groups if local(g, 25) != local(g, 60)), None)
    assert group, "some group's leader is more robust at one of the two cost weights"
    app.query_params["group"] = group
    at = ok(app.run())
    shown = []
    for cost in (25, 60):
        ok(at.slider(key="w-cost").set_value(cost).run())
        rec = recommend.recommend(kb, Preferences(group=group, dimension_weights={"cost": cost}))
        local, whole = verdict.shares(rec)
        badge = shown_badges(at)[0].value
        assert f"first in {local:.0%} of 2,000 weightings within ±10 points of yours" in badge
        assert f"{whole:.0%} anywhere on the weight simplex" in badge
        shown.append(local)
    assert shown[0] != shown[1], "the share around your weights follows the weights"


def test_a_dimension_emptied_by_zero_sub_weights_is_said_under_the_ranking(app, kb):
    at = ok(app.run())
    group = kb.groups[at.selectbox(key="group").value]
    risk = [gc.criterion for gc in group.criteria if kb.criteria[gc.criterion].dimension == "risk"]
    assert risk, "the default group has risk criteria"
    opened(at, "cw-box")
    for criterion in risk:
        ok(at.slider(key=f"cw-{criterion}").set_value(0.0).run())
    notes = " ".join(x.value for x in [*at.caption, *at.markdown])
    assert "the Risk dimension has no criterion in this group" in notes.replace("\\", "")
    assert not [e for e in at.expander if "exclusions" in e.label and not e.children], "no empty expander"
    weights = {c: 0.0 for c in risk}
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=group.id, criterion_weights=weights)))


def test_controls_in_closed_boxes_are_not_drawn_and_keep_the_values_in_force(app, kb):
    """The sub-criterion sliders and the must-haves are drawn only while their box is open; a change made while
    they are closed keeps the sub-weights and constraints in force (a control that is not drawn has no state)."""
    group = kb.groups["edge-accelerators"]
    criterion = group.criteria[0].criterion
    excluded = group.members[0]
    query = {"group": group.id, "cw": f"{criterion}=4.5", "x": excluded, "unknown": "keep"}
    for key, value in query.items():
        app.query_params[key] = value
    at = ok(app.run())
    assert not [s for s in at.slider if str(s.key).startswith("cw-")], "closed: no sub-criterion slider"
    assert at.multiselect(key="must-exclude").value == [excluded], "a constraint in force opens its box"
    at.session_state["must-box"] = False
    ok(at.run())
    assert not [m for m in at.multiselect if str(m.key).startswith("must-")]
    ok(at.selectbox(key="method").set_value("topsis").run())
    prefs = Preferences(
        group=group.id, criterion_weights={criterion: 4.5}, method="topsis", exclude=[excluded], keep_unknown=True
    )
    assert dict(at.query_params.items()) == {**query, "method": "topsis"} == to_query(prefs)
    same_ranking(shown_ranking(at), expected_ranking(kb, prefs))
    assert opened(at, "cw-box").slider(key=f"cw-{criterion}").value == 4.5


def test_the_ranking_comes_first_and_a_ranking_that_cannot_be_computed_leaves_the_scenario_open(app, kb):
    at = ok(app.run())
    headings = [h.value for h in at.subheader]
    assert headings.index("What matters to you") < headings.index("Your scenario")
    assert headings.index("Your scenario") < headings.index("Evidence behind every number")
    group = kb.groups[at.selectbox(key="group").value]
    ok(opened(at, "must-box").multiselect(key="must-exclude").set_value(list(group.members)).run())
    assert any("cannot be ranked" in e.value for e in at.error)
    assert len(at.radio) == len(kb.questions), "the scenario questions stay open"
    assert "Evidence behind every number" not in [h.value for h in at.subheader]


def _page(app, prefs: Preferences):
    for key, value in to_query(prefs).items():
        app.query_params[key] = value
    return ok(app.run())


def _texts(at) -> str:
    return "\n".join(x.value for kind in ("markdown", "caption", "warning") for x in at.get(kind))


def test_the_page_states_the_rules_conflict_and_their_exclusions(app, kb):
    prefs = Preferences(
        group="gpu-inference-runtimes", answers={"target": "cloud", "graphs": "static", "lock-in": "avoid"}
    )
    at = _page(app, prefs)
    text = _texts(at).replace("\\", "")
    assert "Your answers' advice conflicts: rule runtime004-static shortlists TensorRT" in text
    assert "constraint-avoid-lock-in shortlists ONNX Runtime" in text
    shown = [n for n, _ in shown_ranking(at)]
    assert "TensorRT" not in shown and "TensorRT-LLM" not in shown  # excluded by the rule, not merely ranked low


def test_the_page_names_the_successor_of_a_deprecated_product_and_the_recommended_option_s_badge(app, kb):
    prefs = Preferences(group="mobile-runtimes", answers={"target": "mobile", "mobile-processor": "gpu"})
    at = _page(app, prefs)
    text = _texts(at).replace("\\", "")
    assert "PyTorch Mobile, deprecated since 2024-10; its successor is ExecuTorch" in text
    rec = recommend.recommend(kb, prefs)
    # since issue 32 the group ranks the current Android runtimes on public upkeep: the leader is whoever leads it
    assert rec.recommended != "pytorch-mobile"
    (badge,) = shown_badges(at)
    assert f"{kb.entity_name(rec.recommended)}: first in" in badge.value.replace("\\", "")


# ----------------------------------------------------------------------------------------------------------
# Issue 34: what each slider ranks, Reset, the evidence picker, the method switch


def test_each_dimension_slider_says_what_it_ranks_in_this_group(app, kb):
    from selector.decision import basis, matrix
    from selector.escape import streamlit_md as md

    app.query_params["group"] = "llm-inference-accelerators"
    at = ok(app.run())
    expected = basis.dimension_basis(kb, matrix.build(kb, Preferences(group="llm-inference-accelerators")))
    captions = [c.value for c in at.caption]
    for dim in expected:
        assert md(dim.equals) in captions, dim.equals
    cost = next(d for d in expected if d.dimension == "cost")
    # the 70B group's cost ranks the energy per million tokens, not TDP (at sub-weight 0 it is not ranked)
    assert [n for n, _ in cost.criteria] == [kb.criteria["kwh-per-million-tokens-llama2-70b"].name_en]


def test_reset_is_undone_with_every_setting_it_replaced(app, kb):
    for key, value in {
        "group": "edge-accelerators",
        "answers": "target=edge",
        "w": "cost=60",
        "must": "power-w<=10",
        "method": "topsis",
    }.items():
        app.query_params[key] = value
    at = ok(app.run())
    before = at.session_state["prefs"]
    at = ok(at.button(key="reset").click().run())
    assert at.session_state["prefs"] == Preferences(group=next(iter(kb.groups)))
    at = ok(at.button(key="undo-reset-button").click().run())
    assert at.session_state["prefs"] == before
    assert at.selectbox(key="group").value == "edge-accelerators"
    assert at.radio(key="q-target").value == "edge"
    assert at.slider(key="w-cost").value == 60
    assert "undo-reset-button" not in [b.key for b in at.button]


def test_after_a_group_switch_the_evidence_picker_shows_a_cell_of_the_new_group(app, kb):
    from selector.decision import matrix
    from selector.views.recommend import cell_choices

    at = ok(app.run())
    first = at.session_state["prefs"].group
    picker = next(s for s in at.selectbox if str(s.key).startswith("cell"))
    picker.set_value(picker.options[-1]).run()
    at = ok(at.selectbox(key="group").set_value("edge-accelerators").run())
    new_cells = cell_choices(kb, matrix.build(kb, Preferences(group="edge-accelerators")))
    old_cells = cell_choices(kb, matrix.build(kb, Preferences(group=first)))
    [shown] = [s for s in at.selectbox if str(s.key).startswith("cell")]
    assert shown.value in new_cells and shown.value not in old_cells


def test_switching_topsis_to_weighted_sum_with_the_sub_criteria_open_ranks_without_error(app, kb):
    at = opened(ok(app.run()), "cw-box")
    at = ok(at.selectbox(key="method").set_value("topsis").run())
    at = ok(at.selectbox(key="scaler").set_value("minmax").run())
    at = ok(at.selectbox(key="method").set_value("wsm").run())
    assert not at.error, [e.value for e in at.error]
    assert at.session_state["prefs"].method == "wsm" and at.session_state["prefs"].scaler is None


def test_a_weight_slider_move_checks_resolves_and_normalises_once(app):
    """The browser's hot path: the slider's callback checks the new preferences, and the fragment it reruns ranks
    them, judges the ranking and draws the sliders from the same check (tests/hot_path.py)."""
    at = ok(app.run())
    with fragment_rerun.fragment_reruns(at, at.slider(key="w-risk")), counted_calls() as calls:
        ok(at.slider(key="w-risk").set_value(33).run())
    assert dict(calls) == ONCE
    assert at.query_params["w"] == "risk=33"


def test_a_whole_page_run_after_a_move_reads_the_link_it_wrote_without_checking_again(app, kb):
    """A run of the whole page (AppTest reruns it all) reads the preferences back from the link the callback wrote:
    equal to those in force, so the page's layout, the ranking and the sliders use the callback's check."""
    at = ok(app.run())
    with counted_calls() as calls:
        ok(at.slider(key="w-cost").set_value(44).run())
    assert dict(calls) == ONCE
    group = at.selectbox(key="group").value
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=group, dimension_weights={"cost": 44})))
