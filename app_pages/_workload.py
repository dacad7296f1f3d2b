"""Recommend's workload form for the LLM groups: the model served, its precision, lengths, load, latency limits and
prices; then, per accelerator, whether it runs the workload, on how many, how fast within the limits and at what
cost (selector.decision.workload_fit computes; this module only draws)."""

from __future__ import annotations

import streamlit as st

from app_pages import _lang
from app_pages._lang import _
from app_pages._session import check_prefs, prefs_in_force, set_prefs
from app_pages._widgets import markdown_table
from selector import i18n
from selector.decision import workload, workload_fit
from selector.decision.preferences import Preferences
from selector.errors import SelectorError
from selector.escape import streamlit_md as md
from selector.knowledge.models import KnowledgeBase

_NONE = 0.0  # a number field left at 0 states nothing (no limit, no price)


def _text(values: dict) -> str:
    """The compact form of what the form holds (fields at 0 left out: they state nothing)."""
    return ",".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in values.items() if v != _NONE)


def _fields(kb: KnowledgeBase, stated: workload.Workload) -> dict:
    """The form's widgets, prefilled with the workload in force; returns field -> value."""
    models = list(kb.llm_models)
    left, right = st.columns(2)
    values = {
        "model": left.selectbox(
            _("Model"),
            models,
            index=models.index(stated.model) if stated.model in models else 0,
            format_func=lambda m: kb.llm_models[m].name,
        ),
        "precision": right.selectbox(
            _("Precision"), workload.PRECISIONS, index=workload.PRECISIONS.index(stated.precision)
        ),
        "context": left.number_input(_("Prompt tokens"), 1, 10_000_000, stated.context, step=1024),
        "output": right.number_input(_("Output tokens"), 1, 1_000_000, stated.output, step=128),
        "concurrency": left.number_input(_("Requests at once"), 1, 1_000_000, stated.concurrency),
        "utilisation": right.slider(_("Utilisation"), 0.05, 1.0, float(stated.utilisation), 0.05),
        "ttft-ms": left.number_input(_("TTFT limit, ms (0: none)"), 0.0, 1e7, float(stated.ttft_ms or 0), step=100.0),
        "tpot-ms": right.number_input(_("TPOT limit, ms (0: none)"), 0.0, 1e6, float(stated.tpot_ms or 0), step=10.0),
        "price": left.number_input(_("Your USD per accelerator-hour (0: list)"), 0.0, 1e4, float(stated.price or 0)),
        "power-price": right.number_input(
            _("Electricity USD/kWh (0: none)"), 0.0, 100.0, float(stated.power_price or 0)
        ),
        "api-price": left.number_input(
            _("API USD per million tokens (0: none)"), 0.0, 1e4, float(stated.api_price or 0)
        ),
    }
    return {k: float(v) if isinstance(v, float) else v for k, v in values.items()}


def _submit(kb: KnowledgeBase, text: str | None) -> None:
    """Put the workload (None: none) in force, or say what is wrong with it."""
    try:
        candidate: Preferences = prefs_in_force(kb).model_copy(update={"workload": workload.normalise(text)})
        workload_fit.stated(kb, check_prefs(kb, candidate))
    except SelectorError as exc:
        st.session_state["workload-error"] = exc.message  # a phrase: said in the language when shown
        return
    st.session_state.pop("workload-error", None)
    set_prefs(candidate)
    st.rerun()  # the page above the form was drawn with the previous workload


def _fit_table(kb: KnowledgeBase, group_id: str, stated: workload.Workload) -> None:
    rows = workload_fit.fit_table(kb, group_id, stated, _lang.current())
    answer = {True: _("yes"), False: _("no"), None: _("unknown")}
    markdown_table(
        {
            _("accelerator"): [r.name for r in rows],
            _("runs"): [answer[r.runs] for r in rows],
            _("how many"): [r.accelerators or "" for r in rows],
            _("tokens/s within limits"): [f"{r.throughput:,.0f}" if r.throughput else _("none") for r in rows],
            _("cost at your load"): [i18n.said_in(i18n.joined(r.cost), _lang.current()) for r in rows],
        }
    )
    with st.expander(_("Why: memory, engines and the measurement each figure used")):
        for r in rows:
            why = _("{memory}. Engines: {engines}. Throughput: {throughput}.").format(
                memory=r.memory, engines=r.support, throughput=r.throughput_note
            )
            st.markdown(f"**{md(r.name)}**: " + md(why))


def workload_form(kb: KnowledgeBase, prefs: Preferences) -> None:
    """The workload box under the group choice, for the groups that rank LLM serving (nothing for the others)."""
    if not workload_fit.applies(kb, prefs.group):
        return
    stated = workload.parse(prefs.workload) if prefs.workload else workload.Workload(model="llama-3.1-8b")
    title = (
        _("Your workload: {workload}").format(workload=prefs.workload)
        if prefs.workload
        else _("Your workload (ranking on offline peaks until you state one)")
    )
    with st.expander(title, expanded=bool(prefs.workload)):
        with st.form("workload-form", border=False):
            values = _fields(kb, stated)
            use, clear = st.columns(2)
            if use.form_submit_button(_("Rank for this workload"), type="primary"):
                _submit(kb, _text(values))
            if clear.form_submit_button(_("No workload")):
                _submit(kb, None)
        if "workload-error" in st.session_state:
            st.error(md(i18n.stored(st.session_state["workload-error"], _lang.current())))
        if prefs.workload and "workload-error" not in st.session_state:
            _fit_table(kb, prefs.group, stated)
