"""Building the report model: it follows the recommendation, cites every number, states robustness and settings."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from selector.decision.elicitation import Elicitation, percentages
from selector.decision.preferences import Preferences, to_query
from selector.report import build, render
from tests.report.conftest import NOW


def test_report_follows_the_recommendation(kb, prefs, built):
    from selector.decision.recommend import recommend

    rec = recommend(kb, prefs)
    assert [o.id for o in built.options] == [r.id for r in rec.ranking]
    assert [o.score for o in built.options] == pytest.approx([r.score for r in rec.ranking])
    assert built.recommended_id == rec.recommended
    assert built.method == rec.result.method and built.scaler == rec.result.scaler
    assert [c.id for c in built.criteria] == list(rec.matrix.criteria)
    assert sum(c.weight for c in built.criteria) == pytest.approx(1.0)
    for option in built.options:
        assert len(option.cells) == len(built.criteria)
        if option.contributions is not None:  # an additive method explains its score exactly
            assert sum(option.contributions) == pytest.approx(option.score)


def test_every_number_has_its_claim_in_the_appendix(kb, built):
    cited = {claim for option in built.options for cell in option.cells for claim in cell.evidence}
    cited |= {claim for d in built.dimensions for claim in d.claims}
    cited |= {claim for rule in built.rules for claim in rule.claims}
    assert cited, "the report cites nothing: the test would prove nothing"
    assert {c for d in built.dimensions for c in d.claims} >= {
        "c004-weight-performance",
        "c004-weight-cost",
        "c004-weight-ecosystem",
        "c004-weight-risk",
    }
    assert cited <= built.evidence_ids
    for evidence in built.evidence:
        claim = kb.claims[evidence.id]
        assert set(claim.based_on) <= built.evidence_ids, f"{evidence.id} rests on claims missing from the appendix"
        assert evidence.used_for, f"{evidence.id} is listed but supports nothing"
        if claim.tier == "claimed":
            assert evidence.quote_zh == claim.quote and evidence.section
        assert evidence.document_title_en == kb.sources[claim.source].title_en
        assert len(evidence.flags) == len(claim.flags)


def test_robustness_is_reported(built):
    rb = built.robustness
    assert rb.samples == 500 and rb.seed == 1
    assert len(rb.acceptability) == len(built.options)
    for row in rb.acceptability:
        assert sum(row) == pytest.approx(1.0)
    assert rb.leader_acceptability == pytest.approx(rb.acceptability[0][0])
    assert rb.methods and all(len(m.ranks) == len(built.options) for m in rb.methods)
    chosen = next(m for m in rb.methods if m.method == built.method)
    if chosen.scaler == built.scaler:
        assert chosen.tau == pytest.approx(1.0)
    assert rb.rank_reversal


def test_samples_zero_skips_robustness(kb, prefs):
    quick = build.build_report(kb, prefs, samples=0, now=NOW)
    assert quick.robustness.acceptability == () and quick.robustness.samples == 0
    assert "Not computed" in render.render_markdown(quick)


def test_footer_and_a_relative_reproduce_link_without_a_base_address(kb, prefs, built, markdown, html_page):
    """No base address set: the link is relative and its parameters are printed, never a guessed localhost."""
    url = "?" + urlencode(to_query(prefs))
    assert built.reproduce_url == url
    assert "127.0.0.1" not in markdown and "localhost" not in markdown and "127.0.0.1" not in html_page
    assert ("w", "cost=25,ecosystem=20,performance=40,risk=15") in built.reproduce_params
    assert "`w` = cost=25,ecosystem=20,performance=40,risk=15" in markdown
    assert built.generated_at == "2025-01-02T03:04:05Z"
    assert built.data_hash == kb.data_hash
    import selector

    assert built.app_version == str(getattr(selector, "__version__", "unknown"))
    for text in (markdown, html_page):
        assert kb.data_hash in text and "2025-01-02T03:04:05Z" in text and built.app_version in text
    assert f"[Reproduce this ranking in the app](<{url}>)" in markdown
    assert f'href="{url.replace("&", "&amp;")}"' in html_page


def test_a_base_address_makes_the_reproduce_link_absolute(kb, prefs):
    report = build.build_report(kb, prefs, samples=0, now=NOW, app_url="https://selector.example.org")
    assert report.reproduce_url == "https://selector.example.org/?" + urlencode(to_query(prefs))
    assert "https://selector.example.org/?" in render.render_markdown(report)


def test_app_url_must_be_http(kb, prefs):
    with pytest.raises(ValueError, match="http"):
        build.build_report(kb, prefs, samples=0, app_url="javascript:alert(1)")


def test_custom_weights_are_stated(kb):
    prefs = Preferences(group="edge-accelerators", dimension_weights={"performance": 70, "cost": 10})
    custom = build.build_report(kb, prefs, samples=0, now=NOW)
    performance = next(d for d in custom.dimensions if d.id == "performance")
    assert (performance.given, performance.default) == (70, 40)
    assert performance.share == pytest.approx(70 / (70 + 10 + 20 + 15))
    assert re.search(r"\| Performance \(性能\) \| 70 \| 40 \| 60\.9% \|", render.render_markdown(custom))


def test_benchmarked_numbers_carry_their_footnote_in_the_report(kb):
    built = build.build_report(kb, Preferences(group="llm-inference-accelerators"), samples=0, seed=1, now=NOW)
    located = [e for e in built.evidence if e.tier == "benchmarked"]
    assert located
    for e in located:
        for part in ("result 5.1-", "round v5.1", "division closed", "category datacenter", "availability available"):
            assert part in e.footnote, (e.id, e.footnote)
        assert "retrieved 2025-09-09" in e.footnote and "derived" in e.footnote
    text = render.render_markdown(built)
    assert f"- Footnote: {located[0].footnote}".replace("_", "\\_")[:60] in text


def test_a_report_without_elicitation_says_nothing_about_it(built, markdown, html_page):
    assert built.elicited is None
    assert "How the weights were elicited" not in markdown
    assert "How the weights were elicited" not in html_page


def test_the_report_says_how_the_weights_were_elicited(kb, prefs):
    record = Elicitation(method="swing", answers=("performance=100", "cost=50", "ecosystem=30", "risk=20"))
    weights = percentages(record.result(list(kb.dimensions)).weights)
    elicited = prefs.model_copy(update={"dimension_weights": weights, "elicitation": record})
    report = build.build_report(kb, elicited, samples=0, now=NOW)
    assert report.elicited.method == "swing"
    assert report.elicited.answers == (
        "Performance: 100 (the swing taken first)",
        "Cost: 50 (50 % of the first swing)",
        "Ecosystem: 30 (30 % of the first swing)",
        "Risk: 20 (20 % of the first swing)",
    )
    assert dict(report.elicited.shares) == pytest.approx(
        {"Performance": 0.5, "Cost": 0.25, "Ecosystem": 0.15, "Risk": 0.1}
    )
    assert "el=swing%3Aperformance%3D100" in report.reproduce_url
    text = render.render_markdown(report)
    assert "**How the weights were elicited:** swing weighting (Performance 50.0%, Cost 25.0%" in text
    assert "- Risk: 20 (20 % of the first swing)" in text
    page = render.render_html(report)
    assert '<div class="elicited" id="elicited">' in page
    assert "<li>Performance: 100 (the swing taken first)</li>" in page


def test_a_pairwise_report_gives_the_consistency_ratio(kb, prefs):
    record = Elicitation(
        method="pairwise",
        answers=(
            "performance/cost=3",
            "performance/ecosystem=5",
            "performance/risk=5",
            "cost/ecosystem=2",
            "cost/risk=3",
            "ecosystem/risk=1/5",
        ),
    )
    result = record.result(list(kb.dimensions))
    elicited = prefs.model_copy(update={"dimension_weights": percentages(result.weights), "elicitation": record})
    report = build.build_report(kb, elicited, samples=0, now=NOW)
    assert report.elicited.consistency_ratio == pytest.approx(result.consistency_ratio)
    assert report.elicited.consistency.startswith(f"Consistency ratio {result.consistency_ratio:.3f}: above 0.10")
    assert "Risk is strongly more important than Ecosystem (5)" in report.elicited.consistency
    assert "Performance is moderately more important than Cost (3)" in report.elicited.answers
    assert report.elicited.consistency in render.render_markdown(report).replace("\\", "")
