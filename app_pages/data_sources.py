"""Data sources and licences: each bundled public dataset with its licence, the attribution it requires, its
snapshot date and age, the changes made on import, and the NOTICE files its licence asks to reproduce."""

from __future__ import annotations

import streamlit as st

from app_pages._session import session_kb
from app_pages._widgets import reference_date
from selector import provenance
from selector.escape import streamlit_md as md
from selector.knowledge import DEFAULT_KNOWLEDGE
from selector.locators import RAW_DIR

kb = session_kb()
today = reference_date()

st.title("Data sources and licences")
st.caption(
    "Besides the three articles and our own ratings, the knowledge bundles snapshots of public datasets (raw files "
    "under knowledge/imports/raw/, each beside its licence files). Every benchmarked or datasheet number cites "
    "one of them with a footnote naming its row and retrieval date; numbers from a snapshot older than "
    f"{provenance.AGEING_MONTHS} months are marked ageing."
)

found = provenance.datasets(kb)
if not found:
    st.info("This knowledge bundles no public dataset.")
for data in found:
    with st.container(border=True, key=f"dataset-{data.id}"):
        st.subheader(md(data.title))
        licence_url = provenance.LICENCE_URLS.get(data.licence)
        licence = f"[{data.licence}]({licence_url})" if licence_url else md(data.licence)
        age = md(provenance.dataset_age_text(data, today))
        st.markdown(f"**Licence:** {licence} · **{data.claims} claims** · {age}")
        st.markdown(f"**Attribution:** {md(data.attribution)}")
        changes = provenance.conversions_used(kb, data.id)
        if changes:
            st.markdown(
                "**Changes made on import:** "
                + md("; ".join(changes))
                + ". Values are rounded to 6 decimals; nothing else is altered."
            )
        st.caption(
            md(
                "Upstream: "
                + "; ".join(data.upstream)
                + (f" · page {data.url}" if data.url else "")
                + " · licence files bundled: "
                + ", ".join(f"knowledge/{RAW_DIR}/{f}" for f in data.licence_files)
            )
        )
        for name, text in provenance.notices(data, DEFAULT_KNOWLEDGE):
            with st.expander(f"NOTICE ({md(name)})"):
                st.code(text, language=None, wrap_lines=True)

st.subheader("Tiers of evidence")
st.markdown("\n".join(f"- **{tier}**: {md(provenance.TIER_DESCRIPTIONS[tier])}" for tier in provenance.tier_order()))
st.caption(
    "A cell of a ranking takes its value from the strongest tier present. MLPerf figures per accelerator are "
    "derived (system result / accelerators), not results verified by MLCommons; their footnotes say so."
)
