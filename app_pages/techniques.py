"""Techniques and cases: techniques, case studies, tools, models, datasets and resources, linked to scenarios."""

from __future__ import annotations

import streamlit as st

from app_pages import _lang
from app_pages._lang import _
from app_pages._session import current_prefs, session_kb
from app_pages._widgets import markdown_table, show_claim
from selector.decision import decision_tree
from selector.escape import streamlit_md as md
from selector.views.techniques import KIND_LABELS, TECHNIQUE_KINDS, scenario_label, techniques_table

kb = session_kb()
prefs = current_prefs(kb)
answers = decision_tree.resolve_answers(kb, prefs.answers)
lang = _lang.current()

st.title(_("Techniques, cases and resources"))
st.caption(
    _(
        "What the articles say about optimisation techniques, deployed systems, tools, models, datasets and "
        "learning resources. The link to scenarios is this app's editorial grouping, not a statement of the articles."
    )
)

YOURS, EVERYTHING = "yours", "all"
# A kind with more rows than this scrolls in a box of TALL pixels, so the claims below stay near.
TALL_ROWS, TALL = 12, 560
pairs = [(q.id, o.id) for q in kb.questions.values() for o in q.options]
options = [YOURS, EVERYTHING, *[f"{q}={o}" for q, o in pairs]]


def _label(option: str) -> str:
    if option == YOURS:
        return _("Your scenario (answers on the Recommend page)")
    if option == EVERYTHING:
        return _("Everything")
    question, answer = option.split("=", 1)
    return scenario_label(kb, question, answer, lang=lang)


scenario = st.selectbox(_("Show what serves"), options=options, format_func=_label, key="tech-scenario")
if scenario == YOURS and not answers:
    # no question answered yet: everything serves "your scenario", rather than an empty page
    wanted = None
    st.caption(_("You have not answered a scenario question on Recommend yet: everything is shown."))
elif scenario == YOURS:
    wanted = list(answers.items())
    yours = "; ".join(scenario_label(kb, q, a, lang=lang) for q, a in wanted)
    st.caption(md(_("Your answers: {answers}").format(answers=yours)))
elif scenario == EVERYTHING:
    wanted = None
else:
    wanted = [tuple(scenario.split("=", 1))]

table = techniques_table(kb, scenarios=wanted, lang=lang)
kinds = [k for k in TECHNIQUE_KINDS if (table["kind"] == k).any()]
if not kinds:
    st.info(_("Nothing in the knowledge base is linked to this scenario."))
    st.stop()

# Markdown tables, not data grids: a few dozen rows read in full, and a grid mounts a canvas on every visit.
SHOWN = {
    "id": "id",
    "name": _("name"),
    "name_zh": _("Chinese name"),
    "claims": _("claims"),
    "flagged claims": _("flagged claims"),
    "description": _("what the articles say"),
    "scenarios": _("serves (app's grouping)"),
}
tabs = st.tabs([f"{_(KIND_LABELS[k])} ({int((table['kind'] == k).sum())})" for k in kinds])
for tab, kind in zip(tabs, kinds, strict=True):
    with tab:
        rows = table[table["kind"] == kind].drop(columns=["kind"]).rename(columns=SHOWN)
        markdown_table(rows, height=TALL if len(rows) > TALL_ROWS else None)
st.caption(
    _(
        "what the articles say: the item's description, else its first claim. serves: the scenarios this app links "
        "it to (its editorial grouping)."
    )
)

st.subheader(_("Claims about an item"))
ordered = table.assign(order=table["kind"].map(TECHNIQUE_KINDS.index)).sort_values("order", kind="stable")
names = dict(zip(ordered["id"], ordered["name"], strict=True))
if st.session_state.get("tech-item") not in names:
    st.session_state.pop("tech-item", None)
picked = st.selectbox(_("Item"), options=list(names), format_func=names.get, key="tech-item")
claims = kb.claims_about(picked)
if not claims:
    st.caption(_("The articles name it without saying anything measurable about it."))
for claim in claims:
    with st.container(border=True):
        show_claim(kb, claim.id)
