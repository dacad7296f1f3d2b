"""The shareable link: the address bar's parameters, read and written only through selector.profile's
``from_link_params`` and ``to_link_params`` (the same functions the tests and a saved link use), one part at a time.

The parts are read apart so that a bad part is reported on its own and the others still apply: the preferences
(checked against the session's knowledge by the caller), the Evidence filters (`ev`) and the uploads (`data`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import streamlit as st

from selector import i18n, profile
from selector.decision.preferences import PreferenceError, Preferences

PREFERENCES = profile.PREFERENCE_PARAMS
FILTERS = (profile.FILTERS_PARAM,)
#: How many files the session had when they were too large for the link (so that a new session can say so).
NOT_CARRIED = "files"
DATA = (profile.DATA_PARAM, NOT_CARRIED)


def _read(keys: Sequence[str], default_group: str) -> profile.Profile | None:
    # every value of a key: a link with `w=` twice is refused by selector.profile, not read as its last value
    params = {k: st.query_params.get_all(k) for k in keys if k in st.query_params}
    if not params:
        return None
    return profile.from_link_params(params, default_group, check_uploads=False)


def read_preferences(default_group: str) -> Preferences | None:
    """The preferences the link carries; None when it carries none.

    Raises
    ------
    PreferenceError
        When they are malformed (the message says why).
    """
    try:
        found = _read(PREFERENCES, default_group)
    except profile.ProfileError as exc:
        # the issues' messages joined as a phrase, so that the page says each in its language
        raise PreferenceError(i18n.joined([i.message for i in exc.issues])) from None
    return None if found is None else found.preferences


def read_filters(default_group: str) -> dict[str, tuple[str, ...]] | None:
    """The Evidence filters the link carries (`ev`); None when it carries none.

    Raises
    ------
    selector.profile.ProfileError
        When `ev` is malformed.
    """
    found = _read(FILTERS, default_group)
    return None if found is None else dict(found.filters)


def read_uploads(default_group: str) -> tuple[profile.EmbeddedUpload, ...] | None:
    """The files the link carries (`data`), not yet checked against the knowledge; None when it carries none.

    Raises
    ------
    selector.profile.ProfileError
        When `data` is malformed, too long or inflates past the cap.
    """
    found = _read(DATA, default_group)
    return None if found is None else found.uploads


def raw(key: str) -> str | None:
    """The link's value of `key` as it stands (to notice that it changed)."""
    return st.query_params.get(key)


def params(
    prefs: Preferences,
    filters: Mapping[str, Sequence[str]] | None = None,
    uploads: Sequence[profile.EmbeddedUpload] = (),
) -> dict[str, str]:
    """What the link carries for this state (:func:`selector.profile.to_link_params`).

    The state is not validated again: the preferences in force are checked already, and the Evidence filters are
    carried as the user typed them (the reader reports one that cannot be used, as for any link).
    """
    carried = profile.Profile.model_construct(
        preferences=prefs, filters={k: tuple(v) for k, v in (filters or {}).items()}, uploads=tuple(uploads)
    )
    return profile.to_link_params(carried)


def write(wanted: Mapping[str, str], keys: Collection[str]) -> None:
    """Make the link's `keys` what `wanted` says: absent ones leave the address, changed ones are set in one go;
    other parameters are left alone."""
    # one copy of the address read: each access to st.query_params takes the session's lock
    now = st.query_params.to_dict()
    gone = [key for key in keys if key in now and key not in wanted]
    changed = {k: v for k, v in wanted.items() if k in keys and now.get(k) != v}
    if gone:
        # the whole address in one message: each deletion on its own made a browser history entry, so Back after
        # Reset restored one parameter of several (issue 34)
        kept = {k: v for k, v in st.query_params.items() if k not in gone}
        st.query_params.from_dict({**kept, **changed})
    elif changed:
        st.query_params.update(changed)
