"""selector.memo: values kept per knowledge base object are computed once, shared, bounded and never stale."""

from __future__ import annotations

import threading

import pytest

from selector.decision import decision_tree
from selector.knowledge import loading as knowledge
from selector.memo import PerKnowledge, PerObject


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_a_value_is_computed_once_per_knowledge_base_and_key(kb):
    kept, calls = PerKnowledge(4), []

    def compute(tag: str):
        calls.append(tag)
        return [tag]

    first = kept.get(kb, "a", lambda: compute("a"))
    assert kept.get(kb, "a", lambda: compute("again")) is first
    assert kept.get(kb, "b", lambda: compute("b")) == ["b"]
    assert calls == ["a", "b"]


def test_another_knowledge_base_object_gets_its_own_value_even_with_the_same_content(kb):
    kept = PerKnowledge(4)
    other = knowledge.load()
    assert other == kb and other is not kb
    assert kept.get(kb, "k", lambda: "first") == "first"
    assert kept.get(other, "k", lambda: "second") == "second"


def test_the_oldest_entry_goes_and_a_used_one_stays(kb):
    kept = PerKnowledge(2)
    kept.get(kb, 1, lambda: "one")
    kept.get(kb, 2, lambda: "two")
    kept.get(kb, 1, lambda: "not recomputed")  # 1 is now the most recent
    kept.get(kb, 3, lambda: "three")  # 2 goes
    assert len(kept) == 2
    assert kept.get(kb, 1, lambda: "recomputed") == "one"
    assert kept.get(kb, 2, lambda: "recomputed") == "recomputed"


def test_a_computation_that_raises_is_not_kept(kb):
    kept = PerKnowledge(2)
    with pytest.raises(ValueError, match="no"):
        kept.get(kb, "x", lambda: (_ for _ in ()).throw(ValueError("no")))
    assert len(kept) == 0
    assert kept.get(kb, "x", lambda: "fine") == "fine"


def test_size_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        PerKnowledge(0)


def test_threads_asking_at_once_keep_one_entry_per_key(kb):
    kept, results = PerKnowledge(8), []

    def worker(i: int) -> None:
        results.append(kept.get(kb, i % 3, lambda: object()))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(kept) == 3 and len(results) == 30


def test_the_decision_path_is_kept_per_answers(kb):
    path = decision_tree.evaluate(kb, {"goal": "industrial"})
    assert decision_tree.evaluate(kb, {"goal": "industrial"}) is path
    other = decision_tree.evaluate(kb, {"goal": "research"})
    assert other is not path and other.answers["goal"] == "research"
    with pytest.raises(decision_tree.PreferenceError):
        decision_tree.evaluate(kb, {"goal": "no-such-answer"})


def test_any_object_keys_by_identity_and_is_held_while_its_entry_lives():
    kept = PerObject(2)
    cells, same = ((1.0, 2.0),), ((1.0, 2.0),)
    same = tuple(list(same))  # equal content, another object
    assert cells == same and cells is not same
    assert kept.get(cells, "k", lambda: "first") == "first"
    assert kept.get(same, "k", lambda: "second") == "second"
    assert kept.get(cells, "k", lambda: "again") == "first"
    assert any(owner is cells for owner, _ in kept._entries.values())
