"""Recommend's limits on criteria ("Must have"): the limits in force, each removable, and a picker that adds one
(criterion by name with its unit, operator, a number with or without its unit). A limit that cannot be read is
refused beside the field, and the limits in force stay until a valid one replaces them."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_pages import _lang
from app_pages._lang import _
from app_pages._widgets import expander_drawn_when_open, sync_widget
from selector.decision import constraints as hard
from selector.decision.preferences import Preferences
from selector.escape import streamlit_md as md
from selector.i18n import N_, Phrase, stored
from selector.knowledge.models import Group, KnowledgeBase

#: Makes these limits the ones in force (Recommend's check and link writing); False when they were refused.
Apply = Callable[[tuple[str, ...]], bool]
ERROR = "limit-error"
_SYMBOLS = {"<=": "≤", ">=": "≥", "<": "<", ">": ">", "=": "="}


def limit_words(kb: KnowledgeBase, text: str) -> str:
    """``memory-capacity>=141`` as "Memory capacity ≥ 141 GB" (the criterion's name and unit)."""
    limit = hard.parse(text)
    criterion = kb.criteria.get(limit.criterion)
    if criterion is None:
        return text
    name, unit = _lang.pick(criterion.name_en, criterion.name_zh), _lang.pick(criterion.unit, criterion.unit_zh)
    return f"{name} {_SYMBOLS[limit.op]} {limit.value:,.12g} {unit}"


def limits_editor(kb: KnowledgeBase, group: Group, in_force: tuple[str, ...], apply: Apply) -> None:
    """The limits in force with a remove button each, then the picker and its message."""
    for i, text in enumerate(in_force):
        shown, remove = st.columns([5, 1], vertical_alignment="center")
        shown.markdown(md(limit_words(kb, text)))
        remaining = tuple(t for t in in_force if t != text)
        remove.button(_("Remove"), key=f"limit-rm-{i}", on_click=lambda rest=remaining: _removed(rest, apply))
    numeric = [
        kb.criteria[gc.criterion] for gc in group.criteria if not kb.criteria[gc.criterion].unit.startswith("rating")
    ]
    numeric = [c for c in numeric if not c.unit.startswith("stars")]
    if not numeric:
        st.caption(_("No criterion of this group is a quantity that a limit could bound."))
        return
    by_id = {c.id: c for c in numeric}
    with st.form("limit-form", border=False):
        which, op, value = st.columns([3, 1, 2], vertical_alignment="bottom")
        chosen = which.selectbox(
            _("Criterion"),
            options=list(by_id),
            format_func={c: _with_unit(criterion) for c, criterion in by_id.items()}.__getitem__,
            key="limit-criterion",
        )
        op.selectbox(_("Operator"), options=list(hard.OPERATORS), format_func=_SYMBOLS.get, key="limit-op")
        value.text_input(_("Limit"), key="limit-text", placeholder=_("e.g. 141 or >= 141 GB"))
        if ERROR in st.session_state:
            st.error(md(stored(st.session_state[ERROR], _lang.current())), icon=":material/error:")
        st.form_submit_button(_("Add limit"), key="limit-add", on_click=lambda: _added(kb, in_force, apply))
    units = ", ".join(hard.allowed_units(by_id[chosen].unit)) if chosen in by_id else ""
    st.caption(
        md(
            _(
                "Write a number in the criterion's unit ({units}), optionally with an operator (it overrides the one "
                "picked)."
            ).format(units=units)
        )
    )


def _with_unit(criterion) -> str:  # noqa: ANN001 - a Criterion
    """The criterion's name with its unit, once ("On-package memory (GB)", not "... (GB) (GB)")."""
    name, unit = _lang.pick(criterion.name_en, criterion.name_zh), criterion.unit
    if _lang.current() == "zh" and criterion.unit_zh:
        return f"{name}（{criterion.unit_zh}）"
    return name if f"({unit}" in name or f"{unit})" in name else f"{name} ({unit})"


def _removed(rest: tuple[str, ...], apply: Apply) -> None:
    st.session_state.pop(ERROR, None)
    apply(rest)


def _added(kb: KnowledgeBase, in_force: tuple[str, ...], apply: Apply) -> None:
    """Read the picker; in force only when valid, replacing a limit on the same criterion and operator."""
    ss = st.session_state
    criterion = kb.criteria.get(ss.get("limit-criterion") or "")
    text = ss.get("limit-text") or ""
    if criterion is None:
        ss[ERROR] = Phrase(N_("Pick the criterion to limit."))
        return
    try:
        limit = hard.parse_limit(text, criterion.id, criterion.unit, ss.get("limit-op") or ">=")
    except hard.ConstraintError as exc:
        # kept as a phrase, said when shown: the language may change before the next run
        ss[ERROR] = Phrase(N_("Not added, the limits in force stay: {error}"), error=exc.message)
        return
    kept = tuple(t for t in in_force if (lambda p: (p.criterion, p.op))(hard.parse(t)) != (limit.criterion, limit.op))
    if apply((*kept, limit.text)):
        ss.pop(ERROR, None)
        ss["limit-text"] = ""


def must_have_box(
    kb: KnowledgeBase,
    group: Group,
    prefs: Preferences,
    on_setting: Callable[[], None],
    on_limits: Apply,
    in_force: Callable[[], Preferences],
    refusal_key: str,
) -> None:
    """The hard constraints: applied before any weighting; what they remove is listed under the ranking. Drawn only
    while open (as the sub-criterion weights); open from the start when a constraint is in force.

    `in_force` reads the preferences in force and `refusal_key` names the session's refusal shown over the ranking:
    the box is a fragment, and a control that changes either reruns the page.
    """
    count = len(prefs.constraints) + len(prefs.exclude_vendors) + len(prefs.exclude)
    title = (
        _("Must have (hard constraints: {count})").format(count=count) if count else _("Must have (hard constraints)")
    )
    draw = lambda: _must_have_controls(kb, group, prefs, on_setting, on_limits)  # noqa: E731
    page_state = lambda: (_set_here(in_force()), st.session_state.get(refusal_key))  # noqa: E731
    _box(title, draw, bool(count), page_state, page_state())


def _set_here(prefs: Preferences) -> tuple:
    # What the box's controls set. The dimension weights are left out: their own fragment moves them without a run
    # of the page, and the rest of the page does not draw them.
    return prefs.constraints, prefs.exclude_vendors, prefs.exclude, prefs.keep_unknown


@st.fragment
def _box(
    title: str, draw: Callable[[], None], expanded: bool, page_state: Callable[[], object], drawn_from: object
) -> None:
    """A fragment, so that opening or closing the box, or a limit refused beside its field, reruns the box alone
    rather than the page. Its arguments date from the page's last full run: when a control changed what that run
    drew from (a limit, a vendor left out, a refusal shown over the ranking), the whole page runs again instead."""
    if page_state() != drawn_from:
        st.rerun()
    expander_drawn_when_open(title, "must-box", draw, expanded=expanded)


def _must_have_controls(
    kb: KnowledgeBase, group: Group, prefs: Preferences, on_setting: Callable[[], None], on_limits: Apply
) -> None:
    """Limits on criteria, what to do with unknown values, and vendors and alternatives to leave out."""
    members = group.members
    vendors = sorted({kb.entities[m].vendor for m in members if kb.entities[m].vendor} | set(prefs.exclude_vendors))
    limits_editor(kb, group, prefs.constraints, on_limits)
    sync_widget("must-keep-unknown", prefs.keep_unknown)
    st.toggle(
        _("Keep alternatives whose value is unknown"),
        key="must-keep-unknown",
        on_change=on_setting,
        help=_("By default an alternative without evidence for a constrained criterion is removed as unknown."),
    )
    sync_widget("must-vendors", list(prefs.exclude_vendors))
    st.multiselect(
        _("Exclude vendors"), options=vendors, format_func=kb.entity_name, key="must-vendors", on_change=on_setting
    )
    sync_widget("must-exclude", [e for e in prefs.exclude if e in members])
    st.multiselect(
        _("Exclude alternatives"),
        options=list(members),
        format_func=kb.entity_name,
        key="must-exclude",
        on_change=on_setting,
    )
