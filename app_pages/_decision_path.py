"""Recommend's scenario and decision path: the articles' questions, the rules they fire for the group ranked (and for
the others), and the questions that would sharpen the advice (selector.decision.decision_tree decides; this module
only draws)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_pages import _lang
from app_pages._lang import _
from app_pages._widgets import show_claim, sync_widget
from selector.decision import decision_tree
from selector.escape import streamlit_label as label
from selector.escape import streamlit_md as md
from selector.knowledge.models import Group, KnowledgeBase


def scenario_questions(
    kb: KnowledgeBase, answers: dict[str, str], on_setting: Callable[[], None], on_clear: Callable[[], None]
) -> None:
    """The scenario's questions, each unanswered until the user picks an option, and the button that clears them."""
    st.subheader(_("Your scenario"))
    st.caption(_("Answer only what you know: a question left open fires no rule."))
    for question in kb.questions.values():
        # labels made during the run (a format_func runs again outside it, where the session's language is unknown)
        options = {o.id: label(_lang.pick(o.label_en, o.label_zh)) for o in question.options}
        sync_widget(f"q-{question.id}", answers.get(question.id))
        st.radio(
            label(_question_text(question)),
            options=list(options),
            format_func=options.__getitem__,
            key=f"q-{question.id}",
            index=None,
            on_change=on_setting,
        )
    st.button(_("Clear my answers"), key="clear-answers", on_click=on_clear, disabled=not answers)


def _question_text(question) -> str:  # noqa: ANN001 - a Question
    # English shows the article's Chinese beside it (the question as the articles ask it); Chinese needs no twin
    if _lang.current() == "zh":
        return question.text_zh or question.text_en
    return f"{question.text_en} {question.text_zh or ''}"


def _group_name(group: Group) -> str:
    return _lang.pick(group.name_en, group.name_zh)


def _rationale(kb: KnowledgeBase, rule: decision_tree.FiredRule) -> str:
    known = kb.rules.get(rule.id)
    return _lang.pick(rule.rationale, known.rationale_zh if known is not None else None)


def _rule_card(
    kb: KnowledgeBase, path: decision_tree.DecisionPath, group: Group, rule: decision_tree.FiredRule, elsewhere: bool
) -> None:
    with st.container(border=True):
        if elsewhere:
            applies = ", ".join(_group_name(kb.groups[g]) for g in rule.groups) or _("no ranked group")
            st.markdown(
                _("**Applies to {groups}** (not advice for {group})").format(
                    groups=md(applies), group=md(_group_name(group))
                )
            )
            st.caption(md(_rationale(kb, rule)))
        else:
            st.markdown(f"**{md(_rationale(kb, rule))}**")
        matched = ", ".join(
            next(_lang.pick(o.label_en, o.label_zh) for o in kb.questions[q].options if o.id == a)
            for q, a in rule.matched.items()
        )
        line = _("because: {answers}").format(answers=matched)
        effect = next((e for e in path.group_advice(group.id).effects if e.rule == rule.id), None)
        recommends, excludes = (rule.recommend, rule.exclude) if effect is None else (effect.recommend, effect.exclude)
        if recommends:
            line += _(" → shortlists {names}").format(names=", ".join(kb.entity_name(e) for e in recommends))
        if excludes:
            line += _("; excludes {names}").format(names=", ".join(kb.entity_name(e) for e in excludes))
        st.caption(md(line) + _(" · rule `{rule}`").format(rule=rule.id))
        with st.expander(_("Sources ({count})").format(count=len(rule.claims))):
            for claim_id in rule.claims:
                show_claim(kb, claim_id)


def decision_path(kb: KnowledgeBase, path: decision_tree.DecisionPath, group: Group, answers: dict[str, str]) -> None:
    """The rules that fired for the group ranked, their conflicts and notes, the rules for other groups, and what
    would sharpen the advice."""
    st.subheader(_("Decision path"))
    here, elsewhere = path.rules_for(group.id), path.rules_elsewhere(group.id)
    if not path.fired:
        st.info(_("No rule of the articles' decision trees fires for these answers."))
    elif not here:
        st.info(_("No rule that fired speaks for {group}.").format(group=md(_group_name(group))))
    for rule in here:
        _rule_card(kb, path, group, rule, elsewhere=False)
    advice = path.group_advice(group.id)
    if advice.conflict:
        st.warning(md(advice.conflict[0].upper() + advice.conflict[1:] + "."), icon=":material/call_split:")
    for note in advice.notes:
        st.caption(_("Rule note: {note}.").format(note=md(note)))
    if elsewhere:
        with st.expander(_("Rules for other groups ({count})").format(count=len(elsewhere))):
            for rule in elsewhere:
                _rule_card(kb, path, group, rule, elsewhere=True)
    sharpen = decision_tree.sharpening_questions(kb, answers, group.id)
    if sharpen:
        questions = "; ".join(_lang.pick(kb.questions[q].text_en, kb.questions[q].text_zh) for q in sharpen)
        st.caption(
            _("Answering these would sharpen the advice for {group}: {questions}").format(
                group=md(_group_name(group)), questions=md(questions)
            )
        )
    if path.other_candidates:
        names = ", ".join(kb.entity_name(e) for e in path.other_candidates)
        st.caption(_("Also recommended, outside the ranked groups: {names}").format(names=md(names)))
