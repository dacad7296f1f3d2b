"""The app's plain-data views: tables and records built from the knowledge base, checked against the knowledge."""

from __future__ import annotations

import math

import numpy as np
import pytest

from selector import knowledge, matrix, recommend, views
from selector.preferences import PreferenceError, Preferences
from selector.weights import Hierarchy


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


# ----------------------------------------------------------------------------------------------------------
# Pareto frontier


def test_pareto_drops_a_dominated_point():
    # (TOPS, W): the middle chip gives fewer TOPS than the first for more watts.
    points = np.array([[100.0, 10.0], [50.0, 20.0], [200.0, 60.0], [4.0, 2.0]])
    assert views.pareto_mask(points, ["max", "min"]).tolist() == [True, False, True, True]


def test_pareto_respects_the_direction_of_each_axis():
    points = np.array([[1.0, 1.0], [2.0, 2.0]])
    assert views.pareto_mask(points, ["max", "max"]).tolist() == [False, True]
    assert views.pareto_mask(points, ["min", "min"]).tolist() == [True, False]
    assert views.pareto_mask(points, ["max", "min"]).tolist() == [True, True]


def test_pareto_keeps_equal_points_and_skips_missing_ones():
    points = np.array([[5.0, 5.0], [5.0, 5.0], [np.nan, 1.0], [1.0, 9.0]])
    assert views.pareto_mask(points, ["max", "min"]).tolist() == [True, True, False, False]


def test_pareto_refuses_a_shape_that_does_not_match_the_objectives():
    with pytest.raises(ValueError, match="one column per objective"):
        views.pareto_mask(np.ones((3, 3)), ["max", "min"])
    with pytest.raises(ValueError, match="'max' or 'min'"):
        views.pareto_mask(np.ones((3, 2)), ["max", "up"])


# ----------------------------------------------------------------------------------------------------------
# Claims table and filters


def test_claims_table_has_one_row_per_claim_with_quote_and_english(kb):
    table = views.claims_table(kb)
    assert len(table) == len(kb.claims)
    assert list(table.columns) == list(views.CLAIM_COLUMNS)
    row = table.set_index("id").loc["c000-green-ai-efficiency-target"]
    claim = kb.claims["c000-green-ai-efficiency-target"]
    assert row["quote_zh"] == claim.quote
    assert row["text_en"] == claim.text_en
    assert row["flagged"]
    assert claim.flags[0].reason in row["flags"]


def test_search_finds_chinese_and_english_text(kb):
    chinese = views.filter_claims(kb, text="能效比")
    assert chinese
    assert all("能效比" in (c.quote or "") + c.text_en for c in chinese)
    english = views.filter_claims(kb, text="tensorrt THROUGHPUT")
    assert english
    for claim in english:
        parts = [claim.id, claim.quote or "", claim.text_en, claim.rationale or "", claim.note or "", *claim.about]
        haystack = " ".join(parts).lower()
        assert "throughput" in haystack


def test_filters_combine_as_an_intersection(kb):
    flagged = views.filter_claims(kb, flagged=True)
    assert flagged and all(c.flagged for c in flagged)
    unflagged = views.filter_claims(kb, flagged=False)
    assert len(flagged) + len(unflagged) == len(kb.claims)
    doc = views.filter_claims(kb, documents=["004"])
    both = views.filter_claims(kb, documents=["004"], flagged=True)
    assert {c.id for c in both} == {c.id for c in doc} & {c.id for c in flagged}
    about_h200 = views.filter_claims(kb, entities=["h200"])
    assert about_h200 and all("h200" in c.about for c in about_h200)


def test_claim_evidence_names_document_section_and_quote(kb):
    ev = views.claim_evidence(kb, "c004-bench-tensorrt-throughput")
    assert ev["document"].startswith("doc 004")
    assert ev["section"].startswith("1.1 ")
    assert ev["quote_zh"] == kb.claims["c004-bench-tensorrt-throughput"].quote
    assert ev["value"] == "3200 img/s"


# ----------------------------------------------------------------------------------------------------------
# Frameworks


def test_feature_matrix_cells_are_the_values_the_decision_matrix_uses(kb):
    fm = views.feature_matrix(kb)
    assert not fm.values.empty
    for row, entity_id in enumerate(fm.entity_ids):
        for col, criterion_id in enumerate(fm.criterion_ids):
            value = fm.values.iat[row, col]
            claims = matrix.claims_for_cell(kb, kb.criteria[criterion_id], entity_id)
            if not claims:
                assert math.isnan(value)
                continue
            best = [c.value for c in claims if c.tier == claims[0].tier]
            assert value == pytest.approx(float(np.median(best)))
            assert set(fm.claim_ids.iat[row, col]) == {c.id for c in claims if c.tier == claims[0].tier}


def test_article_003_stars_are_in_the_feature_matrix(kb):
    fm = views.feature_matrix(kb)
    column = kb.criteria["stars-debugging"].name_en
    assert fm.values.loc["PyTorch", column] == kb.claims["c003-stars-pytorch-debugging"].value
    hover = views.feature_hover(kb, fm)
    assert "c003-stars-pytorch-debugging" in hover.loc["PyTorch", column]
    assert kb.claims["c003-stars-pytorch-debugging"].quote in hover.loc["PyTorch", column]


def test_comparable_sets_share_metric_unit_and_conditions(kb):
    comparable, alone = views.comparable_sets(kb)
    seen = []
    for found in comparable + alone:
        for claim in found.claims:
            assert claim.metric == found.metric and claim.unit == found.unit
            setting = tuple((k, v) for k, v in claim.conditions.key() if k != "version")
            assert setting == found.conditions
            seen.append(claim.id)
    assert all(len(s.subjects) >= 2 for s in comparable)
    assert all(len(s.subjects) == 1 for s in alone)
    numeric = [c.id for c in kb.claims.values() if c.metric in views.BENCHMARK_METRICS and c.value is not None]
    assert sorted(seen) == sorted(numeric)


def test_article_004_table_forms_one_comparable_throughput_chart(kb):
    comparable, _ = views.comparable_sets(kb, metrics=("throughput",))
    a100 = [s for s in comparable if ("hardware", "a100") in s.conditions]
    assert len(a100) == 1
    assert set(a100[0].subjects) >= {"tensorrt", "pytorch", "onnxruntime"}
    frame = views.comparable_frame(kb, a100[0])
    assert "PyTorch 2.0+Triton" in set(frame["entity"])


def test_flagged_claims_can_be_left_out_of_the_benchmarks(kb):
    comparable, alone = views.comparable_sets(kb, use_flagged=False)
    assert not any(c.flagged for s in comparable + alone for c in s.claims)


# ----------------------------------------------------------------------------------------------------------
# Accelerators


def test_spec_table_holds_every_accelerator_number_in_its_column(kb):
    claims = views.accelerator_claims(kb)
    assert set(claims["segment"]) <= set(views.SEGMENT_LABELS)
    for segment in claims["segment"].unique():
        table = views.spec_table(claims, segment)
        part = claims[claims["segment"] == segment]
        assert set(table.columns) == set(part["name"])
        for name, own in part.groupby("name"):
            assert table.loc["flagged claims", name] == own["flagged"].sum()
            column = table[name].drop("flagged claims")
            assert column.notna().sum() == own.groupby(["metric", "conditions"]).ngroups
            for _, same in own.groupby(["metric", "conditions"]):
                assert (column == same["value"].median()).any()


def test_efficiency_is_claimed_or_derived_from_tops_and_watts(kb):
    eff = views.accelerator_efficiency(kb)
    assert len(eff)
    for _, row in eff.iterrows():
        if row["basis"] == "claimed":
            values = [
                kb.claims[c].value for c in row["claims"].split(", ") if kb.claims[c].metric == "efficiency_tops_per_w"
            ]
            assert row["tops_per_w"] == pytest.approx(float(np.median(values)))
        else:
            assert row["tops_per_w"] == pytest.approx(row["tops"] / row["watts"])
        flagged = any(kb.claims[c].flagged for c in row["claims"].split(", "))
        assert row["flagged"] == flagged


def test_efficiency_compares_chips_on_dense_peaks(kb):
    """Orin has a dense datasheet figure and the article's 172 TOPS of unknown sparsity: only the dense one counts."""
    eff = views.accelerator_efficiency(kb).set_index("entity_id")
    dense = [
        c.value
        for c in kb.claims.values()
        if c.metric == "tops_int8" and c.subject_id == "jetson-orin" and c.conditions.sparsity == "dense"
    ]
    assert dense and eff.loc["jetson-orin", "tops"] == pytest.approx(float(np.median(dense)))
    assert "c004-orin-tops" not in eff.loc["jetson-orin", "claims"].split(", ")


def test_metric_frame_lists_memory_claims(kb):
    frame = views.metric_frame(kb, "memory_capacity_gb")
    expected = {
        c.id
        for c in kb.claims.values()
        if c.metric == "memory_capacity_gb" and kb.entities[c.subject_id].kind == "accelerator"
    }
    assert set(frame["claim"]) == expected and expected


# ----------------------------------------------------------------------------------------------------------
# Recommendation screen helpers


def test_matrix_table_is_the_decision_matrix_transposed(kb):
    m = matrix.build(kb, Preferences(group="gpu-inference-runtimes"))
    table = views.matrix_table(kb, m)
    assert table.shape == (len(m.criteria), len(m.alternatives))
    np.testing.assert_array_equal(table.to_numpy(), m.values.T)
    status = views.matrix_status(m)
    assert status.shape == table.shape
    assert (status.to_numpy() == "imputed").sum() == len(m.imputed_cells)


def test_criterion_profile_gives_the_best_of_a_column_its_weight():
    m = _tiny_matrix([[1.0, 10.0], [3.0, 5.0], [2.0, 5.0]], ["max", "min"], [0.75, 0.25])
    profile = views.criterion_profile(m)
    np.testing.assert_allclose(profile[:, 0], [0.0, 0.75, 0.375])
    np.testing.assert_allclose(profile[:, 1], [0.0, 0.25, 0.25])


def test_central_weights_sum_per_dimension_and_leave_never_first_blank(kb):
    criteria = ("rating-training-speed", "stars-distributed", "rating-cost-efficiency")
    central = [(0.5, 0.25, 0.25), None]
    by_criterion = views.central_weights_table(kb, ["A", "B"], criteria, central)
    assert list(by_criterion.columns) == [kb.criteria[c].name_en for c in criteria]
    assert by_criterion.loc["A"].tolist() == [0.5, 0.25, 0.25]
    assert by_criterion.loc["B"].isna().all()
    by_dimension = views.central_weights_table(
        kb, ["A", "B"], criteria, central, dimension_of=("performance", "performance", "cost")
    )
    names = [kb.dimensions[d].name_en for d in ("performance", "cost")]
    assert list(by_dimension.columns) == names
    assert by_dimension.loc["A"].tolist() == [0.75, 0.25]
    assert by_dimension.loc["B"].isna().all()


def test_sweep_frame_is_long_form():
    grid = np.linspace(0, 1, 5)
    scores = np.arange(10, dtype=float).reshape(5, 2)
    frame = views.sweep_frame(["A", "B"], grid, scores)
    assert len(frame) == 10
    assert frame[frame["alternative"] == "B"]["score"].tolist() == scores[:, 1].tolist()


def _tiny_matrix(values, objectives, weights) -> matrix.DecisionMatrix:
    cells = tuple(
        tuple(matrix.Cell(f"a{i}", f"c{j}", v, ("x",)) for j, v in enumerate(row)) for i, row in enumerate(values)
    )
    n = len(objectives)
    return matrix.DecisionMatrix(
        group="g",
        alternatives=tuple(f"a{i}" for i in range(len(values))),
        criteria=tuple(f"c{j}" for j in range(n)),
        objectives=tuple(objectives),
        dimension_of=("performance",) * n,
        cells=cells,
        weights=np.array(weights),
        hierarchy=Hierarchy.of(("performance",) * n, {"performance": 1.0}),
        sub_weights=np.ones(n),
        scales=np.full((n, 2), np.nan),
        missing_policy="impute-worst",
    )


# ----------------------------------------------------------------------------------------------------------
# Techniques and scenarios


def test_editorial_scenario_mapping_names_known_entities_and_options(kb):
    for entity_id, pairs in views.SCENARIO_BY_ENTITY.items():
        assert entity_id in kb.entities, f"SCENARIO_BY_ENTITY names unknown entity {entity_id}"
        for question, option in pairs:
            assert question in kb.questions
            assert option in {o.id for o in kb.questions[question].options}
    for kind, pairs in views.SCENARIO_BY_KIND.items():
        assert kind in views.TECHNIQUE_KINDS
        assert all(q in kb.questions for q, _ in pairs)


def test_techniques_table_filters_by_scenario(kb):
    everything = views.techniques_table(kb)
    assert set(everything["kind"]) <= set(views.TECHNIQUE_KINDS)
    edge = views.techniques_table(kb, scenarios=[("target", "edge")])
    assert 0 < len(edge) < len(everything)
    for entity_id in edge["id"]:
        assert ("target", "edge") in views.scenario_links(kb, entity_id)
    assert "int8-quantization" in set(edge["id"])
    assert views.techniques_table(kb, scenarios=[]).empty


def test_scenario_links_ignore_unknown_questions(kb, monkeypatch):
    monkeypatch.setitem(views.SCENARIO_BY_ENTITY, "lora", (("no-such-question", "x"), ("goal", "research")))
    assert views.scenario_links(kb, "lora") == [("goal", "research")]
    assert views.scenario_links(kb, "no-such-entity") == []


def test_matrix_display_marks_filled_in_and_flagged_cells(kb):
    m = matrix.build(kb, Preferences(group="training-frameworks"))
    shown = views.matrix_display(kb, m)
    status = views.matrix_status(m).to_numpy()
    table = views.matrix_table(kb, m)
    for (i, j), state in np.ndenumerate(status):
        text = shown.iat[i, j]
        assert text.startswith(f"{table.iat[i, j]:g}")
        assert text.endswith(views.FILLED_MARK) == (state == "imputed")
        assert text.endswith(views.FLAG_MARK) == (state == "flagged")
    assert (status == "imputed").any()


def test_ranking_table_is_an_arrow_table_in_rank_order(kb):
    answers = {"target": "edge", "edge-workload": "static"}
    rec = recommend.recommend(kb, Preferences(group="edge-accelerators", answers=answers))
    table = views.ranking_table(rec.ranking)
    assert table.column_names == ["rank", "name", "score", "shortlisted"]
    assert [str(t) for t in table.schema.types] == ["string", "string", "double", "string"]
    assert table.column("name").to_pylist() == [r.name for r in rec.ranking]
    assert table.column("rank").to_pylist() == [str(r.rank) for r in rec.ranking]
    assert table.column("shortlisted").to_pylist() == ["✓" if r.shortlisted else "" for r in rec.ranking]
    assert "✓" in table.column("shortlisted").to_pylist()


def test_ranking_table_marks_exact_ties(kb):
    marked = 0
    for group in kb.groups:
        for dim in kb.dimensions:
            weights = {d: (100 if d == dim else 0) for d in kb.dimensions}
            try:
                rec = recommend.recommend(kb, Preferences(group=group, dimension_weights=weights))
            except PreferenceError:  # no criterion of that dimension in this group
                continue
            ranks = views.ranking_table(rec.ranking).column("rank").to_pylist()
            for shown, ranked in zip(ranks, rec.ranking, strict=True):
                tied = sum(r.rank == ranked.rank for r in rec.ranking) > 1
                assert shown == (f"{ranked.rank}=" if tied else str(ranked.rank))
                marked += tied
    assert marked, "some one-dimension weighting ties two alternatives"
