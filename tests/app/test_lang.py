"""app_pages/_lang.py: the language held beside the run that settled it is never another run's."""

from __future__ import annotations

import threading

import pytest

from app_pages import _lang


class _Proxy:
    """``st.session_state`` as far as the language reads and writes it, for the session `state()` returns."""

    def __init__(self, state) -> None:  # noqa: ANN001
        self._state = state

    def __getitem__(self, key: str) -> object:
        return self._state()[key]

    def __setitem__(self, key: str, value: object) -> None:
        self._state()[key] = value

    def __contains__(self, key: str) -> bool:
        return key in self._state()


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch):
    """Two sessions' run contexts and states on this one thread; `enter(n)` makes session n's run the one in force."""
    contexts = [object(), object()]
    states = [{"lang": "zh"}, {"lang": "en"}]
    in_force = [0]
    monkeypatch.setattr(_lang, "get_script_run_ctx", lambda: contexts[in_force[0]])
    monkeypatch.setattr(_lang.st, "session_state", _Proxy(lambda: states[in_force[0]]))
    monkeypatch.setattr(_lang.st, "query_params", {})
    monkeypatch.setattr(_lang, "_held", threading.local())

    def enter(n: int) -> None:
        in_force[0] = n

    return enter, states


def test_a_run_reads_its_own_sessions_language_not_the_one_held_for_another(runs):
    enter, _states = runs
    enter(0)
    assert _lang.current() == "zh"
    enter(1)  # another session's run on the same thread
    assert _lang.current() == "en"
    enter(0)
    assert _lang.current() == "zh"


def test_choose_changes_what_the_run_reads_at_once(runs):
    enter, states = runs
    enter(0)
    assert _lang.current() == "zh"
    _lang.choose("en")
    assert _lang.current() == "en"
    assert states[0]["lang"] == "en"
