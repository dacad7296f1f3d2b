"""MCDA scoring of a numeric decision matrix: the only module that talks to scikit-criteria.

Every result states its method and scaler, because the normalisation decides the answer: the same matrix can
crown a different winner under vector and min-max scaling.

The methods, their scalers and why each default was chosen are described in :mod:`selector.decision.problem`.

Ties: ``rank_scores`` gives equal scores (within a relative 1e-12, to absorb floating-point noise) the same,
lowest rank ("min" ranking: 1, 1, 3); the leader among tied alternatives is the first in input order.

Degenerate input (documented, never NaN):
- A column without spread (constant, or all zero) gives every alternative the same normalised value
  (sum: 1/m, vector: 1/sqrt(m), minmax: 0 as scikit-learn does), so it cannot change the ranking.
- TOPSIS where every weighted column is constant (including a single alternative): every alternative sits on
  the ideal point, closeness 1.0, all rank 1 (scikit-criteria would divide 0 by 0 and raise).
- VIKOR with a single alternative: Q = 0, rank 1 (scikit-criteria divides by m - 1 and raises).
- Negative values under sum scaling, non-positive values under WPM or in a cost column of WSM/WPM
  (which invert 1/x), negative values a weighted sum would add: refused by ``Problem.of``, naming the cell.
"""

from __future__ import annotations

import functools
import math
import threading
import types
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from selector import deferred
from selector.arrays import read_only
from selector.decision.problem import VALUE_SCALER, Problem, ScoringError

#: Relative tolerance under which two scores count as a tie (absorbs floating-point noise only).
TIE_RTOL = 1e-12

#: VIKOR strategy weight (v = 0.5 balances group utility and individual regret).
VIKOR_V = 0.5

#: Scalers whose result does not change when a column is multiplied by a positive number.
SCALE_FREE_SCALERS = frozenset({"sum", "vector", "minmax"})
#: Columns whose largest magnitude lies outside this range are divided by it before a scale-free step: a vector
#: norm squares its values (1e308 overflows to infinity, 1e-200 underflows to zero) and a sum can overflow.
SAFE_MAGNITUDE = (1e-100, 1e100)

_SKCRITERIA_LOCK = threading.Lock()
_NORMALISED_CACHE = 64  # distinct matrices whose normalisation is kept (a few kB each)


def _tie_tolerance(s: np.ndarray) -> np.ndarray:
    """Per row, the score difference below which two scores tie (``TIE_RTOL`` times the row's scale, at least 1)."""
    return TIE_RTOL * np.maximum(1.0, np.max(np.abs(s), axis=-1, keepdims=True))


def scale_columns(x: np.ndarray) -> np.ndarray:
    """`x` ((..., m, n)) with every column whose largest magnitude is outside ``SAFE_MAGNITUDE`` divided by it.

    Only for steps that are scale-free per column (sum, vector and min-max scaling, VIKOR's distances): they give
    the same result on the scaled column, and the arithmetic stays finite. Other columns are left bit for bit
    as they are, so ordinary data scores exactly as scikit-criteria scores it.

    Parameters
    ----------
    x : numpy.ndarray
        Finite values, alternatives on axis -2 and criteria on axis -1.

    Returns
    -------
    numpy.ndarray
        `x` itself when no column needs it, else a new array.
    """
    top = np.abs(x).max(axis=-2, keepdims=True)
    rescale = (top > 0) & ((top < SAFE_MAGNITUDE[0]) | (top > SAFE_MAGNITUDE[1]))
    if not rescale.any():
        return x
    return x / np.where(rescale, top, 1.0)


_PAIRWISE_CELLS = 1024  # rank_scores compares every pair up to this many comparisons, and sorts beyond


def rank_scores(scores: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """Rank scores along the last axis: 1 = best, ties share the lowest rank ("min" ranking: 1, 1, 3).

    Scores within ``TIE_RTOL`` (relative to the largest absolute score in the row, at least 1) are ties: an
    alternative's rank is 1 + the number of scores above its own by more than that tolerance. Counted on the
    sorted row, so a row of m scores costs O(m log m), not the m x m of comparing every pair (which only a few
    short rows use: it is fewer numpy calls).

    Parameters
    ----------
    scores : numpy.ndarray
        Shape (m,) or (k, m).
    higher_is_better : bool
        Direction of the scores.

    Returns
    -------
    numpy.ndarray
        Integer ranks with the shape of ``scores``.
    """
    s = np.asarray(scores, dtype=float)
    if not higher_is_better:
        s = -s
    shape = s.shape
    m = shape[-1]
    rows = s.reshape(-1, m)
    if rows.size * m <= _PAIRWISE_CELLS:
        # a few short rows (one ranking): comparing every pair is three numpy calls, the sort below a dozen
        ceiling = rows + _tie_tolerance(rows)
        return (1 + (rows[:, None, :] > ceiling[:, :, None]).sum(axis=2)).reshape(shape)
    order = np.argsort(rows, axis=1)
    ascending = np.take_along_axis(rows, order, axis=1)
    ceiling = ascending + _tie_tolerance(rows)  # a score and everything up to its ceiling tie with it
    # last[r, p]: the last sorted position whose score is at most the ceiling of position p. Usually p itself;
    # where the next score is within the tolerance (a tie), a binary search over the rest of the row finds it.
    last = np.broadcast_to(np.arange(m), rows.shape).copy()
    tied = np.zeros(rows.shape, dtype=bool)
    tied[:, :-1] = ascending[:, 1:] <= ceiling[:, :-1]
    if tied.any():
        r, p = np.nonzero(tied)
        lo, hi, top = p + 1, np.full_like(p, m), ceiling[r, p]
        while (open_ := hi - lo > 1).any():
            mid = (lo + hi) // 2
            within = (ascending[r, np.minimum(mid, m - 1)] <= top) & open_
            lo = np.where(within, mid, lo)
            hi = np.where(open_ & ~within, mid, hi)
        last[r, p] = lo
    ranks = np.empty(rows.shape, dtype=np.int64)
    np.put_along_axis(ranks, order, m - last, axis=1)
    return ranks.reshape(shape)


def first_ranked(scores: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """Which scores rank first along the last axis (rank 1 in :func:`rank_scores`), by one comparison with the max.

    Parameters
    ----------
    scores : numpy.ndarray
        Shape (m,) or (k, m).
    higher_is_better : bool
        Direction of the scores.

    Returns
    -------
    numpy.ndarray
        Booleans with the shape of ``scores``; ties for first place are all True.
    """
    s = np.asarray(scores, dtype=float)
    if not higher_is_better:
        s = -s
    # Alternatives on the first axis, contiguous: each reduction then runs over whole rows of weightings at once
    # rather than along a short last axis (benchmarks/bench_scoring.py measures it).
    # (.T for the usual (k, m): np.moveaxis's argument checks cost more than the reductions on a few weightings)
    t = np.ascontiguousarray(s.T if s.ndim <= 2 else np.moveaxis(s, -1, 0))
    top, bottom = t.max(axis=0), t.min(axis=0)
    tolerance = TIE_RTOL * np.maximum(np.maximum(np.abs(top), np.abs(bottom)), 1.0)  # as _tie_tolerance(s)
    firsts = t + tolerance >= top
    return firsts.T if s.ndim <= 2 else np.moveaxis(firsts, 0, -1)


def leader_index(scores: Sequence[float], higher_is_better: bool = True) -> int:
    """The first alternative that :func:`first_ranked` puts first in one row of scores (the same comparison).

    In plain Python: for the few alternatives of one weighting, numpy's per-call cost is most of the work (a
    verdict picks five methods' leaders on every slider move).
    """
    values = scores.tolist() if isinstance(scores, np.ndarray) else [float(v) for v in scores]
    row = values if higher_is_better else [-v for v in values]
    top = max(row)
    tolerance = TIE_RTOL * max(abs(top), abs(min(row)), 1.0)
    return next(i for i, v in enumerate(row) if v + tolerance >= top)


def to_jsonable(value: Any) -> Any:
    """Convert numpy arrays and scalars, tuples and mappings into JSON-safe lists, floats, ints and strings.

    Non-finite floats become None.
    """
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        f = float(value)
        return f if math.isfinite(f) else None
    if value is None or isinstance(value, str):
        return value
    return str(value)


class FrozenDict(dict):
    """A read-only dict: results stay immutable yet pickle (``st.cache_data`` pickles; a mappingproxy cannot)."""

    def _readonly(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("this mapping is part of an immutable result; copy it with dict(...) to change it")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _readonly  # type: ignore[assignment]

    def __reduce__(self):
        return (FrozenDict, (dict(self),))

    def __hash__(self) -> int:  # type: ignore[override]
        return id(self)


# ----------------------------------------------------------------------------------------------------------
# Result
# ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ScoreResult:
    """One scored decision matrix, with everything needed to explain the score.

    Attributes
    ----------
    method, scaler : str
        What produced the scores; always shown with them.
    alternatives, criteria : tuple of str
    matrix : numpy.ndarray
        The raw (m, n) matrix as given.
    objectives : tuple of str
        ``"max"`` or ``"min"`` per criterion.
    weights : numpy.ndarray
        Normalised weights (sum 1).
    scores : numpy.ndarray
        One score per alternative; see ``higher_is_better``.
    higher_is_better : bool
        False only for VIKOR (Q, lower is better).
    ranks : numpy.ndarray
        1 = best; ties share the lowest rank.
    normalised : numpy.ndarray
        The matrix the aggregation saw (after cost inversion for wsm/wpm and scaling; raw for vikor).
    contributions : numpy.ndarray or None
        For additive methods, per-criterion parts of the score that sum to it, as the method's spec
        (``contributions``) says: wsm ``w * normalised``, moora ``+/- w * normalised``, wpm
        ``w * log10(normalised)``. None for topsis and vikor.
    extra : dict
        The method's intermediates, those its spec declares (``intermediates``), plus ``degenerate`` saying why
        when the input is a documented degenerate case.
    """

    method: str
    scaler: str
    alternatives: tuple[str, ...]
    criteria: tuple[str, ...]
    matrix: np.ndarray
    objectives: tuple[str, ...]
    weights: np.ndarray
    scores: np.ndarray
    higher_is_better: bool
    ranks: np.ndarray
    normalised: np.ndarray
    contributions: np.ndarray | None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def leader(self) -> str:
        """Name of the best alternative (the first in input order among tied leaders)."""
        return self.alternatives[int(np.argmin(self.ranks))]

    @property
    def order(self) -> tuple[int, ...]:
        """Alternative indices from best to worst (ties in input order)."""
        return tuple(int(i) for i in np.lexsort((np.arange(len(self.ranks)), self.ranks)))

    def ranking(self) -> list[dict[str, Any]]:
        """Return ``[{"name", "score", "rank"}, ...]`` from best to worst."""
        return [
            {"name": self.alternatives[i], "score": float(self.scores[i]), "rank": int(self.ranks[i])}
            for i in self.order
        ]

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict of the whole result."""
        return to_jsonable(
            {
                "method": self.method,
                "scaler": self.scaler,
                "higher_is_better": self.higher_is_better,
                "leader": self.leader,
                "alternatives": self.alternatives,
                "criteria": self.criteria,
                "objectives": self.objectives,
                "weights": self.weights,
                "scores": self.scores,
                "ranks": self.ranks,
                "matrix": self.matrix,
                "normalised": self.normalised,
                "contributions": self.contributions,
                "extra": dict(self.extra),
            }
        )


# ----------------------------------------------------------------------------------------------------------
# scikit-criteria plumbing (imported lazily: importing skcriteria is slow, and most commands and pages never score)
# ----------------------------------------------------------------------------------------------------------


@functools.cache
def _skcriteria() -> types.ModuleType:
    """``import skcriteria``, with what scoring never uses of its imports deferred (see selector.deferred)."""
    with deferred.LOCK:
        deferred.install(deferred.BY_SKCRITERIA)
        import skcriteria

    return skcriteria


def _skc_scaler(scaler: str):
    _skcriteria()
    from skcriteria.preprocessing import scalers

    cls = {"sum": scalers.SumScaler, "vector": scalers.VectorScaler, "minmax": scalers.MinMaxScaler}[scaler]
    # target="matrix": weights are already normalised here and must not be rescaled.
    return cls(target="matrix")


def _skc_vikor(matrix: np.ndarray, objectives: Sequence[str], weights: np.ndarray):  # noqa: ANN202 - skcriteria result
    """VIKOR through scikit-criteria's VIKOR (it has no functional core to call)."""
    skc = _skcriteria()
    from skcriteria.agg.vikor import VIKOR

    # skcriteria warns for every constant column; the case is handled and documented here, so the warning would
    # only be noise. catch_warnings swaps process-wide state, so concurrent app sessions (threads) must not
    # interleave it: hence the lock.
    with _SKCRITERIA_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return VIKOR(v=VIKOR_V, use_compromise_set=False).evaluate(skc.mkdm(matrix, list(objectives), weights=weights))


def _degenerate_fill(scaler: str, m: int) -> float:
    """Normalised value given to every cell of a column whose scaling denominator is zero."""
    return {"sum": 1.0 / m, "vector": 1.0 / math.sqrt(m)}[scaler]


@functools.lru_cache(maxsize=_NORMALISED_CACHE)
def _normalised(
    data: bytes, shape: tuple[int, int], objectives: tuple[str, ...], invert: bool, scaler: str
) -> tuple[np.ndarray, tuple[str, ...]]:
    """The matrix the aggregation sees and its objectives, from scikit-criteria's inversion and scaling.

    Cost criteria are inverted for wsm and wpm (after which every objective is "max"), then scaled.
    Neither step reads the weights (the scalers act on the matrix only), so a weight change, the app's slider
    move and every Monte Carlo sample alike, reuses the normalisation of its matrix instead of redoing the two
    scikit-criteria transforms (about three quarters of a call). Keyed by the raw bytes, so equal matrices
    share an entry; the array returned is read-only.
    """
    skc = _skcriteria()
    x = np.frombuffer(data, dtype=float).reshape(shape)
    m, n = shape
    with _SKCRITERIA_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dm = skc.mkdm(x, list(objectives))
        if invert and "min" in objectives:
            from skcriteria.preprocessing.invert_objectives import InvertMinimize

            dm = InvertMinimize().transform(dm)
        if scaler != "none":
            before = dm.matrix.to_numpy(dtype=float)
            scaled = scale_columns(before)
            if scaled is not before:
                dm = dm.replace(matrix=scaled)
            dm = _skc_scaler(scaler).transform(dm)
            zero_cols = np.all(before == 0, axis=0) if scaler in ("sum", "vector") else np.zeros(n, dtype=bool)
            if zero_cols.any():
                fixed = dm.matrix.to_numpy(dtype=float).copy()
                fixed[:, zero_cols] = _degenerate_fill(scaler, m)
                dm = dm.replace(matrix=fixed)
        seen = tuple("max" if o > 0 else "min" for o in dm.iobjectives.to_numpy())
        return read_only(dm.matrix.to_numpy(dtype=float)), seen


# ----------------------------------------------------------------------------------------------------------
# The methods: each aggregates a normalised matrix and returns the intermediates its spec declares
# ----------------------------------------------------------------------------------------------------------
# They call scikit-criteria's own aggregation functions, those its WeightedSumModel, WeightedProductModel, TOPSIS
# and RatioMOORA call once they have unpacked their DecisionMatrix: calling them directly skips building a
# DecisionMatrix and copying it back out (four fifths of an ``evaluate`` on a small matrix). They do not validate:
# the Problem was checked when it was built, and the tests compare every method and scaler with the full pipeline.


@dataclass(frozen=True)
class _Aggregate:
    scores: Any
    contributions: np.ndarray | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _wsm(p: Problem, normalised: np.ndarray, signs: np.ndarray) -> _Aggregate:
    _skcriteria()
    from skcriteria.agg.simple import wsm

    _, scores = wsm(normalised, p.weights)
    return _Aggregate(scores, normalised * p.weights)


def _wpm(p: Problem, normalised: np.ndarray, signs: np.ndarray) -> _Aggregate:
    _skcriteria()
    from skcriteria.agg.simple import wpm

    _, scores = wpm(normalised, p.weights)
    return _Aggregate(scores, np.log10(normalised) * p.weights, {"product": np.power(10.0, scores)})


def _moora(p: Problem, normalised: np.ndarray, signs: np.ndarray) -> _Aggregate:
    _skcriteria()
    from skcriteria.agg.moora import ratio

    _, scores = ratio(normalised, signs, p.weights)
    return _Aggregate(scores, normalised * (p.weights * signs))


def _topsis(p: Problem, normalised: np.ndarray, signs: np.ndarray) -> _Aggregate:
    weighted = normalised * p.weights
    extra: dict[str, Any] = {}
    if np.all(weighted.max(axis=0) == weighted.min(axis=0)):
        scores = np.ones(len(normalised))
        ideal = anti = weighted[0].copy()
        extra["degenerate"] = "every weighted criterion is constant: all alternatives sit on the ideal"
    else:
        _skcriteria()
        from skcriteria.agg.topsis import topsis

        _, ideal, anti, scores = topsis(normalised, signs, p.weights)
    extra["ideal"] = np.asarray(ideal, dtype=float)
    extra["anti_ideal"] = np.asarray(anti, dtype=float)
    extra["d_ideal"] = np.sqrt(((weighted - ideal) ** 2).sum(axis=1))
    extra["d_anti_ideal"] = np.sqrt(((weighted - anti) ** 2).sum(axis=1))
    return _Aggregate(scores, None, extra)


def _vikor(p: Problem, normalised: np.ndarray, signs: np.ndarray) -> _Aggregate:
    if len(normalised) == 1:
        zero = np.zeros(1)
        return _Aggregate(
            zero,
            None,
            {
                "s_k": zero,
                "r_k": zero,
                "q_k": zero,
                "compromise_set": [p.alternatives[0]],
                "acceptable_advantage": True,
                "acceptable_stability": True,
                "degenerate": "single alternative: Q = 0 by definition",
                "v": VIKOR_V,
            },
        )
    res = _skc_vikor(scale_columns(normalised), p.objectives, p.weights)
    scores = np.asarray(res.e_.q_k, dtype=float)
    extra = {
        "s_k": np.asarray(res.e_.s_k, dtype=float),
        "r_k": np.asarray(res.e_.r_k, dtype=float),
        "q_k": scores.copy(),
        "compromise_set": [p.alternatives[int(i)] for i in res.e_.compromise_set],
        "acceptable_advantage": bool(res.e_.acceptable_advantage),
        "acceptable_stability": bool(res.e_.acceptable_stability),
        "v": VIKOR_V,
    }
    return _Aggregate(scores, None, extra)


_AGGREGATIONS: Mapping[str, Callable[[Problem, np.ndarray, np.ndarray], _Aggregate]] = MappingProxyType(
    {"mavt": _wsm, "wsm": _wsm, "wpm": _wpm, "topsis": _topsis, "vikor": _vikor, "moora": _moora}
)


# ----------------------------------------------------------------------------------------------------------
# Public entry point
# ----------------------------------------------------------------------------------------------------------


def score(problem: Problem) -> ScoreResult:
    """Score and rank the alternatives of a decision problem with its method, through scikit-criteria.

    Parameters
    ----------
    problem : Problem
        The checked problem (:meth:`selector.decision.problem.Problem.of`), with weights and every cell a number.

    Returns
    -------
    ScoreResult

    Raises
    ------
    ScoringError
        A problem without weights or with a missing cell.
    """
    weights = problem.scorable_weights()
    spec, x = problem.spec, problem.values
    if problem.scaler == VALUE_SCALER:
        # value functions on fixed scales: every column becomes "max" on 0..1, whoever else is ranked
        normalised = read_only(problem.value_scales.values(x, problem.signs))
        seen_signs = np.ones(len(problem.criteria), dtype=int)
    else:
        normalised, seen_objectives = _normalised(
            np.ascontiguousarray(x, dtype=float).tobytes(),
            x.shape,
            problem.objectives,
            spec.inverts_cost,
            problem.scaler,
        )
        seen_signs = np.array([1 if o == "max" else -1 for o in seen_objectives])
    aggregate = _AGGREGATIONS[spec.name](problem, normalised, seen_signs)
    scores = np.atleast_1d(np.asarray(aggregate.scores, dtype=float))
    if not np.all(np.isfinite(scores)):  # pragma: no cover - guarded by the checks of Problem.of
        raise ScoringError(f"{spec.name}/{problem.scaler} produced a non-finite score; please report this input")
    contributions = aggregate.contributions
    return ScoreResult(
        method=spec.name,
        scaler=problem.scaler,
        alternatives=problem.alternatives,
        criteria=problem.criteria,
        matrix=x,
        objectives=problem.objectives,
        weights=weights,
        scores=read_only(scores),
        higher_is_better=spec.higher_is_better,
        ranks=read_only(rank_scores(scores, spec.higher_is_better)),
        normalised=read_only(normalised),
        contributions=None if contributions is None else read_only(contributions),
        extra=FrozenDict({k: read_only(v) if isinstance(v, np.ndarray) else v for k, v in aggregate.extra.items()}),
    )
