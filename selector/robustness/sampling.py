"""What the robustness analyses sample: weight vectors on the simplex (within bounds or not) and uncertain cells.

Conventions:
- Weights are shares: normalised to sum 1 before anything else; bounds are given on that scale.
- Uniform sampling on the weight simplex uses the sorted-uniform-differences method (exactly uniform).
- Bounded sampling draws every weight but the one with the widest range uniformly within its bounds and sets
  that one to 1 - sum(others), keeping the draw only if it is within its own bounds. Because that map is
  affine, the kept draws are uniform on the part of the simplex inside the box (rejection sampling).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from selector.decision.problem import ScoringError

#: Stop bounded weight sampling when this many candidates were drawn without collecting enough samples.
_MAX_CANDIDATES = 20_000_000


def sample_simplex(n: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """Draw ``size`` weight vectors uniformly from the (n-1)-simplex (sorted-uniform-differences method).

    Parameters
    ----------
    n : int
        Number of criteria.
    size : int
        Number of vectors.
    rng : numpy.random.Generator

    Returns
    -------
    numpy.ndarray
        (size, n), non-negative rows summing to 1.
    """
    if n == 1:
        return np.ones((size, 1))
    cuts = np.sort(rng.random((size, n - 1)), axis=1)
    edges = np.concatenate([np.zeros((size, 1)), cuts, np.ones((size, 1))], axis=1)
    return np.diff(edges, axis=1)


def resolve_weight_bounds(
    weight_bounds: Any, weights: np.ndarray | None, n: int, criteria: Sequence[str]
) -> np.ndarray | None:
    """Turn ``weight_bounds`` into an (n, 2) array of [lo, hi] shares, or None for the whole simplex.

    ``weight_bounds`` may be None, an (n, 2) array of shares, or one number d >= 0 meaning [w - d, w + d] around
    the (normalised) ``weights`` (clipped to [0, 1]).
    """
    if weight_bounds is None:
        return None
    if np.ndim(weight_bounds) == 0:
        delta = float(weight_bounds)
        if weights is None:
            raise ScoringError("a single number for weight_bounds means +/- around the current weights; give weights")
        if not math.isfinite(delta) or delta < 0:
            raise ScoringError(f"weight_bounds {delta} must be a finite number >= 0 (a share, e.g. 0.05)")
        bounds = np.stack([np.clip(weights - delta, 0, 1), np.clip(weights + delta, 0, 1)], axis=1)
    else:
        bounds = np.asarray(weight_bounds, dtype=float)
        if bounds.shape != (n, 2):
            raise ScoringError(
                f"weight_bounds must have shape ({n}, 2) - one [lo, hi] per criterion; got {bounds.shape}"
            )
    for j in range(n):
        lo, hi = bounds[j]
        if not (math.isfinite(lo) and math.isfinite(hi)) or lo < 0 or hi < lo or lo > 1:
            raise ScoringError(
                f"weight bounds for criterion {criteria[j]!r} are [{lo:g}, {hi:g}]; need 0 <= lo <= hi, lo <= 1"
            )
    bounds = np.minimum(bounds, 1.0)
    if bounds[:, 0].sum() > 1 + 1e-12:
        raise ScoringError(f"the lower weight bounds sum to {bounds[:, 0].sum():.4g} > 1; no weight vector fits them")
    if bounds[:, 1].sum() < 1 - 1e-12:
        raise ScoringError(f"the upper weight bounds sum to {bounds[:, 1].sum():.4g} < 1; no weight vector fits them")
    return bounds


def sample_weights(n: int, size: int, rng: np.random.Generator, bounds: np.ndarray | None = None) -> np.ndarray:
    """Draw ``size`` weight vectors uniformly on the simplex, or on its part inside ``bounds`` (see module doc).

    Parameters
    ----------
    n, size : int
    rng : numpy.random.Generator
    bounds : numpy.ndarray or None
        (n, 2) [lo, hi] shares from ``resolve_weight_bounds``.

    Returns
    -------
    numpy.ndarray
        (size, n), rows summing to 1.

    Raises
    ------
    ScoringError
        When the bounds leave so little room that rejection sampling cannot collect ``size`` vectors.
    """
    if bounds is None:
        return sample_simplex(n, size, rng)
    lo, hi = bounds[:, 0], bounds[:, 1]
    if n == 1:
        return np.ones((size, 1))
    free = int(np.argmax(hi - lo))
    others = np.array([j for j in range(n) if j != free])
    kept: list[np.ndarray] = []
    have = drawn = 0
    rate = 0.5
    while have < size:
        need = size - have
        count = int(min(max(1024, 1.2 * need / max(rate, 1e-4)), 2_000_000))
        cand = np.empty((count, n))
        cand[:, others] = lo[others] + (hi[others] - lo[others]) * rng.random((count, n - 1))
        cand[:, free] = 1.0 - cand[:, others].sum(axis=1)
        ok = (cand[:, free] >= lo[free] - 1e-12) & (cand[:, free] <= hi[free] + 1e-12)
        kept.append(cand[ok][:need])
        have += kept[-1].shape[0]
        drawn += count
        rate = max(have / drawn, 1e-6)
        if have < size and drawn >= _MAX_CANDIDATES:
            raise ScoringError(
                f"the weight bounds leave almost no room (acceptance {have / drawn:.2e}); widen them so that a "
                "weight vector summing to 1 fits comfortably"
            )
    out = np.concatenate(kept)[:size]
    out[:, free] = np.clip(out[:, free], lo[free], hi[free])
    return out / out.sum(axis=1, keepdims=True)


def resolve_cell_ranges(
    cell_ranges: Any, x: np.ndarray, alts: Sequence[str], crits: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return lo, hi (m, n) and the mask of uncertain cells; NaN cells must be covered by a range."""
    m, n = x.shape
    lo = x.copy()
    hi = x.copy()
    unc = np.zeros((m, n), dtype=bool)
    if cell_ranges is not None:
        if isinstance(cell_ranges, Mapping):
            alt_index = {a: i for i, a in enumerate(alts)}
            crit_index = {c: j for j, c in enumerate(crits)}
            for key, rng in cell_ranges.items():
                try:
                    a, c = key
                except (TypeError, ValueError) as exc:
                    raise ScoringError(f"cell_ranges key {key!r} must be (alternative, criterion)") from exc
                i = a if isinstance(a, (int, np.integer)) else alt_index.get(str(a))
                j = c if isinstance(c, (int, np.integer)) else crit_index.get(str(c))
                if i is None or j is None or not (0 <= i < m and 0 <= j < n):
                    raise ScoringError(f"cell_ranges key {key!r} names no cell of the {m} x {n} matrix")
                try:
                    low, high = (float(v) for v in rng)
                except (TypeError, ValueError) as exc:
                    raise ScoringError(f"cell_ranges[{key!r}] must be (lo, hi) numbers; got {rng!r}") from exc
                lo[i, j], hi[i, j], unc[i, j] = low, high, True
        else:
            arr = np.asarray(cell_ranges, dtype=float)
            if arr.shape != (m, n, 2):
                raise ScoringError(f"cell_ranges must have shape ({m}, {n}, 2) or be a dict; got {arr.shape}")
            given = ~np.isnan(arr).any(axis=2)
            lo = np.where(given, arr[..., 0], lo)
            hi = np.where(given, arr[..., 1], hi)
            unc = given
    for i, j in zip(*np.nonzero(unc), strict=True):
        if not (math.isfinite(lo[i, j]) and math.isfinite(hi[i, j])) or hi[i, j] < lo[i, j]:
            raise ScoringError(
                f"range for cell (alternative {alts[i]!r}, criterion {crits[j]!r}) is [{lo[i, j]}, {hi[i, j]}]; "
                "give finite numbers with lo <= hi"
            )
    unc &= hi > lo  # a zero-width range is a known value
    missing = np.isnan(lo)
    if missing.any():
        i, j = (int(v) for v in np.argwhere(missing)[0])
        raise ScoringError(
            f"cell (alternative {alts[i]!r}, criterion {crits[j]!r}) is missing; give it a range in cell_ranges "
            "or impute it before the analysis"
        )
    return lo, hi, unc


def sample_matrices(lo: np.ndarray, hi: np.ndarray, unc: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` matrices (size, m, n): the uncertain cells drawn uniformly in [lo, hi], the others at ``lo``."""
    out = np.broadcast_to(lo, (size, *lo.shape)).copy()
    ii, jj = np.nonzero(unc)
    out[:, ii, jj] = lo[ii, jj] + (hi[ii, jj] - lo[ii, jj]) * rng.random((size, ii.size))
    return out
