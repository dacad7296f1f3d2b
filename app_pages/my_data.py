"""My data: upload your own measurements (CSV or YAML), see every problem, compare with the articles, save profiles."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages import _lang
from app_pages._cached import bundled_kb, merged_kb, uses_uploads
from app_pages._lang import _
from app_pages._session import (
    EVIDENCE_FILTERS,
    EXPORT_FIELD_KEYS,
    SCALAR_FILTERS,
    check_prefs,
    current_prefs,
    link_note,
    profile_download,
    session_kb,
    session_upload_files,
    set_filters,
    set_meta,
    set_prefs,
    uploads_digest,
)
from app_pages._widgets import markdown_table
from selector import measure, profile, recheck
from selector.adr import DecisionMeta
from selector.decision.preferences import PreferenceError
from selector.errors import SelectorError
from selector.escape import streamlit_md as md
from selector.i18n import N_, Phrase, stored
from selector.knowledge.loading import DEFAULT_KNOWLEDGE
from selector.measure import compare
from selector.record import RecordError
from selector.uploads import comparison, csv_claims, intake

ss = st.session_state
ss.setdefault("uploads", [])
ss.setdefault("upload_originals", {})  # file name -> the file as uploaded (what a saved profile embeds)

kb = session_kb()


def issues_frame(issues) -> pd.DataFrame:  # noqa: ANN001 - iterable of selector.issues.Issue
    """Issues as a table of plain text (shown by :func:`issues_table`, which escapes every cell)."""
    rows = [
        {"level": i.level, "file": i.file, "line": i.line, "record": i.record or "", "message": i.message}
        for i in issues
    ]
    heads = [N_("level"), N_("file"), N_("line"), N_("record"), N_("message")]  # said on the page (issues_table)
    return pd.DataFrame(rows, columns=heads).astype({"line": "Int64"})


def _issue_columns() -> dict[str, str]:
    # the columns in the reader's language; levels and messages are the validator's own (selector)
    return {"level": _("level"), "file": _("file"), "line": _("line"), "record": _("record"), "message": _("message")}


def grid_headers() -> dict[str, str]:
    """The column names of the comparison grids (selector.uploads.comparison, selector.measure.compare) as the reader
    reads them; the cells stay the records' own values."""
    return {
        "entity": _("entity"),
        "subject": _("entity"),
        "metric": _("metric"),
        "origin": _("origin"),
        "tier": _("tier"),
        "claim": _("claim"),
        "value": _("value"),
        "unit": _("unit"),
        "conditions": _("conditions"),
        "ranking": _("ranking"),
        "flagged": _("flagged"),
        "user_claim": _("your claim"),
        "other_claim": _("bundled claim"),
        "other_tier": _("bundled tier"),
        "user_value": _("your value"),
        "other_value": _("bundled value"),
        "user_unit": _("your unit"),
        "other_unit": _("bundled unit"),
        "relative_difference": _("relative difference"),
        "comparable": _("comparable"),
        "overrides": _("overrides"),
        "other_flagged": _("bundled claim flagged"),
        "differing_conditions": _("differing conditions"),
        "comparison": _("comparison"),
        "ratio": _("ratio"),
        "published": _("published"),
        "published_by": _("published by"),
        "yours": _("yours"),
        "conditions (published | yours)": _("conditions (published | yours)"),
        "warnings": _("warnings"),
        "in ranking": _("in ranking"),
        "published claim": _("published claim"),
        "your claim": _("your claim"),
    }


def issues_table(issues) -> None:  # noqa: ANN001 - iterable of selector.issues.Issue
    """Every issue, its message wrapping (a grid cut a message at its column's edge); a long list scrolls.

    A static table, not a grid, as the Evidence page's conflicts; the comparisons of an upload with the articles
    stay grids: a dozen columns wide, they need a grid's sideways scrolling.
    """
    frame = issues_frame(issues).rename(columns=_issue_columns())
    markdown_table(frame, height=None if len(frame) <= 12 else 480)


def accept(name: str, data: bytes, measured: measure.Options | None = None) -> None:
    """Check an uploaded file against the knowledge and the other uploads; keep it only if it has no error."""
    converted = f"{name}.measured.yaml"  # a benchmark output is kept as its measured claims
    others = [u for u in ss["uploads"] if u.name not in (name, converted)]  # the same name replaces the earlier file
    try:
        result = intake.validate_upload(name, data, DEFAULT_KNOWLEDGE, others=others, measured=measured)
    except Exception as exc:
        ss["my-data-last-result"] = (
            name,
            False,
            [],
            _("the file could not be checked ({error})").format(error=exc.__class__.__name__),
        )
        return
    ss["my-data-last-result"] = (name, result.ok, list(result.issues), "")
    if result.ok:
        ss["uploads"] = [*others, result.upload]
        ss["upload_originals"][result.upload.name] = result.original


def remove(name: str) -> None:
    """Drop an upload (the remove buttons' callback)."""
    ss["uploads"] = [u for u in ss["uploads"] if u.name != name]
    ss["upload_originals"].pop(name, None)
    ss.pop("my-data-last-result", None)


def apply_profile(name: str, data: bytes) -> None:
    """Load a saved profile: its uploads replace the session's, its preferences and filters take effect."""
    try:
        loaded = profile.load(data, DEFAULT_KNOWLEDGE, check_uploads=False, name=name)
        results = profile.check(loaded, DEFAULT_KNOWLEDGE, name)
    except profile.ProfileError as exc:
        ss["my-data-profile-result"] = (False, list(exc.issues), "")
        return
    merged = results[-1].kb if results else bundled_kb()
    try:
        prefs = check_prefs(merged, loaded.to_preferences())
    except PreferenceError as exc:
        ss["my-data-profile-result"] = (
            False,
            [],
            # a phrase, said when shown (the profile may switch the language)
            Phrase(N_("the preferences in {file} do not fit the knowledge: {error}"), file=name, error=exc.message),
        )
        return
    ss["uploads"] = [r.upload for r in results]
    ss["upload_originals"] = {r.original.name: r.original for r in results}
    for name, key in EVIDENCE_FILTERS.items():
        values = list(loaded.filters.get(name, ()))
        if name in SCALAR_FILTERS:
            ss[key] = values[0] if values else ("all" if name == "flagged" else "")
        else:
            ss[key] = values
    set_filters(dict(loaded.filters))
    set_prefs(prefs)
    if loaded.language is not None:
        _lang.choose(loaded.language)
    set_meta(loaded.decision or DecisionMeta())
    for key in EXPORT_FIELD_KEYS:  # the Export page's fields show the profile's front matter
        ss.pop(key, None)
    ss["my-data-profile-result"] = (
        True,
        [],
        _("profile loaded: group {group}, {count} file(s)").format(group=prefs.group, count=len(results)),
    )


# ----------------------------------------------------------------------------------------------------------
st.title(_("My data"))
st.caption(
    _(
        "Add your own measurements or ratings (a new chip, or a figure you measured in place of an article's). "
        "Every file is checked like the bundled knowledge; nothing with an error is used, and the bundled files are "
        "never changed. Your values are tier **measured** (or **assessed**) and outrank the articles' **claimed** "
        "figures."
    )
)
st.info(
    _(
        "Your files live in this browser session only: they are not stored on the server, and a closed tab, a server "
        "restart or a new replica loses them. To keep them, download the decision profile (below, or on Export) and "
        "load it again later; small files also travel in the page's link."
    ),
    icon=":material/info:",
)

upload_col, template_col = st.columns([3, 1])
with upload_col:
    file = st.file_uploader(
        _("Add a YAML or CSV file, or a benchmark output"),
        type=["yaml", "yml", "csv", "txt", "log", "json"],
        key="my-data-upload",
        help=_(
            "Benchmark outputs: an MLPerf LoadGen mlperf_log_summary.txt, a trtexec or onnxruntime_perf_test log, "
            "llama-bench -o json output, or the file `python -m selector measure run` writes (docs/MEASURE.md)."
        ),
    )
with template_col:
    st.download_button(
        _("CSV template"),
        data=csv_claims.csv_template(),
        file_name="my_data_template.csv",
        mime="text/csv",
        key="my-data-template",
        help=_("The columns with three example rows; see docs/USER_DATA.md for every column."),
    )
hardware = sorted((e for e in kb.entities.values() if e.kind == "accelerator"), key=lambda e: e.name)
entity_col, model_col, count_col = st.columns([2, 2, 1])
entity = entity_col.selectbox(
    _("Benchmark outputs: hardware the run was on"),
    [None, *(e.id for e in hardware)],
    format_func={None: _("(detect from the file)"), **{e.id: f"{e.name} ({e.id})" for e in hardware}}.__getitem__,
    key="my-data-measure-entity",
    help=_("A LoadGen summary does not say; trtexec and llama-bench name their device, which is matched to an entity."),
)
model = model_col.text_input(
    _("Model, if the file does not name it"), key="my-data-measure-model", placeholder=_("e.g. llama2-70b-99")
)
accelerators = count_col.number_input(
    _("Accelerators in the system"),
    min_value=0,
    max_value=4096,
    value=0,
    key="my-data-measure-accelerators",
    help=_("LoadGen results are per system; with a count, per-device figures are added (derived: system / count)."),
)
options = measure.Options(entity=entity, workload=model.strip() or None, accelerators=int(accelerators) or None)
if file is not None and ss.get("my-data-last-file") != (file.file_id, options):
    ss["my-data-last-file"] = (file.file_id, options)  # a new choice of hardware re-reads the same file
    accept(file.name, file.getvalue(), options)
    # once more from the top: the sidebar's claim count (drawn before this page) follows the file just added
    st.rerun()

if "my-data-last-result" in ss:
    name, ok, issues, failure = ss["my-data-last-result"]
    if failure:
        st.error(f"{md(name)}: {md(failure)}")
    elif ok:
        st.success(_("{file} is valid and now part of this session's knowledge.").format(file=md(name)))
    else:
        st.error(_("{file} was not added: fix the problems below and upload it again.").format(file=md(name)))
    if issues:
        issues_table(issues)
if ss.get("upload_issues") and any(i.level == "ERROR" for i in ss["upload_issues"]):
    st.warning(_("Your files do not merge together; the bundled knowledge is shown. The problems:"))
    issues_table(ss["upload_issues"])

# ----------------------------------------------------------------------------------------------------------
st.subheader(_("Your files"))
if not ss["uploads"]:
    st.info(_("No files yet. Download the CSV template, fill in your rows and upload it."))
for index, item in enumerate(ss["uploads"]):
    name_col, size_col, button_col = st.columns([4, 1, 1])
    name_col.text(item.name)
    size_col.text(_("{size} bytes").format(size=f"{len(ss['upload_originals'].get(item.name, item).data):,}"))
    button_col.button(_("Remove"), key=f"my-data-remove-{index}", on_click=remove, args=(item.name,))
if link_note():
    st.info(link_note(), icon=":material/link_off:")
elif ss["uploads"]:
    st.caption(_("The address of this page carries your files: copy it to share your settings and data together."))

source_ids = comparison.user_source_ids(kb) if uses_uploads(kb) else ()
if source_ids:
    st.subheader(_("Your values beside the bundled ones"))
    st.caption(
        _(
            "Tier: measured = yours, claimed = quoted from an article, assessed = a rating with its rationale. "
            "A value you mark as `overrides` replaces that claim in every ranking. The ranking column says which "
            "ranking (group and criterion) reads each value; a value no ranking reads is stored, not ranked."
        )
    )
    feeding = comparison.ranked_metrics(kb)
    metrics = "; ".join(f"{m} ({', '.join(g)})" for m, g in feeding.items())
    st.caption(md(_("Metrics that feed a ranking: {metrics}").format(metrics=metrics)))
    rows = comparison.comparison_rows(kb, source_ids)
    st.dataframe(
        pd.DataFrame(rows).rename(columns=grid_headers()), hide_index=True, width="stretch", key="my-data-items"
    )
    new_entities = comparison.user_entities(kb, [u.name for u in ss["uploads"]])
    if new_entities:
        st.caption(_("New entities from your files: ") + md(", ".join(f"{e.name} ({e.id})" for e in new_entities)))
    found = comparison.user_vs_article_conflicts(kb, source_ids)
    st.subheader(_("Where your values differ from the articles"))
    if found:
        frame = pd.DataFrame([c.to_dict() for c in found])
        frame["relative_difference"] = frame["relative_difference"].map(
            lambda v: "" if v is None or pd.isna(v) else f"{v:+.0%}"
        )
        st.dataframe(frame.rename(columns=grid_headers()), hide_index=True, width="stretch", key="my-data-conflicts")
    else:
        st.caption(_("None of your values has a bundled counterpart (same entity and metric)."))
    side_by_side = compare.comparisons(kb, source_ids)
    if side_by_side:
        st.subheader(_("Your measurements beside the published figures"))
        st.caption(
            _(
                "Each measured figure of yours beside the published ones for the same entity and metric, with the "
                "ratio yours / published. A warning names each condition (model, precision, batch, hardware, "
                "scenario) that differs or that the publisher does not state: the ratio may then compare unlike runs."
            )
        )
        for item in side_by_side[:40]:
            where = (
                _(" (fills {criteria} in the ranking)").format(criteria=", ".join(item.criteria))
                if item.criteria
                else ""
            )
            line = f"{item.metric}: {item.sentence_in(_lang.current())}{where}"
            st.markdown(f"- **{md(item.entity_name)}**, {md(line)}")
            for warning in item.warnings_in(_lang.current()):
                st.markdown(f"    - :warning: {md(warning)}")
        if len(side_by_side) > 40:
            st.caption(_("{count} more in the table below.").format(count=len(side_by_side) - 40))
        st.dataframe(
            pd.DataFrame([c.to_dict(lang=_lang.current()) for c in side_by_side]).rename(columns=grid_headers()),
            hide_index=True,
            width="stretch",
            key="my-data-vs",
        )

# ----------------------------------------------------------------------------------------------------------
st.subheader(_("Decision profile"))
st.caption(
    _(
        "A profile keeps your group, answers, weights, method, missing-value policy, Evidence filters and the text "
        "of your files in one YAML file. Load it here (or run `python -m selector rank --profile FILE`) to get the "
        "same ranking back."
    )
)
save_col, load_col = st.columns(2)
with save_col:
    prefs = current_prefs(kb)
    profile_download(prefs, label=_("Save profile"), file_name="decision_profile.yaml", key="my-data-save-profile")
with load_col:
    saved = st.file_uploader(_("Load a profile"), type=["yaml", "yml"], key="my-data-profile")
    if saved is not None and ss.get("my-data-last-profile") != saved.file_id:
        ss["my-data-last-profile"] = saved.file_id
        apply_profile(saved.name, saved.getvalue())
        st.rerun()
    if "my-data-profile-result" in ss:
        ok, issues, message = ss["my-data-profile-result"]
        if ok:
            st.success(md(message))
        else:
            st.error(
                _("The profile was not loaded: {reason}").format(reason=md(stored(message, _lang.current())))
                if message
                else _("The profile was not loaded; the problems:")
            )
            if issues:
                issues_table(issues)


# ----------------------------------------------------------------------------------------------------------
def recheck_upload(name: str, data: bytes):  # noqa: ANN201 - (selector.recheck.Recorded, selector.recheck.Recheck)
    """Re-check a report with this session's knowledge and files, a profile with the bundled knowledge and its own."""
    found = recheck.read_file(data, name, DEFAULT_KNOWLEDGE)
    if found.kind == "profile":
        now_kb = merged_kb(uploads_digest(found.uploads), found.uploads)[0] if found.uploads else bundled_kb()
        files = found.upload_files
    else:
        now_kb, files = kb, session_upload_files()
    if now_kb is None:
        raise RecordError(_("{file}: its embedded files do not merge with today's knowledge").format(file=name))
    return found, recheck.recheck(found.record, now_kb, name=name, uploads=files)


st.subheader(_("Re-check a decision"))
st.caption(
    _(
        "Give a report (Markdown, HTML or PDF) or a profile saved earlier: its settings are ranked again on today's "
        "knowledge and compared with what decided it then (the same as `python -m selector recheck FILE`). A report "
        "is re-checked with the files you uploaded above, a profile with its own."
    )
)
filed = st.file_uploader(
    _("A report or a profile to re-check"),
    type=["md", "markdown", "html", "htm", "pdf", "yaml", "yml"],
    key="my-data-recheck",
)
if filed is not None:
    # kept per file and knowledge: the page reruns on every widget change, the re-ranking need not
    done_key = (filed.file_id, kb.data_hash)
    if ss.get("my-data-recheck-done", (None,))[0] != done_key:
        try:
            with st.spinner(_("Ranking the decision again on today's knowledge...")):
                ss["my-data-recheck-done"] = (done_key, *recheck_upload(filed.name, filed.getvalue()), None)
        except SelectorError as exc:
            ss["my-data-recheck-done"] = (done_key, None, None, str(exc))
    __, found, result, problem = ss["my-data-recheck-done"]
    if problem is not None:
        st.error(_("This file cannot be re-checked: {error}").format(error=md(problem)))
    else:
        (st.success if result.holds else st.warning)(md(result.headline))
        st.markdown(md(result.robustness_sentence))
        st.caption(
            md(
                _("Knowledge data {then} then (recorded {recorded}), {now} now.").format(
                    then=result.data_hash_then, recorded=result.generated_at, now=result.data_hash_now
                )
            )
        )
        if result.cells:
            st.markdown(_("**Cells whose value, tier or evidence changed**"))
            markdown_table(pd.DataFrame(result.cell_rows()))
        for label, items in (
            (_("Option added"), result.added),
            (_("Option removed"), result.removed),
            (_("Rule"), [r.sentence for r in result.rules]),
            (_("Dataset"), result.datasets),
            (_("Note"), result.notes),
        ):
            for item in items:
                st.markdown(f"- {label}: {md(item)}")
        if not result.evidence_changed:
            st.markdown(_("No ranked cell, option or decision rule changed."))
        st.markdown(_("[Open today's ranking for these settings]({link})").format(link=f"./?{result.query}"))
        if st.button(_("Use these settings in this session"), key="my-data-recheck-apply"):
            if found.kind == "profile":
                apply_profile(filed.name, filed.getvalue())  # its files too, as "Load a profile" does
            else:
                set_prefs(found.record.preferences)
            st.rerun()
