"""Export: the decision record (Markdown, HTML, PDF) with its front matter, the ranking (CSV, XLSX), the profile."""

from __future__ import annotations

import datetime as dt
import os
from urllib.parse import urlsplit

import streamlit as st

from app_pages import _lang
from app_pages._cached import ReportKey, export_files, report_for
from app_pages._lang import _
from app_pages._session import (
    current_meta,
    current_prefs,
    link_note,
    profile_download,
    session_kb,
    session_upload_files,
    set_meta,
)
from selector import adr, i18n
from selector.decision import recommend
from selector.decision.problem import METHODS, VALUE_SCALER
from selector.errors import SelectorError
from selector.escape import streamlit_md as md
from selector.report import build, pdf
from selector.report.model import ReportError

ss = st.session_state
kb = session_kb()
prefs = current_prefs(kb)
if link_note():
    st.info(link_note())  # already in the reader's language (app_pages._session)


def app_url() -> str:
    """The reproduce link's base address: the Streamlit secret ``app_url`` or $AI_STACK_SELECTOR_URL when set (a
    deployment's own address), else the address the browser shows unless it is this machine's (a link to
    127.0.0.1 would send a colleague to their own computer); empty: the report prints a relative link."""
    try:
        configured = st.secrets.get("app_url")
    except (FileNotFoundError, KeyError, OSError):
        configured = None
    try:
        set_url = adr.base_url(configured, os.environ)
    except adr.MetaError as exc:
        st.warning(_("The app's address setting is not used: {error}").format(error=md(exc)))
        set_url = ""
    if set_url:
        return set_url
    url = getattr(st.context, "url", None)
    parts = urlsplit(url) if url else None
    if parts and parts.scheme in ("http", "https") and parts.hostname not in LOOPBACK and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return build.DEFAULT_APP_URL


LOOPBACK = {"127.0.0.1", "localhost", "::1", "0.0.0.0", None}


def status_words() -> dict[str, str]:
    """MADR's status words as the reader reads them (the record keeps its own word)."""
    return {
        "proposed": _("proposed"),
        "accepted": _("accepted"),
        "rejected": _("rejected"),
        "deprecated": _("deprecated"),
        "superseded": _("superseded"),
    }


def front_matter_fields(meta: adr.DecisionMeta) -> None:
    """The decision's title, status, people and review date; a field that cannot be used says why beside it and
    leaves the previous value in force."""
    with st.container(border=True):
        st.markdown(
            _("**The decision record's front matter** (kept in the decision profile, and in the link while short)")
        )
        cols = st.columns([3, 1])
        title = cols[0].text_input(
            _("Title"), value=meta.title, key="export-title", placeholder=_("default: the group and the verdict")
        )
        statuses = status_words()
        status = cols[1].selectbox(
            _("Status"),
            adr.STATUSES,
            index=adr.STATUSES.index(meta.status),
            format_func=lambda s: statuses.get(s, s),
            key="export-status",
        )
        cols = st.columns(3)
        names = {}
        for col, field, field_label, help_text in (
            (cols[0], "deciders", _("Deciders"), _("who decides")),
            (cols[1], "consulted", _("Consulted"), _("whose opinion was sought")),
            (cols[2], "informed", _("Informed"), _("who is kept up to date")),
        ):
            names[field] = col.text_input(
                field_label,
                value=", ".join(getattr(meta, field)),
                key=f"export-{field}",
                placeholder=_("names, separated by commas"),
                help=help_text,
            )
        today = dt.datetime.now(dt.UTC).date()
        review = st.date_input(
            _("Review by"),
            value=meta.review_date(today),
            min_value=today,
            key="export-review-by",
            help=_("when to look at this decision again (default: {months} months on)").format(
                months=adr.DEFAULT_REVIEW_MONTHS
            ),
        )
        try:
            wanted = adr.make(
                title=title,
                status=status,
                review_by=None if review == adr.add_months(today, adr.DEFAULT_REVIEW_MONTHS) else review,
                **{k: adr.people(v) for k, v in names.items()},
            )
        except adr.MetaError as exc:
            st.error(_("{error}. The report keeps the previous values until these are fixed.").format(error=md(exc)))
            return
        if wanted != meta:
            set_meta(wanted)
            st.rerun()


st.title(_("Export"))
st.caption(
    _(
        "Download the recommendation for the current settings: the decision record with every number cited, the "
        "ranking as a spreadsheet, and the settings themselves. Change the settings on the Recommend page."
    )
)

meta = current_meta()
front_matter_fields(meta)
prefs_json = prefs.model_dump_json()
meta_json = "" if meta.is_default else meta.model_dump_json()
base = app_url()
# The report's language: the interface's, unless one was chosen beside the downloads (kept for the session, so a
# switch of the interface language does not silently change a report language the user picked).
REPORT_LANG, CHOSEN = "export-lang", "export-lang-chosen"
report_lang = ss.get(CHOSEN) or _lang.current()


def _report_lang_chosen() -> None:
    if ss.get(REPORT_LANG) in i18n.LANGUAGES:  # the control can be clicked off: the language then stays
        ss[CHOSEN] = ss[REPORT_LANG]


try:
    with st.spinner(_("Building the report...")):
        built = report_for(ReportKey(kb, prefs_json, base, session_upload_files(), meta_json, _lang.current()))
        files_key = ReportKey(kb, prefs_json, base, session_upload_files(), meta_json, report_lang)
        files = export_files(files_key)
    rec = recommend.recommend(kb, prefs)
except SelectorError as exc:
    st.error(_("These settings cannot be reported: {error}. Change them on the Recommend page.").format(error=md(exc)))
    st.stop()

rb = built.robustness
first = "-" if rb.leader_acceptability is None else f"{rb.leader_acceptability:.0%}"
st.subheader(md(built.verdict))
if built.verdict_details:
    st.caption(md("  \n".join(built.verdict_details)))
# Each figure at its own width, the row wrapping when they do not fit: in four equal columns a laptop cut the
# method and the labels short.
with st.container(horizontal=True, gap="large"):
    st.metric(_("Recommended"), built.recommended, help=md(f"{built.leader}: {built.verdict_badge}"), width="content")
    # the value model has one scaler, its fixed value scales: the method's name says it all
    method = METHODS[rec.result.method]
    shown = (
        _(method.label)
        if rec.result.scaler == VALUE_SCALER
        else _("{method}, {scaler} scaling").format(method=_(method.label), scaler=rec.result.scaler)
    )
    # the method's short name as the figure: its full name (28 characters at the metric's size) was cut on a phone
    st.metric(_("Method"), rec.result.method.upper(), help=shown, width="content")
    st.metric(
        _("Score leader first in"),
        first,
        help=_("share of {samples} sampled weightings (SMAA) that rank {leader} first").format(
            samples=f"{rb.samples:,}", leader=built.leader
        ),
        width="content",
    )
    st.metric(_("Claims cited"), len(built.evidence), width="content")
st.caption(
    md(
        _("Status {status} · review by {review} · group {group} · data {data}").format(
            status=status_words().get(built.status, built.status),
            review=built.review_by,
            group=_lang.pick(built.group_name, built.group_name_zh),
            data=built.data_hash,
        )
    )
    + _(" · [link that reproduces this ranking]({link})").format(link=built.reproduce_url)
)

st.markdown(_("**What goes into the report:** the requirement, the weights and the limits in force"))
st.markdown("\n".join(f"- {md(line)}" for line in (*built.requirement, *built.dimension_basis)))
st.caption(_("Change them on the Recommend page; the report, the spreadsheets and the profile follow."))

# dated, so that successive records of one decision sort by date and never overwrite each other
stem = f"ai-stack-{built.group_id}-{built.decided_on}"

# ----------------------------------------------------------------------------------------------------------
st.subheader(_("Recommendation report"))
st.caption(
    _(
        "An architecture decision record (MADR 4): status, deciders, dates, context and requirement, drivers, "
        "options, outcome, consequences, risks and how to re-check, in one or two pages; then the appendix "
        "(scenario, weights, whole ranking with robustness, pros and cons, every claim quoted in Chinese and "
        "English). Each format also carries what decided the ranking (claims, values, settings, data versions): "
        're-check it later against new evidence on My data ("Re-check a decision") or with '
        "`python -m selector recheck FILE`."
    )
)
ss[REPORT_LANG] = report_lang
st.segmented_control(
    "Report language",
    options=list(i18n.LANGUAGES),
    format_func=i18n.LANGUAGE_NAMES.__getitem__,
    key=REPORT_LANG,
    on_change=_report_lang_chosen,
)
md_col = html_col = pdf_col = st.container(horizontal=True)  # buttons at their label's width
with md_col:
    st.download_button(
        _("Markdown (decision record)"),
        data=files["md"],
        file_name=f"{stem}.md",
        mime="text/markdown",
        icon=":material/description:",
        on_click="ignore",
        key="export-md",
    )
with html_col:
    st.download_button(
        _("HTML (self-contained, works offline)"),
        data=files["html"],
        file_name=f"{stem}.html",
        mime="text/html",
        icon=":material/public:",
        on_click="ignore",
        key="export-html",
    )
with pdf_col:
    # Typesetting the PDF takes a second or two: built only when asked, then offered.
    pdf_key = (kb.data_hash, prefs_json, meta_json, base, report_lang)
    ready = ss.get("export-pdf-bytes")
    if ready is None or ready[0] != pdf_key:
        if st.button(_("Prepare PDF"), icon=":material/picture_as_pdf:", key="export-pdf-build"):
            try:
                with st.spinner(_("Typesetting the PDF...")):
                    document = report_for(files_key)
                    ss["export-pdf-bytes"] = (pdf_key, pdf.render_pdf(document))
            except ReportError as exc:
                st.error(md(exc))
            else:
                st.rerun()
    else:
        st.download_button(
            _("PDF (A4, print)"),
            data=ready[1],
            file_name=f"{stem}.pdf",
            mime="application/pdf",
            icon=":material/picture_as_pdf:",
            on_click="ignore",
            key="export-pdf",
        )

# ----------------------------------------------------------------------------------------------------------
st.subheader(_("Ranking"))
st.caption(
    _(
        "One row per option: rank, score, shortlisted, each criterion's value and contribution; how the ranking was "
        "made is in the CSV's # lines and the workbook's About sheet, with the footnote of every benchmarked or "
        "datasheet number and the licence of every dataset. Text cells that a spreadsheet would run as a formula are "
        "prefixed with '."
    )
)
csv_col = xlsx_col = st.container(horizontal=True)
with csv_col:
    st.download_button(
        "CSV",
        data=files["csv"],
        file_name=f"{stem}-ranking.csv",
        mime="text/csv",
        icon=":material/table:",
        on_click="ignore",
        key="export-csv",
    )
with xlsx_col:
    st.download_button(
        _("Excel (XLSX)"),
        data=files["xlsx"],
        file_name=f"{stem}-ranking.xlsx",
        mime="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        icon=":material/grid_on:",
        on_click="ignore",
        key="export-xlsx",
    )

# ----------------------------------------------------------------------------------------------------------
st.subheader(_("Decision profile"))
st.caption(
    _(
        "Your group, answers, weights, method, missing-value policy and uploaded files in one YAML file; load it on "
        "the My data page or with `python -m selector report --profile FILE`. It also keeps the Evidence page's "
        "filters."
    )
)
profile_download(prefs, label=_("Decision profile (YAML)"), file_name=f"{stem}-profile.yaml", key="export-profile")
