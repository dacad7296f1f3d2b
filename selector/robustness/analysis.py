"""How robust a recommendation is: SMAA over plausible weightings, tipping points, method agreement, rank reversal.

The numeric work is in the other modules of :mod:`selector.robustness`; this module decides what "plausible"
means for a ranking built from the knowledge base:

* weights are sampled over the four *dimensions* (the question users actually argue about), each dimension's
  share spread to its criteria by their sub-weights; optionally only within +/- ``spread`` of the current
  dimension weights. ``space="criteria"`` samples every criterion weight freely instead;
* cells without evidence (imputed) are uncertain: they are sampled uniformly over the criterion's documented
  plausible range (``scale`` in criteria.yaml), or the observed column range when none is documented.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from selector import i18n
from selector.decision.problem import Problem
from selector.decision.recommend import Recommendation
from selector.robustness import figure
from selector.robustness.agreement import MethodAgreement, method_agreement
from selector.robustness.reversal import RankReversalReport, rank_reversal
from selector.robustness.sampling import resolve_weight_bounds, sample_weights
from selector.robustness.smaa import SMAAResult, smaa
from selector.robustness.tipping import TippingPoint, tipping_points

Space = Literal["dimensions", "criteria"]
DEFAULT_SAMPLES = figure.SAMPLES
EDGE = 0.001


@dataclass(frozen=True)
class Robustness:
    """The robustness analyses of one recommendation, with the names shown to people."""

    smaa: SMAAResult
    tipping_points: tuple[TippingPoint, ...]
    agreement: MethodAgreement
    reversal: RankReversalReport
    space: str
    spread: float | None
    leader: str
    leader_share: float

    @property
    def badge(self) -> str:
        """E.g. "first in 56% of 2,000 weightings within ±10 points of yours" (:mod:`selector.robustness.figure`)."""
        return self.badge_text()

    def badge_text(self, *, lang: i18n.Language = "en") -> str:
        """:attr:`badge` in `lang`."""
        return figure.first_in(self.leader_share, self.smaa.n_samples, self.spread, lang=lang)

    def to_dict(self, *, lang: i18n.Language = "en") -> dict:
        """Return a JSON-safe dict (the body of ``python -m selector sensitivity --format json``); the sentences
        for people in `lang`, the keys and ids as they are."""
        return {
            "leader": self.leader,
            "leader_first_share": self.leader_share,
            "badge": self.badge_text(lang=lang),
            "weight_space": self.space,
            "spread": self.spread,
            "smaa": self.smaa.to_dict(),
            "tipping_points": [t.to_dict(lang=lang) for t in self.tipping_points],
            "method_agreement": self.agreement.to_dict(lang=lang),
            "rank_reversal": self.reversal.to_dict(lang=lang),
        }


def _weight_samples(rec: Recommendation, samples: int, seed: int, spread: float | None) -> np.ndarray:
    hierarchy = rec.matrix.hierarchy
    dims = hierarchy.dimensions
    rng = np.random.default_rng(seed)
    bounds = None if spread is None else resolve_weight_bounds(spread, hierarchy.shares, len(dims), dims)
    return hierarchy.spread(sample_weights(len(dims), samples, rng, bounds))


def cell_ranges(rec: Recommendation) -> dict[tuple[str, str], tuple[float, float]]:
    """(alternative id, criterion) -> the plausible (lo, hi) of each filled-in cell, as SMAA samples it."""
    dm = rec.matrix
    values = dm.values
    known = ~dm.missing_mask
    ranges = {}
    for i, j in zip(*np.nonzero(dm.missing_mask), strict=True):
        lo, hi = dm.scales[j]
        if not (np.isfinite(lo) and np.isfinite(hi)):
            column = values[known[:, j], j]
            lo, hi = float(column.min()), float(column.max())
        ranges[(dm.alternatives[i], dm.criteria[j])] = (float(lo), float(hi))
    return ranges


def _names(rec: Recommendation) -> tuple[str, ...]:
    dm = rec.matrix
    return tuple(r.name for r in sorted(rec.ranking, key=lambda r: dm.alternatives.index(r.id)))


def acceptability(
    rec: Recommendation,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    spread: float | None = None,
    space: Space = "dimensions",
    sample_missing: bool = True,
) -> SMAAResult:
    """SMAA-2 alone (rank acceptability, central weights, confidence): the part a robustness badge needs.

    Parameters are those of :func:`analyse`; alternatives are named by their display names.
    """
    dm = rec.matrix
    names = _names(rec)
    cells = None
    if sample_missing:
        cells = {(names[dm.alternatives.index(a)], c): r for (a, c), r in cell_ranges(rec).items()} or None
    if space == "dimensions":
        weight_samples, weight_bounds = _weight_samples(rec, samples, seed, spread), None
    else:
        weight_samples, weight_bounds = None, spread
    return smaa(
        named_problem(rec),
        n_samples=samples,
        seed=seed,
        weight_bounds=weight_bounds,
        cell_ranges=cells,
        weight_samples=weight_samples,
    )


def named_problem(rec: Recommendation) -> Problem:
    """The recommendation's problem with its alternatives under their display names, as the analyses name them."""
    return rec.problem.with_rows(range(len(rec.ranking)), _names(rec))


def analyse(
    rec: Recommendation,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    spread: float | None = None,
    space: Space = "dimensions",
    sample_missing: bool = True,
) -> Robustness:
    """Run every robustness analysis on ``rec`` (same method, scaler, matrix and weights).

    Parameters
    ----------
    rec
        The recommendation to examine.
    samples, seed
        Monte Carlo sample count and seed (the same seed gives the same result).
    spread
        None samples the whole weight simplex; a share d (e.g. 0.1) samples within +/- d of the current weights.
    space
        ``"dimensions"`` (default) or ``"criteria"``: which weights are sampled.
    sample_missing
        Sample imputed cells over their plausible range instead of holding them at the imputed value.
    """
    names = _names(rec)
    problem = named_problem(rec)
    acceptance = acceptability(
        rec, samples=samples, seed=seed, spread=spread, space=space, sample_missing=sample_missing
    )
    tips = tipping_points(problem, rec.matrix.hierarchy)
    # A change at a share of (almost) exactly 0 or 1 only says what happens when one dimension is all that
    # matters (or nothing): true, but no weighting anyone argues for.
    tips = [t for t in tips if EDGE < t.weight < 1 - EDGE]
    agreement = method_agreement(problem)
    reversal = rank_reversal(problem)
    acceptance.confidence  # noqa: B018  (computed here: a cached copy of the result must carry it, not redo it)
    leader = rec.leader.name
    share = float(acceptance.first_rank_acceptability[names.index(leader)])
    return Robustness(acceptance, tuple(tips), agreement, reversal, space, spread, leader, share)
