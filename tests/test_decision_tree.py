"""The decision trees: answers -> fired rules, shortlists and exclusions, checked against the rules' own data."""

from __future__ import annotations

import pytest

from selector import decision_tree, knowledge
from selector.preferences import PreferenceError


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_defaults_fill_every_question(kb):
    path = decision_tree.evaluate(kb, {})
    assert set(path.answers) == set(kb.questions)
    assert all(path.answers[q] == kb.questions[q].default for q in kb.questions)


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
    path = decision_tree.evaluate(kb, {"goal": goal, "dynamics": "static"})
    fired = {f.id for f in path.fired}
    assert f"tree000-{goal}" in fired
    assert path.shortlisted("training-frameworks") == expected
    rule = next(f for f in path.fired if f.id == f"tree000-{goal}")
    assert rule.claims == (f"c000-tree-{goal}",)
    assert all(c in kb.claims for c in rule.claims)


def test_candidates_outside_groups_are_kept(kb):
    path = decision_tree.evaluate(kb, {"goal": "scientific", "organisation": "cloud-provider"})
    assert "modular" in path.other_candidates
    assert "triton-server" in path.other_candidates


def test_edge_advice_follows_model_dynamics(kb):
    # The edge modules (Orin, Edge TPU) and the client NPUs (XDNA) are separate groups.
    for dynamics, group, chip in [
        ("static", "edge-accelerators", "edge-tpu"),
        ("dynamic", "client-npus", "amd-xdna"),
        ("complex", "edge-accelerators", "jetson-orin"),
    ]:
        path = decision_tree.evaluate(kb, {"target": "edge", "dynamics": dynamics})
        assert path.shortlisted(group) == (chip,)


def test_exclusion_removes_a_candidate_recommended_by_another_rule(kb):
    answers = {"target": "cloud", "dynamics": "static", "lock-in": "avoid"}
    path = decision_tree.evaluate(kb, answers)
    assert "tensorrt" in path.excluded
    assert "tensorrt" not in path.shortlisted("gpu-inference-runtimes")
    assert "onnxruntime" in path.shortlisted("gpu-inference-runtimes")
    tolerant = decision_tree.evaluate(kb, {**answers, "lock-in": "tolerate"})
    assert "tensorrt" in tolerant.shortlisted("gpu-inference-runtimes")


def test_every_fired_rule_matches_its_conditions(kb):
    answers = {"goal": "research", "target": "mobile", "dynamics": "complex", "organisation": "research-institute"}
    path = decision_tree.evaluate(kb, answers)
    for fired in path.fired:
        rule = kb.rules[fired.id]
        assert all(path.answers[q] in options for q, options in rule.when.items())
    silent = set(kb.rules) - {f.id for f in path.fired}
    for rule_id in silent:
        rule = kb.rules[rule_id]
        assert not all(path.answers.get(q) in options for q, options in rule.when.items())


@pytest.mark.parametrize(
    ("answers", "fragment"),
    [({"goal": "fun"}, "not an answer to `goal`"), ({"colour": "red"}, "unknown question(s) colour")],
)
def test_bad_answers_are_refused(kb, answers, fragment):
    with pytest.raises(PreferenceError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        decision_tree.evaluate(kb, answers)
