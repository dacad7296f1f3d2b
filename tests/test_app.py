"""The Streamlit app through AppTest: every page runs, and what a page shows is what selector/ computes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from selector import knowledge, recommend, verdict
from selector.knowledge import Upload
from selector.preferences import Preferences, from_query
from selector.robustness import analysis
from selector.views.evidence import filter_claims
from tests import fragment_rerun

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
# Every page module the app may register (pages added by other parts of the project included); the broken-knowledge
# page is registered only when the knowledge does not load (tests/test_app_broken_knowledge.py).
PAGES = sorted(
    p.stem for p in (ROOT / "app_pages").glob("*.py") if not p.stem.startswith("_") and p.stem != "broken_knowledge"
)
DIMENSIONS = ("performance", "cost", "ecosystem", "risk")


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture
def app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60)


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def _ranking(at: AppTest) -> list[tuple[str, float]]:
    tables = [d.value for d in at.dataframe if list(d.value.columns) == ["rank", "name", "score", "shortlisted"]]
    assert len(tables) == 1, "the Recommend page shows exactly one ranking table"
    return [(row["name"], float(row["score"])) for _, row in tables[0].iterrows()]


def _expected(kb, prefs: Preferences) -> list[tuple[str, float]]:
    return [(r.name, r.score) for r in recommend.recommend(kb, prefs).ranking]


def _same(shown: list[tuple[str, float]], expected: list[tuple[str, float]]) -> None:
    assert [n for n, _ in shown] == [n for n, _ in expected]
    assert [s for _, s in shown] == pytest.approx([s for _, s in expected], rel=1e-12, abs=1e-12)


def _pref_params(at: AppTest) -> dict[str, str]:
    return {k: v for k, v in at.query_params.items() if k in ("group", "answers", "w", "cw", "method", "scaler")}


# ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs(app, page):
    _ok(app.run())
    _ok(app.switch_page(f"app_pages/{page}.py").run())
    assert app.title, f"page {page} has a title"


def test_default_ranking_is_the_pure_recommendation(app, kb):
    at = _ok(app.run())
    default = Preferences(group=next(iter(kb.groups)))
    _same(_ranking(at), _expected(kb, default))
    assert at.slider(key="w-performance").value == 40
    assert [at.slider(key=f"w-{d}").value for d in DIMENSIONS] == [40, 25, 20, 15]
    assert not _pref_params(at)


def test_moving_a_weight_slider_reranks_exactly_as_recommend_does(app, kb):
    at = _ok(app.run())
    before = _ranking(at)
    group = at.selectbox(key="group").value
    _ok(at.slider(key="w-performance").set_value(90).run())
    after = _ranking(at)
    _same(after, _expected(kb, Preferences(group=group, dimension_weights={"performance": 90})))
    assert after != before
    assert at.query_params["w"] == "performance=90"


def test_a_weight_slider_reruns_only_its_fragment_and_ranks_as_recommend_does(app, kb):
    """What the browser triggers: a dimension slider sits in a fragment, so its move reruns the fragment alone.

    The fragment must read the new weights itself (the page around it is not rerun), redraw the ranking exactly
    as ``recommend()`` computes it, and put the weights in the URL; the decision path is not redrawn.
    """
    at = _ok(app.run())
    group = at.selectbox(key="group").value
    assert len(fragment_rerun.fragment_ids(at)) == 1
    with fragment_rerun.fragment_reruns(at):
        # the chart waits until asked for (it would load plotly's script with the first screen)
        assert not at.get("plotly_chart")
        _ok(at.toggle(key="show-contribution-chart").set_value(True).run())
        assert len(at.get("plotly_chart")) == 1
        _ok(at.slider(key="w-cost").set_value(70).run())
        _same(_ranking(at), _expected(kb, Preferences(group=group, dimension_weights={"cost": 70})))
        assert not at.radio, "the scenario questions are outside the fragment and are not rerun"
        _ok(at.slider(key="w-performance").set_value(5).run())
        weights = {"cost": 70, "performance": 5}
        _same(_ranking(at), _expected(kb, Preferences(group=group, dimension_weights=weights)))
        # the chart kept by the session was restacked: bars in the new rank order, each adding up to the score
        rec = recommend.recommend(kb, Preferences(group=group, dimension_weights=weights))
        (chart,) = at.get("plotly_chart")
        traces = json.loads(chart.proto.spec)["data"]
        assert all(t["y"] == [r.name for r in rec.ranking] for t in traces)
        totals = np.sum([t["x"] for t in traces], axis=0)
        np.testing.assert_allclose(totals, [r.score for r in rec.ranking], rtol=1e-12)
    assert dict(pair.split("=") for pair in at.query_params["w"].split(",")) == {"cost": "70", "performance": "5"}
    # the next full run (any other control) keeps the weights the fragment set
    _ok(at.run())
    assert [at.slider(key=f"w-{d}").value for d in DIMENSIONS] == [5, 70, 20, 15]
    _same(_ranking(at), _expected(kb, Preferences(group=group, dimension_weights=weights)))


def test_sub_criterion_weight_and_method_follow_the_pure_call(app, kb):
    at = _ok(app.run())
    group = kb.groups[at.selectbox(key="group").value]
    criterion = group.criteria[0].criterion
    _ok(at.slider(key=f"cw-{criterion}").set_value(4.5).run())
    _ok(at.selectbox(key="method").set_value("topsis").run())
    prefs = Preferences(group=group.id, criterion_weights={criterion: 4.5}, method="topsis")
    _same(_ranking(at), _expected(kb, prefs))
    assert at.query_params["method"] == "topsis"
    assert at.query_params["cw"] == f"{criterion}=4.5"


def test_link_parameters_set_the_widgets_and_the_ranking(app, kb):
    query = {"group": "gpu-inference-runtimes", "w": "cost=60", "method": "topsis", "answers": "target=edge"}
    for key, value in query.items():
        app.query_params[key] = value
    at = _ok(app.run())
    assert at.selectbox(key="group").value == "gpu-inference-runtimes"
    assert at.slider(key="w-cost").value == 60
    assert at.selectbox(key="method").value == "topsis"
    assert at.radio(key="q-target").value == "edge"
    _same(_ranking(at), _expected(kb, from_query(query, "training-frameworks")))
    # changing a widget keeps the rest of the link and adds the change
    _ok(at.radio(key="q-goal").set_value("industrial").run())
    assert at.query_params["answers"] == "goal=industrial,target=edge"
    assert at.query_params["w"] == "cost=60" and at.query_params["group"] == "gpu-inference-runtimes"


def test_a_malformed_link_says_why_and_shows_the_defaults(app, kb):
    app.query_params["w"] = "performance=lots"
    at = _ok(app.run())
    assert any("not a number" in e.value for e in at.error)
    _same(_ranking(at), _expected(kb, Preferences(group=next(iter(kb.groups)))))
    assert at.slider(key="w-performance").value == 40


def test_an_unknown_group_in_the_link_is_reported(app):
    app.query_params["group"] = "quantum-abacus"
    at = _ok(app.run())
    assert any("quantum-abacus" in e.value.replace("\\", "") for e in at.error)


def test_markup_in_a_link_is_shown_as_text_not_rendered(app):
    app.query_params["group"] = "[click me](http://evil.example)"
    at = _ok(app.run())
    messages = [e.value for e in at.error]
    assert messages and not any("[click me](" in m for m in messages)
    assert any("\\[click me\\]\\(http" in m for m in messages)


def test_reset_restores_the_defaults(app, kb):
    at = _ok(app.run())
    at.slider(key="w-risk").set_value(70).run()
    at.radio(key="q-goal").set_value("domestic").run()
    at.toggle(key="use-flagged").set_value(False).run()
    assert _pref_params(at) and at.query_params.get("flagged") == "exclude"
    _ok(at.button(key="reset").click().run())
    assert not _pref_params(at) and "flagged" not in at.query_params
    assert at.slider(key="w-risk").value == 15
    assert at.radio(key="q-goal").value is None  # unanswered: no default that looks like advice
    assert at.toggle(key="use-flagged").value is True
    _same(_ranking(at), _expected(kb, Preferences(group=next(iter(kb.groups)))))


def test_all_weights_zero_is_refused_and_the_ranking_kept(app):
    at = _ok(app.run())
    for dim in DIMENSIONS[:-1]:
        at.slider(key=f"w-{dim}").set_value(0).run()
    kept = _ranking(at)
    _ok(at.slider(key="w-risk").set_value(0).run())
    assert any("zero" in e.value for e in at.error)
    assert at.slider(key="w-risk").value == 15
    assert _ranking(at) == kept


def test_answer_fires_its_rule_and_shows_its_quote(app, kb):
    at = _ok(app.run())
    _ok(at.radio(key="q-goal").set_value("industrial").run())
    shown = " ".join(m.value for m in at.markdown)
    rule = kb.rules["tree000-industrial"]
    assert rule.rationale_en in shown.replace("\\", "")
    quote = kb.claims[rule.claims[0]].quote
    assert quote in shown.replace("\\", "")


def test_changing_group_resets_its_sub_weights(app, kb):
    at = _ok(app.run())
    first = kb.groups[at.selectbox(key="group").value]
    at.slider(key=f"cw-{first.criteria[0].criterion}").set_value(3.0).run()
    _ok(at.selectbox(key="group").set_value("edge-accelerators").run())
    assert "cw" not in at.query_params
    _same(_ranking(at), _expected(kb, Preferences(group="edge-accelerators")))


def _badges(at: AppTest) -> list:
    return [x for x in at.markdown if "weightings within ±10 points of yours" in x.value]


@pytest.mark.parametrize(
    "query",
    [{}, {"group": "edge-accelerators", "w": "cost=70"}, {"group": "datacenter-accelerators", "method": "topsis"}],
)
def test_robustness_badge_is_the_verdicts_local_and_whole_simplex_shares(app, kb, query):
    for key, value in query.items():
        app.query_params[key] = value
    at = _ok(app.run())
    prefs = from_query(query, next(iter(kb.groups)))
    rec = recommend.recommend(kb, prefs)
    local, whole = verdict.shares(rec)
    # the whole-simplex share is the Robustness page's SMAA with the badge's sample count and seed
    expected = analysis.analyse(rec, samples=verdict.SAMPLES, seed=verdict.SEED)
    assert whole == expected.leader_share
    badges = _badges(at)
    assert len(badges) == 1
    assert f"first in {local:.0%} of weightings within ±10 points of yours" in badges[0].value
    assert f"{whole:.0%} over any weighting" in badges[0].value
    help_text = badges[0].proto.help
    for part in ("2,000 weightings", "the four dimension weights", "whole weight simplex", "seed 0"):
        assert part in help_text


def test_robustness_badge_moves_with_the_weights(app, kb):
    def local(group: str, cost: int) -> float:
        return verdict.local_share(recommend.recommend(kb, Preferences(group=group, dimension_weights={"cost": cost})))

    group = next((g for g in kb.groups if local(g, 25) != local(g, 60)), None)
    assert group, "some group's leader is more robust at one of the two cost weights"
    app.query_params["group"] = group
    at = _ok(app.run())
    shown = []
    for cost in (25, 60):
        _ok(at.slider(key="w-cost").set_value(cost).run())
        rec = recommend.recommend(kb, Preferences(group=group, dimension_weights={"cost": cost}))
        local, whole = verdict.shares(rec)
        badge = _badges(at)[0].value
        assert f"first in {local:.0%} of weightings within ±10 points of yours" in badge
        assert f"{whole:.0%} over any weighting" in badge
        shown.append(local)
    assert shown[0] != shown[1], "the share around your weights follows the weights"


def test_robustness_page_shows_what_robustness_analyse_computes(app, kb):
    app.query_params["group"] = "edge-accelerators"
    at = _ok(app.run())
    _ok(at.switch_page("app_pages/robustness.py").run())
    assert at.number_input(key="rb-samples").value == 10_000
    assert at.radio(key="rb-space").value == "dimensions"
    assert at.toggle(key="rb-whole").value is True
    rec = recommend.recommend(kb, Preferences(group="edge-accelerators"))
    expected = analysis.analyse(rec, samples=10_000, seed=0)
    assert expected.tipping_points, "edge-accelerators has tipping points to show"
    shown = " ".join(x.value for x in at.markdown).replace("\\", "")
    for tip in expected.tipping_points:
        assert tip.sentence in shown
    assert any(
        f"{expected.leader} is {expected.badge}" in x.value.replace("\\", "") for x in [*at.success, *at.warning]
    )
    # the sweep chart marks the tipping points of the swept dimension as vertical lines
    swept = at.selectbox(key="rb-dimension").value
    lines = [t.weight for t in expected.tipping_points if t.dimension == swept]
    assert lines, "the page opens on a dimension with a tipping point"
    chart = next(c for c in at.get("plotly_chart") if "Scores as the weight" in c.proto.spec)
    shapes = json.loads(chart.proto.spec)["layout"]["shapes"]
    dashed = sorted(s["x0"] for s in shapes if s["line"]["dash"] == "dash")
    assert dashed == pytest.approx(sorted(100 * w for w in lines))
    # method agreement with Kendall's tau, and central weights per dimension
    tau = next(d.value for d in at.dataframe if d.value.shape == expected.agreement.kendall_tau.shape)
    assert tau.to_numpy() == pytest.approx(expected.agreement.kendall_tau, nan_ok=True)
    dimensions = [kb.dimensions[d].name_en for d in rec.matrix.dimension_weights]
    central = next(d.value for d in at.dataframe if list(d.value.columns) == dimensions)
    of = np.array(rec.matrix.dimension_of)
    for name, weights in zip(expected.smaa.alternatives, expected.smaa.central_weights, strict=True):
        row = central.loc[name].to_numpy(dtype=float)
        if weights is None:
            assert np.isnan(row).all()
        else:
            sums = [np.asarray(weights)[of == d].sum() for d in rec.matrix.dimension_weights]
            assert row == pytest.approx(sums)


def test_robustness_page_samples_criteria_within_a_spread(app, kb):
    app.query_params["group"] = "edge-accelerators"
    at = _ok(app.run())
    _ok(at.switch_page("app_pages/robustness.py").run())
    at.number_input(key="rb-samples").set_value(3000)
    at.radio(key="rb-space").set_value("criteria")
    _ok(at.toggle(key="rb-whole").set_value(False).run())
    _ok(at.slider(key="rb-spread").set_value(20).run())
    rec = recommend.recommend(kb, Preferences(group="edge-accelerators"))
    expected = analysis.analyse(rec, samples=3000, seed=0, spread=0.2, space="criteria")
    summary = next(d.value for d in at.dataframe if "expected rank" in d.value.columns)
    first = dict(zip(summary["alternative"], summary["first"], strict=True))
    assert [first[n] for n in expected.smaa.alternatives] == pytest.approx(expected.smaa.first_rank_acceptability)
    assert any("every criterion weight" in c.value and "20 percentage points" in c.value for c in at.caption)


def test_evidence_search_shows_the_matching_claims(app, kb):
    _ok(app.run())
    at = _ok(app.switch_page("app_pages/evidence.py").run())
    _ok(at.text_input(key="ev-text").input("能效比").run())
    table = next(d.value for d in at.dataframe if "quote_zh" in d.value.columns)
    assert sorted(table["id"]) == sorted(c.id for c in filter_claims(kb, text="能效比"))
    _ok(at.selectbox(key="ev-flagged").set_value("flagged").run())
    table = next(d.value for d in at.dataframe if "quote_zh" in d.value.columns)
    assert table["flagged"].all()


def test_evidence_claim_picker_shows_the_claim_and_forgets_it_when_filtered_out(app, kb):
    _ok(app.run())
    at = _ok(app.switch_page("app_pages/evidence.py").run())
    assert at.selectbox(key="ev-claim").value is None
    _ok(at.text_input(key="ev-text").input("能效比").run())
    found = filter_claims(kb, text="能效比")
    assert at.selectbox(key="ev-claim").options == [f"{c.id}: {c.text_en[:90]}" for c in found]
    _ok(at.selectbox(key="ev-claim").set_value(found[1].id).run())
    assert any(h.value == f"Claim {found[1].id}".replace("-", "\\-") for h in at.subheader)
    shown = " ".join(m.value for m in at.markdown).replace("\\", "")
    assert found[1].quote in shown
    _ok(at.text_input(key="ev-text").input("no claim says this").run())
    assert at.selectbox(key="ev-claim").value is None
    assert not any(h.value.startswith("Claim ") for h in at.subheader)


def test_valid_uploads_join_the_knowledge_and_bad_ones_are_kept_out(app):
    fixture = ROOT / "tests" / "fixtures" / "valid_extra.yaml"
    app.session_state["uploads"] = [Upload("mine.yaml", fixture.read_bytes())]
    at = _ok(app.run())
    assert at.radio(key="q-fix-q").value is None
    assert any("your files" in c.value for c in at.sidebar.caption)
    at.session_state["uploads"] = [Upload("bad.yaml", b"claims: [{id: x}]")]
    at = _ok(at.run())
    assert at.session_state["upload_issues"]
    assert not any("your files" in c.value for c in at.sidebar.caption)


def test_preferences_follow_the_user_to_the_robustness_page(app):
    at = _ok(app.run())
    _ok(at.slider(key="w-performance").set_value(90).run())
    at.query_params.clear()  # a page switch in the browser drops the query string
    _ok(at.switch_page("app_pages/robustness.py").run())
    # The default group (training frameworks) has no cost criterion, so cost's weight passes on:
    # 90 / (90 + 20 + 15) = 72%
    assert any("Performance 72%" in c.value for c in at.caption)
    assert at.query_params["w"] == "performance=90"


# ----------------------------------------------------------------------------------------------------------
# The rest of the state in the link: Evidence filters (`ev`) and small uploads (`data`)

UPLOADS = ROOT / "tests" / "fixtures" / "uploads"


def _claims_table(at: AppTest):
    return next(d.value for d in at.dataframe if "quote_zh" in d.value.columns)


def test_evidence_filters_in_the_link_set_the_widgets_and_the_table(app, kb):
    from selector import profile

    filters = {"text": ["TOPS"], "tiers": ["claimed"], "flagged": ["unflagged"]}
    app.query_params["ev"] = profile.encode_filters(filters)
    _ok(app.run())
    at = _ok(app.switch_page("app_pages/evidence.py").run())
    assert at.text_input(key="ev-text").value == "TOPS"
    assert at.multiselect(key="ev-tiers").value == ["claimed"]
    assert at.selectbox(key="ev-flagged").value == "unflagged"
    expected = filter_claims(kb, text="TOPS", tiers=["claimed"], flagged=False)
    assert expected, "the filters keep some claims"
    assert sorted(_claims_table(at)["id"]) == sorted(c.id for c in expected)


def test_changing_an_evidence_filter_writes_it_to_the_link_and_a_page_switch_keeps_it(app):
    from selector import profile

    _ok(app.run())
    at = _ok(app.switch_page("app_pages/evidence.py").run())
    assert "ev" not in at.query_params
    _ok(at.multiselect(key="ev-kinds").set_value(["benchmark"]).run())
    _ok(at.text_input(key="ev-text").input("吞吐").run())
    assert profile.decode_filters(at.query_params["ev"]) == {"kinds": ("benchmark",), "text": ("吞吐",)}
    at.query_params.clear()  # a page switch in the browser drops the query string
    _ok(at.switch_page("app_pages/recommend.py").run())
    assert profile.decode_filters(at.query_params["ev"]) == {"kinds": ("benchmark",), "text": ("吞吐",)}
    at = _ok(at.switch_page("app_pages/evidence.py").run())
    _ok(at.multiselect(key="ev-kinds").set_value([]).run())
    _ok(at.text_input(key="ev-text").input("").run())
    assert "ev" not in at.query_params


def test_unknown_filter_values_in_the_link_are_reported_and_dropped(app):
    from selector import profile

    app.query_params["ev"] = profile.encode_filters({"tiers": ["claimed", "imaginary"]})
    _ok(app.run())
    at = _ok(app.switch_page("app_pages/evidence.py").run())
    assert any("imaginary" in w.value for w in at.warning)
    assert at.multiselect(key="ev-tiers").value == ["claimed"]
    assert profile.decode_filters(at.query_params["ev"]) == {"tiers": ("claimed",)}


def test_a_link_with_data_ranks_with_the_uploaded_files(app, kb):
    from selector import profile

    orin = Upload("orin.csv", (UPLOADS / "good_orin_power.csv").read_bytes())
    prefs = Preferences(group="edge-accelerators")
    shared = profile.make(prefs, uploads=[orin])
    for key, value in profile.to_link_params(shared).items():
        app.query_params[key] = value
    at = _ok(app.run())
    assert not at.error
    assert [u.name for u in at.session_state["uploads"]] == ["orin.csv"]
    merged, issues = knowledge.collect(knowledge.DEFAULT_KNOWLEDGE, extra=profile.merge_uploads(shared))
    assert merged is not None, [str(i) for i in issues]
    expected = _expected(merged, prefs)
    assert expected != _expected(kb, prefs), "the upload changes the ranking's scores"
    _same(_ranking(at), expected)
    assert at.query_params["data"] == profile.to_link_params(shared)["data"]
    at.query_params.clear()
    _ok(at.switch_page("app_pages/robustness.py").run())
    assert at.query_params["data"] == profile.to_link_params(shared)["data"], "a page switch keeps the files"


@pytest.mark.parametrize("tamper", ["cut", "flip", "invalid-upload"])
def test_a_tampered_data_link_shows_an_error_and_the_bundled_ranking(app, kb, tamper):
    from selector import profile

    if tamper == "invalid-upload":
        bad = Upload("negative_tops.csv", (UPLOADS / "negative_tops.csv").read_bytes())
        data = profile.to_link_params(profile.make(Preferences(group="g"), uploads=[bad]))["data"]
        fragment = "negative_tops.csv"
    else:
        orin = Upload("orin.csv", (UPLOADS / "good_orin_override.csv").read_bytes())
        data = profile.to_link_params(profile.make(Preferences(group="g"), uploads=[orin]))["data"]
        data = data[: len(data) // 2] if tamper == "cut" else data[:20] + ("A" if data[20] != "A" else "B") + data[21:]
        fragment = "parameter"
    app.query_params["group"] = "edge-accelerators"
    app.query_params["data"] = data
    at = _ok(app.run())
    messages = [e.value.replace("\\", "") for e in at.error]
    assert any("files in this link were not loaded" in m and fragment in m for m in messages), messages
    assert "uploads" not in at.session_state or not at.session_state["uploads"]
    _same(_ranking(at), _expected(kb, Preferences(group="edge-accelerators")))


def test_files_too_large_for_a_link_are_left_out_and_the_page_says_so(app):
    import os

    from selector import profile

    big = Upload("big.csv", os.urandom(4_000).hex().encode())
    assert profile.encode_uploads((profile.EmbeddedUpload.from_upload(big),)) is None
    app.session_state["uploads"] = [big]
    _ok(app.run())
    at = _ok(app.switch_page("app_pages/my_data.py").run())
    assert "data" not in at.query_params
    assert any("too large for a link" in i.value for i in at.info)


def test_a_dimension_emptied_by_zero_sub_weights_is_said_under_the_ranking(app, kb):
    at = _ok(app.run())
    group = kb.groups[at.selectbox(key="group").value]
    risk = [gc.criterion for gc in group.criteria if kb.criteria[gc.criterion].dimension == "risk"]
    assert risk, "the default group has risk criteria"
    for criterion in risk:
        _ok(at.slider(key=f"cw-{criterion}").set_value(0.0).run())
    captions = " ".join(c.value for c in at.caption)
    assert "dimension `risk` has no criterion in this group" in captions.replace("\\", "")
    assert not [e for e in at.expander if "exclusions" in e.label and not e.children], "no empty expander"
    weights = {c: 0.0 for c in risk}
    _same(_ranking(at), _expected(kb, Preferences(group=group.id, criterion_weights=weights)))
