"""Vectorised numpy versions of the scoring methods for many weight vectors (and matrices) at once.

Same methods, scalers, degenerate-input conventions and tie rule as ``selector.decision.scoring`` (checked against it in
tests/decision/test_vectorised.py), without scikit-criteria's per-call overhead: SMAA and tipping-point searches score
thousands of weight vectors of one :class:`~selector.decision.problem.Problem` in one call.

Shapes: a matrix is (m, n) or a batch (k, m, n); weights are (n,) or a batch (k, n). Row ``i`` of the result
pairs weight vector ``i`` with matrix ``i`` (a single matrix or weight vector is shared by every row).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from selector.decision import weights as weighting
from selector.decision.problem import VALUE_SCALER, MethodSpec, Problem, ScoringError, check_values
from selector.decision.scoring import SCALE_FREE_SCALERS, VIKOR_V, first_ranked, rank_scores, scale_columns
from selector.value import ValueScales

# scikit-learn's MinMaxScaler treats a column whose range is below this as constant (_handle_zeros_in_scale).
_MINMAX_CONSTANT = 10 * np.finfo(float).eps


def weight_rows(weights: Any, n: int, criteria: Sequence[str] | None = None) -> np.ndarray:
    """A batch of weightings, (k, n) or one (n,), checked and normalised row by row (``weights.normalise_rows``)."""
    try:
        return weighting.normalise_rows(weights, n, criteria)
    except weighting.WeightError as exc:
        raise ScoringError(str(exc)) from None


def normalise(
    x: np.ndarray, signs: np.ndarray, spec: MethodSpec, scaler: str, value_scales: ValueScales | None = None
) -> np.ndarray:
    """Apply the method's cost inversion and the scaler to a (..., m, n) matrix (no validation).

    Conventions match ``scoring.score``: a column whose scaling denominator is zero gets 1/m (sum),
    1/sqrt(m) (vector) or 0 (minmax, as scikit-learn). The ``value`` scaler applies each criterion's value
    function on its fixed scale (``value_scales``).
    """
    if scaler == VALUE_SCALER:
        assert value_scales is not None  # Problem.of refuses the value scaler without scales
        return value_scales.values(x, signs)
    x = np.array(x, dtype=float, copy=True)
    m = x.shape[-2]
    if spec.inverts_cost:
        cost = signs < 0
        if cost.any():
            x[..., cost] = 1.0 / x[..., cost]
    if scaler in SCALE_FREE_SCALERS:
        x = scale_columns(x)
    if scaler == "sum":
        denom = x.sum(axis=-2, keepdims=True)
        zero = denom == 0
        x = np.where(zero, 1.0 / m, x / np.where(zero, 1.0, denom))
    elif scaler == "vector":
        denom = np.sqrt((x * x).sum(axis=-2, keepdims=True))
        zero = denom == 0
        x = np.where(zero, 1.0 / np.sqrt(m), x / np.where(zero, 1.0, denom))
    elif scaler == "minmax":
        lo = x.min(axis=-2, keepdims=True)
        rng = x.max(axis=-2, keepdims=True) - lo
        scale = 1.0 / np.where(rng < _MINMAX_CONSTANT, 1.0, rng)
        x = x * scale - lo * scale
    return x


def vikor_distances(x: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """Per-criterion normalised distance to the best value (0 = best, 1 = worst; 0 for a constant column)."""
    x = scale_columns(x)  # (x - best) / (worst - best) is scale-free; 1e308-size spreads would overflow
    best = np.where(signs > 0, x.max(axis=-2, keepdims=True), x.min(axis=-2, keepdims=True))
    worst = np.where(signs > 0, x.min(axis=-2, keepdims=True), x.max(axis=-2, keepdims=True))
    # as scikit-criteria's VIKOR: (x - best) / (worst - best); a constant column divides 0 by 0 and is ignored (0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.nan_to_num((x - best) / (worst - best))


_SMALL_BATCH = 16  # weightings below which VIKOR's regret is taken over the whole (k, m, n) array


def _minmax_rows(v: np.ndarray) -> np.ndarray:
    lo = v.min(axis=-1, keepdims=True)
    span = v.max(axis=-1, keepdims=True) - lo
    out = np.zeros_like(v)
    # a constant row divides 0 by 0: it stays 0, as scikit-criteria's VIKOR leaves it
    np.divide(v - lo, span, out=out, where=span > 0)  # the ufunc broadcasts `where` itself
    return out


def scores_from_normalised(
    n_mat: np.ndarray, signs: np.ndarray, w: np.ndarray, spec: MethodSpec, *, vikor_d: np.ndarray | None = None
) -> np.ndarray:
    """Score normalised matrices ``n_mat`` ((m, n) or (k, m, n)) with normalised weights ``w`` (k, n).

    For VIKOR pass ``vikor_d`` (the output of ``vikor_distances`` on the raw matrix) instead.
    """
    name = spec.name
    if name in ("mavt", "wsm", "wpm", "moora"):
        g = np.log10(n_mat) if name == "wpm" else n_mat
        ww = w * signs if name == "moora" else w
        if g.ndim == 2:
            return ww @ g.T
        return np.einsum("kmn,kn->km", g, ww)
    if name == "topsis":
        return topsis_closeness(topsis_squares(n_mat, signs), w)
    if name == "vikor":
        assert vikor_d is not None
        if vikor_d.ndim == 2:
            # One matrix for every weight vector: the sum is a matrix product and, for a batch, the max is taken
            # one criterion at a time, never building the (k, m, n) array of weighted distances. A few
            # weightings (a verdict's method leaders) take the max over that small array at once: the same
            # products, so the same result, without a loop of numpy calls.
            s_k = w @ vikor_d.T
            if len(w) <= _SMALL_BATCH:
                r_k = (w[:, None, :] * vikor_d[None, :, :]).max(axis=2)
            else:
                r_k = np.outer(w[:, 0], vikor_d[:, 0])
                for j in range(1, vikor_d.shape[1]):
                    np.maximum(r_k, np.outer(w[:, j], vikor_d[:, j]), out=r_k)
        else:
            wd = vikor_d * w[:, None, :]
            s_k = wd.sum(axis=2)
            r_k = wd.max(axis=2)
        return VIKOR_V * _minmax_rows(s_k) + (1 - VIKOR_V) * _minmax_rows(r_k)
    raise ScoringError(f"unknown method {name!r}")  # pragma: no cover


def topsis_squares(n_mat: np.ndarray, signs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each normalised value's squared distance to its column's best and worst value ((m, n) or (k, m, n)): what
    TOPSIS weighs. They do not depend on the weights, so a scorer keeps those of its own matrix."""
    hi = n_mat.max(axis=-2, keepdims=True)
    lo = n_mat.min(axis=-2, keepdims=True)
    best = np.where(signs > 0, hi, lo)
    worst = np.where(signs > 0, lo, hi)
    return (n_mat - best) ** 2, (n_mat - worst) ** 2


def topsis_closeness(squares: tuple[np.ndarray, np.ndarray], w: np.ndarray) -> np.ndarray:
    """TOPSIS closeness (k, m) of normalised weightings ``w`` (k, n), from :func:`topsis_squares`."""
    # Weights are >= 0, so the weighted ideal is w * (best normalised value): distances reduce to products with
    # w**2, one matrix product for a shared matrix instead of a (k, m, n) pass.
    to_best, to_worst = squares
    w2 = w * w
    if to_best.ndim == 2:
        d_plus = np.sqrt(w2 @ to_best.T)
        d_minus = np.sqrt(w2 @ to_worst.T)
    else:
        d_plus = np.sqrt(np.einsum("kmn,kn->km", to_best, w2))
        d_minus = np.sqrt(np.einsum("kmn,kn->km", to_worst, w2))
    denom = d_plus + d_minus
    # every weighted column constant: each alternative is the ideal point (documented in scoring.py)
    return np.where(denom > 0, d_minus / np.where(denom > 0, denom, 1.0), 1.0)


class Scorer:
    """Scores batches of weightings against one problem's matrix (or sampled variants of it), normalising it once.

    Parameters
    ----------
    problem : Problem
        The problem; its values must be complete unless every call passes its own ``prepared`` matrices.
    """

    def __init__(self, problem: Problem, values: np.ndarray | None = None):
        self.problem = problem
        self.signs, self.spec, self.scaler = problem.signs, problem.spec, problem.scaler
        self.prepared = self.prepare(problem.values if values is None else values)

    def prepare(self, x: np.ndarray) -> np.ndarray:
        """The matrix (or (k, m, n) matrices) the aggregation reads: normalised, or VIKOR's distances."""
        if self.spec.name == "vikor":
            return vikor_distances(x, self.signs)
        return normalise(x, self.signs, self.spec, self.scaler, self.problem.value_scales)

    def scores(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        """(k, m) scores of normalised weightings ``w`` (k, n), on ``prepared`` matrices or the problem's own."""
        if prepared is None and self.spec.name == "topsis":
            return topsis_closeness(self._topsis_squares, w)
        p = self.prepared if prepared is None else prepared
        if self.spec.name == "vikor":
            return scores_from_normalised(p, self.signs, w, self.spec, vikor_d=p)
        return scores_from_normalised(p, self.signs, w, self.spec)

    @functools.cached_property
    def _topsis_squares(self) -> tuple[np.ndarray, np.ndarray]:
        # a verdict scores one weighting at a time on the problem's own matrix: these are most of that work
        return topsis_squares(self.prepared, self.signs)

    def linear_terms(self, prepared: np.ndarray | None = None) -> np.ndarray | None:
        """The terms ``g`` with scores ``w @ g.T`` ((m, n), or (k, m, n) for prepared matrices) for a method whose
        score is linear in the weights (WSM; WPM's logarithm; MOORA, signs applied); None for TOPSIS and VIKOR."""
        p = self.prepared if prepared is None else prepared
        name = self.spec.name
        if name in ("mavt", "wsm"):
            return p
        if name == "wpm":
            return np.log10(p)
        if name == "moora":
            return p * self.signs
        return None

    def ranks(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        """(k, m) ranks (1 = best, ties share the lowest rank)."""
        return rank_scores(self.scores(w, prepared), self.spec.higher_is_better)

    def first(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        """(k, m) booleans: who ranks first under each weighting."""
        return first_ranked(self.scores(w, prepared), self.spec.higher_is_better)


def scores(problem: Problem, weights: Any = None, matrices: Any = None) -> np.ndarray:
    """Score many weightings of a problem, optionally on as many variants of its matrix, at once.

    Parameters
    ----------
    problem : Problem
        The checked problem.
    weights : array-like, optional
        (n,) or (k, n) non-negative weights, each row normalised to sum 1; default the problem's weights.
    matrices : array-like, optional
        (k, m, n) finite values, checked as the problem's method and scaler need; row ``i`` of the result pairs
        weighting ``i`` with matrix ``i`` (one weighting is shared by every matrix). Default the problem's matrix.

    Returns
    -------
    numpy.ndarray
        (k, m) scores, equal to ``scoring.score`` of each weighting (and matrix), to floating-point accuracy.
    """
    w = weight_rows(problem.scorable_weights() if weights is None else weights, len(problem.criteria))
    x = problem.values
    if matrices is not None:
        x = np.asarray(matrices, dtype=float)
        if x.ndim != 3 or x.shape[1:] != problem.values.shape:
            raise ScoringError(
                f"matrices must have shape (k, {', '.join(map(str, problem.values.shape))}); got {x.shape}"
            )
        bad = ~np.isfinite(x)
        if bad.any():
            idx = np.argwhere(bad)[0]
            raise ScoringError(
                f"matrix cell (alternative {problem.alternatives[idx[-2]]}, criterion {problem.criteria[idx[-1]]}) "
                f"is {x[tuple(idx)]}; every cell needs a finite number"
            )
        check_values(
            x,
            problem.signs,
            problem.spec,
            problem.scaler,
            problem.alternatives,
            problem.criteria,
            value_scales=problem.value_scales,
        )
        if w.shape[0] not in (1, x.shape[0]):
            raise ScoringError(f"{w.shape[0]} weight vectors but {x.shape[0]} matrices; give one or the same number")
        if w.shape[0] == 1:
            w = np.broadcast_to(w, (x.shape[0], w.shape[1]))
    return Scorer(problem, x).scores(w)
