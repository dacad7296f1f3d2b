"""Recommend's "Help me weigh" box: swing weighting on the group's own scales, or pairwise comparisons on Saaty's
scale with the consistency ratio; either fills the four dimension sliders and is recorded in the link and report."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import streamlit as st

from app_pages import _lang
from app_pages._lang import _
from app_pages._widgets import expander_drawn_when_open
from selector.decision import elicitation, matrix
from selector.decision.elicitation import ElicitationError
from selector.decision.matrix import DecisionMatrix
from selector.decision.preferences import Preferences
from selector.errors import SelectorError
from selector.escape import streamlit_label as label
from selector.escape import streamlit_md as md
from selector.knowledge.models import KnowledgeBase
from selector.views import weigh

#: Makes the preferences in force take these updates (Recommend's own check and link writing).
Apply = Callable[[dict], None]
METHOD_KEY = "weigh-method"


def weigh_box(kb: KnowledgeBase, prefs: Preferences, apply: Apply) -> None:
    """The box, closed until asked for: its questions (and the group's matrix they show) are computed only while
    it is open."""
    title = _("Help me weigh: swing weighting or pairwise comparisons")
    expander_drawn_when_open(title, "weigh-box", lambda: _flows(kb, prefs, apply))


def elicited_caption(kb: KnowledgeBase, prefs: Preferences) -> None:
    """Under the sliders: where the weights came from, when they were elicited."""
    result = prefs.checked(kb).elicited
    if result is None:
        return
    names = _names(kb)
    answers = "; ".join(elicitation.answer_sentences(result, names))
    method = elicitation.METHOD_LABELS[prefs.elicitation.method]
    consistency = elicitation.consistency_sentence(result, names)
    st.caption(
        md(
            _("These weights come from {method}: {answers}. {consistency}")
            .format(method=method, answers=answers, consistency=consistency)
            .strip()
        )
    )


def _names(kb: KnowledgeBase) -> dict[str, str]:
    return {d: _lang.pick(dim.name_en, dim.name_zh) for d, dim in kb.dimensions.items()}


def _flows(kb: KnowledgeBase, prefs: Preferences, apply: Apply) -> None:
    recorded = prefs.elicitation.method if prefs.elicitation else "swing"
    st.session_state.setdefault(METHOD_KEY, recorded)
    shown = {"swing": _("Swing weighting"), "pairwise": _("Pairwise comparisons (AHP)")}
    method = st.radio(
        _("How would you like to weigh?"),
        options=list(elicitation.METHOD_LABELS),
        format_func=lambda k: shown.get(k) or elicitation.METHOD_LABELS[k],
        key=METHOD_KEY,
        horizontal=True,
    )
    answers = _recorded_answers(kb, prefs, method)
    weights = dict(prefs.checked(kb).dimension_weights)
    if method == "swing":
        try:
            m = matrix.build(kb, prefs)
        except SelectorError:
            m = None  # the ranking above says why; the swings are then named without their scales
        _swing(kb, m, weights, answers, lambda r: _use(kb, r, apply))
    else:
        _pairwise(kb, weights, answers, lambda r: _use(kb, r, apply))


def _recorded_answers(kb: KnowledgeBase, prefs: Preferences, method: str):  # noqa: ANN202
    """The answers in force for `method` (a link or an earlier use of the box), or None."""
    if prefs.elicitation is None or prefs.elicitation.method != method:
        return None
    try:
        return prefs.elicitation.result(list(kb.dimensions))
    except ElicitationError:
        return None


def _use(kb: KnowledgeBase, result, apply: Apply) -> None:  # noqa: ANN001
    """Fill the sliders with the elicited weights and record the answers (the button's callback)."""
    shown = elicitation.percentages(result.weights)
    defaults = {d: dim.weight for d, dim in kb.dimensions.items()}
    moved = {d: v for d, v in shown.items() if v != defaults[d]}
    apply({"dimension_weights": moved, "elicitation": elicitation.from_result(result)})
    st.session_state["weigh-done"] = _("The sliders now show {shares}.").format(
        shares=weigh.shares_text(result.weights, _names(kb))
    )


def _done_note() -> None:
    done = st.session_state.pop("weigh-done", None)
    if done:
        st.success(md(done), icon=":material/check:")


# ----------------------------------------------------------------------------------------------------------
# Swing weighting


def _swing(kb: KnowledgeBase, m: DecisionMatrix | None, weights: dict, recorded, use: Callable) -> None:  # noqa: ANN001
    st.markdown(
        _(
            "Imagine every option at the **worst** end of every dimension below. You may move one dimension from its "
            "worst to its best end: which swing would you take first? It counts 100. Then rate each other swing from "
            "0 to 100 for what it is worth beside that one (50: half as much)."
        )
    )
    names = _names(kb)
    questions = {q.id: q for q in weigh.swing_questions(kb, m)} if m is not None else {}
    for dim_id in kb.dimensions:
        lines = [c.sentence_in(_lang.current()) for c in questions[dim_id].criteria] if dim_id in questions else []
        text = (
            "; ".join(lines)
            if lines
            else _("no criterion of it is ranked in this group (its weight passes on to the others)")
        )
        st.markdown(_("**{dimension}**, worst to best: {swing}").format(dimension=md(names[dim_id]), swing=md(text)))
    first, ratings = weigh.starting_ratings(weights)
    if recorded is not None:
        first = max(recorded.ratings, key=lambda d: recorded.ratings[d])
        ratings = {d: round(r) for d, r in recorded.ratings.items()}
    st.session_state.setdefault("swing-first", first)
    chosen = st.selectbox(
        _("Which swing would you take first?"),
        options=list(kb.dimensions),
        format_func=names.__getitem__,
        key="swing-first",
    )
    given = {chosen: 100.0}
    with st.container(horizontal=True, gap="medium"):
        for dim_id in kb.dimensions:
            if dim_id == chosen:
                continue
            st.session_state.setdefault(f"swing-{dim_id}", min(100, ratings.get(dim_id, 50)))
            given[dim_id] = float(
                st.slider(
                    label(
                        _("{dimension}'s swing, beside {first}'s 100").format(
                            dimension=names[dim_id], first=names[chosen]
                        )
                    ),
                    0,
                    100,
                    key=f"swing-{dim_id}",
                    width=220,
                )
            )
    result = elicitation.swing(list(kb.dimensions), given)
    st.markdown(_("These ratings give: **{shares}**").format(shares=md(weigh.shares_text(result.weights, names))))
    st.button(_("Use these weights"), key="swing-apply", on_click=use, args=(result,), icon=":material/tune:")
    _done_note()


# ----------------------------------------------------------------------------------------------------------
# Pairwise comparisons (AHP)


def _pairwise(kb: KnowledgeBase, weights: dict, recorded, use: Callable) -> None:  # noqa: ANN001
    st.markdown(
        _(
            "For each pair, which dimension matters more to you, and how much more? Saaty's scale: 1 equal, "
            "3 moderately, 5 strongly, 7 very strongly, 9 extremely more important (2, 4, 6, 8 in between)."
        )
    )
    pairs = weigh.comparisons(kb)
    lang = _lang.current()  # read here: a format_func is also called outside this run (AppTest reads the options)
    start = weigh.starting_judgements(weights, pairs)
    if recorded is not None:
        start = {f"{j.better}/{j.worse}": elicitation.format_value(j.value) for j in recorded.judgements}
    answers = []
    for pair in pairs:
        key = f"ahp-{pair.a}-{pair.b}"
        st.session_state.setdefault(key, start.get(pair.key, "1"))
        value = st.select_slider(
            label(
                _("{left} (left) or {right} (right): which matters more, and how much?").format(
                    left=pair.a_name, right=pair.b_name
                )
            ),
            options=weigh.choices(),
            format_func=lambda v, p=pair: weigh.choice_label(Fraction(v), p.a_name, p.b_name, lang=lang),
            key=key,
        )
        answers.append(elicitation.parse_judgement(f"{pair.key}={value}"))
    result = elicitation.pairwise(list(kb.dimensions), answers)
    names = _names(kb)
    st.markdown(_("These judgements give: **{shares}**").format(shares=md(weigh.shares_text(result.weights, names))))
    _consistency(result, names)
    st.button(_("Use these weights"), key="ahp-apply", on_click=use, args=(result,), icon=":material/tune:")
    _done_note()


def _consistency(result: elicitation.PairwiseResult, names: dict[str, str]) -> None:
    """The consistency ratio; above 0.10, the judgement to revise and a button that revises it."""
    sentence = elicitation.consistency_sentence(result, names)
    if result.acceptable:
        st.caption(md(sentence))
        return
    st.warning(md(sentence), icon=":material/warning:")
    worst = result.most_inconsistent
    if worst is not None:
        key = f"ahp-{worst.given.better}-{worst.given.worse}"
        st.button(
            label(_("Revise it: {judgement}").format(judgement=worst.revised_sentence(names))),
            key="ahp-revise",
            on_click=lambda: st.session_state.update({key: elicitation.format_value(worst.suggestion)}),
            help=_("Or move its slider yourself: the ratio is recomputed as you go."),
        )
