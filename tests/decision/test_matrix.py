"""The decision matrix: cells come only from comparable evidence, weights are hierarchical, gaps are explicit."""

from __future__ import annotations

import numpy as np
import pytest

from selector.decision import matrix
from selector.decision.preferences import PreferenceError, Preferences
from selector.decision.problem import Problem
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _cell(m: matrix.DecisionMatrix, alt: str, crit: str) -> matrix.Cell:
    return m.cells[m.alternatives.index(alt)][m.criteria.index(crit)]


def test_benchmark_cells_cite_the_table_of_article_004(kb):
    m = matrix.build(kb, Preferences(group="gpu-inference-runtimes"))
    cell = _cell(m, "tensorrt", "throughput-resnet50-a100")
    assert cell.evidence == ("c004-bench-tensorrt-throughput",)
    assert cell.value == kb.claims["c004-bench-tensorrt-throughput"].value
    assert not cell.imputed


def test_values_under_other_conditions_never_enter_a_column(kb):
    # ONNX Runtime also has a BERT-base latency (article 000); only the ResNet-50/A100 figure may fill the column.
    m = matrix.build(kb, Preferences(group="gpu-inference-runtimes"))
    cell = _cell(m, "onnxruntime", "latency-resnet50-a100")
    assert cell.evidence == ("c004-bench-onnxruntime-latency",)
    for row in m.cells:
        for c in row:
            crit = kb.criteria[c.criterion]
            for claim_id in c.evidence:
                claim = kb.claims[claim_id]
                assert claim.metric == crit.metric
                for key, wanted in crit.conditions.model_dump(exclude_none=True).items():
                    assert str(getattr(claim.conditions, key)).lower() == str(wanted).lower()


def test_hierarchical_weights_multiply_dimension_and_sub_weights(kb):
    # A group with a criterion in each of the four dimensions (the training group has no cost criterion).
    m = matrix.build(kb, Preferences(group="gpu-inference-runtimes"))
    assert m.weights.sum() == pytest.approx(1.0)
    dims = {"performance": 0.40, "cost": 0.25, "ecosystem": 0.20, "risk": 0.15}
    group = kb.groups["gpu-inference-runtimes"]
    sub = {gc.criterion: gc.weight for gc in group.criteria}
    for crit, dim, weight in zip(m.criteria, m.dimension_of, m.weights, strict=True):
        inside = sum(w for c, w in sub.items() if kb.criteria[c].dimension == dim)
        assert weight == pytest.approx(dims[dim] * sub[crit] / inside)


def test_weights_are_normalised_so_scale_does_not_matter(kb):
    a = matrix.build(kb, Preferences(group="edge-accelerators", dimension_weights={"cost": 50}))
    b = matrix.build(
        kb,
        Preferences(
            group="edge-accelerators", dimension_weights={"performance": 4, "cost": 5, "ecosystem": 2, "risk": 1.5}
        ),
    )
    assert np.allclose(a.weights, b.weights)


def test_missing_cells_are_filled_at_the_scales_worst_end_by_default_and_listed(kb):
    m = matrix.build(kb, Preferences(group="training-frameworks"))
    imputed = {(c.alternative, c.criterion) for c in m.imputed_cells}
    assert ("mindspore", "stars-debugging") in imputed
    assert _cell(m, "mindspore", "stars-debugging").value == kb.criteria["stars-debugging"].scale[0]
    assert all(c.evidence == () and "imputed" in c.note for c in m.imputed_cells)


def test_the_scales_worst_end_of_a_cost_criterion_is_its_upper_bound(kb):
    m = matrix.build(kb, Preferences(group="datacenter-accelerators"))
    col = m.criteria.index("joules-per-pflop-bf16")
    filled = [row[col].value for row in m.cells if row[col].imputed]
    assert filled and all(v == kb.criteria["joules-per-pflop-bf16"].scale[1] for v in filled)


def test_the_column_worst_policy_keeps_the_earlier_default(kb):
    m = matrix.build(kb, Preferences(group="training-frameworks", missing="impute-column-worst"))
    col = m.criteria.index("stars-debugging")
    known = [c.value for row in m.cells for c in [row[col]] if not c.imputed]
    assert _cell(m, "mindspore", "stars-debugging").value == min(known)
    m = matrix.build(kb, Preferences(group="datacenter-accelerators", missing="impute-column-worst"))
    col = m.criteria.index("joules-per-pflop-bf16")
    known = [row[col].value for row in m.cells if not row[col].imputed]
    assert all(row[col].value == max(known) for row in m.cells if row[col].imputed)


def test_median_policy(kb):
    m = matrix.build(kb, Preferences(group="datacenter-accelerators", missing="impute-median"))
    col = m.criteria.index("memory-capacity")
    known = sorted(row[col].value for row in m.cells if not row[col].imputed)
    assert all(row[col].value == pytest.approx(float(np.median(known))) for row in m.cells if row[col].imputed)


def test_exclude_criterion_policy_drops_incomplete_columns(kb):
    m = matrix.build(kb, Preferences(group="training-frameworks", missing="exclude-criterion"))
    assert "stars-debugging" not in m.criteria
    assert any(e.id == "stars-debugging" and "mindspore" in e.reason for e in m.excluded_criteria)
    assert not m.imputed_cells


def test_exclude_alternative_policy_drops_incomplete_rows(kb):
    m = matrix.build(kb, Preferences(group="training-frameworks", missing="exclude-alternative"))
    assert "mindspore" not in m.alternatives
    assert any(e.id == "mindspore" for e in m.excluded_alternatives)
    assert not m.imputed_cells


def test_zero_weight_criterion_is_left_out_with_a_reason(kb):
    m = matrix.build(kb, Preferences(group="edge-accelerators", criterion_weights={"power-w": 0}))
    assert "power-w" not in m.criteria
    assert any(e.id == "power-w" and "zero" in e.reason for e in m.excluded_criteria)
    # cost has no criterion left: its weight is shared out and said so.
    assert "cost" not in m.dimension_weights
    assert any(f"the {kb.dimensions['cost'].name_en} dimension" in note for note in m.notes)


def test_a_dimension_left_without_weight_is_refused(kb):
    prefs = Preferences(
        group="edge-accelerators",
        dimension_weights={"performance": 0, "ecosystem": 0, "risk": 0, "cost": 10},
        criterion_weights={"power-w": 0},
    )
    with pytest.raises(PreferenceError, match="weight zero"):
        matrix.build(kb, prefs)


def test_excluding_flagged_claims_empties_their_cells(kb):
    # the laptop NPUs store article 004's flagged TOPS/W at weight 0: a user who ranks it gets the flagged cell
    ranked = {"efficiency-tops-per-w": 1}
    with_flags = matrix.build(kb, Preferences(group="client-npus", criterion_weights=ranked))
    assert _cell(with_flags, "amd-xdna", "efficiency-tops-per-w").flagged
    without = matrix.build(kb, Preferences(group="client-npus", criterion_weights=ranked, use_flagged=False))
    # XDNA's is the group's only NPU figure and flagged, so without it no member has evidence and the column leaves.
    assert "efficiency-tops-per-w" not in without.criteria
    assert "efficiency-tops-per-w" in with_flags.criteria
    assert "efficiency-tops-per-w" in {e.id for e in without.excluded_criteria}


def test_a_user_override_replaces_the_article_value(tmp_path):
    extra = b"""
sources:
  - {id: user-lab, kind: user, title_en: Our lab}
claims:
  - id: u-orin-power
    source: user-lab
    tier: measured
    kind: benchmark
    text_en: We measured 42 W.
    about: [jetson-orin]
    metric: power_w
    value: 42
    unit: W
    overrides: c004-orin-power
"""
    kb = knowledge.load(extra=[Upload("mine.yaml", extra)])
    m = matrix.build(kb, Preferences(group="edge-accelerators"))
    cell = _cell(m, "jetson-orin", "power-w")
    assert cell.value == 42
    assert cell.evidence == ("u-orin-power",)
    assert cell.tier == "measured"


def test_the_evidence_grid_is_kept_per_knowledge_base_and_changes_nothing(kb):
    """A weight change reuses the evidence gathered for the same knowledge base, group and flag choice; another
    knowledge base object (an upload merged in) gathers its own, even when its content is the same."""
    group = "gpu-inference-runtimes"
    first = matrix.build(kb, Preferences(group=group))
    grid = matrix._evidence_grid(kb, group, True)
    moved = matrix.build(kb, Preferences(group=group, dimension_weights={"cost": 70}))
    assert matrix._evidence_grid(kb, group, True) is grid
    assert moved.cells == first.cells and not np.array_equal(moved.weights, first.weights)
    assert matrix._evidence_grid(kb, group, False) is not grid  # flagged claims left out: other cells

    other = knowledge.load()
    assert matrix._evidence_grid(other, group, True) is not grid
    fresh = matrix.build(other, Preferences(group=group, dimension_weights={"cost": 70}))
    assert fresh.cells == moved.cells
    np.testing.assert_array_equal(fresh.values, moved.values)


def test_what_is_ranked_is_kept_across_dimension_weights_but_not_across_policy_or_zero_weights(kb):
    group = "training-frameworks"
    base = matrix.build(kb, Preferences(group=group))
    moved = matrix.build(kb, Preferences(group=group, dimension_weights={"risk": 90}))
    assert moved.cells is base.cells  # the same kept layout: only the weights were rebuilt
    assert not np.array_equal(moved.weights, base.weights)

    policy = matrix.build(kb, Preferences(group=group, missing="exclude-alternative"))
    assert policy.cells is not base.cells
    assert len(policy.alternatives) < len(base.alternatives)  # MindSpore lacks evidence for three criteria
    assert policy.excluded_alternatives and not base.excluded_alternatives

    dropped = base.criteria[0]
    zero = matrix.build(kb, Preferences(group=group, criterion_weights={dropped: 0}))
    assert dropped not in zero.criteria
    assert any(e.id == dropped and "weight is zero" in e.reason for e in zero.excluded_criteria)
    assert matrix.build(kb, Preferences(group=group)).cells is base.cells  # the default layout is still kept


@pytest.mark.parametrize("method", ["topsis", "wpm"])
def test_a_kept_layout_gives_the_problem_a_fresh_check_would(kb, method):
    group = "training-frameworks"
    for weights in ({}, {"risk": 90}, {"performance": 3, "cost": 0}):
        dm = matrix.build(kb, Preferences(group=group, dimension_weights=weights))
        # the fresh check takes the hierarchy's weights, as the problem did before the matrix normalised them once
        kept, fresh = (
            dm.problem(method),
            Problem.of(dm.values, dm.objectives, dm.hierarchy.weights, method, None, dm.alternatives, dm.criteria),
        )
        assert kept.weights.tolist() == fresh.weights.tolist() and kept.values.tolist() == fresh.values.tolist()
        assert (kept.spec, kept.scaler, kept.alternatives, kept.criteria) == (
            fresh.spec,
            fresh.scaler,
            fresh.alternatives,
            fresh.criteria,
        )
        assert not kept.weights.flags.writeable


def test_dimension_weights_of_1e308_give_equal_shares_without_overflow(kb) -> None:
    import warnings

    # The preferences refuse weights above MAX_WEIGHT; the matrix must not overflow even when handed them.
    huge = Preferences.model_construct(
        group="edge-accelerators",
        answers={},
        dimension_weights={d: 1e308 for d in kb.dimensions},
        criterion_weights={},
        method="wsm",
        scaler=None,
        missing="impute-worst",
        use_flagged=True,
    )
    equal = Preferences(group="edge-accelerators", dimension_weights={d: 1.0 for d in kb.dimensions})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = matrix.build(kb, huge)
    assert np.all(np.isfinite(m.weights))
    assert m.weights == pytest.approx(matrix.build(kb, equal).weights, rel=1e-12)


def test_a_datasheet_number_outranks_an_article_number_for_the_same_cell() -> None:
    from selector.decision import matrix as _matrix
    from selector.decision.preferences import Preferences as _Prefs
    from selector.knowledge import loading as _knowledge

    kb = _knowledge.load()
    m = _matrix.build(kb, _Prefs(group="datacenter-accelerators"))
    cell = m.cells[m.alternatives.index("mi300x")][m.criteria.index("memory-capacity")]
    assert (cell.tier, cell.evidence, cell.value) == ("reference", ("epoch-mi300x-memory",), 192.0)
    assert "1 lower-tier claim(s) not used" in cell.note  # article 003's 192 GB stays listed, not used


def test_cost_per_million_tokens_is_derived_from_its_input_cells_and_stored_unranked() -> None:
    from selector.decision import matrix as _matrix
    from selector.decision.preferences import Preferences as _Prefs
    from selector.knowledge import loading as _knowledge

    kb = _knowledge.load()
    m = _matrix.build(kb, _Prefs(group="llm-inference-accelerators"))
    assert "usd-per-million-tokens-llama2-70b" not in m.criteria
    stored = {c.alternative: c for c in _matrix.unranked_cells(kb, m) if c.criterion.startswith("usd-per-million")}
    price = _matrix._cell(kb, kb.criteria["cloud-usd-per-gpu-hour-2026"], "h100", True)
    tps = m.cells[m.alternatives.index("h100")][m.criteria.index("mlperf-llama2-70b-offline")]
    assert stored["h100"].value == pytest.approx(price.value / (tps.value * 3600) * 1e6)
    assert set(stored["h100"].evidence) == set(price.evidence) | set(tps.evidence)
    assert stored["h100"].tier == "reference"  # the weaker of reference (price) and benchmarked (throughput)
    assert "x 3600" in stored["h100"].note and "as of 2026-05-19; on demand, neocloud" in stored["h100"].note
    assert stored["b200"].value is None and "cloud-usd-per-gpu-hour-2026" in stored["b200"].note


def test_a_cost_per_token_column_uses_one_price_basis() -> None:
    """Issue 32: FSDL's 2022-24 list prices never meet AccelMark's April 2026 rates in a cost-per-token cell."""
    kb = knowledge.load()
    mixed = matrix._cell(kb, kb.criteria["cloud-usd-per-gpu-hour"], "h100", True)
    one = matrix._cell(kb, kb.criteria["cloud-usd-per-gpu-hour-2026"], "h100", True)
    assert any(kb.claims[c].source == "fsdl-cloud-gpus" for c in mixed.evidence)
    assert one.evidence == ("accelmark-price-h100",) and one.value == 2.49 < mixed.value
    for criterion in ("usd-per-million-tokens-llama2-70b", "usd-per-million-tokens-accelmark-suite-a"):
        assert kb.criteria[criterion].derived.price == "cloud-usd-per-gpu-hour-2026"
    versions = {
        kb.claims[c].conditions.version
        for c in kb.claims
        if kb.claims[c].source == "accelmark" and kb.claims[c].metric == "cloud_usd_per_gpu_hour"
    }
    assert versions == {kb.criteria["cloud-usd-per-gpu-hour-2026"].conditions.version}


def test_a_users_price_fills_the_dated_price_column_a_cost_per_token_divides(kb):
    """The April 2026 price column takes only that list's prices (its conditions), but a user's own price replaces
    any basis, in the column as in the cost per token derived from it; a chip without either stays filled in."""
    from selector.uploads import intake
    from tests.conftest import KNOWLEDGE

    rows = b"entity,metric,value,unit\ngaudi3,cloud_usd_per_gpu_hour,0.3,USD per GPU-hour\n"
    mine = intake.validate_upload("prices.csv", rows, KNOWLEDGE).kb
    prefs = Preferences(group="datacenter-accelerators", criterion_weights={"cloud-usd-per-gpu-hour-2026": 1})
    before, after = matrix.build(kb, prefs), matrix.build(mine, prefs)
    assert _cell(before, "gaudi3", "cloud-usd-per-gpu-hour-2026").imputed
    cell = _cell(after, "gaudi3", "cloud-usd-per-gpu-hour-2026")
    assert (cell.value, cell.tier, cell.note) == (0.3, "measured", "your own price")
    assert _cell(after, "h100", "cloud-usd-per-gpu-hour-2026") == _cell(before, "h100", "cloud-usd-per-gpu-hour-2026")
    assert _cell(after, "tpu-v5p", "cloud-usd-per-gpu-hour-2026").imputed
