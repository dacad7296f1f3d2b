"""Frameworks: the feature matrix (article 003's stars and every assessed rating), the comparable benchmarks and the
evidence of each value; one tab each, drawn when opened."""

from __future__ import annotations

import streamlit as st

from app_pages import _lang
from app_pages._cached import framework_tables
from app_pages._lang import _
from app_pages._session import session_kb
from app_pages._widgets import plotly_chart, section_tabs, shared_figure, show_claim, text_table
from selector import display
from selector.charts.claims import benchmark_bars
from selector.charts.ratings import feature_heatmap
from selector.escape import streamlit_md as md
from selector.knowledge import vocabulary
from selector.views.evidence import claims_table
from selector.views.frameworks import (
    comparable_frame,
    feature_hover,
    rating_text,
)
from selector.views.labels import value_text


def _one_line(text: object) -> str:
    return md(" ".join(str(text).split()))


def _number_item(row: dict) -> str:
    """A claims_table row as a Markdown list item: id, entities, metric and number; conditions; quote; flags."""
    lines = [
        f"- **{_one_line(row['id'])}** · {_one_line(row['entities'])} · {_one_line(row['metric'])}: "
        f"**{row['value']:.12g} {_one_line(row['unit'])}**",
        _("measured under: {conditions}").format(conditions=_one_line(row["conditions"] or _("no conditions stated"))),
    ]
    if row["quote_zh"]:
        lines.append(f"“{_one_line(row['quote_zh'])}”")
    if row["flags"]:
        lines.append(_("flags: {flags}").format(flags=_one_line(row["flags"])))
    return "  \n  ".join(lines)


def feature_matrix_section() -> None:
    """Every rating of every framework in one static table, and as a coloured chart when asked for."""
    if features.values.empty:
        st.info(_("No framework has a rating yet."))
        return
    # st.table rather than Markdown: ten entities do not fit a laptop's width, and st.table scrolls sideways
    # within itself instead of widening the page.
    text_table(rating_text(features, _lang.current()))
    st.caption(
        _(
            "Ratings from 1 to 5, higher is better except where a row says lower is better (risk and effort). "
            "Each rating's claim, document and quote: pick it in the Evidence of a value tab, or turn on the chart "
            "and hover its cell."
        )
    )
    # The heatmap costs a page switch more than the rest of the page (plotly draws it even in a closed expander),
    # so it is drawn when asked for.
    if st.toggle(
        _("Show the ratings as a coloured chart (each cell's claim and quote on hover)"), key="fw-show-heatmap"
    ):
        figure = shared_figure(
            "figure-fw-heatmap",
            (kb.data_hash, _lang.current()),
            lambda: feature_heatmap(
                features.values,
                features.objectives,
                feature_hover(kb, features),
                _("Ratings of frameworks (1-5): article 003's stars and the team's assessed ratings"),
            ),
        )
        plotly_chart(figure, key="feature-heatmap")
        st.caption(
            _(
                "Green is better. For risk and effort criteria a low rating is the good one, so their colours are "
                "mirrored while the number in the cell stays as rated. Hover a cell for its claim and quote."
            )
        )


def benchmarks() -> None:
    """Each set of numbers measured under the same conditions as one chart; the rest listed as not comparable."""
    if not comparable:
        st.info(_("No benchmark has two entities measured under the same conditions."))
    # Two charts a row: in a third of a laptop's width the axis titles did not fit their charts.
    columns = st.columns(min(2, max(1, len(comparable))))
    for index, found in enumerate(comparable):
        with columns[index % len(columns)]:
            bars = shared_figure(
                f"figure-fw-bench-{index}",
                (kb.data_hash,),
                lambda found=found: benchmark_bars(
                    comparable_frame(kb, found),
                    f"{found.label} ({found.unit})",
                    found.unit,
                    lower_is_better=vocabulary.lower_is_better(kb, found.metric),
                ),
            )
            plotly_chart(bars, key=f"bench-{index}")
            conditions = "; ".join(f"{k}: {v}" for k, v in found.conditions)
            st.caption(md(_("Measured under: {conditions}").format(conditions=conditions)))
    st.caption(_("Hatched red bars rest on a flagged claim. Hover a bar for its source and quote."))

    if alone:
        count = sum(len(s.claims) for s in alone)
        with st.expander(_("Not comparable: {count} numbers measured under their own conditions").format(count=count)):
            st.caption(
                _(
                    "Each of these numbers has no other entity measured under the same workload, hardware and "
                    "setting, so putting it next to another number would mislead."
                )
            )
            # A list, not a table: a table of quotes and conditions is too wide for a laptop (the Chinese quotes
            # wrap at every character).
            numbers = claims_table(kb, [c for s in alone for c in s.claims])
            st.markdown("\n".join(_number_item(row) for row in numbers.to_dict("records")))


def evidence_of_a_value() -> None:
    """Any rating or benchmark number of the page with its full evidence: claim, document, section and quote."""
    choices: dict[str, tuple[str, ...]] = {}
    ratings, rating_ids = features.values.to_numpy(), features.claim_ids.to_numpy()  # not a Series per cell
    for row_index, name in enumerate(features.values.index):
        for column_index, column in enumerate(features.values.columns):
            ids = rating_ids[row_index, column_index]
            if ids:
                choices[f"{name} - {column}: {display.number(ratings[row_index, column_index])}"] = tuple(ids)
    for found in comparable:
        for claim in found.claims:
            label = f"{kb.entity_name(claim.subject_id)} - {found.label}: {value_text(claim)}"
            choices[label] = (claim.id,)
    if not choices:
        st.info(_("No rating or benchmark number of a framework yet."))
        return
    picked = st.selectbox(_("Pick a value to see its full evidence"), options=list(choices), key="fw-value")
    for claim_id in choices[picked]:
        show_claim(kb, claim_id)


kb = session_kb()

st.title(_("Frameworks and runtimes"))
st.caption(
    _(
        "Ratings and benchmark numbers of the articles, each traceable to its sentence. Numbers share a chart only "
        "when they were measured under the same conditions; everything else is listed as not comparable."
    )
)
features, comparable, alone = framework_tables(kb, kb.data_hash, _lang.current())
section_tabs(
    {
        _("Feature matrix"): feature_matrix_section,
        _("Benchmarks"): benchmarks,
        _("Evidence of a value"): evidence_of_a_value,
    },
    key="fw-section",
)
