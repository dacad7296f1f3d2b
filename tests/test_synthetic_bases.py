"""The scaling benchmark's synthetic knowledge bases (benchmarks/_synthetic.py) are valid knowledge, k times larger."""

from __future__ import annotations

import sys

import pytest

from selector.knowledge import loading as knowledge
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import _synthetic  # a sibling module of the benchmarks, not a package


@pytest.fixture(scope="module")
def bundled():
    return knowledge.load()


@pytest.mark.slow
def test_a_base_three_times_the_bundled_one_loads_without_an_issue(bundled, tmp_path_factory):
    out = _synthetic.generate(3, tmp_path_factory.mktemp("kb") / "kb3x")
    kb, issues = knowledge.collect(out)
    assert kb is not None, [str(i) for i in issues if i.level == "ERROR"][:5]
    assert len(kb.entities) == 3 * len(bundled.entities)
    for group_id, group in bundled.groups.items():
        assert len(kb.groups[group_id].members) == 3 * len(group.members)
    # the values varied around their originals stay within what the vocabulary allows (shares at most 100)
    shares = [c for c in kb.claims.values() if c.unit == "%" and c.id.rsplit("-x", 1)[0] in bundled.claims]
    assert shares and all(c.value <= 100 for c in shares if bundled.claims[c.id.rsplit("-x", 1)[0]].value <= 100)


@pytest.mark.slow
def test_a_cloned_rating_on_uncloned_evidence_says_it_rests_on_outside_facts(bundled, tmp_path_factory):
    kb = knowledge.load(_synthetic.generate(2, tmp_path_factory.mktemp("kb") / "kb2x"))
    clone = kb.claims["a-ecosystem-h100-x1"]
    assert "outside facts" in clone.rationale
    assert "outside facts" not in (bundled.claims["a-ecosystem-h100"].rationale or "")


def test_a_share_varied_up_stays_a_share_and_other_numbers_move_both_ways():
    varied = [_synthetic._vary(99.0, "%", copy, salt) for copy in range(1, 12) for salt in range(11)]
    assert max(varied) == 100.0 and min(varied) < 99.0
    others = {_synthetic._vary(99.0, "GB", copy, 0) for copy in range(1, 12)}
    assert max(others) > 100 and min(others) < 99
    assert _synthetic._vary(4.0, "rating 1-5", 3, 2) == 4.0
