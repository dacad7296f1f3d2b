"""One user's session: the knowledge it sees (bundled + uploads), the preferences and Evidence filters in force (kept
in the shareable link through app_pages._link) and the decision profile."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import streamlit as st

from app_pages import _cached, _lang, _link
from app_pages._lang import _
from selector import adr, profile
from selector.decision.preferences import PreferenceError, Preferences, check_slider_ranges
from selector.errors import SelectorError
from selector.escape import streamlit_md as md
from selector.i18n import N_, stored
from selector.io import limits
from selector.issues import Issue
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import DEFAULT_KNOWLEDGE, Upload
from selector.knowledge.models import KnowledgeBase

_PREFS = "prefs"  # session_state: the last preferences in force, so a page switch (which clears the URL) keeps them


# The Evidence page's filter widgets; a saved profile keeps their values.
EVIDENCE_FILTERS = {
    "text": "ev-text",
    "flagged": "ev-flagged",
    "documents": "ev-docs",
    "entities": "ev-entities",
    "kinds": "ev-kinds",
    "tiers": "ev-tiers",
    "datasets": "ev-datasets",
}
SCALAR_FILTERS = ("text", "flagged")
_META = "adr-meta"  # session_state: the decision record's front matter (selector.adr), set on the Export page
#: The Export page's front-matter fields (widget keys): a loaded profile clears them so that they show its values.
EXPORT_FIELD_KEYS = (
    "export-title",
    "export-status",
    "export-deciders",
    "export-consulted",
    "export-informed",
    "export-review-by",
)
_FILTERS = "ev-filters"  # session_state: the Evidence filters in force (a page switch clears the URL)
_KB = "session-kb"  # session_state: the knowledge app.py settled on for this run (a reference, never a copy)
_LINK_DATA = "link-data"  # session_state: the last `data` read from or written to the URL
_LINK_ENCODED = "link-encoded"  # session_state: (digest of the uploads, their `data` or None), encoded once
TOO_LARGE_FOR_A_LINK = N_(
    "The link carries your settings but not your files (too large for a link): share the decision profile file instead."
)


def knowledge_problems() -> list[Issue]:
    """Why the bundled knowledge does not load (empty when it does): what app.py shows instead of the pages.

    A failed load is not cached (``st.cache_resource`` keeps only results), so fixing the files and reloading the
    page is enough.
    """
    try:
        _cached.bundled_kb()
    except knowledge.KnowledgeError as exc:
        return [i for i in exc.issues if i.level == "ERROR"]
    except Exception as exc:  # an unforeseen failure still gets the one page instead of a red box on every page
        message = (
            f"the knowledge could not be loaded ({exc.__class__.__name__}: {exc}); run python -m selector validate"
        )
        return [Issue("ERROR", "knowledge/", None, None, message)]
    return []


def uploads_digest(uploads: Sequence[Upload]) -> str:
    """A hash of the uploads' names and bytes: the cache key of the knowledge they produce."""
    digest = hashlib.sha256()
    for upload in uploads:
        digest.update(upload.name.encode() + b"\0" + hashlib.sha256(upload.data).digest())
    return digest.hexdigest()


def load_session_kb() -> KnowledgeBase:
    """Settle the knowledge this session sees in this run: the bundled one, merged with the user's uploads when
    they validate. app.py calls it before the page; the page reads it with :func:`session_kb`.

    ``st.session_state["uploads"]`` holds the uploads (a list of :class:`selector.knowledge.loading.Upload`); every
    issue
    the check found is kept in ``st.session_state["upload_issues"]``. Uploads with an error are not used: the
    bundled knowledge is returned and the issues say what to fix.
    """
    kb = _merged_with_uploads()
    st.session_state[_KB] = kb
    return kb


def session_kb() -> KnowledgeBase:
    """The knowledge this session sees in this run, as app.py settled it before the page (:func:`load_session_kb`)."""
    return st.session_state[_KB]


def _merged_with_uploads() -> KnowledgeBase:
    _read_link()
    uploads = tuple(st.session_state.get("uploads") or ())
    _write_link_data()
    if not uploads:
        st.session_state["upload_issues"] = []
        return _cached.bundled_kb()
    try:
        kb, issues = _cached.merged_kb(uploads_digest(uploads), uploads)
    except limits.Busy as exc:
        st.warning(
            _("Your files could not be merged just now: {error}. Showing the bundled knowledge.").format(error=md(exc))
        )
        return _cached.bundled_kb()
    st.session_state["upload_issues"] = list(issues)
    return kb if kb is not None else _cached.bundled_kb()


def default_prefs(kb: KnowledgeBase) -> Preferences:
    """The defaults: the first group of the knowledge, default answers, weights, method and policy."""
    return Preferences(group=next(iter(kb.groups)))


def check_prefs(kb: KnowledgeBase, prefs: Preferences) -> Preferences:
    """Raise :class:`PreferenceError` unless `prefs` fits `kb` (:meth:`Preferences.check`: method and scaler
    included) and its weights fit the sliders (a link or profile is checked here before any widget sees its values)."""
    prefs.check(kb)
    check_slider_ranges(prefs)
    return prefs


def _write_query(prefs: Preferences) -> None:
    _link.write(_link.params(prefs), _link.PREFERENCES)


def current_prefs(kb: KnowledgeBase) -> Preferences:
    """The preferences in force: from the URL (so a link reproduces a ranking), else this session's last ones.

    A malformed or unusable link shows an error saying what is wrong and falls back to the defaults.
    """
    default_group = next(iter(kb.groups))
    try:
        linked, link_error = _link.read_preferences(default_group), None
    except PreferenceError as exc:
        linked, link_error = None, exc
    remembered = st.session_state.get(_PREFS)
    if linked is not None and linked == remembered:
        linked = remembered  # the link the session wrote: its preferences are checked already (Preferences.checked)
    if linked is None and link_error is None and remembered is not None:
        # Switching pages clears the URL; carry the session's choice over and put it back in the address.
        try:
            prefs = check_prefs(kb, remembered)
        except PreferenceError:
            prefs = default_prefs(kb)
        _write_query(prefs)
    else:
        try:
            if link_error is not None:
                raise link_error
            prefs = check_prefs(kb, linked or Preferences(group=default_group))
        except PreferenceError as exc:
            st.error(
                _("The settings in this link cannot be used: {error}. Showing the default settings instead.").format(
                    error=md(stored(exc.message, _lang.current()))
                )
            )
            prefs = default_prefs(kb)
    st.session_state[_PREFS] = prefs
    return prefs


def prefs_in_force(kb: KnowledgeBase) -> Preferences:
    """The preferences the page's run (:func:`current_prefs`) or a control's callback (:func:`set_prefs`) settled on.

    For fragments: they rerun without the page, after their own widgets' callbacks, and must not read the URL a
    second time (a malformed link would be reported twice).
    """
    remembered = st.session_state.get(_PREFS)
    return remembered if remembered is not None else current_prefs(kb)


def set_prefs(prefs: Preferences) -> None:
    """Make `prefs` the preferences in force: written to the URL and remembered for this session."""
    st.session_state[_PREFS] = prefs
    _write_query(prefs)


def reset_prefs() -> None:
    """Back to the defaults: the preference parameters leave the URL and the session forgets its choice."""
    _link.write({}, _link.PREFERENCES)
    st.session_state.pop(_PREFS, None)


def current_filters() -> dict[str, list[str]]:
    """The Evidence page's filters as a plain dict of lists (only those set)."""
    found = {}
    for name, key in EVIDENCE_FILTERS.items():
        value = st.session_state.get(key)
        if name in SCALAR_FILTERS:
            if value and value != "all":
                found[name] = [str(value)]
        elif value:
            found[name] = [str(v) for v in value]
    return found


def filters_in_force() -> dict[str, list[str]]:
    """The Evidence filters in force: the link's `ev` as read by :func:`load_session_kb`, else the widgets' values."""
    remembered = st.session_state.get(_FILTERS)
    return {k: list(v) for k, v in remembered.items()} if remembered is not None else current_filters()


def set_filters(filters: dict[str, Sequence[str]]) -> None:
    """Make `filters` the Evidence filters in force: remembered for this session and written to the URL (`ev`)."""
    kept = {k: [str(x) for x in v] for k, v in filters.items() if v}
    st.session_state[_FILTERS] = kept
    _link.write(_link.params(_carrier_prefs(), filters=kept), _link.FILTERS)


def _errors_text(exc: profile.ProfileError, most: int = 5) -> str:
    errors = [str(i) for i in exc.issues if i.level == "ERROR"] or [str(exc)]
    more = _("; and {count} more").format(count=len(errors) - most) if len(errors) > most else ""
    return md("; ".join(errors[:most]) + more)


def _read_link() -> None:
    # The link's own parameters: `ev` is read on every run (a page switch clears the URL: the session's filters
    # go back into it); `data` is applied once per distinct value, so the files are not re-checked every rerun.
    default_group = _carrier_prefs().group
    try:
        linked_filters = _link.read_filters(default_group)
    except profile.ProfileError as exc:
        st.error(
            _("The Evidence filters in this link cannot be used: {errors}. Showing every claim.").format(
                errors=_errors_text(exc)
            )
        )
        linked_filters = {}
    set_filters((st.session_state.get(_FILTERS) or {}) if linked_filters is None else linked_filters)
    _say_when_files_were_not_carried()
    raw_data = _link.raw(profile.DATA_PARAM)
    if raw_data is None or raw_data == st.session_state.get(_LINK_DATA):
        return
    st.session_state[_LINK_DATA] = raw_data
    try:
        embedded = _link.read_uploads(default_group) or ()
        # Exactly the checks of a profile load, each file against the bundled knowledge and the files before it.
        carrier = profile.Profile(preferences=default_prefs(_cached.bundled_kb()), uploads=embedded)
        results = profile.check(carrier, DEFAULT_KNOWLEDGE)
    except profile.ProfileError as exc:
        st.error(
            _(
                "The files in this link were not loaded: {errors}. The app continues with the bundled knowledge; ask "
                "for the decision profile file instead."
            ).format(errors=_errors_text(exc))
        )
        return
    st.session_state["uploads"] = [r.upload for r in results]
    st.session_state["upload_originals"] = {r.original.name: r.original for r in results}


def link_data() -> str | None:
    """This session's uploads as the link's `data` value; None when there are none or they are too large."""
    uploads = list(st.session_state.get("uploads") or ())
    if not uploads:
        return None
    originals = st.session_state.get("upload_originals") or {}
    files = [originals.get(u.name, u) for u in uploads]
    digest = uploads_digest(files)
    memo = st.session_state.get(_LINK_ENCODED)
    if memo is None or memo[0] != digest:
        try:
            embedded = tuple(profile.EmbeddedUpload.from_upload(f) for f in files)
            encoded = _link.params(_carrier_prefs(), uploads=embedded).get(profile.DATA_PARAM)
        except (ValueError, UnicodeDecodeError):
            encoded = None  # not embeddable text: only a profile file can say why (see profile_text)
        memo = (digest, encoded)
        st.session_state[_LINK_ENCODED] = memo
    return memo[1]


def link_note() -> str | None:
    """The sentence to show when this session has files that the link cannot carry; None when it carries them."""
    if st.session_state.get("uploads") and link_data() is None:
        return _(TOO_LARGE_FOR_A_LINK)
    return None


def _write_link_data() -> None:
    wanted = link_data()
    if wanted is not None:
        _link.write({profile.DATA_PARAM: wanted}, _link.DATA)
    else:
        # files too large for the link: the link still says how many there were, so that a session opened from it
        # (after a server restart, say) can tell the user they are missing instead of ranking without them
        count = len(st.session_state.get("uploads") or ())
        _link.write({_link.NOT_CARRIED: str(count)} if count else {}, _link.DATA)
    st.session_state[_LINK_DATA] = wanted


def _say_when_files_were_not_carried() -> None:
    """A warning, while this session has no files, that the link came from a session whose files it could not
    carry (a server restart ends the session that held them)."""
    raw = _link.raw(_link.NOT_CARRIED)
    if not raw or st.session_state.get("uploads"):
        return
    count = int(raw) if raw.isdigit() and 0 < int(raw) <= 1000 else None
    plural = _("{count} files").format(count=count) if count else _("files")
    files = _("1 file") if count == 1 else plural
    st.warning(
        _(
            "This link came from a session with {files} of its own, too large for a link to carry, so they are not "
            "here (a server restart or a shared link starts a new session): the ranking uses the bundled knowledge. "
            "Upload the files again on My data, or load the decision profile file."
        ).format(files=files),
        icon=":material/link_off:",
    )


def _carrier_prefs() -> Preferences:
    # Preferences to carry a link part other than theirs (only that part is read or written): those in force,
    # else the defaults; the link's own preferences are settled later, by current_prefs.
    return st.session_state.get(_PREFS) or default_prefs(_cached.bundled_kb())


def profile_text(prefs: Preferences) -> str:
    """This session as a decision profile (YAML): preferences, Evidence filters and the files as uploaded.

    Raises
    ------
    ValueError
        When an uploaded file cannot be embedded (the message says why).
    """
    originals = st.session_state.get("upload_originals", {})
    files = [originals.get(u.name, u) for u in st.session_state.get("uploads") or ()]
    saved = profile.make(
        prefs, filters_in_force(), files, language=_lang.current(), decision=st.session_state.get(_META)
    )
    try:
        kb = session_kb()
        text = _cached.decision_record(kb, kb.data_hash, prefs.model_dump_json(), tuple(profile.upload_files(saved)))
    except SelectorError:
        text = None  # settings that cannot be ranked are still saved, without a record to re-check
    saved = saved.model_copy(update={"record": text})
    return _cached.profile_yaml(saved.model_dump_json(), saved)


def session_upload_files() -> tuple[tuple[str, bytes], ...]:
    """The session's files as (name, bytes), as a profile embeds them: what a decision record digests."""
    originals = st.session_state.get("upload_originals", {})
    files = [originals.get(u.name, u) for u in st.session_state.get("uploads") or ()]
    try:
        return tuple((e.name, e.text.encode("utf-8")) for e in map(profile.EmbeddedUpload.from_upload, files))
    except (ValueError, UnicodeDecodeError):
        return tuple((f.name, f.data) for f in files)


def profile_download(prefs: Preferences, *, label: str, file_name: str, key: str) -> None:
    """A download button for this session's decision profile, or the reason it cannot be saved."""
    try:
        text = profile_text(prefs)
    except (ValueError, UnicodeDecodeError) as exc:
        st.error(_("This session cannot be saved as a profile: {error}").format(error=md(exc)))
        return
    st.download_button(
        label,
        data=text.encode("utf-8"),
        file_name=file_name,
        mime="application/x-yaml",
        icon=":material/save:",
        on_click="ignore",
        key=key,
    )


def requirement_in_force(kb: KnowledgeBase) -> dict | None:
    """The requirement the preferences in force started from, as plain data for a report or an export: its fields
    (``Requirement.model_dump``) and ``words`` (the requirement in words); None when the settings were made by hand."""
    req = prefs_in_force(kb).requirement
    if req is None or req.empty:
        return None
    return {**req.model_dump(mode="json"), "words": req.words(kb, _lang.current())}


def current_meta() -> adr.DecisionMeta:
    """The decision record's front matter in force: this session's, else the link's (``adr_title``, ``deciders``,
    ...), else the defaults; a link whose fields cannot be used says why and is ignored."""
    remembered = st.session_state.get(_META)
    if remembered is not None:
        return remembered
    try:
        linked = adr.from_params(st.query_params.to_dict())
    except adr.MetaError as exc:
        st.error(
            _("The decision fields in this link cannot be used: {error}. Fill them in below.").format(error=md(exc))
        )
        linked = None
    meta = linked or adr.DecisionMeta()
    st.session_state[_META] = meta
    return meta


def set_meta(meta: adr.DecisionMeta) -> None:
    """Make `meta` the front matter in force: remembered for the session (and its profile), and in the link while
    it is short (:func:`selector.adr.to_params`)."""
    st.session_state[_META] = meta
    _link.write(adr.to_params(meta), adr.PARAMS)
