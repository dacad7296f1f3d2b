"""Accelerators: a spec explorer over the datasheet columns, spec tables by segment, compute against power with its
Pareto frontier, efficiency, memory and the evidence of each number; one tab each, drawn when opened."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages import _lang
from app_pages._cached import accelerator_tables
from app_pages._lang import _
from app_pages._session import session_kb
from app_pages._widgets import (
    markdown_table,
    plotly_chart,
    reference_date,
    section_tabs,
    shared_figure,
    show_claim,
)
from selector.charts.claims import metric_bars
from selector.charts.efficiency import efficiency_bars, efficiency_scatter
from selector.charts.specs import spec_scatter
from selector.decision import specs
from selector.escape import streamlit_md as md
from selector.knowledge import provenance, vocabulary
from selector.knowledge.loading import DEFAULT_KNOWLEDGE
from selector.knowledge.models import LOCATED_TIERS
from selector.views.accelerators import evidence_labels, metric_frame, pareto_mask
from selector.views.labels import SEGMENT_LABELS

# The reference lines of the efficiency chart: the target and the average of article 000 (section 3.3).
TARGET_CLAIM = "c000-green-ai-efficiency-target"
AVERAGE_CLAIM = "c000-industry-avg-efficiency"
# The explorer opens on bandwidth against compute: the two datasheet columns most chips have.
DEFAULT_AXES = ("memory-bandwidth", "bf16-tflops")
# Numbers as stated: up to 12 significant digits, no trailing zeros.
NUMBER = ".12g"


def dataset_numbers_table(located: pd.DataFrame, segment: str) -> None:
    """A segment's numbers from public datasets, each with its footnote and date, in a grid that is mounted only
    when its expander is opened: eleven columns of long settings and footnotes, up to hundreds of rows."""
    ageing = _("ageing: the snapshot is older than {months} months.").format(months=provenance.AGEING_MONTHS)
    title = _("From public datasets: {count} numbers, each with its footnote and date").format(count=len(located))
    with st.expander(title):
        st.dataframe(
            located,
            hide_index=True,
            width="stretch",
            key=f"acc-datasets-{segment}",
            column_config={
                "ageing": st.column_config.CheckboxColumn(_("ageing"), help=ageing),
                "footnote": st.column_config.TextColumn(_("footnote"), width="large"),
            },
        )
        st.caption(ageing)


def explorer_controls(choices: specs.ExplorerChoices, columns: dict[str, str]) -> tuple[tuple, str, str, bool]:
    """The spec explorer's filters (segment, vendor, release year) and axes: (filters, x column, y column, log)."""
    segment_col, vendor_col, year_col = st.columns([1, 1, 1])
    with segment_col:
        segments = st.multiselect(
            _("Segment"),
            options=[s for s in SEGMENT_LABELS if s in choices.segments],
            format_func=lambda s: _(SEGMENT_LABELS[s]),
            key="spec-segments",
            placeholder=_("all segments"),
        )
    with vendor_col:
        vendors = st.multiselect(
            _("Vendor"),
            options=list(choices.vendors),
            key="spec-vendors",
            placeholder=_("all vendors"),
        )
    years = None
    with year_col:
        if choices.years is not None:
            low, high = choices.years
            years = st.slider(_("Release year"), min_value=low, max_value=high, value=(low, high), key="spec-years")
    # below the filters, at full width: in the year's column its label was cut short on a laptop
    unknown_year = years is None or st.checkbox(
        _("Include chips without a known release year"),
        value=True,
        key="spec-unknown-year",
        help=_("Release dates come from Epoch AI's rows; chips without one have no year."),
    )
    x_col, y_col, log_col = st.columns([2, 2, 1.2])
    options = list(columns)
    with x_col:
        x = st.selectbox(
            _("x axis"),
            options=options,
            index=options.index(DEFAULT_AXES[0]) if DEFAULT_AXES[0] in options else 0,
            format_func=columns.get,
            key="spec-x",
        )
    with y_col:
        y = st.selectbox(
            _("y axis"),
            options=options,
            index=options.index(DEFAULT_AXES[1]) if DEFAULT_AXES[1] in options else 1,
            format_func=columns.get,
            key="spec-y",
        )
    with log_col:
        log = st.toggle(_("Log axes"), value=True, key="spec-log", help=_("Release year always stays linear."))
    return (tuple(segments), tuple(vendors), years, unknown_year), x, y, log


def spec_explorer() -> None:
    """Any two datasheet columns against each other, filtered by segment, vendor and release year."""
    values = specs.spec_values(kb, DEFAULT_KNOWLEDGE, today)
    choices = specs.explorer_choices(values)
    labels = specs.spec_columns(kb, lang)
    columns = {c: label for c, label in labels.items() if c in choices.columns}
    if len(columns) < 2:
        st.info(_("Fewer than two spec columns have values: nothing to plot."))
        return
    filters, x, y, log = explorer_controls(choices, columns)
    if x == y:
        st.info(_("Pick two different columns for the axes."))
        return
    explored = specs.explore(kb, DEFAULT_KNOWLEDGE, today, filters, x, y)
    pairs = explored.pairs
    units = choices.units
    if pairs.empty:
        st.info(_("No accelerator in this selection has both values."))
    else:
        scatter = shared_figure(
            "figure-acc-spec-explorer",
            (kb.data_hash, today, filters, x, y, log, lang),
            lambda: spec_scatter(
                pairs,
                columns[x],
                columns[y],
                _("{y} against {x}, by vendor").format(y=columns[y], x=columns[x]),
                x_unit=units[x],
                y_unit=units[y],
                log_x=log and x != specs.RELEASE_YEAR,
                log_y=log and y != specs.RELEASE_YEAR,
            ),
        )
        plotly_chart(scatter, key="spec-explorer")
    lacking = sorted(set(explored.shown["name"]) - set(pairs["name"]), key=str.casefold)
    ageing = int((pairs["x_ageing"] | pairs["y_ageing"]).sum()) if len(pairs) else 0
    caption = _(
        "{count} accelerators. Each value is the one a ranking would use (the strongest tier, the median of its "
        "claims); hover a point for its dataset, row and dates. Hollow points rest on a snapshot older than "
        "{months} months ({ageing} here, counted to {today})."
    ).format(count=len(pairs), months=provenance.AGEING_MONTHS, ageing=ageing, today=today)
    if lacking:
        caption += " " + _("Without both values: {names}.").format(names=", ".join(lacking))
    st.caption(md(caption))
    if len(pairs):
        # Wide (each axis with its tier, source, date and footnote): a grid, mounted only when opened.
        with st.expander(
            _("The {count} points as a table, each value with its source, date and footnote").format(count=len(pairs))
        ):
            st.dataframe(
                explored.table,
                hide_index=True,
                width="stretch",
                key="spec-table",
            )


def segment_tables() -> None:
    """Each segment's numbers as the articles state them, and its numbers from public datasets."""
    segments = list(spec_tables)
    stated_names = set(claims["name"])
    if not segments:
        st.info(_("No numeric claim about an accelerator yet."))
    for tab, segment in zip(st.tabs([_(SEGMENT_LABELS[s]) for s in segments]), segments, strict=True):
        with tab:
            table = spec_tables[segment]
            if len(table):
                st.markdown(_("**As the articles state them** (and our ratings)"))
                # Rows mix units, so a column is read, not sorted: numbers are shown as stated and gaps stay blank.
                markdown_table(table.reset_index(), formats=dict.fromkeys(table.columns, NUMBER))
            others = [
                e.name
                for e in kb.entities.values()
                if e.kind == "accelerator" and e.segment == segment and e.name not in stated_names
            ]
            if others:
                st.caption(md(_("No numbers stated for: {names}").format(names=", ".join(others))))
            located = dataset_tables[segment]
            if len(located):
                dataset_numbers_table(located, segment)


def energy_efficiency() -> None:
    """Compute against power with its Pareto frontier, and TOPS per watt against the articles' reference lines."""
    both = efficiency.dropna(subset=["tops", "watts"]).reset_index(drop=True)
    # One chart a row: beside each other on a laptop, the chips' names left the bars too little room for their
    # axis title.
    scatter_col, bars_col = st.container(), st.container()
    with scatter_col:
        if len(both):
            frontier = pareto_mask(both[["tops", "watts"]].to_numpy(), ["max", "min"])
            plotly_chart(
                shared_figure(
                    "figure-acc-tops-watts",
                    (kb.data_hash, today, lang),
                    lambda: efficiency_scatter(
                        both, frontier, _("INT8 compute against power (Pareto frontier dotted)")
                    ),
                ),
                key="tops-watts",
            )
            st.caption(
                _(
                    "On the frontier: no other chip gives more TOPS for fewer watts. Only chips with both a TOPS and "
                    "a power claim appear here."
                )
            )
        else:
            st.info(_("No accelerator has both a TOPS and a power claim."))
    with bars_col:
        references = {}
        for name, claim_id in (("target", TARGET_CLAIM), ("average", AVERAGE_CLAIM)):
            claim = kb.claims.get(claim_id)
            if claim is not None and claim.value is not None:
                label = _("Green-AI target") if name == "target" else _("stated industry average")
                references[name] = (label + (" " + _("(flagged)") if claim.flagged else ""), claim.value)
        if len(efficiency):
            bars = shared_figure(
                "figure-acc-tops-per-watt",
                (kb.data_hash, today, lang),
                lambda: efficiency_bars(
                    efficiency,
                    _("TOPS per watt: claimed, or derived from TOPS and watts"),
                    target=references.get("target"),
                    average=references.get("average"),
                ),
            )
            plotly_chart(bars, key="tops-per-watt")
        for claim_id in (TARGET_CLAIM, AVERAGE_CLAIM):
            if claim_id in kb.claims:
                claim = kb.claims[claim_id]
                with st.expander(md(_("Reference line: {text}").format(text=_lang.pick(claim.text_en, claim.quote)))):
                    show_claim(kb, claim_id)


def memory_and_bandwidth() -> None:
    """On-package memory and memory bandwidth as the articles state them (the datasheets' are in the explorer)."""
    st.caption(_("As the articles state them; the datasheets' figures are in the spec explorer."))
    memory_col, bandwidth_col = st.container(), st.container()
    for column, metric, title in (
        (memory_col, "memory_capacity_gb", _("On-package memory")),
        (bandwidth_col, "bandwidth_tbps", _("Memory bandwidth")),
    ):
        frame = metric_frame(kb, metric)
        frame = frame[~frame["tier"].isin(sorted(LOCATED_TIERS))]  # the datasheets' figures are in the explorer
        with column:
            if frame.empty:
                st.info(_("No claim about an accelerator's {what}.").format(what=title))
                continue
            unit = frame["unit"].iloc[0]
            bars = shared_figure(
                f"figure-acc-metric-{metric}",
                (kb.data_hash, lang),
                lambda frame=frame, title=title, metric=metric, unit=unit: metric_bars(
                    frame, title, f"{vocabulary.label(kb, metric).lower()} ({unit})"
                ),
            )
            plotly_chart(bars, key=f"metric-{metric}")
            none = _("none stated")
            settings = [f"{n}: {c or none}" for n, c in zip(frame["name"], frame["conditions"], strict=True)]
            if frame["conditions"].nunique() > 1 or frame["conditions"].iloc[0]:
                st.caption(md(_("Settings: {settings}").format(settings="; ".join(settings))))


def evidence_of_a_number() -> None:
    """Any number of the page with its full evidence: claim, document, section and quote."""
    if not len(claims):
        st.info(_("No numeric claim about an accelerator yet."))
        return
    labels = evidence_labels(claims)
    picked = st.selectbox(_("Pick a number to see its full evidence"), options=list(labels), key="acc-claim")
    show_claim(kb, labels[picked])


kb = session_kb()
today = reference_date()
lang = _lang.current()
claims, spec_tables, dataset_tables, efficiency = accelerator_tables(kb, kb.data_hash, today)

st.title(_("Accelerators"))
st.caption(
    _(
        "Datasheet figures from public datasets and every number the articles give about a chip, by market segment. "
        "Flagged numbers (contradicting a datasheet, unverifiable or implausible) are drawn red with an x or "
        "hatching; hover for the reason."
    )
)
section_tabs(
    {
        _("Spec explorer"): spec_explorer,
        _("By segment"): segment_tables,
        _("Energy efficiency"): energy_efficiency,
        _("Memory and bandwidth"): memory_and_bandwidth,
        _("Evidence of a number"): evidence_of_a_number,
    },
    key="acc-section",
)
