"""SMAA-2: rank acceptability, central weights and confidence factors by Monte Carlo sampling.

Ranks: 1 = best, ties share the lowest rank (see ``scoring.rank_scores``); with ties, rows of the rank
acceptability matrix still sum to 1 (each alternative holds exactly one rank per sample).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from selector.arrays import read_only
from selector.decision import vectorised
from selector.decision.problem import Problem, ScoringError, check_values
from selector.decision.scoring import to_jsonable
from selector.robustness import figure
from selector.robustness.sampling import (
    resolve_cell_ranges,
    resolve_weight_bounds,
    sample_matrices,
    sample_weights,
)

#: Largest number of matrix cells (samples x m x n) scored in one vectorised chunk (bounds memory to ~100 MB).
_CHUNK_CELLS = 4_000_000

#: Confidence factors are computed for at most this many alternatives, those most often ranked first: each costs a
#: full pass over the matrix samples, so computing them for every alternative grows as m squared.
CONFIDENCE_LIMIT = 20


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
        (1.0 or 0.0 without uncertain cells); None where it has no central weights, and for all but the
        ``CONFIDENCE_LIMIT`` alternatives most often first (counted in ``confidence_omitted``). Computed when
        first read: a first-rank share alone never pays for it.
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
    sample_ranks: np.ndarray = field(repr=False)
    reference_weights: tuple[float, ...] | None
    reference_ranks: tuple[int, ...] | None
    weight_sampling: str
    uncertain_cells: tuple[tuple[str, str, float, float], ...]
    confidence_omitted: int = 0
    _confidence_of: Callable[[], tuple[float | None, ...]] = field(repr=False, default=tuple)

    @functools.cached_property
    def confidence(self) -> tuple[float | None, ...]:
        """Per alternative, its confidence factor (see the class notes); None where not computed."""
        found = self._confidence_of()
        object.__setattr__(self, "_confidence_of", tuple)  # its inputs (scorer, cell ranges) are needed no more
        return found

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
        return read_only(wins / self.n_samples, float)

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
                "confidence_omitted": self.confidence_omitted,
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
    problem: Problem,
    *,
    n_samples: int = figure.SAMPLES,
    seed: int = 0,
    weight_bounds: Any = None,
    cell_ranges: Any = None,
    weight_samples: Any = None,
) -> SMAAResult:
    """Run SMAA-2: rank acceptability, central weights and confidence factors by Monte Carlo sampling.

    Parameters
    ----------
    problem : Problem
        The decision problem (``Problem.of(..., allow_missing=True)`` when some cells are NaN: each must be
        covered by ``cell_ranges``). Its weights, when given, give the reference ranking and the centre of a
        numeric ``weight_bounds``.
    n_samples : int
        Number of Monte Carlo samples (weight vector + matrix draw each).
    seed : int
        Seed of ``numpy.random.default_rng``; the same seed gives the same result.
    weight_bounds : None, float or (n, 2) array
        None samples the whole simplex; (n, 2) [lo, hi] shares restrict it; a number d means [w - d, w + d].
    cell_ranges : None, (m, n, 2) array or dict
        Uncertain cells sampled uniformly in [lo, hi]; the array uses NaN for certain cells, the dict maps
        ``(alternative, criterion)`` (names or indices) to ``(lo, hi)``.
    weight_samples : (k, n) array, optional
        Use these weight vectors (rows normalised) instead of drawing them, e.g. to compare methods on the same
        samples; ``n_samples`` becomes k and ``weight_bounds`` must be None.

    Returns
    -------
    SMAAResult
    """
    spec, scaler, alts, crits = problem.spec, problem.scaler, problem.alternatives, problem.criteria
    m, n = problem.values.shape
    if int(n_samples) < 1:
        raise ScoringError(f"n_samples is {n_samples}; give at least 1 ({figure.SAMPLES:,} is typical)")
    ref_w = problem.weights
    lo, hi, unc = resolve_cell_ranges(cell_ranges, problem.values, alts, crits)
    scales = problem.value_scales
    check_values(
        lo, problem.signs, spec, scaler, alts, crits, context=" (value or lower end of its range)", value_scales=scales
    )
    check_values(
        hi, problem.signs, spec, scaler, alts, crits, context=" (value or upper end of its range)", value_scales=scales
    )
    bounds = resolve_weight_bounds(weight_bounds, ref_w, n, crits)

    rng_w, rng_cells, rng_conf = np.random.default_rng(seed).spawn(3)
    w_all = _weight_vectors(weight_samples, bounds, int(n_samples), rng_w, crits)
    scorer = vectorised.Scorer(problem, lo)
    chunk = max(1, _CHUNK_CELLS // (m * n))
    counts, sample_ranks, central = _rank_samples(scorer, w_all, lo, hi, unc, chunk, rng_cells)
    assessed = _most_often_first(central, counts[:, 0])
    return SMAAResult(
        method=spec.name,
        scaler=scaler,
        alternatives=alts,
        criteria=crits,
        n_samples=len(w_all),
        seed=int(seed),
        acceptability=read_only(counts / len(w_all), float),
        central_weights=tuple(None if c is None else tuple(float(v) for v in c) for c in central),
        sample_ranks=read_only(sample_ranks, copy=False),
        reference_weights=None if ref_w is None else tuple(float(v) for v in ref_w),
        reference_ranks=None if ref_w is None else tuple(int(r) for r in scorer.ranks(ref_w[None])[0]),
        weight_sampling=_sampling_text(weight_samples is not None, bounds, crits),
        uncertain_cells=_uncertain_cells(lo, hi, unc, alts, crits),
        confidence_omitted=sum(c is not None for c in central) - sum(c is not None for c in assessed),
        _confidence_of=functools.partial(_confidence, scorer, assessed, lo, hi, unc, len(w_all), chunk, rng_conf),
    )


def _most_often_first(central: list[np.ndarray | None], firsts: np.ndarray) -> list[np.ndarray | None]:
    """`central` with only the ``CONFIDENCE_LIMIT`` alternatives most often first kept (ties: the earlier one)."""
    owners = [i for i, cw in enumerate(central) if cw is not None]
    kept = set(sorted(owners, key=lambda i: (-int(firsts[i]), i))[:CONFIDENCE_LIMIT])
    return [cw if i in kept else None for i, cw in enumerate(central)]


def _uncertain_cells(
    lo: np.ndarray, hi: np.ndarray, unc: np.ndarray, alts: Sequence[str], crits: Sequence[str]
) -> tuple[tuple[str, str, float, float], ...]:
    ii, jj = np.nonzero(unc)
    return tuple((alts[i], crits[j], float(lo[i, j]), float(hi[i, j])) for i, j in zip(ii, jj, strict=True))


def _weight_vectors(
    given: Any,
    bounds: np.ndarray | None,
    n_samples: int,
    rng: np.random.Generator,
    crits: Sequence[str],
) -> np.ndarray:
    """The caller's weight vectors (checked, rows normalised), or ``n_samples`` drawn within ``bounds``."""
    if given is None:
        return sample_weights(len(crits), n_samples, rng, bounds)
    if bounds is not None:
        raise ScoringError("give either weight_samples or weight_bounds, not both")
    return vectorised.weight_rows(given, len(crits), crits)


def _rank_samples(
    scorer: vectorised.Scorer,
    w_all: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    unc: np.ndarray,
    chunk: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray | None]]:
    """Rank every sample, chunk by chunk: rank counts (m, m), the ranks per sample and the central weights."""
    m, n = lo.shape
    uncertain = bool(unc.any())
    rank_counts = np.zeros(m * m, dtype=np.int64)
    # every sample's ranks are kept (pairwise winning reads them): int16 while the ranks fit in it
    sample_ranks = np.empty((len(w_all), m), dtype=np.int16 if m < np.iinfo(np.int16).max else np.int32)
    first_counts = np.zeros(m, dtype=np.int64)
    first_weight_sums = np.zeros((m, n))
    for start in range(0, len(w_all), chunk):
        w = w_all[start : start + chunk]
        prepared = scorer.prepare(sample_matrices(lo, hi, unc, len(w), rng)) if uncertain else None
        ranks = scorer.ranks(w, prepared)
        rank_counts += np.bincount((np.arange(m) * m + (ranks - 1)).ravel(), minlength=m * m)
        sample_ranks[start : start + len(w)] = ranks
        first = ranks == 1
        first_counts += first.sum(axis=0)
        first_weight_sums += first.T.astype(float) @ w
    central = [first_weight_sums[i] / first_counts[i] if first_counts[i] else None for i in range(m)]
    return rank_counts.reshape(m, m), sample_ranks, central


def _sampling_text(given: bool, bounds: np.ndarray | None, crits: Sequence[str]) -> str:
    if given:
        return "weight vectors given by the caller"
    if bounds is None:
        return "uniform on the weight simplex"
    parts = ", ".join(f"{c} [{b[0]:.3g}, {b[1]:.3g}]" for c, b in zip(crits, bounds, strict=True))
    return f"uniform on the weight simplex within bounds: {parts}"


def _confidence(
    scorer: vectorised.Scorer,
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
        prepared = scorer.prepare(sample_matrices(lo, hi, unc, size, rng))
        for i, cw in enumerate(central):
            if cw is not None:
                first = scorer.first(np.broadcast_to(cw, (size, cw.size)), prepared)
                hits[i] += int(first[:, i].sum())
    return tuple(None if cw is None else float(hits[i] / n_samples) for i, cw in enumerate(central))
