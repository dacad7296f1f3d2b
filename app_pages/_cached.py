"""Every Streamlit cache of the app in one place: the bundled knowledge, the knowledge merged with uploads, the
robustness analyses, the Accelerators and Evidence pages' tables and the Export page's report and files (each keyed by
what it depends on; what they return is shared by every session, never mutated).

Files offered for download are made here and handed to ``st.download_button`` as bytes, never as a callable that
Streamlit runs on the click: Streamlit keeps a file made on a click unreferenced, and the sweep that ends every
script run of *any* session deletes such a file at its second pass, so on a server in use the browser could ask
for it after it was gone (the download was cancelled: 2 of 45 clicks while three other sessions moved sliders).
Bytes a run hands over stay referenced by the session until its next run."""

from __future__ import annotations

import datetime as dt
import gc
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from selector import escape, i18n, profile, verdict
from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.i18n import N_
from selector.io import limits
from selector.knowledge import conflicts, vocabulary
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import DEFAULT_KNOWLEDGE, Upload
from selector.knowledge.models import LOCATED_TIERS, KnowledgeBase
from selector.robustness import analysis, figure
from selector.uploads import intake
from selector.views.accelerators import accelerator_claims, accelerator_efficiency, dataset_numbers, spec_table
from selector.views.evidence import claims_table, labelled_claims
from selector.views.frameworks import ComparableSet, FeatureMatrix, comparable_sets, feature_matrix
from selector.views.labels import SEGMENT_LABELS

if TYPE_CHECKING:
    from selector.report.model import Report


@st.cache_resource(show_spinner="Loading the knowledge base...")
def bundled_kb() -> KnowledgeBase:
    """The knowledge shipped with the app, loaded once per server and shared by every session (never mutate it).

    Once it is loaded, everything alive (the knowledge and the modules imported so far) lives as long as the
    server: it is frozen out of the garbage collector, so a full collection no longer walks it. A server started by
    serve.py has loaded it in the background already, and this takes it over.
    """
    kb = knowledge.bundled()
    gc.collect()  # what is garbage now would be frozen with the rest and never freed
    gc.freeze()
    return kb


@st.cache_resource(max_entries=16, show_spinner="Checking your files...")
def merged_kb(digest: str, _uploads: tuple[Upload, ...]) -> tuple[KnowledgeBase | None, list]:
    """The bundled knowledge merged with `_uploads` and every issue found (the knowledge is None on an error).

    `digest` (:func:`app_pages._session.uploads_digest`) is the key; the uploads themselves (underscore) are not
    hashed by streamlit.

    Raises
    ------
    selector.io.limits.Busy
        When the server is checking too many files at once: raised, not returned, so that it is not cached.
    """
    with limits.checking():
        # the check of the last upload merged these same uploads: its merge is taken, not made again
        return intake.merged(DEFAULT_KNOWLEDGE, _uploads)


def uses_uploads(kb: KnowledgeBase) -> bool:
    """Whether `kb` includes the user's uploads (it is not the bundled knowledge)."""
    return kb is not bundled_kb()


PAGE_SAMPLES = figure.SAMPLES  # the Robustness page's default: the badge's, the report's and both commands'
SEED = figure.SEED


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
    result = analysis.analyse(rec, samples=samples, seed=seed, spread=spread, space=space)
    # The Robustness page shows the confidence factors, computed when first read: read here, they are kept in the
    # cached copy, rather than computed again on every visit (each visit gets a fresh copy).
    _ = result.smaa.confidence
    return result


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
    selector.decision.problem.ScoringError, ValueError
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


# Shared, not copied: st.cache_data would unpickle every frame on every visit of every session (a good part of the
# page's server time under load); the pages only read them, and pandas' copy-on-write keeps what they derive from
# them their own (tests/app/test_shared_tables.py checks that a visit leaves them as built).
@st.cache_resource(max_entries=16, show_spinner=False)
def accelerator_tables(
    _kb, data_hash: str, today: dt.date
) -> tuple[pd.DataFrame, dict[str, pd.DataFrame], dict[str, pd.DataFrame], pd.DataFrame]:  # noqa: ANN001
    """The Accelerators page's tables, built once per knowledge (its hash is the key) and date ages are counted to
    rather than on every visit: the claims, each segment's spec table as the articles state it, each segment's
    dataset numbers with their footnotes, and the efficiency frame."""
    claims = accelerator_claims(_kb, today=today)
    stated = claims[~claims["tier"].isin(sorted(LOCATED_TIERS))]
    segments = [s for s in SEGMENT_LABELS if (claims["segment"] == s).any()]
    spec_tables = {segment: spec_table(stated, segment) for segment in segments}
    located = {segment: dataset_numbers(_kb, claims, segment) for segment in segments}
    return claims, spec_tables, located, accelerator_efficiency(_kb, claims=claims)


@st.cache_resource(max_entries=16, show_spinner=False)  # shared read-only, as accelerator_tables
def evidence_tables(_kb, data_hash: str, today: dt.date) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:  # noqa: ANN001
    """The Evidence page's tables, built once per knowledge (its hash is the key) and date ages are counted to:
    every claim as the download writes it (:func:`claims_table`), the same as the grid shows it (names, flag
    kinds), and the conflicts between claims (``about``: the subject and the metric by name; ``problem`` marks a
    disagreement)."""
    table = claims_table(_kb, today=today)
    found = conflicts.detect(_kb)
    conflict_rows = pd.DataFrame(
        [
            {
                "kind": c.kind.replace("-", " "),
                "about": f"{_kb.entity_name(c.subject)}, {vocabulary.label(_kb, c.metric)}",
                "message": c.message.replace(f", {c.metric}:", f", {vocabulary.label(_kb, c.metric)}:"),
                "claims": ", ".join(c.claims),
                "problem": c.is_problem,
            }
            for c in found
        ],
        columns=[N_("kind"), N_("about"), N_("message"), N_("claims"), "problem"],  # heads said on the page
    )
    return table, labelled_claims(_kb, table), conflict_rows


# Shared, not copied, as the tables above: no page edits these figures (app_pages/_widgets.shared_figure).
@st.cache_resource(max_entries=64, show_spinner=False)
def figure_spec(slot: str, key: tuple, _build: Callable[[], go.Figure]) -> dict:
    """The plain dict of the figure `_build` makes for `key` in `slot` (the chart's place on its page): made once
    per server for every session, since building a figure costs more than the rest of its page's visit."""
    return _build().to_dict()


@st.cache_data(max_entries=64, show_spinner=False)
def profile_yaml(profile_json: str, _saved: profile.Profile) -> str:
    """`_saved` as the decision profile's file (:func:`selector.profile.dump`), made once per profile: its JSON is
    the key (the underscore keeps the profile itself out of Streamlit's hashing). The Export and My data pages offer
    the file on every visit, and the YAML emitter costs more than the rest of such a visit."""
    return profile.dump(_saved)


@st.cache_resource(max_entries=16, show_spinner=False)  # shared read-only, as accelerator_tables
def claim_labels(_kb: KnowledgeBase, data_hash: str, today: dt.date, lang: i18n.Language) -> dict[str, str]:
    """The Evidence page's claim picker's label of every claim (id: its text in `lang`, cut at 90 characters), made
    once per knowledge, date and language rather than on every visit (over a thousand of them)."""
    table = evidence_tables(_kb, data_hash, today)[0]
    return {
        c: f"{c}: {i18n.pick(lang, english, chinese)[:90]}"
        for c, english, chinese in zip(table["id"], table["text_en"], table["quote_zh"], strict=True)
    }


@st.cache_resource(max_entries=16, show_spinner=False)  # shared read-only, as accelerator_tables
def framework_tables(
    _kb: KnowledgeBase, data_hash: str, lang: i18n.Language
) -> tuple[FeatureMatrix, list[ComparableSet], list[ComparableSet]]:
    """The Frameworks page's ratings matrix (names in `lang`) and its benchmark numbers split into the sets measured
    under the same conditions and the rest, once per knowledge and language rather than on every visit."""
    return (feature_matrix(_kb, "framework", lang=lang), *comparable_sets(_kb))


# The report's robustness section: the same sampling as `python -m selector report` (seeded: same inputs, same report).
REPORT_SAMPLES = figure.SAMPLES
REPORT_SEED = 0


@dataclass(frozen=True)
class ReportKey:
    """What the Export page's report and files are made from, and what they are cached by.

    The knowledge `kb` (its ``data_hash`` is taken from it), the preferences as JSON, the app's address, the session's
    files as (name, bytes) (`uploads`, which only feed the decision record's digest), the front matter (`meta_json`: a
    :class:`selector.adr.DecisionMeta` as JSON; empty for the defaults) and the language. The knowledge and the
    files are compared and hashed through ``data_hash`` alone, which differs whenever they do.
    """

    kb: KnowledgeBase = field(compare=False, repr=False)
    prefs_json: str
    app_url: str
    uploads: tuple = field(default=(), compare=False, repr=False)
    meta_json: str = ""
    lang: str = "en"
    data_hash: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "data_hash", self.kb.data_hash)

    def cache_key(self) -> tuple[str, ...]:
        """What Streamlit hashes for this key (the knowledge and the files stay out, as underscored arguments do)."""
        return (self.data_hash, self.prefs_json, self.app_url, self.meta_json, self.lang)


# Streamlit would hash a dataclass field by field through a deep copy of each, the whole knowledge included.
_REPORT_KEY_HASH = {ReportKey: ReportKey.cache_key}


@st.cache_resource(max_entries=32, show_spinner=False, hash_funcs=_REPORT_KEY_HASH)
def report_for(key: ReportKey) -> Report:
    """:func:`selector.report.build.build_report` once per `key`, frozen."""
    from selector.adr import DecisionMeta
    from selector.report import build  # the report's modules load with the Export page, not with every page

    return build.build_report(
        key.kb,
        Preferences.model_validate_json(key.prefs_json),
        samples=REPORT_SAMPLES,
        seed=REPORT_SEED,
        app_url=key.app_url,
        uploads=key.uploads,
        meta=DecisionMeta.model_validate_json(key.meta_json) if key.meta_json else None,
        lang=key.lang,
    )


@st.cache_resource(max_entries=32, show_spinner=False)
def decision_record(_kb: KnowledgeBase, data_hash: str, prefs_json: str, _uploads: tuple = ()) -> str:
    """The decision record a saved profile carries (selector.record), robustness sampled as the report's."""
    import datetime as _dt

    from selector import __version__, record

    rec = recommend.recommend(_kb, Preferences.model_validate_json(prefs_json))
    sealed = record.build(
        _kb,
        rec,
        leader_first=record.leader_first(rec, REPORT_SAMPLES, REPORT_SEED),
        samples=REPORT_SAMPLES,
        seed=REPORT_SEED,
        generated_at=_dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        app_version=__version__,
        uploads=_uploads,
    )
    return record.to_text(sealed)


def claims_csv(table: pd.DataFrame, data_hash: str, today: dt.date, ids: Sequence[str]) -> bytes:
    """The Evidence page's download: `table`, the claims `ids` (the filters' result, in order) of
    :func:`evidence_tables`' first table, as CSV with formula-like cells neutralised; made once per knowledge, date
    and selection."""
    # Keyed by a digest of the ids: Streamlit hashes each of hundreds of ids on every run of the page otherwise.
    selection = hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()
    return _claims_csv(table, data_hash, today, selection)


@st.cache_resource(max_entries=16, show_spinner=False)
def _claims_csv(_table: pd.DataFrame, data_hash: str, today: dt.date, selection: str) -> bytes:
    return escape.safe_frame(_table).to_csv(index=False).encode("utf-8")


@st.cache_resource(max_entries=32, show_spinner=False, hash_funcs=_REPORT_KEY_HASH)
def export_files(key: ReportKey) -> dict[str, bytes]:
    """The Export page's downloads of :func:`report_for`'s report for `key`: Markdown and HTML, and the ranking as
    CSV and XLSX (keys ``md``, ``html``, ``csv``, ``xlsx``), made once per `key`."""
    from selector.report import render, spreadsheet

    built = report_for(key)
    rec = recommend.recommend(key.kb, Preferences.model_validate_json(key.prefs_json))
    return {
        "md": render.render_markdown(built).encode("utf-8"),
        "html": render.render_html(built).encode("utf-8"),
        "csv": spreadsheet.ranking_csv(rec, kb=key.kb),
        "xlsx": spreadsheet.ranking_xlsx(rec, kb=key.kb),
    }
