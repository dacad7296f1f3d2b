"""How robust a ranking is: SMAA, tipping points, weight sweeps, agreement between methods and rank reversal.

SMAA, tipping points and sweeps score thousands of weight vectors through ``selector.batch`` (vectorised numpy,
tested equal to ``selector.scoring``); method agreement and rank reversal call ``scoring.score`` directly.

Conventions:
- Weights are shares: normalised to sum 1 before anything else; bounds are given on that scale.
- Uniform sampling on the weight simplex uses the sorted-uniform-differences method (exactly uniform).
- Bounded sampling draws every weight but the one with the widest range uniformly within its bounds and sets
  that one to 1 - sum(others), keeping the draw only if it is within its own bounds. Because that map is
  affine, the kept draws are uniform on the part of the simplex inside the box (rejection sampling).
- Ranks: 1 = best, ties share the lowest rank (see ``scoring.rank_scores``); with ties, rows of the rank
  acceptability matrix still sum to 1 (each alternative holds exactly one rank per sample).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from selector import batch, scoring
from selector.scoring import FrozenDict, ScoringError, to_jsonable

#: Largest number of matrix cells (samples x m x n) scored in one vectorised chunk (bounds memory to ~100 MB).
_CHUNK_CELLS = 4_000_000

#: Stop bounded weight sampling when this many candidates were drawn without collecting enough samples.
_MAX_CANDIDATES = 20_000_000


def _frozen(a: Any) -> np.ndarray:
    arr = np.array(a, dtype=float, copy=True)
    arr.setflags(write=False)
    return arr


def _frozen_ranks(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _frozen_int(a: Any) -> np.ndarray:
    arr = np.array(a, dtype=np.int64, copy=True)
    arr.setflags(write=False)
    return arr


# ----------------------------------------------------------------------------------------------------------
# Weight sampling
# ----------------------------------------------------------------------------------------------------------


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


# ----------------------------------------------------------------------------------------------------------
# Uncertain cells
# ----------------------------------------------------------------------------------------------------------


def _resolve_cell_ranges(
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


def _sample_matrices(lo: np.ndarray, hi: np.ndarray, unc: np.ndarray, size: int, rng: np.random.Generator):
    out = np.broadcast_to(lo, (size, *lo.shape)).copy()
    ii, jj = np.nonzero(unc)
    out[:, ii, jj] = lo[ii, jj] + (hi[ii, jj] - lo[ii, jj]) * rng.random((size, ii.size))
    return out


class _Scorer:
    """Scores weight batches against a fixed matrix, normalising it once."""

    def __init__(self, x: np.ndarray, signs: np.ndarray, spec: scoring.MethodSpec, scaler: str):
        self.signs, self.spec, self.scaler = signs, spec, scaler
        self.prepared = self.prepare(x)

    def prepare(self, x: np.ndarray) -> np.ndarray:
        if self.spec.name == "vikor":
            return batch.vikor_distances(x, self.signs)
        return batch.normalise(x, self.signs, self.spec, self.scaler)

    def scores(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        p = self.prepared if prepared is None else prepared
        if self.spec.name == "vikor":
            return batch.scores_from_normalised(p, self.signs, w, self.spec, vikor_d=p)
        return batch.scores_from_normalised(p, self.signs, w, self.spec)

    def ranks(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        return scoring.rank_scores(self.scores(w, prepared), self.spec.higher_is_better)

    def first(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        return scoring.first_ranked(self.scores(w, prepared), self.spec.higher_is_better)


# ----------------------------------------------------------------------------------------------------------
# SMAA
# ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SMAAResult:
    """Stochastic multicriteria acceptability analysis (SMAA-2) of one method and scaler.

    Attributes
    ----------
    acceptability : numpy.ndarray
        (m, m): ``acceptability[i, r]`` = share of samples in which alternative i holds rank r + 1; rows sum to 1.
    central_weights : tuple
        Per alternative, the mean weight vector of the samples that rank it first, or None if it never is.
    confidence : tuple
        Per alternative, the share of matrix samples in which it ranks first under its central weights
        (1.0 or 0.0 without uncertain cells); None where it has no central weights.
    pairwise_winning : numpy.ndarray
        (m, m): share of samples in which i ranks strictly ahead of j; computed from ``sample_ranks`` when first
        read (it compares every pair in every sample, so it alone grows as m squared).
    sample_ranks : numpy.ndarray
        (n_samples, m): the rank of each alternative in each sample.
    reference_ranks : tuple or None
        Ranks at the given (current) weights, when weights were given.
    """

    method: str
    scaler: str
    alternatives: tuple[str, ...]
    criteria: tuple[str, ...]
    n_samples: int
    seed: int
    acceptability: np.ndarray
    central_weights: tuple[tuple[float, ...] | None, ...]
    confidence: tuple[float | None, ...]
    sample_ranks: np.ndarray = field(repr=False)
    reference_weights: tuple[float, ...] | None
    reference_ranks: tuple[int, ...] | None
    weight_sampling: str
    uncertain_cells: tuple[tuple[str, str, float, float], ...]

    @functools.cached_property
    def pairwise_winning(self) -> np.ndarray:
        """(m, m): share of samples in which alternative i ranks strictly ahead of alternative j."""
        ranks = self.sample_ranks
        m = ranks.shape[1]
        wins = np.zeros((m, m), dtype=np.int64)
        chunk = max(1, _CHUNK_CELLS // (m * m))
        for start in range(0, len(ranks), chunk):
            r = ranks[start : start + chunk]
            wins += (r[:, :, None] < r[:, None, :]).sum(axis=0)
        return _frozen(wins / self.n_samples)

    @property
    def first_rank_acceptability(self) -> np.ndarray:
        """Share of samples in which each alternative ranks first."""
        return self.acceptability[:, 0]

    @property
    def expected_rank(self) -> np.ndarray:
        """Mean rank of each alternative over the samples."""
        return self.acceptability @ np.arange(1, len(self.alternatives) + 1)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict."""
        return to_jsonable(
            {
                "method": self.method,
                "scaler": self.scaler,
                "alternatives": self.alternatives,
                "criteria": self.criteria,
                "n_samples": self.n_samples,
                "seed": self.seed,
                "acceptability": self.acceptability,
                "first_rank_acceptability": self.first_rank_acceptability,
                "expected_rank": self.expected_rank,
                "central_weights": self.central_weights,
                "confidence": self.confidence,
                "pairwise_winning": self.pairwise_winning,
                "reference_weights": self.reference_weights,
                "reference_ranks": self.reference_ranks,
                "weight_sampling": self.weight_sampling,
                "uncertain_cells": [
                    {"alternative": a, "criterion": c, "lo": lo, "hi": hi} for a, c, lo, hi in self.uncertain_cells
                ],
            }
        )


def smaa(
    matrix: Any,
    objectives: Sequence[Any],
    weights: Sequence[float] | None = None,
    method: str = "topsis",
    scaler: str | None = None,
    n_samples: int = 10_000,
    seed: int = 0,
    weight_bounds: Any = None,
    cell_ranges: Any = None,
    alternatives: Sequence[Any] | None = None,
    criteria: Sequence[Any] | None = None,
    *,
    weight_samples: Any = None,
) -> SMAAResult:
    """Run SMAA-2: rank acceptability, central weights and confidence factors by Monte Carlo sampling.

    Parameters
    ----------
    matrix : array-like
        (m, n); NaN allowed only in cells that ``cell_ranges`` covers.
    objectives : sequence
        ``"max"``/``"min"`` per criterion.
    weights : sequence of float, optional
        Current weights: give the reference ranking and the centre of a numeric ``weight_bounds``.
    method, scaler : str
        As in ``scoring.score``.
    n_samples : int
        Number of Monte Carlo samples (weight vector + matrix draw each).
    seed : int
        Seed of ``numpy.random.default_rng``; the same seed gives the same result.
    weight_bounds : None, float or (n, 2) array
        None samples the whole simplex; (n, 2) [lo, hi] shares restrict it; a number d means [w - d, w + d].
    cell_ranges : None, (m, n, 2) array or dict
        Uncertain cells sampled uniformly in [lo, hi]; the array uses NaN for certain cells, the dict maps
        ``(alternative, criterion)`` (names or indices) to ``(lo, hi)``.
    alternatives, criteria : sequence of str, optional
    weight_samples : (k, n) array, optional
        Use these weight vectors (rows normalised) instead of drawing them, e.g. to compare methods on the same
        samples; ``n_samples`` becomes k and ``weight_bounds`` must be None.

    Returns
    -------
    SMAAResult
    """
    spec, scaler = scoring.resolve_method(method, scaler)
    x, alts, crits = scoring.as_matrix(matrix, alternatives, criteria, allow_nan=True)
    m, n = x.shape
    signs = scoring.parse_objectives(objectives, n, crits)
    if int(n_samples) < 1:
        raise ScoringError(f"n_samples is {n_samples}; give at least 1 (10,000 is typical)")
    n_samples = int(n_samples)
    ref_w = None
    if weights is not None:
        if len(weights) != n:
            raise ScoringError(f"got {len(weights)} weights for {n} criteria; give one per criterion")
        ref_w = scoring.validate_weights(weights, crits)
    lo, hi, unc = _resolve_cell_ranges(cell_ranges, x, alts, crits)
    scoring.check_values(lo, signs, spec, scaler, alts, crits, context=" (value or lower end of its range)")
    scoring.check_values(hi, signs, spec, scaler, alts, crits, context=" (value or upper end of its range)")
    bounds = resolve_weight_bounds(weight_bounds, ref_w, n, crits)

    rng_w, rng_cells, rng_conf = np.random.default_rng(seed).spawn(3)
    if weight_samples is None:
        w_all = sample_weights(n, n_samples, rng_w, bounds)
    else:
        if bounds is not None:
            raise ScoringError("give either weight_samples or weight_bounds, not both")
        w_all = batch.validate_weight_batch(weight_samples, n, crits)
        n_samples = w_all.shape[0]
    scorer = _Scorer(lo, signs, spec, scaler)
    uncertain = bool(unc.any())
    chunk = max(1, _CHUNK_CELLS // (m * n))

    rank_counts = np.zeros(m * m, dtype=np.int64)
    sample_ranks = np.empty((n_samples, m), dtype=np.int16 if m < np.iinfo(np.int16).max else np.int32)
    first_counts = np.zeros(m, dtype=np.int64)
    first_weight_sums = np.zeros((m, n))
    for start in range(0, n_samples, chunk):
        w = w_all[start : start + chunk]
        prepared = scorer.prepare(_sample_matrices(lo, hi, unc, len(w), rng_cells)) if uncertain else None
        ranks = scorer.ranks(w, prepared)
        rank_counts += np.bincount((np.arange(m) * m + (ranks - 1)).ravel(), minlength=m * m)
        sample_ranks[start : start + len(w)] = ranks
        first = ranks == 1
        first_counts += first.sum(axis=0)
        first_weight_sums += first.T.astype(float) @ w

    central = [first_weight_sums[i] / first_counts[i] if first_counts[i] else None for i in range(m)]
    confidence = _confidence(scorer, central, lo, hi, unc, n_samples, chunk, rng_conf)

    reference_ranks = None
    if ref_w is not None:
        reference_ranks = tuple(int(r) for r in scorer.ranks(ref_w[None])[0])
    if weight_samples is not None:
        sampling = "weight vectors given by the caller"
    elif bounds is None:
        sampling = "uniform on the weight simplex"
    else:
        parts = ", ".join(f"{c} [{b[0]:.3g}, {b[1]:.3g}]" for c, b in zip(crits, bounds, strict=True))
        sampling = f"uniform on the weight simplex within bounds: {parts}"
    ii, jj = np.nonzero(unc)
    return SMAAResult(
        method=spec.name,
        scaler=scaler,
        alternatives=alts,
        criteria=crits,
        n_samples=n_samples,
        seed=int(seed),
        acceptability=_frozen(rank_counts.reshape(m, m) / n_samples),
        central_weights=tuple(None if c is None else tuple(float(v) for v in c) for c in central),
        confidence=confidence,
        sample_ranks=_frozen_ranks(sample_ranks),
        reference_weights=None if ref_w is None else tuple(float(v) for v in ref_w),
        reference_ranks=reference_ranks,
        weight_sampling=sampling,
        uncertain_cells=tuple(
            (alts[i], crits[j], float(lo[i, j]), float(hi[i, j])) for i, j in zip(ii, jj, strict=True)
        ),
    )


def _confidence(
    scorer: _Scorer,
    central: list[np.ndarray | None],
    lo: np.ndarray,
    hi: np.ndarray,
    unc: np.ndarray,
    n_samples: int,
    chunk: int,
    rng: np.random.Generator,
) -> tuple[float | None, ...]:
    m = len(central)
    if not unc.any():
        owners = [i for i, cw in enumerate(central) if cw is not None]
        if not owners:
            return (None,) * m
        # every alternative's central weights scored in one batch: row r scores them for alternative owners[r]
        first = scorer.first(np.array([central[i] for i in owners]))
        firsts = dict(zip(owners, first[np.arange(len(owners)), owners].tolist(), strict=True))
        return tuple(float(firsts[i]) if i in firsts else None for i in range(m))
    hits = np.zeros(m, dtype=np.int64)
    for start in range(0, n_samples, chunk):
        size = min(chunk, n_samples - start)
        # the same matrix draws serve every alternative (common random numbers)
        prepared = scorer.prepare(_sample_matrices(lo, hi, unc, size, rng))
        for i, cw in enumerate(central):
            if cw is not None:
                first = scorer.first(np.broadcast_to(cw, (size, cw.size)), prepared)
                hits[i] += int(first[:, i].sum())
    return tuple(None if cw is None else float(hits[i] / n_samples) for i, cw in enumerate(central))


# ----------------------------------------------------------------------------------------------------------
# Dimension weights (performance / cost / ecosystem / risk) and tipping points
# ----------------------------------------------------------------------------------------------------------


class _Dimensions:
    """Criterion weights as a function of one dimension's share, the others rescaled proportionally."""

    def __init__(
        self,
        dimension_of: Sequence[Any],
        dimension_weights: Mapping[Any, float],
        sub_weights: Sequence[float] | None,
        criteria: Sequence[str],
    ):
        n = len(criteria)
        if len(dimension_of) != n:
            raise ScoringError(f"dimension_of has {len(dimension_of)} entries for {n} criteria; give one per criterion")
        present = [str(d) for d in dimension_of]
        given = {str(k): v for k, v in dimension_weights.items()}
        for j, d in enumerate(present):
            if d not in given:
                raise ScoringError(
                    f"criterion {criteria[j]!r} belongs to dimension {d!r}, which dimension_weights does not weight; "
                    f"add it (dimensions weighted: {', '.join(given) or 'none'})"
                )
        # dimensions without any column drop out and the rest are renormalised
        self.names = tuple(d for d in given if d in present)
        dw = [given[d] for d in self.names]
        try:
            self.shares = scoring.validate_weights(dw, [f"dimension {d}" for d in self.names])
        except ScoringError as exc:
            raise ScoringError(f"dimension_weights: {exc}") from exc
        self.col_dim = np.array([self.names.index(d) for d in present])
        sub = np.ones(n) if sub_weights is None else np.asarray(sub_weights, dtype=float)
        if sub.shape != (n,):
            raise ScoringError(f"sub_weights has shape {sub.shape}; give one relative weight per criterion ({n})")
        for j in range(n):
            if not math.isfinite(sub[j]) or sub[j] < 0:
                raise ScoringError(f"sub-weight of criterion {criteria[j]!r} is {sub[j]}; give a finite number >= 0")
        within = np.zeros(len(self.names))
        np.add.at(within, self.col_dim, sub)
        for k, d in enumerate(self.names):
            if within[k] <= 0:
                raise ScoringError(f"every criterion of dimension {d!r} has sub-weight 0; give one a positive weight")
        self.sub = sub / within[self.col_dim]

    def index(self, dimension: Any) -> int:
        d = str(dimension)
        if d not in self.names:
            raise ScoringError(f"unknown dimension {d!r}; the matrix has {', '.join(self.names)}")
        return self.names.index(d)

    def at(self, d: int, t: np.ndarray) -> np.ndarray:
        """Criterion weights (len(t), n) when dimension ``d`` has share ``t``."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        p = len(self.names)
        rest = 1.0 - self.shares[d]
        # when the dimension held all the weight there is nothing to keep proportional: split the rest evenly
        others = self.shares / rest if rest > 1e-15 else np.full(p, 1.0 / max(p - 1, 1))
        dim_w = (1.0 - t)[:, None] * others[None, :]
        dim_w[:, d] = t
        return dim_w[:, self.col_dim] * self.sub[None, :]


def dimension_weights_at(
    dimension_of: Sequence[Any],
    dimension_weights: Mapping[Any, float],
    sub_weights: Sequence[float] | None,
    dimension: Any,
    share: float,
) -> np.ndarray:
    """Criterion weights when ``dimension`` takes ``share`` (0..1) and the other dimensions keep their proportions.

    Parameters
    ----------
    dimension_of : sequence
        Dimension id of each criterion (column).
    dimension_weights : mapping
        Dimension id -> weight (any non-negative scale).
    sub_weights : sequence of float or None
        Relative weight of each criterion within its dimension (None: equal).
    dimension : str
        The dimension to set.
    share : float
        Its share of the total weight.

    Returns
    -------
    numpy.ndarray
        (n,) weights summing to 1.
    """
    crits = scoring.default_names("C", len(dimension_of))
    dims = _Dimensions(dimension_of, dimension_weights, sub_weights, crits)
    return dims.at(dims.index(dimension), np.array([share]))[0]


@dataclass(frozen=True)
class TippingPoint:
    """A dimension share at which the leader changes.

    ``before`` leads just below ``weight`` and ``after`` just above it.
    """

    dimension: str
    weight: float
    current_weight: float
    before: str
    after: str
    method: str
    scaler: str
    exact: bool

    @property
    def direction(self) -> str:
        """``"exceeds"`` when the tipping share is above the current share, else ``"falls below"``."""
        return "exceeds" if self.weight >= self.current_weight else "falls below"

    @property
    def sentence(self) -> str:
        """E.g. "MI300X overtakes H200 when cost weight exceeds 34.0%"."""
        pct = f"{100 * self.weight:.1f}%"
        if self.direction == "exceeds":
            return f"{self.after} overtakes {self.before} when {self.dimension} weight exceeds {pct}"
        return f"{self.before} overtakes {self.after} when {self.dimension} weight falls below {pct}"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict (with the sentence)."""
        return to_jsonable(
            {
                "dimension": self.dimension,
                "weight": self.weight,
                "current_weight": self.current_weight,
                "before": self.before,
                "after": self.after,
                "direction": self.direction,
                "sentence": self.sentence,
                "method": self.method,
                "scaler": self.scaler,
                "exact": self.exact,
            }
        )


def _setup(matrix, objectives, method, scaler, alternatives, criteria):
    spec, scaler = scoring.resolve_method(method, scaler)
    x, alts, crits = scoring.as_matrix(matrix, alternatives, criteria)
    signs = scoring.parse_objectives(objectives, x.shape[1], crits)
    scoring.check_values(x, signs, spec, scaler, alts, crits)
    return spec, scaler, x, alts, crits, signs


def _linear_utilities(scorer: _Scorer) -> np.ndarray:
    """(m, n) matrix G with score = G @ w, for the methods whose score is linear in the weights."""
    p = scorer.prepared
    if scorer.spec.name == "wpm":
        return np.log10(p)
    if scorer.spec.name == "moora":
        return p * scorer.signs
    return p


def _linear_tips(a: np.ndarray, b: np.ndarray) -> list[tuple[float, int, int]]:
    """Leader changes of the lines a_i + t b_i on [0, 1] (upper envelope), exactly."""
    scale = max(1.0, float(np.abs(a).max() + np.abs(b).max()))
    tol = scoring.TIE_RTOL * scale

    def leader_right_of(t: float) -> int:
        s = a + t * b
        tied = np.nonzero(s >= s.max() - tol)[0]
        # the leader just to the right of t is the tied one rising fastest (first in input order on equal slope)
        return int(tied[np.argmax(b[tied])])

    events: list[tuple[float, int, int]] = []
    t = 0.0
    lead = leader_right_of(t)
    for _ in range(len(a) * len(a) + 1):
        rise = b - b[lead]
        cand = rise > tol
        with np.errstate(divide="ignore", invalid="ignore"):
            cross = np.where(cand, (a[lead] - a) / np.where(cand, rise, 1.0), np.inf)
        cross[cross <= t] = np.inf
        t_next = float(cross.min())
        if not t_next < 1.0:
            break
        new = leader_right_of(t_next)
        if new != lead:
            events.append((t_next, lead, new))
        t, lead = t_next, new
    return events


def _grid_tips(leader_at, grid_points: int, tol: float) -> list[tuple[float, int, int]]:
    """Leader changes found on a grid and refined by bisection; changes closer than a grid step may be missed."""
    grid = np.linspace(0.0, 1.0, grid_points)
    leaders = leader_at(grid)
    events: list[tuple[float, int, int]] = []

    def refine(lo: float, hi: float, l_lo: int, l_hi: int) -> None:
        while hi - lo > tol:
            mid = 0.5 * (lo + hi)
            l_mid = int(leader_at(np.array([mid]))[0])
            if l_mid == l_lo:
                lo = mid
            elif l_mid == l_hi:
                hi = mid
            else:  # a third leader in between: two changes inside this interval
                refine(lo, mid, l_lo, l_mid)
                refine(mid, hi, l_mid, l_hi)
                return
        events.append((0.5 * (lo + hi), l_lo, l_hi))

    for g in range(grid_points - 1):
        if leaders[g] != leaders[g + 1]:
            refine(float(grid[g]), float(grid[g + 1]), int(leaders[g]), int(leaders[g + 1]))
    return events


def tipping_points(
    matrix: Any,
    objectives: Sequence[Any],
    dimension_of: Sequence[Any],
    dimension_weights: Mapping[Any, float],
    sub_weights: Sequence[float] | None = None,
    method: str = "topsis",
    scaler: str | None = None,
    alternatives: Sequence[Any] | None = None,
    criteria: Sequence[Any] | None = None,
    *,
    dimensions: Sequence[Any] | None = None,
    grid_points: int = 201,
    tol: float = 1e-9,
) -> list[TippingPoint]:
    """Find, for each dimension, every share (0..1) at which the leader changes.

    The dimension's share varies from 0 to 1 while the other dimensions keep their relative proportions and
    criteria keep their relative sub-weights within each dimension. For wsm, wpm and moora the score is linear
    in the weights, so the crossings are solved exactly (``exact=True``); for topsis and vikor the leader is
    evaluated on a grid of ``grid_points`` and every change is bisected to ``tol`` (two changes closer than a
    grid step, e.g. A -> B -> A, can be missed).

    Parameters
    ----------
    matrix, objectives, method, scaler, alternatives, criteria
        As in ``scoring.score``.
    dimension_of : sequence
        Dimension id of each criterion.
    dimension_weights : mapping
        Dimension id -> current weight (any non-negative scale; normalised).
    sub_weights : sequence of float, optional
        Relative weight of each criterion within its dimension (default equal).
    dimensions : sequence, optional
        Only these dimensions (default all, in ``dimension_weights`` order).
    grid_points : int
        Grid size for topsis/vikor.
    tol : float
        Bisection tolerance on the share.

    Returns
    -------
    list of TippingPoint
        Ordered by dimension, then share.
    """
    spec, scaler, x, alts, crits, signs = _setup(matrix, objectives, method, scaler, alternatives, criteria)
    dims = _Dimensions(dimension_of, dimension_weights, sub_weights, crits)
    if len(dims.names) < 2:
        return []
    scorer = _Scorer(x, signs, spec, scaler)
    chosen = dims.names if dimensions is None else [dims.names[dims.index(d)] for d in dimensions]
    out: list[TippingPoint] = []
    for name in chosen:
        d = dims.index(name)
        if spec.name in ("wsm", "wpm", "moora"):
            g = _linear_utilities(scorer)
            w0, w1 = dims.at(d, np.array([0.0, 1.0]))
            events = _linear_tips(g @ w0, g @ (w1 - w0))
            exact = True
        else:

            def leader_at(ts: np.ndarray, d: int = d) -> np.ndarray:
                return np.argmax(scorer.first(dims.at(d, ts)), axis=1)

            events = _grid_tips(leader_at, max(2, int(grid_points)), tol)
            exact = False
        for t, before, after in events:
            out.append(
                TippingPoint(
                    dimension=name,
                    weight=float(t),
                    current_weight=float(dims.shares[d]),
                    before=alts[before],
                    after=alts[after],
                    method=spec.name,
                    scaler=scaler,
                    exact=exact,
                )
            )
    return out


@dataclass(frozen=True, eq=False)
class WeightSweep:
    """Scores of every alternative as one dimension's share runs over a grid (for charting)."""

    dimension: str
    method: str
    scaler: str
    higher_is_better: bool
    alternatives: tuple[str, ...]
    grid: np.ndarray
    scores: np.ndarray
    ranks: np.ndarray
    leaders: tuple[str, ...]
    current_weight: float

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict."""
        return to_jsonable(
            {
                "dimension": self.dimension,
                "method": self.method,
                "scaler": self.scaler,
                "higher_is_better": self.higher_is_better,
                "alternatives": self.alternatives,
                "grid": self.grid,
                "scores": self.scores,
                "ranks": self.ranks,
                "leaders": self.leaders,
                "current_weight": self.current_weight,
            }
        )


def weight_sweep(
    matrix: Any,
    objectives: Sequence[Any],
    dimension_of: Sequence[Any],
    dimension_weights: Mapping[Any, float],
    sub_weights: Sequence[float] | None,
    dimension: Any,
    method: str = "topsis",
    scaler: str | None = None,
    alternatives: Sequence[Any] | None = None,
    criteria: Sequence[Any] | None = None,
    n_points: int = 101,
) -> WeightSweep:
    """Score every alternative while ``dimension``'s share runs from 0 to 1 (others kept proportional).

    Parameters
    ----------
    matrix, objectives, method, scaler, alternatives, criteria
        As in ``scoring.score``.
    dimension_of, dimension_weights, sub_weights
        As in ``tipping_points``.
    dimension : str
        The dimension to sweep.
    n_points : int
        Grid size (0 and 1 included).

    Returns
    -------
    WeightSweep
        ``scores`` and ``ranks`` have shape (n_points, m).
    """
    spec, scaler, x, alts, crits, signs = _setup(matrix, objectives, method, scaler, alternatives, criteria)
    dims = _Dimensions(dimension_of, dimension_weights, sub_weights, crits)
    d = dims.index(dimension)
    if len(dims.names) < 2:
        raise ScoringError(f"only one dimension ({dims.names[0]!r}) carries weight; there is nothing to trade off")
    if int(n_points) < 2:
        raise ScoringError(f"n_points is {n_points}; give at least 2")
    grid = np.linspace(0.0, 1.0, int(n_points))
    scorer = _Scorer(x, signs, spec, scaler)
    scores = scorer.scores(dims.at(d, grid))
    ranks = scoring.rank_scores(scores, spec.higher_is_better)
    return WeightSweep(
        dimension=dims.names[d],
        method=spec.name,
        scaler=scaler,
        higher_is_better=spec.higher_is_better,
        alternatives=alts,
        grid=_frozen(grid),
        scores=_frozen(scores),
        ranks=_frozen_int(ranks),
        leaders=tuple(alts[int(i)] for i in np.argmin(ranks, axis=1)),
        current_weight=float(dims.shares[d]),
    )


# ----------------------------------------------------------------------------------------------------------
# Agreement between methods
# ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MethodAgreement:
    """Ranks under every method (default scalers) side by side, with pairwise Kendall's tau-b.

    ``kendall_tau[a, b]`` is NaN where tau is undefined (fewer than two alternatives, or a ranking that ties
    everything); ``to_dict`` writes it as null.
    """

    alternatives: tuple[str, ...]
    methods: tuple[str, ...]
    scalers: tuple[str, ...]
    ranks: np.ndarray
    scores: np.ndarray
    leaders: tuple[str, ...]
    kendall_tau: np.ndarray
    skipped: Mapping[str, str]

    @property
    def summary(self) -> str:
        """One sentence: do the methods agree on the leader, and how similar are the rankings."""
        return _agreement_summary(self)

    @property
    def mean_tau(self) -> float | None:
        """Mean Kendall's tau over distinct method pairs (None when undefined)."""
        p = len(self.methods)
        vals = [self.kendall_tau[a, b] for a in range(p) for b in range(a + 1, p)]
        vals = [v for v in vals if math.isfinite(v)]
        return float(np.mean(vals)) if vals else None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict."""
        return to_jsonable(
            {
                "alternatives": self.alternatives,
                "methods": self.methods,
                "scalers": self.scalers,
                "ranks": self.ranks,
                "scores": self.scores,
                "leaders": self.leaders,
                "kendall_tau": self.kendall_tau,
                "mean_tau": self.mean_tau,
                "skipped": dict(self.skipped),
                "summary": self.summary,
            }
        )


def method_agreement(
    matrix: Any,
    objectives: Sequence[Any],
    weights: Sequence[float],
    alternatives: Sequence[Any] | None = None,
    criteria: Sequence[Any] | None = None,
    methods: Sequence[str] | None = None,
) -> MethodAgreement:
    """Score with every method (default scaler each) and measure how far their rankings agree.

    Methods that cannot score this matrix (e.g. wpm with a zero cell) are listed in ``skipped`` with the reason.

    Parameters
    ----------
    matrix, objectives, weights, alternatives, criteria
        As in ``scoring.score``.
    methods : sequence of str, optional
        Default: every method in ``scoring.METHODS``.

    Returns
    -------
    MethodAgreement
    """
    from scipy.stats import kendalltau

    # Problems with the input itself are the caller's to fix; only method-specific refusals are skipped.
    x, alts, crits = scoring.as_matrix(matrix, alternatives, criteria)
    scoring.parse_objectives(objectives, x.shape[1], crits)
    if len(weights) != x.shape[1]:
        raise ScoringError(f"got {len(weights)} weights for {x.shape[1]} criteria; give one per criterion")
    scoring.validate_weights(weights, crits)
    names = list(methods) if methods is not None else list(scoring.METHODS)
    for name in names:
        scoring.resolve_method(name)
    results = []
    skipped: dict[str, str] = {}
    for name in names:
        try:
            results.append(scoring.score(x, objectives, weights, name, None, alts, crits))
        except ScoringError as exc:
            skipped[name] = str(exc)
    if not results:
        raise ScoringError("no method could score this matrix: " + "; ".join(f"{k}: {v}" for k, v in skipped.items()))
    alts = results[0].alternatives
    p = len(results)
    ranks = np.array([r.ranks for r in results])
    tau = np.full((p, p), np.nan)
    for a in range(p):
        tau[a, a] = 1.0
        for b in range(a + 1, p):
            if len(alts) >= 2:
                value = kendalltau(ranks[a], ranks[b]).statistic
                tau[a, b] = tau[b, a] = float(value)
    leaders = tuple(r.leader for r in results)
    return MethodAgreement(
        alternatives=alts,
        methods=tuple(r.method for r in results),
        scalers=tuple(r.scaler for r in results),
        ranks=_frozen_int(ranks),
        scores=_frozen([r.scores for r in results]),
        leaders=leaders,
        kendall_tau=_frozen(tau),
        skipped=FrozenDict(skipped),
    )


def _agreement_summary(ag: MethodAgreement) -> str:
    mean = ag.mean_tau
    tau_text = f"mean pairwise Kendall's tau {mean:.2f}" if mean is not None else "Kendall's tau undefined"
    if len(set(ag.leaders)) == 1:
        text = f"All {len(ag.methods)} methods rank {ag.leaders[0]} first; {tau_text}."
    else:
        groups: dict[str, list[str]] = {}
        for method, leader in zip(ag.methods, ag.leaders, strict=True):
            groups.setdefault(leader, []).append(method)
        parts = "; ".join(f"{', '.join(ms)} -> {leader}" for leader, ms in groups.items())
        text = f"Methods disagree on the leader ({parts}); {tau_text}."
    if ag.skipped:
        text += " Skipped: " + ", ".join(ag.skipped) + " (cannot score this matrix)."
    return text


# ----------------------------------------------------------------------------------------------------------
# Rank reversal
# ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Perturbation:
    """One change to the set of alternatives and what it did to the order of the original ones.

    ``kind`` is ``"remove"`` (``subject`` left out) or ``"add_copy"`` (a copy of ``subject``, the worst
    alternative, added). ``swapped_pairs`` lists (a, b) where a was strictly ahead of b and now b is strictly
    ahead; ``tie_changes`` lists pairs that became tied or stopped being tied.
    """

    kind: str
    subject: str
    ranks: Mapping[str, int]
    swapped_pairs: tuple[tuple[str, str], ...]
    tie_changes: tuple[tuple[str, str], ...]

    @property
    def changed(self) -> bool:
        """Whether the relative order of the remaining original alternatives changed at all."""
        return bool(self.swapped_pairs or self.tie_changes)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict."""
        return to_jsonable(
            {
                "kind": self.kind,
                "subject": self.subject,
                "ranks": dict(self.ranks),
                "changed": self.changed,
                "swapped_pairs": self.swapped_pairs,
                "tie_changes": self.tie_changes,
            }
        )


@dataclass(frozen=True)
class RankReversalReport:
    """Rank-reversal check: the order of the other alternatives after removing each one, and after adding a copy
    of the worst one."""

    method: str
    scaler: str
    alternatives: tuple[str, ...]
    baseline_ranks: tuple[int, ...]
    perturbations: tuple[Perturbation, ...]

    @property
    def any_reversal(self) -> bool:
        """Whether any perturbation changed the relative order of the original alternatives."""
        return any(p.changed for p in self.perturbations)

    @property
    def summary(self) -> str:
        """One sentence for a report."""
        label = f"{self.method}/{self.scaler}"
        if not self.any_reversal:
            return (
                f"No rank reversal under {label}: removing any alternative or adding a copy of the worst keeps "
                "the order of the others."
            )
        parts = []
        for p in self.perturbations:
            if not p.changed:
                continue
            what = f"removing {p.subject}" if p.kind == "remove" else f"adding a copy of {p.subject}"
            pairs = p.swapped_pairs or p.tie_changes
            verb = "swaps" if p.swapped_pairs else "changes ties between"
            parts.append(f"{what} {verb} " + ", ".join(f"{a} and {b}" for a, b in pairs))
        return f"Rank reversal under {label}: " + "; ".join(parts) + "."

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict."""
        return to_jsonable(
            {
                "method": self.method,
                "scaler": self.scaler,
                "alternatives": self.alternatives,
                "baseline_ranks": self.baseline_ranks,
                "any_reversal": self.any_reversal,
                "summary": self.summary,
                "perturbations": [p.to_dict() for p in self.perturbations],
            }
        )


def _compare_orders(
    names: Sequence[str], before: Mapping[str, int], after: Mapping[str, int]
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    swapped, ties = [], []
    for a, b in itertools.combinations(names, 2):
        old = int(np.sign(before[a] - before[b]))
        new = int(np.sign(after[a] - after[b]))
        if old == new:
            continue
        if old != 0 and new == -old:
            swapped.append((a, b) if old < 0 else (b, a))
        else:
            ties.append((a, b))
    return tuple(swapped), tuple(ties)


def rank_reversal(
    matrix: Any,
    objectives: Sequence[Any],
    weights: Sequence[float],
    method: str = "topsis",
    scaler: str | None = None,
    alternatives: Sequence[Any] | None = None,
    criteria: Sequence[Any] | None = None,
) -> RankReversalReport:
    """Check whether the order of the alternatives depends on which other alternatives are present.

    Removes each alternative in turn, then adds a copy of the worst one (last in input order among tied
    worst), re-scores with ``scoring.score`` and compares the order of the original alternatives that remain.

    Parameters
    ----------
    matrix, objectives, weights, method, scaler, alternatives, criteria
        As in ``scoring.score``.

    Returns
    -------
    RankReversalReport
    """
    base = scoring.score(matrix, objectives, weights, method, scaler, alternatives, criteria)
    x, alts = base.matrix, base.alternatives
    before = dict(zip(alts, (int(r) for r in base.ranks), strict=True))
    perturbations: list[Perturbation] = []
    m = len(alts)
    if m > 1:
        for i in range(m):
            keep = [k for k in range(m) if k != i]
            res = scoring.score(
                x[keep], base.objectives, base.weights, base.method, base.scaler, [alts[k] for k in keep], base.criteria
            )
            after = dict(zip(res.alternatives, (int(r) for r in res.ranks), strict=True))
            swapped, ties = _compare_orders(res.alternatives, before, after)
            perturbations.append(Perturbation("remove", alts[i], FrozenDict(after), swapped, ties))
    worst = max(range(m), key=lambda k: (base.ranks[k], k))
    copy_name = f"copy of {alts[worst]}"
    while copy_name in alts:
        copy_name += "'"
    res = scoring.score(
        np.vstack([x, x[worst]]),
        base.objectives,
        base.weights,
        base.method,
        base.scaler,
        [*alts, copy_name],
        base.criteria,
    )
    after = dict(zip(res.alternatives, (int(r) for r in res.ranks), strict=True))
    swapped, ties = _compare_orders(alts, before, after)
    perturbations.append(Perturbation("add_copy", alts[worst], FrozenDict(after), swapped, ties))
    return RankReversalReport(
        method=base.method,
        scaler=base.scaler,
        alternatives=alts,
        baseline_ranks=tuple(int(r) for r in base.ranks),
        perturbations=tuple(perturbations),
    )


# Public names for callers that score many weightings of one fixed matrix (selector.verdict).
BatchScorer = _Scorer
sample_matrices = _sample_matrices
