"""Session plumbing shared by the pages: the cached knowledge base, a user's uploads, the state kept in the URL."""

from __future__ import annotations

import datetime as dt
import gc
import hashlib
import os
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

import plotly.graph_objects as go
import streamlit as st

from selector import knowledge, limits, profile, provenance, recommend, scoring, verdict, views
from selector.issues import Issue
from selector.knowledge import DEFAULT_KNOWLEDGE, Upload
from selector.models import KnowledgeBase
from selector.preferences import PreferenceError, Preferences, check_slider_ranges, from_query, to_query
from selector.robustness import analysis
from selector.robustness.smaa import SMAAResult

# The URL parameters that carry preferences (see selector.preferences.to_query); others are left alone.
PREF_KEYS = ("group", "answers", "w", "cw", "method", "scaler", "missing", "flagged", "must", "xv", "x", "unknown")
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
_FILTERS = "ev-filters"  # session_state: the Evidence filters in force (a page switch clears the URL)
_LINK_DATA = "link-data"  # session_state: the last `data` read from or written to the URL
_LINK_ENCODED = "link-encoded"  # session_state: (digest of the uploads, their `data` or None), encoded once
TOO_LARGE_FOR_A_LINK = (
    "The link carries your settings but not your files (too large for a link): share the decision profile file instead."
)


# ----------------------------------------------------------------------------------------------------------
# Knowledge


@st.cache_resource(show_spinner="Loading the knowledge base...")
def bundled_kb() -> KnowledgeBase:
    """The knowledge shipped with the app, loaded once per server and shared by every session (never mutate it).

    Once it is loaded, everything alive (the knowledge and the modules imported so far) lives as long as the
    server: it is frozen out of the garbage collector, so a full collection no longer walks it.
    """
    kb = knowledge.load()
    gc.collect()  # what is garbage now would be frozen with the rest and never freed
    gc.freeze()
    return kb


def knowledge_problems() -> list[Issue]:
    """Why the bundled knowledge does not load (empty when it does): what app.py shows instead of the pages.

    A failed load is not cached (``st.cache_resource`` keeps only results), so fixing the files and reloading the
    page is enough.
    """
    try:
        bundled_kb()
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


@st.cache_resource(max_entries=16, show_spinner="Checking your files...")
def _collect_with(digest: str, _uploads: tuple[Upload, ...]) -> tuple[KnowledgeBase | None, list]:
    # `digest` is the key; the uploads themselves (underscore) are not hashed by streamlit. limits.Busy is raised,
    # not returned, so that a busy server's answer is not cached.
    with limits.checking():
        return knowledge.collect(DEFAULT_KNOWLEDGE, extra=_uploads)


def session_kb() -> KnowledgeBase:
    """The knowledge this session sees: the bundled one, merged with the user's uploads when they validate.

    ``st.session_state["uploads"]`` holds the uploads (a list of :class:`selector.knowledge.Upload`); every issue
    the check found is kept in ``st.session_state["upload_issues"]``. Uploads with an error are not used: the
    bundled knowledge is returned and the issues say what to fix.
    """
    _read_link()
    uploads = tuple(st.session_state.get("uploads") or ())
    _write_link_data()
    if not uploads:
        st.session_state["upload_issues"] = []
        return bundled_kb()
    try:
        kb, issues = _collect_with(uploads_digest(uploads), uploads)
    except limits.Busy as exc:
        st.warning(f"Your files could not be merged just now: {md(exc)}. Showing the bundled knowledge.")
        return bundled_kb()
    st.session_state["upload_issues"] = list(issues)
    return kb if kb is not None else bundled_kb()


def uses_uploads(kb: KnowledgeBase) -> bool:
    """Whether `kb` includes the user's uploads (it is not the bundled knowledge)."""
    return kb is not bundled_kb()


# ----------------------------------------------------------------------------------------------------------
# Preferences in the URL


def default_prefs(kb: KnowledgeBase) -> Preferences:
    """The defaults: the first group of the knowledge, default answers, weights, method and policy."""
    return Preferences(group=next(iter(kb.groups)))


def check_prefs(kb: KnowledgeBase, prefs: Preferences) -> Preferences:
    """Raise :class:`PreferenceError` unless `prefs` fits `kb`, names a known method and allowed scaler, and its
    weights fit the sliders (a link or profile is checked here before any widget sees its values)."""
    prefs.check(kb)
    check_slider_ranges(prefs)
    try:
        scoring.resolve_method(prefs.method, prefs.scaler)
    except scoring.ScoringError as exc:
        raise PreferenceError(str(exc)) from None
    return prefs


def _write_query(prefs: Preferences) -> None:
    wanted = to_query(prefs)
    for key in PREF_KEYS:
        if key in st.query_params and key not in wanted:
            del st.query_params[key]
    changed = {k: v for k, v in wanted.items() if st.query_params.get(k) != v}
    if changed:
        st.query_params.update(changed)


def current_prefs(kb: KnowledgeBase) -> Preferences:
    """The preferences in force: from the URL (so a link reproduces a ranking), else this session's last ones.

    A malformed or unusable link shows an error saying what is wrong and falls back to the defaults.
    """
    query = {k: st.query_params[k] for k in PREF_KEYS if k in st.query_params}
    remembered = st.session_state.get(_PREFS)
    if not query and remembered is not None:
        # Switching pages clears the URL; carry the session's choice over and put it back in the address.
        try:
            prefs = check_prefs(kb, remembered)
        except PreferenceError:
            prefs = default_prefs(kb)
        _write_query(prefs)
    else:
        try:
            prefs = check_prefs(kb, from_query(query, next(iter(kb.groups))))
        except PreferenceError as exc:
            st.error(f"The settings in this link cannot be used: {md(exc)}. Showing the default settings instead.")
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
    for key in PREF_KEYS:
        if key in st.query_params:
            del st.query_params[key]
    st.session_state.pop(_PREFS, None)


def sync_widget(key: str, value: object) -> None:
    """Make the widget `key` show `value` (the preferences' value) before it is drawn.

    Widgets carry no default of their own: their state is set from the preferences, so the URL, the reset button
    and a page switch all show up in the widgets.
    """
    if key not in st.session_state or st.session_state[key] != value:
        st.session_state[key] = value


# ----------------------------------------------------------------------------------------------------------
# Cached computations


def recommendation(kb: KnowledgeBase, prefs: Preferences) -> recommend.Recommendation:
    """The recommendation for `prefs`, computed afresh.

    Not cached: with the evidence grid and scikit-criteria's normalisation kept per matrix (selector.matrix,
    selector.scoring), ``recommend()`` takes ~0.3 ms, less than a Streamlit cache's own bookkeeping on a miss,
    and every slider move is a miss.
    """
    return recommend.recommend(kb, prefs)


def session_figure(slot: str, key: tuple, build: Callable[[], go.Figure]) -> go.Figure:
    """The figure this session keeps in `slot`, built anew only when `key` (what shapes the figure) changes.

    For charts redrawn on every slider move: updating a kept figure's data in place costs a fifth of building
    one (see charts.contributions.restack_contribution_bars). A session runs one script at a time, so its figure
    is never shared; it is serialised by ``st.plotly_chart`` during the call that draws it.
    """
    kept = st.session_state.get(slot)
    if kept is not None and kept[0] == key:
        return kept[1]
    figure = build()
    st.session_state[slot] = (key, figure)
    return figure


# ----------------------------------------------------------------------------------------------------------
# Safe text

# Markdown and Streamlit's own directives (:red[...], :material/icon:) are neutralised by escaping every
# ASCII punctuation character that could start them; CommonMark shows an escaped character literally.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=])")


def md(text: object) -> str:
    """`text` escaped for ``st.markdown``/``st.caption``: knowledge and upload text is shown, never interpreted."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text)).replace("\n", "  \n")


def knowledge_caption(kb: KnowledgeBase) -> None:
    """A line in the sidebar saying which knowledge the page shows."""
    where = "bundled knowledge + your files" if uses_uploads(kb) else "bundled knowledge"
    st.sidebar.caption(f"{where} · {len(kb.claims)} claims · {len(kb.entities)} entities · data {md(kb.data_hash)}")


def today() -> dt.date:
    """The date numbers' ages are counted to: ``SELECTOR_TODAY`` (ISO date, for tests and reproducible
    screenshots) when set, else today in UTC."""
    fixed = os.environ.get("SELECTOR_TODAY")
    return dt.date.fromisoformat(fixed) if fixed else dt.datetime.now(dt.UTC).date()


def show_claim(kb: KnowledgeBase, claim_id: str) -> None:
    """One claim as evidence: document and section, the Chinese quote, the English text, any flags, and for a
    dataset's number its footnote and snapshot date (marked when ageing)."""
    if claim_id not in kb.claims:
        st.warning(f"Claim {md(claim_id)} is not in the knowledge base.")
        return
    ev = views.claim_evidence(kb, claim_id, today())
    where = " · ".join(md(p) for p in (ev["document"], ev["section"]) if p)
    st.markdown(f"**{md(claim_id)}** · {ev['tier']} · {where}")
    if ev["quote_zh"]:
        st.markdown("> " + md(ev["quote_zh"]))
    st.markdown(md(ev["text_en"]) + (f" — **{md(ev['value'])}**" if ev["value"] else ""))
    details = [f"conditions: {ev['conditions']}" if ev["conditions"] else "", ev["rationale"], ev["note"]]
    details = [d for d in details if d]
    if details:
        st.caption(md(" · ".join(details)))
    if ev["footnote"]:
        st.caption(f"Footnote: {md(ev['footnote'])} · {md(ev['age'])}")
    if provenance.AGEING_LABEL in ev["age"]:
        st.warning(
            f"Ageing number: its snapshot is older than {provenance.AGEING_MONTHS} months ({md(ev['age'])}).",
            icon=":material/history:",
        )
    if ev["flags"]:
        st.warning(md(ev["flags"]), icon=":material/flag:")


DATA_SOURCES_PAGE = "app_pages/data_sources.py"


def data_sources_footer() -> None:
    """One line under every page naming each bundled dataset's licence, linking to "Data sources and licences"."""
    found = provenance.datasets(bundled_kb())
    if not found:
        return
    st.divider()
    names = "; ".join(f"{d.title} ({d.licence})" for d in found)
    st.caption(f"Data: {md(names)}. Each figure from them keeps its source, row and date.")
    st.page_link(DATA_SOURCES_PAGE, label="Data sources and licences", icon=":material/license:")


# ----------------------------------------------------------------------------------------------------------
# Robustness: one definition for the badge, the Robustness page, the command line and the report

PAGE_SAMPLES = analysis.DEFAULT_SAMPLES  # the Robustness page's default, as `python -m selector sensitivity`
SEED = 0
SPACE_LABELS = {"dimensions": "the four dimension weights", "criteria": "every criterion weight"}


@st.cache_data(max_entries=128, show_spinner=False)
def _cached_robustness(
    _kb: KnowledgeBase,
    data_hash: str,
    prefs_json: str,
    samples: int,
    seed: int,
    spread: float | None,
    space: analysis.Space,
) -> analysis.Robustness:
    # Keyed by the knowledge hash and the preferences (the underscore keeps the knowledge itself out of the key).
    rec = recommend.recommend(_kb, Preferences.model_validate_json(prefs_json))
    return analysis.analyse(rec, samples=samples, seed=seed, spread=spread, space=space)


def robustness_of(
    kb: KnowledgeBase,
    prefs: Preferences,
    *,
    samples: int = verdict.SAMPLES,
    seed: int = SEED,
    spread: float | None = None,
    space: analysis.Space = "dimensions",
) -> analysis.Robustness:
    """:func:`selector.robustness.analysis.analyse` of the recommendation for `prefs`, cached per input.

    Parameters
    ----------
    kb, prefs
        The knowledge and the preferences in force (their recommendation is the one analysed).
    samples, seed
        Monte Carlo sample count and seed.
    spread
        None samples the whole weight simplex; a share d samples within +/- d of the current weights.
    space
        ``"dimensions"`` or ``"criteria"``: which weights are sampled.

    Raises
    ------
    selector.scoring.ScoringError, ValueError
        When the analyses cannot run on this ranking (the message says why).
    """
    return _cached_robustness(
        kb,
        kb.data_hash,
        prefs.model_dump_json(),
        int(samples),
        int(seed),
        None if spread is None else float(spread),
        space,
    )


@st.cache_resource(show_spinner=False, max_entries=256)
def _cached_first_rank_shares(
    _kb: KnowledgeBase, data_hash: str, prefs_json: str, samples: int, seed: int
) -> tuple[Mapping[str, float], str]:
    # Each name's share of first places (read-only, shared by every session) and what was sampled: the badge
    # reads it on every slider move, and cache_data would copy it on every read.
    rec = recommend.recommend(_kb, Preferences.model_validate_json(prefs_json))
    smaa = analysis.acceptability(rec, samples=samples, seed=seed)
    shares = dict(zip(smaa.alternatives, map(float, smaa.first_rank_acceptability), strict=True))
    return MappingProxyType(shares), sampling_text(smaa, "dimensions", None)


def whole_simplex_share(kb: KnowledgeBase, prefs: Preferences, leader: str) -> float:
    """`leader`'s share of first places over any weighting of the four dimensions (:func:`verdict.global_share`).

    Sampling the whole simplex does not depend on where the current dimension weights stand, and neither does the
    matrix, so the shares are looked up with the dimension weights left at their defaults and the current leader's
    is read from them: moving one of the four main sliders is answered from the cache.

    Raises
    ------
    selector.scoring.ScoringError, ValueError
        When the analysis cannot run on this ranking.
    """
    base_json = prefs.model_dump_json(exclude={"dimension_weights"})
    shares, _ = _cached_first_rank_shares(kb, kb.data_hash, base_json, verdict.SAMPLES, verdict.SEED)
    return shares[leader]


def sampling_text(smaa: SMAAResult, space: str, spread: float | None) -> str:
    """What an SMAA run sampled, in one sentence (for the badge's help and the Robustness page)."""
    where = (
        "anywhere on the whole weight simplex (every split of 100%)"
        if spread is None
        else f"within ±{spread * 100:g} percentage points of your current weights"
    )
    text = f"{smaa.n_samples:,} weightings of {SPACE_LABELS.get(space, space)}, drawn uniformly {where}"
    if space == "dimensions":
        text += ", each dimension's share spread over its criteria by your sub-criterion weights"
    text += f"; method {smaa.method} with {smaa.scaler} scaling; seed {smaa.seed}"
    if smaa.uncertain_cells:
        text += f"; {len(smaa.uncertain_cells)} cell(s) without evidence drawn across their plausible range"
    return text + "."


# ----------------------------------------------------------------------------------------------------------
# Decision profile


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
    """The Evidence filters in force: the link's `ev` as read by :func:`session_kb`, else the widgets' values."""
    remembered = st.session_state.get(_FILTERS)
    return {k: list(v) for k, v in remembered.items()} if remembered is not None else current_filters()


def set_filters(filters: dict[str, Sequence[str]]) -> None:
    """Make `filters` the Evidence filters in force: remembered for this session and written to the URL (`ev`)."""
    kept = {k: [str(x) for x in v] for k, v in filters.items() if v}
    st.session_state[_FILTERS] = kept
    wanted = profile.encode_filters(kept)
    if wanted is None:
        if profile.FILTERS_PARAM in st.query_params:
            del st.query_params[profile.FILTERS_PARAM]
    elif st.query_params.get(profile.FILTERS_PARAM) != wanted:
        st.query_params[profile.FILTERS_PARAM] = wanted


def _errors_text(exc: profile.ProfileError, most: int = 5) -> str:
    errors = [str(i) for i in exc.issues if i.level == "ERROR"] or [str(exc)]
    more = f"; and {len(errors) - most} more" if len(errors) > most else ""
    return md("; ".join(errors[:most]) + more)


def _read_link() -> None:
    # The link's own parameters: `ev` is read on every run (a page switch clears the URL: the session's filters
    # go back into it); `data` is applied once per distinct value, so the files are not re-checked every rerun.
    raw_filters = st.query_params.get(profile.FILTERS_PARAM)
    if raw_filters is None:
        set_filters(st.session_state.get(_FILTERS) or {})
    else:
        try:
            set_filters(profile.decode_filters(raw_filters))
        except profile.ProfileError as exc:
            st.error(f"The Evidence filters in this link cannot be used: {_errors_text(exc)}. Showing every claim.")
            set_filters({})
    raw_data = st.query_params.get(profile.DATA_PARAM)
    if raw_data is None or raw_data == st.session_state.get(_LINK_DATA):
        return
    st.session_state[_LINK_DATA] = raw_data
    try:
        embedded = profile.decode_uploads(raw_data)
        # Exactly the checks of a profile load, each file against the bundled knowledge and the files before it.
        carrier = profile.Profile(preferences=default_prefs(bundled_kb()), uploads=embedded)
        results = profile.check(carrier, DEFAULT_KNOWLEDGE)
    except profile.ProfileError as exc:
        st.error(
            f"The files in this link were not loaded: {_errors_text(exc)}. The app continues with the bundled "
            "knowledge; ask for the decision profile file instead."
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
            encoded = profile.encode_uploads(tuple(profile.EmbeddedUpload.from_upload(f) for f in files))
        except (ValueError, UnicodeDecodeError):
            encoded = None  # not embeddable text: only a profile file can say why (see profile_text)
        memo = (digest, encoded)
        st.session_state[_LINK_ENCODED] = memo
    return memo[1]


def link_note() -> str | None:
    """The sentence to show when this session has files that the link cannot carry; None when it carries them."""
    if st.session_state.get("uploads") and link_data() is None:
        return TOO_LARGE_FOR_A_LINK
    return None


def _write_link_data() -> None:
    wanted = link_data()
    if wanted is None:
        if profile.DATA_PARAM in st.query_params:
            del st.query_params[profile.DATA_PARAM]
    elif st.query_params.get(profile.DATA_PARAM) != wanted:
        st.query_params[profile.DATA_PARAM] = wanted
    st.session_state[_LINK_DATA] = wanted


def profile_text(prefs: Preferences) -> str:
    """This session as a decision profile (YAML): preferences, Evidence filters and the files as uploaded.

    Raises
    ------
    ValueError
        When an uploaded file cannot be embedded (the message says why).
    """
    originals = st.session_state.get("upload_originals", {})
    files = [originals.get(u.name, u) for u in st.session_state.get("uploads") or ()]
    return profile.dump(profile.make(prefs, filters_in_force(), files))


def profile_download(prefs: Preferences, *, label: str, file_name: str, key: str) -> None:
    """A download button for this session's decision profile, or the reason it cannot be saved."""
    try:
        text = profile_text(prefs)
    except (ValueError, UnicodeDecodeError) as exc:
        st.error(f"This session cannot be saved as a profile: {md(exc)}")
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
