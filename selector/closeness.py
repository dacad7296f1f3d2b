"""Whether a lead is too close to call: the score gap compared with the range of the method's score scale.

The range is that of the scale, never of the scores at hand: with two alternatives the range of their scores is
the gap itself, so a comparison with it could never find a lead too close. A value model (scores on a fixed 0..1
scale) passes a range of 1.0; for today's methods :func:`scale_range` scores the best and the worst option the
criteria's ``scale`` bounds allow alongside the real ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from selector.decision.problem import Problem

CLOSE_GAP = 0.01  # a gap under 1 % of the score scale's range is too close to call
# Methods whose scores lie on a fixed 0..1 scale: TOPSIS closeness, VIKOR's Q and the additive value model (`mavt`,
# sum of w_j v_j(x_j) with v in [0, 1], issue 30), whose range is 1 whatever the alternatives.
FIXED_UNIT_SCALE = frozenset({"topsis", "vikor", "mavt"})


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


def scale_range(problem: Problem, scales: np.ndarray, gap: float) -> ScaledGap | None:
    """The score range of `problem`'s method on the criteria's scales, with the leader's `gap` (in its scores).

    TOPSIS closeness, VIKOR's Q and a value model lie on a fixed 0..1 scale (:data:`FIXED_UNIT_SCALE`): the
    range is 1. For the weighted sum, MOORA and the
    weighted product, the ideal option (every criterion at the best end of its ``scale``) and the anti-ideal one
    are normalised exactly as the alternatives were (the same cost inversion, the same column divisors) and
    scored with the problem's weights: the range is the difference of their scores. A criterion without a
    ``scale`` uses its observed column. None when the range is empty or cannot be scored.
    """
    name = problem.spec.name
    if name in FIXED_UNIT_SCALE:
        return ScaledGap(gap, 1.0, True)
    values = np.asarray(problem.values, dtype=float)
    lo, hi = scales[:, 0].copy(), scales[:, 1].copy()
    bounded = bool(np.isfinite(lo).all() and np.isfinite(hi).all())
    lo = np.where(np.isfinite(lo), np.minimum(lo, values.min(axis=0)), values.min(axis=0))
    hi = np.where(np.isfinite(hi), np.maximum(hi, values.max(axis=0)), values.max(axis=0))
    signs = problem.signs
    ends = np.vstack([np.where(signs > 0, hi, lo), np.where(signs > 0, lo, hi)])
    # Cost inversion (1/x) and the weighted product need positive values: there a bound at or below zero is raised
    # to half the column's smallest positive value, which keeps the order within the column.
    positive = np.where(values > 0, values, np.inf).min(axis=0)
    needs = ((signs < 0) & problem.spec.inverts_cost) | (name == "wpm")
    ends = np.maximum(ends, np.where(needs & np.isfinite(positive), positive / 2, -np.inf))
    normalised = _normalise_like(ends, values, problem)
    weights = problem.scorable_weights()
    with np.errstate(divide="ignore", invalid="ignore"):
        if name == "wpm":
            scores = np.log10(normalised) @ weights
        else:
            scores = normalised @ (weights * signs if name == "moora" else weights)
    full = abs(float(scores[0] - scores[1]))
    if not (np.isfinite(full) and full > 0):
        return None
    return ScaledGap(gap, full, bounded)


def _normalise_like(rows: np.ndarray, values: np.ndarray, problem: Problem) -> np.ndarray:
    """`rows` normalised with the column divisors the problem's scaler fits on `values` (vectorised.normalise's
    conventions; the scale-free pre-scaling it may apply cancels in these ratios)."""
    x, rows = values.copy(), rows.copy()
    if problem.spec.inverts_cost:
        cost = problem.signs < 0
        x[:, cost], rows[:, cost] = 1.0 / x[:, cost], 1.0 / rows[:, cost]
    scaler = problem.scaler
    if scaler == "sum":
        denom = x.sum(axis=0)
        return rows / np.where(denom == 0, 1.0, denom)
    if scaler == "vector":
        denom = np.sqrt((x * x).sum(axis=0))
        return rows / np.where(denom == 0, 1.0, denom)
    if scaler == "minmax":
        low = x.min(axis=0)
        span = x.max(axis=0) - low
        return (rows - low) / np.where(span == 0, 1.0, span)
    return rows
