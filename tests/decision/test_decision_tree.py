"""The decision trees: answers -> fired rules, per-group shortlists and exclusions, checked against the rules' data."""

from __future__ import annotations

import itertools

import pytest

from selector.decision import decision_tree, matrix
from selector.decision.preferences import PreferenceError, Preferences
from selector.knowledge import loading as knowledge


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_unanswered_questions_stay_unanswered_and_fire_nothing(kb):
    path = decision_tree.evaluate(kb, {})
    assert path.answers == {}
    assert path.fired == ()
    assert path.unanswered == tuple(kb.questions)
    for group in kb.groups:
        assert path.advice(group) == decision_tree.NO_ADVICE


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("research", ("pytorch", "jax")),
        ("industrial", ("tensorflow",)),
        ("scientific", ("jax",)),
        ("domestic", ("mindspore",)),
    ],
)
def test_article_000_framework_tree(kb, goal, expected):
    path = decision_tree.evaluate(kb, {"goal": goal})
    fired = {f.id for f in path.fired}
    assert f"tree000-{goal}" in fired
    assert path.shortlisted("training-frameworks") == expected
    rule = next(f for f in path.fired if f.id == f"tree000-{goal}")
    assert rule.claims == (f"c000-tree-{goal}",)
    assert all(c in kb.claims for c in rule.claims)


def test_a_rule_speaks_only_for_its_groups(kb):
    # article 000's research branch is a framework choice: PyTorch is also a GPU runtime, but not shortlisted there
    path = decision_tree.evaluate(kb, {"goal": "research"})
    assert "pytorch" in path.shortlisted("training-frameworks")
    assert path.shortlisted("gpu-inference-runtimes") == ()
    rule = next(f for f in path.fired if f.id == "tree000-research")
    assert not rule.applies_to("gpu-inference-runtimes")
    assert rule in path.rules_elsewhere("gpu-inference-runtimes")
    assert rule not in path.rules_for("gpu-inference-runtimes")


def test_research_institute_gets_pytorch_to_train_and_tensorrt_to_serve(kb):
    path = decision_tree.evaluate(kb, {"organisation": "research-institute"})
    assert path.shortlisted("training-frameworks") == ("pytorch",)
    assert path.shortlisted("gpu-inference-runtimes") == ("tensorrt",)


def test_domestic_shortlists_ascend_and_excludes_nvidia_only_parts(kb):
    path = decision_tree.evaluate(kb, {"goal": "domestic"})
    assert path.shortlisted("datacenter-accelerators") == ("ascend-910b",)
    assert {"h200", "a100"} <= set(path.excluded_from("datacenter-accelerators"))
    assert "tensorrt" in path.excluded_from("gpu-inference-runtimes")
    nvidia = {e for g in kb.groups.values() for e in g.members if kb.entities[e].vendor == "nvidia"}
    for group in kb.groups:
        assert not nvidia & set(path.shortlisted(group))


def test_the_domestic_rule_selects_by_facts_in_every_group(kb):
    """One rule, every group: the members whose vendor is based in China are shortlisted, those a buyer in China
    needs a US licence for are excluded, computed here from the facts independently of the rule's code."""
    path = decision_tree.evaluate(kb, {"goal": "domestic"})

    def jurisdiction(e):
        vendor = kb.entities[e].vendor
        return kb.entities[vendor].jurisdiction if vendor else None

    for group in kb.groups.values():
        chinese = {m for m in group.members if jurisdiction(m) == "CN"}
        licensed = {
            m
            for m in group.members
            if (kb.entities[m].export_control or None) and kb.entities[m].export_control.status == "license-required-cn"
        }
        assert licensed <= set(path.excluded_from(group.id)), group.id
        if chinese and group.id != "training-frameworks":
            assert set(path.shortlisted(group.id)) == chinese, group.id
    assert set(path.shortlisted("llm-serving-single-accelerator")) == {"ascend-910b2", "ascend-910", "mtt-s4000"}


def test_a_rule_naming_ids_absent_from_a_group_says_so(kb):
    path = decision_tree.evaluate(kb, {"goal": "industrial"})
    notes = path.group_advice("gpu-inference-runtimes").notes
    assert any("tree000-industrial names TensorFlow, which is not a member of this group" in n for n in notes)


def test_answering_mobile_removes_laptop_npus(kb):
    """Since issue 32's split the client NPUs are laptop parts: on phones the rule removes every one of them, and
    the ranking refuses with the rule's reason (a phone's NPU is not a ranked choice; the phone Hexagon is listed)."""
    path = decision_tree.evaluate(kb, {"target": "mobile"})
    out = set(path.excluded_from("client-npus"))
    assert out == {m for m in kb.groups["client-npus"].members if kb.entities[m].form_factor != "phone"}
    assert out == set(kb.groups["client-npus"].members) and "amd-xdna" in out
    assert "qualcomm-hexagon" not in kb.groups["client-npus"].members
    # the phone answer no longer points at the laptop group
    (target,) = [q for q in kb.questions.values() if q.id == "target"]
    assert "client-npus" not in next(o for o in target.options if o.id == "mobile").groups
    with pytest.raises(PreferenceError, match="form-factor-mobile"):
        matrix.build(kb, Preferences(group="client-npus", answers={"target": "mobile"}))
    vendor = decision_tree.evaluate(kb, {"organisation": "edge-vendor"})
    assert vendor.shortlisted("client-npus") == ("amd-xdna",)  # article 004's advice; Hexagon is not a member
    assert any(
        "names Qualcomm Hexagon processor, which is not a member" in n for n in vendor.group_advice("client-npus").notes
    )


def test_conflicting_answers_are_stated_not_united(kb):
    path = decision_tree.evaluate(kb, {"goal": "domestic", "lock-in": "avoid"})
    advice = path.group_advice("datacenter-accelerators")
    assert advice.shortlist == ()
    assert "domestic-hardware" in advice.conflict and "constraint-avoid-lock-in-datacenter" in advice.conflict
    assert "Huawei Ascend 910B" in advice.conflict and "AMD Instinct MI300X" in advice.conflict
    assert path.advice("datacenter-accelerators") == advice.conflict


def test_cloud_provider_shortlists_triton_inside_a_ranked_group(kb):
    # Triton is a model server: since issue 32 it ranks in model-servers, not among the GPU inference engines
    path = decision_tree.evaluate(kb, {"organisation": "cloud-provider"})
    assert path.shortlisted("model-servers") == ("triton-server",)
    assert path.shortlisted("gpu-inference-runtimes") == ()
    assert "triton-server" not in path.other_candidates


def test_candidates_outside_groups_are_kept(kb):
    path = decision_tree.evaluate(kb, {"goal": "scientific"})
    assert "modular" in path.other_candidates


def test_edge_advice_follows_the_edge_workload_on_edge_devices_only(kb):
    for workload, chip in [("static", "edge-tpu"), ("adjusting", "amd-xdna"), ("complex", "jetson-orin")]:
        path = decision_tree.evaluate(kb, {"target": "edge", "edge-workload": workload})
        shortlisted = {e for members in path.shortlist.values() for e in members}
        assert shortlisted == {chip}
        phones = decision_tree.evaluate(kb, {"target": "mobile", "edge-workload": workload})
        assert not any(chip in members for members in phones.shortlist.values())


def test_mobile_runtimes_follow_the_processor_on_phones(kb):
    assert decision_tree.evaluate(kb, {"target": "mobile", "mobile-processor": "cpu"}).shortlisted(
        "mobile-runtimes"
    ) == ("tflite",)


def test_a_deprecated_product_is_never_shortlisted_and_its_successor_is_named(kb):
    # article 000 prefers PyTorch Mobile for phone GPUs; PyTorch Mobile is deprecated (successor ExecuTorch)
    assert kb.entities["pytorch-mobile"].lifecycle == "deprecated"
    path = decision_tree.evaluate(kb, {"target": "mobile", "mobile-processor": "gpu"})
    assert path.shortlisted("mobile-runtimes") == ()
    assert path.advice("mobile-runtimes") == decision_tree.NO_ADVICE
    (note,) = path.group_advice("mobile-runtimes").notes
    assert "mobile000-gpu" in note and "PyTorch Mobile" in note and "ExecuTorch" in note and "2024-10" in note


def test_a_rule_resting_only_on_flagged_claims_does_not_act_when_they_are_left_out(kb):
    answers = {"goal": "domestic"}
    rule = kb.rules["tree000-domestic"]
    assert all(kb.claims[c].flags for c in rule.claims)  # the claim names OpenBLAS as a framework
    used = decision_tree.evaluate(kb, answers)
    assert used.shortlisted("training-frameworks") == ("mindspore",)
    left_out = decision_tree.evaluate(kb, answers, use_flagged=False)
    effect = next(e for e in left_out.group_advice("training-frameworks").effects if e.rule == "tree000-domestic")
    assert not effect.acts and effect.recommend == ()
    assert any("tree000-domestic does not act" in n and "flagged" in n for n in effect.notes)
    # the other rule, resting on unflagged claims, still shortlists MindSpore by its vendor's jurisdiction
    assert left_out.shortlisted("training-frameworks") == ("mindspore",)


def test_exclusion_removes_a_candidate_recommended_by_another_rule(kb):
    answers = {"target": "cloud", "graphs": "static", "lock-in": "avoid"}
    path = decision_tree.evaluate(kb, answers)
    assert "tensorrt" in path.excluded_from("gpu-inference-runtimes")
    assert "tensorrt" not in path.shortlisted("gpu-inference-runtimes")
    # static graphs shortlist TensorRT, avoiding lock-in ONNX Runtime: narrowing leaves nothing, and says why
    conflict = path.group_advice("gpu-inference-runtimes").conflict
    assert path.shortlisted("gpu-inference-runtimes") == ()
    assert "runtime004-static" in conflict and "constraint-avoid-lock-in" in conflict and "ONNX Runtime" in conflict
    tolerant = decision_tree.evaluate(kb, {**answers, "lock-in": "tolerate"})
    assert "tensorrt" in tolerant.shortlisted("gpu-inference-runtimes")


def test_avoiding_lock_in_acts_on_chips(kb):
    path = decision_tree.evaluate(kb, {"lock-in": "avoid"})
    assert path.shortlisted("datacenter-accelerators")
    assert "jetson-orin" in path.excluded_from("edge-accelerators")
    assert decision_tree.evaluate(kb, {"lock-in": "tolerate"}).shortlist == {}


def test_every_fired_rule_matches_its_conditions(kb):
    answers = {"goal": "research", "target": "mobile", "mobile-processor": "gpu", "organisation": "research-institute"}
    path = decision_tree.evaluate(kb, answers)
    for fired in path.fired:
        rule = kb.rules[fired.id]
        assert all(path.answers[q] in options for q, options in rule.when.items())
    silent = set(kb.rules) - {f.id for f in path.fired}
    for rule_id in silent:
        rule = kb.rules[rule_id]
        assert not all(path.answers.get(q) in options for q, options in rule.when.items())


def test_sharpening_questions_are_those_a_rule_for_the_group_still_needs(kb):
    assert decision_tree.sharpening_questions(kb, {}, "edge-accelerators")[:2] == ("goal", "target")
    assert "edge-workload" in decision_tree.sharpening_questions(kb, {"target": "edge"}, "edge-accelerators")
    # on phones the edge chip advice cannot fire, so its question does not sharpen anything
    assert "edge-workload" not in decision_tree.sharpening_questions(kb, {"target": "mobile"}, "edge-accelerators")
    assert "mobile-processor" not in decision_tree.sharpening_questions(kb, {}, "datacenter-accelerators")


def test_group_order_puts_the_groups_the_answers_point_at_first(kb):
    order = decision_tree.group_order(kb, {"target": "edge", "edge-workload": "static", "lock-in": "avoid"})
    assert order[0].id == "edge-accelerators"
    assert order[0].reasons
    assert "training-frameworks" not in [c.id for c in order if c.pointed_at]
    assert [c.id for c in decision_tree.group_order(kb, {})] == list(kb.groups)
    cloud = decision_tree.group_order(kb, {"target": "cloud"})
    pointed = {"datacenter-accelerators", "gpu-inference-runtimes", "llm-serving-engines", "model-servers"}
    assert {c.id for c in cloud[:4]} == pointed


@pytest.mark.slow
@pytest.mark.parametrize("use_flagged", [True, False])
def test_every_answer_combination_narrows_and_states_conflicts(kb, use_flagged):
    """Every combination of answers (each question answered or not) x every group:

    - a shortlist holds the group's own members, each recommended by every rule that recommends in the group and
      excluded by none, or the advice says there is none, names the exclusions, or states the conflict;
    - answering one more question keeps or narrows the advised members (the shortlist, or every member not
      excluded when no rule recommends one): checked against each combination with one answer fewer;
    - an empty advice where rules recommend is a conflict naming each of those rules.
    """
    questions = list(kb.questions)
    choices = [[None, *(o.id for o in kb.questions[q].options)] for q in questions]
    advised: dict[tuple, dict[str, frozenset]] = {}
    for combo in itertools.product(*choices):
        answers = {q: a for q, a in zip(questions, combo, strict=True) if a is not None}
        path = decision_tree.evaluate(kb, answers, use_flagged)
        advised[combo] = {}
        for group in kb.groups.values():
            advice = path.group_advice(group.id)
            shortlist = path.shortlisted(group.id)
            recommending = [e for e in advice.effects if e.acts and e.recommend]
            if shortlist:
                assert set(shortlist) <= set(group.members)
                assert not set(shortlist) & set(path.excluded_from(group.id))
                assert all(m in e.recommend for e in recommending for m in shortlist)
            elif recommending:
                assert all(f"rule {e.rule}" in advice.conflict for e in recommending)
                assert path.advice(group.id) == advice.conflict
            elif path.excluded_from(group.id):
                assert path.advice(group.id).startswith("the rules exclude")
            else:
                assert path.advice(group.id) == decision_tree.NO_ADVICE
            advised[combo][group.id] = frozenset(advice.candidates(group.members))
    for combo, groups in advised.items():
        for i, answer in enumerate(combo):
            if answer is None:
                continue
            fewer = (*combo[:i], None, *combo[i + 1 :])
            for group, members in groups.items():
                assert members <= advised[fewer][group], (combo, group, members, advised[fewer][group])
    assert len(advised) == len(list(itertools.product(*choices)))


def test_phones_never_shortlist_edge_modules(kb):
    questions = [q for q in kb.questions if q != "target"]
    choices = [[None, *(o.id for o in kb.questions[q].options)] for q in questions]
    for combo in itertools.product(*choices):
        answers = {q: a for q, a in zip(questions, combo, strict=True) if a is not None}
        path = decision_tree.evaluate(kb, {**answers, "target": "mobile"})
        assert not {"jetson-orin", "edge-tpu"} & set(path.shortlisted("edge-accelerators"))


@pytest.mark.parametrize(
    ("answers", "fragment"),
    [({"goal": "fun"}, "not an answer to `goal`"), ({"colour": "red"}, "unknown question(s) colour")],
)
def test_bad_answers_are_refused(kb, answers, fragment):
    with pytest.raises(PreferenceError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        decision_tree.evaluate(kb, answers)


def test_the_groups_a_rule_speaks_for_are_kept_per_knowledge_and_a_foreign_rule_is_read_as_given(kb):
    # kept: the same tuple on a second ask, equal to reading the rule afresh
    for rule in kb.rules.values():
        first = decision_tree.rule_groups(kb, rule)
        assert decision_tree.rule_groups(kb, rule) is first
        assert first == decision_tree._rule_groups(kb, rule)
    # a rule with a knowledge rule's id but other groups (not the knowledge's own object) is not answered from it
    rule = next(iter(kb.rules.values()))
    other = next(g for g in kb.groups if g not in decision_tree.rule_groups(kb, rule))
    foreign = rule.model_copy(update={"groups": (other,)})
    assert decision_tree.rule_groups(kb, foreign) == (other,)
