"""Data sources and licences: each bundled public dataset with its licence, the attribution it requires, its
snapshot date and age, the changes made on import, and the NOTICE files its licence asks to reproduce."""

from __future__ import annotations

import streamlit as st

from app_pages import _lang
from app_pages._lang import _
from app_pages._session import session_kb
from app_pages._widgets import reference_date
from selector.escape import streamlit_md as md
from selector.knowledge import provenance
from selector.knowledge.loading import DEFAULT_KNOWLEDGE
from selector.knowledge.locators import RAW_DIR

kb = session_kb()
today = reference_date()
lang = _lang.current()

st.title(_("Data sources and licences"))
st.caption(
    _(
        "Besides the three articles and our own ratings, the knowledge bundles snapshots of public datasets (raw "
        "files under knowledge/imports/raw/, each beside its licence files). Every benchmarked or datasheet number "
        "cites one of them with a footnote naming its row and retrieval date; numbers from a snapshot older than "
        "{months} months are marked ageing."
    ).format(months=provenance.AGEING_MONTHS)
)

found = provenance.datasets(kb)
if not found:
    st.info(_("This knowledge bundles no public dataset."))
for data in found:
    with st.container(border=True, key=f"dataset-{data.id}"):
        # dataset titles, licences and attributions keep their original terms (licences ask for them verbatim)
        st.subheader(md(data.title))
        licence_url = provenance.LICENCE_URLS.get(data.licence)
        licence = f"[{data.licence}]({licence_url})" if licence_url else md(data.licence)
        age = md(provenance.dataset_age_text(data, today, lang))
        line = _("**Licence:** {licence} · **{claims} claims** · {age}")
        st.markdown(line.format(licence=licence, claims=data.claims, age=age))
        st.markdown(_("**Attribution:** {attribution}").format(attribution=md(data.attribution)))
        changes = provenance.conversions_used(kb, data.id, lang=lang)
        if changes:
            st.markdown(
                _(
                    "**Changes made on import:** {changes}. Values are rounded to 6 decimals; nothing else is altered."
                ).format(changes=md("; ".join(changes)))
            )
        where = "; ".join(data.upstream)
        if data.url:
            where += " · " + _("page {url}").format(url=data.url)
        files = ", ".join(f"knowledge/{RAW_DIR}/{f}" for f in data.licence_files)
        st.caption(md(_("Upstream: {where} · licence files bundled: {files}").format(where=where, files=files)))
        for name, text in provenance.notices(data, DEFAULT_KNOWLEDGE):
            with st.expander(_("NOTICE ({name})").format(name=md(name))):
                st.code(text, language=None, wrap_lines=True)

st.subheader(_("Tiers of evidence"))
st.markdown(
    "\n".join(
        f"- **{_(provenance.TIER_NAMES[tier])}**: {md(_(provenance.TIER_DESCRIPTIONS[tier]))}"
        for tier in provenance.tier_order()
    )
)
st.caption(
    _(
        "A cell of a ranking takes its value from the strongest tier present. MLPerf figures per accelerator are "
        "derived (system result / accelerators), not results verified by MLCommons; their footnotes say so."
    )
)
