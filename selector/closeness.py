"""Whether a lead is too close to call: the score gap compared with the range of the method's score scale.

The range is that of the scale, never of the scores at hand: with two alternatives the range of their scores is
the gap itself, so a comparison with it could never find a lead too close. A value model (scores on a fixed 0..1
scale) passes a range of 1.0; for today's methods :func:`scale_range` scores the best and the worst option the
criteria's ``scale`` bounds allow alongside the real ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from selector import vectorised
from selector.problem import Problem

CLOSE_GAP = 0.01  # a gap under 1 % of the score scale's range is too close to call


def too_close(gap: float, score_range: float, threshold: float = CLOSE_GAP) -> bool:
    """True when `gap` (leader minus runner-up, any sign) is under `threshold` of `score_range` (> 0)."""
    if not score_range > 0:
        raise ValueError(f"the score range must be positive, not {score_range!r}")
    return abs(gap) < threshold * score_range


@dataclass(frozen=True)
class ScaledGap:
    """The leader's gap to the runner-up and the range from the worst to the best possible option, on one scale."""

    gap: float
    score_range: float
    bounded: bool  # True when every criterion had `scale` bounds; else observed columns filled the missing ones

    @property
    def share(self) -> float:
        return abs(self.gap) / self.score_range


def scale_range(problem: Problem, scales: np.ndarray, leader: int, runner: int) -> ScaledGap | None:
    """Score the ideal option (every criterion at the best end of its scale) and the anti-ideal one beside the
    alternatives of `problem`, under its method, scaler and weights, and return the leader's gap in that scoring
    with the ideal-to-anti-ideal range. A criterion without `scale` bounds uses its observed column. None when the
    range is empty (every bound equal)."""
    values = np.asarray(problem.values, dtype=float)
    lo, hi = scales[:, 0].copy(), scales[:, 1].copy()
    bounded = bool(np.isfinite(lo).all() and np.isfinite(hi).all())
    lo = np.where(np.isfinite(lo), np.minimum(lo, values.min(axis=0)), values.min(axis=0))
    hi = np.where(np.isfinite(hi), np.maximum(hi, values.max(axis=0)), values.max(axis=0))
    best = np.where(problem.signs > 0, hi, lo)
    worst = np.where(problem.signs > 0, lo, hi)
    # Cost inversion (1/x), sum scaling and the weighted product need positive values: a bound at or below zero
    # is raised to half the column's smallest positive value, which keeps the order within the column.
    positive = np.where(values > 0, values, np.inf).min(axis=0)
    floor = np.where(np.isfinite(positive), positive / 2, 0.0)
    best, worst = np.maximum(best, floor), np.maximum(worst, floor)
    try:
        scorer = vectorised.Scorer(problem, np.vstack([values, best, worst]))
        scores = scorer.scores(problem.scorable_weights()[None])[0]
    except (ValueError, ArithmeticError):
        return None
    if not np.isfinite(scores).all():
        return None
    full = abs(float(scores[-2] - scores[-1]))
    if not full > 0:
        return None
    return ScaledGap(float(scores[leader] - scores[runner]), full, bounded)
