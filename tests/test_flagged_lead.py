"""selector.flagged_lead: a lead that rests on flagged cells is not called robust; the badge and the verdict name
the cells. Checked against an independent ranking with the flagged claims left out."""

from __future__ import annotations

import dataclasses

import pytest

from selector import flagged_lead, verdict
from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.views.recommend import _verdict_text

KB = knowledge.load()
PERFORMANCE = {"performance": 100, "cost": 0, "ecosystem": 0, "risk": 0}
# The laptop NPUs store article 004's flagged 30 TOPS/W for XDNA at weight 0; a user who ranks it (sub-weight 1)
# gets a lead that rests on that one flagged cell.
ON_EFFICIENCY = {"efficiency-tops-per-w": 1}


@pytest.fixture(scope="module")
def xdna():
    return recommend.recommend(
        KB, Preferences(group="client-npus", dimension_weights=PERFORMANCE, criterion_weights=ON_EFFICIENCY)
    )


def test_xdna_s_lead_rests_on_its_flagged_efficiency_figure(xdna):
    assert xdna.leader.id == xdna.recommended == "amd-xdna"
    found = flagged_lead.check(xdna, KB)
    assert found is not None and found.decides
    assert found.leader_without == "AMD Ryzen AI 300 NPU (XDNA 2)"
    flagged_claims = {
        c
        for row in xdna.matrix.cells
        for cell in row
        if cell.alternative == "amd-xdna"
        for c in cell.evidence
        if KB.claims[c].flags
    }
    assert flagged_claims and all(any(c in text for text in found.cells) for c in flagged_claims)
    # independently: leave the flagged claims out (the cell is filled in at the column's worst) and rank again
    without = recommend.recommend(
        KB,
        Preferences(
            group="client-npus", dimension_weights=PERFORMANCE, criterion_weights=ON_EFFICIENCY, use_flagged=False
        ),
    )
    assert without.leader.id != "amd-xdna"


def test_the_badge_and_verdict_name_the_flagged_cells_and_do_not_call_it_robust(xdna):
    judged = verdict.judge(xdna, local_share=1.0, global_share=0.2, leaders={})
    assert judged.rests_on_flags
    assert judged.badge.startswith("AMD XDNA: first in 100%")
    assert "not robust" in judged.badge and "c004-xdna-efficiency" in judged.badge
    assert judged.headline == "Recommended: AMD XDNA (its lead rests on flagged claims)"
    assert any("rests on flagged cells" in d and "c004-xdna-efficiency" in d for d in judged.details)
    assert ":red-background[" in _verdict_text(judged)  # never green, although 100 % of weightings keep it first
    assert judged.to_dict()["rests_on_flagged_cells"]


def test_no_flagged_cell_no_flag_note():
    rec = recommend.recommend(KB, Preferences(group="client-npus", use_flagged=False))
    assert flagged_lead.check(rec, KB) is None
    judged = verdict.judge(rec, local_share=0.9, global_share=0.9, leaders={})
    assert not judged.rests_on_flags and "not robust" not in judged.badge
    assert ":green-background[" in _verdict_text(judged)


def test_a_recommended_option_that_does_not_lead_is_not_judged_on_flags(xdna):
    other = dataclasses.replace(xdna, recommended="snapdragon-x-elite")
    assert flagged_lead.check(other, KB) is None
    judged = verdict.judge(other, local_share=0.0, global_share=0.0, leaders={})
    assert judged.badge.startswith(
        "Qualcomm Snapdragon X Elite NPU (Hexagon): "
    )  # the badge names the option it describes
