"""Robustness: does the ranking survive other weightings, other methods and another set of alternatives?"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from app_pages import state
from selector import charts, scoring, views
from selector.preferences import PreferenceError

kb = state.session_kb()
state.knowledge_caption(kb)
prefs = state.current_prefs(kb)

st.title("How robust is the ranking?")
try:
    rec = state.recommendation(kb, prefs)
except (PreferenceError, scoring.ScoringError) as exc:
    st.error(f"The current settings cannot be ranked: {state.md(exc)}. Change them on the Recommend page.")
    st.stop()

m = rec.matrix
method, scaler = rec.result.method, rec.result.scaler
group = kb.groups[m.group]
st.caption(
    state.md(
        f"{group.name_en}, {scoring.METHODS[method].label} with {scaler} scaling, "
        + ", ".join(f"{kb.dimensions[d].name_en} {w:.0%}" for d, w in m.dimension_weights.items())
        + ". Change these on the Recommend page."
    )
)
if not state.has_sensitivity():
    st.info("The robustness analyses (selector.sensitivity) are not installed yet.")
    st.stop()

from selector import sensitivity  # noqa: E402 - only once it is known to exist

entity_names = [kb.entity_name(a) for a in m.alternatives]
names = tuple(entity_names if len(set(entity_names)) == len(entity_names) else m.alternatives)
if len(names) < 2:
    st.info("Only one alternative is left to rank; there is nothing to compare.")
    st.stop()

# ----------------------------------------------------------------------------------------------------------
st.subheader("Rank acceptability (SMAA)")
samples_col, seed_col, sampling_col, spread_col = st.columns(4)
with samples_col:
    n_samples = st.number_input(
        "Samples", min_value=200, max_value=50_000, value=state.SMAA_SAMPLES, step=500, key="rb-samples"
    )
with seed_col:
    seed = st.number_input("Seed", min_value=0, max_value=2**31 - 1, value=state.SMAA_SEED, step=1, key="rb-seed")
with sampling_col:
    sampling = st.radio(
        "Weightings sampled",
        options=["around", "simplex"],
        format_func={"around": "around your weights", "simplex": "any weights at all"}.get,
        key="rb-sampling",
    )
with spread_col:
    spread = st.slider(
        "Spread around your weights (± share)",
        min_value=0.02,
        max_value=0.50,
        value=state.SMAA_SPREAD,
        step=0.01,
        key="rb-spread",
        disabled=sampling == "simplex",
    )
try:
    smaa = state.smaa_for(rec, int(n_samples), int(seed), None if sampling == "simplex" else float(spread))
except scoring.ScoringError as exc:
    st.error(f"SMAA cannot run with these inputs: {state.md(exc)}")
    st.stop()

heat_col, table_col = st.columns([1, 1], gap="large")
with heat_col:
    st.plotly_chart(
        charts.acceptability_heatmap(smaa.acceptability, names, f"Share of {smaa.n_samples:,} sampled weightings"),
        key="acceptability",
        config={"displaylogo": False},
    )
with table_col:
    summary = pd.DataFrame(
        {
            "alternative": names,
            "first": smaa.first_rank_acceptability,
            "expected rank": smaa.expected_rank,
            "confidence": [np.nan if c is None else c for c in smaa.confidence],
        }
    ).sort_values("expected rank")
    st.dataframe(
        summary,
        hide_index=True,
        width="stretch",
        column_config={
            "first": st.column_config.ProgressColumn("ranked first", format="percent", min_value=0, max_value=1),
            "expected rank": st.column_config.NumberColumn(format="%.2f"),
            "confidence": st.column_config.NumberColumn(
                format="percent", help="how often it ranks first under its own central weights"
            ),
        },
    )
    st.caption(state.md(f"Weights drawn {smaa.weight_sampling}; seed {smaa.seed}."))
    if smaa.uncertain_cells:
        st.caption(
            f"{len(smaa.uncertain_cells)} cell(s) without evidence are drawn across their criterion's plausible "
            "range instead of the single filled-in value."
        )

# ----------------------------------------------------------------------------------------------------------
st.subheader("Tipping points")
dimensions = list(m.dimension_weights)
tips = sensitivity.tipping_points(
    m.values, m.objectives, m.dimension_of, m.dimension_weights, m.sub_weights, method, scaler, names, m.criteria
)
if tips:
    st.markdown("\n".join(f"- {state.md(t.sentence)}" for t in tips))
else:
    st.success("Moving any one dimension's weight from 0% to 100% never changes the leader.")
if len(dimensions) >= 2:
    dimension = st.selectbox(
        "Sweep the weight of",
        options=dimensions,
        format_func=lambda d: kb.dimensions[d].name_en if d in kb.dimensions else d,
        key="rb-dimension",
    )
    sweep = sensitivity.weight_sweep(
        m.values,
        m.objectives,
        m.dimension_of,
        m.dimension_weights,
        m.sub_weights,
        dimension,
        method,
        scaler,
        names,
        m.criteria,
    )
    label = kb.dimensions[dimension].name_en if dimension in kb.dimensions else dimension
    st.plotly_chart(
        charts.weight_sweep_chart(
            views.sweep_frame(names, sweep.grid, sweep.scores),
            label,
            sweep.current_weight,
            [t.weight for t in tips if t.dimension == dimension],
            f"Scores as the weight of {label} goes from 0% to 100% (others keep their proportions)",
            score_title="score (" + ("higher" if sweep.higher_is_better else "lower") + " is better)",
        ),
        key="weight-sweep",
        config={"displaylogo": False},
    )

# ----------------------------------------------------------------------------------------------------------
agree_col, reversal_col = st.columns(2, gap="large")
with agree_col:
    st.subheader("Do the methods agree?")
    agreement = sensitivity.method_agreement(m.values, m.objectives, m.weights, names, m.criteria)
    st.markdown(state.md(agreement.summary))
    labels = [f"{scoring.METHODS[k].label} / {s}" for k, s in zip(agreement.methods, agreement.scalers, strict=True)]
    st.dataframe(
        pd.DataFrame(agreement.ranks.T, index=pd.Index(agreement.alternatives, name="rank under"), columns=labels),
        width="stretch",
    )
    st.caption("Kendall's tau between the methods' rankings (1 = same order, -1 = reversed):")
    st.dataframe(
        pd.DataFrame(agreement.kendall_tau, index=labels, columns=labels).style.format("{:.2f}", na_rep="n/a"),
        width="stretch",
    )
    for skipped, why in agreement.skipped.items():
        st.caption(state.md(f"{skipped} skipped: {why}"))
with reversal_col:
    st.subheader("Rank reversal")
    reversal = sensitivity.rank_reversal(m.values, m.objectives, m.weights, method, scaler, names, m.criteria)
    (st.warning if reversal.any_reversal else st.success)(state.md(reversal.summary))
    st.dataframe(
        pd.DataFrame(
            [
                {
                    "change": ("remove " if p.kind == "remove" else "add a copy of ") + p.subject,
                    "order of the others changed": "yes" if p.changed else "no",
                    "swapped": "; ".join(f"{a} / {b}" for a, b in p.swapped_pairs),
                    "ties changed": "; ".join(f"{a} / {b}" for a, b in p.tie_changes),
                }
                for p in reversal.perturbations
            ]
        ),
        hide_index=True,
        width="stretch",
    )
