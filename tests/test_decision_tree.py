"""The decision trees: answers -> fired rules, per-group shortlists and exclusions, checked against the rules' data."""

from __future__ import annotations

import itertools

import pytest

from selector import decision_tree, knowledge
from selector.preferences import PreferenceError


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


def test_cloud_provider_shortlists_triton_inside_a_ranked_group(kb):
    path = decision_tree.evaluate(kb, {"organisation": "cloud-provider"})
    assert path.shortlisted("gpu-inference-runtimes") == ("triton-server",)
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
    assert decision_tree.evaluate(kb, {"target": "mobile", "mobile-processor": "gpu"}).shortlisted(
        "mobile-runtimes"
    ) == ("pytorch-mobile",)


def test_exclusion_removes_a_candidate_recommended_by_another_rule(kb):
    answers = {"target": "cloud", "graphs": "static", "lock-in": "avoid"}
    path = decision_tree.evaluate(kb, answers)
    assert "tensorrt" in path.excluded_from("gpu-inference-runtimes")
    assert "tensorrt" not in path.shortlisted("gpu-inference-runtimes")
    assert "onnxruntime" in path.shortlisted("gpu-inference-runtimes")
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
    assert {c.id for c in cloud[:2]} == {"datacenter-accelerators", "gpu-inference-runtimes"}


@pytest.mark.slow
def test_every_answer_combination_gives_advice_or_says_there_is_none(kb):
    """Every combination of answers (each question answered or not) x every group: a shortlist of that group's own
    members, never a member another rule excludes there, or the explicit no-advice statement."""
    choices = [[None, *(o.id for o in q.options)] for q in kb.questions.values()]
    checked = 0
    for combo in itertools.product(*choices):
        answers = {q: a for q, a in zip(kb.questions, combo, strict=True) if a is not None}
        path = decision_tree.evaluate(kb, answers)
        for group in kb.groups.values():
            shortlist = path.shortlisted(group.id)
            advice = path.advice(group.id)
            if shortlist:
                assert set(shortlist) <= set(group.members)
                assert not set(shortlist) & set(path.excluded_from(group.id))
                assert all(any(e in f.recommend for f in path.rules_for(group.id)) for e in shortlist)
                assert advice != decision_tree.NO_ADVICE
            else:
                assert advice == decision_tree.NO_ADVICE
            checked += 1
    assert checked == len(list(itertools.product(*choices))) * len(kb.groups)


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
