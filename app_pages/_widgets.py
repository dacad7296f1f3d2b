"""Widget helpers shared by the pages: widgets that follow the preferences, sections as tabs drawn when opened, charts
with their titles as text, tables that wrap, a claim as evidence, the sidebar caption and the data-sources footer."""

from __future__ import annotations

import datetime as dt
import html
import os
from collections.abc import Callable
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from app_pages import _cached, _lang
from app_pages._lang import _
from selector.escape import streamlit_md as md
from selector.escape import streamlit_table
from selector.knowledge import provenance
from selector.knowledge.models import KnowledgeBase
from selector.memo import PerObject
from selector.views.evidence import claim_evidence


def _heads(columns: object) -> object:
    # A table's column heads are interface words ("criterion", "why"), marked in the views with N_: said in the
    # session's language here, where every static table is drawn. A head the catalog does not hold (an option's
    # name heading its column) stays as it is.
    return {c: _(c) for c in columns if isinstance(c, str) and c}


def text_table(frame: pd.DataFrame, height: int | None = None) -> None:
    """`frame` as a static table whose cells wrap, for columns read in full (messages, reasons, English text).

    A data grid cuts a long cell at its column's edge; ``st.table`` wraps it but renders each cell as Markdown,
    so every text cell is escaped (:func:`md`) and shows as written.
    """
    shown = _TEXT_FRAMES.get(frame, _lang.current(), lambda: _escaped(frame))
    st.table(shown, hide_index=True, height="content" if height is None else height)


# A shared frame (a page's table made once per knowledge) is escaped once per language, not on every visit.
_TEXT_FRAMES = PerObject(16)


def _escaped(frame: pd.DataFrame) -> pd.DataFrame:
    shown = frame.astype(object).map(lambda v: md(v) if isinstance(v, str) else "" if pd.isna(v) else v)
    return shown.rename(columns=_heads(shown.columns))


def markdown_table(
    frame: pd.DataFrame | dict, formats: dict[str, str] | None = None, height: int | None = None
) -> None:
    """`frame` (a DataFrame, or column name -> values) as a static Markdown table (cells escaped and wrapping),
    in a box that scrolls past `height` pixels.

    For the tables a page shows in full and redraws often: a data grid mounts a canvas on every page switch and
    rerun (benchmarks/bench_browser.py), a Markdown table is plain HTML. Grids stay where sorting, search or
    thousands of rows serve the reader.
    """
    # a mapping of head -> values rather than a renamed copy of the frame (pandas' rename copies it)
    heads = _heads(frame.keys() if isinstance(frame, dict) else frame.columns)
    frame = {heads.get(k, k): v for k, v in frame.items()}
    formats = {heads.get(k, k): v for k, v in formats.items()} if formats else formats
    if height is None:
        st.markdown(streamlit_table(frame, formats))
        return
    with st.container(height=height):
        st.markdown(streamlit_table(frame, formats))


def section_tabs(sections: dict[str, Callable[[], None]], key: str) -> None:
    """The page's `sections` (tab label -> the function that draws it) as tabs, of which only the open one is
    computed and drawn; opening another reruns the page.

    A page that draws every section at once makes each visit wait for all its charts, those below the fold too
    (benchmarks/bench_browser.py measures the page switch).
    """
    for tab, draw in zip(st.tabs(list(sections), key=key, on_change="rerun"), sections.values(), strict=True):
        if tab.open:
            with tab:
                draw()


def expander_drawn_when_open(label: str, key: str, draw: Callable[[], None], expanded: bool = False) -> None:
    """An expander whose content `draw` is computed and drawn only while it is open; opening it reruns the page.

    A closed expander still draws its widgets on every visit. Here they are not drawn, so they have no state
    while it is closed: a callback must take the value in force for them.
    """
    box = st.expander(label, expanded=expanded, key=key, on_change="rerun")
    if box.open:
        with box:
            draw()


def sync_widget(key: str, value: Any) -> Any:
    """Make the widget `key` show `value` (the preferences' value) before it is drawn; return the value its state
    holds (equal to `value`, in the type the widget gave it), to pass to the widget.

    Widgets carry no default of their own: their state is set from the preferences, so the URL, the reset button
    and a page switch all show up in the widgets. One read of the state: each takes the session's lock.
    """
    held = st.session_state.get(key, _UNSET)
    if held is _UNSET or held != value:
        st.session_state[key] = value
        return value
    return held


_UNSET = object()


def reference_date() -> dt.date:
    """The date numbers' ages are counted to: ``SELECTOR_TODAY`` (ISO date, for tests and reproducible
    screenshots) when set, else today in UTC."""
    fixed = os.environ.get("SELECTOR_TODAY")
    return dt.date.fromisoformat(fixed) if fixed else dt.datetime.now(dt.UTC).date()


def show_claim(kb: KnowledgeBase, claim_id: str) -> None:
    """One claim as evidence: document and section, the Chinese quote, the English text, any flags, and for a
    dataset's number its footnote and snapshot date (marked when ageing)."""
    if claim_id not in kb.claims:
        st.warning(_("Claim {claim} is not in the knowledge base.").format(claim=md(claim_id)))
        return
    ev = claim_evidence(kb, claim_id, reference_date())
    where = " · ".join(md(p) for p in (ev["document"], ev["section"]) if p)
    st.markdown(f"**{md(claim_id)}** · {ev['tier']} · {where}")
    if ev["quote_zh"]:
        st.markdown("> " + md(ev["quote_zh"]))
    st.markdown(md(ev["text_en"]) + (f" — **{md(ev['value'])}**" if ev["value"] else ""))
    details = [
        _("conditions: {conditions}").format(conditions=ev["conditions"]) if ev["conditions"] else "",
        ev["rationale"],
        ev["note"],
    ]
    if ev["rubric"]:
        details.append(_("rubric: {rubric}").format(rubric=ev["rubric"]))
    details = [d for d in details if d]
    if details:
        st.caption(md(" · ".join(details)))
    if ev["footnote"]:
        st.caption(_("Footnote: {footnote} · {age}").format(footnote=md(ev["footnote"]), age=md(ev["age"])))
    if provenance.AGEING_LABEL in ev["age"]:
        st.warning(
            _("Ageing number: its snapshot is older than {months} months ({age}).").format(
                months=provenance.AGEING_MONTHS, age=md(ev["age"])
            ),
            icon=":material/history:",
        )
    if ev["flags"]:
        st.warning(md(ev["flags"]), icon=":material/flag:")


def knowledge_caption(kb: KnowledgeBase) -> None:
    """A line in the sidebar saying which knowledge the page shows."""
    where = _("bundled knowledge + your files") if _cached.uses_uploads(kb) else _("bundled knowledge")
    line = _("{where} · {claims} claims · {entities} entities · data {hash}")
    st.sidebar.caption(
        line.format(where=where, claims=len(kb.claims), entities=len(kb.entities), hash=md(kb.data_hash))
    )


class KeptFigure(go.Figure):
    """A figure checked once and then kept as its plain dict (``spec``), which a page edits in place.

    ``st.plotly_chart`` serialises a figure through its public ``to_dict()``: this one returns the kept dict, so a
    redraw neither deep-copies the figure nor runs plotly's validators on every edit (they cost more than the rest
    of a slider move). Whoever edits ``spec`` keeps it a valid figure (tests/charts/ check the edits).

    Made from a figure (checked and copied once) or from a `spec` made that way (kept as it is, not copied).
    """

    def __init__(self, figure: go.Figure | None = None, *, spec: dict | None = None) -> None:
        super().__init__()
        self._spec = figure.to_dict() if spec is None else spec

    @property
    def spec(self) -> dict:
        return self._spec

    def to_dict(self) -> dict:
        return self._spec

    def untitled(self) -> KeptFigure:
        """This figure without its title, and without the space plotly keeps above the plot for it: a new figure
        over the same data, this one left as it is (it may be shared)."""
        layout = self._spec.get("layout", {})
        margin = layout.get("margin", {})
        return KeptFigure(
            spec={
                **self._spec,
                "layout": {
                    **layout,
                    "title": {**layout.get("title", {}), "text": ""},
                    "margin": {**margin, "t": max(margin.get("t", 60) - 40, 20)},
                },
            }
        )


def session_figure(slot: str, key: tuple, build: Callable[[], go.Figure]) -> KeptFigure:
    """The figure this session keeps in `slot`, built anew only when `key` (what shapes the figure) changes.

    For charts redrawn on every slider move: the page edits the kept figure's data in place (see
    charts.contributions.restack_contribution_bars). A session runs one script at a time, so its figure is never
    shared; it is serialised by ``st.plotly_chart`` during the call that draws it.
    """
    kept = st.session_state.get(slot)
    if kept is not None and kept[0] == key:
        return kept[1]
    figure = KeptFigure(build())
    st.session_state[slot] = (key, figure)
    return figure


def shared_figure(slot: str, key: tuple, build: Callable[[], go.Figure]) -> KeptFigure:
    """The figure `build` makes for `key` (everything that shapes it: the knowledge's hash, the language, the
    controls), made once per server and shared by every session: for charts no page edits. Neither the pages nor
    :func:`plotly_chart` change it (the title is drawn apart on an untitled copy)."""
    return KeptFigure(spec=_cached.figure_spec(slot, key, build))


def plotly_chart(fig: go.Figure, key: str) -> None:
    """Draw `fig` with its title as a line of text above it.

    Plotly draws a title on one line and the chart's SVG clips what does not fit: in a half-width column on a
    laptop the titles were cut. Text wraps. The figure (possibly one a session keeps, or one every session shares)
    is left unchanged: the chart is drawn from an untitled copy of its layout.
    """
    kept = fig if isinstance(fig, KeptFigure) else KeptFigure(fig)
    title = kept.spec.get("layout", {}).get("title", {})
    # one block holding title and chart (class st-key-chart-KEY), so that the title names its chart
    with st.container(key=f"chart-{key}"):
        if title.get("text"):
            st.markdown(f"**{md(html.unescape(title['text']))}**")
            kept = kept.untitled()
        st.plotly_chart(kept, key=key, config={"displaylogo": False})


def untitled_chart(fig: KeptFigure, key: str) -> None:
    """Draw a kept figure whose title the control above it already shows (a toggle naming its chart), as one
    element: without the title line and the block that :func:`plotly_chart` wraps around the pair, for a chart
    redrawn on every slider move (the session's own figure: its title is cleared in place, once)."""
    layout = fig.spec.get("layout", {})
    if layout.get("title", {}).get("text"):
        fig.spec["layout"] = fig.untitled().spec["layout"]
    st.plotly_chart(fig, key=key, config={"displaylogo": False})


DATA_SOURCES_PAGE = "app_pages/data_sources.py"


def data_sources_footer() -> None:
    """One line under every page naming each bundled dataset's licence, linking to "Data sources and licences"."""
    found = provenance.datasets(_cached.bundled_kb())
    if not found:
        return
    st.divider()
    names = "; ".join(f"{d.title} ({d.licence})" for d in found)
    st.caption(_("Data: {names}. Each figure from them keeps its source, row and date.").format(names=md(names)))
    st.page_link(DATA_SOURCES_PAGE, label=_("Data sources and licences"), icon=":material/license:")
