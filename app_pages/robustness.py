"""Robustness: does the ranking survive other weightings, other methods and another set of alternatives?"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages import _lang
from app_pages._cached import PAGE_SAMPLES, SEED, robustness_of
from app_pages._lang import _
from app_pages._session import current_prefs, session_kb
from app_pages._widgets import markdown_table, plotly_chart, section_tabs
from selector import verdict
from selector.charts.robustness import acceptability_heatmap, weight_sweep_chart
from selector.decision import recommend
from selector.decision.problem import METHODS, ScoringError
from selector.errors import SelectorError
from selector.escape import streamlit_md as md
from selector.report import formats
from selector.robustness import analysis, figure
from selector.robustness.smaa import CONFIDENCE_LIMIT
from selector.robustness.sweep import weight_sweep
from selector.views.robustness import SPACE_LABELS, central_weights_table, sampling_text, sweep_frame

kb = session_kb()
prefs = current_prefs(kb)

st.title(_("How robust is the ranking?"))
try:
    rec = recommend.recommend(kb, prefs)
except SelectorError as exc:
    st.error(
        _("The current settings cannot be ranked: {error}. Change them on the Recommend page.").format(error=md(exc))
    )
    st.stop()
try:
    # the Recommend page's verdict, its share over any weighting read from the same cache
    local, whole = verdict.local_share(rec), verdict.whole_simplex_share(kb, prefs, rec.recommended_entry.name)
except (SelectorError, ValueError):
    local = whole = None  # the verdict says it could not compute them
try:
    judged = verdict.judge(rec, local_share=local, global_share=whole, lang=_lang.current())
    st.markdown(
        _("**{headline}** · {badge} (the Recommend page's badge)").format(
            headline=md(judged.headline), badge=md(judged.badge)
        )
    )
except SelectorError:
    pass

m = rec.matrix
method, scaler = rec.result.method, rec.result.scaler
group = kb.groups[m.group]


def _dimension_name(dimension: str) -> str:
    found = kb.dimensions.get(dimension)
    return _lang.pick(found.name_en, found.name_zh) if found is not None else dimension


st.caption(
    md(
        _("{group}, {method} with {scaling}, {weights}. Change these on the Recommend page.").format(
            group=_lang.pick(group.name_en, group.name_zh),
            method=_(METHODS[method].label),
            scaling=formats.scaling(scaler),
            weights=", ".join(f"{_dimension_name(d)} {w:.0%}" for d, w in m.dimension_weights.items()),
        )
    )
    + _(" The same analysis runs in the report and in `python -m selector sensitivity`.")
)
if len(m.alternatives) < 2:
    st.info(_("Only one alternative is left to rank; there is nothing to compare."))
    st.stop()

# The sampling settings in a box opened on demand, the results first (closed, its widgets are laid out only when
# opened); the caption under the verdict says what was sampled.
with st.expander(_("Sampling settings: how many weightings, which weights, over what range")):
    samples_col, seed_col, space_col = st.columns(3)
    with samples_col:
        n_samples = st.number_input(
            _("Samples"), min_value=200, max_value=50_000, value=PAGE_SAMPLES, step=1_000, key="rb-samples"
        )
    with seed_col:
        seed = st.number_input(_("Seed"), min_value=0, max_value=2**31 - 1, value=SEED, step=1, key="rb-seed")
    with space_col:
        space = st.radio(
            _("Weights sampled"),
            options=list(SPACE_LABELS),
            format_func={"dimensions": _("the four dimensions"), "criteria": _("every criterion")}.__getitem__,
            key="rb-space",
            help=_(
                "Dimensions: the weights people argue about (performance, cost, ecosystem, risk), each spread over "
                "its criteria by the sub-criterion weights. Criteria: every criterion weight sampled freely."
            ),
        )
    # the sampled range on a row of its own: in a quarter of a laptop's width its labels were cut short
    whole_col, range_col = st.columns(2)
    with whole_col:
        whole = st.toggle(
            _("Whole simplex (any weights)"),
            value=True,
            key="rb-whole",
            help=_(
                "On: every split of the weights (summing to 100%) is equally likely. Off: only weightings near your "
                "current ones."
            ),
        )
    with range_col:
        spread = st.slider(
            _("Spread around your weights (± percentage points)"),
            min_value=2,
            max_value=50,
            value=10,
            step=1,
            key="rb-spread",
            disabled=whole,
        )
try:
    with st.spinner(_("Sampling weightings...")):
        robust = robustness_of(
            kb, prefs, samples=int(n_samples), seed=int(seed), spread=None if whole else spread / 100, space=space
        )
except SelectorError as exc:
    st.error(_("The robustness analyses cannot run with these inputs: {error}").format(error=md(exc)))
    st.stop()

smaa = robust.smaa
names = smaa.alternatives
# Every table and chart of the page lists the alternatives in the ranking's order (the Recommend page's), so a
# row of the heatmap and the same row of each table are the same alternative.
ranked = [r.name for r in rec.ranking]
order = [names.index(n) for n in ranked] if sorted(ranked) == sorted(names) else list(range(len(names)))
in_order = [names[i] for i in order]
held = figure.level(robust.leader_share)
(st.success if held == "robust" else st.warning)(
    md(
        "{held} ({levels}).".format(
            held=figure.held(
                robust.leader, robust.leader_share, robust.smaa.n_samples, robust.spread, lang=_lang.current()
            ),
            levels=figure.levels(lang=_lang.current()),
        )
    ),
    icon=":material/balance:",
)
st.caption(
    md(
        _("Sampled: {sampling}").format(
            sampling=sampling_text(robust.smaa, robust.space, robust.spread, lang=_lang.current())
        )
    )
)


def rank_acceptability() -> None:
    """The SMAA heatmap, its figures per alternative and the central weights."""
    # The heatmap, then its figures as a table under it: beside it, in half a laptop's width, the table ran off
    # the page.
    plotly_chart(
        acceptability_heatmap(
            smaa.acceptability[order],
            in_order,
            _("Rank acceptability: share of {samples} sampled weightings").format(samples=f"{smaa.n_samples:,}"),
        ),
        key="acceptability",
    )
    never = _("never first")
    first, mean, confidence = _("ranked first"), _("mean rank"), _("confidence")
    summary = pd.DataFrame(
        {
            _("alternative"): in_order,
            first: [smaa.first_rank_acceptability[i] for i in order],
            mean: [smaa.expected_rank[i] for i in order],
            # no confidence: never first, or beyond the alternatives most often first (the only ones it is computed for)
            confidence: [
                (never if smaa.central_weights[i] is None else _("not computed"))
                if smaa.confidence[i] is None
                else smaa.confidence[i]
                for i in order
            ],
        }
    )
    markdown_table(summary, formats={first: ".1%", mean: ".2f", confidence: ".1%"})
    st.caption(
        _(
            "In the ranking's order. Ranked first: share of the sampled weightings that put it first. Mean rank: its "
            "average place. Confidence: how often it ranks first under its own central weights (cells without "
            "evidence resampled), computed for the {limit} alternatives most often first. Never first: no sampled "
            "weighting puts it first."
        ).format(limit=CONFIDENCE_LIMIT)
    )

    st.markdown(_("**Central weights**: the average weighting under which each alternative ranks first."))
    central = central_weights_table(
        kb,
        in_order,
        smaa.criteria,
        [smaa.central_weights[i] for i in order],
        dimension_of=m.dimension_of if robust.space == "dimensions" else None,
    ).rename(columns=_names_in_language())
    central = central.rename_axis(_("alternative"))
    # A column per criterion can be wider than a laptop's page: that table scrolls in a box of its own.
    markdown_table(
        central.astype(object).where(central.notna(), never).reset_index(),
        formats=dict.fromkeys(central.columns, ".1%"),
        height=None if robust.space == "dimensions" else 480,
    )


def _names_in_language() -> dict[str, str]:
    """Each dimension's and criterion's English name -> its name in the session's language (table headers)."""
    records = (*kb.dimensions.values(), *kb.criteria.values())
    return {r.name_en: _lang.pick(r.name_en, r.name_zh) for r in records}


def tipping_points() -> None:
    """Where one dimension's weight changes the leader, and the scores along that weight."""
    tips = robust.tipping_points
    if tips:
        st.markdown("\n".join(f"- {md(t.text(lang=_lang.current()))}" for t in tips))
    else:
        st.success(
            _("Moving one dimension's weight anywhere between 0% and 100% (others in proportion) keeps the leader.")
        )
    dimensions = list(m.dimension_weights)
    if len(dimensions) >= 2:
        tipping_dimensions = [d for d in dimensions if any(t.dimension == d for t in tips)]
        if "rb-dimension" not in st.session_state or st.session_state["rb-dimension"] not in dimensions:
            st.session_state["rb-dimension"] = (tipping_dimensions or dimensions)[0]
        dimension = st.selectbox(
            _("Sweep the weight of"),
            options=dimensions,
            format_func={d: _dimension_name(d) for d in dimensions}.__getitem__,
            key="rb-dimension",
        )
        _weight_sweep(dimension, [t.weight for t in tips if t.dimension == dimension])


def _weight_sweep(dimension: str, tipping_weights: list[float]) -> None:
    """The scores of every alternative as `dimension`'s weight goes from 0% to 100%, its tipping points marked."""
    try:
        sweep = weight_sweep(analysis.named_problem(rec), m.hierarchy, dimension)
    except ScoringError as exc:
        st.caption(_("No sweep: {error}").format(error=md(exc)))
        return
    label = _dimension_name(dimension)
    title = _("Scores as the weight of {dimension} goes from 0% to 100% (the others keep their proportions)")
    better = _("score (higher is better)") if sweep.higher_is_better else _("score (lower is better)")
    plotly_chart(
        weight_sweep_chart(
            sweep_frame(names, sweep.grid, sweep.scores),
            label,
            sweep.current_weight,
            tipping_weights,
            title.format(dimension=label),
            score_title=better,
        ),
        key="weight-sweep",
    )
    st.caption(_("Solid line: your current weight. Dashed red lines: where the leader changes."))


def method_agreement() -> None:
    """The ranking under each method with its default scaler, and Kendall's tau between them."""
    agreement = robust.agreement
    st.markdown(md(agreement.text(lang=_lang.current())))
    labels = [f"{k.upper()} / {s}" for k, s in zip(agreement.methods, agreement.scalers, strict=True)]
    named = [f"{k.upper()} = {label}" for k in agreement.methods if (label := _(METHODS[k].label)) != k.upper()]
    st.caption(md(_("Each method with its default scaler (method / scaler). {names}.").format(names="; ".join(named))))
    st.markdown(_("**Rank under each method**"))
    method_ranks = pd.DataFrame(
        agreement.ranks.T, index=pd.Index(agreement.alternatives, name=_("alternative")), columns=labels
    )
    markdown_table(method_ranks.reindex([n for n in in_order if n in method_ranks.index]).reset_index())
    st.markdown(_("**Kendall's tau** between the rankings (1 = same order, -1 = reversed)"))
    tau = pd.DataFrame(agreement.kendall_tau, index=pd.Index(labels, name=_("method")), columns=labels)
    markdown_table(tau.astype(object).where(tau.notna(), "n/a").reset_index(), formats=dict.fromkeys(labels, ".2f"))
    for skipped, why in agreement.skipped.items():
        st.caption(md(_("{method} skipped: {why}").format(method=skipped, why=why)))


def rank_reversal() -> None:
    """Whether removing an alternative or adding a copy of one reorders the others."""
    reversal = robust.reversal
    (st.warning if reversal.any_reversal else st.success)(md(reversal.text(lang=_lang.current())))
    markdown_table(
        pd.DataFrame(
            [
                {
                    _("change"): (_("remove {option}") if p.kind == "remove" else _("add a copy of {option}")).format(
                        option=p.subject
                    ),
                    _("order of the others changed"): _("yes") if p.changed else _("no"),
                    _("swapped"): "; ".join(f"{a} / {b}" for a, b in p.swapped_pairs),
                    _("ties changed"): "; ".join(f"{a} / {b}" for a, b in p.tie_changes),
                }
                for p in reversal.perturbations
            ]
        )
    )


section_tabs(
    {
        _("Rank acceptability (SMAA)"): rank_acceptability,
        _("Tipping points"): tipping_points,
        _("Do the methods agree?"): method_agreement,
        _("Rank reversal"): rank_reversal,
    },
    key="rb-section",
)
