"""The session's interface language: read from the link (`lang=`), else from the session, else from the browser's
locale on the first visit; switched in the sidebar and written back to the link so that a shared link opens in the
language it was shared in."""

from __future__ import annotations

import threading

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from selector import i18n, profile

_KEY = "lang"  # session_state: the language in force (a page switch clears the URL; the session keeps it)
_SWITCH = "lang-switch"  # the sidebar widget
# The language in force, kept beside the run that set it: Streamlit runs a session's script in its own thread, with
# one run context for as long as the session's runs follow each other there. Reading the session state takes its
# lock and a widget-id lookup, and a run asks for the language hundreds of times.
_held = threading.local()


def _hold(lang: i18n.Language) -> i18n.Language:
    _held.ctx, _held.lang = get_script_run_ctx(), lang
    return lang


def settle() -> i18n.Language:
    """Fix the language of this run, before any text: the link's `lang` when valid, else the session's, else the
    browser's. app.py calls it at the top of every run; :func:`choose` is the only other writer."""
    asked = st.query_params.get(profile.LANG_PARAM)
    if asked in i18n.LANGUAGES:
        st.session_state[_KEY] = asked
    if _KEY not in st.session_state:
        st.session_state[_KEY] = i18n.negotiate(st.context.locale)
    return _hold(st.session_state[_KEY])


def current() -> i18n.Language:
    """The language of this run (as :func:`settle` fixed it). Every message and bilingual field asks for it, often
    hundreds of times a run, so it is held beside the run's context rather than read from the link or the session
    each time."""
    ctx = get_script_run_ctx()
    if ctx is not None and getattr(_held, "ctx", None) is ctx:
        return _held.lang
    try:  # a fragment's run (app.py does not run) in a thread this session has not run in yet
        return _hold(st.session_state[_KEY])
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
    st.session_state[_KEY] = _hold(lang)
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
