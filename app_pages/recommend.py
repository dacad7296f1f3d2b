"""Recommend: what you choose and its weights, the ranking first, then the scenario, decision path and evidence."""

from __future__ import annotations

import streamlit as st
from pydantic import ValidationError

from app_pages import _lang
from app_pages._cached import uses_uploads
from app_pages._decision_path import decision_path, scenario_questions
from app_pages._lang import _
from app_pages._limits import must_have_box
from app_pages._requirement import requirement_box, requirement_notes
from app_pages._session import check_prefs, current_prefs, prefs_in_force, reset_prefs, session_kb, set_prefs
from app_pages._weigh import elicited_caption, weigh_box
from app_pages._widgets import (
    KeptFigure,
    expander_drawn_when_open,
    markdown_table,
    reference_date,
    session_figure,
    show_claim,
    sync_widget,
    untitled_chart,
)
from app_pages._workload import workload_form
from selector import display, i18n, verdict
from selector.charts.contributions import contribution_bars, restack_contribution_bars
from selector.decision import basis, decision_tree, matrix, recommend
from selector.decision.preferences import (
    CRITERION_WEIGHT_RANGE,
    DIMENSION_WEIGHT_RANGE,
    MISSING_HELP,
    MISSING_POLICIES,
    PreferenceError,
    Preferences,
)
from selector.decision.problem import METHODS
from selector.errors import SelectorError, validation_refusals
from selector.escape import streamlit_label as label
from selector.escape import streamlit_md as md
from selector.measure import compare
from selector.value import SWING_WEIGHT_MEANING
from selector.views.recommend import (
    FILLED_MARK,
    FLAG_MARK,
    badge_help,
    cell_choices,
    cell_footnotes,
    contributions_frame,
    criterion_profile,
    exclusions_table,
    imputed_table,
    matrix_display,
    ranking_markdown,
)

kb = session_kb()
prefs = current_prefs(kb)
group = kb.groups[prefs.group]
answers = decision_tree.resolve_answers(kb, prefs.answers)
criterion_weights = prefs.checked(kb).criterion_weights
spec = METHODS[prefs.method]
# the method's name in the session's language (METHODS keeps the English, marked for the catalog)
METHOD_LABEL = _(spec.label)
# every method's name, translated in this run: a format_func is also called outside it (AppTest reads the options)
METHOD_LABELS = {name: _(method.label) for name, method in METHODS.items()}


SLIDER_WIDTH = 220  # px


def _share_in_dimension(criterion_id: str) -> float:
    """The share of its dimension that a sub-criterion's relative weight gives it in this group."""
    dimension = kb.criteria[criterion_id].dimension
    weights = [
        criterion_weights[gc.criterion] for gc in group.criteria if kb.criteria[gc.criterion].dimension == dimension
    ]
    return criterion_weights[criterion_id] / sum(weights) if sum(weights) else 0.0


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else float(value)


def _name(record) -> str:  # noqa: ANN001 - a Dimension, Criterion or Group
    """A record's name in the session's language."""
    return _lang.pick(record.name_en, record.name_zh)


def _dimension_weights_from_widgets() -> dict[str, float]:
    ss = st.session_state
    moved = ((d, float(ss[f"w-{d.id}"])) for d in kb.dimensions.values())
    return {d.id: value for d, value in moved if value != d.weight}


def _prefs_from_widgets(*, keep_sub_weights: bool = True, keep_scaler: bool = True) -> Preferences | None:
    """The preferences the widgets show; None (the reason kept for the page) when they do not validate.

    The sub-criterion sliders and the must-have controls are drawn only while their box is open: a control that
    is not drawn has no state, and keeps the value in force.
    """
    ss = st.session_state
    in_force = prefs_in_force(kb)
    chosen = {q.id: ss.get(f"q-{q.id}") for q in kb.questions.values()}
    crits = {}
    if keep_sub_weights:
        for gc in group.criteria:
            value = ss.get(f"cw-{gc.criterion}", in_force.criterion_weights.get(gc.criterion, gc.weight))
            if float(value) != gc.weight:
                crits[gc.criterion] = float(value)
    try:
        return Preferences(
            group=ss["group"],
            answers={q: a for q, a in chosen.items() if a is not None},
            dimension_weights=_dimension_weights_from_widgets(),
            criterion_weights=crits,
            method=ss["method"],
            scaler=None if not keep_scaler or ss["scaler"] == "default" else ss["scaler"],
            missing=ss["missing"],
            use_flagged=ss["use-flagged"],
            constraints=in_force.constraints,
            exclude_vendors=ss.get("must-vendors", in_force.exclude_vendors),
            exclude=ss.get("must-exclude", in_force.exclude),
            keep_unknown=ss.get("must-keep-unknown", in_force.keep_unknown),
            elicitation=in_force.elicitation,
            workload=in_force.workload,
            requirement=in_force.requirement,
        )
    except ValidationError as exc:
        ss["control-error"] = validation_refusals(exc)  # a phrase: said in the page's language when shown
        return None


def _apply(candidate: Preferences | None) -> bool:
    """Make `candidate` the preferences in force (in the URL), or keep the page's and say why it cannot be ranked."""
    if candidate is None:
        return False
    try:
        check_prefs(kb, candidate)
    except PreferenceError as exc:
        st.session_state["control-error"] = exc.message
        return False
    st.session_state.pop("control-error", None)
    st.session_state.pop(UNDO_RESET, None)  # a change after a reset keeps what it changed: nothing to undo
    set_prefs(candidate)
    return True


def on_limits(limits: tuple[str, ...]) -> bool:
    """The limits picker: these limits in force, the rest unchanged."""
    return _apply(Preferences.model_validate({**prefs_in_force(kb).model_dump(), "constraints": limits}))


def on_dimension_weight() -> None:
    """The four dimension sliders, the hottest path: only the dimension weights changed. The sliders give finite
    values in 0..100, so the preferences in force are copied rather than rebuilt and validated. Weights moved by
    hand are no longer the elicited ones: the record of the elicitation goes."""
    weights = _dimension_weights_from_widgets()
    _apply(prefs_in_force(kb).model_copy(update={"dimension_weights": weights, "elicitation": None}))


def on_weighed(update: dict) -> None:
    """The "Help me weigh" box: its weights and the record of the answers become the preferences in force."""
    _apply(prefs_in_force(kb).model_copy(update=update))


def on_group() -> None:
    """The group picker: sub-criterion weights belong to a group, so a new group starts from its defaults."""
    _apply(_prefs_from_widgets(keep_sub_weights=False))


def on_method() -> None:
    """The method picker: the scaler goes back to the new method's default."""
    _apply(_prefs_from_widgets(keep_scaler=False))


def on_setting() -> None:
    """Every other control (answers, sub-criterion weights, scaler, missing values, flagged claims, must-haves)."""
    _apply(_prefs_from_widgets())


def on_clear_answers() -> None:
    """The "clear my answers" button: every scenario question back to unanswered."""
    for question in kb.questions.values():
        st.session_state[f"q-{question.id}"] = None
    on_setting()


UNDO_RESET = "undo-reset"  # session_state: the preferences a reset replaced, until undone or changed


def on_reset() -> None:
    """The reset button: back to the default group, answers, weights, limits, method and policy; undoable."""
    st.session_state.pop("control-error", None)
    st.session_state[UNDO_RESET] = prefs_in_force(kb)
    reset_prefs()


def on_undo_reset() -> None:
    """The undo button: every setting the reset replaced comes back (group, answers, limits, weights, method)."""
    _apply(st.session_state.get(UNDO_RESET))


def _sub_criterion_sliders() -> None:
    """The relative weight of each criterion of the group inside its dimension, with the share it gives."""
    st.caption(_("Relative weights inside each dimension: only their proportions count; 0 leaves a criterion out."))
    for gc in group.criteria:
        criterion = kb.criteria[gc.criterion]
        dimension = _name(kb.dimensions[criterion.dimension])
        share = f"{_share_in_dimension(gc.criterion):.0%}"
        sync_widget(f"cw-{gc.criterion}", float(criterion_weights[gc.criterion]))
        st.slider(
            label(
                _("{criterion}: relative weight → {share} of {dimension}").format(
                    criterion=_name(criterion), share=share, dimension=dimension
                )
            ),
            min_value=CRITERION_WEIGHT_RANGE[0],
            max_value=CRITERION_WEIGHT_RANGE[1],
            value=st.session_state[f"cw-{gc.criterion}"],
            step=0.5,
            key=f"cw-{gc.criterion}",
            on_change=on_setting,
            help=md(
                (
                    _("{unit}, higher is better") if criterion.objective == "max" else _("{unit}, lower is better")
                ).format(unit=_lang.pick(criterion.unit, criterion.unit_zh))
            ),
        )


# ----------------------------------------------------------------------------------------------------------
# Sidebar: sub-criterion weights and how to score (the four dimension weights sit with the ranking they move)

with st.sidebar:
    st.header(_("Fine-tune the criteria"))
    # Its sliders are drawn only while it is open: drawn closed, they and the must-have controls would slow every
    # visit's first render in the browser (benchmarks/bench_browser.py) for controls most visits never touch.
    expander_drawn_when_open(
        label(_("Sub-criterion weights ({group})").format(group=_name(group))), "cw-box", _sub_criterion_sliders
    )
    st.header(_("How to score"))
    sync_widget("method", prefs.method)
    st.selectbox(
        _("Method"),
        options=list(METHODS),
        format_func=METHOD_LABELS.__getitem__,
        key="method",
        on_change=on_method,
        help=_(spec.rationale),
    )
    sync_widget("scaler", prefs.scaler or "default")
    default_scaler = _("default ({scaler})").format(scaler=spec.default_scaler)
    st.selectbox(
        _("Normalisation (scaler)"),
        options=["default", *spec.scalers],
        format_func=lambda s: default_scaler if s == "default" else s,
        key="scaler",
        on_change=on_setting,
        help=_("The normalisation can decide the winner: the result always states which one was used."),
    )
    sync_widget("missing", prefs.missing)
    st.selectbox(
        _("Missing values"),
        options=list(MISSING_POLICIES),
        key="missing",
        on_change=on_setting,
    )
    st.caption(md(_(MISSING_HELP[prefs.missing])))
    sync_widget("use-flagged", prefs.use_flagged)
    st.toggle(
        _("Use flagged claims"),
        key="use-flagged",
        on_change=on_setting,
        help=_("Flagged claims contradict a datasheet, cannot be verified or look implausible (see Evidence)."),
    )
    st.button(
        _("Reset to defaults"),
        key="reset",
        on_click=on_reset,
        icon=":material/restart_alt:",
        help=_("Group, answers, weights, limits, method and policy back to their defaults (undoable)."),
    )
    if UNDO_RESET in st.session_state:
        st.button(_("Undo the reset"), key="undo-reset-button", on_click=on_undo_reset, icon=":material/undo:")


st.title(_("Recommend an AI stack"))
# The requirement first (one line until opened), then the answer: the verdict, its reason and the ranking's top on
# the first screen of a laptop and a phone; the weights, the group and the limits below it.
requirement_box(kb, prefs, _apply)
path = decision_tree.evaluate(kb, answers, prefs.use_flagged)


def _group_choice(choice, pointed_at: bool) -> str:  # noqa: ANN001 - a Group
    # English shows the Chinese name beside the English one (as the knowledge's pages do); Chinese shows its own
    if _lang.current() == "zh":
        name = choice.name_zh or choice.name_en
    else:
        name = choice.name_en + (f" ({choice.name_zh})" if choice.name_zh else "")
    return name + (_(" ★ your answers point here") if pointed_at else "")


def _what_is_ranked() -> None:
    """The group picker (what you are choosing), why it is offered and the limits: the expert controls."""
    choices = {c.id: c for c in decision_tree.group_order(kb, answers)}
    sync_widget("group", prefs.group)
    st.selectbox(
        _("What are you choosing?"),
        options=list(choices),
        # labels made during the run (a format_func runs again outside it, where the session's language is unknown)
        format_func={g: _group_choice(kb.groups[g], c.pointed_at) for g, c in choices.items()}.__getitem__,
        key="group",
        on_change=on_group,
        help=_("Groups your scenario answers (under the ranking) point at come first."),
    )
    why_group = choices[group.id].reasons
    reason = _(" Offered first because {reasons}.").format(reasons="; ".join(why_group)) if why_group else ""
    st.caption(md(_lang.pick(group.description_en, group.description_zh) + reason))
    if not path.shortlisted(group.id):
        st.caption(
            md(
                _("Decision trees: {advice}.").format(
                    advice=path.advice(group.id, kb.entity_name, lang=_lang.current())
                )
            )
        )
    must_have_box(kb, group, prefs, on_setting, on_limits, lambda: prefs_in_force(kb), "control-error")
    workload_form(kb, prefs)


try:
    # The ranking's layout without its weights: which criteria each dimension ranks here (sub-weights and limits
    # rerun the page, not only the fragment). The fragment draws any error.
    m = matrix.build(kb, prefs)
except PreferenceError:
    m = None  # the scenario below stays open (an answer may be what rules everything out); the evidence does not
BASIS = {} if m is None else {b.dimension: b for b in basis.dimension_basis(kb, m, lang=_lang.current())}
RANKS = {d: b.ranks for d, b in BASIS.items()}

# A slider's tooltip is the same on every move: written once per page run, not once per move.
DIMENSION_HELP = {
    dim.id: md(
        _lang.pick(dim.description_en, dim.description_zh)
        + _(
            " In this group it {ranks}. Relative weight: only the proportions between the four count; the percentage "
            "is this dimension's share of the decision."
        ).format(ranks=RANKS.get(dim.id) or _("ranks nothing"))
        + (f" {_(SWING_WEIGHT_MEANING)}" if spec.name == "mavt" else "")
    )
    for dim in kb.dimensions.values()
}


@st.fragment
def weights_and_ranking() -> None:
    """The four dimension weights and everything they change: ranking, leader, why, chart and badge.

    A fragment, so that moving one of these sliders reruns this function alone and not the page (the decision
    path and the evidence below do not depend on the dimension weights). It reads the preferences afresh:
    values computed by the page around it date from the page's last full run.
    """
    prefs = prefs_in_force(kb)
    try:
        rec = recommend.recommend(kb, prefs)
    except SelectorError as exc:
        rec, failure = None, exc
    # Everything the weights change is computed before anything is drawn: the numerical work in one stretch
    # measured faster per move than the same work interleaved with Streamlit's (benchmarks/bench_app_rerun.py).
    judged = None if rec is None else _verdict(prefs, rec)
    figure = None if rec is None else _contribution_figure(rec)
    if "control-error" in st.session_state:
        st.error(md(i18n.stored(st.session_state["control-error"], _lang.current())))
    if rec is None:
        st.error(
            _("This combination cannot be ranked: {error}").format(
                error=md(i18n.stored(failure.message, _lang.current()))
            )
        )
    else:
        _ranking(rec, judged, figure)
    st.subheader(_("What matters to you"))
    requirement_notes(kb, prefs)
    _dimension_sliders(prefs, rec)
    elicited_caption(kb, prefs)


def _ranking(rec: recommend.Recommendation, judged: verdict.Verdict, figure: KeptFigure | None) -> None:
    # One Markdown element for the verdict, the ranking and its notes: in the browser each element of the fragment
    # costs milliseconds on every slider move (benchmarks/bench_browser.py). The ranking is Markdown, not a data
    # grid (a grid mounts a canvas on every move), and takes the page's width: beside a chart, rank, name and score
    # did not fit a laptop screen. The tooltip explains the robustness badge, the first thing under the headline.
    st.markdown(
        ranking_markdown(rec, judged, METHOD_LABEL, lang=_lang.current()),
        help=None if judged.local_share is None else badge_help(lang=_lang.current()),
    )
    # the reader of a phone sees the verdict, its reason and the ranking's top first (tests/e2e/test_first_screen.py)
    if figure is not None:
        untitled_chart(figure, key="contribution-chart")
        if rec.result.contributions is None:
            st.caption(
                _(
                    "{method} does not add criteria up; the bars show each criterion's weighted min-max "
                    "performance (1 = best in its column, times its weight) as a picture of the profile."
                ).format(method=METHOD_LABEL)
            )


def _dimension_sliders(prefs: Preferences, rec: recommend.Recommendation | None) -> None:
    """The four dimension weights, each label showing the share of the decision it gives."""
    dimension_weights = prefs.checked(kb).dimension_weights
    # The share of the decision each slider gives: a dimension with no criterion in this group passes its weight on.
    total = sum(dimension_weights.values())
    shares = rec.matrix.dimension_weights if rec else {d: w / total for d, w in dimension_weights.items() if total}
    # One flex container (a column layout would send five layout blocks on every move) of sliders wide enough
    # for single steps of the 0-100 scale and a two-line label: four a row on a wide screen, two on a laptop.
    with st.container(horizontal=True, gap="medium"):
        for dim in kb.dimensions.values():
            value = sync_widget(f"w-{dim.id}", _number(round(dimension_weights[dim.id])))
            # each slider with what it ranks in this group right under it (criteria and their shares)
            with st.container(width=SLIDER_WIDTH, gap=None, key=f"dim-{dim.id}"):
                _dimension_slider(dim, value, shares)
                if dim.id in BASIS:
                    st.caption(md(BASIS[dim.id].equals))


def _dimension_slider(dim, value: float, shares: dict[str, float]) -> None:  # noqa: ANN001 - a Dimension
    st.slider(
        label(
            _("{dimension}: relative weight → {share}").format(
                dimension=dim.name_zh if _lang.current() == "zh" else f"{dim.name_en} ({dim.name_zh})",
                share=f"{shares.get(dim.id, 0.0):.0%}",
            )
        ),
        min_value=DIMENSION_WEIGHT_RANGE[0],
        max_value=DIMENSION_WEIGHT_RANGE[1],
        # the value the state holds, given explicitly: without one, Streamlit copies the whole session state to
        # find out whether the slider is a range, on every move
        value=value,
        step=1,
        key=f"w-{dim.id}",
        on_change=on_dimension_weight,
        help=DIMENSION_HELP[dim.id],
    )


# The contribution chart's title names what it shows: what each criterion adds, for a method whose score is a sum
# of parts, or the criterion profile behind a score that is not.
CHART_TITLE = (
    _("What each criterion adds to the score ({method})")
    if spec.contributions
    else _("The criterion profile behind the {method} score")
).format(method=METHOD_LABEL)
CHART_TOGGLE = (
    _("Show what each criterion adds to the score ({method}) as a chart")
    if spec.contributions
    else _("Show the criterion profile behind the {method} score as a chart")
).format(method=METHOD_LABEL)
CHART_KEY = "show-contribution-chart"


def _contribution_figure(rec: recommend.Recommendation) -> KeptFigure | None:
    """The chart of what each criterion adds to each option's score (stacked bars, following the weights); None
    until the user asks for it.

    The chart waits for the user: drawing it first would load plotly's ~4.7 MB script with the page and hold up
    the ranking (benchmarks/bench_browser.py). The toggle that asks for it sits under the fragment and names
    the chart, so a slider move redraws the chart alone: no widget and no title of its own.
    """
    if not st.session_state.get(CHART_KEY):
        return None
    result, m = rec.result, rec.matrix
    if result.contributions is not None:
        parts, x_title = result.contributions, _("contribution to the score")
    else:
        parts, x_title = criterion_profile(m), _("weighted min-max performance (not additive)")
    order = [r.name for r in rec.ranking]
    # the filled-in cells are part of the figure (hatched): another missing-value policy or flag setting can fill
    # other cells
    filled = tuple((c.alternative, c.criterion) for c in m.imputed_cells)
    figure = session_figure(
        "contribution-figure",
        (kb.data_hash, m.group, m.alternatives, m.criteria, filled, CHART_TITLE, x_title),
        lambda: contribution_bars(contributions_frame(kb, m, parts), order, CHART_TITLE, x_title),
    )
    values = {kb.entity_name(a): parts[i] for i, a in enumerate(m.alternatives)}
    restack_contribution_bars(figure.spec, values, order)
    return figure


def _verdict(prefs: Preferences, rec: recommend.Recommendation) -> verdict.Verdict:
    """The verdict the Export page, the report and `rank` give for the same preferences (selector.verdict)."""
    try:
        whole = verdict.whole_simplex_share(kb, prefs, rec.recommended_entry.name)
        return verdict.judge(rec, local_share=verdict.local_share(rec), global_share=whole, lang=_lang.current())
    except SelectorError:
        return verdict.judge(rec, compute=False, lang=_lang.current())


weights_and_ranking()
weigh_box(kb, prefs, on_weighed)
st.toggle(
    label(CHART_TOGGLE),
    key=CHART_KEY,
    help=_("A stacked bar per option: each criterion's share of its score. It follows the weights."),
)
# What the weights mean and what each ranks here: under the ranking (each slider's tooltip says it too), so that the
# answer stays on a phone's first two screens.
if RANKS:
    st.caption(
        md(
            (f"{_(SWING_WEIGHT_MEANING)} " if spec.name == "mavt" else f"{METHOD_LABEL}: {_(spec.rationale)}. ")
            + _("Here: {ranks}.").format(
                ranks="; ".join(f"{_name(kb.dimensions[d])} {text}" for d, text in RANKS.items())
            )
        )
    )
st.subheader(_("What is ranked, and the limits"))
_what_is_ranked()

if m is not None:
    imputed = imputed_table(kb, m, lang=_lang.current())
    excluded = exclusions_table(kb, m, lang=_lang.current())
    if len(imputed) or len(excluded):
        with st.expander(
            _("Filled-in values ({filled}) and exclusions ({excluded})").format(
                filled=len(imputed), excluded=len(excluded)
            ),
            expanded=bool(len(imputed)),
        ):
            if len(imputed):
                st.markdown(_("**Cells without evidence**, filled by policy {policy}:").format(policy=m.missing_policy))
                markdown_table(imputed)
            if len(excluded):
                st.markdown(_("**Left out of the ranking:**"))
                markdown_table(excluded)

# ----------------------------------------------------------------------------------------------------------
# Scenario and decision path (below the ranking: the answer first, and a slider move does not rerun them)

st.divider()
ask, why_path = st.columns([2, 3], gap="large")
with ask:
    scenario_questions(kb, answers, on_setting, on_clear_answers)
with why_path:
    decision_path(kb, path, group, answers)

# ----------------------------------------------------------------------------------------------------------
# Evidence behind every cell

if m is None:
    st.stop()
st.divider()
st.subheader(_("Evidence behind every number"))
markdown_table(matrix_display(kb, m, lang=_lang.current()).reset_index())
st.caption(
    _("{filled}: no evidence, filled in by the missing-value policy. {flagged}: rests on a flagged claim.").format(
        filled=_(FILLED_MARK), flagged=FLAG_MARK
    )
)
footnotes = cell_footnotes(kb, m, reference_date())
if len(footnotes):
    with st.expander(_("Footnotes of the numbers from public datasets ({count})").format(count=len(footnotes))):
        markdown_table(footnotes)
cells = cell_choices(kb, m)
# one picker per group: a group switch starts on the new group's first cell, never one of the previous group
# (a browser kept showing the old choice when the same key got new options)
chosen = st.selectbox(_("Show the evidence of a cell"), options=list(cells), key=f"cell-{m.group}")
row, col = cells[chosen]
cell = m.cells[row][col]
criterion = kb.criteria[cell.criterion]
st.markdown(
    f"**{md(chosen)}**: {md(display.quantity(cell.value, criterion.unit))}"
    + (f" · {md(i18n.stored(cell.note, _lang.current()))}" if cell.note else "")
)
if not cell.evidence:
    st.caption(_("No claim supports this cell; its value comes from the missing-value policy."))
for claim_id in cell.evidence:
    show_claim(kb, claim_id)

measured = compare.for_entities(compare.comparisons(kb), m.alternatives) if uses_uploads(kb) else []
yours = [(r, c) for r, row_cells in enumerate(m.cells) for c in row_cells if c.tier == "measured"]
if measured or yours:
    st.subheader(_("Your measurements beside the published figures"))
    if yours:
        cells_text = ", ".join(
            f"{kb.entity_name(c.alternative)} / {_name(kb.criteria[c.criterion])}" for __, c in yours
        )
        st.caption(
            md(
                _("Cells filled by your own measurements (tier measured, ranked first): {cells}.").format(
                    cells=cells_text
                )
            )
        )
    for item in measured:
        st.markdown(f"- **{md(item.entity_name)}**, {md(f'{item.metric}: {item.sentence_in(_lang.current())}')}")
        for warning in item.warnings_in(_lang.current()):
            st.markdown(f"    - :warning: {md(warning)}")
