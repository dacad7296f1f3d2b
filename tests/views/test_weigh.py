"""The weighing flows' questions (selector/views/weigh.py): swings on the group's scales and evidence, the pairs to
compare, Saaty's scale in words and the answers the questions start from."""

from __future__ import annotations

from fractions import Fraction

import pytest

from selector.decision import elicitation, matrix
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.views import weigh


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_swings_run_from_the_worst_to_the_best_end_of_each_scale(kb):
    m = matrix.build(kb, Preferences(group="datacenter-accelerators"))
    questions = {q.id: q for q in weigh.swing_questions(kb, m)}
    assert list(questions) == list(kb.dimensions)
    ranked = [c for k, c in enumerate(m.criteria) if m.sub_weights[k] > 0]
    assert sum(len(q.criteria) for q in questions.values()) == len(ranked)
    for k, criterion_id in enumerate(m.criteria):
        if m.sub_weights[k] <= 0:
            continue
        criterion = kb.criteria[criterion_id]
        swing = next(s for s in questions[criterion.dimension].criteria if s.name == criterion.name_en)
        low, high = criterion.scale
        assert (swing.worst, swing.best) == ((high, low) if criterion.objective == "min" else (low, high))
        evidence = {m.alternatives[i]: row[k].value for i, row in enumerate(m.cells) if not row[k].imputed}
        better = max if criterion.objective == "max" else min
        worse = min if criterion.objective == "max" else max
        assert swing.evidence_best[0] == better(evidence.values())
        assert swing.evidence_worst[0] == worse(evidence.values())
        assert swing.evidence_best[1] in {kb.entity_name(a) for a, v in evidence.items() if v == swing.evidence_best[0]}


def test_a_swing_sentence_names_the_scale_and_the_evidence():
    swing = weigh.CriterionSwing("Memory", "GB", 16, 256, (32, "Ascend 910B"), (192, "MI300X"))
    assert swing.sentence == "Memory: from 16 to 256 GB (this group's evidence: 32, Ascend 910B, to 192, MI300X)"
    rating = weigh.CriterionSwing("Lock-in", "rating 1-5", 5, 1, None, None)
    assert rating.sentence == "Lock-in: from 5 to 1"


def test_a_dimension_without_ranked_criteria_has_no_swing(kb):
    m = matrix.build(kb, Preferences(group="training-frameworks"))
    questions = {q.id: q for q in weigh.swing_questions(kb, m)}
    assert questions["cost"].criteria == ()
    assert "cost" not in set(m.dimension_of)


def test_comparisons_are_every_pair_once(kb):
    pairs = weigh.comparisons(kb)
    assert [p.key for p in pairs] == [
        "performance/cost",
        "performance/ecosystem",
        "performance/risk",
        "cost/ecosystem",
        "cost/risk",
        "ecosystem/risk",
    ]


def test_choices_and_their_words():
    assert weigh.choices()[0] == "9" and weigh.choices()[8] == "1" and weigh.choices()[-1] == "1/9"
    assert weigh.choice_label(Fraction(1), "Performance", "Cost") == "equal importance (1)"
    assert weigh.choice_label(Fraction(3), "Performance", "Cost") == "Performance 3: moderately more important"
    assert weigh.choice_label(Fraction(1, 5), "Performance", "Cost") == "Cost 5: strongly more important"


def test_the_questions_start_from_the_weights_in_force(kb):
    weights = {"performance": 40, "cost": 25, "ecosystem": 20, "risk": 15}
    first, ratings = weigh.starting_ratings(weights)
    assert first == "performance"
    assert ratings == {"performance": 100, "cost": 62, "ecosystem": 50, "risk": 38}
    back = elicitation.swing(list(weights), ratings).weights
    for d, w in weights.items():
        assert back[d] == pytest.approx(w / 100, abs=0.005)
    start = weigh.starting_judgements(weights, weigh.comparisons(kb))
    assert start["performance/cost"] == "2" and start["performance/ecosystem"] == "2"
    assert start["performance/risk"] == "3" and start["ecosystem/risk"] == "1"
    zero = weigh.starting_judgements({"performance": 10, "cost": 0, "ecosystem": 0, "risk": 0}, weigh.comparisons(kb))
    assert zero["performance/cost"] == "9" and zero["cost/ecosystem"] == "1"


def test_shares_text_uses_the_sliders_whole_percentages():
    names = {"a": "A", "b": "B", "c": "C"}
    assert weigh.shares_text({"a": 1, "b": 1, "c": 1}, names) == "A 34 %, B 33 %, C 33 %"
