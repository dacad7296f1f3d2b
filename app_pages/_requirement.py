"""Recommend's requirement-first start: plain-words questions (what, for what, where, platform, model size, budget,
memory per chip, vendors or jurisdictions to avoid) that pick the group and set the limits and sub-weights they
imply (selector.decision.requirement)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_pages import _lang
from app_pages._lang import _
from app_pages._widgets import expander_drawn_when_open
from selector.decision import requirement
from selector.decision.preferences import Preferences
from selector.decision.requirement import Requirement, RequirementError
from selector.errors import message_of as _message
from selector.escape import streamlit_label as label
from selector.escape import streamlit_md as md
from selector.i18n import N_, Phrase, stored
from selector.knowledge import facts
from selector.knowledge.models import KnowledgeBase

#: Makes these preferences the ones in force (Recommend's check and link writing); False when they were refused.
Apply = Callable[[Preferences], bool]
BOX = "req-box"
OFFERED = "req-offered"  # session_state: (requirement, the two groups offered, why) while the user picks one
ERROR = "req-error"
_CHOICES = {
    "req-choosing": (N_("You are choosing"), requirement.CHOOSING_WORDS),
    "req-task": (N_("For what?"), requirement.TASK_WORDS),
    "req-where": (N_("Where will it run?"), requirement.WHERE_WORDS),
    "req-platform": (N_("On which platform? (software only)"), requirement.PLATFORM_WORDS),
}
_NUMBERS = {
    "req-model": (N_("Model size (billions of parameters)"), "model_b", N_("e.g. 70")),
    "req-mtok": (N_("Budget: at most USD per million tokens"), "usd_per_mtok", N_("e.g. 2")),
    "req-hour": (N_("Budget: at most USD per accelerator-hour"), "usd_per_hour", N_("e.g. 3.5")),
    "req-mem": (N_("Memory per chip: at least (GB)"), "memory_gb", N_("e.g. 141")),
}


def requirement_box(kb: KnowledgeBase, prefs: Preferences, apply: Apply) -> None:
    """The requirement in words as the box's title (the questions inside, closed once a requirement is in force),
    the group offered when two fit equally well, and what the requirement set or could not set."""
    req = prefs.requirement
    group = kb.groups[prefs.group]
    title = (
        _("Your requirement: {requirement} Ranked in: {group}. Change it").format(
            requirement=req.words(kb, _lang.current()), group=_lang.pick(group.name_en, group.name_zh)
        )
        if req is not None and not req.empty
        else _("Start here: say what you need in plain words (what, for what, where, budget, memory per chip)")
    )
    # Closed until asked for (its questions are drawn only while open): the answer stays on the first screen.
    expander_drawn_when_open(label(title), BOX, lambda: _questions(kb, req or Requirement(), apply))
    if ERROR in st.session_state:
        st.error(md(stored(st.session_state[ERROR], _lang.current())))
    if OFFERED in st.session_state:
        _offer(kb, prefs, apply)


def requirement_notes(kb: KnowledgeBase, prefs: Preferences) -> None:
    """What the requirement set that its sentence does not say (a price column raised from sub-weight 0), above the
    weights it changed: above the ranking it pushed the ranking's first row off a phone's first screen."""
    req = prefs.requirement
    if OFFERED in st.session_state or req is None or req.empty:
        return
    notes = requirement.implied(kb, req, prefs.group).notes
    if notes:
        st.caption(md(_("From your requirement: {notes}.").format(notes="; ".join(notes))))


def _questions(kb: KnowledgeBase, req: Requirement, apply: Apply) -> None:
    vendors = facts.vendors(kb.entities)
    places = sorted({kb.entities[v].jurisdiction for v in vendors if v in kb.entities and kb.entities[v].jurisdiction})
    unsure = _("any / not sure")  # made during the run: a format_func also runs outside it (AppTest)
    with st.form("req-form", border=False):
        first, second = st.columns(2)
        for i, (key, (question, words)) in enumerate(_CHOICES.items()):
            shown = {k: _(w) for k, w in words.items()}  # translated in this run, not in the format_func
            stated = getattr(req, key.removeprefix("req-"))
            (first if i % 2 == 0 else second).selectbox(
                _(question),
                options=[None, *words],
                format_func=lambda v, shown=shown: unsure if v is None else shown[v],
                index=[None, *words].index(stated),
                key=key,
            )
        for i, (key, (question, field, hint)) in enumerate(_NUMBERS.items()):
            (first if i % 2 == 0 else second).number_input(
                _(question), min_value=0.0, value=getattr(req, field), placeholder=_(hint), key=key
            )
        first.multiselect(
            _("Vendors to avoid"),
            options=list(vendors),
            default=list(req.avoid_vendors),
            format_func=kb.entity_name,
            key="req-avoid",
        )
        second.multiselect(
            _("Avoid vendors based in (country code)"),
            options=places,
            default=[p for p in req.avoid_jurisdictions if p in places],
            key="req-avoidj",
        )
        st.form_submit_button(
            _("Find the options for this requirement"),
            type="primary",
            key="req-submit",
            on_click=lambda: _submitted(kb, apply),
        )


def _read() -> Requirement:
    ss = st.session_state
    numbers = {field: ss.get(key) or None for key, (__, field, ___) in _NUMBERS.items()}
    return Requirement(
        choosing=ss.get("req-choosing"),
        task=ss.get("req-task"),
        where=ss.get("req-where"),
        platform=ss.get("req-platform"),
        avoid_vendors=tuple(ss.get("req-avoid") or ()),
        avoid_jurisdictions=tuple(ss.get("req-avoidj") or ()),
        **numbers,
    )


def _submitted(kb: KnowledgeBase, apply: Apply) -> None:
    st.session_state.pop(ERROR, None)
    st.session_state.pop(OFFERED, None)
    try:
        req = _read()
        requirement.check(kb, req)
        found = requirement.pick(kb, req)
    except (RequirementError, ValueError) as exc:
        # a phrase, said when shown: a refusal of the selector's own in the page's language
        st.session_state[ERROR] = Phrase(N_("This requirement cannot be used: {error}"), error=_message(exc))
        return
    if found.chosen is None:
        st.session_state[OFFERED] = (req, found.offered, found.why)
        return
    _rank_in(kb, req, found.chosen, apply)


def _rank_in(kb: KnowledgeBase, req: Requirement, group: str, apply: Apply) -> None:
    """The preferences the requirement sets in `group`: the group's defaults with its limits, sub-weights and
    vendor exclusions; the method, weights, policy and answers in force stay."""
    from app_pages._session import prefs_in_force  # the session's preferences, read at the click

    implied = requirement.implied(kb, req, group)
    base = prefs_in_force(kb).model_dump()
    update = {
        "group": group,
        "criterion_weights": implied.criterion_weights,
        "constraints": implied.constraints,
        "exclude_vendors": implied.exclude_vendors,
        "exclude": (),
        "requirement": req.model_dump(),
    }
    try:
        prefs = Preferences.model_validate({**base, **update})
    except ValueError as exc:
        st.session_state[ERROR] = Phrase(N_("This requirement cannot be ranked: {error}"), error=_message(exc))
        return
    if apply(prefs):
        st.session_state[BOX] = False


def _offer(kb: KnowledgeBase, prefs: Preferences, apply: Apply) -> None:
    """Two groups fit equally well (or none fits every answer): the user picks the one to rank."""
    req, offered, why = st.session_state[OFFERED]
    st.info(md(_("Two groups could answer this: {why}.").format(why=why)), icon=":material/call_split:")
    st.radio(
        _("Rank in"),
        options=list(offered),
        format_func={g: _lang.pick(kb.groups[g].name_en, kb.groups[g].name_zh) for g in offered}.__getitem__,
        key="req-offer",
        horizontal=True,
    )

    def chosen() -> None:
        # the choice as the click finds it (a value captured when the radio was drawn would be the previous one)
        st.session_state.pop(OFFERED, None)
        _rank_in(kb, req, st.session_state.get("req-offer") or offered[0], apply)

    st.button(_("Rank these options"), key="req-offer-go", on_click=chosen)
