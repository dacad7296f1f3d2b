"""The session's interface language: read from the link (`lang=`), else from the session, else from the browser's
locale on the first visit; switched in the sidebar and written back to the link so that a shared link opens in the
language it was shared in."""

from __future__ import annotations

import streamlit as st

from selector import i18n, profile

_KEY = "lang"  # session_state: the language in force (a page switch clears the URL; the session keeps it)
_SWITCH = "lang-switch"  # the sidebar widget


def settle() -> i18n.Language:
    """Fix the language of this run, before any text: the link's `lang` when valid, else the session's, else the
    browser's. app.py calls it at the top of every run; :func:`choose` is the only other writer."""
    asked = st.query_params.get(profile.LANG_PARAM)
    if asked in i18n.LANGUAGES:
        st.session_state[_KEY] = asked
    if _KEY not in st.session_state:
        st.session_state[_KEY] = i18n.negotiate(st.context.locale)
    return st.session_state[_KEY]


def current() -> i18n.Language:
    """The language of this run (as :func:`settle` fixed it). Every message and bilingual field asks for it, often
    thousands of times a run, so it reads the session once settled rather than the link each time."""
    try:
        return st.session_state[_KEY]
    except KeyError:  # a page run on its own (tests), without app.py's settle
        return settle()


def _(message: str) -> str:
    """`message` in this run's language (the name gettext's extractors look for)."""
    return i18n.translator(current())(message)


def pick(english: str | None, chinese: str | None) -> str:
    """A bilingual knowledge field in this run's language (the other language when one is missing)."""
    return i18n.pick(current(), english, chinese)


def choose(lang: i18n.Language) -> None:
    """Make `lang` the session's language (a loaded profile's, the switch's) and put it in the link."""
    st.session_state[_KEY] = lang
    st.query_params[profile.LANG_PARAM] = lang


def _switched() -> None:
    chosen = st.session_state[_SWITCH]
    if chosen in i18n.LANGUAGES:  # the control can be clicked off; the language then stays as it was
        choose(chosen)


def switch() -> None:
    """The language switch in the sidebar; the link then carries `lang=`."""
    lang = current()
    asked = st.query_params.get(profile.LANG_PARAM)
    if asked is not None and asked not in i18n.LANGUAGES:
        # said, not silently dropped: the link asked for a language this app does not have
        st.sidebar.warning(
            f"lang={asked[:20]!r}: " + _("the link asks for a language this app does not have; use en or zh")
        )
    st.session_state[_SWITCH] = lang
    st.sidebar.segmented_control(
        "Language / 语言",
        options=list(i18n.LANGUAGES),
        format_func=i18n.LANGUAGE_NAMES.__getitem__,
        key=_SWITCH,
        on_change=_switched,
        label_visibility="collapsed",
    )
    # A page switch clears the address: the language goes back into it, so a copied link opens in it. English
    # chosen by nobody (the browser's default) stays out of the link, which then reads as it always did.
    shown = st.query_params.get(profile.LANG_PARAM)
    if shown != lang and (lang != i18n.SOURCE_LANGUAGE or shown is not None):
        st.query_params[profile.LANG_PARAM] = lang
