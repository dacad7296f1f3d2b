"""Frameworks: the feature matrix (article 003's stars and every assessed rating) and the comparable benchmarks."""

from __future__ import annotations

import streamlit as st

from app_pages._session import session_kb
from app_pages._widgets import plotly_chart, show_claim
from selector import vocabulary
from selector.charts.claims import benchmark_bars
from selector.charts.ratings import feature_heatmap
from selector.escape import streamlit_md as md
from selector.views.evidence import claims_table
from selector.views.frameworks import comparable_frame, comparable_sets, feature_hover, feature_matrix
from selector.views.labels import value_text

kb = session_kb()

st.title("Frameworks and runtimes")
st.caption(
    "Ratings and benchmark numbers of the articles, each traceable to its sentence. Numbers share a chart only "
    "when they were measured under the same conditions; everything else is listed as not comparable."
)

# ----------------------------------------------------------------------------------------------------------
st.subheader("Feature matrix")
features = feature_matrix(kb, "framework")
if features.values.empty:
    st.info("No framework has a rating yet.")
else:
    figure = feature_heatmap(
        features.values,
        features.objectives,
        feature_hover(kb, features),
        "Ratings of frameworks (1-5): article 003's stars and the team's assessed ratings",
    )
    plotly_chart(figure, key="feature-heatmap")
    st.caption(
        "Green is better. For risk and effort criteria a low rating is the good one, so their colours are "
        "mirrored while the number in the cell stays as rated. Hover a cell for its claim and quote."
    )

# ----------------------------------------------------------------------------------------------------------
st.subheader("Benchmarks")
comparable, alone = comparable_sets(kb)
if not comparable:
    st.info("No benchmark has two entities measured under the same conditions.")
# Two charts a row: in a third of a laptop's width the axis titles did not fit their charts.
columns = st.columns(min(2, max(1, len(comparable))))
for index, found in enumerate(comparable):
    frame = comparable_frame(kb, found)
    lower = vocabulary.lower_is_better(kb, found.metric)
    with columns[index % len(columns)]:
        plotly_chart(
            benchmark_bars(
                frame,
                f"{found.label} ({found.unit})",
                found.unit,
                lower_is_better=lower,
            ),
            key=f"bench-{index}",
        )
        st.caption(md("Measured under: " + "; ".join(f"{k}: {v}" for k, v in found.conditions)))
st.caption("Hatched red bars rest on a flagged claim. Hover a bar for its source and quote.")

if alone:
    with st.expander(
        f"Not comparable: {sum(len(s.claims) for s in alone)} numbers measured under their own conditions"
    ):
        st.caption(
            "Each of these numbers has no other entity measured under the same workload, hardware and setting, "
            "so putting it next to another number would mislead."
        )
        st.dataframe(
            claims_table(kb, [c for s in alone for c in s.claims])[
                ["id", "entities", "metric", "value", "unit", "conditions", "quote_zh", "flags"]
            ],
            hide_index=True,
            width="stretch",
        )

# ----------------------------------------------------------------------------------------------------------
st.subheader("Evidence of a value")
choices: dict[str, tuple[str, ...]] = {}
for row_index, name in enumerate(features.values.index):
    for column in features.values.columns:
        ids = features.claim_ids.iloc[row_index][column]
        if ids:
            choices[f"{name} - {column}: {features.values.iloc[row_index][column]:g}"] = tuple(ids)
for found in comparable:
    for claim in found.claims:
        label = f"{kb.entity_name(claim.subject_id)} - {found.label}: {value_text(claim)}"
        choices[label] = (claim.id,)
if choices:
    picked = st.selectbox("Pick a value to see its full evidence", options=list(choices), key="fw-value")
    for claim_id in choices[picked]:
        show_claim(kb, claim_id)
