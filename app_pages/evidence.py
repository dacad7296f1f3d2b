"""Evidence: every claim, searchable and filterable, with its quote, flags, full record and detected conflicts."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages import _lang
from app_pages._cached import claim_labels, claims_csv, evidence_tables
from app_pages._lang import _
from app_pages._session import (
    EVIDENCE_FILTERS,
    SCALAR_FILTERS,
    current_filters,
    filters_in_force,
    session_kb,
    set_filters,
)
from app_pages._widgets import markdown_table, reference_date, show_claim, sync_widget
from selector.escape import streamlit_md as md
from selector.knowledge import provenance
from selector.knowledge.locators import RAW_DIR
from selector.views.evidence import claims_preview, filter_claims
from selector.views.labels import conditions_text, document_label, value_text

kb = session_kb()


lang = _lang.current()
st.title(_("Evidence"))
st.caption(
    _(
        "Every claim of the knowledge base with the article's Chinese sentence and its English rendering, and every "
        "number taken from a public dataset with its footnote and snapshot date. Pick a claim below the table, or "
        "select a row of the grid, to see the full record."
    )
)
today = reference_date()
datasets = {d.id: d for d in provenance.datasets(kb)}
# Four lines of text per claim row: the longest English rendering (under 300 characters) wraps within them at the
# English column's width, and rows taller than 64 px are the ones the grid wraps.
CLAIM_ROW_HEIGHT = 92
# The reader's language first: the article's Chinese sentence in Chinese, the English rendering in English.
CLAIM_FIRST = ("id", "quote_zh", "flags", "text_en") if lang == "zh" else ("id", "text_en", "flags", "quote_zh")
PREVIEW_ROWS = 10

# ----------------------------------------------------------------------------------------------------------
# The filters live in the URL (`ev`): the widgets show the filters in force and every change writes them back.
FLAG_OPTIONS = ["all", "flagged", "unflagged"]
options = {
    "flagged": FLAG_OPTIONS,
    "documents": [s for s in kb.sources if s not in datasets],
    "entities": sorted({e for c in kb.claims.values() for e in c.about}, key=kb.entity_name),
    "kinds": sorted({c.kind for c in kb.claims.values()}),
    # Every tier, strongest first, present or not: a link asking for `measured` stays valid without uploads.
    "tiers": list(provenance.tier_order()),
    "datasets": list(datasets),
}
in_force = filters_in_force()


def _usable(name: str, values: list[str]) -> list[str]:
    # What a widget can show: a known value (the search text is free), one value for the single-choice filters.
    kept = [v for v in values if name == "text" or v in options.get(name, ())]
    return kept[:1] if name in SCALAR_FILTERS else kept


shown_filters = {name: _usable(name, values) for name, values in in_force.items() if name in EVIDENCE_FILTERS}
unknown = {name: sorted(set(values) - set(shown_filters.get(name, ()))) for name, values in in_force.items()}
unknown = {name: values for name, values in unknown.items() if values}
if unknown:
    ignored = md("; ".join(f"{name}: {', '.join(values)}" for name, values in unknown.items()))
    st.warning(
        _("These filters of the link are not in this knowledge and are ignored: {filters}").format(filters=ignored)
    )
    set_filters(shown_filters)
sync_widget("ev-text", (shown_filters.get("text") or [""])[0])
sync_widget("ev-flagged", (shown_filters.get("flagged") or ["all"])[0])
for name in ("documents", "entities", "kinds", "tiers", "datasets"):
    sync_widget(EVIDENCE_FILTERS[name], shown_filters.get(name, []))


def _on_filter_change() -> None:
    set_filters(current_filters())


search_col, flagged_col = st.columns([3, 1])
with search_col:
    text = st.text_input(
        _("Search (Chinese or English)"),
        key="ev-text",
        placeholder=_("e.g. 吞吐 or TensorRT"),
        on_change=_on_filter_change,
    )
with flagged_col:
    flagged = st.selectbox(
        _("Flags"),
        options=FLAG_OPTIONS,
        key="ev-flagged",
        format_func={"all": _("all claims"), "flagged": _("flagged only"), "unflagged": _("unflagged only")}.get,
        on_change=_on_filter_change,
    )
# The five list filters on demand, and always while one of them is in force: drawn, their widgets took about a
# third of the page's drawing time (a closed expander still draws its content).
MORE_FILTERS = ("documents", "datasets", "entities", "kinds", "tiers")
if any(shown_filters.get(name) for name in MORE_FILTERS):
    st.session_state["ev-more"] = True
documents = chosen_datasets = entities = kinds = tiers = []
if st.toggle(
    _("More filters: document, dataset, entity, kind, tier"),
    key="ev-more",
    help=_("Stays on while one of these filters is set."),
):
    doc_col, dataset_col, entity_col, kind_col, tier_col = st.columns(5)
    with doc_col:
        documents = st.multiselect(
            _("Document"),
            options=options["documents"],
            key="ev-docs",
            format_func=lambda s: document_label(kb, s),
            on_change=_on_filter_change,
        )
    with dataset_col:
        chosen_datasets = st.multiselect(
            _("Dataset"),
            options=options["datasets"],
            key="ev-datasets",
            format_func=lambda d: f"{datasets[d].title} ({datasets[d].snapshot_date})",
            help=_(
                "Public datasets bundled with the knowledge. With documents picked too, claims from any of them show."
            ),
            on_change=_on_filter_change,
        )
    with entity_col:
        entities = st.multiselect(
            _("Entity"),
            options=options["entities"],
            key="ev-entities",
            format_func=lambda e: _lang.pick(kb.entity_name(e), getattr(kb.entities.get(e), "name_zh", None)),
            on_change=_on_filter_change,
        )
    with kind_col:
        kinds = st.multiselect(_("Kind"), options=options["kinds"], key="ev-kinds", on_change=_on_filter_change)
    with tier_col:
        tiers = st.multiselect(
            _("Tier"),
            options=options["tiers"],
            key="ev-tiers",
            format_func=lambda t: _(provenance.TIER_NAMES[t]),
            help=_("Strongest first.")
            + " "
            + "; ".join(
                f"{_(provenance.TIER_NAMES[t])}: {_(provenance.TIER_DESCRIPTIONS[t])}" for t in provenance.tier_order()
            ),
            on_change=_on_filter_change,
        )

found = filter_claims(
    kb,
    text=text,
    documents=documents,
    entities=entities,
    kinds=kinds,
    tiers=tiers,
    flagged={"all": None, "flagged": True, "unflagged": False}[flagged],
    datasets=chosen_datasets,
)
shown_ids = [c.id for c in found]
all_claims, all_labelled, conflict_rows = evidence_tables(kb, kb.data_hash, today)
# no filter in force (the usual visit): the shared table as it is, not an indexed copy of it
every = len(shown_ids) == len(all_claims) and shown_ids == all_claims["id"].tolist()
table = all_claims if every else all_claims.set_index("id", drop=False).loc[shown_ids].reset_index(drop=True)
ageing = int(table["ageing"].sum())
counts = {"shown": len(table), "total": len(kb.claims), "flagged": int(table["flagged"].sum())}
if ageing:
    line = _(
        "{shown} of {total} claims, {flagged} of them flagged, {ageing} from a snapshot older than {months} months "
        "(ageing, counted to {today})."
    )
    st.caption(line.format(**counts, ageing=ageing, months=provenance.AGEING_MONTHS, today=today))
else:
    st.caption(_("{shown} of {total} claims, {flagged} of them flagged.").format(**counts))

# The first claims as a static table; every claim with every column, sortable and selectable, in a grid on demand
# (a grid's canvas takes a third of a second to draw on every visit, and its rows travel with the page).
as_grid = st.toggle(
    _("Every claim and column in a sortable grid (select a row to show its record)"),
    key="ev-grid",
    help=_("Off: the first claims as a table that wraps. On: all of them, every column, sortable."),
)


def _on_row_selected(ids: tuple[str, ...] = tuple(shown_ids)) -> None:
    # A row picked in the grid becomes the claim shown; `ids` are the rows as drawn when it was picked.
    rows = st.session_state["evidence-table"].selection.rows
    if rows and rows[0] < len(ids):
        st.session_state["ev-claim"] = ids[rows[0]]


if as_grid:
    # Shown: metrics and documents by name; beside the id the English rendering, wrapped (a cut sentence hid what
    # the claim says), and what the claim is flagged as (the reasons, paragraphs long, are in its record below and
    # in the download, which keeps the ids).
    st.dataframe(
        all_labelled.set_index("id", drop=False).loc[shown_ids].reset_index(drop=True),
        key="evidence-table",
        row_height=CLAIM_ROW_HEIGHT,
        column_order=[*CLAIM_FIRST, *[c for c in table.columns if c not in CLAIM_FIRST]],
        on_select=_on_row_selected,
        selection_mode="single-row",
        hide_index=True,
        width="stretch",
        height=min(560, CLAIM_ROW_HEIGHT * len(table) + 38),
        column_config={
            "id": st.column_config.TextColumn("id", pinned=True),
            "quote_zh": st.column_config.TextColumn(_("quote (Chinese)"), width=320 if lang == "en" else 560),
            "text_en": st.column_config.TextColumn(_("English"), width=560 if lang == "en" else 320),
            "flagged": st.column_config.CheckboxColumn(_("flagged")),
            "flags": st.column_config.TextColumn(
                _("flagged as"),
                width="medium",
                help=_("the reasons are in the claim's record (below) and in the download"),
            ),
            "snapshot": st.column_config.TextColumn(_("as of"), help=_("the dataset's snapshot date")),
            "ageing": st.column_config.CheckboxColumn(
                _("ageing"),
                help=_("the snapshot is older than {months} months").format(months=provenance.AGEING_MONTHS),
            ),
            "footnote": st.column_config.TextColumn(
                _("footnote"),
                width="large",
                help=_("dataset, result id, round, division, category, availability, row, retrieval date, licence"),
            ),
        },
    )
else:
    if shown_ids:
        markdown_table(claims_preview(kb, shown_ids[:PREVIEW_ROWS], today, lang), height=560)
    first = (
        _("The first {rows} of {total}: all of them are in the grid (the switch above) and in the download.").format(
            rows=PREVIEW_ROWS, total=len(table)
        )
        + " "
        if len(table) > PREVIEW_ROWS
        else ""
    )
    legend = _(
        "Number: the metric, the value and its unit. Source: the document and section; for a number from a public "
        "dataset its footnote (dataset, result id, round, division, category, availability, row, retrieval date, "
        "licence) and snapshot date, marked ageing past {months} months. Flagged as: the reasons are in the claim's "
        "record (pick it below) and in the download."
    )
    st.caption(first + legend.format(months=provenance.AGEING_MONTHS))
st.download_button(
    _("Download these claims (CSV)"),
    # kept per selection: the whole table as CSV takes longer than the rest of the page
    data=claims_csv(table, kb.data_hash, today, shown_ids),
    file_name="claims.csv",
    mime="text/csv",
    key="ev-download",
    icon=":material/download:",
    on_click="ignore",
)

if st.session_state.get("ev-claim") not in shown_ids:
    st.session_state["ev-claim"] = None  # the filters hid it
# one label per claim (over a thousand options), made once per knowledge and language
labels = claim_labels(kb, kb.data_hash, today, _lang.current())
claim_id = st.selectbox(
    _("Show a claim"),
    options=shown_ids,
    index=None,
    format_func=labels.__getitem__,
    key="ev-claim",
    placeholder=_("Pick a claim, or select a row of the grid (the box at its left)"),
)
if claim_id is not None:
    claim = kb.claims[claim_id]
    with st.container(border=True):
        st.subheader(_("Claim {id}").format(id=md(claim_id)))
        show_claim(kb, claim_id)
        record = {
            "kind": claim.kind,
            "about": ", ".join(f"{kb.entity_name(e)} ({e})" for e in claim.about),
            "subject": claim.subject or "",
            "metric": claim.metric or "",
            "value": value_text(claim),
            "conditions": conditions_text(claim.conditions),
            "based on": ", ".join(claim.based_on),
            "overrides": claim.overrides or "",
            "where it is defined": kb.locations.get(("claims", claim_id), ""),
        }
        if claim.locator is not None:
            record |= {
                "footnote": provenance.footnote(claim),
                "snapshot": provenance.age_text(claim, kb, today),
                "upstream": claim.locator.upstream,
                "raw file": f"knowledge/{RAW_DIR}/{claim.locator.file}",
                "row": claim.locator.row,
                "column": claim.locator.column,
                "conversion": claim.locator.conversion,
            }
        # the field names are the knowledge files' own keys (what a user writes in an upload), kept as they are
        markdown_table(pd.DataFrame({_("field"): list(record), _("value"): [str(v) for v in record.values()]}))

# ----------------------------------------------------------------------------------------------------------
st.subheader(_("Conflicts between claims"))
problems = conflict_rows[conflict_rows["problem"].astype(bool)].drop(columns="problem")
if problems.empty:
    st.success(_("No two claims disagree."))
else:
    st.warning(_("{count} disagreements: claims about the same thing that do not add up.").format(count=len(problems)))
    # A table that wraps rather than a grid: a message cut at the column's edge lost its point. Metrics by name.
    markdown_table(problems)
# Every finding, spreads, corroborations and numbers that must not be compared included, on demand: some sixty
# rows of text took longer to draw than the rest of the page (a closed expander still draws its content).
if not conflict_rows.empty and st.toggle(
    _("All {count} findings: disagreements, spreads, corroborations, numbers not comparable").format(
        count=len(conflict_rows)
    ),
    key="ev-findings",
):
    markdown_table(conflict_rows.drop(columns="problem"), height=480)
