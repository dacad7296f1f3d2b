"""The one statement of what a ranking recommends: the same words on the Recommend and Export pages, in the report,
from ``rank`` and in the CSV/XLSX files.

Definitions (README, "The verdict"):

* the **leader** is rank 1 of the score; alternatives sharing rank 1 are an exact **tie**;
* the **recommended** alternative is the best-ranked one the decision trees shortlist in this group, or the leader
  when they shortlist none;
* a lead is **too close to call** when the leader is first in under half of the weightings within +/-10 points of
  the user's dimension weights, or when its score gap to the runner-up is under 1 % of the range of the method's
  score scale (:mod:`selector.closeness`: from the worst to the best option the criteria's scales allow);
* the leader **depends on filled-in values** when ranking with every filled-in cell at its worst, or at its best,
  plausible value (the criterion's ``scale``) puts another alternative first;
* the **badge** describes the recommended option and names it; a lead that rests on flagged cells
  (:mod:`selector.flagged_lead`) is not called robust, and the badge and the verdict name those cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from selector import closeness, flagged_lead, i18n
from selector.decision import recommend, vectorised
from selector.decision.preferences import Preferences
from selector.decision.problem import METHODS, ScoringError
from selector.decision.recommend import RankedAlternative, Recommendation
from selector.decision.scoring import TIE_RTOL, first_ranked, leader_index
from selector.knowledge.models import KnowledgeBase
from selector.memo import PerKnowledge, PerObject
from selector.robustness import analysis, figure
from selector.robustness.sampling import sample_matrices

LOCAL_SPREAD = figure.SPREAD  # +/- 10 percentage points of each dimension weight
SAMPLES = figure.SAMPLES
SEED = figure.SEED
CLOSE_SHARE = figure.CLOSE
CLOSE_GAP = closeness.CLOSE_GAP


@dataclass(frozen=True)
class GapCheck:
    """The leader with every filled-in cell at its worst and at its best plausible value."""

    leader_at_worst: str
    leader_at_best: str
    cells: tuple[str, ...]  # "alternative / criterion" of the filled-in cells that decide it

    @property
    def changes(self) -> bool:
        return bool(self.cells)


@dataclass(frozen=True)
class Verdict:
    """What a ranking recommends, with ties, near ties, robustness and gaps, in one set of words."""

    recommended: str
    recommended_name: str
    recommended_rank: int
    leader: str
    leader_name: str
    tied: tuple[str, ...]  # names sharing rank 1 (two or more: an exact tie)
    close: tuple[str, ...]  # names in a lead too close to call, else ()
    close_reason: str
    local_share: float | None
    global_share: float | None
    method_leaders: dict[str, str] = field(default_factory=dict)  # method label -> its leader's name
    gaps: GapCheck | None = None
    headline: str = ""
    details: tuple[str, ...] = ()
    flagged: flagged_lead.FlaggedLead | None = None
    lang: i18n.Language = "en"  # the language of the words (headline, details, badge); the ids stay as they are

    @property
    def is_tie(self) -> bool:
        return len(self.tied) > 1

    @property
    def rests_on_flags(self) -> bool:
        """True when the recommended option's lead rests on flagged cells: it is not called robust."""
        return self.flagged is not None and self.flagged.decides

    @property
    def badge(self) -> str:
        """The robustness badge of the recommended option, named: around your weights, then over any weighting;
        "not robust" with the flagged cells when its lead rests on them."""
        _ = i18n.translator(self.lang)
        if self.local_share is None:
            return f"{self.recommended_name}: " + _("robustness not computed")
        text = figure.badge(self.recommended_name, self.local_share, SAMPLES, self.global_share, lang=self.lang)
        if self.rests_on_flags:
            text += " · " + _("not robust: its lead rests on flagged cells ({cells})").format(
                cells="; ".join(self.flagged.cells)
            )
        return text

    def to_dict(self) -> dict:
        return {
            "headline": self.headline,
            "details": list(self.details),
            "recommended": self.recommended,
            "leader": self.leader,
            "tie": list(self.tied) if self.is_tie else [],
            "too_close_to_call": list(self.close),
            "local_first_share": self.local_share,
            "global_first_share": self.global_share,
            "method_leaders": dict(self.method_leaders),
            "depends_on_filled_in": list(self.gaps.cells) if self.gaps else [],
            "badge": self.badge,
            "badge_for": self.recommended,
            "rests_on_flagged_cells": list(self.flagged.cells) if self.rests_on_flags else [],
        }


def _names(items: tuple[str, ...] | list[str], lang: i18n.Language = "en") -> str:
    return i18n.join_names(items, lang=lang)


def gap_check(rec: Recommendation) -> GapCheck | None:
    """Rank with every filled-in cell at its worst, then at its best, plausible value; None without filled-in cells.

    The plausible range is the criterion's ``scale``, or the observed column when it has none.
    """
    p = _prepared(rec, SAMPLES, SEED)
    if p.extremes is None:
        return None
    m = rec.matrix
    weights, higher = m.weights[None], p.scorer.spec.higher_is_better
    leaders = [
        m.alternatives[leader_index(p.scorer.scores(weights, prepared[None])[0], higher)] for prepared in p.extremes
    ]
    leader = rec.leader.id
    movers = {a for a in leaders if a != leader}
    cells: tuple[str, ...] = ()
    if movers:
        involved = movers | {leader}
        mask = m.missing_mask
        cells = tuple(
            f"{rec_name(rec, m.alternatives[i])} / {m.criteria[j]}"
            for i, j in zip(*np.nonzero(mask), strict=True)
            if m.alternatives[i] in involved
        )
    return GapCheck(rec_name(rec, leaders[0]), rec_name(rec, leaders[1]), cells)


def rec_name(rec: Recommendation, alternative: str) -> str:
    return next(r.name for r in rec.ranking if r.id == alternative)


_UNSET = object()


class _Prepared:
    """What the verdict needs of one matrix that no weight changes: scorers, sampled matrices and local offsets.

    Kept per matrix layout (the layout's cells object is shared by every weighting of it, see selector.decision.matrix),
    so
    a new weighting costs a few array products instead of a new SMAA run.
    """

    def __init__(self, rec: Recommendation, samples: int, seed: int):
        m = rec.matrix
        values = m.values
        self.scorer = vectorised.Scorer(rec.problem)
        ranges = analysis.cell_ranges(rec)
        lo, hi = values.copy(), values.copy()
        unc = np.zeros(values.shape, dtype=bool)
        for (a, c), (low, high) in ranges.items():
            i, j = m.alternatives.index(a), m.criteria.index(c)
            lo[i, j], hi[i, j], unc[i, j] = low, high, True
        rng_offsets, rng_cells = np.random.default_rng(seed).spawn(2)
        self.sampled = self.scorer.prepare(sample_matrices(lo, hi, unc, samples, rng_cells)) if unc.any() else None
        self.offsets = _zero_sum_offsets(len(m.hierarchy.dimensions), samples, LOCAL_SPREAD, rng_offsets)
        self.methods = {}
        for method in METHODS.values():
            try:
                self.methods[method.label] = vectorised.Scorer(rec.problem.with_method(method.name))
            except ScoringError:
                continue
        worst, best = _extremes(m)
        self.extremes = None
        if worst is not None:
            self.extremes = (self.scorer.prepare(worst), self.scorer.prepare(best))
        self._projections: dict[bytes, tuple[np.ndarray, np.ndarray | None] | None] = {}

    def projected(self, spreading: np.ndarray) -> tuple[np.ndarray, np.ndarray | None] | None:
        """The local weightings' scores per dimension share, for a method linear in the weights; else None.

        A weighting ``w = dims @ S / z`` (S the (d, n) spreading of dimension shares onto criteria, z its row sum)
        scores ``dims @ (g @ S.T) / z``. So this returns ``g @ S.T`` ((m, d), or (k, m, d) paired with the sampled
        matrices) and, with sampled matrices, what each local offset adds ((k, m)): a slider move then costs a
        product over the d dimensions instead of spreading every weighting and a product over every criterion.
        Kept per spreading (the sub-criterion weights), a few at a time.
        """
        key = spreading.tobytes()
        # read once: sessions share this object, and another one may clear the dict between a check and a read
        found = self._projections.get(key, _UNSET)
        if found is _UNSET:
            terms = self.scorer.linear_terms(self.sampled)
            found = None
            if terms is not None:
                per_dimension = terms @ spreading.T
                offsets = None if self.sampled is None else np.einsum("kmd,kd->km", per_dimension, self.offsets)
                found = (per_dimension, offsets)
            if len(self._projections) >= 8:
                self._projections.clear()
            self._projections[key] = found
        return found


def _zero_sum_offsets(d: int, size: int, spread: float, rng: np.random.Generator) -> np.ndarray:
    """`size` offsets drawn uniformly on {o in [-spread, spread]^d, sum(o) = 0} (rejection on the last coordinate).

    Added to a weighting and kept where no share turns negative, they are uniform on the part of the simplex
    within +/- spread of it: the same region that ``analysis.acceptability(spread=...)`` samples.
    """
    if d < 2:
        return np.zeros((size, d))
    found: list[np.ndarray] = []
    count = 0
    while count < size:
        free = rng.uniform(-spread, spread, (2 * size, d - 1))
        last = -free.sum(axis=1, keepdims=True)
        keep = np.abs(last[:, 0]) <= spread
        block = np.hstack([free, last])[keep]
        found.append(block)
        count += len(block)
    return np.vstack(found)[:size]


def _extremes(m) -> tuple[np.ndarray | None, np.ndarray | None]:  # noqa: ANN001 - DecisionMatrix
    mask = m.missing_mask
    if not mask.any():
        return None, None
    values = m.values
    worst, best = values.copy(), values.copy()
    for i, j in zip(*np.nonzero(mask), strict=True):
        lo, hi = m.scales[j]
        if not (np.isfinite(lo) and np.isfinite(hi)):
            column = values[~mask[:, j], j]
            lo, hi = float(column.min()), float(column.max())
        low_good = m.objectives[j] == "min"
        worst[i, j] = hi if low_good else lo
        best[i, j] = lo if low_good else hi
    return worst, best


_PREPARED = PerObject(64)


def _prepared(rec: Recommendation, samples: int, seed: int) -> _Prepared:
    m = rec.matrix
    key = (rec.prefs.method, rec.prefs.scaler, m.hierarchy.dimensions, samples, seed)
    return _PREPARED.get(m.cells, key, lambda: _Prepared(rec, samples, seed))


def local_share(rec: Recommendation, samples: int = SAMPLES, seed: int = SEED) -> float:
    """The recommended option's share of first places over weightings within +/-10 points of each current
    dimension weight (the leader's, when the rules recommend nothing else).

    Weightings are drawn uniformly on that part of the simplex (each dimension's share spread over its criteria by
    the sub-criterion weights, as on the Robustness page); filled-in cells are drawn over their plausible range.
    """
    p = _prepared(rec, samples, seed)
    m = rec.matrix
    shares = m.hierarchy.shares
    dims = shares + p.offsets
    # The weightings that stay on the simplex. Offsets lie within +/-LOCAL_SPREAD, so only a dimension whose share
    # is below that can turn negative: its column alone is checked (most weightings check none).
    on_simplex = None
    for j in np.flatnonzero(shares < LOCAL_SPREAD):
        column = dims[:, j] >= 0
        on_simplex = column if on_simplex is None else on_simplex & column
    trimmed = on_simplex is not None and not on_simplex.all()
    if trimmed:
        dims = dims[on_simplex]
    # weighting r is scored on sampled matrix r (the first len(dims) of them when some were left out)
    spreading = m.hierarchy.spreading
    projected = p.projected(spreading)
    if projected is None:  # TOPSIS, VIKOR: the weightings themselves
        prepared = None if p.sampled is None else p.sampled[: len(dims)]
        scores = p.scorer.scores(m.hierarchy.spread(dims), prepared)
    else:
        per_dimension, offset_scores = projected
        if offset_scores is None:
            scores = dims @ per_dimension.T
        elif trimmed:
            scores = np.einsum("kmd,kd->km", per_dimension[: len(dims)], dims)
        else:
            k, alternatives, d = per_dimension.shape
            scores = (per_dimension.reshape(-1, d) @ shares).reshape(k, alternatives) + offset_scores
        scores = scores / (dims @ spreading.sum(axis=1))[:, None]
    # who is first under each weighting (a max comparison, not a ranking of every alternative)
    firsts = first_ranked(scores, p.scorer.spec.higher_is_better)
    return float(firsts[:, m.alternatives.index(rec.recommended)].mean()) if firsts.size else float("nan")


def global_share(rec: Recommendation, samples: int = SAMPLES, seed: int = SEED) -> float:
    """The recommended option's share of first places over any weighting of the dimensions (the whole simplex).

    :func:`selector.robustness.analysis.acceptability` with these samples and seed: the Robustness page's figure.
    """
    smaa = analysis.acceptability(rec, samples=samples, seed=seed)
    return float(smaa.first_rank_acceptability[list(smaa.alternatives).index(rec.recommended_entry.name)])


# The whole simplex's shares per preferences without their dimension weights (see whole_simplex_share).
_WHOLE_SIMPLEX = PerKnowledge(size=256)


def whole_simplex_share(kb: KnowledgeBase, prefs: Preferences, leader_name: str) -> float:
    """:func:`global_share` of the alternative named `leader_name`, kept per knowledge and preferences.

    Sampling the whole simplex does not depend on where the dimension weights stand, and neither does the matrix,
    so the shares are computed once with the dimension weights at their defaults and every slider position reads
    them: a slider move is answered without sampling (the shares are shared, read-only).

    Raises
    ------
    selector.decision.problem.ScoringError, ValueError
        When the analysis cannot run on this ranking.
    """
    base = prefs.model_copy(update={"dimension_weights": {}})

    def compute() -> dict[str, float]:
        smaa = analysis.acceptability(recommend.recommend(kb, base), samples=SAMPLES, seed=SEED)
        return dict(zip(smaa.alternatives, map(float, smaa.first_rank_acceptability), strict=True))

    return _WHOLE_SIMPLEX.get(kb, base.model_dump_json(), compute)[leader_name]


def shares(rec: Recommendation, samples: int = SAMPLES, seed: int = SEED) -> tuple[float, float]:
    """:func:`local_share` and :func:`global_share`."""
    return local_share(rec, samples, seed), global_share(rec, samples, seed)


def method_leaders(rec: Recommendation) -> dict[str, str]:
    """Each method's leader under the current weights, by method label: the method ranked with the scaler in use
    (its leader is the ranking's), every other with its default scaler.

    A method whose top ties include the ranking's leader names that leader: with a three-way tie every method
    agrees, whichever of the tied options its list order would put first.
    """
    p = _prepared(rec, SAMPLES, SEED)
    names = [rec_name(rec, a) for a in rec.matrix.alternatives]
    shown = rec.matrix.alternatives.index(rec.ranking[0].id)
    leaders = {}
    weights = rec.matrix.weights[None]
    for label, scorer in p.methods.items():
        scores = scorer.scores(weights)[0]
        first = leader_index(scores, scorer.spec.higher_is_better)
        leaders[label] = names[shown if _ties_with_first(scores, scorer.spec.higher_is_better, first, shown) else first]
    in_use = METHODS.get(rec.prefs.method)
    if in_use is not None:
        # the displayed ranking is this method with the user's scaler: its leader is the ranking's, not the one
        # the method's default scaler would give (TOPSIS with min-max named a different leader than the table)
        leaders[in_use.label] = rec.ranking[0].name
    return leaders


def _ties_with_first(scores: Sequence[float], higher_is_better: bool, first: int, other: int) -> bool:
    """Whether alternative `other` ties the leader `first` (the comparison of
    :func:`selector.decision.scoring.leader_index`)."""
    values = [float(v) if higher_is_better else -float(v) for v in scores]
    tolerance = TIE_RTOL * max(1.0, *(abs(v) for v in values))
    return values[other] + tolerance >= values[first]


def judge(
    rec: Recommendation,
    *,
    local_share: float | None = None,
    global_share: float | None = None,
    leaders: dict[str, str] | None = None,
    compute: bool = True,
    lang: i18n.Language = "en",
) -> Verdict:
    """The verdict on `rec`, worded in `lang`. Shares and method leaders are computed unless given (or ``compute``
    is False)."""
    if compute and local_share is None:
        try:
            local_share, global_share = shares(rec)
        except (ScoringError, ValueError):
            local_share = global_share = None
    if compute and leaders is None:
        try:
            leaders = method_leaders(rec)
        except (ScoringError, ValueError):
            leaders = {}
    leaders = leaders or {}
    ranking = rec.ranking
    leader = ranking[0]
    recommended = rec.recommended_entry
    tied = tuple(r.name for r in ranking if r.rank == leader.rank)
    # a near tie of the top two matters when the recommendation is the leader; otherwise the rule's choice is named
    close, reason = _close_call(rec, local_share, lang) if len(tied) < 2 and recommended.id == leader.id else ((), "")
    gaps = gap_check(rec)
    flagged = flagged_lead.check(rec, rec.kb) if rec.kb is not None else None
    headline = _headline(ranking, recommended, tied, close, flagged, lang)
    _ = i18n.translator(lang)
    details = []
    conflict = rec.path.group_advice(rec.matrix.group).conflict
    if conflict:
        details.append(
            _("{conflict}; the recommendation follows the score alone.").format(
                conflict=f"{conflict[0].upper()}{conflict[1:]}"
            )
        )
    if close:
        details.append(_("{names} are too close to call: {reason}.").format(names=_names(close, lang), reason=reason))
    if recommended.id != leader.id:
        details.append(rec.preference_in(lang) or _why_recommended(ranking, recommended, lang))
    elif len(tied) > 1:
        details.append(_why_recommended(ranking, recommended, lang))
    if flagged is not None:
        details.append(flagged.sentence(lang=lang))
    if gaps and gaps.changes:
        details.append(
            _(
                "The leader depends on filled-in values: with them at their worst {worst} leads, at their best "
                "{best}; the cells: {cells}."
            ).format(worst=gaps.leader_at_worst, best=gaps.leader_at_best, cells=", ".join(gaps.cells))
        )
    if any(name != leader.name for name in leaders.values()):
        details.append(_methods_disagree(leaders, lang))
    return Verdict(
        recommended=recommended.id,
        recommended_name=recommended.name,
        recommended_rank=recommended.rank,
        leader=leader.id,
        leader_name=leader.name,
        tied=tied,
        close=close,
        close_reason=reason,
        local_share=local_share,
        global_share=global_share,
        method_leaders=dict(leaders),
        gaps=gaps,
        headline=headline,
        details=tuple(details),
        flagged=flagged,
        lang=lang,
    )


def _headline(ranking, recommended, tied, close, flagged, lang: i18n.Language = "en") -> str:  # noqa: ANN001
    leader = ranking[0]
    _ = i18n.translator(lang)
    if len(tied) > 1:
        return _("Tie for first: {names} (equal scores)").format(names=_names(tied, lang))
    if close:
        return _("Too close to call: {names}").format(names=_names(close, lang))
    if recommended.id != leader.id:
        return _(
            "Recommended: {name} (the articles' rule; ranks {rank} of {count} by your weights; score leader: {leader})"
        ).format(name=recommended.name, rank=recommended.rank, count=len(ranking), leader=leader.name)
    if flagged is not None and flagged.decides:
        return _("Recommended: {name} (its lead rests on flagged claims)").format(name=recommended.name)
    return _("Recommended: {name}").format(name=recommended.name)


def _close_call(
    rec: Recommendation, local_share: float | None, lang: i18n.Language = "en"
) -> tuple[tuple[str, ...], str]:
    """(leader, runner-up) and why, when the lead (not a tie) is too close to call; else ((), "").

    The score gap is compared with the range of the method's score scale (selector.closeness), so that the test
    works with two alternatives as with ten.
    """
    ranking = rec.ranking
    if len(ranking) < 2:
        return (), ""
    leader, runner = ranking[0], ranking[1]
    m = rec.matrix
    scaled = closeness.scale_range(rec.problem, m.scales, leader.score - runner.score)
    _ = i18n.translator(lang)
    if scaled is not None and closeness.too_close(scaled.gap, scaled.score_range, CLOSE_GAP):
        if scaled.bounded:
            reason = _(
                "the score gap is {share} of the score range from the worst to the best option the criteria's "
                "scales allow"
            )
        else:
            reason = _(
                "the score gap is {share} of the score range from the worst to the best option the criteria's "
                "scales and observed values allow"
            )
        return (leader.name, runner.name), reason.format(share=f"{scaled.share:.1%}")
    if local_share is not None and local_share < CLOSE_SHARE and rec.recommended == leader.id:
        reason = _("{name} is only {first_in}").format(
            name=leader.name, first_in=figure.first_in(local_share, SAMPLES, LOCAL_SPREAD, lang=lang)
        )
        return (leader.name, runner.name), reason
    return (), ""


def _why_recommended(
    ranking: Sequence[RankedAlternative], recommended: RankedAlternative, lang: i18n.Language = "en"
) -> str:
    """Why the recommendation is not simply the leader: the scenario's shortlist, or list order within a tie."""
    _ = i18n.translator(lang)
    if any(r.shortlisted for r in ranking):
        return _(
            "Recommended: {name}, the best-ranked option your scenario shortlists (rank {rank} of {count})."
        ).format(name=recommended.name, rank=recommended.rank, count=len(ranking))
    return _("Recommended: {name} (first of the tie in list order; no shortlist).").format(name=recommended.name)


def _methods_disagree(leaders: dict[str, str], lang: i18n.Language = "en") -> str:
    """Which methods pick which leader, grouped by the leader they pick."""
    _ = i18n.translator(lang)
    picks: dict[str, list[str]] = {}
    for label, name in leaders.items():
        picks.setdefault(name, []).append(label)
    groups = [
        (_("{methods} picks {name}") if len(labels) == 1 else _("{methods} pick {name}")).format(
            methods=_names([_(label) for label in labels], lang), name=name
        )
        for name, labels in picks.items()
    ]
    return _(
        "The methods disagree on the leader (each with its default scaler, the one ranked above as ranked): {groups}."
    ).format(groups="; ".join(groups))
