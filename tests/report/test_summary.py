"""Large groups: the report details the best-ranked options and lists the rest, saying what it summarised."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.report import build, render, summary

GROUP = "datacenter-accelerators"
NOW = datetime(2026, 1, 1, tzinfo=UTC)


GROUP = "datacenter-accelerators"


NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture
def small_detail(monkeypatch) -> int:
    monkeypatch.setattr(summary, "DETAILED_OPTIONS", 3)
    return 3


def test_a_group_within_the_limit_is_reported_in_full(kb):
    # the edge modules (9 since issue 32; the datacenter group's 15 are past the limit)
    within = "edge-accelerators"
    assert len(kb.groups[within].members) <= summary.DETAILED_OPTIONS < len(kb.groups[GROUP].members)
    built = build.build_report(kb, Preferences(group=within), samples=200, now=NOW)
    assert built.summarised is None
    assert len(built.options) == len(recommend.recommend(kb, Preferences(group=within)).ranking)


def test_past_the_limit_the_best_ranked_are_detailed_and_the_rest_listed(kb, small_detail):
    prefs = Preferences(group=GROUP)
    rec = recommend.recommend(kb, prefs)
    built = build.build_report(kb, prefs, samples=200, now=NOW)
    assert built.summarised is not None
    assert [o.id for o in built.options] == [r.id for r in rec.ranking[:small_detail]]
    listed = [(o.rank, o.name) for o in built.options] + [(rank, name) for rank, name, *_ in built.summarised.rows]
    assert listed == [(r.rank, r.name) for r in rec.ranking]
    assert built.summarised.ranked == len(rec.ranking)
    rb = built.robustness
    assert len(rb.acceptability) == small_detail and all(len(row) == small_detail for row in rb.acceptability)
    assert all(len(m.ranks) == small_detail for m in rb.methods)
    # the evidence appendix covers what the detailed options' cells cite, and nothing cited only by the others
    cited = {claim for o in built.options for cell in o.cells for claim in cell.evidence}
    assert cited <= built.evidence_ids
    hidden_only = {
        claim
        for row in rec.matrix.cells
        for cell in row
        for claim in cell.evidence
        if claim not in cited and all(claim not in c.evidence for o in built.options for c in o.cells)
    }
    hidden_subjects = {kb.claims[c].subject for c in hidden_only if kb.claims[c].tier != "assessed"}
    assert not hidden_subjects & {o.id for o in built.options}


def test_the_report_says_what_it_summarised(kb, small_detail):
    built = build.build_report(kb, Preferences(group=GROUP), samples=0, now=NOW)
    for text in (render.render_markdown(built), render.render_html(built)):
        assert f"all {built.summarised.ranked} options are ranked above" in text
        for _, name, *_ in built.summarised.rows:
            assert name in text


def test_a_recommended_option_ranked_below_the_limit_is_still_detailed(kb, monkeypatch):
    # a shortlist can make a low-ranked option the recommendation; the report must still detail it
    full = build.build_report(kb, Preferences(group=GROUP), samples=0, now=NOW).options
    small_detail = 3
    monkeypatch.setattr(summary, "DETAILED_OPTIONS", small_detail)
    assert len(full) > small_detail
    rows = summary.detailed(full, full[-1].id)
    assert len(rows) == small_detail
    assert rows[:-1] == list(range(small_detail - 1)) and rows[-1] == len(full) - 1
    assert summary.detailed(full, full[0].id) == list(range(small_detail))


def test_past_the_confidence_limit_the_report_says_which_options_have_none(kb, monkeypatch):
    from selector.robustness import smaa

    full = build.build_report(kb, Preferences(group=GROUP), samples=300, now=NOW)
    assert full.robustness.confidence_note == ""
    assert "Confidence factors are computed for the" not in render.render_markdown(full)
    monkeypatch.setattr(smaa, "CONFIDENCE_LIMIT", 1)
    capped = build.build_report(kb, Preferences(group=GROUP), samples=300, now=NOW)
    note = capped.robustness.confidence_note
    assert note.startswith("Confidence factors are computed for the 1 options most often ranked first")
    for text in (render.render_markdown(capped), render.render_html(capped)):
        assert note in text
