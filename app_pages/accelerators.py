"""Accelerators: spec tables by segment, compute against power with its Pareto frontier, efficiency and memory."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages import state
from selector import charts, views

# The reference lines of the efficiency chart: the target and the average of article 000 (section 3.3).
TARGET_CLAIM = "c000-green-ai-efficiency-target"
AVERAGE_CLAIM = "c000-industry-avg-efficiency"


@st.cache_data(max_entries=16, show_spinner=False)
def _tables(_kb, data_hash: str) -> tuple[pd.DataFrame, dict[str, pd.DataFrame], pd.DataFrame]:  # noqa: ANN001
    # What depends on the knowledge alone (its hash is the key), built once instead of on every visit: the
    # claims, the spec table of each segment as shown, and the efficiency frame.
    claims = views.accelerator_claims(_kb)
    specs = {
        segment: views.spec_table(claims, segment)
        for segment in views.SEGMENT_LABELS
        if (claims["segment"] == segment).any()
    }
    return claims, specs, views.accelerator_efficiency(_kb)


kb = state.session_kb()
state.knowledge_caption(kb)
claims, spec_tables, efficiency = _tables(kb, kb.data_hash)

st.title("Accelerators")
st.caption(
    "Every number the articles give about a chip, by market segment. Flagged numbers (contradicting a "
    "datasheet, unverifiable or implausible) are drawn red with an x or hatching; hover for the reason."
)

# ----------------------------------------------------------------------------------------------------------
st.subheader("Specifications by segment")
segments = list(spec_tables)
if not segments:
    st.info("No numeric claim about an accelerator yet.")
for tab, segment in zip(st.tabs([views.SEGMENT_LABELS[s] for s in segments]), segments, strict=True):
    with tab:
        table = spec_tables[segment]
        # Rows mix units, so a column is read, not sorted: numbers are shown as stated and gaps stay blank.
        shown = table.map(lambda v: "" if pd.isna(v) else f"{v:g}")
        st.dataframe(shown, width="stretch", height=35 * (len(table) + 1) + 3)
        others = [
            e.name
            for e in kb.entities.values()
            if e.kind == "accelerator" and e.segment == segment and e.name not in set(claims["name"])
        ]
        if others:
            st.caption(state.md("No numbers stated for: " + ", ".join(others)))

# ----------------------------------------------------------------------------------------------------------
st.subheader("Energy efficiency")
both = efficiency.dropna(subset=["tops", "watts"]).reset_index(drop=True)
scatter_col, bars_col = st.columns(2, gap="large")
with scatter_col:
    if len(both):
        frontier = views.pareto_mask(both[["tops", "watts"]].to_numpy(), ["max", "min"])
        st.plotly_chart(
            charts.efficiency_scatter(both, frontier, "INT8 compute against power (Pareto frontier dotted)"),
            key="tops-watts",
            config={"displaylogo": False},
        )
        st.caption(
            "On the frontier: no other chip gives more TOPS for fewer watts. Only chips with both a TOPS and a "
            "power claim appear here."
        )
    else:
        st.info("No accelerator has both a TOPS and a power claim.")
with bars_col:
    references = {}
    for name, claim_id in (("target", TARGET_CLAIM), ("average", AVERAGE_CLAIM)):
        claim = kb.claims.get(claim_id)
        if claim is not None and claim.value is not None:
            label = "Green-AI target" if name == "target" else "stated industry average"
            references[name] = (label + (" (flagged)" if claim.flagged else ""), claim.value)
    if len(efficiency):
        st.plotly_chart(
            charts.efficiency_bars(
                efficiency,
                "TOPS per watt: claimed, or derived from TOPS and watts",
                target=references.get("target"),
                average=references.get("average"),
            ),
            key="tops-per-watt",
            config={"displaylogo": False},
        )
    for claim_id in (TARGET_CLAIM, AVERAGE_CLAIM):
        if claim_id in kb.claims:
            with st.expander(state.md(f"Reference line: {kb.claims[claim_id].text_en}")):
                state.show_claim(kb, claim_id)

# ----------------------------------------------------------------------------------------------------------
st.subheader("Memory and bandwidth")
memory_col, bandwidth_col = st.columns(2, gap="large")
for column, metric, title in (
    (memory_col, "memory_capacity_gb", "On-package memory"),
    (bandwidth_col, "bandwidth_tbps", "Memory bandwidth"),
):
    frame = views.metric_frame(kb, metric)
    with column:
        if frame.empty:
            st.info(f"No {title.lower()} claim about an accelerator.")
            continue
        unit = frame["unit"].iloc[0]
        st.plotly_chart(
            charts.metric_bars(frame, title, f"{views.metric_label(metric).lower()} ({unit})"),
            key=f"metric-{metric}",
            config={"displaylogo": False},
        )
        settings = [f"{n}: {c or 'none stated'}" for n, c in zip(frame["name"], frame["conditions"], strict=True)]
        if frame["conditions"].nunique() > 1 or frame["conditions"].iloc[0]:
            st.caption(state.md("Settings: " + "; ".join(settings)))

# ----------------------------------------------------------------------------------------------------------
st.subheader("Evidence of a number")
if len(claims):
    labels = {
        f"{row['name']} - {row['label']}: {row['comparator'] if row['comparator'] != '=' else ''}"
        f"{row['value']:g} {row['unit']} ({row['claim']})": row["claim"]
        for _, row in claims.iterrows()
    }
    picked = st.selectbox("Pick a number to see its full evidence", options=list(labels), key="acc-claim")
    state.show_claim(kb, labels[picked])
